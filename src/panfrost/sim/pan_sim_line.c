/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Line coverage of the simulator's rasteriser: see pan_sim_line.h for the
 * rule.  Coordinates are snapped to 1/256 pixel, so the major-axis tests
 * are comparisons of integers and the minor-axis test is one exact
 * product: with du = ub - ua (never 0) and s its sign, the centre
 * (pu, pv) is within w/2 of the line along v when
 *    -half * |du| <= (pv - va) * |du| - (pu - ua) * dv * s < half * |du|
 * Products stay below 2^62 inside the guard band.
 */

#include <math.h>
#include <stdlib.h>

#include "pan_sim_line.h"

#define ONE (1 << PAN_SIM_SUBPIXEL_BITS)
/* Pixels of guard band, as for triangles; widths up to the largest the
 * primitive size constant can usefully hold. */
#define GUARD_PX (1 << 20)
#define MAX_WIDTH 4096.0f

static int64_t
floor_div(int64_t n, int64_t d)
{
   return n >= 0 ? n / d : -((-n + d - 1) / d);
}

/* Pixels whose centre lies in [lo, hi] (1/256 pixel). */
static void
centre_range(int64_t lo, int64_t hi, int *first, int *last)
{
   *first = (int)-floor_div(-(lo - ONE / 2), ONE);
   *last = (int)floor_div(hi - ONE / 2, ONE);
}

bool
pan_sim_line_setup(const struct pan_sim_prim *p, struct pan_sim_line *l)
{
   int64_t x[2], y[2];

   for (unsigned i = 0; i < 2; ++i) {
      const struct pan_sim_vtx *v = &p->v[i];
      if (!(v->inv_w > 0) || !isfinite(v->inv_w) || !(fabsf(v->x) < GUARD_PX) ||
          !(fabsf(v->y) < GUARD_PX) || !isfinite(v->z))
         return false;
      x[i] = llrint((double)v->x * ONE);
      y[i] = llrint((double)v->y * ONE);
   }
   if (!(p->line_width > 0) || !(p->line_width <= MAX_WIDTH))
      return false;
   int64_t dx = x[1] - x[0], dy = y[1] - y[0];
   if (!dx && !dy)
      return false;
   l->x_major = llabs(dx) >= llabs(dy);
   for (unsigned i = 0; i < 2; ++i) {
      l->u[i] = l->x_major ? x[i] : y[i];
      l->v[i] = l->x_major ? y[i] : x[i];
   }
   l->half = llrint((double)p->line_width * ONE / 2);
   l->ax = (double)x[0] / ONE;
   l->ay = (double)y[0] / ONE;
   l->dx = (double)dx / ONE;
   l->dy = (double)dy / ONE;
   l->len2 = l->dx * l->dx + l->dy * l->dy;

   int u0, u1, v0, v1;
   int64_t vlo = l->v[0] < l->v[1] ? l->v[0] : l->v[1];
   int64_t vhi = l->v[0] < l->v[1] ? l->v[1] : l->v[0];
   centre_range(l->u[0] < l->u[1] ? l->u[0] : l->u[1],
                l->u[0] < l->u[1] ? l->u[1] : l->u[0], &u0, &u1);
   centre_range(vlo - l->half, vhi + l->half, &v0, &v1);
   l->minx = l->x_major ? u0 : v0;
   l->maxx = l->x_major ? u1 : v1;
   l->miny = l->x_major ? v0 : u0;
   l->maxy = l->x_major ? v1 : u1;
   return true;
}

bool
pan_sim_line_covers_at(const struct pan_sim_line *l, int x, int y, unsigned sx,
                       unsigned sy, double *t)
{
   int64_t px = (int64_t)x * ONE + sx, py = (int64_t)y * ONE + sy;
   int64_t pu = l->x_major ? px : py, pv = l->x_major ? py : px;
   int64_t du = l->u[1] - l->u[0], dv = l->v[1] - l->v[0];
   int64_t s = du > 0 ? 1 : -1, adu = du * s;

   double cx = (double)px / ONE - l->ax, cy = (double)py / ONE - l->ay;
   *t = (cx * l->dx + cy * l->dy) / l->len2;

   /* Start in, end out, in the direction of travel. */
   if ((pu - l->u[0]) * s < 0 || (pu - l->u[1]) * s >= 0)
      return false;
   int64_t n = (pv - l->v[0]) * adu - (pu - l->u[0]) * dv * s;
   return n >= -l->half * adu && n < l->half * adu;
}
