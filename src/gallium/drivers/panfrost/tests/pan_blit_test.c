/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * pipe_context::blit on the simulated GPU, pixel-checked: a scaled blit
 * of a texture into another resource (nearest and linear), and two mip
 * levels made the way the state tracker generates mipmaps (a linear blit
 * of each level into the next).  The source is four flat quadrants, so
 * every expected pixel is one of four colours, exact up to rounding.
 */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipe/p_context.h"
#include "pipe/p_defines.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"
#include "util/format/u_format.h"
#include "util/u_inlines.h"

#include "pan_test_screen.h"

#define FMT PIPE_FORMAT_R8G8B8A8_UNORM

static struct pipe_screen *screen;
static struct pipe_context *ctx;

static const uint8_t quadrant_rgba[4][4] = {
   { 255, 0, 0, 255 },    /* top left */
   { 0, 255, 0, 255 },    /* top right */
   { 0, 0, 255, 255 },    /* bottom left */
   { 255, 255, 255, 128 }, /* bottom right */
};

static const uint8_t *
quadrant(unsigned x, unsigned y, unsigned size)
{
   return quadrant_rgba[(y >= size / 2) * 2 + (x >= size / 2)];
}

static struct pipe_resource *
make_texture(unsigned size, unsigned last_level)
{
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = FMT,
      .width0 = size,
      .height0 = size,
      .depth0 = 1,
      .array_size = 1,
      .last_level = last_level,
      .bind = PIPE_BIND_SAMPLER_VIEW | PIPE_BIND_RENDER_TARGET,
   };
   return screen->resource_create(screen, &templ);
}

/* Level 0 of tex: the four quadrants. */
static void
fill_quadrants(struct pipe_resource *tex, unsigned size)
{
   uint8_t *data = malloc(size * size * 4);
   for (unsigned y = 0; y < size; ++y)
      for (unsigned x = 0; x < size; ++x)
         memcpy(data + (y * size + x) * 4, quadrant(x, y, size), 4);
   struct pipe_box box;
   u_box_2d(0, 0, size, size, &box);
   ctx->texture_subdata(ctx, tex, 0, 0, &box, data, size * 4, 0);
   free(data);
}

/* Where the quadrants were drawn: a size x size square at (x, y).  The
 * check looks at the w x h rectangle at (x0, y0) of a level.
 */
struct square {
   unsigned x, y, size;
};

static void
check_rect(struct pipe_resource *tex, unsigned level, struct square sq,
           unsigned x0, unsigned y0, unsigned w, unsigned h, const char *what)
{
   struct pipe_transfer *xfer;
   const uint8_t *map = pipe_texture_map(ctx, tex, level, 0, PIPE_MAP_READ,
                                         x0, y0, w, h, &xfer);
   CHECK(map, "%s: map failed", what);
   if (!map)
      return;
   unsigned bad = 0;
   for (unsigned y = 0; y < h; ++y) {
      for (unsigned x = 0; x < w; ++x) {
         const uint8_t *p = map + y * xfer->stride + x * 4;
         const uint8_t *want =
            quadrant(x0 + x - sq.x, y0 + y - sq.y, sq.size);
         bool ok = true;
         for (unsigned c = 0; c < 4; ++c)
            ok &= abs((int)p[c] - (int)want[c]) <= 1;
         if (!ok && bad++ == 0)
            printf("%s: (%u, %u) is %u %u %u %u, want %u %u %u %u\n", what,
                   x0 + x, y0 + y, p[0], p[1], p[2], p[3], want[0], want[1],
                   want[2], want[3]);
      }
   }
   pipe_texture_unmap(ctx, xfer);
   CHECK(bad == 0, "%s: %u of %u pixels wrong", what, bad, w * h);
}

static void
check_square(struct pipe_resource *tex, unsigned level, struct square sq,
             const char *what)
{
   check_rect(tex, level, sq, sq.x, sq.y, sq.size, sq.size, what);
}

static void
blit(struct pipe_resource *dst, unsigned dst_level, int dx, int dy, int dw,
     int dh, struct pipe_resource *src, unsigned src_level, int sw, int sh,
     enum pipe_tex_filter filter)
{
   struct pipe_blit_info info = {
      .dst = { .resource = dst, .level = dst_level, .format = FMT },
      .src = { .resource = src, .level = src_level, .format = FMT },
      .mask = PIPE_MASK_RGBA,
      .filter = filter,
   };
   u_box_2d(dx, dy, dw, dh, &info.dst.box);
   u_box_2d(0, 0, sw, sh, &info.src.box);
   ctx->blit(ctx, &info);
}

/* 8x8 up to 32x32 at (16, 8) of a 64x64 target with the given filter: a
 * 4x magnification, so nearest gives flat 16x16 quadrants.
 */
static void
test_scaled(enum pipe_tex_filter filter, const char *what)
{
   struct pipe_resource *src = make_texture(8, 0);
   struct pipe_resource *dst = make_texture(64, 0);
   CHECK(src && dst, "%s: resource_create failed", what);
   if (!src || !dst)
      goto out;
   fill_quadrants(src, 8);
   blit(dst, 0, 16, 8, 32, 32, src, 0, 8, 8, filter);
   /* Linear magnification blends neighbours across the quadrant edge:
    * check the inner 12x12 of each 16x16 quadrant only then.
    */
   struct square sq = { 16, 8, 32 };
   if (filter == PIPE_TEX_FILTER_NEAREST) {
      check_square(dst, 0, sq, what);
   } else {
      for (unsigned q = 0; q < 4; ++q)
         check_rect(dst, 0, sq, sq.x + (q & 1) * 16 + 2,
                    sq.y + (q >> 1) * 16 + 2, 12, 12, what);
   }
out:
   pipe_resource_reference(&src, NULL);
   pipe_resource_reference(&dst, NULL);
}

/* A 32x32 texture with two more levels, made by linear 2x reductions:
 * each texel of level n + 1 averages four texels of one quadrant of
 * level n, so the levels are the quadrants again.
 */
static void
test_mipmaps(void)
{
   struct pipe_resource *tex = make_texture(32, 2);
   CHECK(tex, "mipmaps: resource_create failed");
   if (!tex)
      return;
   fill_quadrants(tex, 32);
   for (unsigned l = 1; l <= 2; ++l) {
      unsigned s = 32 >> l;
      blit(tex, l, 0, 0, s, s, tex, l - 1, s * 2, s * 2,
           PIPE_TEX_FILTER_LINEAR);
   }
   check_square(tex, 0, (struct square){ 0, 0, 32 }, "mip level 0");
   check_square(tex, 1, (struct square){ 0, 0, 16 }, "mip level 1");
   check_square(tex, 2, (struct square){ 0, 0, 8 }, "mip level 2");
   pipe_resource_reference(&tex, NULL);
}

/* Depth: a copy of an 8x8 Z32_FLOAT texture into the corner of a 32x32
 * one (no scaling: resource_copy_region), and a scaled one drawn by the
 * blitter's depth shader (gl_FragDepth) into (8, 8, 16, 16).
 */
static void
test_depth(void)
{
   static const float depth[4] = { 0.125f, 0.25f, 0.5f, 0.75f };
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = PIPE_FORMAT_Z32_FLOAT,
      .width0 = 8,
      .height0 = 8,
      .depth0 = 1,
      .array_size = 1,
      .bind = PIPE_BIND_SAMPLER_VIEW | PIPE_BIND_DEPTH_STENCIL,
   };
   struct pipe_resource *src = screen->resource_create(screen, &templ);
   templ.width0 = templ.height0 = 32;
   struct pipe_resource *dst = screen->resource_create(screen, &templ);
   CHECK(src && dst, "depth: resource_create failed");
   if (!src || !dst)
      goto out;
   float data[8 * 8];
   for (unsigned i = 0; i < 64; ++i)
      data[i] = depth[(i / 8 >= 4) * 2 + (i % 8 >= 4)];
   struct pipe_box box;
   u_box_2d(0, 0, 8, 8, &box);
   ctx->texture_subdata(ctx, src, 0, 0, &box, data, 8 * 4, 0);

   struct pipe_blit_info info = {
      .dst = { .resource = dst, .format = templ.format },
      .src = { .resource = src, .format = templ.format, .box = box },
      .mask = PIPE_MASK_Z,
      .filter = PIPE_TEX_FILTER_NEAREST,
   };
   u_box_2d(0, 0, 8, 8, &info.dst.box);
   ctx->blit(ctx, &info);
   pan_test_debug_msg[0] = 0;
   u_box_2d(8, 8, 16, 16, &info.dst.box);
   ctx->blit(ctx, &info);
   CHECK(!pan_test_debug_msg[0], "depth: scaled blit refused (%s)",
         pan_test_debug_msg);

   struct pipe_transfer *xfer;
   const uint8_t *map =
      pipe_texture_map(ctx, dst, 0, 0, PIPE_MAP_READ, 0, 0, 32, 32, &xfer);
   CHECK(map, "depth: map failed");
   if (!map)
      goto out;
   unsigned bad = 0;
   for (unsigned y = 0; y < 8; ++y) {
      for (unsigned x = 0; x < 8; ++x) {
         float z = ((const float *)(map + y * xfer->stride))[x];
         float want = depth[(y >= 4) * 2 + (x >= 4)];
         if (z != want && bad++ == 0)
            printf("depth: (%u, %u) is %f, want %f\n", x, y, z, want);
      }
   }
   CHECK(bad == 0, "depth: %u of 64 copied pixels wrong", bad);
   bad = 0;
   for (unsigned y = 8; y < 24; ++y) {
      for (unsigned x = 8; x < 24; ++x) {
         float z = ((const float *)(map + y * xfer->stride))[x];
         float want = depth[(y >= 16) * 2 + (x >= 16)];
         if (z != want && bad++ == 0)
            printf("depth: (%u, %u) is %f, want %f\n", x, y, z, want);
      }
   }
   pipe_texture_unmap(ctx, xfer);
   CHECK(bad == 0, "depth: %u of 256 scaled pixels wrong", bad);
out:
   pipe_resource_reference(&src, NULL);
   pipe_resource_reference(&dst, NULL);
}

/* An unscaled depth blit between formats (glCopyTexImage of a D24S8
 * buffer into a D16 or D32F texture) is converted on the CPU: 8x8 of
 * Z24S8 into the corner of a 16x16 texture of each format.
 */
static void
test_depth_convert(enum pipe_format dst_format)
{
   static const float depth[4] = { 0.125f, 0.25f, 0.5f, 0.75f };
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = PIPE_FORMAT_Z24_UNORM_S8_UINT,
      .width0 = 8,
      .height0 = 8,
      .depth0 = 1,
      .array_size = 1,
      .bind = PIPE_BIND_SAMPLER_VIEW | PIPE_BIND_DEPTH_STENCIL,
   };
   struct pipe_resource *src = screen->resource_create(screen, &templ);
   templ.format = dst_format;
   templ.width0 = templ.height0 = 16;
   struct pipe_resource *dst = screen->resource_create(screen, &templ);
   const char *what = util_format_short_name(dst_format);
   CHECK(src && dst, "%s: resource_create failed", what);
   if (!src || !dst)
      goto out;
   uint32_t data[8 * 8];
   for (unsigned i = 0; i < 64; ++i) {
      float z = depth[(i / 8 >= 4) * 2 + (i % 8 >= 4)];
      data[i] = (uint32_t)(z * 0xffffff) | 0x5a000000u;
   }
   struct pipe_box box;
   u_box_2d(0, 0, 8, 8, &box);
   ctx->texture_subdata(ctx, src, 0, 0, &box, data, 8 * 4, 0);

   struct pipe_blit_info info = {
      .dst = { .resource = dst, .format = dst_format },
      .src = { .resource = src, .format = PIPE_FORMAT_Z24_UNORM_S8_UINT,
               .box = box },
      .mask = PIPE_MASK_Z,
      .filter = PIPE_TEX_FILTER_NEAREST,
   };
   u_box_2d(4, 4, 8, 8, &info.dst.box);
   pan_test_debug_msg[0] = 0;
   ctx->blit(ctx, &info);
   CHECK(!pan_test_debug_msg[0], "%s: blit refused (%s)", what,
         pan_test_debug_msg);

   struct pipe_transfer *xfer;
   const uint8_t *map =
      pipe_texture_map(ctx, dst, 0, 0, PIPE_MAP_READ, 4, 4, 8, 8, &xfer);
   CHECK(map, "%s: map failed", what);
   if (!map)
      goto out;
   unsigned bad = 0;
   for (unsigned y = 0; y < 8; ++y) {
      float z[8];
      util_format_unpack_z_float(dst_format, z, map + y * xfer->stride, 8);
      for (unsigned x = 0; x < 8; ++x) {
         float want = depth[(y >= 4) * 2 + (x >= 4)];
         if (fabsf(z[x] - want) > 1.0f / 65535 && bad++ == 0)
            printf("%s: (%u, %u) is %f, want %f\n", what, x, y, z[x], want);
      }
   }
   pipe_texture_unmap(ctx, xfer);
   CHECK(bad == 0, "%s: %u of 64 converted pixels wrong", what, bad);
out:
   pipe_resource_reference(&src, NULL);
   pipe_resource_reference(&dst, NULL);
}

int
main(int argc, char **argv)
{
   if (!pan_test_open(&screen, &ctx))
      return 1;
   test_scaled(PIPE_TEX_FILTER_NEAREST, "scaled nearest");
   test_scaled(PIPE_TEX_FILTER_LINEAR, "scaled linear");
   test_mipmaps();
   test_depth();
   test_depth_convert(PIPE_FORMAT_Z16_UNORM);
   test_depth_convert(PIPE_FORMAT_Z32_FLOAT);
   return pan_test_close(screen, ctx);
}
