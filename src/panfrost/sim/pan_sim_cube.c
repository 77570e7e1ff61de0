/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Where a texel just past the edge of a cube face lies on the adjacent
 * face, for seamless cube map filtering (pan_sim_texture.c).  The texel's
 * centre is turned back into a direction and projected again: its
 * coordinate beyond the edge becomes the larger one, which selects the
 * neighbouring face, in the GL face order and orientation (+X, -X, +Y,
 * -Y, +Z, -Z; GL 4.6 table 8.19).
 */

#include <math.h>

#include "pan_sim_texture.h"

/* The direction of face coordinates (sc, tc) in [-1, 1] on a face. */
static void
face_to_dir(unsigned face, double sc, double tc, double d[3])
{
   switch (face) {
   case 0:
      d[0] = 1, d[1] = -tc, d[2] = -sc;
      break;
   case 1:
      d[0] = -1, d[1] = -tc, d[2] = sc;
      break;
   case 2:
      d[0] = sc, d[1] = 1, d[2] = tc;
      break;
   case 3:
      d[0] = sc, d[1] = -1, d[2] = -tc;
      break;
   case 4:
      d[0] = sc, d[1] = -tc, d[2] = 1;
      break;
   default:
      d[0] = -sc, d[1] = -tc, d[2] = -1;
      break;
   }
}

/* The face a direction points at and its coordinates there. */
static unsigned
dir_to_face(const double d[3], double *sc, double *tc)
{
   double ax = fabs(d[0]), ay = fabs(d[1]), az = fabs(d[2]);

   if (ax >= ay && ax >= az) {
      *sc = (d[0] > 0 ? -d[2] : d[2]) / ax;
      *tc = -d[1] / ax;
      return d[0] > 0 ? 0 : 1;
   }
   if (ay >= az) {
      *sc = d[0] / ay;
      *tc = (d[1] > 0 ? d[2] : -d[2]) / ay;
      return d[1] > 0 ? 2 : 3;
   }
   *sc = (d[2] > 0 ? d[0] : -d[0]) / az;
   *tc = -d[1] / az;
   return d[2] > 0 ? 4 : 5;
}

static int
texel_index(double c, unsigned size)
{
   int i = (int)floor((c + 1) / 2 * size);
   return i < 0 ? 0 : i >= (int)size ? (int)size - 1 : i;
}

bool
pan_sim_cube_project(unsigned from, double s, double t, unsigned onto,
                     double *os, double *ot)
{
   /* The axis of face `onto`, and its coordinates' (sc, tc) components
    * of the direction with their signs (the inverse of face_to_dir). */
   static const struct {
      unsigned sc_axis, tc_axis;
      signed char sc_sign, tc_sign;
   } fc[6] = {
      { 2, 1, -1, -1 }, { 2, 1, 1, -1 }, { 0, 2, 1, 1 },
      { 0, 2, 1, -1 },  { 0, 1, 1, -1 }, { 0, 1, -1, -1 },
   };
   double d[3];

   if (from > 5 || onto > 5)
      return false;
   face_to_dir(from, 2 * s - 1, 2 * t - 1, d);
   double m = (onto & 1 ? -1 : 1) * d[onto / 2];
   if (!(m > 0))
      return false;
   *os = (fc[onto].sc_sign * d[fc[onto].sc_axis] / m + 1) / 2;
   *ot = (fc[onto].tc_sign * d[fc[onto].tc_axis] / m + 1) / 2;
   return true;
}

void
pan_sim_cube_neighbour(unsigned face, int x, int y, unsigned size,
                       unsigned *out_face, int *out_x, int *out_y)
{
   double d[3], sc, tc;

   face_to_dir(face, 2.0 * (x + 0.5) / size - 1, 2.0 * (y + 0.5) / size - 1, d);
   *out_face = dir_to_face(d, &sc, &tc);
   *out_x = texel_index(sc, size);
   *out_y = texel_index(tc, size);
}
