/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* A 128-bit two's-complement integer for the ISA interpreters: integer
 * lanes are evaluated at full precision (a 64x64 product, a 64-bit add
 * with its carry) before the output stage saturates or keeps a half.
 * 32-bit targets have no __int128, so this portable form is used on every
 * target and all of them run the same code.
 *
 * Arithmetic wraps modulo 2^128; compares, arithmetic shifts, saturation
 * and conversions read the value as signed, which holds every signed or
 * unsigned 64-bit lane exactly.
 */

#ifndef PAN_SIM_WIDE_H
#define PAN_SIM_WIDE_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

struct pan_wide {
   uint64_t lo, hi;
};

static inline struct pan_wide
pan_wide_i64(int64_t v)
{
   return (struct pan_wide){ (uint64_t)v, v < 0 ? ~0ull : 0 };
}

static inline struct pan_wide
pan_wide_u64(uint64_t v)
{
   return (struct pan_wide){ v, 0 };
}

static inline bool
pan_wide_neg_p(struct pan_wide a)
{
   return a.hi >> 63;
}

static inline struct pan_wide
pan_wide_add(struct pan_wide a, struct pan_wide b)
{
   uint64_t lo = a.lo + b.lo;
   return (struct pan_wide){ lo, a.hi + b.hi + (lo < a.lo) };
}

static inline struct pan_wide
pan_wide_sub(struct pan_wide a, struct pan_wide b)
{
   return (struct pan_wide){ a.lo - b.lo, a.hi - b.hi - (a.lo < b.lo) };
}

static inline struct pan_wide
pan_wide_neg(struct pan_wide a)
{
   return pan_wide_sub(pan_wide_u64(0), a);
}

/* The full unsigned product of two 64-bit values, from 32-bit halves. */
static inline struct pan_wide
pan_wide_mul_u64(uint64_t a, uint64_t b)
{
   uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
   uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
   /* The middle column: cannot overflow (three 32-bit terms). */
   uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
   return (struct pan_wide){ (mid << 32) | (uint32_t)ll,
                             hh + (lh >> 32) + (hl >> 32) + (mid >> 32) };
}

/* Product modulo 2^128 (exact for any two 64-bit signed or unsigned
 * values, the interpreter's case). */
static inline struct pan_wide
pan_wide_mul(struct pan_wide a, struct pan_wide b)
{
   struct pan_wide p = pan_wide_mul_u64(a.lo, b.lo);
   p.hi += a.lo * b.hi + a.hi * b.lo;
   return p;
}

/* Shifts by 0..127. */
static inline struct pan_wide
pan_wide_shl(struct pan_wide a, unsigned n)
{
   if (n >= 64)
      return (struct pan_wide){ 0, a.lo << (n - 64) };
   if (n == 0)
      return a;
   return (struct pan_wide){ a.lo << n, a.hi << n | a.lo >> (64 - n) };
}

/* Arithmetic (sign-filling) shift right. */
static inline struct pan_wide
pan_wide_sar(struct pan_wide a, unsigned n)
{
   uint64_t fill = pan_wide_neg_p(a) ? ~0ull : 0;
   if (n >= 64) {
      uint64_t lo = n == 64 ? a.hi : (a.hi >> (n - 64)) | fill << (128 - n);
      return (struct pan_wide){ lo, fill };
   }
   if (n == 0)
      return a;
   return (struct pan_wide){ a.lo >> n | a.hi << (64 - n),
                             a.hi >> n | fill << (64 - n) };
}

static inline struct pan_wide
pan_wide_and(struct pan_wide a, struct pan_wide b)
{
   return (struct pan_wide){ a.lo & b.lo, a.hi & b.hi };
}

static inline struct pan_wide
pan_wide_or(struct pan_wide a, struct pan_wide b)
{
   return (struct pan_wide){ a.lo | b.lo, a.hi | b.hi };
}

static inline struct pan_wide
pan_wide_xor(struct pan_wide a, struct pan_wide b)
{
   return (struct pan_wide){ a.lo ^ b.lo, a.hi ^ b.hi };
}

static inline struct pan_wide
pan_wide_not(struct pan_wide a)
{
   return (struct pan_wide){ ~a.lo, ~a.hi };
}

static inline bool
pan_wide_eq(struct pan_wide a, struct pan_wide b)
{
   return a.lo == b.lo && a.hi == b.hi;
}

/* Signed a < b. */
static inline bool
pan_wide_lt(struct pan_wide a, struct pan_wide b)
{
   if (a.hi != b.hi)
      return (int64_t)a.hi < (int64_t)b.hi;
   return a.lo < b.lo;
}

static inline bool
pan_wide_le(struct pan_wide a, struct pan_wide b)
{
   return !pan_wide_lt(b, a);
}

static inline struct pan_wide
pan_wide_min(struct pan_wide a, struct pan_wide b)
{
   return pan_wide_lt(b, a) ? b : a;
}

static inline struct pan_wide
pan_wide_max(struct pan_wide a, struct pan_wide b)
{
   return pan_wide_lt(a, b) ? b : a;
}

/* The range of a bits-wide lane (bits 1..127 signed, 0..127 unsigned). */
static inline struct pan_wide
pan_wide_lane_min(unsigned bits, bool sign)
{
   return sign ? pan_wide_neg(pan_wide_shl(pan_wide_u64(1), bits - 1))
               : pan_wide_u64(0);
}

static inline struct pan_wide
pan_wide_lane_max(unsigned bits, bool sign)
{
   return pan_wide_sub(pan_wide_shl(pan_wide_u64(1), sign ? bits - 1 : bits),
                       pan_wide_u64(1));
}

/* Clamp to the range of a bits-wide signed or unsigned lane. */
static inline struct pan_wide
pan_wide_sat(struct pan_wide v, unsigned bits, bool sign)
{
   return pan_wide_max(pan_wide_min(v, pan_wide_lane_max(bits, sign)),
                       pan_wide_lane_min(bits, sign));
}

/* Round to nearest, ties to even, as a C conversion of an integer. */
static inline double
pan_wide_to_double(struct pan_wide a)
{
   if (a.hi == (uint64_t)((int64_t)a.lo >> 63))
      return (double)(int64_t)a.lo; /* fits in 64 bits */
   bool neg = pan_wide_neg_p(a);
   struct pan_wide m = neg ? pan_wide_neg(a) : a; /* -2^127: read unsigned */
   if (!m.hi)
      return neg ? -(double)m.lo : (double)m.lo;
   /* The top 64 significant bits with a sticky bit for the ones below:
    * rounding that 64-bit value once rounds the whole correctly. */
   unsigned drop = 64 - __builtin_clzll(m.hi); /* 1..64 */
   uint64_t top, below;
   if (drop == 64) {
      top = m.hi;
      below = m.lo;
   } else {
      top = m.lo >> drop | m.hi << (64 - drop);
      below = m.lo << (64 - drop);
   }
   double d = ldexp((double)(top | (below != 0)), drop);
   return neg ? -d : d;
}

/* Truncating conversion of a finite double below 2^127 in magnitude. */
static inline struct pan_wide
pan_wide_from_double(double d)
{
   if (fabs(d) < 9223372036854775808.0)
      return pan_wide_i64((int64_t)d);
   int e;
   double m = frexp(fabs(d), &e); /* |d| = m * 2^e, e in 64..127 */
   struct pan_wide v =
      pan_wide_shl(pan_wide_u64((uint64_t)ldexp(m, 64)), e - 64);
   return d < 0 ? pan_wide_neg(v) : v;
}

#endif
