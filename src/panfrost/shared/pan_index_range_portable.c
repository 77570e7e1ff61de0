/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The portable flavour, for CPUs without a SIMD one.  Restarts become the
 * neutral value of each fold instead of a branch, and the folds run in
 * the index type, so compilers can vectorise the loop themselves.  When
 * nothing counts the folds end at (all-ones, 0): min > max, which is how
 * the caller tells an empty range.
 */

#include "pan_index_range_priv.h"

#define PORTABLE_SCAN(T, name)                                                 \
   static void name(const void *p, size_t n, bool restart, uint32_t ri,        \
                    uint32_t *lo, uint32_t *hi)                                \
   {                                                                           \
      const uint8_t *b = p;                                                    \
      T r = restart ? (T)ri : 0, mn = (T) ~(T)0, mx = 0;                       \
      bool skip = restart;                                                     \
      for (size_t i = 0; i < n; ++i) {                                         \
         T v;                                                                  \
         memcpy(&v, b + i * sizeof(T), sizeof(T));                             \
         bool is_r = skip && v == r;                                           \
         T a = is_r ? (T) ~(T)0 : v, z = is_r ? 0 : v;                         \
         mn = a < mn ? a : mn;                                                 \
         mx = z > mx ? z : mx;                                                 \
      }                                                                        \
      *lo = mn < *lo ? mn : *lo;                                               \
      *hi = mx > *hi ? mx : *hi;                                               \
   }

PORTABLE_SCAN(uint8_t, scan8)
PORTABLE_SCAN(uint16_t, scan16)
PORTABLE_SCAN(uint32_t, scan32)

const struct pan_index_flavour pan_index_portable = {
   .scan = { scan8, scan16, scan32 },
};
