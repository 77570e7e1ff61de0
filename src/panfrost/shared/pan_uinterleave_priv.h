/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * What the u-interleaved tiling files share.  Each SIMD flavour of the
 * whole-tile copies is its own file (pan_uinterleave_<path>.c), built with
 * the compiler flags that flavour needs, and exports one table of copy
 * functions; pan_uinterleave.c picks the table.
 */

#ifndef PAN_UINTERLEAVE_PRIV_H
#define PAN_UINTERLEAVE_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "pan_uinterleave.h"

#define UIL_INLINE inline __attribute__((always_inline))

/* spread4[v]: bit i of v moved to bit 2i (v < 16) */
static const uint8_t uil_spread4[16] = {
   0x00, 0x01, 0x04, 0x05, 0x10, 0x11, 0x14, 0x15,
   0x40, 0x41, 0x44, 0x45, 0x50, 0x51, 0x54, 0x55,
};

/* Position of element (x, y) inside a tile is (spread(y) * 3) ^ spread(x):
 * y fills both bits of each pair, x flips the low one.  The same holds one
 * level up for 2x2 quads and 4x4 blocks inside a tile, and a 4x4 tile of a
 * compressed format is laid out like the top-left 4x4 block of a 16x16
 * one. */
static UIL_INLINE unsigned
uil_index(unsigned x, unsigned y)
{
   return (uil_spread4[y] * 3u) ^ uil_spread4[x];
}

/* Quad qx of quad row qy of a tile of B-byte elements: its place in the
 * tile and its two element pairs in the even and odd rows of the linear
 * side. */
struct uil_quad {
   uint8_t *q, *e, *o;
};

static UIL_INLINE struct uil_quad
uil_quad_at(uint8_t *tile, uint8_t *lin, size_t stride, unsigned B,
            unsigned qx, unsigned qy)
{
   uint8_t *e = lin + 2 * qy * stride + 2 * B * qx;
   return (struct uil_quad){ tile + 4 * B * uil_index(qx, qy), e, e + stride };
}

struct uil_job {
   uint8_t *tiled;
   uint8_t *linear; /* element (x, y) of the rectangle */
   size_t tiled_stride_B;
   size_t linear_stride_B;
   unsigned x, y, w, h;
   bool nt; /* stream the destination of whole tiles */
};

typedef void (*uil_fn)(const struct uil_job *job);

/* One flavour's copies for one element size; `_c` for 4x4 tiles */
struct uil_entry {
   uil_fn store, load, store_c, load_c;
};

/* Indexed by element size in bytes; NULL where the size is unsupported.
 * Only the tables of the flavours built for the target exist. */
extern const struct uil_entry uil_table_portable[17];
extern const struct uil_entry uil_table_sse2[17];
extern const struct uil_entry uil_table_ssse3[17];
extern const struct uil_entry uil_table_neon[17];

#endif
