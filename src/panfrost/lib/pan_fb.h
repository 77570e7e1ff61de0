/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Framebuffer descriptors and fragment jobs.
 *
 * A render pass is described once, without hardware types, in struct
 * pan_fb; pan_fb_emit() turns it into the descriptor of the architecture
 * (v4 single-target FBD, v5 multi-target FBD, v6+ framebuffer descriptor,
 * each followed by its ZS/CRC extension and render targets) and
 * pan_fb_emit_fragment_job() into the job that resolves the tile buffer to
 * memory.  The per-architecture code lives in pan_vX_fb.c, compiled once
 * per architecture; pan_fb.c picks the copy for a device.
 */

#ifndef PAN_FB_H
#define PAN_FB_H

#include <stdbool.h>
#include <stdint.h>

#include "pan_format_table.h"
#include "pan_rt_format.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PAN_FB_MAX_RTS 8
#define PAN_TILE_PX 16

enum pan_fb_block {
   PAN_FB_BLOCK_LINEAR,
   PAN_FB_BLOCK_U_INTERLEAVED,
   /* v7+: 16x16 superblocks, headers in rows (not tiled), written
    * uncompressed or compressed as the GPU likes.
    */
   PAN_FB_BLOCK_AFBC,
};

struct pan_fb_color {
   bool enabled;
   struct pan_rt_format format;
   enum pan_fb_block block;
   uint64_t base;
   uint32_t row_stride_B;     /* of a pixel row, or of a row of tiles */
   uint32_t surface_stride_B; /* between layers */
   /* PAN_FB_BLOCK_AFBC: base is the first header, row_stride_B the header
    * bytes of a row of superblocks, the body starts afbc_body_offset_B
    * after base, its payloads packed as afbc_mode (enum pan_afbc_mode of
    * pan_image_layout.h) says.
    */
   uint32_t afbc_body_offset_B;
   unsigned afbc_mode;
   bool clear;                /* start from clear_words, else undefined */
   uint32_t clear_words[4];   /* pan_rt_pack_clear() */
   bool write;                /* write the tile buffer back to memory */
   /* Multisampled passes: write the mean of the samples (a resolve into
    * a single-sampled surface) instead of one surface per sample,
    * surface_stride_B apart.
    */
   bool resolve;
};

/* The depth/stencil attachment: one buffer, which the layout puts in the
 * depth/stencil or the separate stencil fields of the descriptor, or for
 * PAN_ZS_D32F_S8 two planes, one in each.
 */
struct pan_fb_zs {
   enum pan_zs_layout format; /* PAN_ZS_NONE: no attachment */
   enum pan_fb_block block;
   uint64_t base;
   uint32_t row_stride_B;
   uint32_t surface_stride_B;
   /* Write depth / stencil back to memory; ignored for an aspect the
    * layout lacks.
    */
   bool write_z, write_s;
   /* PAN_ZS_D32F_S8: the separate stencil plane (base and the strides
    * above are the depth plane's).
    */
   uint64_t s_base;
   uint32_t s_row_stride_B;
   uint32_t s_surface_stride_B;
   /* PAN_FB_BLOCK_AFBC (v6+, D16, D24S8 and D24X8): base is the first
    * header, row_stride_B the header bytes of a row of superblocks, the
    * body starts afbc_body_offset_B after base; the stencil of D24S8 is
    * in the same surface.
    */
   uint32_t afbc_body_offset_B;
   float z_clear;
   uint8_t s_clear;
};

struct pan_fb {
   unsigned width_px, height_px;
   /* Samples a pixel: 1, or 4 on v6+ (the rotated grid of
    * pan_fb_write_sample_positions); 0 counts as 1.  Depth/stencil of a
    * multisampled pass is stored one surface per sample.
    */
   unsigned nr_samples;
   unsigned rt_count; /* at least 1; disabled RTs keep their slot */
   struct pan_fb_color rts[PAN_FB_MAX_RTS];
   struct pan_fb_zs zs;

   /* v6+: sample position table and tiler context (0 when the pass has
    * no geometry).
    */
   uint64_t sample_positions;
   uint64_t tiler;

   /* v6+: the frame shaders' three draw descriptors (colour pre-frame,
    * depth/stencil pre-frame, post-frame), 0 for none; preload_color runs
    * the first on every tile before the pass's primitives (it loads the
    * render targets the pass neither clears nor fully covers),
    * preload_zs the second (depth/stencil the same way).
    */
   uint64_t frame_shaders;
   bool preload_color, preload_zs;

   /* v4/v5: the polygon list, which must exist even without geometry;
    * for a pass without geometry it is PAN_FB_EMPTY_POLYGON_LIST_B
    * bytes, zeroed except for what pan_fb_init_empty_polygon_list() put
    * in.
    */
   uint64_t polygon_list;
   bool no_hierarchical_tiling; /* T720-class tilers */

   /* Tile-buffer budget in bytes (half the tile buffer, so two tiles can
    * be in flight).
    */
   unsigned tile_budget_B;
};

#define PAN_FB_EMPTY_POLYGON_LIST_B 1024

/* Bytes and alignment of the descriptor pan_fb_emit() writes. */
unsigned pan_fb_size_B(unsigned arch, const struct pan_fb *fb);
#define PAN_FB_ALIGN_B 64

/* Bytes and alignment of a fragment job. */
unsigned pan_fragment_job_size_B(unsigned arch);
#define PAN_JOB_ALIGN_B 128

/* Writes the descriptor at cpu (zeroed, pan_fb_size_B bytes) and returns
 * the pointer a job uses for it: gpu_va plus the tag bits.
 */
uint64_t pan_fb_emit(unsigned arch, const struct pan_fb *fb, void *cpu,
                     uint64_t gpu_va);

/* A fragment job covering the whole framebuffer, first and last of its
 * chain.
 */
void pan_fb_emit_fragment_job(unsigned arch, const struct pan_fb *fb,
                              uint64_t fbd_ptr, void *cpu);

/* Prepares a zeroed polygon list for a pass without geometry. */
void pan_fb_init_empty_polygon_list(const struct pan_fb *fb, void *cpu);

/* v6+: the sample position tables (bytes, alignment 64): the
 * single-sample one at 0, the 4x one at PAN_SAMPLE_POSITIONS_4X_B.
 */
#define PAN_SAMPLE_POSITIONS_B 512
#define PAN_SAMPLE_POSITIONS_4X_B 256
void pan_fb_write_sample_positions(void *cpu);
/* Where sample s of a pixel of nr_samples (1 or 4) samples lies in those
 * tables: x and y in pixels from the pixel's corner (the centre for one).
 */
void pan_fb_sample_position(unsigned nr_samples, unsigned s, float pos[2]);

/* Whether the architecture can write this colour format back (v4 has a
 * single render target and fewer raw formats).
 */
bool pan_fb_color_supported(unsigned arch, const struct pan_rt_format *f);

/* Whether the architecture's descriptors can name this depth/stencil
 * layout; pan_fb_emit() must not be given one they cannot.
 */
bool pan_fb_zs_supported(unsigned arch, enum pan_zs_layout layout);

/* Tile size in pixels and colour buffer bytes per tile for a framebuffer;
 * exposed for tests.
 */
void pan_fb_tile_size(const struct pan_fb *fb, unsigned *tile_px,
                      unsigned *cbuf_B);

#ifdef __cplusplus
}
#endif

#endif /* PAN_FB_H */
