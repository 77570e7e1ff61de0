/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* pan_kmod backend for the panfrost kernel driver on a render node. */

#include "pan_kmod.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>

#include "drm-uapi/panfrost_drm.h"

/* libdrm reports failure as -1 + errno from drmIoctl, as -errno itself
 * from some syncobj calls, and drm-shim hands back -errno directly: fold
 * them all into -errno.
 */
static int
drm_result(int ret)
{
   if (ret == 0)
      return 0;
   if (ret == -1)
      return errno ? -errno : -EIO;
   return ret < 0 ? ret : -EIO;
}

static int
drm_call(int fd, unsigned long request, void *arg)
{
   return drm_result(drmIoctl(fd, request, arg));
}

static int
drm_get_driver_name(const struct pan_kmod *k, char *name, size_t name_size)
{
   drmVersionPtr version = drmGetVersion(k->fd);

   if (!version)
      return errno ? -errno : -ENODEV;

   snprintf(name, name_size, "%s", version->name ? version->name : "");
   drmFreeVersion(version);
   return 0;
}

static int
drm_get_param(const struct pan_kmod *k, uint32_t param, uint64_t *value)
{
   struct drm_panfrost_get_param args = { .param = param };
   int ret = drm_call(k->fd, DRM_IOCTL_PANFROST_GET_PARAM, &args);

   if (!ret)
      *value = args.value;
   return ret;
}

static int
drm_bo_create(const struct pan_kmod *k, uint32_t size_B, uint32_t kflags,
              uint32_t *handle, uint64_t *gpu_va)
{
   struct drm_panfrost_create_bo args = { .size = size_B };
   int ret;

   if (kflags & PAN_KMOD_BO_NOEXEC)
      args.flags |= PANFROST_BO_NOEXEC;
   if (kflags & PAN_KMOD_BO_HEAP)
      args.flags |= PANFROST_BO_HEAP;

   ret = drm_call(k->fd, DRM_IOCTL_PANFROST_CREATE_BO, &args);
   if (!ret) {
      *handle = args.handle;
      *gpu_va = args.offset;
   }
   return ret;
}

static int
drm_bo_close(const struct pan_kmod *k, uint32_t handle)
{
   struct drm_gem_close args = { .handle = handle };

   return drm_call(k->fd, DRM_IOCTL_GEM_CLOSE, &args);
}

static int
drm_bo_get_gpu_va(const struct pan_kmod *k, uint32_t handle, uint64_t *gpu_va)
{
   struct drm_panfrost_get_bo_offset args = { .handle = handle };
   int ret = drm_call(k->fd, DRM_IOCTL_PANFROST_GET_BO_OFFSET, &args);

   if (!ret)
      *gpu_va = args.offset;
   return ret;
}

static int
drm_bo_mmap_offset(const struct pan_kmod *k, uint32_t handle, uint64_t *offset)
{
   struct drm_panfrost_mmap_bo args = { .handle = handle };
   int ret = drm_call(k->fd, DRM_IOCTL_PANFROST_MMAP_BO, &args);

   if (!ret)
      *offset = args.offset;
   return ret;
}

static void *
drm_mmap(const struct pan_kmod *k, uint64_t offset, size_t size_B)
{
   void *cpu = mmap(NULL, size_B, PROT_READ | PROT_WRITE, MAP_SHARED, k->fd,
                    (off_t)offset);

   return cpu == MAP_FAILED ? NULL : cpu;
}

static void
drm_munmap(const struct pan_kmod *k, void *cpu, size_t size_B)
{
   (void)k;
   munmap(cpu, size_B);
}

/* The kernel takes an absolute CLOCK_MONOTONIC deadline; a deadline in the
 * past (0) turns the wait into a poll.
 */
static int64_t
abs_deadline_ns(int64_t timeout_ns)
{
   struct timespec ts;
   int64_t now_ns;

   if (timeout_ns <= 0)
      return 0;

   clock_gettime(CLOCK_MONOTONIC, &ts);
   now_ns = (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;

   if (timeout_ns > INT64_MAX - now_ns)
      return INT64_MAX;
   return now_ns + timeout_ns;
}

static int
drm_bo_wait(const struct pan_kmod *k, uint32_t handle, int64_t timeout_ns)
{
   struct drm_panfrost_wait_bo args = {
      .handle = handle,
      .timeout_ns = abs_deadline_ns(timeout_ns),
   };

   return drm_call(k->fd, DRM_IOCTL_PANFROST_WAIT_BO, &args);
}

static int
drm_madvise(const struct pan_kmod *k, uint32_t handle, bool willneed,
            bool *retained)
{
   struct drm_panfrost_madvise args = {
      .handle = handle,
      .madv = willneed ? PANFROST_MADV_WILLNEED : PANFROST_MADV_DONTNEED,
   };
   int ret = drm_call(k->fd, DRM_IOCTL_PANFROST_MADVISE, &args);

   if (!ret && retained)
      *retained = args.retained != 0;
   return ret;
}

static int
drm_submit(const struct pan_kmod *k, const struct pan_kmod_submit *s)
{
   struct drm_panfrost_submit args = {
      .jc = s->jc_gpu_va,
      .in_syncs = (uintptr_t)s->in_syncs,
      .in_sync_count = s->in_sync_count,
      .out_sync = s->out_sync,
      .bo_handles = (uintptr_t)s->bo_handles,
      .bo_handle_count = s->bo_handle_count,
      .requirements = s->requirements,
   };

   return drm_call(k->fd, DRM_IOCTL_PANFROST_SUBMIT, &args);
}

static int
drm_prime_export(const struct pan_kmod *k, uint32_t handle, int *dmabuf_fd)
{
   int ret =
      drmPrimeHandleToFD(k->fd, handle, DRM_CLOEXEC | DRM_RDWR, dmabuf_fd);

   return ret ? (errno ? -errno : -EIO) : 0;
}

static int
drm_prime_import(const struct pan_kmod *k, int dmabuf_fd, uint32_t *handle,
                 uint64_t *size_B)
{
   off_t end;

   if (drmPrimeFDToHandle(k->fd, dmabuf_fd, handle))
      return errno ? -errno : -EIO;

   /* A dma-buf reports its size through lseek; 0 means unknown and the
    * caller decides (the handle may belong to a BO it already has).
    */
   end = lseek(dmabuf_fd, 0, SEEK_END);
   *size_B = end > 0 ? (uint64_t)end : 0;
   return 0;
}

static int
drm_syncobj_create(const struct pan_kmod *k, bool signaled, uint32_t *handle)
{
   return drm_result(drmSyncobjCreate(
      k->fd, signaled ? DRM_SYNCOBJ_CREATE_SIGNALED : 0, handle));
}

static int
drm_syncobj_destroy(const struct pan_kmod *k, uint32_t handle)
{
   return drm_result(drmSyncobjDestroy(k->fd, handle));
}

static int
drm_syncobj_wait(const struct pan_kmod *k, const uint32_t *handles,
                 uint32_t count, int64_t timeout_ns)
{
   /* libdrm's prototype is not const-correct; the handles are only read. */
   int ret = drm_result(drmSyncobjWait(
      k->fd, (uint32_t *)handles, count, abs_deadline_ns(timeout_ns),
      DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, NULL));

   /* The kernel says ETIME; bo_wait and our callers speak ETIMEDOUT. */
   return ret == -ETIME ? -ETIMEDOUT : ret;
}

static int
drm_syncobj_export_sync_file(const struct pan_kmod *k, uint32_t handle,
                             int *sync_file_fd)
{
   *sync_file_fd = -1;
   return drm_result(drmSyncobjExportSyncFile(k->fd, handle, sync_file_fd));
}

static void
drm_close(struct pan_kmod *k)
{
   if (k->fd >= 0)
      close(k->fd);
   k->fd = -1;
}

const struct pan_kmod_ops pan_kmod_drm_ops = {
   .get_driver_name = drm_get_driver_name,
   .get_param = drm_get_param,
   .bo_create = drm_bo_create,
   .bo_close = drm_bo_close,
   .bo_get_gpu_va = drm_bo_get_gpu_va,
   .bo_mmap_offset = drm_bo_mmap_offset,
   .mmap = drm_mmap,
   .munmap = drm_munmap,
   .bo_wait = drm_bo_wait,
   .madvise = drm_madvise,
   .submit = drm_submit,
   .prime_export = drm_prime_export,
   .prime_import = drm_prime_import,
   .syncobj_create = drm_syncobj_create,
   .syncobj_destroy = drm_syncobj_destroy,
   .syncobj_wait = drm_syncobj_wait,
   .syncobj_export_sync_file = drm_syncobj_export_sync_file,
   .close = drm_close,
};
