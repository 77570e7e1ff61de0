/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The simulator's ASTC decoder (pan_sim_astc.c) on blocks assembled bit by
 * bit here, against texels worked out by hand from the Khronos Data Format
 * Specification: void-extent blocks (and the ones the LDR profile
 * refuses), a one-partition RGB block, its sRGB expansion, a two-partition
 * block (the partition map of seed 37 computed apart from the decoder), a
 * dual-plane RGBA block, weight infill of a 2x4 grid over 8x8 texels,
 * reserved and HDR modes, and the 8-bit and FP16 results.  The oracle
 * test pan_sim_astc_vs_base compares random blocks with the base decoder.
 */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pan_sim_astc.h"

static unsigned checks, failures;

/* Writes the n-bit value v at bit `at` of the block. */
static void
put(uint8_t b[16], unsigned at, unsigned n, unsigned v)
{
   for (unsigned i = 0; i < n; ++i) {
      unsigned p = at + i;
      b[p / 8] &= (uint8_t) ~(1u << (p % 8));
      b[p / 8] |= (uint8_t)(((v >> i) & 1) << (p % 8));
   }
}

/* Weight i of `bits` bits (no trits or quints): stored from bit 127 down,
 * bit k of the value at bit 127 - (bits * i + k).
 */
static void
put_weight(uint8_t b[16], unsigned i, unsigned bits, unsigned v)
{
   for (unsigned k = 0; k < bits; ++k)
      put(b, 127 - (bits * i + k), 1, (v >> k) & 1);
}

static void
expect(const char *what, const uint8_t b[16], unsigned bw, unsigned bh,
       bool srgb, unsigned x, unsigned y, bool ok, unsigned r, unsigned g,
       unsigned bl, unsigned a)
{
   uint16_t c[4];
   bool got = pan_sim_astc_texel(b, bw, bh, srgb, x, y, c);
   const unsigned want[4] = { r, g, bl, a };
   checks++;
   bool same = got == ok;
   for (unsigned i = 0; i < 4; ++i)
      same &= c[i] == want[i];
   if (!same) {
      failures++;
      printf("FAIL %s (%u, %u): %d %04x %04x %04x %04x, want %d %04x %04x "
             "%04x %04x\n",
             what, x, y, got, c[0], c[1], c[2], c[3], ok, r, g, bl, a);
   }
}

static void
test_void_extent(void)
{
   uint8_t b[16] = { 0 };
   put(b, 0, 9, 0x1fc);
   put(b, 10, 2, 3);
   for (unsigned i = 0; i < 4; ++i)
      put(b, 12 + 13 * i, 13, 0x1fff); /* no extents */
   put(b, 64, 16, 0x1234);
   put(b, 80, 16, 0x8000);
   put(b, 96, 16, 0xffff);
   put(b, 112, 16, 0x0000);
   expect("void extent", b, 4, 4, false, 0, 0, true, 0x1234, 0x8000, 0xffff, 0);
   expect("void extent", b, 12, 10, true, 11, 9, true, 0x1234, 0x8000, 0xffff,
          0);

   /* Extents that hold: s 0..0x100, t 5..6. */
   put(b, 12, 13, 0);
   put(b, 25, 13, 0x100);
   put(b, 38, 13, 5);
   put(b, 51, 13, 6);
   expect("void extent, extents", b, 6, 6, false, 5, 5, true, 0x1234, 0x8000,
          0xffff, 0);
   /* Empty s range: illegal, the error colour. */
   put(b, 25, 13, 0);
   expect("void extent, s min = max", b, 6, 6, false, 1, 2, false, 0xffff, 0,
          0xffff, 0xffff);
   /* HDR colour: not LDR. */
   put(b, 25, 13, 0x100);
   put(b, 9, 1, 1);
   expect("void extent, HDR", b, 4, 4, false, 0, 0, false, 0xffff, 0, 0xffff,
          0xffff);
}

/* 4x4 grid, weights 0..3 (two bits), one partition, RGB direct (mode 8)
 * with endpoints 0, 0, 0 and 255, 128, 64 stored in eight bits each.
 */
static void
rgb_block(uint8_t b[16])
{
   memset(b, 0, 16);
   put(b, 0, 11, 0x42);
   put(b, 11, 2, 0);
   put(b, 13, 4, 8);
   static const unsigned v[6] = { 0, 255, 0, 128, 0, 64 };
   for (unsigned i = 0; i < 6; ++i)
      put(b, 17 + 8 * i, 8, v[i]);
   /* Texel i weight code i % 4. */
   for (unsigned i = 0; i < 16; ++i)
      put_weight(b, i, 2, i % 4);
}

static void
test_one_partition(void)
{
   uint8_t b[16];
   rgb_block(b);
   /* Code 0: e0; code 3 (64): e1 expanded by 257. */
   expect("rgb weight 0", b, 4, 4, false, 0, 0, true, 0, 0, 0, 0xffff);
   expect("rgb weight 64", b, 4, 4, false, 3, 0, true, 0xffff, 0x8080, 0x4040,
          0xffff);
   /* Code 2 replicates to 42, 43 above 32: (c1 * 43 + 32) >> 6. */
   expect("rgb weight 43", b, 4, 4, false, 2, 1, true, 44031, 22102, 11051,
          0xffff);
   /* Code 1: 21.  (65535 * 21 + 32) >> 6 = 21504, 32896 * 21 -> 10794,
    * 16448 * 21 -> 5397.
    */
   expect("rgb weight 21", b, 4, 4, false, 1, 3, true, 21504, 10794, 5397,
          0xffff);

   /* sRGB: endpoints e << 8 | 0x80, so 0 -> 0x80 and 255 -> 0xff80. */
   expect("srgb weight 0", b, 4, 4, true, 0, 0, true, 0x80, 0x80, 0x80, 0xff80);
   /* (0x80 * 21 + 0xff80 * 43 + 32) >> 6 */
   expect("srgb weight 43", b, 4, 4, true, 2, 0, true,
          (0x80 * 21 + 0xff80 * 43 + 32) >> 6,
          (0x80 * 21 + 0x8080 * 43 + 32) >> 6,
          (0x80 * 21 + 0x4080 * 43 + 32) >> 6, 0xff80);

   /* A grid wider than the block is an error. */
   expect("grid 4x4 over 4x4", b, 4, 4, false, 0, 0, true, 0, 0, 0, 0xffff);
   uint8_t wide[16];
   memcpy(wide, b, 16);
   put(wide, 7, 2, 1); /* grid 5x4 */
   expect("grid 5x4 over 4x4", wide, 4, 4, false, 0, 0, false, 0xffff, 0,
          0xffff, 0xffff);

   /* Endpoint mode 2 (HDR luminance) is not LDR. */
   put(b, 13, 4, 2);
   expect("HDR endpoint mode", b, 4, 4, false, 0, 0, false, 0xffff, 0, 0xffff,
          0xffff);

   /* Block mode with bits 3..0 zero: reserved. */
   put(b, 0, 11, 0x40);
   expect("reserved mode", b, 4, 4, false, 0, 0, false, 0xffff, 0, 0xffff,
          0xffff);
}

/* Two partitions of seed 37 sharing luminance direct endpoints (mode 0):
 * partition 0 10..60, partition 1 200..250; every weight 0 except texel
 * (3, 3)'s, 3 (64).  The map of seed 37 over a 4x4 (small) block, rows
 * y = 0..3, is 1110, 1110, 0110, 0100 (the specification's hash worked
 * out apart from the decoder).
 */
static void
test_two_partitions(void)
{
   static const char *const map[4] = { "1110", "1110", "0110", "0100" };
   uint8_t b[16] = { 0 };
   put(b, 0, 11, 0x42);
   put(b, 11, 2, 1);
   put(b, 13, 10, 37);
   put(b, 23, 6, 0); /* one mode for all: 0 */
   static const unsigned v[4] = { 10, 60, 200, 250 };
   for (unsigned i = 0; i < 4; ++i)
      put(b, 29 + 8 * i, 8, v[i]);
   put_weight(b, 15, 2, 3);

   for (unsigned y = 0; y < 4; ++y) {
      for (unsigned x = 0; x < 4; ++x) {
         unsigned p = map[y][x] - '0';
         unsigned l = (x == 3 && y == 3) ? v[2 * p + 1] : v[2 * p];
         expect("two partitions", b, 4, 4, false, x, y, true, l * 257, l * 257,
                l * 257, 0xffff);
      }
   }
}

/* Dual plane: 4x4 grid of one-bit weights (0 or 64) in two planes, RGBA
 * direct (mode 12) endpoints 10, 20, 30, 0 and 200, 100, 50, 255, the
 * second plane for alpha (selector 3, the two bits under the weights).
 */
static void
test_dual_plane(void)
{
   uint8_t b[16] = { 0 };
   put(b, 0, 11, 0x441);
   put(b, 13, 4, 12);
   static const unsigned v[8] = { 10, 200, 20, 100, 30, 50, 0, 255 };
   for (unsigned i = 0; i < 8; ++i)
      put(b, 17 + 8 * i, 8, v[i]);
   put(b, 128 - 32 - 2, 2, 3);
   /* Texel 0: plane 0 weight 0, plane 1 weight 1; texel 1 the other way. */
   put_weight(b, 1, 1, 1);
   put_weight(b, 2, 1, 1);

   expect("dual plane texel 0", b, 4, 4, false, 0, 0, true, 10 * 257, 20 * 257,
          30 * 257, 0xffff);
   expect("dual plane texel 1", b, 4, 4, false, 1, 0, true, 200 * 257,
          100 * 257, 50 * 257, 0);
   expect("dual plane texel 2", b, 4, 4, false, 2, 0, true, 10 * 257, 20 * 257,
          30 * 257, 0);

   /* Selector 0: the second plane drives red instead. */
   put(b, 128 - 32 - 2, 2, 0);
   expect("dual plane red", b, 4, 4, false, 0, 0, true, 200 * 257, 20 * 257,
          30 * 257, 0);
}

/* Infill: a 2x4 grid (four-bit weights, 0 on the left, 15 -> 64 on the
 * right) over 8x8 texels, luminance 0..255.  Column x falls at
 * gs = (146 * x + 32) >> 6 sixteenths of the grid, and the weight is 4 *
 * (gs & 15) inside the grid: x = 3 -> 7 -> 28, x = 5 -> 11 -> 44.
 */
static void
test_infill(void)
{
   uint8_t b[16] = { 0 };
   put(b, 0, 11, 0x34e);
   put(b, 13, 4, 0);
   put(b, 17, 8, 0);
   put(b, 25, 8, 255);
   for (unsigned t = 0; t < 4; ++t)
      put_weight(b, t * 2 + 1, 4, 15);

   static const struct {
      unsigned x, w;
   } cols[] = { { 0, 0 }, { 3, 28 }, { 5, 44 }, { 7, 64 } };
   for (unsigned i = 0; i < 4; ++i) {
      for (unsigned y = 0; y < 8; y += 7) {
         unsigned c = (65535 * cols[i].w + 32) >> 6;
         expect("infill", b, 8, 8, false, cols[i].x, y, true, c, c, c, 0xffff);
      }
   }
}

static void
test_channels(void)
{
   static const struct {
      uint16_t c;
      bool wide;
      float want;
   } cases[] = {
      { 0xffff, false, 1.0f },
      { 0x7fff, false, 127.0f / 255.0f },
      { 0x8000, true, 0.5f },
      { 0xffff, true, 1.0f },
      /* 0x1235 / 65536: 11 significant bits from bit 12 keep bits 12..2. */
      { 0x1235, true, 0x1234 / 65536.0f },
      /* 0xfffe / 65536 rounds toward zero to 0xffe0 / 65536. */
      { 0xfffe, true, 0xffe0 / 65536.0f },
      { 3, true, 3 / 65536.0f },
   };
   for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
      float v = pan_sim_astc_channel(cases[i].c, cases[i].wide);
      checks++;
      if (v != cases[i].want) {
         failures++;
         printf("FAIL channel %04x wide %d: %.9g, want %.9g\n", cases[i].c,
                cases[i].wide, v, cases[i].want);
      }
   }
}

int
main(void)
{
   test_void_extent();
   test_one_partition();
   test_two_partitions();
   test_dual_plane();
   test_infill();
   test_channels();
   printf("%u checks, %u failures\n", checks, failures);
   return failures ? 1 : 0;
}
