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

/* Whether render target b needs a blend shader: the blend unit cannot
 * do its blending or logic op (its format is one the unit takes). */
bool PAN_GENX(panfrost_blend_needs_shader)(const struct panfrost_blend_rt *b);

/* The internal conversion (LD_TILE) and the opaque internal blend
 * descriptor (its store) of a blend shader of render target rt. */
void PAN_GENX(panfrost_blend_shader_io)(const struct panfrost_blend_rt *b,
                                        unsigned rt, uint32_t *conversion,
                                        uint64_t *store);

/* A Gallium stencil operation (PIPE_STENCIL_OP_*) in the hardware's
 * encoding.
 */
unsigned PAN_GENX(panfrost_stencil_op)(unsigned op);

#endif
