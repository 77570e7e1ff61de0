/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Look through collects (SSA only):
 *
 *  - a scalar read of word k of a collect reads the collect's source k
 *    instead, when that source is a value or an immediate (uniforms stay
 *    in collects, which write each word with its own move);
 *  - a collect's source that is a word of another collect becomes that
 *    collect's source, whatever its kind;
 *  - a collect of words 0..n-1 of a value of n words or more is that
 *    value (its first n words: vectors are read from their first word).
 *
 * The collects nobody reads any more are left for dead-code elimination.
 * Every removed collect word is a move the back end does not emit.
 */

#include "pan_ir.h"

static pan_ir_instr *
collect_def(pan_ir_instr **def, pan_ir_index i)
{
   if (i.kind != PAN_IR_SSA || i.comps != 1)
      return NULL;
   pan_ir_instr *D = def[i.value];
   return D && D->op == PAN_IR_OP_COLLECT ? D : NULL;
}

/* Source modifiers of a read through a collect: the outer read's on top of
 * the inner source's. */
static bool
compose(pan_ir_index outer, pan_ir_index inner, pan_ir_index *out)
{
   if ((inner.neg || inner.abs) && (outer.neg || outer.abs))
      return false;
   if (outer.neg || outer.abs) {
      inner.neg = outer.neg;
      inner.abs = outer.abs;
   }
   *out = inner;
   return true;
}

/* The value whose first words C rebuilds, or a null index. */
static pan_ir_index
identity_of(const pan_ir_instr *C, const uint8_t *comps)
{
   pan_ir_index w = C->src[0];
   if (w.kind != PAN_IR_SSA || w.comp || w.neg || w.abs ||
       comps[w.value] < C->nr_srcs)
      return pan_ir_null();
   for (unsigned k = 1; k < C->nr_srcs; ++k) {
      pan_ir_index s = C->src[k];
      if (s.kind != PAN_IR_SSA || s.value != w.value || s.comp != k || s.neg ||
          s.abs)
         return pan_ir_null();
   }
   w.comps = C->nr_srcs;
   return w;
}

bool
pan_ir_opt_collect(pan_ir_shader *s)
{
   if (s->out_of_ssa)
      return false;

   pan_ir_instr **def = calloc(s->ssa_alloc + 1, sizeof(*def));
   uint8_t *comps = calloc(s->ssa_alloc + 1, 1);
   pan_ir_index *alias = calloc(s->ssa_alloc + 1, sizeof(*alias));
   bool progress = false;
   if (!def || !comps || !alias)
      goto out;

   pan_ir_foreach_instr_global(s, b, I)
   {
      if (I->dest.kind == PAN_IR_SSA) {
         def[I->dest.value] = I;
         comps[I->dest.value] = I->dest.comps;
      }
   }

   /* Definitions come before uses in layout order (SSA, structured), so
    * one walk sees every collect rewritten before its readers. */
   pan_ir_foreach_instr_global(s, b, I)
   {
      for (unsigned i = 0; i < I->nr_srcs; ++i) {
         pan_ir_index *src = &I->src[i];
         if (src->kind != PAN_IR_SSA)
            continue;
         pan_ir_index a = alias[src->value];
         if (a.kind == PAN_IR_SSA) {
            a.comp += src->comp;
            a.comps = src->comps;
            a.neg = src->neg;
            a.abs = src->abs;
            *src = a;
            progress = true;
         }
         pan_ir_instr *C = collect_def(def, *src);
         if (!C || C == I)
            continue;
         pan_ir_index inner = C->src[src->comp], r;
         /* A uniform word stays in the collect (the back end folds it
          * where the FAU limit allows); an immediate is read directly, so
          * legalization materializes it next to each use instead of
          * keeping the whole constant vector live from its definition. */
         if (I->op != PAN_IR_OP_COLLECT && inner.kind == PAN_IR_UNIFORM)
            continue;
         if (inner.kind == PAN_IR_SSA && inner.comps != 1)
            continue;
         if (compose(*src, inner, &r)) {
            *src = r;
            progress = true;
         }
      }
      if (I->op == PAN_IR_OP_COLLECT) {
         pan_ir_index w = identity_of(I, comps);
         if (w.kind == PAN_IR_SSA)
            alias[I->dest.value] = w;
      }
   }

out:
   free(def);
   free(comps);
   free(alias);
   return progress;
}
