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
#include "pan_ir.h"

/* Vertex and fragment I/O, viewport transform, IDVS variant split
 * (pan_va_lower_gfx.c). */
void pan_va_lower_gfx_nir(nir_shader *nir, enum pan_va_variant variant);
/* noperspective vertex outputs stored times the clip w
 * (pan_va_noperspective.c). */
void pan_va_lower_noperspective(nir_shader *nir);

/* The NIR lowering of pan_compile.c and the register count of an
 * allocation, for the other back ends' entry points. */
void pan_compile_lower_nir(nir_shader *nir);
/* Large temporary arrays indexed at run time to load_scratch and
 * store_scratch (the rest of the NIR lowering does it too). */
void pan_compile_lower_scratch(nir_shader *nir);
unsigned pan_compile_work_regs(pan_ir_shader *s, const uint8_t *regs);

/* Where each render target's BLEND has its colours and coverage, for the
 * blend shaders it may call (both back ends). */
void pan_compile_blend_regs(pan_ir_shader *s, const uint8_t *regs,
                            struct pan_blend_regs out[8]);

#endif
