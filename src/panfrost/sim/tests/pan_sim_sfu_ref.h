/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Known answers of the special-function steps, shared by the Bifrost and
 * Valhall interpreter tests (bi/tests/pan_sim_bi_sfu_test.c,
 * va/tests/pan_sim_va_sfu_test.c): both ISAs have the same sine table and
 * cube-map helpers, so one reference keeps the two checks in step.
 */

#ifndef PAN_SIM_SFU_REF_H
#define PAN_SIM_SFU_REF_H

#include <math.h>
#include <stdint.h>

#include "util/pan_test_util.h"

/* The bits of f, every NaN as the canonical quiet NaN. */
static inline uint32_t
canon(float f)
{
   return isnan(f) ? 0x7fc00000 : pan_test_u32(f);
}

/* The binary16 code of a long double, rounded to nearest even, NaN as
 * 0x7e00; built from the significand and exponent alone. */
static inline uint16_t
ref_f16(long double x)
{
   if (isnan(x))
      return 0x7e00;
   uint16_t sign = signbit(x) ? 0x8000 : 0;
   x = fabsl(x);
   if (x >= 65520.0L) /* halfway above the largest finite, 65504 */
      return sign | 0x7c00;
   if (x < 0x1p-14L) /* subnormal: multiples of 2^-24 */
      return sign | (uint16_t)rintl(x * 0x1p24L);
   int e;
   frexpl(x, &e); /* x = m 2^e, m in [0.5, 1) */
   long double m = rintl(ldexpl(x, 11 - e)); /* 1024..2048 */
   if (m == 2048)
      m = 1024, e++;
   return sign | (uint16_t)((e + 14) << 10 | ((unsigned)m - 1024));
}

/* The value of a binary16 code. */
static inline long double
ref_f16_value(uint16_t h)
{
   unsigned e = (h >> 10) & 31, m = h & 1023;
   long double v = e == 31 ? (m ? NAN : INFINITY)
                   : e     ? ldexpl(1024 + m, (int)e - 25)
                           : ldexpl(m, -24);
   return (h & 0x8000) ? -v : v;
}

/* frcp.f16 and frsq.f16 of binary16 code h, as out[0] and out[1]: one
 * correctly rounded result in the low half, zero above. */
static inline void
check_rcp_rsq_f16(uint16_t h, const uint32_t out[2])
{
   long double x = ref_f16_value(h);
   uint32_t rcp = ref_f16(1.0L / x);
   uint32_t rsq = ref_f16(x < 0 ? NAN : 1.0L / sqrtl(x));
   PAN_CHECK(out[0] == rcp, "frcp.f16 %04x: %08x, want %04x", h, out[0], rcp);
   PAN_CHECK(out[1] == rsq, "frsq.f16 %04x: %08x, want %04x", h, out[1], rsq);
}

/* sin(n pi / 32), exactly 0 and +-1 where it should be. */
static inline float
ref_sin(unsigned n)
{
   n &= 63;
   if (n % 32 == 0)
      return 0;
   if (n % 16 == 0)
      return n == 16 ? 1 : -1;
   return (float)sinl(n * (3.14159265358979323846264L / 32));
}

/* GL cube-map selection, as the specification's table; ties go to z,
 * then y. */
static inline unsigned
ref_face(float x, float y, float z)
{
   float ma = fmaxf(fabsf(x), fmaxf(fabsf(y), fabsf(z)));
   if (fabsf(z) == ma)
      return signbit(z) ? 5 : 4;
   if (fabsf(y) == ma)
      return signbit(y) ? 3 : 2;
   return signbit(x) ? 1 : 0;
}

/* The unnormalised s and t of face (0..5) for the direction x, y, z. */
static inline void
ref_st(float x, float y, float z, unsigned face, float *s, float *t)
{
   switch (face) {
   case 0:
      *s = -z, *t = -y;
      break;
   case 1:
      *s = z, *t = -y;
      break;
   case 2:
      *s = x, *t = z;
      break;
   case 3:
      *s = x, *t = -z;
      break;
   case 4:
      *s = x, *t = -y;
      break;
   default:
      *s = -x, *t = -y;
      break;
   }
}

#endif
