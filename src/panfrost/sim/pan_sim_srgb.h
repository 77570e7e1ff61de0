/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The sRGB transfer function of the blend unit, for render targets whose
 * blend descriptor has the sRGB bit: the tile buffer holds encoded
 * values, blending happens on linear ones (the destination decoded, the
 * result encoded before the tile buffer rounds it to its precision).
 * Alpha is never converted.
 */

#ifndef PAN_SIM_SRGB_H
#define PAN_SIM_SRGB_H

#include <math.h>
#include <stdbool.h>

static inline float
pan_sim_srgb_decode(float v)
{
   return v <= 0.04045f ? v / 12.92f : powf((v + 0.055f) / 1.055f, 2.4f);
}

/* v in [0, 1]. */
static inline float
pan_sim_srgb_encode(float v)
{
   return v <= 0.0031308f ? v * 12.92f : 1.055f * powf(v, 1.0f / 2.4f) - 0.055f;
}

/* The colour channels of rgba decoded (encode false) or encoded. */
static inline void
pan_sim_srgb_convert(float rgba[4], bool encode)
{
   for (unsigned c = 0; c < 3; ++c)
      rgba[c] =
         encode ? pan_sim_srgb_encode(rgba[c]) : pan_sim_srgb_decode(rgba[c]);
}

#endif
