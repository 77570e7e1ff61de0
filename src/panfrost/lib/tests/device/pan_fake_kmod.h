/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * An in-process stand-in for the panfrost kernel driver, behind the
 * pan_kmod vtable. It keeps just enough state to check what the device
 * layer asks for: parameters, BOs with GPU addresses and memory, busy
 * flags, madvise state with simulated reclaim, dma-bufs backed by memfds,
 * and failure injection. Thread-safe.
 */

#ifndef PAN_FAKE_KMOD_H
#define PAN_FAKE_KMOD_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "pan_kmod.h"

#define FAKE_MAX_PARAMS 64
#define FAKE_MAX_BOS 1024

struct fake_bo {
   bool live;
   uint32_t size_B;
   uint32_t kflags;
   uint64_t gpu_va;
   void *mem;
   bool busy;
   bool dontneed;
   bool purged;
   /* The BO's dma-buf (a memfd the fake keeps open), -1 before the first
    * export or import; identified by its inode.
    */
   int dmabuf_fd;
   ino_t dmabuf_ino;
};

struct fake_kernel {
   pthread_mutex_t lock;
   char driver_name[32];
   int version_error; /* returned by get_driver_name if nonzero */

   uint64_t params[FAKE_MAX_PARAMS];
   int param_error[FAKE_MAX_PARAMS]; /* nonzero: returned instead */

   struct fake_bo bos[FAKE_MAX_BOS]; /* index = handle, 0 unused */
   uint64_t next_gpu_va;

   /* Failure injection: the next N creates fail with -ENOMEM. */
   unsigned fail_creates;

   /* Counters. */
   unsigned creates;
   unsigned imports; /* handles made for foreign dma-bufs */
   unsigned closes;
   unsigned waits;
   unsigned mmaps;
   unsigned munmaps;
   unsigned dontneeds;
   unsigned willneeds;
   unsigned submits;
   unsigned device_closes;
   uint32_t last_create_kflags;
};

/* A panfrost fake answering every parameter like a 2-core Mali-G52. */
void fake_kernel_init(struct fake_kernel *fk);
void fake_kernel_fini(struct fake_kernel *fk);

/* Make a parameter unknown (-EINVAL, like an old kernel) or fail. */
void fake_kernel_fail_param(struct fake_kernel *fk, uint32_t param, int err);
void fake_kernel_set_param(struct fake_kernel *fk, uint32_t param,
                           uint64_t value);

void fake_kernel_set_busy(struct fake_kernel *fk, uint32_t handle, bool busy);
/* Memory pressure: drop the pages of every DONTNEED BO. */
void fake_kernel_reclaim(struct fake_kernel *fk);
unsigned fake_kernel_live_bos(struct fake_kernel *fk);
const struct fake_bo *fake_kernel_bo(struct fake_kernel *fk, uint32_t handle);

extern const struct pan_kmod_ops fake_kmod_ops;

#endif /* PAN_FAKE_KMOD_H */
