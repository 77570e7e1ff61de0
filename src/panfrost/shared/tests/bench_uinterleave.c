/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Throughput of u-interleaved store/load at every element size, next to
 * memcpy of the same number of bytes measured in the same run.  Prints
 * figures only; this is a benchmark, not a test.
 *
 * Usage: bench_uinterleave [minimum repeats]
 */

#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pan_uinterleave.h"

static double
now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct bench_case {
   const char *name;
   unsigned img_w, img_h;
   unsigned x, y, w, h;
};

static const unsigned sizes_B[] = { 1, 2, 3, 4, 6, 8, 12, 16 };

enum op { OP_MEMCPY, OP_STORE, OP_LOAD, OP_COUNT };

static double
time_once(enum op op, uint8_t *tiled, uint32_t tstride, uint8_t *linear,
          uint32_t lstride, const struct bench_case *c, unsigned B)
{
   double t0 = now_s();
   switch (op) {
   case OP_MEMCPY:
      memcpy(tiled, linear, (size_t)c->w * c->h * B);
      break;
   case OP_STORE:
      pan_uinterleave_store_el(tiled, tstride, linear, lstride, c->x, c->y,
                               c->w, c->h, B, false);
      break;
   default:
      pan_uinterleave_load_el(linear, lstride, tiled, tstride, c->x, c->y,
                              c->w, c->h, B, false);
      break;
   }
   return now_s() - t0;
}

/* Best-of-N times, the three operations interleaved so that load from
 * other processes on the machine hits them alike. */
static void
time_all(double best[OP_COUNT], unsigned repeats, uint8_t *tiled,
         uint32_t tstride, uint8_t *linear, uint32_t lstride,
         const struct bench_case *c, unsigned B)
{
   for (unsigned op = 0; op < OP_COUNT; ++op)
      best[op] = 1e30;

   for (unsigned r = 0; r < repeats; ++r) {
      for (unsigned op = 0; op < OP_COUNT; ++op) {
         double t = time_once(op, tiled, tstride, linear, lstride, c, B);
         if (t < best[op])
            best[op] = t;
      }
   }
}

int
main(int argc, char **argv)
{
   unsigned repeats = argc > 1 ? (unsigned)atoi(argv[1]) : 5;
   const struct bench_case cases[] = {
      { "4096x4096 full", 4096, 4096, 0, 0, 4096, 4096 },
      { "1000x700 @(13,7)", 1024, 720, 13, 7, 1000, 700 },
   };

   if (repeats == 0)
      repeats = 1;

   printf("%-18s %4s %10s %10s %10s %7s %7s\n", "case", "B/px", "memcpy",
          "store", "load", "st/mc", "ld/mc");

   for (unsigned ci = 0; ci < 2; ++ci) {
      const struct bench_case *c = &cases[ci];
      for (unsigned si = 0; si < sizeof(sizes_B) / sizeof(sizes_B[0]); ++si) {
         unsigned B = sizes_B[si];
         uint32_t tstride = (c->img_w / 16) * 256 * B;
         size_t tiled_B = (size_t)tstride * (c->img_h / 16);
         uint32_t lstride = c->w * B;
         size_t linear_B = (size_t)lstride * c->h;
         uint8_t *tiled = malloc(tiled_B);
         uint8_t *linear = malloc(linear_B);

         if (!tiled || !linear) {
            fprintf(stderr, "out of memory\n");
            return 1;
         }
         memset(tiled, 0x5a, tiled_B);
         for (size_t i = 0; i < linear_B; ++i)
            linear[i] = (uint8_t)(i * 131u);

         double bytes = (double)c->w * c->h * B;
         double best[OP_COUNT];
         /* Aim for ~1.5 GB moved per operation, at least `repeats` runs */
         unsigned n = (unsigned)(1.5e9 / bytes);
         time_all(best, n > repeats ? n : repeats, tiled, tstride, linear,
                  lstride, c, B);
         double mc = best[OP_MEMCPY], st = best[OP_STORE], ld = best[OP_LOAD];

         printf("%-18s %4u %7.2f GB/s %5.2f GB/s %5.2f GB/s %6.2fx %6.2fx\n",
                c->name, B, bytes / mc * 1e-9, bytes / st * 1e-9,
                bytes / ld * 1e-9, mc / st, mc / ld);
         free(tiled);
         free(linear);
      }
   }
   return 0;
}
