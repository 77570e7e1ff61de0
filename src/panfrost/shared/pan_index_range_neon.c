/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The NEON flavour (arm64, and armhf CPUs that have NEON).  NEON folds
 * unsigned lanes of every width directly; restart lanes become the
 * neutral value of each fold (all-ones for min, zero for max).  64 bytes
 * per step in two pairs of accumulators kept in registers; the final
 * reduction goes through memory because ARMv7 has no across-vector
 * min/max.  Byte loads need no alignment; wider lanes reinterpret them.
 */

#include <arm_neon.h>
#include "pan_index_range_priv.h"

#define NEON_SCAN(name, T, lanes, Q, DUP, AS, MIN, MAX, EQ, ORR, BIC, ST)      \
   static void name(const void *p, size_t n, bool restart, uint32_t ri,        \
                    uint32_t *lo, uint32_t *hi)                                \
   {                                                                           \
      const uint8_t *b = p;                                                    \
      size_t steps = n / (4 * lanes);                                          \
      const Q r = DUP((T)ri);                                                  \
      Q mn0 = DUP((T) ~(T)0), mn1 = mn0, mx0 = DUP(0), mx1 = mx0;              \
                                                                               \
      for (size_t s = 0; s < steps; ++s, b += 64) {                            \
         Q v0 = AS(vld1q_u8(b)), v1 = AS(vld1q_u8(b + 16));                    \
         Q v2 = AS(vld1q_u8(b + 32)), v3 = AS(vld1q_u8(b + 48));               \
         Q a0 = v0, a1 = v1, a2 = v2, a3 = v3;                                 \
         Q z0 = v0, z1 = v1, z2 = v2, z3 = v3;                                 \
         if (restart) {                                                        \
            Q m0 = EQ(v0, r), m1 = EQ(v1, r), m2 = EQ(v2, r), m3 = EQ(v3, r);  \
            a0 = ORR(v0, m0), z0 = BIC(v0, m0);                                \
            a1 = ORR(v1, m1), z1 = BIC(v1, m1);                                \
            a2 = ORR(v2, m2), z2 = BIC(v2, m2);                                \
            a3 = ORR(v3, m3), z3 = BIC(v3, m3);                                \
         }                                                                     \
         mn0 = MIN(mn0, MIN(a0, a2)), mn1 = MIN(mn1, MIN(a1, a3));             \
         mx0 = MAX(mx0, MAX(z0, z2)), mx1 = MAX(mx1, MAX(z1, z3));             \
      }                                                                        \
                                                                               \
      T l[lanes], h[lanes];                                                    \
      ST(l, MIN(mn0, mn1));                                                    \
      ST(h, MAX(mx0, mx1));                                                    \
      for (unsigned i = 0; i < lanes && steps; ++i) {                          \
         *lo = l[i] < *lo ? l[i] : *lo;                                        \
         *hi = h[i] > *hi ? h[i] : *hi;                                        \
      }                                                                        \
      PAN_INDEX_SCALAR(T, b, n % (4 * lanes), restart, ri, lo, hi);            \
   }

static inline uint8x16_t
as_u8(uint8x16_t v)
{
   return v;
}

NEON_SCAN(scan8, uint8_t, 16, uint8x16_t, vdupq_n_u8, as_u8, vminq_u8, vmaxq_u8,
          vceqq_u8, vorrq_u8, vbicq_u8, vst1q_u8)
NEON_SCAN(scan16, uint16_t, 8, uint16x8_t, vdupq_n_u16, vreinterpretq_u16_u8,
          vminq_u16, vmaxq_u16, vceqq_u16, vorrq_u16, vbicq_u16, vst1q_u16)
NEON_SCAN(scan32, uint32_t, 4, uint32x4_t, vdupq_n_u32, vreinterpretq_u32_u8,
          vminq_u32, vmaxq_u32, vceqq_u32, vorrq_u32, vbicq_u32, vst1q_u32)

const struct pan_index_flavour pan_index_neon = {
   .scan = { scan8, scan16, scan32 },
};
