/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Entry points that make the GPU draw.  Clears of whole surfaces become
 * render passes (pan_batch.c); draws become IDVS jobs of the pass
 * (pan_draw_vbo.c).  Partial clears need a draw of their own, so they
 * are dropped, and the first one says so once, in the log and through the
 * GL debug output, so a user sees why nothing renders.  Blits are drawn by
 * util_blitter (pan_blit.c).
 */

#include "util/u_framebuffer.h"
#include "util/u_inlines.h"
#include "util/u_surface.h"

#include "pan_context.h"
#include "pan_resolve.h"

static bool
covers(unsigned x, unsigned y, unsigned w, unsigned h, unsigned width,
       unsigned height)
{
   return x == 0 && y == 0 && w >= width && h >= height;
}

static void
panfrost_clear(struct pipe_context *pctx, unsigned buffers,
               const struct pipe_scissor_state *scissor,
               const union pipe_color_union *color, double depth,
               unsigned stencil)
{
   struct panfrost_context *ctx = panfrost_context(pctx);
   const struct pipe_framebuffer_state *fb = &ctx->state.fb;

   if (!panfrost_render_condition_check(ctx))
      return;
   if (scissor && !covers(scissor->minx, scissor->miny,
                          scissor->maxx - scissor->minx,
                          scissor->maxy - scissor->miny, fb->width,
                          fb->height)) {
      panfrost_warn_once(ctx, PANFROST_WARN_PARTIAL_CLEAR,
                         "scissored clears are not implemented yet "
                         "(dropped)");
      return;
   }
   panfrost_batch_clear(ctx, buffers, color, depth, stencil);
}

/* Clears one surface in a pass of its own, leaving the bound framebuffer
 * (and the pass gathered on it) as they were.
 */
static void
clear_surface(struct panfrost_context *ctx, struct pipe_surface *surf,
              unsigned buffers, const union pipe_color_union *color,
              double depth, unsigned stencil, unsigned x, unsigned y,
              unsigned w, unsigned h)
{
   struct pipe_framebuffer_state saved = {0};
   struct pipe_framebuffer_state one = {
      .width = surf->width,
      .height = surf->height,
      .layers = 1,
   };

   if (!covers(x, y, w, h, surf->width, surf->height)) {
      panfrost_warn_once(ctx, PANFROST_WARN_PARTIAL_CLEAR,
                         "partial surface clears are not implemented yet "
                         "(dropped)");
      return;
   }

   if (buffers & PIPE_CLEAR_COLOR) {
      one.nr_cbufs = 1;
      one.cbufs[0] = surf;
   } else {
      one.zsbuf = surf;
   }

   panfrost_batch_framebuffer_changes(ctx);
   util_copy_framebuffer_state(&saved, &ctx->state.fb);
   util_copy_framebuffer_state(&ctx->state.fb, &one);
   panfrost_batch_clear(ctx, buffers, color, depth, stencil);
   panfrost_batch_submit(ctx);
   util_copy_framebuffer_state(&ctx->state.fb, &saved);
   util_unreference_framebuffer_state(&saved);
}

static void
panfrost_clear_render_target(struct pipe_context *pctx,
                             struct pipe_surface *dst,
                             const union pipe_color_union *color,
                             unsigned x, unsigned y, unsigned w, unsigned h,
                             bool render_condition_enabled)
{
   if (render_condition_enabled &&
       !panfrost_render_condition_check(panfrost_context(pctx)))
      return;
   clear_surface(panfrost_context(pctx), dst, PIPE_CLEAR_COLOR0, color, 0, 0,
                 x, y, w, h);
}

static void
panfrost_clear_depth_stencil(struct pipe_context *pctx,
                             struct pipe_surface *dst, unsigned flags,
                             double depth, unsigned stencil, unsigned x,
                             unsigned y, unsigned w, unsigned h,
                             bool render_condition_enabled)
{
   union pipe_color_union unused = {0};

   if (render_condition_enabled &&
       !panfrost_render_condition_check(panfrost_context(pctx)))
      return;
   clear_surface(panfrost_context(pctx), dst,
                 flags & PIPE_CLEAR_DEPTHSTENCIL, &unused, depth, stencil, x,
                 y, w, h);
}

void
panfrost_context_init_draw(struct pipe_context *pctx)
{
   pctx->draw_vbo = panfrost_draw_vbo;
   pctx->clear = panfrost_clear;
   pctx->clear_render_target = panfrost_clear_render_target;
   pctx->clear_depth_stencil = panfrost_clear_depth_stencil;
   /* Copies between linear resources need no GPU: map and memcpy
    * (pan_resolve.c, which copies every sample).
    */
   pctx->resource_copy_region = panfrost_resource_copy_region;
}
