/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * pan_sim_cube_neighbour, the texels seamless cube filtering reads past a
 * face edge: the twelve edges of GL's cube (which face meets which, and
 * where), and for every texel past every edge of faces of several sizes,
 * that the neighbour is an edge texel of an adjacent face whose own
 * outward neighbour is the texel we started from.
 */

#include <math.h>

#include "pan_sim_texture.h"
#include "util/pan_test_util.h"

/* The face opposite f: adjacent faces are all the others. */
static unsigned
opposite(unsigned f)
{
   return f ^ 1;
}

/* Texel (x, y) of face f one step outwards through the edge it is on. */
static void
outward(int x, int y, unsigned n, int *ox, int *oy)
{
   *ox = x == 0 ? -1 : x == (int)n - 1 ? (int)n : x;
   *oy = y == 0 ? -1 : y == (int)n - 1 ? (int)n : y;
}

static void
check_size(unsigned n)
{
   for (unsigned f = 0; f < 6; ++f) {
      for (int i = 0; i < (int)n; ++i) {
         const int past[4][2] = {
            { -1, i }, { (int)n, i }, { i, -1 }, { i, (int)n }
         };
         for (unsigned e = 0; e < 4; ++e) {
            unsigned g;
            int x, y;
            pan_sim_cube_neighbour(f, past[e][0], past[e][1], n, &g, &x, &y);
            PAN_CHECK(g != f && g != opposite(f),
                      "size %u face %u texel (%d, %d): face %u is not "
                      "adjacent",
                      n, f, past[e][0], past[e][1], g);
            PAN_CHECK(
               x >= 0 && y >= 0 && x < (int)n && y < (int)n &&
                  (x == 0 || y == 0 || x == (int)n - 1 || y == (int)n - 1),
               "size %u face %u texel (%d, %d): (%d, %d) is not an "
               "edge texel",
               n, f, past[e][0], past[e][1], x, y);
            if (n < 2)
               continue;
            /* Back through the shared edge. */
            int bx, by;
            outward(x, y, n, &bx, &by);
            if (bx != x && by != y)
               continue; /* a corner texel: two edges, checked above */
            unsigned h;
            int rx, ry;
            pan_sim_cube_neighbour(g, bx, by, n, &h, &rx, &ry);
            int sx = past[e][0] < 0         ? 0
                     : past[e][0] >= (int)n ? (int)n - 1
                                            : past[e][0];
            int sy = past[e][1] < 0         ? 0
                     : past[e][1] >= (int)n ? (int)n - 1
                                            : past[e][1];
            PAN_CHECK(h == f && rx == sx && ry == sy,
                      "size %u: face %u (%d, %d) -> face %u (%d, %d) -> "
                      "face %u (%d, %d)",
                      n, f, past[e][0], past[e][1], g, x, y, h, rx, ry);
         }
      }
   }
}

/* pan_sim_cube_project, the LOD's view of a quad across faces: a face's
 * own coordinates come back unchanged; a direction past the +X face's
 * s = 1 edge, which selects -Z, lands at s = 1.1 of +X's plane; the
 * opposite face has no projection. */
static void
check_project(void)
{
   double s, t;
   for (unsigned f = 0; f < 6; ++f) {
      PAN_CHECK(pan_sim_cube_project(f, 0.25, 0.75, f, &s, &t) &&
                   fabs(s - 0.25) < 1e-12 && fabs(t - 0.75) < 1e-12,
                "face %u onto itself: (%g, %g)", f, s, t);
      PAN_CHECK(!pan_sim_cube_project(f, 0.5, 0.5, f ^ 1, &s, &t),
                "face %u onto its opposite", f);
   }
   /* Direction (1, -0.3, -1.2): on -Z at sc = -1 / 1.2, tc = 0.25. */
   PAN_CHECK(pan_sim_cube_project(5, (1 - 1 / 1.2) / 2, 1.25 / 2, 0, &s, &t) &&
                fabs(s - 1.1) < 1e-12 && fabs(t - 0.65) < 1e-12,
             "-Z onto +X: (%g, %g), want (1.1, 0.65)", s, t);
   PAN_CHECK(!pan_sim_cube_project(6, 0.5, 0.5, 0, &s, &t), "face 6");
}

int
main(void)
{
   check_project();
   /* GL's orientation (table 8.19): past the left edge of +X (-z, the
    * +Z side) is the right column of +Z; above +X (t < 0 is +y) is the
    * right column of +Y; past the left edge of +Z is the right column of
    * -X; below -Y's last row (-z) is -Z's last row.
    */
   static const struct {
      unsigned face;
      int x, y;
      unsigned want_face;
      int want_x, want_y;
   } edges[] = {
      { 0, -1, 1, 4, 3, 1 }, { 0, 1, -1, 2, 3, 2 }, { 4, -1, 2, 1, 3, 2 },
      { 3, 1, 4, 5, 2, 3 },  { 2, 0, -1, 5, 3, 0 }, { 1, 4, 0, 4, 0, 0 },
   };
   for (unsigned i = 0; i < sizeof(edges) / sizeof(edges[0]); ++i) {
      unsigned g;
      int x, y;
      pan_sim_cube_neighbour(edges[i].face, edges[i].x, edges[i].y, 4, &g, &x,
                             &y);
      PAN_CHECK(g == edges[i].want_face && x == edges[i].want_x &&
                   y == edges[i].want_y,
                "face %u (%d, %d) of 4x4: face %u (%d, %d), want face %u "
                "(%d, %d)",
                edges[i].face, edges[i].x, edges[i].y, g, x, y,
                edges[i].want_face, edges[i].want_x, edges[i].want_y);
   }
   for (unsigned n = 1; n <= 8; ++n)
      check_size(n);
   check_size(64);
   return pan_test_summary("pan_sim_cube");
}
