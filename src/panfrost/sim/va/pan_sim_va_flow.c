/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Flow control families: nop, branchz, branchzi (absolute), discard,
 * barrier.  An absolute branch out of the program is a call when the
 * executor gives code there (pan_sim_va_call.c), or a return in the
 * called code.  Branches only set each lane's next program counter; which
 * lanes run next is the scheduler's business (pan_sim_va.c), and so is
 * stopping the warp at a barrier.
 */

#include <string.h>

#include "pan_sim_va_priv.h"

/* Lanes whose source 0 is nonzero under the combine modifier, or -1. */
static int
nonzero_lanes(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins)
{
   const char *combine = pan_sim_va_src_mod_str(ins, 0, "combine", "none");
   uint32_t mask;
   int out = 0;

   if (!strcmp(combine, "none"))
      mask = 0xffffffffu;
   else if (!strcmp(combine, "h0"))
      mask = 0xffffu;
   else if (!strcmp(combine, "h1"))
      mask = 0xffff0000u;
   else
      return -1;
   foreach_lane(c, l)
   {
      if (pan_sim_va_src32(c, ins, 0, l) & mask)
         out |= 1 << l;
   }
   return out;
}

static enum va_sim_result
branch(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins)
{
   int nz = nonzero_lanes(c, ins);
   bool on_zero = pan_sim_va_mod(ins, "eq") == 1;
   bool indirect = ins->sem->family == VA_FAM_BRANCHZI;

   if (nz < 0)
      return pan_sim_va_refuse(c, ins, "and/lowbits combine");
   if (indirect && pan_sim_va_mod(ins, "absolute") != 1)
      return pan_sim_va_refuse(c, ins, "relative indirect branch");

   uint64_t call_va = 0;
   uint16_t call = 0;
   foreach_lane(c, l)
   {
      bool taken = on_zero != !!(nz & (1 << l));
      if (!taken)
         continue;
      int64_t target;
      if (indirect) {
         /* The target is the low word of a byte address in the
          * program's 4 GiB window. */
         uint64_t base = c->cfg->program_va;
         uint64_t addr =
            (base & ~0xffffffffull) | pan_sim_va_src32(c, ins, 1, l);
         bool inside = addr >= base && (addr - base) % 8 == 0 &&
                       (addr - base) / 8 < c->cfg->program_words;
         if (!inside && c->cfg->returns) {
            /* Back out of called code: the caller goes on there. */
            c->w->exited |= 1u << l;
            c->w->exit_va[l] = addr;
            c->w->live &= ~(1u << l);
            continue;
         }
         if (!inside && c->cfg->code_at) {
            if (call && addr != call_va)
               return pan_sim_va_refuse(c, ins, "divergent call targets");
            call_va = addr;
            call |= 1u << l;
            continue;
         }
         if (addr < base || (addr - base) % 8)
            return pan_sim_va_fault(c, ins,
                                    "branch target 0x%llx outside the "
                                    "program",
                                    (unsigned long long)addr);
         target = (addr - base) / 8;
      } else {
         target = (int64_t)c->pc + 1 + pan_sim_va_imm(ins, "offset");
      }
      /* Out-of-range targets fault when fetched, like any bad pc. */
      c->next[l] =
         target < 0 || target > UINT32_MAX ? UINT32_MAX : (uint32_t)target;
   }
   return call ? pan_sim_va_call(c, ins, call_va, call) : VA_SIM_OK;
}

enum va_sim_result
pan_sim_va_exec_flow(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins)
{
   switch (ins->sem->family) {
   case VA_FAM_NOP:
      return VA_SIM_OK;
   case VA_FAM_BRANCHZ:
   case VA_FAM_BRANCHZI:
      return branch(c, ins);
   case VA_FAM_DISCARD: {
      const char *cmp = pan_sim_va_mod_str(ins, "cmp", "eq");
      foreach_lane(c, l)
      {
         double a = pan_sim_va_fsrc(c, ins, 0, l, 0, 32);
         double b = pan_sim_va_fsrc(c, ins, 1, l, 0, 32);
         bool kill = !strcmp(cmp, "eq")   ? a == b
                     : !strcmp(cmp, "ne") ? a != b
                     : !strcmp(cmp, "gt") ? a > b
                     : !strcmp(cmp, "ge") ? a >= b
                     : !strcmp(cmp, "lt") ? a < b
                     : !strcmp(cmp, "le") ? a <= b
                                          : (a < b || a > b);
         if (!strcmp(cmp, "total"))
            return pan_sim_va_refuse(c, ins, "total-order compare");
         if (kill) {
            c->w->discarded |= 1u << l;
            c->w->live &= ~(1u << l);
         }
      }
      return VA_SIM_OK;
   }
   case VA_FAM_BARRIER:
      c->barrier = true;
      return VA_SIM_OK;
   default:
      return VA_SIM_UNCLAIMED;
   }
}
