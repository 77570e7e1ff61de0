/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Lane packing (mid_pack.c) on IR built by hand, scheduled and allocated:
 * scalars and vec2s live together share one register, a dot product's
 * result moves to a lane while its positional reads stay (over a vector
 * assembled piece by piece too), a per-lane select moves with its r31
 * feeder, and the colour's unwritten lanes are defined before the
 * writeout (mid_sched.c); the lane count and the cross-lane ops by name;
 * the scheduler's liveness, which packing takes, still right after it.
 */

#include <string.h>

#include "util/pan_test_util.h"
#include "util/ralloc.h"

#include "mid_ir.h"
#include "mid_pack.h"
#include "mid_test_ir.h"

static struct mid_shader *
new_shader(unsigned nr_vars, gl_shader_stage stage)
{
   struct mid_shader *s = rzalloc(NULL, struct mid_shader);
   s->mem = s;
   s->stage = stage;
   s->gpu_id = 0x860;
   s->nr_vars = nr_vars;
   s->nr_push = 1;
   s->err = s->err_buf;
   s->err_size = sizeof(s->err_buf);
   list_inithead(&s->blocks);
   return s;
}

/* dst.lanes = op a.swz, b.swz (swizzle as one lane per char). */
static struct mid_instr *
alu(struct mid_shader *s, struct mid_block *b, const char *op,
    struct mid_ref dst, unsigned mask, struct mid_ref a, const char *sa,
    struct mid_ref c, const char *sc)
{
   struct mid_instr *I = mid_instr_create(s, b, MID_ALU, op);
   I->dst = dst;
   I->mask = mask;
   I->nr_srcs = 2;
   I->src[0] = mid_src_ref(a);
   I->src[1] = mid_src_ref(c);
   for (unsigned l = 0; l < 4; l++) {
      I->src[0].swz[l] = (strchr("xyzw", sa[l]) - "xyzw");
      I->src[1].swz[l] = (strchr("xyzw", sc[l]) - "xyzw");
   }
   return I;
}

static const struct mid_ref u0 = { MID_REF_UNIFORM, 0 };

/* The passes from scheduling (which packs lanes at its end) to
 * allocation. */
static bool
schedule_and_allocate(struct mid_shader *s)
{
   return mid_schedule(s) && mid_ra(s);
}

/*
 * Four scalars live at once, then summed:
 *    v0..v3.x = fmul u0.x/y/z/w, u0.x
 *    v4.x = fadd v0, v1;  v5.x = fadd v2, v3;  r27.x = fadd v4, v5
 * Whole registers would need a register per scalar; packed, they share.
 */
static void
test_scalars_share(void)
{
   struct mid_shader *s = new_shader(6, MESA_SHADER_VERTEX);
   struct mid_block *b = mid_block_create(s);
   struct mid_instr *w[4];
   const char *sw[4] = { "xxxx", "yyyy", "zzzz", "wwww" };
   for (unsigned i = 0; i < 4; i++)
      w[i] = alu(s, b, "fmul", mid_var(i), 1, u0, sw[i], u0, "xxxx");
   alu(s, b, "fadd", mid_var(4), 1, mid_var(0), "xxxx", mid_var(1), "xxxx");
   alu(s, b, "fadd", mid_var(5), 1, mid_var(2), "xxxx", mid_var(3), "xxxx");
   alu(s, b, "fadd", mid_hw(27), 1, mid_var(4), "xxxx", mid_var(5), "xxxx");
   PAN_EXPECT(schedule_and_allocate(s));
   /* At least three of them live at once (the scheduler may forward one
    * through r24): whole registers would need three. */
   PAN_EXPECT(s->work_regs <= 2);
   /* Those left in variables: one variable, distinct lanes, each write
    * still reading its own uniform lane. */
   uint8_t lanes = 0;
   unsigned nr = 0, var = ~0u;
   for (unsigned i = 0; i < 4; i++) {
      if (w[i]->dst.kind != MID_REF_VAR)
         continue;
      if (var == ~0u)
         var = w[i]->dst.index;
      PAN_EXPECT_EQ(w[i]->dst.index, var);
      PAN_EXPECT_EQ(util_bitcount(w[i]->mask), 1);
      PAN_EXPECT(!(lanes & w[i]->mask));
      lanes |= w[i]->mask;
      unsigned l = ffs(w[i]->mask) - 1;
      PAN_EXPECT_EQ(w[i]->src[0].swz[l], i);
      nr++;
   }
   PAN_EXPECT(nr >= 3);
   ralloc_free(s);
}

/*
 *    v0.xyz = fmul u0, u0
 *    v1.xyz = fdot3 v0, v0       only lane 0 read: a one-lane value
 *    v2.x = frsqrt v1.x
 *    r27.xyz = fmul v0, v2.xxx
 * The dot product writes one lane; its sources keep reading x, y, z.
 */
static void
test_dot_packed(void)
{
   struct mid_shader *s = new_shader(3, MESA_SHADER_VERTEX);
   struct mid_block *b = mid_block_create(s);
   alu(s, b, "fmul", mid_var(0), 7, u0, "xyzw", u0, "xyzw");
   struct mid_instr *D =
      alu(s, b, "fdot3", mid_var(1), 7, mid_var(0), "xyzw", mid_var(0), "xyzw");
   alu(s, b, "frsqrt", mid_var(2), 1, mid_var(1), "xxxx", mid_var(1), "xxxx");
   alu(s, b, "fmul", mid_hw(27), 7, mid_var(0), "xyzw", mid_var(2), "xxxx");
   PAN_EXPECT(schedule_and_allocate(s));
   PAN_EXPECT_EQ(util_bitcount(D->mask), 1);
   for (unsigned l = 0; l < 3; l++)
      PAN_EXPECT_EQ(D->src[0].swz[l], l);
   PAN_EXPECT_EQ(s->work_regs, 2);
   ralloc_free(s);
}

/* A dot product over a vector written lane by lane packs to one lane
 * too: the allocator sees it read the vector's three lanes (mid_src_lanes),
 * so the pieces keep their register up to it. */
static void
test_dot_pieces_packed(void)
{
   struct mid_shader *s = new_shader(3, MESA_SHADER_VERTEX);
   struct mid_block *b = mid_block_create(s);
   alu(s, b, "fmul", mid_var(0), 1, u0, "xxxx", u0, "xxxx");
   alu(s, b, "fadd", mid_var(0), 6, u0, "xyzw", u0, "xyzw");
   struct mid_instr *D =
      alu(s, b, "fdot3", mid_var(1), 7, mid_var(0), "xyzw", mid_var(0), "xyzw");
   /* Two readers: not forwarded through r24. */
   alu(s, b, "fadd", mid_hw(27), 1, mid_var(1), "xxxx", u0, "xxxx");
   alu(s, b, "fmul", mid_hw(27), 2, mid_var(1), "xxxx", u0, "xxxx");
   PAN_EXPECT(schedule_and_allocate(s));
   PAN_EXPECT_EQ(D->dst.kind, MID_REF_VAR);
   PAN_EXPECT_EQ(util_bitcount(D->mask), 1);
   for (unsigned l = 0; l < 3; l++)
      PAN_EXPECT_EQ(D->src[0].swz[l], l);
   ralloc_free(s);
}

/*
 *    v0.xy = fmul u0.xy, u0.xy;  v1.xy = fadd u0.zw, u0.zw
 *    r27.xy = fmul v0, v1
 * Two live vec2s take the four lanes of one variable.
 */
static void
test_vec2_share(void)
{
   struct mid_shader *s = new_shader(2, MESA_SHADER_VERTEX);
   struct mid_block *b = mid_block_create(s);
   struct mid_instr *A = alu(s, b, "fmul", mid_var(0), 3, u0, "xyzw", u0, "xyzw");
   struct mid_instr *B = alu(s, b, "fadd", mid_var(1), 3, u0, "zwzw", u0, "zwzw");
   struct mid_instr *R =
      alu(s, b, "fmul", mid_hw(27), 3, mid_var(0), "xyzw", mid_var(1), "xyzw");
   PAN_EXPECT(schedule_and_allocate(s));
   PAN_EXPECT_EQ(s->work_regs, 1);
   PAN_EXPECT_EQ(A->dst.index, B->dst.index);
   PAN_EXPECT_EQ(A->mask | B->mask, 0xf);
   /* The reader follows: lane l of each source reads where its value
    * went, and each write still reads u0's lanes in its order. */
   for (unsigned l = 0; l < 2; l++) {
      unsigned la = ffs(A->mask) - 1 + l, lb = ffs(B->mask) - 1 + l;
      PAN_EXPECT_EQ(R->src[0].swz[l], la);
      PAN_EXPECT_EQ(R->src[1].swz[l], lb);
      PAN_EXPECT_EQ(A->src[0].swz[la], l);
      PAN_EXPECT_EQ(B->src[0].swz[lb], 2 + l);
   }
   ralloc_free(s);
}

/*
 *    v0.x = fmul u0.x, u0.x
 *    r31.xy = fmul u0.zw, u0.zw   (feeder, paired)
 *    v1.xy = icsel_v v0.xx, u0.yx
 *    r27.xyz = fadd v0.xxx, v1.xyy
 * v1 moves next to v0 (to y and z); its select reads r31 lane by lane, so
 * the feeder's lanes and source lanes move with it.
 */
static void
test_csel_condition_moves(void)
{
   struct mid_shader *s = new_shader(2, MESA_SHADER_VERTEX);
   struct mid_block *b = mid_block_create(s);
   alu(s, b, "fmul", mid_var(0), 1, u0, "xxxx", u0, "xxxx");
   struct mid_instr *F =
      alu(s, b, "fmul", mid_hw(31), 3, u0, "zwzw", u0, "zwzw");
   F->pair_next = true;
   struct mid_instr *C =
      alu(s, b, "icsel_v", mid_var(1), 3, mid_var(0), "xxxx", u0, "yxzw");
   alu(s, b, "fadd", mid_hw(27), 7, mid_var(0), "xxxx", mid_var(1), "xyyy");
   PAN_EXPECT(schedule_and_allocate(s));
   PAN_EXPECT_EQ(s->work_regs, 1);
   PAN_EXPECT(C->mask != 3);
   PAN_EXPECT_EQ(F->mask, C->mask);
   unsigned l0 = ffs(C->mask) - 1;
   PAN_EXPECT_EQ(F->src[0].swz[l0], 2);
   PAN_EXPECT_EQ(F->src[0].swz[l0 + 1], 3);
   PAN_EXPECT_EQ(C->src[1].swz[l0], 1);
   ralloc_free(s);
}

/* A colour written in x, y, z: lane w becomes 0 before the writeout (in
 * the writeout bundle itself, which then writes r0). */
static void
test_colour_defined(void)
{
   struct mid_shader *s = new_shader(1, MESA_SHADER_FRAGMENT);
   struct mid_block *b = mid_block_create(s);
   alu(s, b, "fmul", mid_var(0), 7, u0, "xyzw", u0, "xyzw");
   struct mid_instr *W = mid_instr_create(s, b, MID_WRITEOUT, "writeout");
   W->nr_srcs = 1;
   W->src[0] = mid_src_ref(mid_var(0));
   PAN_EXPECT(mid_schedule(s));
   bool found = false;
   mid_foreach_instr(b, I)
   {
      if (I->kind == MID_ALU && I->dst.index == 0 && I->mask == 8 &&
          (I->dst.kind == MID_REF_VAR || I->dst.kind == MID_REF_HW)) {
         found = true;
         PAN_EXPECT(!strcmp(I->op, "imov"));
         PAN_EXPECT_EQ(I->src[1].ref.kind, MID_REF_CONST);
         PAN_EXPECT_EQ(I->src[1].imm[3], 0);
      }
   }
   PAN_EXPECT(found);
   ralloc_free(s);
}

/* The lane count from a table agrees with the bit count. */
static void
test_lane_count(void)
{
   for (unsigned m = 0; m < 300; m++)
      PAN_EXPECT_EQ(mid_lane_count(m), util_bitcount(m));
}

/* Cross-lane ops by name (a walk instead of strstr): dot products, the
 * reduction and the all/any comparisons, ALU words only. */
static void
test_cross_lane_names(void)
{
   static const struct {
      const char *op;
      bool cross;
   } cases[] = {
      { "fdot3", true },     { "fdot3r", true },    { "fdot4", true },
      { "freduce", true },   { "fball_eq", true },  { "ibany_neq", true },
      { "uball_lte", true }, { "ubany_lt", true },  { "fadd", false },
      { "fmov", false },     { "fdo", false },      { "ball", false },
      { "xbal_", false },    { "fbanyx", false },   { "freduc", false },
      { "ld_attr_32", false },
   };
   struct mid_shader *s = new_shader(1, MESA_SHADER_VERTEX);
   struct mid_block *b = mid_block_create(s);
   for (unsigned i = 0; i < ARRAY_SIZE(cases); i++) {
      struct mid_instr *I = mid_instr_create(s, b, MID_ALU, cases[i].op);
      PAN_EXPECT_EQ(mid_cross_lane(I), cases[i].cross);
      I->kind = MID_LDST;
      PAN_EXPECT(!mid_cross_lane(I));
   }
   ralloc_free(s);
}

/*
 * b0: v0 = fadd u0, u0;  v1 = fmul u1, u1;  v3 = fadd v1, v1;  r27 = v3; st
 * b1: v2 = fadd v0, v0
 * b2: r27 = v2; st;  r27 = v1; st
 * Lane packing takes the liveness the scheduler made before reordering:
 * after scheduling, a fresh dataflow pass over the bundle order finds
 * the same lanes live into and out of every block (whole vec4s: packing
 * renames nothing here).
 */
static void
test_live_kept_by_scheduling(void)
{
   struct mid_shader *s = new_shader(4, MESA_SHADER_VERTEX);
   const struct mid_ref u0 = { MID_REF_UNIFORM, 0 }, u1 = { MID_REF_UNIFORM, 1 };
   s->nr_push = 2;
   struct mid_block *b0 = mid_block_create(s);
   mid_test_alu2(s, b0, "fadd", mid_var(0), u0, u0);
   mid_test_alu2(s, b0, "fmul", mid_var(1), u1, u1);
   mid_test_alu2(s, b0, "fadd", mid_var(3), mid_var(1), mid_var(1));
   mid_test_move(s, b0, mid_hw(27), mid_var(3));
   mid_test_st_vary(s, b0, 0);
   struct mid_block *b1 = mid_block_create(s);
   mid_test_alu2(s, b1, "fadd", mid_var(2), mid_var(0), mid_var(0));
   struct mid_block *b2 = mid_block_create(s);
   mid_test_move(s, b2, mid_hw(27), mid_var(2));
   mid_test_st_vary(s, b2, 1);
   mid_test_move(s, b2, mid_hw(27), mid_var(1));
   mid_test_st_vary(s, b2, 2);
   s->sched_cache = mid_sched_cache_create(s);

   PAN_EXPECT(mid_schedule(s));
   const uint8_t *in = mid_sched_cache_live(s->sched_cache, false);
   const uint8_t *out = mid_sched_cache_live(s->sched_cache, true);
   PAN_EXPECT(in && out);
   void *mem = ralloc_context(NULL);
   uint8_t *fresh = mid_live_in(s, mem);
   uint8_t *fresh_out = ralloc_array(mem, uint8_t, s->nr_vars);
   unsigned n = s->nr_vars;
   PAN_EXPECT_EQ(in[1 * n + 1], 0xf); /* v1 lives across b1 */
   mid_foreach_block(s, b)
   {
      mid_live_out(s, fresh, b, fresh_out);
      for (unsigned v = 0; v < n && in && out; v++) {
         PAN_EXPECT_EQ(in[b->index * n + v], fresh[b->index * n + v]);
         PAN_EXPECT_EQ(out[b->index * n + v], fresh_out[v]);
      }
   }
   ralloc_free(mem);
   ralloc_free(s);
}

int
main(void)
{
   PAN_RUN_CASE(test_live_kept_by_scheduling);
   PAN_RUN_CASE(test_lane_count);
   PAN_RUN_CASE(test_cross_lane_names);
   PAN_RUN_CASE(test_scalars_share);
   PAN_RUN_CASE(test_vec2_share);
   PAN_RUN_CASE(test_dot_packed);
   PAN_RUN_CASE(test_dot_pieces_packed);
   PAN_RUN_CASE(test_colour_defined);
   PAN_RUN_CASE(test_csel_condition_moves);
   return pan_test_summary("pan_mid_pack");
}
