/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The walk over a rectangle, shared by every flavour of the tiling code.
 * Included once by each pan_uinterleave_<path>.c after it has defined its
 * kernels:
 *
 *    uil_rows(tile, lin, stride, B, rb, store, nt)
 *       row block `rb` of one whole 16x16 tile
 *    uil_row_blocks(B, store, nt)
 *       how many row blocks make a tile (4: four rows each, 8: row pairs)
 *    uil_ctile(tile, lin, stride, B, store, nt)
 *       one whole 4x4 tile of a compressed format
 *    uil_fence(nt)
 *       whatever must follow streaming stores
 *
 and, if it streams (streamed loads go through uil_band_staged):
 *
 *    uil_stream_lines(dst, src, n)
 *       copy n bytes (a multiple of 64, dst 64-aligned, src any) with
 *       streaming stores
 *
 * then UIL_DEFINE_TABLE(name) builds the flavour's table.  Every function
 * is instantiated with the element size as a constant, so the kernels see
 * fixed offsets.
 *
 * Partial tiles at the rectangle's edges go through a per-element loop that
 * computes each address from lookup tables; it handles any rectangle.
 */

#ifndef PAN_UINTERLEAVE_WALK_H
#define PAN_UINTERLEAVE_WALK_H

#include "pan_uinterleave_priv.h"

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
      unsigned ydup = uil_spread4[ty & mask] * 3u;

      for (unsigned i = 0; i < w; ++i) {
         unsigned tx = x + i;
         uint8_t *t = trow + (size_t)(tx >> dim_bits) * tile_B +
                      (size_t)B * (ydup ^ uil_spread4[tx & mask]);
         if (store)
            memcpy(t, lrow + (size_t)i * B, B);
         else
            memcpy(lrow + (size_t)i * B, t, B);
      }
   }
}

/* Copy the partial tiles around the rectangle's whole tiles.  Returns false
 * if there are no whole tiles, else their extent in *box (x0, y0, x1, y1). */
static UIL_INLINE bool
uil_edges(const struct uil_job *job, unsigned B, unsigned dim_bits,
          bool store, unsigned box[4])
{
   const unsigned m = (1u << dim_bits) - 1;
   const unsigned x0 = job->x, y0 = job->y;
   const unsigned x1 = x0 + job->w, y1 = y0 + job->h;
   const unsigned fx0 = (x0 + m) & ~m, fy0 = (y0 + m) & ~m;
   const unsigned fx1 = x1 & ~m, fy1 = y1 & ~m;

   if (fx0 >= fx1 || fy0 >= fy1) {
      uil_generic(job, x0, y0, job->w, job->h, B, dim_bits, store);
      return false;
   }

   /* Bands above and below the whole tiles span the whole width. */
   uil_generic(job, x0, y0, job->w, fy0 - y0, B, dim_bits, store);
   uil_generic(job, x0, fy1, job->w, y1 - fy1, B, dim_bits, store);

   /* Strips left and right of the whole tiles. */
   uil_generic(job, x0, fy0, fx0 - x0, fy1 - fy0, B, dim_bits, store);
   uil_generic(job, fx1, fy0, x1 - fx1, fy1 - fy0, B, dim_bits, store);

   box[0] = fx0;
   box[1] = fy0;
   box[2] = fx1;
   box[3] = fy1;
   return true;
}

/* Pointers to the first whole tile of the tile row starting at element row
 * `ty`, on both sides. */
static UIL_INLINE void
uil_band_start(const struct uil_job *job, const unsigned box[4], unsigned ty,
               unsigned B, unsigned dim_bits, uint8_t **tiled,
               uint8_t **linear)
{
   *tiled = job->tiled + (size_t)(ty >> dim_bits) * job->tiled_stride_B +
            (size_t)(box[0] >> dim_bits) * ((size_t)B << (2 * dim_bits));
   *linear = job->linear + (size_t)(ty - job->y) * job->linear_stride_B +
             (size_t)(box[0] - job->x) * B;
}

/*
 * A horizontal run of whole 16x16 tiles is walked in pieces of a few
 * tiles; within a piece, one row block at a time across all its tiles.
 * For 1 and 2 byte elements a tile's row is only 16 or 32 bytes, so a
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
   /* Measured: 4-byte loads also gain; 3-byte loads and larger elements
    * do better tile by tile. */
   if (B <= 2 || (B == 4 && !store))
      return 4096 / (256 * B);
   return 1;
}

#ifndef uil_stream_lines
#define uil_stream_lines(dst, src, n) memcpy(dst, src, n)
#endif

/* Tiles per staged piece: 384 bytes of each row (one tile of 16-byte
 * elements).  Measured: 768 and 1536 ran slower with the whole-line
 * output below, and 192 slower still. */
static UIL_INLINE unsigned
uil_stage_tiles(unsigned B)
{
   return 384 / (16 * B);
}

/*
 * One image row of a staged band on its way out.  Streaming stores may only
 * write whole cache lines: a write-combining buffer left holding part of a
 * line is flushed as a slow partial write, and some CPUs have few of them.
 * A piece's part of a row rarely starts or ends on a line (rows of a
 * malloc'd image start 16 bytes into one), so the bytes of a line that the
 * next piece completes wait in `line`; only the first and last lines of
 * the row, shared with whatever lies beside the rectangle, are stored
 * normally.
 */
struct uil_row_out {
   _Alignas(64) uint8_t line[64];
   uint8_t *dst;    /* next byte of the row */
   unsigned held;   /* bytes of dst's line gathered in line[] */
   unsigned theirs; /* leading bytes of that line not ours to write */
};

static UIL_INLINE void
uil_row_out_start(struct uil_row_out *o, uint8_t *dst)
{
   o->dst = dst;
   o->held = o->theirs = (uintptr_t)dst & 63;
}

static UIL_INLINE void
uil_row_out_put(struct uil_row_out *o, const uint8_t *src, size_t n)
{
   while (n) {
      if (o->held == 0 && n >= 64) {
         size_t bulk = n & ~(size_t)63;
         uil_stream_lines(o->dst, src, bulk);
         o->dst += bulk;
         src += bulk;
         n -= bulk;
         continue;
      }
      size_t k = 64 - o->held < n ? 64 - o->held : n;
      memcpy(o->line + o->held, src, k);
      o->held += k;
      o->dst += k;
      src += k;
      n -= k;
      if (o->held == 64) {
         uint8_t *base = o->dst - 64;
         if (o->theirs)
            memcpy(base + o->theirs, o->line + o->theirs, 64 - o->theirs);
         else
            uil_stream_lines(base, o->line, 64);
         o->held = o->theirs = 0;
      }
   }
}

static UIL_INLINE void
uil_row_out_finish(struct uil_row_out *o)
{
   if (o->held > o->theirs)
      memcpy(o->dst - o->held + o->theirs, o->line + o->theirs,
             o->held - o->theirs);
}

/*
 * Streamed loads detile a piece of tiles into a buffer that stays in the L1
 * cache, laid out as the image rows, and then send each of its sixteen rows
 * out through uil_row_out, whole cache lines at a time.  The extra pass
 * costs L1 bandwidth only; streaming saves reading every destination line
 * before it is written, and whole lines keep the write-combining buffers
 * from flushing partial ones, which writing the rows straight from the
 * kernels (16 to 48 bytes of a row per tile) did.
 */
static UIL_INLINE void
uil_band_staged(uint8_t *tiles, uint8_t *lin, size_t stride, unsigned count,
                unsigned B)
{
   enum { STAGE_ROW_MAX = 384 };
   _Alignas(64) uint8_t stage[16 * STAGE_ROW_MAX];
   struct uil_row_out out[16];
   const unsigned n_rb = uil_row_blocks(B, false, false);
   const size_t tile_B = 256 * (size_t)B;
   const unsigned piece = uil_stage_tiles(B);
   const size_t stage_stride = piece * 16 * B;

   for (unsigned r = 0; r < 16; ++r)
      uil_row_out_start(&out[r], lin + r * stride);

   for (unsigned first = 0; first < count; first += piece) {
      unsigned n = count - first < piece ? count - first : piece;
      uint8_t *t0 = tiles + first * tile_B;

#pragma GCC unroll 8
      for (unsigned rb = 0; rb < n_rb; ++rb) {
         for (unsigned i = 0; i < n; ++i)
            uil_rows(t0 + i * tile_B, stage + i * 16 * B, stage_stride, B,
                     rb, false, false);
      }
      /* The piece's tiles are as many bytes as its rows: while row r goes
       * out, fetch the matching part of the next piece, so that reads
       * and writes overlap instead of taking turns. */
      uint8_t *next = t0 + piece * tile_B;
      for (unsigned r = 0; r < 16; ++r) {
         if (first + piece < count) {
            for (size_t k = 0; k < stage_stride; k += 64)
               __builtin_prefetch(next + r * stage_stride + k);
         }
         uil_row_out_put(&out[r], stage + r * stage_stride, n * 16 * B);
      }
   }
   for (unsigned r = 0; r < 16; ++r)
      uil_row_out_finish(&out[r]);
}

static UIL_INLINE void
uil_band(uint8_t *tiles, uint8_t *lin, size_t stride, unsigned count,
         unsigned B, bool store, bool nt)
{
   if (!store && nt) {
      uil_band_staged(tiles, lin, stride, count, B);
      return;
   }

   const unsigned n_rb = uil_row_blocks(B, store, nt);
   const size_t tile_B = 256 * (size_t)B;
   const unsigned piece = uil_piece_tiles(B, store, nt);

   for (unsigned first = 0; first < count; first += piece) {
      unsigned n = count - first < piece ? count - first : piece;
      uint8_t *t0 = tiles + first * tile_B, *l0 = lin + first * 16 * B;

#pragma GCC unroll 8
      for (unsigned rb = 0; rb < n_rb; ++rb) {
         uint8_t *t = t0, *l = l0;
         for (unsigned i = 0; i < n; ++i) {
            uil_rows(t, l, stride, B, rb, store, nt);
            t += tile_B;
            l += 16 * B;
         }
      }
   }
}

/* 16x16 tiles */
static UIL_INLINE void
uil_access(const struct uil_job *job, unsigned B, bool store, bool nt)
{
   unsigned box[4];

   if (uil_edges(job, B, 4, store, box)) {
      for (unsigned ty = box[1]; ty < box[3]; ty += 16) {
         uint8_t *trow, *lrow;
         uil_band_start(job, box, ty, B, 4, &trow, &lrow);
         uil_band(trow, lrow, job->linear_stride_B, (box[2] - box[0]) / 16,
                  B, store, nt);
      }
   }
   uil_fence(nt);
}

/* 4x4 tiles of compressed formats: a row of tiles is four rows of the
 * image, 4 * B bytes of each per tile, walked tile by tile. */
static UIL_INLINE void
uil_access_c(const struct uil_job *job, unsigned B, bool store, bool nt)
{
   unsigned box[4];

   if (!uil_edges(job, B, 2, store, box))
      return;

   for (unsigned ty = box[1]; ty < box[3]; ty += 4) {
      uint8_t *t, *l;
      uil_band_start(job, box, ty, B, 2, &t, &l);
      for (unsigned tx = box[0]; tx < box[2]; tx += 4) {
         uil_ctile(t, l, job->linear_stride_B, B, store, nt);
         t += 16 * B;
         l += 4 * B;
      }
   }
   uil_fence(nt);
}

/* The copies of one element size; `nt` is turned into a constant so that
 * both variants of the walk are compiled without a test inside it. */
#define UIL_DEFINE_SIZE(B)                                                    \
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
      if (job->nt)                                                            \
         uil_access_c(job, B, true, true);                                    \
      else                                                                    \
         uil_access_c(job, B, true, false);                                   \
   }                                                                          \
   static void uil_load_c##B(const struct uil_job *job)                       \
   {                                                                          \
      if (job->nt)                                                            \
         uil_access_c(job, B, false, true);                                   \
      else                                                                    \
         uil_access_c(job, B, false, false);                                  \
   }

#define UIL_ENTRY(B)                                                          \
   [B] = { uil_store_##B, uil_load_##B, uil_store_c##B, uil_load_c##B }

#define UIL_DEFINE_TABLE(name)                                                \
   UIL_DEFINE_SIZE(1)                                                         \
   UIL_DEFINE_SIZE(2)                                                         \
   UIL_DEFINE_SIZE(3)                                                         \
   UIL_DEFINE_SIZE(4)                                                         \
   UIL_DEFINE_SIZE(6)                                                         \
   UIL_DEFINE_SIZE(8)                                                         \
   UIL_DEFINE_SIZE(12)                                                        \
   UIL_DEFINE_SIZE(16)                                                        \
   const struct uil_entry name[17] = {                                        \
      UIL_ENTRY(1), UIL_ENTRY(2),  UIL_ENTRY(3),  UIL_ENTRY(4),               \
      UIL_ENTRY(6), UIL_ENTRY(8),  UIL_ENTRY(12), UIL_ENTRY(16),              \
   }

#endif
