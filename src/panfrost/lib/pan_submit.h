/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Job-chain submission and the DRM syncobjs that tell when a submit is
 * done, on top of the device's kernel interface (pan_kmod), so the fake
 * kernel sees every call.
 *
 * A device may carry one submit hook, called with each chain just before
 * it goes to the kernel: the decoder registers one for PAN_MESA_DEBUG=trace
 * and dump (pan_submit_debug.h). This layer knows nothing of the decoder.
 */

#ifndef PAN_SUBMIT_H
#define PAN_SUBMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "pan_device.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pan_bo;

/* The most BOs one submit may name. The handle list lives on the stack
 * (no allocation on the submit path); a longer list is refused with
 * -E2BIG rather than cut short.
 */
#define PAN_SUBMIT_MAX_BOS 512

struct pan_submit {
   uint64_t jc_gpu_va;        /* first job of the chain */
   struct pan_bo *const *bos; /* every BO the chain may touch, no NULLs */
   unsigned bo_count;
   uint32_t requirements;    /* PANFROST_JD_REQ_* */
   const uint32_t *in_syncs; /* syncobjs to wait on first */
   unsigned in_sync_count;
   uint32_t out_sync; /* syncobj to signal, 0 for none */
};

/* One hook per device; fn NULL removes it. Not thread-safe against
 * concurrent submits: set it before submitting.
 */
void pan_device_set_submit_hook(struct pan_device *dev, pan_submit_hook_fn fn,
                                void *data);

/* Runs the hook, then submits. Returns 0, -EINVAL for a malformed submit,
 * -E2BIG for more than PAN_SUBMIT_MAX_BOS BOs (nothing reaches the kernel
 * then), or the kernel's negative errno.
 */
int pan_submit_jc(struct pan_device *dev, const struct pan_submit *s);

/* Syncobjs. All return 0 or a negative errno. */
int pan_syncobj_create(struct pan_device *dev, bool signaled, uint32_t *handle);
int pan_syncobj_destroy(struct pan_device *dev, uint32_t handle);

/* Waits for all count syncobjs. timeout_ns is relative: 0 polls,
 * PAN_KMOD_TIMEOUT_INFINITE blocks. -ETIMEDOUT when the time ran out.
 */
int pan_syncobj_wait(struct pan_device *dev, const uint32_t *handles,
                     unsigned count, int64_t timeout_ns);

/* A sync_file fd for the syncobj's current fence, the caller's to close. */
int pan_syncobj_export_sync_file(struct pan_device *dev, uint32_t handle,
                                 int *sync_file_fd);

#ifdef __cplusplus
}
#endif

#endif /* PAN_SUBMIT_H */
