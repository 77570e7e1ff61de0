/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Alpha to coverage as the simulator models it: of a pixel's `samples`
 * samples, the first round(alpha * samples) (alpha clamped to [0, 1],
 * NaN as 0) stay covered, in sample-index order.  GL leaves the pattern
 * to the implementation and only asks it to grow with alpha; hardware
 * may dither it across pixels, which the simulator does not.
 */

#ifndef PAN_SIM_A2C_H
#define PAN_SIM_A2C_H

#include <stdint.h>
#include <string.h>

static inline uint32_t
pan_sim_a2c_mask(uint32_t alpha_bits, unsigned samples)
{
   float a;
   memcpy(&a, &alpha_bits, 4);
   if (!(a > 0.0f))
      return 0;
   if (a > 1.0f)
      a = 1.0f;
   unsigned n = (unsigned)(a * (float)samples + 0.5f);
   return n >= 32 ? ~0u : (1u << n) - 1;
}

#endif
