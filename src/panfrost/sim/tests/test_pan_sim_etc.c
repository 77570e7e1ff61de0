/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The simulator's ETC2/EAC decoder (pan_sim_etc.c) on blocks of every mode,
 * against texels worked out by hand from the OpenGL ES 3.0 specification
 * (annex C): individual (both flips), differential, T, H, planar,
 * punch-through alpha, EAC R11 unsigned and signed (and a zero
 * multiplier), and the EAC alpha of RGBA8.
 */

#include <math.h>
#include <stdio.h>

#include "pan_sim_etc.h"

static unsigned checks, failures;

static void
block_of(uint64_t w, uint8_t b[8])
{
   for (unsigned i = 0; i < 8; ++i)
      b[i] = (uint8_t)(w >> (56 - 8 * i));
}

/* Texel (x, y) of the block against want[] (0-255 colour, or a float when
 * `exact` is set), for the channels in `mask`. */
static void
expect(const char *what, enum pan_sim_etc_kind kind, bool snorm,
       const uint8_t *block, unsigned x, unsigned y, const float want[4],
       unsigned mask)
{
   float v[4] = { -9, -9, -9, -9 };
   pan_sim_etc_texel(kind, snorm, block, x, y, v);
   for (unsigned c = 0; c < 4; ++c) {
      if (!((mask >> c) & 1))
         continue;
      checks++;
      if (fabsf(v[c] - want[c]) > 1e-6f) {
         failures++;
         printf("FAIL %s (%u, %u) channel %u: %f, want %f\n", what, x, y, c,
                v[c], want[c]);
      }
   }
}

static void
expect8(const char *what, enum pan_sim_etc_kind kind, const uint8_t *block,
        unsigned x, unsigned y, int r, int g, int b, int a)
{
   const float want[4] = { r / 255.0f, g / 255.0f, b / 255.0f, a / 255.0f };
   expect(what, kind, false, block, x, y, want, 0xf);
}

/* Texels (0..3, 0) take pixel indices 0, 1, 2, 3 (texel i = x * 4 + y:
 * LSBs in bits 0..15, MSBs in bits 16..31). */
#define IDX_0123 ((1u << 4) | (1u << 12) | (1u << 24) | (1u << 28))

int
main(void)
{
   uint8_t b[16];

   /* Individual: colours 8 and 4 (136, 68), tables 0 and 7; every index 1
    * (+b: +8 left, +183 right), then every index 3 (-b). */
   uint64_t ind = 0x8ull << 60 | 0x4ull << 56 | 0x8ull << 52 | 0x4ull << 48 |
                  0x8ull << 44 | 0x4ull << 40 | 7ull << 34;
   block_of(ind | 0xffff, b);
   expect8("individual", PAN_SIM_ETC2_RGB8, b, 0, 0, 144, 144, 144, 255);
   expect8("individual", PAN_SIM_ETC2_RGB8, b, 1, 3, 144, 144, 144, 255);
   expect8("individual", PAN_SIM_ETC2_RGB8, b, 2, 0, 251, 251, 251, 255);
   block_of(ind | 0xffffffffull, b);
   expect8("individual -b", PAN_SIM_ETC2_RGB8, b, 0, 2, 128, 128, 128, 255);
   expect8("individual -b", PAN_SIM_ETC2_RGB8, b, 3, 1, 0, 0, 0, 255);
   /* Flipped: the top two rows are the first sub-block. */
   block_of(ind | 1ull << 32 | 0xffff, b);
   expect8("individual flip", PAN_SIM_ETC2_RGB8, b, 3, 1, 144, 144, 144, 255);
   expect8("individual flip", PAN_SIM_ETC2_RGB8, b, 0, 2, 251, 251, 251, 255);

   /* Differential: base 16 (132), delta -1 (15: 123), table 0, index 0
    * (+2). */
   uint64_t diff = 0x87878702ull << 32;
   block_of(diff, b);
   expect8("differential", PAN_SIM_ETC2_RGB8, b, 1, 1, 134, 134, 134, 255);
   expect8("differential", PAN_SIM_ETC2_RGB8, b, 2, 1, 125, 125, 125, 255);

   /* T: red base 31 + 3 overflows; c1 = (255, 0, 0), c2 = 136 grey,
    * distance 1 (6): paints c1, c2 + 6, c2, c2 - 6. */
   block_of(0xfb008883ull << 32 | IDX_0123, b);
   expect8("T", PAN_SIM_ETC2_RGB8, b, 0, 0, 255, 0, 0, 255);
   expect8("T", PAN_SIM_ETC2_RGB8, b, 1, 0, 142, 142, 142, 255);
   expect8("T", PAN_SIM_ETC2_RGB8, b, 2, 0, 136, 136, 136, 255);
   expect8("T", PAN_SIM_ETC2_RGB8, b, 3, 0, 130, 130, 130, 255);

   /* H: green base 30 + 3 overflows; c1 = (136, 17, 119), c2 = black,
    * c1 >= c2 so distance 1 (6): c1 + 6, c1 - 6, c2 + 6, c2 - 6. */
   block_of(0x40f38002ull << 32 | IDX_0123, b);
   expect8("H", PAN_SIM_ETC2_RGB8, b, 0, 0, 142, 23, 125, 255);
   expect8("H", PAN_SIM_ETC2_RGB8, b, 1, 0, 130, 11, 113, 255);
   expect8("H", PAN_SIM_ETC2_RGB8, b, 2, 0, 6, 6, 6, 255);
   expect8("H", PAN_SIM_ETC2_RGB8, b, 3, 0, 0, 0, 0, 255);

   /* Planar: blue 0 - 4 underflows; origin black, RH 63 and GV 127 (255):
    * red (x * 255 + 2) / 4, green (y * 255 + 2) / 4. */
   block_of(1ull << 33 | 1ull << 42 | 0x1full << 34 | 1ull << 32 | 0x7full << 6,
            b);
   expect8("planar", PAN_SIM_ETC2_RGB8, b, 0, 0, 0, 0, 0, 255);
   expect8("planar", PAN_SIM_ETC2_RGB8, b, 3, 1, 191, 64, 0, 255);
   expect8("planar", PAN_SIM_ETC2_RGB8, b, 2, 3, 128, 191, 0, 255);

   /* Punch-through, not opaque: the differential block above; index 0 is
    * the base colour, 1 +8, 2 transparent black, 3 -8. */
   block_of((diff & ~(1ull << 33)) | IDX_0123, b);
   expect8("punch-through", PAN_SIM_ETC2_RGB8A1, b, 0, 0, 132, 132, 132, 255);
   expect8("punch-through", PAN_SIM_ETC2_RGB8A1, b, 1, 0, 140, 140, 140, 255);
   expect8("punch-through", PAN_SIM_ETC2_RGB8A1, b, 2, 0, 0, 0, 0, 0);
   expect8("punch-through", PAN_SIM_ETC2_RGB8A1, b, 3, 0, 115, 115, 115, 255);
   /* Opaque (bit 33): the ordinary differential texel. */
   block_of(diff, b);
   expect8("punch-through opaque", PAN_SIM_ETC2_RGB8A1, b, 1, 1, 134, 134, 134,
           255);

   /* EAC: base 0x80, multiplier 2, table 0 ({-3, -6, -9, -15, 2, 5, 8,
    * 14}), texel i index i % 8. */
   static const int mods[8] = { -3, -6, -9, -15, 2, 5, 8, 14 };
   uint64_t eac = 0x80ull << 56 | 0x2ull << 52;
   for (unsigned i = 0; i < 16; ++i)
      eac |= (uint64_t)(i % 8) << (45 - 3 * i);
   block_of(eac, b);
   for (unsigned i = 0; i < 16; ++i) {
      unsigned x = i / 4, y = i % 4;
      int u = 128 * 8 + 4 + mods[i % 8] * 16;
      int s = -127 * 8 + mods[i % 8] * 16;
      s = s < -1023 ? -1023 : s;
      expect("R11", PAN_SIM_EAC_R11, false, b, x, y,
             (const float[4]){ u / 2047.0f }, 1);
      expect("R11 signed", PAN_SIM_EAC_R11, true, b, x, y,
             (const float[4]){ s / 1023.0f }, 1);
   }
   /* A zero multiplier adds the modifier to the 11-bit value as it is. */
   block_of(eac & ~(0xfull << 52), b);
   expect("R11 x0", PAN_SIM_EAC_R11, false, b, 0, 3,
          (const float[4]){ (1028 - 15) / 2047.0f }, 1);
   /* RG11: the second block is green. */
   block_of(eac, b);
   block_of(eac & ~(0xfull << 52), b + 8);
   expect("RG11", PAN_SIM_EAC_RG11, false, b, 0, 3,
          (const float[4]){ (1028 - 15 * 16) / 2047.0f, (1028 - 15) / 2047.0f },
          3);

   /* RGBA8: alpha base 100, multiplier 1, table 13 (index 7: +9), then
    * the differential colour block. */
   block_of(100ull << 56 | 1ull << 52 | 13ull << 48 | 0xffffffffffffull, b);
   block_of(diff, b + 8);
   expect8("RGBA8", PAN_SIM_ETC2_RGBA8, b, 2, 2, 125, 125, 125, 109);

   printf("pan_sim_etc: %u checks, %u failures\n", checks, failures);
   return failures ? 1 : 0;
}
