/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The geometry and the matrix maths of pan-demo's scene: interleaved
 * vertices (position, normal, texture coordinate) with 16-bit indices, and
 * column-major 4x4 matrices as GL takes them. */

#ifndef PAN_DEMO_MESH_H
#define PAN_DEMO_MESH_H

#include <stdint.h>

struct demo_vertex {
   float pos[3];
   float nrm[3];
   float uv[2];
};

struct demo_mesh {
   const char *name;
   struct demo_vertex *verts;
   uint16_t *idx;
   unsigned nr_verts, nr_idx;
};

/* Each returns 0, or -1 when out of memory (mesh left empty). */
int demo_mesh_plane(struct demo_mesh *m, float half, float uv_repeat);
int demo_mesh_cube(struct demo_mesh *m, float half);
int demo_mesh_sphere(struct demo_mesh *m, float radius, unsigned slices,
                     unsigned stacks);
void demo_mesh_free(struct demo_mesh *m);

void demo_mat_identity(float m[16]);
void demo_mat_mul(float out[16], const float a[16], const float b[16]);
void demo_mat_perspective(float m[16], float fovy_rad, float aspect,
                          float znear, float zfar);
void demo_mat_look_at(float m[16], const float eye[3], const float at[3],
                      const float up[3]);
/* Scale s, then rotate by angle about the y axis, then move to t. */
void demo_mat_model(float m[16], float s, float yaw_rad, const float t[3]);

#endif
