/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#ifndef PAN_VX_BLEND_H
#define PAN_VX_BLEND_H

#include "pan_arch.h"
#include "pan_genxml.h"

/* The blend descriptor of render target rt (pan_vX_blend.c); NULL when
 * done, else why fixed-function blending cannot do it.
 */
const char *PAN_GENX(panfrost_emit_blend)(void *cpu, unsigned rt,
                                          const struct panfrost_blend_rt *b);

/* A Gallium stencil operation (PIPE_STENCIL_OP_*) in the hardware's
 * encoding.
 */
unsigned PAN_GENX(panfrost_stencil_op)(unsigned op);

#endif
