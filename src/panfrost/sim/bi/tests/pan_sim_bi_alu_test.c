/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Bifrost interpreter arithmetic: small assembled programs run on seeded
 * random inputs, each result compared with an independent C computation.
 */

#include <math.h>
#include <stdio.h>

#include "pan_sim_bi_test_run.h"

static uint64_t seed = 0x5eed0b1f0057ull;

/* A random float: mostly moderate values, sometimes specials. */
static uint32_t
rand_f32(void)
{
   uint64_t r = pan_test_rng64(&seed);
   switch (r & 15) {
   case 0:
      return 0x7f800000u | (uint32_t)(r >> 63) << 31; /* inf */
   case 1:
      return (uint32_t)(r >> 63) << 31; /* zero */
   case 2:
      return (uint32_t)(r >> 32) & 0x807fffffu; /* denormal */
   default:
      return pan_test_u32(ldexpf((float)(int32_t)(r >> 32) / 2147483648.0f,
                                 (int)((r >> 8) % 40) - 20));
   }
}

static bool
same_f32(uint32_t a, uint32_t b)
{
   bool na = (a & 0x7fffffff) > 0x7f800000, nb = (b & 0x7fffffff) > 0x7f800000;
   return na || nb ? na && nb : a == b;
}

typedef uint32_t (*ref_fn)(uint32_t a, uint32_t b, uint32_t c);

/* Run prog over 8 lanes x reps with r0..r2 random; compare r4 with ref. */
static void
check_op(const char *what, const char *text, ref_fn ref, bool flt,
         bool int_inputs)
{
   struct bi_test_prog p;
   if (!bi_test_assemble(&p, text))
      return;
   for (unsigned rep = 0; rep < 64; rep++) {
      struct pan_sim_bi_warp w;
      pan_sim_bi_warp_init(&w, 0xff);
      for (unsigned l = 0; l < 8; l++) {
         for (unsigned r = 0; r < 3; r++) {
            w.r[l][r] =
               int_inputs ? (uint32_t)pan_test_rng64(&seed) : rand_f32();
         }
      }
      struct pan_sim_bi_warp in = w;
      if (pan_sim_bi_run(&w, &p.cfg) != PAN_SIM_BI_DONE) {
         pan_test_fail("%s: fault %s", what, w.fault);
         return;
      }
      for (unsigned l = 0; l < 8; l++) {
         uint32_t want = ref(in.r[l][0], in.r[l][1], in.r[l][2]);
         uint32_t got = w.r[l][4];
         PAN_CHECK(flt ? same_f32(got, want) : got == want,
                   "%s(%08x, %08x, %08x) = %08x, want %08x", what, in.r[l][0],
                   in.r[l][1], in.r[l][2], got, want);
      }
   }
}

static uint32_t
ref_fadd(uint32_t a, uint32_t b, uint32_t c)
{
   return pan_test_u32(pan_test_f32(a) + pan_test_f32(b));
}
static uint32_t
ref_fadd_neg(uint32_t a, uint32_t b, uint32_t c)
{
   return pan_test_u32(fabsf(pan_test_f32(a)) - pan_test_f32(b));
}
static uint32_t
ref_fma(uint32_t a, uint32_t b, uint32_t c)
{
   return pan_test_u32(fmaf(pan_test_f32(a), pan_test_f32(b), pan_test_f32(c)));
}
static uint32_t
ref_fmul_add(uint32_t a, uint32_t b, uint32_t c)
{
   return pan_test_u32(fmaf(pan_test_f32(a), pan_test_f32(b), 0.0f) +
                       pan_test_f32(c));
}
static uint32_t
ref_fmax(uint32_t a, uint32_t b, uint32_t c)
{
   float x = pan_test_f32(a), y = pan_test_f32(b);
   if (x == 0 && y == 0)
      return signbit(x) ? b : a;
   return pan_test_u32(fmaxf(x, y));
}
static uint32_t
ref_fcmp(uint32_t a, uint32_t b, uint32_t c)
{
   return pan_test_f32(a) < pan_test_f32(b) ? ~0u : 0;
}
static uint32_t
ref_iadd(uint32_t a, uint32_t b, uint32_t c)
{
   return a + b;
}
static uint32_t
ref_isub_sat(uint32_t a, uint32_t b, uint32_t c)
{
   int64_t x = (int64_t)(int32_t)a - (int32_t)b;
   return (uint32_t)(int32_t)(x > INT32_MAX   ? INT32_MAX
                              : x < INT32_MIN ? INT32_MIN
                                              : x);
}
static uint32_t
ref_imul(uint32_t a, uint32_t b, uint32_t c)
{
   return a * b;
}
static uint32_t
ref_lshift_or(uint32_t a, uint32_t b, uint32_t c)
{
   return (a << (c & 31)) | b;
}
static uint32_t
ref_rshift_and(uint32_t a, uint32_t b, uint32_t c)
{
   return (a >> (c & 31)) & b;
}
static uint32_t
ref_csel(uint32_t a, uint32_t b, uint32_t c)
{
   return (int32_t)a > (int32_t)b ? c : a;
}
/* Per 16-bit half: a > b (v2s16) or a >= b (v2f16, ordered by the sign
 * and magnitude bits; NaN compares false) picks c, else a. */
static int
f16_key(uint16_t h)
{
   return (h & 0x8000) ? -(int)(h & 0x7fff) : (int)(h & 0x7fff);
}
static uint32_t
ref_csel_v2(uint32_t a, uint32_t b, uint32_t c, bool f16)
{
   uint32_t r = 0;
   for (unsigned k = 0; k < 32; k += 16) {
      uint16_t x = (uint16_t)(a >> k), y = (uint16_t)(b >> k);
      bool v = f16 ? (x & 0x7fff) <= 0x7c00 && (y & 0x7fff) <= 0x7c00 &&
                        f16_key(x) >= f16_key(y)
                   : (int16_t)x > (int16_t)y;
      r |= ((v ? c : a) >> k & 0xffff) << k;
   }
   return r;
}
static uint32_t
ref_csel_v2s16(uint32_t a, uint32_t b, uint32_t c)
{
   return ref_csel_v2(a, b, c, false);
}
static uint32_t
ref_csel_v2f16(uint32_t a, uint32_t b, uint32_t c)
{
   return ref_csel_v2(a, b, c, true);
}
/* mux.v2i16.neg with source 0 swapped: per half, c's half negative picks
 * a's other half, else b's half.  Inputs are random, so the halves of c
 * are made zero or not by the low bits of b. */
static uint32_t
ref_mux_v2_neg_swap0(uint32_t a, uint32_t b, uint32_t c)
{
   uint32_t as = a << 16 | a >> 16, r = 0;
   for (unsigned k = 0; k < 32; k += 16)
      r |= ((int16_t)(c >> k) < 0 ? as : b) & (0xffffu << k);
   return r;
}
/* mux.v2i16 int_zero and fp_zero on conditions with zero halves. */
static void
mux_v2_known_answers(void)
{
   static const uint32_t cond[4] = { 0x00000000, 0x00010000, 0x80000001,
                                     0x80008000 };
   /* Lanes taking a (0x1111....) where the half is zero (int) or +-0
    * (fp). */
   static const uint32_t want_int[4] = { 0x11112222, 0x33332222, 0x33334444,
                                         0x33334444 };
   static const uint32_t want_fp[4] = { 0x11112222, 0x33332222, 0x11114444,
                                        0x11112222 };
   for (unsigned fp = 0; fp < 2; fp++) {
      struct bi_test_prog p;
      struct pan_sim_bi_warp w;
      if (!bi_test_assemble(&p, fp ? "clause\n    nop t0 | "
                                     "mux.v2i16.mux=fp_zero r4, r0, r1, r2 | "
                                     "p0=r0 p1=r1 p2=r2\n"
                                   : "clause\n    nop t0 | "
                                     "mux.v2i16 r4, r0, r1, r2 | "
                                     "p0=r0 p1=r1 p2=r2\n"))
         return;
      pan_sim_bi_warp_init(&w, 0xff);
      for (unsigned l = 0; l < 8; l++) {
         w.r[l][0] = 0x11112222;
         w.r[l][1] = 0x33334444;
         w.r[l][2] = cond[l % 4];
      }
      PAN_EXPECT_EQ(pan_sim_bi_run(&w, &p.cfg), PAN_SIM_BI_DONE);
      for (unsigned l = 0; l < 8; l++)
         PAN_EXPECT_EQ(w.r[l][4], fp ? want_fp[l % 4] : want_int[l % 4]);
   }
}
static uint32_t
ref_swz_h10(uint32_t a, uint32_t b, uint32_t c)
{
   return a >> 16 | a << 16;
}
static uint32_t
ref_swz_h11(uint32_t a, uint32_t b, uint32_t c)
{
   return (a & 0xffff0000u) | a >> 16;
}
static uint32_t
ref_f2i(uint32_t a, uint32_t b, uint32_t c)
{
   float x = pan_test_f32(a);
   if (isnan(x))
      return 0;
   double t = trunc(x);
   return (uint32_t)(int32_t)(t > INT32_MAX   ? INT32_MAX
                              : t < INT32_MIN ? INT32_MIN
                                              : t);
}
static uint32_t
ref_i2f(uint32_t a, uint32_t b, uint32_t c)
{
   return pan_test_u32((float)(int32_t)a);
}
static uint32_t
ref_popc(uint32_t a, uint32_t b, uint32_t c)
{
   return (uint32_t)__builtin_popcount(a);
}

static uint32_t
ref_iaddc(uint32_t a, uint32_t b, uint32_t c)
{
   return (uint32_t)(((uint64_t)a + b + (c % 2)) & 0xffffffffu);
}

/* binary16 to float, by its fields. */
static float
half(uint32_t h)
{
   unsigned e = (h >> 10) & 31, m = h & 1023;
   float v = e == 31 ? (m ? NAN : INFINITY)
             : e     ? ldexpf((float)(m | 1024), (int)e - 25)
                     : ldexpf((float)m, -24);
   return (h & 0x8000) ? -v : v;
}

/* ADD-unit fcmp.f32.lt.m1 under its derived d9 (widen pair) and d13
 * (negated first source); 0 none, 1 low half, 2 high half. */
static const unsigned add_fcmp_w[4][2] = {
   { 0, 0 }, { 0, 1 }, { 0, 2 }, { 1, 1 }
};
static unsigned add_fcmp_d9, add_fcmp_d13;

static float
widened(uint32_t v, unsigned w)
{
   return w == 0 ? pan_test_f32(v) : half(w == 1 ? v & 0xffff : v >> 16);
}

static uint32_t
ref_add_fcmp(uint32_t a, uint32_t b, uint32_t c)
{
   float x = widened(a, add_fcmp_w[add_fcmp_d9][0]);
   float y = widened(b, add_fcmp_w[add_fcmp_d9][1]);
   if (add_fcmp_d13)
      x = -x;
   return x < y ? ~0u : 0;
}

static void
float_ops(void)
{
   check_op("fadd.f32 fma",
            "clause\n    fadd.f32 r4, r0, r1 | nop t1 | p0=r0 p1=r1\n",
            ref_fadd, true, false);
   check_op("fadd.f32 add abs neg",
            "clause\n    nop t0 | fadd.f32.abs0=abs.neg1=neg.round=none r4, "
            "r0, r1 | p0=r0 p1=r1\n",
            ref_fadd_neg, true, false);
   check_op("fma.f32",
            "clause\n    fma.f32 r4, r0, r1, r2 | nop t1 | p0=r0 p1=r1 p2=r2\n",
            ref_fma, true, false);
   /* The ADD reads the FMA result of its own tuple through t. */
   check_op("fma then fadd t",
            "clause\n    fma.f32 t0, r0, r1, #0 | fadd.f32.round=none r4, t, "
            "r2 | p0=r0 p1=r1 p2=r2\n",
            ref_fmul_add, true, false);
   check_op("fmax.f32",
            "clause\n    nop t0 | fmax.f32 r4, r0, r1 | p0=r0 p1=r1\n",
            ref_fmax, true, false);
   check_op("fcmp.f32 lt m1",
            "clause\n    fcmp.f32.cmpf=lt.result_type=m1 r4, r0, r1 | nop t1 | "
            "p0=r0 p1=r1\n",
            ref_fcmp, false, false);
   for (add_fcmp_d9 = 0; add_fcmp_d9 < 4; add_fcmp_d9++) {
      for (add_fcmp_d13 = 0; add_fcmp_d13 < 2; add_fcmp_d13++) {
         char text[160], what[48];
         snprintf(text, sizeof(text),
                  "clause\n    nop t0 | fcmp.f32.cmpf=lt.result_type=m1."
                  "d9=%u.d13=%u r4, r0, r1 | p0=r0 p1=r1\n",
                  add_fcmp_d9, add_fcmp_d13);
         snprintf(what, sizeof(what), "add fcmp.f32 d9=%u d13=%u", add_fcmp_d9,
                  add_fcmp_d13);
         /* Random words: halves and floats of every class. */
         check_op(what, text, ref_add_fcmp, false, true);
      }
   }
   check_op("f32_to_s32 rtz",
            "clause\n    nop t0 | f32_to_s32.round=rtz r4, r0 | p0=r0\n",
            ref_f2i, false, false);
}

/* One lane of fixed inputs against a hand-worked answer: random inputs
 * cannot tell a swapped operand from a reference that swaps it too. */
static void
check_fixed(const char *what, const char *text, uint32_t a, uint32_t b,
            uint32_t c, uint32_t want)
{
   struct bi_test_prog p;
   if (!bi_test_assemble(&p, text))
      return;
   struct pan_sim_bi_warp w;
   pan_sim_bi_warp_init(&w, 0x1);
   w.r[0][0] = a;
   w.r[0][1] = b;
   w.r[0][2] = c;
   if (pan_sim_bi_run(&w, &p.cfg) != PAN_SIM_BI_DONE) {
      pan_test_fail("%s: fault %s", what, w.fault);
      return;
   }
   PAN_CHECK(w.r[0][4] == want, "%s = %08x, want %08x", what, w.r[0][4], want);
}

/* Shift operands, hand-worked: r0 is shifted, r1 combined, r2 the amount. */
static void
shift_known_answers(void)
{
   static const struct {
      const char *what, *op; /* op: the FMA instruction with modifiers */
      uint32_t a, b, c, want;
   } cases[] = {
      /* x << 4 | 0x00f00000: the amount is byte 0 of source 2 */
      { "lshift_or b0", "lshift_or.i32.not1=none", 0x3, 0x00f00000, 0x0804,
        0x00f00030 },
      /* lane2=b1 takes the amount from byte 1 (8) */
      { "lshift_or b1", "lshift_or.i32.lane2=b1.not1=none", 0x3, 0x00f00000,
        0x0804, 0x00f00300 },
      /* not1=not inverts the combined source, not the amount */
      { "lshift_or not1", "lshift_or.i32.not1=not", 0x0, 0xffffff00, 0x2,
        0x000000ff },
      /* (x >> 8) & 0xff00: the mask is source 1 */
      { "rshift_and", "rshift_and.i32", 0xabcd0000, 0x0000ff00, 0x8,
        0x0000cd00 },
   };
   for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      char text[160];
      snprintf(text, sizeof(text),
               "clause\n    %s r4, r0, r1, r2 | nop t1 | p0=r0 p1=r1 "
               "p2=r2\n",
               cases[i].op);
      check_fixed(cases[i].what, text, cases[i].a, cases[i].b, cases[i].c,
                  cases[i].want);
   }
}

static void
int_ops(void)
{
   shift_known_answers();
   check_op("iadd.s32",
            "clause\n    nop t0 | iadd.s32 r4, r0, r1 | p0=r0 p1=r1\n",
            ref_iadd, false, true);
   check_op(
      "isub.s32 sat",
      "clause\n    nop t0 | isub.s32.saturate=sat r4, r0, r1 | p0=r0 p1=r1\n",
      ref_isub_sat, false, true);
   check_op("imul.i32",
            "clause\n    imul.i32 r4, r0, r1 | nop t1 | p0=r0 p1=r1\n",
            ref_imul, false, true);
   check_op("lshift_or.i32",
            "clause\n    lshift_or.i32.not1=none r4, r0, r1, r2 | nop t1 | "
            "p0=r0 p1=r1 p2=r2\n",
            ref_lshift_or, false, true);
   check_op("rshift_and.i32",
            "clause\n    rshift_and.i32 r4, r0, r1, r2 | nop t1 | p0=r0 p1=r1 "
            "p2=r2\n",
            ref_rshift_and, false, true);
   check_op("csel.s32",
            "clause\n    csel.s32.cmpf=gt r4, r0, r1, r2, r0 | nop t1 | p0=r0 "
            "p1=r1 p2=r2\n",
            ref_csel, false, true);
   check_op("csel.v2s16",
            "clause\n    csel.v2s16.cmpf=gt r4, r0, r1, r2, r0 | nop t1 | "
            "p0=r0 p1=r1 p2=r2\n",
            ref_csel_v2s16, false, true);
   check_op("csel.v2f16",
            "clause\n    csel.v2f16.cmpf=ge r4, r0, r1, r2, r0 | nop t1 | "
            "p0=r0 p1=r1 p2=r2\n",
            ref_csel_v2f16, false, true);
   check_op("mux.v2i16 neg swap0",
            "clause\n    nop t0 | mux.v2i16.mux=neg.swap0=h10 r4, r0, r1, r2 | "
            "p0=r0 p1=r1 p2=r2\n",
            ref_mux_v2_neg_swap0, false, true);
   mux_v2_known_answers();
   check_op("swz.v2i16 h10",
            "clause\n    nop t0 | swz.v2i16.swz0=h10 r4, r0 | p0=r0\n",
            ref_swz_h10, false, true);
   check_op("swz.v2i16 h11",
            "clause\n    nop t0 | swz.v2i16.swz0=h11 r4, r0 | p0=r0\n",
            ref_swz_h11, false, true);
   check_op("s32_to_f32",
            "clause\n    nop t0 | s32_to_f32.round=none r4, r0 | p0=r0\n",
            ref_i2f, true, true);
   check_op("iaddc.i32",
            "clause\n    iaddc.i32 r4, r0, r1, r2 | nop t1 | p0=r0 p1=r1 "
            "p2=r2\n",
            ref_iaddc, false, true);
   check_op("popcount.i32",
            "clause\n    popcount.i32 r4, r0 | nop t1 | p0=r0\n", ref_popc,
            false, true);
}

/* clper.i32 on a warp with stopped lanes: each lane reads r0 of the lane
 * of its subgroup named by r1 (none) or by its position xor r1 (xor);
 * a stopped source lane gives the inactive_result constant. */
static void
cross_lane(void)
{
   static const struct {
      const char *mods;
      unsigned n;
      bool xor ;
      uint32_t fill;
   } cases[] = {
      { "subgroup=subgroup4.inactive_result=umax", 4, false, 0xffffffff },
      { "lane_op=xor.subgroup=subgroup2.inactive_result=zero", 2, true, 0 },
      { "subgroup=subgroup8.inactive_result=f1", 8, false, 0x3f800000 },
      { "lane_op=xor.subgroup=subgroup8.inactive_result=v2smax", 8, true,
        0x7fff7fff },
   };
   for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      char text[200];
      struct bi_test_prog p;
      snprintf(text, sizeof(text),
               "clause\n    nop t0 | clper.i32.%s r4, r0, r1 | p0=r0 "
               "p1=r1\n",
               cases[i].mods);
      if (!bi_test_assemble(&p, text))
         continue;
      for (unsigned rep = 0; rep < 32; rep++) {
         struct pan_sim_bi_warp w;
         uint16_t live = (uint16_t)(pan_test_rng64(&seed) | 1) & 0xff;
         pan_sim_bi_warp_init(&w, live);
         for (unsigned l = 0; l < 8; l++) {
            w.r[l][0] = (uint32_t)pan_test_rng64(&seed);
            w.r[l][1] = (uint32_t)pan_test_rng64(&seed);
            w.r[l][4] = 0xdead0000 | l;
         }
         struct pan_sim_bi_warp in = w;
         if (pan_sim_bi_run(&w, &p.cfg) != PAN_SIM_BI_DONE) {
            pan_test_fail("clper %s: fault %s", cases[i].mods, w.fault);
            break;
         }
         for (unsigned l = 0; l < 8; l++) {
            unsigned n = cases[i].n, base = l - l % n;
            unsigned sel = in.r[l][1] % n;
            unsigned from = base + (cases[i].xor ? (l % n) ^ sel : sel);
            uint32_t want = !(live & (1u << l))     ? in.r[l][4]
                            : (live & (1u << from)) ? in.r[from][0]
                                                    : cases[i].fill;
            PAN_CHECK(w.r[l][4] == want,
                      "clper %s live %02x lane %u idx %08x: %08x, want %08x",
                      cases[i].mods, live, l, in.r[l][1], w.r[l][4], want);
         }
      }
   }
}

/* clper_old.i32 (G72): the lane of the quad named by r1's low two bits,
 * zero from a stopped lane. */
static void
cross_lane_old(void)
{
   struct bi_test_prog p;
   if (!bi_test_assemble(&p, "clause\n    nop t0 | clper_old.i32 r4, r0, r1 | "
                             "p0=r0 p1=r1\n"))
      return;
   for (unsigned rep = 0; rep < 32; rep++) {
      struct pan_sim_bi_warp w;
      uint16_t live = (uint16_t)(pan_test_rng64(&seed) | 1) & 0xff;
      pan_sim_bi_warp_init(&w, live);
      for (unsigned l = 0; l < 8; l++) {
         w.r[l][0] = (uint32_t)pan_test_rng64(&seed);
         w.r[l][1] = (uint32_t)pan_test_rng64(&seed);
         w.r[l][4] = 0xdead0000 | l;
      }
      struct pan_sim_bi_warp in = w;
      if (pan_sim_bi_run(&w, &p.cfg) != PAN_SIM_BI_DONE) {
         pan_test_fail("clper_old: fault %s", w.fault);
         return;
      }
      for (unsigned l = 0; l < 8; l++) {
         unsigned from = (l & ~3u) | (in.r[l][1] & 3);
         uint32_t want = !(live & (1u << l))     ? in.r[l][4]
                         : (live & (1u << from)) ? in.r[from][0]
                                                 : 0;
         PAN_CHECK(w.r[l][4] == want,
                   "clper_old live %02x lane %u idx %08x: %08x, want %08x",
                   live, l, in.r[l][1], w.r[l][4], want);
      }
   }
}

int
main(void)
{
   PAN_RUN_CASE(float_ops);
   PAN_RUN_CASE(int_ops);
   PAN_RUN_CASE(cross_lane);
   PAN_RUN_CASE(cross_lane_old);
   return pan_test_summary("pan_sim_bi_alu");
}
