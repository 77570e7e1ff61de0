/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Blend shaders: what the blend unit cannot do, compiled once per
 * key and kept by the context.  See docs/drivers/panfrost/blend.rst.
 */

#ifndef PAN_BLEND_SHADER_H
#define PAN_BLEND_SHADER_H

#include "compiler/nir/nir.h"

#include "pan_arch.h"

struct panfrost_context;
struct panfrost_program;

/* Everything a blend shader depends on (zeroed, then filled: hashed as
 * bytes). */
struct panfrost_blend_shader_key {
   struct panfrost_blend_rt rt; /* its shader field 0 */
   unsigned index;              /* render target */
   uint32_t conversion;         /* internal conversion, packed */
   uint64_t store;              /* internal blend descriptor, packed */
   /* Where the calling BLEND has the colour and the coverage, and
    * whether it is the fragment shader's last (no return). */
   uint8_t colour_reg, colour1_reg, coverage_reg;
   bool last;
   /* Samples of the target: more than 1 blends the sample the draw,
    * shaded once a sample, runs for (blend.rst, "Multisampled targets"). */
   uint8_t nr_samples;
};

/* The blend shader's NIR (pan_compile.h, pan_va_blend_options): the
 * colour blended with the destination (nir_lower_blend), or the logic
 * op, the constants in the code.
 */
nir_shader *
panfrost_blend_shader_nir(const struct panfrost_blend_shader_key *k);

/* The GPU address of the blend shader render target `index` of the draw
 * needs (b, of the fragment program fs), compiled and uploaded at the first
 * use; 0 with a message in err when it cannot be had.
 */
uint64_t panfrost_blend_shader_get(struct panfrost_context *ctx,
                                   const struct panfrost_blend_rt *b,
                                   unsigned index,
                                   const struct panfrost_program *fs, char *err,
                                   size_t err_size);

/* Frees the context's blend shaders. */
void panfrost_blend_shaders_fini(struct panfrost_context *ctx);

#endif
