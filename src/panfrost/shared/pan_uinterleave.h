/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Software access to Mali "u-interleaved" (16x16 block) tiled images.
 *
 * An image is cut into square tiles of 16x16 elements (4x4 elements for
 * block-compressed formats, whose element is one compression block).  Tiles
 * are stored in raster order, one contiguous run of (tile elements * element
 * size) bytes each; a row of tiles is `tiled_stride_B` bytes apart.  Inside a
 * tile, the element at (x, y) lives at the index whose bits are, from most to
 * least significant:
 *
 *    y3 (x3^y3) y2 (x2^y2) y1 (x1^y1) y0 (x0^y0)
 *
 * (only the lower four bits for 4x4 tiles).  See
 * docs/drivers/panfrost/tiling.rst.
 *
 * "Store" copies a linear rectangle into the tiled image, "load" copies a
 * rectangle of the tiled image out to linear memory.  Linear pointers point
 * at the first element of the rectangle; linear strides may be any number of
 * bytes at least as large as a row of the rectangle.
 */

#ifndef PAN_UINTERLEAVE_H
#define PAN_UINTERLEAVE_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Edge of a tile, in elements */
#define PAN_UTILE_DIM_EL            16
#define PAN_UTILE_DIM_COMPRESSED_EL 4

/* What the tiling code needs to know about a format. */
struct pan_utile_format {
   /* Bytes per element: 1, 2, 3, 4, 6, 8, 12 or 16. */
   uint8_t el_size_B;

   /* Footprint of one element in pixels: 1x1 for plain formats, the
    * compression block (4x4 for BCn/ETC, 4x4 to 12x12 for ASTC) otherwise.
    * Any footprint other than 1x1 selects 4x4-element tiles. */
   uint8_t block_w_px;
   uint8_t block_h_px;
};

/* True if the element size is one the tiling routines handle. */
bool pan_utile_el_size_supported(unsigned el_size_B);

/* Size of one tile in bytes. */
static inline unsigned
pan_utile_size_B(unsigned el_size_B, bool compressed)
{
   unsigned dim = compressed ? PAN_UTILE_DIM_COMPRESSED_EL : PAN_UTILE_DIM_EL;
   return dim * dim * el_size_B;
}

/*
 * Element-unit interface.  The rectangle (x_el, y_el, w_el, h_el) is in
 * elements of the tiled image.  Return false (copying nothing) when the
 * element size is unsupported or the linear stride is smaller than a row.
 */
bool pan_uinterleave_store_el(void *tiled, uint32_t tiled_stride_B,
                              const void *linear, uint32_t linear_stride_B,
                              unsigned x_el, unsigned y_el, unsigned w_el,
                              unsigned h_el, unsigned el_size_B,
                              bool compressed);

bool pan_uinterleave_load_el(void *linear, uint32_t linear_stride_B,
                             const void *tiled, uint32_t tiled_stride_B,
                             unsigned x_el, unsigned y_el, unsigned w_el,
                             unsigned h_el, unsigned el_size_B,
                             bool compressed);

/*
 * Pixel-unit interface.  The origin must sit on a block boundary; width and
 * height are rounded up to whole blocks.  Return false on bad arguments.
 */
bool pan_uinterleave_store_px(void *tiled, uint32_t tiled_stride_B,
                              const void *linear, uint32_t linear_stride_B,
                              unsigned x_px, unsigned y_px, unsigned w_px,
                              unsigned h_px,
                              const struct pan_utile_format *fmt);

bool pan_uinterleave_load_px(void *linear, uint32_t linear_stride_B,
                             const void *tiled, uint32_t tiled_stride_B,
                             unsigned x_px, unsigned y_px, unsigned w_px,
                             unsigned h_px,
                             const struct pan_utile_format *fmt);

/*
 * Flavours of the whole-tile copies.  Each target builds the portable one
 * plus its SIMD ones (SSE2 and SSSE3 on x86-64, NEON on arm64 and armhf);
 * the best one the CPU can run is used unless a test or benchmark forces
 * another.
 */
enum pan_uinterleave_path {
   PAN_UINTERLEAVE_PORTABLE,
   PAN_UINTERLEAVE_SSE2,
   PAN_UINTERLEAVE_SSSE3,
   PAN_UINTERLEAVE_NEON,
   PAN_UINTERLEAVE_PATH_COUNT,
};

const char *pan_uinterleave_path_name(enum pan_uinterleave_path path);

/* Built for this target and supported by this CPU. */
bool pan_uinterleave_path_available(enum pan_uinterleave_path path);

/* The flavour copies use now. */
enum pan_uinterleave_path pan_uinterleave_current_path(void);

/* Testing aid: use `path` from now on; false (and no change) if it is not
 * available.  PAN_UINTERLEAVE_PATH_COUNT goes back to the best one.  Not
 * thread-safe. */
bool pan_uinterleave_force_path(enum pan_uinterleave_path path);

/* Copies of at least this many bytes stream their destination (default
 * 16 MiB); tests lower it to cover that path. */
void pan_uinterleave_set_stream_min_B(uint64_t min_B);

/*
 * Reference model: a direct transcription of the curve, one element at a
 * time.  Slow; meant as a test oracle and for tools.
 */
uint64_t pan_uinterleave_ref_offset_B(unsigned x_el, unsigned y_el,
                                      uint32_t tiled_stride_B,
                                      unsigned el_size_B, bool compressed);

void pan_uinterleave_ref_store_el(void *tiled, uint32_t tiled_stride_B,
                                  const void *linear,
                                  uint32_t linear_stride_B, unsigned x_el,
                                  unsigned y_el, unsigned w_el, unsigned h_el,
                                  unsigned el_size_B, bool compressed);

void pan_uinterleave_ref_load_el(void *linear, uint32_t linear_stride_B,
                                 const void *tiled, uint32_t tiled_stride_B,
                                 unsigned x_el, unsigned y_el, unsigned w_el,
                                 unsigned h_el, unsigned el_size_B,
                                 bool compressed);

#ifdef __cplusplus
}
#endif

#endif
