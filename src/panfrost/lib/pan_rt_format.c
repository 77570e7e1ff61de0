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

#include "pan_rt_format.h"

/* Blendable formats.  The swizzle lists, for memory components 0..3 of the
 * write-back format (lowest bits first), the tile-buffer channel stored
 * there.
 */
static const struct {
   enum pipe_format format;
   uint8_t tib, writeback;
   uint16_t swizzle;
} pan_blendable[] = {
   {PIPE_FORMAT_R8G8B8A8_UNORM, PAN_TIB_R8G8B8A8, PAN_WB_R8G8B8A8,
    PAN_RT_SWIZZLE(R, G, B, A)},
   {PIPE_FORMAT_R8G8B8A8_SRGB, PAN_TIB_R8G8B8A8, PAN_WB_R8G8B8A8,
    PAN_RT_SWIZZLE(R, G, B, A)},
   {PIPE_FORMAT_R8G8B8X8_UNORM, PAN_TIB_R8G8B8A8, PAN_WB_R8G8B8A8,
    PAN_RT_SWIZZLE(R, G, B, 1)},
   {PIPE_FORMAT_B8G8R8A8_UNORM, PAN_TIB_R8G8B8A8, PAN_WB_R8G8B8A8,
    PAN_RT_SWIZZLE(B, G, R, A)},
   {PIPE_FORMAT_B8G8R8A8_SRGB, PAN_TIB_R8G8B8A8, PAN_WB_R8G8B8A8,
    PAN_RT_SWIZZLE(B, G, R, A)},
   {PIPE_FORMAT_B8G8R8X8_UNORM, PAN_TIB_R8G8B8A8, PAN_WB_R8G8B8A8,
    PAN_RT_SWIZZLE(B, G, R, 1)},
   {PIPE_FORMAT_A8B8G8R8_UNORM, PAN_TIB_R8G8B8A8, PAN_WB_R8G8B8A8,
    PAN_RT_SWIZZLE(A, B, G, R)},
   {PIPE_FORMAT_R8G8_UNORM, PAN_TIB_R8G8B8A8, PAN_WB_R8G8,
    PAN_RT_SWIZZLE(R, G, 0, 0)},
   {PIPE_FORMAT_R8_UNORM, PAN_TIB_R8G8B8A8, PAN_WB_R8,
    PAN_RT_SWIZZLE(R, 0, 0, 0)},
   {PIPE_FORMAT_A8_UNORM, PAN_TIB_R8G8B8A8, PAN_WB_R8,
    PAN_RT_SWIZZLE(A, 0, 0, 0)},
   {PIPE_FORMAT_B5G6R5_UNORM, PAN_TIB_R5G6B5A0, PAN_WB_R5G6B5,
    PAN_RT_SWIZZLE(B, G, R, 1)},
   {PIPE_FORMAT_B4G4R4A4_UNORM, PAN_TIB_R4G4B4A4, PAN_WB_R4G4B4A4,
    PAN_RT_SWIZZLE(B, G, R, A)},
   {PIPE_FORMAT_B5G5R5A1_UNORM, PAN_TIB_R5G5B5A1, PAN_WB_R5G5B5A1,
    PAN_RT_SWIZZLE(B, G, R, A)},
   {PIPE_FORMAT_R10G10B10A2_UNORM, PAN_TIB_R10G10B10A2, PAN_WB_R10G10B10A2,
    PAN_RT_SWIZZLE(R, G, B, A)},
   {PIPE_FORMAT_B10G10R10A2_UNORM, PAN_TIB_R10G10B10A2, PAN_WB_R10G10B10A2,
    PAN_RT_SWIZZLE(B, G, R, A)},
};

/* Integer and fraction bits of R, G, B, A in each blendable tile-buffer
 * layout; the fraction bits hold dither state and are packed as zero.
 */
static const struct {
   uint8_t tib;
   uint8_t int_bits[4], frac_bits[4];
} pan_tib_layouts[] = {
   {PAN_TIB_R8G8B8A8, {8, 8, 8, 8}, {0, 0, 0, 0}},
   {PAN_TIB_R10G10B10A2, {10, 10, 10, 2}, {0, 0, 0, 0}},
   {PAN_TIB_R8G8B8A2, {8, 8, 8, 2}, {2, 2, 2, 0}},
   {PAN_TIB_R4G4B4A4, {4, 4, 4, 4}, {4, 4, 4, 4}},
   {PAN_TIB_R5G6B5A0, {5, 6, 5, 0}, {5, 4, 5, 2}},
   {PAN_TIB_R5G5B5A1, {5, 5, 5, 1}, {5, 5, 5, 1}},
};

static uint8_t
raw_wb_format(unsigned bytes)
{
   switch (bytes) {
   case 1: return PAN_WB_RAW8;
   case 2: return PAN_WB_RAW16;
   case 3: return PAN_WB_RAW24;
   case 4: return PAN_WB_RAW32;
   case 6: return PAN_WB_RAW48;
   case 8: return PAN_WB_RAW64;
   case 12: return PAN_WB_RAW96;
   default: return PAN_WB_RAW128;
   }
}

static uint8_t
raw_tib_format(unsigned tib_bytes)
{
   switch (tib_bytes) {
   case 1: return PAN_TIB_RAW8;
   case 2: return PAN_TIB_RAW16;
   case 4: return PAN_TIB_RAW32;
   case 8: return PAN_TIB_RAW64;
   default: return PAN_TIB_RAW128;
   }
}

bool
pan_rt_format_lookup(enum pipe_format format, struct pan_rt_format *out)
{
   const struct util_format_description *desc =
      util_format_description(format);

   memset(out, 0, sizeof(*out));
   /* One pixel per block (packed floats like R11G11B10 included), no
    * depth or stencil.
    */
   if (!desc || desc->block.width != 1 || desc->block.height != 1 ||
       desc->block.depth != 1 || util_format_is_depth_or_stencil(format) ||
       desc->block.bits % 8)
      return false;

   out->mem_B = desc->block.bits / 8;
   out->srgb = desc->colorspace == UTIL_FORMAT_COLORSPACE_SRGB;

   for (unsigned i = 0; i < ARRAY_SIZE(pan_blendable); ++i) {
      if (pan_blendable[i].format != format)
         continue;
      out->tib = pan_blendable[i].tib;
      out->writeback = pan_blendable[i].writeback;
      out->swizzle = pan_blendable[i].swizzle;
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
   out->swizzle = PAN_RT_SWIZZLE(R, G, B, A);
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
