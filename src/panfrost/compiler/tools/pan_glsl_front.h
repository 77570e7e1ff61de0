/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The GLSL -> NIR front of our compiler tools (pan-compiler-db for
 * Valhall, pan-mid-compiler-db for Midgard): the base's standalone GLSL
 * compiler and linker, then glsl_to_nir and NIR linking per stage, as a
 * GL state tracker would do it.  What differs per back end (driver
 * locations, which I/O is lowered) stays in the tool's callback.
 */

#ifndef PAN_GLSL_FRONT_H
#define PAN_GLSL_FRONT_H

#include <stdbool.h>

/* nir.h first: the GLSL headers use its types. */
#include "compiler/nir/nir.h"

struct gl_shader_program;

/* Exit statuses both tools share. */
enum pan_glsl_front_status {
   PAN_GLSL_FRONT_OK = 0,
   PAN_GLSL_FRONT_REFUSED = 1, /* a callback returned false */
   PAN_GLSL_FRONT_FAILED = 3,  /* GLSL compile or link failure */
   PAN_GLSL_FRONT_IO = 4,      /* a source could not be read */
};

struct pan_glsl_front_options {
   const nir_shader_compiler_options *nir_options;
   /* Lower mediump to 16 bits (for a back end with 16-bit values). */
   bool lower_precision;
};

/* Called once per linked stage, in stage order; returns false when the
 * stage was refused (the run goes on with the other stages). */
typedef bool (*pan_glsl_stage_fn)(struct gl_shader_program *prog,
                                  nir_shader *nir, void *data);

/* Compiles and links the sources (the highest #version among them; 1.10
 * and 1.20 get 1.30's limits), then calls fn on each stage's NIR. */
enum pan_glsl_front_status
pan_glsl_front_run(const struct pan_glsl_front_options *opts, unsigned nr_files,
                   char **files, pan_glsl_stage_fn fn, void *data);

/* Type sizes for nir_assign_var_locations / nir_lower_io. */
int pan_glsl_attribute_slots(const struct glsl_type *type, bool bindless);
int pan_glsl_dword_slots(const struct glsl_type *type, bool bindless);

/* The lowering a GL state tracker does before the driver sees a stage:
 * driver locations, uniforms to UBO 0, samplers, images and buffers. */
void pan_glsl_to_driver_nir(struct gl_shader_program *prog, nir_shader *nir);

#endif
