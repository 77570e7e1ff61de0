/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * GL_LINE and GL_POINT polygons of the facing path (pan_polygon_mode.c)
 * in instanced draws and in indexed draws with primitive restart.  The
 * vertex shader mirrors instance 1 across the target's middle, which
 * turns its winding: with GL_LINE for front faces and GL_POINT for back
 * ones, one instance's quad must come out as its outline and the other's
 * as its corners, each in the colour of its face (the fragment shader
 * reads gl_FrontFacing) and of its instance (a varying from
 * gl_InstanceID).  The restart draw is two triangle strips of opposite
 * windings split by the restart index.  Filled (the polygons' insides
 * drawn) is what the draws looked like before these were covered.
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

/* gl_Position = attribute 0, x negated in instance 1; VAR0 = (0, instance,
 * 1, 1). */
static void *
mirror_vs(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_VERTEX, "mirror");
   nir_variable *in = pan_test_io_var(b.shader, nir_var_shader_in,
                                      VERT_ATTRIB_GENERIC0, 0, "pos");
   nir_variable *pos, *v0;
   pan_test_vs_outputs(b.shader, &pos, &v0);
   nir_ssa_def *p = nir_load_var(&b, in);
   nir_ssa_def *inst = nir_u2f32(&b, nir_load_instance_id(&b));
   /* x * (1 - 2 * instance) */
   nir_ssa_def *x = nir_fmul(&b, nir_channel(&b, p, 0),
                             nir_fadd_imm(&b, nir_fmul_imm(&b, inst, -2), 1));
   nir_store_var(&b, pos,
                 nir_vec4(&b, x, nir_channel(&b, p, 1), nir_channel(&b, p, 2),
                          nir_channel(&b, p, 3)),
                 0xf);
   nir_store_var(&b, v0,
                 nir_vec4(&b, nir_imm_float(&b, 0), inst, nir_imm_float(&b, 1),
                          nir_imm_float(&b, 1)),
                 0xf);
   BITSET_SET(b.shader->info.system_values_read, SYSTEM_VALUE_INSTANCE_ID);
   return pan_test_create_shader(ctx, &b);
}

/* (front face, VAR0.y, VAR0.z, 1). */
static void *
facing_fs(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_FRAGMENT, "facing");
   nir_variable *in =
      pan_test_io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
   nir_variable *out = pan_test_io_var(b.shader, nir_var_shader_out,
                                       FRAG_RESULT_DATA0, 0, "colour");
   nir_ssa_def *v = nir_load_var(&b, in);
   nir_ssa_def *front = nir_b2f32(&b, nir_load_front_face(&b, 1));
   nir_store_var(&b, out,
                 nir_vec4(&b, front, nir_channel(&b, v, 1),
                          nir_channel(&b, v, 2), nir_imm_float(&b, 1)),
                 0xf);
   BITSET_SET(b.shader->info.system_values_read, SYSTEM_VALUE_FRONT_FACE);
   return pan_test_create_shader(ctx, &b);
}

/* The colour a face of an instance gets. */
static uint32_t
colour(bool front, unsigned instance)
{
   return PAN_TEST_BLACK | 0xff0000u | (instance ? 0xff00u : 0) |
          (front ? 0xff : 0);
}

/* Draws with the fill modes; restart: the two strips of vertices 0-7
 * split by a restart index, else quad 0 (vertices 0-3) in two
 * instances. */
static void
draw(unsigned fill_front, unsigned fill_back, bool restart)
{
   struct pipe_rasterizer_state rs =
      pan_test_polygon_rasterizer(fill_front, fill_back);
   static const uint16_t strips[9] = { 0, 1, 3, 2, 0xffff, 4, 5, 7, 6 };
   struct pipe_draw_info info = {
      .mode = restart ? PIPE_PRIM_TRIANGLE_STRIP : PIPE_PRIM_QUADS,
      .instance_count = restart ? 1 : 2,
      .index_size = restart ? 2 : 0,
      .has_user_indices = restart,
      .index.user = restart ? strips : NULL,
      .primitive_restart = restart,
      .restart_index = 0xffff,
   };
   struct pipe_draw_start_count_bias d = { .count = restart ? 9 : 4 };

   pan_test_draw_cleared(ctx, &rs, &info, &d, 1);
}

/* The quads' left x: quad 0 and its mirror (instance 1), or quad 1. */
static const unsigned left_x[2][2] = { { 4, 19 }, { 4, 20 } };

static void
check(struct pipe_resource *tex, bool restart)
{
   const char *what = restart ? "restart" : "instanced";
   const unsigned *x0 = left_x[restart];
   bool front[2];

   /* Filled: which face each quad shows. */
   draw(PIPE_POLYGON_MODE_FILL, PIPE_POLYGON_MODE_FILL, restart);
   for (unsigned q = 0; q < 2; ++q) {
      uint32_t inside = pan_test_pixel(ctx, tex, x0[q] + 5, 6);
      unsigned inst = restart ? 0 : q;
      front[q] = inside == colour(true, inst);
      CHECK(front[q] || inside == colour(false, inst),
            "%s filled: quad %u is 0x%08x, want a face's colour", what, q,
            inside);
   }
   CHECK(front[0] != front[1], "%s filled: both quads show the same face",
         what);

   /* Lines for front faces, points for back ones. */
   draw(PIPE_POLYGON_MODE_LINE, PIPE_POLYGON_MODE_POINT, restart);
   for (unsigned q = 0; q < 2; ++q) {
      unsigned inst = restart ? 0 : q;
      uint32_t want = colour(front[q], inst);
      /* The middle of the bottom edge; a corner (the mirror's first
       * corner is its right one). */
      unsigned edge = x0[q] + 4, corner = restart || !q ? x0[q] : x0[q] + 8;
      uint32_t got_edge = pan_test_pixel(ctx, tex, edge, 4);
      uint32_t got_corner = pan_test_pixel(ctx, tex, corner, 4);
      uint32_t inside = pan_test_pixel(ctx, tex, x0[q] + 5, 6);
      CHECK(got_edge == (front[q] ? want : PAN_TEST_BLACK),
            "%s: quad %u (%s) at (%u, 4) is 0x%08x, want 0x%08x", what, q,
            front[q] ? "front, lines" : "back, points", edge, got_edge,
            front[q] ? want : PAN_TEST_BLACK);
      CHECK(got_corner == want,
            "%s: quad %u (%s) corner (%u, 4) is 0x%08x, want 0x%08x", what, q,
            front[q] ? "front, lines" : "back, points", corner, got_corner,
            want);
      CHECK(inside == PAN_TEST_BLACK, "%s: quad %u's inside is 0x%08x (filled)",
            what, q, inside);
   }
}

int
main(int argc, char **argv)
{
   struct pan_test_fullscreen f;

   if (!pan_test_open_fullscreen(&screen, &ctx, SIZE, SIZE, &f))
      return 1;

   /* Quad 0 at x 4-12 (pixel centres) counter-clockwise in clip space,
    * quad 1 at x 20-28 clockwise; y from 4 to 12.  As strips: 0 1 3 2. */
   static const unsigned cw[4] = { 1, 0, 3, 2 };
   struct pipe_resource *vbuf = pan_test_bind_two_quads(screen, ctx, SIZE, cw);
   void *vs = mirror_vs(), *fs = facing_fs();
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);

   check(f.tex, false);
   check(f.tex, true);

   pan_test_delete_shaders(ctx, vs, fs);
   pan_test_fullscreen_restore(ctx, &f, &vbuf);
   pan_test_fullscreen_teardown(ctx, &f);
   return pan_test_close(screen, ctx);
}
