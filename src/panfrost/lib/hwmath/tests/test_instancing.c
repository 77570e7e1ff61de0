/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Instancing math against independent models:
 *  - padded counts: the small-count table written out by hand, and for
 *    20..1,000,000 (or more with "slow") a search of the sorted set of
 *    allowed padded values;
 *  - magic divisors: the hardware formula must give floor(x / d) for edge
 *    and random x, every d in 1..2^20 (2^24 with "slow") and random d;
 *  - addressing modes: element indices of whole draws against plain
 *    division.
 *
 * Usage: test_instancing [slow]
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/pan_test_util.h"
#include "pan_instancing.h"


static uint64_t rng_state = 0x243f6a8885a308d3ull;

static uint32_t
rng(void)
{
   return (uint32_t)(pan_test_rng64(&rng_state) >> 32);
}

/* Allowed large paddings: 9, 10, 12, 14, 16 times 2^n, sorted. */
static unsigned n_allowed;
static uint64_t allowed[5 * 32];

static int
cmp_u64(const void *a, const void *b)
{
   uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
   return x < y ? -1 : x > y;
}

static void
build_allowed(void)
{
   static const unsigned mult[] = { 9, 10, 12, 14, 16 };
   for (unsigned n = 0; n < 30; ++n)
      for (unsigned i = 0; i < 5; ++i)
         allowed[n_allowed++] = (uint64_t)mult[i] << n;
   qsort(allowed, n_allowed, sizeof(allowed[0]), cmp_u64);
}

static void
test_padded(unsigned max_count)
{
   /* Small counts, written out */
   static const unsigned small[20] = {
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 12, 14, 14, 16, 16, 18, 18, 20,
   };
   for (unsigned c = 0; c < 20; ++c) {
      PAN_CHECK(pan_padded_vertex_count(c) == small[c], "padded(%u) = %u, want %u",
            c, pan_padded_vertex_count(c), small[c]);
   }

   /* Large: the hardware keeps the top four bits of the count and takes the
    * next allowed value strictly above that truncated count. */
   unsigned idx = 0;
   for (unsigned c = 20; c <= max_count; ++c) {
      unsigned top = 31 - __builtin_clz(c);
      uint64_t truncated = (uint64_t)(c >> (top - 3)) << (top - 3);

      while (allowed[idx] <= truncated)
         idx++;
      /* allowed[] is monotonic in c, so idx only moves forward */
      uint64_t want = allowed[idx];
      while (idx > 0 && allowed[idx - 1] > truncated)
         idx--;
      want = allowed[idx];

      unsigned got = pan_padded_vertex_count(c);
      struct pan_padded_encoding enc;
      PAN_CHECK(got == want, "padded(%u) = %u, want %" PRIu64, c, got, want);
      PAN_CHECK(got >= c, "padded(%u) = %u is smaller", c, got);
      PAN_CHECK(pan_encode_padded_count(got, &enc) &&
               ((2 * enc.odd_half + 1) << enc.shift) == got,
            "padded(%u) = %u not encodable", c, got);
   }

   PAN_CHECK(pan_padded_vertex_count(UINT32_MAX) == 0, "huge count not rejected");
   PAN_CHECK(pan_padded_vertex_count(0xDFFFFFFF) == 0xE0000000u,
         "largest encodable padding wrong");
}

static void
check_divide(uint32_t d, uint32_t x, uint32_t magic, unsigned shift,
             unsigned rd)
{
   uint32_t got = pan_magic_divide(x, magic, shift, rd);
   PAN_CHECK(got == x / d, "d=%u x=%u: got %u want %u (m=%08x s=%u e=%u)", d, x,
         got, x / d, magic, shift, rd);

   /* A saturating 32-bit increment must not change the answer either */
   if (rd && x == UINT32_MAX && (d & (d - 1))) {
      uint64_t m = (uint64_t)magic | (1ull << 31);
      uint32_t sat = (uint32_t)((((uint64_t)x * m) >> 32) >> shift);
      PAN_CHECK(sat == x / d, "d=%u: saturating increment differs", d);
   }
}

static void
check_divisor(uint32_t d)
{
   unsigned shift, rd;
   uint32_t magic = pan_magic_divisor(d, &shift, &rd);

   PAN_CHECK(shift < 32 && rd <= 1 && !(magic >> 31), "d=%u: bad fields", d);

   /* Errors grow with x and show up right at multiples of d, so check the
    * first and last few multiples on both sides, plus random values. */
   uint32_t top = UINT32_MAX / d;
   for (uint32_t k = 0; k < 4; ++k) {
      uint64_t lo = (uint64_t)(k + 1) * d, hi = (uint64_t)(top - k) * d;
      if (lo <= UINT32_MAX) {
         check_divide(d, (uint32_t)lo, magic, shift, rd);
         check_divide(d, (uint32_t)(lo - 1), magic, shift, rd);
      }
      if (top >= k && hi > 0) {
         check_divide(d, (uint32_t)hi, magic, shift, rd);
         check_divide(d, (uint32_t)(hi - 1), magic, shift, rd);
         if (hi + d - 1 <= UINT32_MAX)
            check_divide(d, (uint32_t)(hi + d - 1), magic, shift, rd);
      }
   }
   check_divide(d, 0, magic, shift, rd);
   check_divide(d, 1, magic, shift, rd);
   check_divide(d, UINT32_MAX, magic, shift, rd);
   check_divide(d, UINT32_MAX - 1, magic, shift, rd);
   for (unsigned i = 0; i < 4; ++i)
      check_divide(d, rng(), magic, shift, rd);
}

static void
test_magic(uint32_t max_d, unsigned n_random)
{
   unsigned shift = 99, rd = 99;
   PAN_CHECK(pan_magic_divisor(0, &shift, &rd) == 0 && shift == 0 && rd == 0,
         "divisor 0 not rejected");

   for (uint32_t d = 1; d <= max_d; ++d)
      check_divisor(d);
   for (unsigned i = 0; i < n_random; ++i) {
      uint32_t d = rng() >> (rng() % 32);
      check_divisor(d ? d : 1);
   }
   check_divisor(UINT32_MAX);
   check_divisor(0x80000001u);
   check_divisor(0x80000000u);

   /* Known answers: 3 divides 2^32 - 1 so it rounds up; 7 rounds down */
   uint32_t m = pan_magic_divisor(3, &shift, &rd);
   PAN_CHECK(m == 0x2aaaaaab && shift == 1 && rd == 0, "d=3: %08x %u %u", m,
         shift, rd);
   m = pan_magic_divisor(7, &shift, &rd);
   PAN_CHECK(m == 0x12492492 && shift == 2 && rd == 1, "d=7: %08x %u %u", m,
         shift, rd);
}

static void
test_addressing(void)
{
   struct pan_attr_addressing a;

   PAN_CHECK(pan_attr_addressing(7, 1, 0, &a) && a.mode == PAN_ATTR_MODE_LINEAR,
         "non-instanced per-vertex");
   PAN_CHECK(pan_attr_addressing(7, 1, 3, &a) && a.mode == PAN_ATTR_MODE_CONSTANT,
         "non-instanced per-instance");
   PAN_CHECK(!pan_attr_addressing(17, 2, 0, &a), "unencodable padded count");
   PAN_CHECK(!pan_attr_addressing(0, 2, 1, &a), "zero padded count");
   PAN_CHECK(pan_attr_addressing(1u << 20, 2, 1u << 13, &a) &&
            a.mode == PAN_ATTR_MODE_CONSTANT,
         "2^33 divisor not handled");
   PAN_CHECK(pan_attr_addressing(0xE0000000u, 2, 2, &a) &&
            a.mode == PAN_ATTR_MODE_CONSTANT,
         "overflowing product not handled");
   PAN_CHECK(pan_attr_addressing(12, 5, 1, &a) &&
            a.mode == PAN_ATTR_MODE_NPOT_DIVISOR && a.hw_divisor == 12,
         "NPOT divisor");
   PAN_CHECK(pan_attr_addressing(16, 5, 4, &a) &&
            a.mode == PAN_ATTR_MODE_POT_DIVISOR && a.shift == 6,
         "POT divisor");

   /* Whole draws: every invocation reads the element plain division says */
   for (unsigned it = 0; it < 3000; ++it) {
      unsigned count = 1 + rng() % (it < 2500 ? 300 : 100000);
      unsigned padded = pan_padded_vertex_count(count);
      unsigned instances = 2 + rng() % 40;
      uint32_t divisor = (rng() & 3) ? rng() % 9 : rng() >> (rng() % 32);

      if (!pan_attr_addressing(padded, instances, divisor, &a)) {
         PAN_CHECK(0, "addressing failed: padded %u", padded);
         continue;
      }
      for (unsigned k = 0; k < 64; ++k) {
         uint32_t i = rng() % instances, v = rng() % count;
         uint64_t id = (uint64_t)i * padded + v;
         if (id > UINT32_MAX)
            continue;
         uint32_t want = divisor ? i / divisor : v;
         uint32_t got = pan_attr_index(&a, (uint32_t)id);
         PAN_CHECK(got == want, "count %u inst %u div %u: id %" PRIu64
               " got %u want %u", count, i, divisor, id, got, want);
      }
   }
}

int
main(int argc, char **argv)
{
   bool slow = argc > 1 && !strcmp(argv[1], "slow");

   build_allowed();
   test_padded(slow ? 100000000 : 1000000);
   test_magic(slow ? (1u << 24) : (1u << 20), slow ? 4000000 : 200000);
   test_addressing();

   printf("instancing: %s (%u pan_test_failures)\n", pan_test_failures ? "FAIL" : "pass",
          pan_test_failures);
   return pan_test_failures ? 1 : 0;
}
