/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Exact binary16/binary32 helpers of the Valhall interpreter: rounding a
 * double to either format under the four rounding modes, widening,
 * clamps, flush-to-zero and the NaN the interpreter produces.
 */

#ifndef PAN_SIM_VA_FP_H
#define PAN_SIM_VA_FP_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum va_round {
   VA_ROUND_RTE,
   VA_ROUND_RTP,
   VA_ROUND_RTN,
   VA_ROUND_RTZ,
};

/* Canonical quiet NaNs written for any NaN result. */
#define VA_NAN32 0x7fc00000u
#define VA_NAN16 0x7e00u

/* "rte", "rtp"... as named by the round enum; NULL is rte. */
enum va_round pan_sim_va_round_mode(const char *name);

/*
 * Round x to a binary format with `ebits` exponent and `mbits` mantissa
 * bits (5/10: binary16, 8/23: binary32).  A NaN gives the canonical NaN.
 */
uint32_t pan_sim_va_round_f64(double x, enum va_round mode, unsigned ebits,
                              unsigned mbits);

/*
 * The same for x + tail, where tail is below half an ulp of x in double
 * (an exact sum split by TwoSum): the tail only breaks ties and decides
 * inexactness, so results are correctly rounded.
 */
uint32_t pan_sim_va_round_f64_tail(double x, double tail, enum va_round mode,
                                   unsigned ebits, unsigned mbits);

double pan_sim_va_f16_to_f64(uint16_t h);
uint32_t pan_sim_va_f16_to_f32(uint16_t h);
uint16_t pan_sim_va_f32_to_f16(uint32_t f, enum va_round mode);

/* Destination clamps by clamp enum name ("none", "clamp_0_1"...). */
double pan_sim_va_clamp(double x, const char *clamp);

static inline float
va_f32(uint32_t u)
{
   float f;
   memcpy(&f, &u, 4);
   return f;
}

static inline uint32_t
va_u32(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

static inline bool
va_is_nan32(uint32_t u)
{
   return (u & 0x7fffffffu) > 0x7f800000u;
}

static inline bool
va_is_nan16(uint16_t u)
{
   return (u & 0x7fffu) > 0x7c00u;
}

/* Denormal inputs/outputs to a zero of the same sign. */
static inline uint32_t
va_ftz32(uint32_t u)
{
   return (u & 0x7f800000u) ? u : (u & 0x80000000u);
}

static inline uint16_t
va_ftz16(uint16_t u)
{
   return (u & 0x7c00u) ? u : (u & 0x8000u);
}

#endif
