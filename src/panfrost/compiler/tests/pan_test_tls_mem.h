/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The memory of the compute tests that use thread storage (pan_scratch,
 * pan_bi_spill, pan_va_spill): a read-only input buffer, an output buffer
 * and per-thread storage, at three fixed addresses, behind the read and
 * write callbacks of the Bifrost and Valhall interpreters, and one
 * compute warp's run over them.  The caller owns the three regions; the
 * harness only records how far into its slot a thread wrote, to check the
 * binary's tls_size against.
 */

#ifndef PAN_TEST_TLS_MEM_H
#define PAN_TEST_TLS_MEM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "compiler/nir/nir_builder.h"
#include "isa/pan_isa_va_encode.h"
#include "pan_compile.h"
#include "pan_sim_bi.h"
#include "pan_sim_va.h"
#include "pan_va.h"
#include "util/pan_test_util.h"

#define PAN_TEST_IN_BASE 0x100000ull
#define PAN_TEST_OUT_BASE 0x200000ull
#define PAN_TEST_TLS_BASE 0x300000ull

struct pan_test_tls_mem {
   const void *in; /* at PAN_TEST_IN_BASE, never written */
   unsigned in_B;
   void *out; /* at PAN_TEST_OUT_BASE */
   unsigned out_B;
   uint8_t *tls; /* at PAN_TEST_TLS_BASE: slot_B bytes per thread */
   unsigned tls_B;
   unsigned slot_B;
   /* Refuse thread storage accesses crossing a 16-byte line: Valhall's
    * thread-local (.force) accesses cannot. */
   bool tls_lines;
   unsigned tls_high; /* one past the highest slot byte written */
};

/* Zeroes the output and the thread storage and forgets tls_high. */
void pan_test_tls_mem_clear(struct pan_test_tls_mem *m);

/* The interpreters' callbacks, user a struct pan_test_tls_mem. */
bool pan_test_tls_mem_read(void *user, uint64_t addr, void *data,
                           unsigned size);
bool pan_test_tls_mem_write(void *user, uint64_t addr, const void *data,
                            unsigned size);

/* Initialiser of pan_sim_va_mem / pan_sim_bi_mem over m. */
#define PAN_TEST_TLS_MEM(m)                                                    \
   {                                                                           \
      (m), pan_test_tls_mem_read, pan_test_tls_mem_write                       \
   }

/* The thread storage the driver gives for tls_size: 16 << k bytes. */
unsigned pan_test_tls_slot_B(unsigned tls_size);

/* The address of element index, of size_B bytes, of the buffer whose
 * address is the 64-bit push word at word w (of the first 16 bytes). */
nir_ssa_def *pan_test_buf_addr(nir_builder *b, unsigned w, nir_ssa_def *index,
                               unsigned size_B);

/* One compute warp of bin over m, lane l being invocation l (r60), its
 * threads numbered first_thread on, each with m->slot_B bytes of thread
 * storage at PAN_TEST_TLS_BASE; u holds uniform_words push words.  NULL
 * when it ran to the end, else the fault (valid until the next run).
 * Valhall: the lanes of the mask `lanes` run; Bifrost: `lanes` lanes. */
static inline const char *
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
   PAN_EXPECT(pan_va_special_lookup("thread_local_pointer", &page, &entry));
   cfg.special[page][entry] = PAN_TEST_TLS_BASE;
   struct pan_sim_va_warp w;
   pan_sim_va_warp_init(&w, lanes);
   for (unsigned l = 0; l < PAN_SIM_VA_LANES; ++l)
      w.r[l][60] = l;
   if (pan_sim_va_run(&w, &cfg) == PAN_SIM_VA_DONE)
      return NULL;
   static char fault[PAN_SIM_VA_FAULT_LEN];
   snprintf(fault, sizeof(fault), "%s", w.fault);
   return fault;
}

static inline const char *
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
   static char fault[PAN_SIM_BI_FAULT_LEN];
   snprintf(fault, sizeof(fault), "%s", w.fault);
   return fault;
}

#endif
