/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include "pan_submit.h"

#include <errno.h>

#include "pan_bo.h"

void
pan_device_set_submit_hook(struct pan_device *dev, pan_submit_hook_fn fn,
                           void *data)
{
   dev->submit_hook = fn;
   dev->submit_hook_data = fn ? data : NULL;
}

int
pan_submit_jc(struct pan_device *dev, const struct pan_submit *s)
{
   uint32_t handles[PAN_SUBMIT_MAX_BOS];

   if (!s->jc_gpu_va || (s->bo_count && !s->bos) ||
       (s->in_sync_count && !s->in_syncs)) {
      pan_device_log_error(dev, "malformed submit (chain 0x%llx, %u BOs)",
                           (unsigned long long)s->jc_gpu_va, s->bo_count);
      return -EINVAL;
   }
   if (s->bo_count > PAN_SUBMIT_MAX_BOS) {
      pan_device_log_error(dev, "submit names %u BOs, more than the %u allowed",
                           s->bo_count, PAN_SUBMIT_MAX_BOS);
      return -E2BIG;
   }
   for (unsigned i = 0; i < s->bo_count; ++i) {
      if (!s->bos[i]) {
         pan_device_log_error(dev, "submit BO %u of %u is NULL", i,
                              s->bo_count);
         return -EINVAL;
      }
      handles[i] = s->bos[i]->handle;
   }

   if (dev->submit_hook)
      dev->submit_hook(dev->submit_hook_data, dev, s);

   struct pan_kmod_submit ks = {
      .jc_gpu_va = s->jc_gpu_va,
      .in_syncs = s->in_syncs,
      .in_sync_count = s->in_sync_count,
      .out_sync = s->out_sync,
      .bo_handles = handles,
      .bo_handle_count = s->bo_count,
      .requirements = s->requirements,
   };
   return dev->kmod.ops->submit(&dev->kmod, &ks);
}

int
pan_syncobj_create(struct pan_device *dev, bool signaled, uint32_t *handle)
{
   return dev->kmod.ops->syncobj_create(&dev->kmod, signaled, handle);
}

int
pan_syncobj_destroy(struct pan_device *dev, uint32_t handle)
{
   return dev->kmod.ops->syncobj_destroy(&dev->kmod, handle);
}

int
pan_syncobj_wait(struct pan_device *dev, const uint32_t *handles,
                 unsigned count, int64_t timeout_ns)
{
   if (count && !handles)
      return -EINVAL;
   return dev->kmod.ops->syncobj_wait(&dev->kmod, handles, count, timeout_ns);
}

int
pan_syncobj_export_sync_file(struct pan_device *dev, uint32_t handle,
                             int *sync_file_fd)
{
   return dev->kmod.ops->syncobj_export_sync_file(&dev->kmod, handle,
                                                  sync_file_fd);
}
