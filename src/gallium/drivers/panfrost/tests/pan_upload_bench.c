/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * pan-upload-bench: texture upload and read-back throughput through the
 * driver's transfers (texture_map with PIPE_MAP_WRITE |
 * PIPE_MAP_DISCARD_RANGE, rows copied in, unmap; and texture_subdata,
 * glTexSubImage's path in the state tracker), of a u-interleaved and a
 * linear RGBA8 2D texture, against memcpy of the same bytes in the same
 * run.  On the drm-shim nothing reaches a GPU: what is
 * measured is the CPU side, staging copy and tiling included.
 *
 *   pan-upload-bench [SIZE] [SECONDS]   (default 1024 pixels, 1 second)
 *
 * Prints one line per case, "CASE MB/s ratio-to-memcpy".  A benchmark, not
 * a test: the figures depend on the machine and its load.
 */

#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pipe/p_context.h"
#include "pipe/p_defines.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"
#include "util/u_inlines.h"

#include "../pan_resource.h"
#include "pan_test_screen.h"

static struct pipe_screen *screen;
static struct pipe_context *ctx;

static double
now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec * 1e-9;
}

enum op { OP_MEMCPY, OP_UPLOAD, OP_SUBDATA, OP_READ };

/* One pass of op over size x size pixels; returns the bytes moved. */
static uint64_t
run_once(enum op op, struct pipe_resource *tex, uint8_t *src, uint8_t *dst,
         unsigned size)
{
   size_t row_B = (size_t)size * 4;
   if (op == OP_MEMCPY) {
      memcpy(dst, src, row_B * size);
      return row_B * size;
   }
   struct pipe_box box;
   u_box_2d(0, 0, size, size, &box);
   if (op == OP_SUBDATA) {
      ctx->texture_subdata(ctx, tex, 0, 0, &box, src, row_B, 0);
      return row_B * size;
   }
   unsigned usage =
      op == OP_UPLOAD ? PIPE_MAP_WRITE | PIPE_MAP_DISCARD_RANGE : PIPE_MAP_READ;
   struct pipe_transfer *xfer;
   uint8_t *map = ctx->texture_map(ctx, tex, 0, usage, &box, &xfer);
   if (!map)
      return 0;
   for (unsigned y = 0; y < size; ++y) {
      if (op == OP_UPLOAD)
         memcpy(map + (size_t)y * xfer->stride, src + y * row_B, row_B);
      else
         memcpy(dst + y * row_B, map + (size_t)y * xfer->stride, row_B);
   }
   ctx->texture_unmap(ctx, xfer);
   return row_B * size;
}

/* MB/s of op for about `seconds`, after one warm-up pass. */
static double
measure(enum op op, struct pipe_resource *tex, uint8_t *src, uint8_t *dst,
        unsigned size, double seconds)
{
   if (!run_once(op, tex, src, dst, size))
      return 0;
   uint64_t bytes = 0;
   double start = now_s(), t;
   do {
      bytes += run_once(op, tex, src, dst, size);
      t = now_s() - start;
   } while (t < seconds);
   return bytes / t / 1e6;
}

static struct pipe_resource *
make(unsigned size, unsigned bind)
{
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = PIPE_FORMAT_R8G8B8A8_UNORM,
      .width0 = size,
      .height0 = size,
      .depth0 = 1,
      .array_size = 1,
      .bind = bind,
   };
   return screen->resource_create(screen, &templ);
}

int
main(int argc, char **argv)
{
   unsigned size = argc > 1 ? atoi(argv[1]) : 1024;
   double seconds = argc > 2 ? atof(argv[2]) : 1.0;
   if (size < 1 || size > 8192 || seconds <= 0) {
      fprintf(stderr, "usage: pan-upload-bench [SIZE 1-8192] [SECONDS]\n");
      return 2;
   }
   if (!pan_test_open(&screen, &ctx))
      return 1;

   const unsigned bind = PIPE_BIND_SAMPLER_VIEW | PIPE_BIND_RENDER_TARGET;
   struct pipe_resource *tiled = make(size, bind);
   struct pipe_resource *linear = make(size, bind | PIPE_BIND_LINEAR);
   size_t bytes = (size_t)size * size * 4;
   uint8_t *src = malloc(bytes), *dst = malloc(bytes);
   if (!tiled || !linear || !src || !dst ||
       !panfrost_resource_is_tiled(panfrost_resource(tiled))) {
      fprintf(stderr, "pan-upload-bench: no tiled and linear textures\n");
      return 1;
   }
   for (size_t i = 0; i < bytes; ++i)
      src[i] = (uint8_t)(i * 31 + (i >> 12));

   double mc = measure(OP_MEMCPY, NULL, src, dst, size, seconds);
   struct {
      const char *name;
      enum op op;
      struct pipe_resource *tex;
   } cases[] = {
      { "memcpy", OP_MEMCPY, NULL },
      { "upload-tiled", OP_UPLOAD, tiled },
      { "upload-linear", OP_UPLOAD, linear },
      { "subdata-tiled", OP_SUBDATA, tiled },
      { "subdata-linear", OP_SUBDATA, linear },
      { "read-tiled", OP_READ, tiled },
      { "read-linear", OP_READ, linear },
   };
   printf("%ux%u RGBA8 (%zu KiB a pass)\n", size, size, bytes / 1024);
   for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
      double mbs =
         i ? measure(cases[i].op, cases[i].tex, src, dst, size, seconds) : mc;
      printf("%-14s %8.0f MB/s %5.2fx memcpy\n", cases[i].name, mbs,
             mc > 0 ? mbs / mc : 0);
   }
   free(src);
   free(dst);
   pipe_resource_reference(&tiled, NULL);
   pipe_resource_reference(&linear, NULL);
   return pan_test_close(screen, ctx);
}
