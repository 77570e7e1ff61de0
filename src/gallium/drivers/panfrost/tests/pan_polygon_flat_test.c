/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Flat shading of GL_LINE and GL_POINT polygons (pan_polygon_mode.c):
 * every line and point drawn for a polygon takes the flat varyings of
 * the polygon's provoking vertex, not of its own.  Two quads of opposite
 * windings, each vertex coloured by its place in its quad (a varying
 * from gl_VertexID, read flat): filled, each quad takes the colour of its
 * first or last vertex by the convention; in GL_LINE, GL_POINT and
 * GL_LINE (front) / GL_POINT (back), all four edges or corners must take
 * that colour too and the inside stay clear.  Before, these draws were
 * drawn filled (and a line would have taken its own vertex's colour).
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

/* gl_Position = attribute 0; VAR0 = ((gl_VertexID & 3) / 3, 1, 0, 1). */
static void *
corner_vs(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_VERTEX, "corner");
   nir_variable *in = pan_test_io_var(b.shader, nir_var_shader_in,
                                      VERT_ATTRIB_GENERIC0, 0, "pos");
   nir_variable *pos, *v0;
   pan_test_vs_outputs(b.shader, &pos, &v0);
   nir_ssa_def *id = nir_iand_imm(&b, nir_load_vertex_id(&b), 3);
   nir_ssa_def *r = nir_fmul_imm(&b, nir_u2f32(&b, id), 1.0 / 3.0);
   nir_store_var(&b, pos, nir_load_var(&b, in), 0xf);
   nir_store_var(&b, v0,
                 nir_vec4(&b, r, nir_imm_float(&b, 1), nir_imm_float(&b, 0),
                          nir_imm_float(&b, 1)),
                 0xf);
   BITSET_SET(b.shader->info.system_values_read, SYSTEM_VALUE_VERTEX_ID);
   return pan_test_create_shader(ctx, &b);
}

/* What corner_vs gives vertex i of a quad, as the target stores it. */
static uint32_t
corner_colour(unsigned i)
{
   static const uint32_t red[4] = { 0x00, 0x55, 0xaa, 0xff };
   return PAN_TEST_BLACK | 0xff00u | red[i];
}

static void
draw_quads(unsigned fill_front, unsigned fill_back, bool first)
{
   struct pipe_rasterizer_state rs =
      pan_test_polygon_rasterizer(fill_front, fill_back);
   rs.flatshade_first = first;
   pan_test_draw_two_quads(ctx, &rs);
}

static void
check(struct pipe_resource *tex, bool first)
{
   const char *pv = first ? "first" : "last";
   /* The quads' pixel-centre corners are x 4 + 16q to 12 + 16q, y 4 to
    * 12: the middles of their edges, and their corners. */
   static const unsigned edge[4][2] = {
      { 8, 4 }, { 12, 8 }, { 8, 12 }, { 4, 8 }
   };
   static const unsigned corner[4][2] = {
      { 4, 4 }, { 12, 4 }, { 12, 12 }, { 4, 12 }
   };
   uint32_t want = corner_colour(first ? 0 : 3);
   /* Quad 0 is counter-clockwise in clip space: y runs down the target,
    * so it is clockwise there, the back face with front_ccw. */
   static const bool front[2] = { false, true };

   draw_quads(PIPE_POLYGON_MODE_FILL, PIPE_POLYGON_MODE_FILL, first);
   for (unsigned q = 0; q < 2; ++q) {
      uint32_t inside = pan_test_pixel(ctx, tex, 16 * q + 8, 8);
      CHECK(inside == want, "%s, filled: quad %u is 0x%08x, want 0x%08x", pv, q,
            inside, want);
   }
   for (unsigned m = 0; m < PAN_TEST_POLYGON_MODES; ++m) {
      const struct pan_test_polygon_mode *mode = &pan_test_polygon_modes[m];
      draw_quads(mode->front, mode->back, first);
      for (unsigned q = 0; q < 2; ++q) {
         bool line =
            (front[q] ? mode->front : mode->back) == PIPE_POLYGON_MODE_LINE;
         const unsigned(*at)[2] = line ? edge : corner;
         for (unsigned i = 0; i < 4; ++i) {
            unsigned x = 16 * q + at[i][0], y = at[i][1];
            uint32_t got = pan_test_pixel(ctx, tex, x, y);
            CHECK(got == want,
                  "%s, %s: quad %u %s %u at (%u, %u) is 0x%08x, want 0x%08x",
                  pv, mode->name, q, line ? "edge" : "corner", i, x, y, got,
                  want);
         }
         uint32_t inside = pan_test_pixel(ctx, tex, 16 * q + 8, 8);
         CHECK(inside == PAN_TEST_BLACK, "%s, %s: quad %u's inside is 0x%08x",
               pv, mode->name, q, inside);
      }
   }
}

int
main(int argc, char **argv)
{
   struct pan_test_fullscreen f;

   if (!pan_test_open_fullscreen(&screen, &ctx, SIZE, SIZE, &f))
      return 1;

   /* Quad 1 clockwise in clip space, from its bottom-left corner too. */
   static const unsigned cw[4] = { 0, 3, 2, 1 };
   struct pipe_resource *vbuf = pan_test_bind_two_quads(screen, ctx, SIZE, cw);
   void *vs = corner_vs();
   void *fs = pan_test_colour_fs(screen, ctx, "flat", true);
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);

   check(f.tex, true);
   check(f.tex, false);

   pan_test_delete_shaders(ctx, vs, fs);
   pan_test_fullscreen_restore(ctx, &f, &vbuf);
   pan_test_fullscreen_teardown(ctx, &f);
   return pan_test_close(screen, ctx);
}
