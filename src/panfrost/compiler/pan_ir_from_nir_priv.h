/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * State shared by the NIR -> IR translation files: control flow
 * (pan_ir_from_nir.c), ALU (pan_ir_from_nir_alu.c), intrinsics and
 * constants (pan_ir_from_nir_intrinsic.c).
 */

#ifndef PAN_IR_FROM_NIR_PRIV_H
#define PAN_IR_FROM_NIR_PRIV_H

#include "compiler/nir/nir.h"
#include "pan_compile.h"
#include "pan_ir_builder.h"

struct pan_ir_from_nir {
   pan_ir_shader *shader;
   pan_ir_builder b;
   pan_ir_index *values; /* by nir_ssa_def index */
   char *err;
   size_t err_size;
   bool failed;

   gl_shader_stage stage;
   struct pan_va_binary *bin; /* push table */
   /* Compiling a v9 blend shader: how (pan_compile.h). */
   const struct pan_va_blend_options *blend;
   /* Fragment colour per render target (4 words of colour_type) and the
    * depth and stencil outputs, emitted at the end. */
   pan_ir_index colour[8];
   enum pan_ir_type colour_type[8];
   /* The second colour of dual-source blending (target 0). */
   pan_ir_index colour1;
   pan_ir_index depth, stencil;
   /* The IDVS output address, computed once per block. */
   pan_ir_index vary_addr;
   pan_ir_block *vary_addr_block;
};

/* Record the first error; translation stops at the next check. */
void PRINTFLIKE(2, 3)
   pan_ir_from_nir_error(struct pan_ir_from_nir *ctx, const char *fmt, ...);

/* False after an error naming the intrinsic unless bits is 32: the
 * memory and I/O paths move 32-bit words only. */
bool pan_ir_from_nir_check_32bit(struct pan_ir_from_nir *ctx,
                                 nir_intrinsic_instr *intr, unsigned bits);

/* Words of a NIR value: 64-bit scalars are two words, vectors 1-4. */
bool pan_ir_from_nir_def_words(struct pan_ir_from_nir *ctx,
                               const nir_ssa_def *def, unsigned *words);

/* The IR value of a NIR source (whole vector). */
pan_ir_index pan_ir_from_nir_src(struct pan_ir_from_nir *ctx, nir_src src);

void pan_ir_from_nir_alu(struct pan_ir_from_nir *ctx, nir_alu_instr *alu);
void pan_ir_from_nir_intrinsic(struct pan_ir_from_nir *ctx,
                               nir_intrinsic_instr *intr);
/* Graphics intrinsics (pan_ir_from_nir_gfx.c); false when not one. */
bool pan_ir_from_nir_gfx_intrinsic(struct pan_ir_from_nir *ctx,
                                   nir_intrinsic_instr *intr);
/* Memory atomics (pan_ir_from_nir_atomic.c); false when not one. */
bool pan_ir_from_nir_atomic(struct pan_ir_from_nir *ctx,
                            nir_intrinsic_instr *intr);
/* The IR operation (enum pan_ir_atomic) of a global or image atomic
 * intrinsic, or -1. */
int pan_ir_from_nir_atomic_op(nir_intrinsic_op op);
/* The atomic intr at the 64-bit address addr with the operand data (a
 * compare-and-swap: the comparand, and data2 the new value); its result,
 * when read, becomes intr's value. */
void pan_ir_from_nir_atomic_at(struct pan_ir_from_nir *ctx,
                               nir_intrinsic_instr *intr, pan_ir_index addr,
                               pan_ir_index data, pan_ir_index data2);
/* Scratch array loads and stores (pan_ir_from_nir_scratch.c); false when
 * not one. */
bool pan_ir_from_nir_scratch(struct pan_ir_from_nir *ctx,
                             nir_intrinsic_instr *intr);
/* Image loads, stores, atomics (pan_ir_from_nir_image.c); false when not
 * one. */
bool pan_ir_from_nir_image(struct pan_ir_from_nir *ctx,
                           nir_intrinsic_instr *intr);
/* The fragment shader's tail: ATEST, ZS_EMIT of depth/stencil outputs and one
 * BLEND per colour output. */
void pan_ir_from_nir_gfx_finish(struct pan_ir_from_nir *ctx);

/* exp2, log2, sin, cos of a float word (pan_ir_from_nir_sfu.c); null
 * for other ops. */
pan_ir_index pan_ir_from_nir_sfu(pan_ir_builder *b, nir_op op, pan_ir_index x);

/* n pushed words from (source, ubo, offset_B) on, as a value; null with
 * an error when the push table is full (pan_ir_from_nir_gfx.c). */
pan_ir_index pan_ir_from_nir_pushed_vec(struct pan_ir_from_nir *ctx,
                                        enum pan_va_push_source source,
                                        unsigned ubo, unsigned offset_B,
                                        unsigned n);

/* Shared memory and barriers (pan_ir_from_nir_shared.c); false when not
 * one of those. */
bool pan_ir_from_nir_shared_intrinsic(struct pan_ir_from_nir *ctx,
                                      nir_intrinsic_instr *intr);

/* Texture instructions (pan_ir_from_nir_tex.c). */
void pan_ir_from_nir_tex(struct pan_ir_from_nir *ctx, nir_tex_instr *tex);

void pan_ir_from_nir_load_const(struct pan_ir_from_nir *ctx,
                                nir_load_const_instr *lc);

#endif
