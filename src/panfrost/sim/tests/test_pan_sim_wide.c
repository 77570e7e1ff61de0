/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* pan_sim_wide.h against a byte-serial reference (schoolbook carries and
 * bit-by-bit shifts, so it shares no code path with the 64-bit limbs),
 * exhaustively over small values and on edge and random values of every
 * magnitude.  Where the compiler has __int128 it is a second reference. */

#include <float.h>
#include <math.h>

#include "sim/pan_sim_wide.h"
#include "util/pan_test_util.h"

struct ref {
   uint8_t b[16]; /* little-endian two's complement */
};

static struct ref
ref_of(struct pan_wide w)
{
   struct ref r;
   for (unsigned i = 0; i < 16; i++)
      r.b[i] = (i < 8 ? w.lo : w.hi) >> (8 * (i % 8));
   return r;
}

static bool
same(struct pan_wide w, struct ref r)
{
   struct ref o = ref_of(w);
   return !memcmp(o.b, r.b, 16);
}

static unsigned
ref_bit(struct ref a, unsigned k)
{
   return a.b[k / 8] >> (k % 8) & 1;
}

static struct ref
ref_add(struct ref a, struct ref b)
{
   unsigned carry = 0;
   for (unsigned i = 0; i < 16; i++) {
      carry += a.b[i] + b.b[i];
      a.b[i] = carry;
      carry >>= 8;
   }
   return a;
}

static struct ref
ref_neg(struct ref a)
{
   struct ref one = { { 1 } };
   for (unsigned i = 0; i < 16; i++)
      a.b[i] = ~a.b[i];
   return ref_add(a, one);
}

static struct ref
ref_mul(struct ref a, struct ref b)
{
   uint32_t col[16] = { 0 };
   for (unsigned i = 0; i < 16; i++) {
      for (unsigned j = 0; i + j < 16; j++)
         col[i + j] += a.b[i] * b.b[j];
   }
   struct ref r;
   uint32_t carry = 0;
   for (unsigned i = 0; i < 16; i++) {
      carry += col[i];
      r.b[i] = carry;
      carry >>= 8;
   }
   return r;
}

static struct ref
ref_shift(struct ref a, int n) /* n > 0: left, n < 0: arithmetic right */
{
   struct ref r = { { 0 } };
   for (int k = 0; k < 128; k++) {
      int from = k - n;
      if (from > 127)
         from = 127;
      if (from >= 0 && ref_bit(a, from))
         r.b[k / 8] |= 1 << (k % 8);
   }
   return r;
}

static bool
ref_lt(struct ref a, struct ref b)
{
   if (ref_bit(a, 127) != ref_bit(b, 127))
      return ref_bit(a, 127);
   for (int i = 15; i >= 0; i--) {
      if (a.b[i] != b.b[i])
         return a.b[i] < b.b[i];
   }
   return false;
}

/* An integer-valued double below 2^127, exactly. */
static struct ref
ref_from_double(double d)
{
   int e;
   double m = frexp(fabs(d), &e);
   int64_t mant = (int64_t)ldexp(m, 53); /* 53 significant bits */
   struct ref r;
   for (unsigned i = 0; i < 16; i++)
      r.b[i] = i < 8 ? (uint64_t)mant >> (8 * i) : 0;
   r = ref_shift(r, e - 53);
   return d < 0 ? ref_neg(r) : r;
}

/* A lane bound: +-2^(bits-1) or 2^bits, minus one for the maxima. */
static struct ref
ref_bound(unsigned bits, bool sign, bool max)
{
   struct ref one = { { 1 } }, z = { { 0 } };
   struct ref p = ref_shift(one, sign ? bits - 1 : bits);
   if (max)
      return ref_add(p, ref_neg(one));
   return sign ? ref_neg(p) : z;
}

/* --- Values -------------------------------------------------------------- */

static struct pan_wide vals[600];
static unsigned nvals;

static void
make_values(void)
{
   static const uint64_t edge[][2] = {
      { 0, 0 },
      { 1, 0 },
      { ~0ull, ~0ull }, /* -1 */
      { 2, 0 },
      { 0x7fffffffffffffffull, 0 },
      { 0x8000000000000000ull, 0 },
      { 0x8000000000000000ull, ~0ull }, /* INT64_MIN */
      { 0x7fffffffffffffffull, ~0ull }, /* INT64_MIN - 1 */
      { ~0ull, 0 },                     /* UINT64_MAX */
      { 0, 1 },                         /* 2^64 */
      { ~0ull, 0x7fffffffffffffffull }, /* max */
      { 0, 0x8000000000000000ull },     /* min */
      { 1, 0x8000000000000000ull },
      { 0x20000000000001ull, 0 }, /* 2^53 + 1 */
      { 0x20000000000003ull, 0 },
      { 0x10000000000000ull, 0x40 },
      /* 2^70 + ...: half an ulp of the double is 2^17 */
      { 0x20000, 0x40 }, /* a tie to the even below */
      { 0x60000, 0x40 }, /* a tie to the even above */
      { 0x20001, 0x40 }, /* just above a tie: the dropped bits count */
      { 0xffffffff00000000ull, 0xffffffffull },
   };
   for (unsigned i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
      struct pan_wide v = { edge[i][0], edge[i][1] };
      vals[nvals++] = v;
      vals[nvals++] = pan_wide_neg(v);
   }
   /* Random values of every length: the 64-bit boundary and the double's
    * rounding are where the limbs can go wrong. */
   uint64_t rng = 0x9e3779b97f4a7c15ull;
   while (nvals < sizeof(vals) / sizeof(vals[0])) {
      unsigned len = pan_test_rng64(&rng) % 129;
      struct pan_wide v = { pan_test_rng64(&rng), pan_test_rng64(&rng) };
      if (len < 128) {
         struct pan_wide m =
            pan_wide_sub(pan_wide_shl(pan_wide_u64(1), len), pan_wide_u64(1));
         v = pan_wide_and(v, len ? m : pan_wide_u64(0));
      }
      if (pan_test_rng64(&rng) & 1)
         v = pan_wide_neg(v);
      vals[nvals++] = v;
   }
}

/* --- Cases --------------------------------------------------------------- */

static void
check_pair(struct pan_wide a, struct pan_wide b)
{
   struct ref ra = ref_of(a), rb = ref_of(b);
   bool lt = ref_lt(ra, rb), gt = ref_lt(rb, ra);

   PAN_CHECK(same(pan_wide_add(a, b), ref_add(ra, rb)), "add %llx:%llx",
             (unsigned long long)a.hi, (unsigned long long)a.lo);
   PAN_CHECK(same(pan_wide_sub(a, b), ref_add(ra, ref_neg(rb))), "sub");
   PAN_CHECK(same(pan_wide_mul(a, b), ref_mul(ra, rb)), "mul %llx:%llx",
             (unsigned long long)a.hi, (unsigned long long)a.lo);
   PAN_EXPECT(pan_wide_lt(a, b) == lt);
   PAN_EXPECT(pan_wide_le(a, b) == !gt);
   PAN_EXPECT(pan_wide_eq(a, b) == (!lt && !gt));
   PAN_EXPECT(pan_wide_eq(pan_wide_min(a, b), gt ? b : a));
   PAN_EXPECT(pan_wide_eq(pan_wide_max(a, b), lt ? b : a));

   struct ref and, or, xor;
   for (unsigned i = 0; i < 16; i++) {
      and.b[i] = ra.b[i] & rb.b[i];
      or.b[i] = ra.b[i] | rb.b[i];
      xor.b[i] = ra.b[i] ^ rb.b[i];
   }
   PAN_EXPECT(same(pan_wide_and(a, b), and));
   PAN_EXPECT(same(pan_wide_or(a, b), or));
   PAN_EXPECT(same(pan_wide_xor(a, b), xor));
   PAN_EXPECT(same(pan_wide_not(pan_wide_xor(a, b)),
                   ref_add(ref_neg(xor), ref_neg((struct ref){ { 1 } }))));

   /* The 64x64 product the interpreter's multiplies use. */
   struct ref la = ref_of(pan_wide_u64(a.lo)), lb = ref_of(pan_wide_u64(b.lo));
   PAN_CHECK(same(pan_wide_mul_u64(a.lo, b.lo), ref_mul(la, lb)),
             "mul_u64 %llx * %llx", (unsigned long long)a.lo,
             (unsigned long long)b.lo);

#ifdef __SIZEOF_INT128__
   typedef __int128 i128;
   i128 x = (i128)((unsigned __int128)a.hi << 64 | a.lo);
   i128 y = (i128)((unsigned __int128)b.hi << 64 | b.lo);
   unsigned __int128 p = (unsigned __int128)x * (unsigned __int128)y;
   struct pan_wide m = pan_wide_mul(a, b);
   PAN_EXPECT(m.lo == (uint64_t)p && m.hi == (uint64_t)(p >> 64));
   PAN_EXPECT(pan_wide_lt(a, b) == (x < y));
#endif
}

static void
test_pairs(void)
{
   for (unsigned i = 0; i < nvals; i++) {
      for (unsigned j = 0; j < nvals; j += 1 + (i * 7 + j) % 5)
         check_pair(vals[i], vals[j]);
   }
   /* Exhaustive over 9-bit signed operands: every carry and borrow
    * pattern of the low byte, sign-extended through both limbs. */
   for (int a = -256; a < 256; a++) {
      for (int b = -256; b < 256; b++)
         check_pair(pan_wide_i64(a), pan_wide_i64(b));
   }
}

static void
test_shifts(void)
{
   for (unsigned i = 0; i < nvals; i++) {
      struct ref r = ref_of(vals[i]);
      for (unsigned n = 0; n < 128; n++) {
         PAN_CHECK(same(pan_wide_shl(vals[i], n), ref_shift(r, n)), "shl %u",
                   n);
         PAN_CHECK(same(pan_wide_sar(vals[i], n), ref_shift(r, -(int)n)),
                   "sar %u of %llx:%llx", n, (unsigned long long)vals[i].hi,
                   (unsigned long long)vals[i].lo);
      }
   }
}

static void
test_sat(void)
{
   for (unsigned i = 0; i < nvals; i++) {
      struct ref r = ref_of(vals[i]);
      for (unsigned bits = 1; bits <= 64; bits++) {
         for (int sign = 0; sign < 2; sign++) {
            struct ref lo = ref_bound(bits, sign, false);
            struct ref hi = ref_bound(bits, sign, true);
            struct ref want = ref_lt(r, lo) ? lo : ref_lt(hi, r) ? hi : r;
            PAN_CHECK(same(pan_wide_sat(vals[i], bits, sign), want),
                      "sat %u %s", bits, sign ? "signed" : "unsigned");
         }
      }
   }
   PAN_EXPECT(same(pan_wide_lane_max(127, true), ref_bound(127, true, true)));
   PAN_EXPECT(same(pan_wide_lane_min(127, true), ref_bound(127, true, false)));
}

/* |v - d| compared exactly, for d an integer-valued double. */
static struct ref
ref_dist(struct ref v, double d)
{
   struct ref diff = ref_add(v, ref_neg(ref_from_double(d)));
   return ref_bit(diff, 127) ? ref_neg(diff) : diff;
}

static void
test_to_double(void)
{
   for (unsigned i = 0; i < nvals; i++) {
      struct ref r = ref_of(vals[i]);
      double d = pan_wide_to_double(vals[i]);
      if (fabs(d) >= 0x1p127) { /* only -2^127 itself (and the max) */
         PAN_EXPECT(vals[i].hi >> 62 == 1 || vals[i].hi >> 62 == 2);
         continue;
      }
      /* The nearest double, ties to the even significand. */
      struct ref dist = ref_dist(r, d);
      for (int s = -1; s <= 1; s += 2) {
         double n = nextafter(d, s * INFINITY);
         if (fabs(n) >= 0x1p127)
            continue;
         struct ref nd = ref_dist(r, n);
         bool tie = !ref_lt(dist, nd) && !ref_lt(nd, dist);
         int e;
         bool even = !((uint64_t)ldexp(frexp(fabs(d), &e), 53) & 1);
         PAN_CHECK(ref_lt(dist, nd) || (tie && even),
                   "to_double %llx:%llx -> %a", (unsigned long long)vals[i].hi,
                   (unsigned long long)vals[i].lo, d);
      }
#ifdef __SIZEOF_INT128__
      __int128 x = (__int128)((unsigned __int128)vals[i].hi << 64 | vals[i].lo);
      PAN_EXPECT(d == (double)x);
#endif
   }
}

static void
test_from_double(void)
{
   uint64_t rng = 0x243f6a8885a308d3ull;
   for (unsigned i = 0; i < 20000; i++) {
      int e = (int)(pan_test_rng64(&rng) % 128) - 1;
      double m = 0.5 + (pan_test_rng64(&rng) >> 12) * 0x1p-53;
      double d = ldexp(m, e);
      if (pan_test_rng64(&rng) & 1)
         d = -d;
      struct pan_wide w = pan_wide_from_double(d);
      PAN_CHECK(same(w, ref_from_double(trunc(d))), "from_double %a", d);
#ifdef __SIZEOF_INT128__
      __int128 x = (__int128)d;
      PAN_EXPECT(w.lo == (uint64_t)x && w.hi == (uint64_t)(x >> 64));
#endif
   }
   PAN_EXPECT(same(pan_wide_from_double(-0.75), ref_of(pan_wide_u64(0))));
   PAN_EXPECT(
      same(pan_wide_from_double(-0x1p63), ref_of(pan_wide_i64(INT64_MIN))));
}

/* Known answers, so the reference itself is pinned. */
static void
test_known(void)
{
   struct pan_wide p = pan_wide_mul_u64(~0ull, ~0ull); /* 2^128 - 2^65 + 1 */
   PAN_EXPECT_EQ(p.hi, 0xfffffffffffffffeull);
   PAN_EXPECT_EQ(p.lo, 1);
   p = pan_wide_mul(pan_wide_i64(INT64_MIN), pan_wide_i64(-1)); /* 2^63 */
   PAN_EXPECT_EQ(p.hi, 0);
   PAN_EXPECT_EQ(p.lo, 0x8000000000000000ull);
   PAN_EXPECT(pan_wide_lt(pan_wide_i64(-1), pan_wide_u64(~0ull)));
   PAN_EXPECT_EQ(pan_wide_sat(pan_wide_u64(300), 8, false).lo, 255);
   PAN_EXPECT_EQ(pan_wide_sat(pan_wide_i64(-300), 8, true).lo, (uint64_t)-128);
   PAN_EXPECT(pan_wide_to_double(pan_wide_u64(~0ull)) == 0x1p64);
   PAN_EXPECT(pan_wide_to_double((struct pan_wide){ 0, 1ull << 63 }) ==
              -0x1p127);
   PAN_EXPECT(pan_wide_to_double(pan_wide_i64(-3)) == -3.0);
   PAN_EXPECT_EQ(pan_wide_sar(pan_wide_i64(-5), 1).lo, (uint64_t)-3);
}

int
main(void)
{
   make_values();
   PAN_RUN_CASE(test_known);
   PAN_RUN_CASE(test_pairs);
   PAN_RUN_CASE(test_shifts);
   PAN_RUN_CASE(test_sat);
   PAN_RUN_CASE(test_to_double);
   PAN_RUN_CASE(test_from_double);
   return pan_test_summary("pan_sim_wide");
}
