/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The scheduler's levels (mid_sched.c) on IR built by hand: how far in
 * program order each level looks for work to fill a bundle, and which
 * levels let writes of other lanes of a fixed register share a bundle,
 * where a constant colour is materialised, that the budget counts
 * the colour the writeout reads, and where a schedule that cannot win
 * stops.
 */

#include "util/pan_test_util.h"
#include "util/ralloc.h"

#include "isa/pan_isa_mid.h"
#include "mid_ir.h"
#include "mid_pack.h"
#include "mid_test_ir.h"

static const struct mid_ref u0 = { MID_REF_UNIFORM, 0 };

/* An empty T860 shader of nr_vars variables and one pushed uniform,
 * scheduled at level.
 */
static struct mid_shader *
new_shader(gl_shader_stage stage, unsigned nr_vars, unsigned level)
{
   struct mid_shader *s = mid_test_shader(nr_vars);
   s->stage = stage;
   s->nr_push = 1;
   s->level = level;
   return s;
}

static struct mid_instr *
fadd(struct mid_shader *s, struct mid_block *b, unsigned dst, struct mid_ref a)
{
   struct mid_instr *I = mid_instr_create(s, b, MID_ALU, "fadd");
   I->dst = mid_var(dst);
   I->mask = 1;
   I->nr_srcs = 2;
   I->src[0] = mid_src_ref(a);
   I->src[1] = mid_src_ref(u0);
   return I;
}

/*
 * A chain of 10 dependent adds, then an independent one (position 10):
 *    v0.x = fadd u0, u0;  v(i).x = fadd v(i-1), u0 (i = 1..9)
 *    v10.x = fadd u0, u0
 * A level whose window reaches position 10 puts the independent add
 * into the first bundle beside the chain's head; narrower ones leave it
 * for later.
 */
static bool
independent_in_first_bundle(unsigned level)
{
   struct mid_shader *s = new_shader(MESA_SHADER_VERTEX, 11, level);
   struct mid_block *b = mid_block_create(s);
   fadd(s, b, 0, u0);
   for (unsigned i = 1; i < 10; i++)
      fadd(s, b, i, mid_var(i - 1));
   struct mid_instr *last = fadd(s, b, 10, u0);

   bool found = false;
   if (!mid_schedule(s)) {
      PAN_CHECK(false, "level %u: %s", level, s->err_buf);
   } else {
      struct mid_bundle *first = s->bundles.data;
      for (unsigned u = 0; u < 5; u++)
         found |= first->unit[u] == last;
   }
   ralloc_free(s);
   return found;
}

static void
test_windows(void)
{
   /* Each level reaches the independent add exactly when its window
    * does; the free level does, the last (3) does not, and some level
    * between them that bounds the registers looks past position 10. */
   unsigned wide_bounded = 0;
   for (unsigned l = 0; l < MID_SCHED_LEVELS; l++) {
      unsigned w = mid_sched_window(l);
      PAN_EXPECT_EQ(independent_in_first_bundle(l), w > 10);
      if (l > 5 && w > 10 && w != ~0u)
         wide_bounded++;
   }
   PAN_EXPECT(independent_in_first_bundle(0));
   PAN_EXPECT(!independent_in_first_bundle(MID_SCHED_LEVELS - 1));
   PAN_EXPECT(wide_bounded > 0);
}

/*
 * Store data assembled lane by lane (the position: x, y, z from an add,
 * w copied), both writes reading values of earlier bundles:
 *    v0 = fmul u0, u0;  v1.w = fadd u0, u0
 *    r27.xyz = fadd v0.xyz, u0.xyz;  r27.w = imov v1.w
 *    st_vary 0
 * Writes of other lanes of r27 do not order each other: both share a
 * bundle, except at the levels that keep them in order.
 */
static bool
lanes_share_bundle(unsigned level)
{
   struct mid_shader *s = new_shader(MESA_SHADER_VERTEX, 2, level);
   struct mid_block *b = mid_block_create(s);
   struct mid_instr *mul = fadd(s, b, 0, u0);
   mul->op = "fmul";
   mul->mask = 0xf;
   fadd(s, b, 1, u0)->mask = 0x8;
   struct mid_instr *xyz = fadd(s, b, 0, mid_var(0));
   xyz->dst = mid_hw(27);
   xyz->mask = 0x7;
   struct mid_instr *w = mid_instr_create(s, b, MID_ALU, "imov");
   w->dst = mid_hw(27);
   w->mask = 0x8;
   w->nr_srcs = 2;
   w->src[1] = mid_src_ref(mid_var(1));
   struct mid_instr *st = mid_instr_create(s, b, MID_LDST, "st_vary_32");
   st->store = true;
   st->ls.swz = 0xe4;
   st->ls.areg = 7;
   st->ls.ireg = 7;

   bool same = false;
   if (!mid_schedule(s)) {
      PAN_CHECK(false, "level %u: %s", level, s->err_buf);
   } else {
      util_dynarray_foreach(&s->bundles, struct mid_bundle, bd)
      {
         bool has_xyz = false, has_w = false;
         for (unsigned u = 0; u < 5; u++) {
            has_xyz |= bd->unit[u] == xyz;
            has_w |= bd->unit[u] == w;
         }
         same |= has_xyz && has_w;
      }
   }
   ralloc_free(s);
   return same;
}

static void
test_lane_writes(void)
{
   for (unsigned l = 0; l < MID_SCHED_LEVELS; l++)
      PAN_CHECK(lanes_share_bundle(l) == !mid_sched_ordered(l), "level %u", l);
   PAN_EXPECT(mid_sched_ordered(MID_SCHED_LEVELS - 1));
}

/*
 * Two render targets, the second's colour a constant:
 *    v0 = fadd u0, u0;  v1 = imov #(1, 0, 0.5, 1)
 *    writeout rt0 v0;  writeout rt1 v1
 * The move goes into the second writeout bundle (vmul writing r0)
 * instead of holding v1 across the first writeout, where it could not
 * live in r0-r3: the shader fits r0-r3 (four threads).
 */
static void
test_constant_colour(void)
{
   struct mid_shader *s =
      new_shader(MESA_SHADER_FRAGMENT, 2, MID_SCHED_LEVELS - 1);
   struct mid_block *b = mid_block_create(s);
   fadd(s, b, 0, u0)->mask = 0xf;
   struct mid_instr *M = mid_instr_create(s, b, MID_ALU, "imov");
   M->dst = mid_var(1);
   M->mask = 0xf;
   M->nr_srcs = 2;
   M->src[1] =
      (struct mid_src){ .ref = { MID_REF_CONST, 0 },
                        .swz = { 0, 1, 2, 3 },
                        .imm = { 0x3f800000, 0, 0x3f000000, 0x3f800000 } };
   for (unsigned rt = 0; rt < 2; rt++) {
      struct mid_instr *W = mid_instr_create(s, b, MID_WRITEOUT, "writeout");
      W->rt = rt;
      W->nr_srcs = 1;
      W->src[0] = mid_src_ref(mid_var(rt));
   }
   s->rts_written = 3;

   if (!mid_schedule(s) || !mid_ra(s)) {
      PAN_CHECK(false, "%s", s->err_buf);
   } else {
      unsigned wo = 0;
      bool in_wo1 = false;
      util_dynarray_foreach(&s->bundles, struct mid_bundle, bd)
      {
         if (bd->kind != MID_B_WRITEOUT || bd->writeout_last || bd->wo_return)
            continue;
         if (wo++ == 1)
            in_wo1 = bd->unit[PAN_MID_VMUL] == M;
      }
      PAN_EXPECT_EQ(wo, 2);
      PAN_EXPECT(in_wo1);
      PAN_EXPECT(M->dst.kind == MID_REF_HW && M->dst.index == 0);
      PAN_CHECK(s->work_regs <= 4, "%u work registers", s->work_regs);
   }
   ralloc_free(s);
}

/*
 * The colour's alpha ready at once, its other lanes at the end of four
 * values live together (the colour read only by the writeout):
 *    v0.w = fadd u0, u0;  v1..v4 = fadd u0, u0
 *    v5 = fadd v1, v2;  v6 = fadd v3, v4;  v0.xyz = fadd v5, v6
 *    writeout v0
 * At a four-thread level the budget sees the colour live from the
 * alpha's write (the writeout reads it), so the alpha does not fill the
 * first bundle next to four live values: r0-r3 suffice.
 */
static void
test_colour_counted(void)
{
   struct mid_shader *s = new_shader(MESA_SHADER_FRAGMENT, 7, 5);
   struct mid_block *b = mid_block_create(s);
   fadd(s, b, 0, u0)->mask = 0x8;
   for (unsigned i = 1; i <= 4; i++)
      fadd(s, b, i, u0)->mask = 0xf;
   struct mid_instr *I = fadd(s, b, 5, mid_var(1));
   I->src[1] = mid_src_ref(mid_var(2));
   I->mask = 0xf;
   I = fadd(s, b, 6, mid_var(3));
   I->src[1] = mid_src_ref(mid_var(4));
   I->mask = 0xf;
   I = fadd(s, b, 0, mid_var(5));
   I->src[1] = mid_src_ref(mid_var(6));
   I->mask = 0x7;
   struct mid_instr *W = mid_instr_create(s, b, MID_WRITEOUT, "writeout");
   W->nr_srcs = 1;
   W->src[0] = mid_src_ref(mid_var(0));
   s->rts_written = 1;

   PAN_EXPECT_EQ(mid_sched_strict(s->level), true);
   PAN_EXPECT_EQ(mid_sched_limit(s, s->level), 16);
   if (!mid_schedule(s) || !mid_ra(s))
      PAN_CHECK(false, "%s", s->err_buf);
   else
      PAN_CHECK(s->work_regs <= 4, "%u work registers", s->work_regs);
   ralloc_free(s);
}

/*
 * The chain of test_windows (ten dependent adds, then an independent one)
 * at level 0, or an add and nine copies of its value: v(i) = imov v0.
 * Scheduled with a cutoff (0: none) and whether the caller needs the
 * facts of the whole schedule.
 */
static struct mid_shader *
chain(bool copies, unsigned cutoff, bool notes)
{
   struct mid_shader *s = new_shader(MESA_SHADER_VERTEX, 11, 0);
   s->sched_cutoff = cutoff;
   s->sched_notes = notes;
   struct mid_block *b = mid_block_create(s);
   fadd(s, b, 0, u0);
   for (unsigned i = 1; i < 10; i++) {
      struct mid_instr *I = fadd(s, b, i, mid_var(copies ? 0 : i - 1));
      if (copies) {
         I->op = "imov";
         I->src[1] = I->src[0];
         I->src[0] = (struct mid_src){ 0 };
      }
   }
   if (!copies)
      fadd(s, b, 10, u0);
   mid_schedule(s);
   return s;
}

static unsigned
nr_bundles_of(const struct mid_shader *s)
{
   return util_dynarray_num_elements(&s->bundles, struct mid_bundle);
}

static void
test_cutoff(void)
{
   /* Pairs of the chain share a bundle (the second stage reads the
    * first): at least five bundles. */
   struct mid_shader *free_s = chain(false, 0, true);
   PAN_EXPECT(!free_s->failed && !free_s->sched_cut);
   unsigned n = nr_bundles_of(free_s);
   PAN_CHECK(n >= 5, "%u bundles", n);

   /* One bundle more allowed: the same schedule, not cut. */
   struct mid_shader *s = chain(false, n + 1, false);
   PAN_EXPECT(!s->failed && !s->sched_cut);
   PAN_EXPECT_EQ(nr_bundles_of(s), n);
   ralloc_free(s);

   /* Cut at its own length with the facts needed: scheduled to the end
    * (same facts as without the cutoff), then stopped before packing. */
   s = chain(false, n, true);
   PAN_EXPECT(s->sched_cut && !s->sched_partial && !s->failed);
   PAN_EXPECT_EQ(nr_bundles_of(s), n);
   PAN_EXPECT_EQ(s->sched_peak[0], free_s->sched_peak[0]);
   PAN_EXPECT_EQ(s->sched_peak[1], free_s->sched_peak[1]);
   PAN_EXPECT_EQ(s->sched_reach, free_s->sched_reach);
   PAN_EXPECT_EQ(s->sched_hidden, free_s->sched_hidden);
   ralloc_free(s);

   /* Without them it stops as soon as the bundles reach the cutoff. */
   s = chain(false, 4, false);
   PAN_EXPECT(s->sched_cut && s->sched_partial && !s->failed);
   PAN_CHECK(nr_bundles_of(s) == 4, "%u bundles", nr_bundles_of(s));
   ralloc_free(s);
   ralloc_free(free_s);

   /* Bundles of copies alone may vanish after allocation (copies onto
    * their own register): only the first, with the add, is sure to stay,
    * so a cutoff of 2 stops none of the copies' bundles. */
   s = chain(true, 2, false);
   PAN_EXPECT(!s->failed && !s->sched_cut);
   PAN_CHECK(nr_bundles_of(s) >= 2, "%u bundles", nr_bundles_of(s));
   ralloc_free(s);
   s = chain(true, 1, false);
   PAN_EXPECT(s->sched_cut);
   ralloc_free(s);
}

/*
 *    v0 = fadd u0, u0;  v(i) = fadd v(i-1), u0   (i < k; whole vec4s, or
 *                                                 one lane each)
 *    v(k) = fadd v(k-1), v(k-2);  v(k+i) = fadd v(k+i-1), v(k-2-i)
 *
 * The sum starts from the last value: all k are live once it is written,
 * in any order the scheduler may choose.  The lower bound on
 * registers before packing (mid_reg_bound) counts a whole variable as a
 * register and a lane packing may pack as a quarter of one, never more
 * than allocation then takes; a schedule past sched_cut_regs[0] bundles
 * (where only four registers could win) that provably needs five stops
 * before packing.
 */
static struct mid_shader *
sum_of(unsigned k, unsigned mask)
{
   struct mid_shader *s = new_shader(MESA_SHADER_VERTEX, 2 * k, 0);
   struct mid_block *b = mid_block_create(s);
   for (unsigned i = 0; i < k; i++)
      fadd(s, b, i, i ? mid_var(i - 1) : u0)->mask = mask;
   struct mid_instr *I = fadd(s, b, k, mid_var(k - 1));
   I->src[1] = mid_src_ref(mid_var(k - 2));
   I->mask = mask;
   for (unsigned i = 1; i + 1 < k; i++) {
      I = fadd(s, b, k + i, mid_var(k + i - 1));
      I->src[1] = mid_src_ref(mid_var(k - 2 - i));
      I->mask = mask;
   }
   return s;
}

/* The bound with every variable left whole, or packed (its written
 * lanes: all variables of sum_of write the same). */
static unsigned
bound_of(struct mid_shader *s, bool whole_vars, unsigned mask)
{
   uint8_t size[16];
   uint8_t live_out[16] = { 0 };
   for (unsigned v = 0; v < 16; v++)
      size[v] = whole_vars ? 4 : util_bitcount(mask);
   return mid_reg_bound(s, size, live_out);
}

static void
test_register_cutoff(void)
{
   /* In program order: five vec4s take five registers, eight scalars
    * two once packed (eight if packing left them whole), five vec3s
    * five (no two share a register) and five vec2s three. */
   struct mid_shader *s = sum_of(5, 0xf);
   PAN_EXPECT_EQ(bound_of(s, true, 0xf), 5);
   ralloc_free(s);
   s = sum_of(8, 0x1);
   PAN_EXPECT_EQ(bound_of(s, false, 0x1), 2);
   PAN_EXPECT_EQ(bound_of(s, true, 0x1), 8);
   ralloc_free(s);
   s = sum_of(5, 0x7);
   PAN_EXPECT_EQ(bound_of(s, false, 0x7), 5);
   ralloc_free(s);
   s = sum_of(5, 0x3);
   PAN_EXPECT_EQ(bound_of(s, false, 0x3), 3);
   ralloc_free(s);

   /* A lane read before its block writes it (live in, maybe undefined)
    * counts nothing: v0 no longer written (v9 instead). */
   s = sum_of(5, 0xf);
   struct mid_block *b = list_first_entry(&s->blocks, struct mid_block, link);
   struct mid_instr *first =
      list_first_entry(&b->instrs, struct mid_instr, link);
   first->dst = mid_var(9);
   PAN_EXPECT_EQ(bound_of(s, true, 0xf), 4);
   ralloc_free(s);

   /* Scheduled: the bound never exceeds what allocation takes, and
    * with sched_cut_regs[0] at one bundle the five vec4s stop before
    * packing, four do not. */
   for (unsigned k = 4; k <= 6; k++) {
      s = sum_of(k, 0xf);
      PAN_EXPECT(mid_schedule(s));
      PAN_EXPECT(!s->sched_cut);
      uint8_t live_out[16] = { 0 };
      uint8_t size[16];
      for (unsigned v = 0; v < 16; v++)
         size[v] = 4;
      unsigned bound = mid_reg_bound(s, size, live_out);
      PAN_EXPECT(mid_ra(s));
      PAN_CHECK(bound <= s->work_regs, "bound %u, %u registers", bound,
                s->work_regs);
      ralloc_free(s);

      s = sum_of(k, 0xf);
      s->sched_cut_regs[0] = 1;
      bool ok = mid_schedule(s);
      PAN_CHECK(ok == (bound < 5) && s->sched_cut == (bound >= 5),
                "k %u bound %u ok %d cut %d", k, bound, ok, s->sched_cut);
      PAN_CHECK(k < 5 || s->sched_cut, "%u vec4s live, not cut", k);
      ralloc_free(s);
   }
}

int
main(void)
{
   PAN_RUN_CASE(test_windows);
   PAN_RUN_CASE(test_lane_writes);
   PAN_RUN_CASE(test_constant_colour);
   PAN_RUN_CASE(test_colour_counted);
   PAN_RUN_CASE(test_cutoff);
   PAN_RUN_CASE(test_register_cutoff);
   return pan_test_summary("pan_mid_sched");
}
