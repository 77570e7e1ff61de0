/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The plain C flavour: built for every target, picked when no SIMD flavour
 * is available, and always checked by the tests. */

#include "pan_uinterleave_portable.h"

static UIL_INLINE unsigned
uil_row_blocks(unsigned B, bool store, bool nt)
{
   (void)B, (void)store, (void)nt;
   return 8;
}

static UIL_INLINE void
uil_rows(uint8_t *tile, uint8_t *lin, size_t stride, unsigned B, unsigned rb,
         bool store, bool nt)
{
   (void)nt;
   uil_rows_portable(tile, lin, stride, B, rb, store);
}

static UIL_INLINE void
uil_ctile(uint8_t *tile, uint8_t *lin, size_t stride, unsigned B, bool store,
          bool nt)
{
   (void)nt;
   uil_ctile_portable(tile, lin, stride, B, store);
}

static UIL_INLINE void
uil_fence(bool nt)
{
   (void)nt;
}

#include "pan_uinterleave_walk.h"

UIL_DEFINE_TABLE(uil_table_portable);
