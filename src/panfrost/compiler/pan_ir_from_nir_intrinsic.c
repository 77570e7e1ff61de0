/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * NIR -> IR: intrinsics and constants.
 *
 * System values are read from the registers the hardware preloads for
 * compute work (the ABI of docs/drivers/panfrost/compiler.rst):
 *   r55  local invocation id x (bits 0-15) and y (bits 16-31)
 *   r56  local invocation id z (bits 0-15)
 *   r57..r59  workgroup id x, y, z
 *   r60..r62  global invocation id x, y, z
 * Push constants are FAU uniform words: byte offset / 4.
 */

#include "pan_ir_from_nir_priv.h"

#define PAN_IR_REG_LOCAL_ID_XY 55
#define PAN_IR_REG_LOCAL_ID_Z 56
#define PAN_IR_REG_WORKGROUP_ID 57
#define PAN_IR_REG_GLOBAL_ID 60

static pan_ir_index
vec_of(struct pan_ir_from_nir *ctx, unsigned n, pan_ir_index *w)
{
   return n == 1 ? w[0] : pan_ir_collect(&ctx->b, n, w);
}

static pan_ir_index
preload_vec(struct pan_ir_from_nir *ctx, unsigned first, unsigned n)
{
   pan_ir_index w[4];
   for (unsigned i = 0; i < n; ++i)
      w[i] = pan_ir_preload(&ctx->b, first + i);
   return vec_of(ctx, n, w);
}

static pan_ir_index
local_id(struct pan_ir_from_nir *ctx, unsigned n)
{
   pan_ir_builder *b = &ctx->b;
   pan_ir_index xy = pan_ir_preload(b, PAN_IR_REG_LOCAL_ID_XY);
   pan_ir_index w[3] = {
      pan_ir_lshift_and(b, xy, pan_ir_imm(0), pan_ir_imm(0xffff)),
      pan_ir_rshift_or(b, PAN_IR_TYPE_U32, xy, pan_ir_imm(16), pan_ir_imm(0)),
      pan_ir_lshift_and(b, pan_ir_preload(b, PAN_IR_REG_LOCAL_ID_Z),
                        pan_ir_imm(0), pan_ir_imm(0xffff)),
   };
   return vec_of(ctx, n, w);
}

static pan_ir_index
push_constant(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr,
              unsigned words)
{
   if (!nir_src_is_const(intr->src[0])) {
      pan_ir_from_nir_error(ctx, "push constant at a non-constant offset");
      return pan_ir_null();
   }
   unsigned offset_B = nir_intrinsic_base(intr) + nir_src_as_uint(intr->src[0]);
   if (offset_B % 4) {
      pan_ir_from_nir_error(ctx, "push constant at unaligned offset %u",
                            offset_B);
      return pan_ir_null();
   }
   pan_ir_index w[4];
   for (unsigned i = 0; i < words; ++i)
      w[i] = pan_ir_mov(&ctx->b, pan_ir_uniform(offset_B / 4 + i));
   return vec_of(ctx, words, w);
}

/* A store of every component at once, or one store per run of written
 * components (a partial write mask, such as the .xz of a std430 vec3 in a
 * storage buffer) at the run's address: Bifrost's stores take no offset.
 */
static void
store_global(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr)
{
   unsigned n = nir_src_num_components(intr->src[0]);
   unsigned mask = nir_intrinsic_write_mask(intr);
   if (!pan_ir_from_nir_check_32bit(ctx, intr, nir_src_bit_size(intr->src[0])))
      return;
   pan_ir_index data = pan_ir_from_nir_src(ctx, intr->src[0]);
   pan_ir_index addr = pan_ir_from_nir_src(ctx, intr->src[1]);
   /* Memory messages read registers: constants go through collect. */
   if (data.kind != PAN_IR_SSA)
      data = pan_ir_mov(&ctx->b, data);
   if (mask == (1u << n) - 1) {
      pan_ir_store_global(&ctx->b, 0, data, addr);
      return;
   }
   while (mask) {
      int first, count;
      u_bit_scan_consecutive_range(&mask, &first, &count);
      pan_ir_index w[4];
      for (int i = 0; i < count; ++i)
         w[i] = pan_ir_mov(&ctx->b, pan_ir_word(data, first + i));
      pan_ir_index off[2] = { pan_ir_imm(4 * first), pan_ir_imm(0) };
      pan_ir_index at =
         first ? pan_ir_iadd64(&ctx->b, addr, pan_ir_collect(&ctx->b, 2, off))
               : addr;
      pan_ir_store_global(&ctx->b, 0, vec_of(ctx, count, w), at);
   }
}

void
pan_ir_from_nir_intrinsic(struct pan_ir_from_nir *ctx,
                          nir_intrinsic_instr *intr)
{
   nir_ssa_def *def =
      nir_intrinsic_infos[intr->intrinsic].has_dest ? &intr->dest.ssa : NULL;
   unsigned words = 0;
   pan_ir_index v = pan_ir_null();

   if (def && !pan_ir_from_nir_def_words(ctx, def, &words))
      return;

   switch (intr->intrinsic) {
   case nir_intrinsic_load_global_invocation_id:
      v = preload_vec(ctx, PAN_IR_REG_GLOBAL_ID, words);
      break;
   case nir_intrinsic_load_workgroup_id:
      v = preload_vec(ctx, PAN_IR_REG_WORKGROUP_ID, words);
      break;
   case nir_intrinsic_load_local_invocation_id:
      v = local_id(ctx, words);
      break;
   case nir_intrinsic_load_subgroup_invocation:
      v = pan_ir_mov(&ctx->b, pan_ir_special(PAN_IR_SPECIAL_LANE_ID));
      break;
   case nir_intrinsic_load_push_constant:
      v = push_constant(ctx, intr, words);
      break;
   case nir_intrinsic_load_global:
   case nir_intrinsic_load_global_constant:
      if (pan_ir_from_nir_check_32bit(ctx, intr, def->bit_size))
         v = pan_ir_load_global(&ctx->b, words, 0,
                                pan_ir_from_nir_src(ctx, intr->src[0]));
      break;
   case nir_intrinsic_store_global:
      store_global(ctx, intr);
      return;
   default:
      if (pan_ir_from_nir_image(ctx, intr) ||
          pan_ir_from_nir_scratch(ctx, intr) ||
          pan_ir_from_nir_atomic(ctx, intr) ||
          pan_ir_from_nir_shared_intrinsic(ctx, intr) ||
          pan_ir_from_nir_gfx_intrinsic(ctx, intr))
         return;
      pan_ir_from_nir_error(ctx, "unsupported NIR intrinsic %s",
                            nir_intrinsic_infos[intr->intrinsic].name);
      return;
   }
   if (def && v.kind != PAN_IR_NULL)
      ctx->values[def->index] = v;
}

void
pan_ir_from_nir_load_const(struct pan_ir_from_nir *ctx,
                           nir_load_const_instr *lc)
{
   unsigned words;
   if (!pan_ir_from_nir_def_words(ctx, &lc->def, &words))
      return;

   pan_ir_index w[4];
   if (lc->def.bit_size == 64) {
      w[0] = pan_ir_imm((uint32_t)lc->value[0].u64);
      w[1] = pan_ir_imm((uint32_t)(lc->value[0].u64 >> 32));
   } else {
      for (unsigned i = 0; i < words; ++i)
         w[i] = pan_ir_imm(lc->def.bit_size == 1 ? lc->value[i].b
                                                 : lc->value[i].u32);
   }
   ctx->values[lc->def.index] = vec_of(ctx, words, w);
}
