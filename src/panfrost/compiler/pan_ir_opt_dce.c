/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Dead-code elimination: drop instructions whose value nobody reads and
 * that have no other effect, until nothing changes (a removed use can
 * make its source dead).
 */

#include "pan_ir.h"

bool
pan_ir_opt_dce(pan_ir_shader *s)
{
   bool any = false, progress;
   unsigned *uses = calloc(s->ssa_alloc + 1, sizeof(unsigned));
   if (!uses)
      return false;

   do {
      progress = false;
      memset(uses, 0, (s->ssa_alloc + 1) * sizeof(unsigned));
      pan_ir_foreach_instr_global(s, b, I)
      {
         for (unsigned i = 0; i < I->nr_srcs; ++i) {
            if (I->src[i].kind == PAN_IR_SSA)
               uses[I->src[i].value]++;
         }
      }
      pan_ir_foreach_block(s, b)
      {
         pan_ir_foreach_instr_safe(b, I)
         {
            if (pan_ir_op_infos[I->op].side_effects ||
                I->dest.kind != PAN_IR_SSA || uses[I->dest.value])
               continue;
            pan_ir_instr_remove(I);
            progress = any = true;
         }
      }
   } while (progress);

   free(uses);
   return any;
}
