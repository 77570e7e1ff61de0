/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * A bump allocator of GPU memory for descriptors and jobs that live as long
 * as one submission (a batch): memory comes from CPU-mapped BOs of
 * chunk_size_B, larger requests get a BO of their own, and everything is
 * released at once by pan_pool_finish().  The pool keeps the list of its
 * BOs so the submitter can hand them to the kernel.
 */

#ifndef PAN_POOL_H
#define PAN_POOL_H

#include <stdbool.h>
#include <stdint.h>

#include "util/u_dynarray.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pan_device;
struct pan_bo;

/* A CPU pointer and the GPU address of the same bytes. */
struct pan_ptr {
   void *cpu;
   uint64_t gpu;
};

struct pan_pool {
   struct pan_device *dev;
   uint32_t bo_flags;     /* enum pan_bo_flags of new BOs */
   uint64_t chunk_size_B; /* size of the BOs small requests share */
   const char *label;
   struct util_dynarray bos; /* struct pan_bo *, all owned */
   struct pan_bo *current;   /* chunk being carved, also in bos */
   uint64_t used_B;          /* bytes of current already handed out */
};

void pan_pool_init(struct pan_pool *pool, struct pan_device *dev,
                   uint32_t bo_flags, uint64_t chunk_size_B,
                   const char *label);

/* Drops every BO of the pool; the pool can be used again afterwards. */
void pan_pool_finish(struct pan_pool *pool);

/* size_B bytes at an align_B (power of two, at most 4096) boundary, zeroed.
 * { NULL, 0 } when the memory could not be allocated.
 */
struct pan_ptr pan_pool_alloc(struct pan_pool *pool, uint64_t size_B,
                              unsigned align_B);

static inline unsigned
pan_pool_bo_count(const struct pan_pool *pool)
{
   return util_dynarray_num_elements(&pool->bos, struct pan_bo *);
}

static inline struct pan_bo *const *
pan_pool_bos(const struct pan_pool *pool)
{
   return (struct pan_bo *const *)pool->bos.data;
}

#ifdef __cplusplus
}
#endif

#endif /* PAN_POOL_H */
