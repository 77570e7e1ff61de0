/*
 * Copyright 2026 The Panfrost fork authors
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
 * On x86, SSE2 (and SSSE3, picked at run time) versions replace the quad
 * copies for the common element sizes, and small elements are walked a row
 * block at a time across several tiles; docs/drivers/panfrost/tiling.rst
 * explains both.
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
   bool nt; /* stream the destination of whole tiles */
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
      uint8_t *trow =
         job->tiled + (size_t)(ty >> dim_bits) * job->tiled_stride_B;
      uint8_t *lrow = job->linear +
                      (size_t)(ty - job->y) * job->linear_stride_B +
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

/* Copy a pair of B-byte elements, swapping the two. */
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

/* Rows 2*qy and 2*qy+1 of one tile, any element size. */
static UIL_INLINE void
uil_rows_quads(uint8_t *tile, uint8_t *lin, size_t stride, unsigned B,
               unsigned qy, bool store)
{
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

static UIL_INLINE uint64_t
ld64(const uint8_t *p)
{
   uint64_t v;
   memcpy(&v, p, 8);
   return v;
}

static UIL_INLINE void
st64(uint8_t *p, uint64_t v)
{
   memcpy(p, &v, 8);
}

/* Swap the two 24-bit elements in the low 48 bits. */
static UIL_INLINE uint64_t
swap24(uint64_t v)
{
   return ((v >> 24) & 0xffffff) | ((v & 0xffffff) << 24);
}

/*
 * 3-byte elements, rows 2*qy and 2*qy+1 of one tile.  A quad is 12 bytes,
 * a 48-bit pair from each row.  Each pair is read with one 64-bit load; the
 * last pair of a row is read from 2 bytes earlier so that nothing past the
 * tile's part of the row is touched.  When loading, pairs are written 8
 * bytes at a time in increasing x, each write's 2 spare bytes being
 * overwritten by the next pair; the last pair is written exactly.
 */
static UIL_INLINE void
uil_rows_b3(uint8_t *tile, uint8_t *lin, size_t stride, unsigned qy,
            bool store)
{
   const uint64_t m48 = 0xffffffffffffull;
   uint8_t *even = lin + (2 * qy) * stride;
   uint8_t *odd = even + stride;

#pragma GCC unroll 8
   for (unsigned qx = 0; qx < 8; ++qx) {
      uint8_t *q = tile + 12 * uil_index(qx, qy);
      uint8_t *e = even + 6 * qx, *o = odd + 6 * qx;

      if (store) {
         uint64_t ev = qx < 7 ? ld64(e) : ld64(e - 2) >> 16;
         uint64_t ov = swap24(qx < 7 ? ld64(o) : ld64(o - 2) >> 16);
         uint32_t hi = (uint32_t)(ov >> 16);
         st64(q, (ev & m48) | (ov << 48));
         memcpy(q + 8, &hi, 4);
      } else {
         uint64_t lo = ld64(q);
         uint32_t hi;
         memcpy(&hi, q + 8, 4);
         uint64_t ov = swap24((lo >> 48) | ((uint64_t)hi << 16));
         if (qx < 7) {
            st64(e, lo);
            st64(o, ov);
         } else {
            memcpy(e, &lo, 6);
            memcpy(o, &ov, 6);
         }
      }
   }
}

/* Whole-tile kernels work on a "row block" of a tile at a time: 4 rows for
 * the SSE2 1/2-byte kernels, a row pair otherwise. */
static UIL_INLINE unsigned
uil_row_blocks(unsigned B)
{
#if defined(__SSE2__)
   if (B <= 2)
      return 4;
#endif
   (void)B;
   return 8;
}

/* `nt`: use streaming stores for the destination (SIMD paths only) */
static UIL_INLINE void
uil_row_block(uint8_t *tile, uint8_t *lin, size_t stride, unsigned B,
              unsigned rb, bool store, bool nt)
{
#if defined(__SSE2__)
   switch (B) {
   case 1: uil_rows_sse2_b1(tile, lin, stride, rb, store, nt); return;
   case 2: uil_rows_sse2_b2(tile, lin, stride, rb, store, nt); return;
   case 4: uil_rows_sse2_b4(tile, lin, stride, rb, store, nt); return;
   case 8: uil_rows_sse2_b8(tile, lin, stride, rb, store, nt); return;
   case 16: uil_rows_sse2_b16(tile, lin, stride, rb, store, nt); return;
   default: break;
   }
#endif
   (void)nt;
   if (B == 3)
      uil_rows_b3(tile, lin, stride, rb, store);
   else
      uil_rows_quads(tile, lin, stride, B, rb, store);
}

/*
 * A horizontal run of `count` whole tiles, walked in pieces of a few tiles.
 * Within a piece we go one row block at a time across all its tiles.  For
 * 1 and 2 byte elements a tile's row is only 16 or 32 bytes, so a
 * tile-at-a-time walk would touch sixteen short runs of lines a row apart
 * (which also share cache sets when the stride is a multiple of 4 KiB);
 * walking a 4 KiB piece per row block instead streams the linear side as a
 * few long runs while the piece's tiled bytes stay in the L1 cache.  Larger
 * elements have cache-line sized tile rows and mostly measured best tile by
 * tile.
 */
static UIL_INLINE unsigned
uil_piece_tiles(unsigned B, bool store, bool nt)
{
   /* Streaming stores into the tile must fill each cache line at once,
    * which only the tile-by-tile walk does. */
   if (store && nt)
      return 1;
   /* Measured: 3 and 4-byte loads also gain, larger elements do not.
    * Four 3-byte tiles make whole 192-byte runs of each row, which
    * streaming stores need; cached stores do better tile by tile. */
   if (B == 3 && !store)
      return nt ? 4 : 1;
   if (B <= 2 || (B == 4 && !store))
      return 4096 / (256 * B);
   return 1;
}

static UIL_INLINE void
uil_band(uint8_t *tiles, uint8_t *lin, size_t stride, unsigned count,
         unsigned B, bool store, bool nt)
{
   const unsigned n_rb = uil_row_blocks(B);
   const size_t tile_B = 256 * (size_t)B;
   const unsigned piece = uil_piece_tiles(B, store, nt);

   for (unsigned first = 0; first < count; first += piece) {
      unsigned n = count - first < piece ? count - first : piece;
      uint8_t *t0 = tiles + first * tile_B, *l0 = lin + first * 16 * B;

#pragma GCC unroll 8
      for (unsigned rb = 0; rb < n_rb; ++rb) {
         uint8_t *t = t0, *l = l0;
         for (unsigned i = 0; i < n; ++i) {
            uil_row_block(t, l, stride, B, rb, store, nt);
            t += tile_B;
            l += 16 * B;
         }
      }
   }
}

/* Copy the partial tiles around the rectangle's whole tiles.  Returns false
 * if there are no whole tiles, else their extent in *box (x0, y0, x1, y1). */
static UIL_INLINE bool
uil_edges(const struct uil_job *job, unsigned B, bool store, unsigned box[4])
{
   const unsigned x0 = job->x, y0 = job->y;
   const unsigned x1 = x0 + job->w, y1 = y0 + job->h;
   const unsigned fx0 = (x0 + 15) & ~15u, fy0 = (y0 + 15) & ~15u;
   const unsigned fx1 = x1 & ~15u, fy1 = y1 & ~15u;

   if (fx0 >= fx1 || fy0 >= fy1) {
      uil_generic(job, x0, y0, job->w, job->h, B, 4, store);
      return false;
   }

   /* Bands above and below the whole tiles span the whole width. */
   uil_generic(job, x0, y0, job->w, fy0 - y0, B, 4, store);
   uil_generic(job, x0, fy1, job->w, y1 - fy1, B, 4, store);

   /* Strips left and right of the whole tiles. */
   uil_generic(job, x0, fy0, fx0 - x0, fy1 - fy0, B, 4, store);
   uil_generic(job, fx1, fy0, x1 - fx1, fy1 - fy0, B, 4, store);

   box[0] = fx0;
   box[1] = fy0;
   box[2] = fx1;
   box[3] = fy1;
   return true;
}

/* Pointers to the first whole tile of tile row `ty` on both sides. */
static UIL_INLINE void
uil_band_start(const struct uil_job *job, const unsigned box[4], unsigned ty,
               unsigned B, uint8_t **tiled, uint8_t **linear)
{
   *tiled = job->tiled + (size_t)(ty >> 4) * job->tiled_stride_B +
            (size_t)(box[0] >> 4) * 256 * B;
   *linear = job->linear + (size_t)(ty - job->y) * job->linear_stride_B +
             (size_t)(box[0] - job->x) * B;
}

static UIL_INLINE void
uil_access(const struct uil_job *job, unsigned B, bool store, bool nt)
{
   unsigned box[4];

   if (!uil_edges(job, B, store, box))
      return;

   for (unsigned ty = box[1]; ty < box[3]; ty += 16) {
      uint8_t *trow, *lrow;
      uil_band_start(job, box, ty, B, &trow, &lrow);
      uil_band(trow, lrow, job->linear_stride_B, (box[2] - box[0]) / 16, B,
               store, nt);
   }
}

#if defined(__SSE2__) && defined(__GNUC__)
#include "pan_uinterleave_ssse3.h"
#define UIL_HAVE_SSSE3 1

/* SSSE3 counterparts of uil_row_block() and uil_access(), for 1 and 3
 * byte elements.  Same walk orders as the SSE2/portable code. */
static UIL_INLINE UIL_SSSE3 void
uil_access_ssse3(const struct uil_job *job, unsigned B, bool store, bool nt)
{
   /* 3-byte loads into cached memory go a row pair at a time */
   const bool b3_pairs = B == 3 && !store && !nt;
   const unsigned n_rb = b3_pairs ? 8 : 4;
   const unsigned piece = uil_piece_tiles(B, store, nt);
   const size_t tile_B = 256 * B;
   unsigned box[4];

   if (!uil_edges(job, B, store, box))
      return;

   for (unsigned ty = box[1]; ty < box[3]; ty += 16) {
      uint8_t *t, *l;
      unsigned count = (box[2] - box[0]) / 16;

      uil_band_start(job, box, ty, B, &t, &l);
      for (unsigned first = 0; first < count; first += piece) {
         unsigned n = count - first < piece ? count - first : piece;

#pragma GCC unroll 8
         for (unsigned rb = 0; rb < n_rb; ++rb) {
            for (unsigned i = 0; i < n; ++i) {
               uint8_t *ti = t + (first + i) * tile_B;
               uint8_t *li = l + (first + i) * 16 * B;
               if (B == 1)
                  uil_rows_b1_ssse3(ti, li, job->linear_stride_B, rb, store,
                                    nt);
               else if (b3_pairs)
                  uil_load_rows_b3_ssse3(ti, li, job->linear_stride_B, rb);
               else
                  uil_rows_b3_ssse3(ti, li, job->linear_stride_B, rb, store,
                                    nt);
            }
         }
      }
   }
}

static UIL_SSSE3 void
uil_store_1_ssse3(const struct uil_job *job)
{
   if (job->nt)
      uil_access_ssse3(job, 1, true, true);
   else
      uil_access_ssse3(job, 1, true, false);
}

static UIL_SSSE3 void
uil_load_1_ssse3(const struct uil_job *job)
{
   if (job->nt)
      uil_access_ssse3(job, 1, false, true);
   else
      uil_access_ssse3(job, 1, false, false);
}

static UIL_SSSE3 void
uil_store_3_ssse3(const struct uil_job *job)
{
   if (job->nt)
      uil_access_ssse3(job, 3, true, true);
   else
      uil_access_ssse3(job, 3, true, false);
}

static UIL_SSSE3 void
uil_load_3_ssse3(const struct uil_job *job)
{
   if (job->nt)
      uil_access_ssse3(job, 3, false, true);
   else
      uil_access_ssse3(job, 3, false, false);
}
#endif

#define UIL_SIZE(B)                                                           \
   static void uil_store_##B(const struct uil_job *job)                       \
   {                                                                          \
      if (job->nt)                                                            \
         uil_access(job, B, true, true);                                      \
      else                                                                    \
         uil_access(job, B, true, false);                                     \
   }                                                                          \
   static void uil_load_##B(const struct uil_job *job)                        \
   {                                                                          \
      if (job->nt)                                                            \
         uil_access(job, B, false, true);                                     \
      else                                                                    \
         uil_access(job, B, false, false);                                    \
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

/*
 * Copies bigger than a last-level cache write their destination with
 * streaming stores: the data will not be read back by the CPU soon, and
 * skipping the read-for-ownership of every destination line saves up to a
 * third of the memory traffic.  Needs 16-byte aligned destination rows.
 */
static uint64_t uil_stream_min_B = 16u << 20;

void
pan_uinterleave_set_stream_min_B(uint64_t min_B)
{
   uil_stream_min_B = min_B;
}

static bool
uil_use_streaming(const struct uil_job *job, unsigned B, bool store)
{
#if defined(__SSE2__)
   if ((uint64_t)job->w * job->h * B < uil_stream_min_B)
      return false;

   if (store)
      return ((uintptr_t)job->tiled | job->tiled_stride_B) % 16 == 0;

   /* Whole tiles start at the first 16-aligned column */
   const uint8_t *first = job->linear + (size_t)(-job->x & 15) * B;
   return ((uintptr_t)first | job->linear_stride_B) % 16 == 0;
#else
   (void)job;
   (void)B;
   (void)store;
   return false;
#endif
}

/* Tests clear this to exercise the portable paths too. */
static bool uil_force_portable;

void
pan_uinterleave_force_portable(bool portable)
{
   uil_force_portable = portable;
}

/* Streaming stores are weakly ordered: fence before anyone else looks */
static void
uil_stream_fence(const struct uil_job *job)
{
#if defined(__SSE2__)
   if (job->nt)
      _mm_sfence();
#else
   (void)job;
#endif
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
   /* Leave room to round the far corner up to a tile boundary */
   if ((uint64_t)x + w > UINT32_MAX - 15 || (uint64_t)y + h > UINT32_MAX - 15)
      return false;

   struct uil_job job = {
      .tiled = tiled,
      .linear = linear,
      .tiled_stride_B = tiled_stride_B,
      .linear_stride_B = linear_stride_B,
      .x = x, .y = y, .w = w, .h = h,
   };
   const struct uil_entry *e = &uil_table[B];

   job.nt = !compressed && !uil_force_portable &&
            uil_use_streaming(&job, B, store);

   if (compressed) {
      (store ? e->store_c : e->load_c)(&job);
      return true;
   }

#ifdef UIL_HAVE_SSSE3
   if ((B == 1 || B == 3) && !uil_force_portable &&
       __builtin_cpu_supports("ssse3")) {
      if (B == 1)
         (store ? uil_store_1_ssse3 : uil_load_1_ssse3)(&job);
      else
         (store ? uil_store_3_ssse3 : uil_load_3_ssse3)(&job);
      uil_stream_fence(&job);
      return true;
   }
#endif

   (store ? e->store : e->load)(&job);
   uil_stream_fence(&job);
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
