/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * NIR -> IR: memory atomics on 32-bit words of global memory (the driver
 * turns SSBO atomics into these), and the same at the address of an
 * image's texel (pan_ir_from_nir_image.c).  An atomic whose result nobody reads
 * sends no result back (atomic), except an exchange, which Valhall only
 * has in the returning form.  Adding 1 or -1 and the unsigned or signed
 * maximum or the or with 1 take that operand implied (atomic1_return:
 * ATOM1_RETURN on Valhall, no operand register), a counter's increment
 * and decrement.  The comparand and the new value of a
 * compare-and-swap are one two-word staging vector, new value first.
 */

#include "pan_ir_from_nir_priv.h"

int
pan_ir_from_nir_atomic_op(nir_intrinsic_op op)
{
   switch (op) {
   case nir_intrinsic_global_atomic_add:
   case nir_intrinsic_image_atomic_add:
      return PAN_IR_ATOMIC_ADD;
   case nir_intrinsic_global_atomic_imin:
   case nir_intrinsic_image_atomic_imin:
      return PAN_IR_ATOMIC_IMIN;
   case nir_intrinsic_global_atomic_umin:
   case nir_intrinsic_image_atomic_umin:
      return PAN_IR_ATOMIC_UMIN;
   case nir_intrinsic_global_atomic_imax:
   case nir_intrinsic_image_atomic_imax:
      return PAN_IR_ATOMIC_IMAX;
   case nir_intrinsic_global_atomic_umax:
   case nir_intrinsic_image_atomic_umax:
      return PAN_IR_ATOMIC_UMAX;
   case nir_intrinsic_global_atomic_and:
   case nir_intrinsic_image_atomic_and:
      return PAN_IR_ATOMIC_AND;
   case nir_intrinsic_global_atomic_or:
   case nir_intrinsic_image_atomic_or:
      return PAN_IR_ATOMIC_OR;
   case nir_intrinsic_global_atomic_xor:
   case nir_intrinsic_image_atomic_xor:
      return PAN_IR_ATOMIC_XOR;
   case nir_intrinsic_global_atomic_exchange:
   case nir_intrinsic_global_atomic_comp_swap:
   case nir_intrinsic_image_atomic_exchange:
   case nir_intrinsic_image_atomic_comp_swap:
      return PAN_IR_ATOMIC_XCHG;
   default:
      return -1;
   }
}

/* The implied-operand form of op with operand v, or -1. */
static int
atomic1_op(int op, pan_ir_index v)
{
   if (v.kind != PAN_IR_IMM)
      return -1;
   if (op == PAN_IR_ATOMIC_ADD && (v.value == 1 || v.value == 0xffffffffu))
      return v.value == 1 ? PAN_IR_ATOMIC1_INC : PAN_IR_ATOMIC1_DEC;
   if (v.value != 1)
      return -1;
   switch (op) {
   case PAN_IR_ATOMIC_UMAX:
      return PAN_IR_ATOMIC1_UMAX1;
   case PAN_IR_ATOMIC_IMAX:
      return PAN_IR_ATOMIC1_SMAX1;
   case PAN_IR_ATOMIC_OR:
      return PAN_IR_ATOMIC1_OR1;
   default:
      return -1;
   }
}

/* Staging operands are registers: constants go through a move. */
static pan_ir_index
in_reg(struct pan_ir_from_nir *ctx, pan_ir_index v)
{
   return v.kind == PAN_IR_SSA ? v : pan_ir_mov(&ctx->b, v);
}

void
pan_ir_from_nir_atomic_at(struct pan_ir_from_nir *ctx,
                          nir_intrinsic_instr *intr, pan_ir_index addr,
                          pan_ir_index data, pan_ir_index data2)
{
   int op = pan_ir_from_nir_atomic_op(intr->intrinsic);
   pan_ir_builder *b = &ctx->b;
   pan_ir_index v = pan_ir_null();

   if (intr->intrinsic == nir_intrinsic_global_atomic_comp_swap ||
       intr->intrinsic == nir_intrinsic_image_atomic_comp_swap) {
      pan_ir_index w[2] = { data2, data };
      v = pan_ir_atomic_cmpxchg(b, pan_ir_collect(b, 2, w), addr);
   } else if (!nir_ssa_def_is_unused(&intr->dest.ssa) &&
              atomic1_op(op, data) >= 0) {
      v = pan_ir_atomic1_return(b, atomic1_op(op, data), addr);
   } else if (op == PAN_IR_ATOMIC_XCHG ||
              !nir_ssa_def_is_unused(&intr->dest.ssa)) {
      v = pan_ir_atomic_return(b, op, in_reg(ctx, data), addr);
   } else {
      pan_ir_atomic(b, op, in_reg(ctx, data), addr);
      return;
   }
   ctx->values[intr->dest.ssa.index] = v;
}

bool
pan_ir_from_nir_atomic(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr)
{
   int op = pan_ir_from_nir_atomic_op(intr->intrinsic);
   /* Image atomics are pan_ir_from_nir_image's, which runs first. */
   if (op < 0)
      return false;

   const char *name = nir_intrinsic_infos[intr->intrinsic].name;
   if (intr->dest.ssa.bit_size != 32) {
      pan_ir_from_nir_error(ctx, "%s of %u-bit data is unsupported", name,
                            intr->dest.ssa.bit_size);
      return true;
   }
   /* NIR: comparand in src[1], new value in src[2]. */
   bool cmpxchg = intr->intrinsic == nir_intrinsic_global_atomic_comp_swap;
   pan_ir_from_nir_atomic_at(
      ctx, intr, pan_ir_from_nir_src(ctx, intr->src[0]),
      pan_ir_from_nir_src(ctx, intr->src[1]),
      cmpxchg ? pan_ir_from_nir_src(ctx, intr->src[2]) : pan_ir_null());
   return true;
}
