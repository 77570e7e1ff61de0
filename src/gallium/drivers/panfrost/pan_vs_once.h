/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Draws whose vertex shader's memory writes the usual paths would make
 * more than once per vertex: on v9 a shader the IDVS pair cannot share
 * the results of (reads in loops, pan_ssbo.h), and on every architecture
 * a memory-writing shader whose outputs transform feedback captures (the
 * capture is a run of its own) or drawn as GL_LINE or GL_POINT polygons
 * (pan_polygon_mode.c runs it for the faces, then draws lists with it).
 * The shader runs once per distinct vertex of each instance as its
 * compute variant writing every output to a record (pan_gs.h's record
 * variant), the draw's primitives become a list naming those records,
 * drawn with a pass-through vertex shader (through the polygon modes when
 * they apply), and the capture copies its outputs from the same records
 * (pan_vs_once.c).
 */

#ifndef PAN_VS_ONCE_H
#define PAN_VS_ONCE_H

#include <stdbool.h>

#include "pipe/p_state.h"

struct panfrost_context;

/* Whether the draw goes through panfrost_vs_once_draw(). */
bool panfrost_vs_once_applies(const struct panfrost_context *ctx,
                              const struct pipe_draw_info *info);

/* Runs the vertex shader of one draw once per vertex and draws (and
 * captures) its primitives from the records; the draw is done, or
 * dropped with a message, when it returns.
 */
void panfrost_vs_once_draw(struct panfrost_context *ctx,
                           const struct pipe_draw_info *info, unsigned drawid,
                           const struct pipe_draw_start_count_bias *draw);

#endif
