/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * NIR -> IR translation of compute, vertex and fragment shaders.  The NIR must
 * have been lowered by pan_compile's NIR pipeline (scalar ALU, SSA, explicit
 * global addresses).
 */

#ifndef PAN_IR_FROM_NIR_H
#define PAN_IR_FROM_NIR_H

#include "compiler/nir/nir.h"
#include "pan_compile.h"
#include "pan_ir.h"

/* Returns NULL with a message in err for what the slice does not cover.
 * The pushed uniform words of graphics shaders go to bin->push. */
pan_ir_shader *pan_ir_from_nir(void *mem_ctx, nir_shader *nir,
                               struct pan_va_binary *bin, char *err,
                               size_t err_size);

/* The same for a v9 blend shader (pan_va_blend_options). */
pan_ir_shader *pan_ir_from_nir_blend(void *mem_ctx, nir_shader *nir,
                                     const struct pan_va_blend_options *blend,
                                     char *err, size_t err_size);

#endif
