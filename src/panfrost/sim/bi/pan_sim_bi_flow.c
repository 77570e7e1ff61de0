/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Control flow of the Bifrost interpreter: conditional branches, jumps,
 * discard and the workgroup barrier (which only marks the clause: the
 * warp stops when the clause ends, see pan_sim_bi.c).  A taken branch
 * only records the lane's next clause; the clause
 * still runs to its end (the branch is the clause's last instruction).
 *
 * Branch offsets are bytes from the start of the current clause, held in
 * the low 28 bits of the offset source (the compiler keeps the top 4 bits
 * for other uses), sign-extended.  The hardware gets there by adding the
 * clause address to the high half of a constant marked PC-relative; the
 * interpreter works in program offsets instead, so a JUMP whose target is
 * the high half of a clause constant is relative like BRANCHZ, and one
 * taking a register (a computed target) is a byte offset from the start
 * of the program.
 */

#include <string.h>

#include "pan_sim_bi_priv.h"
#include "pan_sim_fp.h"

static bool
zcond(const struct pan_sim_bi_ins *ins, uint32_t v)
{
   const char *f = pan_sim_bi_mod_str(ins, "cmpf", "eq");
   unsigned t = ins->sem->src_type;
   int64_t x = t == BI_TYPE_S32 ? (int64_t)(int32_t)v : (int64_t)v;
   if (!strcmp(f, "eq"))
      return x == 0;
   if (!strcmp(f, "ne"))
      return x != 0;
   if (!strcmp(f, "lt"))
      return x < 0;
   if (!strcmp(f, "le"))
      return x <= 0;
   if (!strcmp(f, "ge"))
      return x >= 0;
   return x > 0;
}

static bool
discard_cond(const struct pan_sim_bi_ins *ins, float a, float b)
{
   const char *f = pan_sim_bi_mod_str(ins, "cmpf", "eq");
   if (!strcmp(f, "eq"))
      return a == b;
   if (!strcmp(f, "ne"))
      return a != b;
   if (!strcmp(f, "lt"))
      return a < b;
   return a <= b;
}

/* Whether the offset (the last source) is the high half of a clause
 * constant, where the compiler puts PC-relative offsets. */
static bool
pc_relative(const struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins)
{
   unsigned sel = (ins->word >> ins->op->srcs[ins->op->nr_srcs - 1]) & 7;
   return sel == 5 && pan_sim_bi_fau_is_const(c->blk.fau);
}

enum bi_sim_result
pan_sim_bi_exec_flow(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins)
{
   unsigned fam = ins->sem->family, st = ins->sem->src_type;
   bool w32 = st == BI_TYPE_I32 || st == BI_TYPE_S32 || st == BI_TYPE_U32;
   if (fam == BI_FAM_BARRIER) {
      if (c)
         c->barrier = true;
      return BI_SIM_OK;
   }
   /* branchz.i16 tests the half its widen0 names (h0 or h1). */
   bool i16 = st == BI_TYPE_I16 && (pan_sim_bi_mod_is(ins, "widen0", "h0") ||
                                    pan_sim_bi_mod_is(ins, "widen0", "h1"));
   if (!((fam == BI_FAM_BRANCHZ && (w32 || i16) &&
          pan_sim_bi_mod(ins, "combine") < 0) ||
         fam == BI_FAM_JUMP ||
         (fam == BI_FAM_DISCARD && pan_sim_bi_mod(ins, "d8") == 0)))
      return BI_SIM_UNCLAIMED;
   if (!c)
      return BI_SIM_OK;

   bi_foreach_lane(c, l)
   {
      if (fam == BI_FAM_DISCARD) {
         if (discard_cond(ins, pan_sim_fp_f32(pan_sim_bi_src(c, ins, 0, l)),
                          pan_sim_fp_f32(pan_sim_bi_src(c, ins, 1, l)))) {
            c->w->discarded |= 1u << l;
            c->w->live &= ~(1u << l);
            c->exec &= ~(1u << l);
         }
         continue;
      }
      uint32_t off = pan_sim_bi_src(c, ins, ins->op->nr_srcs - 1, l);
      if (fam == BI_FAM_JUMP && !pc_relative(c, ins)) {
         c->target[l] = off;
      } else if (fam == BI_FAM_JUMP) {
         c->target[l] = c->clause_pc + (int64_t)(int32_t)bi_sim_sext(off, 28);
      } else {
         uint32_t v = pan_sim_bi_src(c, ins, 0, l);
         if (i16)
            v = (v >> (pan_sim_bi_mod_is(ins, "widen0", "h1") ? 16 : 0)) &
                0xffff;
         if (!zcond(ins, v))
            continue;
         c->target[l] = c->clause_pc + (int64_t)(int32_t)bi_sim_sext(off, 28);
      }
      c->taken |= 1u << l;
   }
   return BI_SIM_OK;
}
