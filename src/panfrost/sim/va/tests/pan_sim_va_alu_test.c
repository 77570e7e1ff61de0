/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Arithmetic of the Valhall interpreter against independent references:
 * programs in our assembly syntax, seeded random inputs, edge cases, and
 * binary16 conversions over all 65,536 values.  binary16 references find
 * the two neighbours of the exact value by search and pick one by the
 * rounding mode, sharing no code with the interpreter.
 */

#include <fenv.h>
#include <math.h>
#include <stdio.h>

#include "pan_sim_va_test_run.h"

static uint64_t seed = 0x5eed0a11ull;

/* Independent binary16 decoding: exact value of a finite code. */
static double
h_value(unsigned h)
{
   unsigned e = (h >> 10) & 31, m = h & 1023;
   double v = e ? (1024 + m) * pow(2, (int)e - 25) : m * pow(2, -24);
   return (h & 0x8000) ? -v : v;
}

/* Random input mixing plain values and special encodings. */
static uint32_t
rand_f32(void)
{
   static const uint32_t special[] = {
      0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
      0x00000001, 0x807fffff, 0x3f800000, 0xbf800000, 0x7f7fffff,
      0x33800000, 0x387fc000, 0x477ff000, 0x47800000,
   };
   uint64_t r = pan_test_rng64(&seed);
   if ((r & 7) == 0)
      return special[(r >> 8) % (sizeof(special) / 4)];
   if ((r & 7) == 1) /* around binary16's range */
      return pan_test_u32(ldexpf((float)((r >> 8) & 0xffffff) / 0x1000000,
                        (int)((r >> 40) % 48) - 26)) |
             (uint32_t)(r >> 63) << 31;
   return (uint32_t)(r >> 16);
}

static uint16_t
rand_f16(void)
{
   uint64_t r = pan_test_rng64(&seed);
   static const uint16_t special[] = { 0, 0x8000, 0x7c00, 0xfc00, 0x7e00,
                                       1, 0x3ff,  0x7bff, 0x3c00, 0xbc00 };
   if ((r & 7) == 0)
      return special[(r >> 8) % 10];
   return r >> 32;
}

enum mode { RTE, RTP, RTN, RTZ };

/*
 * Round an exact value to binary16.  cmp(ctx, v) gives the sign of
 * (exact - v) for any v with at most 12 significant bits; sign is the
 * exact value's sign (nonzero exact values only).
 */
typedef int (*cmp_fn)(const void *ctx, double v);

static uint16_t
ref_round16(cmp_fn cmp, const void *ctx, bool neg, enum mode mode)
{
   double s = neg ? -1 : 1;
   unsigned lo = 0, hi = 0x7c00; /* value(lo) <= |x| < value(hi) */
   while (hi - lo > 1) {
      unsigned mid = (lo + hi) / 2;
      if (cmp(ctx, s * h_value(mid)) * s >= 0)
         lo = mid;
      else
         hi = mid;
   }
   uint16_t sign = neg ? 0x8000 : 0;
   if (cmp(ctx, s * h_value(lo)) == 0)
      return sign | lo;
   double mid =
      s * (h_value(lo) + (hi == 0x7c00 ? 32 : h_value(hi) - h_value(lo)) / 2);
   unsigned pick;
   switch (mode) {
   case RTZ:
      pick = lo;
      break;
   case RTP:
      pick = neg ? lo : hi;
      break;
   case RTN:
      pick = neg ? hi : lo;
      break;
   default: {
      int c = cmp(ctx, mid) * (int)s;
      pick = c < 0 ? lo : c > 0 ? hi : ((lo & 1) ? hi : lo);
   }
   }
   return sign | pick; /* hi == 0x7c00 is infinity */
}

static int
cmp_double(const void *ctx, double v)
{
   double x = *(const double *)ctx;
   return (x > v) - (x < v);
}

struct fma_ctx {
   double a, b, c;
};

/* a*b is exact in double, c - v too (binary16 and 12-bit values), and the
 * sign of their exact sum survives rounding. */
static int
cmp_fma(const void *ctx, double v)
{
   const struct fma_ctx *f = ctx;
   double r = f->a * f->b + (f->c - v);
   return (r > 0) - (r < 0);
}

static uint16_t
ref_f16_exact(double x, enum mode mode)
{
   if (isnan(x))
      return 0x7e00;
   if (x == 0)
      return signbit(x) ? 0x8000 : 0;
   if (isinf(x))
      return x > 0 ? 0x7c00 : 0xfc00;
   uint16_t r = ref_round16(cmp_double, &x, x < 0, mode);
   /* Overflow to the largest finite value when rounding towards it. */
   if ((r & 0x7fff) == 0x7c00 &&
       (mode == RTZ || (mode == RTP && x < 0) || (mode == RTN && x > 0)))
      r = (r & 0x8000) | 0x7bff;
   return r;
}

static const char *const mode_names[] = { "rte", "rtp", "rtn", "rtz" };

/* ---- binary32 ALU ---------------------------------------------------- */

static uint32_t
canon32(float f)
{
   return isnan(f) ? 0x7fc00000 : pan_test_u32(f);
}

static float
minnum(float a, float b, bool max)
{
   if (isnan(a))
      return b;
   if (isnan(b))
      return a;
   if (a == 0 && b == 0)
      return (signbit(a) == max) ? b : a;
   return (a < b) == max ? b : a;
}

static void
test_f32_alu(void)
{
   struct test_kernel k;
   uint32_t in[16][4], out[16][2];
   test_kernel_init(&k, "fadd.f32 r4, r0, r1.neg\n"
                        "fma.f32.end r5, r0.abs, r1, r2\n");
   struct test_kernel mm;
   test_kernel_init(&mm, "fmin.f32 r4, r0, r1\n"
                         "fmax.f32.clamp_0_1.end r5, r1, r2.neg\n");
   for (unsigned it = 0; it < 2000; ++it) {
      for (unsigned l = 0; l < 16; ++l)
         for (unsigned i = 0; i < 4; ++i)
            in[l][i] = rand_f32();
      if (!test_kernel_run(&k, in, out))
         break;
      for (unsigned l = 0; l < 16; ++l) {
         float a = pan_test_f32(in[l][0]), b = pan_test_f32(in[l][1]), c = pan_test_f32(in[l][2]);
         PAN_CHECK(out[l][0] == canon32(a - b), "fadd %08x %08x: %08x",
                   in[l][0], in[l][1], out[l][0]);
         PAN_CHECK(out[l][1] == canon32(fmaf(fabsf(a), b, c)),
                   "fma %08x %08x %08x: %08x", in[l][0], in[l][1], in[l][2],
                   out[l][1]);
      }
      if (!test_kernel_run(&mm, in, out))
         break;
      for (unsigned l = 0; l < 16; ++l) {
         float a = pan_test_f32(in[l][0]), b = pan_test_f32(in[l][1]), c = pan_test_f32(in[l][2]);
         float mx = minnum(b, -c, true);
         mx = isnan(mx) || mx <= 0 ? 0 : mx > 1 ? 1 : mx;
         PAN_CHECK(out[l][0] == canon32(minnum(a, b, false)),
                   "fmin %08x %08x: %08x", in[l][0], in[l][1], out[l][0]);
         PAN_CHECK(out[l][1] == pan_test_u32(mx), "fmax.clamp_0_1 %08x %08x: %08x",
                   in[l][1], in[l][2], out[l][1]);
      }
   }
   test_prog_free(&k.p);
   test_prog_free(&mm.p);
}

/* ---- binary16 ALU ---------------------------------------------------- */

static uint16_t
ref_fadd16(uint16_t a, uint16_t b)
{
   if (((a & 0x7fff) > 0x7c00) || ((b & 0x7fff) > 0x7c00))
      return 0x7e00;
   double x = h_value(a) + h_value(b);
   bool ainf = (a & 0x7fff) == 0x7c00, binf = (b & 0x7fff) == 0x7c00;
   if (ainf && binf && (a ^ b) & 0x8000)
      return 0x7e00;
   if (ainf || binf)
      return ainf ? a : b;
   if (x == 0)
      return (a & b & 0x8000); /* -0 only from -0 + -0 */
   return ref_f16_exact(x, RTE);
}

static uint16_t
ref_fma16(uint16_t a, uint16_t b, uint16_t c)
{
   double da = h_value(a), db = h_value(b), dc = h_value(c);
   bool nan = ((a & 0x7fff) > 0x7c00) || ((b & 0x7fff) > 0x7c00) ||
              ((c & 0x7fff) > 0x7c00);
   bool ai = (a & 0x7fff) == 0x7c00, bi = (b & 0x7fff) == 0x7c00,
        ci = (c & 0x7fff) == 0x7c00;
   if (ai)
      da = (a & 0x8000) ? -INFINITY : INFINITY;
   if (bi)
      db = (b & 0x8000) ? -INFINITY : INFINITY;
   if (ci)
      dc = (c & 0x8000) ? -INFINITY : INFINITY;
   if (nan)
      return 0x7e00;
   if (ai || bi || ci) {
      double r = da * db + dc;
      return isnan(r) ? 0x7e00 : (r > 0 ? 0x7c00 : 0xfc00);
   }
   struct fma_ctx f = { da, db, dc };
   int s = cmp_fma(&f, 0);
   if (s == 0) {
      bool pneg = ((a ^ b) & 0x8000) != 0;
      bool neg0 = da * db == 0 && dc == 0 ? (pneg && (c & 0x8000)) : false;
      return neg0 ? 0x8000 : 0;
   }
   uint16_t r = ref_round16(cmp_fma, &f, s < 0, RTE);
   return r;
}

static void
test_f16_alu(void)
{
   struct test_kernel k;
   uint32_t in[16][4], out[16][2];
   test_kernel_init(&k, "fadd.v2f16 r4, r0, r1.h10\n"
                        "fma.v2f16.end r5, r0, r1, r2\n");
   for (unsigned it = 0; it < 4000; ++it) {
      for (unsigned l = 0; l < 16; ++l)
         for (unsigned i = 0; i < 4; ++i)
            in[l][i] = rand_f16() | (uint32_t)rand_f16() << 16;
      if (!test_kernel_run(&k, in, out))
         break;
      for (unsigned l = 0; l < 16; ++l) {
         uint32_t a = in[l][0], b = in[l][1], c = in[l][2];
         uint32_t add =
            ref_fadd16(a, b >> 16) | (uint32_t)ref_fadd16(a >> 16, b) << 16;
         uint32_t fma = ref_fma16(a, b, c) |
                        (uint32_t)ref_fma16(a >> 16, b >> 16, c >> 16) << 16;
         PAN_CHECK(out[l][0] == add, "fadd.v2f16 %08x %08x: %08x, not %08x", a,
                   b, out[l][0], add);
         PAN_CHECK(out[l][1] == fma, "fma.v2f16 %08x %08x %08x: %08x, not %08x",
                   a, b, c, out[l][1], fma);
      }
   }
   test_prog_free(&k.p);
}

/* ---- conversions ----------------------------------------------------- */

/* Independent widening: bits of the binary32 equal to a binary16 code;
 * NaNs become the canonical NaN, as every NaN result of the model. */
static uint32_t
ref_f16_to_f32(uint16_t h)
{
   uint32_t sign = (uint32_t)(h & 0x8000) << 16;
   unsigned e = (h >> 10) & 31, m = h & 1023;
   if (e == 31)
      return m ? 0x7fc00000 : sign | 0x7f800000;
   if (e == 0) {
      if (!m)
         return sign;
      e = 113; /* 127 - 15 + 1, then normalise */
      while (!(m & 0x400)) {
         m <<= 1;
         e--;
      }
      return sign | e << 23 | (m & 0x3ff) << 13;
   }
   return sign | (e + 112) << 23 | m << 13;
}

static void
test_f16_exhaustive(void)
{
   struct test_kernel k;
   uint32_t in[16][4] = { { 0 } }, out[16][2];
   char text[256];
   unsigned bad = 0;

   /* Widening every code, then narrowing it back in every mode. */
   for (unsigned m = 0; m < 4; ++m) {
      snprintf(text, sizeof(text),
               "f16_to_f32 r4, r0.h0\n"
               "f16_to_f32 r6, r0.h1\n"
               "v2f32_to_v2f16.%s.end r5, r4, r6\n",
               mode_names[m]);
      test_kernel_init(&k, text);
      for (unsigned base = 0; base < 65536 && !bad; base += 32) {
         for (unsigned l = 0; l < 16; ++l)
            in[l][0] = (base + 2 * l) | (base + 2 * l + 1) << 16;
         if (!test_kernel_run(&k, in, out))
            break;
         for (unsigned l = 0; l < 16 && bad < 10; ++l) {
            uint16_t h = base + 2 * l;
            uint32_t want = ref_f16_to_f32(h);
            uint16_t back = (h & 0x7fff) > 0x7c00 ? 0x7e00 : h;
            if (m == 0 && out[l][0] != want) {
               pan_test_fail("f16_to_f32 %04x: %08x, not %08x", h, out[l][0],
                             want);
               bad++;
            }
            if ((out[l][1] & 0xffff) != back) {
               pan_test_fail("%s round trip %04x: %04x", mode_names[m], h,
                             out[l][1] & 0xffff);
               bad++;
            }
         }
         pan_test_checks += 16;
      }
      test_prog_free(&k.p);
   }
}

static void
test_f32_to_f16(void)
{
   uint32_t in[16][4], out[16][2];
   for (unsigned m = 0; m < 4; ++m) {
      struct test_kernel k;
      char text[128];
      snprintf(text, sizeof(text), "v2f32_to_v2f16.%s.end r4, r0, r1\n",
               mode_names[m]);
      test_kernel_init(&k, text);
      for (unsigned it = 0; it < 1500; ++it) {
         for (unsigned l = 0; l < 16; ++l)
            for (unsigned i = 0; i < 4; ++i)
               in[l][i] = rand_f32();
         if (!test_kernel_run(&k, in, out))
            break;
         for (unsigned l = 0; l < 16; ++l) {
            uint32_t want = ref_f16_exact(pan_test_f32(in[l][0]), m) |
                            (uint32_t)ref_f16_exact(pan_test_f32(in[l][1]), m) << 16;
            PAN_CHECK(out[l][0] == want,
                      "v2f32_to_v2f16.%s %08x %08x: %08x, "
                      "not %08x",
                      mode_names[m], in[l][0], in[l][1], out[l][0], want);
         }
      }
      test_prog_free(&k.p);
   }
}

static const int fe_modes[] = { FE_TONEAREST, FE_UPWARD, FE_DOWNWARD,
                                FE_TOWARDZERO };

static uint32_t
ref_f32_to_int(float f, enum mode m, bool is_signed)
{
   if (isnan(f))
      return 0;
   double r = m == RTE   ? nearbyint(f)
              : m == RTP ? ceil(f)
              : m == RTN ? floor(f)
                         : trunc(f);
   double lo = is_signed ? -2147483648.0 : 0,
          hi = is_signed ? 2147483647.0 : 4294967295.0;
   r = r < lo ? lo : r > hi ? hi : r;
   return is_signed ? (uint32_t)(int32_t)r : (uint32_t)r;
}

static void
test_int_float(void)
{
   uint32_t in[16][4], out[16][2];
   for (unsigned m = 0; m < 4; ++m) {
      struct test_kernel k;
      char text[200];
      snprintf(text, sizeof(text),
               "f32_to_s32.%s r4, r0\n"
               "f32_to_u32.%s r5, r1\n"
               "s32_to_f32.%s r6, r2\n"
               "u32_to_f32.%s.end r7, r3\n",
               mode_names[m], mode_names[m], mode_names[m], mode_names[m]);
      test_kernel_init(&k, text);
      for (unsigned it = 0; it < 500 && k.ok; ++it) {
         struct pan_sim_va_warp w;
         pan_sim_va_warp_init(&w, 0xffff);
         for (unsigned l = 0; l < 16; ++l) {
            for (unsigned i = 0; i < 4; ++i)
               in[l][i] = i < 2 ? rand_f32() : (uint32_t)pan_test_rng64(&seed);
            memcpy(w.r[l], in[l], 16);
         }
         if (test_run(&k.p, &w) != PAN_SIM_VA_DONE)
            break;
         fesetround(fe_modes[m]);
         for (unsigned l = 0; l < 16; ++l) {
            volatile double s = (int32_t)in[l][2], u = in[l][3];
            uint32_t ws = pan_test_u32((float)s), wu = pan_test_u32((float)u);
            PAN_EXPECT_EQ(w.r[l][4], ref_f32_to_int(pan_test_f32(in[l][0]), m, true));
            PAN_EXPECT_EQ(w.r[l][5], ref_f32_to_int(pan_test_f32(in[l][1]), m, false));
            PAN_EXPECT_EQ(w.r[l][6], ws);
            PAN_EXPECT_EQ(w.r[l][7], wu);
         }
         fesetround(FE_TONEAREST);
      }
      test_prog_free(&k.p);
   }
   (void)out;
}

int
main(void)
{
   PAN_RUN_CASE(test_f32_alu);
   PAN_RUN_CASE(test_f16_alu);
   PAN_RUN_CASE(test_f16_exhaustive);
   PAN_RUN_CASE(test_f32_to_f16);
   PAN_RUN_CASE(test_int_float);
   return pan_test_summary("pan_sim_va_alu");
}
