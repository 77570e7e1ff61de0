/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Entry points that make the GPU draw. The job-chain emitters are not
 * written yet: each call is dropped, and the first one says so once, in the
 * log and through the GL debug output, so a user sees why nothing renders. */

#include "util/log.h"
#include "util/u_debug.h"
#include "util/u_surface.h"

#include "pan_context.h"

static void
panfrost_no_rendering(struct pipe_context *pctx, const char *what)
{
   struct panfrost_context *ctx = panfrost_context(pctx);

   if (ctx->warned_no_draw)
      return;
   ctx->warned_no_draw = true;

   mesa_logw("panfrost: rendering is not implemented yet (%s dropped)", what);
   util_debug_message(&ctx->debug, INFO,
                      "panfrost: rendering is not implemented yet "
                      "(%s dropped)", what);
}

static void
panfrost_draw_vbo(struct pipe_context *pctx, const struct pipe_draw_info *info,
                  unsigned drawid_offset,
                  const struct pipe_draw_indirect_info *indirect,
                  const struct pipe_draw_start_count_bias *draws,
                  unsigned num_draws)
{
   panfrost_no_rendering(pctx, "draw");
}

static void
panfrost_clear(struct pipe_context *pctx, unsigned buffers,
               const struct pipe_scissor_state *scissor,
               const union pipe_color_union *color, double depth,
               unsigned stencil)
{
   panfrost_no_rendering(pctx, "clear");
}

static void
panfrost_clear_render_target(struct pipe_context *pctx,
                             struct pipe_surface *dst,
                             const union pipe_color_union *color,
                             unsigned x, unsigned y, unsigned w, unsigned h,
                             bool render_condition_enabled)
{
   panfrost_no_rendering(pctx, "clear");
}

static void
panfrost_clear_depth_stencil(struct pipe_context *pctx,
                             struct pipe_surface *dst, unsigned flags,
                             double depth, unsigned stencil, unsigned x,
                             unsigned y, unsigned w, unsigned h,
                             bool render_condition_enabled)
{
   panfrost_no_rendering(pctx, "clear");
}

static void
panfrost_blit(struct pipe_context *pctx, const struct pipe_blit_info *info)
{
   panfrost_no_rendering(pctx, "blit");
}

void
panfrost_context_init_draw(struct pipe_context *pctx)
{
   pctx->draw_vbo = panfrost_draw_vbo;
   pctx->clear = panfrost_clear;
   pctx->clear_render_target = panfrost_clear_render_target;
   pctx->clear_depth_stencil = panfrost_clear_depth_stencil;
   pctx->blit = panfrost_blit;
   /* Copies between linear resources need no GPU: map and memcpy. */
   pctx->resource_copy_region = util_resource_copy_region;
}
