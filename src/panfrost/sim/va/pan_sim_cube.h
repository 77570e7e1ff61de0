/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Cube-map helpers shared by the Bifrost and Valhall interpreters: the
 * steps the compiler chains to turn a direction (x, y, z) into a face and
 * the face's S/T numerators (CUBEFACE1, CUBEFACE2, CUBE_SSEL, CUBE_TSEL).
 *
 * Faces and signs follow the GL cube-map selection table, faces numbered
 * +X, -X, +Y, -Y, +Z, -Z = 0..5.  The face index is produced and consumed
 * pre-shifted to bits 29..31, where the compiler merges it with the S
 * coordinate.  What the public facts leave open is modelled as follows:
 * ties between equal magnitudes go to Z, then Y; a coordinate's sign bit
 * picks the negative face (so -0 selects it); the major axis magnitude is
 * the selected coordinate's absolute value, so a NaN there propagates.
 * Header only, like pan_sim_sfu.h.
 */

#ifndef PAN_SIM_CUBE_H
#define PAN_SIM_CUBE_H

#include <math.h>
#include <stdint.h>

#define PAN_SIM_CUBE_FACE_SHIFT 29

/* Face 0..5 of the direction (x, y, z). */
static inline unsigned
pan_sim_cube_face(double x, double y, double z)
{
   double ax = fabs(x), ay = fabs(y), az = fabs(z);
   if (az >= ax && az >= ay)
      return 4 + !!signbit(z);
   if (ay >= ax)
      return 2 + !!signbit(y);
   return 0 + !!signbit(x);
}

/* CUBEFACE1: the major axis magnitude. */
static inline double
pan_sim_cube_major(double x, double y, double z)
{
   unsigned f = pan_sim_cube_face(x, y, z);
   return fabs(f >= 4 ? z : f >= 2 ? y : x);
}

/* CUBEFACE2: the face, pre-shifted. */
static inline uint32_t
pan_sim_cube_face_word(double x, double y, double z)
{
   return (uint32_t)pan_sim_cube_face(x, y, z) << PAN_SIM_CUBE_FACE_SHIFT;
}

/* Face index of a pre-shifted face word; above 5 it names no face. */
static inline unsigned
pan_sim_cube_face_of(uint32_t word)
{
   return word >> PAN_SIM_CUBE_FACE_SHIFT;
}

/* CUBE_SSEL(z, x, face): the S numerator, -z +z +x +x +x -x by face. */
static inline double
pan_sim_cube_ssel(double z, double x, unsigned face)
{
   static const signed char pick[6] = { -3, 3, 1, 1, 1, -1 };
   double v = (pick[face] == 3 || pick[face] == -3) ? z : x;
   return pick[face] < 0 ? -v : v;
}

/* CUBE_TSEL(y, z, face): the T numerator, -y -y +z -z -y -y by face. */
static inline double
pan_sim_cube_tsel(double y, double z, unsigned face)
{
   static const signed char pick[6] = { -2, -2, 3, -3, -2, -2 };
   double v = (pick[face] == 3 || pick[face] == -3) ? z : y;
   return pick[face] < 0 ? -v : v;
}

#endif
