/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Polygon modes other than fill (GL_LINE, GL_POINT), which the hardware
 * has no mode for: the polygons' edges or vertices are drawn as lines or
 * points (pan_polygon_mode.c).
 */

#ifndef PAN_POLYGON_MODE_H
#define PAN_POLYGON_MODE_H

#include <stdbool.h>

#include "pipe/p_state.h"

struct panfrost_context;

/* Whether panfrost_polygon_mode_draw() takes the draw. */
bool panfrost_polygon_mode_applies(const struct panfrost_context *ctx,
                                   const struct pipe_draw_info *info);

/* Draws `draws` as the edges or vertices of their polygons when the
 * rasterizer asks for one unfilled mode for both faces and culls none;
 * false when it does not apply (the draw is for the caller).
 */
bool panfrost_polygon_mode_draw(struct panfrost_context *ctx,
                                const struct pipe_draw_info *info,
                                unsigned drawid_offset,
                                const struct pipe_draw_start_count_bias *draws,
                                unsigned num_draws);

#endif
