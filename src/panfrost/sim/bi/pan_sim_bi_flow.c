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
 * A branch goes to an absolute code address: the low word of one in the
 * program's 4 GiB window (the upper word of the clause's address).  A
 * compiler gets a relative branch from a clause constant marked with the
 * modifier M = 4, which adds the clause address to the distance as the
 * constant is read (pan_sim_bi.c); an unmarked constant or a register is
 * the address itself.
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

/* Program offset of the code address whose low word is target, or a
 * fault when it lies before the program (one beyond its end faults when
 * fetched, like any bad program counter). */
static enum bi_sim_result
branch_target(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
              uint32_t target, uint64_t *pc)
{
   uint64_t base = c->cfg->program_va;
   uint64_t addr = ((base + c->clause_pc) & ~0xffffffffull) | target;
   /* Called code may branch anywhere: out of it is a return (the
    * offset wraps, the caller adds the base back). */
   if (addr < base && c->cfg->returns) {
      *pc = addr - base;
      return BI_SIM_OK;
   }
   if (addr < base)
      return pan_sim_bi_fault(c, ins,
                              "branch target 0x%llx before the program "
                              "at 0x%llx",
                              (unsigned long long)addr,
                              (unsigned long long)base);
   *pc = addr - base;
   return BI_SIM_OK;
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
   bool sext = st == BI_TYPE_S32;
   unsigned hshift = i16 && pan_sim_bi_mod_is(ins, "widen0", "h1") ? 16 : 0;
   bi_foreach_lane(c, l)
   {
      if (fam != BI_FAM_JUMP) {
         uint32_t v = bi_src_at(s0, l);
         if (i16)
            v = (v >> hshift) & 0xffff;
         if (!zcond(cmp, sext ? (int64_t)(int32_t)v : (int64_t)v))
            continue;
      }
      if (branch_target(c, ins, bi_src_at(so, l), &c->target[l]))
         return BI_SIM_FAULT;
      c->taken |= 1u << l;
   }
   return BI_SIM_OK;
}
