/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include "pan_bo_cache.h"

#include <time.h>

#include "pan_bo.h"
#include "pan_device.h"

/* Flags that do not change what kind of BO the kernel made. */
#define PAN_BO_CACHE_IGNORED_FLAGS PAN_BO_DELAY_MMAP

uint64_t
pan_clock_monotonic_ns(void *data)
{
   struct timespec ts;

   (void)data;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

unsigned
pan_bo_cache_bucket(uint64_t size_B)
{
   unsigned log2 = size_B ? 63 - __builtin_clzll(size_B) : 0;

   if (log2 < PAN_BO_CACHE_MIN_LOG2)
      log2 = PAN_BO_CACHE_MIN_LOG2;
   if (log2 > PAN_BO_CACHE_MAX_LOG2)
      log2 = PAN_BO_CACHE_MAX_LOG2;

   return log2 - PAN_BO_CACHE_MIN_LOG2;
}

void
pan_bo_cache_init(struct pan_bo_cache *cache)
{
   pthread_mutex_init(&cache->lock, NULL);

   for (unsigned i = 0; i < PAN_BO_CACHE_BUCKET_COUNT; i++)
      list_inithead(&cache->buckets[i]);
   list_inithead(&cache->lru);

   cache->max_age_ns = PAN_BO_CACHE_MAX_AGE_NS;
   cache->now_ns = pan_clock_monotonic_ns;
   cache->now_data = NULL;
   cache->count = 0;
   cache->size_B = 0;
}

/* Unlink a cached BO. Caller holds the lock. */
static void
take_out(struct pan_bo_cache *cache, struct pan_bo *bo)
{
   list_del(&bo->bucket_link);
   list_del(&bo->lru_link);
   cache->count--;
   cache->size_B -= bo->size_B;
}

/* Whether a cached BO can serve a request: big enough, but not wasting
 * more than half of itself, and made with the same kernel-visible flags.
 */
static bool
fits(const struct pan_bo *bo, uint64_t size_B, uint32_t flags)
{
   uint32_t mask = ~(uint32_t)PAN_BO_CACHE_IGNORED_FLAGS;

   return bo->size_B >= size_B && bo->size_B / 2 < size_B &&
          (bo->flags & mask) == (flags & mask);
}

/* Search one bucket. Caller holds the lock. */
static struct pan_bo *
fetch_from_bucket(struct pan_device *dev, struct list_head *bucket,
                  uint64_t size_B, uint32_t flags)
{
   struct pan_bo_cache *cache = &dev->bo_cache;
   const struct pan_kmod *k = &dev->kmod;

   /* Oldest first: the likeliest to be idle. */
   list_for_each_entry_safe (struct pan_bo, bo, bucket, bucket_link) {
      if (!fits(bo, size_B, flags))
         continue;

      /* Reuse must not stall: poll, and skip anything the GPU still has. */
      if (k->ops->bo_wait(k, bo->handle, 0) != 0)
         continue;

      take_out(cache, bo);

      /* The kernel may have reclaimed the pages while the BO was marked
       * DONTNEED; such a BO has lost its contents and backing for good.
       */
      bool retained = false;
      int ret = k->ops->madvise(k, bo->handle, true, &retained);
      if (ret || !retained) {
         cache->purged_by_kernel++;
         pan_bo_destroy(bo);
         continue;
      }

      return bo;
   }

   return NULL;
}

struct pan_bo *
pan_bo_cache_fetch(struct pan_device *dev, uint64_t size_B, uint32_t flags)
{
   struct pan_bo_cache *cache = &dev->bo_cache;
   unsigned first = pan_bo_cache_bucket(size_B);
   struct pan_bo *found = NULL;

   /* BOs in [size_B, 2 * size_B) sit in this bucket or the next one. */
   unsigned last = first + 1 < PAN_BO_CACHE_BUCKET_COUNT ? first + 1 : first;

   pthread_mutex_lock(&cache->lock);

   for (unsigned b = first; b <= last && !found; b++)
      found = fetch_from_bucket(dev, &cache->buckets[b], size_B, flags);

   if (found)
      cache->hits++;
   else
      cache->misses++;

   pthread_mutex_unlock(&cache->lock);
   return found;
}

/* Caller holds the lock. The LRU is in caching order, so stop at the first
 * young entry.
 */
static void
evict_older_than(struct pan_device *dev, uint64_t now_ns, uint64_t age_ns)
{
   struct pan_bo_cache *cache = &dev->bo_cache;

   list_for_each_entry_safe (struct pan_bo, bo, &cache->lru, lru_link) {
      if (now_ns >= bo->cached_at_ns && now_ns - bo->cached_at_ns <= age_ns)
         break;

      take_out(cache, bo);
      pan_bo_destroy(bo);
   }
}

bool
pan_bo_cache_put(struct pan_bo *bo)
{
   struct pan_device *dev = bo->dev;
   struct pan_bo_cache *cache = &dev->bo_cache;
   const struct pan_kmod *k = &dev->kmod;

   if (cache->disabled || (bo->flags & PAN_BO_SHARED))
      return false;

   /* Let the kernel take the pages back if memory runs short. A BO it
    * cannot mark is still fine to keep.
    */
   k->ops->madvise(k, bo->handle, false, NULL);

   pthread_mutex_lock(&cache->lock);

   uint64_t now_ns = cache->now_ns(cache->now_data);

   bo->cached_at_ns = now_ns;
   bo->label = NULL;
   list_addtail(&bo->bucket_link,
                &cache->buckets[pan_bo_cache_bucket(bo->size_B)]);
   list_addtail(&bo->lru_link, &cache->lru);
   cache->count++;
   cache->size_B += bo->size_B;

   evict_older_than(dev, now_ns, cache->max_age_ns);

   pthread_mutex_unlock(&cache->lock);
   return true;
}

void
pan_bo_cache_evict_stale(struct pan_device *dev)
{
   struct pan_bo_cache *cache = &dev->bo_cache;

   pthread_mutex_lock(&cache->lock);
   evict_older_than(dev, cache->now_ns(cache->now_data), cache->max_age_ns);
   pthread_mutex_unlock(&cache->lock);
}

void
pan_bo_cache_evict_all(struct pan_device *dev)
{
   struct pan_bo_cache *cache = &dev->bo_cache;

   pthread_mutex_lock(&cache->lock);
   list_for_each_entry_safe (struct pan_bo, bo, &cache->lru, lru_link) {
      take_out(cache, bo);
      pan_bo_destroy(bo);
   }
   pthread_mutex_unlock(&cache->lock);
}

void
pan_bo_cache_fini(struct pan_device *dev)
{
   pan_bo_cache_evict_all(dev);
   pthread_mutex_destroy(&dev->bo_cache.lock);
}
