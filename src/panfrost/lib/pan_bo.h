/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Buffer objects: GPU memory with a GPU virtual address, an optional CPU
 * mapping and a reference count. Releasing the last reference hands the BO
 * to the device's BO cache (pan_bo_cache.h) unless it is shared with other
 * processes.
 *
 * Thread safety: reference counting, creation, import and export may be
 * called from any thread. A given BO's mapping and label are set by whoever
 * owns it.
 */

#ifndef PAN_BO_H
#define PAN_BO_H

#include <stdbool.h>
#include <stdint.h>

#include "util/list.h"
#include "util/u_atomic.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pan_device;

enum pan_bo_flags {
   /* Shader code lives here: the GPU may execute from it. Every other BO
    * is mapped non-executable.
    */
   PAN_BO_EXECUTE = 1u << 0,
   /* Grows on GPU page faults (tiler heap). Must be PAN_BO_INVISIBLE too:
    * the kernel does not pin a growable BO's pages, so it cannot be mapped.
    */
   PAN_BO_GROWABLE = 1u << 1,
   /* The CPU never maps it. */
   PAN_BO_INVISIBLE = 1u << 2,
   /* Map on the first pan_bo_mmap() rather than at creation. */
   PAN_BO_DELAY_MMAP = 1u << 3,
   /* Other processes may use it (exported, imported, or created for
    * sharing), so it never goes through the BO cache. pan_bo_export and
    * pan_bo_import set it; callers may also pass it at creation.
    */
   PAN_BO_SHARED = 1u << 4,
};

/* What the GPU does with a BO in submitted-but-unfinished work. The driver
 * records it at submit time so pan_bo_wait can skip pointless waits.
 */
enum pan_bo_access {
   PAN_BO_ACCESS_READ = 1u << 0,
   PAN_BO_ACCESS_WRITE = 1u << 1,
};

struct pan_bo {
   struct pan_device *dev;
   uint64_t size_B;
   uint64_t gpu_va;
   /* CPU mapping, NULL until mapped. */
   void *cpu;
   uint32_t handle;
   uint32_t flags; /* enum pan_bo_flags */
   int32_t refcnt; /* p_atomic_* */
   /* Static string naming the BO for debugging; not owned. */
   const char *label;
   /* enum pan_bo_access of pending GPU work; p_atomic_* because submitters
    * and waiters may be different threads.
    */
   uint32_t gpu_access;

   /* BO cache bookkeeping, valid only while cached. */
   struct list_head bucket_link;
   struct list_head lru_link;
   uint64_t cached_at_ns;
};

/* Allocate a BO of at least size_B bytes (rounded up to whole pages, or to
 * 2 MiB for growable BOs) with the given enum pan_bo_flags. Reuses an idle
 * BO from the cache when one fits. Returns NULL on failure, reported
 * through the device's error callback.
 */
struct pan_bo *pan_bo_create(struct pan_device *dev, uint64_t size_B,
                             uint32_t flags, const char *label);

static inline struct pan_bo *
pan_bo_ref(struct pan_bo *bo)
{
   if (bo)
      p_atomic_inc(&bo->refcnt);
   return bo;
}

/* Drop a reference; the last one frees the BO or caches it. NULL is fine. */
void pan_bo_unref(struct pan_bo *bo);

/* Map the BO for the CPU if not mapped yet. Returns the mapping or NULL
 * (invisible/growable BOs, kernel failure).
 */
void *pan_bo_mmap(struct pan_bo *bo);

/* Wait until the GPU is done with the BO, for at most timeout_ns (0 polls,
 * INT64_MAX waits forever). for_write: the caller will write, so pending
 * GPU reads matter too; readers only wait for pending GPU writes.
 * Returns true when the BO is idle for that purpose.
 */
bool pan_bo_wait(struct pan_bo *bo, int64_t timeout_ns, bool for_write);

/* Record GPU use by submitted work (enum pan_bo_access bits). */
static inline void
pan_bo_mark_gpu_access(struct pan_bo *bo, uint32_t access)
{
   uint32_t old = p_atomic_read(&bo->gpu_access);

   for (;;) {
      uint32_t seen = p_atomic_cmpxchg(&bo->gpu_access, old, old | access);

      if (seen == old)
         break;
      old = seen;
   }
}

/* Export as a dma-buf fd (owned by the caller), or -errno. */
int pan_bo_export(struct pan_bo *bo);

/* Import a dma-buf. Importing a buffer this device already knows (its own
 * export, or a second import) returns the same pan_bo with one more
 * reference. The fd stays owned by the caller. NULL on failure.
 */
struct pan_bo *pan_bo_import(struct pan_device *dev, int dmabuf_fd);

static inline void
pan_bo_set_label(struct pan_bo *bo, const char *label)
{
   bo->label = label;
}

/* Internal to the device layer: release the kernel object and memory. */
void pan_bo_destroy(struct pan_bo *bo);

#ifdef __cplusplus
}
#endif

#endif /* PAN_BO_H */
