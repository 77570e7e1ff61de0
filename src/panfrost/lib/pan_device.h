/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * A Mali GPU opened through the panfrost kernel driver: what the hardware
 * is (model, architecture, feature registers), its BO cache and its table
 * of shared BOs. API-agnostic; the Gallium driver embeds one per screen.
 *
 * Errors come back as negative errno values plus a message, either in the
 * caller's buffer (open) or through the device's log callback (BOs).
 */

#ifndef PAN_DEVICE_H
#define PAN_DEVICE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pan_bo_cache.h"
#include "pan_kmod.h"
#include "pan_model.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pan_bo;

enum pan_device_flags {
   /* pan_device_close() also closes the fd. */
   PAN_DEVICE_OWNS_FD = 1u << 0,
};

/* Receives one error message per failure, without trailing newline. */
typedef void (*pan_log_fn)(void *data, const char *msg);

struct pan_device;
struct pan_submit;

/* Sees every job chain just before it goes to the kernel (pan_submit.h). */
typedef void (*pan_submit_hook_fn)(void *data, struct pan_device *dev,
                                   const struct pan_submit *submit);

#define PAN_MAX_JS 16

struct pan_device {
   int fd;
   uint32_t flags; /* enum pan_device_flags */
   struct pan_kmod kmod;

   /* Identity. gpu_id is the kernel's product id (GPU_ID >> 16). */
   uint32_t gpu_id;
   uint32_t gpu_revision;
   unsigned arch;
   const struct pan_model *model;

   /* Units present. */
   uint64_t shader_present;
   unsigned core_count;    /* cores present */
   unsigned core_id_range; /* highest core id + 1; gaps possible */
   uint64_t l2_present;
   uint64_t tiler_present;
   uint64_t stack_present;
   uint32_t as_present;
   uint32_t js_present;
   unsigned nr_core_groups;

   /* Raw feature registers. */
   uint32_t l2_features;
   uint32_t core_features;
   uint32_t tiler_features;
   uint32_t mem_features;
   uint32_t mmu_features;
   uint32_t thread_features;
   uint32_t coherency_features;
   uint32_t afbc_features;
   uint32_t texture_features[4];
   uint32_t js_features[PAN_MAX_JS];

   /* Thread limits, with architectural defaults filled in. */
   uint32_t max_threads; /* per core */
   uint32_t max_workgroup_size;
   uint32_t max_barrier_size;
   uint32_t thread_tls_alloc; /* threads per core to size TLS for */

   /* Derived. */
   bool has_afbc;
   uint32_t tile_buffer_size_B;
   /* Half the tile buffer: what one tile may use so two can be in flight. */
   uint32_t optimal_tib_size_B;
   uint32_t tiler_bin_size_B;
   unsigned tiler_max_levels;
   unsigned l2_slices;

   /* Bit n set: DRM_PANFROST_PARAM n was not answered and a default was
    * used (old kernel).
    */
   uint64_t params_defaulted;

   pan_log_fn log;
   void *log_data;

   /* Debug hook on submits (trace, dump); NULL for none. */
   pan_submit_hook_fn submit_hook;
   void *submit_hook_data;

   struct pan_bo_cache bo_cache;

   /* Shared (exported/imported) BOs by GEM handle, so one dma-buf is one
    * pan_bo. Guarded by bo_map_lock, which also serialises the final
    * unreference of shared BOs.
    */
   pthread_mutex_t bo_map_lock;
   struct pan_bo **bo_map;
   uint32_t bo_map_size;
};

/* Open the render node fd with the panfrost kernel driver. Checks the
 * driver name, queries the GPU and rejects unknown or unsupported models.
 * Returns 0, or -errno with a message in err. dev needs no initialisation;
 * on failure it holds nothing to release. The fd stays the caller's.
 */
int pan_device_open(struct pan_device *dev, int fd, char *err, size_t err_size);

/* Same with a chosen kernel backend (tests) and enum pan_device_flags. */
int pan_device_open_kmod(struct pan_device *dev, int fd,
                         const struct pan_kmod_ops *ops, void *kmod_priv,
                         uint32_t flags, char *err, size_t err_size);

/* Frees cached BOs and device state. Every BO must have been released.
 * Closes the fd only with PAN_DEVICE_OWNS_FD.
 */
void pan_device_close(struct pan_device *dev);

/* Where BO-level errors go; stderr by default. */
void pan_device_set_log(struct pan_device *dev, pan_log_fn fn, void *data);

/* Format and send an error through the device's log callback. */
void pan_device_log_error(const struct pan_device *dev, const char *fmt, ...)
#if defined(__GNUC__)
   __attribute__((format(printf, 2, 3)))
#endif
   ;

/* Whether a compressed texture format (its index in the hardware format
 * enumeration, below 32) is in TEXTURE_FEATURES0.
 */
static inline bool
pan_device_supports_compressed_format(const struct pan_device *dev,
                                      unsigned format_index)
{
   return format_index < 32 &&
          (dev->texture_features[0] & (1u << format_index)) != 0;
}

#ifdef __cplusplus
}
#endif

#endif /* PAN_DEVICE_H */
