/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include "pan_fake_kmod.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drm-uapi/panfrost_drm.h"
#include "pan_job.h"
#include "pan_model.h"

#define FAKE(k) ((struct fake_kernel *)(k)->priv)

void
fake_kernel_init(struct fake_kernel *fk)
{
   memset(fk, 0, sizeof(*fk));
   pthread_mutex_init(&fk->lock, NULL);
   snprintf(fk->driver_name, sizeof(fk->driver_name), "panfrost");
   fk->next_gpu_va = 0x1000000;

   uint64_t *p = fk->params;
   p[DRM_PANFROST_PARAM_GPU_PROD_ID] = 0x7212;
   p[DRM_PANFROST_PARAM_GPU_REVISION] = 0x0010;
   p[DRM_PANFROST_PARAM_SHADER_PRESENT] = 0x3;
   p[DRM_PANFROST_PARAM_TILER_PRESENT] = 0x1;
   p[DRM_PANFROST_PARAM_L2_PRESENT] = 0x1;
   p[DRM_PANFROST_PARAM_AS_PRESENT] = 0xff;
   p[DRM_PANFROST_PARAM_JS_PRESENT] = 0x7;
   p[DRM_PANFROST_PARAM_L2_FEATURES] = 0x07110206;
   p[DRM_PANFROST_PARAM_TILER_FEATURES] = 0x809;
   p[DRM_PANFROST_PARAM_MEM_FEATURES] = 0x101; /* 2 L2 slices */
   p[DRM_PANFROST_PARAM_MMU_FEATURES] = 0x2830;
   p[DRM_PANFROST_PARAM_THREAD_FEATURES] = 0x4000400;
   p[DRM_PANFROST_PARAM_MAX_THREADS] = 768;
   p[DRM_PANFROST_PARAM_THREAD_MAX_WORKGROUP_SZ] = 384;
   p[DRM_PANFROST_PARAM_THREAD_MAX_BARRIER_SZ] = 384;
   p[DRM_PANFROST_PARAM_TEXTURE_FEATURES0] = 0xfe001e;
   p[DRM_PANFROST_PARAM_TEXTURE_FEATURES1] = 0x11;
   p[DRM_PANFROST_PARAM_TEXTURE_FEATURES2] = 0x22;
   p[DRM_PANFROST_PARAM_TEXTURE_FEATURES3] = 0x33;
   p[DRM_PANFROST_PARAM_JS_FEATURES0] = 0x20e;
   p[DRM_PANFROST_PARAM_JS_FEATURES1] = 0x1fe;
   p[DRM_PANFROST_PARAM_JS_FEATURES2] = 0x7e;
   p[DRM_PANFROST_PARAM_NR_CORE_GROUPS] = 1;
   p[DRM_PANFROST_PARAM_THREAD_TLS_ALLOC] = 384;
   p[DRM_PANFROST_PARAM_AFBC_FEATURES] = 0;
}

void
fake_kernel_fini(struct fake_kernel *fk)
{
   for (unsigned h = 1; h < FAKE_MAX_BOS; h++) {
      free(fk->bos[h].mem);
      if (fk->bos[h].live && fk->bos[h].dmabuf_fd >= 0)
         close(fk->bos[h].dmabuf_fd);
   }
   pthread_mutex_destroy(&fk->lock);
}

void
fake_kernel_fail_param(struct fake_kernel *fk, uint32_t param, int err)
{
   fk->param_error[param] = err;
}

void
fake_kernel_set_param(struct fake_kernel *fk, uint32_t param, uint64_t value)
{
   fk->params[param] = value;
   fk->param_error[param] = 0;
}

void
fake_kernel_set_busy(struct fake_kernel *fk, uint32_t handle, bool busy)
{
   pthread_mutex_lock(&fk->lock);
   fk->bos[handle].busy = busy;
   pthread_mutex_unlock(&fk->lock);
}

void
fake_kernel_reclaim(struct fake_kernel *fk)
{
   pthread_mutex_lock(&fk->lock);
   for (unsigned h = 1; h < FAKE_MAX_BOS; h++) {
      if (fk->bos[h].live && fk->bos[h].dontneed)
         fk->bos[h].purged = true;
   }
   pthread_mutex_unlock(&fk->lock);
}

unsigned
fake_kernel_live_bos(struct fake_kernel *fk)
{
   unsigned n = 0;

   pthread_mutex_lock(&fk->lock);
   for (unsigned h = 1; h < FAKE_MAX_BOS; h++)
      n += fk->bos[h].live;
   pthread_mutex_unlock(&fk->lock);
   return n;
}

const struct fake_bo *
fake_kernel_bo(struct fake_kernel *fk, uint32_t handle)
{
   return handle && handle < FAKE_MAX_BOS ? &fk->bos[handle] : NULL;
}

void
fake_kernel_hang_next_submit(struct fake_kernel *fk)
{
   pthread_mutex_lock(&fk->lock);
   fk->next_submit = FAKE_SUBMIT_HANG;
   pthread_mutex_unlock(&fk->lock);
}

void
fake_kernel_fail_next_submit(struct fake_kernel *fk, int err)
{
   pthread_mutex_lock(&fk->lock);
   fk->next_submit = FAKE_SUBMIT_FAIL;
   fk->submit_error = err;
   pthread_mutex_unlock(&fk->lock);
}

void
fake_kernel_fault_next_submit(struct fake_kernel *fk,
                              uint32_t exception_status, uint64_t fault_va)
{
   pthread_mutex_lock(&fk->lock);
   fk->next_submit = FAKE_SUBMIT_FAULT;
   fk->fault_status = exception_status;
   fk->fault_va = fault_va;
   pthread_mutex_unlock(&fk->lock);
}

enum fake_syncobj_state
fake_kernel_syncobj_state(struct fake_kernel *fk, uint32_t handle)
{
   enum fake_syncobj_state st = FAKE_SYNCOBJ_FREE;

   pthread_mutex_lock(&fk->lock);
   if (handle < FAKE_MAX_SYNCOBJS)
      st = fk->syncobjs[handle];
   pthread_mutex_unlock(&fk->lock);
   return st;
}

unsigned
fake_kernel_live_syncobjs(struct fake_kernel *fk)
{
   unsigned n = 0;

   pthread_mutex_lock(&fk->lock);
   for (unsigned h = 1; h < FAKE_MAX_SYNCOBJS; h++)
      n += fk->syncobjs[h] != FAKE_SYNCOBJ_FREE;
   pthread_mutex_unlock(&fk->lock);
   return n;
}

/* ---- pan_kmod_ops ---- */

static struct fake_bo *
lookup(struct fake_kernel *fk, uint32_t handle)
{
   if (!handle || handle >= FAKE_MAX_BOS || !fk->bos[handle].live)
      return NULL;
   return &fk->bos[handle];
}

static int
fk_get_driver_name(const struct pan_kmod *k, char *name, size_t size)
{
   struct fake_kernel *fk = FAKE(k);

   if (fk->version_error)
      return fk->version_error;
   snprintf(name, size, "%s", fk->driver_name);
   return 0;
}

static int
fk_get_param(const struct pan_kmod *k, uint32_t param, uint64_t *value)
{
   struct fake_kernel *fk = FAKE(k);

   if (param >= FAKE_MAX_PARAMS || param > DRM_PANFROST_PARAM_AFBC_FEATURES)
      return -EINVAL;
   if (fk->param_error[param])
      return fk->param_error[param];
   *value = fk->params[param];
   return 0;
}

/* Caller holds the lock. */
static uint32_t
new_handle(struct fake_kernel *fk, uint32_t size_B, uint32_t kflags)
{
   for (uint32_t h = 1; h < FAKE_MAX_BOS; h++) {
      struct fake_bo *bo = &fk->bos[h];

      if (bo->live)
         continue;

      free(bo->mem);
      memset(bo, 0, sizeof(*bo));
      bo->dmabuf_fd = -1;
      bo->mem = calloc(1, size_B);
      if (!bo->mem)
         return 0;
      bo->live = true;
      bo->size_B = size_B;
      bo->kflags = kflags;
      bo->gpu_va = fk->next_gpu_va;
      fk->next_gpu_va += (size_B + 0xffffull) & ~0xffffull;
      return h;
   }
   return 0;
}

static int
fk_bo_create(const struct pan_kmod *k, uint32_t size_B, uint32_t kflags,
             uint32_t *handle, uint64_t *gpu_va)
{
   struct fake_kernel *fk = FAKE(k);
   int ret = 0;

   pthread_mutex_lock(&fk->lock);
   fk->last_create_kflags = kflags;

   /* The real kernel's argument checks. */
   if (!size_B || (kflags & ~(PAN_KMOD_BO_NOEXEC | PAN_KMOD_BO_HEAP)) ||
       ((kflags & PAN_KMOD_BO_HEAP) && !(kflags & PAN_KMOD_BO_NOEXEC))) {
      ret = -EINVAL;
   } else if (fk->fail_creates) {
      fk->fail_creates--;
      ret = -ENOMEM;
   } else {
      *handle = new_handle(fk, size_B, kflags);
      if (!*handle)
         ret = -ENOMEM;
      else
         *gpu_va = fk->bos[*handle].gpu_va;
   }

   if (!ret)
      fk->creates++;
   pthread_mutex_unlock(&fk->lock);
   return ret;
}

static int
fk_bo_close(const struct pan_kmod *k, uint32_t handle)
{
   struct fake_kernel *fk = FAKE(k);
   int ret = 0;

   pthread_mutex_lock(&fk->lock);
   struct fake_bo *bo = lookup(fk, handle);
   if (bo) {
      bo->live = false;
      free(bo->mem);
      bo->mem = NULL;
      if (bo->dmabuf_fd >= 0)
         close(bo->dmabuf_fd);
      bo->dmabuf_fd = -1;
      fk->closes++;
   } else {
      ret = -EINVAL;
   }
   pthread_mutex_unlock(&fk->lock);
   return ret;
}

static int
fk_bo_get_gpu_va(const struct pan_kmod *k, uint32_t handle, uint64_t *va)
{
   struct fake_kernel *fk = FAKE(k);
   int ret = -ENOENT;

   pthread_mutex_lock(&fk->lock);
   struct fake_bo *bo = lookup(fk, handle);
   if (bo) {
      *va = bo->gpu_va;
      ret = 0;
   }
   pthread_mutex_unlock(&fk->lock);
   return ret;
}

static int
fk_bo_mmap_offset(const struct pan_kmod *k, uint32_t handle, uint64_t *offset)
{
   struct fake_kernel *fk = FAKE(k);
   int ret = -ENOENT;

   pthread_mutex_lock(&fk->lock);
   struct fake_bo *bo = lookup(fk, handle);
   if (bo) {
      /* Heap BOs cannot be mapped, as with the real driver. */
      ret = (bo->kflags & PAN_KMOD_BO_HEAP) ? -EINVAL : 0;
      *offset = (uint64_t)handle << 32;
   }
   pthread_mutex_unlock(&fk->lock);
   return ret;
}

static void *
fk_mmap(const struct pan_kmod *k, uint64_t offset, size_t size_B)
{
   struct fake_kernel *fk = FAKE(k);
   void *cpu = NULL;

   pthread_mutex_lock(&fk->lock);
   struct fake_bo *bo = lookup(fk, (uint32_t)(offset >> 32));
   if (bo && size_B <= bo->size_B) {
      cpu = bo->mem;
      fk->mmaps++;
   }
   pthread_mutex_unlock(&fk->lock);
   return cpu;
}

static void
fk_munmap(const struct pan_kmod *k, void *cpu, size_t size_B)
{
   struct fake_kernel *fk = FAKE(k);

   (void)cpu;
   (void)size_B;
   pthread_mutex_lock(&fk->lock);
   fk->munmaps++;
   pthread_mutex_unlock(&fk->lock);
}

static int
fk_bo_wait(const struct pan_kmod *k, uint32_t handle, int64_t timeout_ns)
{
   struct fake_kernel *fk = FAKE(k);
   int ret;

   pthread_mutex_lock(&fk->lock);
   fk->waits++;
   struct fake_bo *bo = lookup(fk, handle);
   if (!bo)
      ret = -ENOENT;
   else if (bo->busy)
      ret = timeout_ns ? -ETIMEDOUT : -EBUSY;
   else
      ret = 0;
   pthread_mutex_unlock(&fk->lock);
   return ret;
}

static int
fk_madvise(const struct pan_kmod *k, uint32_t handle, bool willneed,
           bool *retained)
{
   struct fake_kernel *fk = FAKE(k);
   int ret = -ENOENT;

   pthread_mutex_lock(&fk->lock);
   struct fake_bo *bo = lookup(fk, handle);
   if (bo) {
      ret = 0;
      if (willneed) {
         fk->willneeds++;
         bo->dontneed = false;
      } else {
         fk->dontneeds++;
         bo->dontneed = true;
      }
      if (retained)
         *retained = !bo->purged;
   }
   pthread_mutex_unlock(&fk->lock);
   return ret;
}

/* Caller holds the lock. */
static bool
syncobj_live(struct fake_kernel *fk, uint32_t handle)
{
   return handle && handle < FAKE_MAX_SYNCOBJS &&
          fk->syncobjs[handle] != FAKE_SYNCOBJ_FREE;
}

/* The CPU view of a GPU address inside a live BO with at least size_B
 * bytes behind it, or NULL. Caller holds the lock.
 */
static void *
gpu_to_cpu(struct fake_kernel *fk, uint64_t va, uint64_t size_B)
{
   for (uint32_t h = 1; h < FAKE_MAX_BOS; h++) {
      struct fake_bo *bo = &fk->bos[h];

      if (bo->live && bo->mem && va >= bo->gpu_va &&
          va - bo->gpu_va + size_B <= bo->size_B)
         return (uint8_t *)bo->mem + (va - bo->gpu_va);
   }
   return NULL;
}

/* What the GPU would leave in the first job's header. A chain outside
 * every BO would be an MMU fault on hardware; here nothing is written.
 * Caller holds the lock.
 */
static void
finish_job(struct fake_kernel *fk, uint64_t jc, uint32_t status,
           uint64_t fault_va)
{
   unsigned arch =
      pan_arch_from_prod_id((uint32_t)fk->params[DRM_PANFROST_PARAM_GPU_PROD_ID]);
   unsigned size_B = pan_job_header_size_B(arch);
   void *header = size_B ? gpu_to_cpu(fk, jc, size_B) : NULL;

   if (header)
      pan_job_write_status(arch, header, status, fault_va);
}

/* The kernel's checks first: every BO and syncobj named must exist. */
static int
fk_submit(const struct pan_kmod *k, const struct pan_kmod_submit *s)
{
   struct fake_kernel *fk = FAKE(k);
   int ret = 0;

   pthread_mutex_lock(&fk->lock);
   enum fake_submit_mode mode = fk->next_submit;
   fk->next_submit = FAKE_SUBMIT_RUN;

   if (!s->jc_gpu_va || s->bo_handle_count > FAKE_MAX_SUBMIT_BOS)
      ret = -EINVAL;
   for (uint32_t i = 0; !ret && i < s->bo_handle_count; i++) {
      if (!lookup(fk, s->bo_handles[i]))
         ret = -ENOENT;
   }
   for (uint32_t i = 0; !ret && i < s->in_sync_count; i++) {
      if (!syncobj_live(fk, s->in_syncs[i]))
         ret = -ENOENT;
   }
   if (!ret && s->out_sync && !syncobj_live(fk, s->out_sync))
      ret = -ENOENT;
   if (!ret && mode == FAKE_SUBMIT_FAIL)
      ret = fk->submit_error ? fk->submit_error : -EIO;

   if (!ret) {
      fk->submits++;
      fk->last_jc = s->jc_gpu_va;
      fk->last_requirements = s->requirements;
      fk->last_out_sync = s->out_sync;
      fk->last_in_sync_count = s->in_sync_count;
      fk->last_bo_count = s->bo_handle_count;
      if (s->bo_handle_count) {
         memcpy(fk->last_bo_handles, s->bo_handles,
                s->bo_handle_count * sizeof(*s->bo_handles));
      }

      if (mode == FAKE_SUBMIT_FAULT)
         finish_job(fk, s->jc_gpu_va, fk->fault_status, fk->fault_va);
      else if (mode == FAKE_SUBMIT_RUN)
         finish_job(fk, s->jc_gpu_va, PAN_JOB_EXCEPTION(DONE), 0);

      if (s->out_sync) {
         fk->syncobjs[s->out_sync] = mode == FAKE_SUBMIT_HANG
                                        ? FAKE_SYNCOBJ_PENDING
                                        : FAKE_SYNCOBJ_SIGNALED;
      }
   }
   pthread_mutex_unlock(&fk->lock);
   return ret;
}

static int
fk_syncobj_create(const struct pan_kmod *k, bool signaled, uint32_t *handle)
{
   struct fake_kernel *fk = FAKE(k);
   int ret = -ENOMEM;

   pthread_mutex_lock(&fk->lock);
   for (uint32_t h = 1; h < FAKE_MAX_SYNCOBJS; h++) {
      if (fk->syncobjs[h] == FAKE_SYNCOBJ_FREE) {
         fk->syncobjs[h] =
            signaled ? FAKE_SYNCOBJ_SIGNALED : FAKE_SYNCOBJ_EMPTY;
         fk->syncobj_creates++;
         *handle = h;
         ret = 0;
         break;
      }
   }
   pthread_mutex_unlock(&fk->lock);
   return ret;
}

static int
fk_syncobj_destroy(const struct pan_kmod *k, uint32_t handle)
{
   struct fake_kernel *fk = FAKE(k);
   int ret = -EINVAL;

   pthread_mutex_lock(&fk->lock);
   if (syncobj_live(fk, handle)) {
      fk->syncobjs[handle] = FAKE_SYNCOBJ_FREE;
      fk->syncobj_destroys++;
      ret = 0;
   }
   pthread_mutex_unlock(&fk->lock);
   return ret;
}

/* Nothing completes later in the fake, so a wait never sleeps: what is
 * not signalled now would time out.
 */
static int
fk_syncobj_wait(const struct pan_kmod *k, const uint32_t *handles,
                uint32_t count, int64_t timeout_ns)
{
   struct fake_kernel *fk = FAKE(k);
   int ret = 0;

   (void)timeout_ns;
   pthread_mutex_lock(&fk->lock);
   fk->syncobj_waits++;
   if (!count)
      ret = -EINVAL;
   for (uint32_t i = 0; !ret && i < count; i++) {
      if (!syncobj_live(fk, handles[i]))
         ret = -ENOENT;
      else if (fk->syncobjs[handles[i]] == FAKE_SYNCOBJ_EMPTY)
         ret = -EINVAL; /* the kernel's answer without WAIT_FOR_SUBMIT */
   }
   for (uint32_t i = 0; !ret && i < count; i++) {
      if (fk->syncobjs[handles[i]] != FAKE_SYNCOBJ_SIGNALED)
         ret = -ETIMEDOUT;
   }
   pthread_mutex_unlock(&fk->lock);
   return ret;
}

/* A sync_file is a memfd here: any fd the caller can close will do. */
static int
fk_syncobj_export_sync_file(const struct pan_kmod *k, uint32_t handle,
                            int *fd_out)
{
   struct fake_kernel *fk = FAKE(k);
   int ret = 0;

   pthread_mutex_lock(&fk->lock);
   *fd_out = -1;
   if (!syncobj_live(fk, handle) ||
       fk->syncobjs[handle] == FAKE_SYNCOBJ_EMPTY) {
      ret = -EINVAL;
   } else {
      *fd_out = memfd_create("fake-sync-file", MFD_CLOEXEC);
      if (*fd_out < 0)
         ret = -EMFILE;
      else
         fk->sync_file_exports++;
   }
   pthread_mutex_unlock(&fk->lock);
   return ret;
}

/* dma-bufs are memfds; a buffer is identified by its inode. Caller holds
 * the lock.
 */
static int
attach_dmabuf(struct fake_bo *bo, int fd)
{
   struct stat st;

   if (fd < 0 || fstat(fd, &st)) {
      if (fd >= 0)
         close(fd);
      return -EIO;
   }
   bo->dmabuf_fd = fd;
   bo->dmabuf_ino = st.st_ino;
   return 0;
}

static int
fk_prime_export(const struct pan_kmod *k, uint32_t handle, int *fd_out)
{
   struct fake_kernel *fk = FAKE(k);
   int ret = 0;

   pthread_mutex_lock(&fk->lock);
   struct fake_bo *bo = lookup(fk, handle);
   if (!bo) {
      ret = -ENOENT;
   } else if (bo->dmabuf_fd < 0) {
      int fd = memfd_create("fake-dmabuf", MFD_CLOEXEC);

      if (fd >= 0 && ftruncate(fd, bo->size_B)) {
         close(fd);
         fd = -1;
      }
      ret = attach_dmabuf(bo, fd);
   }

   if (!ret) {
      *fd_out = dup(bo->dmabuf_fd);
      if (*fd_out < 0)
         ret = -EMFILE;
   }
   pthread_mutex_unlock(&fk->lock);
   return ret;
}

static int
fk_prime_import(const struct pan_kmod *k, int fd, uint32_t *handle,
                uint64_t *size_B)
{
   struct fake_kernel *fk = FAKE(k);
   struct stat st;
   int ret = 0;

   if (fstat(fd, &st))
      return -EBADF;

   pthread_mutex_lock(&fk->lock);
   *handle = 0;
   for (uint32_t h = 1; h < FAKE_MAX_BOS; h++) {
      if (fk->bos[h].live && fk->bos[h].dmabuf_ino == st.st_ino)
         *handle = h;
   }

   if (!*handle) {
      *handle = new_handle(fk, (uint32_t)st.st_size, PAN_KMOD_BO_NOEXEC);
      if (*handle) {
         ret = attach_dmabuf(&fk->bos[*handle], dup(fd));
         fk->imports++;
      } else
         ret = -ENOMEM;
   }
   if (!ret)
      *size_B = fk->bos[*handle].size_B;
   pthread_mutex_unlock(&fk->lock);
   return ret;
}

static void
fk_close(struct pan_kmod *k)
{
   FAKE(k)->device_closes++;
}

const struct pan_kmod_ops fake_kmod_ops = {
   .get_driver_name = fk_get_driver_name,
   .get_param = fk_get_param,
   .bo_create = fk_bo_create,
   .bo_close = fk_bo_close,
   .bo_get_gpu_va = fk_bo_get_gpu_va,
   .bo_mmap_offset = fk_bo_mmap_offset,
   .mmap = fk_mmap,
   .munmap = fk_munmap,
   .bo_wait = fk_bo_wait,
   .madvise = fk_madvise,
   .submit = fk_submit,
   .prime_export = fk_prime_export,
   .prime_import = fk_prime_import,
   .syncobj_create = fk_syncobj_create,
   .syncobj_destroy = fk_syncobj_destroy,
   .syncobj_wait = fk_syncobj_wait,
   .syncobj_export_sync_file = fk_syncobj_export_sync_file,
   .close = fk_close,
};
