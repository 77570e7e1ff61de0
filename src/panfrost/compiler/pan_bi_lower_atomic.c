/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Atomics in Bifrost's shape, before register allocation.  The message
 * overwrites its staging registers, which are therefore the destination
 * (pan_bi_schedule.c moves the operands there first):
 *
 * - a returning atomic is *ATOM_C_RETURN + +ATOM_CX, which leave two
 *   words, and ATOM_POST of them (the operation again) giving the value
 *   before: atom_c_return, then atom_post in the original instruction;
 * - an exchange is +AXCHG, its operand in and its result out of one
 *   register: axchg;
 * - a compare-and-swap is +ACMPXCHG reading the new value and the
 *   comparand and leaving the value before in the first: acmpxchg, then
 *   a move of that word (which copy propagation folds into its readers).
 *
 * An atomic without a result (atomic) is *ATOM_C + +ATOM_CX as it is.
 * One with an implied operand (atomic1_return) is the two-operand one
 * with that operand in the staging register.
 */

#include "pan_bi.h"
#include "pan_ir_builder.h"

/* The two-operand atomic and operand of an implied-operand one. */
static enum pan_ir_atomic
two_operand(uint32_t op1, uint32_t *operand)
{
   *operand = op1 == PAN_IR_ATOMIC1_DEC ? 0xffffffffu : 1;
   switch (op1) {
   case PAN_IR_ATOMIC1_UMAX1:
      return PAN_IR_ATOMIC_UMAX;
   case PAN_IR_ATOMIC1_SMAX1:
      return PAN_IR_ATOMIC_IMAX;
   case PAN_IR_ATOMIC1_OR1:
      return PAN_IR_ATOMIC_OR;
   default:
      return PAN_IR_ATOMIC_ADD;
   }
}

void
pan_bi_lower_atomic(pan_ir_shader *s)
{
   pan_ir_foreach_block(s, blk)
   {
      pan_ir_foreach_instr(blk, I)
      {
         pan_ir_builder b = pan_ir_builder_before(s, blk, I);
         if (I->op == PAN_IR_OP_ATOMIC1_RETURN) {
            uint32_t operand;
            I->op = PAN_IR_OP_ATOMIC_RETURN;
            I->imm = two_operand(I->imm, &operand);
            I->nr_srcs = 2;
            I->src = reralloc(I, I->src, pan_ir_index, 2);
            I->src[1] = I->src[0];
            I->src[0] = pan_ir_imm(operand);
         }
         if (I->op == PAN_IR_OP_ATOMIC_RETURN &&
             I->imm == PAN_IR_ATOMIC_XCHG) {
            I->op = PAN_IR_OP_AXCHG;
            I->imm = 0;
         } else if (I->op == PAN_IR_OP_ATOMIC_RETURN) {
            pan_ir_index t =
               pan_ir_atom_c_return(&b, I->imm, I->src[0], I->src[1]);
            I->op = PAN_IR_OP_ATOM_POST;
            I->src[0] = pan_ir_word(t, 0);
            I->src[1] = pan_ir_word(t, 1);
         } else if (I->op == PAN_IR_OP_ATOMIC_CMPXCHG) {
            pan_ir_index t = pan_ir_acmpxchg(&b, pan_ir_word(I->src[0], 0),
                                             pan_ir_word(I->src[0], 1),
                                             I->src[1]);
            I->op = PAN_IR_OP_MOV;
            I->nr_srcs = 1;
            I->src[0] = pan_ir_word(t, 0);
         }
      }
   }
}
