/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include "pan_demo_mesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEMO_PI 3.14159265358979f

static int
mesh_alloc(struct demo_mesh *m, const char *name, unsigned nr_verts,
           unsigned nr_idx)
{
   *m = (struct demo_mesh){ .name = name };
   m->verts = calloc(nr_verts, sizeof(*m->verts));
   m->idx = calloc(nr_idx, sizeof(*m->idx));
   if (!m->verts || !m->idx) {
      demo_mesh_free(m);
      return -1;
   }
   m->nr_verts = nr_verts;
   m->nr_idx = nr_idx;
   return 0;
}

void
demo_mesh_free(struct demo_mesh *m)
{
   free(m->verts);
   free(m->idx);
   m->verts = NULL;
   m->idx = NULL;
   m->nr_verts = m->nr_idx = 0;
}

static void
set_vertex(struct demo_vertex *v, float x, float y, float z, float nx,
           float ny, float nz, float u, float t)
{
   *v = (struct demo_vertex){ { x, y, z }, { nx, ny, nz }, { u, t } };
}

/* Two triangles of the quad whose corners are base..base+3, in order. */
static void
quad_indices(uint16_t *idx, unsigned base)
{
   const unsigned order[6] = { 0, 1, 2, 0, 2, 3 };
   for (unsigned i = 0; i < 6; ++i)
      idx[i] = (uint16_t)(base + order[i]);
}

int
demo_mesh_plane(struct demo_mesh *m, float half, float uv_repeat)
{
   if (mesh_alloc(m, "floor", 4, 6))
      return -1;
   set_vertex(&m->verts[0], -half, 0, half, 0, 1, 0, 0, 0);
   set_vertex(&m->verts[1], half, 0, half, 0, 1, 0, uv_repeat, 0);
   set_vertex(&m->verts[2], half, 0, -half, 0, 1, 0, uv_repeat, uv_repeat);
   set_vertex(&m->verts[3], -half, 0, -half, 0, 1, 0, 0, uv_repeat);
   quad_indices(m->idx, 0);
   return 0;
}

int
demo_mesh_cube(struct demo_mesh *m, float half)
{
   /* Per face: the outward normal and two in-plane axes u, v with
    * u x v = normal, so every face winds counter-clockwise. */
   static const float faces[6][3][3] = {
      { { 1, 0, 0 }, { 0, 0, -1 }, { 0, 1, 0 } },
      { { -1, 0, 0 }, { 0, 0, 1 }, { 0, 1, 0 } },
      { { 0, 1, 0 }, { 1, 0, 0 }, { 0, 0, -1 } },
      { { 0, -1, 0 }, { 1, 0, 0 }, { 0, 0, 1 } },
      { { 0, 0, 1 }, { 1, 0, 0 }, { 0, 1, 0 } },
      { { 0, 0, -1 }, { -1, 0, 0 }, { 0, 1, 0 } },
   };
   static const float corners[4][2] = { { -1, -1 }, { 1, -1 }, { 1, 1 },
                                        { -1, 1 } };

   if (mesh_alloc(m, "cube", 24, 36))
      return -1;
   for (unsigned f = 0; f < 6; ++f) {
      const float *n = faces[f][0], *u = faces[f][1], *v = faces[f][2];
      for (unsigned c = 0; c < 4; ++c) {
         float a = corners[c][0], b = corners[c][1], p[3];
         for (unsigned k = 0; k < 3; ++k)
            p[k] = half * (n[k] + a * u[k] + b * v[k]);
         set_vertex(&m->verts[f * 4 + c], p[0], p[1], p[2], n[0], n[1], n[2],
                    (a + 1) * 0.5f, (b + 1) * 0.5f);
      }
      quad_indices(&m->idx[f * 6], f * 4);
   }
   return 0;
}

int
demo_mesh_sphere(struct demo_mesh *m, float radius, unsigned slices,
                 unsigned stacks)
{
   unsigned cols = slices + 1, rows = stacks + 1;

   if (slices < 3 || stacks < 2 || cols * rows > 65536 ||
       mesh_alloc(m, "sphere", cols * rows, slices * stacks * 6))
      return -1;

   for (unsigned r = 0; r < rows; ++r) {
      float phi = DEMO_PI * (float)r / (float)stacks; /* from +y down */
      for (unsigned c = 0; c < cols; ++c) {
         float theta = 2.0f * DEMO_PI * (float)c / (float)slices;
         float n[3] = { sinf(phi) * cosf(theta), cosf(phi),
                        -sinf(phi) * sinf(theta) };
         set_vertex(&m->verts[r * cols + c], radius * n[0], radius * n[1],
                    radius * n[2], n[0], n[1], n[2],
                    2.0f * (float)c / (float)slices, (float)r / (float)stacks);
      }
   }
   /* One quad (two triangles) between each pair of rows and columns. */
   uint16_t *idx = m->idx;
   for (unsigned r = 0; r < stacks; ++r) {
      for (unsigned c = 0; c < slices; ++c) {
         uint16_t q[4] = { (uint16_t)((r + 1) * cols + c),
                           (uint16_t)((r + 1) * cols + c + 1),
                           (uint16_t)(r * cols + c + 1),
                           (uint16_t)(r * cols + c) };
         const unsigned order[6] = { 0, 1, 2, 0, 2, 3 };
         for (unsigned i = 0; i < 6; ++i)
            *idx++ = q[order[i]];
      }
   }
   return 0;
}

void
demo_mat_identity(float m[16])
{
   memset(m, 0, 16 * sizeof(float));
   m[0] = m[5] = m[10] = m[15] = 1.0f;
}

void
demo_mat_mul(float out[16], const float a[16], const float b[16])
{
   float r[16];
   for (unsigned c = 0; c < 4; ++c) {
      for (unsigned row = 0; row < 4; ++row) {
         float s = 0;
         for (unsigned k = 0; k < 4; ++k)
            s += a[k * 4 + row] * b[c * 4 + k];
         r[c * 4 + row] = s;
      }
   }
   memcpy(out, r, sizeof(r));
}

void
demo_mat_perspective(float m[16], float fovy_rad, float aspect, float znear,
                     float zfar)
{
   float f = 1.0f / tanf(fovy_rad * 0.5f);
   memset(m, 0, 16 * sizeof(float));
   m[0] = f / aspect;
   m[5] = f;
   m[10] = (zfar + znear) / (znear - zfar);
   m[11] = -1.0f;
   m[14] = 2.0f * zfar * znear / (znear - zfar);
}

static void
normalize3(float v[3])
{
   float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
   for (unsigned i = 0; i < 3; ++i)
      v[i] /= l;
}

static void
cross3(float out[3], const float a[3], const float b[3])
{
   out[0] = a[1] * b[2] - a[2] * b[1];
   out[1] = a[2] * b[0] - a[0] * b[2];
   out[2] = a[0] * b[1] - a[1] * b[0];
}

void
demo_mat_look_at(float m[16], const float eye[3], const float at[3],
                 const float up[3])
{
   float f[3] = { at[0] - eye[0], at[1] - eye[1], at[2] - eye[2] };
   float s[3], u[3];

   normalize3(f);
   cross3(s, f, up);
   normalize3(s);
   cross3(u, s, f);

   demo_mat_identity(m);
   for (unsigned i = 0; i < 3; ++i) {
      m[i * 4 + 0] = s[i];
      m[i * 4 + 1] = u[i];
      m[i * 4 + 2] = -f[i];
   }
   m[12] = -(s[0] * eye[0] + s[1] * eye[1] + s[2] * eye[2]);
   m[13] = -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]);
   m[14] = f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2];
}

void
demo_mat_model(float m[16], float s, float yaw_rad, const float t[3])
{
   float c = cosf(yaw_rad), n = sinf(yaw_rad);
   demo_mat_identity(m);
   m[0] = s * c;
   m[2] = -s * n;
   m[5] = s;
   m[8] = s * n;
   m[10] = s * c;
   m[12] = t[0];
   m[13] = t[1];
   m[14] = t[2];
}
