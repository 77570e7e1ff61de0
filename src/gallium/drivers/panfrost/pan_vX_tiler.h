/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#ifndef PAN_VX_TILER_H
#define PAN_VX_TILER_H

#include <stdbool.h>
#include <stdint.h>

#include "pan_genxml.h"

/* The tiler heap descriptor at heap_cpu over heap_size_B bytes at
 * heap_bo_va, and a tiler context using it (pan_vX_tiler.c).
 */
void PAN_GENX(panfrost_emit_tiler)(void *heap_cpu, uint64_t heap_va,
                                   void *ctx_cpu, uint64_t heap_bo_va,
                                   unsigned heap_size_B,
                                   unsigned hierarchy_mask, unsigned fb_width,
                                   unsigned fb_height, bool first_provoking);

/* The hardware's draw mode of a pipe_prim_type, MALI_DRAW_MODE_NONE for
 * one it does not draw.
 */
unsigned PAN_GENX(panfrost_draw_mode)(unsigned mode);

#endif
