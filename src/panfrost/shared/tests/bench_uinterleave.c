/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Throughput of u-interleaved store/load at every element size, for every
 * flavour of the copies this CPU runs, as ratios to memcpy of the same
 * number of bytes measured in the same run.  Prints figures only; this is
 * a benchmark, not a test.
 *
 * Built a second time in tests/oracle_tiling with PAN_BENCH_STOCK, linked
 * with the base's stock tiling code: that build adds a "stock" row and
 * the ratio of each flavour to it.  The product build never sees the
 * stock code.
 *
 * Usage: bench_uinterleave [minimum repeats] [GB moved per measurement]
 *                          [element sizes, e.g. 1,8] [case name prefix]
 * (defaults 5, 1.5, every size and every case; lower the volume under
 * emulation)
 */

#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pan_uinterleave.h"

#ifdef PAN_BENCH_STOCK
#include "util/format/u_format.h"

/* The base's entry points (src/panfrost/shared/pan_tiling.h there), which
 * take pixels and a format rather than elements and a size. */
void panfrost_store_tiled_image(void *dst, const void *src, unsigned x,
                                unsigned y, unsigned w, unsigned h,
                                uint32_t dst_stride, uint32_t src_stride,
                                enum pipe_format format);
void panfrost_load_tiled_image(void *dst, const void *src, unsigned x,
                               unsigned y, unsigned w, unsigned h,
                               uint32_t dst_stride, uint32_t src_stride,
                               enum pipe_format format);

/* A format whose element has B bytes; 4x4 blocks when compressed */
static enum pipe_format
stock_format(unsigned B, bool compressed)
{
   if (compressed)
      return B == 8 ? PIPE_FORMAT_ETC2_RGB8 : PIPE_FORMAT_ETC2_RGBA8;

   switch (B) {
   case 1: return PIPE_FORMAT_R8_UNORM;
   case 2: return PIPE_FORMAT_R8G8_UNORM;
   case 3: return PIPE_FORMAT_R8G8B8_UNORM;
   case 4: return PIPE_FORMAT_R8G8B8A8_UNORM;
   case 6: return PIPE_FORMAT_R16G16B16_UNORM;
   case 8: return PIPE_FORMAT_R16G16B16A16_UNORM;
   case 12: return PIPE_FORMAT_R32G32B32_FLOAT;
   default: return PIPE_FORMAT_R32G32B32A32_FLOAT;
   }
}
#define N_IMPLS (PAN_UINTERLEAVE_PATH_COUNT + 1)
#else
#define N_IMPLS PAN_UINTERLEAVE_PATH_COUNT
#endif

/* Implementation i < PAN_UINTERLEAVE_PATH_COUNT is that flavour of ours */
#define IMPL_STOCK PAN_UINTERLEAVE_PATH_COUNT

static double
now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct bench_case {
   const char *name;
   unsigned img_w, img_h; /* elements */
   unsigned x, y, w, h;
   bool compressed;       /* 4x4 tiles of 4x4-pixel blocks */
};

struct bench_buf {
   uint8_t *tiled, *linear;
   uint32_t tstride, lstride;
};

static void
run_impl(unsigned impl, bool store, const struct bench_buf *b,
         const struct bench_case *c, unsigned B)
{
#ifdef PAN_BENCH_STOCK
   if (impl == IMPL_STOCK) {
      unsigned px = c->compressed ? 4 : 1;
      enum pipe_format f = stock_format(B, c->compressed);
      if (store)
         panfrost_store_tiled_image(b->tiled, b->linear, c->x * px,
                                    c->y * px, c->w * px, c->h * px,
                                    b->tstride, b->lstride, f);
      else
         panfrost_load_tiled_image(b->linear, b->tiled, c->x * px,
                                   c->y * px, c->w * px, c->h * px,
                                   b->lstride, b->tstride, f);
      return;
   }
#endif
   pan_uinterleave_force_path(impl);
   if (store)
      pan_uinterleave_store_el(b->tiled, b->tstride, b->linear, b->lstride,
                               c->x, c->y, c->w, c->h, B, c->compressed);
   else
      pan_uinterleave_load_el(b->linear, b->lstride, b->tiled, b->tstride,
                              c->x, c->y, c->w, c->h, B, c->compressed);
}

static bool
impl_available(unsigned impl)
{
   return impl == IMPL_STOCK || pan_uinterleave_path_available(impl);
}

/* Best-of-N seconds for memcpy and every implementation's store and load,
 * interleaved so that load from other processes hits them alike. */
static void
time_all(double *mc, double st[N_IMPLS], double ld[N_IMPLS],
         unsigned repeats, const struct bench_buf *b,
         const struct bench_case *c, unsigned B)
{
   *mc = 1e30;
   for (unsigned i = 0; i < N_IMPLS; ++i)
      st[i] = ld[i] = 1e30;

   for (unsigned r = 0; r < repeats; ++r) {
      double t0 = now_s();
      memcpy(b->tiled, b->linear, (size_t)c->w * c->h * B);
      double t = now_s() - t0;
      *mc = t < *mc ? t : *mc;

      for (unsigned i = 0; i < N_IMPLS; ++i) {
         if (!impl_available(i))
            continue;
         for (unsigned s = 0; s < 2; ++s) {
            t0 = now_s();
            run_impl(i, s == 0, b, c, B);
            t = now_s() - t0;
            double *best = s == 0 ? &st[i] : &ld[i];
            *best = t < *best ? t : *best;
         }
      }
   }
   pan_uinterleave_force_path(PAN_UINTERLEAVE_PATH_COUNT);
}

static const char *
impl_name(unsigned impl)
{
   return impl == IMPL_STOCK ? "stock" : pan_uinterleave_path_name(impl);
}

static int
bench_case(const struct bench_case *c, unsigned B, unsigned repeats,
           double volume_B)
{
   struct bench_buf b;
   unsigned dim = c->compressed ? 4 : 16;
   b.tstride = (c->img_w / dim) * dim * dim * B;
   b.lstride = c->w * B;
   size_t tiled_B = (size_t)b.tstride * (c->img_h / dim);
   size_t linear_B = (size_t)b.lstride * c->h;
   b.tiled = malloc(tiled_B);
   b.linear = malloc(linear_B);

   if (!b.tiled || !b.linear) {
      fprintf(stderr, "out of memory\n");
      return 1;
   }
   memset(b.tiled, 0x5a, tiled_B);
   for (size_t i = 0; i < linear_B; ++i)
      b.linear[i] = (uint8_t)(i * 131u);

   double bytes = (double)c->w * c->h * B;
   double mc, st[N_IMPLS], ld[N_IMPLS];
   unsigned n = (unsigned)(volume_B / bytes);
   time_all(&mc, st, ld, n > repeats ? n : repeats, &b, c, B);

   for (unsigned i = 0; i < N_IMPLS; ++i) {
      if (!impl_available(i))
         continue;
      printf("%-20s %3u %-8s %6.2f %6.2f %6.2f %6.2f %6.2f", c->name, B,
             impl_name(i), bytes / mc * 1e-9, bytes / st[i] * 1e-9,
             bytes / ld[i] * 1e-9, mc / st[i], mc / ld[i]);
#ifdef PAN_BENCH_STOCK
      printf(" %6.2f %6.2f", st[IMPL_STOCK] / st[i], ld[IMPL_STOCK] / ld[i]);
#endif
      printf("\n");
   }
   free(b.tiled);
   free(b.linear);
   return 0;
}

/* Whether B is in the comma-separated list (NULL or empty: every size) */
static bool
size_wanted(const char *list, unsigned B)
{
   if (!list || !*list)
      return true;
   for (const char *p = list; *p;) {
      char *end;
      unsigned long v = strtoul(p, &end, 10);
      if (end == p)
         return false;
      if (v == B)
         return true;
      p = *end == ',' ? end + 1 : end;
   }
   return false;
}

int
main(int argc, char **argv)
{
   static const unsigned sizes_B[] = { 1, 2, 3, 4, 6, 8, 12, 16 };
   unsigned repeats = argc > 1 ? (unsigned)atoi(argv[1]) : 5;
   double volume_B = (argc > 2 ? atof(argv[2]) : 1.5) * 1e9;
   const struct bench_case cases[] = {
      { "4096x4096 full", 4096, 4096, 0, 0, 4096, 4096, false },
      { "1000x700 @(13,7)", 1024, 720, 13, 7, 1000, 700, false },
      { "4096x4096 px 4x4blk", 1024, 1024, 0, 0, 1024, 1024, true },
   };

   const char *only_sizes = argc > 3 ? argv[3] : NULL;
   const char *only_case = argc > 4 ? argv[4] : NULL;

   if (repeats == 0)
      repeats = 1;

   printf("best of at least %u runs; GB/s of image data; st/mc, ld/mc: "
          "speed relative to memcpy of the same bytes",
          repeats);
#ifdef PAN_BENCH_STOCK
   printf("; st/stk, ld/stk: relative to the base's stock code");
#endif
   printf("\n%-20s %3s %-8s %6s %6s %6s %6s %6s", "case", "B", "impl",
          "memcpy", "store", "load", "st/mc", "ld/mc");
#ifdef PAN_BENCH_STOCK
   printf(" %6s %6s", "st/stk", "ld/stk");
#endif
   printf("\n");

   for (unsigned ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ++ci) {
      for (unsigned si = 0; si < sizeof(sizes_B) / sizeof(sizes_B[0]); ++si) {
         /* Compressed formats have 8 and 16 byte blocks */
         if (cases[ci].compressed && sizes_B[si] != 8 && sizes_B[si] != 16)
            continue;
         if (!size_wanted(only_sizes, sizes_B[si]) ||
             (only_case &&
              strncmp(cases[ci].name, only_case, strlen(only_case))))
            continue;
         if (bench_case(&cases[ci], sizes_B[si], repeats, volume_B))
            return 1;
      }
   }
   return 0;
}
