/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Texture, plane and sampler descriptors, compiled once per PAN_ARCH (v6,
 * v7, v9; Bifrost's planes are surfaces with strides).  The driver packs
 * them once per sampler view and sampler state (pan_texture.c); draws
 * copy them into their tables.
 */

#include <stdio.h>
#include <string.h>

#include "pipe/p_defines.h"
#include "pipe/p_state.h"
#include "util/format/u_format.h"
#include "util/macros.h"

#include "pan_arch.h"
#include "pan_genxml.h"
#include "pan_image_layout.h"
#include "pan_vX_afbc.h"
#include "pan_vX_format.h"

#if PAN_ARCH < 6
#error "texture descriptors are only built for v6 and later"
#endif

/* PIPE_SWIZZLE_X..W, 0 and 1 are the hardware's channel codes (r, g, b,
 * a, 0, 1); "none" reads as 0.
 */
static unsigned
channel(unsigned s)
{
   return s <= PIPE_SWIZZLE_1 ? s : PIPE_SWIZZLE_0;
}

static bool
emit_texture(void *cpu, const struct panfrost_texture_view *v)
{
   unsigned char fmt_swz[4];
   unsigned hw = PAN_GENX(panfrost_format)(v->format, fmt_swz);
   unsigned dim;

   if (!hw)
      return false;

   switch (v->target) {
   case PIPE_TEXTURE_1D:
   case PIPE_TEXTURE_1D_ARRAY:
   /* A buffer view is one linear 1D level (pan_texture.c). */
   case PIPE_BUFFER:
      dim = MALI_TEXTURE_DIMENSION_1D;
      break;
   case PIPE_TEXTURE_2D:
   case PIPE_TEXTURE_2D_ARRAY:
   case PIPE_TEXTURE_RECT:
      dim = MALI_TEXTURE_DIMENSION_2D;
      break;
   case PIPE_TEXTURE_3D:
      dim = MALI_TEXTURE_DIMENSION_3D;
      break;
   case PIPE_TEXTURE_CUBE:
   case PIPE_TEXTURE_CUBE_ARRAY:
      dim = MALI_TEXTURE_DIMENSION_CUBE;
      break;
   default:
      return false;
   }
   bool cube = dim == MALI_TEXTURE_DIMENSION_CUBE;
   if (cube && v->layers % 6)
      return false;
   /* 4x 2D textures: a surface a sample on Bifrost (pan_texture.c). */
   if (v->samples > 1 &&
       (dim != MALI_TEXTURE_DIMENSION_2D || v->levels > 1))
      return false;

   /* The view's swizzle picks among the format's RGBA. */
   unsigned swz = 0;
   for (unsigned c = 0; c < 4; ++c) {
      unsigned s = v->swizzle[c];
      if (s <= PIPE_SWIZZLE_W)
         s = fmt_swz[s];
      swz |= channel(s) << (3 * c);
   }

   uint32_t format_word =
      PAN_GENX(panfrost_pixel_format)(hw, util_format_is_srgb(v->format));
   pan_pack(cpu, texture, cfg)
   {
      cfg.dimension = dim;
      cfg.format = format_word;
      cfg.width = v->width;
      cfg.height = v->height;
      cfg.swizzle = swz;
      cfg.levels = v->levels;
      cfg.surfaces = v->planes;
      cfg.array_size = cube ? v->layers / 6 : v->layers;
      cfg.depth = dim == MALI_TEXTURE_DIMENSION_3D ? v->depth : 1;
      cfg.sample_count = v->samples > 1 ? v->samples : 1;
#if PAN_ARCH <= 7
      cfg.texel_ordering = v->afbc            ? MALI_TEXTURE_LAYOUT_AFBC
                           : v->u_interleaved ? MALI_TEXTURE_LAYOUT_TILED
                                              : MALI_TEXTURE_LAYOUT_LINEAR;
#else
      cfg.texel_interleave = v->u_interleaved;
#endif
   }
   return true;
}

/* The astc_2d_dimension code of an ASTC block edge in texels. */
static unsigned
astc_dimension(unsigned px)
{
   char want[4];
   snprintf(want, sizeof(want), "%u", px);
   for (unsigned c = 0; c < 8; ++c) {
      const char *n = PAN_GENX(astc_2d_dimension_name)(c);
      if (n && !strcmp(n, want))
         return c;
   }
   unreachable("not an ASTC block edge");
}

static bool
is_astc(unsigned format)
{
   const struct util_format_description *desc = util_format_description(format);
   return desc && desc->layout == UTIL_FORMAT_LAYOUT_ASTC;
}

#if PAN_ARCH >= 9
/* Planes read whole texels: the clump is the texel's size, or for ETC2/EAC
 * the blocks' format (the texture descriptor names what they decode to).
 */
static unsigned
clump_format(unsigned texel_B, unsigned format)
{
   const char *name = PAN_GENX(panfrost_etc_block)(format);
   if (name) {
      for (unsigned c = 1; c < 256; ++c) {
         const char *n = PAN_GENX(clump_format_name)(c);
         if (n && !strcmp(n, name))
            return c;
      }
   }
   switch (texel_B) {
   case 1: return MALI_CLUMP_FORMAT_RAW8;
   case 2: return MALI_CLUMP_FORMAT_RAW16;
   case 3: return MALI_CLUMP_FORMAT_RAW24;
   case 6: return MALI_CLUMP_FORMAT_RAW48;
   case 8: return MALI_CLUMP_FORMAT_RAW64;
   case 12: return MALI_CLUMP_FORMAT_RAW96;
   case 16: return MALI_CLUMP_FORMAT_RAW128;
   default: return MALI_CLUMP_FORMAT_RAW32;
   }
}

static void
emit_plane(void *cpu, const struct panfrost_texture_plane *p)
{
   if (p->afbc) {
      /* Headers in rows of 16x16 superblocks; the payloads' places are in
       * the headers.
       */
      pan_pack(cpu, plane, cfg)
      {
         cfg.plane_type = MALI_PLANE_TYPE_AFBC;
         cfg.afbc.superblock_size = MALI_AFBC_SUPERBLOCK_SIZE_16X16;
         cfg.afbc.compression_mode = pan_afbc_compression_mode(p->afbc_mode);
         cfg.address = p->addr;
         cfg.size = p->size_B;
         cfg.row_stride_B = p->row_stride_B;
      }
      return;
   }
   if (is_astc(p->format)) {
      /* The block footprint and how wide the decode is: 16-bit floats for
       * linear textures (the format is astc_2d_hdr), 8 bits for sRGB.
       */
      pan_pack(cpu, plane, cfg)
      {
         cfg.plane_type = MALI_PLANE_TYPE_ASTC_2D;
         cfg.astc_2d.block_width =
            astc_dimension(util_format_get_blockwidth(p->format));
         cfg.astc_2d.block_height =
            astc_dimension(util_format_get_blockheight(p->format));
         cfg.astc_2d.decode_wide = !util_format_is_srgb(p->format);
         cfg.astc_2d.clump_ordering =
            p->u_interleaved ? MALI_CLUMP_ORDERING_TILED_U_INTERLEAVED
                             : MALI_CLUMP_ORDERING_LINEAR;
         cfg.address = p->addr;
         cfg.size = p->size_B;
         cfg.row_stride_B = p->row_stride_B;
         cfg.slice_stride_B = p->slice_stride_B;
      }
      return;
   }
   pan_pack(cpu, plane, cfg)
   {
      cfg.plane_type = MALI_PLANE_TYPE_GENERIC;
      cfg.generic.clump_ordering = p->u_interleaved
                                      ? MALI_CLUMP_ORDERING_TILED_U_INTERLEAVED
                                      : MALI_CLUMP_ORDERING_LINEAR;
      cfg.generic.clump_format = clump_format(p->texel_B, p->format);
      cfg.address = p->addr;
      cfg.size = p->size_B;
      cfg.row_stride_B = p->row_stride_B;
      cfg.slice_stride_B = p->slice_stride_B;
   }
}
#else
/* Bifrost: a surface with its strides (v7 reads the levels of a layer one
 * after the other, as the planes are laid out).
 */
static void
emit_plane(void *cpu, const struct panfrost_texture_plane *p)
{
   pan_pack(cpu, surface_with_stride, cfg)
   {
      /* An AFBC surface's flags ride in the header address's low bits:
       * none (rows of 16x16 superblocks, no YTR).  So does an ASTC
       * surface's block footprint: the width's astc_2d_dimension code in
       * bits 0-2, the height's in bits 3-5.
       */
      cfg.address = p->addr;
      if (is_astc(p->format)) {
         unsigned w = util_format_get_blockwidth(p->format);
         unsigned h = util_format_get_blockheight(p->format);
         cfg.address |= astc_dimension(w) | astc_dimension(h) << 3;
      }
      cfg.row_stride_B = p->row_stride_B;
      cfg.surface_stride_B = p->slice_stride_B;
   }
}
#endif

/* The hardware mode of a Gallium wrap mode.  GL_CLAMP and
 * GL_MIRROR_CLAMP_EXT arrive as they are (PIPE_CAP_GL_CLAMP is off): the
 * state tracker has only saturated the shader's coordinates, so linear
 * filtering must still blend the edge texels with the border, and nearest
 * filtering, which would pick the texel past the edge at coordinate 1.0,
 * must clamp to the edge.  One mode serves both filters: the border only
 * when both filter linearly.
 */
static unsigned
wrap_mode(unsigned wrap, const struct pipe_sampler_state *s)
{
   bool linear = s->min_img_filter == PIPE_TEX_FILTER_LINEAR &&
                 s->mag_img_filter == PIPE_TEX_FILTER_LINEAR;

   switch (wrap) {
   case PIPE_TEX_WRAP_CLAMP:
      return linear ? MALI_WRAP_MODE_CLAMP_TO_BORDER
                    : MALI_WRAP_MODE_CLAMP_TO_EDGE;
   case PIPE_TEX_WRAP_MIRROR_CLAMP:
      return linear ? MALI_WRAP_MODE_MIRRORED_CLAMP_TO_BORDER
                    : MALI_WRAP_MODE_MIRRORED_CLAMP_TO_EDGE;
   case PIPE_TEX_WRAP_REPEAT:
      return MALI_WRAP_MODE_REPEAT;
   case PIPE_TEX_WRAP_CLAMP_TO_BORDER:
      return MALI_WRAP_MODE_CLAMP_TO_BORDER;
   case PIPE_TEX_WRAP_MIRROR_REPEAT:
      return MALI_WRAP_MODE_MIRRORED_REPEAT;
   case PIPE_TEX_WRAP_MIRROR_CLAMP_TO_EDGE:
      return MALI_WRAP_MODE_MIRRORED_CLAMP_TO_EDGE;
   case PIPE_TEX_WRAP_MIRROR_CLAMP_TO_BORDER:
      return MALI_WRAP_MODE_MIRRORED_CLAMP_TO_BORDER;
   default:
      return MALI_WRAP_MODE_CLAMP_TO_EDGE;
   }
}

/* The sampler's comparison for a GL depth compare function.  PIPE_FUNC_*
 * and the hardware's functions share their numbering, but GL reads
 * "reference FUNC texel" while the sampler tests "texel FUNC reference":
 * the ordered comparisons swap sides, the symmetric ones stay.
 */
static unsigned
shadow_func(unsigned func)
{
   switch (func) {
   case PIPE_FUNC_LESS:
      return MALI_FUNC_GREATER;
   case PIPE_FUNC_LEQUAL:
      return MALI_FUNC_GEQUAL;
   case PIPE_FUNC_GREATER:
      return MALI_FUNC_LESS;
   case PIPE_FUNC_GEQUAL:
      return MALI_FUNC_LEQUAL;
   default:
      return func;
   }
}

static void
emit_sampler(void *cpu, const struct pipe_sampler_state *s)
{
   pan_pack(cpu, sampler, cfg)
   {
      cfg.wrap_mode_s = wrap_mode(s->wrap_s, s);
      cfg.wrap_mode_t = wrap_mode(s->wrap_t, s);
      cfg.wrap_mode_r = wrap_mode(s->wrap_r, s);
      cfg.seamless_cube_map = s->seamless_cube_map;
      cfg.normalized_coordinates = !s->unnormalized_coords;
      cfg.magnify_nearest = s->mag_img_filter == PIPE_TEX_FILTER_NEAREST;
      cfg.minify_nearest = s->min_img_filter == PIPE_TEX_FILTER_NEAREST;
      cfg.mipmap_mode = s->min_mip_filter == PIPE_TEX_MIPFILTER_LINEAR
                           ? MALI_MIPMAP_MODE_TRILINEAR
                        : s->min_mip_filter == PIPE_TEX_MIPFILTER_NEAREST
                           ? MALI_MIPMAP_MODE_NEAREST
                           : MALI_MIPMAP_MODE_NONE;
      /* 8.8 fixed point: the largest LOD a texture has is 15. */
      cfg.minimum_lod = CLAMP(s->min_lod, 0.0f, 31.0f);
      cfg.maximum_lod = CLAMP(s->max_lod, 0.0f, 31.0f);
      cfg.lod_bias = CLAMP(s->lod_bias, -31.0f, 31.0f);
      cfg.compare_function = s->compare_mode == PIPE_TEX_COMPARE_R_TO_TEXTURE
                                ? shadow_func(s->compare_func)
                                : MALI_FUNC_NEVER;
      if (s->max_anisotropy > 1) {
         cfg.lod_algorithm = MALI_LOD_ALGORITHM_ANISOTROPIC;
         cfg.maximum_anisotropy = MIN2(s->max_anisotropy, 16);
      }
      cfg.border_color_r = s->border_color.ui[0];
      cfg.border_color_g = s->border_color.ui[1];
      cfg.border_color_b = s->border_color.ui[2];
      cfg.border_color_a = s->border_color.ui[3];
   }
}

const struct panfrost_arch_texture PAN_GENX(panfrost_arch_texture) = {
   .texture_size_B = pan_size(texture),
#if PAN_ARCH >= 9
   .plane_size_B = pan_size(plane),
#else
   .plane_size_B = pan_size(surface_with_stride),
#endif
   .sampler_size_B = pan_size(sampler),
   .align_B = pan_alignment(texture),
   .emit_texture = emit_texture,
   .emit_plane = emit_plane,
   .emit_sampler = emit_sampler,
};
