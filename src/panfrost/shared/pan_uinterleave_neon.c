/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The NEON flavour, for every element size.  On arm64 NEON is part of the
 * base architecture; on armhf Debian's baseline (ARMv7 + VFPv3-D16) does
 * not include it, so this file alone is built with -mfpu=neon and
 * pan_uinterleave.c only picks it when the kernel reports NEON (HWCAP).
 *
 * Three register-level transforms do the work, each in both directions:
 *
 *  - b1: four image rows of 16 one-byte elements <-> the four 4x4 blocks
 *    they cover (each block one 16-byte run of the tile).  Odd rows get
 *    their byte pairs swapped, 16-bit zips interleave even and odd rows
 *    into the quads, and a 32-bit swap puts the bottom quads of each block
 *    in their reversed order.
 *  - b2: the same for 8 two-byte elements per row (two blocks, 32 bytes
 *    each), one level up: 16-bit swaps and 32-bit zips.
 *  - b4: two rows of 4 four-byte elements <-> two quads (16 bytes each):
 *    the odd row's pairs swapped, then 64-bit halves recombined.
 *
 * Elements of 3, 6 and 12 bytes use the same transforms on planes: the
 * structure loads vld3 split 16 (8, 4) consecutive elements into three
 * vectors holding byte (halfword, word) 0, 1 and 2 of each element, the
 * transform runs on each plane, and vst3 interleaves the planes back.
 * 8 and 16 byte quads are plain vector copies with one 64-bit swap for 8.
 *
 * NEON has no streaming store we could use from C, so `nt` is ignored
 * (pan_uinterleave.c never sets it for this flavour).
 */

#include <arm_neon.h>
#include "pan_uinterleave_portable.h"

/* Plain vector loads and stores go through bytes: the linear side has any
 * stride, so nothing is aligned beyond a byte.  (The vld3/vst3 structure
 * accesses below take element pointers; both Arm architectures allow them
 * unaligned in user space, as they do for single-element accesses.) */
static UIL_INLINE uint16x8_t
uil_ld16(const uint8_t *p)
{
   return vreinterpretq_u16_u8(vld1q_u8(p));
}

static UIL_INLINE void
uil_st16(uint8_t *p, uint16x8_t v)
{
   vst1q_u8(p, vreinterpretq_u8_u16(v));
}

static UIL_INLINE uint32x4_t
uil_ld32(const uint8_t *p)
{
   return vreinterpretq_u32_u8(vld1q_u8(p));
}

static UIL_INLINE void
uil_st32(uint8_t *p, uint32x4_t v)
{
   vst1q_u8(p, vreinterpretq_u8_u32(v));
}

/* b1: v[r] = row r  ->  v[k] = block k */
static UIL_INLINE void
uil_neon_b1_to_blocks(uint8x16_t v[4])
{
   uint16x8x2_t top = vzipq_u16(vreinterpretq_u16_u8(v[0]),
                                vreinterpretq_u16_u8(vrev16q_u8(v[1])));
   uint16x8x2_t bot = vzipq_u16(vreinterpretq_u16_u8(v[2]),
                                vreinterpretq_u16_u8(vrev16q_u8(v[3])));

   for (unsigned h = 0; h < 2; ++h) {
      uint32x4_t t = vreinterpretq_u32_u16(top.val[h]);
      uint32x4_t b = vrev64q_u32(vreinterpretq_u32_u16(bot.val[h]));
      v[2 * h] = vreinterpretq_u8_u32(
         vcombine_u32(vget_low_u32(t), vget_low_u32(b)));
      v[2 * h + 1] = vreinterpretq_u8_u32(
         vcombine_u32(vget_high_u32(t), vget_high_u32(b)));
   }
}

/* b1: v[k] = block k  ->  v[r] = row r */
static UIL_INLINE void
uil_neon_b1_to_rows(uint8x16_t v[4])
{
   uint16x8_t top[2], bot[2];

   for (unsigned h = 0; h < 2; ++h) {
      uint32x4_t a = vreinterpretq_u32_u8(v[2 * h]);
      uint32x4_t b = vreinterpretq_u32_u8(v[2 * h + 1]);
      top[h] = vreinterpretq_u16_u32(
         vcombine_u32(vget_low_u32(a), vget_low_u32(b)));
      bot[h] = vreinterpretq_u16_u32(
         vrev64q_u32(vcombine_u32(vget_high_u32(a), vget_high_u32(b))));
   }

   uint16x8x2_t t = vuzpq_u16(top[0], top[1]);
   uint16x8x2_t b = vuzpq_u16(bot[0], bot[1]);
   v[0] = vreinterpretq_u8_u16(t.val[0]);
   v[1] = vrev16q_u8(vreinterpretq_u8_u16(t.val[1]));
   v[2] = vreinterpretq_u8_u16(b.val[0]);
   v[3] = vrev16q_u8(vreinterpretq_u8_u16(b.val[1]));
}

/* b2: v[r] = row r  ->  block 0 in v[0], v[1]; block 1 in v[2], v[3] */
static UIL_INLINE void
uil_neon_b2_to_blocks(uint16x8_t v[4])
{
   uint32x4x2_t top = vzipq_u32(vreinterpretq_u32_u16(v[0]),
                                vreinterpretq_u32_u16(vrev32q_u16(v[1])));
   uint32x4x2_t bot = vzipq_u32(vreinterpretq_u32_u16(v[2]),
                                vreinterpretq_u32_u16(vrev32q_u16(v[3])));

   for (unsigned k = 0; k < 2; ++k) {
      v[2 * k] = vreinterpretq_u16_u32(top.val[k]);
      v[2 * k + 1] =
         vreinterpretq_u16_u32(vextq_u32(bot.val[k], bot.val[k], 2));
   }
}

/* b2: the other way */
static UIL_INLINE void
uil_neon_b2_to_rows(uint16x8_t v[4])
{
   uint32x4_t b0 = vreinterpretq_u32_u16(v[1]);
   uint32x4_t b1 = vreinterpretq_u32_u16(v[3]);
   uint32x4x2_t top =
      vuzpq_u32(vreinterpretq_u32_u16(v[0]), vreinterpretq_u32_u16(v[2]));
   uint32x4x2_t bot = vuzpq_u32(vextq_u32(b0, b0, 2), vextq_u32(b1, b1, 2));

   v[0] = vreinterpretq_u16_u32(top.val[0]);
   v[1] = vrev32q_u16(vreinterpretq_u16_u32(top.val[1]));
   v[2] = vreinterpretq_u16_u32(bot.val[0]);
   v[3] = vrev32q_u16(vreinterpretq_u16_u32(bot.val[1]));
}

/* b4: v[0] = even row, v[1] = odd row  ->  v[0], v[1] = quads 2m, 2m+1 */
static UIL_INLINE void
uil_neon_b4_to_quads(uint32x4_t v[2])
{
   uint32x4_t e = v[0], o = vrev64q_u32(v[1]);
   v[0] = vcombine_u32(vget_low_u32(e), vget_low_u32(o));
   v[1] = vcombine_u32(vget_high_u32(e), vget_high_u32(o));
}

static UIL_INLINE void
uil_neon_b4_to_rows(uint32x4_t v[2])
{
   uint32x4_t a = v[0], b = v[1];
   v[0] = vcombine_u32(vget_low_u32(a), vget_low_u32(b));
   v[1] = vrev64q_u32(vcombine_u32(vget_high_u32(a), vget_high_u32(b)));
}

/* Rows 4*by .. 4*by+3 of a tile, 1-byte elements */
static UIL_INLINE void
uil_neon_rows_b1(uint8_t *tile, uint8_t *lin, size_t stride, unsigned by,
                 bool store)
{
   uint8x16_t v[4];

   if (store) {
      for (unsigned r = 0; r < 4; ++r)
         v[r] = vld1q_u8(lin + (4 * by + r) * stride);
      uil_neon_b1_to_blocks(v);
      for (unsigned k = 0; k < 4; ++k)
         vst1q_u8(tile + 16 * uil_index(k, by), v[k]);
   } else {
      for (unsigned k = 0; k < 4; ++k)
         v[k] = vld1q_u8(tile + 16 * uil_index(k, by));
      uil_neon_b1_to_rows(v);
      for (unsigned r = 0; r < 4; ++r)
         vst1q_u8(lin + (4 * by + r) * stride, v[r]);
   }
}

/* Rows 4*by .. 4*by+3 of a tile, 3-byte elements: b1 on three planes */
static UIL_INLINE void
uil_neon_rows_b3(uint8_t *tile, uint8_t *lin, size_t stride, unsigned by,
                 bool store)
{
   uint8x16x3_t s[4];
   uint8x16_t p[3][4];

   if (store) {
      for (unsigned r = 0; r < 4; ++r)
         s[r] = vld3q_u8(lin + (4 * by + r) * stride);
      for (unsigned c = 0; c < 3; ++c) {
         for (unsigned r = 0; r < 4; ++r)
            p[c][r] = s[r].val[c];
         uil_neon_b1_to_blocks(p[c]);
         for (unsigned k = 0; k < 4; ++k)
            s[k].val[c] = p[c][k];
      }
      for (unsigned k = 0; k < 4; ++k)
         vst3q_u8(tile + 48 * uil_index(k, by), s[k]);
   } else {
      for (unsigned k = 0; k < 4; ++k)
         s[k] = vld3q_u8(tile + 48 * uil_index(k, by));
      for (unsigned c = 0; c < 3; ++c) {
         for (unsigned k = 0; k < 4; ++k)
            p[c][k] = s[k].val[c];
         uil_neon_b1_to_rows(p[c]);
         for (unsigned r = 0; r < 4; ++r)
            s[r].val[c] = p[c][r];
      }
      for (unsigned r = 0; r < 4; ++r)
         vst3q_u8(lin + (4 * by + r) * stride, s[r]);
   }
}

/* Rows 4*by .. 4*by+3 of a tile, 2-byte elements, eight columns at a time */
static UIL_INLINE void
uil_neon_rows_b2(uint8_t *tile, uint8_t *lin, size_t stride, unsigned by,
                 bool store)
{
#pragma GCC unroll 2
   for (unsigned h = 0; h < 2; ++h) {
      uint8_t *row = lin + 4 * by * stride + 16 * h;
      uint8_t *k0 = tile + 32 * uil_index(2 * h, by);
      uint8_t *k1 = tile + 32 * uil_index(2 * h + 1, by);
      uint16x8_t v[4];

      if (store) {
         for (unsigned r = 0; r < 4; ++r)
            v[r] = uil_ld16(row + r * stride);
         uil_neon_b2_to_blocks(v);
         uil_st16(k0, v[0]);
         uil_st16(k0 + 16, v[1]);
         uil_st16(k1, v[2]);
         uil_st16(k1 + 16, v[3]);
      } else {
         v[0] = uil_ld16(k0);
         v[1] = uil_ld16(k0 + 16);
         v[2] = uil_ld16(k1);
         v[3] = uil_ld16(k1 + 16);
         uil_neon_b2_to_rows(v);
         for (unsigned r = 0; r < 4; ++r)
            uil_st16(row + r * stride, v[r]);
      }
   }
}

/* Rows 4*by .. 4*by+3 of a tile, 6-byte elements: b2 on three planes of
 * halfwords, eight columns (one vld3q_u16 per row) at a time */
static UIL_INLINE void
uil_neon_rows_b6(uint8_t *tile, uint8_t *lin, size_t stride, unsigned by,
                 bool store)
{
#pragma GCC unroll 2
   for (unsigned h = 0; h < 2; ++h) {
      uint8_t *row = lin + 4 * by * stride + 48 * h;
      uint8_t *k[2] = { tile + 96 * uil_index(2 * h, by),
                        tile + 96 * uil_index(2 * h + 1, by) };
      uint16x8x3_t s[4];
      uint16x8_t p[3][4];

      if (store) {
         for (unsigned r = 0; r < 4; ++r)
            s[r] = vld3q_u16((const uint16_t *)(row + r * stride));
         for (unsigned c = 0; c < 3; ++c) {
            for (unsigned r = 0; r < 4; ++r)
               p[c][r] = s[r].val[c];
            uil_neon_b2_to_blocks(p[c]);
            for (unsigned i = 0; i < 4; ++i)
               s[i].val[c] = p[c][i];
         }
         /* s[2b] and s[2b+1]: first and second half of block b */
         for (unsigned i = 0; i < 4; ++i)
            vst3q_u16((uint16_t *)(k[i / 2] + 48 * (i % 2)), s[i]);
      } else {
         for (unsigned i = 0; i < 4; ++i)
            s[i] = vld3q_u16((const uint16_t *)(k[i / 2] + 48 * (i % 2)));
         for (unsigned c = 0; c < 3; ++c) {
            for (unsigned i = 0; i < 4; ++i)
               p[c][i] = s[i].val[c];
            uil_neon_b2_to_rows(p[c]);
            for (unsigned r = 0; r < 4; ++r)
               s[r].val[c] = p[c][r];
         }
         for (unsigned r = 0; r < 4; ++r)
            vst3q_u16((uint16_t *)(row + r * stride), s[r]);
      }
   }
}

/* Quads 0 .. nq-1 of rows 2*qy, 2*qy+1 (nq: 8 in a 16x16 tile, 2 in a 4x4
 * one), 4-byte elements */
static UIL_INLINE void
uil_neon_quads_b4(uint8_t *tile, uint8_t *lin, size_t stride, unsigned qy,
                  unsigned nq, bool store)
{
   uint8_t *even = lin + 2 * qy * stride, *odd = even + stride;

#pragma GCC unroll 4
   for (unsigned m = 0; m < nq / 2; ++m) {
      uint8_t *qa = tile + 16 * uil_index(2 * m, qy);
      uint8_t *qb = tile + 16 * uil_index(2 * m + 1, qy);
      uint8_t *e = even + 16 * m, *o = odd + 16 * m;
      uint32x4_t v[2];

      if (store) {
         v[0] = uil_ld32(e);
         v[1] = uil_ld32(o);
         uil_neon_b4_to_quads(v);
         uil_st32(qa, v[0]);
         uil_st32(qb, v[1]);
      } else {
         v[0] = uil_ld32(qa);
         v[1] = uil_ld32(qb);
         uil_neon_b4_to_rows(v);
         uil_st32(e, v[0]);
         uil_st32(o, v[1]);
      }
   }
}

/* The same for 12-byte elements: b4 on three planes of words */
static UIL_INLINE void
uil_neon_quads_b12(uint8_t *tile, uint8_t *lin, size_t stride, unsigned qy,
                   unsigned nq, bool store)
{
   uint8_t *even = lin + 2 * qy * stride, *odd = even + stride;

#pragma GCC unroll 4
   for (unsigned m = 0; m < nq / 2; ++m) {
      uint32_t *qa = (uint32_t *)(tile + 48 * uil_index(2 * m, qy));
      uint32_t *qb = (uint32_t *)(tile + 48 * uil_index(2 * m + 1, qy));
      uint32_t *e = (uint32_t *)(even + 48 * m);
      uint32_t *o = (uint32_t *)(odd + 48 * m);
      uint32x4x3_t a, b;

      if (store) {
         a = vld3q_u32(e);
         b = vld3q_u32(o);
      } else {
         a = vld3q_u32(qa);
         b = vld3q_u32(qb);
      }
      for (unsigned c = 0; c < 3; ++c) {
         uint32x4_t v[2] = { a.val[c], b.val[c] };
         if (store)
            uil_neon_b4_to_quads(v);
         else
            uil_neon_b4_to_rows(v);
         a.val[c] = v[0];
         b.val[c] = v[1];
      }
      vst3q_u32(store ? qa : e, a);
      vst3q_u32(store ? qb : o, b);
   }
}

/* 8-byte elements: a quad is the even pair, then the odd pair swapped */
static UIL_INLINE void
uil_neon_quads_b8(uint8_t *tile, uint8_t *lin, size_t stride, unsigned qy,
                  unsigned nq, bool store)
{
   uint8_t *even = lin + 2 * qy * stride, *odd = even + stride;

#pragma GCC unroll 8
   for (unsigned qx = 0; qx < nq; ++qx) {
      uint8_t *q = tile + 32 * uil_index(qx, qy);
      uint8_t *e = even + 16 * qx, *o = odd + 16 * qx;

      if (store) {
         uint8x16_t b = vld1q_u8(o);
         vst1q_u8(q, vld1q_u8(e));
         vst1q_u8(q + 16, vextq_u8(b, b, 8));
      } else {
         uint8x16_t b = vld1q_u8(q + 16);
         vst1q_u8(e, vld1q_u8(q));
         vst1q_u8(o, vextq_u8(b, b, 8));
      }
   }
}

/* 16-byte elements: whole-vector moves */
static UIL_INLINE void
uil_neon_quads_b16(uint8_t *tile, uint8_t *lin, size_t stride, unsigned qy,
                   unsigned nq, bool store)
{
   uint8_t *even = lin + 2 * qy * stride, *odd = even + stride;

#pragma GCC unroll 8
   for (unsigned qx = 0; qx < nq; ++qx) {
      uint8_t *q = tile + 64 * uil_index(qx, qy);
      uint8_t *e = even + 32 * qx, *o = odd + 32 * qx;

      if (store) {
         uint8x16_t e0 = vld1q_u8(e), e1 = vld1q_u8(e + 16);
         uint8x16_t o0 = vld1q_u8(o), o1 = vld1q_u8(o + 16);
         vst1q_u8(q, e0);
         vst1q_u8(q + 16, e1);
         vst1q_u8(q + 32, o1);
         vst1q_u8(q + 48, o0);
      } else {
         uint8x16_t q0 = vld1q_u8(q), q1 = vld1q_u8(q + 16);
         uint8x16_t q2 = vld1q_u8(q + 32), q3 = vld1q_u8(q + 48);
         vst1q_u8(e, q0);
         vst1q_u8(e + 16, q1);
         vst1q_u8(o + 16, q2);
         vst1q_u8(o, q3);
      }
   }
}

/* Elements up to 6 bytes go four rows at a time, larger ones by row pair */
static UIL_INLINE unsigned
uil_row_blocks(unsigned B, bool store, bool nt)
{
   (void)store, (void)nt;
   return B <= 3 || B == 6 ? 4 : 8;
}

static UIL_INLINE void
uil_rows(uint8_t *tile, uint8_t *lin, size_t stride, unsigned B, unsigned rb,
         bool store, bool nt)
{
   (void)nt;
   switch (B) {
   case 1: uil_neon_rows_b1(tile, lin, stride, rb, store); return;
   case 2: uil_neon_rows_b2(tile, lin, stride, rb, store); return;
   case 3: uil_neon_rows_b3(tile, lin, stride, rb, store); return;
   case 4: uil_neon_quads_b4(tile, lin, stride, rb, 8, store); return;
   case 6: uil_neon_rows_b6(tile, lin, stride, rb, store); return;
   case 8: uil_neon_quads_b8(tile, lin, stride, rb, 8, store); return;
   case 12: uil_neon_quads_b12(tile, lin, stride, rb, 8, store); return;
   default: uil_neon_quads_b16(tile, lin, stride, rb, 8, store); return;
   }
}

/* A 4x4 tile is two row pairs of two quads.  The compressed formats have 8
 * and 16 byte blocks; the other sizes reuse the quad kernels where there
 * is one and take the portable quads otherwise. */
static UIL_INLINE void
uil_ctile(uint8_t *tile, uint8_t *lin, size_t stride, unsigned B, bool store,
          bool nt)
{
   (void)nt;
   for (unsigned qy = 0; qy < 2; ++qy) {
      switch (B) {
      case 4: uil_neon_quads_b4(tile, lin, stride, qy, 2, store); break;
      case 8: uil_neon_quads_b8(tile, lin, stride, qy, 2, store); break;
      case 12: uil_neon_quads_b12(tile, lin, stride, qy, 2, store); break;
      case 16: uil_neon_quads_b16(tile, lin, stride, qy, 2, store); break;
      default: uil_rows_quads(tile, lin, stride, B, qy, 2, store); break;
      }
   }
}

static UIL_INLINE void
uil_fence(bool nt)
{
   (void)nt;
}

#include "pan_uinterleave_walk.h"

UIL_DEFINE_TABLE(uil_table_neon);
