/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Operands of the Bifrost interpreter: modifiers and immediates by name
 * from the generated tables, source selectors, the FAU value and faults.
 */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pan_sim_bi_priv.h"

enum bi_sim_result
pan_sim_bi_fault(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
                 const char *fmt, ...)
{
   char msg[PAN_SIM_BI_FAULT_LEN];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(msg, sizeof(msg), fmt, ap);
   va_end(ap);
   if (ins) {
      snprintf(c->w->fault, sizeof(c->w->fault),
               "clause 0x%llx tuple %u %s %s: %s",
               (unsigned long long)c->clause_pc, c->tuple,
               ins->unit ? "add" : "fma", ins->op->name, msg);
   } else {
      snprintf(c->w->fault, sizeof(c->w->fault), "clause 0x%llx: %s",
               (unsigned long long)c->clause_pc, msg);
   }
   return BI_SIM_FAULT;
}

static const struct bi_mod *
find_mod(const struct pan_sim_bi_ins *ins, const char *name)
{
   for (unsigned i = 0; i < ins->op->nr_mods; i++) {
      if (!strcmp(ins->op->mods[i].name, name))
         return &ins->op->mods[i];
   }
   return NULL;
}

int
pan_sim_bi_mod(const struct pan_sim_bi_ins *ins, const char *name)
{
   const struct bi_mod *m = find_mod(ins, name);
   if (!m)
      return -1;
   return (int)((ins->word >> m->start) & ((1u << m->size) - 1));
}

const char *
pan_sim_bi_mod_str(const struct pan_sim_bi_ins *ins, const char *name,
                   const char *dflt)
{
   const struct bi_mod *m = find_mod(ins, name);
   if (!m || !m->values)
      return dflt;
   const char *v = m->values[pan_sim_bi_mod(ins, name)];
   return v ? v : dflt;
}

bool
pan_sim_bi_mod_is(const struct pan_sim_bi_ins *ins, const char *name,
                  const char *value)
{
   return !strcmp(pan_sim_bi_mod_str(ins, name, "none"), value);
}

int
pan_sim_bi_imm(const struct pan_sim_bi_ins *ins, const char *name)
{
   for (unsigned i = 0; i < ins->op->nr_imms; i++) {
      const struct bi_imm *m = &ins->op->imms[i];
      if (!strcmp(m->name, name))
         return (int)((ins->word >> m->start) & ((1u << m->size) - 1));
   }
   return -1;
}

uint32_t
pan_sim_bi_src(const struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
               unsigned s, unsigned lane)
{
   unsigned sel = (ins->word >> ins->op->srcs[s]) & 7;
   switch (sel) {
   case 0:
   case 1:
   case 2:
      return c->port[lane][sel];
   case 3:
      /* FMA: the constant zero; ADD: this tuple's FMA result. */
      return ins->unit ? c->t[lane] : 0;
   case 4:
      return (uint32_t)c->fau[lane];
   case 5:
      return (uint32_t)(c->fau[lane] >> 32);
   case 6:
      return c->t0[lane];
   default:
      return c->t1[lane];
   }
}
