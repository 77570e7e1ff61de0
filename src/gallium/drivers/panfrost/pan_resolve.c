/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Resolves of multisampled resources (pipe_context::blit from 4x to one
 * sample, what glBlitFramebuffer and the state tracker's resolves ask).
 * Those the blitter supports run on the GPU: its shaders fetch the
 * samples with txf_ms, average colours and write sample 0 of depth and
 * stencil as gl_FragDepth and the stencil reference (pan_blit.c).  Only
 * the others, of formats the blitter cannot sample or render, are
 * combined on the CPU once the passes writing them are done: into the
 * destination, or for a colour blit that converts, scales, flips or
 * masks, into a single-sampled copy that an ordinary blit takes on.  A
 * multisampled level keeps its samples one surface apart
 * (pan_image_layout.c), as the LAYERED write-out stores them.  Colours
 * are averaged in float; integer colours, depth and stencil take sample
 * 0, as GL allows.
 */

#include <stdlib.h>
#include <string.h>

#include "util/format/u_format.h"
#include "util/u_blitter.h"
#include "util/u_inlines.h"
#include "util/u_math.h"
#include "util/u_surface.h"

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

/* Resolves the w x h texels at (sb->x, sb->y, layer sb->z) of src into
 * dst at (dx, dy, layer dz), both of format fmt.
 */
static void
resolve_box(struct pipe_context *pctx, struct pipe_resource *src,
            unsigned src_level, const struct pipe_box *sb,
            struct pipe_resource *dst, unsigned dst_level, int dx, int dy,
            int dz, enum pipe_format fmt)
{
   struct pipe_transfer *st, *dt;
   const uint8_t *in =
      pipe_texture_map_3d(pctx, src, src_level, PIPE_MAP_READ, sb->x, sb->y,
                          sb->z, sb->width, sb->height, 1, &st);
   if (!in)
      return;
   uint8_t *out = pipe_texture_map_3d(pctx, dst, dst_level, PIPE_MAP_WRITE, dx,
                                      dy, dz, sb->width, sb->height, 1, &dt);
   if (!out) {
      pipe_texture_unmap(pctx, st);
      return;
   }
   /* The map points at sample 0 of the box; sample i follows i level
    * surfaces later.
    */
   const struct panfrost_resource *rsc = panfrost_resource(src);
   const struct pan_image_level *l = &rsc->layout.levels[src_level];

   unsigned row_B = sb->width * util_format_get_blocksize(fmt);
   bool average = !util_format_is_depth_or_stencil(fmt) &&
                  !util_format_is_pure_integer(fmt);
   for (int y = 0; y < sb->height; ++y) {
      const uint8_t *s = in + (uint64_t)y * st->stride;
      uint8_t *d = out + (uint64_t)y * dt->stride;
      if (average)
         average_row(fmt, s, l->surface_stride_B, src->nr_samples, d,
                     sb->width);
      else
         memcpy(d, s, row_B);
   }
   pipe_texture_unmap(pctx, dt);
   pipe_texture_unmap(pctx, st);
}

/* A colour resolve the direct path refuses (other format, scaled,
 * flipped, scissored, blended or masked): resolved into a single-sampled
 * copy of the source box, which an ordinary blit then takes to dst.
 */
static void
resolve_through_copy(struct panfrost_context *ctx,
                     const struct pipe_blit_info *info)
{
   struct pipe_context *pctx = &ctx->base;
   const struct pipe_box *sb = &info->src.box;
   struct pipe_box box = {
      .x = MIN2(sb->x, sb->x + sb->width),
      .y = MIN2(sb->y, sb->y + sb->height),
      .z = sb->z,
      .width = abs(sb->width),
      .height = abs(sb->height),
      .depth = 1,
   };
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = info->src.format,
      .width0 = box.width,
      .height0 = box.height,
      .depth0 = 1,
      .array_size = 1,
      .bind = PIPE_BIND_SAMPLER_VIEW | PIPE_BIND_RENDER_TARGET,
   };
   struct pipe_resource *tmp =
      pctx->screen->resource_create(pctx->screen, &templ);
   if (!tmp) {
      panfrost_warn_once(ctx, PANFROST_WARN_BLIT,
                         "no memory for a multisample resolve, dropped");
      return;
   }
   resolve_box(pctx, info->src.resource, info->src.level, &box, tmp, 0, 0, 0, 0,
               info->src.format);

   struct pipe_blit_info b = *info;
   b.src.resource = tmp;
   b.src.level = 0;
   b.src.box = (struct pipe_box){
      .x = sb->width < 0 ? box.width : 0,
      .y = sb->height < 0 ? box.height : 0,
      .width = sb->width,
      .height = sb->height,
      .depth = 1,
   };
   pctx->blit(pctx, &b);
   pipe_resource_reference(&tmp, NULL);
}

bool
panfrost_resolve(struct panfrost_context *ctx,
                 const struct pipe_blit_info *info)
{
   struct pipe_resource *src = info->src.resource;
   struct pipe_resource *dst = info->dst.resource;

   if (src->nr_samples <= 1 || dst->nr_samples > 1)
      return false;
   /* What the blitter draws resolves on the GPU: its shaders average the
    * colour samples they fetch (txf_ms); integer colours, depth and
    * stencil take sample 0 (written as gl_FragDepth and the stencil
    * reference).
    */
   if (util_blitter_is_blit_supported(ctx->blitter, info))
      return false;

   const char *why = refusal(info);
   if (why && !util_format_is_depth_or_stencil(info->src.format) &&
       info->src.box.depth == 1) {
      resolve_through_copy(ctx, info);
   } else if (why) {
      panfrost_warn_once(ctx, PANFROST_WARN_BLIT,
                         "multisample resolve %s -> %s unsupported (%s), "
                         "dropped",
                         util_format_short_name(info->src.format),
                         util_format_short_name(info->dst.format), why);
   } else {
      resolve_box(&ctx->base, src, info->src.level, &info->src.box, dst,
                  info->dst.level, info->dst.box.x, info->dst.box.y,
                  info->dst.box.z, info->src.format);
   }
   return true;
}

void
panfrost_resource_copy_region(struct pipe_context *pctx,
                              struct pipe_resource *dst, unsigned dst_level,
                              unsigned dstx, unsigned dsty, unsigned dstz,
                              struct pipe_resource *src, unsigned src_level,
                              const struct pipe_box *src_box)
{
   struct panfrost_resource *s = panfrost_resource(src);
   struct panfrost_resource *d = panfrost_resource(dst);
   unsigned samples = MAX2(src->nr_samples, 1);

   /* Single-sampled (and split depth/stencil, mapped through a staging
    * copy): the generic map and copy.
    */
   if (samples == 1 || s->stencil || d->stencil ||
       MAX2(dst->nr_samples, 1) != samples) {
      util_resource_copy_region(pctx, dst, dst_level, dstx, dsty, dstz, src,
                                src_level, src_box);
      return;
   }

   /* Multisampled: the maps point at sample 0; each sample is a level
    * surface further on, in both resources.
    */
   for (int z = 0; z < src_box->depth; ++z) {
      struct pipe_transfer *st, *dt;
      const uint8_t *in = pipe_texture_map_3d(
         pctx, src, src_level, PIPE_MAP_READ, src_box->x, src_box->y,
         src_box->z + z, src_box->width, src_box->height, 1, &st);
      if (!in)
         return;
      uint8_t *out =
         pipe_texture_map_3d(pctx, dst, dst_level, PIPE_MAP_WRITE, dstx, dsty,
                             dstz + z, src_box->width, src_box->height, 1, &dt);
      if (!out) {
         pipe_texture_unmap(pctx, st);
         return;
      }
      uint64_t s_sample_B = s->layout.levels[src_level].surface_stride_B;
      uint64_t d_sample_B = d->layout.levels[dst_level].surface_stride_B;
      unsigned row_B = util_format_get_stride(src->format, src_box->width);
      unsigned rows = util_format_get_nblocksy(src->format, src_box->height);
      for (unsigned i = 0; i < samples; ++i) {
         for (unsigned y = 0; y < rows; ++y)
            memcpy(out + i * d_sample_B + (uint64_t)y * dt->stride,
                   in + i * s_sample_B + (uint64_t)y * st->stride, row_B);
      }
      pipe_texture_unmap(pctx, dt);
      pipe_texture_unmap(pctx, st);
   }
}
