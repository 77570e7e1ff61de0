/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * A reference line rasteriser for the simulator's tests, written from
 * GL's description of non-antialiased lines rather than from
 * pan_sim_line.c: walk the pixel columns (or rows, for a line closer to
 * the y axis) whose centre the segment spans, start in and end out in the
 * direction of travel; in each, the segment's minor coordinate at the
 * centre, m, gives the pixels whose centre lies in [m - w/2, m + w/2).
 * Double precision, with a verdict of "too close to call" for a centre
 * within 1e-9 pixel of a bound, which callers avoid or skip.
 */

#ifndef PAN_SIM_LINE_REF_H
#define PAN_SIM_LINE_REF_H

#include <math.h>
#include <stdbool.h>

enum ref_line_verdict { REF_LINE_OUT, REF_LINE_IN, REF_LINE_CLOSE };

static inline enum ref_line_verdict
ref_line_covers(double ax, double ay, double bx, double by, double w, double cx,
                double cy)
{
   bool x_major = fabs(bx - ax) >= fabs(by - ay);
   double ua = x_major ? ax : ay, ub = x_major ? bx : by;
   double va = x_major ? ay : ax, vb = x_major ? by : bx;
   double cu = x_major ? cx : cy, cv = x_major ? cy : cx;

   if (ua == ub)
      return REF_LINE_OUT;
   bool in_u = ub > ua ? cu >= ua && cu < ub : cu <= ua && cu > ub;
   if (!in_u)
      return REF_LINE_OUT;
   double m = va + (cu - ua) * (vb - va) / (ub - ua);
   double lo = m - w / 2, hi = m + w / 2;
   if (fabs(cv - lo) < 1e-9 || fabs(cv - hi) < 1e-9) {
      /* Exact ties (every value a short binary fraction) are decided. */
      if (cv == lo)
         return REF_LINE_IN;
      if (cv == hi)
         return REF_LINE_OUT;
      return REF_LINE_CLOSE;
   }
   return cv > lo && cv < hi ? REF_LINE_IN : REF_LINE_OUT;
}

/* Position of the centre along the segment: 0 at a, 1 at b. */
static inline double
ref_line_t(double ax, double ay, double bx, double by, double cx, double cy)
{
   double dx = bx - ax, dy = by - ay;
   return ((cx - ax) * dx + (cy - ay) * dy) / (dx * dx + dy * dy);
}

#endif
