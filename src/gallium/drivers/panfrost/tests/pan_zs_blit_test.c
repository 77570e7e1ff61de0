/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Depth and stencil blits drawn on the simulated GPU (gallium-zs-blit-*):
 * util_blitter's shaders fetch the source and write gl_FragDepth and the
 * stencil reference.  Scaled blits of each depth/stencil format, a
 * stencil-only blit keeping the destination's depth, a scaled conversion
 * between formats, and resolves of 4x Z24S8, Z24X8, Z16 and Z32F
 * resources (sample 0, whose values differ from the other samples'), all
 * read back through maps and compared value by value; none may be
 * dropped with a message.
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
#include "util/u_math.h"
#include "util/u_surface.h"

#include "pan_resource.h"
#include "pan_test_screen.h"

static struct pipe_screen *screen;
static struct pipe_context *ctx;

/* Quadrant values of the sources: depths exact in 16 bits and more. */
static const float quad_z[4] = { 0.125f, 0.25f, 0.5f, 0.75f };
static const uint8_t quad_s[4] = { 0x11, 0x5a, 0xa5, 0xfe };

static unsigned
quad_of(unsigned x, unsigned y, unsigned size)
{
   return (y >= size / 2) * 2 + (x >= size / 2);
}

static bool
has_z(enum pipe_format f)
{
   return util_format_has_depth(util_format_description(f));
}

static bool
has_s(enum pipe_format f)
{
   return util_format_has_stencil(util_format_description(f));
}

/* The tolerance of a format's depth: one step of its precision. */
static float
z_eps(enum pipe_format f)
{
   return f == PIPE_FORMAT_Z16_UNORM ? 1.0f / 65535
          : f == PIPE_FORMAT_Z32_FLOAT || f == PIPE_FORMAT_Z32_FLOAT_S8X24_UINT
             ? 0.0f
             : 1.0f / 16777215;
}

#define ZS_BIND (PIPE_BIND_SAMPLER_VIEW | PIPE_BIND_DEPTH_STENCIL)

/* Packs one texel of depth z and stencil s into px (what the format has). */
static void
pack(enum pipe_format f, uint8_t *px, float z, uint8_t s)
{
   memset(px, 0, 8);
   if (has_z(f))
      util_format_pack_z_float(f, px, &z, 1);
   if (has_s(f))
      util_format_pack_s_8uint(f, px, &s, 1);
}

/* Fills level 0 of r, size x size, with the quadrant values (offset by
 * delta, for the samples after the first of a 4x resource) through a
 * map: sample i of a multisampled map is i surfaces after the first.
 */
static bool
fill(struct pipe_resource *r, unsigned size, unsigned samples, int delta)
{
   struct pipe_transfer *xfer;
   uint8_t *map =
      pipe_texture_map(ctx, r, 0, 0, PIPE_MAP_WRITE, 0, 0, size, size, &xfer);
   if (!map)
      return false;
   unsigned px_B = util_format_get_blocksize(r->format);
   uint64_t sample_B = panfrost_resource(r)->layout.levels[0].surface_stride_B;
   for (unsigned s = 0; s < samples; ++s) {
      for (unsigned y = 0; y < size; ++y) {
         for (unsigned x = 0; x < size; ++x) {
            unsigned q = quad_of(x, y, size);
            float z = quad_z[q] + (s ? delta / 64.0f : 0);
            uint8_t st = quad_s[q] + (s ? delta : 0);
            uint8_t px[8];
            pack(r->format, px, z, st);
            memcpy(map + s * sample_B + y * xfer->stride + x * px_B, px, px_B);
         }
      }
   }
   pipe_texture_unmap(ctx, xfer);
   return true;
}

/* Clears the whole of r to depth z and stencil s. */
static void
clear(struct pipe_resource *r, float z, uint8_t s)
{
   struct pipe_surface templ = { .format = r->format };
   struct pipe_surface *surf = ctx->create_surface(ctx, r, &templ);
   unsigned flags = (has_z(r->format) ? PIPE_CLEAR_DEPTH : 0) |
                    (has_s(r->format) ? PIPE_CLEAR_STENCIL : 0);
   ctx->clear_depth_stencil(ctx, surf, flags, z, s, 0, 0, r->width0, r->height0,
                            false);
   pipe_surface_reference(&surf, NULL);
}

/* What (x, y) of the destination should hold. */
typedef void (*expect_fn)(unsigned x, unsigned y, float *z, uint8_t *s);

/* Compares every texel of r (size x size) with expect, for the aspects
 * of mask, depths within eps; returns the number of wrong texels.
 */
static unsigned
compare(struct pipe_resource *r, unsigned size, unsigned mask, expect_fn want,
        float eps, const char *what)
{
   struct pipe_transfer *xfer;
   const uint8_t *map =
      pipe_texture_map(ctx, r, 0, 0, PIPE_MAP_READ, 0, 0, size, size, &xfer);
   CHECK(map, "%s: map failed", what);
   if (!map)
      return size * size;
   unsigned bad = 0, px_B = util_format_get_blocksize(r->format);
   for (unsigned y = 0; y < size; ++y) {
      for (unsigned x = 0; x < size; ++x) {
         const uint8_t *p = map + y * xfer->stride + x * px_B;
         float wz, z = 0;
         uint8_t ws, s = 0;
         want(x, y, &wz, &ws);
         bool ok = true;
         if (mask & PIPE_MASK_Z) {
            util_format_unpack_z_float(r->format, &z, p, 1);
            ok &= fabsf(z - wz) <= eps;
         }
         if (mask & PIPE_MASK_S) {
            util_format_unpack_s_8uint(r->format, &s, p, 1);
            ok &= s == ws;
         }
         if (!ok && bad++ == 0)
            printf("%s: (%u, %u) is z %f s 0x%02x, want z %f s 0x%02x\n", what,
                   x, y, z, s, wz, ws);
      }
   }
   pipe_texture_unmap(ctx, xfer);
   return bad;
}

static void
blit(struct pipe_resource *dst, enum pipe_format dst_format,
     struct pipe_resource *src, const struct pipe_box *sbox,
     const struct pipe_box *dbox, unsigned mask)
{
   struct pipe_blit_info info = {
      .dst = { .resource = dst, .format = dst_format, .box = *dbox },
      .src = { .resource = src, .format = src->format, .box = *sbox },
      .mask = mask,
      .filter = PIPE_TEX_FILTER_NEAREST,
   };
   pan_test_debug_msg[0] = 0;
   ctx->blit(ctx, &info);
}

/* The 8x8 source scaled into (8, 8, 16, 16) of a 32x32 destination
 * cleared to depth 1, stencil 0.
 */
static void
expect_scaled(unsigned x, unsigned y, float *z, uint8_t *s)
{
   bool in = x >= 8 && x < 24 && y >= 8 && y < 24;
   unsigned q = in ? quad_of(x - 8, y - 8, 16) : 0;
   *z = in ? quad_z[q] : 1.0f;
   *s = in ? quad_s[q] : 0;
}

/* A stencil-only blit: the depth cleared (0.375) stays. */
static void
expect_stencil_only(unsigned x, unsigned y, float *z, uint8_t *s)
{
   expect_scaled(x, y, z, s);
   *z = 0.375f;
}

static void
test_scaled(enum pipe_format src_format, enum pipe_format dst_format,
            unsigned mask, float dst_z, expect_fn want)
{
   char what[96];
   snprintf(what, sizeof(what), "scaled %s -> %s (mask 0x%x)",
            util_format_short_name(src_format),
            util_format_short_name(dst_format), mask);
   if (!screen->is_format_supported(screen, src_format, PIPE_TEXTURE_2D, 0, 0,
                                    PIPE_BIND_DEPTH_STENCIL) ||
       !screen->is_format_supported(screen, dst_format, PIPE_TEXTURE_2D, 0, 0,
                                    PIPE_BIND_DEPTH_STENCIL))
      return;
   struct pipe_resource *src =
      pan_test_texture(screen, src_format, 8, 0, ZS_BIND);
   struct pipe_resource *dst =
      pan_test_texture(screen, dst_format, 32, 0, ZS_BIND);
   CHECK(src && dst, "%s: resource_create failed", what);
   if (src && dst && fill(src, 8, 1, 0)) {
      clear(dst, dst_z, 0);
      struct pipe_box sbox, dbox;
      u_box_2d(0, 0, 8, 8, &sbox);
      u_box_2d(8, 8, 16, 16, &dbox);
      blit(dst, dst_format, src, &sbox, &dbox, mask);
      CHECK(!pan_test_debug_msg[0], "%s: %s", what, pan_test_debug_msg);
      float eps = MAX2(z_eps(src_format), z_eps(dst_format));
      unsigned bad = compare(dst, 32, mask | PIPE_MASK_Z, want, eps, what);
      CHECK(bad == 0, "%s: %u of 1024 texels wrong", what, bad);
   }
   pipe_resource_reference(&src, NULL);
   pipe_resource_reference(&dst, NULL);
}

/* A resolve takes sample 0 (the quadrant values). */
static void
expect_sample0(unsigned x, unsigned y, float *z, uint8_t *s)
{
   unsigned q = quad_of(x, y, 16);
   *z = quad_z[q];
   *s = quad_s[q];
}

/* A 4x resource whose samples 1-3 differ from sample 0, resolved into a
 * single-sampled one of its format.
 */
/* ... only within the scissor (4, 4)-(12, 12), the rest cleared (depth 1,
 * stencil 0).
 */
static void
expect_sample0_scissored(unsigned x, unsigned y, float *z, uint8_t *s)
{
   bool in = x >= 4 && x < 12 && y >= 4 && y < 12;
   expect_sample0(x, y, z, s);
   if (!in) {
      *z = 1.0f;
      *s = 0;
   }
}

static void
test_resolve_mask(enum pipe_format format, unsigned mask, bool scissor)
{
   char what[64];
   snprintf(what, sizeof(what), "4x %s resolve (mask 0x%x%s)",
            util_format_short_name(format), mask, scissor ? ", scissored" : "");
   if (!screen->is_format_supported(screen, format, PIPE_TEXTURE_2D, 4, 4,
                                    PIPE_BIND_DEPTH_STENCIL))
      return;
   struct pipe_resource *src = pan_test_texture(screen, format, 16, 4, ZS_BIND);
   struct pipe_resource *dst = pan_test_texture(screen, format, 16, 0, ZS_BIND);
   CHECK(src && dst, "%s: resource_create failed", what);
   if (src && dst && fill(src, 16, 4, 3)) {
      clear(dst, 1.0f, 0);
      struct pipe_blit_info info = {
         .dst = { .resource = dst, .format = format },
         .src = { .resource = src, .format = format },
         .mask = mask,
         .filter = PIPE_TEX_FILTER_NEAREST,
         .scissor_enable = scissor,
         .scissor = { 4, 4, 12, 12 },
      };
      u_box_2d(0, 0, 16, 16, &info.dst.box);
      u_box_2d(0, 0, 16, 16, &info.src.box);
      pan_test_debug_msg[0] = 0;
      ctx->blit(ctx, &info);
      CHECK(!pan_test_debug_msg[0], "%s: %s", what, pan_test_debug_msg);
      unsigned bad = compare(
         dst, 16, mask, scissor ? expect_sample0_scissored : expect_sample0,
         z_eps(format), what);
      CHECK(bad == 0, "%s: %u of 256 texels wrong", what, bad);
   }
   pipe_resource_reference(&src, NULL);
   pipe_resource_reference(&dst, NULL);
}

static void
test_resolve(enum pipe_format format)
{
   unsigned mask =
      (has_z(format) ? PIPE_MASK_Z : 0) | (has_s(format) ? PIPE_MASK_S : 0);
   test_resolve_mask(format, mask, false);
   /* The CPU resolve took no scissor: a scissored one was dropped. */
   test_resolve_mask(format, mask, true);
}

int
main(int argc, char **argv)
{
   if (!pan_test_open(&screen, &ctx))
      return 1;
   test_scaled(PIPE_FORMAT_Z32_FLOAT, PIPE_FORMAT_Z32_FLOAT, PIPE_MASK_Z, 1.0f,
               expect_scaled);
   test_scaled(PIPE_FORMAT_Z16_UNORM, PIPE_FORMAT_Z16_UNORM, PIPE_MASK_Z, 1.0f,
               expect_scaled);
   test_scaled(PIPE_FORMAT_Z24X8_UNORM, PIPE_FORMAT_Z24X8_UNORM, PIPE_MASK_Z,
               1.0f, expect_scaled);
   test_scaled(PIPE_FORMAT_Z24_UNORM_S8_UINT, PIPE_FORMAT_Z24_UNORM_S8_UINT,
               PIPE_MASK_ZS, 1.0f, expect_scaled);
   test_scaled(PIPE_FORMAT_Z24_UNORM_S8_UINT, PIPE_FORMAT_Z24_UNORM_S8_UINT,
               PIPE_MASK_S, 0.375f, expect_stencil_only);
   test_scaled(PIPE_FORMAT_Z32_FLOAT_S8X24_UINT,
               PIPE_FORMAT_Z32_FLOAT_S8X24_UINT, PIPE_MASK_ZS, 1.0f,
               expect_scaled);
   test_scaled(PIPE_FORMAT_Z24_UNORM_S8_UINT, PIPE_FORMAT_Z32_FLOAT_S8X24_UINT,
               PIPE_MASK_ZS, 1.0f, expect_scaled);
   test_scaled(PIPE_FORMAT_Z32_FLOAT_S8X24_UINT, PIPE_FORMAT_Z24_UNORM_S8_UINT,
               PIPE_MASK_S, 0.375f, expect_stencil_only);
   test_scaled(PIPE_FORMAT_Z24_UNORM_S8_UINT, PIPE_FORMAT_Z16_UNORM,
               PIPE_MASK_Z, 1.0f, expect_scaled);
   test_scaled(PIPE_FORMAT_Z16_UNORM, PIPE_FORMAT_Z32_FLOAT, PIPE_MASK_Z, 1.0f,
               expect_scaled);
   test_resolve(PIPE_FORMAT_Z24_UNORM_S8_UINT);
   test_resolve_mask(PIPE_FORMAT_Z24_UNORM_S8_UINT, PIPE_MASK_Z, false);
   test_resolve_mask(PIPE_FORMAT_Z24_UNORM_S8_UINT, PIPE_MASK_S, false);
   test_resolve(PIPE_FORMAT_Z24X8_UNORM);
   test_resolve(PIPE_FORMAT_Z16_UNORM);
   test_resolve(PIPE_FORMAT_Z32_FLOAT);
   return pan_test_close(screen, ctx);
}
