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

struct nir_shader;
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

/* Removes the vertex shader's edge flags (VARYING_SLOT_EDGE), which no
 * hardware stage takes: the polygon-mode draws read them from the shader's
 * records instead.
 */
void panfrost_nir_drop_edge_flag(struct nir_shader *nir);

#endif
