/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * What the compiler pipeline (pan_compile.c) shares with its NIR lowering
 * files.
 */

#ifndef PAN_COMPILE_PRIV_H
#define PAN_COMPILE_PRIV_H

#include "compiler/nir/nir_builder.h"
#include "pan_compile.h"

/* Vertex and fragment I/O, viewport transform, IDVS variant split
 * (pan_va_lower_gfx.c). */
void pan_va_lower_gfx_nir(nir_shader *nir, enum pan_va_variant variant);

#endif
