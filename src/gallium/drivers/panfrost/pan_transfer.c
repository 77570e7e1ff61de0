/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* CPU access to resources. Every layout is linear today, so a transfer is a
 * pointer into the buffer object once the GPU is done with it. */

#include "util/log.h"
#include "util/u_inlines.h"
#include "util/u_memory.h"
#include "util/u_transfer.h"

#include "pan_context.h"
#include "pan_resource.h"

static void *
panfrost_transfer_map(struct pipe_context *pctx, struct pipe_resource *prsc,
                      unsigned level, unsigned usage,
                      const struct pipe_box *box,
                      struct pipe_transfer **out_transfer)
{
   struct panfrost_resource *rsc = panfrost_resource(prsc);
   const struct pan_image_level *l = &rsc->layout.levels[level];

   /* Reads wait for GPU writers; writes wait for every GPU user. A pass
    * still being gathered must be submitted first.
    */
   if (!(usage & PIPE_MAP_UNSYNCHRONIZED)) {
      struct panfrost_context *ctx = panfrost_context(pctx);
      bool for_write = usage & PIPE_MAP_WRITE;
      if (for_write ? panfrost_batch_uses(ctx, prsc)
                    : panfrost_batch_writes(ctx, prsc))
         panfrost_batch_submit(ctx);

      if (!pan_bo_wait(rsc->bo, INT64_MAX, for_write)) {
         mesa_loge("panfrost: waiting for a buffer failed");
         return NULL;
      }
   }

   uint8_t *cpu = pan_bo_mmap(rsc->bo);
   if (!cpu)
      return NULL;
   if ((usage & PIPE_MAP_WRITE) && prsc->target == PIPE_BUFFER)
      pan_index_cache_invalidate(&rsc->index_cache, box->x, box->width);

   struct pipe_transfer *xfer = CALLOC_STRUCT(pipe_transfer);
   if (!xfer)
      return NULL;

   pipe_resource_reference(&xfer->resource, prsc);
   xfer->level = level;
   xfer->usage = usage;
   xfer->box = *box;
   xfer->stride = l->row_stride_B;
   xfer->layer_stride = prsc->target == PIPE_TEXTURE_3D
                           ? l->surface_stride_B
                           : rsc->layout.array_stride_B;
   *out_transfer = xfer;

   return cpu + panfrost_resource_offset_B(rsc, level, box);
}

static void
panfrost_transfer_unmap(struct pipe_context *pctx, struct pipe_transfer *xfer)
{
   pipe_resource_reference(&xfer->resource, NULL);
   FREE(xfer);
}

static void
panfrost_transfer_flush_region(struct pipe_context *pctx,
                               struct pipe_transfer *xfer,
                               const struct pipe_box *box)
{
   /* Mappings are coherent: nothing to do. */
}

void
panfrost_context_init_resource(struct pipe_context *pctx)
{
   pctx->buffer_map = panfrost_transfer_map;
   pctx->texture_map = panfrost_transfer_map;
   pctx->buffer_unmap = panfrost_transfer_unmap;
   pctx->texture_unmap = panfrost_transfer_unmap;
   pctx->transfer_flush_region = panfrost_transfer_flush_region;
   pctx->buffer_subdata = u_default_buffer_subdata;
   pctx->texture_subdata = u_default_texture_subdata;
}
