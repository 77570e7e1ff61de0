/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* pipe_context::blit as an ordinary draw: util_blitter binds its own
 * shaders, states and framebuffer, draws a rectangle sampling the source
 * and puts back what it was told the frontend had bound.  So everything it
 * changes is handed to it first.  The frontend also generates mipmaps
 * through this (PIPE_CAP_GENERATE_MIPMAP is off).
 */

#include "util/format/u_format.h"
#include "util/log.h"
#include "util/u_blitter.h"
#include "util/u_inlines.h"
#include "util/u_surface.h"

#include "pan_context.h"
#include "pan_resolve.h"
#include "pan_resource.h"

static void
save_blitter_state(struct panfrost_context *ctx)
{
   struct blitter_context *b = ctx->blitter;
   struct panfrost_state *s = &ctx->state;

   util_blitter_save_vertex_buffer_slot(b, s->vbufs);
   util_blitter_save_vertex_elements(b, s->vertex_elements);
   util_blitter_save_vertex_shader(b, s->shaders[PIPE_SHADER_VERTEX]);
   util_blitter_save_geometry_shader(b, ctx->gs);
   /* The bound CSO, not the clip/sprite variant drawn last: binding a
    * variant back would make variants of it.
    */
   util_blitter_save_fragment_shader(b, s->fs_bound);
   util_blitter_save_rasterizer(b, s->rast);
   util_blitter_save_viewport(b, &s->viewport);
   util_blitter_save_scissor(b, &s->scissor);
   util_blitter_save_blend(b, s->blend);
   util_blitter_save_depth_stencil_alpha(b, s->zsa);
   util_blitter_save_stencil_ref(b, &s->stencil_ref);
   util_blitter_save_sample_mask(b, s->sample_mask, s->min_samples);
   util_blitter_save_fragment_constant_buffer_slot(
      b, s->cbufs[PIPE_SHADER_FRAGMENT]);
   util_blitter_save_fragment_sampler_states(b, PANFROST_MAX_SAMPLERS,
                                             s->samplers[PIPE_SHADER_FRAGMENT]);
   util_blitter_save_fragment_sampler_views(b, PANFROST_MAX_SAMPLERS,
                                            s->views[PIPE_SHADER_FRAGMENT]);
   util_blitter_save_framebuffer(b, &s->fb);
   util_blitter_save_so_targets(b, ctx->xfb.num_targets, ctx->xfb.targets);
   /* The blitter lifts the condition around its own draws. */
   util_blitter_save_render_condition(b, ctx->render_cond.query,
                                      ctx->render_cond.condition,
                                      ctx->render_cond.mode);
}

/* Whether a depth/stencil blit can be a CPU conversion: one layer, no
 * scaling or flip, no scissor, single-sampled, both formats having the
 * aspects the mask names (maps of the split Z32F_S8 show interleaved
 * texels, which util_format reads and writes).
 */
static bool
zs_blit_on_cpu(const struct pipe_blit_info *info)
{
   const struct pipe_box *s = &info->src.box, *d = &info->dst.box;
   enum pipe_format sf = info->src.format, df = info->dst.format;

   if (s->width != d->width || s->height != d->height || s->depth != 1 ||
       d->depth != 1 || s->width <= 0 || s->height <= 0 ||
       info->scissor_enable || info->mask & PIPE_MASK_RGBA ||
       info->src.resource->nr_samples > 1 || info->dst.resource->nr_samples > 1)
      return false;
   if ((info->mask & PIPE_MASK_Z) &&
       !(util_format_has_depth(util_format_description(sf)) &&
         util_format_has_depth(util_format_description(df))))
      return false;
   if ((info->mask & PIPE_MASK_S) &&
       !(util_format_has_stencil(util_format_description(sf)) &&
         util_format_has_stencil(util_format_description(df))))
      return false;
   return true;
}

/* Depth (as floats) and stencil (as bytes) converted row by row through
 * maps; what the mask leaves out of the destination is kept (the packers
 * of combined formats keep the other aspect's bits).
 */
static void
zs_blit_cpu(struct pipe_context *pctx, const struct pipe_blit_info *info)
{
   const struct pipe_box *s = &info->src.box, *d = &info->dst.box;
   unsigned w = s->width, h = s->height;
   struct pipe_transfer *st, *dt;
   float *z = malloc(w * sizeof(float));
   uint8_t *sten = malloc(w);
   const uint8_t *src =
      z && sten ? pipe_texture_map(pctx, info->src.resource, info->src.level,
                                   s->z, PIPE_MAP_READ, s->x, s->y, w, h, &st)
                : NULL;
   uint8_t *dst =
      src ? pipe_texture_map(pctx, info->dst.resource, info->dst.level, d->z,
                             PIPE_MAP_READ_WRITE, d->x, d->y, w, h, &dt)
          : NULL;

   if (!dst) {
      mesa_loge("panfrost: depth/stencil blit: out of memory or map failed");
   } else {
      for (unsigned y = 0; y < h; ++y) {
         const uint8_t *sr = src + y * st->stride;
         uint8_t *dr = dst + y * dt->stride;
         if (info->mask & PIPE_MASK_Z) {
            util_format_unpack_z_float(info->src.format, z, sr, w);
            util_format_pack_z_float(info->dst.format, dr, z, w);
         }
         if (info->mask & PIPE_MASK_S) {
            util_format_unpack_s_8uint(info->src.format, sten, sr, w);
            util_format_pack_s_8uint(info->dst.format, dr, sten, w);
         }
      }
   }
   if (dst)
      pipe_texture_unmap(pctx, dt);
   if (src)
      pipe_texture_unmap(pctx, st);
   free(z);
   free(sten);
}

/* The stencil of a split Z32F + S8 side is its S8 plane, a resource of
 * its own.
 */
static void
stencil_plane(struct pipe_resource **r, enum pipe_format *format)
{
   struct panfrost_resource *rsc = panfrost_resource(*r);

   if (rsc->stencil) {
      *r = &rsc->stencil->base;
      *format = PIPE_FORMAT_S8_UINT;
   }
}

static bool
is_split(const struct pipe_resource *r)
{
   return panfrost_resource((struct pipe_resource *)r)->stencil != NULL;
}

static void
panfrost_blit(struct pipe_context *pctx, const struct pipe_blit_info *info)
{
   struct panfrost_context *ctx = panfrost_context(pctx);

   if (info->render_condition_enable && !panfrost_render_condition_check(ctx))
      return;
   /* The stencil of a split resource is blitted plane to plane, apart
    * from its depth: the blitter cannot sample the stencil of the whole
    * (no X32_S8X24 views) but reads and writes S8 planes.
    */
   if ((info->mask & PIPE_MASK_S) &&
       (is_split(info->src.resource) || is_split(info->dst.resource))) {
      struct pipe_blit_info part = *info;
      part.mask = info->mask & ~PIPE_MASK_S;
      if (part.mask)
         panfrost_blit(pctx, &part);
      part.mask = PIPE_MASK_S;
      stencil_plane(&part.src.resource, &part.src.format);
      stencil_plane(&part.dst.resource, &part.dst.format);
      part.render_condition_enable = false; /* checked above */
      panfrost_blit(pctx, &part);
      return;
   }
   if (panfrost_resolve(ctx, info))
      return;
   /* Plain copies between identical formats need no draw. */
   if (util_try_blit_via_copy_region(pctx, info, false))
      return;

   /* Depth and stencil are drawn too: the blitter's shaders fetch them
    * and write gl_FragDepth and the stencil reference (ZS_EMIT).  What it
    * cannot draw, an unscaled conversion between formats it cannot sample
    * or render, is converted on the CPU.
    */
   if (!util_blitter_is_blit_supported(ctx->blitter, info)) {
      if ((info->mask & PIPE_MASK_ZS) && zs_blit_on_cpu(info)) {
         zs_blit_cpu(pctx, info);
         return;
      }
      panfrost_warn_once(ctx, PANFROST_WARN_BLIT,
                         "blit %s -> %s (mask 0x%x) unsupported, dropped",
                         util_format_short_name(info->src.format),
                         util_format_short_name(info->dst.format), info->mask);
      return;
   }

   /* util_blitter's shader resolving depth and stencil in one draw reads
    * the depth from the z of its texel fetch and the stencil from the y,
    * where our views return each in x (the depth-only and stencil-only
    * shaders read x): a multisampled source gives one aspect a draw.
    */
   if (info->src.resource->nr_samples > 1 &&
       (info->mask & PIPE_MASK_ZS) == PIPE_MASK_ZS) {
      struct pipe_blit_info aspect = *info;
      aspect.mask = info->mask & ~PIPE_MASK_S;
      panfrost_blit_draw(ctx, &aspect);
      aspect.mask = PIPE_MASK_S;
      panfrost_blit_draw(ctx, &aspect);
      return;
   }
   panfrost_blit_draw(ctx, info);
}

/* A blit drawn by util_blitter whatever the formats: for the driver's own
 * copies, which must not become resource_copy_region's CPU copy (AFBC
 * conversion reads the resource a map would convert).
 */
void
panfrost_blit_draw(struct panfrost_context *ctx,
                   const struct pipe_blit_info *info)
{
   save_blitter_state(ctx);
   util_blitter_blit(ctx->blitter, info);
}

bool
panfrost_context_init_blit(struct panfrost_context *ctx)
{
   ctx->blitter = util_blitter_create(&ctx->base);
   if (!ctx->blitter)
      return false;
   ctx->base.blit = panfrost_blit;
   return true;
}

void
panfrost_context_release_blit(struct panfrost_context *ctx)
{
   if (ctx->blitter)
      util_blitter_destroy(ctx->blitter);
}
