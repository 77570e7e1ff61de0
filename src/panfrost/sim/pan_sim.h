/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The functional GPU simulator: Mali job chains run on the CPU. The
 * drm-shim calls it at DRM_PANFROST_SUBMIT; tests call it on an address
 * space of their own. It does not depend on the drm-shim.
 *
 * The caller describes the GPU address space (pan_sim_space.h); the chain
 * is walked by the walker the decoder uses too (pan_sim_chain.h). Every
 * access is checked: an address outside every region, a descriptor
 * running past the end of its region, a write to a read-only region, a
 * malformed or unsupported descriptor, a dependency on a job that has not
 * run make the job fault. A fault is reported as one "pan sim: ..." line on
 * the log, written to the job header as a real GPU would, and stops the
 * chain. Nothing outside the regions is ever touched, and a faulting job
 * writes no pixels.
 *
 * What runs (see docs/drivers/panfrost/drm-shim.rst for the semantics):
 *    FRAGMENT     clear and write back every render target and the
 *                 depth/stencil buffers; on v6/v7 the frame's primitives
 *                 are rasterised and shaded first (simulator-draws.rst)
 *    VERTEX, TILER, INDEXED_VERTEX  (v6/v7) vertex shading and primitive
 *                 assembly into the simulator's functional polygon list
 *    COMPUTE      (v6/v7/v9) on the ISA interpreters
 *    WRITE_VALUE  zero, immediates, timestamps
 *    NULL, CACHE_FLUSH  nothing to do
 * Other job types are reported once per process as not executed yet and
 * are completed without effect.
 */

#ifndef PAN_SIM_H
#define PAN_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pan_sim_space.h"
#include "pan_v5_pack.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Exception codes written to job headers: the hardware description's
 * exception types (common to every architecture).
 */
#define PAN_SIM_STATUS_DONE PAN_V5_EXCEPTION_TYPE_DONE
/* malformed/unsupported descriptor */
#define PAN_SIM_CONFIG_FAULT PAN_V5_EXCEPTION_TYPE_JOB_CONFIG_FAULT
/* read outside mapped memory */
#define PAN_SIM_READ_FAULT PAN_V5_EXCEPTION_TYPE_JOB_READ_FAULT
/* write outside mapped (writable) memory */
#define PAN_SIM_WRITE_FAULT PAN_V5_EXCEPTION_TYPE_JOB_WRITE_FAULT

struct pan_sim_stats {
   unsigned jobs_run;     /* executed (including NULL and cache flushes) */
   unsigned jobs_skipped; /* of a type not executed yet, marked done */
   bool faulted;
   uint32_t fault_status; /* PAN_SIM_*_FAULT */
   uint64_t fault_job_va; /* the faulting job (or unreadable header) */
};

/* True when the simulator was built for this architecture (4, 5, 6, 7,
 * 9). */
bool pan_sim_supports_arch(unsigned arch);

/*
 * Run the job chain starting at jc_va, jobs in chain order (at most
 * PAN_SIM_CHAIN_MAX_JOBS; a longer chain faults). Regions the GPU writes
 * must be writable. log NULL means stderr; stats may be NULL. Returns 0
 * when every job completed, -1 after a fault, -2 when the architecture is
 * not built in (nothing is touched).
 */
int pan_sim_run_chain(unsigned arch, const struct pan_sim_space *space,
                      uint64_t jc_va, FILE *log, struct pan_sim_stats *stats);

/* ---- observing a run (pan-replay, the drm-shim's PAN_SHIM_DUMP) ---- */

enum pan_sim_image_kind {
   PAN_SIM_IMAGE_COLOR,
   PAN_SIM_IMAGE_DEPTH_STENCIL,
   PAN_SIM_IMAGE_STENCIL,
};

struct pan_sim_fill;

/* An image a fragment job's framebuffer names for write-back, reported
 * after the job ran, while its memory is still the run's. The pixels are
 * read with pan_sim_image_texels/_rgba8 (pan_sim_image.c), which know the
 * memory layout from the simulator's own reading of the descriptors.
 */
struct pan_sim_image {
   unsigned fragment; /* fragment jobs of this run before this one */
   uint64_t job_va;
   enum pan_sim_image_kind kind;
   unsigned rt;                /* colour: the render target index */
   unsigned x0, y0, w, h;      /* the frame rectangle, pixels */
   unsigned layers;            /* layered samples, 1 otherwise */
   unsigned texel_B;           /* bytes of one texel in memory */
   uint64_t base;              /* GPU address of the image */
   bool rgba8;                 /* colour that reads back exactly as RGBA8 */
   const char *format;         /* write-back format name */
   const struct pan_sim_fill *fill; /* private */
};

typedef void (*pan_sim_image_fn)(void *data, const struct pan_sim_image *img);

struct pan_sim_run_opts {
   FILE *log;           /* NULL: stderr */
   unsigned max_jobs;   /* stop after this many jobs; 0: no limit */
   pan_sim_image_fn on_image;
   void *data;
   /* Called after every job that ran (index in the chain, its address,
    * type name); NULL for none. */
   void (*on_job)(void *data, unsigned index, uint64_t va, const char *type);
};

/* pan_sim_run_chain with observers; opts may be NULL. A run stopped by
 * max_jobs returns 0 and leaves the rest of the chain untouched.
 */
int pan_sim_run_chain_opts(unsigned arch, const struct pan_sim_space *space,
                           uint64_t jc_va, const struct pan_sim_run_opts *opts,
                           struct pan_sim_stats *stats);

/* The texels of one layer of img, w * h * texel_B bytes, rows top down. */
void pan_sim_image_texels(const struct pan_sim_image *img, unsigned layer,
                          uint8_t *out);

/* One layer of a colour image as RGBA8 (w * h * 4 bytes): the texels
 * through the tile-buffer format, each channel at 8 bits (channels the
 * format lacks read as 0, alpha as 255). False when img->rgba8 is not set.
 */
bool pan_sim_image_rgba8(const struct pan_sim_image *img, unsigned layer,
                         uint8_t *out);

#ifdef __cplusplus
}
#endif

#endif /* PAN_SIM_H */
