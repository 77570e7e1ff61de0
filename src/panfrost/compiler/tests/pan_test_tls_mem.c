/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include "pan_test_tls_mem.h"

#include <string.h>

#include "util/macros.h"

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

unsigned
pan_test_tls_slot_B(unsigned tls_size)
{
   unsigned slot_B = 16;
   while (slot_B < tls_size)
      slot_B *= 2;
   return slot_B;
}

nir_ssa_def *
pan_test_buf_addr(nir_builder *b, unsigned w, nir_ssa_def *index,
                  unsigned size_B)
{
   /* Offset, then base: one fixed order (C leaves arguments' open). */
   nir_ssa_def *offset = nir_u2u64(b, nir_imul_imm(b, index, size_B));
   nir_ssa_def *base = nir_load_push_constant(b, 1, 64, nir_imm_int(b, 0),
                                              .base = w * 4, .range = 16);
   return nir_iadd(b, base, offset);
}
