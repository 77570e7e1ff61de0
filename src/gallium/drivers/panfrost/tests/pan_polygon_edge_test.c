/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Edge flags of GL_LINE and GL_POINT polygons (pan_polygon_mode.c): the
 * vertex shader writes VARYING_SLOT_EDGE from an attribute, as the state
 * tracker's lowering of a per-vertex edge-flag array does.  An edge of an
 * independent triangle, quad or polygon starting at a vertex flagged off
 * is not drawn in GL_LINE, nor that vertex in GL_POINT; strips ignore the
 * flags.  Before, such a shader was refused (no hardware stage takes the
 * output) and its draws dropped.
 */

#include <stdio.h>
#include <string.h>

#include "compiler/nir/nir_builder.h"
#include "pipe/p_context.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"
#include "util/u_inlines.h"

#include "pan_test_polygon.h"
#include "pan_test_screen.h"

#define SIZE 32

static struct pipe_screen *screen;
static struct pipe_context *ctx;

/* gl_Position = attribute 0, the edge flag = attribute 1. */
static void *
edge_vs(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_VERTEX, "edge");
   nir_variable *in = pan_test_io_var(b.shader, nir_var_shader_in,
                                      VERT_ATTRIB_GENERIC0, 0, "pos");
   nir_variable *flag_in = pan_test_io_var(b.shader, nir_var_shader_in,
                                           VERT_ATTRIB_EDGEFLAG, 1, "flag");
   nir_variable *pos = pan_test_io_var(b.shader, nir_var_shader_out,
                                       VARYING_SLOT_POS, 0, "gl_Position");
   nir_variable *edge =
      pan_test_io_var(b.shader, nir_var_shader_out, VARYING_SLOT_EDGE, 1, "e");
   nir_store_var(&b, pos, nir_load_var(&b, in), 0xf);
   nir_store_var(&b, edge, nir_load_var(&b, flag_in), 0xf);
   return pan_test_create_shader(ctx, &b);
}

/* Green. */
static void *
green_fs(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_FRAGMENT, "green");
   nir_variable *out = pan_test_io_var(b.shader, nir_var_shader_out,
                                       FRAG_RESULT_DATA0, 0, "colour");
   nir_store_var(&b, out, nir_imm_vec4(&b, 0, 1, 0, 1), 0xf);
   return pan_test_create_shader(ctx, &b);
}

/* Vertices of (position, edge flag, 0, 0, 0) from quad q's corners (0 at
 * pixel centre (4 + 16q, 4), counter-clockwise to 3 at (4 + 16q, 12)),
 * corners[i] with flags[i], bound as vertex buffer 0. */
static struct pipe_resource *
bind(const unsigned *quad, const unsigned *corners, const unsigned *flags,
     unsigned n)
{
   static const unsigned ccw[4] = { 0, 1, 2, 3 };
   float c[2][4][4], data[8][8] = { { 0 } };

   pan_test_quad(c[0], 4, 4, 12, 12, SIZE, ccw);
   pan_test_quad(c[1], 20, 4, 28, 12, SIZE, ccw);
   for (unsigned i = 0; i < n; ++i) {
      memcpy(data[i], c[quad[i]][corners[i]], 16);
      data[i][4] = flags[i];
   }
   return pan_test_bind_vertices(screen, ctx, data[0], n);
}

static void
draw(enum pipe_prim_type mode, unsigned fill, unsigned n)
{
   struct pipe_rasterizer_state rs = pan_test_rasterizer(fill);
   struct pipe_draw_info info = { .mode = mode, .instance_count = 1 };
   struct pipe_draw_start_count_bias d = { .count = n };

   pan_test_draw_cleared(ctx, &rs, &info, &d, 1);
}

/* The middles of quad q's edges (edge i from corner i) and its corners. */
static const unsigned edge_at[4][2] = {
   { 8, 4 }, { 12, 8 }, { 8, 12 }, { 4, 8 }
};
static const unsigned corner_at[4][2] = {
   { 4, 4 }, { 12, 4 }, { 12, 12 }, { 4, 12 }
};

/* Edge or corner i of quad q must be green when bit i of `on` is set,
 * else clear; the inside clear unless a diagonal crosses it. */
static void
check(struct pipe_resource *tex, const char *what, unsigned q, bool line,
      uint32_t on, bool diagonal)
{
   for (unsigned i = 0; i < 4; ++i) {
      const unsigned *at = line ? edge_at[i] : corner_at[i];
      unsigned x = 16 * q + at[0], y = at[1];
      uint32_t got = pan_test_pixel(ctx, tex, x, y);
      uint32_t want = on & BITFIELD_BIT(i) ? PAN_TEST_GREEN : PAN_TEST_BLACK;
      CHECK(got == want, "%s: quad %u %s %u at (%u, %u) is 0x%08x, want 0x%08x",
            what, q, line ? "edge" : "corner", i, x, y, got, want);
   }
   uint32_t inside = pan_test_pixel(ctx, tex, 16 * q + 8, 8);
   CHECK(inside == (diagonal ? PAN_TEST_GREEN : PAN_TEST_BLACK),
         "%s: quad %u's middle is 0x%08x", what, q, inside);
}

int
main(int argc, char **argv)
{
   struct pan_test_fullscreen f;

   if (!pan_test_open_fullscreen(&screen, &ctx, SIZE, SIZE, &f))
      return 1;

   struct pipe_vertex_element ve[2] = {
      { .src_offset = 0, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
      { .src_offset = 16, .src_format = PIPE_FORMAT_R32_FLOAT },
   };
   void *ves = ctx->create_vertex_elements_state(ctx, 2, ve);
   ctx->bind_vertex_elements_state(ctx, ves);
   void *vs = edge_vs(), *fs = green_fs();
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);

   /* Two quads: quad 0's corner 1 flagged off, quad 1's corner 3. */
   static const unsigned quads_q[8] = { 0, 0, 0, 0, 1, 1, 1, 1 };
   static const unsigned quads_c[8] = { 0, 1, 2, 3, 0, 1, 2, 3 };
   static const unsigned quads_f[8] = { 1, 0, 1, 1, 1, 1, 1, 0 };
   struct pipe_resource *vbuf = bind(quads_q, quads_c, quads_f, 8);
   draw(PIPE_PRIM_QUADS, PIPE_POLYGON_MODE_LINE, 8);
   check(f.tex, "quads, GL_LINE", 0, true, 0xd, false);
   check(f.tex, "quads, GL_LINE", 1, true, 0x7, false);
   draw(PIPE_PRIM_QUADS, PIPE_POLYGON_MODE_POINT, 8);
   check(f.tex, "quads, GL_POINT", 0, false, 0xd, false);
   check(f.tex, "quads, GL_POINT", 1, false, 0x7, false);
   pipe_resource_reference(&vbuf, NULL);

   /* Quad 0 as two triangles whose shared diagonal is flagged off (the
    * classic use), quad 1 as a fan of the same corners, all flags off:
    * strips and fans ignore them. */
   static const unsigned tris_q[6] = { 0, 0, 0, 0, 0, 0 };
   static const unsigned tris_c[6] = { 0, 1, 2, 2, 3, 0 };
   static const unsigned tris_f[6] = { 1, 1, 0, 1, 1, 0 };
   vbuf = bind(tris_q, tris_c, tris_f, 6);
   draw(PIPE_PRIM_TRIANGLES, PIPE_POLYGON_MODE_LINE, 6);
   check(f.tex, "triangles, GL_LINE", 0, true, 0xf, false);
   uint32_t diagonal = pan_test_pixel(ctx, f.tex, 6, 6);
   CHECK(diagonal == PAN_TEST_BLACK,
         "triangles, GL_LINE: the diagonal is 0x%08x", diagonal);
   pipe_resource_reference(&vbuf, NULL);

   static const unsigned fan_q[4] = { 1, 1, 1, 1 };
   static const unsigned fan_c[4] = { 0, 1, 2, 3 };
   static const unsigned fan_f[4] = { 0, 0, 0, 0 };
   vbuf = bind(fan_q, fan_c, fan_f, 4);
   draw(PIPE_PRIM_TRIANGLE_FAN, PIPE_POLYGON_MODE_LINE, 4);
   check(f.tex, "fan, GL_LINE", 1, true, 0xf, true);

   ctx->bind_vertex_elements_state(ctx, f.cso[3]);
   ctx->delete_vertex_elements_state(ctx, ves);
   pan_test_delete_shaders(ctx, vs, fs);
   pan_test_fullscreen_restore(ctx, &f, &vbuf);
   pan_test_fullscreen_teardown(ctx, &f);
   return pan_test_close(screen, ctx);
}
