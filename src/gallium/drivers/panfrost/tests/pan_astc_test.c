/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * 2D ASTC textures sampled natively: the screen offers every LDR
 * footprint (and no 3D one), their resources are u-interleaved in tiles of
 * 4x4 blocks whatever the footprint, an upload puts each 16-byte block
 * where the reference tiling says, and the texels a shader fetches
 * (texelFetch at gl_FragCoord, levels 0 and 1) follow the footprint the
 * descriptors give: void-extent blocks of random colours (linear, decoded
 * wide, and sRGB), and a block whose 2x4 weight grid spreads a ramp over
 * 8x8 texels, checked against the specification's infill worked out here.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/nir/nir_builder.h"
#include "drm-uapi/drm_fourcc.h"
#include "pipe/p_context.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"
#include "util/format/u_format.h"
#include "util/u_inlines.h"

#include "pan_resource.h"
#include "pan_test_screen.h"
#include "pan_uinterleave.h"

/* Not a multiple of any footprint but 4x4's width. */
#define TW 36
#define TH 20

static struct pipe_screen *screen;
static struct pipe_context *ctx;

static uint32_t rng = 4242;

static uint8_t
rand8(void)
{
   rng = rng * 1103515245u + 12345u;
   return (uint8_t)(rng >> 16);
}

static void
test_supported(void)
{
   for (unsigned f = PIPE_FORMAT_ASTC_4x4; f <= PIPE_FORMAT_ASTC_12x12_SRGB;
        ++f) {
      const struct util_format_description *d = util_format_description(f);
      if (!d || d->layout != UTIL_FORMAT_LAYOUT_ASTC)
         continue;
      CHECK(screen->is_format_supported(screen, f, PIPE_TEXTURE_2D, 0, 0,
                                        PIPE_BIND_SAMPLER_VIEW),
            "%s is not offered for sampling", util_format_short_name(f));
      CHECK(!screen->is_format_supported(screen, f, PIPE_TEXTURE_2D, 0, 0,
                                         PIPE_BIND_RENDER_TARGET),
            "%s is offered as a render target", util_format_short_name(f));
   }
   /* 3D blocks are left to the state tracker. */
   CHECK(!screen->is_format_supported(screen, PIPE_FORMAT_ASTC_4x4x4,
                                      PIPE_TEXTURE_3D, 0, 0,
                                      PIPE_BIND_SAMPLER_VIEW),
         "ASTC 4x4x4 is offered");
}

/* A void-extent block (no extents) of colour rgba, 16 bits a channel. */
static void
void_extent(uint8_t b[16], const uint8_t rgba[4])
{
   memset(b, 0xff, 8);
   b[0] = 0xfc;
   b[1] = 0xfd; /* bits 8..11 1 but 9: LDR */
   for (unsigned c = 0; c < 4; ++c)
      b[8 + 2 * c] = b[9 + 2 * c] = rgba[c];
}

static uint8_t
srgb_to_linear8(uint8_t v)
{
   double s = v / 255.0;
   double l = s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4);
   return (uint8_t)(l * 255.0 + 0.5);
}

static struct pipe_resource *
texture(enum pipe_format format, unsigned levels)
{
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = format,
      .width0 = TW,
      .height0 = TH,
      .depth0 = 1,
      .array_size = 1,
      .last_level = levels - 1,
      .usage = PIPE_USAGE_DEFAULT,
      .bind = PIPE_BIND_SAMPLER_VIEW,
   };
   return screen->resource_create(screen, &templ);
}

/* Level `level` of tex (w x h texels) filled with void-extent blocks of
 * random colours; checks where the blocks land (level 0) and the fetched
 * texels.
 */
static void
check_void_extents(struct pipe_resource *tex, unsigned level, unsigned w,
                   unsigned h, const char *what)
{
   enum pipe_format fmt = tex->format;
   unsigned bw = util_format_get_blockwidth(fmt);
   unsigned bh = util_format_get_blockheight(fmt);
   unsigned nx = DIV_ROUND_UP(w, bw), ny = DIV_ROUND_UP(h, bh);
   bool srgb = util_format_is_srgb(fmt);
   static uint8_t blocks[TH][TW][16], colour[TH][TW][4];

   for (unsigned y = 0; y < ny; ++y) {
      for (unsigned x = 0; x < nx; ++x) {
         for (unsigned c = 0; c < 4; ++c)
            colour[y][x][c] = rand8();
         void_extent(blocks[y][x], colour[y][x]);
      }
   }
   /* Rows of blocks, packed for the upload. */
   static uint8_t packed[TH * TW * 16];
   for (unsigned y = 0; y < ny; ++y)
      memcpy(packed + y * nx * 16, blocks[y], nx * 16);
   struct pipe_box box = { .width = w, .height = h, .depth = 1 };
   ctx->texture_subdata(ctx, tex, level, 0, &box, packed, nx * 16,
                        nx * ny * 16);

   struct panfrost_resource *rsc = panfrost_resource(tex);
   const struct pan_image_level *l = &rsc->layout.levels[level];
   uint8_t *cpu = pan_bo_mmap(rsc->bo);
   unsigned misplaced = 0;
   for (unsigned y = 0; cpu && y < ny; ++y) {
      for (unsigned x = 0; x < nx; ++x) {
         uint64_t off = l->offset_B + pan_uinterleave_ref_offset_B(
                                         x, y, l->row_stride_B, 16, true);
         misplaced += memcmp(cpu + off, blocks[y][x], 16) != 0;
      }
   }
   CHECK(cpu && !misplaced, "%s level %u: %u of %u blocks misplaced", what,
         level, misplaced, nx * ny);

   static uint8_t want[TH * TW * 4];
   for (unsigned y = 0; y < h; ++y) {
      for (unsigned x = 0; x < w; ++x) {
         const uint8_t *c = colour[y / bh][x / bw];
         for (unsigned i = 0; i < 4; ++i)
            want[(y * w + x) * 4 + i] =
               srgb && i < 3 ? srgb_to_linear8(c[i]) : c[i];
      }
   }
   unsigned bad =
      pan_test_fetch_compare(screen, ctx, tex, level, w, h, want, 1, what);
   CHECK(!bad, "%s level %u: %u of %u texels wrong", what, level, bad, w * h);
}

static void
test_void_extents(enum pipe_format fmt)
{
   const char *what = util_format_short_name(fmt);
   struct pipe_resource *tex = texture(fmt, 2);
   CHECK(tex, "%s: no texture", what);
   if (!tex)
      return;
   struct panfrost_resource *rsc = panfrost_resource(tex);
   CHECK(rsc->modifier == DRM_FORMAT_MOD_ARM_16X16_BLOCK_U_INTERLEAVED,
         "%s: not u-interleaved (modifier 0x%llx)", what,
         (unsigned long long)rsc->modifier);
   /* A row of tiles: 4x4 blocks of 16 bytes per tile. */
   unsigned nx = DIV_ROUND_UP(TW, util_format_get_blockwidth(fmt));
   unsigned want_B = DIV_ROUND_UP(nx, 4) * 16 * 16;
   CHECK(rsc->layout.levels[0].row_stride_B == want_B,
         "%s: row of tiles %u bytes, want %u", what,
         rsc->layout.levels[0].row_stride_B, want_B);
   check_void_extents(tex, 0, TW, TH, what);
   check_void_extents(tex, 1, TW / 2, TH / 2, what);
   pipe_resource_reference(&tex, NULL);
}

/* One 8x8 block repeated: a 2x4 weight grid (four-bit weights, 0 in the
 * left column, 15 -> 64 in the right), luminance endpoints 0 and 255.
 * Column x of a block sits at gs = (146 * x + 32) >> 6 sixteenths of the
 * grid (146 = (1024 + 4) / 7): weight 4 * (gs & 15), 64 past the last
 * column; the linear format decodes it to 16-bit floats.
 */
static void
test_infill(void)
{
   const char *what = "ASTC 8x8 ramp";
   struct pipe_resource *tex = texture(PIPE_FORMAT_ASTC_8x8, 1);
   CHECK(tex, "%s: no texture", what);
   if (!tex)
      return;
   uint8_t b[16] = { 0 };
   /* Block mode 0x34e: grid 2x4, high precision, weights 0..15. */
   b[0] = 0x4e;
   b[1] = 0x03;
   /* Mode 0 (bits 13..16), endpoints 0 (bits 17..24) and 255 (25..32). */
   b[3] = 0xfe;
   b[4] = 0x01;
   /* Weights 1, 3, 5, 7 (the right column) = 15: bits 127 - (4i + k). */
   for (unsigned i = 1; i < 8; i += 2) {
      for (unsigned k = 0; k < 4; ++k) {
         unsigned p = 127 - (4 * i + k);
         b[p / 8] |= (uint8_t)(1u << (p % 8));
      }
   }
   static uint8_t data[3 * 5 * 16];
   for (unsigned i = 0; i < 15; ++i)
      memcpy(data + 16 * i, b, 16);
   struct pipe_box box = { .width = TW, .height = TH, .depth = 1 };
   ctx->texture_subdata(ctx, tex, 0, 0, &box, data, 5 * 16, sizeof(data));

   static uint8_t want[TH][TW][4];
   for (unsigned y = 0; y < TH; ++y) {
      for (unsigned x = 0; x < TW; ++x) {
         unsigned gs = (146 * (x % 8) + 32) >> 6;
         unsigned w = gs >= 16 ? 64 : 4 * (gs & 15);
         unsigned c = (65535 * w + 32) >> 6;
         /* C / 65536 to half precision toward zero, then to 8 bits. */
         double v = c == 65535 ? 1.0 : c / 65536.0;
         if (c && c != 65535) {
            double step = exp2(floor(log2(v)) - 10);
            v = floor(v / step) * step;
         }
         uint8_t u = (uint8_t)(v * 255.0 + 0.5);
         want[y][x][0] = want[y][x][1] = want[y][x][2] = u;
         want[y][x][3] = 255;
      }
   }
   unsigned bad = pan_test_fetch_compare(screen, ctx, tex, 0, TW, TH,
                                         &want[0][0][0], 1, what);
   CHECK(!bad, "%s: %u of %u texels wrong", what, bad, TW * TH);
   pipe_resource_reference(&tex, NULL);
}

int
main(int argc, char **argv)
{
   if (!pan_test_open(&screen, &ctx))
      return 1;
   test_supported();
   static const enum pipe_format formats[] = {
      PIPE_FORMAT_ASTC_4x4,       PIPE_FORMAT_ASTC_5x4,
      PIPE_FORMAT_ASTC_8x6,       PIPE_FORMAT_ASTC_12x12,
      PIPE_FORMAT_ASTC_10x5_SRGB, PIPE_FORMAT_ASTC_6x6_SRGB,
   };
   for (unsigned i = 0; i < ARRAY_SIZE(formats); ++i)
      test_void_extents(formats[i]);
   test_infill();
   return pan_test_close(screen, ctx);
}
