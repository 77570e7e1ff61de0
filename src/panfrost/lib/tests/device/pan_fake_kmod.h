/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * An in-process stand-in for the panfrost kernel driver, behind the
 * pan_kmod vtable. It keeps just enough state to check what the device
 * layer asks for: parameters, BOs with GPU addresses and memory, busy
 * flags, madvise state with simulated reclaim, dma-bufs backed by memfds,
 * syncobjs, submits and failure injection. Thread-safe.
 *
 * A submit "runs" at once: unless told otherwise, it writes DONE into the
 * first job's header (through the genxml packer of the GPU's architecture)
 * and signals its out syncobj. The next submit can instead be made to
 * hang (its syncobj never signals), fail in the kernel, or fault.
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
#define FAKE_MAX_SYNCOBJS 256
#define FAKE_MAX_SUBMIT_BOS 1024

enum fake_syncobj_state {
   FAKE_SYNCOBJ_FREE = 0,
   FAKE_SYNCOBJ_EMPTY,    /* no fence yet: waiting on it is -EINVAL */
   FAKE_SYNCOBJ_PENDING,  /* attached to a submit that never completes */
   FAKE_SYNCOBJ_SIGNALED,
};

/* What the next submit does. */
enum fake_submit_mode {
   FAKE_SUBMIT_RUN = 0, /* job DONE, out syncobj signalled */
   FAKE_SUBMIT_HANG,    /* accepted, never completes */
   FAKE_SUBMIT_FAIL,    /* the ioctl fails with submit_error */
   FAKE_SUBMIT_FAULT,   /* job ends with fault_status, syncobj signalled */
};

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

   enum fake_syncobj_state syncobjs[FAKE_MAX_SYNCOBJS]; /* index = handle */

   /* The next submit (back to FAKE_SUBMIT_RUN after it). */
   enum fake_submit_mode next_submit;
   int submit_error;
   uint32_t fault_status;
   uint64_t fault_va;

   /* The last accepted submit, as the kernel saw it. */
   uint64_t last_jc;
   uint32_t last_requirements;
   uint32_t last_out_sync;
   uint32_t last_in_sync_count;
   uint32_t last_bo_count;
   uint32_t last_bo_handles[FAKE_MAX_SUBMIT_BOS];

   /* Counters. */
   unsigned creates;
   unsigned imports; /* handles made for foreign dma-bufs */
   unsigned closes;
   unsigned waits;
   unsigned mmaps;
   unsigned munmaps;
   unsigned dontneeds;
   unsigned willneeds;
   unsigned submits; /* accepted */
   unsigned syncobj_creates;
   unsigned syncobj_destroys;
   unsigned syncobj_waits;
   unsigned sync_file_exports;
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

/* Set what the next submit does (see enum fake_submit_mode). */
void fake_kernel_hang_next_submit(struct fake_kernel *fk);
void fake_kernel_fail_next_submit(struct fake_kernel *fk, int err);
void fake_kernel_fault_next_submit(struct fake_kernel *fk,
                                   uint32_t exception_status,
                                   uint64_t fault_va);

enum fake_syncobj_state fake_kernel_syncobj_state(struct fake_kernel *fk,
                                                  uint32_t handle);
unsigned fake_kernel_live_syncobjs(struct fake_kernel *fk);

extern const struct pan_kmod_ops fake_kmod_ops;

#endif /* PAN_FAKE_KMOD_H */
