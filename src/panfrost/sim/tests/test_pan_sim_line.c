/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Line coverage (pan_sim_line.c) against the reference rasteriser of
 * pan_sim_line_ref.h: ties stated by hand (ends, the minor-axis bounds,
 * 45 degrees), then every pixel of a 64x64 window for many random
 * segments of random widths, endpoints on the 1/256 grid, and the
 * position along the segment.
 */

#include <stdio.h>

#include "pan_sim_line.h"
#include "pan_sim_line_ref.h"
#include "util/pan_test_util.h"

static bool
setup(double ax, double ay, double bx, double by, float w,
      struct pan_sim_line *l)
{
   struct pan_sim_prim p = { .line_width = w };
   p.v[0] = (struct pan_sim_vtx){ (float)ax, (float)ay, 0, 1, 0 };
   p.v[1] = (struct pan_sim_vtx){ (float)bx, (float)by, 0, 1, 1 };
   p.v[2] = p.v[1];
   return pan_sim_line_setup(&p, l);
}

static bool
covers(const struct pan_sim_line *l, int x, int y)
{
   double t;
   return pan_sim_line_covers_at(l, x, y, 128, 128, &t);
}

/* Hand-stated ties. */
static void
test_ties(void)
{
   struct pan_sim_line l;

   /* Horizontal, width 1, through pixel centres of row 3: x 2.5 (a
    * centre, the start: in) to 6.5 (the end: out). */
   PAN_EXPECT(setup(2.5, 3.5, 6.5, 3.5, 1, &l));
   for (int x = 0; x < 10; ++x) {
      for (int y = 0; y < 8; ++y)
         PAN_CHECK(covers(&l, x, y) == (y == 3 && x >= 2 && x <= 5),
                   "horizontal: pixel %d,%d", x, y);
   }
   /* The same drawn backwards: 6 in, 2 out. */
   PAN_EXPECT(setup(6.5, 3.5, 2.5, 3.5, 1, &l));
   for (int x = 0; x < 10; ++x)
      PAN_CHECK(covers(&l, x, 3) == (x >= 3 && x <= 6), "backwards: %d", x);
   /* On the boundary between rows 2 and 3: the upper row's centre lies on
    * the line's lower bound (in), the lower row's on its upper bound. */
   PAN_EXPECT(setup(0, 3, 8, 3, 1, &l));
   for (int x = 0; x < 8; ++x) {
      PAN_CHECK(covers(&l, x, 2) && !covers(&l, x, 3), "boundary: %d", x);
   }
   /* Width 3 vertical through column 4's centres: columns 3-5. */
   PAN_EXPECT(setup(4.5, 1, 4.5, 9, 3, &l));
   for (int y = 0; y < 10; ++y) {
      for (int x = 0; x < 8; ++x)
         PAN_CHECK(covers(&l, x, y) == (y >= 1 && y <= 8 && x >= 3 && x <= 5),
                   "wide vertical: pixel %d,%d", x, y);
   }
   /* Exactly 45 degrees counts as x-major: one pixel a column. */
   PAN_EXPECT(setup(0, 0, 8, 8, 1, &l));
   PAN_EXPECT(l.x_major);
   for (int x = 0; x < 8; ++x) {
      unsigned n = 0;
      for (int y = -2; y < 10; ++y)
         n += covers(&l, x, y);
      PAN_CHECK(n == 1, "45 degrees: column %d has %u pixels", x, n);
   }
   /* Zero length, behind the eye, absurd widths: nothing to set up. */
   PAN_EXPECT(!setup(3, 3, 3, 3, 1, &l));
   PAN_EXPECT(!setup(0, 0, 4, 4, 0, &l));
   PAN_EXPECT(!setup(0, 0, 4, 4, NAN, &l));
   PAN_EXPECT(!setup(0, 0, 1e9, 4, 1, &l));
   struct pan_sim_prim p = { .line_width = 1 };
   p.v[1].x = 4;
   p.v[0].inv_w = 0;
   p.v[1].inv_w = 1;
   PAN_EXPECT(!pan_sim_line_setup(&p, &l));
}

static double
grid(uint64_t *rng, double range)
{
   /* A multiple of 1/256 in [-8, range + 8). */
   return (double)(pan_test_rng64(rng) % (uint64_t)((range + 16) * 256)) /
             256.0 -
          8.0;
}

/* Random segments against the reference, every pixel of the window; the
 * bounding box holds every covered pixel. */
static void
test_random(void)
{
   uint64_t rng = 0x1234567;
   unsigned bad = 0, covered = 0, close = 0, outside_box = 0, bad_t = 0;

   for (unsigned n = 0; n < 400; ++n) {
      double ax = grid(&rng, 48), ay = grid(&rng, 48);
      double bx = grid(&rng, 48), by = grid(&rng, 48);
      /* Widths on the 1/16 grid from 1 to 8. */
      float w = 1.0f + (float)(pan_test_rng64(&rng) % 113) / 16.0f;
      struct pan_sim_line l;
      if (ax == bx && ay == by)
         continue;
      if (!setup(ax, ay, bx, by, w, &l)) {
         ++bad;
         continue;
      }
      for (int y = -12; y < 60; ++y) {
         for (int x = -12; x < 60; ++x) {
            double t;
            bool got = pan_sim_line_covers_at(&l, x, y, 128, 128, &t);
            enum ref_line_verdict want =
               ref_line_covers(ax, ay, bx, by, w, x + 0.5, y + 0.5);
            if (want == REF_LINE_CLOSE) {
               ++close;
               continue;
            }
            covered += got;
            bad += got != (want == REF_LINE_IN);
            if (got && (x < l.minx || x > l.maxx || y < l.miny || y > l.maxy))
               ++outside_box;
            if (fabs(t - ref_line_t(ax, ay, bx, by, x + 0.5, y + 0.5)) > 1e-9)
               ++bad_t;
         }
      }
   }
   PAN_CHECK(bad == 0, "%u pixels differ from the reference", bad);
   PAN_CHECK(outside_box == 0, "%u covered pixels outside the box",
             outside_box);
   PAN_CHECK(bad_t == 0, "%u positions along the segment differ", bad_t);
   PAN_CHECK(covered > 20000, "only %u pixels covered", covered);
   PAN_CHECK(close < covered / 100, "%u centres too close to call", close);
}

/* A strip's joints: consecutive x-major segments in one direction share
 * no pixel and leave no column out. */
static void
test_joints(void)
{
   const double pts[4][2] = {
      { 1.25, 2.5 }, { 9.75, 5.25 }, { 17.5, 3 }, { 30.125, 11.5 }
   };
   unsigned cols[40] = { 0 };

   for (unsigned s = 0; s < 3; ++s) {
      struct pan_sim_line l;
      PAN_EXPECT(
         setup(pts[s][0], pts[s][1], pts[s + 1][0], pts[s + 1][1], 1, &l));
      for (int y = 0; y < 20; ++y) {
         for (int x = 0; x < 40; ++x)
            cols[x] += covers(&l, x, y);
      }
   }
   /* Centres 1.5 .. 29.5 lie in [1.25, 30.125). */
   for (int x = 0; x < 40; ++x)
      PAN_CHECK(cols[x] == (x >= 1 && x <= 29), "column %d: %u pixels", x,
                cols[x]);
}

int
main(void)
{
   PAN_RUN_CASE(test_ties);
   PAN_RUN_CASE(test_random);
   PAN_RUN_CASE(test_joints);
   return pan_test_summary("pan_sim_line");
}
