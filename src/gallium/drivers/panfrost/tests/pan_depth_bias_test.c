/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Polygon offset (the rasterizer's offset_* fields, the hardware's depth
 * bias) with Z24S8, Z16 and Z32F depth buffers, every case drawing a
 * quad over another of the same plane with depth test LESS:
 *    units      -1 unit brings the second quad in front, front and back
 *               faces alike; the depth written is two steps of the
 *               format nearer (our minimum resolvable difference);
 *    dirty      a draw after a biased one in the same pass is not biased;
 *    slope      factor -1 on a plane tilted by 1/64 a pixel in x and
 *               1/128 in y moves it by the larger slope, 1/64;
 *    clamp      a negative clamp bounds a slope offset, a positive one a
 *               large units offset;
 *    modes      GL_LINE and GL_POINT polygons take offset_line and
 *               offset_point (their lines and points win over the filled
 *               quad), with the slope term on a tilted plane, while line
 *               primitives take no offset at all.
 * Colours and the depth buffer's values are read back.
 */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pipe/p_context.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"
#include "util/format/u_format.h"
#include "util/u_inlines.h"

#include "pan_test_screen.h"

#define SIZE 32

static struct pipe_screen *screen;
static struct pipe_context *ctx;
static struct pipe_surface *rt, *zs;
static const char *fmt_name;

static const float red[4] = { 1, 0, 0, 1 }, green[4] = { 0, 1, 0, 1 },
                   blue[4] = { 0, 0, 1, 1 };

/* A plane of window depth z = c + dx x + dy y (pixels). */
struct plane {
   double c, dx, dy;
};

static double
plane_at(const struct plane *p, double x, double y)
{
   return p->c + p->dx * x + p->dy * y;
}

/* Draws `n` vertices at pixel positions xy with the plane's depth in
 * `mode`, flat `rgba`. */
static void
draw(enum pipe_prim_type mode, const float (*xy)[2], unsigned n,
     const struct plane *pl, const float rgba[4])
{
   float data[6][8];
   for (unsigned i = 0; i < n; ++i) {
      data[i][0] = xy[i][0] / (SIZE / 2.0f) - 1.0f;
      data[i][1] = xy[i][1] / (SIZE / 2.0f) - 1.0f;
      data[i][2] = (float)(2.0 * plane_at(pl, xy[i][0], xy[i][1]) - 1.0);
      data[i][3] = 1.0f;
      memcpy(&data[i][4], rgba, 16);
   }
   struct pipe_resource *r =
      pan_test_draw_vertices(screen, ctx, mode, data[0], n);
   pipe_resource_reference(&r, NULL);
}

/* The rectangle [x0, x1) x [y0, y1) as two triangles, counter-clockwise
 * as Gallium counts (y down) unless cw. */
static void
rect(unsigned x0, unsigned y0, unsigned x1, unsigned y1, const struct plane *pl,
     const float rgba[4], bool cw)
{
   const float c[4][2] = { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } };
   static const unsigned ccw_order[6] = { 0, 3, 2, 0, 2, 1 };
   static const unsigned cw_order[6] = { 0, 1, 2, 0, 2, 3 };
   float xy[6][2];
   for (unsigned i = 0; i < 6; ++i)
      memcpy(xy[i], c[(cw ? cw_order : ccw_order)[i]], sizeof(xy[i]));
   draw(PIPE_PRIM_TRIANGLES, xy, 6, pl, rgba);
}

/* Binds a rasterizer with this offset (for triangles, lines, points as
 * the flags say) and fill mode (PIPE_POLYGON_MODE_*); the caller
 * deletes it. */
static void *
bind_rast(bool tri, bool line, bool point, float units, float scale,
          float clamp, unsigned fill)
{
   struct pipe_rasterizer_state rs = pan_test_rasterizer(fill);
   rs.offset_tri = tri;
   rs.offset_line = line;
   rs.offset_point = point;
   rs.offset_units = units;
   rs.offset_scale = scale;
   rs.offset_clamp = clamp;
   void *cso = ctx->create_rasterizer_state(ctx, &rs);
   ctx->bind_rasterizer_state(ctx, cso);
   return cso;
}

static void *
plain(void)
{
   return bind_rast(false, false, false, 0, 0, 0, PIPE_POLYGON_MODE_FILL);
}

static void
clear(void)
{
   union pipe_color_union black = { .f = { 0, 0, 0, 1 } };
   ctx->clear(ctx, PIPE_CLEAR_COLOR | PIPE_CLEAR_DEPTHSTENCIL, NULL, &black,
              1.0, 0);
}

/* Flushes and checks pixel (x, y): its colour, and its depth within 3/4
 * of a step q of the format when want_z >= 0. */
static void
probe(const char *what, unsigned x, unsigned y, const float want[4],
      double want_z, double q)
{
   ctx->flush(ctx, NULL, 0);
   struct pipe_transfer *xfer;
   const uint8_t *map = pipe_texture_map(ctx, rt->texture, 0, 0, PIPE_MAP_READ,
                                         0, 0, SIZE, SIZE, &xfer);
   CHECK(map, "%s %s: colour map failed", fmt_name, what);
   if (map) {
      const uint8_t *p = map + y * xfer->stride + x * 4;
      bool ok = true;
      for (unsigned c = 0; c < 3; ++c)
         ok &= p[c] == (uint8_t)(want[c] * 255.0f);
      CHECK(ok, "%s %s: pixel (%u, %u) is %u %u %u, want %g %g %g", fmt_name,
            what, x, y, p[0], p[1], p[2], want[0], want[1], want[2]);
      pipe_texture_unmap(ctx, xfer);
   }
   if (want_z < 0)
      return;
   map = pipe_texture_map(ctx, zs->texture, 0, 0, PIPE_MAP_READ, 0, 0, SIZE,
                          SIZE, &xfer);
   CHECK(map, "%s %s: depth map failed", fmt_name, what);
   if (!map)
      return;
   const struct util_format_description *d =
      util_format_description(zs->format);
   /* As 32-bit unorm, which doubles hold exactly (a float could not hold
    * a 24-bit value near 0.5). */
   uint32_t z32 = 0;
   util_format_unpack_z_32unorm(
      zs->format, &z32, map + y * xfer->stride + x * (d->block.bits / 8), 1);
   pipe_texture_unmap(ctx, xfer);
   double z = z32 / 4294967295.0;
   CHECK(fabs(z - want_z) <= q * 0.75,
         "%s %s: depth at (%u, %u) = %.9f, want %.9f (off by %.2f steps)",
         fmt_name, what, x, y, z, want_z, (z - want_z) / q);
}

static void
test_format(enum pipe_format zf, unsigned bits, bool is_float)
{
   fmt_name = util_format_short_name(zf);
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = zf,
      .width0 = SIZE,
      .height0 = SIZE,
      .depth0 = 1,
      .array_size = 1,
      .bind = PIPE_BIND_DEPTH_STENCIL,
   };
   struct pipe_resource *tex = screen->resource_create(screen, &templ);
   CHECK(tex, "%s: no depth buffer", fmt_name);
   if (!tex)
      return;
   struct pipe_surface st = { .format = zf };
   zs = ctx->create_surface(ctx, tex, &st);
   pipe_resource_reference(&tex, NULL);
   struct pipe_framebuffer_state fb = {
      .width = SIZE,
      .height = SIZE,
      .nr_cbufs = 1,
      .zsbuf = zs,
   };
   fb.cbufs[0] = rt;
   ctx->set_framebuffer_state(ctx, &fb);

   /* One step of the format at depth 0.5 (float: 0.5's exponent, -1). */
   const double step = is_float ? ldexp(1, -24) : ldexp(1, -(int)bits);
   /* Quantisation of the probes themselves. */
   const double q = is_float ? ldexp(1, -23) : 1.0 / ((1u << bits) - 1);
   const struct plane flat = { 0.5, 0, 0 };
   const struct plane tilted = { 0.2, 1.0 / 64, 1.0 / 128 };
   void *cso;

   /* Units, both faces: the offset quad wins and sits two steps nearer. */
   clear();
   cso = plain();
   rect(0, 0, 16, SIZE, &flat, red, false);
   rect(16, 0, SIZE, SIZE, &flat, red, true);
   ctx->delete_rasterizer_state(ctx, cso);
   cso = bind_rast(true, false, false, -1, 0, 0, PIPE_POLYGON_MODE_FILL);
   rect(0, 0, 16, SIZE, &flat, green, false);
   rect(16, 0, SIZE, SIZE, &flat, green, true);
   ctx->delete_rasterizer_state(ctx, cso);
   probe("units, front face", 8, 8, green, 0.5 - 2 * step, q);
   probe("units, back face", 24, 8, green, 0.5 - 2 * step, q);

   /* The draw after a biased one in the same pass is not biased (nor the
    * biased one left unbiased by a cached state). */
   clear();
   cso = plain();
   rect(0, 24, SIZE, SIZE, &flat, blue, false);
   ctx->delete_rasterizer_state(ctx, cso);
   cso = bind_rast(true, false, false, 1, 0, 0, PIPE_POLYGON_MODE_FILL);
   rect(0, 0, SIZE, 16, &flat, red, false);
   ctx->delete_rasterizer_state(ctx, cso);
   cso = plain();
   rect(0, 0, SIZE, 16, &flat, green, false);
   ctx->delete_rasterizer_state(ctx, cso);
   probe("unbiased after biased", 8, 8, green, 0.5, q);

   /* Slope: the larger of the two, not their length. */
   clear();
   cso = plain();
   rect(0, 0, SIZE, SIZE, &tilted, red, false);
   ctx->delete_rasterizer_state(ctx, cso);
   cso = bind_rast(true, false, false, 0, -1, 0, PIPE_POLYGON_MODE_FILL);
   rect(0, 0, SIZE, SIZE, &tilted, green, false);
   ctx->delete_rasterizer_state(ctx, cso);
   probe("slope", 8, 8, green, plane_at(&tilted, 8.5, 8.5) - 1.0 / 64, q);

   /* Clamps: -1/256 bounds the slope's -1/64; 1/1024 bounds 10^5 units. */
   clear();
   cso = plain();
   rect(0, 0, SIZE, SIZE, &tilted, red, false);
   ctx->delete_rasterizer_state(ctx, cso);
   cso =
      bind_rast(true, false, false, 0, -1, -1.0f / 256, PIPE_POLYGON_MODE_FILL);
   rect(0, 0, SIZE, SIZE, &tilted, green, false);
   ctx->delete_rasterizer_state(ctx, cso);
   probe("negative clamp", 8, 8, green, plane_at(&tilted, 8.5, 8.5) - 1.0 / 256,
         q);
   clear();
   cso = bind_rast(true, false, false, 100000, 0, 1.0f / 1024,
                   PIPE_POLYGON_MODE_FILL);
   rect(0, 0, SIZE, SIZE, &flat, blue, false);
   ctx->delete_rasterizer_state(ctx, cso);
   probe("positive clamp", 8, 8, blue, 0.5 + 1.0 / 1024, q);

   /* GL_LINE and GL_POINT polygons take the offset of their mode. */
   static const float quad[6][2] = { { 4, 4 }, { 4, 28 },  { 28, 28 },
                                     { 4, 4 }, { 28, 28 }, { 28, 4 } };
   /* Pixel centres on the outline, half a pixel in from the quad. */
   static const float inner[6][2] = {
      { 4.5f, 4.5f }, { 4.5f, 27.5f },  { 27.5f, 27.5f },
      { 4.5f, 4.5f }, { 27.5f, 27.5f }, { 27.5f, 4.5f },
   };
   clear();
   cso = plain();
   draw(PIPE_PRIM_TRIANGLES, quad, 6, &flat, red);
   ctx->delete_rasterizer_state(ctx, cso);
   cso = bind_rast(false, true, false, -1, 0, 0, PIPE_POLYGON_MODE_LINE);
   draw(PIPE_PRIM_TRIANGLES, inner, 6, &flat, green);
   ctx->delete_rasterizer_state(ctx, cso);
   probe("GL_LINE polygon, its edge", 16, 4, green, 0.5 - 2 * step, q);
   probe("GL_LINE polygon, inside", 20, 10, red, 0.5, q);
   clear();
   cso = plain();
   draw(PIPE_PRIM_TRIANGLES, quad, 6, &flat, red);
   ctx->delete_rasterizer_state(ctx, cso);
   cso = bind_rast(false, false, true, -1, 0, 0, PIPE_POLYGON_MODE_POINT);
   draw(PIPE_PRIM_TRIANGLES, inner, 6, &flat, green);
   ctx->delete_rasterizer_state(ctx, cso);
   probe("GL_POINT polygon, a corner", 27, 27, green, 0.5 - 2 * step, q);
   /* On the tilted plane, with the slope term too (the hardware gives
    * lines and points none: pan_polygon_mode.c adds it to the units). */
   clear();
   cso = plain();
   draw(PIPE_PRIM_TRIANGLES, quad, 6, &tilted, red);
   ctx->delete_rasterizer_state(ctx, cso);
   cso = bind_rast(false, true, false, 0, -1, 0, PIPE_POLYGON_MODE_LINE);
   draw(PIPE_PRIM_TRIANGLES, inner, 6, &tilted, green);
   ctx->delete_rasterizer_state(ctx, cso);
   probe("tilted GL_LINE polygon, its edge", 16, 4, green,
         plane_at(&tilted, 16.5, 4.5) - 1.0 / 64, q);
   clear();
   cso = plain();
   draw(PIPE_PRIM_TRIANGLES, quad, 6, &tilted, red);
   ctx->delete_rasterizer_state(ctx, cso);
   cso = bind_rast(false, false, true, 0, -1, 0, PIPE_POLYGON_MODE_POINT);
   draw(PIPE_PRIM_TRIANGLES, inner, 6, &tilted, green);
   ctx->delete_rasterizer_state(ctx, cso);
   probe("tilted GL_POINT polygon, a corner", 27, 27, green,
         plane_at(&tilted, 27.5, 27.5) - 1.0 / 64, q);

   /* GL offsets polygons only: a line primitive keeps its depth. */
   static const float across[2][2] = { { 0, 16.5f }, { SIZE, 16.5f } };
   clear();
   cso = plain();
   draw(PIPE_PRIM_TRIANGLES, quad, 6, &flat, red);
   ctx->delete_rasterizer_state(ctx, cso);
   cso = bind_rast(true, true, true, -1, 0, 0, PIPE_POLYGON_MODE_FILL);
   draw(PIPE_PRIM_LINES, across, 2, &flat, green);
   ctx->delete_rasterizer_state(ctx, cso);
   probe("line primitive", 16, 16, red, 0.5, q);

   struct pipe_framebuffer_state none = {
      .width = SIZE,
      .height = SIZE,
      .nr_cbufs = 1,
   };
   none.cbufs[0] = rt;
   ctx->set_framebuffer_state(ctx, &none);
   pipe_surface_reference(&zs, NULL);
}

int
main(int argc, char **argv)
{
   struct pan_test_fullscreen f;

   if (!pan_test_open_fullscreen(&screen, &ctx, SIZE, SIZE, &f))
      return 1;
   rt = f.surf;
   struct pan_test_colour_draw d;
   pan_test_colour_draw_setup(screen, ctx, "bias", false, &d);
   struct pipe_depth_stencil_alpha_state zsa_templ = {
      .depth_enabled = 1,
      .depth_writemask = 1,
      .depth_func = PIPE_FUNC_LESS,
   };
   void *zsa = ctx->create_depth_stencil_alpha_state(ctx, &zsa_templ);
   ctx->bind_depth_stencil_alpha_state(ctx, zsa);

   pan_test_debug_msg[0] = 0;
   test_format(PIPE_FORMAT_Z24_UNORM_S8_UINT, 24, false);
   test_format(PIPE_FORMAT_Z16_UNORM, 16, false);
   test_format(PIPE_FORMAT_Z32_FLOAT, 0, true);
   CHECK(!pan_test_debug_msg[0], "driver said \"%s\"", pan_test_debug_msg);

   ctx->bind_rasterizer_state(ctx, f.cso[1]);
   ctx->bind_depth_stencil_alpha_state(ctx, f.cso[2]);
   ctx->delete_depth_stencil_alpha_state(ctx, zsa);
   pan_test_colour_draw_teardown(ctx, f.cso[3], &d);
   pan_test_fullscreen_teardown(ctx, &f);
   return pan_test_close(screen, ctx);
}
