/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Entry point of our compiler: a NIR compute shader in, Valhall (v9)
 * instruction words out.  See docs/drivers/panfrost/compiler.rst.
 */

#ifndef PAN_COMPILE_H
#define PAN_COMPILE_H

#include "compiler/nir/nir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* NIR options the shaders given to pan_va_compile should be built with. */
extern const nir_shader_compiler_options pan_va_nir_options;

struct pan_va_binary {
   uint64_t *words; /* ralloc'd on the mem_ctx given */
   unsigned nr_words;
};

struct pan_va_compile_options {
   /* Keep uniforms in movs instead of folding them into sources (to
    * measure the folding). */
   bool no_fau_fold;
};

/*
 * Compile; the NIR is lowered in place.  Returns false with a message in
 * err for what the compiler does not support (no crash, nothing leaked).
 * When print_ir is set, the IR is printed there after each pass.
 */
bool pan_va_compile(nir_shader *nir, void *mem_ctx, struct pan_va_binary *out,
                    FILE *print_ir, char *err, size_t err_size);

/* The same with options (NULL: defaults). */
bool pan_va_compile_opts(nir_shader *nir, void *mem_ctx,
                         const struct pan_va_compile_options *opts,
                         struct pan_va_binary *out, FILE *print_ir, char *err,
                         size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
