/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * A panfrost kernel driver for drm-shim: LD_PRELOAD it and the driver
 * sees a Mali GPU (PAN_GPU_ID, hex product id, default 7212 = Mali-G52)
 * on a fake render node. BOs get real memory and GPU addresses. Submitted
 * job chains run on the simulator (src/panfrost/sim, pan_sim.h) as far as
 * it goes (clears, write-value jobs; PAN_SHIM_EXEC=0 turns that off) and
 * complete at once. This file is only the ioctl shell.
 *
 * The GPU ids come from the driver's own model table (pan_model).
 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "drm-shim/drm_shim.h"
#include "drm-uapi/panfrost_drm.h"
#include "util/vma.h"

#include "pan_model.h"
#include "pan_replay.h"
#include "pan_sim.h"

#define PAN_SHIM_DEFAULT_GPU 0x7212

/* The kernel's GPU address space: [32 MiB, 4 GiB). */
#define PAN_SHIM_VA_START (32ull << 20)
#define PAN_SHIM_VA_END (4ull << 30)
#define PAN_SHIM_2M (2ull << 20)
#define PAN_SHIM_PAGE 4096ull

bool drm_shim_driver_prefers_first_render_node = true;

struct pan_shim_bo {
   struct shim_bo base; /* first: the generic shim frees the whole thing */
   uint64_t gpu_va;
   uint64_t va_size_B;
   uint32_t flags;
   uint32_t madv;
   /* The shim's own view of the BO memory (the generic shim keeps BOs in
    * one memfd), for the simulator; NULL when execution is off.
    */
   void *cpu;
};

static struct {
   /* Chosen on first use (see shim_gpu). NULL when PAN_GPU_ID was not
    * usable: every ioctl then fails.
    */
   pthread_once_t chosen;
   const struct pan_model *model;
   uint32_t prod_id;
   uint64_t params[DRM_PANFROST_PARAM_AFBC_FEATURES + 1];

   pthread_mutex_t va_lock;
   struct util_vma_heap va_heap;

   /* Job execution: on unless PAN_SHIM_EXEC=0. One chain at a time, as
    * one GPU would.
    */
   bool exec;
   pthread_mutex_t exec_lock;
   /* PAN_SHIM_DUMP: the folder each submit is dumped to (with the images
    * its fragment jobs wrote), and the submits so far. */
   const char *dump_dir;
   unsigned submits;
} shim = {
   .chosen = PTHREAD_ONCE_INIT,
   .va_lock = PTHREAD_MUTEX_INITIALIZER,
   .exec_lock = PTHREAD_MUTEX_INITIALIZER,
};

/* ---- the mocked GPU ---- */

/* Representative shader core counts of shipping parts; others get a
 * per-architecture default.
 */
static unsigned
shim_core_count(const struct pan_model *m)
{
   switch (m->prod_id) {
   case 0x0720:
      return 2; /* e.g. MP2 in Allwinner H6 */
   case 0x0820:
      return 1;
   case 0x0830:
      return 2;
   case 0x7093:
      return 1; /* G31 MP2 parts exist; one core is the floor */
   case 0x9091:
   case 0x9093:
      return 5; /* G57 MC5 */
   case 0xac74:
      return 1;
   default:
      break;
   }
   return m->arch >= 6 ? 2 : 4;
}

static void
shim_fill_params(const struct pan_model *m, uint32_t prod_id)
{
   uint64_t *p = shim.params;
   unsigned arch = m->arch;
   unsigned max_threads = pan_arch_max_threads(arch);
   unsigned workgroup = arch <= 5 ? 256 : arch <= 7 ? 384 : 512;

   if (prod_id == 0x7093)
      max_threads = 512; /* G31 is smaller than the v7 maximum */

   memset(shim.params, 0, sizeof(shim.params));
   p[DRM_PANFROST_PARAM_GPU_PROD_ID] = prod_id;
   /* Old enough to have every feature the model table knows of. */
   p[DRM_PANFROST_PARAM_GPU_REVISION] =
      m->min_rev_anisotropic == PAN_MODEL_NO_ANISO ? 0 : m->min_rev_anisotropic;
   p[DRM_PANFROST_PARAM_SHADER_PRESENT] = (1ull << shim_core_count(m)) - 1;
   p[DRM_PANFROST_PARAM_TILER_PRESENT] = 0x1;
   p[DRM_PANFROST_PARAM_L2_PRESENT] = 0x1;
   p[DRM_PANFROST_PARAM_STACK_PRESENT] = 0x0;
   p[DRM_PANFROST_PARAM_AS_PRESENT] = 0xff;
   p[DRM_PANFROST_PARAM_JS_PRESENT] = 0x7;
   /* 64-byte lines, 256 KiB of L2. */
   p[DRM_PANFROST_PARAM_L2_FEATURES] = 0x07120206;
   p[DRM_PANFROST_PARAM_CORE_FEATURES] = 0x0;
   /* 512-byte bins, 8 hierarchy levels. */
   p[DRM_PANFROST_PARAM_TILER_FEATURES] = 0x809;
   /* Coherent core group, one L2 slice. */
   p[DRM_PANFROST_PARAM_MEM_FEATURES] = 0x1;
   /* 48-bit virtual, 40-bit physical addresses. */
   p[DRM_PANFROST_PARAM_MMU_FEATURES] = 0x2830;
   p[DRM_PANFROST_PARAM_THREAD_FEATURES] = arch <= 5 ? 0x0a030400 : 0x4000;
   p[DRM_PANFROST_PARAM_MAX_THREADS] = max_threads;
   p[DRM_PANFROST_PARAM_THREAD_MAX_WORKGROUP_SZ] = workgroup;
   p[DRM_PANFROST_PARAM_THREAD_MAX_BARRIER_SZ] = workgroup;
   p[DRM_PANFROST_PARAM_COHERENCY_FEATURES] = 0x1;
   /* ETC2/EAC and ASTC, as every Mali has. */
   p[DRM_PANFROST_PARAM_TEXTURE_FEATURES0] = 0x1e | (0x7full << 17);
   /* Job slots: fragment, vertex/tiler/compute, compute only. */
   p[DRM_PANFROST_PARAM_JS_FEATURES0] = 0x20e;
   p[DRM_PANFROST_PARAM_JS_FEATURES1] = 0x1fe;
   p[DRM_PANFROST_PARAM_JS_FEATURES2] = 0x7e;
   p[DRM_PANFROST_PARAM_NR_CORE_GROUPS] = 1;
   p[DRM_PANFROST_PARAM_THREAD_TLS_ALLOC] = max_threads;
   p[DRM_PANFROST_PARAM_AFBC_FEATURES] = 0; /* AFBC present */
}

static void
shim_refuse(const char *value, const char *why)
{
   unsigned count;
   const struct pan_model *table = pan_model_table(&count);

   fprintf(stderr,
           "panfrost noop drm-shim: PAN_GPU_ID=\"%s\" %s.\n"
           "Valid PAN_GPU_ID values (hex product ids):\n",
           value, why);
   for (unsigned i = 0; i < count; i++) {
      fprintf(stderr, "  %4x  %s (v%u)%s\n", table[i].prod_id, table[i].name,
              table[i].arch, table[i].supported ? "" : ", not supported");
   }
   fprintf(stderr, "The shim refuses this device: every panfrost ioctl "
                   "fails with ENODEV.\n");
   shim.model = NULL;
}

static void
shim_choose_gpu(void)
{
   const char *env = getenv("PAN_GPU_ID");
   unsigned long id = PAN_SHIM_DEFAULT_GPU;

   if (env) {
      char *end = NULL;

      errno = 0;
      id = strtoul(env, &end, 16);
      if (!*env || errno || *end || id > 0xffff) {
         shim_refuse(env, "is not a hexadecimal product id");
         return;
      }
   }

   shim.model = pan_model_lookup((uint32_t)id);
   if (!shim.model) {
      shim_refuse(env ? env : "", "is not a Mali GPU known to the driver");
      return;
   }

   shim.prod_id = (uint32_t)id;
   shim_fill_params(shim.model, shim.prod_id);

   const char *exec = getenv("PAN_SHIM_EXEC");
   shim.exec = !exec || strcmp(exec, "0") != 0;
   if (shim.exec && !pan_sim_supports_arch(shim.model->arch)) {
      fprintf(stderr, "pan shim: jobs of v%u GPUs are not executed (not "
                      "built in)\n", shim.model->arch);
      shim.exec = false;
   }
   shim.dump_dir = getenv("PAN_SHIM_DUMP");
   if (shim.dump_dir && !shim.exec) {
      fprintf(stderr, "pan shim: PAN_SHIM_DUMP needs job execution: no "
                      "dumps are written\n");
      shim.dump_dir = NULL;
   }
}

/* The GPU is picked at the first ioctl rather than at load time: the shim
 * can be initialised by libc calls made before the environment is set up
 * (sanitizer runtimes do that), when PAN_GPU_ID would read as unset.
 */
static const struct pan_model *
shim_gpu(void)
{
   pthread_once(&shim.chosen, shim_choose_gpu);
   return shim.model;
}

/* ---- ioctls ---- */

static struct pan_shim_bo *
shim_lookup(int fd, uint32_t handle)
{
   struct shim_fd *shim_fd = drm_shim_fd_lookup(fd);

   return (struct pan_shim_bo *)drm_shim_bo_lookup(shim_fd, handle);
}

static int
ioctl_get_param(int fd, unsigned long request, void *arg)
{
   struct drm_panfrost_get_param *gp = arg;

   (void)fd;
   (void)request;
   if (!shim_gpu())
      return -ENODEV;
   if (gp->pad || gp->param >= sizeof(shim.params) / sizeof(shim.params[0]))
      return -EINVAL;

   gp->value = shim.params[gp->param];
   return 0;
}

static int
ioctl_create_bo(int fd, unsigned long request, void *arg)
{
   struct drm_panfrost_create_bo *args = arg;
   struct shim_fd *shim_fd = drm_shim_fd_lookup(fd);
   uint64_t size = args->size;

   (void)request;
   if (!shim_gpu())
      return -ENODEV;
   if (!args->size || args->pad ||
       (args->flags & ~(PANFROST_BO_NOEXEC | PANFROST_BO_HEAP)))
      return -EINVAL;
   if ((args->flags & PANFROST_BO_HEAP) && !(args->flags & PANFROST_BO_NOEXEC))
      return -EINVAL;

   /* Heaps grow in 2 MiB steps; big BOs get 2 MiB aligned addresses so
    * the MMU can use large pages, as the kernel does.
    */
   size = (args->flags & PANFROST_BO_HEAP)
             ? (size + PAN_SHIM_2M - 1) & ~(PAN_SHIM_2M - 1)
             : (size + PAN_SHIM_PAGE - 1) & ~(PAN_SHIM_PAGE - 1);
   uint64_t align = size >= PAN_SHIM_2M ? PAN_SHIM_2M : PAN_SHIM_PAGE;

   struct pan_shim_bo *bo = calloc(1, sizeof(*bo));
   if (!bo)
      return -ENOMEM;

   pthread_mutex_lock(&shim.va_lock);
   bo->gpu_va = util_vma_heap_alloc(&shim.va_heap, size, align);
   pthread_mutex_unlock(&shim.va_lock);

   if (!bo->gpu_va || drm_shim_bo_init(&bo->base, size)) {
      if (bo->gpu_va) {
         pthread_mutex_lock(&shim.va_lock);
         util_vma_heap_free(&shim.va_heap, bo->gpu_va, size);
         pthread_mutex_unlock(&shim.va_lock);
      }
      free(bo);
      return -ENOMEM;
   }

   if (shim.exec) {
      void *cpu = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
                       shim_device.mem_fd, bo->base.mem_addr);
      /* Without a view the BO still works; jobs touching it fault. */
      if (cpu == MAP_FAILED)
         fprintf(stderr, "pan shim: cannot map a %llu-byte BO for job "
                         "execution\n", (unsigned long long)size);
      else
         bo->cpu = cpu;
   }

   bo->va_size_B = size;
   bo->flags = args->flags;
   args->handle = drm_shim_bo_get_handle(shim_fd, &bo->base);
   args->offset = bo->gpu_va;
   drm_shim_bo_put(&bo->base);
   return 0;
}

static void
shim_bo_free(struct shim_bo *base)
{
   struct pan_shim_bo *bo = (struct pan_shim_bo *)base;

   pthread_mutex_lock(&shim.va_lock);
   util_vma_heap_free(&shim.va_heap, bo->gpu_va, bo->va_size_B);
   pthread_mutex_unlock(&shim.va_lock);
   if (bo->cpu)
      munmap(bo->cpu, bo->va_size_B);
}

static int
ioctl_mmap_bo(int fd, unsigned long request, void *arg)
{
   struct drm_panfrost_mmap_bo *args = arg;
   int ret = 0;

   (void)request;
   if (!shim_gpu())
      return -ENODEV;
   if (args->flags)
      return -EINVAL;

   struct pan_shim_bo *bo = shim_lookup(fd, args->handle);
   if (!bo)
      return -ENOENT;

   /* Heap pages are not pinned, so the kernel refuses to map them. */
   if (bo->flags & PANFROST_BO_HEAP)
      ret = -EINVAL;
   else
      args->offset =
         drm_shim_bo_get_mmap_offset(drm_shim_fd_lookup(fd), &bo->base);

   drm_shim_bo_put(&bo->base);
   return ret;
}

static int
ioctl_get_bo_offset(int fd, unsigned long request, void *arg)
{
   struct drm_panfrost_get_bo_offset *args = arg;

   (void)request;
   if (!shim_gpu())
      return -ENODEV;

   struct pan_shim_bo *bo = shim_lookup(fd, args->handle);
   if (!bo)
      return -ENOENT;

   args->offset = bo->gpu_va;
   drm_shim_bo_put(&bo->base);
   return 0;
}

/* Jobs run to completion inside SUBMIT, so every BO is idle. */
static int
ioctl_wait_bo(int fd, unsigned long request, void *arg)
{
   struct drm_panfrost_wait_bo *args = arg;

   (void)request;
   if (!shim_gpu())
      return -ENODEV;
   if (args->pad)
      return -EINVAL;

   struct pan_shim_bo *bo = shim_lookup(fd, args->handle);
   if (!bo)
      return -ENOENT;
   drm_shim_bo_put(&bo->base);
   return 0;
}

/* Memory is never reclaimed: pages are always retained. */
static int
ioctl_madvise(int fd, unsigned long request, void *arg)
{
   struct drm_panfrost_madvise *args = arg;

   (void)request;
   if (!shim_gpu())
      return -ENODEV;
   if (args->madv != PANFROST_MADV_WILLNEED &&
       args->madv != PANFROST_MADV_DONTNEED)
      return -EINVAL;

   struct pan_shim_bo *bo = shim_lookup(fd, args->handle);
   if (!bo)
      return -ENOENT;

   bo->madv = args->madv;
   args->retained = 1;
   drm_shim_bo_put(&bo->base);
   return 0;
}

/* PAN_SHIM_DUMP: the submit as a PANDUMP before it runs, then the run
 * writing every image its fragment jobs wrote (pan_replay.h), which is
 * what pan-replay of that dump must reproduce. */
static void
shim_dump_and_run(const struct pan_sim_space *space, uint64_t jc)
{
   char prefix[32], path[4096], err[512];
   struct pan_replay_result r;

   snprintf(prefix, sizeof(prefix), "submit-%04u", shim.submits++);
   snprintf(path, sizeof(path), "%s/%s.pandump", shim.dump_dir, prefix);
   if (pan_replay_capture(path, shim.prod_id, shim.model->arch, space, jc, err,
                          sizeof(err)))
      fprintf(stderr, "pan shim: %s\n", err);

   const struct pan_replay_opts o = {.dir = shim.dump_dir, .prefix = prefix};
   pan_replay_run_space(shim.model->arch, space, jc, &o, &r);
   if (r.write_errors)
      fprintf(stderr, "pan shim: %s\n", r.err);
}

/* Validate, run the chain on the CPU over the BOs of the submission, and
 * treat the job as done. A job fault is reported on stderr and in the job
 * header, like the kernel reports it in its log; the submission itself
 * succeeds. The generic shim's syncobjs always read as signalled, so
 * out_sync needs no work.
 */
static int
ioctl_submit(int fd, unsigned long request, void *arg)
{
   struct drm_panfrost_submit *args = arg;
   const uint32_t *handles = (const uint32_t *)(uintptr_t)args->bo_handles;
   uint32_t count = args->bo_handle_count;

   (void)request;
   if (!shim_gpu())
      return -ENODEV;
   if (!args->jc)
      return -EINVAL;
   if (args->requirements && args->requirements != PANFROST_JD_REQ_FS)
      return -EINVAL;
   if (count && !handles)
      return -EFAULT;

   struct pan_sim_region *regions = NULL;
   unsigned n = 0;

   /* Like the kernel, refuse jobs naming BOs that do not exist. */
   for (uint32_t i = 0; i < count; i++) {
      struct pan_shim_bo *bo = shim_lookup(fd, handles[i]);

      if (!bo)
         return -ENOENT;
      drm_shim_bo_put(&bo->base);
   }

   /* The GPU sees every BO of the file, as the kernel maps them all into
    * the file's address space: the list only keeps BOs alive and in
    * sync. (The stock driver's blitter keeps its pre-frame shaders in
    * BOs it never lists.) References are not held over the run: the
    * generic shim frees a BO when a second concurrent reference is
    * dropped. Closing a BO while a submission runs is a driver bug the
    * kernel would catch; here it is not guarded against.
    */
   if (shim.exec) {
      struct shim_fd *shim_fd = drm_shim_fd_lookup(fd);

      mtx_lock(&shim_fd->handle_lock);
      regions = calloc(shim_fd->handles->entries + 1, sizeof(*regions));
      if (!regions) {
         mtx_unlock(&shim_fd->handle_lock);
         return -ENOMEM;
      }
      hash_table_foreach(shim_fd->handles, entry) {
         const struct pan_shim_bo *bo = entry->data;

         if (bo->cpu) {
            regions[n].gpu_va = bo->gpu_va;
            regions[n].size_B = bo->va_size_B;
            regions[n].cpu = bo->cpu;
            regions[n].writable = true;
            n++;
         }
      }
      mtx_unlock(&shim_fd->handle_lock);
   }

   if (shim.exec) {
      struct pan_sim_space space = {regions, n};
      pthread_mutex_lock(&shim.exec_lock);
      if (shim.dump_dir)
         shim_dump_and_run(&space, args->jc);
      else
         pan_sim_run_chain(shim.model->arch, &space, args->jc, stderr, NULL);
      pthread_mutex_unlock(&shim.exec_lock);
   }
   free(regions);
   return 0;
}

static int
ioctl_perfcnt(int fd, unsigned long request, void *arg)
{
   (void)fd;
   (void)request;
   (void)arg;
   return -ENOSYS;
}

static ioctl_fn_t driver_ioctls[] = {
   [DRM_PANFROST_SUBMIT] = ioctl_submit,
   [DRM_PANFROST_WAIT_BO] = ioctl_wait_bo,
   [DRM_PANFROST_CREATE_BO] = ioctl_create_bo,
   [DRM_PANFROST_MMAP_BO] = ioctl_mmap_bo,
   [DRM_PANFROST_GET_PARAM] = ioctl_get_param,
   [DRM_PANFROST_GET_BO_OFFSET] = ioctl_get_bo_offset,
   [DRM_PANFROST_PERFCNT_ENABLE] = ioctl_perfcnt,
   [DRM_PANFROST_PERFCNT_DUMP] = ioctl_perfcnt,
   [DRM_PANFROST_MADVISE] = ioctl_madvise,
};

/* The device-tree compatible string the kernel would have bound to. Only
 * informative, so a best-effort look at PAN_GPU_ID is enough here.
 */
static void
shim_uevent(void)
{
   const char *env = getenv("PAN_GPU_ID");
   const struct pan_model *m =
      pan_model_lookup(env ? strtoul(env, NULL, 16) : PAN_SHIM_DEFAULT_GPU);
   char compatible[32] = "arm,mali-bifrost";

   if (m && m->arch <= 5) {
      /* "Mali-T860" -> "arm,mali-t860" */
      snprintf(compatible, sizeof(compatible), "arm,mali-t%s",
               m->name + strlen("Mali-T"));
   } else if (m && m->arch >= 9) {
      snprintf(compatible, sizeof(compatible), "arm,mali-valhall-jm");
   }

   char uevent[128];
   snprintf(uevent, sizeof(uevent),
            "DRIVER=panfrost\n"
            "OF_FULLNAME=/gpu\n"
            "OF_COMPATIBLE_N=1\n"
            "OF_COMPATIBLE_0=%s\n",
            compatible);
   drm_shim_override_file(uevent, "/sys/dev/char/%d:%d/device/uevent",
                          DRM_MAJOR, render_node_minor);
}

void
drm_shim_driver_init(void)
{
   shim_device.bus_type = DRM_BUS_PLATFORM;
   shim_device.driver_name = "panfrost";
   shim_device.driver_ioctls = driver_ioctls;
   shim_device.driver_ioctl_count =
      sizeof(driver_ioctls) / sizeof(driver_ioctls[0]);
   shim_device.driver_bo_free = shim_bo_free;

   /* The uapi version of Linux 6.1 (madvise, heaps, AFBC_FEATURES). */
   shim_device.version_major = 1;
   shim_device.version_minor = 2;
   shim_device.version_patchlevel = 0;

   util_vma_heap_init(&shim.va_heap, PAN_SHIM_VA_START,
                      PAN_SHIM_VA_END - PAN_SHIM_VA_START);
   shim.va_heap.alloc_high = false;

   shim_uevent();
}
