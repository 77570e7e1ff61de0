/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#ifndef PAN_MIDGARD_H
#define PAN_MIDGARD_H

#include <stdbool.h>
#include <stddef.h>

struct nir_shader;
struct util_debug_callback;

/* Compiles a vertex or fragment shader for Midgard to report on it
 * (MIDGARD_MESA_DEBUG, the GL debug output); false with a message in err
 * when the compiler refuses it.  The NIR is lowered in place. */
bool panfrost_midgard_compile(unsigned gpu_id, struct nir_shader *nir,
                              struct util_debug_callback *debug, char *err,
                              size_t err_size);

#endif
