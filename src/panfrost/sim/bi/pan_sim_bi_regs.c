/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The register file a Bifrost shader declared (simulator-bifrost.rst,
 * "Declared registers"): a v7 thread declaring 32 work registers has
 * r0-r15 and r48-r63 only, so any other register it reads or writes
 * through the register block or as staging faults, naming the register.
 */

#include "pan_sim_bi_priv.h"

/* The registers work_regs leaves the thread (0 and 64: all of them). */
static uint64_t
register_file(unsigned work_regs)
{
   return work_regs == 32 ? 0xffffull | 0xffffull << 48 : ~0ull;
}

static enum bi_sim_result
reg_ok(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
       const char *what, unsigned r, unsigned n)
{
   uint64_t missing = ~register_file(c->cfg->work_regs);
   for (unsigned i = r; i < r + n && i < PAN_SIM_BI_REGS; ++i) {
      if (missing >> i & 1)
         return pan_sim_bi_fault(c, ins,
                                 "%s r%u does not exist in a shader "
                                 "declaring %u registers",
                                 what, i, c->cfg->work_regs);
   }
   return BI_SIM_OK;
}

enum bi_sim_result
pan_sim_bi_block_regs_ok(struct pan_sim_bi_ctx *c)
{
   if (register_file(c->cfg->work_regs) == ~0ull)
      return BI_SIM_OK;
   const struct bi_regblock *b = &c->blk;
   for (unsigned p = 0; p < 3; ++p) {
      if (b->read[p] >= 0 && reg_ok(c, NULL, "source", b->read[p], 1))
         return BI_SIM_FAULT;
   }
   /* The first block's writes are the last tuple's, checked here too. */
   const struct bi_dest *d[2] = { &b->fma, &b->add };
   for (unsigned i = 0; i < 2; ++i) {
      if (d[i]->reg >= 0 &&
          reg_ok(c, NULL, i ? "ADD destination" : "FMA destination", d[i]->reg,
                 1))
         return BI_SIM_FAULT;
   }
   return BI_SIM_OK;
}

enum bi_sim_result
pan_sim_bi_staging_ok(struct pan_sim_bi_ctx *c,
                      const struct pan_sim_bi_ins *ins, unsigned sr, unsigned n)
{
   if (sr + n > PAN_SIM_BI_REGS)
      return pan_sim_bi_fault(c, ins, "staging r%u..r%u beyond r63", sr,
                              sr + n - 1);
   return reg_ok(c, ins, "staging", sr, n);
}
