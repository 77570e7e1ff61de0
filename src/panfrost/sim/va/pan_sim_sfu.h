/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Special-function steps shared by the Bifrost and Valhall interpreters:
 * the pieces the compiler chains into exp2, log2, sin and cos.  The
 * hardware's tables are not public, so each step is modelled as the exact
 * mathematical function it approximates, computed in double and rounded
 * once to binary32 (correctly rounded up to the double evaluation's error,
 * far below half a binary32 ulp).  Header only: both interpreters are
 * static libraries linked into the same programs.
 */

#ifndef PAN_SIM_SFU_H
#define PAN_SIM_SFU_H

#include <math.h>
#include <stdint.h>

#include "pan_sim_fp.h"

/*
 * Split of x for logarithms: |x| = m * 2^e with m in [0.75, 1.5), so that
 * log2(x) = e + log2(m) with log2(m) small.  0, infinities and NaN give
 * e = 0 and m = |x|.
 */
static inline double
pan_sim_sfu_log_split(double x, int *e)
{
   *e = 0;
   x = fabs(x);
   if (x == 0 || !isfinite(x))
      return x;
   double m = 2 * frexp(x, e);
   *e -= 1;
   if (m >= 1.5) {
      m /= 2;
      *e += 1;
   }
   return m;
}

/* log2(m) / (m - 1) for the log split of x: log2(x) is then
 * e + flogd(x) * (m - 1).  Negative x and NaN give NaN; 0 and +inf give
 * +inf, which makes that product -inf and +inf. */
static inline double
pan_sim_sfu_flogd(double x)
{
   int e;
   if (isnan(x) || x < 0)
      return NAN;
   if (x == 0 || isinf(x))
      return INFINITY;
   double m = pan_sim_sfu_log_split(x, &e);
   return m == 1 ? 1 / log(2.0) : log2(m) / (m - 1);
}

/* 2^(i / 2^24) for the 8.24 fixed-point i; the float f the fixed-point
 * value was made from (x * 2^24) decides NaN and the infinities, and
 * stands in for i when it is beyond the int32 range: the conversion to
 * i saturated, so 2^(f / 2^24) overflows to +inf (or underflows) where
 * 2^(i / 2^24) would stop just short of 2^128. */
static inline double
pan_sim_sfu_fexp(int32_t i, double f)
{
   if (isnan(f))
      return NAN;
   if (isinf(f))
      return f > 0 ? INFINITY : 0;
   if (f >= 2147483648.0 || f < -2147483648.0)
      return exp2(ldexp(f, -24));
   return exp2(ldexp((double)i, -24));
}

/* Entry k (the low 6 bits of the word) of the sine/cosine tables: the
 * function at k * pi / 32 (cos x = sin(x + pi/2)). */
static inline double
pan_sim_sfu_sincos_table(uint32_t k, int cosine)
{
   /* By quadrant, so that the zeros and ones are exact. */
   unsigned q = ((k & 63) + (cosine ? 16 : 0)) & 63;
   double a = (q & 15) * (M_PI / 32);
   double v = (q & 16) ? cos(a) : sin(a);
   return (q & 32) && v != 0 ? -v : v; /* sin(pi) is +0 */
}

/* (a * b + c) * 2^scale rounded once to binary32 by mode, then clamped. */
static inline uint32_t
pan_sim_sfu_fma_rscale(double a, double b, double c, int32_t scale,
                       enum pan_sim_round mode, const char *clamp)
{
   double p = a * b; /* exact: 24 x 24 significant bits */
   double s = p + c, tail = 0;
   if (isfinite(s)) {
      double bb = s - p;
      tail = (p - (s - bb)) + (c - bb);
   }
   /* Beyond +-400 the result overflows or vanishes anyway; clamping keeps
    * the double scaling exact for what remains. */
   scale = scale < -400 ? -400 : scale > 400 ? 400 : scale;
   s = ldexp(s, scale);
   tail = ldexp(tail, scale);
   uint32_t r = pan_sim_fp_round_f64_tail(s, tail, mode, 8, 23);
   double v = pan_sim_fp_clamp(pan_sim_fp_f32(r), clamp);
   return isnan(v) ? PAN_SIM_NAN32 : pan_sim_fp_u32((float)v);
}

/* a + b rounded once to binary32. */
static inline uint32_t
pan_sim_sfu_add(double a, double b, const char *clamp)
{
   return pan_sim_sfu_fma_rscale(a, 1, b, 0, PAN_SIM_ROUND_RTE, clamp);
}

#endif
