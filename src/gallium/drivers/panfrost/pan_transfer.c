/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* CPU access to resources. A transfer of a linear resource is a pointer
 * into the buffer object once the GPU is done with it. Tiled resources and
 * split depth/stencil go through a linear staging copy of the box: filled
 * from the resource when mapped (the tiling library untiles), written back
 * when unmapped after a write. AFBC resources become u-interleaved first
 * (panfrost_resource_convert: a GPU blit). */

#include <string.h>

#include "util/format/u_format.h"
#include "util/log.h"
#include "util/u_atomic.h"
#include "util/u_inlines.h"
#include "util/u_memory.h"
#include "util/u_transfer.h"

#include "pan_context.h"
#include "pan_resource.h"
#include "pan_screen.h"
#include "pan_uinterleave.h"

/* A transfer through a staging copy of the box: of a u-interleaved
 * resource, or of a split Z32_FLOAT_S8X24_UINT one, whose caller sees the
 * interleaved 64-bit pixels (float depth, then stencil in the low byte of
 * the second word).
 */
struct panfrost_staging_transfer {
   struct pipe_transfer base;
   struct panfrost_staging *mem;
   uint8_t *staging;
};

struct panfrost_staging {
   size_t size_B;
   uint8_t *data; /* 64-byte aligned */
};

void
panfrost_staging_free(struct panfrost_staging *s)
{
   if (s) {
      align_free(s->data);
      FREE(s);
   }
}

/* The largest staging block the screen keeps between transfers. */
#define PANFROST_STAGING_CACHE_MAX_B (16u << 20)

static struct panfrost_staging **
staging_cache(struct panfrost_resource *rsc)
{
   return &panfrost_screen(rsc->base.screen)->staging_cache;
}

/* Staging memory of at least size_B bytes: the screen's cached block
 * when it is free and large enough.
 */
static struct panfrost_staging *
panfrost_staging_get(struct panfrost_resource *rsc, size_t size_B)
{
   struct panfrost_staging *s =
      p_atomic_xchg(staging_cache(rsc), (struct panfrost_staging *)NULL);

   if (s && s->size_B >= size_B)
      return s;
   panfrost_staging_free(s);
   s = CALLOC_STRUCT(panfrost_staging);
   if (!s)
      return NULL;
   s->size_B = MAX2(size_B, 1);
   s->data = align_malloc(s->size_B, 64);
   if (!s->data) {
      FREE(s);
      return NULL;
   }
   return s;
}

/* Keeps s for the next transfer unless it is too large, or smaller than
 * a block another transfer gave back meanwhile.
 */
static void
panfrost_staging_put(struct panfrost_resource *rsc, struct panfrost_staging *s)
{
   if (s->size_B > PANFROST_STAGING_CACHE_MAX_B) {
      panfrost_staging_free(s);
      return;
   }
   struct panfrost_staging *old = p_atomic_xchg(staging_cache(rsc), s);
   if (old && old->size_B > s->size_B)
      panfrost_staging_put(rsc, old);
   else
      panfrost_staging_free(old);
}

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

/* Copies the box between a u-interleaved resource and the staging rows,
 * surface by surface (array layers, cube faces or 3D slices).
 */
static bool
panfrost_tiled_transfer_copy(struct panfrost_resource *rsc,
                             const struct pipe_transfer *xfer,
                             uint8_t *staging, bool to_tiles)
{
   uint8_t *cpu = pan_bo_mmap(rsc->bo);
   const struct pipe_box *box = &xfer->box;
   const struct pan_image_level *l = &rsc->layout.levels[xfer->level];
   enum pipe_format fmt = panfrost_plane_format(rsc->base.format);
   const struct pan_utile_format uf = {
      .el_size_B = util_format_get_blocksize(fmt),
      .block_w_px = util_format_get_blockwidth(fmt),
      .block_h_px = util_format_get_blockheight(fmt),
   };
   bool is_3d = rsc->base.target == PIPE_TEXTURE_3D;

   for (int z = 0; z < box->depth; ++z) {
      unsigned s = box->z + z;
      uint8_t *tiled =
         cpu + pan_image_surface_offset_B(&rsc->image, &rsc->layout,
                                          xfer->level, is_3d ? 0 : s,
                                          is_3d ? s : 0);
      uint8_t *lin = staging + (uint64_t)z * xfer->layer_stride;
      bool ok = to_tiles
                   ? pan_uinterleave_store_px(tiled, l->row_stride_B, lin,
                                              xfer->stride, box->x, box->y,
                                              box->width, box->height, &uf)
                   : pan_uinterleave_load_px(lin, xfer->stride, tiled,
                                             l->row_stride_B, box->x, box->y,
                                             box->width, box->height, &uf);
      if (!ok)
         return false;
   }
   return true;
}

static bool
panfrost_transfer_sync(struct panfrost_context *ctx,
                       struct panfrost_resource *rsc, unsigned usage,
                       unsigned level, const struct pipe_box *box)
{
   /* Reads wait for GPU writers; writes wait for every GPU user. A pass
    * still being gathered must be submitted first, unless a write can
    * go to new storage while the GPU reads the old (pan_shadow.c).
    */
   if (usage & PIPE_MAP_UNSYNCHRONIZED)
      return true;
   if (panfrost_resource_shadow(ctx, rsc, usage, level, box))
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

   /* The CPU sees u-interleaved pixels: an AFBC resource is converted on
    * its first map and stays so.
    */
   if (!panfrost_resource_convert(pctx, rsc))
      return NULL;
   if (!panfrost_transfer_sync(panfrost_context(pctx), rsc, usage, level, box))
      return NULL;

   bool tiled = panfrost_resource_is_tiled(rsc);
   if (rsc->stencil || tiled) {
      /* The caller's pixels exist only in the staging copy. */
      if (usage & PIPE_MAP_DIRECTLY)
         return NULL;
      struct panfrost_staging_transfer *zx =
         CALLOC_STRUCT(panfrost_staging_transfer);
      if (!zx)
         return NULL;
      struct pipe_transfer *xfer = &zx->base;
      xfer->level = level;
      xfer->usage = usage;
      xfer->box = *box;
      xfer->stride =
         rsc->stencil ? box->width * 8
                      : util_format_get_stride(prsc->format, box->width);
      /* Rows of compressed formats are rows of blocks. */
      xfer->layer_stride =
         xfer->stride * util_format_get_nblocksy(prsc->format, box->height);
      zx->mem = panfrost_staging_get(
         rsc, (size_t)xfer->layer_stride * box->depth);
      if (!zx->mem || !pan_bo_mmap(rsc->bo) ||
          (rsc->stencil && !pan_bo_mmap(rsc->stencil->bo))) {
         panfrost_staging_free(zx->mem);
         FREE(zx);
         return NULL;
      }
      zx->staging = zx->mem->data;
      pipe_resource_reference(&xfer->resource, prsc);
      p_atomic_inc(&rsc->map_count);
      /* A partial write keeps the pixels it does not change; a discarded
       * range is all rewritten by the caller.
       */
      if (!(usage & (PIPE_MAP_DISCARD_WHOLE_RESOURCE |
                     PIPE_MAP_DISCARD_RANGE))) {
         if (rsc->stencil)
            panfrost_zs_transfer_copy(rsc, xfer, zx->staging, false);
         else if (!panfrost_tiled_transfer_copy(rsc, xfer, zx->staging,
                                                false))
            mesa_loge("panfrost: untiling a %s box failed",
                      util_format_short_name(prsc->format));
      }
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
   p_atomic_inc(&rsc->map_count);
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

   if (xfer->resource->target != PIPE_BUFFER &&
       (rsc->stencil || panfrost_resource_is_tiled(rsc))) {
      struct panfrost_staging_transfer *zx =
         (struct panfrost_staging_transfer *)xfer;
      if ((xfer->usage & PIPE_MAP_WRITE) && rsc->stencil)
         panfrost_zs_transfer_copy(rsc, xfer, zx->staging, true);
      else if ((xfer->usage & PIPE_MAP_WRITE) &&
               !panfrost_tiled_transfer_copy(rsc, xfer, zx->staging, true))
         mesa_loge("panfrost: tiling a %s box failed",
                   util_format_short_name(xfer->resource->format));
      panfrost_staging_put(rsc, zx->mem);
   }
   p_atomic_dec(&rsc->map_count);
   pipe_resource_reference(&xfer->resource, NULL);
   FREE(xfer);
}

/* glTexSubImage's path: a tiled resource takes the caller's rows straight
 * into its tiles, without the staging copy a map would make.
 */
static void
panfrost_texture_subdata(struct pipe_context *pctx,
                         struct pipe_resource *prsc, unsigned level,
                         unsigned usage, const struct pipe_box *box,
                         const void *data, unsigned stride,
                         unsigned layer_stride)
{
   struct panfrost_resource *rsc = panfrost_resource(prsc);

   /* An upload into AFBC converts it, as a map would. */
   if (!panfrost_resource_convert(pctx, rsc))
      return;
   if (!panfrost_resource_is_tiled(rsc) || rsc->stencil) {
      u_default_texture_subdata(pctx, prsc, level, usage, box, data, stride,
                                layer_stride);
      return;
   }
   /* The caller gives every texel of the box. */
   usage |= PIPE_MAP_WRITE | PIPE_MAP_DISCARD_RANGE;
   if (!panfrost_transfer_sync(panfrost_context(pctx), rsc, usage, level,
                               box) ||
       !pan_bo_mmap(rsc->bo))
      return;
   struct pipe_transfer xfer = {
      .level = level,
      .usage = usage,
      .box = *box,
      .stride = stride,
      .layer_stride = layer_stride,
   };
   if (!panfrost_tiled_transfer_copy(rsc, &xfer, (uint8_t *)data, true))
      mesa_loge("panfrost: tiling a %s upload failed",
                util_format_short_name(prsc->format));
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
   pctx->texture_subdata = panfrost_texture_subdata;
}
