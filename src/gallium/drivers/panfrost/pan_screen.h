/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#ifndef PAN_SCREEN_H
#define PAN_SCREEN_H

#include "pipe/p_screen.h"
#include "util/u_debug.h"

#include "pan_device.h"

struct renderonly;
struct panfrost_arch;

/* PAN_MESA_DEBUG flags. */
enum panfrost_debug {
   PANFROST_DBG_TRACE = 1 << 0, /* decode every submitted job chain */
   PANFROST_DBG_DUMP = 1 << 1,  /* write raw memory dumps of submits */
   PANFROST_DBG_SYNC = 1 << 2,  /* wait for each submit, report faults */
   PANFROST_DBG_MSGS = 1 << 3,  /* chatty driver messages */
   PANFROST_DBG_NOAFBC = 1 << 4, /* no AFBC render targets */
};

struct panfrost_screen {
   struct pipe_screen base;
   struct pan_device dev;
   struct renderonly *ro;
   uint32_t debug;
   char renderer[64];
   /* v6+: the sample position table every framebuffer points at. */
   struct pan_bo *sample_positions;
   /* Job emitters of the device's architecture, NULL when the driver has
    * none yet (pan_arch.h): no compute then.
    */
   const struct panfrost_arch *arch;
   /* Compiled shaders (pan_shader_cache.c); NULL when disabled. */
   struct disk_cache *disk_cache;
   unsigned shader_cache_hits; /* for tests */
   /* The staging memory of the last transfer through one, kept for the
    * next (pan_transfer.c): a fresh allocation each upload would fault
    * its pages in again. Taken and given back atomically.
    */
   struct panfrost_staging *staging_cache;
   /* Bumped (p_atomic_*) whenever a resource gets new storage
    * (pan_shadow.c): every context's next draw rebuilds the descriptors
    * that may hold the old address.
    */
   unsigned storage_seq;
};

static inline struct panfrost_screen *
panfrost_screen(struct pipe_screen *pscreen)
{
   return (struct panfrost_screen *)pscreen;
}

static inline struct pan_device *
panfrost_device(struct pipe_screen *pscreen)
{
   return &panfrost_screen(pscreen)->dev;
}

void panfrost_screen_init_caps(struct pipe_screen *pscreen);
void panfrost_screen_init_formats(struct pipe_screen *pscreen);
void panfrost_screen_init_resource(struct pipe_screen *pscreen);
void panfrost_screen_init_fence(struct pipe_screen *pscreen);

struct pipe_context *panfrost_context_create(struct pipe_screen *pscreen,
                                             void *priv, unsigned flags);

#endif
