/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#ifndef PAN_SHADER_CACHE_H
#define PAN_SHADER_CACHE_H

#include <stdbool.h>
#include <stddef.h>

struct nir_shader;
struct panfrost_binary;
struct panfrost_screen;

/* Opens the screen's disk cache (none when Mesa's cache is disabled). */
void panfrost_shader_cache_init(struct panfrost_screen *screen);
void panfrost_shader_cache_fini(struct panfrost_screen *screen);

/* The architecture's compile (panfrost_arch::compile), through the disk
 * cache: a hit fills out without compiling.  nir must be the shader as
 * it would be compiled; it is lowered in place on a miss. */
bool panfrost_compile_cached(struct panfrost_screen *screen,
                             struct nir_shader *nir, void *mem_ctx,
                             unsigned variant, struct panfrost_binary *out,
                             char *err, size_t err_size);

#endif
