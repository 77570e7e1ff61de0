/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Varying stores moved up to their data (mid_ra_stores.c) on IR built by
 * hand: a store whose data is ready first goes first, a group moves as
 * one piece past other groups, never above the last write of what it
 * reads, an output assembled piece by piece and a whole computation
 * only its store reads go with the store when pulled, the r26/r27 turns
 * of the hoisting tries follow the new order, and blocks where something
 * else touches the data registers are left alone.  Then allocation: the
 * early stores let the values die sooner (fewer registers).
 */

#include "util/pan_test_util.h"
#include "mid_test_ir.h"

static struct mid_instr *
ld_attr(struct mid_shader *s, struct mid_block *b, unsigned var)
{
   struct mid_instr *I = mid_instr_create(s, b, MID_LDST, "ld_attr_32");
   I->dst = mid_var(var);
   I->mask = 0xf;
   I->ls.areg = 7;
   I->ls.ireg = 7;
   return I;
}

/*
 *    v0 = ld_attr                      v0 = ld_attr
 *    v1 = ld_attr                      r27 = imov v0     (moved up)
 *    v2 = fmul v1, v1                  st_vary 1
 *    v3 = fadd v2, v1        ->        v1 = ld_attr
 *    r27 = imov v3                     v2 = fmul v1, v1
 *    st_vary 0                         v3 = fadd v2, v1
 *    r27 = imov v0                     r27 = imov v3
 *    st_vary 1                         st_vary 0
 *
 * and v0 no longer lives across v1's computation: 2 registers, not 3.
 */
static void
test_store_ready_first(void)
{
   for (unsigned early = 0; early < 2; early++) {
      struct mid_shader *s = mid_test_shader(4);
      struct mid_block *b = mid_block_create(s);
      struct mid_instr *l0 = ld_attr(s, b, 0);
      struct mid_instr *l1 = ld_attr(s, b, 1);
      mid_test_alu2(s, b, "fmul", mid_var(2), mid_var(1), mid_var(1));
      struct mid_instr *add =
         mid_test_alu2(s, b, "fadd", mid_var(3), mid_var(2), mid_var(1));
      struct mid_instr *m3 = mid_test_move(s, b, mid_hw(27), mid_var(3));
      struct mid_instr *s0 = mid_test_st_vary(s, b, 0);
      struct mid_instr *m0 = mid_test_move(s, b, mid_hw(27), mid_var(0));
      struct mid_instr *s1 = mid_test_st_vary(s, b, 1);
      if (early) {
         PAN_EXPECT(mid_ra_early_stores(s, false));
         PAN_EXPECT_EQ(mid_test_position(b, l0), 0);
         PAN_EXPECT_EQ(mid_test_position(b, m0), 1);
         PAN_EXPECT_EQ(mid_test_position(b, s1), 2);
         PAN_EXPECT_EQ(mid_test_position(b, l1), 3);
         PAN_EXPECT_EQ(mid_test_position(b, add), 5);
         PAN_EXPECT_EQ(mid_test_position(b, m3), 6);
         PAN_EXPECT_EQ(mid_test_position(b, s0), 7);
         /* Nothing left to move. */
         PAN_EXPECT(!mid_ra_early_stores(s, false));
      }
      PAN_EXPECT(mid_ra(s));
      PAN_EXPECT_EQ(s->work_regs, early ? 2 : 3);
      ralloc_free(s);
   }
}

/*
 *    v0 = ld_attr
 *    v1 = ld_attr
 *    r27.xy = imov v0        piece 1
 *    v3 = fadd v1, v1        (v0 = fadd v1, v1 in the second run)
 *    v2 = fmul v1, v1
 *    r27.zw = imov v2        piece 2
 *    st_vary 0
 *    r27 = imov v3 (v0)
 *    st_vary 1
 *
 * The second store goes right after the fadd, the first group, in one
 * piece, after v2's write: piece 1 moves down past the fadd, which the
 * second run forbids (piece 1 would read the new v0): the block stays as
 * it is.
 */
static void
test_group_moves_whole(void)
{
   for (unsigned rewrite = 0; rewrite < 2; rewrite++) {
      struct mid_shader *s = mid_test_shader(4);
      struct mid_block *b = mid_block_create(s);
      ld_attr(s, b, 0);
      ld_attr(s, b, 1);
      struct mid_instr *a = mid_test_move(s, b, mid_hw(27), mid_var(0));
      a->mask = 0x3;
      unsigned t = rewrite ? 0 : 3;
      struct mid_instr *w =
         mid_test_alu2(s, b, "fadd", mid_var(t), mid_var(1), mid_var(1));
      struct mid_instr *x =
         mid_test_alu2(s, b, "fmul", mid_var(2), mid_var(1), mid_var(1));
      struct mid_instr *c = mid_test_move(s, b, mid_hw(27), mid_var(2));
      c->mask = 0xc;
      struct mid_instr *st = mid_test_st_vary(s, b, 0);
      struct mid_instr *m = mid_test_move(s, b, mid_hw(27), mid_var(t));
      mid_test_st_vary(s, b, 1);
      if (rewrite) {
         PAN_EXPECT(!mid_ra_early_stores(s, false));
         PAN_EXPECT_EQ(mid_test_position(b, a), 2);
         PAN_EXPECT_EQ(mid_test_position(b, w), 3);
      } else {
         /* The second group, ready at the fadd, goes first. */
         PAN_EXPECT(mid_ra_early_stores(s, false));
         PAN_EXPECT_EQ(mid_test_position(b, w), 2);
         PAN_EXPECT_EQ(mid_test_position(b, m), 3);
         PAN_EXPECT_EQ(mid_test_position(b, x), 5);
         PAN_EXPECT_EQ(mid_test_position(b, a), 6);
         PAN_EXPECT_EQ(mid_test_position(b, c), 7);
         PAN_EXPECT_EQ(mid_test_position(b, st), 8);
      }
      ralloc_free(s);
   }
}

/*
 *    v0 = ld_attr                 0
 *    v5.x = imov v0.x             1
 *    v1 = ld_attr                 2
 *    v2 = fmul v1, v1             3
 *    v5.yzw = imov v1.xyz         4
 *    v3 = fadd v2, v2             5
 *    r27 = imov v3; st_vary 0     6, 7
 *    r27 = imov v5; st_vary 1     8, 9
 *
 * Without pull the second store waits for v5's last write (4); with it,
 * v5's writes go along with the store, and so does the load of v0, which
 * only they read; the first store takes v2 and v3 along, which only it
 * reads: both wait for the second load alone and keep their order:
 * 2, (3, 5, 6, 7), (0, 1, 4, 8, 9).
 */
static void
test_pull_assembled_output(void)
{
   for (unsigned pull = 0; pull < 2; pull++) {
      struct mid_shader *s = mid_test_shader(6);
      struct mid_block *b = mid_block_create(s);
      ld_attr(s, b, 0);
      struct mid_instr *x = mid_test_move(s, b, mid_var(5), mid_var(0));
      x->mask = 0x1;
      struct mid_instr *l1 = ld_attr(s, b, 1);
      struct mid_instr *mul =
         mid_test_alu2(s, b, "fmul", mid_var(2), mid_var(1), mid_var(1));
      struct mid_instr *yzw = mid_test_move(s, b, mid_var(5), mid_var(1));
      yzw->mask = 0xe;
      for (unsigned l = 1; l < 4; l++)
         yzw->src[1].swz[l] = l - 1;
      mid_test_alu2(s, b, "fadd", mid_var(3), mid_var(2), mid_var(2));
      mid_test_move(s, b, mid_hw(27), mid_var(3));
      mid_test_st_vary(s, b, 0);
      struct mid_instr *m5 = mid_test_move(s, b, mid_hw(27), mid_var(5));
      struct mid_instr *st = mid_test_st_vary(s, b, 1);
      PAN_EXPECT(mid_ra_early_stores(s, pull));
      if (pull) {
         PAN_EXPECT_EQ(mid_test_position(b, l1), 0);
         PAN_EXPECT_EQ(mid_test_position(b, mul), 1);
         PAN_EXPECT_EQ(mid_test_position(b, x), 6);
         PAN_EXPECT_EQ(mid_test_position(b, yzw), 7);
         PAN_EXPECT_EQ(mid_test_position(b, m5), 8);
         PAN_EXPECT_EQ(mid_test_position(b, st), 9);
      } else {
         PAN_EXPECT_EQ(mid_test_position(b, x), 1);
         PAN_EXPECT_EQ(mid_test_position(b, yzw), 4);
         PAN_EXPECT_EQ(mid_test_position(b, m5), 5);
      }
      ralloc_free(s);
   }
}

/*
 *    v0 = ld_attr                 0   (the position)
 *    v1 = ld_attr                 1
 *    v2 = fadd v1, v0             2
 *    v5 = fmul v2, v1             3
 *    r27 = imov v5; st_vary 0     4, 5
 *    v3 = fmul v0, v0             6   (the transform)
 *    v4 = fadd v3, v3             7
 *    r27 = imov v4; st_vary 1     8, 9
 *    r27 = imov v1; st_vary 2     10, 11
 *
 * The transform is read by its store alone: pulled, it goes with the
 * store right after the position's load, so v0 no longer lives across
 * the first output's computation (v2 is written while v0 and v1 are
 * live): 2 registers instead of 3.  Without pull only the last store
 * moves (after v1's load), which does not help.
 */
static void
test_pull_whole_computation(void)
{
   for (unsigned pull = 0; pull < 2; pull++) {
      struct mid_shader *s = mid_test_shader(6);
      struct mid_block *b = mid_block_create(s);
      ld_attr(s, b, 0);
      struct mid_instr *l1 = ld_attr(s, b, 1);
      mid_test_alu2(s, b, "fadd", mid_var(2), mid_var(1), mid_var(0));
      mid_test_alu2(s, b, "fmul", mid_var(5), mid_var(2), mid_var(1));
      mid_test_move(s, b, mid_hw(27), mid_var(5));
      mid_test_st_vary(s, b, 0);
      struct mid_instr *mul =
         mid_test_alu2(s, b, "fmul", mid_var(3), mid_var(0), mid_var(0));
      mid_test_alu2(s, b, "fadd", mid_var(4), mid_var(3), mid_var(3));
      mid_test_move(s, b, mid_hw(27), mid_var(4));
      struct mid_instr *st = mid_test_st_vary(s, b, 1);
      mid_test_move(s, b, mid_hw(27), mid_var(1));
      mid_test_st_vary(s, b, 2);
      PAN_EXPECT(mid_ra_early_stores(s, pull));
      PAN_EXPECT_EQ(mid_test_position(b, mul), pull ? 1 : 8);
      PAN_EXPECT_EQ(mid_test_position(b, st), pull ? 4 : 11);
      PAN_EXPECT_EQ(mid_test_position(b, l1), pull ? 5 : 1);
      PAN_EXPECT(mid_ra(s));
      PAN_EXPECT_EQ(s->work_regs, pull ? 2 : 3);
      ralloc_free(s);
   }
}

/* Half the threads win with at most three fifths of the bundles (two
 * threads against four, one against two), which keeps the whole-
 * computation pull from trading long schedules for threads the stock
 * compiler does not reach either. */
static void
test_half_threads_pay(void)
{
   PAN_EXPECT(mid_half_threads_pay(18, 30));
   PAN_EXPECT(!mid_half_threads_pay(19, 30));
   PAN_EXPECT(!mid_half_threads_pay(20, 29));
   /* One thread against two: three quarters (tesseract/338: 47 and 77). */
   PAN_EXPECT(mid_one_thread_pays(47, 77));
   PAN_EXPECT(mid_one_thread_pays(30, 40));
   PAN_EXPECT(!mid_one_thread_pays(31, 40));
}

/* With hoisting the data registers alternate in the new order: the two
 * stores, both through r27 before, now take r27 and r26. */
static void
test_turns_dealt_again(void)
{
   struct mid_shader *s = mid_test_shader(3);
   s->hoist_stores = true;
   struct mid_block *b = mid_block_create(s);
   ld_attr(s, b, 0);
   ld_attr(s, b, 1);
   mid_test_alu2(s, b, "fmul", mid_var(2), mid_var(1), mid_var(1));
   struct mid_instr *m2 = mid_test_move(s, b, mid_hw(27), mid_var(2));
   struct mid_instr *s2 = mid_test_st_vary(s, b, 0);
   struct mid_instr *m0 = mid_test_move(s, b, mid_hw(27), mid_var(0));
   struct mid_instr *s0 = mid_test_st_vary(s, b, 1);
   PAN_EXPECT(mid_ra_early_stores(s, false));
   PAN_EXPECT_EQ(mid_test_position(b, s0), 2);
   PAN_EXPECT_EQ(mid_test_position(b, s2), 6);
   PAN_EXPECT(!s0->ls.data26);
   PAN_EXPECT_EQ(m0->dst.index, 27);
   PAN_EXPECT(s2->ls.data26);
   PAN_EXPECT_EQ(m2->dst.index, 26);
   ralloc_free(s);
}

/* Something other than the stores reads r27 (a global store's data
 * register, say): the block is left alone. */
static void
test_other_reader_left_alone(void)
{
   struct mid_shader *s = mid_test_shader(2);
   struct mid_block *b = mid_block_create(s);
   ld_attr(s, b, 0);
   ld_attr(s, b, 1);
   mid_test_alu2(s, b, "fadd", mid_var(1), mid_var(1), mid_hw(27));
   struct mid_instr *m = mid_test_move(s, b, mid_hw(27), mid_var(0));
   mid_test_st_vary(s, b, 0);
   PAN_EXPECT(!mid_ra_early_stores(s, false));
   PAN_EXPECT_EQ(mid_test_position(b, m), 3);
   ralloc_free(s);
}

int
main(void)
{
   PAN_RUN_CASE(test_store_ready_first);
   PAN_RUN_CASE(test_group_moves_whole);
   PAN_RUN_CASE(test_pull_assembled_output);
   PAN_RUN_CASE(test_pull_whole_computation);
   PAN_RUN_CASE(test_half_threads_pay);
   PAN_RUN_CASE(test_turns_dealt_again);
   PAN_RUN_CASE(test_other_reader_left_alone);
   return pan_test_summary("pan_mid_ra_stores");
}
