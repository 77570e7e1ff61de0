/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Checks every index-range flavour this target built and this CPU runs
 * against a plain reference loop: every index size, counts around the
 * flavours' step sizes, every start alignment, with and without restart
 * (restart indices present, absent, wider than the indices, everywhere),
 * and the per-buffer cache (hits, partial invalidation, replacement).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/pan_test_util.h"
#include "pan_index_cache.h"
#include "pan_index_range.h"

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint32_t
rng(void)
{
   return (uint32_t)(pan_test_rng64(&rng_state) >> 32);
}

/* Written independently of the flavours: index by index, byte by byte */
static struct pan_index_range
reference(const struct pan_index_scan *s)
{
   struct pan_index_range r = { UINT32_MAX, 0 };
   bool any = false;
   const uint8_t *b = s->indices;

   for (size_t i = 0; i < s->count; ++i) {
      uint32_t v = 0;
      for (unsigned k = 0; k < s->index_size_B; ++k)
         v |= (uint32_t)b[i * s->index_size_B + k] << (8 * k);
      if (s->restart && v == s->restart_index)
         continue;
      any = true;
      r.min = v < r.min ? v : r.min;
      r.max = v > r.max ? v : r.max;
   }
   if (!any)
      r = (struct pan_index_range){ UINT32_MAX, 0 };
   return r;
}

static void
store_index(uint8_t *b, unsigned size, size_t i, uint32_t v)
{
   for (unsigned k = 0; k < size; ++k)
      b[i * size + k] = (uint8_t)(v >> (8 * k));
}

static unsigned paths_checked;

static void
check_all_paths(const struct pan_index_scan *s, const char *what)
{
   struct pan_index_range want = reference(s);

   for (unsigned p = 0; p < PAN_INDEX_PATH_COUNT; ++p) {
      struct pan_index_range got = { 1, 2 };
      if (!pan_index_path_available(p))
         continue;
      bool ok = pan_index_range_path(p, s, &got);
      PAN_CHECK(ok && got.min == want.min && got.max == want.max,
                "%s %s: size %u count %zu restart %d/0x%x: got [%u, %u] "
                "want [%u, %u]",
                pan_index_path_name(p), what, s->index_size_B, s->count,
                s->restart, s->restart_index, got.min, got.max, want.min,
                want.max);
      paths_checked |= 1u << p;
   }
}

/* Index values by kind: small, full width, or only the extremes */
static uint32_t
value(unsigned size, unsigned kind)
{
   uint32_t full = size == 4 ? UINT32_MAX : (1u << (8 * size)) - 1;
   switch (kind) {
   case 0:
      return rng() % 64;
   case 1:
      return rng() & full;
   default:
      return rng() & 1 ? full : 0;
   }
}

static void
test_random(void)
{
   static const unsigned sizes[] = { 1, 2, 4 };
   uint8_t *buf = malloc(4 * 600 + 64);

   for (unsigned si = 0; si < 3; ++si) {
      unsigned size = sizes[si];
      uint32_t full = size == 4 ? UINT32_MAX : (1u << (8 * size)) - 1;

      for (size_t count = 0; count < 600; count += count < 140 ? 1 : 37) {
         for (unsigned align = 0; align < 16; align += count < 140 ? 5 : 1) {
            uint8_t *p = buf + align;
            unsigned kind = rng() % 3;
            for (size_t i = 0; i < count; ++i)
               store_index(p, size, i, value(size, kind));

            struct pan_index_scan s = { p, count, size, false, 0 };
            check_all_paths(&s, "plain");

            /* restart: the all-ones index (GLES), sprinkled in */
            s.restart = true;
            s.restart_index = full;
            for (size_t i = 0; i < count; i += 1 + rng() % 7)
               store_index(p, size, i, full);
            check_all_paths(&s, "restart all-ones");

            /* an arbitrary restart index, present or not */
            s.restart_index = value(size, kind);
            check_all_paths(&s, "restart value");

            /* a restart index no index of this size can equal */
            if (size < 4) {
               s.restart_index = full + 1;
               check_all_paths(&s, "restart too wide");
            }

            /* everything is a restart: an empty range */
            for (size_t i = 0; i < count; ++i)
               store_index(p, size, i, 7);
            s.restart_index = 7;
            check_all_paths(&s, "all restart");

            /* one real index among restarts, anywhere */
            if (count) {
               size_t at = rng() % count;
               store_index(p, size, at, full - 3);
               check_all_paths(&s, "one among restarts");
            }
         }
      }
   }
   free(buf);
}

static void
test_edges(void)
{
   struct pan_index_range r;
   uint8_t b[8] = { 5, 9, 200, 1 };
   struct pan_index_scan s = { b, 4, 3, false, 0 };

   PAN_CHECK(!pan_index_range(&s, &r), "index size 3 must be refused");
   s.index_size_B = 1;
   PAN_EXPECT(pan_index_range(&s, &r));
   PAN_EXPECT_EQ(r.min, 1);
   PAN_EXPECT_EQ(r.max, 200);
   s.count = 0;
   PAN_EXPECT(pan_index_range(&s, &r));
   PAN_CHECK(r.min > r.max, "count 0 is an empty range");
   PAN_EXPECT(pan_index_path_available(PAN_INDEX_PORTABLE));
   PAN_EXPECT(pan_index_path_available(pan_index_current_path()));
   PAN_CHECK(!pan_index_path_available(PAN_INDEX_PATH_COUNT),
             "no flavour beyond the list");
}

static void
test_cache(void)
{
   uint16_t idx[256];
   struct pan_index_cache c;
   struct pan_index_range r;
   for (unsigned i = 0; i < 256; ++i)
      idx[i] = (uint16_t)(1000 + i);

   pan_index_cache_init(&c);
   struct pan_index_scan s = { NULL, 64, 2, false, 0 };

   /* draw A: indices 0..63, draw B: 128..191 */
   PAN_EXPECT(pan_index_cache_get(&c, idx, 0, &s, &r));
   PAN_EXPECT_EQ(r.min, 1000);
   PAN_EXPECT_EQ(r.max, 1063);
   PAN_EXPECT(pan_index_cache_get(&c, idx, 256, &s, &r));
   PAN_EXPECT_EQ(r.min, 1128);
   PAN_EXPECT(pan_index_cache_get(&c, idx, 0, &s, &r));
   PAN_EXPECT_EQ(c.hits, 1);
   PAN_EXPECT_EQ(c.misses, 2);

   /* a write into draw B's bytes forgets B only */
   idx[130] = 7;
   pan_index_cache_invalidate(&c, 260, 2);
   PAN_EXPECT(pan_index_cache_get(&c, idx, 0, &s, &r));
   PAN_EXPECT_EQ(c.hits, 2);
   PAN_EXPECT(pan_index_cache_get(&c, idx, 256, &s, &r));
   PAN_EXPECT_EQ(c.misses, 3);
   PAN_EXPECT_EQ(r.min, 7);

   /* writes between A and B, and just after B, keep both; a write
    * covering A's last byte does not */
   pan_index_cache_invalidate(&c, 128, 128);
   pan_index_cache_invalidate(&c, 384, 16);
   PAN_EXPECT(pan_index_cache_get(&c, idx, 0, &s, &r));
   PAN_EXPECT(pan_index_cache_get(&c, idx, 256, &s, &r));
   PAN_EXPECT_EQ(c.misses, 3);
   pan_index_cache_invalidate(&c, 127, 1);
   PAN_EXPECT(pan_index_cache_get(&c, idx, 0, &s, &r));
   PAN_EXPECT_EQ(c.misses, 4);

   /* the whole buffer, written as SIZE_MAX from 0, forgets everything */
   pan_index_cache_invalidate(&c, 0, SIZE_MAX);
   PAN_EXPECT(pan_index_cache_get(&c, idx, 256, &s, &r));
   PAN_EXPECT_EQ(c.misses, 5);

   /* restart settings are part of the key */
   struct pan_index_scan sr = { NULL, 64, 2, true, 1000 };
   PAN_EXPECT(pan_index_cache_get(&c, idx, 0, &sr, &r));
   PAN_EXPECT_EQ(r.min, 1001);
   PAN_EXPECT_EQ(c.misses, 6);

   /* more draws than entries: the oldest go, answers stay right */
   for (unsigned i = 0; i < 3 * PAN_INDEX_CACHE_ENTRIES; ++i) {
      struct pan_index_scan d = { NULL, 1 + i % 50, 2, false, 0 };
      PAN_EXPECT(pan_index_cache_get(&c, idx, 2 * (i % 37), &d, &r));
      struct pan_index_scan direct = { idx + i % 37, d.count, 2, false, 0 };
      struct pan_index_range want = reference(&direct);
      PAN_CHECK(r.min == want.min && r.max == want.max,
                "cached draw %u: [%u, %u] want [%u, %u]", i, r.min, r.max,
                want.min, want.max);
   }
   struct pan_index_scan bad = { NULL, 4, 8, false, 0 };
   PAN_CHECK(!pan_index_cache_get(&c, idx, 0, &bad, &r),
             "index size 8 must be refused through the cache too");
}

int
main(void)
{
   PAN_RUN_CASE(test_edges);
   PAN_RUN_CASE(test_random);
   PAN_RUN_CASE(test_cache);
   printf("flavours checked:");
   for (unsigned p = 0; p < PAN_INDEX_PATH_COUNT; ++p) {
      if (paths_checked & (1u << p))
         printf(" %s", pan_index_path_name(p));
   }
   printf(" (picked: %s)\n", pan_index_path_name(pan_index_current_path()));
   return pan_test_summary("pan_index_range");
}
