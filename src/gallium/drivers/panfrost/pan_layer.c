/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include "util/u_math.h"

#include "pan_context.h"
#include "pan_layer.h"

unsigned
panfrost_fb_layers(const struct pipe_framebuffer_state *fb)
{
   unsigned n = 0;

   for (unsigned i = 0; i < fb->nr_cbufs; ++i) {
      const struct pipe_surface *s = fb->cbufs[i];
      if (s)
         n = MAX2(n, s->u.tex.last_layer - s->u.tex.first_layer + 1);
   }
   if (fb->zsbuf) {
      n = MAX2(n,
               fb->zsbuf->u.tex.last_layer - fb->zsbuf->u.tex.first_layer + 1);
   }
   if (!fb->nr_cbufs && !fb->zsbuf)
      n = fb->layers;
   return MAX2(n, 1);
}

void
panfrost_batch_use_layer(struct panfrost_context *ctx, unsigned layer)
{
   struct panfrost_batch *b = &ctx->batch;

   if (b->layer == layer)
      return;
   /* Compute jobs of the batch run before any pass and can stay. */
   if (b->clear || b->tiler ||
       util_dynarray_num_elements(&b->draw_jobs, struct panfrost_batch_job))
      panfrost_batch_submit(ctx);
   b->layer = layer;
}

unsigned
panfrost_batch_surface_layer(const struct panfrost_context *ctx,
                             const struct pipe_surface *surf)
{
   unsigned last = surf->u.tex.last_layer;
   return MIN2(surf->u.tex.first_layer + ctx->batch.layer, last);
}
