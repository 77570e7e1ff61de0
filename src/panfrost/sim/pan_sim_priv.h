/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Internals of the simulator's job executors, shared by the arch-neutral
 * core (pan_sim.c, pan_sim_pixel.c) and the per-architecture executors
 * (pan_sim_vX_*.c, compiled once per PAN_ARCH).
 *
 * Layering: per-arch code unpacks descriptors with genxml and translates
 * them into the neutral descriptions below (surfaces, pixel formats); the
 * neutral code does memory checks, colour/depth conversion and the stores.
 * A new job type is one more executor in the per-arch table.
 */

#ifndef PAN_SIM_PRIV_H
#define PAN_SIM_PRIV_H

#include "pan_sim.h"
#include "pan_sim_afbc.h"
#include "pan_sim_chain.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pan_sim_ctx {
   const struct pan_sim_space *space;
   FILE *log;
   unsigned arch;
   /* The job being run, for messages. */
   uint64_t job_va;
   unsigned job_index;
   const char *job_name;
   /* First fault of the chain. */
   bool faulted;
   uint32_t fault_status;
   uint64_t fault_va;
   /* Observers of the run (never NULL) and the fragment jobs run so far. */
   const struct pan_sim_run_opts *opts;
   unsigned fragments;
};

/* Report a fault of the current job (one "pan sim: " line) and remember
 * the first one. Always returns false, so executors can "return
 * pan_sim_fault(...)".
 */
bool pan_sim_fault(struct pan_sim_ctx *ctx, uint32_t status, uint64_t va,
                  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* CPU pointer to [va, va + size_B) if that range lies inside one region
 * (and, for a write, a writable one); otherwise NULL after a read or write
 * fault naming "what".
 */
const void *pan_sim_ctx_read(struct pan_sim_ctx *ctx, uint64_t va,
                             uint64_t size_B, const char *what);
void *pan_sim_ctx_write(struct pan_sim_ctx *ctx, uint64_t va, uint64_t size_B,
                        const char *what);

/* Print "pan sim: <what> ..." once per process for each key (a small
 * integer below PAN_SIM_ONCE_KEYS).
 */
#define PAN_SIM_ONCE_KEYS 64
void pan_sim_warn_once(struct pan_sim_ctx *ctx, unsigned key, const char *fmt,
                      ...) __attribute__((format(printf, 3, 4)));

/* Keys of pan_sim_warn_once besides job types (0..15). */
enum {
   PAN_SIM_ONCE_FRAME_SHADERS = 32,
   PAN_SIM_ONCE_TIMESTAMP,
   PAN_SIM_ONCE_NO_CLIP,
   PAN_SIM_ONCE_PRELOAD_DRAW,
};

/* ---- job executors ---- */

/* Runs one job; false after pan_sim_fault. */
typedef bool (*pan_sim_exec_fn)(struct pan_sim_ctx *ctx, uint64_t job_va);

#define PAN_SIM_JOB_TYPES 16

/* Executors of one architecture by job type (pan_sim_vX_jobs.c); NULL for
 * types not executed yet. */
struct pan_sim_executors {
   pan_sim_exec_fn exec[PAN_SIM_JOB_TYPES];
};

extern const struct pan_sim_executors pan_v4_sim_executors;
extern const struct pan_sim_executors pan_v5_sim_executors;
extern const struct pan_sim_executors pan_v6_sim_executors;
extern const struct pan_sim_executors pan_v7_sim_executors;
extern const struct pan_sim_executors pan_v9_sim_executors;

/* ---- pixels and surfaces (pan_sim_pixel.c) ---- */

/* Tile-buffer ("internal") colour format: integer.fraction bits of the
 * logical channels R, G, B, A packed from bit 0 up, or raw bytes.
 */
struct pan_sim_tib_format {
   const char *name;
   bool raw;
   uint8_t raw_B;    /* raw: bytes per pixel, 0 when only the write-back
                      * format knows (v4 RAW_VALUE) */
   uint8_t int_bits[4];
   uint8_t frac_bits[4];
};

/* Write-back colour format: fields from bit 0 up, field k takes the
 * tile-buffer channel selected by swizzle bits [3k, 3k + 2]. Raw formats
 * store the tile-buffer bytes as they are.
 */
struct pan_sim_wb_format {
   const char *name;
   bool raw;
   bool native; /* the tile-buffer word as is, sized by the tib format */
   uint16_t size_B;
   uint8_t comps;
   uint8_t bits[4];
};

/* Depth/stencil memory format: which bits hold what. depth_bits 32 with
 * depth_float means binary32; other depth fields are unorm.
 */
struct pan_sim_zs_format {
   const char *name;
   uint8_t size_B;
   uint8_t depth_bit, depth_bits; /* depth_bits 0: no depth */
   bool depth_float;
   uint8_t stencil_bit, stencil_bits; /* stencil_bits 0: no stencil */
};

#define PAN_SIM_MAX_PIXEL_B 16

/* One pixel value and the bits of it to store (the rest is kept). */
struct pan_sim_pixel {
   uint8_t size_B;
   uint8_t bytes[PAN_SIM_MAX_PIXEL_B];
   uint8_t mask[PAN_SIM_MAX_PIXEL_B];
};

enum pan_sim_layout {
   PAN_SIM_LINEAR,
   PAN_SIM_U_INTERLEAVED, /* 16x16 tiles, row_stride_B per row of tiles */
   PAN_SIM_AFBC,          /* headers at base, see pan_sim_afbc.h */
};

/* Inclusive pixel rectangle. */
struct pan_sim_rect {
   unsigned x0, y0, x1, y1;
};

/* One image to fill with a pixel value. */
struct pan_sim_fill {
   const char *what; /* for messages, e.g. "render target 2" */
   uint64_t base;
   uint32_t row_stride_B;
   uint32_t layer_stride_B;
   unsigned layers; /* samples stored as layers, 1 otherwise */
   bool average;    /* one layer of a multisampled frame: the samples' mean */
   enum pan_sim_layout layout;
   struct pan_sim_afbc afbc;  /* AFBC: the surface */
   uint64_t afbc_body_off;    /* AFBC: body start - base */
   struct pan_sim_pixel px;
   /* Set by pan_sim_fill_check: CPU address of the first byte touched and
    * its offset from base.
    */
   uint8_t *cpu;
   uint64_t cpu_first_off;
   /* How to store drawn pixels (frames with draws): colour target rt
    * (-1: depth/stencil) with its formats, or the depth/stencil format and
    * what the frame writes of it. */
   int rt;
   bool preload; /* colour loaded from memory, not cleared */
   struct pan_sim_tib_format tib;
   struct pan_sim_wb_format wb;
   uint32_t swizzle;
   uint32_t clear[4];
   struct pan_sim_zs_format zs;
   bool write_z, write_s;
   uint8_t s_clear;
};

/* Tile-buffer clear words -> memory pixel. */
bool pan_sim_color_pixel(struct pan_sim_ctx *ctx, const char *what,
                        const struct pan_sim_tib_format *tib,
                        const struct pan_sim_wb_format *wb, uint32_t swizzle,
                        const uint32_t clear[4], struct pan_sim_pixel *out);

/* Depth and/or stencil clear values -> memory pixel with the written bits
 * in the mask.
 */
void pan_sim_zs_pixel(const struct pan_sim_zs_format *f, bool write_depth,
                     float depth, bool write_stencil, uint8_t stencil,
                     struct pan_sim_pixel *out);

/* Check that the whole rectangle of every layer lies in one region and
 * remember its CPU address; false after a fault.
 */
bool pan_sim_fill_check(struct pan_sim_ctx *ctx, struct pan_sim_fill *fill,
                       const struct pan_sim_rect *r);

/* Store the pixel over the rectangle (after pan_sim_fill_check). */
void pan_sim_fill_run(const struct pan_sim_fill *fill,
                     const struct pan_sim_rect *r);

/* Store one pixel at (x, y) of every layer, inside the rectangle checked
 * by pan_sim_fill_check (pan_sim_tilebuf.c); false after a fault (a
 * malformed AFBC header). */
bool pan_sim_fill_put(struct pan_sim_ctx *ctx, const struct pan_sim_fill *fill,
                      unsigned x, unsigned y, const struct pan_sim_pixel *px);
/* The same for layer l only (a sample of a multisampled image). */
bool pan_sim_fill_put_layer(struct pan_sim_ctx *ctx,
                            const struct pan_sim_fill *fill, unsigned x,
                            unsigned y, unsigned l,
                            const struct pan_sim_pixel *px);

/* The memory bytes of pixel (x, y) of layer l, inside the checked
 * rectangle; NULL with err (PAN_SIM_AFBC_ERR_LEN) set for a malformed AFBC
 * header (pan_sim_tilebuf.c). */
const uint8_t *pan_sim_fill_pixel(const struct pan_sim_fill *fill, unsigned x,
                                  unsigned y, unsigned l, char *err);

/* AFBC versions of pan_sim_fill_check and pan_sim_fill_run
 * (pan_sim_tilebuf.c). */
bool pan_sim_afbc_fill_check(struct pan_sim_ctx *ctx,
                             struct pan_sim_fill *fill,
                             const struct pan_sim_rect *r);
bool pan_sim_afbc_fill_run(struct pan_sim_ctx *ctx,
                           const struct pan_sim_fill *fill,
                           const struct pan_sim_rect *r);

/* Memory pixel -> tile-buffer words of a colour fill (pan_sim_tilebuf.c):
 * the inverse of pan_sim_color_pixel. */
void pan_sim_unpixel(const struct pan_sim_fill *fill, const uint8_t *src,
                     uint32_t w[4]);

/* Report the images of a fragment job that ran to the run's observer
 * (pan_sim_image.c). */
void pan_sim_report_images(struct pan_sim_ctx *ctx, uint64_t job_va,
                           const struct pan_sim_rect *rect,
                           const struct pan_sim_fill *fills, unsigned count);

/* Host clock in nanoseconds, for timestamp writes. */
uint64_t pan_sim_now_ns(void);

#ifdef __cplusplus
}
#endif

#endif /* PAN_SIM_PRIV_H */
