/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Plain C whole-tile kernels, for any CPU, and the fallback of the SIMD
 * flavours for the element sizes they leave out.
 *
 * Group a tile into 2x2 "quads": a quad's four elements are consecutive in
 * memory, in the order
 *
 *    (0,0) (1,0) (1,1) (0,1)        (x,y inside the quad)
 *
 * and the quads themselves follow the same curve one level up, so quad
 * (qx, qy) starts at element 4 * uil_index(qx, qy).  A quad is therefore
 * one copy of the two top elements plus the two bottom elements in swapped
 * order; with the element size a compile-time constant every copy is a
 * couple of plain loads and stores (and for 1, 2 and 4 byte elements the
 * swap is a rotate).  The loops are unrolled so every in-tile offset is a
 * constant.
 */

#ifndef PAN_UINTERLEAVE_PORTABLE_H
#define PAN_UINTERLEAVE_PORTABLE_H

#include "pan_uinterleave_priv.h"

/* Copy a pair of B-byte elements, swapping the two. */
static UIL_INLINE void
uil_copy_swapped_pair(uint8_t *dst, const uint8_t *src, unsigned B)
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

/* Quads 0 .. nq-1 of quad row qy (element rows 2*qy and 2*qy+1): nq is 8
 * for a 16x16 tile, 2 for a 4x4 one. */
static UIL_INLINE void
uil_rows_quads(uint8_t *tile, uint8_t *lin, size_t stride, unsigned B,
               unsigned qy, unsigned nq, bool store)
{
   uint8_t *even = lin + (2 * qy) * stride;
   uint8_t *odd = even + stride;

#pragma GCC unroll 8
   for (unsigned qx = 0; qx < nq; ++qx) {
      uint8_t *q = tile + 4 * B * uil_index(qx, qy);
      uint8_t *e = even + 2 * B * qx;
      uint8_t *o = odd + 2 * B * qx;

      if (store) {
         memcpy(q, e, 2 * B);
         uil_copy_swapped_pair(q + 2 * B, o, B);
      } else {
         memcpy(e, q, 2 * B);
         uil_copy_swapped_pair(o, q + 2 * B, B);
      }
   }
}

static UIL_INLINE uint64_t
uil_ld64(const uint8_t *p)
{
   uint64_t v;
   memcpy(&v, p, 8);
   return v;
}

static UIL_INLINE void
uil_st64(uint8_t *p, uint64_t v)
{
   memcpy(p, &v, 8);
}

/* Swap the two 24-bit elements in the low 48 bits. */
static UIL_INLINE uint64_t
uil_swap24(uint64_t v)
{
   return ((v >> 24) & 0xffffff) | ((v & 0xffffff) << 24);
}

/*
 * 3-byte elements, rows 2*qy and 2*qy+1 of one tile.  A quad is 12 bytes,
 * a 48-bit pair from each row.  Each pair is read with one 64-bit load; the
 * last pair of a row is read from 2 bytes earlier so that nothing past the
 * tile's part of the row is touched.  When loading, pairs are written 8
 * bytes at a time in increasing x, each write's 2 spare bytes being
 * overwritten by the next pair; the last pair is written exactly.  The
 * 64-bit values are little-endian element order: this path assumes a
 * little-endian CPU, as every Mali host is.
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
         uint64_t ev = qx < 7 ? uil_ld64(e) : uil_ld64(e - 2) >> 16;
         uint64_t ov =
            uil_swap24(qx < 7 ? uil_ld64(o) : uil_ld64(o - 2) >> 16);
         uint32_t hi = (uint32_t)(ov >> 16);
         uil_st64(q, (ev & m48) | (ov << 48));
         memcpy(q + 8, &hi, 4);
      } else {
         uint64_t lo = uil_ld64(q);
         uint32_t hi;
         memcpy(&hi, q + 8, 4);
         uint64_t ov = uil_swap24((lo >> 48) | ((uint64_t)hi << 16));
         if (qx < 7) {
            uil_st64(e, lo);
            uil_st64(o, ov);
         } else {
            memcpy(e, &lo, 6);
            memcpy(o, &ov, 6);
         }
      }
   }
}

/* Row pair qy of a 16x16 tile */
static UIL_INLINE void
uil_rows_portable(uint8_t *tile, uint8_t *lin, size_t stride, unsigned B,
                  unsigned qy, bool store)
{
   if (B == 3)
      uil_rows_b3(tile, lin, stride, qy, store);
   else
      uil_rows_quads(tile, lin, stride, B, qy, 8, store);
}

/* One whole 4x4 tile: two quad rows of two quads */
static UIL_INLINE void
uil_ctile_portable(uint8_t *tile, uint8_t *lin, size_t stride, unsigned B,
                   bool store)
{
   uil_rows_quads(tile, lin, stride, B, 0, 2, store);
   uil_rows_quads(tile, lin, stride, B, 1, 2, store);
}

#endif
