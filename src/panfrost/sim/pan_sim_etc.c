/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* ETC2 / EAC texel decoding (see pan_sim_etc.h).  A block is a big-endian
 * 64-bit word; texel (x, y) is number x * 4 + y in the index fields.
 */

#include "pan_sim_etc.h"

static uint64_t
be64(const uint8_t *p)
{
   uint64_t w = 0;
   for (unsigned i = 0; i < 8; ++i)
      w = w << 8 | p[i];
   return w;
}

/* Bits hi..lo of w. */
static unsigned
bits(uint64_t w, unsigned hi, unsigned lo)
{
   return (unsigned)((w >> lo) & ((1ull << (hi - lo + 1)) - 1));
}

static int
clamp255(int v)
{
   return v < 0 ? 0 : v > 255 ? 255 : v;
}

static int
ext4(unsigned v)
{
   return (int)(v << 4 | v);
}

static int
ext5(unsigned v)
{
   return (int)(v << 3 | v >> 2);
}

static int
ext6(unsigned v)
{
   return (int)(v << 2 | v >> 4);
}

static int
ext7(unsigned v)
{
   return (int)(v << 1 | v >> 6);
}

/* Luminance offsets of the individual and differential modes (the two
 * positive ones; the pixel index picks +a, +b, -a or -b).
 */
static const int etc_modifiers[8][2] = {
   { 2, 8 },   { 5, 17 },  { 9, 29 },   { 13, 42 },
   { 18, 60 }, { 24, 80 }, { 33, 106 }, { 47, 183 },
};

/* Distances of the T and H modes. */
static const int etc_distances[8] = { 3, 6, 11, 16, 23, 32, 41, 64 };

/* RGBA (0-255) of texel (x, y) of an ETC2 colour block; with punch-through
 * alpha, bit 33 says the block is opaque and index 2 is transparent black
 * otherwise.
 */
static void
etc2_rgb(uint64_t w, bool punch, unsigned x, unsigned y, int out[4])
{
   unsigned i = x * 4 + y;
   unsigned idx =
      ((unsigned)(w >> (16 + i)) & 1) << 1 | ((unsigned)(w >> i) & 1);
   bool diff = punch || ((w >> 33) & 1);
   bool opaque = !punch || ((w >> 33) & 1);
   bool flip = (w >> 32) & 1;
   int c[3];

   out[3] = 255;
   if (!diff) {
      /* Individual: two 4-bit colours. */
      bool second = flip ? y >= 2 : x >= 2;
      for (unsigned k = 0; k < 3; ++k)
         c[k] = ext4(bits(w, 63 - 8 * k - (second ? 4 : 0),
                          60 - 8 * k - (second ? 4 : 0)));
   } else {
      int base[3], sum[3];
      for (unsigned k = 0; k < 3; ++k) {
         base[k] = (int)bits(w, 63 - 8 * k, 59 - 8 * k);
         int d = (int)bits(w, 58 - 8 * k, 56 - 8 * k);
         sum[k] = base[k] + (d >= 4 ? d - 8 : d);
      }
      if (sum[0] < 0 || sum[0] > 31) {
         /* T mode: one colour, and a second one with a distance. */
         int c1[3] = { ext4(bits(w, 60, 59) << 2 | bits(w, 57, 56)),
                       ext4(bits(w, 55, 52)), ext4(bits(w, 51, 48)) };
         int c2[3] = { ext4(bits(w, 47, 44)), ext4(bits(w, 43, 40)),
                       ext4(bits(w, 39, 36)) };
         int d = etc_distances[bits(w, 35, 34) << 1 | bits(w, 32, 32)];
         if (punch && !opaque && idx == 2) {
            out[0] = out[1] = out[2] = out[3] = 0;
            return;
         }
         for (unsigned k = 0; k < 3; ++k) {
            out[k] = idx == 0   ? c1[k]
                     : idx == 1 ? clamp255(c2[k] + d)
                     : idx == 2 ? c2[k]
                                : clamp255(c2[k] - d);
         }
         return;
      }
      if (sum[1] < 0 || sum[1] > 31) {
         /* H mode: two colours, each plus and minus a distance. */
         unsigned r1 = bits(w, 62, 59);
         unsigned g1 = bits(w, 58, 56) << 1 | bits(w, 52, 52);
         unsigned b1 = bits(w, 51, 51) << 3 | bits(w, 49, 47);
         unsigned r2 = bits(w, 46, 43), g2 = bits(w, 42, 39),
                  b2 = bits(w, 38, 35);
         unsigned v1 = r1 << 8 | g1 << 4 | b1, v2 = r2 << 8 | g2 << 4 | b2;
         int d = etc_distances[bits(w, 34, 34) << 2 | bits(w, 32, 32) << 1 |
                               (v1 >= v2 ? 1 : 0)];
         int c1[3] = { ext4(r1), ext4(g1), ext4(b1) };
         int c2[3] = { ext4(r2), ext4(g2), ext4(b2) };
         if (punch && !opaque && idx == 2) {
            out[0] = out[1] = out[2] = out[3] = 0;
            return;
         }
         for (unsigned k = 0; k < 3; ++k) {
            const int *b = idx < 2 ? c1 : c2;
            out[k] = clamp255(b[k] + ((idx & 1) ? -d : d));
         }
         return;
      }
      if (sum[2] < 0 || sum[2] > 31) {
         /* Planar: a colour at the origin and at (4, 0) and (0, 4). */
         int o[3] = {
            ext6(bits(w, 62, 57)), ext7(bits(w, 56, 56) << 6 | bits(w, 54, 49)),
            ext6(bits(w, 48, 48) << 5 | bits(w, 44, 43) << 3 | bits(w, 41, 39))
         };
         int h[3] = { ext6(bits(w, 38, 34) << 1 | bits(w, 32, 32)),
                      ext7(bits(w, 31, 25)), ext6(bits(w, 24, 19)) };
         int v[3] = { ext6(bits(w, 18, 13)), ext7(bits(w, 12, 6)),
                      ext6(bits(w, 5, 0)) };
         for (unsigned k = 0; k < 3; ++k) {
            out[k] = clamp255(((int)x * (h[k] - o[k]) + (int)y * (v[k] - o[k]) +
                               4 * o[k] + 2) >>
                              2);
         }
         return;
      }
      bool second = flip ? y >= 2 : x >= 2;
      for (unsigned k = 0; k < 3; ++k)
         c[k] = ext5((unsigned)(second ? sum[k] : base[k]));
   }

   bool second = flip ? y >= 2 : x >= 2;
   const int *m = etc_modifiers[second ? bits(w, 36, 34) : bits(w, 39, 37)];
   int mod;
   if (!opaque) {
      /* Punch-through: index 2 is transparent, 0 the base colour. */
      if (idx == 2) {
         out[0] = out[1] = out[2] = out[3] = 0;
         return;
      }
      mod = idx == 0 ? 0 : idx == 1 ? m[1] : -m[1];
   } else {
      mod = idx == 0 ? m[0] : idx == 1 ? m[1] : idx == 2 ? -m[0] : -m[1];
   }
   for (unsigned k = 0; k < 3; ++k)
      out[k] = clamp255(c[k] + mod);
}

/* EAC modifier tables, by table index then pixel index. */
static const int eac_modifiers[16][8] = {
   { -3, -6, -9, -15, 2, 5, 8, 14 }, { -3, -7, -10, -13, 2, 6, 9, 12 },
   { -2, -5, -8, -13, 1, 4, 7, 12 }, { -2, -4, -6, -13, 1, 3, 5, 12 },
   { -3, -6, -8, -12, 2, 5, 7, 11 }, { -3, -7, -9, -11, 2, 6, 8, 10 },
   { -4, -7, -8, -11, 3, 6, 7, 10 }, { -3, -5, -8, -11, 2, 4, 7, 10 },
   { -2, -6, -8, -10, 1, 5, 7, 9 },  { -2, -5, -8, -10, 1, 4, 7, 9 },
   { -2, -4, -8, -10, 1, 3, 7, 9 },  { -2, -5, -7, -10, 1, 4, 6, 9 },
   { -3, -4, -7, -10, 2, 3, 6, 9 },  { -1, -2, -3, -10, 0, 1, 2, 9 },
   { -4, -6, -8, -9, 3, 5, 7, 8 },   { -3, -5, -7, -9, 2, 4, 6, 8 },
};

/* The EAC modifier of texel (x, y) and the block's base and multiplier. */
static int
eac_modifier(uint64_t w, unsigned x, unsigned y)
{
   unsigned i = x * 4 + y;
   return eac_modifiers[bits(w, 51, 48)][bits(w, 47 - 3 * i, 45 - 3 * i)];
}

/* 8-bit alpha of an RGBA8 block's EAC half. */
static int
eac_alpha(uint64_t w, unsigned x, unsigned y)
{
   return clamp255((int)bits(w, 63, 56) +
                   eac_modifier(w, x, y) * (int)bits(w, 55, 52));
}

/* An 11-bit channel as a normalised value. */
static float
eac_11(uint64_t w, bool snorm, unsigned x, unsigned y)
{
   int mult = (int)bits(w, 55, 52), mod = eac_modifier(w, x, y);
   /* A zero multiplier means one eighth: the offsets are added as they
    * are to the 11-bit value.
    */
   int delta = mult ? mod * mult * 8 : mod;

   if (snorm) {
      int base = (int8_t)bits(w, 63, 56);
      if (base == -128)
         base = -127;
      int v = base * 8 + delta;
      v = v < -1023 ? -1023 : v > 1023 ? 1023 : v;
      return (float)v / 1023.0f;
   }
   int v = (int)bits(w, 63, 56) * 8 + 4 + delta;
   v = v < 0 ? 0 : v > 2047 ? 2047 : v;
   return (float)v / 2047.0f;
}

void
pan_sim_etc_texel(enum pan_sim_etc_kind kind, bool snorm, const uint8_t *block,
                  unsigned x, unsigned y, float v[4])
{
   int rgba[4];

   switch (kind) {
   case PAN_SIM_ETC2_RGB8:
   case PAN_SIM_ETC2_RGB8A1:
      etc2_rgb(be64(block), kind == PAN_SIM_ETC2_RGB8A1, x, y, rgba);
      for (unsigned k = 0; k < 4; ++k)
         v[k] = (float)rgba[k] / 255.0f;
      break;
   case PAN_SIM_ETC2_RGBA8:
      etc2_rgb(be64(block + 8), false, x, y, rgba);
      rgba[3] = eac_alpha(be64(block), x, y);
      for (unsigned k = 0; k < 4; ++k)
         v[k] = (float)rgba[k] / 255.0f;
      break;
   case PAN_SIM_EAC_R11:
      v[0] = eac_11(be64(block), snorm, x, y);
      break;
   case PAN_SIM_EAC_RG11:
      v[0] = eac_11(be64(block), snorm, x, y);
      v[1] = eac_11(be64(block + 8), snorm, x, y);
      break;
   }
}
