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

static int
mod_value(const struct pan_sim_bi_ins *ins, const char *name)
{
   const struct bi_mod *m = find_mod(ins, name);
   if (!m)
      return -1;
   return (int)((ins->word >> m->start) & ((1u << m->size) - 1));
}

static const char *
mod_str(const struct pan_sim_bi_ins *ins, const char *name, const char *dflt)
{
   const struct bi_mod *m = find_mod(ins, name);
   if (!m || !m->values)
      return dflt;
   const char *v = m->values[mod_value(ins, name)];
   return v ? v : dflt;
}

static int
imm_value(const struct pan_sim_bi_ins *ins, const char *name)
{
   for (unsigned i = 0; i < ins->op->nr_imms; i++) {
      const struct bi_imm *m = &ins->op->imms[i];
      if (!strcmp(m->name, name))
         return (int)((ins->word >> m->start) & ((1u << m->size) - 1));
   }
   return -1;
}

const char *const pan_sim_bi_abs_name[4] = { "abs0", "abs1", "abs2", "abs3" };
const char *const pan_sim_bi_neg_name[4] = { "neg0", "neg1", "neg2", "neg3" };
const char *const pan_sim_bi_swz_name[4] = { "swz0", "swz1", "swz2", "swz3" };
const char *const pan_sim_bi_widen_name[4] = { "widen0", "widen1", "widen2",
                                               "widen3" };

enum memo_kind { MEMO_MOD, MEMO_STR, MEMO_IS, MEMO_IMM, MEMO_DERIVED };

bool
pan_sim_bi_memo_get(const struct pan_sim_bi_ins *ins, const char *tag,
                    const char *arg, int64_t *v)
{
   return pan_sim_memo_get(ins->memo, MEMO_DERIVED, tag, arg, v);
}

void
pan_sim_bi_memo_put(const struct pan_sim_bi_ins *ins, const char *tag,
                    const char *arg, int64_t v)
{
   pan_sim_memo_put(ins->memo, MEMO_DERIVED, tag, arg, v);
}

/* The lookup of kind for (name, arg), from the instruction's memo when it
 * has one: the interpreter's hot path, instructions are looked at per lane
 * and again on every execution of a cached clause. */
static int64_t
lookup(const struct pan_sim_bi_ins *ins, enum memo_kind kind,
       const char *name, const char *arg)
{
   int64_t v;
   if (pan_sim_memo_get(ins->memo, kind, name, arg, &v))
      return v;
   switch (kind) {
   case MEMO_MOD:
      v = mod_value(ins, name);
      break;
   case MEMO_STR:
      v = (intptr_t)mod_str(ins, name, arg);
      break;
   case MEMO_IS:
      v = !strcmp(mod_str(ins, name, "none"), arg);
      break;
   default:
      v = imm_value(ins, name);
      break;
   }
   pan_sim_memo_put(ins->memo, kind, name, arg, v);
   return v;
}

int
pan_sim_bi_mod(const struct pan_sim_bi_ins *ins, const char *name)
{
   return (int)lookup(ins, MEMO_MOD, name, NULL);
}

const char *
pan_sim_bi_mod_str(const struct pan_sim_bi_ins *ins, const char *name,
                   const char *dflt)
{
   return (const char *)(intptr_t)lookup(ins, MEMO_STR, name, dflt);
}

bool
pan_sim_bi_mod_is(const struct pan_sim_bi_ins *ins, const char *name,
                  const char *value)
{
   return lookup(ins, MEMO_IS, name, value);
}

int
pan_sim_bi_imm(const struct pan_sim_bi_ins *ins, const char *name)
{
   return (int)lookup(ins, MEMO_IMM, name, NULL);
}
