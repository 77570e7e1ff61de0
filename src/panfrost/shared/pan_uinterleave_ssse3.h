/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * SSSE3 whole-tile copies for 1, 3 and 6 byte elements,
 * for the SSSE3 flavour (pan_uinterleave_ssse3.c, built with -mssse3).
 *
 * 1 byte: a 4x4 block is one 16-byte run of the tile.  One pshufb turns a
 * run into the block's four rows of four bytes, and a 4x4 transpose of
 * 32-bit lanes across four blocks gives four 16-byte image rows (and the
 * other way round for stores).
 *
 * 3 bytes: per row pair, quads 2m and 2m+1 form one 24-byte run of the
 * tile built from bytes 12m..12m+11 of both rows: each run is two 16-byte
 * loads and four pshufb.  Which quad comes first depends on the parity of
 * the quad row; the last run of a row loads from 4 bytes earlier so nothing
 * past the tile's 48 bytes of the row is read.  Masks were generated from
 * the quad layout (top pair in order, bottom pair swapped).  Stores take
 * two row pairs together, which make whole 48-byte chunks of the tile, so
 * that every store is an aligned 16 bytes, as streaming stores want; loads
 * (never streamed) go a row pair at a time with overlapping stores.
 */

#ifndef PAN_UINTERLEAVE_SSSE3_H
#define PAN_UINTERLEAVE_SSSE3_H

#include <tmmintrin.h>
#include "pan_uinterleave_sse2.h"

#define UIL_SSSE3 __attribute__((target("ssse3")))

#define Z 0x80 /* pshufb: zero this byte */
/* [quad row parity][last run][E lo, O lo, E hi, O hi] */
static const uint8_t uil_b3_store_masks[2][2][4][16] = {
   {
      {
         { 0, 1, 2, 3, 4, 5, Z, Z, Z, Z, Z, Z, 6, 7, 8, 9 },
         { Z, Z, Z, Z, Z, Z, 3, 4, 5, 0, 1, 2, Z, Z, Z, Z },
         { 10, 11, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
         { Z, Z, 9, 10, 11, 6, 7, 8, Z, Z, Z, Z, Z, Z, Z, Z },
      },
      {
         { 4, 5, 6, 7, 8, 9, Z, Z, Z, Z, Z, Z, 10, 11, 12, 13 },
         { Z, Z, Z, Z, Z, Z, 7, 8, 9, 4, 5, 6, Z, Z, Z, Z },
         { 14, 15, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
         { Z, Z, 13, 14, 15, 10, 11, 12, Z, Z, Z, Z, Z, Z, Z, Z },
      },
   },
   {
      {
         { 6, 7, 8, 9, 10, 11, Z, Z, Z, Z, Z, Z, 0, 1, 2, 3 },
         { Z, Z, Z, Z, Z, Z, 9, 10, 11, 6, 7, 8, Z, Z, Z, Z },
         { 4, 5, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
         { Z, Z, 3, 4, 5, 0, 1, 2, Z, Z, Z, Z, Z, Z, Z, Z },
      },
      {
         { 10, 11, 12, 13, 14, 15, Z, Z, Z, Z, Z, Z, 4, 5, 6, 7 },
         { Z, Z, Z, Z, Z, Z, 13, 14, 15, 10, 11, 12, Z, Z, Z, Z },
         { 8, 9, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
         { Z, Z, 7, 8, 9, 4, 5, 6, Z, Z, Z, Z, Z, Z, Z, Z },
      },
   },
};

/* [quad row parity][E from lo, E from hi, O from lo, O from hi] */
static const uint8_t uil_b3_load_masks[2][4][16] = {
   {
      { 0, 1, 2, 3, 4, 5, 12, 13, 14, 15, Z, Z, Z, Z, Z, Z },
      { Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, 0, 1, Z, Z, Z, Z },
      { 9, 10, 11, 6, 7, 8, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
      { Z, Z, Z, Z, Z, Z, 5, 6, 7, 2, 3, 4, Z, Z, Z, Z },
   },
   {
      { 12, 13, 14, 15, Z, Z, 0, 1, 2, 3, 4, 5, Z, Z, Z, Z },
      { Z, Z, Z, Z, 0, 1, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
      { Z, Z, Z, Z, Z, Z, 9, 10, 11, 6, 7, 8, Z, Z, Z, Z },
      { 5, 6, 7, 2, 3, 4, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
   },
};
/* 6-byte stores, two quads (one 48-byte chunk of the tile) per step:
 * [quad row parity][chunk vector][source: even 0-15, even 8-23, odd 0-15,
 * odd 8-23]; generated from the quad layout. */
static const uint8_t uil_b6_store_masks[2][3][4][16] = {
   {
      {
         { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, Z, Z, Z, Z },
         { Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
         { Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, 6, 7, 8, 9 },
         { Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
      },
      {
         { Z, Z, Z, Z, Z, Z, Z, Z, 12, 13, 14, 15, Z, Z, Z, Z },
         { Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, 8, 9, 10, 11 },
         { 10, 11, 0, 1, 2, 3, 4, 5, Z, Z, Z, Z, Z, Z, Z, Z },
         { Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
      },
      {
         { Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
         { 12, 13, 14, 15, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
         { Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, 12, 13, 14, 15, Z, Z },
         { Z, Z, Z, Z, 10, 11, 12, 13, 14, 15, Z, Z, Z, Z, 8, 9 },
      },
   },
   {
      {
         { 12, 13, 14, 15, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
         { Z, Z, Z, Z, 8, 9, 10, 11, 12, 13, 14, 15, Z, Z, Z, Z },
         { Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
         { Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, 10, 11, 12, 13 },
      },
      {
         { Z, Z, Z, Z, Z, Z, Z, Z, 0, 1, 2, 3, 4, 5, 6, 7 },
         { Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
         { Z, Z, 12, 13, 14, 15, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
         { 14, 15, Z, Z, Z, Z, 8, 9, Z, Z, Z, Z, Z, Z, Z, Z },
      },
      {
         { 8, 9, 10, 11, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
         { Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
         { Z, Z, Z, Z, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5 },
         { Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
      },
   },
};
/* 6-byte loads, the inverse: [quad row parity][result: even row bytes
 * 0-15, odd row bytes 0-15, even then odd row bytes 16-23][chunk vector];
 * generated from the quad layout. */
static const uint8_t uil_b6_load_masks[2][3][3][16] = {
   {
      {
         { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, Z, Z, Z, Z },
         { Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, 8, 9, 10, 11 },
         { Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
      },
      {
         { Z, Z, Z, Z, Z, Z, 12, 13, 14, 15, Z, Z, Z, Z, Z, Z },
         { 2, 3, 4, 5, 6, 7, Z, Z, Z, Z, 0, 1, Z, Z, Z, Z },
         { Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, 10, 11, 12, 13 },
      },
      {
         { Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
         { 12, 13, 14, 15, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
         { Z, Z, Z, Z, 0, 1, 2, 3, 14, 15, 4, 5, 6, 7, 8, 9 },
      },
   },
   {
      {
         { Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, 0, 1, 2, 3 },
         { 8, 9, 10, 11, 12, 13, 14, 15, Z, Z, Z, Z, Z, Z, Z, Z },
         { Z, Z, Z, Z, Z, Z, Z, Z, 0, 1, 2, 3, Z, Z, Z, Z },
      },
      {
         { Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
         { Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, 2, 3, 4, 5 },
         { 10, 11, 12, 13, 14, 15, 4, 5, 6, 7, 8, 9, Z, Z, Z, Z },
      },
      {
         { 4, 5, 6, 7, 8, 9, 10, 11, Z, Z, 12, 13, 14, 15, Z, Z },
         { Z, Z, Z, Z, Z, Z, Z, Z, 6, 7, Z, Z, Z, Z, 0, 1 },
         { Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z },
      },
   },
};
#undef Z

/* Run byte i <-> block byte (row * 4 + column), both directions */
static const uint8_t uil_b1_run_to_rows[16] = {
   0, 1, 4, 5, 3, 2, 7, 6, 12, 13, 8, 9, 15, 14, 11, 10,
};
static const uint8_t uil_b1_rows_to_run[16] = {
   0, 1, 5, 4, 2, 3, 7, 6, 10, 11, 15, 14, 8, 9, 13, 12,
};

/* Transpose a 4x4 matrix of 32-bit lanes held in v[0..3] */
static UIL_INLINE void
uil_transpose32(__m128i v[4])
{
   __m128i t0 = _mm_unpacklo_epi32(v[0], v[1]);
   __m128i t1 = _mm_unpacklo_epi32(v[2], v[3]);
   __m128i t2 = _mm_unpackhi_epi32(v[0], v[1]);
   __m128i t3 = _mm_unpackhi_epi32(v[2], v[3]);
   v[0] = _mm_unpacklo_epi64(t0, t1);
   v[1] = _mm_unpackhi_epi64(t0, t1);
   v[2] = _mm_unpacklo_epi64(t2, t3);
   v[3] = _mm_unpackhi_epi64(t2, t3);
}

#define MASK(m) _mm_loadu_si128((const __m128i *)(const void *)(m))
#define LD16(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
/* Store to the destination side: streaming (non-temporal) when `nt` */
#define DST(p, v)                                                             \
   (nt ? _mm_stream_si128((__m128i *)(void *)(p), (v))                        \
       : _mm_storeu_si128((__m128i *)(void *)(p), (v)))

/* The two 24-byte runs of quad rows 2j and 2j+1 built from the same 12
 * bytes of their rows are adjacent in the tile: one 16-aligned 48-byte
 * chunk, written or read as three vectors. */
static UIL_INLINE UIL_SSSE3 void
uil_b3_pair_to_run(__m128i ev, __m128i ov, unsigned parity, bool last,
                   __m128i *lo, __m128i *hi)
{
   const uint8_t(*mk)[16] = uil_b3_store_masks[parity][last];
   *lo = _mm_or_si128(_mm_shuffle_epi8(ev, MASK(mk[0])),
                      _mm_shuffle_epi8(ov, MASK(mk[1])));
   *hi = _mm_or_si128(_mm_shuffle_epi8(ev, MASK(mk[2])),
                      _mm_shuffle_epi8(ov, MASK(mk[3])));
}

static UIL_INLINE UIL_SSSE3 void
uil_b3_run_to_pair(__m128i lo, __m128i hi, unsigned parity, __m128i *ev,
                   __m128i *ov)
{
   const uint8_t(*mk)[16] = uil_b3_load_masks[parity];
   *ev = _mm_or_si128(_mm_shuffle_epi8(lo, MASK(mk[0])),
                      _mm_shuffle_epi8(hi, MASK(mk[1])));
   *ov = _mm_or_si128(_mm_shuffle_epi8(lo, MASK(mk[2])),
                      _mm_shuffle_epi8(hi, MASK(mk[3])));
}

/* Store of rows 4*j .. 4*j+3 of one tile, 3-byte elements */
static UIL_INLINE UIL_SSSE3 void
uil_store_rows_b3_ssse3(uint8_t *tile, uint8_t *lin, size_t stride,
                        unsigned j, bool nt)
{
   uint8_t *row[4];

#pragma GCC unroll 4
   for (unsigned r = 0; r < 4; ++r)
      row[r] = lin + (4 * j + r) * stride;

#pragma GCC unroll 4
   for (unsigned m = 0; m < 4; ++m) {
      uint8_t *chunk = tile + 48 * (uil_index(2 * m, 2 * j) >> 2);
      unsigned off = m == 3 ? 32 : 12 * m;
      __m128i lo_a, hi_a, lo_b, hi_b;

      uil_b3_pair_to_run(LD16(row[0] + off), LD16(row[1] + off), 0, m == 3,
                         &lo_a, &hi_a);
      uil_b3_pair_to_run(LD16(row[2] + off), LD16(row[3] + off), 1, m == 3,
                         &lo_b, &hi_b);
      DST(chunk, lo_a);
      DST(chunk + 16, _mm_unpacklo_epi64(hi_a, lo_b));
      DST(chunk + 32, _mm_or_si128(_mm_srli_si128(lo_b, 8),
                                   _mm_slli_si128(hi_b, 8)));
   }
}

/* Load of rows 2*qy and 2*qy+1 of one tile (loads never stream), using
 * overlapping stores.  Runs are
 * written in increasing m: a 16-byte store's 4 spare bytes are rewritten by
 * the next run; the last one is exact. */
static UIL_INLINE UIL_SSSE3 void
uil_load_rows_b3_ssse3(uint8_t *tile, uint8_t *lin, size_t stride,
                       unsigned qy)
{
   uint8_t *even = lin + 2 * qy * stride, *odd = even + stride;

#pragma GCC unroll 4
   for (unsigned m = 0; m < 4; ++m) {
      uint8_t *run = tile + 24 * (uil_index(2 * m, qy) >> 1);
      __m128i hi = _mm_loadl_epi64((const __m128i *)(const void *)(run + 16));
      __m128i ev, ov;
      uint8_t *e = even + 12 * m, *o = odd + 12 * m;

      uil_b3_run_to_pair(LD16(run), hi, qy & 1, &ev, &ov);
      if (m < 3) {
         _mm_storeu_si128((__m128i *)(void *)e, ev);
         _mm_storeu_si128((__m128i *)(void *)o, ov);
      } else {
         uint32_t e_hi = (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(ev, 8));
         uint32_t o_hi = (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(ov, 8));
         _mm_storel_epi64((__m128i *)(void *)e, ev);
         _mm_storel_epi64((__m128i *)(void *)o, ov);
         memcpy(e + 8, &e_hi, 4);
         memcpy(o + 8, &o_hi, 4);
      }
   }
}

/*
 * Store of rows 2*qy and 2*qy+1, 6-byte elements: quads 2v and 2v+1 sit
 * side by side in the tile (which one first depends on the quad row's
 * parity), one 16-aligned 48-byte chunk made of 24 bytes of each row.
 * Each row is read as two overlapping 16-byte pieces (bytes 0-15 and
 * 8-23), and each chunk vector is an OR of byte shuffles of the four.
 */
static UIL_INLINE UIL_SSSE3 void
uil_store_rows_b6_ssse3(uint8_t *tile, uint8_t *lin, size_t stride,
                        unsigned qy, bool nt)
{
   const uint8_t(*masks)[4][16] = uil_b6_store_masks[qy & 1];
   uint8_t *even = lin + 2 * qy * stride, *odd = even + stride;

#pragma GCC unroll 4
   for (unsigned v = 0; v < 4; ++v) {
      uint8_t *chunk = tile + 24 * (uil_index(2 * v, qy) & ~1u);
      __m128i src[4] = { LD16(even + 24 * v), LD16(even + 24 * v + 8),
                         LD16(odd + 24 * v), LD16(odd + 24 * v + 8) };

#pragma GCC unroll 3
      for (unsigned i = 0; i < 3; ++i) {
         __m128i acc = _mm_setzero_si128();
#pragma GCC unroll 4
         for (unsigned s = 0; s < 4; ++s)
            acc = _mm_or_si128(acc,
                               _mm_shuffle_epi8(src[s], MASK(masks[i][s])));
         DST(chunk + 16 * i, acc);
      }
   }
}

/*
 * Load of rows 2*qy and 2*qy+1, 6-byte elements: the inverse of the store
 * above, one 48-byte chunk (two quads) at a time, giving 24 bytes of each
 * row.  Each of the three results is an OR of shuffles of the chunk's
 * three vectors.  The stores are exact (16 + 8 bytes a row), so nothing
 * outside the quads' bytes is written.
 */
static UIL_INLINE UIL_SSSE3 void
uil_load_rows_b6_ssse3(uint8_t *tile, uint8_t *lin, size_t stride,
                       unsigned qy)
{
   const uint8_t(*masks)[3][16] = uil_b6_load_masks[qy & 1];
   uint8_t *even = lin + 2 * qy * stride, *odd = even + stride;

#pragma GCC unroll 4
   for (unsigned v = 0; v < 4; ++v) {
      const uint8_t *chunk = tile + 24 * (uil_index(2 * v, qy) & ~1u);
      __m128i src[3] = { LD16(chunk), LD16(chunk + 16), LD16(chunk + 32) };
      __m128i out[3];

#pragma GCC unroll 3
      for (unsigned i = 0; i < 3; ++i) {
         out[i] = _mm_setzero_si128();
#pragma GCC unroll 3
         for (unsigned s = 0; s < 3; ++s)
            out[i] = _mm_or_si128(
               out[i], _mm_shuffle_epi8(src[s], MASK(masks[i][s])));
      }
      _mm_storeu_si128((__m128i *)(void *)(even + 24 * v), out[0]);
      _mm_storeu_si128((__m128i *)(void *)(odd + 24 * v), out[1]);
      _mm_storel_epi64((__m128i *)(void *)(even + 24 * v + 16), out[2]);
      /* movq of the high half: an unaligned 8-byte store, which
       * _mm_storeh_pd's double pointer is not. */
      _mm_storel_epi64((__m128i *)(void *)(odd + 24 * v + 16),
                       _mm_unpackhi_epi64(out[2], out[2]));
   }
}

/* Rows 4*by .. 4*by+3 of one tile, 1-byte elements */
static UIL_INLINE UIL_SSSE3 void
uil_rows_b1_ssse3(uint8_t *tile, uint8_t *lin, size_t stride, unsigned by,
                  bool store, bool nt)
{
   uint8_t *run[4], *row[4];
   __m128i v[4];

#pragma GCC unroll 4
   for (unsigned i = 0; i < 4; ++i) {
      run[i] = tile + 16 * uil_index(i, by);
      row[i] = lin + (4 * by + i) * stride;
   }

   if (store) {
      const __m128i mask = MASK(uil_b1_rows_to_run);
#pragma GCC unroll 4
      for (unsigned i = 0; i < 4; ++i)
         v[i] = LD16(row[i]);
      uil_transpose32(v);
#pragma GCC unroll 4
      for (unsigned i = 0; i < 4; ++i)
         DST(run[i], _mm_shuffle_epi8(v[i], mask));
   } else {
      const __m128i mask = MASK(uil_b1_run_to_rows);
#pragma GCC unroll 4
      for (unsigned i = 0; i < 4; ++i)
         v[i] = _mm_shuffle_epi8(LD16(run[i]), mask);
      uil_transpose32(v);
#pragma GCC unroll 4
      for (unsigned i = 0; i < 4; ++i)
         DST(row[i], v[i]);
   }
}

#undef MASK
#undef LD16
#undef DST

#endif
