/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Phi lowering (pan_ir_lower_phis.c) of else-if chains: an inner merge's
 * phi writes the outer phi's carrier, and a value computed only for a phi
 * is computed into its carrier; stated as the printed shader after.
 */

#include <string.h>

#include "pan_ir_builder.h"
#include "pan_ir_test_expect.h"
#include "util/pan_test_util.h"

static pan_ir_instr *
phi2(pan_ir_shader *s, pan_ir_block *blk, pan_ir_index a, pan_ir_index b)
{
   pan_ir_builder bld = pan_ir_builder_at_end(s, blk);
   pan_ir_instr *P = pan_ir_build(&bld, PAN_IR_OP_PHI, 2);
   P->dest = pan_ir_new_value(s, 1);
   P->src[0] = a;
   P->src[1] = b;
   return P;
}

/*
 * if (x) c = u1 else if (y) c = u2 else c = x + u3, and a second variable
 * d set the same way but also read at the inner merge: block0 branches to
 * block2 or falls to block1; block2 to block4 or block3, which merge in
 * block5; block1 and block5 merge in block6.
 *
 * The inner phi of c is read only by the outer one: both arms of the
 * inner if/else write the outer carrier, no move at block5.  The inner phi
 * of d has a second reader and keeps its own value and a move.
 */
static void
test_phis_chain(void)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_block *blk[7];
   for (unsigned i = 0; i < 7; ++i)
      blk[i] = pan_ir_block_create(s);
   pan_ir_block_add_succ(blk[0], blk[2]);
   pan_ir_block_add_succ(blk[0], blk[1]);
   pan_ir_block_add_succ(blk[1], blk[6]);
   pan_ir_block_add_succ(blk[2], blk[4]);
   pan_ir_block_add_succ(blk[2], blk[3]);
   pan_ir_block_add_succ(blk[3], blk[5]);
   pan_ir_block_add_succ(blk[4], blk[5]);
   pan_ir_block_add_succ(blk[5], blk[6]);

   pan_ir_builder b = pan_ir_builder_at_end(s, blk[0]);
   pan_ir_index x = pan_ir_preload(&b, 60);
   pan_ir_index addr = pan_ir_collect(&b, 2, (pan_ir_index[]){ x, x });
   pan_ir_branchz(&b, true, blk[2], x);
   b = pan_ir_builder_at_end(s, blk[1]);
   pan_ir_index c1 = pan_ir_mov(&b, pan_ir_uniform(1));
   pan_ir_index d1 = pan_ir_mov(&b, pan_ir_uniform(4));
   pan_ir_jump(&b, blk[6]);
   b = pan_ir_builder_at_end(s, blk[2]);
   pan_ir_index y = pan_ir_iadd(&b, x, pan_ir_imm(1));
   pan_ir_branchz(&b, true, blk[4], y);
   b = pan_ir_builder_at_end(s, blk[3]);
   pan_ir_index c2 = pan_ir_mov(&b, pan_ir_uniform(2));
   pan_ir_index d2 = pan_ir_mov(&b, pan_ir_uniform(5));
   pan_ir_jump(&b, blk[5]);
   b = pan_ir_builder_at_end(s, blk[4]);
   pan_ir_index c3 = pan_ir_fadd(&b, x, pan_ir_uniform(3));
   pan_ir_index d3 = pan_ir_mov(&b, pan_ir_uniform(6));

   pan_ir_instr *ci = phi2(s, blk[5], c2, c3);
   pan_ir_instr *di = phi2(s, blk[5], d2, d3);
   b = pan_ir_builder_at_end(s, blk[5]);
   pan_ir_store_global(&b, 0, di->dest, addr);
   pan_ir_instr *co = phi2(s, blk[6], c1, ci->dest);
   pan_ir_instr *dout = phi2(s, blk[6], d1, di->dest);
   b = pan_ir_builder_at_end(s, blk[6]);
   pan_ir_store_global(&b, 4, pan_ir_fadd(&b, co->dest, dout->dest), addr);

   expect_valid(s, "else-if chain in SSA");
   pan_ir_lower_phis(s);
   expect_valid(s, "else-if chain out of SSA");
   expect_ir(s,
             "block0 -> block2 block1:\n"
             "   %0 = preload imm:0x3c\n"
             "   %1:2 = collect %0, %0\n"
             "   branchz.zero %0 -> block2\n"
             "block1 (preds block0) -> block6:\n"
             "   %11 = mov u1\n"
             "   %12 = mov u4\n"
             "   jump -> block6\n"
             "block2 (preds block0) -> block4 block3:\n"
             "   %4 = iadd %0, #0x1\n"
             "   branchz.zero %4 -> block4\n"
             "block3 (preds block2) -> block5:\n"
             "   %11 = mov u2\n"
             "   %10 = mov u5\n"
             "   jump -> block5\n"
             "block4 (preds block2) -> block5:\n"
             "   %11 = fadd %0, u3\n"
             "   %10 = mov u6\n"
             "block5 (preds block3 block4) -> block6:\n"
             "   store_global %10, %1:2, imm:0x0\n"
             "   %12 = mov %10\n"
             "block6 (preds block1 block5):\n"
             "   %13 = fadd %11, %12\n"
             "   store_global %13, %1:2, imm:0x4\n",
             "after phi lowering");
   ralloc_free(s);
}

/* A phi of a loop header keeps its move in the latch when the value is
 * read after the loop too, and a value a phi reads on a back edge is not
 * computed into the phi's carrier (the phi's value is still read in the
 * latch after it). */
static void
test_phis_loop_back_edge(void)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_block *b0 = pan_ir_block_create(s), *b1 = pan_ir_block_create(s),
                *b2 = pan_ir_block_create(s), *b3 = pan_ir_block_create(s);
   pan_ir_block_add_succ(b0, b1);
   pan_ir_block_add_succ(b1, b3);
   pan_ir_block_add_succ(b1, b2);
   pan_ir_block_add_succ(b2, b1);

   pan_ir_builder b = pan_ir_builder_at_end(s, b0);
   pan_ir_index x = pan_ir_preload(&b, 60);
   pan_ir_index addr = pan_ir_collect(&b, 2, (pan_ir_index[]){ x, x });
   pan_ir_instr *i = phi2(s, b1, x, pan_ir_null());
   b = pan_ir_builder_at_end(s, b1);
   pan_ir_branchz(&b, true, b3, i->dest);
   b = pan_ir_builder_at_end(s, b2);
   pan_ir_index next = pan_ir_iadd(&b, i->dest, pan_ir_imm(1));
   pan_ir_store_global(&b, 0, i->dest, addr);
   pan_ir_jump(&b, b1);
   i->src[1] = next;

   pan_ir_lower_phis(s);
   expect_valid(s, "loop out of SSA");
   expect_ir(s,
             "block0 -> block1:\n"
             "   %0 = preload imm:0x3c\n"
             "   %1:2 = collect %0, %0\n"
             "   %2 = mov %0\n"
             "block1 (preds block0 block2) -> block3 block2:\n"
             "   branchz.zero %2 -> block3\n"
             "block2 (preds block1) -> block1:\n"
             "   %3 = iadd %2, #0x1\n"
             "   store_global %2, %1:2, imm:0x0\n"
             "   %2 = mov %3\n"
             "   jump -> block1\n"
             "block3 (preds block1):\n",
             "after phi lowering");
   ralloc_free(s);
}

int
main(void)
{
   PAN_RUN_CASE(test_phis_chain);
   PAN_RUN_CASE(test_phis_loop_back_edge);
   return pan_test_summary("pan_ir_phis");
}
