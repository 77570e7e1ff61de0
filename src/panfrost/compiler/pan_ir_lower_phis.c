/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Leave SSA: each phi gets a fresh carrier value, written by a move at
 * the end of every predecessor (before its branch) and read by a move
 * that replaces the phi.  All carriers are written before any phi result
 * is, so swapped or mutually dependent phis stay correct.  The carriers
 * are defined once per predecessor, so the shader is marked out_of_ssa.
 * Where nothing can read a carrier too early or on another path, the
 * phi's own value is the carrier and the read goes.
 */

#include "pan_ir_builder.h"

static pan_ir_builder
at_pred_end(pan_ir_shader *s, pan_ir_block *p)
{
   pan_ir_instr *T = pan_ir_block_terminator(p);
   return T ? pan_ir_builder_before(s, p, T) : pan_ir_builder_at_end(s, p);
}

/*
 * Whether the phis of b can be their own carriers (no move at the join):
 * every predecessor leads to b only, so a carrier written at its end is
 * never read on another path, and no phi of b reads a phi of b, so no
 * carrier is overwritten before the moves that read it.
 */
static bool
phis_carry_themselves(pan_ir_block *b)
{
   pan_ir_foreach_pred(b, p)
   {
      if ((*p)->succ[0] && (*p)->succ[1])
         return false;
   }
   pan_ir_foreach_instr(b, I)
   {
      if (I->op != PAN_IR_OP_PHI)
         break;
      for (unsigned i = 0; i < I->nr_srcs; ++i) {
         if (I->src[i].kind != PAN_IR_SSA)
            continue;
         pan_ir_foreach_instr(b, J)
         {
            if (J->op != PAN_IR_OP_PHI)
               break;
            if (J->dest.value == I->src[i].value)
               return false;
         }
      }
   }
   return true;
}

void
pan_ir_lower_phis(pan_ir_shader *s)
{
   pan_ir_foreach_block(s, b)
   {
      bool self = phis_carry_themselves(b);
      pan_ir_foreach_instr_safe(b, I)
      {
         if (I->op != PAN_IR_OP_PHI)
            break;

         pan_ir_index carrier =
            self ? I->dest : pan_ir_new_value(s, I->dest.comps);
         unsigned p = 0;
         pan_ir_foreach_pred(b, pred)
         {
            pan_ir_builder pb = at_pred_end(s, *pred);
            pan_ir_instr *M = pan_ir_build(&pb, PAN_IR_OP_MOV, 1);
            M->src[0] = I->src[p++];
            M->dest = carrier;
         }
         if (self) {
            pan_ir_instr_remove(I);
            continue;
         }
         /* The phi becomes the read of its carrier. */
         I->op = PAN_IR_OP_MOV;
         I->nr_srcs = 1;
         I->src[0] = carrier;
      }
   }
   s->out_of_ssa = true;
}
