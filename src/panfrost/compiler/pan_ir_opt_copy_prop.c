/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Copy propagation: a read of the result of "mov %a" reads %a instead.
 * Only moves of values are propagated: immediates and uniforms stay in
 * moves because the back ends limit where those may appear.  SSA only
 * (a value defined twice after phi lowering is not a copy).
 */

#include "pan_ir.h"

bool
pan_ir_opt_copy_prop(pan_ir_shader *s)
{
   if (s->out_of_ssa)
      return false;

   pan_ir_index *copy_of = calloc(s->ssa_alloc + 1, sizeof(pan_ir_index));
   if (!copy_of)
      return false;

   /* Defined before use in layout order, so one walk resolves chains. */
   bool progress = false;
   pan_ir_foreach_instr_global(s, b, I)
   {
      for (unsigned i = 0; i < I->nr_srcs; ++i) {
         pan_ir_index *src = &I->src[i];
         if (src->kind != PAN_IR_SSA)
            continue;
         pan_ir_index c = copy_of[src->value];
         if (c.kind != PAN_IR_SSA || src->comps != 1)
            continue;
         c.comp += src->comp;
         c.comps = 1;
         c.neg = src->neg;
         c.abs = src->abs;
         *src = c;
         progress = true;
      }
      if (I->op == PAN_IR_OP_MOV && I->src[0].kind == PAN_IR_SSA &&
          !I->src[0].neg && !I->src[0].abs)
         copy_of[I->dest.value] = I->src[0];
   }
   free(copy_of);
   return progress;
}
