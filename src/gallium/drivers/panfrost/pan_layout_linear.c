/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include "util/format/u_format.h"
#include "util/u_math.h"

#include "pan_resource.h"

/* Rows of linear images are 64-byte aligned: the texture and framebuffer
 * units of every architecture accept that, and it keeps rows on cache
 * lines. Levels start on 64-byte boundaries for the same reason. */
#define PAN_LINEAR_ALIGN_B 64

void
panfrost_layout_linear(const struct pipe_resource *templ,
                       uint32_t first_row_stride_B,
                       struct panfrost_layout *layout)
{
   enum pipe_format fmt = templ->format;
   uint64_t offset_B = 0;

   memset(layout, 0, sizeof(*layout));

   if (templ->target == PIPE_BUFFER) {
      layout->row_stride_B[0] = templ->width0;
      layout->layer_stride_B[0] = templ->width0;
      layout->size_B = templ->width0;
      return;
   }

   for (unsigned l = 0; l <= templ->last_level; ++l) {
      unsigned w_px = u_minify(templ->width0, l);
      unsigned h_px = u_minify(templ->height0, l);
      unsigned d_px = templ->target == PIPE_TEXTURE_3D
                         ? u_minify(templ->depth0, l) : 1;
      unsigned rows = util_format_get_nblocksy(fmt, h_px);
      uint32_t stride_B = util_format_get_stride(fmt, w_px);

      stride_B = ALIGN_POT(stride_B, PAN_LINEAR_ALIGN_B);
      if (l == 0 && first_row_stride_B)
         stride_B = first_row_stride_B;

      layout->offset_B[l] = offset_B;
      layout->row_stride_B[l] = stride_B;
      layout->layer_stride_B[l] =
         ALIGN_POT((uint64_t)stride_B * rows, PAN_LINEAR_ALIGN_B);
      offset_B += layout->layer_stride_B[l] * d_px;
   }

   /* Array layers hold a whole mip chain each. */
   uint64_t chain_B = ALIGN_POT(offset_B, PAN_LINEAR_ALIGN_B);
   if (templ->array_size > 1) {
      for (unsigned l = 0; l <= templ->last_level; ++l)
         layout->layer_stride_B[l] = chain_B;
   }
   layout->size_B = chain_B * MAX2(templ->array_size, 1);
}
