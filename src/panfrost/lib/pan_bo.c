/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include "pan_bo.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pan_bo_cache.h"
#include "pan_device.h"

#define PAN_PAGE_SIZE_B (4ull * 1024)
/* The kernel backs growable (heap) BOs in 2 MiB chunks and rounds their
 * size up to that.
 */
#define PAN_HEAP_GRANULE_B (2ull * 1024 * 1024)

#define PAN_BO_CALLER_FLAGS                                                    \
   (PAN_BO_EXECUTE | PAN_BO_GROWABLE | PAN_BO_INVISIBLE | PAN_BO_DELAY_MMAP |  \
    PAN_BO_SHARED)

static uint64_t
align_up(uint64_t v, uint64_t a)
{
   return (v + a - 1) & ~(a - 1);
}

/* ---- shared BO map (guarded by dev->bo_map_lock) ---- */

static struct pan_bo *
map_lookup(struct pan_device *dev, uint32_t handle)
{
   return handle < dev->bo_map_size ? dev->bo_map[handle] : NULL;
}

static int
map_insert(struct pan_device *dev, struct pan_bo *bo)
{
   if (bo->handle >= dev->bo_map_size) {
      uint32_t size = dev->bo_map_size ? dev->bo_map_size : 64;

      while (size <= bo->handle) {
         if (size > UINT32_MAX / 2)
            return -ENOMEM;
         size *= 2;
      }

      struct pan_bo **map = realloc(dev->bo_map, size * sizeof(*map));
      if (!map)
         return -ENOMEM;

      memset(map + dev->bo_map_size, 0,
             (size - dev->bo_map_size) * sizeof(*map));
      dev->bo_map = map;
      dev->bo_map_size = size;
   }

   dev->bo_map[bo->handle] = bo;
   return 0;
}

static void
map_remove(struct pan_device *dev, struct pan_bo *bo)
{
   if (bo->handle < dev->bo_map_size && dev->bo_map[bo->handle] == bo)
      dev->bo_map[bo->handle] = NULL;
}

/* ---- allocation ---- */

void
pan_bo_destroy(struct pan_bo *bo)
{
   const struct pan_kmod *k = &bo->dev->kmod;

   if (bo->cpu)
      k->ops->munmap(k, bo->cpu, bo->size_B);

   int ret = k->ops->bo_close(k, bo->handle);
   if (ret) {
      pan_device_log_error(bo->dev, "closing BO %u (%s) failed: %s", bo->handle,
                           bo->label ? bo->label : "unlabelled",
                           strerror(-ret));
   }

   free(bo);
}

static struct pan_bo *
alloc_from_kernel(struct pan_device *dev, uint64_t size_B, uint32_t flags,
                  int *ret)
{
   const struct pan_kmod *k = &dev->kmod;
   uint32_t kflags = 0;
   uint32_t handle;
   uint64_t gpu_va;

   if (!(flags & PAN_BO_EXECUTE))
      kflags |= PAN_KMOD_BO_NOEXEC;
   if (flags & PAN_BO_GROWABLE)
      kflags |= PAN_KMOD_BO_HEAP;

   *ret = k->ops->bo_create(k, (uint32_t)size_B, kflags, &handle, &gpu_va);
   if (*ret)
      return NULL;

   struct pan_bo *bo = calloc(1, sizeof(*bo));
   if (!bo) {
      k->ops->bo_close(k, handle);
      *ret = -ENOMEM;
      return NULL;
   }

   bo->dev = dev;
   bo->size_B = size_B;
   bo->gpu_va = gpu_va;
   bo->handle = handle;
   bo->flags = flags;
   return bo;
}

static bool
check_create_args(struct pan_device *dev, uint64_t size_B, uint32_t flags,
                  const char *label)
{
   const char *why = NULL;

   if (size_B == 0)
      why = "size is zero";
   else if (flags & ~PAN_BO_CALLER_FLAGS)
      why = "unknown or internal flags";
   else if ((flags & PAN_BO_GROWABLE) && !(flags & PAN_BO_INVISIBLE))
      why = "growable BOs cannot be CPU-mapped, add PAN_BO_INVISIBLE";
   else if ((flags & PAN_BO_GROWABLE) && (flags & PAN_BO_EXECUTE))
      why = "growable BOs cannot be executable";
   else if (size_B > UINT32_MAX - PAN_HEAP_GRANULE_B)
      why = "size exceeds the kernel's 32-bit limit";

   if (why) {
      pan_device_log_error(dev,
                           "invalid BO request \"%s\" (%llu bytes, flags "
                           "0x%x): %s",
                           label ? label : "unlabelled",
                           (unsigned long long)size_B, flags, why);
   }
   return why == NULL;
}

struct pan_bo *
pan_bo_create(struct pan_device *dev, uint64_t size_B, uint32_t flags,
              const char *label)
{
   int ret = 0;

   if (!check_create_args(dev, size_B, flags, label))
      return NULL;

   size_B = align_up(size_B, (flags & PAN_BO_GROWABLE) ? PAN_HEAP_GRANULE_B
                                                       : PAN_PAGE_SIZE_B);

   /* Cached BOs are never shared, so a shared request skips the cache. */
   struct pan_bo *bo =
      (flags & PAN_BO_SHARED) ? NULL : pan_bo_cache_fetch(dev, size_B, flags);

   if (!bo) {
      bo = alloc_from_kernel(dev, size_B, flags, &ret);

      /* Out of memory maybe because the cache holds it: give it all back
       * and try once more.
       */
      if (!bo) {
         pan_bo_cache_evict_all(dev);
         bo = alloc_from_kernel(dev, size_B, flags, &ret);
      }
   }

   if (!bo) {
      pan_device_log_error(dev,
                           "allocating BO \"%s\" of %llu bytes failed: "
                           "%s",
                           label ? label : "unlabelled",
                           (unsigned long long)size_B, strerror(-ret));
      return NULL;
   }

   bo->flags = flags;
   bo->label = label;
   p_atomic_set(&bo->refcnt, 1);
   p_atomic_set(&bo->gpu_access, 0);

   if (!(flags & (PAN_BO_INVISIBLE | PAN_BO_DELAY_MMAP)) && !pan_bo_mmap(bo)) {
      pan_bo_destroy(bo);
      return NULL;
   }

   return bo;
}

void *
pan_bo_mmap(struct pan_bo *bo)
{
   const struct pan_kmod *k = &bo->dev->kmod;
   uint64_t offset;
   int ret;

   if (bo->cpu)
      return bo->cpu;

   if (bo->flags & (PAN_BO_INVISIBLE | PAN_BO_GROWABLE)) {
      pan_device_log_error(bo->dev, "BO \"%s\" is invisible to the CPU",
                           bo->label ? bo->label : "unlabelled");
      return NULL;
   }

   ret = k->ops->bo_mmap_offset(k, bo->handle, &offset);
   if (ret) {
      pan_device_log_error(bo->dev, "MMAP_BO for \"%s\" failed: %s",
                           bo->label ? bo->label : "unlabelled",
                           strerror(-ret));
      return NULL;
   }

   bo->cpu = k->ops->mmap(k, offset, bo->size_B);
   if (!bo->cpu) {
      pan_device_log_error(bo->dev, "mapping %llu bytes of \"%s\" failed",
                           (unsigned long long)bo->size_B,
                           bo->label ? bo->label : "unlabelled");
   }
   return bo->cpu;
}

/* ---- lifetime ---- */

void
pan_bo_unref(struct pan_bo *bo)
{
   if (!bo)
      return;

   /* Not the last reference: drop it without locking. */
   int32_t count = p_atomic_read(&bo->refcnt);
   while (count > 1) {
      int32_t seen = p_atomic_cmpxchg(&bo->refcnt, count, count - 1);
      if (seen == count)
         return;
      count = seen;
   }

   /* Maybe the last one. Importers look shared BOs up under bo_map_lock
    * and take references there, so the final decrement happens under it
    * too: a BO found in the map is never one being freed.
    */
   struct pan_device *dev = bo->dev;
   pthread_mutex_lock(&dev->bo_map_lock);

   int32_t left = p_atomic_dec_return(&bo->refcnt);
   assert(left >= 0 && "pan_bo_unref on a dead BO");
   if (left != 0) {
      pthread_mutex_unlock(&dev->bo_map_lock);
      return;
   }

   if (bo->flags & PAN_BO_SHARED) {
      /* Close the handle before anyone can import it again. */
      map_remove(dev, bo);
      pan_bo_destroy(bo);
      pthread_mutex_unlock(&dev->bo_map_lock);
      return;
   }
   pthread_mutex_unlock(&dev->bo_map_lock);

   if (!pan_bo_cache_put(bo))
      pan_bo_destroy(bo);
}

bool
pan_bo_wait(struct pan_bo *bo, int64_t timeout_ns, bool for_write)
{
   const struct pan_kmod *k = &bo->dev->kmod;
   uint32_t access = p_atomic_read(&bo->gpu_access);

   /* Our own bookkeeping is complete only for BOs no one else can use. */
   if (!(bo->flags & PAN_BO_SHARED)) {
      if (!access)
         return true;
      if (!for_write && !(access & PAN_BO_ACCESS_WRITE))
         return true;
   }

   int ret = k->ops->bo_wait(k, bo->handle, timeout_ns);
   if (ret == 0) {
      /* Forget what we waited for, unless new work came in meanwhile. */
      p_atomic_cmpxchg(&bo->gpu_access, access, 0);
      return true;
   }

   if (ret != -EBUSY && ret != -ETIMEDOUT) {
      pan_device_log_error(bo->dev, "WAIT_BO on \"%s\" failed: %s",
                           bo->label ? bo->label : "unlabelled",
                           strerror(-ret));
   }
   return false;
}

/* ---- sharing ---- */

int
pan_bo_export(struct pan_bo *bo)
{
   struct pan_device *dev = bo->dev;
   const struct pan_kmod *k = &dev->kmod;
   int fd = -1;

   int ret = k->ops->prime_export(k, bo->handle, &fd);
   if (ret) {
      pan_device_log_error(dev, "exporting BO \"%s\" failed: %s",
                           bo->label ? bo->label : "unlabelled",
                           strerror(-ret));
      return ret;
   }

   /* From now on an import of this buffer must find this BO. It may be
    * flagged shared already (created so) without being in the map yet.
    */
   pthread_mutex_lock(&dev->bo_map_lock);
   if (map_lookup(dev, bo->handle) != bo) {
      ret = map_insert(dev, bo);
      if (!ret)
         bo->flags |= PAN_BO_SHARED;
   }
   pthread_mutex_unlock(&dev->bo_map_lock);

   if (ret) {
      close(fd);
      pan_device_log_error(dev, "exporting BO \"%s\": out of memory",
                           bo->label ? bo->label : "unlabelled");
      return ret;
   }
   return fd;
}

/* Called with bo_map_lock held, for a handle not in the map. */
static struct pan_bo *
wrap_imported(struct pan_device *dev, uint32_t handle, uint64_t size_B)
{
   const struct pan_kmod *k = &dev->kmod;
   uint64_t gpu_va;
   int ret = size_B ? 0 : -EINVAL;

   ret = ret ? ret : k->ops->bo_get_gpu_va(k, handle, &gpu_va);

   struct pan_bo *bo = ret ? NULL : calloc(1, sizeof(*bo));
   if (!bo) {
      pan_device_log_error(
         dev, "importing dma-buf (handle %u) failed: %s", handle,
         ret ? (size_B ? strerror(-ret) : "unknown size") : "out of memory");
      k->ops->bo_close(k, handle);
      return NULL;
   }

   bo->dev = dev;
   bo->size_B = size_B;
   bo->gpu_va = gpu_va;
   bo->handle = handle;
   bo->flags = PAN_BO_SHARED | PAN_BO_DELAY_MMAP;
   bo->label = "imported";
   p_atomic_set(&bo->refcnt, 1);

   if (map_insert(dev, bo)) {
      pan_device_log_error(dev, "importing dma-buf: out of memory");
      pan_bo_destroy(bo);
      return NULL;
   }
   return bo;
}

struct pan_bo *
pan_bo_import(struct pan_device *dev, int dmabuf_fd)
{
   const struct pan_kmod *k = &dev->kmod;
   uint32_t handle;
   uint64_t size_B = 0;

   pthread_mutex_lock(&dev->bo_map_lock);

   int ret = k->ops->prime_import(k, dmabuf_fd, &handle, &size_B);
   if (ret) {
      pthread_mutex_unlock(&dev->bo_map_lock);
      pan_device_log_error(dev, "importing dma-buf fd %d failed: %s", dmabuf_fd,
                           strerror(-ret));
      return NULL;
   }

   /* The kernel hands back the same handle for a buffer this fd already
    * has, so that is the BO to return.
    */
   struct pan_bo *bo = map_lookup(dev, handle);
   if (bo)
      p_atomic_inc(&bo->refcnt);
   else
      bo = wrap_imported(dev, handle, size_B);

   pthread_mutex_unlock(&dev->bo_map_lock);
   return bo;
}
