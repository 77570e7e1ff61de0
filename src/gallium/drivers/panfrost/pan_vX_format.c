/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Gallium formats to the hardware's by name, compiled once per PAN_ARCH:
 * the names are the hardware description's, so every architecture's
 * table answers for itself (textures, attributes, blending).
 */

#include <stdio.h>
#include <string.h>

#include "pipe/p_defines.h"
#include "util/format/u_format.h"
#include "util/u_atomic.h"
#include "util/macros.h"

#include "pan_genxml.h"
#include "pan_vX_format.h"

/* Formats whose hardware name does not follow from their channels; the
 * first name this architecture has wins.
 */
static const struct {
   enum pipe_format format;
   const char *name;
} packed_formats[] = {
   { PIPE_FORMAT_B5G6R5_UNORM, "rgb565" },
   { PIPE_FORMAT_R5G6B5_UNORM, "rgb565" },
   { PIPE_FORMAT_B5G5R5A1_UNORM, "rgb5_a1_unorm" },
   { PIPE_FORMAT_R10G10B10A2_UNORM, "rgb10_a2_unorm" },
   { PIPE_FORMAT_B10G10R10A2_UNORM, "rgb10_a2_unorm" },
   { PIPE_FORMAT_R10G10B10A2_UINT, "rgb10_a2ui" },
   { PIPE_FORMAT_B10G10R10A2_UINT, "rgb10_a2ui" },
   { PIPE_FORMAT_R10G10B10A2_SNORM, "rgb10_a2_snorm" },
   { PIPE_FORMAT_B10G10R10A2_SNORM, "rgb10_a2_snorm" },
   /* Scaled vertex data: integers the attribute unit converts to the
    * float registers the shader loads.
    */
   { PIPE_FORMAT_R10G10B10A2_USCALED, "rgb10_a2ui" },
   { PIPE_FORMAT_B10G10R10A2_USCALED, "rgb10_a2ui" },
   { PIPE_FORMAT_R10G10B10A2_SSCALED, "rgb10_a2i" },
   { PIPE_FORMAT_B10G10R10A2_SSCALED, "rgb10_a2i" },
   { PIPE_FORMAT_R11G11B10_FLOAT, "r11f_g11f_b10f" },
   { PIPE_FORMAT_R9G9B9E5_FLOAT, "r9f_g9f_b9f_e5f" },
   { PIPE_FORMAT_Z16_UNORM, "z16_unorm" },
   /* v6 has no z16_unorm either: the same 16 bits read as red. */
   { PIPE_FORMAT_Z16_UNORM, "r16_unorm" },
   { PIPE_FORMAT_Z24_UNORM_S8_UINT, "z24x8_unorm" },
   { PIPE_FORMAT_Z24X8_UNORM, "z24x8_unorm" },
   /* An S8 buffer's stencil, in red like depth (see the swizzle). */
   { PIPE_FORMAT_S8_UINT, "r8ui" },
   /* Stencil in the top byte of each D24S8 texel (see the swizzle). */
   { PIPE_FORMAT_X24S8_UINT, "rgba8ui" },
   { PIPE_FORMAT_Z32_FLOAT, "z32" },
   /* v6 has no z32: the sampler reads the float depth as red. */
   { PIPE_FORMAT_Z32_FLOAT, "r32f" },
};

/* ETC2/EAC formats: the hardware's name of their 4x4 blocks (v6/v7
 * texture formats, v9 plane clump formats) and what v9's texture
 * descriptors name instead, the format the blocks decode to (as the stock
 * driver packs them; sRGB stays the descriptor's flag).
 */
static const struct {
   enum pipe_format format;
   const char *block;
   const char *decoded;
} etc_formats[] = {
   { PIPE_FORMAT_ETC1_RGB8, "etc2_rgb8", "rgba8_unorm" },
   { PIPE_FORMAT_ETC2_RGB8, "etc2_rgb8", "rgba8_unorm" },
   { PIPE_FORMAT_ETC2_SRGB8, "etc2_rgb8", "rgba8_unorm" },
   { PIPE_FORMAT_ETC2_RGB8A1, "etc2_rgb8a1", "rgba8_unorm" },
   { PIPE_FORMAT_ETC2_SRGB8A1, "etc2_rgb8a1", "rgba8_unorm" },
   { PIPE_FORMAT_ETC2_RGBA8, "etc2_rgba8", "rgba8_unorm" },
   { PIPE_FORMAT_ETC2_SRGBA8, "etc2_rgba8", "rgba8_unorm" },
   { PIPE_FORMAT_ETC2_R11_UNORM, "etc2_r11_unorm", "r16_unorm" },
   { PIPE_FORMAT_ETC2_R11_SNORM, "etc2_r11_snorm", "r16_snorm" },
   { PIPE_FORMAT_ETC2_RG11_UNORM, "etc2_rg11_unorm", "rg16_unorm" },
   { PIPE_FORMAT_ETC2_RG11_SNORM, "etc2_rg11_snorm", "rg16_snorm" },
};

const char *
PAN_GENX(panfrost_etc_block)(enum pipe_format format)
{
   for (unsigned i = 0; i < ARRAY_SIZE(etc_formats); ++i) {
      if (etc_formats[i].format == format)
         return etc_formats[i].block;
   }
   return NULL;
}

/* The hardware name of a plain format whose channels share one size and
 * type ("rgba8_unorm", "rg16f", "r32ui"), in memory order: channel i of
 * the hardware format is channel i of the Gallium one, and the format's
 * own swizzle goes into the texture's.  false when there is none.
 */
static bool
channels_name(const struct util_format_description *desc, char *name,
              size_t size)
{
   static const char *const sets[] = { "r", "rg", "rgb", "rgba" };
   const struct util_format_channel_description *c0 = NULL;

   if (desc->layout != UTIL_FORMAT_LAYOUT_PLAIN ||
       desc->colorspace == UTIL_FORMAT_COLORSPACE_ZS ||
       desc->nr_channels < 1 || desc->nr_channels > 4)
      return false;
   for (unsigned i = 0; i < desc->nr_channels; ++i) {
      const struct util_format_channel_description *c = &desc->channel[i];
      if (c->type == UTIL_FORMAT_TYPE_VOID)
         continue;
      if (!c0)
         c0 = c;
      if (c->type != c0->type || c->size != c0->size ||
          c->normalized != c0->normalized ||
          c->pure_integer != c0->pure_integer)
         return false;
   }
   /* Padding must be as wide as the channels it sits among. */
   for (unsigned i = 0; c0 && i < desc->nr_channels; ++i) {
      if (desc->channel[i].size != c0->size)
         return false;
   }
   if (!c0)
      return false;

   const char *type;
   if (c0->type == UTIL_FORMAT_TYPE_FLOAT)
      type = "f";
   else if (c0->normalized)
      type = c0->type == UTIL_FORMAT_TYPE_SIGNED ? "_snorm" : "_unorm";
   else if (c0->pure_integer)
      type = c0->type == UTIL_FORMAT_TYPE_SIGNED ? "i" : "ui";
   else
      return false; /* scaled and fixed-point: not sampled */
   snprintf(name, size, "%s%u%s", sets[desc->nr_channels - 1], c0->size,
            type);
   return true;
}

/* enum mali_format of a name, 0 when the hardware has none. */
static unsigned
format_by_name(const char *name)
{
   for (unsigned v = 1; v < 256; ++v) {
      const char *n = PAN_GENX(format_name)((enum PAN_GENX(format))v);
      if (n && !strcmp(n, name))
         return v;
   }
   return 0;
}

/* The hardware format of a Gallium one, 0 when there is none. */
static unsigned
hw_format(enum pipe_format format, const struct util_format_description *desc)
{
   const char *name = NULL;
   char buf[32];

   for (unsigned i = 0; i < ARRAY_SIZE(packed_formats); ++i) {
      if (packed_formats[i].format != format)
         continue;
      unsigned hw = format_by_name(packed_formats[i].name);
      if (hw)
         return hw;
      name = packed_formats[i].name;
   }
   /* 2D ASTC decodes wide (16-bit floats) for linear textures, to 8 bits
    * for sRGB ones (see pan_format_compressed_index).  Up to v7 the format
    * names the ASTC decode and the surfaces the footprint; v9 names what
    * the texels decode to, its ASTC planes the blocks (as the stock driver
    * does).
    */
   if (!name && desc->layout == UTIL_FORMAT_LAYOUT_ASTC &&
       desc->block.depth == 1) {
      bool srgb = util_format_is_srgb(format);
#if PAN_ARCH >= 9
      name = srgb ? "rgba8_unorm" : "rgba16f";
#else
      name = srgb ? "astc_2d_ldr" : "astc_2d_hdr";
#endif
   }
   for (unsigned i = 0; !name && i < ARRAY_SIZE(etc_formats); ++i) {
      if (etc_formats[i].format == format)
         name = PAN_ARCH >= 9 ? etc_formats[i].decoded : etc_formats[i].block;
   }
   if (!name && channels_name(desc, buf, sizeof(buf)))
      name = buf;
   return name ? format_by_name(name) : 0;
}

unsigned
PAN_GENX(panfrost_format)(enum pipe_format format, unsigned char swizzle[4])
{
   /* The search by name is slow and draws ask again for every vertex
    * element: answers are kept, hw + 1 (0: not looked up yet).
    */
   static uint16_t known[PIPE_FORMAT_COUNT];
   const struct util_format_description *desc =
      util_format_description(format);

   if (!desc || (unsigned)format >= PIPE_FORMAT_COUNT)
      return 0;
   unsigned hw = p_atomic_read(&known[format]);
   if (hw) {
      hw -= 1;
   } else {
      hw = hw_format(format, desc);
      p_atomic_set(&known[format], (uint16_t)(hw + 1));
   }
   if (!hw)
      return 0;

   if (format == PIPE_FORMAT_X24S8_UINT) {
      /* The stencil byte in red, as stencil texturing returns it. */
      static const unsigned char stencil[4] = {
         PIPE_SWIZZLE_W, PIPE_SWIZZLE_0, PIPE_SWIZZLE_0, PIPE_SWIZZLE_1
      };
      memcpy(swizzle, stencil, 4);
   } else if (desc->colorspace == UTIL_FORMAT_COLORSPACE_ZS) {
      /* Depth in red, as sampling and shadow comparisons want it. */
      static const unsigned char depth[4] = {
         PIPE_SWIZZLE_X, PIPE_SWIZZLE_0, PIPE_SWIZZLE_0, PIPE_SWIZZLE_1
      };
      memcpy(swizzle, depth, 4);
   } else {
      memcpy(swizzle, desc->swizzle, 4);
   }
   return hw;
}

uint32_t
PAN_GENX(panfrost_pixel_format)(unsigned hw, bool srgb)
{
   uint32_t word = 0;

   pan_pack(&word, pixel_format, cfg)
   {
      cfg.format = hw;
#if PAN_ARCH >= 7
      cfg.order = MALI_RGB_COMPONENT_ORDER_RGBA;
#else
      /* v6 has a swizzle where v7 has a component order. */
      cfg.swizzle.r = MALI_CHANNEL_R;
      cfg.swizzle.g = MALI_CHANNEL_G;
      cfg.swizzle.b = MALI_CHANNEL_B;
      cfg.swizzle.a = MALI_CHANNEL_A;
#endif
      cfg.srgb = srgb;
   }
   return word;
}

unsigned
PAN_GENX(panfrost_attribute_format)(enum pipe_format format)
{
   const struct util_format_description *desc =
      util_format_description(format);
   unsigned char swz[4];
   unsigned hw = PAN_GENX(panfrost_format)(format, swz);

   if (!hw || !desc || desc->colorspace == UTIL_FORMAT_COLORSPACE_ZS)
      return 0;
   for (unsigned c = 0; c < desc->nr_channels; ++c) {
      if (swz[c] != PIPE_SWIZZLE_X + c)
         return 0;
   }
   return hw;
}

uint32_t
PAN_GENX(panfrost_vertex_format)(enum pipe_format format)
{
   static const unsigned char bgra[4] = { PIPE_SWIZZLE_Z, PIPE_SWIZZLE_Y,
                                          PIPE_SWIZZLE_X, PIPE_SWIZZLE_W };
   const struct util_format_description *desc =
      util_format_description(format);
   unsigned char swz[4];
   unsigned hw = PAN_GENX(panfrost_format)(format, swz);
   uint32_t word = 0;

   if (!hw || !desc || desc->colorspace == UTIL_FORMAT_COLORSPACE_ZS)
      return 0;
   if (desc->nr_channels != 4 || memcmp(swz, bgra, 4))
      return PAN_GENX(panfrost_attribute_format)(format)
                ? PAN_GENX(panfrost_pixel_format)(hw, false)
                : 0;
   pan_pack(&word, pixel_format, cfg)
   {
      cfg.format = hw;
#if PAN_ARCH >= 7
      cfg.order = MALI_RGB_COMPONENT_ORDER_BGRA;
#else
      cfg.swizzle.r = MALI_CHANNEL_B;
      cfg.swizzle.g = MALI_CHANNEL_G;
      cfg.swizzle.b = MALI_CHANNEL_R;
      cfg.swizzle.a = MALI_CHANNEL_A;
#endif
   }
   return word;
}
