/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* pan_sim_astc.c against the base's ASTC LDR decoder over random blocks of
 * every 2D footprint, linear and sRGB: every texel's 8-bit result (the
 * top byte of the 16-bit value, as the base outputs it) must agree, and
 * blocks the base refuses must be refused.  Blocks are drawn so that void-extent,
 * one- to four-partition and dual-plane blocks all occur; the test fails
 * if one kind is missing from the decoded ones.
 */

#include "main/texcompress_astc.cpp"

extern "C" {
#include "pan_sim_astc.h"
}

/* The format helpers of the base's whole-image entry point, which this
 * test does not call (the block decoder is used directly).
 */
extern "C" bool
_mesa_is_format_astc_2d(mesa_format)
{
   return true;
}

extern "C" bool
_mesa_is_format_srgb(mesa_format)
{
   return false;
}

extern "C" void
_mesa_get_format_block_size(mesa_format, unsigned *w, unsigned *h)
{
   *w = *h = 4;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t
rnd(void)
{
   rng_state ^= rng_state << 13;
   rng_state ^= rng_state >> 7;
   rng_state ^= rng_state << 17;
   return (uint32_t)(rng_state >> 16);
}

/* A random block; a tenth are void-extent blocks, half of those without
 * extents (the other half mostly illegal extents or HDR).
 */
static void
random_block(uint8_t b[16])
{
   for (unsigned i = 0; i < 16; ++i)
      b[i] = (uint8_t)rnd();
   if (rnd() % 10 == 0) {
      b[0] = 0xfc;
      b[1] = (uint8_t)((b[1] & ~1u) | 1u);
      if (rnd() & 1) {
         b[1] &= ~2u; /* LDR */
         if (rnd() & 1) {
            for (unsigned i = 1; i < 8; ++i)
               b[i] |= i == 1 ? 0xf0 : 0xff; /* no extents */
         }
      }
   }
}

int
main(void)
{
   static const unsigned dims[][2] = {
      { 4, 4 },  { 5, 4 },  { 5, 5 },   { 6, 5 },   { 6, 6 },
      { 8, 5 },  { 8, 6 },  { 8, 8 },   { 10, 5 },  { 10, 6 },
      { 10, 8 }, { 10, 10 }, { 12, 10 }, { 12, 12 },
   };
   unsigned blocks = 0, decoded = 0, texels = 0, failures = 0;
   unsigned void_extent = 0, parts[5] = { 0 }, dual = 0;

   for (unsigned d = 0; d < sizeof(dims) / sizeof(dims[0]); ++d) {
      unsigned bw = dims[d][0], bh = dims[d][1];
      for (unsigned srgb = 0; srgb < 2; ++srgb) {
         Decoder dec(bw, bh, 1, srgb, true);
         for (unsigned n = 0; n < 20000; ++n) {
            uint8_t b[16];
            uint16_t want[12 * 12 * 4];
            random_block(b);
            bool ok = dec.decode(b, want) == decode_error::ok;
            blocks++;
            if (ok) {
               decoded++;
               unsigned mode = b[0] | (b[1] & 7u) << 8;
               if ((mode & 0x1ff) == 0x1fc) {
                  void_extent++;
               } else {
                  parts[((b[1] >> 3) & 3) + 1]++;
                  dual += (mode >> 10) & 1 && (mode & 0x183) != 0x100;
               }
            }
            for (unsigned y = 0; y < bh; ++y) {
               for (unsigned x = 0; x < bw; ++x) {
                  uint16_t c[4];
                  bool mine = pan_sim_astc_texel(b, bw, bh, srgb, x, y, c);
                  const uint16_t *w = &want[(y * bw + x) * 4];
                  texels++;
                  /* The base decodes HDR endpoint modes as the error
                   * colour but without an error: colours decide, and a
                   * block it refuses must be refused.
                   */
                  bool same = ok || !mine;
                  for (unsigned i = 0; i < 4; ++i)
                     same &= (c[i] >> 8) == w[i];
                  if (!same && failures++ < 20) {
                     printf("FAIL %ux%u%s block", bw, bh,
                            srgb ? " sRGB" : "");
                     for (unsigned i = 0; i < 16; ++i)
                        printf(" %02x", b[i]);
                     printf(" texel (%u, %u): %d %u %u %u %u, base %d %u "
                            "%u %u %u\n",
                            x, y, mine, c[0] >> 8, c[1] >> 8, c[2] >> 8,
                            c[3] >> 8, ok, w[0], w[1], w[2], w[3]);
                  }
               }
            }
         }
      }
   }
   printf("%u blocks (%u decoded: %u void-extent, %u/%u/%u/%u with 1-4 "
          "partitions, %u dual-plane), %u texels, %u differ\n",
          blocks, decoded, void_extent, parts[1], parts[2], parts[3],
          parts[4], dual, texels, failures);
   bool covered = void_extent && parts[1] && parts[2] && parts[3] &&
                  parts[4] && dual;
   if (!covered)
      printf("FAIL: a kind of block was never decoded\n");
   return failures || !covered ? 1 : 0;
}
