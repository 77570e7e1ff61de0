/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Special-function steps of the Valhall interpreter against references
 * computed in long double by the host: the sine/cosine tables (every
 * entry), fexp over a sweep of 8.24 inputs, fma_rscale against the host's
 * fmaf scaled by powers of two, the .log split of frexpe/frexpm, the
 * compiler's whole log2 and exp2 sequences, and the cube-map helpers
 * against the GL selection table.
 */

#include <math.h>

#include "pan_sim_va_test_run.h"
#include "sim/tests/pan_sim_sfu_ref.h"

static uint64_t seed = 0x5f0c0ffee;

/* Distance in ulps between two finite binary32 values of one sign. */
static unsigned
ulps(uint32_t a, uint32_t b)
{
   return a > b ? a - b : b - a;
}

static void
test_sincos_tables(void)
{
   struct test_kernel k;
   uint32_t in[16][4], out[16][2];
   test_kernel_init(&k, "fsin_table.u6 r4, r0\n"
                        "fcos_table.u6.end r5, r0\n");
   for (unsigned base = 0; base < 128; base += 16) {
      for (unsigned l = 0; l < 16; ++l) {
         /* Upper bits are the compiler's float bias: ignored. */
         in[l][0] = 0x49400000u | (base + l);
      }
      if (!test_kernel_run(&k, in, out))
         break;
      for (unsigned l = 0; l < 16; ++l) {
         unsigned n = (base + l) & 63;
         PAN_CHECK(out[l][0] == canon(ref_sin(n)), "fsin_table %u: %08x", n,
                   out[l][0]);
         PAN_CHECK(out[l][1] == canon(ref_sin(n + 16)), "fcos_table %u: %08x",
                   n, out[l][1]);
      }
   }
   test_prog_free(&k.p);
}

static void
test_fexp(void)
{
   struct test_kernel k;
   uint32_t in[16][4], out[16][2];
   test_kernel_init(&k, "fexp.f32.end r4, r0, r1\n");
   for (unsigned it = 0; it < 400; ++it) {
      for (unsigned l = 0; l < 16; ++l) {
         int32_t i = (int32_t)pan_test_rng64(&seed);
         in[l][0] = (uint32_t)i;
         in[l][1] = pan_test_u32(ldexpf((float)i, -24));
      }
      if (!test_kernel_run(&k, in, out))
         break;
      for (unsigned l = 0; l < 16; ++l) {
         long double x = ldexpl((int32_t)in[l][0], -24);
         PAN_CHECK(out[l][0] == canon((float)exp2l(x)), "fexp %08x: %08x",
                   in[l][0], out[l][0]);
      }
   }
   /* The float operand decides NaN and the infinities. */
   static const uint32_t f[4] = { 0x7fc00000, 0x7f800000, 0xff800000,
                                  0x3f800000 };
   static const uint32_t want[4] = { 0x7fc00000, 0x7f800000, 0, 0x40000000 };
   for (unsigned l = 0; l < 16; ++l) {
      in[l][0] = 1 << 24;
      in[l][1] = f[l % 4];
   }
   if (test_kernel_run(&k, in, out)) {
      for (unsigned l = 0; l < 4; ++l)
         PAN_EXPECT_EQ(out[l][0], want[l]);
   }
   /* exp2 of +-1442.7 (exp(+-1000)): the scaled float is beyond int32, the
    * fixed-point source saturated; the result is 2^(f / 2^24). */
   static const float big[4] = { 1442.7f, -1442.7f, 128.0f, -150.0f };
   for (unsigned l = 0; l < 16; ++l) {
      float f = ldexpf(big[l % 4], 24);
      in[l][0] = f >= 0 ? 0x7fffffffu : 0x80000000u;
      in[l][1] = pan_test_u32(f);
   }
   if (test_kernel_run(&k, in, out)) {
      for (unsigned l = 0; l < 4; ++l)
         PAN_EXPECT_EQ(out[l][0], canon((float)exp2l((long double)big[l])));
   }
   test_prog_free(&k.p);
}

/* frcp.f16 / frsq.f16 over every binary16 code: one correctly rounded
 * result in the low half, zero in the high half. */
static void
test_rcp_rsq_f16(void)
{
   struct test_kernel k;
   uint32_t in[16][4], out[16][2];
   test_kernel_init(&k, "frcp.f16 r4, r0\n"
                        "frsq.f16.end r5, r0\n");
   for (unsigned base = 0; base < 0x10000 && k.ok; base += 16) {
      for (unsigned l = 0; l < 16; ++l)
         in[l][0] = 0xabcd0000u | (base + l); /* high half ignored */
      if (!test_kernel_run(&k, in, out))
         break;
      for (unsigned l = 0; l < 16; ++l) {
         check_rcp_rsq_f16((uint16_t)(base + l), out[l]);
      }
   }
   test_prog_free(&k.p);
}

static void
test_fma_rscale(void)
{
   struct test_kernel k;
   uint32_t in[16][4], out[16][2];
   test_kernel_init(&k, "fma_rscale.f32 r4, r0, r1.neg, r2, r3\n"
                        "fma_rscale.f32.clamp_0_1.end r5, r0, r1, r2, r3\n");
   unsigned compared = 0;
   for (unsigned it = 0; it < 2000; ++it) {
      for (unsigned l = 0; l < 16; ++l) {
         uint64_t r = pan_test_rng64(&seed);
         in[l][0] = pan_test_u32(ldexpf((float)(r & 0xffffff), -12) - 2048);
         in[l][1] = pan_test_u32(ldexpf((float)((r >> 24) & 0xffffff), -20));
         in[l][2] = pan_test_u32(ldexpf((float)((r >> 48) & 0xffff), -8) - 128);
         in[l][3] = (uint32_t)((int)((r >> 40) & 63) - 32);
      }
      if (!test_kernel_run(&k, in, out))
         break;
      for (unsigned l = 0; l < 16; ++l) {
         float a = pan_test_f32(in[l][0]), b = pan_test_f32(in[l][1]);
         float c = pan_test_f32(in[l][2]);
         int d = (int32_t)in[l][3];
         /* Scaling by 2^d is exact while the result stays normal. */
         float r0 = fmaf(a, -b, c), r1 = fmaf(a, b, c);
         if (fabsf(r0) < 0x1p-90f || fabsf(r1) < 0x1p-90f)
            continue;
         float w1 = ldexpf(r1, d);
         w1 = w1 < 0 ? 0 : w1 > 1 ? 1 : w1;
         PAN_CHECK(out[l][0] == pan_test_u32(ldexpf(r0, d)),
                   "fma_rscale %08x %08x %08x %d: %08x", in[l][0], in[l][1],
                   in[l][2], d, out[l][0]);
         PAN_CHECK(out[l][1] == pan_test_u32(w1), "fma_rscale.clamp_0_1: %08x",
                   out[l][1]);
         compared++;
      }
   }
   PAN_CHECK(compared > 20000, "only %u results compared", compared);
   test_prog_free(&k.p);
}

/* frexpe/frexpm .log: |x| = m * 2^e with m in [0.75, 1.5). */
static void
test_log_split(void)
{
   struct test_kernel k;
   uint32_t in[16][4], out[16][2];
   static const float x[16] = { 1.0f,  1.49f,  1.5f,    0.75f,   0.74f, 3.0f,
                                -6.0f, 1e-40f, 8.0f,    0.5f,    2.9f,  1e30f,
                                0.8f,  1.25f,  -0.375f, 12345.0f };
   test_kernel_init(&k, "frexpe.f32.log r4, r0\n"
                        "frexpm.f32.log.end r5, r0\n");
   for (unsigned l = 0; l < 16; ++l)
      in[l][0] = pan_test_u32(x[l]);
   if (test_kernel_run(&k, in, out)) {
      for (unsigned l = 0; l < 16; ++l) {
         int e = (int32_t)out[l][0];
         float m = pan_test_f32(out[l][1]);
         PAN_CHECK(fabsf(m) >= 0.75f && fabsf(m) < 1.5f, "%g: m %g", x[l], m);
         PAN_CHECK(ldexpf(m, e) == x[l], "%g: %g * 2^%d", x[l], m, e);
      }
   }
   test_prog_free(&k.p);
}

/* The stock compiler's log2 (frexpe.log, s32_to_f32, fadd_lscale, flogd,
 * fma) and exp2 (fma_rscale by 2^24, f32_to_s32, fexp) sequences. */
static void
test_sequences(void)
{
   struct test_kernel k;
   uint32_t in[16][4], out[16][2];
   test_kernel_init(&k, "frexpe.f32.log r6, r0\n"
                        "s32_to_f32 r6, r6\n"
                        "fadd_lscale.f32 r7, r3, r0\n"
                        "flogd.f32 r8, r0\n"
                        "fma.f32 r4, r8, r7, r6\n"
                        "fma_rscale.f32 r9, r1, r3.neg, r12, r2\n"
                        "f32_to_s32.rtz r10, r9\n"
                        "fexp.f32.end r5, r10, r9\n");
   unsigned worst_log = 0, worst_exp = 0;
   for (unsigned it = 0; it < 500 && k.ok; ++it) {
      for (unsigned l = 0; l < 16; ++l) {
         uint64_t r = pan_test_rng64(&seed);
         in[l][0] = (uint32_t)r & 0x7fffffff; /* positive, finite or not */
         in[l][1] =
            pan_test_u32(ldexpf((float)((r >> 32) & 0xffffff), -17) - 64);
         in[l][2] = 24;
         in[l][3] = 0xbf800000; /* -1.0 */
      }
      if (!test_kernel_run(&k, in, out))
         break;
      for (unsigned l = 0; l < 16; ++l) {
         float x = pan_test_f32(in[l][0]);
         if (x == 0 || !isfinite(x))
            continue;
         uint32_t want = canon((float)log2l(x));
         if (want == 0 || out[l][0] == 0)
            PAN_EXPECT_EQ(out[l][0], want);
         else if (ulps(out[l][0], want) > worst_log)
            worst_log = ulps(out[l][0], want);
         uint32_t ew = canon((float)exp2l(pan_test_f32(in[l][1])));
         if (ulps(out[l][1], ew) > worst_exp)
            worst_exp = ulps(out[l][1], ew);
      }
   }
   /* Two roundings after flogd and one in the fixed-point exp2 input. */
   PAN_CHECK(worst_log <= 2, "log2 sequence off by %u ulps", worst_log);
   PAN_CHECK(worst_exp <= 2, "exp2 sequence off by %u ulps", worst_exp);

   /* Special values of the log2 sequence. */
   static const uint32_t x[4] = { 0, 0x7f800000, 0xbf800000, 0x41000000 };
   static const uint32_t want[4] = { 0xff800000, 0x7f800000, 0x7fc00000,
                                     0x40400000 };
   for (unsigned l = 0; l < 16; ++l) {
      in[l][0] = x[l % 4];
      in[l][1] = 0;
      in[l][3] = 0xbf800000;
   }
   if (test_kernel_run(&k, in, out)) {
      for (unsigned l = 0; l < 4; ++l)
         PAN_EXPECT_EQ(out[l][0], want[l]);
   }
   test_prog_free(&k.p);
}

static void
test_cube(void)
{
   struct test_kernel face, sel;
   uint32_t in[16][4], out[16][2], st[16][2];
   /* Source modifiers: x negated, y absolute. */
   test_kernel_init(&face, "cubeface1 r4, r0.neg, r1.abs, r2\n"
                           "cubeface2.end r5, r0.neg, r1.abs, r2\n");
   test_kernel_init(&sel, "cube_ssel r4, r2, r0, r3\n"
                          "cube_tsel.end r5, r1, r2, r3\n");
   for (unsigned it = 0; it < 200; ++it) {
      for (unsigned l = 0; l < 16; ++l) {
         for (unsigned k = 0; k < 3; ++k) {
            uint64_t r = pan_test_rng64(&seed);
            /* Small integers make ties and signed zeros common. */
            in[l][k] = it < 100 ? pan_test_u32((float)((int)(r % 9) - 4)) |
                                     (uint32_t)(r & 0x100) << 23
                                : ((uint32_t)r & 0x80ffffffu) | 0x3f000000u;
         }
      }
      if (!test_kernel_run(&face, in, out))
         break;
      for (unsigned l = 0; l < 16; ++l) {
         float x = -pan_test_f32(in[l][0]), y = fabsf(pan_test_f32(in[l][1]));
         float z = pan_test_f32(in[l][2]);
         unsigned f = ref_face(x, y, z);
         float ma = fmaxf(fabsf(x), fmaxf(fabsf(y), fabsf(z)));
         PAN_CHECK(out[l][0] == pan_test_u32(ma), "cubeface1 %g %g %g: %08x", x,
                   y, z, out[l][0]);
         PAN_CHECK(out[l][1] == f << 29, "cubeface2 %g %g %g: %08x", x, y, z,
                   out[l][1]);
         /* Bits below the face are ignored by the selects. */
         in[l][3] = (uint32_t)pan_test_rng64(&seed) % 6 << 29 |
                    ((uint32_t)pan_test_rng64(&seed) & 0x1fffffff);
      }
      if (!test_kernel_run(&sel, in, st))
         break;
      for (unsigned l = 0; l < 16; ++l) {
         float x = pan_test_f32(in[l][0]), y = pan_test_f32(in[l][1]);
         float z = pan_test_f32(in[l][2]);
         unsigned f = in[l][3] >> 29;
         float sc, tc;
         ref_st(x, y, z, f, &sc, &tc);
         PAN_CHECK(st[l][0] == pan_test_u32(sc) && st[l][1] == pan_test_u32(tc),
                   "cube_ssel/tsel face %u: %08x %08x", f, st[l][0], st[l][1]);
      }
   }
   /* A face index above 5 is an error, not a value. */
   struct pan_sim_va_warp w;
   pan_sim_va_warp_init(&w, 0xffff);
   w.r[7][3] = 7u << 29;
   if (sel.ok) {
      PAN_CHECK(pan_sim_va_run(&w, &sel.p.cfg) == PAN_SIM_VA_FAULT,
                "face 7 accepted");
      PAN_EXPECT_STR_HAS(w.fault, "face index 7 is no cube face");
   }
   test_prog_free(&face.p);
   test_prog_free(&sel.p);
}

int
main(void)
{
   PAN_RUN_CASE(test_sincos_tables);
   PAN_RUN_CASE(test_fexp);
   PAN_RUN_CASE(test_rcp_rsq_f16);
   PAN_RUN_CASE(test_fma_rscale);
   PAN_RUN_CASE(test_log_split);
   PAN_RUN_CASE(test_sequences);
   PAN_RUN_CASE(test_cube);
   return pan_test_summary("pan_sim_va_sfu");
}
