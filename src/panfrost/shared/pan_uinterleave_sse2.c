/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The SSE2 flavour (x86-64 baseline): SSE2 kernels for 1, 2, 4, 8, 12, 16
 * byte elements, the portable ones for 3 and 6.  4x4 tiles of 4, 8, 12 and
 * 16 byte elements (the compressed formats' sizes) use the quad kernels. */

#include "pan_uinterleave_sse2.h"
#include "pan_uinterleave_portable.h"

/* 1 and 2 byte kernels work on four rows at a time */
static UIL_INLINE unsigned
uil_row_blocks(unsigned B, bool store, bool nt)
{
   (void)store, (void)nt;
   return B <= 2 ? 4 : 8;
}

static UIL_INLINE void
uil_rows(uint8_t *tile, uint8_t *lin, size_t stride, unsigned B, unsigned rb,
         bool store, bool nt)
{
   switch (B) {
   case 1: uil_rows_sse2_b1(tile, lin, stride, rb, store, nt); return;
   case 2: uil_rows_sse2_b2(tile, lin, stride, rb, store, nt); return;
   case 4: uil_rows_sse2_b4(tile, lin, stride, rb, 8, store, nt); return;
   case 8: uil_rows_sse2_b8(tile, lin, stride, rb, 8, store, nt); return;
   case 12: uil_rows_sse2_b12(tile, lin, stride, rb, 8, store, nt); return;
   case 16: uil_rows_sse2_b16(tile, lin, stride, rb, 8, store, nt); return;
   default: uil_rows_portable(tile, lin, stride, B, rb, store); return;
   }
}

/* x86 flavours share the compressed-tile copy and the fence */
#define uil_ctile uil_ctile_sse2
#define uil_fence uil_fence_sse2
#define uil_stream_lines uil_stream_lines_sse2
#include "pan_uinterleave_walk.h"

UIL_DEFINE_TABLE(uil_table_sse2);
