/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include <assert.h>
#include <string.h>

#include "pan_bo.h"
#include "pan_pool.h"

void
pan_pool_init(struct pan_pool *pool, struct pan_device *dev, uint32_t bo_flags,
              uint64_t chunk_size_B, const char *label)
{
   memset(pool, 0, sizeof(*pool));
   pool->dev = dev;
   pool->bo_flags = bo_flags;
   pool->chunk_size_B = chunk_size_B;
   pool->label = label;
   util_dynarray_init(&pool->bos, NULL);
}

void
pan_pool_finish(struct pan_pool *pool)
{
   util_dynarray_foreach (&pool->bos, struct pan_bo *, bo)
      pan_bo_unref(*bo);
   util_dynarray_fini(&pool->bos);
   util_dynarray_init(&pool->bos, NULL);
   pool->current = NULL;
   pool->used_B = 0;
}

static struct pan_bo *
pool_new_bo(struct pan_pool *pool, uint64_t size_B)
{
   struct pan_bo *bo = pan_bo_create(pool->dev, size_B, pool->bo_flags,
                                     pool->label);
   if (!bo)
      return NULL;
   struct pan_bo **slot = util_dynarray_grow(&pool->bos, struct pan_bo *, 1);
   if (!pan_bo_mmap(bo) || !slot) {
      if (slot)
         (void)util_dynarray_pop(&pool->bos, struct pan_bo *);
      pan_bo_unref(bo);
      return NULL;
   }
   *slot = bo;
   return bo;
}

struct pan_ptr
pan_pool_alloc(struct pan_pool *pool, uint64_t size_B, unsigned align_B)
{
   struct pan_ptr none = {NULL, 0};

   assert(align_B && !(align_B & (align_B - 1)) && align_B <= 4096);
   if (!size_B)
      size_B = 1;

   uint64_t offset =
      (pool->used_B + align_B - 1) & ~(uint64_t)(align_B - 1);
   struct pan_bo *bo = pool->current;

   if (!bo || offset + size_B > bo->size_B) {
      /* Big requests get their own BO and leave the current chunk be. */
      bool own = size_B > pool->chunk_size_B / 2;
      bo = pool_new_bo(pool, own ? size_B : pool->chunk_size_B);
      if (!bo)
         return none;
      offset = 0;
      if (!own) {
         pool->current = bo;
         pool->used_B = size_B;
      }
   } else {
      pool->used_B = offset + size_B;
   }

   /* Recycled BOs come back from the cache with old contents. */
   uint8_t *cpu = (uint8_t *)bo->cpu + offset;
   memset(cpu, 0, size_B);
   return (struct pan_ptr){cpu, bo->gpu_va + offset};
}
