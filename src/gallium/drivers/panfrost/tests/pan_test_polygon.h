/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* What the polygon-mode and line-stipple tests share: their rasterizer,
 * a draw onto a target cleared black, the two quads of
 * pan_test_bind_two_quads drawn one at a time, and the unfilled fill
 * modes they go through.
 */

#ifndef PAN_TEST_POLYGON_H
#define PAN_TEST_POLYGON_H

#include "pipe/p_state.h"

struct pipe_context;

/* Opaque black (what pan_test_draw_cleared leaves where nothing is drawn)
 * and green, as words of an RGBA8 target. */
#define PAN_TEST_BLACK 0xff000000u
#define PAN_TEST_GREEN 0xff00ff00u

/* pan_test_rasterizer with fill_back for back faces and counter-clockwise
 * front faces. */
struct pipe_rasterizer_state pan_test_polygon_rasterizer(unsigned fill_front,
                                                         unsigned fill_back);

/* Clears colour buffer 0 black, then draws each of draws[0..num_draws)
 * with info in a draw_vbo of its own, under a rasterizer made from rs,
 * and flushes. */
void pan_test_draw_cleared(struct pipe_context *ctx,
                           const struct pipe_rasterizer_state *rs,
                           const struct pipe_draw_info *info,
                           const struct pipe_draw_start_count_bias *draws,
                           unsigned num_draws);

/* pan_test_draw_cleared of vertices 0-3 and 4-7 as two quads. */
void pan_test_draw_two_quads(struct pipe_context *ctx,
                             const struct pipe_rasterizer_state *rs);

/* The unfilled fills for front and back faces the tests try: GL_LINE,
 * GL_POINT, and GL_LINE front with GL_POINT back. */
struct pan_test_polygon_mode {
   const char *name;
   unsigned front, back;
};

#define PAN_TEST_POLYGON_MODES 3
extern const struct pan_test_polygon_mode
   pan_test_polygon_modes[PAN_TEST_POLYGON_MODES];

#endif
