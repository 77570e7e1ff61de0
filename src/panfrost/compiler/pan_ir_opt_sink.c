/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Sinking input loads: an attribute or varying load that reads nothing
 * but preloaded registers moves down to just before the first
 * instruction of its block reading it.  NIR emits the inputs at the top
 * of the shader, so a vector read only at the end would otherwise hold
 * its registers over the whole program; loads wait for their data at
 * once anyway, so nothing is lost by loading late.
 */

#include "pan_ir.h"

static bool
sinkable(const pan_ir_instr *I, const pan_ir_instr **defs)
{
   if (I->op != PAN_IR_OP_LD_ATTR && I->op != PAN_IR_OP_LD_VAR &&
       I->op != PAN_IR_OP_LD_VAR_FLAT)
      return false;
   if (I->dest.kind != PAN_IR_SSA)
      return false;
   for (unsigned i = 0; i < I->nr_srcs; ++i) {
      if (I->src[i].kind != PAN_IR_SSA)
         continue;
      const pan_ir_instr *d = defs[I->src[i].value];
      if (!d || d->op != PAN_IR_OP_PRELOAD)
         return false;
   }
   return true;
}

bool
pan_ir_opt_sink(pan_ir_shader *s)
{
   const pan_ir_instr **defs = calloc(s->ssa_alloc + 1, sizeof(*defs));
   if (!defs)
      return false;
   pan_ir_foreach_instr_global(s, b, I)
   {
      if (I->dest.kind == PAN_IR_SSA)
         defs[I->dest.value] = I;
   }

   /* Bottom up, each load once: loads read first by the same instruction
    * gather in front of it without trading places forever. */
   bool progress = false;
   pan_ir_foreach_block(s, b)
   {
      pan_ir_instr *I = list_last_entry(&b->instrs, pan_ir_instr, link);
      while (&I->link != &b->instrs) {
         pan_ir_instr *prev = list_entry(I->link.prev, pan_ir_instr, link);
         if (sinkable(I, defs)) {
            /* The first reader in this block (values read only in later
             * blocks stay), and whether anything but loads lies between. */
            pan_ir_instr *user = NULL;
            bool between = false;
            for (struct list_head *n = I->link.next; n != &b->instrs;
                 n = n->next) {
               pan_ir_instr *J = list_entry(n, pan_ir_instr, link);
               if (pan_ir_reads(J, I->dest.value)) {
                  user = J;
                  break;
               }
               between |= !sinkable(J, defs);
            }
            if (user && between) {
               list_del(&I->link);
               list_addtail(&I->link, &user->link);
               progress = true;
            }
         }
         I = prev;
      }
   }
   free(defs);
   return progress;
}
