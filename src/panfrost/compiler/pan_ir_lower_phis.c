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
 *
 * A phi read only by a phi of the block after it (the arms of an inner
 * if/else merging into an outer one: else-if chains) writes the outer
 * phi's carrier directly, so the merge does not copy every inner carrier
 * into its outer one.  Likewise a scalar computed in a predecessor and
 * read only by the phi (a select of a flattened if/else) is computed
 * into the carrier.
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

/*
 * Whether phi P of block m may write the carrier of the phi of block b that
 * reads it: P's value has no other reader, m leads to b alone and comes
 * after all its predecessors and before b in layout (no loop edge: the
 * carrier is written on the way to b only), and m's phis carry themselves
 * (no move at m's predecessors' ends lands on another path).
 */
static bool
can_inherit(const pan_ir_instr *P, pan_ir_index src, const pan_ir_block *m,
            const pan_ir_block *b, const unsigned *uses, const unsigned *pos)
{
   if (src.kind != PAN_IR_SSA || src.comp || src.neg || src.abs ||
       src.comps != P->dest.comps || uses[P->dest.value] != 1)
      return false;
   if (m->succ[0] != b || m->succ[1] || pos[m->index] >= pos[b->index])
      return false;
   pan_ir_foreach_pred(m, p)
   {
      if (pos[(*p)->index] >= pos[m->index])
         return false;
   }
   return phis_carry_themselves((pan_ir_block *)m);
}

/* The phi of block m defining src, if any. */
static pan_ir_instr *
phi_defining(pan_ir_block *m, pan_ir_index src)
{
   if (src.kind != PAN_IR_SSA)
      return NULL;
   pan_ir_foreach_instr(m, I)
   {
      if (I->op != PAN_IR_OP_PHI)
         break;
      if (I->dest.value == src.value)
         return I;
   }
   return NULL;
}

/*
 * The instruction of block m computing src when it may write the carrier
 * of the phi of b reading src instead: a pure scalar read by nothing else,
 * m leading to b alone and before it in layout (a carrier is read only
 * at b, or as b's phi value after it, never in m).
 */
static pan_ir_instr *
retargetable_def(pan_ir_block *m, pan_ir_index src, const pan_ir_block *b,
                 const unsigned *uses, const unsigned *pos)
{
   if (src.kind != PAN_IR_SSA || src.comp || src.neg || src.abs ||
       src.comps != 1 || uses[src.value] != 1)
      return NULL;
   if (m->succ[0] != b || m->succ[1] || pos[m->index] >= pos[b->index])
      return NULL;
   pan_ir_foreach_instr(m, I)
   {
      if (I->dest.kind == PAN_IR_SSA && I->dest.value == src.value)
         return pan_ir_op_is_pure(I->op) && I->dest.comps == 1 ? I : NULL;
   }
   return NULL;
}

void
pan_ir_lower_phis(pan_ir_shader *s)
{
   unsigned n = s->nr_blocks;
   unsigned *uses = calloc(s->ssa_alloc + 1, sizeof(unsigned));
   unsigned *pos = calloc(n + 1, sizeof(unsigned));
   /* carrier[v] + 1: the carrier the phi defining v inherited, or 0. */
   uint32_t *inherited = calloc(s->ssa_alloc + 1, sizeof(uint32_t));
   if (!uses || !pos || !inherited) {
      free(uses);
      free(pos);
      free(inherited);
      uses = NULL;
      pos = NULL;
      inherited = NULL;
   }
   if (uses) {
      unsigned k = 0;
      pan_ir_foreach_block(s, b)
      {
         pos[b->index] = k++;
         pan_ir_foreach_instr(b, I)
         {
            for (unsigned i = 0; i < I->nr_srcs; ++i) {
               if (I->src[i].kind == PAN_IR_SSA)
                  uses[I->src[i].value]++;
            }
         }
      }
   }

   /* Outer merges come after inner ones: walk backwards, so a phi's
    * carrier is known before the phis it reads are lowered. */
   list_for_each_entry_rev (pan_ir_block, b, &s->blocks, link) {
      bool self = phis_carry_themselves(b);
      pan_ir_foreach_instr_safe(b, I)
      {
         if (I->op != PAN_IR_OP_PHI)
            break;

         uint32_t inh = inherited ? inherited[I->dest.value] : 0;
         pan_ir_index carrier = I->dest;
         if (inh) {
            carrier.value = inh - 1;
         } else if (!self) {
            carrier = pan_ir_new_value(s, I->dest.comps);
         }
         unsigned p = 0;
         pan_ir_foreach_pred(b, pred)
         {
            pan_ir_index src = I->src[p++];
            pan_ir_instr *P = uses ? phi_defining(*pred, src) : NULL;
            if (P && can_inherit(P, src, *pred, b, uses, pos)) {
               inherited[src.value] = carrier.value + 1;
               continue;
            }
            pan_ir_instr *D =
               uses && carrier.comps == 1
                  ? retargetable_def(*pred, src, b, uses, pos)
                  : NULL;
            if (D) {
               D->dest.value = carrier.value;
               continue;
            }
            pan_ir_builder pb = at_pred_end(s, *pred);
            pan_ir_instr *M = pan_ir_build(&pb, PAN_IR_OP_MOV, 1);
            M->src[0] = src;
            M->dest = carrier;
         }
         /* A phi on its own carrier, or one whose only reader was the
          * outer phi now written directly, needs no read. */
         if (self || inh) {
            pan_ir_instr_remove(I);
            continue;
         }
         /* The phi becomes the read of its carrier. */
         I->op = PAN_IR_OP_MOV;
         I->nr_srcs = 1;
         I->src[0] = carrier;
      }
   }
   free(uses);
   free(pos);
   free(inherited);
   s->out_of_ssa = true;
}
