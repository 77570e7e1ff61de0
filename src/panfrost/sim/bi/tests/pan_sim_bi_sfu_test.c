/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Special-function and cube-map steps of the Bifrost interpreter against
 * references computed by the host in long double (or exactly): frcp, frsq,
 * both frexpe encodings, fma_rscale, fexp, fadd_lscale, flogd, the
 * sine/cosine tables and the cube-map helpers, special values included.
 */

#include <math.h>

#include "pan_sim_bi_test_run.h"
#include "sim/tests/pan_sim_sfu_ref.h"

static uint64_t seed = 0xb1f5f0c0ffeeull;

static bool
same(uint32_t got, uint32_t want)
{
   bool ng = (got & 0x7fffffff) > 0x7f800000;
   bool nw = (want & 0x7fffffff) > 0x7f800000;
   return ng || nw ? ng && nw : got == want;
}

/* Runs text once on 8 lanes with in[l] in r0..r3 and u0 = uni; r4 and r5
 * of each lane in out.  False (with a failure) when it faults. */
static bool
run8(const char *what, const char *text, const uint32_t in[8][4],
     const uint32_t uni[2], uint32_t out[8][2])
{
   struct bi_test_prog p;
   struct pan_sim_bi_warp w;
   if (!bi_test_assemble(&p, text))
      return false;
   p.uniforms[0] = uni ? uni[0] : 0;
   p.uniforms[1] = uni ? uni[1] : 0;
   pan_sim_bi_warp_init(&w, 0xff);
   for (unsigned l = 0; l < 8; l++)
      memcpy(w.r[l], in[l], 4 * sizeof(uint32_t));
   if (pan_sim_bi_run(&w, &p.cfg) != PAN_SIM_BI_DONE) {
      pan_test_fail("%s: fault %s", what, w.fault);
      return false;
   }
   for (unsigned l = 0; l < 8; l++) {
      out[l][0] = w.r[l][4];
      out[l][1] = w.r[l][5];
   }
   return true;
}

/* Mostly moderate floats of both signs, sometimes specials. */
static uint32_t
rand_f32(void)
{
   static const uint32_t special[] = { 0,          0x80000000, 0x7f800000,
                                       0xff800000, 0x7fc00000, 0x00000001,
                                       0x807fffff, 0x7f7fffff };
   uint64_t r = pan_test_rng64(&seed);
   if ((r & 7) == 0)
      return special[(r >> 3) & 7];
   return (uint32_t)(r >> 32) & 0xbfffffffu; /* |x| < 2 or > 2^-126 */
}

static void
test_frcp_frsq(void)
{
   const char *text = "clause flow=nbtb\n"
                      "    nop t0 | frcp.f32.widen0=none r4, r0 | p0=r0\n"
                      "clause\n"
                      "    nop t0 | frsq.f32.widen0=none r5, r0 | p0=r0\n";
   uint32_t in[8][4] = { { 0 } }, out[8][2];
   for (unsigned it = 0; it < 200; it++) {
      for (unsigned l = 0; l < 8; l++)
         in[l][0] = rand_f32();
      if (!run8("frcp/frsq", text, in, NULL, out))
         return;
      for (unsigned l = 0; l < 8; l++) {
         long double x = pan_test_f32(in[l][0]);
         uint32_t rcp = canon((float)(1.0L / x));
         uint32_t rsq = canon((float)(1.0L / sqrtl(x)));
         PAN_CHECK(same(out[l][0], rcp), "frcp %08x: %08x, want %08x", in[l][0],
                   out[l][0], rcp);
         PAN_CHECK(same(out[l][1], rsq), "frsq %08x: %08x, want %08x", in[l][0],
                   out[l][1], rsq);
      }
   }
   /* Exact cases: 1/-0 = -inf, 1/sqrt(+inf) = +0, sqrt of negatives. */
   static const uint32_t x[8] = { 0x80000000, 0x7f800000, 0x40800000,
                                  0xbf800000, 0x00000000, 0xff800000,
                                  0x3e800000, 0x7fc00000 };
   static const uint32_t want[8][2] = {
      { 0xff800000, 0xff800000 }, { 0, 0 },
      { 0x3e800000, 0x3f000000 }, { 0xbf800000, 0x7fc00000 },
      { 0x7f800000, 0x7f800000 }, { 0x80000000, 0x7fc00000 },
      { 0x40800000, 0x40000000 }, { 0x7fc00000, 0x7fc00000 },
   };
   for (unsigned l = 0; l < 8; l++)
      in[l][0] = x[l];
   if (!run8("frcp/frsq specials", text, in, NULL, out))
      return;
   for (unsigned l = 0; l < 8; l++) {
      PAN_CHECK(same(out[l][0], want[l][0]) && same(out[l][1], want[l][1]),
                "frcp/frsq %08x: %08x %08x", x[l], out[l][0], out[l][1]);
   }
}

/* frcp.f16 / frsq.f16 over every binary16 code, read from the half lane0
 * names: one correctly rounded result in the low half, zero above. */
static void
test_frcp_frsq_f16(void)
{
   const char *text = "clause flow=nbtb\n"
                      "    nop t0 | frcp.f16.lane0=h1 r4, r0 | p0=r0\n"
                      "clause\n"
                      "    nop t0 | frsq.f16 r5, r1 | p0=r1\n";
   uint32_t in[8][4] = { { 0 } }, out[8][2];
   for (unsigned base = 0; base < 0x10000; base += 8) {
      for (unsigned l = 0; l < 8; l++) {
         in[l][0] = (base + l) << 16 | 0x1234; /* low half ignored */
         in[l][1] = 0xabcd0000u | (base + l);  /* high half ignored */
      }
      if (!run8("frcp/frsq f16", text, in, NULL, out))
         return;
      for (unsigned l = 0; l < 8; l++) {
         check_rcp_rsq_f16((uint16_t)(base + l), out[l]);
      }
   }
}

/* Plain frexpe: x = f 2^e, f in [0.5, 1); .log: |x| = m 2^e, m in [0.75,
 * 1.5).  Zero, infinities and NaN give 0. */
static void
test_frexpe(void)
{
   const char *text = "clause flow=nbtb\n"
                      "    nop t0 | frexpe.f32 r4, r0 | p0=r0\n"
                      "clause\n"
                      "    nop t0 | frexpe.f32.enc=1 r5, r0 | p0=r0\n";
   uint32_t in[8][4] = { { 0 } }, out[8][2];
   for (unsigned it = 0; it < 200; it++) {
      for (unsigned l = 0; l < 8; l++)
         in[l][0] = rand_f32();
      if (it == 0) {
         in[0][0] = 0x3f400000; /* 0.75: e = 0 */
         in[1][0] = 0x3fc00000; /* 1.5: e = 1 */
         in[2][0] = 0xbf3fffff; /* just below -0.75: e = -1 */
      }
      if (!run8("frexpe", text, in, NULL, out))
         return;
      for (unsigned l = 0; l < 8; l++) {
         long double x = pan_test_f32(in[l][0]);
         int e = 0, elog = 0;
         if (isfinite(x) && x != 0) {
            frexpl(x, &e);
            elog = (int)floorl(log2l(fabsl(x) / 0.75L));
         }
         PAN_CHECK(out[l][0] == (uint32_t)e, "frexpe %08x: %d, want %d",
                   in[l][0], (int)out[l][0], e);
         PAN_CHECK(out[l][1] == (uint32_t)elog, "frexpe.log %08x: %d, want %d",
                   in[l][0], (int)out[l][1], elog);
      }
   }
}

/* (a * b + c) 2^s rounded once, with d16 negating the product and d12
 * clamping (3: to [0, 1]). */
static void
test_fma_rscale(void)
{
   const char *text = "clause flow=nbtb\n"
                      "    fma_rscale.f32 r4, r0, r1, r2, u0.w0 | nop t1 | "
                      "p0=r0 p1=r1 p2=r2 fau=u0\n"
                      "clause\n"
                      "    fma_rscale.f32.d16=1.d12=3 r5, r0, r1, r2, u0.w1 | "
                      "nop t1 | p0=r0 p1=r1 p2=r2 fau=u0\n";
   uint32_t in[8][4] = { { 0 } }, out[8][2];
   unsigned compared = 0;
   for (unsigned it = 0; it < 300; it++) {
      int s0 = (int)(pan_test_rng64(&seed) % 61) - 30;
      int s1 = (int)(pan_test_rng64(&seed) % 9) - 4;
      uint32_t uni[2] = { (uint32_t)s0, (uint32_t)s1 };
      for (unsigned l = 0; l < 8; l++) {
         uint64_t r = pan_test_rng64(&seed);
         in[l][0] = pan_test_u32(ldexpf((float)(r & 0xffffff), -12) - 2048);
         in[l][1] = pan_test_u32(ldexpf((float)((r >> 24) & 0xffffff), -20));
         in[l][2] = pan_test_u32(ldexpf((float)((r >> 48) & 0xffff), -8) - 128);
      }
      if (!run8("fma_rscale", text, in, uni, out))
         return;
      for (unsigned l = 0; l < 8; l++) {
         float a = pan_test_f32(in[l][0]), b = pan_test_f32(in[l][1]);
         float c = pan_test_f32(in[l][2]);
         float r0 = fmaf(a, b, c), r1 = fmaf(-a, b, c);
         if (fabsf(r0) < 0x1p-90f || fabsf(r1) < 0x1p-90f)
            continue; /* 2^s scaling is exact for normal results only */
         float w1 = ldexpf(r1, s1);
         w1 = w1 < 0 ? 0 : w1 > 1 ? 1 : w1;
         PAN_CHECK(out[l][0] == pan_test_u32(ldexpf(r0, s0)),
                   "fma_rscale %08x %08x %08x %d: %08x", in[l][0], in[l][1],
                   in[l][2], s0, out[l][0]);
         PAN_CHECK(out[l][1] == pan_test_u32(w1), "fma_rscale clamp: %08x",
                   out[l][1]);
         compared++;
      }
   }
   PAN_CHECK(compared > 1500, "only %u results compared", compared);
}

/* fexp: 2^(i / 2^24); the float operand decides NaN and infinities. */
static void
test_fexp(void)
{
   const char *text = "clause\n"
                      "    nop t0 | fexp.f32 r4, r0, r1 | p0=r0 p1=r1\n";
   uint32_t in[8][4] = { { 0 } }, out[8][2];
   for (unsigned it = 0; it < 300; it++) {
      for (unsigned l = 0; l < 8; l++) {
         int32_t i = (int32_t)pan_test_rng64(&seed);
         in[l][0] = (uint32_t)i;
         in[l][1] = pan_test_u32(ldexpf((float)i, -24));
      }
      if (!run8("fexp", text, in, NULL, out))
         return;
      for (unsigned l = 0; l < 8; l++) {
         uint32_t want = canon((float)exp2l(ldexpl((int32_t)in[l][0], -24)));
         PAN_CHECK(out[l][0] == want, "fexp %08x: %08x, want %08x", in[l][0],
                   out[l][0], want);
      }
   }
   static const uint32_t f[4] = { 0x7fc00000, 0x7f800000, 0xff800000,
                                  0x3f800000 };
   static const uint32_t want[4] = { 0x7fc00000, 0x7f800000, 0, 0x40000000 };
   for (unsigned l = 0; l < 8; l++) {
      in[l][0] = 1 << 24;
      in[l][1] = f[l % 4];
   }
   if (run8("fexp specials", text, in, NULL, out)) {
      for (unsigned l = 0; l < 8; l++)
         PAN_CHECK(same(out[l][0], want[l % 4]), "fexp special %u: %08x", l,
                   out[l][0]);
   }
   /* exp2 of +-1442.7 (exp(+-1000)): the scaled float is beyond int32, the
    * fixed-point source saturated; the result is 2^(f / 2^24). */
   static const float big[4] = { 1442.7f, -1442.7f, 128.0f, -150.0f };
   for (unsigned l = 0; l < 8; l++) {
      float f = ldexpf(big[l % 4], 24);
      in[l][0] = f >= 0 ? 0x7fffffffu : 0x80000000u;
      in[l][1] = pan_test_u32(f);
   }
   if (run8("fexp saturated", text, in, NULL, out)) {
      for (unsigned l = 0; l < 8; l++) {
         uint32_t want_l = canon((float)exp2l((long double)big[l % 4]));
         PAN_CHECK(same(out[l][0], want_l), "fexp saturated %u: %08x, want %08x",
                   l, out[l][0], want_l);
      }
   }
}

/* fadd_lscale(a, b) = a + sign(b) m(b) and flogd(x) = log2(m) / (m - 1),
 * m the .log mantissa of b or x. */
static void
test_log_steps(void)
{
   const char *text = "clause flow=nbtb\n"
                      "    fadd_lscale.f32 r4, r0, r1 | nop t1 | p0=r0 p1=r1\n"
                      "clause\n"
                      "    nop t0 | flogd.f32 r5, r1 | p0=r1\n";
   uint32_t in[8][4] = { { 0 } }, out[8][2];
   unsigned exact = 0, total = 0;
   for (unsigned it = 0; it < 300; it++) {
      for (unsigned l = 0; l < 8; l++) {
         uint64_t r = pan_test_rng64(&seed);
         in[l][0] = pan_test_u32(ldexpf((float)(int32_t)r, -24));
         in[l][1] = (uint32_t)(r >> 32) & 0x7fffffff;
         if (in[l][1] >= 0x7f800000)
            in[l][1] = 0x3f800000;
      }
      if (!run8("lscale/flogd", text, in, NULL, out))
         return;
      for (unsigned l = 0; l < 8; l++) {
         long double a = pan_test_f32(in[l][0]), b = pan_test_f32(in[l][1]);
         if (b == 0)
            continue;
         int e = (int)floorl(log2l(b / 0.75L));
         long double m = ldexpl(b, -e);
         /* Exact in long double: a has 24 bits within 2^-24..2^7. */
         uint32_t lscale = canon((float)(a + m));
         PAN_CHECK(out[l][0] == lscale,
                   "fadd_lscale %08x %08x: %08x, want "
                   "%08x",
                   in[l][0], in[l][1], out[l][0], lscale);
         long double d = m == 1 ? 1 / logl(2.0L) : log2l(m) / (m - 1);
         uint32_t want = canon((float)d);
         unsigned diff = out[l][1] > want ? out[l][1] - want : want - out[l][1];
         PAN_CHECK(diff <= 1, "flogd %08x: %08x, want %08x", in[l][1],
                   out[l][1], want);
         exact += diff == 0;
         total++;
      }
   }
   /* The double evaluation may misround only the rarest ties. */
   PAN_CHECK(exact * 1000 >= total * 999, "flogd exact %u of %u", exact, total);
   /* Specials: flogd(0) = flogd(+inf) = +inf, flogd(-1) and NaN = NaN. */
   static const uint32_t x[4] = { 0, 0x7f800000, 0xbf800000, 0x7fc00000 };
   static const uint32_t want[4] = { 0x7f800000, 0x7f800000, 0x7fc00000,
                                     0x7fc00000 };
   for (unsigned l = 0; l < 8; l++)
      in[l][1] = x[l % 4];
   if (run8("flogd specials", text, in, NULL, out)) {
      for (unsigned l = 0; l < 8; l++)
         PAN_CHECK(same(out[l][1], want[l % 4]), "flogd %08x: %08x", x[l % 4],
                   out[l][1]);
   }
}

static void
test_sincos_tables(void)
{
   const char *text = "clause flow=nbtb\n"
                      "    nop t0 | fsin_table.u6 r4, r0 | p0=r0\n"
                      "clause\n"
                      "    nop t0 | fcos_table.u6 r5, r0 | p0=r0\n";
   uint32_t in[8][4] = { { 0 } }, out[8][2];
   for (unsigned base = 0; base < 128; base += 8) {
      for (unsigned l = 0; l < 8; l++)
         in[l][0] = 0x49400000u | (base + l); /* high bits are ignored */
      if (!run8("sincos tables", text, in, NULL, out))
         return;
      for (unsigned l = 0; l < 8; l++) {
         unsigned n = (base + l) & 63;
         PAN_CHECK(out[l][0] == canon(ref_sin(n)), "fsin_table %u: %08x", n,
                   out[l][0]);
         PAN_CHECK(out[l][1] == canon(ref_sin(n + 16)), "fcos_table %u: %08x",
                   n, out[l][1]);
      }
   }
}

static void
test_cube(void)
{
   /* cubeface1 gives the major axis magnitude (moved to r4 next tuple),
    * cubeface2 the face in bits 29..31; d9 negates all sources. */
   const char *face_text[2] = {
      "clause\n"
      "    cubeface1 t0, r0, r1, r2 | cubeface2 r5, t | p0=r0 p1=r1 p2=r2\n"
      "    nop t0 | mov.i32 r4, t0\n",
      "clause\n"
      "    cubeface1.d9=1 t0, r0, r1, r2 | cubeface2 r5, t | p0=r0 p1=r1 "
      "p2=r2\n"
      "    nop t0 | mov.i32 r4, t0\n",
   };
   const char *sel_text = "clause flow=nbtb\n"
                          "    nop t0 | cube_ssel r4, r2, r0, r3 | p0=r0 "
                          "p1=r2 p2=r3\n"
                          "clause\n"
                          "    nop t0 | cube_tsel r5, r1, r2, r3 | p0=r1 "
                          "p1=r2 p2=r3\n";
   uint32_t in[8][4] = { { 0 } }, out[8][2], sel[8][2];
   for (unsigned it = 0; it < 200; it++) {
      bool neg = it & 1;
      for (unsigned l = 0; l < 8; l++) {
         for (unsigned k = 0; k < 3; k++) {
            uint64_t r = pan_test_rng64(&seed);
            /* Small integers make ties and zeros common. */
            in[l][k] = it < 100 ? pan_test_u32((float)((int)(r % 9) - 4))
                                : ((uint32_t)r & 0x80ffffffu) | 0x3f000000u;
         }
      }
      if (!run8("cubeface", face_text[neg], in, NULL, out))
         return;
      for (unsigned l = 0; l < 8; l++) {
         float x = pan_test_f32(in[l][0]), y = pan_test_f32(in[l][1]);
         float z = pan_test_f32(in[l][2]);
         if (neg)
            x = -x, y = -y, z = -z;
         unsigned face = ref_face(x, y, z);
         float ma = fmaxf(fabsf(x), fmaxf(fabsf(y), fabsf(z)));
         PAN_CHECK(out[l][0] == pan_test_u32(ma), "cubeface1 %g %g %g: %08x", x,
                   y, z, out[l][0]);
         PAN_CHECK(out[l][1] == face << 29, "cubeface2 %g %g %g: %08x", x, y, z,
                   out[l][1]);
         in[l][3] = out[l][1] | (uint32_t)(pan_test_rng64(&seed) & 0xffff);
      }
      if (neg)
         continue;
      if (!run8("cube_ssel/tsel", sel_text, in, NULL, sel))
         return;
      for (unsigned l = 0; l < 8; l++) {
         float s, t;
         ref_st(pan_test_f32(in[l][0]), pan_test_f32(in[l][1]),
                pan_test_f32(in[l][2]), in[l][3] >> 29, &s, &t);
         PAN_CHECK(sel[l][0] == pan_test_u32(s) && sel[l][1] == pan_test_u32(t),
                   "cube_ssel/tsel lane %u face %u: %08x %08x, want %08x %08x",
                   l, in[l][3] >> 29, sel[l][0], sel[l][1], pan_test_u32(s),
                   pan_test_u32(t));
      }
   }

   /* Bad input: a face index above 5, cubeface2 without cubeface1. */
   struct bi_test_prog p;
   struct pan_sim_bi_warp w;
   if (bi_test_assemble(&p, sel_text)) {
      pan_sim_bi_warp_init(&w, 0xff);
      w.r[3][3] = 6u << 29;
      PAN_CHECK(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_FAULT,
                "face 6 accepted");
      PAN_EXPECT_STR_HAS(w.fault, "face index 6 is no cube face");
   }
   if (bi_test_assemble(&p, "clause\n"
                            "    fadd.f32 t0, r0, r1 | cubeface2 r5, t | "
                            "p0=r0 p1=r1\n")) {
      pan_sim_bi_warp_init(&w, 0xff);
      PAN_CHECK(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_FAULT,
                "lone cubeface2 accepted");
      PAN_EXPECT_STR_HAS(w.fault, "not cubeface1");
   }
}

int
main(void)
{
   PAN_RUN_CASE(test_frcp_frsq);
   PAN_RUN_CASE(test_frcp_frsq_f16);
   PAN_RUN_CASE(test_frexpe);
   PAN_RUN_CASE(test_fma_rscale);
   PAN_RUN_CASE(test_fexp);
   PAN_RUN_CASE(test_log_steps);
   PAN_RUN_CASE(test_sincos_tables);
   PAN_RUN_CASE(test_cube);
   return pan_test_summary("pan_sim_bi_sfu");
}
