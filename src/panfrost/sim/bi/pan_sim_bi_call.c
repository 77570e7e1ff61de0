/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Blend-shader calls of the Bifrost interpreter.  A BLEND whose
 * descriptor is in shader mode writes the descriptor's return value (the
 * low word of a clause address of the caller, 0 for none) to its
 * destination register and, when its clause ends, the thread goes on in
 * the blend shader, which shares its registers.  The blend shader comes
 * back by branching to that value; a branch to 0, or reaching its last
 * clause, ends the thread.  Here the called code runs as a nested warp on
 * a copy of the calling lanes' registers, copied back afterwards: what it
 * overwrites is lost to the caller, as on the hardware.
 */

#include <string.h>

#include "pan_sim_bi_priv.h"

/* Run the code at va on the lanes given; their next clause or their end. */
static enum bi_sim_result
call_one(struct pan_sim_bi_ctx *c, uint64_t va, uint16_t lanes)
{
   const struct pan_sim_bi_config *cfg = c->cfg;
   unsigned quads = 0;
   const uint64_t *code = cfg->code_at(cfg->code_user, va, &quads);

   if (!code || !quads)
      return pan_sim_bi_fault(c, NULL, "blend shader call to 0x%llx: no code "
                                       "there",
                              (unsigned long long)va);

   struct pan_sim_bi_config sub = *cfg;
   sub.program = code;
   sub.program_quads = quads;
   sub.program_va = va;
   sub.code_at = NULL; /* blend shaders call nothing */
   sub.returns = true;

   static __thread struct pan_sim_bi_warp w;
   memset(&w, 0, sizeof(w));
   memcpy(w.r, c->w->r, sizeof(w.r));
   w.live = lanes;
   enum pan_sim_bi_status st = pan_sim_bi_run(&w, &sub);
   c->w->tuples += w.tuples;
   c->w->clauses += w.clauses;
   if (st == PAN_SIM_BI_BARRIER)
      return pan_sim_bi_fault(c, NULL, "barrier in the blend shader at 0x%llx",
                              (unsigned long long)va);
   if (st != PAN_SIM_BI_DONE)
      return pan_sim_bi_fault(c, NULL, "in the blend shader at 0x%llx: %s",
                              (unsigned long long)va, w.fault);

   uint64_t base = cfg->program_va;
   for (unsigned l = 0; l < c->lanes; ++l) {
      uint16_t bit = 1u << l;
      if (!(lanes & bit))
         continue;
      memcpy(c->w->r[l], w.r[l], sizeof(w.r[l]));
      uint64_t to = w.exit_va[l];
      if (w.discarded & bit) {
         c->w->discarded |= bit;
         c->w->live &= ~bit;
      } else if (!(w.exited & bit) || !(uint32_t)to) {
         /* Ended there, or returned to 0: the thread is done. */
         c->w->live &= ~bit;
      } else if (to < base || (to - base) % 16 ||
                 (to - base) / 16 >= cfg->program_quads) {
         return pan_sim_bi_fault(c, NULL,
                                 "blend shader returns to 0x%llx, outside "
                                 "the program",
                                 (unsigned long long)to);
      } else {
         /* Back in the caller, even after its last clause. */
         c->w->live |= bit;
         c->w->pc[l] = to - base;
      }
   }
   return BI_SIM_OK;
}

enum bi_sim_result
pan_sim_bi_call(struct pan_sim_bi_ctx *c)
{
   /* Callers in a clause that ends the shader end after the call. */
   uint16_t left = c->calls;

   if (c->cfg->returns)
      return pan_sim_bi_fault(c, NULL, "a blend shader calls a blend shader");
   /* Lanes of one call site share its descriptor: one run per address. */
   while (left) {
      unsigned first = (unsigned)__builtin_ctz(left);
      uint64_t va = c->call_va[first];
      uint16_t lanes = 0;
      for (unsigned l = first; l < c->lanes; ++l) {
         if ((left & (1u << l)) && c->call_va[l] == va)
            lanes |= 1u << l;
      }
      left &= ~lanes;
      if (call_one(c, va, lanes))
         return BI_SIM_FAULT;
   }
   return BI_SIM_OK;
}
