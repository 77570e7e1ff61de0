/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The SSE2 flavour (x86-64 baseline).  64 bytes per step in two pairs of
 * accumulators kept in registers.  SSE2 compares and folds 16-bit and
 * 32-bit lanes as signed numbers only, so those lanes are biased by their
 * sign bit first, which maps unsigned order onto signed order.  Restart
 * lanes become the neutral value of each fold (all-ones for min, zero for
 * max) before the bias.
 */

#include <emmintrin.h>
#include "pan_index_range_priv.h"

#define LD(p, k)                                                               \
   _mm_loadu_si128((const __m128i *)(const void *)((p) + 16 * (k)))

/* Signed 32-bit min/max by compare and select (SSE4.1 has them) */
static inline __m128i
min_epi32(__m128i x, __m128i y)
{
   __m128i gt = _mm_cmpgt_epi32(x, y);
   return _mm_or_si128(_mm_and_si128(gt, y), _mm_andnot_si128(gt, x));
}

static inline __m128i
max_epi32(__m128i x, __m128i y)
{
   __m128i gt = _mm_cmpgt_epi32(x, y);
   return _mm_or_si128(_mm_and_si128(gt, x), _mm_andnot_si128(gt, y));
}

/*
 * One flavour per lane width: EQ compares lanes, MIN/MAX fold them in the
 * order of the biased lanes, BIAS is xor-ed into every lane (0 for bytes,
 * which SSE2 folds unsigned), LO/HI are the biased neutral values.
 */
#define SSE2_SCAN(name, T, lanes, EQ, MIN, MAX, SET1, BIAS, LO, HI)            \
   static void name(const void *p, size_t n, bool restart, uint32_t ri,        \
                    uint32_t *lo, uint32_t *hi)                                \
   {                                                                           \
      const uint8_t *b = p;                                                    \
      size_t steps = n / (4 * lanes);                                          \
      const __m128i bias = SET1(BIAS), r = SET1((T)ri);                        \
      __m128i mn0 = SET1(LO), mn1 = mn0, mx0 = SET1(HI), mx1 = mx0;            \
                                                                               \
      for (size_t s = 0; s < steps; ++s, b += 64) {                            \
         __m128i v0 = LD(b, 0), v1 = LD(b, 1), v2 = LD(b, 2), v3 = LD(b, 3);   \
         __m128i a0 = v0, a1 = v1, a2 = v2, a3 = v3;                           \
         __m128i z0 = v0, z1 = v1, z2 = v2, z3 = v3;                           \
         if (restart) {                                                        \
            __m128i m0 = EQ(v0, r), m1 = EQ(v1, r);                            \
            __m128i m2 = EQ(v2, r), m3 = EQ(v3, r);                            \
            a0 = _mm_or_si128(v0, m0), z0 = _mm_andnot_si128(m0, v0);          \
            a1 = _mm_or_si128(v1, m1), z1 = _mm_andnot_si128(m1, v1);          \
            a2 = _mm_or_si128(v2, m2), z2 = _mm_andnot_si128(m2, v2);          \
            a3 = _mm_or_si128(v3, m3), z3 = _mm_andnot_si128(m3, v3);          \
         }                                                                     \
         mn0 =                                                                 \
            MIN(mn0, MIN(_mm_xor_si128(a0, bias), _mm_xor_si128(a2, bias)));   \
         mn1 =                                                                 \
            MIN(mn1, MIN(_mm_xor_si128(a1, bias), _mm_xor_si128(a3, bias)));   \
         mx0 =                                                                 \
            MAX(mx0, MAX(_mm_xor_si128(z0, bias), _mm_xor_si128(z2, bias)));   \
         mx1 =                                                                 \
            MAX(mx1, MAX(_mm_xor_si128(z1, bias), _mm_xor_si128(z3, bias)));   \
      }                                                                        \
                                                                               \
      T l[lanes], h[lanes];                                                    \
      _mm_storeu_si128((__m128i *)(void *)l,                                   \
                       _mm_xor_si128(MIN(mn0, mn1), bias));                    \
      _mm_storeu_si128((__m128i *)(void *)h,                                   \
                       _mm_xor_si128(MAX(mx0, mx1), bias));                    \
      for (unsigned i = 0; i < lanes && steps; ++i) {                          \
         *lo = l[i] < *lo ? l[i] : *lo;                                        \
         *hi = h[i] > *hi ? h[i] : *hi;                                        \
      }                                                                        \
      PAN_INDEX_SCALAR(T, b, n % (4 * lanes), restart, ri, lo, hi);            \
   }

SSE2_SCAN(scan8, uint8_t, 16, _mm_cmpeq_epi8, _mm_min_epu8, _mm_max_epu8,
          _mm_set1_epi8, 0, -1, 0)
SSE2_SCAN(scan16, uint16_t, 8, _mm_cmpeq_epi16, _mm_min_epi16, _mm_max_epi16,
          _mm_set1_epi16, INT16_MIN, INT16_MAX, INT16_MIN)
SSE2_SCAN(scan32, uint32_t, 4, _mm_cmpeq_epi32, min_epi32, max_epi32,
          _mm_set1_epi32, INT32_MIN, INT32_MAX, INT32_MIN)

const struct pan_index_flavour pan_index_sse2 = {
   .scan = { scan8, scan16, scan32 },
};
