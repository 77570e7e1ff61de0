/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The compute-style Bifrost interpreter run the compiler tests share. */

#ifndef PAN_BI_TEST_SIM_H
#define PAN_BI_TEST_SIM_H

#include "pan_compile.h"
#include "pan_sim_bi.h"
#include "pan_va_test_sim.h"

/* bin over n lanes, each with its lane number in r60, reading and writing
 * m through mem_read/mem_write, with 16 uniform words u at program
 * address 0x800000.  The caller may set more of cfg (workgroup storage)
 * before pan_sim_bi_run. */
static inline void
bi_test_setup(struct pan_sim_bi_config *cfg, struct pan_sim_bi_warp *w,
              const struct pan_bi_binary *bin, const uint32_t *u,
              struct mem *m, unsigned n)
{
   *cfg = (struct pan_sim_bi_config){
      .program = bin->words,
      .program_quads = bin->nr_words / 2,
      .program_va = 0x800000,
      .uniforms = u,
      .uniform_words = 16,
      .mem = { m, mem_read, mem_write },
      .lanes = n,
   };
   pan_sim_bi_warp_init(w, (1u << n) - 1);
   for (unsigned l = 0; l < n; ++l)
      w->r[l][60] = l;
}

#endif
