/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * SSE2 versions of the whole-tile copy for 1, 2, 4, 8, 12 and 16 byte
 * elements, used by the SSE2 and SSSE3 flavours.  The quad kernels (4 to
 * 16 bytes) take the number of quads of the row pair: 8 in a 16x16 tile,
 * 2 in a 4x4 tile of a compressed format.
 *
 * 1 and 2 byte elements work on 4x4-element blocks: four source rows are
 * combined with 16/32-bit unpacks into the block's tiled bytes (the bottom
 * two rows need their 2x2 quads reversed, a pshufd).  4 and 8 byte
 * elements work on single quads, where the swap of the bottom pair is a
 * pshufd.  Loads run the same steps backwards.
 */

#ifndef PAN_UINTERLEAVE_SSE2_H
#define PAN_UINTERLEAVE_SSE2_H

#include <emmintrin.h>
#include "pan_uinterleave_portable.h"
#include "pan_uinterleave_priv.h"

#define LDU(p)     _mm_loadu_si128((const __m128i *)(const void *)(p))
#define STU(p, v)  _mm_storeu_si128((__m128i *)(void *)(p), (v))
/* Store to the destination side: streaming (non-temporal) when `nt` */
#define DST(p, v)                                                             \
   (nt ? _mm_stream_si128((__m128i *)(void *)(p), (v)) : STU(p, v))
#define SWAP2x32   0xB1 /* (1,0,3,2) */
#define SWAP2x64   0x4E /* (2,3,0,1) */
#define EVEN_ODD32 0xD8 /* (0,2,1,3) */

static UIL_INLINE __m128i
bswap16_lanes(__m128i v)
{
   return _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8));
}

static UIL_INLINE __m128i
swap16_in32(__m128i v)
{
   return _mm_or_si128(_mm_slli_epi32(v, 16), _mm_srli_epi32(v, 16));
}

/* Gather the even 16-bit lanes into the low half, odd into the high half */
static UIL_INLINE __m128i
split16(__m128i v)
{
   v = _mm_shufflelo_epi16(v, EVEN_ODD32);
   v = _mm_shufflehi_epi16(v, EVEN_ODD32);
   return _mm_shuffle_epi32(v, EVEN_ODD32);
}

/* Rows 4*by .. 4*by+3 of one tile */
static UIL_INLINE void
uil_rows_sse2_b1(uint8_t *tile, uint8_t *lin, size_t stride, unsigned by,
                 bool store, bool nt)
{
   uint8_t *r0 = lin + 4 * by * stride, *r1 = r0 + stride;
   uint8_t *r2 = r1 + stride, *r3 = r2 + stride;
   uint8_t *c0 = tile + 16 * uil_index(0, by);
   uint8_t *c1 = tile + 16 * uil_index(1, by);
   uint8_t *c2 = tile + 16 * uil_index(2, by);
   uint8_t *c3 = tile + 16 * uil_index(3, by);

   if (store) {
      __m128i a = LDU(r0), b = bswap16_lanes(LDU(r1));
      __m128i c = LDU(r2), d = bswap16_lanes(LDU(r3));
      __m128i top_lo = _mm_unpacklo_epi16(a, b);
      __m128i top_hi = _mm_unpackhi_epi16(a, b);
      __m128i bot_lo = _mm_shuffle_epi32(_mm_unpacklo_epi16(c, d), SWAP2x32);
      __m128i bot_hi = _mm_shuffle_epi32(_mm_unpackhi_epi16(c, d), SWAP2x32);
      DST(c0, _mm_unpacklo_epi64(top_lo, bot_lo));
      DST(c1, _mm_unpackhi_epi64(top_lo, bot_lo));
      DST(c2, _mm_unpacklo_epi64(top_hi, bot_hi));
      DST(c3, _mm_unpackhi_epi64(top_hi, bot_hi));
   } else {
      __m128i k0 = LDU(c0), k1 = LDU(c1), k2 = LDU(c2), k3 = LDU(c3);
      __m128i top_lo = split16(_mm_unpacklo_epi64(k0, k1));
      __m128i top_hi = split16(_mm_unpacklo_epi64(k2, k3));
      __m128i bot_lo =
         split16(_mm_shuffle_epi32(_mm_unpackhi_epi64(k0, k1), SWAP2x32));
      __m128i bot_hi =
         split16(_mm_shuffle_epi32(_mm_unpackhi_epi64(k2, k3), SWAP2x32));
      DST(r0, _mm_unpacklo_epi64(top_lo, top_hi));
      DST(r1, bswap16_lanes(_mm_unpackhi_epi64(top_lo, top_hi)));
      DST(r2, _mm_unpacklo_epi64(bot_lo, bot_hi));
      DST(r3, bswap16_lanes(_mm_unpackhi_epi64(bot_lo, bot_hi)));
   }
}

/* Rows 4*by .. 4*by+3 of one tile */
static UIL_INLINE void
uil_rows_sse2_b2(uint8_t *tile, uint8_t *lin, size_t stride, unsigned by,
                 bool store, bool nt)
{
#pragma GCC unroll 2
   for (unsigned h = 0; h < 2; ++h) {
      uint8_t *r0 = lin + 4 * by * stride + 16 * h, *r1 = r0 + stride;
      uint8_t *r2 = r1 + stride, *r3 = r2 + stride;
      uint8_t *k0 = tile + 32 * uil_index(2 * h, by);
      uint8_t *k1 = tile + 32 * uil_index(2 * h + 1, by);

      if (store) {
         __m128i a = LDU(r0), b = swap16_in32(LDU(r1));
         __m128i c = LDU(r2), d = swap16_in32(LDU(r3));
         DST(k0, _mm_unpacklo_epi32(a, b));
         DST(k1, _mm_unpackhi_epi32(a, b));
         DST(k0 + 16, _mm_shuffle_epi32(_mm_unpacklo_epi32(c, d), SWAP2x64));
         DST(k1 + 16, _mm_shuffle_epi32(_mm_unpackhi_epi32(c, d), SWAP2x64));
      } else {
         __m128i t0 = _mm_shuffle_epi32(LDU(k0), EVEN_ODD32);
         __m128i t1 = _mm_shuffle_epi32(LDU(k1), EVEN_ODD32);
         __m128i u0 = _mm_shuffle_epi32(LDU(k0 + 16), 0x72);
         __m128i u1 = _mm_shuffle_epi32(LDU(k1 + 16), 0x72);
         DST(r0, _mm_unpacklo_epi64(t0, t1));
         DST(r1, swap16_in32(_mm_unpackhi_epi64(t0, t1)));
         DST(r2, _mm_unpacklo_epi64(u0, u1));
         DST(r3, swap16_in32(_mm_unpackhi_epi64(u0, u1)));
      }
   }
}

/* Quads 0 .. nq-1 of rows 2*qy and 2*qy+1 of one tile */
static UIL_INLINE void
uil_rows_sse2_b4(uint8_t *tile, uint8_t *lin, size_t stride, unsigned qy,
                 unsigned nq, bool store, bool nt)
{
   uint8_t *even = lin + 2 * qy * stride, *odd = even + stride;

#pragma GCC unroll 4
   for (unsigned v = 0; v < nq / 2; ++v) {
      uint8_t *qa = tile + 16 * uil_index(2 * v, qy);
      uint8_t *qb = tile + 16 * uil_index(2 * v + 1, qy);

      if (store) {
         __m128i e = LDU(even + 16 * v);
         __m128i o = _mm_shuffle_epi32(LDU(odd + 16 * v), SWAP2x32);
         DST(qa, _mm_unpacklo_epi64(e, o));
         DST(qb, _mm_unpackhi_epi64(e, o));
      } else {
         __m128i a = LDU(qa), b = LDU(qb);
         DST(even + 16 * v, _mm_unpacklo_epi64(a, b));
         DST(odd + 16 * v,
             _mm_shuffle_epi32(_mm_unpackhi_epi64(a, b), SWAP2x32));
      }
   }
}

/* Quads 0 .. nq-1 of rows 2*qy and 2*qy+1 of one tile */
static UIL_INLINE void
uil_rows_sse2_b8(uint8_t *tile, uint8_t *lin, size_t stride, unsigned qy,
                 unsigned nq, bool store, bool nt)
{
   uint8_t *even = lin + 2 * qy * stride, *odd = even + stride;

#pragma GCC unroll 8
   for (unsigned qx = 0; qx < nq; ++qx) {
      uint8_t *q = tile + 32 * uil_index(qx, qy);

      if (store) {
         DST(q, LDU(even + 16 * qx));
         DST(q + 16, _mm_shuffle_epi32(LDU(odd + 16 * qx), SWAP2x64));
      } else {
         DST(even + 16 * qx, LDU(q));
         DST(odd + 16 * qx, _mm_shuffle_epi32(LDU(q + 16), SWAP2x64));
      }
   }
}

/*
 * 12-byte elements: a quad is 48 bytes of the tile, three vectors, made of
 * 24 bytes of each row: the even row in order, then the odd row's two
 * elements swapped.  Each row is read as two overlapping 16-byte loads
 * (bytes 0-15 and 8-23) and written back the same way, so nothing outside
 * the quad's 24 bytes of a row is touched.
 */
static UIL_INLINE void
uil_rows_sse2_b12(uint8_t *tile, uint8_t *lin, size_t stride, unsigned qy,
                  unsigned nq, bool store, bool nt)
{
#pragma GCC unroll 8
   for (unsigned qx = 0; qx < nq; ++qx) {
      struct uil_quad p = uil_quad_at(tile, lin, stride, 12, qx, qy);
      uint8_t *q = p.q, *e = p.e, *o = p.o;

      if (store) {
         __m128i eh = LDU(e + 8), o0 = LDU(o), oh = LDU(o + 8);
         DST(q, LDU(e));
         /* e[16..24) then o[12..20) */
         DST(q + 16, _mm_unpacklo_epi64(_mm_srli_si128(eh, 8),
                                        _mm_srli_si128(oh, 4)));
         /* o[20..24) then o[0..12) */
         DST(q + 32,
             _mm_or_si128(_mm_srli_si128(oh, 12), _mm_slli_si128(o0, 4)));
      } else {
         __m128i t1 = LDU(q + 16), t2 = LDU(q + 32);
         DST(e, LDU(q));
         _mm_storel_epi64((__m128i *)(void *)(e + 16), t1);
         /* t2[4..16) then t1[8..12) */
         DST(o, _mm_or_si128(_mm_srli_si128(t2, 4),
                             _mm_slli_si128(_mm_srli_si128(t1, 8), 12)));
         /* t1[12..16) then t2[0..4) */
         _mm_storel_epi64(
            (__m128i *)(void *)(o + 16),
            _mm_or_si128(_mm_srli_si128(t1, 12), _mm_slli_si128(t2, 4)));
      }
   }
}

/* Quads 0 .. nq-1 of rows 2*qy and 2*qy+1 of one tile */
static UIL_INLINE void
uil_rows_sse2_b16(uint8_t *tile, uint8_t *lin, size_t stride, unsigned qy,
                  unsigned nq, bool store, bool nt)
{
#pragma GCC unroll 8
   for (unsigned qx = 0; qx < nq; ++qx) {
      struct uil_quad p = uil_quad_at(tile, lin, stride, 16, qx, qy);
      uint8_t *q = p.q, *e = p.e, *o = p.o;

      if (store) {
         DST(q, LDU(e));
         DST(q + 16, LDU(e + 16));
         DST(q + 32, LDU(o + 16));
         DST(q + 48, LDU(o));
      } else {
         DST(e, LDU(q));
         DST(e + 16, LDU(q + 16));
         DST(o + 16, LDU(q + 32));
         DST(o, LDU(q + 48));
      }
   }
}

#undef LDU
#undef STU
#undef DST

/* Whole 4x4-element tiles of compressed formats (two quad rows), the same
 * in every x86 flavour.  Only 16-byte blocks stream (`nt`): their tile
 * covers whole 64-byte lines of each of its rows. */
static UIL_INLINE void
uil_ctile_sse2(uint8_t *tile, uint8_t *lin, size_t stride, unsigned B,
               bool store, bool nt)
{
   for (unsigned qy = 0; qy < 2; ++qy) {
      switch (B) {
      case 4: uil_rows_sse2_b4(tile, lin, stride, qy, 2, store, false); break;
      case 8: uil_rows_sse2_b8(tile, lin, stride, qy, 2, store, false); break;
      case 12:
         uil_rows_sse2_b12(tile, lin, stride, qy, 2, store, false);
         break;
      case 16:
         uil_rows_sse2_b16(tile, lin, stride, qy, 2, store, nt);
         break;
      default: uil_rows_quads(tile, lin, stride, B, qy, 2, store); break;
      }
   }
}

/* Streamed loads: whole cache lines of a staged row (uil_row_out_put) */
static UIL_INLINE void
uil_stream_lines_sse2(uint8_t *dst, const uint8_t *src, size_t n)
{
   for (size_t i = 0; i < n; i += 16) {
      __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + i));
      _mm_stream_si128((__m128i *)(void *)(dst + i), v);
   }
}

/* Streaming stores are weakly ordered: fence before anyone else looks */
static UIL_INLINE void
uil_fence_sse2(bool nt)
{
   if (nt)
      _mm_sfence();
}

#endif
