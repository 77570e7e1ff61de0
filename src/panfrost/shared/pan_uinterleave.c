/*
 * Copyright © 2024 The Panfrost project authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Fast u-interleaved tiling.
 *
 * Whole 16x16 tiles take the fast path.  Group the tile into 2x2 "quads":
 * a quad's four elements are consecutive in memory, in the order
 *
 *    (0,0) (1,0) (1,1) (0,1)        (x,y inside the quad)
 *
 * and the quads themselves follow the same curve one level up, so quad
 * (qx, qy) starts at element 4 * (spread(qy) << 1 | spread(qx ^ qy)), where
 * spread() moves bit i to bit 2i.  A quad is therefore one copy of the two
 * top elements plus the two bottom elements in swapped order; with the
 * element size a compile-time constant every copy is a couple of plain loads
 * and stores (and for 1, 2 and 4 byte elements the swap is a rotate).  The
 * loops are fully unrolled so every in-tile offset is a constant.
 *
 * Partial tiles (rectangle edges) and 4x4-block tiles of compressed formats
 * go through a per-element loop that computes each address from lookup
 * tables; it handles any rectangle.
 */

#include <string.h>
#include "pan_uinterleave.h"

#define UIL_INLINE inline __attribute__((always_inline))

/* spread4[v]: bit i of v moved to bit 2i (v < 16) */
static const uint8_t spread4[16] = {
   0x00, 0x01, 0x04, 0x05, 0x10, 0x11, 0x14, 0x15,
   0x40, 0x41, 0x44, 0x45, 0x50, 0x51, 0x54, 0x55,
};

/* Position of element (x, y) inside a tile is
 * (spread(y) * 3) ^ spread(x): y fills both bits of each pair, x flips
 * the low one.  The same holds one level up for 2x2 quads inside a tile
 * and 4x4 blocks inside a tile. */
static UIL_INLINE unsigned
uil_index(unsigned x, unsigned y)
{
   return (spread4[y] * 3u) ^ spread4[x];
}

#if defined(__SSE2__)
#include "pan_uinterleave_sse2.h"
#endif

struct uil_job {
   uint8_t *tiled;
   uint8_t *linear; /* element (x, y) of the rectangle */
   size_t tiled_stride_B;
   size_t linear_stride_B;
   unsigned x, y, w, h;
};

/* Per-element path for any rectangle.  `dim_bits` is log2 of the tile edge. */
static UIL_INLINE void
uil_generic(const struct uil_job *job, unsigned x, unsigned y, unsigned w,
            unsigned h, unsigned B, unsigned dim_bits, bool store)
{
   const unsigned mask = (1u << dim_bits) - 1;
   const size_t tile_B = (size_t)B << (2 * dim_bits);

   for (unsigned j = 0; j < h; ++j) {
      unsigned ty = y + j;
      uint8_t *trow = job->tiled + (size_t)(ty >> dim_bits) * job->tiled_stride_B;
      uint8_t *lrow = job->linear + (size_t)(ty - job->y) * job->linear_stride_B +
                      (size_t)(x - job->x) * B;
      unsigned ydup = spread4[ty & mask] * 3u;

      for (unsigned i = 0; i < w; ++i) {
         unsigned tx = x + i;
         uint8_t *t = trow + (size_t)(tx >> dim_bits) * tile_B +
                      (size_t)B * (ydup ^ spread4[tx & mask]);
         if (store)
            memcpy(t, lrow + (size_t)i * B, B);
         else
            memcpy(lrow + (size_t)i * B, t, B);
      }
   }
}

/* Swap the two halves of a 2*B byte pair in place while copying. */
static UIL_INLINE void
copy_swapped_pair(uint8_t *dst, const uint8_t *src, unsigned B)
{
   if (B == 1) {
      uint16_t v;
      memcpy(&v, src, 2);
      v = (uint16_t)((v >> 8) | (v << 8));
      memcpy(dst, &v, 2);
   } else if (B == 2) {
      uint32_t v;
      memcpy(&v, src, 4);
      v = (v >> 16) | (v << 16);
      memcpy(dst, &v, 4);
   } else if (B == 4) {
      uint64_t v;
      memcpy(&v, src, 8);
      v = (v >> 32) | (v << 32);
      memcpy(dst, &v, 8);
   } else {
      memcpy(dst, src + B, B);
      memcpy(dst + B, src, B);
   }
}

/* One whole 16x16 tile.  `lin` points at the tile's top-left element. */
static UIL_INLINE void
uil_tile(uint8_t *restrict tile, uint8_t *restrict lin, size_t stride, unsigned B,
         bool store)
{
#if defined(__SSE2__)
   if (uil_tile_sse2(tile, lin, stride, B, store))
      return;
#endif

#pragma GCC unroll 8
   for (unsigned qy = 0; qy < 8; ++qy) {
      uint8_t *even = lin + (2 * qy) * stride;
      uint8_t *odd = even + stride;

#pragma GCC unroll 8
      for (unsigned qx = 0; qx < 8; ++qx) {
         uint8_t *q = tile + 4 * B * uil_index(qx, qy);
         uint8_t *e = even + 2 * B * qx;
         uint8_t *o = odd + 2 * B * qx;

         if (store) {
            memcpy(q, e, 2 * B);
            copy_swapped_pair(q + 2 * B, o, B);
         } else {
            memcpy(e, q, 2 * B);
            copy_swapped_pair(o, q + 2 * B, B);
         }
      }
   }
}

static UIL_INLINE void
uil_access(const struct uil_job *job, unsigned B, bool store)
{
   const unsigned x0 = job->x, y0 = job->y;
   const unsigned x1 = x0 + job->w, y1 = y0 + job->h;
   const unsigned fx0 = (x0 + 15) & ~15u, fy0 = (y0 + 15) & ~15u;
   const unsigned fx1 = x1 & ~15u, fy1 = y1 & ~15u;

   if (fx0 >= fx1 || fy0 >= fy1) {
      uil_generic(job, x0, y0, job->w, job->h, B, 4, store);
      return;
   }

   /* Bands above and below the full tiles span the whole width. */
   uil_generic(job, x0, y0, job->w, fy0 - y0, B, 4, store);
   uil_generic(job, x0, fy1, job->w, y1 - fy1, B, 4, store);

   /* Strips left and right of the full tiles. */
   uil_generic(job, x0, fy0, fx0 - x0, fy1 - fy0, B, 4, store);
   uil_generic(job, fx1, fy0, x1 - fx1, fy1 - fy0, B, 4, store);

   const size_t tile_B = 256 * (size_t)B;
   for (unsigned ty = fy0; ty < fy1; ty += 16) {
      uint8_t *trow = job->tiled + (size_t)(ty >> 4) * job->tiled_stride_B +
                      (size_t)(fx0 >> 4) * tile_B;
      uint8_t *lrow = job->linear + (size_t)(ty - y0) * job->linear_stride_B +
                      (size_t)(fx0 - x0) * B;

      for (unsigned tx = fx0; tx < fx1; tx += 16) {
         uil_tile(trow, lrow, job->linear_stride_B, B, store);
         trow += tile_B;
         lrow += 16 * B;
      }
   }
}

#define UIL_SIZE(B)                                                           \
   static void uil_store_##B(const struct uil_job *job)                       \
   {                                                                          \
      uil_access(job, B, true);                                               \
   }                                                                          \
   static void uil_load_##B(const struct uil_job *job)                        \
   {                                                                          \
      uil_access(job, B, false);                                              \
   }                                                                          \
   static void uil_store_c##B(const struct uil_job *job)                      \
   {                                                                          \
      uil_generic(job, job->x, job->y, job->w, job->h, B, 2, true);           \
   }                                                                          \
   static void uil_load_c##B(const struct uil_job *job)                       \
   {                                                                          \
      uil_generic(job, job->x, job->y, job->w, job->h, B, 2, false);          \
   }

UIL_SIZE(1)
UIL_SIZE(2)
UIL_SIZE(3)
UIL_SIZE(4)
UIL_SIZE(6)
UIL_SIZE(8)
UIL_SIZE(12)
UIL_SIZE(16)

typedef void (*uil_fn)(const struct uil_job *job);

struct uil_entry {
   uil_fn store, load, store_c, load_c;
};

#define UIL_ENTRY(B)                                                          \
   [B] = { uil_store_##B, uil_load_##B, uil_store_c##B, uil_load_c##B }

static const struct uil_entry uil_table[17] = {
   UIL_ENTRY(1), UIL_ENTRY(2),  UIL_ENTRY(3),  UIL_ENTRY(4),
   UIL_ENTRY(6), UIL_ENTRY(8),  UIL_ENTRY(12), UIL_ENTRY(16),
};

bool
pan_utile_el_size_supported(unsigned el_size_B)
{
   return el_size_B < 17 && uil_table[el_size_B].store != NULL;
}

static bool
uil_run(void *tiled, uint32_t tiled_stride_B, void *linear,
        uint32_t linear_stride_B, unsigned x, unsigned y, unsigned w,
        unsigned h, unsigned B, bool compressed, bool store)
{
   if (!pan_utile_el_size_supported(B))
      return false;
   if (w == 0 || h == 0)
      return true;
   if (h > 1 && (uint64_t)linear_stride_B < (uint64_t)w * B)
      return false;
   if ((uint64_t)x + w > UINT32_MAX || (uint64_t)y + h > UINT32_MAX)
      return false;

   const struct uil_job job = {
      .tiled = tiled,
      .linear = linear,
      .tiled_stride_B = tiled_stride_B,
      .linear_stride_B = linear_stride_B,
      .x = x, .y = y, .w = w, .h = h,
   };
   const struct uil_entry *e = &uil_table[B];

   if (compressed)
      (store ? e->store_c : e->load_c)(&job);
   else
      (store ? e->store : e->load)(&job);
   return true;
}

bool
pan_uinterleave_store_el(void *tiled, uint32_t tiled_stride_B,
                         const void *linear, uint32_t linear_stride_B,
                         unsigned x_el, unsigned y_el, unsigned w_el,
                         unsigned h_el, unsigned el_size_B, bool compressed)
{
   return uil_run(tiled, tiled_stride_B, (void *)linear, linear_stride_B,
                  x_el, y_el, w_el, h_el, el_size_B, compressed, true);
}

bool
pan_uinterleave_load_el(void *linear, uint32_t linear_stride_B,
                        const void *tiled, uint32_t tiled_stride_B,
                        unsigned x_el, unsigned y_el, unsigned w_el,
                        unsigned h_el, unsigned el_size_B, bool compressed)
{
   return uil_run((void *)tiled, tiled_stride_B, linear, linear_stride_B,
                  x_el, y_el, w_el, h_el, el_size_B, compressed, false);
}

/* Convert a pixel rectangle to elements; false if the origin is not on a
 * block boundary. */
static bool
uil_px_to_el(const struct pan_utile_format *fmt, unsigned *x, unsigned *y,
             unsigned *w, unsigned *h, bool *compressed)
{
   unsigned bw = fmt->block_w_px, bh = fmt->block_h_px;

   if (bw == 0 || bh == 0 || *x % bw || *y % bh)
      return false;

   *compressed = bw > 1 || bh > 1;
   *x /= bw;
   *y /= bh;
   *w = (unsigned)(((uint64_t)*w + bw - 1) / bw);
   *h = (unsigned)(((uint64_t)*h + bh - 1) / bh);
   return true;
}

bool
pan_uinterleave_store_px(void *tiled, uint32_t tiled_stride_B,
                         const void *linear, uint32_t linear_stride_B,
                         unsigned x_px, unsigned y_px, unsigned w_px,
                         unsigned h_px, const struct pan_utile_format *fmt)
{
   bool compressed;

   if (!uil_px_to_el(fmt, &x_px, &y_px, &w_px, &h_px, &compressed))
      return false;

   return pan_uinterleave_store_el(tiled, tiled_stride_B, linear,
                                   linear_stride_B, x_px, y_px, w_px, h_px,
                                   fmt->el_size_B, compressed);
}

bool
pan_uinterleave_load_px(void *linear, uint32_t linear_stride_B,
                        const void *tiled, uint32_t tiled_stride_B,
                        unsigned x_px, unsigned y_px, unsigned w_px,
                        unsigned h_px, const struct pan_utile_format *fmt)
{
   bool compressed;

   if (!uil_px_to_el(fmt, &x_px, &y_px, &w_px, &h_px, &compressed))
      return false;

   return pan_uinterleave_load_el(linear, linear_stride_B, tiled,
                                  tiled_stride_B, x_px, y_px, w_px, h_px,
                                  fmt->el_size_B, compressed);
}
