/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The tiler's side of a draw, compiled once per PAN_ARCH (v6, v7, v9):
 * the heap and context descriptors of a pass and the hardware's draw
 * modes, shared by the IDVS and the job-manager draw paths.
 */

#include "pipe/p_defines.h"

#include "pan_genxml.h"
#include "pan_vX_tiler.h"

void
PAN_GENX(panfrost_emit_tiler)(void *heap_cpu, uint64_t heap_va,
                              void *ctx_cpu, uint64_t heap_bo_va,
                              unsigned heap_size_B, unsigned hierarchy_mask,
                              unsigned fb_width, unsigned fb_height,
                              bool first_provoking)
{
   pan_pack(heap_cpu, tiler_heap, cfg)
   {
      cfg.size = heap_size_B;
      cfg.base = heap_bo_va;
      cfg.bottom = heap_bo_va;
      cfg.top = heap_bo_va + heap_size_B;
   }
   pan_pack(ctx_cpu, tiler_context, cfg)
   {
      cfg.hierarchy_mask = hierarchy_mask;
      cfg.sample_pattern = MALI_SAMPLE_PATTERN_SINGLE_SAMPLED;
      cfg.fb_width = fb_width;
      cfg.fb_height = fb_height;
      cfg.heap = heap_va;
#if PAN_ARCH >= 9
      /* v9 keeps the flat-shading convention per pass, not per draw. */
      cfg.first_provoking_vertex = first_provoking;
#endif
   }
}

unsigned
PAN_GENX(panfrost_draw_mode)(unsigned mode)
{
   switch (mode) {
   case PIPE_PRIM_POINTS:
      return MALI_DRAW_MODE_POINTS;
   case PIPE_PRIM_LINES:
      return MALI_DRAW_MODE_LINES;
   case PIPE_PRIM_LINE_STRIP:
      return MALI_DRAW_MODE_LINE_STRIP;
   case PIPE_PRIM_LINE_LOOP:
      return MALI_DRAW_MODE_LINE_LOOP;
   case PIPE_PRIM_TRIANGLES:
      return MALI_DRAW_MODE_TRIANGLES;
   case PIPE_PRIM_TRIANGLE_STRIP:
      return MALI_DRAW_MODE_TRIANGLE_STRIP;
   case PIPE_PRIM_TRIANGLE_FAN:
      return MALI_DRAW_MODE_TRIANGLE_FAN;
   default:
      return MALI_DRAW_MODE_NONE;
   }
}
