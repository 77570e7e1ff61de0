/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* From a Gallium resource template to the hardware image layout computed
 * by lib/hwmath. Every image is linear until the draw path can produce and
 * consume the tiled and compressed layouts. */

#include "util/format/u_format.h"

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
panfrost_resource_init_layout(struct panfrost_resource *rsc, unsigned arch,
                              uint32_t explicit_row_stride_B,
                              uint64_t explicit_offset_B)
{
   const struct pipe_resource *templ = &rsc->base;
   enum pipe_format fmt = panfrost_plane_format(templ->format);

   /* Buffers are plain bytes: one "level" of width0 bytes. */
   if (templ->target == PIPE_BUFFER) {
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
      .tiling = PAN_IMAGE_TILING_LINEAR,
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
