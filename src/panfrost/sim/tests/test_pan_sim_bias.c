/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The polygon offset of a primitive (pan_sim_depth_bias): the slope term
 * of triangles tilted along x, y and both (the larger slope, whatever the
 * winding), none for lines and points, the step of unorm and float depth
 * formats (float: from the exponent of the largest |z|, denormals at the
 * smallest normal exponent), and both clamps.
 */

#include <math.h>

#include "pan_sim_draw.h"
#include "util/pan_test_util.h"

/* The triangle (0, 0), (w, 0), (0, h) on the plane z = c + dx x + dy y. */
static struct pan_sim_prim
tri(double c, double dx, double dy, bool swap)
{
   struct pan_sim_prim p = { 0 };
   const double xy[3][2] = { { 0, 0 }, { 16, 0 }, { 0, 8 } };
   for (unsigned i = 0; i < 3; ++i) {
      unsigned k = swap && i ? 3 - i : i;
      p.v[i] = (struct pan_sim_vtx){
         (float)xy[k][0],
         (float)xy[k][1],
         (float)(c + dx * xy[k][0] + dy * xy[k][1]),
         1,
         i,
      };
   }
   return p;
}

static void
near(const char *what, double got, double want)
{
   PAN_CHECK(fabs(got - want) <= 1e-9 + fabs(want) * 1e-6,
             "%s: %.12g, want %.12g", what, got, want);
}

static void
test_slope(void)
{
   const struct pan_sim_bias f = { .factor = 2 };
   struct pan_sim_prim p = tri(0.5, 1.0 / 64, 0, false);
   near("x slope", pan_sim_depth_bias(&f, &p, 24, false), 2.0 / 64);
   p = tri(0.5, 0, -1.0 / 32, true);
   near("y slope, other winding", pan_sim_depth_bias(&f, &p, 24, false),
        2.0 / 32);
   p = tri(0.25, 1.0 / 64, 1.0 / 128, false);
   near("larger of x and y", pan_sim_depth_bias(&f, &p, 24, false), 2.0 / 64);
   p = tri(0.25, 0, 0, false);
   near("flat", pan_sim_depth_bias(&f, &p, 24, false), 0);

   /* Lines and points have no slope. */
   p = tri(0.25, 1.0 / 64, 1.0 / 128, false);
   p.line_width = 1;
   near("line", pan_sim_depth_bias(&f, &p, 24, false), 0);
   p.line_width = 0;
   p.point_size = 4;
   near("point", pan_sim_depth_bias(&f, &p, 24, false), 0);
}

static void
test_units(void)
{
   const struct pan_sim_bias u = { .units = -3 };
   struct pan_sim_prim p = tri(0.5, 0, 0, false);
   near("D24", pan_sim_depth_bias(&u, &p, 24, false), -3 * ldexp(1, -24));
   near("D16", pan_sim_depth_bias(&u, &p, 16, false), -3 * ldexp(1, -16));
   near("no depth buffer", pan_sim_depth_bias(&u, &p, 0, false),
        -3 * ldexp(1, -24));
   /* Float: 0.5 = 2^-1, one step 2^-24; 0.75 too; 0.25: 2^-25. */
   near("F32 at 0.5", pan_sim_depth_bias(&u, &p, 32, true), -3 * ldexp(1, -24));
   p = tri(0.75, 0, 0, false);
   near("F32 at 0.75", pan_sim_depth_bias(&u, &p, 32, true),
        -3 * ldexp(1, -24));
   /* The largest |z| of the three decides: 0.25 .. 0.25 + 16/32. */
   p = tri(0.25, 1.0 / 32, 0, false);
   near("F32 up to 0.75", pan_sim_depth_bias(&u, &p, 32, true),
        -3 * ldexp(1, -24));
   p = tri(0.25, 0, 0, false);
   near("F32 at 0.25", pan_sim_depth_bias(&u, &p, 32, true),
        -3 * ldexp(1, -25));
   p = tri(0, 0, 0, false);
   near("F32 at 0", pan_sim_depth_bias(&u, &p, 32, true), -3 * ldexp(1, -149));
}

static void
test_clamp(void)
{
   struct pan_sim_prim p = tri(0.5, 1.0 / 64, 0, false);
   const struct pan_sim_bias neg = { .factor = -1, .clamp = -1.0f / 256 };
   near("negative clamp", pan_sim_depth_bias(&neg, &p, 24, false), -1.0 / 256);
   const struct pan_sim_bias neg_in = { .factor = -1, .clamp = -1.0f / 16 };
   near("negative clamp not reached",
        pan_sim_depth_bias(&neg_in, &p, 24, false), -1.0 / 64);
   const struct pan_sim_bias pos = { .units = 1e6f, .clamp = 1.0f / 1024 };
   near("positive clamp", pan_sim_depth_bias(&pos, &p, 16, false), 1.0 / 1024);
   /* A positive clamp leaves negative offsets alone. */
   const struct pan_sim_bias pos_neg = { .units = -1e6f, .clamp = 1.0f / 1024 };
   near("positive clamp, negative offset",
        pan_sim_depth_bias(&pos_neg, &p, 16, false), -1e6 * ldexp(1, -16));
}

int
main(void)
{
   PAN_RUN_CASE(test_slope);
   PAN_RUN_CASE(test_units);
   PAN_RUN_CASE(test_clamp);
   return pan_test_summary("pan_sim_bias");
}
