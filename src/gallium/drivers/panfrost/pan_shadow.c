/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* New storage for a resource the CPU writes while GPU work still reads
 * it: the pending batch (or submitted work) holds its own reference to
 * the old BO and keeps reading it, the CPU writes a fresh one, and the
 * write needs neither a submit nor a wait.  Whatever holds the old
 * address is built again: sampler views repack (layout_seq), and every
 * context's next draw rebuilds the descriptors of its bindings
 * (screen->storage_seq, PANFROST_DIRTY_STORAGE).  A batch that writes the
 * resource (a render target, a storage buffer, a capture) is not skipped
 * this way: its results belong in the resource, so the caller submits it.
 */

#include <string.h>

#include "util/u_atomic.h"
#include "util/u_math.h"

#include "pan_context.h"
#include "pan_resource.h"
#include "pan_screen.h"

/* Whether other parties may address rsc's BO, or a CPU pointer into it
 * is alive: then it keeps its storage.
 */
static bool
keeps_storage(const struct panfrost_resource *rsc)
{
   const unsigned shared_binds =
      PIPE_BIND_SHARED | PIPE_BIND_SCANOUT | PIPE_BIND_DISPLAY_TARGET;

   return (rsc->bo->flags & PAN_BO_SHARED) || rsc->scanout || rsc->exported ||
          (rsc->base.bind & shared_binds) ||
          (rsc->base.flags & (PIPE_RESOURCE_FLAG_MAP_PERSISTENT |
                              PIPE_RESOURCE_FLAG_MAP_COHERENT)) ||
          p_atomic_read((int32_t *)&rsc->map_count) ||
          /* Two BOs (split depth/stencil) and the AFBC layout (converted
           * before any CPU access) are left to the usual path.
           */
          rsc->stencil || panfrost_resource_is_afbc(rsc);
}

/* Whether the write replaces every byte the resource holds. */
static bool
discards_all(const struct panfrost_resource *rsc, unsigned usage,
             unsigned level, const struct pipe_box *box)
{
   const struct pipe_resource *r = &rsc->base;

   if (usage & PIPE_MAP_DISCARD_WHOLE_RESOURCE)
      return true;
   if (!(usage & PIPE_MAP_DISCARD_RANGE))
      return false;
   unsigned layers = r->target == PIPE_TEXTURE_3D ? r->depth0 : r->array_size;
   return level == 0 && r->last_level == 0 && box->x == 0 && box->y == 0 &&
          box->z == 0 && box->width == r->width0 && box->height == r->height0 &&
          box->depth == layers;
}

/* Copies what the write keeps from old into bo: for a buffer's discarded
 * range, the bytes around it; else everything.
 */
static void
copy_kept(const struct panfrost_resource *rsc, uint8_t *dst, const uint8_t *src,
          uint64_t size_B, unsigned usage, const struct pipe_box *box)
{
   if (rsc->base.target == PIPE_BUFFER && (usage & PIPE_MAP_DISCARD_RANGE)) {
      uint64_t start = MIN2((uint64_t)box->x, size_B);
      uint64_t end = MIN2((uint64_t)box->x + box->width, size_B);
      memcpy(dst, src, start);
      memcpy(dst + end, src + end, size_B - end);
   } else {
      memcpy(dst, src, size_B);
   }
}

bool
panfrost_resource_shadow(struct panfrost_context *ctx,
                         struct panfrost_resource *rsc, unsigned usage,
                         unsigned level, const struct pipe_box *box)
{
   struct panfrost_screen *screen = panfrost_screen(rsc->base.screen);
   struct pan_bo *old = rsc->bo;

   if (!(usage & PIPE_MAP_WRITE) || (usage & PIPE_MAP_UNSYNCHRONIZED) ||
       keeps_storage(rsc) || panfrost_batch_writes(ctx, &rsc->base))
      return false;
   /* Only worth it when the write would otherwise wait: the pending
    * batch reads it, or submitted work still uses it.
    */
   if (!panfrost_batch_uses(ctx, &rsc->base) && pan_bo_wait(old, 0, true))
      return false;

   bool whole = discards_all(rsc, usage, level, box);
   if (!whole && old->size_B > PANFROST_SHADOW_COPY_MAX_B)
      return false;
   /* The old contents are copied once submitted work writing them is done
    * (the pending batch does not write them).
    */
   if (!whole && !pan_bo_wait(old, INT64_MAX, false))
      return false;

   struct pan_bo *bo =
      pan_bo_create(&screen->dev, old->size_B, old->flags, old->label);
   if (!bo)
      return false;
   if (!whole) {
      uint8_t *dst = pan_bo_mmap(bo);
      const uint8_t *src = pan_bo_mmap(old);
      if (!dst || !src) {
         pan_bo_unref(bo);
         return false;
      }
      copy_kept(rsc, dst, src, MIN2(old->size_B, bo->size_B), usage, box);
   }

   /* The pending batch and submitted jobs hold their own references. */
   rsc->bo = bo;
   pan_bo_unref(old);
   rsc->layout_seq++;
   /* Index ranges of contents the write does not keep are stale; those
    * of the written box go with the write itself (pan_transfer.c).
    */
   if (whole)
      pan_index_cache_invalidate(&rsc->index_cache, 0, SIZE_MAX);
   p_atomic_inc(&screen->storage_seq);
   ctx->dirty |= PANFROST_DIRTY_STORAGE;
   return true;
}
