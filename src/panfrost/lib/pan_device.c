/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include "pan_device.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drm-uapi/panfrost_drm.h"

/* Compressed formats every Mali has, as bits of the hardware format
 * enumeration: ETC2/EAC (indices 1-4 and 17-19) and ASTC LDR/HDR 2D/3D
 * (20-23). What TEXTURE_FEATURES0 would say on a kernel too old to report
 * it.
 */
#define PAN_TEXFEAT0_BASELINE (0x1eu | (0x7fu << 17))

/* Hardware reset value of TILER_FEATURES on parts that predate the
 * register: 512-byte bins, 8 hierarchy levels.
 */
#define PAN_TILER_FEATURES_DEFAULT 0x809

/* Every Mali core runs at least 256 threads, so a 256-thread workgroup is
 * always possible.
 */
#define PAN_WORKGROUP_DEFAULT 256

static void
log_to_stderr(void *data, const char *msg)
{
   (void)data;
   fprintf(stderr, "panfrost: %s\n", msg);
}

void
pan_device_set_log(struct pan_device *dev, pan_log_fn fn, void *data)
{
   dev->log = fn ? fn : log_to_stderr;
   dev->log_data = fn ? data : NULL;
}

void
pan_device_log_error(const struct pan_device *dev, const char *fmt, ...)
{
   char msg[256];
   va_list ap;

   va_start(ap, fmt);
   vsnprintf(msg, sizeof(msg), fmt, ap);
   va_end(ap);

   (dev->log ? dev->log : log_to_stderr)(dev->log_data, msg);
}

static int set_error(char *err, size_t err_size, int ret, const char *fmt, ...)
#if defined(__GNUC__)
   __attribute__((format(printf, 4, 5)))
#endif
   ;

static int
set_error(char *err, size_t err_size, int ret, const char *fmt, ...)
{
   if (err && err_size) {
      va_list ap;

      va_start(ap, fmt);
      vsnprintf(err, err_size, fmt, ap);
      va_end(ap);
   }
   return ret;
}

/* One GET_PARAM. An optional parameter the kernel does not know (-EINVAL,
 * older kernels) takes def and is recorded in params_defaulted; anything
 * else failing is an error.
 */
static int
query(struct pan_device *dev, uint32_t param, bool required, uint64_t def,
      uint64_t *value, char *err, size_t err_size)
{
   int ret = dev->kmod.ops->get_param(&dev->kmod, param, value);

   if (ret == 0)
      return 0;

   if (ret == -EINVAL && !required) {
      *value = def;
      dev->params_defaulted |= 1ull << param;
      return 0;
   }

   return set_error(err, err_size, ret,
                    "kernel query of GPU parameter %u failed (%s)%s", param,
                    strerror(-ret), required ? ", and it is required" : "");
}

static int
query_u32(struct pan_device *dev, uint32_t param, uint32_t def, uint32_t *out,
          char *err, size_t err_size)
{
   uint64_t v;
   int ret = query(dev, param, false, def, &v, err, err_size);

   if (!ret)
      *out = (uint32_t)v;
   return ret;
}

static int
query_identity(struct pan_device *dev, char *err, size_t err_size)
{
   uint64_t v;
   int ret;

   ret = query(dev, DRM_PANFROST_PARAM_GPU_PROD_ID, true, 0, &v, err, err_size);
   if (ret)
      return ret;
   dev->gpu_id = (uint32_t)v;

   ret =
      query(dev, DRM_PANFROST_PARAM_GPU_REVISION, true, 0, &v, err, err_size);
   if (ret)
      return ret;
   dev->gpu_revision = (uint32_t)v;

   dev->arch = pan_arch_from_prod_id(dev->gpu_id);
   return pan_model_find_supported(dev->gpu_id, &dev->model, err, err_size);
}

static int
query_units(struct pan_device *dev, char *err, size_t err_size)
{
   /* Without SHADER_PRESENT assume the worst case of 16 cores, so that
    * per-core allocations are big enough.
    */
   const struct {
      uint32_t param;
      uint64_t def;
      uint64_t *out;
   } u64s[] = {
      { DRM_PANFROST_PARAM_SHADER_PRESENT, 0xffff, &dev->shader_present },
      { DRM_PANFROST_PARAM_L2_PRESENT, 0x1, &dev->l2_present },
      { DRM_PANFROST_PARAM_TILER_PRESENT, 0x1, &dev->tiler_present },
      { DRM_PANFROST_PARAM_STACK_PRESENT, 0x0, &dev->stack_present },
   };
   uint32_t nr_groups;
   int ret;

   for (unsigned i = 0; i < sizeof(u64s) / sizeof(u64s[0]); i++) {
      ret = query(dev, u64s[i].param, false, u64s[i].def, u64s[i].out, err,
                  err_size);
      if (ret)
         return ret;
   }

   /* Three job slots (fragment, vertex/tiler/compute, compute) is what
    * every Mali job manager has.
    */
   ret = query_u32(dev, DRM_PANFROST_PARAM_AS_PRESENT, 0x1, &dev->as_present,
                   err, err_size);
   ret = ret ? ret
             : query_u32(dev, DRM_PANFROST_PARAM_JS_PRESENT, 0x7,
                         &dev->js_present, err, err_size);
   ret = ret ? ret
             : query_u32(dev, DRM_PANFROST_PARAM_NR_CORE_GROUPS, 1, &nr_groups,
                         err, err_size);
   if (ret)
      return ret;
   dev->nr_core_groups = nr_groups;

   if (!dev->shader_present) {
      return set_error(err, err_size, -ENODEV,
                       "kernel reports no shader cores on GPU 0x%04x",
                       dev->gpu_id);
   }

   dev->core_count = __builtin_popcountll(dev->shader_present);
   dev->core_id_range = 64 - __builtin_clzll(dev->shader_present);
   return 0;
}

static int
query_features(struct pan_device *dev, char *err, size_t err_size)
{
   const struct {
      uint32_t param;
      uint32_t def;
      uint32_t *out;
   } regs[] = {
      { DRM_PANFROST_PARAM_L2_FEATURES, 0, &dev->l2_features },
      { DRM_PANFROST_PARAM_CORE_FEATURES, 0, &dev->core_features },
      { DRM_PANFROST_PARAM_TILER_FEATURES, PAN_TILER_FEATURES_DEFAULT,
        &dev->tiler_features },
      { DRM_PANFROST_PARAM_MEM_FEATURES, 0, &dev->mem_features },
      { DRM_PANFROST_PARAM_MMU_FEATURES, 0, &dev->mmu_features },
      { DRM_PANFROST_PARAM_THREAD_FEATURES, 0, &dev->thread_features },
      { DRM_PANFROST_PARAM_COHERENCY_FEATURES, 0, &dev->coherency_features },
      /* Zero means "AFBC present" on parts with the register. */
      { DRM_PANFROST_PARAM_AFBC_FEATURES, 0, &dev->afbc_features },
      { DRM_PANFROST_PARAM_TEXTURE_FEATURES0, PAN_TEXFEAT0_BASELINE,
        &dev->texture_features[0] },
      { DRM_PANFROST_PARAM_TEXTURE_FEATURES1, 0, &dev->texture_features[1] },
      { DRM_PANFROST_PARAM_TEXTURE_FEATURES2, 0, &dev->texture_features[2] },
      { DRM_PANFROST_PARAM_TEXTURE_FEATURES3, 0, &dev->texture_features[3] },
      /* 0 = not reported: replaced by architectural defaults below. */
      { DRM_PANFROST_PARAM_MAX_THREADS, 0, &dev->max_threads },
      { DRM_PANFROST_PARAM_THREAD_MAX_WORKGROUP_SZ, 0,
        &dev->max_workgroup_size },
      { DRM_PANFROST_PARAM_THREAD_MAX_BARRIER_SZ, 0, &dev->max_barrier_size },
      { DRM_PANFROST_PARAM_THREAD_TLS_ALLOC, 0, &dev->thread_tls_alloc },
   };

   for (unsigned i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
      int ret =
         query_u32(dev, regs[i].param, regs[i].def, regs[i].out, err, err_size);
      if (ret)
         return ret;
   }

   for (unsigned js = 0; js < PAN_MAX_JS; js++) {
      if (!(dev->js_present & (1u << js)))
         continue;

      int ret = query_u32(dev, DRM_PANFROST_PARAM_JS_FEATURES0 + js, 0,
                          &dev->js_features[js], err, err_size);
      if (ret)
         return ret;
   }

   return 0;
}

/* Fill in what the registers imply, and defaults for registers reading 0
 * (not implemented on that part, or not reported by the kernel).
 */
static void
derive_properties(struct pan_device *dev)
{
   if (!dev->max_threads)
      dev->max_threads = pan_arch_max_threads(dev->arch);
   if (!dev->max_workgroup_size) {
      dev->max_workgroup_size = dev->max_threads < PAN_WORKGROUP_DEFAULT
                                   ? dev->max_threads
                                   : PAN_WORKGROUP_DEFAULT;
   }
   if (!dev->max_barrier_size)
      dev->max_barrier_size = dev->max_workgroup_size;
   if (!dev->thread_tls_alloc)
      dev->thread_tls_alloc = dev->max_threads;

   /* AFBC arrived with v5; a nonzero AFBC_FEATURES marks a part built
    * without it.
    */
   dev->has_afbc = dev->arch >= 5 && dev->afbc_features == 0;

   dev->tile_buffer_size_B = dev->model->tile_buffer_size_B;
   dev->optimal_tib_size_B = dev->tile_buffer_size_B / 2;

   /* TILER_FEATURES: log2 of the bin size in bytes in the low bits, the
    * number of hierarchy levels in bits 11:8.
    */
   dev->tiler_bin_size_B = 1u << (dev->tiler_features & 0x1f);
   dev->tiler_max_levels = (dev->tiler_features >> 8) & 0xf;

   /* MEM_FEATURES bits 11:8 hold the L2 slice count minus one. */
   dev->l2_slices = ((dev->mem_features >> 8) & 0xf) + 1;
}

static int
check_driver(struct pan_device *dev, char *err, size_t err_size)
{
   char name[64] = "";
   int ret = dev->kmod.ops->get_driver_name(&dev->kmod, name, sizeof(name));

   if (ret) {
      return set_error(err, err_size, ret,
                       "cannot query the kernel driver of fd %d (%s)", dev->fd,
                       strerror(-ret));
   }

   if (strcmp(name, "panfrost") != 0) {
      return set_error(err, err_size, -ENODEV,
                       "fd %d is driven by kernel driver \"%s\", not "
                       "\"panfrost\"",
                       dev->fd, name);
   }
   return 0;
}

int
pan_device_open_kmod(struct pan_device *dev, int fd,
                     const struct pan_kmod_ops *ops, void *kmod_priv,
                     uint32_t flags, char *err, size_t err_size)
{
   int ret;

   memset(dev, 0, sizeof(*dev));
   dev->fd = fd;
   dev->flags = flags;
   dev->kmod.ops = ops;
   dev->kmod.fd = fd;
   dev->kmod.priv = kmod_priv;
   pan_device_set_log(dev, NULL, NULL);

   if (err && err_size)
      err[0] = '\0';

   ret = check_driver(dev, err, err_size);
   ret = ret ? ret : query_identity(dev, err, err_size);
   ret = ret ? ret : query_units(dev, err, err_size);
   ret = ret ? ret : query_features(dev, err, err_size);
   if (ret) {
      /* Ownership of the fd only starts with a successful open. */
      memset(dev, 0, sizeof(*dev));
      dev->fd = -1;
      return ret;
   }

   derive_properties(dev);

   pthread_mutex_init(&dev->bo_map_lock, NULL);
   pan_bo_cache_init(&dev->bo_cache);
   return 0;
}

int
pan_device_open(struct pan_device *dev, int fd, char *err, size_t err_size)
{
   return pan_device_open_kmod(dev, fd, &pan_kmod_drm_ops, NULL, 0, err,
                               err_size);
}

void
pan_device_close(struct pan_device *dev)
{
   if (!dev->model)
      return;

   pan_bo_cache_fini(dev);

   for (uint32_t i = 0; i < dev->bo_map_size; i++) {
      if (dev->bo_map[i]) {
         pan_device_log_error(dev,
                              "shared BO (handle %u) still referenced "
                              "at device close",
                              i);
      }
   }
   free(dev->bo_map);
   pthread_mutex_destroy(&dev->bo_map_lock);

   if ((dev->flags & PAN_DEVICE_OWNS_FD) && dev->kmod.ops->close)
      dev->kmod.ops->close(&dev->kmod);

   dev->model = NULL;
   dev->fd = -1;
}
