/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Texture lookups on IR built by hand.  Coordinates loaded into the
 * texture input register (mid_tex_coords.c): a varying holding two lookups'
 * coordinates loads into r28 (r26 on T720) just before the first lookup,
 * the moves go and the lookups take its lanes through their swizzle (a
 * lookup sharing the last one's coordinates too); then allocation needs
 * one register fewer; across a discard into a block only it reaches.
 * Left alone: another lookup's coordinates written in between, a
 * varying something else reads, a block a jump reaches too.  Coordinates
 * an ALU word computes for two lookups, written by it to r28, and not
 * when it would move past a write of what it reads.  And the
 * allocator's T720 results (mid_ra.c): a result only its copy reads is written
 * to the copy's register, r1 when it lives across the next lookup; on T860
 * one result at a time stays in the second result register, r28.  Lookups
 * moved down to their results' first use (mid_tex_late.c), not past a
 * write of the coordinates they read.  And loads moved down to their
 * first reader (mid_late_loads.c), not past a store.
 */

#include <string.h>

#include "util/pan_test_util.h"
#include "mid_test_ir.h"

static struct mid_shader *
tex_shader(unsigned gpu_id, unsigned nr_vars)
{
   struct mid_shader *s = mid_test_shader(nr_vars);
   s->stage = MESA_SHADER_FRAGMENT;
   s->gpu_id = gpu_id;
   s->tex_in = mid_tex_aliasing(gpu_id) ? 26 : 28;
   s->tex_out = mid_tex_aliasing(gpu_id) ? 0 : 29;
   return s;
}

static struct mid_instr *
ld_vary(struct mid_shader *s, struct mid_block *b, unsigned var)
{
   struct mid_instr *I = mid_instr_create(s, b, MID_LDST, "ld_vary_32");
   I->dst = mid_var(var);
   I->mask = 0xf;
   I->ls.areg = 7;
   I->ls.ireg = 7;
   I->ls.swz = 0xe4;
   return I;
}

/* tex_in.xy = imov v.(c0, c1) */
static struct mid_instr *
coord_move(struct mid_shader *s, struct mid_block *b, unsigned var, unsigned c0,
           unsigned c1)
{
   struct mid_instr *M = mid_test_move(s, b, mid_hw(s->tex_in), mid_var(var));
   M->mask = 0x3;
   M->int_result = true;
   M->src[1].swz[0] = c0;
   M->src[1].swz[1] = c1;
   return M;
}

static struct mid_instr *
lookup(struct mid_shader *s, struct mid_block *b)
{
   struct mid_instr *T = mid_instr_create(s, b, MID_TEX, "normal");
   T->tex =
      (struct mid_tex){ .dim = 2, .mode = 1, .stype = 1, .in_reg = s->tex_in };
   T->dst = mid_hw(s->tex_out);
   T->mask = 0xf;
   s->nr_tex++;
   return T;
}

/* r28.xy = imov v<var>.(c0, c1), then a lookup of them (returned). */
static struct mid_instr *
lookup_at(struct mid_shader *s, struct mid_block *b, unsigned var, unsigned c0,
          unsigned c1)
{
   coord_move(s, b, var, c0, c1);
   return lookup(s, b);
}

/* How most of these shaders start: v0 = ld_vary, then a lookup (returned)
 * of v0.xy. */
static struct mid_instr *
first_lookup(struct mid_shader *s, struct mid_block *b)
{
   ld_vary(s, b, 0);
   return lookup_at(s, b, 0, 0, 1);
}

static struct mid_instr *
result_copy(struct mid_shader *s, struct mid_block *b, unsigned var)
{
   struct mid_instr *M = mid_test_move(s, b, mid_var(var), mid_hw(s->tex_out));
   M->int_result = true;
   return M;
}

static unsigned
count(struct mid_block *b)
{
   unsigned n = 0;
   mid_foreach_instr(b, J) n++;
   return n;
}

static bool
swizzle_is(const struct mid_instr *T, unsigned c0, unsigned c1)
{
   return T->tex.swizzled && T->tex.inswz[0] == c0 && T->tex.inswz[1] == c1;
}

/*
 *    v0 = ld_vary (coordinates)          v1 = ld_vary
 *    v1 = ld_vary                        v2 = fadd v1, v1
 *    v2 = fadd v1, v1                    r28 = ld_vary
 *    r28.xy = imov v0.xy        ->       r29 = normal r28.xyxx
 *    r29 = normal                        v3 = imov r29
 *    v3 = imov r29                       r29 = normal r28.xyxx (shared)
 *    r29 = normal (same coordinates)     v4 = fadd v3, r29
 *    v4 = fadd v3, r29                   r29 = normal r28.zwzz
 *    r28.xy = imov v0.zw                 v5 = fadd v4, r29
 *    r29 = normal                        v6 = fadd v5, v2
 *    v5 = fadd v4, r29
 *    v6 = fadd v5, v2
 *
 * v0 no longer holds a register beside v1/v2 and the results: 3 work
 * registers before, 2 after.  On T720 the same with r26 in, r0 out.
 */
static void
test_coordinates_loaded(void)
{
   for (unsigned t720 = 0; t720 < 2; t720++) {
      for (unsigned on = 0; on < 2; on++) {
         struct mid_shader *s = tex_shader(t720 ? 0x720 : 0x860, 7);
         struct mid_block *b = mid_block_create(s);
         struct mid_instr *l0 = ld_vary(s, b, 0);
         ld_vary(s, b, 1);
         mid_test_alu2(s, b, "fadd", mid_var(2), mid_var(1), mid_var(1));
         struct mid_instr *t1 = lookup_at(s, b, 0, 0, 1);
         result_copy(s, b, 3);
         struct mid_instr *t2 = lookup(s, b);
         mid_test_alu2(s, b, "fadd", mid_var(4), mid_var(3),
                       mid_hw(s->tex_out));
         struct mid_instr *t3 = lookup_at(s, b, 0, 2, 3);
         mid_test_alu2(s, b, "fadd", mid_var(5), mid_var(4),
                       mid_hw(s->tex_out));
         mid_test_alu2(s, b, "fadd", mid_var(6), mid_var(5), mid_var(2));
         if (on) {
            PAN_EXPECT(mid_tex_coords(s));
            PAN_EXPECT_EQ(count(b), 10);
            PAN_EXPECT_EQ(mid_test_position(b, l0), 2);
            PAN_EXPECT_EQ(l0->dst.kind, MID_REF_HW);
            PAN_EXPECT_EQ(l0->dst.index, s->tex_in);
            PAN_EXPECT_EQ(mid_test_position(b, t1), 3);
            PAN_EXPECT(swizzle_is(t1, 0, 1));
            PAN_EXPECT(swizzle_is(t2, 0, 1));
            PAN_EXPECT(swizzle_is(t3, 2, 3));
            /* Nothing left to do. */
            PAN_EXPECT(!mid_tex_coords(s));
         }
         PAN_EXPECT(mid_ra(s));
         /* T720: the values live across a lookup stay out of r0. */
         PAN_EXPECT_EQ(s->work_regs, (on ? 2 : 3) + t720);
         ralloc_free(s);
      }
   }
}

/*
 *    block0:                           block0:
 *       v0 = ld_vary                      r28 = ld_vary
 *       r28.xy = imov v0.xy               r29 = normal r28.xyxx
 *       r29 = normal           ->         v1 = imov r29
 *       v1 = imov r29                     discard.true
 *       discard.true                   block1:
 *    block1:                              r29 = normal r28.zwzz
 *       r28.xy = imov v0.zw
 *       r29 = normal
 *
 * Only block0 reaches block1 (past a discard): r28 still holds the
 * coordinates there.  Left alone when a jump also reaches block1.
 */
static void
test_coordinates_across_blocks(void)
{
   for (unsigned join = 0; join < 2; join++) {
      struct mid_shader *s = tex_shader(0x860, 4);
      struct mid_block *b0 = mid_block_create(s);
      struct mid_block *b1 = mid_block_create(s);
      struct mid_instr *l0 = ld_vary(s, b0, 0);
      struct mid_instr *t1 = lookup_at(s, b0, 0, 0, 1);
      result_copy(s, b0, 1);
      struct mid_instr *br = mid_instr_create(s, b0, MID_BRANCH, "branch");
      br->cond = MID_COND_TRUE;
      br->discard = !join;
      br->target = b1;
      struct mid_instr *t2 = lookup_at(s, b1, 0, 2, 3);
      PAN_EXPECT_EQ(mid_tex_coords(s), !join);
      PAN_EXPECT_EQ(l0->dst.kind, join ? MID_REF_VAR : MID_REF_HW);
      if (!join) {
         PAN_EXPECT(swizzle_is(t1, 0, 1));
         PAN_EXPECT(swizzle_is(t2, 2, 3));
         PAN_EXPECT_EQ(count(b0), 4);
         PAN_EXPECT_EQ(count(b1), 1);
      }
      ralloc_free(s);
   }
}

/*
 *    v0 = ld_vary                        v0 = ld_vary
 *    v1 = fadd v0, v0                    v2 = ld_vary
 *    v2 = ld_vary                        r28 = fadd v0, v0
 *    r28.xy = imov v1.xy                 r29 = normal r28.xyxx
 *    r29 = normal              ->        v3 = imov r29
 *    v3 = imov r29                       r29 = normal r28.zwzz
 *    r28.xy = imov v1.zw                 v4 = fadd v3, r29
 *    r29 = normal                        v5 = fadd v4, v2
 *    v4 = fadd v3, r29
 *    v5 = fadd v4, v2
 *
 * Coordinates an ALU word computes for two lookups (a blur's offsets):
 * the add writes r28 itself, moved down to the first lookup.  Left alone
 * when something on the way writes what it reads (v0 written again).
 */
static void
test_coordinates_computed(void)
{
   for (unsigned clobber = 0; clobber < 2; clobber++) {
      struct mid_shader *s = tex_shader(0x860, 6);
      struct mid_block *b = mid_block_create(s);
      ld_vary(s, b, 0);
      struct mid_instr *add =
         mid_test_alu2(s, b, "fadd", mid_var(1), mid_var(0), mid_var(0));
      ld_vary(s, b, 2);
      if (clobber)
         mid_test_alu2(s, b, "fadd", mid_var(0), mid_var(2), mid_var(2));
      struct mid_instr *t1 = lookup_at(s, b, 1, 0, 1);
      result_copy(s, b, 3);
      struct mid_instr *t2 = lookup_at(s, b, 1, 2, 3);
      mid_test_alu2(s, b, "fadd", mid_var(4), mid_var(3), mid_hw(s->tex_out));
      mid_test_alu2(s, b, "fadd", mid_var(5), mid_var(4), mid_var(2));
      unsigned n = count(b);
      PAN_EXPECT_EQ(mid_tex_coords(s), !clobber);
      if (!clobber) {
         PAN_EXPECT_EQ(count(b), n - 2);
         PAN_EXPECT_EQ(mid_test_position(b, add), 2);
         PAN_EXPECT_EQ(add->dst.kind, MID_REF_HW);
         PAN_EXPECT_EQ(add->dst.index, s->tex_in);
         PAN_EXPECT(swizzle_is(t1, 0, 1));
         PAN_EXPECT(swizzle_is(t2, 2, 3));
      } else {
         PAN_EXPECT_EQ(count(b), n);
         PAN_EXPECT_EQ(add->dst.kind, MID_REF_VAR);
         PAN_EXPECT(!t1->tex.swizzled);
      }
      PAN_EXPECT(mid_ra(s));
      ralloc_free(s);
   }
}

/*
 *    v0 = ld_vary
 *    r28.xy = imov v0.xy
 *    r29 = normal
 *    v2 = imov r29
 *    r28.xy = imov v2.xy       another lookup's coordinates
 *    r29 = normal
 *    r28.xy = imov v0.zw
 *    r29 = normal
 *
 * r28 would no longer hold v0 at the last lookup: left alone.  Likewise
 * when v0 has a reader that is not a coordinate move.
 */
static void
test_left_alone(void)
{
   for (unsigned other = 0; other < 2; other++) {
      struct mid_shader *s = tex_shader(0x860, 4);
      struct mid_block *b = mid_block_create(s);
      struct mid_instr *l0 = ld_vary(s, b, 0);
      struct mid_instr *t1 = lookup_at(s, b, 0, 0, 1);
      result_copy(s, b, 2);
      if (other) {
         mid_test_alu2(s, b, "fadd", mid_var(3), mid_var(0), mid_var(2));
      } else {
         lookup_at(s, b, 2, 0, 1);
      }
      lookup_at(s, b, 0, 2, 3);
      unsigned n = count(b);
      PAN_EXPECT(!mid_tex_coords(s));
      PAN_EXPECT_EQ(count(b), n);
      PAN_EXPECT_EQ(mid_test_position(b, l0), 0);
      PAN_EXPECT_EQ(l0->dst.kind, MID_REF_VAR);
      PAN_EXPECT(!t1->tex.swizzled);
      ralloc_free(s);
   }
}

/*
 *    v0 = ld_vary
 *    r26.xy = imov v0.xy
 *    r0 = normal                 v1(r1) = normal (result select r1)
 *    v1 = imov r0        ->      v1 = imov v1 (dropped: same register)
 *    r26.xy = imov v0.zw
 *    r0 = normal
 *    v2 = fadd v1, r0
 *    v3 = fadd v2, v0
 *
 * Three work registers either way (v0 moves to r2).  On T860 the first
 * result stays in the second result register instead (r28, below).
 */
static void
test_t720_result_register(void)
{
   for (unsigned t720 = 0; t720 < 2; t720++) {
      struct mid_shader *s = tex_shader(t720 ? 0x720 : 0x860, 4);
      struct mid_block *b = mid_block_create(s);
      struct mid_instr *t1 = first_lookup(s, b);
      struct mid_instr *m1 = result_copy(s, b, 1);
      struct mid_instr *t2 = lookup_at(s, b, 0, 2, 3);
      mid_test_alu2(s, b, "fadd", mid_var(2), mid_var(1), mid_hw(s->tex_out));
      mid_test_alu2(s, b, "fadd", mid_var(3), mid_var(2), mid_var(0));
      PAN_EXPECT(mid_ra(s));
      PAN_EXPECT_EQ(s->work_regs, t720 ? 3 : 2);
      PAN_EXPECT_EQ(t2->dst.kind, MID_REF_HW);
      if (t720) {
         PAN_EXPECT_EQ(t1->dst.kind, MID_REF_VAR);
         PAN_EXPECT_EQ(t1->dst.index, 1);
         PAN_EXPECT_EQ(s->reg_of[1], 1);
         PAN_EXPECT_EQ(t1->mask, m1->mask);
         PAN_EXPECT_EQ(m1->src[1].ref.kind, MID_REF_VAR);
         PAN_EXPECT(mid_is_var_copy(m1));
      } else {
         PAN_EXPECT_EQ(t1->dst.kind, MID_REF_VAR);
         PAN_EXPECT_EQ(s->reg_of[1], 28);
         PAN_EXPECT(mid_is_var_copy(m1));
      }
      ralloc_free(s);
   }
}

/*
 *    v0 = ld_vary
 *    r28.xy = imov v0.xy
 *    r29 = normal                v1(r28) = normal (result select r28)
 *    v1 = imov r29       ->      v1 = imov v1 (dropped)
 *    r28.xy = imov v0.zw
 *    r29 = normal
 *    v2 = fmul v1, v0
 *    v3 = fadd v2, r29
 *
 * On T860 the first result stays in r28, the second result register,
 * which nothing else writes: one work register instead of two.  With a
 * third lookup whose result is also kept to the end, only one of the two
 * spans can have r28 (the first to end), and a result read in another
 * block keeps its copy.
 */
static void
test_t860_second_result(void)
{
   for (unsigned third = 0; third < 2; third++) {
      struct mid_shader *s = tex_shader(0x860, 6);
      struct mid_block *b = mid_block_create(s);
      struct mid_instr *t1 = first_lookup(s, b);
      struct mid_instr *m1 = result_copy(s, b, 1);
      struct mid_instr *t2 = lookup_at(s, b, 0, 2, 3);
      struct mid_instr *m2 = third ? result_copy(s, b, 4) : NULL;
      struct mid_instr *t3 = third ? lookup(s, b) : NULL;
      struct mid_instr *a =
         mid_test_alu2(s, b, "fmul", mid_var(2), mid_var(1), mid_var(0));
      mid_test_alu2(s, b, "fadd", mid_var(3), mid_var(2), mid_hw(s->tex_out));
      if (third)
         mid_test_alu2(s, b, "fadd", mid_var(5), mid_var(3), mid_var(4));
      PAN_EXPECT(mid_ra(s));
      PAN_EXPECT_EQ(t1->dst.kind, MID_REF_VAR);
      PAN_EXPECT_EQ(s->reg_of[1], 28);
      PAN_EXPECT(mid_is_var_copy(m1));
      PAN_EXPECT_EQ(a->src[0].ref.kind, MID_REF_VAR);
      PAN_EXPECT_EQ(t2->dst.kind, MID_REF_HW);
      PAN_EXPECT_EQ(t2->dst.index, 29);
      if (third) {
         PAN_EXPECT_EQ(t3->dst.kind, MID_REF_HW);
         PAN_EXPECT_EQ(m2->src[1].ref.kind, MID_REF_HW);
         PAN_EXPECT(s->reg_of[4] < 16);
      } else {
         PAN_EXPECT_EQ(s->work_regs, 1);
      }
      ralloc_free(s);
   }

   /* The copy read in a later block stays a copy. */
   struct mid_shader *s = tex_shader(0x860, 4);
   struct mid_block *b = mid_block_create(s);
   struct mid_instr *t1 = first_lookup(s, b);
   result_copy(s, b, 1);
   struct mid_block *b2 = mid_block_create(s);
   mid_test_alu2(s, b2, "fadd", mid_var(2), mid_var(1), mid_var(0));
   PAN_EXPECT(mid_ra(s));
   PAN_EXPECT_EQ(t1->dst.kind, MID_REF_HW);
   PAN_EXPECT(s->reg_of[1] < 16);
   ralloc_free(s);
}

/*
 *    v0 = ld_vary
 *    r28.xy = imov v0.xy;  r29 = normal;  v1.x = imov r29.x
 *    r28.xy = imov v0.zw;  r29 = normal;  v1.y = imov r29.x
 *    ... (four lookups: v1.xyzw)
 *    v2 = fmul v1, v0
 *  then a second block: r28.xy = imov v2.xy;  r29 = normal;  v3 = fadd r29, v2
 *
 * Four shadow-style lookups gathered into one vector: each word writes its
 * x into its lane of v1, kept in r28 (the stock code's TA0.x-w), and the
 * copies become moves of a lane onto itself.  The later block reads r29
 * only after its own lookup, so the last word's result needs no closing
 * write in its block.  With a reader of another component of a result
 * (r29.y), the group stays copies.
 */
static void
test_t860_lane_group(void)
{
   for (unsigned other = 0; other < 2; other++) {
      struct mid_shader *s = tex_shader(0x860, 5);
      struct mid_block *b = mid_block_create(s);
      ld_vary(s, b, 0);
      struct mid_instr *T[4], *M[4];
      for (unsigned l = 0; l < 4; l++) {
         T[l] = lookup_at(s, b, 0, 2 * (l & 1), 2 * (l & 1) + 1);
         M[l] = result_copy(s, b, 1);
         M[l]->mask = 1u << l;
         for (unsigned c = 0; c < 4; c++)
            M[l]->src[1].swz[c] = 0;
         if (other && l == 1) {
            struct mid_instr *O =
               mid_test_alu2(s, b, "fadd", mid_var(4), mid_hw(29), mid_var(0));
            O->mask = 0x1;
            O->src[0].swz[0] = 1;
         }
      }
      mid_test_alu2(s, b, "fmul", mid_var(2), mid_var(1), mid_var(0));
      struct mid_block *b2 = mid_block_create(s);
      coord_move(s, b2, 2, 0, 1);
      lookup(s, b2);
      mid_test_alu2(s, b2, "fadd", mid_var(3), mid_hw(29), mid_var(2));
      PAN_EXPECT(mid_ra(s));
      for (unsigned l = 0; l < 4; l++) {
         if (other) {
            PAN_EXPECT_EQ(T[l]->dst.kind, MID_REF_HW);
            continue;
         }
         PAN_EXPECT_EQ(T[l]->dst.kind, MID_REF_VAR);
         PAN_EXPECT_EQ(T[l]->dst.index, 1);
         PAN_EXPECT_EQ(T[l]->mask, 1u << l);
         PAN_EXPECT(T[l]->tex.outswz_set);
         PAN_EXPECT_EQ(T[l]->tex.outswz[l], 0);
         PAN_EXPECT_EQ(M[l]->src[1].ref.kind, MID_REF_VAR);
         PAN_EXPECT_EQ(M[l]->src[1].swz[l], l);
      }
      if (other)
         PAN_EXPECT(s->reg_of[1] < 16);
      else
         PAN_EXPECT_EQ(s->reg_of[1], 28);
      ralloc_free(s);
   }
}

/*
 *    v0 = ld_vary;  r28.xy = imov v0.xy;  r29 = normal;  v1 = imov r29
 *    r28.xy = imov v0.zw;  r29 = normal;  v2 = imov r29
 *    r28.xy = imov v0.xy;  r29 = normal
 *    v3 = fadd v2, r29;  v4 = fmul v1, v3
 *
 * Two overlapping spans: the second result's copy (v2) ends first, but
 * the first one's (v1) is longer; r28 goes to the longer.
 */
static void
test_t860_longest_span(void)
{
   struct mid_shader *s = tex_shader(0x860, 5);
   struct mid_block *b = mid_block_create(s);
   struct mid_instr *t1 = first_lookup(s, b);
   result_copy(s, b, 1);
   struct mid_instr *t2 = lookup_at(s, b, 0, 2, 3);
   result_copy(s, b, 2);
   lookup_at(s, b, 0, 0, 1);
   mid_test_alu2(s, b, "fadd", mid_var(3), mid_var(2), mid_hw(s->tex_out));
   mid_test_alu2(s, b, "fmul", mid_var(4), mid_var(1), mid_var(3));
   PAN_EXPECT(mid_ra(s));
   PAN_EXPECT_EQ(t1->dst.kind, MID_REF_VAR);
   PAN_EXPECT_EQ(s->reg_of[1], 28);
   PAN_EXPECT_EQ(t2->dst.kind, MID_REF_HW);
   PAN_EXPECT(s->reg_of[2] < 16);
   ralloc_free(s);
}

/*
 *    r29 = normal                   r29 = normal
 *    v1.xyz = imov r29.xyz    ->    v1.xyzw = imov r29.xyzw
 *    v2.x = fmul r29.w, v0.x        v2.x = fmul v1.w, v0.x
 *    r29 = normal                   r29 = normal
 *
 * In the extra rounds on T860 (mid_ra_keep_tex_copies), a result's other
 * readers after its copy read the copy, so that they may be scheduled
 * past the next lookup (the copy may stay in r28); not on T720, and not
 * a reader before the copy.
 */
static void
test_t860_read_copy(void)
{
   for (unsigned t720 = 0; t720 < 2; t720++) {
      struct mid_shader *s = tex_shader(t720 ? 0x720 : 0x860, 4);
      struct mid_block *b = mid_block_create(s);
      first_lookup(s, b);
      struct mid_instr *before = mid_test_alu2(s, b, "fmul", mid_var(3),
                                               mid_hw(s->tex_out), mid_var(0));
      before->mask = 0x1;
      struct mid_instr *m1 = result_copy(s, b, 1);
      m1->mask = 0x7;
      struct mid_instr *f = mid_test_alu2(s, b, "fmul", mid_var(2),
                                          mid_hw(s->tex_out), mid_var(0));
      f->mask = 0x1;
      f->src[0].swz[0] = 3;
      lookup_at(s, b, 0, 2, 3);
      PAN_EXPECT_EQ(mid_ra_keep_tex_copies(s), !t720);
      PAN_EXPECT_EQ(before->src[0].ref.kind, MID_REF_HW);
      if (t720) {
         PAN_EXPECT_EQ(f->src[0].ref.kind, MID_REF_HW);
         PAN_EXPECT_EQ(m1->mask, 0x7);
      } else {
         PAN_EXPECT_EQ(f->src[0].ref.kind, MID_REF_VAR);
         PAN_EXPECT_EQ(f->src[0].ref.index, 1);
         PAN_EXPECT_EQ(m1->mask, 0xf);
         PAN_EXPECT_EQ(m1->src[1].swz[3], 3);
      }
      ralloc_free(s);
   }
}

/*
 *    v0 = ld_vary;  r28.xy = imov v0.xy;  r29 = normal
 *    v1.xyz = imov r29.xyz
 *    v2.x = fmul r29.w, v0.x
 *    r28.xy = imov v0.zw;  r29 = normal
 *    v3.xyz = fadd v1, r29;  v4.xyz = fmul v3, v2.xxx;  writeout v4
 *
 * Scheduled and allocated on T860: lane packing puts the scalar v2 in the
 * copy's free lane, and a copy written twice cannot stay in r28.  With
 * keep_tex_copies (the extra rounds) packing leaves the copy whole, and
 * the first lookup writes it in r28.
 */
static void
test_t860_copy_left_whole(void)
{
   for (unsigned keep = 0; keep < 2; keep++) {
      struct mid_shader *s = tex_shader(0x860, 5);
      s->keep_tex_copies = keep;
      struct mid_block *b = mid_block_create(s);
      struct mid_instr *t1 = first_lookup(s, b);
      struct mid_instr *m1 = result_copy(s, b, 1);
      m1->mask = 0x7;
      struct mid_instr *f = mid_test_alu2(s, b, "fmul", mid_var(2),
                                          mid_hw(s->tex_out), mid_var(0));
      f->mask = 0x1;
      f->src[0].swz[0] = 3;
      lookup_at(s, b, 0, 2, 3);
      mid_test_alu2(s, b, "fadd", mid_var(3), mid_var(1), mid_hw(s->tex_out))
         ->mask = 0x7;
      struct mid_instr *g =
         mid_test_alu2(s, b, "fmul", mid_var(4), mid_var(3), mid_var(2));
      g->mask = 0x7;
      memset(g->src[1].swz, 0, sizeof(g->src[1].swz));
      struct mid_instr *W = mid_instr_create(s, b, MID_WRITEOUT, "writeout");
      W->nr_srcs = 1;
      W->src[0] = mid_src_ref(mid_var(4));
      PAN_EXPECT(mid_schedule(s));
      PAN_EXPECT(mid_ra(s));
      unsigned kind = keep ? MID_REF_VAR : MID_REF_HW;
      PAN_EXPECT_EQ(t1->dst.kind, kind);
      if (keep)
         PAN_EXPECT_EQ(s->reg_of[1], 28);
      ralloc_free(s);
   }
}

static struct mid_instr *
ld_coords(struct mid_shader *s, struct mid_block *b)
{
   struct mid_instr *L = ld_vary(s, b, 0);
   L->dst = mid_hw(s->tex_in);
   return L;
}

static struct mid_instr *
swizzled(struct mid_instr *T, unsigned c0, unsigned c1)
{
   T->tex.swizzled = true;
   T->tex.inswz[0] = T->tex.inswz[2] = T->tex.inswz[3] = c0;
   T->tex.inswz[1] = c1;
   return T;
}

/*
 *    r28 = ld_vary                       r28 = ld_vary
 *    r29 = normal r28.xy                 r29 = normal r28.zw
 *    v0 = imov r29          ->           v1 = fadd r29, r29
 *    r29 = normal r28.zw                 v2 = fmul v1, v1
 *    v1 = fadd r29, r29                  r29 = normal r28.xy
 *    v2 = fmul v1, v1                    v0 = imov r29
 *    v3 = fadd v2, v0                    v3 = fadd v2, v0
 *
 * With a second load into r28 before the second lookup, the first one
 * would read the new coordinates: it stays.
 */
static void
test_late_lookups(void)
{
   for (unsigned reload = 0; reload < 2; reload++) {
      struct mid_shader *s = tex_shader(0x860, 4);
      struct mid_block *b = mid_block_create(s);
      ld_coords(s, b);
      struct mid_instr *t1 = swizzled(lookup(s, b), 0, 1);
      struct mid_instr *m = result_copy(s, b, 0);
      if (reload)
         ld_coords(s, b);
      struct mid_instr *t2 = swizzled(lookup(s, b), 2, 3);
      mid_test_alu2(s, b, "fadd", mid_var(1), mid_hw(s->tex_out),
                    mid_hw(s->tex_out));
      struct mid_instr *mul =
         mid_test_alu2(s, b, "fmul", mid_var(2), mid_var(1), mid_var(1));
      struct mid_instr *use =
         mid_test_alu2(s, b, "fadd", mid_var(3), mid_var(2), mid_var(0));
      PAN_EXPECT_EQ(mid_tex_late(s), !reload);
      if (!reload) {
         PAN_EXPECT_EQ(mid_test_position(b, t2), 1);
         PAN_EXPECT_EQ(mid_test_position(b, mul), 3);
         PAN_EXPECT_EQ(mid_test_position(b, t1), 4);
         PAN_EXPECT_EQ(mid_test_position(b, m), 5);
         PAN_EXPECT_EQ(mid_test_position(b, use), 6);
         /* Everything is where it is used now. */
         PAN_EXPECT(!mid_tex_late(s));
      } else {
         PAN_EXPECT_EQ(mid_test_position(b, t1), 1);
         PAN_EXPECT_EQ(mid_test_position(b, m), 2);
      }
      ralloc_free(s);
   }
}

/*
 *    v0 = ld_vary                        v1 = ld_vary
 *    v1 = ld_vary                        v2 = fadd v1, v1
 *    v2 = fadd v1, v1         ->         v0 = ld_vary
 *    v3 = fadd v2, v0                    v3 = fadd v2, v0
 *
 * v0 no longer lives beside v1: one register instead of two.  With a
 * store after v1's load, v0 stops just above it.
 */
static void
test_late_loads(void)
{
   for (unsigned store = 0; store < 2; store++) {
      struct mid_shader *s = tex_shader(0x860, 4);
      struct mid_block *b = mid_block_create(s);
      struct mid_instr *l0 = ld_vary(s, b, 0);
      ld_vary(s, b, 1);
      if (store)
         mid_test_st_vary(s, b, 0);
      mid_test_alu2(s, b, "fadd", mid_var(2), mid_var(1), mid_var(1));
      struct mid_instr *use =
         mid_test_alu2(s, b, "fadd", mid_var(3), mid_var(2), mid_var(0));
      PAN_EXPECT(mid_late_loads(s));
      PAN_EXPECT_EQ(mid_test_position(b, l0), store ? 1 : 2);
      PAN_EXPECT_EQ(mid_test_position(b, use), 3 + store);
      if (!store) {
         PAN_EXPECT(!mid_late_loads(s));
         PAN_EXPECT(mid_ra(s));
         PAN_EXPECT_EQ(s->work_regs, 2);
      }
      ralloc_free(s);
   }
}

/*
 *    v0 = ld_vary;  r28.xy = imov v0.xy;  r29 = normal;  v1 = imov r29
 *    r28.xy = imov v0.zw;  r29 = normal
 *    v2 = imov v1;  v3 = fadd v2, r29;  v4 = fmul v3, v2
 *
 * v1 stays in r28, and v2, its copy partner, must not follow it there
 * (r28 is no work register: the allocation failed with "needs more than
 * 16 work registers"); it takes a work register of its own.
 */
static void
test_t860_partner_in_r28(void)
{
   struct mid_shader *s = tex_shader(0x860, 5);
   struct mid_block *b = mid_block_create(s);
   first_lookup(s, b);
   result_copy(s, b, 1);
   lookup_at(s, b, 0, 2, 3);
   struct mid_instr *m = mid_test_move(s, b, mid_var(2), mid_var(1));
   mid_test_alu2(s, b, "fadd", mid_var(3), mid_var(2), mid_hw(s->tex_out));
   mid_test_alu2(s, b, "fmul", mid_var(4), mid_var(3), mid_var(2));
   PAN_EXPECT(mid_is_var_copy(m));
   PAN_EXPECT(mid_ra(s));
   PAN_EXPECT(!s->ra_failed);
   PAN_EXPECT_EQ(s->reg_of[1], 28);
   PAN_EXPECT(s->reg_of[2] >= 0 && s->reg_of[2] < 16);
   PAN_EXPECT(s->work_regs <= 2);
   ralloc_free(s);
}

int
main(void)
{
   PAN_RUN_CASE(test_coordinates_loaded);
   PAN_RUN_CASE(test_left_alone);
   PAN_RUN_CASE(test_coordinates_across_blocks);
   PAN_RUN_CASE(test_coordinates_computed);
   PAN_RUN_CASE(test_t720_result_register);
   PAN_RUN_CASE(test_t860_second_result);
   PAN_RUN_CASE(test_t860_longest_span);
   PAN_RUN_CASE(test_t860_lane_group);
   PAN_RUN_CASE(test_t860_read_copy);
   PAN_RUN_CASE(test_t860_copy_left_whole);
   PAN_RUN_CASE(test_t860_partner_in_r28);
   PAN_RUN_CASE(test_late_lookups);
   PAN_RUN_CASE(test_late_loads);
   return pan_test_summary("pan_mid_tex");
}
