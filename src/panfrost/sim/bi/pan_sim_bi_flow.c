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

/* Comparisons of branchz (against zero) and discard, by cmpf. */
enum { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GE, CMP_GT };

/* The cmpf of ins as CMP_*, looked up once per instruction (its memo);
 * any other value is branchz's gt. */
static unsigned
cmp_code(const struct pan_sim_bi_ins *ins)
{
   static const char *const names[] = { "eq", "ne", "lt", "le", "ge" };
   int64_t v;
   if (pan_sim_bi_memo_get(ins, "flow_cmp", NULL, &v))
      return (unsigned)v;
   const char *f = pan_sim_bi_mod_str(ins, "cmpf", "eq");
   unsigned code = CMP_GT;
   for (unsigned i = 0; i < 5; i++) {
      if (!strcmp(f, names[i]))
         code = i;
   }
   pan_sim_bi_memo_put(ins, "flow_cmp", NULL, code);
   return code;
}

static bool
zcond(unsigned cmp, int64_t x)
{
   switch (cmp) {
   case CMP_EQ:
      return x == 0;
   case CMP_NE:
      return x != 0;
   case CMP_LT:
      return x < 0;
   case CMP_LE:
      return x <= 0;
   case CMP_GE:
      return x >= 0;
   default:
      return x > 0;
   }
}

/* discard has eq, ne, lt, le. */
static bool
discard_cond(unsigned cmp, float a, float b)
{
   switch (cmp) {
   case CMP_EQ:
      return a == b;
   case CMP_NE:
      return a != b;
   case CMP_LT:
      return a < b;
   default:
      return a <= b;
   }
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

   unsigned cmp = cmp_code(ins);
   struct bi_src_ref s0 = pan_sim_bi_src_ref(c, ins, 0);
   if (fam == BI_FAM_DISCARD) {
      struct bi_src_ref s1 = pan_sim_bi_src_ref(c, ins, 1);
      bi_foreach_lane(c, l)
      {
         if (discard_cond(cmp, pan_sim_fp_f32(bi_src_at(s0, l)),
                          pan_sim_fp_f32(bi_src_at(s1, l)))) {
            c->w->discarded |= 1u << l;
            c->w->live &= ~(1u << l);
            c->exec &= ~(1u << l);
         }
      }
      return BI_SIM_OK;
   }
   struct bi_src_ref so = pan_sim_bi_src_ref(c, ins, ins->op->nr_srcs - 1);
   bool absolute = fam == BI_FAM_JUMP && !pc_relative(c, ins);
   bool sext = st == BI_TYPE_S32;
   unsigned hshift = i16 && pan_sim_bi_mod_is(ins, "widen0", "h1") ? 16 : 0;
   bi_foreach_lane(c, l)
   {
      uint32_t off = bi_src_at(so, l);
      if (absolute) {
         c->target[l] = off;
      } else if (fam == BI_FAM_JUMP) {
         c->target[l] = c->clause_pc + (int64_t)(int32_t)bi_sim_sext(off, 28);
      } else {
         uint32_t v = bi_src_at(s0, l);
         if (i16)
            v = (v >> hshift) & 0xffff;
         if (!zcond(cmp, sext ? (int64_t)(int32_t)v : (int64_t)v))
            continue;
         c->target[l] = c->clause_pc + (int64_t)(int32_t)bi_sim_sext(off, 28);
      }
      c->taken |= 1u << l;
   }
   return BI_SIM_OK;
}
