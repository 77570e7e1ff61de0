/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Which source lanes an instruction reads (mid_read_positions,
 * mid_src_lanes in mid_ir.c), and the passes that ask it: a dot product
 * whose result is narrowed to one lane still reads the first three or
 * four lanes of its sources, in liveness (allocation, across blocks),
 * copy propagation, constant placement and dead code removal; loads
 * reading their index from one lane of r27 each share a bundle.
 */

#include "util/pan_test_util.h"
#include "util/ralloc.h"

#include "isa/pan_isa_mid.h"
#include "mid_ir.h"
#include "mid_test_ir.h"

static const struct mid_ref u0 = { MID_REF_UNIFORM, 0 };
static const struct mid_ref u1 = { MID_REF_UNIFORM, 1 };

static struct mid_instr *
dot3(struct mid_shader *s, struct mid_block *b, unsigned dst, unsigned src)
{
   struct mid_instr *D =
      mid_test_alu2(s, b, "fdot3", mid_var(dst), mid_var(src), mid_var(src));
   D->mask = 0x1;
   return D;
}

/* r27.x = v; st_vary (the reader that keeps v alive). */
static void
store_x(struct mid_shader *s, struct mid_block *b, unsigned v, unsigned slot)
{
   mid_test_move(s, b, mid_hw(27), mid_var(v))->mask = 0x1;
   mid_test_st_vary(s, b, slot);
}

static void
test_read_lanes(void)
{
   struct mid_shader *s = mid_test_shader(2);
   struct mid_block *b = mid_block_create(s);
   struct mid_instr *D = dot3(s, b, 1, 0);
   PAN_EXPECT_EQ(mid_read_positions(D), 0x7);
   PAN_EXPECT_EQ(mid_src_lanes(D, &D->src[0]), 0x7);
   /* Through the swizzle: .xxy reads x and y, whatever the mask. */
   D->src[1].swz[2] = 1;
   D->src[1].swz[1] = 0;
   PAN_EXPECT_EQ(mid_src_lanes(D, &D->src[1]), 0x3);
   D->op = "fdot4";
   PAN_EXPECT_EQ(mid_read_positions(D), 0xf);
   D->op = "fball_eq";
   PAN_EXPECT(mid_cross_lane(D));
   PAN_EXPECT_EQ(mid_read_positions(D), 0xf);
   D->op = "fmul";
   D->mask = 0x6;
   PAN_EXPECT(!mid_cross_lane(D));
   PAN_EXPECT_EQ(mid_read_positions(D), 0x6);
   PAN_EXPECT_EQ(mid_src_lanes(D, &D->src[1]), 0x3); /* .y -> x, .z -> y */
   /* The answer is remembered per opcode name (mid_cross_lane): a new
    * name is asked again, a copy of the instruction keeps it. */
   D->op = "ibany_neq";
   PAN_EXPECT(mid_cross_lane(D));
   struct mid_instr copy = *D;
   PAN_EXPECT(mid_cross_lane(&copy));
   copy.op = "iadd";
   PAN_EXPECT(!mid_cross_lane(&copy));
   PAN_EXPECT(mid_cross_lane(D));
   D->op = "freduce";
   PAN_EXPECT(mid_cross_lane(D));
   PAN_EXPECT_EQ(mid_read_positions(mid_test_st_vary(s, b, 0)), 0xf);
   ralloc_free(s);
}

/*
 * v0.z = fmov u0;  v1 = fadd u0, u0;  r27 = v1; st;  v0.xy = fmov u1;
 * v2.x = fdot3 v0, v0;  r27.x = v2; st
 * v0's lane z is live from its write to the dot product: v1 may not
 * share its register (taking the dot's mask for its source lanes, v0
 * looked dead between its two writes, and v1 got r0 with it).
 */
static void
test_dot_interferes(void)
{
   struct mid_shader *s = mid_test_shader(3);
   s->nr_push = 2;
   struct mid_block *b = mid_block_create(s);
   mid_test_alu2(s, b, "fmov", mid_var(0), u0, u0)->mask = 0x4;
   mid_test_alu2(s, b, "fadd", mid_var(1), u0, u0);
   mid_test_move(s, b, mid_hw(27), mid_var(1));
   mid_test_st_vary(s, b, 1);
   mid_test_alu2(s, b, "fmov", mid_var(0), u1, u1)->mask = 0x3;
   dot3(s, b, 2, 0);
   store_x(s, b, 2, 0);

   if (!mid_ra(s)) {
      PAN_CHECK(false, "%s", s->err_buf);
   } else {
      PAN_CHECK(s->reg_of[0] != s->reg_of[1], "v0 and v1 both in r%d",
                s->reg_of[0]);
   }
   ralloc_free(s);
}

/* A one-lane dot product in the second block keeps the three lanes it
 * reads of a variable loaded in the first live into its block. */
static void
test_dot_live_in(void)
{
   struct mid_shader *s = mid_test_shader(2);
   struct mid_block *b0 = mid_block_create(s);
   struct mid_instr *L = mid_instr_create(s, b0, MID_LDST, "ld_vary_32");
   L->dst = mid_var(0);
   L->ls.swz = 0xe4;
   struct mid_block *b1 = mid_block_create(s);
   dot3(s, b1, 1, 0);
   store_x(s, b1, 1, 0);

   void *mem = ralloc_context(NULL);
   uint8_t *in = mid_live_in(s, mem);
   PAN_EXPECT_EQ(in[1 * s->nr_vars + 0], 0x7);
   ralloc_free(mem);
   ralloc_free(s);
}

/*
 * v0.yz = fmov u0;  v0.x = imov v3.x;  v1.x = fdot3 v0, v0
 * The move wrote lane x of v0 only: the dot product, which reads x-z,
 * must keep reading v0 (propagating v3 into it would read v3.yz).
 */
static void
test_dot_not_propagated(void)
{
   struct mid_shader *s = mid_test_shader(4);
   s->nr_push = 1;
   s->tex_in = 28;
   s->tex_out = 29;
   struct mid_block *b = mid_block_create(s);
   struct mid_instr *L = mid_instr_create(s, b, MID_LDST, "ld_vary_32");
   L->dst = mid_var(3);
   L->ls.swz = 0xe4;
   mid_test_alu2(s, b, "fmov", mid_var(0), u0, u0)->mask = 0x6;
   mid_test_move(s, b, mid_var(0), mid_var(3))->mask = 0x1;
   struct mid_instr *D = dot3(s, b, 1, 0);
   store_x(s, b, 1, 0);

   mid_opt_moves(s);
   PAN_EXPECT_EQ(D->src[0].ref.kind, MID_REF_VAR);
   PAN_EXPECT_EQ(D->src[0].ref.index, 0);
   PAN_EXPECT_EQ(D->src[1].ref.index, 0);
   ralloc_free(s);
}

/* A one-lane dot product with a constant source reads three constant
 * lanes: all three go into the bundle (not one inline immediate). */
static void
test_dot_constants(void)
{
   struct mid_shader *s = mid_test_shader(2);
   s->level = MID_SCHED_LEVELS - 1;
   struct mid_block *b = mid_block_create(s);
   struct mid_instr *L = mid_instr_create(s, b, MID_LDST, "ld_vary_32");
   L->dst = mid_var(0);
   L->ls.swz = 0xe4;
   struct mid_instr *D = dot3(s, b, 1, 0);
   const uint32_t k[4] = { 0x3f800000, 0x40000000, 0x40400000, 0 };
   D->src[1] =
      (struct mid_src){ .ref = { MID_REF_CONST, 0 }, .swz = { 0, 1, 2, 3 } };
   memcpy(D->src[1].imm, k, sizeof(k));
   store_x(s, b, 1, 0);

   bool found = false;
   if (!mid_schedule(s)) {
      PAN_CHECK(false, "%s", s->err_buf);
   } else {
      util_dynarray_foreach(&s->bundles, struct mid_bundle, bd)
      {
         if (bd->kind != MID_B_ALU || bd->unit[PAN_MID_VMUL] != D)
            continue;
         found = true;
         PAN_EXPECT(!bd->imm[PAN_MID_VMUL]);
         for (unsigned l = 0; l < 3; l++)
            PAN_EXPECT_EQ(bd->consts[bd->cslot[PAN_MID_VMUL][1][l]], k[l]);
      }
   }
   PAN_EXPECT(found);
   ralloc_free(s);
}

/* Dead code removal narrows a dot product to the lane read and keeps
 * the three lanes of its source it reads (the load's w goes). */
static void
test_dce_dot(void)
{
   struct mid_shader *s = mid_test_shader(2);
   struct mid_block *b = mid_block_create(s);
   struct mid_instr *L = mid_instr_create(s, b, MID_LDST, "ld_vary_32");
   L->dst = mid_var(0);
   L->ls.swz = 0xe4;
   struct mid_instr *D = dot3(s, b, 1, 0);
   D->mask = 0x7;
   store_x(s, b, 1, 0);

   mid_dce(s);
   PAN_EXPECT_EQ(D->mask, 0x1);
   PAN_EXPECT_EQ(L->mask, 0x7);
   ralloc_free(s);
}

/* A load of a uniform buffer at an index in r27.<lane>. */
static struct mid_instr *
ubo_load(struct mid_shader *s, struct mid_block *b, unsigned dst, unsigned v,
         unsigned lane)
{
   struct mid_instr *M = mid_test_move(s, b, mid_hw(27), mid_var(v));
   M->mask = 1u << lane;
   M->int_result = true;
   memset(M->src[1].swz, lane, 4);
   struct mid_instr *L = mid_instr_create(s, b, MID_LDST, "ld_ubo_128");
   L->dst = mid_var(dst);
   L->ls.areg = 7;
   L->ls.ireg = 1;
   L->ls.icomp = lane;
   L->ls.ishift = 4;
   L->ls.offset = 1;
   return L;
}

/*
 * r27.x = v0.x; v1 = ld_ubo [r27.x];  r27.y = v0.y; v2 = ld_ubo [r27.y]
 * r27 = fadd v1, v2; st_vary
 * Each load reads its own lane of r27: the second index write does not
 * wait for the first load, and the two loads share a bundle (with r27
 * read as a whole, they could not).
 */
static void
test_ubo_index_lanes(void)
{
   struct mid_shader *s = mid_test_shader(3);
   s->level = MID_SCHED_LEVELS - 1;
   struct mid_block *b = mid_block_create(s);
   struct mid_instr *A = mid_instr_create(s, b, MID_LDST, "ld_attr_32i");
   A->dst = mid_var(0);
   A->mask = 0x3;
   A->ls.swz = 0xe4;
   A->ls.areg = 7;
   A->ls.ireg = 7;
   struct mid_instr *L1 = ubo_load(s, b, 1, 0, 0);
   struct mid_instr *L2 = ubo_load(s, b, 2, 0, 1);
   mid_test_alu2(s, b, "fadd", mid_hw(27), mid_var(1), mid_var(2));
   mid_test_st_vary(s, b, 0);

   bool shared = false;
   if (!mid_schedule(s)) {
      PAN_CHECK(false, "%s", s->err_buf);
   } else {
      util_dynarray_foreach(&s->bundles, struct mid_bundle, bd)
      {
         shared |=
            bd->kind == MID_B_LDST && ((bd->ls[0] == L1 && bd->ls[1] == L2) ||
                                       (bd->ls[0] == L2 && bd->ls[1] == L1));
      }
   }
   PAN_EXPECT(shared);
   ralloc_free(s);
}

int
main(void)
{
   PAN_RUN_CASE(test_read_lanes);
   PAN_RUN_CASE(test_dot_interferes);
   PAN_RUN_CASE(test_dot_live_in);
   PAN_RUN_CASE(test_dot_not_propagated);
   PAN_RUN_CASE(test_dot_constants);
   PAN_RUN_CASE(test_dce_dot);
   PAN_RUN_CASE(test_ubo_index_lanes);
   return pan_test_summary("pan_mid_lanes");
}
