/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The move passes on IR built by hand, checked before and after: the copy
 * bias of register allocation (mid_ra.c), the removal of copies that
 * became no-ops (mid_coalesce.c), varying stores moved up to their data
 * with their swizzle folded, store data written in part by its producers,
 * constants propagated, r31 feeders that compute their condition, clamping
 * moves folded into their producers' output modifier, a dot product
 * writing the lane of a vector its copy filled, an attribute load moved
 * down to write the store data its copy wrote, and loads
 * writing texture inputs (mid_opt.c), and lanes of moves and loads nobody reads
 * trimmed (mid_dce).
 */

#include "util/pan_test_util.h"
#include "mid_test_ir.h"

static unsigned
nr_instrs(const struct mid_block *b)
{
   return list_length(&b->instrs);
}

static struct mid_instr *
nth(struct mid_block *b, unsigned n)
{
   mid_foreach_instr(b, I)
   {
      if (!n--)
         return I;
   }
   return NULL;
}

/*
 *    v0 = imov u0        r0
 *    v1 = fadd v0, v0    r1 (v0 still live)
 *    r27 = fmul v0, v0   v0 dies
 *    v2 = imov v1        v1 dies: lowest free is r0, the copy wants r1
 *    r27 = fadd v2, v2
 */
static void
test_ra_copy_bias(void)
{
   struct mid_shader *s = mid_test_shader(3);
   struct mid_block *b = mid_block_create(s);
   struct mid_ref u0 = { MID_REF_UNIFORM, 0 };
   mid_test_move(s, b, mid_var(0), u0);
   mid_test_alu2(s, b, "fadd", mid_var(1), mid_var(0), mid_var(0));
   mid_test_alu2(s, b, "fmul", mid_hw(27), mid_var(0), mid_var(0));
   mid_test_move(s, b, mid_var(2), mid_var(1));
   mid_test_alu2(s, b, "fadd", mid_hw(27), mid_var(2), mid_var(2));
   s->nr_push = 1;
   PAN_EXPECT(mid_ra(s));
   PAN_EXPECT_EQ(s->reg_of[0], 0);
   PAN_EXPECT_EQ(s->reg_of[1], 1);
   PAN_EXPECT_EQ(s->reg_of[2], 1);
   PAN_EXPECT_EQ(s->work_regs, 2);
   ralloc_free(s);
}

/*
 * Bundles (r = register of each variable):
 *    0: vmul v0(r0) = fadd ...          starts block 0
 *    1: vadd v1(r0) = imov v0(r0)       no-op: the bundle goes
 *    2: vmul v2(r1) = imov v1(r0)       kept (registers differ)
 *       vadd v3(r0) = imov v1(r0).yxzw  kept (swizzled)
 *    3: sadd v4(r0).x = imov v0(r0).x   no-op, starts block 1: the start
 *                                       moves to bundle 4
 *    4: vmul r27 = fadd v4, v4
 */
static void
test_drop_self_moves(void)
{
   struct mid_shader *s = mid_test_shader(5);
   struct mid_block *b0 = mid_block_create(s);
   struct mid_ref u0 = { MID_REF_UNIFORM, 0 };
   struct mid_instr *a = mid_test_alu2(s, b0, "fadd", mid_var(0), u0, u0);
   struct mid_instr *m1 = mid_test_move(s, b0, mid_var(1), mid_var(0));
   struct mid_instr *m2 = mid_test_move(s, b0, mid_var(2), mid_var(1));
   struct mid_instr *m3 = mid_test_move(s, b0, mid_var(3), mid_var(1));
   m3->src[1].swz[0] = 1;
   m3->src[1].swz[1] = 0;
   struct mid_block *b1 = mid_block_create(s);
   struct mid_instr *m4 = mid_test_move(s, b1, mid_var(4), mid_var(0));
   m4->mask = 0x1;
   struct mid_instr *last =
      mid_test_alu2(s, b1, "fadd", mid_hw(27), mid_var(4), mid_var(4));
   s->reg_of = ralloc_array(s, int, 5);
   const int regs[5] = { 0, 0, 1, 0, 0 };
   memcpy(s->reg_of, regs, sizeof(regs));

   struct mid_bundle bundles[5] = { 0 };
   bundles[0].block = b0;
   bundles[0].unit[0] = a;
   bundles[1].unit[2] = m1;
   bundles[2].unit[0] = m2;
   bundles[2].unit[2] = m3;
   bundles[3].block = b1;
   bundles[3].unit[1] = m4;
   bundles[4].unit[0] = last;
   for (unsigned i = 0; i < 5; i++) {
      bundles[i].kind = MID_B_ALU;
      util_dynarray_append(&s->bundles, struct mid_bundle, bundles[i]);
   }

   mid_drop_self_moves(s);

   PAN_EXPECT_EQ(util_dynarray_num_elements(&s->bundles, struct mid_bundle), 3);
   struct mid_bundle *out = s->bundles.data;
   PAN_EXPECT(out[0].unit[0] == a && out[0].block == b0);
   PAN_EXPECT(out[1].unit[0] == m2 && out[1].unit[2] == m3);
   PAN_EXPECT(out[2].unit[0] == last && out[2].block == b1);
   PAN_EXPECT_EQ(nr_instrs(b0), 3);
   PAN_EXPECT(nth(b0, 1) == m2);
   PAN_EXPECT_EQ(nr_instrs(b1), 1);
   ralloc_free(s);
}

/*
 * Before (vertex outputs stored one after the other at the end):
 *    v0 = fadd u0, u0
 *    v1.xyz = fmul u0, u0
 *    r27 = imov v0;        st_vary 0
 *    r27 = imov v1.xyzz;   st_vary 1
 * After, with stores hoisted: the producers write r27, each store right
 * after its data, the repeated lane folded into the store's swizzle:
 *    r27 = fadd u0, u0;      st_vary 0
 *    r27.xyz = fmul u0, u0;  st_vary 1 (.xyzz)
 * Without hoisting, the first store stands between the second value and
 * its move: that move stays (its swizzle folded all the same).
 */
static void
test_hoist_varying_stores(void)
{
   for (unsigned hoist = 0; hoist < 2; hoist++) {
      struct mid_shader *s = mid_test_shader(2);
      s->hoist_stores = hoist;
      struct mid_block *b = mid_block_create(s);
      struct mid_ref u0 = { MID_REF_UNIFORM, 0 };
      struct mid_instr *p0 = mid_test_alu2(s, b, "fadd", mid_var(0), u0, u0);
      struct mid_instr *p1 = mid_test_alu2(s, b, "fmul", mid_var(1), u0, u0);
      p1->mask = 0x7;
      mid_test_move(s, b, mid_hw(27), mid_var(0));
      struct mid_instr *s0 = mid_test_st_vary(s, b, 0);
      struct mid_instr *m1 = mid_test_move(s, b, mid_hw(27), mid_var(1));
      m1->src[1].swz[3] = 2;
      struct mid_instr *s1 = mid_test_st_vary(s, b, 1);

      mid_opt_moves(s);

      PAN_EXPECT(p0->dst.kind == MID_REF_HW && p0->dst.index == 27);
      PAN_EXPECT_EQ(s1->ls.swz, 0xa4); /* x y z z */
      if (hoist) {
         PAN_EXPECT_EQ(nr_instrs(b), 4);
         PAN_EXPECT(nth(b, 0) == p0 && nth(b, 1) == s0);
         PAN_EXPECT(nth(b, 2) == p1 && nth(b, 3) == s1);
         PAN_EXPECT(p1->dst.kind == MID_REF_HW && p1->dst.index == 27);
         PAN_EXPECT_EQ(p1->mask, 0x7);
      } else {
         PAN_EXPECT_EQ(nr_instrs(b), 5);
         PAN_EXPECT(nth(b, 1) == p1 && nth(b, 2) == s0 && nth(b, 3) == m1);
         PAN_EXPECT(p1->dst.kind == MID_REF_VAR);
         PAN_EXPECT_EQ(m1->mask, 0x7);
      }
      ralloc_free(s);
   }
}

/* The position: its 1/w lane is read by the perspective multiply too, so
 * the move into r27 cannot sink whole.  With hoisting, the producer of
 * the lanes nobody else reads writes r27 itself and the move keeps w:
 *    v0.w = frcp u0.w
 *    v1.xyz = fmul u0.xyz, v0.www
 *    v0.xyz = fadd v1.xyz, u0.xyz
 *    r27 = imov v0; st_vary 0
 */
static void
test_partial_sink(void)
{
   for (unsigned hoist = 0; hoist < 2; hoist++) {
      struct mid_shader *s = mid_test_shader(2);
      s->hoist_stores = hoist;
      struct mid_block *b = mid_block_create(s);
      struct mid_ref u0 = { MID_REF_UNIFORM, 0 };
      struct mid_instr *rcp = mid_test_alu2(s, b, "frcp", mid_var(0), u0, u0);
      rcp->mask = 0x8;
      rcp->src[1].ref.kind = MID_REF_NONE;
      struct mid_instr *mul =
         mid_test_alu2(s, b, "fmul", mid_var(1), u0, mid_var(0));
      mul->mask = 0x7;
      for (unsigned l = 0; l < 4; l++)
         mul->src[1].swz[l] = 3;
      struct mid_instr *add =
         mid_test_alu2(s, b, "fadd", mid_var(0), mid_var(1), u0);
      add->mask = 0x7;
      struct mid_instr *m = mid_test_move(s, b, mid_hw(27), mid_var(0));
      mid_test_st_vary(s, b, 0);

      mid_opt_moves(s);

      PAN_EXPECT_EQ(nr_instrs(b), 5);
      PAN_EXPECT(rcp->dst.kind == MID_REF_VAR && mul->src[1].ref.index == 0);
      if (hoist) {
         PAN_EXPECT(add->dst.kind == MID_REF_HW && add->dst.index == 27);
         PAN_EXPECT_EQ(add->mask, 0x7);
         PAN_EXPECT_EQ(m->mask, 0x8);
      } else {
         PAN_EXPECT(add->dst.kind == MID_REF_VAR);
         PAN_EXPECT_EQ(m->mask, 0xf);
      }
      ralloc_free(s);
   }
}

/* A store between the producers and the move reads r27 there: hoisting
 * would clobber it, so the move stays.
 *    r27 = fadd u0, u0
 *    v0 = fmul u0, u0
 *    st_vary 0              reads the fadd
 *    r27 = imov v0; st_vary 1
 */
static void
test_hoist_blocked(void)
{
   struct mid_shader *s = mid_test_shader(1);
   s->hoist_stores = true;
   struct mid_block *b = mid_block_create(s);
   struct mid_ref u0 = { MID_REF_UNIFORM, 0 };
   mid_test_alu2(s, b, "fadd", mid_hw(27), u0, u0);
   struct mid_instr *p = mid_test_alu2(s, b, "fmul", mid_var(0), u0, u0);
   mid_test_st_vary(s, b, 0);
   struct mid_instr *m = mid_test_move(s, b, mid_hw(27), mid_var(0));
   mid_test_st_vary(s, b, 1);

   mid_opt_moves(s);

   PAN_EXPECT_EQ(nr_instrs(b), 5);
   PAN_EXPECT(p->dst.kind == MID_REF_VAR);
   PAN_EXPECT(nth(b, 3) == m);
   ralloc_free(s);
}

/* Constants reach the readers of their moves, which frees the vector for
 * sinking:
 *    v0.w = imov #5
 *    v1.xyz = fadd u0, u0
 *    v1.w = imov v0.w
 *    r27 = imov v1;  st_vary 0
 * becomes
 *    r27.xyz = fadd u0, u0
 *    r27.w = imov #5;  st_vary 0
 */
static void
test_constant_propagation(void)
{
   struct mid_shader *s = mid_test_shader(2);
   struct mid_block *b = mid_block_create(s);
   struct mid_ref u0 = { MID_REF_UNIFORM, 0 };
   struct mid_instr *c = mid_test_move(s, b, mid_var(0), mid_var(0));
   c->src[1] =
      (struct mid_src){ .ref = { MID_REF_CONST, 0 }, .imm = { 0, 0, 0, 5 } };
   c->mask = 0x8;
   struct mid_instr *p = mid_test_alu2(s, b, "fadd", mid_var(1), u0, u0);
   p->mask = 0x7;
   struct mid_instr *w = mid_test_move(s, b, mid_var(1), mid_var(0));
   w->mask = 0x8;
   mid_test_move(s, b, mid_hw(27), mid_var(1));
   struct mid_instr *st = mid_test_st_vary(s, b, 0);

   mid_opt_moves(s);

   PAN_EXPECT_EQ(nr_instrs(b), 3);
   PAN_EXPECT(nth(b, 0) == p && nth(b, 1) == w && nth(b, 2) == st);
   PAN_EXPECT(p->dst.kind == MID_REF_HW && p->dst.index == 27);
   PAN_EXPECT(w->dst.kind == MID_REF_HW && w->dst.index == 27);
   PAN_EXPECT_EQ(w->src[1].ref.kind, MID_REF_CONST);
   PAN_EXPECT_EQ(w->src[1].imm[3], 5);
   ralloc_free(s);
}

/* The r31 feeder of a select computes the condition itself:
 *    v0.xy = flt u0, u1
 *    r31 = imov v0.yyxx  (paired)
 *    v1 = icsel_v u0, u1
 * becomes
 *    r31 = flt u0.yyxx, u1.yyxx  (paired)
 *    v1 = icsel_v u0, u1
 */
static void
test_fold_feeder(void)
{
   struct mid_shader *s = mid_test_shader(2);
   struct mid_block *b = mid_block_create(s);
   struct mid_ref u0 = { MID_REF_UNIFORM, 0 }, u1 = { MID_REF_UNIFORM, 1 };
   struct mid_instr *p = mid_test_alu2(s, b, "flt", mid_var(0), u0, u1);
   p->mask = 0x3;
   struct mid_instr *f = mid_test_move(s, b, mid_hw(31), mid_var(0));
   const uint8_t swz[4] = { 1, 1, 0, 0 };
   memcpy(f->src[1].swz, swz, 4);
   f->pair_next = true;
   struct mid_instr *sel = mid_test_alu2(s, b, "icsel_v", mid_var(1), u0, u1);

   mid_opt_moves(s);

   PAN_EXPECT_EQ(nr_instrs(b), 2);
   PAN_EXPECT(nth(b, 0) == f && nth(b, 1) == sel);
   PAN_EXPECT(!strcmp(f->op, "flt") && f->pair_next);
   PAN_EXPECT_EQ(f->mask, 0xf);
   PAN_EXPECT(f->src[0].ref.kind == MID_REF_UNIFORM &&
              f->src[0].ref.index == 0);
   PAN_EXPECT(f->src[1].ref.kind == MID_REF_UNIFORM &&
              f->src[1].ref.index == 1);
   PAN_EXPECT(!memcmp(f->src[0].swz, swz, 4) && !memcmp(f->src[1].swz, swz, 4));
   ralloc_free(s);
}

/* A clamping move (max(x, 0) or fsat) sinks into its producer, which
 * takes the output modifier:
 *    v0.xy = fmul u0, u1
 *    v1.xy = fmov.pos v0.yx
 *    r27 = fadd v1, v1
 * becomes
 *    v1.xy = fmul.pos u0.yx, u1.yx
 * but not into an integer producer (v2 = iadd; v3 = fmov.sat v2 stays),
 * nor into one clamped already (v4 = fmul.sat; v5 = fmov.pos v4 stays). */
static void
test_clamp_into_producer(void)
{
   struct mid_shader *s = mid_test_shader(6);
   struct mid_block *b = mid_block_create(s);
   struct mid_ref u0 = { MID_REF_UNIFORM, 0 }, u1 = { MID_REF_UNIFORM, 1 };
   struct mid_instr *p = mid_test_alu2(s, b, "fmul", mid_var(0), u0, u1);
   p->mask = 0x3;
   struct mid_instr *c = mid_test_alu2(s, b, "fmov", mid_var(1), mid_var(0),
                                       mid_var(0));
   c->src[0].ref.kind = MID_REF_NONE;
   c->mask = 0x3;
   c->omod = 1;
   c->src[1].swz[0] = 1;
   c->src[1].swz[1] = 0;
   mid_test_alu2(s, b, "fadd", mid_hw(27), mid_var(1), mid_var(1));
   struct mid_instr *ip = mid_test_alu2(s, b, "iadd", mid_var(2), u0, u1);
   ip->int_result = true;
   struct mid_instr *ic = mid_test_alu2(s, b, "fmov", mid_var(3), mid_var(2),
                                        mid_var(2));
   ic->src[0].ref.kind = MID_REF_NONE;
   ic->omod = 3;
   mid_test_alu2(s, b, "fadd", mid_hw(27), mid_var(3), mid_var(3));
   struct mid_instr *sp = mid_test_alu2(s, b, "fmul", mid_var(4), u0, u1);
   sp->omod = 3;
   struct mid_instr *sc = mid_test_alu2(s, b, "fmov", mid_var(5), mid_var(4),
                                        mid_var(4));
   sc->src[0].ref.kind = MID_REF_NONE;
   sc->omod = 1;
   mid_test_alu2(s, b, "fadd", mid_hw(27), mid_var(5), mid_var(5));

   mid_opt_moves(s);

   PAN_EXPECT_EQ(nr_instrs(b), 8);
   PAN_EXPECT(nth(b, 0) == p && nth(b, 1) != c);
   PAN_EXPECT(p->dst.kind == MID_REF_VAR && p->dst.index == 1);
   PAN_EXPECT_EQ(p->omod, 1);
   PAN_EXPECT_EQ(p->mask, 0x3);
   PAN_EXPECT(p->src[0].swz[0] == 1 && p->src[0].swz[1] == 0);
   PAN_EXPECT(p->src[1].swz[0] == 1 && p->src[1].swz[1] == 0);
   PAN_EXPECT(nth(b, 2) == ip && nth(b, 3) == ic && ip->omod == 0);
   PAN_EXPECT(nth(b, 5) == sp && nth(b, 6) == sc && sp->omod == 3);
   ralloc_free(s);
}

/* A dot product's sum copied into one lane of a vector built lane by
 * lane (a TBN transform: one dot per lane):
 *    v1.x = fadd u0, u1
 *    v0.x = fdot3 u0.yzwx, u1
 *    v1.y = imov v0.x
 *    r27.xy = fadd v1, v1
 * becomes
 *    v1.x = fadd u0, u1
 *    v1.y = fdot3 u0.yzwx, u1      (sources still read by position)
 *    r27.xy = fadd v1, v1 */
static void
test_dot_into_vector(void)
{
   struct mid_shader *s = mid_test_shader(2);
   struct mid_block *b = mid_block_create(s);
   struct mid_ref u0 = { MID_REF_UNIFORM, 0 }, u1 = { MID_REF_UNIFORM, 1 };
   mid_test_alu2(s, b, "fadd", mid_var(1), u0, u1)->mask = 0x1;
   struct mid_instr *d = mid_test_alu2(s, b, "fdot3", mid_var(0), u0, u1);
   d->mask = 0x1;
   for (unsigned l = 0; l < 4; l++)
      d->src[0].swz[l] = (l + 1) & 3;
   struct mid_instr *m = mid_test_move(s, b, mid_var(1), mid_var(0));
   m->mask = 0x2;
   m->src[1].swz[1] = 0;
   mid_test_alu2(s, b, "fadd", mid_hw(27), mid_var(1), mid_var(1))->mask =
      0x3;

   mid_opt_moves(s);

   PAN_EXPECT_EQ(nr_instrs(b), 3);
   PAN_EXPECT(nth(b, 1) == d);
   PAN_EXPECT(d->dst.kind == MID_REF_VAR && d->dst.index == 1);
   PAN_EXPECT_EQ(d->mask, 0x2);
   for (unsigned l = 0; l < 4; l++) {
      PAN_EXPECT_EQ(d->src[0].swz[l], (l + 1) & 3);
      PAN_EXPECT_EQ(d->src[1].swz[l], l);
   }
   ralloc_free(s);
}

static struct mid_instr *
ld_vary(struct mid_shader *s, struct mid_block *b, unsigned var)
{
   struct mid_instr *I = mid_instr_create(s, b, MID_LDST, "ld_vary_32");
   I->dst = mid_var(var);
   I->mask = 0xf;
   I->ls.swz = 0xe4;
   I->ls.areg = 7;
   I->ls.ireg = 7;
   return I;
}

/* An attribute copied to a varying after another store through r27:
 *    v0 = ld_attr_32                     r27 = fadd u0, u0
 *    r27 = fadd u0, u0                   st_vary 0
 *    st_vary 0                  ->       r27 = ld_attr_32
 *    r27 = imov v0                       st_vary 1
 *    st_vary 1
 * without hoisting: the load cannot write r27 where it is, so it moves
 * down to the move (an ALU producer stays: test_hoist_blocked).  With
 * hoisting the store moves up to the load, as before. */
static void
test_load_into_store_data(void)
{
   for (unsigned hoist = 0; hoist < 2; hoist++) {
      struct mid_shader *s = mid_test_shader(1);
      s->hoist_stores = hoist;
      struct mid_block *b = mid_block_create(s);
      struct mid_ref u0 = { MID_REF_UNIFORM, 0 };
      struct mid_instr *l = ld_vary(s, b, 0);
      l->op = "ld_attr_32";
      mid_test_alu2(s, b, "fadd", mid_hw(27), u0, u0);
      mid_test_st_vary(s, b, 0);
      mid_test_move(s, b, mid_hw(27), mid_var(0));
      struct mid_instr *st = mid_test_st_vary(s, b, 1);

      mid_opt_moves(s);

      PAN_EXPECT_EQ(nr_instrs(b), 4);
      /* Hoisting moves the store up to the load instead. */
      PAN_EXPECT(nth(b, hoist ? 0 : 2) == l && nth(b, hoist ? 1 : 3) == st);
      PAN_EXPECT(l->dst.kind == MID_REF_HW && l->dst.index == 27);
      PAN_EXPECT_EQ(l->mask, 0xf);
      ralloc_free(s);
   }
}

/* Texture coordinates straight from a varying load:
 *    v0 = ld_vary
 *    r28.xy = imov v0.xy
 * becomes
 *    r28.xy = ld_vary
 * but not when a copy's propagation gave v0 a second reader in the same
 * round (v1 = imov v0; r28.xy = imov v1.xy; r27 = fadd v1, v1). */
static void
test_load_to_texture_input(void)
{
   struct mid_shader *s = mid_test_shader(2);
   s->tex_in = s->tex_out = 28;
   struct mid_block *b = mid_block_create(s);
   struct mid_instr *ld = ld_vary(s, b, 0);
   mid_test_move(s, b, mid_hw(28), mid_var(0))->mask = 0x3;

   mid_opt_moves(s);

   PAN_EXPECT_EQ(nr_instrs(b), 1);
   PAN_EXPECT(nth(b, 0) == ld);
   PAN_EXPECT(ld->dst.kind == MID_REF_HW && ld->dst.index == 28);
   PAN_EXPECT_EQ(ld->mask, 0x3);
   ralloc_free(s);

   s = mid_test_shader(3);
   s->tex_in = s->tex_out = 28;
   b = mid_block_create(s);
   ld = ld_vary(s, b, 0);
   mid_test_move(s, b, mid_var(1), mid_var(0));
   mid_test_move(s, b, mid_hw(28), mid_var(1))->mask = 0x3;
   mid_test_alu2(s, b, "fadd", mid_hw(27), mid_var(1), mid_var(1));
   mid_test_st_vary(s, b, 0);

   mid_opt_moves(s);

   PAN_EXPECT(ld->dst.kind == MID_REF_VAR && ld->dst.index == 0);
   PAN_EXPECT_EQ(ld->mask, 0xf);
   PAN_EXPECT_EQ(nr_instrs(b), 4); /* the copy went */
   ralloc_free(s);
}

/* A texture result's copy read past a load (T860):
 *    r28 = tex;  v0 = imov r28;  v1 = ld_vary;  r27 = fadd v0, v1
 * becomes
 *    r28 = tex;  v1 = ld_vary;  r27 = fadd r28, v1 */
static void
test_tex_result_past_load(void)
{
   struct mid_shader *s = mid_test_shader(2);
   s->tex_in = s->tex_out = 28;
   struct mid_block *b = mid_block_create(s);
   struct mid_instr *T = mid_instr_create(s, b, MID_TEX, "normal");
   T->dst = mid_hw(28);
   T->mask = 0xf;
   T->tex.in_reg = 28;
   mid_test_move(s, b, mid_var(0), mid_hw(28));
   ld_vary(s, b, 1);
   struct mid_instr *add =
      mid_test_alu2(s, b, "fadd", mid_hw(27), mid_var(0), mid_var(1));
   mid_test_st_vary(s, b, 0);

   mid_opt_moves(s);

   PAN_EXPECT(add->src[0].ref.kind == MID_REF_HW &&
              add->src[0].ref.index == 28);
   PAN_EXPECT_EQ(nr_instrs(b), 4); /* the copy went */
   ralloc_free(s);
}

/* Two lookups at the same coordinates, results in r29:
 *    v0 = ld_vary;  r28.xy = imov v0;  r29 = tex;  r28.xy = imov v0;  r29 = tex
 * becomes
 *    r28.xy = ld_vary;  r29 = tex;  r29 = tex
 * (the repeated move goes, then the load writes r28); with results in r28
 * both moves stay. */
static void
test_repeated_tex_move(void)
{
   for (unsigned out = 28; out <= 29; out++) {
      struct mid_shader *s = mid_test_shader(1);
      s->tex_in = 28;
      s->tex_out = out;
      struct mid_block *b = mid_block_create(s);
      struct mid_instr *ld = ld_vary(s, b, 0);
      for (unsigned k = 0; k < 2; k++) {
         mid_test_move(s, b, mid_hw(28), mid_var(0))->mask = 0x3;
         struct mid_instr *T = mid_instr_create(s, b, MID_TEX, "normal");
         T->dst = mid_hw(out);
         T->mask = 0xf;
         T->tex.in_reg = 28;
      }

      mid_opt_moves(s);

      PAN_EXPECT_EQ(nr_instrs(b), out == 29 ? 3 : 5);
      PAN_EXPECT_EQ(ld->dst.kind, out == 29 ? MID_REF_HW : MID_REF_VAR);
      ralloc_free(s);
   }
}

/* Lanes nobody reads leave ALU results and varying loads, and then the
 * lanes of their sources, not those of dot products' sources:
 *    v0 = imov r29;  v1 = ld_vary;  v2 = fmul v0, v1
 *    v3 = ld_vary;  v4.x = fdot3 v3, v3
 *    v5.xyz = fadd v2.xyz, v4.xxx;  r27.xyz = imov v5;  st_vary 0
 * leaves v2, then v0 and v1 writing xyz, v3 all four lanes. */
static void
test_dead_lanes(void)
{
   struct mid_shader *s = mid_test_shader(6);
   s->stage = MESA_SHADER_FRAGMENT;
   struct mid_block *b = mid_block_create(s);
   struct mid_instr *m = mid_test_move(s, b, mid_var(0), mid_hw(29));
   struct mid_instr *l1 = mid_instr_create(s, b, MID_LDST, "ld_vary_32");
   l1->dst = mid_var(1);
   l1->mask = 0xf;
   l1->ls.swz = 0xe4;
   struct mid_instr *f =
      mid_test_alu2(s, b, "fmul", mid_var(2), mid_var(0), mid_var(1));
   struct mid_instr *l3 = mid_instr_create(s, b, MID_LDST, "ld_vary_32");
   l3->dst = mid_var(3);
   l3->mask = 0xf;
   l3->ls.swz = 0xe4;
   mid_test_alu2(s, b, "fdot3", mid_var(4), mid_var(3), mid_var(3))->mask = 0x1;
   struct mid_instr *a =
      mid_test_alu2(s, b, "fadd", mid_var(5), mid_var(2), mid_var(4));
   a->mask = 0x7;
   memset(a->src[1].swz, 0, 4);
   mid_test_move(s, b, mid_hw(27), mid_var(5))->mask = 0x7;
   mid_test_st_vary(s, b, 0)->mask = 0x7;

   mid_dce(s);

   PAN_EXPECT_EQ(nr_instrs(b), 8);
   PAN_EXPECT_EQ(f->mask, 0x7);
   PAN_EXPECT_EQ(m->mask, 0x7);
   PAN_EXPECT_EQ(l1->mask, 0x7);
   PAN_EXPECT_EQ(l3->mask, 0x7); /* fdot3 reads x-z */
   ralloc_free(s);
}

int
main(void)
{
   PAN_RUN_CASE(test_ra_copy_bias);
   PAN_RUN_CASE(test_drop_self_moves);
   PAN_RUN_CASE(test_hoist_varying_stores);
   PAN_RUN_CASE(test_hoist_blocked);
   PAN_RUN_CASE(test_partial_sink);
   PAN_RUN_CASE(test_constant_propagation);
   PAN_RUN_CASE(test_fold_feeder);
   PAN_RUN_CASE(test_clamp_into_producer);
   PAN_RUN_CASE(test_dot_into_vector);
   PAN_RUN_CASE(test_load_to_texture_input);
   PAN_RUN_CASE(test_load_into_store_data);
   PAN_RUN_CASE(test_tex_result_past_load);
   PAN_RUN_CASE(test_repeated_tex_move);
   PAN_RUN_CASE(test_dead_lanes);
   return pan_test_summary("pan_mid_moves");
}
