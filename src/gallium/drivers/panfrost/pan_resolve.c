/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Resolves of multisampled resources (pipe_context::blit from 4x to one
 * sample, what glBlitFramebuffer and the state tracker's resolves ask).
 * The compiler cannot fetch single samples yet, so the blitter's resolve
 * shaders would not build: the samples are combined on the CPU once the
 * passes writing them are done.  A multisampled level keeps its samples
 * one surface apart (pan_image_layout.c), as the LAYERED write-out stores
 * them.  Colours are averaged in float; integer colours, depth and
 * stencil take sample 0, as GL allows.
 */

#include "util/format/u_format.h"
#include "util/u_inlines.h"
#include "util/u_math.h"

#include "pan_context.h"
#include "pan_resolve.h"
#include "pan_resource.h"

/* Why info is not a resolve this path handles, NULL when it is. */
static const char *
refusal(const struct pipe_blit_info *info)
{
   const struct pipe_box *s = &info->src.box, *d = &info->dst.box;

   if (info->src.format != info->dst.format)
      return "formats differ";
   if (s->width != d->width || s->height != d->height || s->width <= 0 ||
       s->height <= 0 || s->depth != 1 || d->depth != 1)
      return "scaled, flipped or layered";
   if (info->scissor_enable || info->alpha_blend)
      return "scissored or blended";
   unsigned all =
      util_format_is_depth_or_stencil(info->src.format)
         ? (util_format_has_depth(util_format_description(info->src.format))
               ? PIPE_MASK_Z
               : 0) |
              (util_format_has_stencil(
                  util_format_description(info->src.format))
                  ? PIPE_MASK_S
                  : 0)
         : PIPE_MASK_RGBA;
   if (info->mask != all)
      return "partial mask";
   return NULL;
}

/* Averages the samples of one row of texels into dst. */
static void
average_row(enum pipe_format fmt, const uint8_t *src, uint64_t sample_B,
            unsigned samples, uint8_t *dst, unsigned width)
{
   float sum[4], px[4];

   for (unsigned x = 0; x < width; ++x) {
      unsigned texel_B = util_format_get_blocksize(fmt);
      memset(sum, 0, sizeof(sum));
      for (unsigned s = 0; s < samples; ++s) {
         util_format_unpack_rgba(fmt, px, src + s * sample_B + x * texel_B, 1);
         for (unsigned c = 0; c < 4; ++c)
            sum[c] += px[c];
      }
      for (unsigned c = 0; c < 4; ++c)
         sum[c] /= samples;
      util_format_pack_rgba(fmt, dst + x * texel_B, sum, 1);
   }
}

bool
panfrost_resolve(struct panfrost_context *ctx,
                 const struct pipe_blit_info *info)
{
   struct pipe_context *pctx = &ctx->base;
   struct pipe_resource *src = info->src.resource;
   struct pipe_resource *dst = info->dst.resource;

   if (src->nr_samples <= 1 || dst->nr_samples > 1)
      return false;

   const char *why = refusal(info);
   if (why) {
      panfrost_warn_once(ctx, PANFROST_WARN_BLIT,
                         "multisample resolve %s -> %s unsupported (%s), "
                         "dropped",
                         util_format_short_name(info->src.format),
                         util_format_short_name(info->dst.format), why);
      return true;
   }

   enum pipe_format fmt = info->src.format;
   struct pipe_transfer *sx, *dx;
   const struct pipe_box *sb = &info->src.box;
   const uint8_t *in =
      pipe_texture_map_3d(pctx, src, info->src.level, PIPE_MAP_READ, sb->x,
                          sb->y, sb->z, sb->width, sb->height, 1, &sx);
   if (!in)
      return true;
   struct pipe_box db = info->dst.box;
   uint8_t *out =
      pipe_texture_map_3d(pctx, dst, info->dst.level, PIPE_MAP_WRITE, db.x,
                          db.y, db.z, db.width, db.height, 1, &dx);
   if (!out) {
      pipe_texture_unmap(pctx, sx);
      return true;
   }
   /* The map points at sample 0 of the box; sample i follows i level
    * surfaces later.
    */
   const struct panfrost_resource *rsc = panfrost_resource(src);
   const struct pan_image_level *l = &rsc->layout.levels[info->src.level];

   unsigned row_B = info->src.box.width * util_format_get_blocksize(fmt);
   bool average = !util_format_is_depth_or_stencil(fmt) &&
                  !util_format_is_pure_integer(fmt);
   for (int y = 0; y < info->src.box.height; ++y) {
      const uint8_t *s = in + (uint64_t)y * sx->stride;
      uint8_t *d = out + (uint64_t)y * dx->stride;
      if (average)
         average_row(fmt, s, l->surface_stride_B, src->nr_samples, d,
                     info->src.box.width);
      else
         memcpy(d, s, row_B);
   }
   pipe_texture_unmap(pctx, dx);
   pipe_texture_unmap(pctx, sx);
   return true;
}
