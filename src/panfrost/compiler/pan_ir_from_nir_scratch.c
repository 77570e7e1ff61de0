/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * NIR -> IR: load_scratch and store_scratch, the accesses of large
 * temporary arrays indexed at run time, which pan_va_lower_gfx.c moves to
 * thread storage instead of spelling every access as a select of all the
 * elements.  The address is the byte offset over a zero high word; the
 * per-architecture part (Valhall's thread_local_pointer) is
 * pan_va_lower_scratch.c's.  Natural alignment keeps each access inside one
 * 16-byte line of the thread's storage.
 */

#include "pan_ir_from_nir_priv.h"

static pan_ir_index
address(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr, nir_src offset,
        unsigned extra)
{
   unsigned base = nir_intrinsic_has_base(intr) ? nir_intrinsic_base(intr) : 0;
   pan_ir_index off = pan_ir_from_nir_src(ctx, offset);
   if (base + extra)
      off = pan_ir_iadd_imm(&ctx->b, base + extra, off);
   pan_ir_index w[2] = { off, pan_ir_imm(0) };
   return pan_ir_collect(&ctx->b, 2, w);
}

static void
load(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr)
{
   unsigned words;
   if (!pan_ir_from_nir_check_32bit(ctx, intr, intr->dest.ssa.bit_size) ||
       !pan_ir_from_nir_def_words(ctx, &intr->dest.ssa, &words))
      return;
   pan_ir_index addr = address(ctx, intr, intr->src[0], 0);
   ctx->values[intr->dest.ssa.index] =
      pan_ir_scratch_load(&ctx->b, words, addr);
}

static void
store(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr)
{
   unsigned n = nir_src_num_components(intr->src[0]);
   unsigned mask = nir_intrinsic_write_mask(intr);
   if (!pan_ir_from_nir_check_32bit(ctx, intr, nir_src_bit_size(intr->src[0])))
      return;
   pan_ir_index data = pan_ir_from_nir_src(ctx, intr->src[0]);
   /* Memory messages read registers: constants go through a move. */
   if (data.kind != PAN_IR_SSA)
      data = pan_ir_mov(&ctx->b, data);
   if (mask == (1u << n) - 1) {
      pan_ir_scratch_store(&ctx->b, data, address(ctx, intr, intr->src[1], 0));
      return;
   }
   /* A partial write (one field of a vector element) stores its words
    * one by one. */
   u_foreach_bit (c, mask) {
      pan_ir_index word = pan_ir_mov(&ctx->b, pan_ir_word(data, c));
      pan_ir_scratch_store(&ctx->b, word,
                           address(ctx, intr, intr->src[1], 4 * c));
   }
}

bool
pan_ir_from_nir_scratch(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr)
{
   switch (intr->intrinsic) {
   case nir_intrinsic_load_scratch:
      load(ctx, intr);
      return true;
   case nir_intrinsic_store_scratch:
      store(ctx, intr);
      return true;
   default:
      return false;
   }
}
