/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * GL_LINE and GL_POINT quads, quad strips and polygons of a vertex shader
 * that writes memory (pan_polygon_mode.c): the shader adds 1 to a counter
 * and must run once per distinct vertex, as filled draws do.  pan_vs_once
 * (which covers the other modes) unrolls to triangles, which would draw
 * the quads' diagonals, so these stay with the polygon modes: their
 * lists are drawn from the records of one run, over the draw's distinct
 * vertices.  Each case also checks that the outline is drawn and the
 * inside clear.
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

/* gl_Position = attribute 0, VAR0 green, atomicAdd(slot 0 word 0, 1). */
static void *
counting_vs(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_VERTEX, "counting");
   nir_variable *in = pan_test_io_var(b.shader, nir_var_shader_in,
                                      VERT_ATTRIB_GENERIC0, 0, "pos");
   nir_variable *pos, *v0;
   pan_test_vs_outputs(b.shader, &pos, &v0);
   nir_ssbo_atomic_add(&b, 32, nir_imm_int(&b, 0), nir_imm_int(&b, 0),
                       nir_imm_int(&b, 1));
   nir_store_var(&b, pos, nir_load_var(&b, in), 0xf);
   nir_store_var(&b, v0, nir_imm_vec4(&b, 0, 1, 0, 1), 0xf);
   b.shader->info.num_ssbos = 1;
   return pan_test_create_shader(ctx, &b);
}

/* The draw of n vertices (or indices) in mode, GL_LINE or GL_POINT,
 * back faces culled or not; the counter after it. */
static uint32_t
draw(struct pipe_resource *counter, enum pipe_prim_type mode, unsigned fill,
     bool cull, const uint16_t *indices, unsigned n)
{
   struct pipe_rasterizer_state rs = pan_test_rasterizer(fill);
   rs.cull_face = cull ? PIPE_FACE_BACK : PIPE_FACE_NONE;
   struct pipe_draw_info info = {
      .mode = mode,
      .instance_count = 1,
      .index_size = indices ? 2 : 0,
      .has_user_indices = indices != NULL,
      .index.user = indices,
   };
   struct pipe_draw_start_count_bias d = { .count = n };
   uint32_t zero = 0, count = 0;

   pipe_buffer_write(ctx, counter, 0, 4, &zero);
   pan_test_draw_cleared(ctx, &rs, &info, &d, 1);
   pipe_buffer_read(ctx, counter, 0, 4, &count);
   return count;
}

int
main(int argc, char **argv)
{
   struct pan_test_fullscreen f;

   if (!pan_test_open_fullscreen(&screen, &ctx, SIZE, SIZE, &f))
      return 1;

   /* Quad 0 at pixel centres x 4-12, y 4-12, quad 1 at x 20-28, both
    * counter-clockwise: clockwise in window coordinates,
    * whose y runs down, so the back-face culling of front_ccw = 0 keeps
    * them. */
   static const unsigned ccw[4] = { 0, 1, 2, 3 }, ccw1[4] = { 1, 2, 3, 0 };
   float v[8][4];
   pan_test_quad(v, 4, 4, 12, 12, SIZE, ccw);
   pan_test_quad(v + 4, 20, 4, 28, 12, SIZE, ccw1);
   struct pipe_resource *vbuf = pan_test_bind_positions(screen, ctx, v[0], 8);
   struct pipe_resource *counter =
      pan_test_storage_buffer(screen, ctx, 16, NULL);
   struct pipe_shader_buffer sb = { .buffer = counter, .buffer_size = 16 };
   void *vs = counting_vs();
   void *fs = pan_test_colour_fs(screen, ctx, "green", false);
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);
   ctx->set_shader_buffers(ctx, PIPE_SHADER_VERTEX, 0, 1, &sb, 1);

   /* Quad 0 and a quad sharing its right edge (corners 1 and 2) to quad
    * 1's right one (vertices 4 and 5: quad 1 starts from its corner 1,
    * so that the indices leave no vertex out); quad 0 as a quad strip
    * and as a polygon. */
   static const uint16_t shared[8] = { 0, 1, 2, 3, 1, 4, 5, 2 };
   static const uint16_t strip[4] = { 0, 1, 3, 2 };
   static const uint16_t polygon[4] = { 0, 1, 2, 3 };
   static const struct {
      const char *name;
      enum pipe_prim_type mode;
      const uint16_t *indices;
      unsigned n, distinct;
   } cases[] = {
      { "quads", PIPE_PRIM_QUADS, NULL, 8, 8 },
      { "indexed quads", PIPE_PRIM_QUADS, shared, 8, 6 },
      { "quad strip", PIPE_PRIM_QUAD_STRIP, strip, 4, 4 },
      { "polygon", PIPE_PRIM_POLYGON, polygon, 4, 4 },
   };
   for (unsigned c = 0; c < ARRAY_SIZE(cases); ++c) {
      for (unsigned m = 0; m < 4; ++m) {
         bool cull = m & 1;
         unsigned fill =
            m & 2 ? PIPE_POLYGON_MODE_POINT : PIPE_POLYGON_MODE_LINE;
         const char *what = m & 2 ? "GL_POINT" : "GL_LINE";
         uint32_t count = draw(counter, cases[c].mode, fill, cull,
                               cases[c].indices, cases[c].n);
         CHECK(count == cases[c].distinct,
               "%s, %s%s: the counter is %u, want %u", cases[c].name, what,
               cull ? ", culled back" : "", count, cases[c].distinct);
         /* Quad 0's bottom edge or its first corner, and its inside. */
         uint32_t drawn = pan_test_pixel(ctx, f.tex, m & 2 ? 4 : 8, 4);
         uint32_t inside = pan_test_pixel(ctx, f.tex, 8, 8);
         CHECK(drawn == PAN_TEST_GREEN && inside == PAN_TEST_BLACK,
               "%s, %s%s: outline 0x%08x, inside 0x%08x", cases[c].name, what,
               cull ? ", culled back" : "", drawn, inside);
      }
   }

   ctx->set_shader_buffers(ctx, PIPE_SHADER_VERTEX, 0, 1, NULL, 0);
   pipe_resource_reference(&counter, NULL);
   pan_test_delete_shaders(ctx, vs, fs);
   pan_test_fullscreen_restore(ctx, &f, &vbuf);
   pan_test_fullscreen_teardown(ctx, &f);
   return pan_test_close(screen, ctx);
}
