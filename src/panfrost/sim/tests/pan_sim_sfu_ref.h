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
