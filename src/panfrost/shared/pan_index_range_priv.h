/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Between pan_index_range.c and its flavours. */

#ifndef PAN_INDEX_RANGE_PRIV_H
#define PAN_INDEX_RANGE_PRIV_H

#include <string.h>
#include "pan_index_range.h"

/* One flavour: scans n indices of one size starting at p, folding them
 * into *lo / *hi (which start at UINT32_MAX / 0). */
typedef void (*pan_index_scan_fn)(const void *p, size_t n, bool restart,
                                  uint32_t restart_index, uint32_t *lo,
                                  uint32_t *hi);

/* Indexed by size: [0] 1 byte, [1] 2 bytes, [2] 4 bytes */
struct pan_index_flavour {
   pan_index_scan_fn scan[3];
};

extern const struct pan_index_flavour pan_index_portable;
#ifdef PAN_INDEX_HAVE_SSE2
extern const struct pan_index_flavour pan_index_sse2;
#endif
#ifdef PAN_INDEX_HAVE_NEON
extern const struct pan_index_flavour pan_index_neon;
#endif

/* The scalar loop, for the flavours' heads and tails too. */
#define PAN_INDEX_SCALAR(T, p, n, restart, ri, lo, hi)                         \
   do {                                                                        \
      const uint8_t *ip_ = (const uint8_t *)(p);                               \
      for (size_t i_ = 0; i_ < (n); ++i_) {                                    \
         T v_;                                                                 \
         memcpy(&v_, ip_ + i_ * sizeof(T), sizeof(T));                         \
         if ((restart) && v_ == (T)(ri))                                       \
            continue;                                                          \
         *(lo) = v_ < *(lo) ? v_ : *(lo);                                      \
         *(hi) = v_ > *(hi) ? v_ : *(hi);                                      \
      }                                                                        \
   } while (0)

#endif
