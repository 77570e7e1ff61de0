/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Reference model of u-interleaved addressing.  Deliberately naive: every
 * element address is rebuilt bit by bit from the curve so that it shares
 * nothing with the fast path it is used to check.
 */

#include <string.h>
#include "pan_uinterleave.h"

uint64_t
pan_uinterleave_ref_offset_B(unsigned x_el, unsigned y_el,
                             uint32_t tiled_stride_B, unsigned el_size_B,
                             bool compressed)
{
   unsigned dim_bits = compressed ? 2 : 4;
   unsigned dim = 1u << dim_bits;
   unsigned tx = x_el / dim, ty = y_el / dim;
   unsigned lx = x_el % dim, ly = y_el % dim;

   /* Build the index from the most significant pair down:
    * y_i then (x_i ^ y_i), for i = dim_bits-1 .. 0. */
   unsigned index = 0;
   for (int i = dim_bits - 1; i >= 0; --i) {
      unsigned yb = (ly >> i) & 1;
      unsigned xb = (lx >> i) & 1;
      index = (index << 1) | yb;
      index = (index << 1) | (xb ^ yb);
   }

   uint64_t tile_B = (uint64_t)dim * dim * el_size_B;
   return (uint64_t)ty * tiled_stride_B + tx * tile_B +
          (uint64_t)index * el_size_B;
}

void
pan_uinterleave_ref_store_el(void *tiled, uint32_t tiled_stride_B,
                             const void *linear, uint32_t linear_stride_B,
                             unsigned x_el, unsigned y_el, unsigned w_el,
                             unsigned h_el, unsigned el_size_B,
                             bool compressed)
{
   for (unsigned j = 0; j < h_el; ++j) {
      for (unsigned i = 0; i < w_el; ++i) {
         uint64_t off = pan_uinterleave_ref_offset_B(
            x_el + i, y_el + j, tiled_stride_B, el_size_B, compressed);
         const uint8_t *src = (const uint8_t *)linear +
                              (uint64_t)j * linear_stride_B +
                              (uint64_t)i * el_size_B;
         memcpy((uint8_t *)tiled + off, src, el_size_B);
      }
   }
}

void
pan_uinterleave_ref_load_el(void *linear, uint32_t linear_stride_B,
                            const void *tiled, uint32_t tiled_stride_B,
                            unsigned x_el, unsigned y_el, unsigned w_el,
                            unsigned h_el, unsigned el_size_B,
                            bool compressed)
{
   for (unsigned j = 0; j < h_el; ++j) {
      for (unsigned i = 0; i < w_el; ++i) {
         uint64_t off = pan_uinterleave_ref_offset_B(
            x_el + i, y_el + j, tiled_stride_B, el_size_B, compressed);
         uint8_t *dst = (uint8_t *)linear + (uint64_t)j * linear_stride_B +
                        (uint64_t)i * el_size_B;
         memcpy(dst, (const uint8_t *)tiled + off, el_size_B);
      }
   }
}
