/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The warp scheduler of the Valhall interpreter.
 *
 * Divergence model: every lane has its own program counter.  Each step
 * issues the instruction at the lowest pc among the live lanes, for the
 * lanes at that pc.  With structured control flow (forward branches around
 * if/else arms, backward branches closing loops) lanes that took different
 * paths meet again at the first instruction they share, which is where
 * the hardware reconverges; the .reconverge flow is therefore a no-op.
 */

#include <stdio.h>
#include <string.h>

#include "pan_sim_va_cache.h"

void
pan_sim_va_warp_init(struct pan_sim_va_warp *w, uint16_t exec_mask)
{
   memset(w, 0, sizeof(*w));
   w->live = exec_mask;
}

enum va_sim_result
pan_sim_va_dispatch(struct pan_sim_va_ctx *c,
                    const struct pan_sim_va_ins *ins)
{
   static enum va_sim_result (*const groups[])(
      struct pan_sim_va_ctx *, const struct pan_sim_va_ins *) = {
      pan_sim_va_exec_flow, pan_sim_va_exec_falu, pan_sim_va_exec_ialu,
      pan_sim_va_exec_cvt,  pan_sim_va_exec_cmp,  pan_sim_va_exec_sfu,
      pan_sim_va_exec_msg,
   };

   /* A cached instruction remembers the group that claimed it. */
   if (c && ins->memo && ins->memo->group >= 0)
      return groups[ins->memo->group](c, ins);
   for (unsigned i = 0; i < sizeof(groups) / sizeof(groups[0]); ++i) {
      enum va_sim_result r = groups[i](c, ins);
      if (r != VA_SIM_UNCLAIMED) {
         if (c && ins->memo)
            ins->memo->group = (int8_t)i;
         return r;
      }
   }
   return pan_sim_va_refuse(c, ins, va_family_names[ins->sem->family]);
}

/* Which special-FAU entries are the lane id and the program counter: the
 * table is constant, so it is searched once per thread. */
static void
find_specials(struct pan_sim_va_ctx *c)
{
   static __thread bool ready;
   static __thread bool lane_id[4][16], pc[4][16];

   if (!ready) {
      for (unsigned p = 0; p < 4; ++p) {
         for (unsigned e = 0; e < 16; ++e) {
            const char *n = va_special_names[p][e];
            lane_id[p][e] = n && !strcmp(n, "lane_id");
            pc[p][e] = n && !strcmp(n, "program_counter");
         }
      }
      ready = true;
   }
   memcpy(c->lane_id_entry, lane_id, sizeof(lane_id));
   memcpy(c->pc_entry, pc, sizeof(pc));
}

static enum va_sim_result
step(struct pan_sim_va_ctx *c, uint64_t budget)
{
   struct pan_sim_va_warp *w = c->w;
   struct pan_sim_va_ins scratch;
   const struct pan_sim_va_ins *ins;
   unsigned pc = UINT32_MAX;

   for (unsigned l = 0; l < PAN_SIM_VA_LANES; ++l) {
      if ((w->live & (1u << l)) && w->pc[l] < pc)
         pc = w->pc[l];
   }
   c->pc = pc;
   c->exec = 0;
   for (unsigned l = 0; l < PAN_SIM_VA_LANES; ++l) {
      if ((w->live & (1u << l)) && w->pc[l] == pc)
         c->exec |= 1u << l;
   }
   if (w->executed >= budget) {
      snprintf(w->fault, sizeof(w->fault),
               "pc %u: instruction budget exceeded (%llu instructions)", pc,
               (unsigned long long)budget);
      return VA_SIM_FAULT;
   }
   if (pc >= c->cfg->program_words) {
      snprintf(w->fault, sizeof(w->fault),
               "pc %u: outside the program (%u instructions)", pc,
               c->cfg->program_words);
      return VA_SIM_FAULT;
   }
   w->executed++;
   if (pan_sim_va_fetch(c, pc, &scratch, &ins) != VA_SIM_OK)
      return VA_SIM_FAULT;

   uint16_t exec = c->exec;
   c->barrier = false;
   c->keep = 0;
   for (unsigned l = 0; l < PAN_SIM_VA_LANES; ++l)
      c->next[l] = pc + 1;
   if (pan_sim_va_dispatch(c, ins) != VA_SIM_OK)
      return VA_SIM_FAULT;
   for (unsigned l = 0; l < PAN_SIM_VA_LANES; ++l) {
      if (exec & (1u << l))
         w->pc[l] = c->next[l];
   }
   /* Waits complete at once (messages are synchronous here); discard only
    * ends helper lanes, which a warp of this interpreter never has. */
   if (!strcmp(ins->flow, "end"))
      w->live &= ~(exec & ~c->keep);
   if (c->barrier) {
      /* Lanes elsewhere would wait at another barrier or never: the
       * hardware's behaviour is undefined, say so. */
      if ((exec | w->live) != exec) {
         snprintf(w->fault, sizeof(w->fault),
                  "pc %u: barrier reached by lanes 0x%x of the live 0x%x "
                  "(divergent control flow)",
                  pc, exec, w->live | exec);
         return VA_SIM_FAULT;
      }
      return VA_SIM_BARRIER;
   }
   return VA_SIM_OK;
}

static enum pan_sim_va_status
run_warp(struct pan_sim_va_warp *w, const struct pan_sim_va_config *cfg)
{
   struct pan_sim_va_ctx c = { .w = w, .cfg = cfg };
   uint64_t budget = cfg->budget ? cfg->budget : PAN_SIM_VA_DEFAULT_BUDGET;

   w->fault[0] = 0;
   if (!cfg->program && cfg->program_words) {
      snprintf(w->fault, sizeof(w->fault), "no program buffer");
      return PAN_SIM_VA_FAULT;
   }
   find_specials(&c);
   while (w->live) {
      enum va_sim_result r = step(&c, budget);
      if (r == VA_SIM_BARRIER)
         return PAN_SIM_VA_BARRIER;
      if (r != VA_SIM_OK)
         return PAN_SIM_VA_FAULT;
   }
   return PAN_SIM_VA_DONE;
}

enum pan_sim_va_status
pan_sim_va_run(struct pan_sim_va_warp *w, const struct pan_sim_va_config *cfg)
{
   pan_sim_va_cache_enter();
   enum pan_sim_va_status st = run_warp(w, cfg);
   pan_sim_va_cache_leave();
   return st;
}
