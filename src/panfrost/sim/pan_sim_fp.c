/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Rounding to binary16/binary32 from a double, by hand so that every mode
 * is exact and independent of the host's rounding state.
 */

#include <math.h>
#include <string.h>

#include "pan_sim_fp.h"

enum pan_sim_round
pan_sim_fp_round_mode(const char *name)
{
   if (!name || !strcmp(name, "rte"))
      return PAN_SIM_ROUND_RTE;
   if (!strcmp(name, "rtp"))
      return PAN_SIM_ROUND_RTP;
   if (!strcmp(name, "rtn"))
      return PAN_SIM_ROUND_RTN;
   return PAN_SIM_ROUND_RTZ;
}

static uint32_t
overflow(bool neg, enum pan_sim_round mode, unsigned ebits, unsigned mbits)
{
   uint32_t sign = (uint32_t)neg << (ebits + mbits);
   uint32_t inf = ((1u << ebits) - 1) << mbits;
   bool to_inf = mode == PAN_SIM_ROUND_RTE || (mode == PAN_SIM_ROUND_RTP && !neg) ||
                 (mode == PAN_SIM_ROUND_RTN && neg);
   return sign | (to_inf ? inf : inf - 1);
}

/*
 * The double's magnitude is m * 2^(e - 52) with m < 2^53.  Keep the bits at
 * or above the target's lsb and round on the dropped remainder.
 */
uint32_t
pan_sim_fp_round_f64(double x, enum pan_sim_round mode, unsigned ebits,
                     unsigned mbits)
{
   uint64_t bits;
   memcpy(&bits, &x, 8);
   bool neg = bits >> 63;
   uint32_t sign = (uint32_t)neg << (ebits + mbits);
   int bias = (1 << (ebits - 1)) - 1, emin = 1 - bias;
   int e = (int)((bits >> 52) & 0x7ff);
   uint64_t m = bits & ((1ull << 52) - 1);

   if (e == 0x7ff)
      return m ? (mbits == 10 ? PAN_SIM_NAN16 : PAN_SIM_NAN32)
               : sign | ((1u << ebits) - 1) << mbits;
   if (e == 0 && m == 0)
      return sign;
   if (e == 0)
      e = 1; /* double denormal */
   else
      m |= 1ull << 52;
   e -= 1023;

   int lsb = (e > emin ? e : emin) - (int)mbits;
   unsigned shift = lsb - (e - 52); /* >= 52 - mbits > 0 */
   uint64_t q, rem, half;
   if (shift >= 64) {
      q = 0, rem = 1, half = 2; /* far below half of the lsb */
   } else {
      q = m >> shift;
      rem = m & ((1ull << shift) - 1);
      half = 1ull << (shift - 1);
   }
   bool up;
   switch (mode) {
   case PAN_SIM_ROUND_RTE:
      up = rem > half || (rem == half && (q & 1));
      break;
   case PAN_SIM_ROUND_RTP:
      up = !neg && rem;
      break;
   case PAN_SIM_ROUND_RTN:
      up = neg && rem;
      break;
   default:
      up = false;
      break;
   }
   q += up;

   /* q counts units of 2^lsb; q >= 2^mbits means a normal number. */
   if (e < emin) {
      /* Denormal range: the encoding is q itself, and a carry into
       * 2^mbits is exactly the smallest normal. */
      return sign | (uint32_t)q;
   }
   if (q >= (2ull << mbits)) {
      q >>= 1;
      e++;
   }
   int exp_field = e + bias;
   if (exp_field >= (1 << ebits) - 1)
      return overflow(neg, mode, ebits, mbits);
   return sign | (uint32_t)exp_field << mbits |
          ((uint32_t)q & ((1u << mbits) - 1));
}

uint32_t
pan_sim_fp_round_f64_tail(double x, double tail, enum pan_sim_round mode,
                          unsigned ebits, unsigned mbits)
{
   /* Round to odd: an inexact x with an even last bit moves one double
    * ulp towards the exact value.  With 53 bits against at most 24 in the
    * target, rounding that odd double gives the correctly rounded result. */
   uint64_t bits;
   memcpy(&bits, &x, 8);
   if (tail != 0 && !(bits & 1) && isfinite(x))
      x = nextafter(x, tail > 0 ? INFINITY : -INFINITY);
   return pan_sim_fp_round_f64(x, mode, ebits, mbits);
}

double
pan_sim_fp_f16_to_f64(uint16_t h)
{
   int e = (h >> 10) & 0x1f;
   unsigned m = h & 0x3ff;
   double v;

   if (e == 0x1f)
      v = m ? NAN : INFINITY;
   else if (e == 0)
      v = ldexp(m, -24);
   else
      v = ldexp(m | 0x400, e - 25);
   return (h & 0x8000) ? -v : v;
}

uint32_t
pan_sim_fp_f16_to_f32(uint16_t h)
{
   if (pan_sim_fp_is_nan16(h))
      return PAN_SIM_NAN32 | (uint32_t)(h & 0x8000) << 16 |
             (uint32_t)(h & 0x1ff) << 13;
   return pan_sim_fp_u32((float)pan_sim_fp_f16_to_f64(h));
}

uint16_t
pan_sim_fp_f32_to_f16(uint32_t f, enum pan_sim_round mode)
{
   if (pan_sim_fp_is_nan32(f))
      return PAN_SIM_NAN16;
   return pan_sim_fp_round_f64(pan_sim_fp_f32(f), mode, 5, 10);
}

double
pan_sim_fp_clamp(double x, const char *clamp)
{
   /* min/max return the number when the other side is NaN, and order
    * -0 below +0, so NaN clamps to the low bound. */
   if (!clamp || !strcmp(clamp, "none"))
      return x;
   double lo = !strcmp(clamp, "clamp_m1_1") ? -1.0 : 0.0;
   if (isnan(x) || x < lo || (x == 0 && lo == 0 && signbit(x)))
      x = lo;
   if (strcmp(clamp, "clamp_0_inf") && x > 1.0)
      x = 1.0;
   return x;
}
