/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * ETC2/EAC textures sampled natively: the screen offers them, their
 * resources are u-interleaved (tiles of 4x4 blocks) unless staging, an
 * upload goes into the tiles where the reference tiling puts each block,
 * a partial map reads back what was written, and every texel a shader
 * fetches (texelFetch at gl_FragCoord, levels 0 and 1) is the one Mesa's
 * own ETC1 decoder gives for the same block (ETC1 blocks are ETC2 RGB8
 * blocks).  An EAC R11 block and an ETC2 planar block are checked against
 * values worked out by hand from the ES 3.0 specification.
 */

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

/* 9x5 blocks: three tiles across, two down, the last ones partial. */
#define TW 36
#define TH 20
#define BW (TW / 4)
#define BH (TH / 4)

static struct pipe_screen *screen;
static struct pipe_context *ctx;

static uint32_t rng = 12345;

static uint8_t
rand8(void)
{
   rng = rng * 1103515245u + 12345u;
   return (uint8_t)(rng >> 16);
}

/* A random ETC1 block (individual or differential without overflow,
 * which ETC2 reads the same way). */
static void
etc1_block(uint8_t b[8])
{
   for (unsigned i = 0; i < 8; ++i)
      b[i] = rand8();
   if (b[3] & 2) {
      for (unsigned k = 0; k < 3; ++k) {
         int base = b[k] >> 3, d = b[k] & 7;
         int sum = base + (d >= 4 ? d - 8 : d);
         if (sum < 0 || sum > 31)
            b[k] &= ~7; /* a zero difference */
      }
   }
}

static struct pipe_resource *
etc_texture(enum pipe_format format, unsigned usage, unsigned levels)
{
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = format,
      .width0 = TW,
      .height0 = TH,
      .depth0 = 1,
      .array_size = 1,
      .last_level = levels - 1,
      .usage = usage,
      .bind = PIPE_BIND_SAMPLER_VIEW,
   };
   return screen->resource_create(screen, &templ);
}

/* Decodes w x h pixels of ETC1 blocks (rows of blocks `stride` bytes
 * apart) with Mesa's decoder, alpha 255. */
static void
reference_rgb(const uint8_t *blocks, unsigned stride, unsigned w, unsigned h,
              uint8_t *out)
{
   const struct util_format_unpack_description *u =
      util_format_unpack_description(PIPE_FORMAT_ETC1_RGB8);
   u->unpack_rgba_8unorm_rect(out, w * 4, blocks, stride, w, h);
}

static void
test_supported(void)
{
   static const enum pipe_format formats[] = {
      PIPE_FORMAT_ETC1_RGB8,       PIPE_FORMAT_ETC2_RGB8,
      PIPE_FORMAT_ETC2_SRGB8,      PIPE_FORMAT_ETC2_RGB8A1,
      PIPE_FORMAT_ETC2_SRGB8A1,    PIPE_FORMAT_ETC2_RGBA8,
      PIPE_FORMAT_ETC2_SRGBA8,     PIPE_FORMAT_ETC2_R11_UNORM,
      PIPE_FORMAT_ETC2_R11_SNORM,  PIPE_FORMAT_ETC2_RG11_UNORM,
      PIPE_FORMAT_ETC2_RG11_SNORM,
   };
   for (unsigned i = 0; i < ARRAY_SIZE(formats); ++i) {
      CHECK(screen->is_format_supported(screen, formats[i], PIPE_TEXTURE_2D, 0,
                                        0, PIPE_BIND_SAMPLER_VIEW),
            "%s is not offered for sampling",
            util_format_short_name(formats[i]));
      CHECK(!screen->is_format_supported(screen, formats[i], PIPE_TEXTURE_2D, 0,
                                         0, PIPE_BIND_RENDER_TARGET),
            "%s is offered as a render target",
            util_format_short_name(formats[i]));
   }
   /* The GPU's texture features have no BCn: left to the state tracker. */
   CHECK(!screen->is_format_supported(screen, PIPE_FORMAT_DXT1_RGB,
                                      PIPE_TEXTURE_2D, 0, 0,
                                      PIPE_BIND_SAMPLER_VIEW),
         "DXT1 is offered");
}

/* Random ETC1 blocks in an ETC2 RGB8 texture of two levels: the layout,
 * where the blocks land, a partial read-back and the fetched texels. */
static void
test_rgb8(void)
{
   const char *what = "ETC2 RGB8";
   struct pipe_resource *staging =
      etc_texture(PIPE_FORMAT_ETC2_RGB8, PIPE_USAGE_STAGING, 1);
   CHECK(staging &&
            panfrost_resource(staging)->modifier == DRM_FORMAT_MOD_LINEAR,
         "%s: a staging texture is not linear", what);
   pipe_resource_reference(&staging, NULL);

   struct pipe_resource *tex =
      etc_texture(PIPE_FORMAT_ETC2_RGB8, PIPE_USAGE_DEFAULT, 2);
   CHECK(tex, "%s: no texture", what);
   if (!tex)
      return;
   struct panfrost_resource *rsc = panfrost_resource(tex);
   CHECK(rsc->modifier == DRM_FORMAT_MOD_ARM_16X16_BLOCK_U_INTERLEAVED,
         "%s: not u-interleaved (modifier 0x%llx)", what,
         (unsigned long long)rsc->modifier);
   /* A row of tiles is 4x4 blocks of 8 bytes, three tiles wide. */
   CHECK(rsc->layout.levels[0].row_stride_B == 3 * 16 * 8,
         "%s: row of tiles %u bytes, want %u", what,
         rsc->layout.levels[0].row_stride_B, 3 * 16 * 8);

   static uint8_t blocks[BH][BW][8], blocks1[2][3][8];
   for (unsigned y = 0; y < BH; ++y)
      for (unsigned x = 0; x < BW; ++x)
         etc1_block(blocks[y][x]);
   for (unsigned y = 0; y < 2; ++y)
      for (unsigned x = 0; x < 3; ++x)
         etc1_block(blocks1[y][x]);
   struct pipe_box box = { .width = TW, .height = TH, .depth = 1 };
   ctx->texture_subdata(ctx, tex, 0, 0, &box, blocks, sizeof(blocks[0]),
                        sizeof(blocks));
   /* Level 1 (18x10: 5x3 blocks, of which the last row and column are
    * partly outside) through a map. */
   struct pipe_box box1 = { .width = TW / 2, .height = TH / 2, .depth = 1 };
   static uint8_t blocks1_full[3][5][8];
   for (unsigned y = 0; y < 3; ++y)
      for (unsigned x = 0; x < 5; ++x)
         memcpy(blocks1_full[y][x], blocks1[y % 2][x % 3], 8);
   struct pipe_transfer *xfer;
   uint8_t *map = ctx->texture_map(
      ctx, tex, 1, PIPE_MAP_WRITE | PIPE_MAP_DISCARD_RANGE, &box1, &xfer);
   CHECK(map, "%s: level 1 map failed", what);
   if (map) {
      for (unsigned y = 0; y < 3; ++y)
         memcpy(map + y * xfer->stride, blocks1_full[y],
                sizeof(blocks1_full[y]));
      ctx->texture_unmap(ctx, xfer);
   }

   /* Every block sits where the reference tiling puts it. */
   uint8_t *cpu = pan_bo_mmap(rsc->bo);
   unsigned misplaced = 0;
   for (unsigned y = 0; cpu && y < BH; ++y) {
      for (unsigned x = 0; x < BW; ++x) {
         uint64_t off = rsc->layout.levels[0].offset_B +
                        pan_uinterleave_ref_offset_B(
                           x, y, rsc->layout.levels[0].row_stride_B, 8, true);
         misplaced += memcmp(cpu + off, blocks[y][x], 8) != 0;
      }
   }
   CHECK(cpu && !misplaced,
         "%s: %u of %u blocks not where the tiling puts "
         "them",
         what, misplaced, BW * BH);

   /* A partial map across a tile edge reads back what was uploaded. */
   struct pipe_box part = {
      .x = 12, .y = 8, .width = 12, .height = 8, .depth = 1
   };
   map = ctx->texture_map(ctx, tex, 0, PIPE_MAP_READ, &part, &xfer);
   CHECK(map, "%s: partial map failed", what);
   if (map) {
      unsigned wrong = 0;
      for (unsigned y = 0; y < 2; ++y)
         wrong += memcmp(map + y * xfer->stride, blocks[2 + y][3], 3 * 8) != 0;
      CHECK(!wrong, "%s: %u of 2 block rows read back wrong", what, wrong);
      ctx->texture_unmap(ctx, xfer);
   }

   static uint8_t want[TH][TW][4];
   reference_rgb(&blocks[0][0][0], sizeof(blocks[0]), TW, TH, &want[0][0][0]);
   unsigned bad = pan_test_fetch_compare(screen, ctx, tex, 0, TW, TH,
                                         &want[0][0][0], 0, what);
   CHECK(!bad, "%s level 0: %u of %u texels wrong", what, bad, TW * TH);

   static uint8_t want1[TH / 2][TW / 2][4];
   reference_rgb(&blocks1_full[0][0][0], sizeof(blocks1_full[0]), TW / 2,
                 TH / 2, &want1[0][0][0]);
   bad = pan_test_fetch_compare(screen, ctx, tex, 1, TW / 2, TH / 2,
                                &want1[0][0][0], 0, what);
   CHECK(!bad, "%s level 1: %u of %u texels wrong", what, bad, TW * TH / 4);
   pipe_resource_reference(&tex, NULL);
}

/* One block repeated over a 36x20 texture, checked against expected
 * texels (a function of the position in the block). */
static void
test_known_block(enum pipe_format format, const uint8_t *block,
                 unsigned block_B,
                 void (*expect)(unsigned, unsigned, uint8_t[4]),
                 const char *what)
{
   struct pipe_resource *tex = etc_texture(format, PIPE_USAGE_DEFAULT, 1);
   CHECK(tex, "%s: no texture", what);
   if (!tex)
      return;
   static uint8_t data[BH * BW * 16];
   for (unsigned i = 0; i < BH * BW; ++i)
      memcpy(data + i * block_B, block, block_B);
   struct pipe_box box = { .width = TW, .height = TH, .depth = 1 };
   ctx->texture_subdata(ctx, tex, 0, 0, &box, data, BW * block_B,
                        BW * BH * block_B);
   static uint8_t want[TH][TW][4];
   for (unsigned y = 0; y < TH; ++y)
      for (unsigned x = 0; x < TW; ++x)
         expect(x % 4, y % 4, want[y][x]);
   unsigned bad = pan_test_fetch_compare(screen, ctx, tex, 0, TW, TH,
                                         &want[0][0][0], 0, what);
   CHECK(!bad, "%s: %u of %u texels wrong", what, bad, TW * TH);
   pipe_resource_reference(&tex, NULL);
}

/* EAC R11: base 128, multiplier 2, table 0, texel i takes index i % 8:
 * red = clamp(128 * 8 + 4 + modifier * 2 * 8) / 2047 in unorm8. */
static void
expect_r11(unsigned x, unsigned y, uint8_t out[4])
{
   static const int mods[8] = { -3, -6, -9, -15, 2, 5, 8, 14 };
   int v = 128 * 8 + 4 + mods[(x * 4 + y) % 8] * 2 * 8;
   out[0] = (uint8_t)(v * 255.0 / 2047.0 + 0.5);
   out[1] = out[2] = 0;
   out[3] = 255;
}

/* ETC2 planar: origin black, H red 63 and V green 127 (both 255 in 8
 * bits), so red = (x * 255 + 2) / 4 and green = (y * 255 + 2) / 4. */
static void
expect_planar(unsigned x, unsigned y, uint8_t out[4])
{
   out[0] = (uint8_t)((x * 255 + 2) >> 2);
   out[1] = (uint8_t)((y * 255 + 2) >> 2);
   out[2] = 0;
   out[3] = 255;
}

static void
be_block(uint64_t w, uint8_t b[8])
{
   for (unsigned i = 0; i < 8; ++i)
      b[i] = (uint8_t)(w >> (56 - 8 * i));
}

int
main(int argc, char **argv)
{
   if (!pan_test_open(&screen, &ctx))
      return 1;
   test_supported();
   test_rgb8();

   /* EAC: base 0x80, multiplier 2, table 0, then the 3-bit indices. */
   uint64_t r11 = 0x80ull << 56 | 0x2ull << 52;
   for (unsigned i = 0; i < 16; ++i)
      r11 |= (uint64_t)(i % 8) << (45 - 3 * i);
   uint8_t block[8];
   be_block(r11, block);
   test_known_block(PIPE_FORMAT_ETC2_R11_UNORM, block, 8, expect_r11,
                    "EAC R11");

   /* Planar: the differential bit, red and green sums in range (0), the
    * blue one 0 + (-4) out of it (dB bits 42..40 = 100); every origin bit
    * 0, RH = 63 (bits 38..34 and 32), GV = 127 (bits 12..6). */
   uint64_t planar =
      1ull << 33 | 1ull << 42 | 0x1full << 34 | 1ull << 32 | 0x7full << 6;
   be_block(planar, block);
   test_known_block(PIPE_FORMAT_ETC2_RGB8, block, 8, expect_planar,
                    "ETC2 planar");

   return pan_test_close(screen, ctx);
}
