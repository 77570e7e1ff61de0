/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The kernel interface the device layer talks to, as a small vtable.
 *
 * pan_kmod_drm_ops is the real thing (panfrost ioctls on a render node);
 * unit tests plug in an in-process fake kernel so the device and BO cache
 * logic run without hardware or drm-shim.
 *
 * Every operation returns 0 or a negative errno.
 */

#ifndef PAN_KMOD_H
#define PAN_KMOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Kernel-side BO creation flags (the PANFROST_BO_* values). */
#define PAN_KMOD_BO_NOEXEC (1u << 0)
#define PAN_KMOD_BO_HEAP (1u << 1)

/* Wait "forever". */
#define PAN_KMOD_TIMEOUT_INFINITE INT64_MAX

struct pan_kmod_submit {
   uint64_t jc_gpu_va;       /* first job of the chain */
   const uint32_t *in_syncs; /* syncobj handles to wait on */
   uint32_t in_sync_count;
   uint32_t out_sync;          /* syncobj to signal, 0 for none */
   const uint32_t *bo_handles; /* BOs the job uses */
   uint32_t bo_handle_count;
   uint32_t requirements; /* PANFROST_JD_REQ_* */
};

struct pan_kmod;

struct pan_kmod_ops {
   /* Kernel driver name, as drmGetVersion reports it. */
   int (*get_driver_name)(const struct pan_kmod *k, char *name,
                          size_t name_size);
   /* DRM_PANFROST_PARAM_*; -EINVAL when the kernel does not know it. */
   int (*get_param)(const struct pan_kmod *k, uint32_t param, uint64_t *value);
   int (*bo_create)(const struct pan_kmod *k, uint32_t size_B, uint32_t kflags,
                    uint32_t *handle, uint64_t *gpu_va);
   int (*bo_close)(const struct pan_kmod *k, uint32_t handle);
   int (*bo_get_gpu_va)(const struct pan_kmod *k, uint32_t handle,
                        uint64_t *gpu_va);
   int (*bo_mmap_offset)(const struct pan_kmod *k, uint32_t handle,
                         uint64_t *offset);
   /* Map size_B bytes at an offset from bo_mmap_offset; NULL on failure. */
   void *(*mmap)(const struct pan_kmod *k, uint64_t offset, size_t size_B);
   void (*munmap)(const struct pan_kmod *k, void *cpu, size_t size_B);
   /* Relative timeout; 0 polls. 0 when idle, -EBUSY/-ETIMEDOUT when not. */
   int (*bo_wait)(const struct pan_kmod *k, uint32_t handle,
                  int64_t timeout_ns);
   /* willneed false: contents may be discarded. With willneed true,
    * *retained tells whether the pages survived.
    */
   int (*madvise)(const struct pan_kmod *k, uint32_t handle, bool willneed,
                  bool *retained);
   int (*submit)(const struct pan_kmod *k, const struct pan_kmod_submit *s);
   int (*prime_export)(const struct pan_kmod *k, uint32_t handle,
                       int *dmabuf_fd);
   /* Also returns the buffer size (0 if unknown), which the handle alone
    * does not tell.
    */
   int (*prime_import)(const struct pan_kmod *k, int dmabuf_fd,
                       uint32_t *handle, uint64_t *size_B);

   /* DRM syncobjs: what a submit signals and fences wait on. */
   int (*syncobj_create)(const struct pan_kmod *k, bool signaled,
                         uint32_t *handle);
   int (*syncobj_destroy)(const struct pan_kmod *k, uint32_t handle);
   /* Waits until every one of the count syncobjs is signalled. Relative
    * timeout as for bo_wait (0 polls, PAN_KMOD_TIMEOUT_INFINITE blocks);
    * -ETIMEDOUT when one is still unsignalled at the deadline.
    */
   int (*syncobj_wait)(const struct pan_kmod *k, const uint32_t *handles,
                       uint32_t count, int64_t timeout_ns);
   /* A sync_file fd (the caller's to close) for the syncobj's fence. */
   int (*syncobj_export_sync_file)(const struct pan_kmod *k, uint32_t handle,
                                   int *sync_file_fd);

   /* Release the device fd. */
   void (*close)(struct pan_kmod *k);
};

struct pan_kmod {
   const struct pan_kmod_ops *ops;
   int fd;
   /* Backend private data (the fake kernel for tests). */
   void *priv;
};

/* The render-node implementation. */
extern const struct pan_kmod_ops pan_kmod_drm_ops;

#ifdef __cplusplus
}
#endif

#endif /* PAN_KMOD_H */
