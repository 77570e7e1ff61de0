/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* CPU access to resources. Every layout is linear today, so a transfer is a
 * pointer into the buffer object once the GPU is done with it, except for
 * split depth/stencil, which goes through an interleaved staging copy. */

#include <string.h>

#include "util/log.h"
#include "util/u_inlines.h"
#include "util/u_memory.h"
#include "util/u_transfer.h"

#include "pan_context.h"
#include "pan_resource.h"

/* A transfer of a split Z32_FLOAT_S8X24_UINT resource: the caller sees
 * the interleaved 64-bit pixels (float depth, then stencil in the low byte
 * of the second word) in a staging copy of the box.
 */
struct panfrost_zs_transfer {
   struct pipe_transfer base;
   uint8_t *staging;
};

/* Copies the box between the two planes and the staging pixels. */
static void
panfrost_zs_transfer_copy(struct panfrost_resource *rsc,
                          struct pipe_transfer *xfer, uint8_t *staging,
                          bool to_planes)
{
   struct panfrost_resource *srsc = rsc->stencil;
   uint8_t *z_cpu = pan_bo_mmap(rsc->bo);
   uint8_t *s_cpu = pan_bo_mmap(srsc->bo);
   const struct pipe_box *box = &xfer->box;

   for (int z = 0; z < box->depth; ++z) {
      for (int y = 0; y < box->height; ++y) {
         struct pipe_box row = { .x = box->x, .y = box->y + y,
                                 .z = box->z + z };
         uint8_t *zp =
            z_cpu + panfrost_resource_offset_B(rsc, xfer->level, &row);
         uint8_t *sp =
            s_cpu + panfrost_resource_offset_B(srsc, xfer->level, &row);
         uint8_t *px = staging + z * xfer->layer_stride + y * xfer->stride;

         for (int x = 0; x < box->width; ++x, px += 8) {
            if (to_planes) {
               memcpy(zp + 4 * x, px, 4);
               sp[x] = px[4];
            } else {
               memcpy(px, zp + 4 * x, 4);
               memset(px + 4, 0, 4);
               px[4] = sp[x];
            }
         }
      }
   }
}

static bool
panfrost_transfer_sync(struct panfrost_context *ctx,
                       struct panfrost_resource *rsc, unsigned usage)
{
   /* Reads wait for GPU writers; writes wait for every GPU user. A pass
    * still being gathered must be submitted first.
    */
   if (usage & PIPE_MAP_UNSYNCHRONIZED)
      return true;

   bool for_write = usage & PIPE_MAP_WRITE;
   if (for_write ? panfrost_batch_uses(ctx, &rsc->base)
                 : panfrost_batch_writes(ctx, &rsc->base))
      panfrost_batch_submit(ctx);

   if (!pan_bo_wait(rsc->bo, INT64_MAX, for_write) ||
       (rsc->stencil && !pan_bo_wait(rsc->stencil->bo, INT64_MAX, for_write))) {
      mesa_loge("panfrost: waiting for a buffer failed");
      return false;
   }
   return true;
}

static void *
panfrost_transfer_map(struct pipe_context *pctx, struct pipe_resource *prsc,
                      unsigned level, unsigned usage,
                      const struct pipe_box *box,
                      struct pipe_transfer **out_transfer)
{
   struct panfrost_resource *rsc = panfrost_resource(prsc);
   const struct pan_image_level *l = &rsc->layout.levels[level];

   if (!panfrost_transfer_sync(panfrost_context(pctx), rsc, usage))
      return NULL;

   if (rsc->stencil) {
      /* The interleaved pixels exist only in the staging copy. */
      if (usage & PIPE_MAP_DIRECTLY)
         return NULL;
      struct panfrost_zs_transfer *zx = CALLOC_STRUCT(panfrost_zs_transfer);
      if (!zx)
         return NULL;
      struct pipe_transfer *xfer = &zx->base;
      xfer->level = level;
      xfer->usage = usage;
      xfer->box = *box;
      xfer->stride = box->width * 8;
      xfer->layer_stride = xfer->stride * box->height;
      zx->staging = MALLOC(xfer->layer_stride * box->depth);
      if (!zx->staging || !pan_bo_mmap(rsc->bo) ||
          !pan_bo_mmap(rsc->stencil->bo)) {
         FREE(zx->staging);
         FREE(zx);
         return NULL;
      }
      pipe_resource_reference(&xfer->resource, prsc);
      /* A partial write keeps the pixels it does not change. */
      if (!(usage & PIPE_MAP_DISCARD_WHOLE_RESOURCE))
         panfrost_zs_transfer_copy(rsc, xfer, zx->staging, false);
      *out_transfer = xfer;
      return zx->staging;
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
   struct panfrost_resource *rsc = panfrost_resource(xfer->resource);

   if (xfer->resource->target != PIPE_BUFFER && rsc->stencil) {
      struct panfrost_zs_transfer *zx = (struct panfrost_zs_transfer *)xfer;
      if (xfer->usage & PIPE_MAP_WRITE)
         panfrost_zs_transfer_copy(rsc, xfer, zx->staging, true);
      FREE(zx->staging);
   }
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
