/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Common-subexpression elimination (pan_ir_opt_cse.c): which identical
 * instructions become one value, stated as the printed shader after.
 */

#include <string.h>

#include "pan_ir_builder.h"
#include "pan_ir_test_expect.h"
#include "util/pan_test_util.h"

static pan_ir_index
addr_of(pan_ir_builder *b, pan_ir_index v)
{
   return pan_ir_collect(b, 2, (pan_ir_index[]){ v, v });
}

/* Within a block: the same operation on the same operands is one value;
 * another modifier, immediate or comparison is another value; loads and
 * stores are never merged. */
static void
test_cse_local(void)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_builder b = pan_ir_builder_at_end(s, pan_ir_block_create(s));
   pan_ir_index x = pan_ir_preload(&b, 60);
   pan_ir_index half = pan_ir_imm(0x3f000000);
   pan_ir_index a = pan_ir_fma(&b, half, x, pan_ir_imm(0));
   pan_ir_index a2 = pan_ir_fma(&b, half, x, pan_ir_imm(0));
   pan_ir_index n = pan_ir_fma(&b, half, pan_ir_fneg(x), pan_ir_imm(0));
   pan_ir_index i = pan_ir_iadd_imm(&b, 4, x);
   pan_ir_index i2 = pan_ir_iadd_imm(&b, 8, x);
   pan_ir_index c = pan_ir_icmp(&b, PAN_IR_TYPE_U32, PAN_IR_CMP_LT, i, i2);
   pan_ir_index c2 = pan_ir_icmp(&b, PAN_IR_TYPE_S32, PAN_IR_CMP_LT, i, i2);
   pan_ir_index addr = addr_of(&b, x);
   pan_ir_index l = pan_ir_load_global(&b, 1, 0, addr);
   pan_ir_store_global(&b, 0, a, addr);
   pan_ir_index l2 = pan_ir_load_global(&b, 1, 0, addr_of(&b, x));
   pan_ir_store_global(&b, 4, a2, addr);
   pan_ir_store_global(&b, 8, n, addr);
   pan_ir_store_global(&b, 12, c, addr);
   pan_ir_store_global(&b, 16, c2, addr);
   pan_ir_store_global(&b, 20, l, addr);
   pan_ir_store_global(&b, 24, l2, addr);

   PAN_EXPECT(pan_ir_opt_cse(s));
   expect_valid(s, "after local cse");
   expect_ir(s,
             "block0:\n"
             "   %0 = preload imm:0x3c\n"
             "   %1 = fma #0x3f000000, %0, #0x0\n"
             "   %3 = fma #0x3f000000, -%0, #0x0\n"
             "   %4 = iadd_imm %0, imm:0x4\n"
             "   %5 = iadd_imm %0, imm:0x8\n"
             "   %6 = icmp.u32.lt %4, %5\n"
             "   %7 = icmp.s32.lt %4, %5\n"
             "   %8:2 = collect %0, %0\n"
             "   %9 = load_global %8:2, imm:0x0\n"
             "   store_global %1, %8:2, imm:0x0\n"
             "   %11 = load_global %8:2, imm:0x0\n"
             "   store_global %1, %8:2, imm:0x4\n"
             "   store_global %3, %8:2, imm:0x8\n"
             "   store_global %6, %8:2, imm:0xc\n"
             "   store_global %7, %8:2, imm:0x10\n"
             "   store_global %9, %8:2, imm:0x14\n"
             "   store_global %11, %8:2, imm:0x18\n",
             "after local cse");
   PAN_EXPECT(!pan_ir_opt_cse(s));
   ralloc_free(s);
}

/*
 * An if/else: block0 branches to block2 or falls to block1, both go to
 * block3.  A value of block0 replaces the same one in every other block;
 * the same value computed in both arms stays twice (neither arm runs
 * before the other) and so does its copy in block3; a quad read
 * (derivatives) and a move of a uniform are one value within their block
 * only (the move is cheaper to repeat than to hold across blocks).
 */
static void
test_cse_dominance(void)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_block *blk[4];
   for (unsigned i = 0; i < 4; ++i)
      blk[i] = pan_ir_block_create(s);
   pan_ir_block_add_succ(blk[0], blk[2]);
   pan_ir_block_add_succ(blk[0], blk[1]);
   pan_ir_block_add_succ(blk[1], blk[3]);
   pan_ir_block_add_succ(blk[2], blk[3]);

   pan_ir_index half = pan_ir_imm(0x3f000000);
   pan_ir_builder b = pan_ir_builder_at_end(s, blk[0]);
   pan_ir_index x = pan_ir_preload(&b, 60);
   pan_ir_index addr = addr_of(&b, x);
   pan_ir_index a = pan_ir_fadd(&b, x, half);
   pan_ir_index d = pan_ir_clper_quad(&b, x, pan_ir_imm(1));
   pan_ir_index u = pan_ir_mov(&b, pan_ir_uniform(2));
   pan_ir_store_global(&b, 0, a, addr);
   pan_ir_store_global(&b, 0, d, addr);
   pan_ir_store_global(&b, 0, u, addr);
   pan_ir_branchz(&b, true, blk[2], x);

   b = pan_ir_builder_at_end(s, blk[1]);
   pan_ir_store_global(&b, 4, pan_ir_fadd(&b, x, half), addr);
   pan_ir_store_global(&b, 4, pan_ir_fma(&b, x, x, x), addr);
   pan_ir_store_global(&b, 4, pan_ir_clper_quad(&b, x, pan_ir_imm(1)), addr);
   pan_ir_store_global(&b, 4, pan_ir_clper_quad(&b, x, pan_ir_imm(1)), addr);
   pan_ir_jump(&b, blk[3]);

   b = pan_ir_builder_at_end(s, blk[2]);
   pan_ir_store_global(&b, 8, pan_ir_fma(&b, x, x, x), addr);
   pan_ir_store_global(&b, 8, pan_ir_mov(&b, pan_ir_uniform(2)), addr);

   b = pan_ir_builder_at_end(s, blk[3]);
   pan_ir_store_global(&b, 12, pan_ir_fma(&b, x, x, x), addr);
   pan_ir_store_global(&b, 12, pan_ir_fadd(&b, x, half), addr);
   pan_ir_store_global(&b, 12, pan_ir_mov(&b, pan_ir_uniform(2)), addr);

   PAN_EXPECT(pan_ir_opt_cse(s));
   expect_valid(s, "after cse across blocks");
   expect_ir(s,
             "block0 -> block2 block1:\n"
             "   %0 = preload imm:0x3c\n"
             "   %1:2 = collect %0, %0\n"
             "   %2 = fadd %0, #0x3f000000\n"
             "   %3 = clper_quad %0, #0x1\n"
             "   %4 = mov u2\n"
             "   store_global %2, %1:2, imm:0x0\n"
             "   store_global %3, %1:2, imm:0x0\n"
             "   store_global %4, %1:2, imm:0x0\n"
             "   branchz.zero %0 -> block2\n"
             "block1 (preds block0) -> block3:\n"
             "   store_global %2, %1:2, imm:0x4\n"
             "   %6 = fma %0, %0, %0\n"
             "   store_global %6, %1:2, imm:0x4\n"
             "   %7 = clper_quad %0, #0x1\n"
             "   store_global %7, %1:2, imm:0x4\n"
             "   store_global %7, %1:2, imm:0x4\n"
             "   jump -> block3\n"
             "block2 (preds block0) -> block3:\n"
             "   %9 = fma %0, %0, %0\n"
             "   store_global %9, %1:2, imm:0x8\n"
             "   %10 = mov u2\n"
             "   store_global %10, %1:2, imm:0x8\n"
             "block3 (preds block1 block2):\n"
             "   %11 = fma %0, %0, %0\n"
             "   store_global %11, %1:2, imm:0xc\n"
             "   store_global %2, %1:2, imm:0xc\n"
             "   %13 = mov u2\n"
             "   store_global %13, %1:2, imm:0xc\n",
             "after cse across blocks");
   PAN_EXPECT(!pan_ir_opt_cse(s));
   ralloc_free(s);
}

/* A loop: the body's copy of a value computed before the loop goes, and
 * the phi reading the body's value (a back edge, visited after the phi)
 * reads the kept one. */
static void
test_cse_loop(void)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_block *b0 = pan_ir_block_create(s), *b1 = pan_ir_block_create(s),
                *b2 = pan_ir_block_create(s);
   pan_ir_block_add_succ(b0, b1);
   pan_ir_block_add_succ(b1, b1);
   pan_ir_block_add_succ(b1, b2);

   pan_ir_builder b = pan_ir_builder_at_end(s, b0);
   pan_ir_index x = pan_ir_preload(&b, 60);
   pan_ir_index k = pan_ir_iadd(&b, x, pan_ir_imm(1));
   b = pan_ir_builder_at_end(s, b1);
   pan_ir_instr *phi = pan_ir_build(&b, PAN_IR_OP_PHI, 2);
   phi->dest = pan_ir_new_value(s, 1);
   pan_ir_index k2 = pan_ir_iadd(&b, x, pan_ir_imm(1));
   pan_ir_index next = pan_ir_iadd(&b, phi->dest, k2);
   phi->src[0] = k;
   phi->src[1] = k2;
   pan_ir_index c =
      pan_ir_icmp(&b, PAN_IR_TYPE_U32, PAN_IR_CMP_LT, next, pan_ir_imm(9));
   pan_ir_branchz(&b, false, b1, c);
   b = pan_ir_builder_at_end(s, b2);
   pan_ir_store_global(&b, 0, next, addr_of(&b, x));

   PAN_EXPECT(pan_ir_opt_cse(s));
   expect_valid(s, "after cse in a loop");
   expect_ir(s,
             "block0 -> block1:\n"
             "   %0 = preload imm:0x3c\n"
             "   %1 = iadd %0, #0x1\n"
             "block1 (preds block0 block1) -> block1 block2:\n"
             "   %2 = phi %1, %1\n"
             "   %4 = iadd %2, %1\n"
             "   %5 = icmp.u32.lt %4, #0x9\n"
             "   branchz %5 -> block1\n"
             "block2 (preds block1):\n"
             "   %6:2 = collect %0, %0\n"
             "   store_global %4, %6:2, imm:0x0\n",
             "after cse in a loop");
   ralloc_free(s);
}

int
main(void)
{
   PAN_RUN_CASE(test_cse_local);
   PAN_RUN_CASE(test_cse_dominance);
   PAN_RUN_CASE(test_cse_loop);
   return pan_test_summary("pan_ir_cse");
}
