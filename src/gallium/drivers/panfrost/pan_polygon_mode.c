/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* GL_LINE and GL_POINT polygon modes, first step: the index list of the
 * polygons' edges (each polygon's outline, not the triangles' inner
 * diagonals) or vertices is built on the CPU with Gallium's unfilled
 * index translators and drawn as lines or points.  Which face a polygon
 * shows is only known after the vertex shader, so this covers draws
 * whose two faces take the same mode and that cull neither; the others
 * are drawn filled with a warning (pan_draw_vbo.c).  Indexed draws with
 * primitive restart are split at the restarts.  Edge flags are not
 * honoured: every edge is drawn.
 */

#include <stdlib.h>

#include "indices/u_indices.h"
#include "util/log.h"
#include "util/u_inlines.h"
#include "util/u_prim.h"

#include "pan_context.h"
#include "pan_polygon_mode.h"

bool
panfrost_polygon_mode_applies(const struct panfrost_context *ctx,
                              const struct pipe_draw_info *info)
{
   const struct pipe_rasterizer_state *rast = ctx->state.rast;

   return rast && u_reduced_prim(info->mode) == PIPE_PRIM_TRIANGLES &&
          rast->fill_front != PIPE_POLYGON_MODE_FILL &&
          rast->fill_front == rast->fill_back &&
          rast->cull_face == PIPE_FACE_NONE && !ctx->gs &&
          /* Transform feedback captures the polygons themselves. */
          !ctx->xfb.num_targets && !ctx->xfb.active_queries;
}

/* Draws `count` vertices (indices of `in` from `start`, or vertex
 * numbers from `start` without indices) as the outlines or vertices of
 * their polygons.  false when out of memory.
 */
static bool
draw_run(struct panfrost_context *ctx, const struct pipe_draw_info *info,
         unsigned drawid, const uint8_t *in, unsigned start, unsigned count,
         int index_bias, unsigned mode)
{
   enum pipe_prim_type out_prim;
   unsigned out_size, out_nr;
   u_translate_func translate = NULL;
   u_generate_func generate = NULL;
   enum indices_mode m;

   if (in)
      m = u_unfilled_translator(info->mode, info->index_size, count, mode,
                                &out_prim, &out_size, &out_nr, &translate);
   else
      m = u_unfilled_generator(info->mode, start, count, mode, &out_prim,
                               &out_size, &out_nr, &generate);
   if (m == U_TRANSLATE_ERROR || !out_nr)
      return true;

   void *out = malloc((size_t)out_nr * out_size);
   if (!out)
      return false;
   if (in)
      translate(in, start, count, out_nr, info->restart_index, out);
   else
      generate(start, out_nr, out);

   /* The lines or points, indexed from the draw's own indices (so its
    * index bias still applies) or its vertex numbers.
    */
   struct pipe_draw_info lines = *info;
   lines.mode = out_prim;
   lines.index_size = out_size;
   lines.has_user_indices = true;
   lines.index.user = out;
   lines.primitive_restart = false;
   lines.index_bounds_valid = false;
   struct pipe_draw_start_count_bias ld = {
      .start = 0,
      .count = out_nr,
      .index_bias = in ? index_bias : 0,
   };
   panfrost_draw_vbo(&ctx->base, &lines, drawid, NULL, &ld, 1);
   free(out);
   return true;
}

static unsigned
index_at(const uint8_t *in, unsigned size, unsigned i)
{
   if (size == 1)
      return in[i];
   if (size == 2)
      return ((const uint16_t *)in)[i];
   return ((const uint32_t *)in)[i];
}

bool
panfrost_polygon_mode_draw(struct panfrost_context *ctx,
                           const struct pipe_draw_info *info,
                           unsigned drawid_offset,
                           const struct pipe_draw_start_count_bias *draws,
                           unsigned num_draws)
{
   const struct pipe_rasterizer_state *rast = ctx->state.rast;

   if (!panfrost_polygon_mode_applies(ctx, info))
      return false;
   u_unfilled_init();

   struct pipe_transfer *xfer = NULL;
   const uint8_t *in = NULL;
   if (info->index_size) {
      in = info->has_user_indices
              ? info->index.user
              : pipe_buffer_map_range(&ctx->base, info->index.resource, 0,
                                      info->index.resource->width0,
                                      PIPE_MAP_READ, &xfer);
      if (!in) {
         mesa_loge("panfrost: polygon-mode draw: indices not mapped, "
                   "dropped");
         return true;
      }
   }

   bool ok = true;
   for (unsigned i = 0; ok && i < num_draws; ++i) {
      const struct pipe_draw_start_count_bias *d = &draws[i];
      unsigned drawid = drawid_offset + (info->increment_draw_id ? i : 0);

      if (!in || !info->primitive_restart) {
         ok = draw_run(ctx, info, drawid, in, d->start, d->count,
                       d->index_bias, rast->fill_front);
         continue;
      }
      /* Restarts end the polygons: each run between them on its own. */
      unsigned run = d->start, end = d->start + d->count;
      for (unsigned k = d->start; ok && k <= end; ++k) {
         if (k < end &&
             index_at(in, info->index_size, k) != info->restart_index)
            continue;
         if (k > run)
            ok = draw_run(ctx, info, drawid, in, run, k - run,
                          d->index_bias, rast->fill_front);
         run = k + 1;
      }
   }
   if (xfer)
      pipe_buffer_unmap(&ctx->base, xfer);
   if (!ok)
      mesa_loge("panfrost: out of memory for a polygon-mode draw, dropped");
   return true;
}
