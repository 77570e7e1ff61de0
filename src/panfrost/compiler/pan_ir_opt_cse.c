/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Local common subexpressions of moves and collects: the same uniform
 * words read again, or the same colour vector built for several render
 * targets, are one value.  Within a block only (the earlier copy then
 * precedes every later use), and in SSA form.
 */

#include <string.h>

#include "pan_ir.h"

static bool
same_index(pan_ir_index a, pan_ir_index b)
{
   return a.kind == b.kind && a.value == b.value && a.comps == b.comps &&
          a.comp == b.comp && a.neg == b.neg && a.abs == b.abs;
}

static bool
same_instr(const pan_ir_instr *A, const pan_ir_instr *B)
{
   if (A->op != B->op || A->nr_srcs != B->nr_srcs ||
       A->dest.comps != B->dest.comps)
      return false;
   for (unsigned i = 0; i < A->nr_srcs; ++i) {
      if (!same_index(A->src[i], B->src[i]))
         return false;
   }
   return true;
}

bool
pan_ir_opt_cse(pan_ir_shader *s)
{
   uint32_t *repl = malloc((s->ssa_alloc + 1) * sizeof(uint32_t));
   bool progress = false;
   if (!repl)
      return false;
   for (unsigned v = 0; v <= s->ssa_alloc; ++v)
      repl[v] = v;

   pan_ir_foreach_block(s, b)
   {
      pan_ir_foreach_instr_safe(b, I)
      {
         if ((I->op != PAN_IR_OP_MOV && I->op != PAN_IR_OP_COLLECT) ||
             I->dest.kind != PAN_IR_SSA)
            continue;
         for (unsigned i = 0; i < I->nr_srcs; ++i) {
            if (I->src[i].kind == PAN_IR_SSA)
               I->src[i].value = repl[I->src[i].value];
         }
         pan_ir_foreach_instr(b, E)
         {
            if (E == I)
               break;
            if (E->dest.kind == PAN_IR_SSA && same_instr(E, I)) {
               repl[I->dest.value] = E->dest.value;
               pan_ir_instr_remove(I);
               progress = true;
               break;
            }
         }
      }
   }
   if (progress) {
      pan_ir_foreach_instr_global(s, b, I)
      {
         for (unsigned i = 0; i < I->nr_srcs; ++i) {
            if (I->src[i].kind == PAN_IR_SSA)
               I->src[i].value = repl[I->src[i].value];
         }
      }
   }
   free(repl);
   return progress;
}
