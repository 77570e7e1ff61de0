/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* From a Gallium resource template to the hardware image layout computed
 * by lib/hwmath: AFBC for what the GPU renders and samples, u-interleaved
 * (16x16 tiles) for the other textures, linear for what the CPU or
 * another device reads in place.
 */

#include "drm-uapi/drm_fourcc.h"
#include "util/format/u_format.h"
#include "pan_uinterleave.h"

#include "pan_resource.h"

static enum pan_image_dim
panfrost_image_dim(enum pipe_texture_target target)
{
   switch (target) {
   case PIPE_TEXTURE_1D:
   case PIPE_TEXTURE_1D_ARRAY:
      return PAN_IMAGE_DIM_1D;
   case PIPE_TEXTURE_3D:
      return PAN_IMAGE_DIM_3D;
   case PIPE_TEXTURE_CUBE:
   case PIPE_TEXTURE_CUBE_ARRAY:
      return PAN_IMAGE_DIM_CUBE;
   default:
      return PAN_IMAGE_DIM_2D;
   }
}

bool
panfrost_resource_can_tile(const struct pipe_resource *templ, unsigned arch)
{
   enum pipe_format fmt = templ->format;

   /* Our texture and framebuffer descriptors start at v6. Compressed
    * formats tile their blocks (4x4 texels, or ASTC's 2D footprints), in
    * tiles of 4x4 blocks; 3D blocks are not advertised.  Multisampled images
    * are resolved and copied on the CPU (pan_resolve.c); the split Z32F +
    * S8 copies its planes row by row (pan_transfer.c).
    */
   unsigned bw = util_format_get_blockwidth(fmt);
   unsigned bh = util_format_get_blockheight(fmt);
   bool blocks_ok = (bw == 1 && bh == 1 && !util_format_is_compressed(fmt)) ||
                    (bw >= 4 && bh >= 4 && util_format_is_compressed(fmt) &&
                     util_format_get_blockdepth(fmt) == 1);

   return arch >= 6 && templ->target != PIPE_BUFFER &&
          templ->nr_samples <= 1 &&
          fmt != PIPE_FORMAT_Z32_FLOAT_S8X24_UINT && blocks_ok &&
          pan_utile_el_size_supported(util_format_get_blocksize(fmt));
}

enum pan_afbc_mode
panfrost_afbc_mode(enum pipe_format format)
{
   switch (format) {
   case PIPE_FORMAT_R8_UNORM: return PAN_AFBC_MODE_R8;
   case PIPE_FORMAT_R8G8_UNORM: return PAN_AFBC_MODE_R8G8;
   case PIPE_FORMAT_B5G6R5_UNORM: return PAN_AFBC_MODE_R5G6B5;
   case PIPE_FORMAT_B4G4R4A4_UNORM: return PAN_AFBC_MODE_R4G4B4A4;
   case PIPE_FORMAT_B5G5R5A1_UNORM: return PAN_AFBC_MODE_R5G5B5A1;
   case PIPE_FORMAT_R8G8B8_UNORM: return PAN_AFBC_MODE_R8G8B8;
   case PIPE_FORMAT_R8G8B8A8_UNORM:
   case PIPE_FORMAT_R8G8B8A8_SRGB:
   case PIPE_FORMAT_R8G8B8X8_UNORM:
   case PIPE_FORMAT_R8G8B8X8_SRGB: return PAN_AFBC_MODE_R8G8B8A8;
   /* Depth/stencil as the colour of their size (what the public drivers
    * compress them as): D16 as RG8, D24S8 and D24X8 as RGBA8.
    */
   case PIPE_FORMAT_Z16_UNORM: return PAN_AFBC_MODE_R8G8;
   case PIPE_FORMAT_Z24_UNORM_S8_UINT:
   case PIPE_FORMAT_Z24X8_UNORM: return PAN_AFBC_MODE_R8G8B8A8;
   default: return PAN_AFBC_MODE_NONE;
   }
}

bool
panfrost_resource_can_afbc(const struct pipe_resource *templ, unsigned arch)
{
   /* Bifrost and Valhall (v6, v7, v9) render and sample AFBC with headers
    * in rows, colour and depth/stencil: maps read AFBC back through blits
    * (of depth and stencil too, pan_blit.c). Mip levels, layers and cube
    * faces are each their own surface; 3D slices and multisampled images
    * are not.
    */
   return arch >= 6 && panfrost_resource_can_tile(templ, arch) &&
          !util_format_is_compressed(templ->format) &&
          (templ->target == PIPE_TEXTURE_2D ||
           templ->target == PIPE_TEXTURE_2D_ARRAY ||
           templ->target == PIPE_TEXTURE_CUBE ||
           templ->target == PIPE_TEXTURE_CUBE_ARRAY ||
           templ->target == PIPE_TEXTURE_RECT) &&
          templ->nr_samples <= 1 &&
          panfrost_afbc_mode(templ->format) != PAN_AFBC_MODE_NONE;
}

uint64_t
panfrost_resource_best_modifier(const struct pipe_resource *templ,
                                unsigned arch, bool afbc)
{
   /* Another device or the CPU reads these in place, or the CPU writes
    * them once and the GPU reads them once: tiling would only cost.
    */
   const unsigned linear_binds = PIPE_BIND_LINEAR | PIPE_BIND_SCANOUT |
                                 PIPE_BIND_SHARED | PIPE_BIND_CURSOR |
                                 PIPE_BIND_DISPLAY_TARGET;

   if (!panfrost_resource_can_tile(templ, arch) ||
       (templ->bind & linear_binds) || templ->usage == PIPE_USAGE_STAGING ||
       templ->usage == PIPE_USAGE_STREAM)
      return DRM_FORMAT_MOD_LINEAR;
   /* What the GPU renders (colour or depth/stencil) and then samples is
    * compressed; storage images cannot be AFBC, and what the CPU fills is
    * converted on the first map anyway (pan_transfer.c).
    */
   if (afbc &&
       (templ->bind & (PIPE_BIND_RENDER_TARGET | PIPE_BIND_DEPTH_STENCIL)) &&
       !(templ->bind & PIPE_BIND_SHADER_IMAGE) &&
       panfrost_resource_can_afbc(templ, arch))
      return PANFROST_MOD_AFBC;
   return DRM_FORMAT_MOD_ARM_16X16_BLOCK_U_INTERLEAVED;
}

bool
panfrost_resource_init_layout(struct panfrost_resource *rsc, unsigned arch,
                              uint32_t explicit_row_stride_B,
                              uint64_t explicit_offset_B)
{
   const struct pipe_resource *templ = &rsc->base;
   enum pipe_format fmt = panfrost_plane_format(templ->format);

   /* Buffers are plain bytes: one "level" of width0 bytes. */
   if (templ->target == PIPE_BUFFER) {
      rsc->modifier = DRM_FORMAT_MOD_LINEAR;
      memset(&rsc->layout, 0, sizeof(rsc->layout));
      rsc->layout.nr_levels = 1;
      rsc->layout.levels[0].width_px = templ->width0;
      rsc->layout.levels[0].height_px = 1;
      rsc->layout.levels[0].depth_px = 1;
      rsc->layout.levels[0].row_stride_B = templ->width0;
      rsc->layout.levels[0].size_B = templ->width0;
      rsc->layout.array_stride_B = templ->width0;
      rsc->layout.data_size_B = templ->width0;
      return true;
   }

   rsc->image = (struct pan_image_desc){
      .arch = arch,
      .dim = panfrost_image_dim(templ->target),
      .width_px = templ->width0,
      .height_px = templ->height0,
      .depth_px = templ->depth0,
      .array_size = MAX2(templ->array_size, 1),
      .nr_samples = MAX2(templ->nr_samples, 1),
      .nr_levels = templ->last_level + 1,
      .block_w_px = util_format_get_blockwidth(fmt),
      .block_h_px = util_format_get_blockheight(fmt),
      .block_size_B = util_format_get_blocksize(fmt),
      .tiling = rsc->modifier == PANFROST_MOD_AFBC ? PAN_IMAGE_TILING_AFBC
                : rsc->modifier == DRM_FORMAT_MOD_ARM_16X16_BLOCK_U_INTERLEAVED
                   ? PAN_IMAGE_TILING_U_INTERLEAVED
                   : PAN_IMAGE_TILING_LINEAR,
      .afbc_superblock = PAN_AFBC_SUPERBLOCK_16X16,
      .has_explicit_layout = explicit_row_stride_B != 0,
      .explicit_offset_B = explicit_offset_B,
      .explicit_row_stride_B = explicit_row_stride_B,
   };

   return pan_image_layout_init(&rsc->image, &rsc->layout);
}

uint64_t
panfrost_resource_offset_B(const struct panfrost_resource *rsc,
                           unsigned level, const struct pipe_box *box)
{
   const struct pan_image_level *l = &rsc->layout.levels[level];
   enum pipe_format fmt = panfrost_plane_format(rsc->base.format);

   if (rsc->base.target == PIPE_BUFFER)
      return box->x;
   /* Within a tiled surface only its start has a byte address. */
   assert(!panfrost_resource_is_tiled(rsc) || (box->x == 0 && box->y == 0));

   /* box->z is the layer of array images and the slice of 3D ones. */
   uint64_t offset_B = rsc->base.target == PIPE_TEXTURE_3D
      ? pan_image_surface_offset_B(&rsc->image, &rsc->layout, level, 0, box->z)
      : pan_image_surface_offset_B(&rsc->image, &rsc->layout, level, box->z, 0);

   offset_B += (uint64_t)(box->y / util_format_get_blockheight(fmt)) *
               l->row_stride_B;
   offset_B += (uint64_t)(box->x / util_format_get_blockwidth(fmt)) *
               util_format_get_blocksize(fmt);
   return offset_B;
}
