/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The SSSE3 flavour, built with -mssse3 and picked at run time when the
 * CPU has it: pshufb kernels for 1, 3 and 6 byte elements, the SSE2
 * flavour's kernels for the rest. */

#include "pan_uinterleave_ssse3.h"
#include "pan_uinterleave_portable.h"

/* 3-byte loads (never streamed) go a row pair at a time, everything
 * else that has an SSSE3 or SSE2 4-row kernel four rows at a time */
static UIL_INLINE unsigned
uil_row_blocks(unsigned B, bool store, bool nt)
{
   (void)nt;
   if (B == 3)
      return store ? 4 : 8;
   return B <= 2 ? 4 : 8;
}

static UIL_INLINE void
uil_rows(uint8_t *tile, uint8_t *lin, size_t stride, unsigned B, unsigned rb,
         bool store, bool nt)
{
   switch (B) {
   case 1: uil_rows_b1_ssse3(tile, lin, stride, rb, store, nt); return;
   case 2: uil_rows_sse2_b2(tile, lin, stride, rb, store, nt); return;
   case 3:
      if (store)
         uil_store_rows_b3_ssse3(tile, lin, stride, rb, nt);
      else
         uil_load_rows_b3_ssse3(tile, lin, stride, rb);
      return;
   case 4: uil_rows_sse2_b4(tile, lin, stride, rb, 8, store, nt); return;
   case 6:
      if (store)
         uil_store_rows_b6_ssse3(tile, lin, stride, rb, nt);
      else
         uil_load_rows_b6_ssse3(tile, lin, stride, rb);
      return;
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

UIL_DEFINE_TABLE(uil_table_ssse3);
