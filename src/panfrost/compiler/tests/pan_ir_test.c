/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * IR unit tests: builders, printer, validator, and passes stated as the
 * printed shader before and the expected printed shader after.
 */

#include <string.h>

#include "pan_ir_builder.h"
#include "pan_ir_test_expect.h"
#include "util/pan_test_util.h"

/* Print, compare with the expected text, and say what differed. */
static void
expect_invalid(pan_ir_shader *s, const char *msg)
{
   char err[256] = "";
   PAN_EXPECT(!pan_ir_validate(s, err, sizeof(err)));
   PAN_EXPECT_STR_HAS(err, msg);
}

static void
test_print(void)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_block *b0 = pan_ir_block_create(s);
   pan_ir_builder b = pan_ir_builder_at_end(s, b0);

   pan_ir_index x = pan_ir_preload(&b, 60);
   pan_ir_index u = pan_ir_mov(&b, pan_ir_uniform(3));
   pan_ir_index c = pan_ir_icmp(&b, PAN_IR_TYPE_S32, PAN_IR_CMP_LT, x, u);
   pan_ir_index f = pan_ir_fadd(&b, pan_ir_fneg(x), pan_ir_fabs(u));
   pan_ir_index a = pan_ir_collect(&b, 2, (pan_ir_index[]){ f, c });
   pan_ir_store_global(&b, 8, x, a);
   pan_ir_load_global(&b, 3, 0, a);

   expect_valid(s, "print");
   expect_ir(s,
             "block0:\n"
             "   %0 = preload imm:0x3c\n"
             "   %1 = mov u3\n"
             "   %2 = icmp.s32.lt %0, %1\n"
             "   %3 = fadd -%0, |%1|\n"
             "   %4:2 = collect %3, %2\n"
             "   store_global %0, %4:2, imm:0x8\n"
             "   %5:3 = load_global %4:2, imm:0x0\n",
             "printed shader");
   ralloc_free(s);
}

static void
test_validate_errors(void)
{
   /* Use before definition. */
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_builder b = pan_ir_builder_at_end(s, pan_ir_block_create(s));
   pan_ir_index later = pan_ir_new_value(s, 1);
   pan_ir_iadd(&b, later, pan_ir_imm(1));
   expect_invalid(s, "used before its definition");
   ralloc_free(s);

   /* Float modifier on an integer op. */
   s = pan_ir_shader_create(NULL);
   b = pan_ir_builder_at_end(s, pan_ir_block_create(s));
   pan_ir_index x = pan_ir_preload(&b, 60);
   pan_ir_iadd(&b, pan_ir_fneg(x), x);
   expect_invalid(s, "float modifier");
   ralloc_free(s);

   /* Wrong operand count and reading past a vector. */
   s = pan_ir_shader_create(NULL);
   b = pan_ir_builder_at_end(s, pan_ir_block_create(s));
   x = pan_ir_preload(&b, 60);
   pan_ir_instr *I = pan_ir_build(&b, PAN_IR_OP_FADD, 1);
   I->src[0] = x;
   I->dest = pan_ir_new_value(s, 1);
   expect_invalid(s, "fadd: 1 sources, the table says 2");
   ralloc_free(s);

   s = pan_ir_shader_create(NULL);
   b = pan_ir_builder_at_end(s, pan_ir_block_create(s));
   x = pan_ir_preload(&b, 60);
   pan_ir_mov(&b, pan_ir_word(x, 1));
   expect_invalid(s, "words 1..1 of %0, which has 1");
   ralloc_free(s);

   /* A branch whose target is not listed as a successor. */
   s = pan_ir_shader_create(NULL);
   pan_ir_block *b0 = pan_ir_block_create(s), *b1 = pan_ir_block_create(s);
   b = pan_ir_builder_at_end(s, b0);
   pan_ir_jump(&b, b1);
   expect_invalid(s, "target is not the first successor");
   ralloc_free(s);
}

static void
test_dce(void)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_builder b = pan_ir_builder_at_end(s, pan_ir_block_create(s));
   pan_ir_index x = pan_ir_preload(&b, 60);
   pan_ir_index y = pan_ir_iadd(&b, x, pan_ir_imm(1));
   pan_ir_imul(&b, y, y); /* dead, and makes y dead once gone */
   pan_ir_index z = pan_ir_isub(&b, x, pan_ir_imm(2));
   pan_ir_store_global(&b, 0, z,
                       pan_ir_collect(&b, 2, (pan_ir_index[]){ x, x }));

   expect_ir(s,
             "block0:\n"
             "   %0 = preload imm:0x3c\n"
             "   %1 = iadd %0, #0x1\n"
             "   %2 = imul %1, %1\n"
             "   %3 = isub %0, #0x2\n"
             "   %4:2 = collect %0, %0\n"
             "   store_global %3, %4:2, imm:0x0\n",
             "before dce");
   PAN_EXPECT(pan_ir_opt_dce(s));
   expect_valid(s, "after dce");
   expect_ir(s,
             "block0:\n"
             "   %0 = preload imm:0x3c\n"
             "   %3 = isub %0, #0x2\n"
             "   %4:2 = collect %0, %0\n"
             "   store_global %3, %4:2, imm:0x0\n",
             "after dce");
   PAN_EXPECT(!pan_ir_opt_dce(s));
   ralloc_free(s);
}

static void
test_copy_prop(void)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_builder b = pan_ir_builder_at_end(s, pan_ir_block_create(s));
   pan_ir_index v = pan_ir_load_global(
      &b, 2, 0,
      pan_ir_collect(&b, 2, (pan_ir_index[]){ pan_ir_imm(0), pan_ir_imm(0) }));
   pan_ir_index m = pan_ir_mov(&b, pan_ir_word(v, 1));
   pan_ir_index m2 = pan_ir_mov(&b, m);
   pan_ir_index k = pan_ir_mov(&b, pan_ir_imm(7));
   pan_ir_index f = pan_ir_fadd(&b, pan_ir_fneg(m2), k);
   pan_ir_store_global(&b, 4, f, v);

   PAN_EXPECT(pan_ir_opt_copy_prop(s));
   PAN_EXPECT(pan_ir_opt_dce(s));
   expect_valid(s, "after copy-prop");
   expect_ir(s,
             "block0:\n"
             "   %0:2 = collect #0x0, #0x0\n"
             "   %1:2 = load_global %0:2, imm:0x0\n"
             "   %4 = mov #0x7\n"
             "   %5 = fadd -%1.1, %4\n"
             "   store_global %5, %1:2, imm:0x4\n",
             "after copy-prop and dce: a chain of moves of word 1");
   ralloc_free(s);

   /* Same, with the result stored so that it stays. */
   s = pan_ir_shader_create(NULL);
   b = pan_ir_builder_at_end(s, pan_ir_block_create(s));
   pan_ir_index a = pan_ir_preload(&b, 60);
   pan_ir_index c = pan_ir_mov(&b, a);
   f = pan_ir_fadd(&b, pan_ir_fneg(c), c);
   pan_ir_store_global(&b, 0, f,
                       pan_ir_collect(&b, 2, (pan_ir_index[]){ c, c }));
   PAN_EXPECT(pan_ir_opt_copy_prop(s));
   pan_ir_opt_dce(s);
   expect_ir(s,
             "block0:\n"
             "   %0 = preload imm:0x3c\n"
             "   %2 = fadd -%0, %0\n"
             "   %3:2 = collect %0, %0\n"
             "   store_global %2, %3:2, imm:0x0\n",
             "copy-prop keeps source modifiers");
   ralloc_free(s);
}

/* n blocks in layout order and the edges between them, in order. */
static void
make_cfg(pan_ir_shader *s, pan_ir_block **b, unsigned n,
         const uint8_t (*edges)[2], unsigned nr_edges)
{
   for (unsigned i = 0; i < n; ++i)
      b[i] = pan_ir_block_create(s);
   for (unsigned i = 0; i < nr_edges; ++i)
      pan_ir_block_add_succ(b[edges[i][0]], b[edges[i][1]]);
}

/* A loop counter: phi(0, i + 1), lowered to carrier moves (the 0 is
 * moved into the carrier directly). */
static void
test_lower_phis(void)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_block *blk[3];
   make_cfg(s, blk, 3, (const uint8_t[][2]){ { 0, 1 }, { 1, 1 }, { 1, 2 } },
            3);
   pan_ir_block *b0 = blk[0], *b1 = blk[1];

   pan_ir_builder b = pan_ir_builder_at_end(s, b0);
   pan_ir_index zero = pan_ir_mov(&b, pan_ir_imm(0));
   b = pan_ir_builder_at_end(s, b1);
   pan_ir_instr *phi = pan_ir_build(&b, PAN_IR_OP_PHI, 2);
   phi->dest = pan_ir_new_value(s, 1);
   pan_ir_index next = pan_ir_iadd(&b, phi->dest, pan_ir_imm(1));
   phi->src[0] = zero;
   phi->src[1] = next;
   pan_ir_index c =
      pan_ir_icmp(&b, PAN_IR_TYPE_U32, PAN_IR_CMP_LT, next, pan_ir_imm(4));
   pan_ir_branchz(&b, false, b1, c);

   expect_valid(s, "loop in SSA");
   pan_ir_lower_phis(s);
   expect_valid(s, "loop out of SSA");
   expect_ir(s,
             "block0 -> block1:\n"
             "   %4 = mov #0x0\n"
             "block1 (preds block0 block1) -> block1 block2:\n"
             "   %1 = mov %4\n"
             "   %2 = iadd %1, #0x1\n"
             "   %3 = icmp.u32.lt %2, #0x4\n"
             "   %4 = mov %2\n"
             "   branchz %3 -> block1\n"
             "block2 (preds block1):\n",
             "after phi lowering");
   ralloc_free(s);
}

/* The same uniform read twice and the same vector built twice are one
 * value each; a move of another word stays. */
static void
test_cse(void)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_builder b = pan_ir_builder_at_end(s, pan_ir_block_create(s));
   pan_ir_index u = pan_ir_mov(&b, pan_ir_uniform(3));
   pan_ir_index u2 = pan_ir_mov(&b, pan_ir_uniform(3));
   pan_ir_index w = pan_ir_mov(&b, pan_ir_uniform(4));
   pan_ir_index addr = pan_ir_collect(&b, 2, (pan_ir_index[]){ u, w });
   pan_ir_index addr2 = pan_ir_collect(&b, 2, (pan_ir_index[]){ u2, w });
   pan_ir_store_global(&b, 0, u2, addr);
   pan_ir_store_global(&b, 4, w, addr2);

   PAN_EXPECT(pan_ir_opt_cse(s));
   expect_valid(s, "after cse");
   expect_ir(s,
             "block0:\n"
             "   %0 = mov u3\n"
             "   %2 = mov u4\n"
             "   %3:2 = collect %0, %2\n"
             "   store_global %0, %3:2, imm:0x0\n"
             "   store_global %2, %3:2, imm:0x4\n",
             "after cse");
   PAN_EXPECT(!pan_ir_opt_cse(s));
   ralloc_free(s);
}

/* An attribute load reading only preloads moves down to its first
 * reader; one read first in a later block, or reading a computed value,
 * stays. */
static void
test_sink(void)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_block *b0 = pan_ir_block_create(s), *b1 = pan_ir_block_create(s);
   pan_ir_block_add_succ(b0, b1);
   pan_ir_builder b = pan_ir_builder_at_end(s, b0);
   pan_ir_index vid = pan_ir_preload(&b, 60);
   pan_ir_index iid = pan_ir_preload(&b, 61);
   pan_ir_index a = pan_ir_ld_attr(&b, 4, PAN_IR_TYPE_F32, 0, vid, iid);
   pan_ir_index late = pan_ir_ld_attr(&b, 1, PAN_IR_TYPE_F32, 1, vid, iid);
   pan_ir_index t = pan_ir_iadd(&b, vid, pan_ir_imm(1));
   pan_ir_index c = pan_ir_ld_attr(&b, 1, PAN_IR_TYPE_F32, 2, t, iid);
   pan_ir_index x = pan_ir_fadd(&b, t, c);
   pan_ir_index y = pan_ir_fadd(&b, x, pan_ir_word(a, 2));
   b = pan_ir_builder_at_end(s, b1);
   pan_ir_index z = pan_ir_fadd(&b, y, late);
   pan_ir_store_global(&b, 0, z,
                       pan_ir_collect(&b, 2, (pan_ir_index[]){ z, z }));

   PAN_EXPECT(pan_ir_opt_sink(s));
   expect_valid(s, "after sink");
   expect_ir(s,
             "block0 -> block1:\n"
             "   %0 = preload imm:0x3c\n"
             "   %1 = preload imm:0x3d\n"
             "   %3 = ld_attr.f32 %0, %1, imm:0x1\n"
             "   %4 = iadd %0, #0x1\n"
             "   %5 = ld_attr.f32 %4, %1, imm:0x2\n"
             "   %6 = fadd %4, %5\n"
             "   %2:4 = ld_attr.f32 %0, %1, imm:0x0\n"
             "   %7 = fadd %6, %2.2\n"
             "block1 (preds block0):\n"
             "   %8 = fadd %7, %3\n"
             "   %9:2 = collect %8, %8\n"
             "   store_global %8, %9:2, imm:0x0\n",
             "after sink");
   PAN_EXPECT(!pan_ir_opt_sink(s));
   ralloc_free(s);
}

/* Two loads read first by the same instruction gather in front of it
 * once (they used to trade places forever). */
static void
test_sink_together(void)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_builder b = pan_ir_builder_at_end(s, pan_ir_block_create(s));
   pan_ir_index vid = pan_ir_preload(&b, 60);
   pan_ir_index p = pan_ir_ld_attr(&b, 1, PAN_IR_TYPE_F32, 0, vid, vid);
   pan_ir_index q = pan_ir_ld_attr(&b, 1, PAN_IR_TYPE_F32, 1, vid, vid);
   pan_ir_index t = pan_ir_iadd(&b, vid, vid);
   pan_ir_index x = pan_ir_fadd(&b, p, q);
   pan_ir_store_global(&b, 0, x,
                       pan_ir_collect(&b, 2, (pan_ir_index[]){ t, t }));

   PAN_EXPECT(pan_ir_opt_sink(s));
   expect_ir(s,
             "block0:\n"
             "   %0 = preload imm:0x3c\n"
             "   %3 = iadd %0, %0\n"
             "   %2 = ld_attr.f32 %0, %0, imm:0x1\n"
             "   %1 = ld_attr.f32 %0, %0, imm:0x0\n"
             "   %4 = fadd %1, %2\n"
             "   %5:2 = collect %3, %3\n"
             "   store_global %4, %5:2, imm:0x0\n",
             "after sink");
   PAN_EXPECT(!pan_ir_opt_sink(s));
   ralloc_free(s);
}

/* An if/else join whose predecessors lead only to it: the phi is computed
 * in both arms and read in place, no copy at the join. */
static void
test_lower_phis_in_place(void)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_block *blk[4];
   make_cfg(s, blk, 4,
            (const uint8_t[][2]){ { 0, 2 }, { 0, 1 }, { 1, 3 }, { 2, 3 } }, 4);
   pan_ir_block *b0 = blk[0], *b1 = blk[1], *b2 = blk[2], *b3 = blk[3];

   pan_ir_builder b = pan_ir_builder_at_end(s, b0);
   pan_ir_index x = pan_ir_preload(&b, 60);
   pan_ir_branchz(&b, true, b2, x);
   b = pan_ir_builder_at_end(s, b1);
   pan_ir_index t = pan_ir_iadd(&b, x, pan_ir_imm(1));
   pan_ir_jump(&b, b3);
   b = pan_ir_builder_at_end(s, b2);
   pan_ir_index e = pan_ir_iadd(&b, x, x);
   b = pan_ir_builder_at_end(s, b3);
   pan_ir_instr *phi = pan_ir_build(&b, PAN_IR_OP_PHI, 2);
   phi->dest = pan_ir_new_value(s, 1);
   phi->src[0] = t;
   phi->src[1] = e;
   pan_ir_store_global(&b, 0, phi->dest,
                       pan_ir_collect(&b, 2, (pan_ir_index[]){ x, x }));

   expect_valid(s, "if/else in SSA");
   pan_ir_lower_phis(s);
   expect_valid(s, "if/else out of SSA");
   expect_ir(s,
             "block0 -> block2 block1:\n"
             "   %0 = preload imm:0x3c\n"
             "   branchz.zero %0 -> block2\n"
             "block1 (preds block0) -> block3:\n"
             "   %3 = iadd %0, #0x1\n"
             "   jump -> block3\n"
             "block2 (preds block0) -> block3:\n"
             "   %3 = iadd %0, %0\n"
             "block3 (preds block1 block2):\n"
             "   %4:2 = collect %0, %0\n"
             "   store_global %3, %4:2, imm:0x0\n",
             "after phi lowering in place");
   ralloc_free(s);
}

int
main(void)
{
   PAN_RUN_CASE(test_print);
   PAN_RUN_CASE(test_validate_errors);
   PAN_RUN_CASE(test_dce);
   PAN_RUN_CASE(test_copy_prop);
   PAN_RUN_CASE(test_lower_phis);
   PAN_RUN_CASE(test_lower_phis_in_place);
   PAN_RUN_CASE(test_cse);
   PAN_RUN_CASE(test_sink);
   PAN_RUN_CASE(test_sink_together);
   return pan_test_summary("pan_ir");
}
