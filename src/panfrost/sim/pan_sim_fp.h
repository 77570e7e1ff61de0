/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Exact binary16/binary32 helpers of the ISA interpreters (Bifrost and
 * Valhall alike): rounding a double to either format under the four
 * rounding modes, widening, clamps, flush-to-zero and the NaN the
 * interpreters produce.
 */

#ifndef PAN_SIM_FP_H
#define PAN_SIM_FP_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum pan_sim_round {
   PAN_SIM_ROUND_RTE,
   PAN_SIM_ROUND_RTP,
   PAN_SIM_ROUND_RTN,
   PAN_SIM_ROUND_RTZ,
};

/* Canonical quiet NaNs written for any NaN result. */
#define PAN_SIM_NAN32 0x7fc00000u
#define PAN_SIM_NAN16 0x7e00u

/* "rte", "rtp"... as named by the round enum; NULL is rte. */
enum pan_sim_round pan_sim_fp_round_mode(const char *name);

/*
 * Round x to a binary format with `ebits` exponent and `mbits` mantissa
 * bits (5/10: binary16, 8/23: binary32).  A NaN gives the canonical NaN.
 */
uint32_t pan_sim_fp_round_f64(double x, enum pan_sim_round mode, unsigned ebits,
                              unsigned mbits);

/*
 * The same for x + tail, where tail is below half an ulp of x in double
 * (an exact sum split by TwoSum): the tail only breaks ties and decides
 * inexactness, so results are correctly rounded.
 */
uint32_t pan_sim_fp_round_f64_tail(double x, double tail, enum pan_sim_round mode,
                                   unsigned ebits, unsigned mbits);

double pan_sim_fp_f16_to_f64(uint16_t h);
uint32_t pan_sim_fp_f16_to_f32(uint16_t h);
uint16_t pan_sim_fp_f32_to_f16(uint32_t f, enum pan_sim_round mode);

/* Destination clamps by clamp enum name ("none", "clamp_0_1"...). */
double pan_sim_fp_clamp(double x, const char *clamp);

static inline float
pan_sim_fp_f32(uint32_t u)
{
   float f;
   memcpy(&f, &u, 4);
   return f;
}

static inline uint32_t
pan_sim_fp_u32(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

static inline bool
pan_sim_fp_is_nan32(uint32_t u)
{
   return (u & 0x7fffffffu) > 0x7f800000u;
}

static inline bool
pan_sim_fp_is_nan16(uint16_t u)
{
   return (u & 0x7fffu) > 0x7c00u;
}

/* Denormal inputs/outputs to a zero of the same sign. */
static inline uint32_t
pan_sim_fp_ftz32(uint32_t u)
{
   return (u & 0x7f800000u) ? u : (u & 0x80000000u);
}

static inline uint16_t
pan_sim_fp_ftz16(uint16_t u)
{
   return (u & 0x7c00u) ? u : (u & 0x8000u);
}

#endif
