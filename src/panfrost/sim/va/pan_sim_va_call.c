/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Calls out of the program (v9 blend shaders).  The fragment shader
 * branches to the blend shader's address with its return address in a
 * register; the blend shader shares the thread's registers and branches
 * back there, or ends the thread when it was given none.  Here the called
 * code runs as a nested warp on a copy of the registers of the lanes
 * taking the branch: what it leaves in them is copied back, so that
 * registers it overwrites are lost to the caller as on the hardware.
 */

#include <stdio.h>
#include <string.h>

#include "pan_sim_va_priv.h"

enum va_sim_result
pan_sim_va_call(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
                uint64_t va, uint16_t lanes)
{
   const struct pan_sim_va_config *cfg = c->cfg;
   unsigned words = 0;
   const uint64_t *code = cfg->code_at(cfg->code_user, va, &words);

   if (!code || !words)
      return pan_sim_va_fault(c, ins, "call to 0x%llx: no code there",
                              (unsigned long long)va);

   struct pan_sim_va_config sub = *cfg;
   sub.program = code;
   sub.program_words = words;
   sub.program_va = va;
   sub.code_at = NULL; /* blend shaders call nothing */
   sub.returns = true;
   /* The called code runs in the caller's thread: its declared file. */

   static __thread struct pan_sim_va_warp w;
   memset(&w, 0, sizeof(w));
   memcpy(w.r, c->w->r, sizeof(w.r));
   w.live = lanes;
   enum pan_sim_va_status st = pan_sim_va_run(&w, &sub);
   c->w->executed += w.executed;
   if (st == PAN_SIM_VA_BARRIER)
      return pan_sim_va_fault(c, ins, "barrier in code called at 0x%llx",
                              (unsigned long long)va);
   if (st != PAN_SIM_VA_DONE)
      return pan_sim_va_fault(c, ins, "in code called at 0x%llx: %s",
                              (unsigned long long)va, w.fault);

   uint64_t base = cfg->program_va;
   for (unsigned l = 0; l < PAN_SIM_VA_LANES; ++l) {
      if (!(lanes & (1u << l)))
         continue;
      memcpy(c->w->r[l], w.r[l], sizeof(w.r[l]));
      if (w.discarded & (1u << l)) {
         c->w->discarded |= 1u << l;
         c->w->live &= ~(1u << l);
      } else if (!(w.exited & (1u << l))) {
         /* Ended in the called code: the thread is done. */
         c->w->live &= ~(1u << l);
      } else {
         uint64_t to = w.exit_va[l];
         if (to < base || (to - base) % 8 ||
             (to - base) / 8 >= cfg->program_words)
            return pan_sim_va_fault(c, ins,
                                    "return to 0x%llx outside the program",
                                    (unsigned long long)to);
         c->next[l] = (uint32_t)((to - base) / 8);
      }
   }
   return VA_SIM_OK;
}
