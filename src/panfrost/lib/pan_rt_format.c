/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include <math.h>
#include <string.h>

#include "pipe/p_state.h"
#include "util/format/u_format.h"
#include "util/format_srgb.h"
#include "util/macros.h"
#include "util/u_math.h"

#include "pan_format_table.h"
#include "pan_rt_format.h"

/* The encoding of pan_format_table.h (v5 names, shared by v5 and later). */
#include "pan_v5_pack.h"

#define TIB(x) PAN_V5_COLOR_BUFFER_INTERNAL_FORMAT_##x
#define WB(x)  PAN_V5_COLOR_FORMAT_##x

/* Integer and fraction bits of R, G, B, A in each blendable tile-buffer
 * layout; the fraction bits hold dither state and are packed as zero.
 */
static const struct {
   uint8_t tib;
   uint8_t int_bits[4], frac_bits[4];
} pan_tib_layouts[] = {
   {TIB(R8G8B8A8), {8, 8, 8, 8}, {0, 0, 0, 0}},
   {TIB(R10G10B10A2), {10, 10, 10, 2}, {0, 0, 0, 0}},
   {TIB(R8G8B8A2), {8, 8, 8, 2}, {2, 2, 2, 0}},
   {TIB(R4G4B4A4), {4, 4, 4, 4}, {4, 4, 4, 4}},
   {TIB(R5G6B5A0), {5, 6, 5, 0}, {5, 4, 5, 2}},
   {TIB(R5G5B5A1), {5, 5, 5, 1}, {5, 5, 5, 1}},
};

static uint8_t
raw_wb_format(unsigned bytes)
{
   switch (bytes) {
   case 1: return WB(RAW8);
   case 2: return WB(RAW16);
   case 3: return WB(RAW24);
   case 4: return WB(RAW32);
   case 6: return WB(RAW48);
   case 8: return WB(RAW64);
   case 12: return WB(RAW96);
   default: return WB(RAW128);
   }
}

static uint8_t
raw_tib_format(unsigned tib_bytes)
{
   switch (tib_bytes) {
   case 1: return TIB(RAW8);
   case 2: return TIB(RAW16);
   case 4: return TIB(RAW32);
   case 8: return TIB(RAW64);
   default: return TIB(RAW128);
   }
}

bool
pan_rt_format_lookup(enum pipe_format format, struct pan_rt_format *out)
{
   const struct pan_format_info *row = pan_format_info(format);
   const struct util_format_description *desc =
      util_format_description(format);

   memset(out, 0, sizeof(*out));
   /* One pixel per block (packed floats like R11G11B10 included) and
    * whole bytes, or the table is wrong.
    */
   if (!row || !(row->uses & PAN_USE_RENDER) || !desc ||
       desc->block.width != 1 || desc->block.height != 1 ||
       desc->block.depth != 1 || desc->block.bits % 8)
      return false;

   out->mem_B = desc->block.bits / 8;
   out->srgb = desc->colorspace == UTIL_FORMAT_COLORSPACE_SRGB;

   if (row->uses & PAN_USE_BLEND) {
      out->tib = row->tib;
      out->writeback = row->writeback;
      out->swizzle = row->swizzle;
      out->tib_B = 4;
      return true;
   }

   /* Raw: the tile buffer holds the memory bytes, padded to a power of
    * two.  Formats wider than 16 bytes do not fit a render target.
    */
   if (out->mem_B > 16)
      return false;
   out->raw = true;
   out->tib_B = util_next_power_of_two(out->mem_B);
   out->tib = raw_tib_format(out->tib_B);
   out->writeback = raw_wb_format(out->mem_B);
   out->swizzle = PAN_V5_CHANNEL_R | PAN_V5_CHANNEL_G << 3 |
                  PAN_V5_CHANNEL_B << 6 | PAN_V5_CHANNEL_A << 9;
   return true;
}

static float
saturate(float f)
{
   /* NaN clears to 0, like the GL conversion rules ask. */
   return f > 0.0f ? (f < 1.0f ? f : 1.0f) : 0.0f;
}

void
pan_rt_pack_clear(enum pipe_format format, const struct pan_rt_format *f,
                  const union pipe_color_union *color, uint32_t out[4])
{
   memset(out, 0, 4 * sizeof(uint32_t));

   if (f->raw) {
      uint8_t bytes[16] = {0};
      util_format_pack_rgba(format, bytes, color, 1);
      memcpy(out, bytes, sizeof(bytes));
      return;
   }

   float c[4];
   for (unsigned i = 0; i < 4; ++i)
      c[i] = saturate(color->f[i]);
   if (!util_format_has_alpha(format))
      c[3] = 1.0f;
   if (f->srgb) {
      for (unsigned i = 0; i < 3; ++i)
         c[i] = util_format_linear_to_srgb_float(c[i]);
   }

   for (unsigned l = 0; l < ARRAY_SIZE(pan_tib_layouts); ++l) {
      if (pan_tib_layouts[l].tib != f->tib)
         continue;

      uint32_t word = 0;
      unsigned shift = 0;
      for (unsigned i = 0; i < 4; ++i) {
         unsigned ib = pan_tib_layouts[l].int_bits[i];
         unsigned fb = pan_tib_layouts[l].frac_bits[i];
         uint32_t v = (uint32_t)lrintf(c[i] * (float)((1u << ib) - 1));
         word |= (v << fb) << shift;
         shift += ib + fb;
      }
      /* One pixel per word; the hardware reads all four for MSAA. */
      for (unsigned i = 0; i < 4; ++i)
         out[i] = word;
      return;
   }
}
