/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Internals of the job executor, shared by the arch-neutral core
 * (pan_shim_exec.c, pan_shim_exec_pixel.c) and the per-architecture job
 * executors (compiled once per PAN_ARCH).
 *
 * Layering: per-arch code unpacks descriptors with genxml and translates
 * them into the neutral descriptions below (surfaces, pixel formats); the
 * neutral code does memory checks, colour/depth conversion and the stores.
 * A new job type is one more executor in the per-arch table.
 */

#ifndef PAN_SHIM_EXEC_PRIV_H
#define PAN_SHIM_EXEC_PRIV_H

#include "pan_shim_exec.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pan_sx_ctx {
   const struct pan_shim_exec_space *space;
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
};

/* Report a fault of the current job (one "pan shim: " line) and remember
 * the first one. Always returns false, so executors can "return
 * pan_sx_fault(...)".
 */
bool pan_sx_fault(struct pan_sx_ctx *ctx, uint32_t status, uint64_t va,
                  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* CPU pointer to [va, va + size_B) if that range lies inside one region;
 * otherwise NULL after a read or write fault naming "what".
 */
void *pan_sx_map(struct pan_sx_ctx *ctx, uint64_t va, uint64_t size_B,
                 bool write, const char *what);

/* Print "pan shim: <what> ..." once per process for each key (a small
 * integer below PAN_SX_ONCE_KEYS).
 */
#define PAN_SX_ONCE_KEYS 64
void pan_sx_warn_once(struct pan_sx_ctx *ctx, unsigned key, const char *fmt,
                      ...) __attribute__((format(printf, 3, 4)));

/* Keys of pan_sx_warn_once besides job types (0..15). */
enum {
   PAN_SX_ONCE_FRAME_SHADERS = 32,
   PAN_SX_ONCE_TIMESTAMP,
};

/* ---- job chains ---- */

struct pan_sx_job_header {
   unsigned type;
   unsigned index;
   uint64_t next;
   bool is_64b;
};

/* Runs one job; false after pan_sx_fault. */
typedef bool (*pan_sx_exec_fn)(struct pan_sx_ctx *ctx, uint64_t job_va);

#define PAN_SX_JOB_TYPES 16

/* What the walker needs from an architecture. */
struct pan_sx_arch {
   unsigned header_size_B;
   unsigned header_align_B;
   void (*unpack_header)(const void *cpu, struct pan_sx_job_header *out);
   /* Write exception_status and fault_pointer, nothing else. */
   void (*write_status)(void *cpu, uint32_t status, uint64_t fault_va);
   /* Name of a job type, NULL when the architecture has no such type. */
   const char *(*type_name)(unsigned type);
   /* Executors by job type; NULL for types not executed yet. */
   pan_sx_exec_fn exec[PAN_SX_JOB_TYPES];
};

extern const struct pan_sx_arch pan_v4_shim_exec_arch;
extern const struct pan_sx_arch pan_v5_shim_exec_arch;
extern const struct pan_sx_arch pan_v6_shim_exec_arch;
extern const struct pan_sx_arch pan_v7_shim_exec_arch;
extern const struct pan_sx_arch pan_v9_shim_exec_arch;

/* ---- pixels and surfaces (pan_shim_exec_pixel.c) ---- */

/* Tile-buffer ("internal") colour format: integer.fraction bits of the
 * logical channels R, G, B, A packed from bit 0 up, or raw bytes.
 */
struct pan_sx_tib_format {
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
struct pan_sx_wb_format {
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
struct pan_sx_zs_format {
   const char *name;
   uint8_t size_B;
   uint8_t depth_bit, depth_bits; /* depth_bits 0: no depth */
   bool depth_float;
   uint8_t stencil_bit, stencil_bits; /* stencil_bits 0: no stencil */
};

#define PAN_SX_MAX_PIXEL_B 16

/* One pixel value and the bits of it to store (the rest is kept). */
struct pan_sx_pixel {
   uint8_t size_B;
   uint8_t bytes[PAN_SX_MAX_PIXEL_B];
   uint8_t mask[PAN_SX_MAX_PIXEL_B];
};

enum pan_sx_layout {
   PAN_SX_LINEAR,
   PAN_SX_U_INTERLEAVED, /* 16x16 tiles, row_stride_B per row of tiles */
};

/* Inclusive pixel rectangle. */
struct pan_sx_rect {
   unsigned x0, y0, x1, y1;
};

/* One image to fill with a pixel value. */
struct pan_sx_fill {
   const char *what; /* for messages, e.g. "render target 2" */
   uint64_t base;
   uint32_t row_stride_B;
   uint32_t layer_stride_B;
   unsigned layers; /* samples stored as layers, 1 otherwise */
   enum pan_sx_layout layout;
   struct pan_sx_pixel px;
   /* Set by pan_sx_fill_check: CPU address of the first byte touched and
    * its offset from base.
    */
   uint8_t *cpu;
   uint64_t cpu_first_off;
};

/* Tile-buffer clear words -> memory pixel. */
bool pan_sx_color_pixel(struct pan_sx_ctx *ctx, const char *what,
                        const struct pan_sx_tib_format *tib,
                        const struct pan_sx_wb_format *wb, uint32_t swizzle,
                        const uint32_t clear[4], struct pan_sx_pixel *out);

/* Depth and/or stencil clear values -> memory pixel with the written bits
 * in the mask.
 */
void pan_sx_zs_pixel(const struct pan_sx_zs_format *f, bool write_depth,
                     float depth, bool write_stencil, uint8_t stencil,
                     struct pan_sx_pixel *out);

/* Check that the whole rectangle of every layer lies in one region and
 * remember its CPU address; false after a fault.
 */
bool pan_sx_fill_check(struct pan_sx_ctx *ctx, struct pan_sx_fill *fill,
                       const struct pan_sx_rect *r);

/* Store the pixel over the rectangle (after pan_sx_fill_check). */
void pan_sx_fill_run(const struct pan_sx_fill *fill,
                     const struct pan_sx_rect *r);

/* Host clock in nanoseconds, for timestamp writes. */
uint64_t pan_sx_now_ns(void);

#ifdef __cplusplus
}
#endif

#endif /* PAN_SHIM_EXEC_PRIV_H */
