/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include "pan_test_tls_mem.h"

#include <stdio.h>
#include <string.h>

#include "isa/pan_isa_va_encode.h"
#include "pan_compile.h"
#include "pan_sim_bi.h"
#include "pan_sim_va.h"
#include "pan_va.h"
#include "util/macros.h"

static char fault[256];

void
pan_test_tls_mem_clear(struct pan_test_tls_mem *m)
{
   memset(m->out, 0, m->out_B);
   memset(m->tls, 0, m->tls_B);
   m->tls_high = 0;
}

static uint8_t *
map(struct pan_test_tls_mem *m, uint64_t addr, unsigned size, bool write)
{
   if (addr >= PAN_TEST_IN_BASE && addr + size <= PAN_TEST_IN_BASE + m->in_B)
      return write ? NULL : (uint8_t *)m->in + (addr - PAN_TEST_IN_BASE);
   if (addr >= PAN_TEST_OUT_BASE && addr + size <= PAN_TEST_OUT_BASE + m->out_B)
      return (uint8_t *)m->out + (addr - PAN_TEST_OUT_BASE);
   if (addr >= PAN_TEST_TLS_BASE &&
       addr + size <= PAN_TEST_TLS_BASE + m->tls_B) {
      if (m->tls_lines && (addr & 15) + size > 16)
         return NULL;
      /* slot_B 0, a run given no thread storage: offsets from the start. */
      if (write) {
         unsigned in_slot =
            (unsigned)(addr - PAN_TEST_TLS_BASE) % MAX2(m->slot_B, 1);
         m->tls_high = MAX2(m->tls_high, in_slot + size);
      }
      return m->tls + (addr - PAN_TEST_TLS_BASE);
   }
   return NULL;
}

bool
pan_test_tls_mem_read(void *user, uint64_t addr, void *data, unsigned size)
{
   uint8_t *p = map(user, addr, size, false);
   if (p)
      memcpy(data, p, size);
   return p != NULL;
}

bool
pan_test_tls_mem_write(void *user, uint64_t addr, const void *data,
                       unsigned size)
{
   uint8_t *p = map(user, addr, size, true);
   if (p)
      memcpy(p, data, size);
   return p != NULL;
}

const char *
pan_test_tls_run_va(const struct pan_va_binary *bin, struct pan_test_tls_mem *m,
                    const uint32_t *u, unsigned uniform_words, uint16_t lanes,
                    unsigned first_thread)
{
   struct pan_sim_va_config cfg = {
      .program = bin->words,
      .program_words = bin->nr_words,
      .program_va = 0x800000,
      .uniforms = u,
      .uniform_words = uniform_words,
      .mem = PAN_TEST_TLS_MEM(m),
      .tls_thread_B = m->slot_B,
      .tls_thread = first_thread,
   };
   uint8_t page = 0, entry = 0;
   if (!pan_va_special_lookup("thread_local_pointer", &page, &entry))
      return "no thread_local_pointer special value";
   cfg.special[page][entry] = PAN_TEST_TLS_BASE;
   struct pan_sim_va_warp w;
   pan_sim_va_warp_init(&w, lanes);
   for (unsigned l = 0; l < PAN_SIM_VA_LANES; ++l)
      w.r[l][60] = l;
   if (pan_sim_va_run(&w, &cfg) == PAN_SIM_VA_DONE)
      return NULL;
   snprintf(fault, sizeof(fault), "%s", w.fault);
   return fault;
}

const char *
pan_test_tls_run_bi(const struct pan_bi_binary *bin, struct pan_test_tls_mem *m,
                    const uint32_t *u, unsigned uniform_words, unsigned lanes,
                    unsigned first_thread)
{
   struct pan_sim_bi_config cfg = {
      .program = bin->words,
      .program_quads = bin->nr_words / 2,
      .program_va = 0x800000,
      .uniforms = u,
      .uniform_words = uniform_words,
      .mem = PAN_TEST_TLS_MEM(m),
      .tls_base = PAN_TEST_TLS_BASE,
      .tls_thread_B = m->slot_B,
      .tls_thread = first_thread,
      .lanes = lanes,
   };
   struct pan_sim_bi_warp w;
   pan_sim_bi_warp_init(&w, BITFIELD_MASK(lanes));
   for (unsigned l = 0; l < lanes; ++l)
      w.r[l][60] = l;
   if (pan_sim_bi_run(&w, &cfg) == PAN_SIM_BI_DONE)
      return NULL;
   snprintf(fault, sizeof(fault), "%s", w.fault);
   return fault;
}

unsigned
pan_test_tls_slot_B(unsigned tls_size)
{
   unsigned slot_B = 16;
   while (slot_B < tls_size)
      slot_B *= 2;
   return slot_B;
}

nir_ssa_def *
pan_test_push64(nir_builder *b, unsigned w)
{
   return nir_load_push_constant(b, 1, 64, nir_imm_int(b, 0), .base = w * 4,
                                 .range = 16);
}
