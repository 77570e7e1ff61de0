/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The packed invocation word of v4-v7 compute, vertex and tiler jobs: the
 * workgroup size x, y, z and the workgroup counts x, y, z, each stored as
 * value - 1 in just enough bits, one after the other; the job gives the
 * bit where each field after the first starts.
 */

#ifndef PAN_INVOCATION_H
#define PAN_INVOCATION_H

#include <stdbool.h>
#include <stdint.h>

#include "util/u_math.h"

struct panfrost_invocation {
   uint32_t word;
   /* First bit of size y, size z, count x, count y, count z. */
   unsigned shift[5];
};

/* false when a value is 0 or the six fields do not fit in 32 bits. */
static inline bool
panfrost_invocation_pack(const unsigned size[3], const unsigned count[3],
                         struct panfrost_invocation *out)
{
   const unsigned v[6] = { size[0],  size[1],  size[2],
                           count[0], count[1], count[2] };
   uint64_t word = 0;
   unsigned bit = 0;

   for (unsigned i = 0; i < 6; ++i) {
      if (!v[i])
         return false;
      if (i)
         out->shift[i - 1] = bit;
      word |= (uint64_t)(v[i] - 1) << bit;
      bit += util_logbase2_ceil(v[i]);
      if (bit > 32)
         return false;
   }
   out->word = (uint32_t)word;
   return true;
}

#endif /* PAN_INVOCATION_H */
