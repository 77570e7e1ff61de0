/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Shared memory and barriers of compute shaders.
 *
 * GLSL `shared` variables arrive as nir_var_mem_shared derefs.
 * pan_nir_lower_shared lays them out at their natural sizes (the total is
 * info.shared_size, the bytes the driver reserves per workgroup) and turns
 * their accesses into load_shared / store_shared at a 32-bit byte offset,
 * which become the IR ops of the same names: a byte offset and a zero
 * high word, the address Bifrost's wls segment takes (Valhall adds the
 * workgroup-local pointer instead, pan_va_lower_shared.c).
 *
 * Shared atomics are the global atomic ops at the shared memory's 64-bit
 * address (shared_atomic below).
 *
 * A barrier with workgroup execution scope is the hardware BARRIER.
 * Memory barriers alone emit nothing: an invocation's loads and stores
 * complete in order (loads wait for their data, all messages share one
 * slot), and what other invocations wrote becomes visible at the control
 * barrier, which waits for every store in flight (the stock compiler
 * does the same).
 */

#include "compiler/nir/nir_builder.h"

#include "pan_compile_priv.h"
#include "pan_ir_from_nir_priv.h"

void
pan_nir_lower_shared(nir_shader *nir)
{
   if (nir->info.stage != MESA_SHADER_COMPUTE)
      return;
   /* Variables without a layout yet: all of them get one here, so the
    * size starts again from zero. */
   bool vars = false;
   nir_foreach_variable_with_modes (var, nir, nir_var_mem_shared)
      vars = true;
   if (vars && !nir->info.shared_memory_explicit_layout) {
      nir->info.shared_size = 0;
      NIR_PASS_V(nir, nir_lower_vars_to_explicit_types, nir_var_mem_shared,
                 glsl_get_natural_size_align_bytes);
   }
   NIR_PASS_V(nir, nir_lower_explicit_io, nir_var_mem_shared,
              nir_address_format_32bit_offset);
}

/* The byte offset of a shared access plus its base, as an IR value. */
static pan_ir_index
shared_offset(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr,
              nir_src src, unsigned extra_B)
{
   unsigned base = nir_intrinsic_base(intr) + extra_B;
   if (nir_src_is_const(src))
      return pan_ir_imm(nir_src_as_uint(src) + base);
   pan_ir_index off = pan_ir_from_nir_src(ctx, src);
   return base ? pan_ir_iadd(&ctx->b, off, pan_ir_imm(base)) : off;
}

static pan_ir_index
load_shared(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr)
{
   if (!pan_ir_from_nir_check_32bit(ctx, intr, intr->dest.ssa.bit_size))
      return pan_ir_null();
   return pan_ir_load_shared(&ctx->b, intr->dest.ssa.num_components,
                             shared_offset(ctx, intr, intr->src[0], 0),
                             pan_ir_imm(0));
}

/* A store of every component at once, or of each written one (a partial
 * write mask, such as v.xz = ...). */
static void
store_shared(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr)
{
   unsigned n = nir_src_num_components(intr->src[0]);
   unsigned mask = nir_intrinsic_write_mask(intr);
   if (!pan_ir_from_nir_check_32bit(ctx, intr, nir_src_bit_size(intr->src[0])))
      return;
   pan_ir_index data = pan_ir_from_nir_src(ctx, intr->src[0]);
   /* Memory messages read registers: constants go through a move. */
   if (mask == (1u << n) - 1) {
      if (data.kind != PAN_IR_SSA)
         data = pan_ir_mov(&ctx->b, data);
      pan_ir_store_shared(&ctx->b, data,
                          shared_offset(ctx, intr, intr->src[1], 0),
                          pan_ir_imm(0));
      return;
   }
   u_foreach_bit (c, mask) {
      pan_ir_index w = n == 1 ? data : pan_ir_word(data, c);
      pan_ir_store_shared(&ctx->b, pan_ir_mov(&ctx->b, w),
                          shared_offset(ctx, intr, intr->src[1], 4 * c),
                          pan_ir_imm(0));
   }
}

/* The IR operation of a shared atomic, or -1. */
static int
atomic_op(nir_intrinsic_op op)
{
   switch (op) {
   case nir_intrinsic_shared_atomic_add:
      return PAN_IR_ATOMIC_ADD;
   case nir_intrinsic_shared_atomic_imin:
      return PAN_IR_ATOMIC_IMIN;
   case nir_intrinsic_shared_atomic_umin:
      return PAN_IR_ATOMIC_UMIN;
   case nir_intrinsic_shared_atomic_imax:
      return PAN_IR_ATOMIC_IMAX;
   case nir_intrinsic_shared_atomic_umax:
      return PAN_IR_ATOMIC_UMAX;
   case nir_intrinsic_shared_atomic_and:
      return PAN_IR_ATOMIC_AND;
   case nir_intrinsic_shared_atomic_or:
      return PAN_IR_ATOMIC_OR;
   case nir_intrinsic_shared_atomic_xor:
      return PAN_IR_ATOMIC_XOR;
   case nir_intrinsic_shared_atomic_exchange:
   case nir_intrinsic_shared_atomic_comp_swap:
      return PAN_IR_ATOMIC_XCHG;
   default:
      return -1;
   }
}

/*
 * Atomics take a 64-bit address (the global atomic ops of the IR): the
 * shared memory's address of the offset, from the wls segment on Bifrost
 * and the workgroup-local pointer on Valhall.  A result nobody reads is
 * not sent back, except an exchange's (Valhall has only the returning
 * form); a compare-and-swap's staging vector is the new value, then the
 * comparand.
 */
static void
shared_atomic(struct pan_ir_from_nir *ctx, nir_intrinsic_instr *intr, int op)
{
   pan_ir_builder *b = &ctx->b;
   if (!pan_ir_from_nir_check_32bit(ctx, intr, intr->dest.ssa.bit_size))
      return;
   pan_ir_index off = shared_offset(ctx, intr, intr->src[0], 0);
   pan_ir_index w[2] = { pan_ir_wls_addr_lo(b, off),
                         pan_ir_wls_addr_hi(b, pan_ir_imm(0)) };
   pan_ir_index addr = pan_ir_collect(b, 2, w);
   pan_ir_index data = pan_ir_from_nir_src(ctx, intr->src[1]);
   if (data.kind != PAN_IR_SSA)
      data = pan_ir_mov(b, data);
   pan_ir_index v;

   if (intr->intrinsic == nir_intrinsic_shared_atomic_comp_swap) {
      /* NIR: the comparand in src[1], the new value in src[2]. */
      pan_ir_index sw[2] = { pan_ir_from_nir_src(ctx, intr->src[2]), data };
      v = pan_ir_atomic_cmpxchg(b, pan_ir_collect(b, 2, sw), addr);
   } else if (op == PAN_IR_ATOMIC_XCHG ||
              !nir_ssa_def_is_unused(&intr->dest.ssa)) {
      v = pan_ir_atomic_return(b, op, data, addr);
   } else {
      pan_ir_atomic(b, op, data, addr);
      return;
   }
   ctx->values[intr->dest.ssa.index] = v;
}

static void
barrier(struct pan_ir_from_nir *ctx)
{
   if (ctx->stage != MESA_SHADER_COMPUTE) {
      pan_ir_from_nir_error(ctx, "a barrier outside a compute shader");
      return;
   }
   pan_ir_barrier(&ctx->b);
}

bool
pan_ir_from_nir_shared_intrinsic(struct pan_ir_from_nir *ctx,
                                 nir_intrinsic_instr *intr)
{
   pan_ir_index v;

   switch (intr->intrinsic) {
   case nir_intrinsic_load_shared:
      v = load_shared(ctx, intr);
      if (v.kind != PAN_IR_NULL)
         ctx->values[intr->dest.ssa.index] = v;
      return true;
   case nir_intrinsic_store_shared:
      store_shared(ctx, intr);
      return true;
   case nir_intrinsic_control_barrier:
      barrier(ctx);
      return true;
   case nir_intrinsic_scoped_barrier:
      if (nir_intrinsic_execution_scope(intr) >= NIR_SCOPE_WORKGROUP)
         barrier(ctx);
      return true;
   case nir_intrinsic_memory_barrier:
   case nir_intrinsic_memory_barrier_shared:
   case nir_intrinsic_memory_barrier_buffer:
   case nir_intrinsic_memory_barrier_image:
   case nir_intrinsic_group_memory_barrier:
      return true;
   default:
      if (atomic_op(intr->intrinsic) < 0)
         return false;
      shared_atomic(ctx, intr, atomic_op(intr->intrinsic));
      return true;
   }
}
