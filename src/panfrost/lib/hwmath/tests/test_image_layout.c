/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Image layout known answers, worked out by hand from the layout rules in
 * docs/drivers/panfrost/image-layout.rst, plus invariants over many random
 * descriptions (alignment, no overlap, everything inside data_size_B).
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "util/pan_test_util.h"
#include "pan_image_layout.h"


static struct pan_image_desc
desc_2d(unsigned arch, unsigned w, unsigned h, unsigned B,
        enum pan_image_tiling tiling)
{
   return (struct pan_image_desc){
      .arch = arch, .dim = PAN_IMAGE_DIM_2D, .width_px = w, .height_px = h,
      .depth_px = 1, .array_size = 1, .nr_samples = 1, .nr_levels = 1,
      .block_w_px = 1, .block_h_px = 1, .block_size_B = B, .tiling = tiling,
   };
}

static void
test_linear(void)
{
   struct pan_image_desc d = desc_2d(6, 100, 50, 4, PAN_IMAGE_TILING_LINEAR);
   struct pan_image_layout l;

   /* 400 B rows padded to 448; 448 * 50 = 22400; 4 KiB total alignment */
   PAN_CHECK(pan_image_layout_init(&d, &l) && l.levels[0].row_stride_B == 448 &&
            l.levels[0].size_B == 22400 && l.array_stride_B == 22400 &&
            l.data_size_B == 24576,
         "linear 100x50: %u %" PRIu64, l.levels[0].row_stride_B,
         l.levels[0].size_B);

   /* 3 layers of 2 levels: L0 22400 B, L1 50x25 -> 256 * 25 = 6400 B at
    * 22400; layer stride 28800; 3 layers 86400 -> 86016 + 4096 = 90112 */
   d.nr_levels = 2;
   d.array_size = 3;
   PAN_CHECK(pan_image_layout_init(&d, &l) && l.levels[1].offset_B == 22400 &&
            l.levels[1].row_stride_B == 256 && l.levels[1].size_B == 6400 &&
            l.array_stride_B == 28800 && l.data_size_B == 90112 &&
            pan_image_surface_offset_B(&d, &l, 1, 2, 0) == 22400 + 57600,
         "linear array");

   /* Explicit layout: stride kept as given, no 4 KiB rounding */
   d = desc_2d(6, 100, 50, 4, PAN_IMAGE_TILING_LINEAR);
   d.has_explicit_layout = true;
   d.explicit_offset_B = 128;
   d.explicit_row_stride_B = 400;
   PAN_CHECK(pan_image_layout_init(&d, &l) && l.levels[0].offset_B == 128 &&
            l.levels[0].row_stride_B == 400 && l.data_size_B == 128 + 20000,
         "explicit linear");
   d.explicit_row_stride_B = 396;
   PAN_CHECK(!pan_image_layout_init(&d, &l), "short explicit stride accepted");
   d.explicit_row_stride_B = 400;
   d.explicit_offset_B = 100;
   PAN_CHECK(!pan_image_layout_init(&d, &l), "unaligned explicit offset");
}

static void
test_u_interleaved(void)
{
   struct pan_image_desc d =
      desc_2d(4, 64, 64, 4, PAN_IMAGE_TILING_U_INTERLEAVED);
   struct pan_image_layout l;

   /* Row of tiles = 64 px * 16 rows * 4 B; levels 16384, 4096, 1024 B */
   d.nr_levels = 3;
   PAN_CHECK(pan_image_layout_init(&d, &l) && l.levels[0].row_stride_B == 4096 &&
            l.levels[0].size_B == 16384 && l.levels[1].offset_B == 16384 &&
            l.levels[1].row_stride_B == 2048 && l.levels[1].size_B == 4096 &&
            l.levels[2].offset_B == 20480 && l.levels[2].size_B == 1024 &&
            l.array_stride_B == 21504,
         "u-interleaved 64x64x3");

   /* 100x30 RGB8: padded to 112x32 el; 3 * 112 * 16 = 5376 per tile row */
   d = desc_2d(4, 100, 30, 3, PAN_IMAGE_TILING_U_INTERLEAVED);
   PAN_CHECK(pan_image_layout_init(&d, &l) && l.levels[0].row_stride_B == 5376 &&
            l.levels[0].size_B == 10752,
         "u-interleaved 100x30 rgb8");

   /* BC1 (4x4 px, 8 B) 100x100 px: 25x25 blocks -> 28x28 in 4x4-block tiles:
    * row of tiles 8 * 28 * 4 = 896 B, 7 rows = 6272 B */
   d = desc_2d(7, 100, 100, 8, PAN_IMAGE_TILING_U_INTERLEAVED);
   d.block_w_px = d.block_h_px = 4;
   PAN_CHECK(pan_image_layout_init(&d, &l) && l.levels[0].row_stride_B == 896 &&
            l.levels[0].size_B == 6272,
         "u-interleaved bc1 100x100: %u", l.levels[0].row_stride_B);

   /* ASTC 8x8 (16 B) 100x100: 13x13 blocks -> 16x16: 16*16*16 = 4096 B */
   d.block_w_px = d.block_h_px = 8;
   d.block_size_B = 16;
   PAN_CHECK(pan_image_layout_init(&d, &l) && l.levels[0].size_B == 4096,
         "u-interleaved astc 8x8");

   /* 4x MSAA 32x32 RGBA8: each sample a 4 KiB surface */
   d = desc_2d(6, 32, 32, 4, PAN_IMAGE_TILING_U_INTERLEAVED);
   d.nr_samples = 4;
   PAN_CHECK(pan_image_layout_init(&d, &l) &&
            l.levels[0].surface_stride_B == 4096 &&
            l.levels[0].size_B == 16384 &&
            pan_image_surface_offset_B(&d, &l, 0, 0, 3) == 12288,
         "msaa");
}

static void
test_afbc(void)
{
   struct pan_image_desc d = desc_2d(5, 64, 64, 4, PAN_IMAGE_TILING_AFBC);
   struct pan_image_layout l;

   /* 4x4 superblocks: header 16 * 16 = 256 B, body 16 KiB */
   PAN_CHECK(pan_image_layout_init(&d, &l) && l.levels[0].row_stride_B == 64 &&
            l.levels[0].afbc_header_size_B == 256 &&
            l.levels[0].afbc_body_size_B == 16384 &&
            l.levels[0].size_B == 16640 &&
            pan_image_afbc_body_offset_B(&d, &l, 0, 0, 0) == 256,
         "afbc 64x64");

   /* 100x100: 112x112, 7x7 superblocks: header 784 -> 832 (64 B aligned),
    * body 4 * 112 * 112 = 50176 */
   d = desc_2d(6, 100, 100, 4, PAN_IMAGE_TILING_AFBC);
   PAN_CHECK(pan_image_layout_init(&d, &l) &&
            l.levels[0].afbc_header_size_B == 832 &&
            l.levels[0].afbc_body_size_B == 50176,
         "afbc 100x100: %" PRIu64, l.levels[0].afbc_header_size_B);

   /* Tiled headers (v7): aligned to 8x8 superblocks = 128x128 px; one row
    * of header tiles: 8 superblocks * 8 rows * 16 B = 1024 B, body aligned
    * to 4 KiB -> header 4096, body 65536 */
   d.arch = 7;
   d.afbc_tiled_headers = true;
   PAN_CHECK(pan_image_layout_init(&d, &l) && l.levels[0].row_stride_B == 1024 &&
            l.levels[0].afbc_header_size_B == 4096 &&
            l.levels[0].afbc_body_size_B == 65536,
         "afbc tiled");

   /* 32x8 superblocks on 100x100: 128x104 px; 4 x 13 superblocks:
    * header row 64 B, 832 B; body 4 * 128 * 104 = 53248 */
   d = desc_2d(6, 100, 100, 4, PAN_IMAGE_TILING_AFBC);
   d.afbc_superblock = PAN_AFBC_SUPERBLOCK_32X8;
   PAN_CHECK(pan_image_layout_init(&d, &l) && l.levels[0].row_stride_B == 64 &&
            l.levels[0].afbc_header_size_B == 832 &&
            l.levels[0].afbc_body_size_B == 53248,
         "afbc 32x8");

   /* 3D: all headers first.  32x32x4 RGBA8: header 4 * 16 = 64 B per
    * slice, bodies 4 KiB each */
   d = desc_2d(6, 32, 32, 4, PAN_IMAGE_TILING_AFBC);
   d.dim = PAN_IMAGE_DIM_3D;
   d.depth_px = 4;
   PAN_CHECK(pan_image_layout_init(&d, &l) &&
            l.levels[0].afbc_header_size_B == 256 &&
            l.levels[0].afbc_body_size_B == 16384 &&
            pan_image_surface_offset_B(&d, &l, 0, 0, 2) == 128 &&
            pan_image_afbc_body_offset_B(&d, &l, 0, 0, 2) == 256 + 8192 &&
            l.array_stride_B == 256 + 16384,
         "afbc 3d");

   /* Architecture gating */
   PAN_CHECK(!pan_afbc_variant_supported(4, PAN_AFBC_SUPERBLOCK_16X16, false) &&
            pan_afbc_variant_supported(5, PAN_AFBC_SUPERBLOCK_16X16, false) &&
            !pan_afbc_variant_supported(5, PAN_AFBC_SUPERBLOCK_32X8, false) &&
            pan_afbc_variant_supported(6, PAN_AFBC_SUPERBLOCK_32X8, false) &&
            !pan_afbc_variant_supported(6, PAN_AFBC_SUPERBLOCK_16X16, true) &&
            pan_afbc_variant_supported(7, PAN_AFBC_SUPERBLOCK_16X16, true) &&
            !pan_afbc_variant_supported(7, PAN_AFBC_SUPERBLOCK_64X4, false) &&
            pan_afbc_variant_supported(9, PAN_AFBC_SUPERBLOCK_64X4, true),
         "afbc arch gating");
   d = desc_2d(4, 64, 64, 4, PAN_IMAGE_TILING_AFBC);
   PAN_CHECK(!pan_image_layout_init(&d, &l), "afbc on v4 accepted");
   d = desc_2d(7, 64, 64, 8, PAN_IMAGE_TILING_AFBC);
   d.block_w_px = d.block_h_px = 4;
   PAN_CHECK(!pan_image_layout_init(&d, &l), "afbc of compressed accepted");
}

static void
test_crc(void)
{
   struct pan_image_desc d = desc_2d(6, 100, 100, 4, PAN_IMAGE_TILING_LINEAR);
   struct pan_image_layout l;

   /* 7x7 tiles of 8 B: stride 56, size 392; level 1 (50x50): 4x4: 128 */
   d.crc = PAN_IMAGE_CRC_OOB;
   d.nr_levels = 2;
   PAN_CHECK(pan_image_layout_init(&d, &l) && l.levels[0].crc_row_stride_B == 56 &&
            l.levels[0].crc_size_B == 392 && l.levels[0].crc_offset_B == 0 &&
            l.levels[1].crc_size_B == 128 && l.levels[1].crc_offset_B == 392 &&
            l.crc_size_B == 520,
         "crc oob");

   /* In band: right after the level's 448 * 100 = 44800 data bytes */
   d.crc = PAN_IMAGE_CRC_INBAND;
   PAN_CHECK(pan_image_layout_init(&d, &l) &&
            l.levels[0].crc_offset_B == 44800 &&
            l.levels[0].size_B == 44800 + 392 &&
            l.levels[1].offset_B == 45248 && l.crc_size_B == 0,
         "crc in band: %" PRIu64, l.levels[1].offset_B);
}

static uint64_t rng_state = 0x13198a2e03707344ull;

static uint32_t
rng(void)
{
   return (uint32_t)(pan_test_rng64(&rng_state) >> 32);
}

/* Random valid descriptions: levels aligned, ordered, non-overlapping and
 * inside the allocation; u-interleaved sizes are whole tiles. */
static void
test_invariants(void)
{
   static const unsigned sizes_B[] = { 1, 2, 3, 4, 6, 8, 12, 16 };

   for (unsigned it = 0; it < 20000; ++it) {
      struct pan_image_desc d = desc_2d(4 + rng() % 6, 1 + rng() % 3000,
                                        1 + rng() % 3000, sizes_B[rng() % 8],
                                        rng() % 3);
      if (d.arch == 8)
         d.arch = 9;
      d.nr_levels = 1 + rng() % 12;
      d.array_size = 1 + rng() % 4;
      d.crc = rng() % 3;
      if (rng() % 4 == 0) {
         d.dim = PAN_IMAGE_DIM_3D;
         d.depth_px = 1 + rng() % 40;
      }
      if (d.tiling == PAN_IMAGE_TILING_AFBC) {
         d.afbc_superblock = rng() % 3;
         d.afbc_tiled_headers = rng() & 1;
      }

      struct pan_image_layout l;
      bool supported = d.tiling != PAN_IMAGE_TILING_AFBC ||
                       pan_afbc_variant_supported(d.arch, d.afbc_superblock,
                                                  d.afbc_tiled_headers);
      bool ok = pan_image_layout_init(&d, &l);
      PAN_CHECK(ok == supported, "valid description refused (iteration %u)", it);
      if (!ok)
         continue;

      uint64_t end = 0;
      for (unsigned i = 0; i < d.nr_levels; ++i) {
         const struct pan_image_level *lv = &l.levels[i];
         PAN_CHECK(lv->offset_B % 64 == 0 && lv->offset_B >= end,
               "level %u misplaced (iteration %u)", i, it);
         uint64_t level_B = lv->size_B;
         if (d.tiling == PAN_IMAGE_TILING_AFBC && d.dim == PAN_IMAGE_DIM_3D)
            level_B += lv->afbc_header_size_B;
         end = lv->offset_B + level_B;
         if (d.tiling == PAN_IMAGE_TILING_U_INTERLEAVED)
            PAN_CHECK(lv->surface_stride_B % (256 * d.block_size_B) == 0,
                  "partial tiles (iteration %u)", it);
      }
      PAN_CHECK(end <= l.array_stride_B &&
               l.array_stride_B * d.array_size <= l.data_size_B &&
               l.data_size_B % 4096 == 0,
            "layers overflow (iteration %u)", it);
   }
}

int
main(void)
{
   test_linear();
   test_u_interleaved();
   test_afbc();
   test_crc();
   test_invariants();

   printf("image layout: %s (%u pan_test_failures)\n", pan_test_failures ? "FAIL" : "pass",
          pan_test_failures);
   return pan_test_failures ? 1 : 0;
}
