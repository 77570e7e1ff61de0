/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Throughput of the index-range scan, every flavour this CPU runs, for
 * every index size, with and without primitive restart, on a buffer that
 * stays in cache and on one that does not; as ratios to memcpy of the
 * same bytes in the same run, and the cost of a cache hit.  Prints
 * figures only; a benchmark, not a test.
 *
 * Built a second time in tests/oracle_tiling with PAN_BENCH_BASE, linked
 * with the base's Gallium helper u_vbuf_get_minmax_index (what the stock
 * driver calls for every indexed draw): that build adds a "base" row and
 * each flavour's speed-up over it.
 *
 * Usage: bench_index_range [minimum repeats] [MB scanned per measurement]
 * (defaults 5 and 256; lower the volume under emulation)
 */

#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pan_index_cache.h"
#include "pan_index_range.h"

#ifdef PAN_BENCH_BASE
#include "pipe/p_state.h"
#include "util/u_vbuf.h"

static void
base_scan(const struct pan_index_scan *s, struct pan_index_range *r)
{
   struct pipe_draw_info info = {
      .index_size = s->index_size_B,
      .has_user_indices = true,
      .primitive_restart = s->restart,
      .restart_index = s->restart_index,
      .index.user = s->indices,
   };
   struct pipe_draw_start_count_bias draw = { .start = 0, .count = s->count };
   unsigned lo, hi;
   u_vbuf_get_minmax_index(NULL, &info, &draw, &lo, &hi);
   r->min = lo, r->max = hi;
}
#define N_IMPLS (PAN_INDEX_PATH_COUNT + 1)
#else
#define N_IMPLS PAN_INDEX_PATH_COUNT
#endif

static double
now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static const char *
impl_name(unsigned i)
{
   return i < PAN_INDEX_PATH_COUNT ? pan_index_path_name(i) : "base";
}

static bool
impl_run(unsigned i, const struct pan_index_scan *s, struct pan_index_range *r)
{
#ifdef PAN_BENCH_BASE
   if (i == PAN_INDEX_PATH_COUNT) {
      base_scan(s, r);
      return true;
   }
#endif
   return pan_index_range_path(i, s, r);
}

/* Keeps results alive so no scan is optimised away */
static volatile uint32_t sink;

int
main(int argc, char **argv)
{
   unsigned reps = argc > 1 ? (unsigned)atoi(argv[1]) : 5;
   double volume = (argc > 2 ? atof(argv[2]) : 256) * 1e6;
   static const size_t bytes_cases[] = { 96 * 1024, 32u << 20 };
   static const unsigned sizes[] = { 1, 2, 4 };

   if (reps < 1 || volume < 1e5) {
      fprintf(stderr, "usage: bench_index_range [repeats >= 1] [MB >= 0.1]\n");
      return 2;
   }
   printf("best of %u runs; GB/s of indices scanned; x/mc: relative to "
          "memcpy of the same bytes%s\n",
          reps,
          N_IMPLS > PAN_INDEX_PATH_COUNT ? "; x/base: speed-up over the "
                                           "base's u_vbuf_get_minmax_index"
                                         : "");
   printf("%-9s %2s %-7s %-9s %7s %7s %6s%s\n", "buffer", "B", "restart",
          "impl", "memcpy", "scan", "x/mc",
          N_IMPLS > PAN_INDEX_PATH_COUNT ? "  x/base" : "");

   for (unsigned bc = 0; bc < 2; ++bc) {
      size_t bytes = bytes_cases[bc];
      uint8_t *src = malloc(bytes), *dst = malloc(bytes);
      if (!src || !dst) {
         fprintf(stderr, "bench_index_range: out of memory\n");
         free(src), free(dst);
         return 1;
      }
      /* Indices of a mesh: mostly increasing, some reuse */
      for (size_t i = 0; i < bytes; ++i)
         src[i] = (uint8_t)((i * 2654435761u) >> 13);
      unsigned iters = (unsigned)(volume / bytes) + 1;

      for (unsigned si = 0; si < 3; ++si) {
         unsigned B = sizes[si];
         for (unsigned restart = 0; restart < 2; ++restart) {
            struct pan_index_scan s = { src, bytes / B, B, restart,
                                        B == 4 ? UINT32_MAX
                                               : (1u << (8 * B)) - 1 };
            double best_mc = 1e9, best[N_IMPLS];
            for (unsigned i = 0; i < N_IMPLS; ++i)
               best[i] = 1e9;

            for (unsigned r = 0; r < reps; ++r) {
               double t0 = now_s();
               for (unsigned k = 0; k < iters; ++k)
                  memcpy(dst, src, bytes);
               double t = now_s() - t0;
               best_mc = t < best_mc ? t : best_mc;
               sink += dst[bytes / 2];

               for (unsigned i = 0; i < N_IMPLS; ++i) {
                  struct pan_index_range rg;
                  if (i < PAN_INDEX_PATH_COUNT && !pan_index_path_available(i))
                     continue;
                  t0 = now_s();
                  for (unsigned k = 0; k < iters; ++k) {
                     impl_run(i, &s, &rg);
                     sink += rg.min ^ rg.max;
                  }
                  t = now_s() - t0;
                  best[i] = t < best[i] ? t : best[i];
               }
            }

            double gb = (double)bytes * iters / 1e9;
            for (unsigned i = 0; i < N_IMPLS; ++i) {
               if (best[i] >= 1e9)
                  continue;
               printf("%-9s %2u %-7s %-9s %7.2f %7.2f %6.2f",
                      bc ? "32 MiB" : "96 KiB", B, restart ? "yes" : "no",
                      impl_name(i), gb / best_mc, gb / best[i],
                      best_mc / best[i]);
               if (N_IMPLS > PAN_INDEX_PATH_COUNT)
                  printf(" %7.2f", best[N_IMPLS - 1] / best[i]);
               printf("\n");
            }
         }
      }
      free(src);
      free(dst);
   }

   /* A draw whose range is known: what the cache saves per draw */
   {
      static uint16_t idx[3 * 2048];
      struct pan_index_cache c;
      struct pan_index_range rg;
      struct pan_index_scan s = { NULL, 3 * 2048, 2, false, 0 };
      unsigned n = 1000000;
      for (unsigned i = 0; i < 3 * 2048; ++i)
         idx[i] = (uint16_t)(i * 7 % 4099);
      pan_index_cache_init(&c);
      double t0 = now_s();
      for (unsigned i = 0; i < n; ++i) {
         pan_index_cache_get(&c, idx, 0, &s, &rg);
         sink += rg.max;
      }
      double hit = (now_s() - t0) / n;
      s.indices = idx;
      t0 = now_s();
      for (unsigned i = 0; i < n / 100; ++i) {
         pan_index_range(&s, &rg);
         sink += rg.max;
      }
      double scan = (now_s() - t0) / (n / 100);
      printf("6144 16-bit indices, picked flavour %s: scan %.0f ns, cache "
             "hit %.1f ns\n",
             pan_index_path_name(pan_index_current_path()), scan * 1e9,
             hit * 1e9);
   }
   return 0;
}
