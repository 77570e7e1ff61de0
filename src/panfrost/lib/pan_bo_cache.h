/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * A cache of released BOs, so frequent allocations skip the kernel.
 *
 * - Buckets by size class: one per power of two from 4 KiB to 4 MiB, the
 *   last one also holding everything larger. A request is served only by a
 *   BO at least as big and smaller than twice the request, looked for in
 *   the request's bucket and the next one.
 * - Cached BOs are marked DONTNEED so the kernel may reclaim their pages
 *   under memory pressure; reuse marks them WILLNEED and drops any whose
 *   pages were reclaimed.
 * - Only idle BOs are reused (polled, never waited for).
 * - Entries older than max_age_ns are freed whenever a BO is cached.
 *
 * All entry points take the cache mutex; freeing goes through the kernel.
 */

#ifndef PAN_BO_CACHE_H
#define PAN_BO_CACHE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/list.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pan_bo;
struct pan_device;

#define PAN_BO_CACHE_MIN_LOG2 12 /* 4 KiB */
#define PAN_BO_CACHE_MAX_LOG2 22 /* 4 MiB and up */
#define PAN_BO_CACHE_BUCKET_COUNT                                              \
   (PAN_BO_CACHE_MAX_LOG2 - PAN_BO_CACHE_MIN_LOG2 + 1)

/* Default age after which a cached BO is freed. */
#define PAN_BO_CACHE_MAX_AGE_NS 1000000000ull

typedef uint64_t (*pan_clock_fn)(void *data);

struct pan_bo_cache {
   pthread_mutex_t lock;
   struct list_head buckets[PAN_BO_CACHE_BUCKET_COUNT];
   /* Every cached BO, least recently cached first. */
   struct list_head lru;
   uint64_t max_age_ns;
   /* Monotonic clock, replaceable for tests. */
   pan_clock_fn now_ns;
   void *now_data;
   /* Never cache (debugging). */
   bool disabled;

   /* Statistics. */
   unsigned count;
   uint64_t size_B;
   unsigned hits;
   unsigned misses;
   unsigned purged_by_kernel;
};

/* Bucket index for a size in bytes. */
unsigned pan_bo_cache_bucket(uint64_t size_B);

void pan_bo_cache_init(struct pan_bo_cache *cache);
/* Frees every cached BO, then the mutex. */
void pan_bo_cache_fini(struct pan_device *dev);

/* An idle cached BO of at least size_B bytes with matching flags, with its
 * contents guaranteed retained, or NULL. The BO comes back with refcnt 0;
 * the caller takes ownership.
 */
struct pan_bo *pan_bo_cache_fetch(struct pan_device *dev, uint64_t size_B,
                                  uint32_t flags);

/* Take a BO whose last reference was dropped. Returns false when the BO
 * cannot be cached (shared, cache disabled): the caller frees it.
 */
bool pan_bo_cache_put(struct pan_bo *bo);

/* Free entries older than the cache's max age. */
void pan_bo_cache_evict_stale(struct pan_device *dev);

/* Free everything (memory pressure, allocation failure, teardown). */
void pan_bo_cache_evict_all(struct pan_device *dev);

uint64_t pan_clock_monotonic_ns(void *data);

#ifdef __cplusplus
}
#endif

#endif /* PAN_BO_CACHE_H */
