/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Line segments of the simulator's rasteriser (pan_sim_line.c): GL's
 * non-antialiased rule for lines of any width.  A segment from a to b of
 * width w covers the parallelogram it sweeps when moved by w/2 either way
 * along the minor axis (y for a line at most 45 degrees from the x axis,
 * x otherwise), cut by the two lines across the major axis through a and
 * b.  With w = 1 that is one pixel per column (or row) along the major
 * axis, as the diamond-exit rule also gives away from the ends.
 *
 * Ties, in the major direction: the segment's start is in, its end out
 * (in the direction of travel), so the joints of a strip or loop are
 * drawn once.  In the minor direction the side of smaller coordinate is
 * in, the other out, so two lines w apart side by side never share a
 * pixel.  Endpoints are snapped to 1/256 pixel as triangles are, and the
 * tests are exact in integers.
 *
 * Varyings and depth follow t, the position of the pixel centre projected
 * on the segment (0 at a, 1 at b, extrapolated past the ends).
 */

#ifndef PAN_SIM_LINE_H
#define PAN_SIM_LINE_H

#include <stdbool.h>
#include <stdint.h>

#include "pan_sim_draw.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pan_sim_line {
   /* Major (u) and minor (v) coordinates of a and b, snapped. */
   int64_t u[2], v[2];
   bool x_major;
   int64_t half;               /* w / 2 in 1/256 pixel */
   double dx, dy, len2;        /* b - a in pixels, its squared length */
   double ax, ay;              /* a in pixels */
   int minx, miny, maxx, maxy; /* pixel bounding box, inclusive */
};

/* Set up the segment p->v[0] -> p->v[1] of width p->line_width; false
 * for one of zero length or one the simulator cannot rasterise (an end at
 * or behind the eye, beyond the guard band, an absurd width). */
bool pan_sim_line_setup(const struct pan_sim_prim *p, struct pan_sim_line *l);

/* Whether the point (sx, sy) of pixel (x, y), in 1/256 pixel from its
 * top-left corner, is covered; *t gets the position along the segment
 * either way (what helper lanes interpolate). */
bool pan_sim_line_covers_at(const struct pan_sim_line *l, int x, int y,
                            unsigned sx, unsigned sy, double *t);

#ifdef __cplusplus
}
#endif

#endif
