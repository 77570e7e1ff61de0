/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * NIR -> IR translation of compute shaders.  The NIR must have been
 * lowered by pan_compile's NIR pipeline (scalar ALU, SSA, explicit
 * global addresses).
 */

#ifndef PAN_IR_FROM_NIR_H
#define PAN_IR_FROM_NIR_H

#include "compiler/nir/nir.h"
#include "pan_ir.h"

/* Returns NULL with a message in err for what the slice does not cover. */
pan_ir_shader *pan_ir_from_nir(void *mem_ctx, nir_shader *nir, char *err,
                               size_t err_size);

#endif
