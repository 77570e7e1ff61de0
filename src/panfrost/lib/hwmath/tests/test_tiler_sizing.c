/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Tiler sizing against answers computed here by walking the tile grid of
 * every level (no shared formula), for framebuffers from 1x1 to 8192x8192
 * and every valid Midgard hierarchy mask; plus known answers for the flat
 * tiler, tiler features, context parameters and heap layout.
 *
 * Usage: test_tiler_sizing [slow]   (slow: every width 1..8192)
 */

#include <stdio.h>
#include <string.h>
#include "util/pan_test_util.h"
#include "pan_tiler_sizing.h"


/* Count tiles by placing them one by one until the framebuffer is covered */
static unsigned
walk_tiles(unsigned fb_w, unsigned fb_h, unsigned tw, unsigned th)
{
   unsigned cols = 0, rows = 0;
   for (unsigned x = 0; x < fb_w; x += tw)
      cols++;
   for (unsigned y = 0; y < fb_h; y += th)
      rows++;
   return cols * rows;
}

static unsigned
round_up_512(unsigned long long v)
{
   return (unsigned)(v % 512 ? v - v % 512 + 512 : v);
}

static void
check_size(unsigned w, unsigned h)
{
   unsigned level_tiles[9];
   for (unsigned l = 0; l < 9; ++l)
      level_tiles[l] = walk_tiles(w, h, 16u << l, 16u << l);

   for (unsigned mask = 1; mask <= 0x1ff; ++mask) {
      unsigned long long tiles = 0;
      for (unsigned l = 0; l < 9; ++l)
         if (mask & (1u << l))
            tiles += level_tiles[l];

      unsigned header = round_up_512(64 + 8 * tiles);
      unsigned body = round_up_512(64 + 512 * tiles);
      struct pan_midgard_polygon_list pl;
      bool ok = pan_midgard_polygon_list(w, h, mask, true, &pl);

      PAN_CHECK(ok && pl.header_size_B == header && pl.body_size_B == body &&
               pl.total_size_B == header + body &&
               pl.hierarchy_mask == mask &&
               pl.alloc_size_B >= pl.total_size_B &&
               !(pl.alloc_size_B & (pl.alloc_size_B - 1)),
            "%ux%u mask %03x: header %u/%u body %u/%u", w, h, mask,
            pl.header_size_B, header, pl.body_size_B, body);
   }
}

static const unsigned interesting[] = {
   1,    2,    15,   16,   17,   31,   32,   33,   63,   64,   65,   100,
   127,  128,  129,  255,  256,  257,  511,  512,  513,  720,  1000, 1023,
   1024, 1025, 1080, 1920, 2047, 2048, 2049, 4095, 4096, 4097, 8191, 8192,
};
#define N_INTERESTING (sizeof(interesting) / sizeof(interesting[0]))

static void
test_hierarchical(bool slow)
{
   for (unsigned i = 0; i < N_INTERESTING; ++i)
      for (unsigned j = 0; j < N_INTERESTING; ++j)
         check_size(interesting[i], interesting[j]);

   if (slow) {
      for (unsigned w = 1; w <= 8192; ++w)
         for (unsigned j = 0; j < N_INTERESTING; j += 5)
            check_size(w, interesting[j]);
   }

   /* Hand-computed: 1920x1080, all of 16..2048 (0xff):
    * 120*68 + 60*34 + 30*17 + 15*9 + 8*5 + 4*3 + 2*2 + 1*1 = 10902 tiles,
    * header 64 + 87216 -> 87552, body 64 + 5581824 -> 5582336 */
   struct pan_midgard_polygon_list pl;
   PAN_CHECK(pan_midgard_polygon_list(1920, 1080, 0xff, true, &pl) &&
            pl.header_size_B == 87552 && pl.body_size_B == 5582336 &&
            pl.alloc_size_B == 8u << 20,
         "1920x1080 known answer: %u %u", pl.header_size_B, pl.body_size_B);

   /* Invalid masks and sizes are refused */
   PAN_CHECK(!pan_midgard_polygon_list(64, 64, 0, true, &pl), "mask 0 accepted");
   PAN_CHECK(!pan_midgard_polygon_list(64, 64, 0x200, true, &pl),
         "mask 0x200 accepted");
   PAN_CHECK(!pan_midgard_polygon_list(0, 64, 1, true, &pl), "width 0 accepted");

   /* No draws: minimal disabled list */
   PAN_CHECK(pan_midgard_polygon_list(1920, 1080, 0xff, false, &pl) &&
            pl.hierarchy_mask == PAN_MIDGARD_TILER_DISABLED &&
            pl.header_size_B == 512 && pl.body_size_B == 512 &&
            pl.alloc_size_B == 1024,
         "disabled tiler");
   PAN_CHECK(pan_midgard_hierarchy_mask(800, 600) == 0xff, "default mask");
}

static void
test_flat(void)
{
   struct pan_midgard_polygon_list pl;

   /* Tile choice: 16 px until 63 * 32 px, doubling after */
   PAN_CHECK(pan_midgard_flat_tile_field(1, 1) == 0, "1x1 field");
   PAN_CHECK(pan_midgard_flat_tile_field(1008, 1008) == 0, "1008 field");
   PAN_CHECK(pan_midgard_flat_tile_field(1920, 1080) == (1 | (1 << 6)),
         "1920x1080 field %x", pan_midgard_flat_tile_field(1920, 1080));
   PAN_CHECK(pan_midgard_flat_tile_field(4096, 64) == 3, "4096x64 field");
   PAN_CHECK(pan_midgard_flat_tile_field(1009, 16) == 1, "1009 field");

   /* Known answer for 1920x1080: 32x32 tiles, sized as 16x16 ones:
    * 120*68 = 8160 tiles; header 512 + floor(65280/512)*512 = 65536,
    * body 512 + 8160*512 = 4178432 */
   PAN_CHECK(pan_midgard_flat_polygon_list(1920, 1080, true, &pl) &&
            pl.header_size_B == 65536 && pl.body_size_B == 4178432,
         "flat 1920x1080: %u %u", pl.header_size_B, pl.body_size_B);

   /* Every size: fewer than 64 tiles per dimension, sizes consistent */
   for (unsigned w = 1; w <= 8192; w += 7) {
      unsigned h = 8193 - w;
      unsigned f = pan_midgard_flat_tile_field(w, h);
      unsigned tw = 16u << (f & 7), th = 16u << ((f >> 6) & 7);
      PAN_CHECK(walk_tiles(w, 1, tw, 1) <= 63 && walk_tiles(1, h, 1, th) <= 63,
            "%ux%u: too many flat tiles", w, h);
      PAN_CHECK(tw == 16 || walk_tiles(w, 1, tw / 2, 1) > 63,
            "%ux%u: tile width not minimal", w, h);
      PAN_CHECK(pan_midgard_flat_polygon_list(w, h, true, &pl) &&
               pl.header_size_B % 512 == 0 && pl.body_size_B % 512 == 0 &&
               pl.body_size_B >= 512 + (walk_tiles(w, h, tw, th) * 512),
            "%ux%u: flat sizes", w, h);
   }

   PAN_CHECK(pan_midgard_flat_polygon_list(64, 64, false, &pl) &&
            pl.hierarchy_mask == PAN_MIDGARD_TILER_USER &&
            pl.body_size_B == 516 && pl.alloc_size_B == 1024,
         "flat disabled");
}

static void
test_bifrost(void)
{
   struct pan_tiler_features f = pan_decode_tiler_features(0x809);
   struct pan_tiler_context_params p;

   PAN_CHECK(f.bin_size_B == 512 && f.max_levels == 8, "features 0x809");
   f = pan_decode_tiler_features(0x40c);
   PAN_CHECK(f.bin_size_B == 4096 && f.max_levels == 4, "features 0x40c");

   f = pan_decode_tiler_features(0x809);
   PAN_CHECK(pan_tiler_context_params(&f, 1920, 1080, &p) &&
            p.hierarchy_mask == 0xff && p.fb_width_px == 1920,
         "8 levels");
   PAN_CHECK(pan_tiler_context_params(&f, 4096, 16, &p) &&
            p.hierarchy_mask == 0xfe,
         "8 levels, 4096 wide");
   PAN_CHECK(pan_tiler_context_params(&f, 16, 8192, &p) &&
            p.hierarchy_mask == 0xfe,
         "8 levels, 8192 high");
   f.max_levels = 4;
   PAN_CHECK(pan_tiler_context_params(&f, 8192, 8192, &p) &&
            p.hierarchy_mask == 0x28,
         "4 levels");
   f.max_levels = 1;
   PAN_CHECK(!pan_tiler_context_params(&f, 64, 64, &p), "1 level accepted");

   struct pan_tiler_heap_layout heap;
   PAN_CHECK(pan_tiler_heap_layout(0, &heap) &&
            heap.reserved_size_B == 128u << 20 &&
            heap.initial_commit_B == 0 && heap.grow_size_B == 2u << 20 &&
            heap.kernel_bo_flags == 3 && heap.top_offset_B == 128u << 20,
         "default heap");
   PAN_CHECK(!pan_tiler_heap_layout(4097, &heap), "unaligned heap accepted");
}

int
main(int argc, char **argv)
{
   bool slow = argc > 1 && !strcmp(argv[1], "slow");

   test_hierarchical(slow);
   test_flat();
   test_bifrost();

   printf("tiler sizing: %s (%u pan_test_failures)\n", pan_test_failures ? "FAIL" : "pass",
          pan_test_failures);
   return pan_test_failures ? 1 : 0;
}
