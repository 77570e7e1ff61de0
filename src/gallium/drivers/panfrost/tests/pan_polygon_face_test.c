/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * gl_FrontFacing of GL_LINE and GL_POINT polygons (pan_polygon_mode.c):
 * the lines and points drawn for a polygon must report its face, which
 * the hardware does not (its lines and points are front-facing).  Two
 * quads of opposite windings, the second drawn from vertex 4 of the
 * buffer, with a fragment shader colouring front faces red and back
 * faces green: filled, each quad's inside takes a colour; in GL_LINE,
 * GL_POINT and GL_LINE (front) / GL_POINT (back), its edges or corners
 * must take the same one.
 */

#include <stdio.h>
#include <string.h>

#include "compiler/nir/nir_builder.h"
#include "pipe/p_context.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"
#include "util/u_inlines.h"

#include "pan_test_screen.h"

#define SIZE 32

static struct pipe_screen *screen;
static struct pipe_context *ctx;

/* Red for a front face, green for a back one. */
static void *
facing_fs(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_FRAGMENT, "facing");
   nir_variable *out = pan_test_io_var(b.shader, nir_var_shader_out,
                                       FRAG_RESULT_DATA0, 0, "colour");
   nir_ssa_def *c =
      nir_bcsel(&b, nir_load_front_face(&b, 1), nir_imm_vec4(&b, 1, 0, 0, 1),
                nir_imm_vec4(&b, 0, 1, 0, 1));
   nir_store_var(&b, out, c, 0xf);
   BITSET_SET(b.shader->info.system_values_read, SYSTEM_VALUE_FRONT_FACE);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

/* Quad q at x from 4 + 16q to 12 + 16q, y from 4 to 12 (pixel centres):
 * the point of the outline or corner to probe. */
static const unsigned corner_x[2] = { 4, 20 }, edge_x[2] = { 8, 24 };

static void
draw_quads(unsigned fill_front, unsigned fill_back)
{
   struct pipe_rasterizer_state rs = {
      .half_pixel_center = 1,
      .depth_clip_near = 1,
      .depth_clip_far = 1,
      .front_ccw = 1,
      .fill_front = fill_front,
      .fill_back = fill_back,
      .point_size = 1,
      .line_width = 1,
   };
   void *rast = ctx->create_rasterizer_state(ctx, &rs);
   union pipe_color_union black = { .f = { 0, 0, 0, 1 } };
   ctx->bind_rasterizer_state(ctx, rast);
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &black, 0, 0);
   for (unsigned q = 0; q < 2; ++q) {
      struct pipe_draw_info info = { .mode = PIPE_PRIM_QUADS,
                                     .instance_count = 1 };
      struct pipe_draw_start_count_bias d = { .start = 4 * q, .count = 4 };
      ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
   }
   ctx->flush(ctx, NULL, 0);
   ctx->delete_rasterizer_state(ctx, rast);
}

int
main(int argc, char **argv)
{
   struct pan_test_fullscreen f;

   if (!pan_test_open_fullscreen(&screen, &ctx, SIZE, SIZE, &f))
      return 1;

   /* Quad 0 counter-clockwise in clip space, quad 1 clockwise. */
   static const unsigned cw[4] = { 3, 2, 1, 0 };
   struct pipe_resource *vbuf = pan_test_bind_two_quads(screen, ctx, SIZE, cw);
   void *vs = pan_test_position_vs(screen, ctx, "position"), *fs = facing_fs();
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);

   /* Filled: the colour of each quad's face. */
   const uint32_t red = 0xff0000ffu, green = 0xff00ff00u;
   uint32_t face[2];
   draw_quads(PIPE_POLYGON_MODE_FILL, PIPE_POLYGON_MODE_FILL);
   for (unsigned q = 0; q < 2; ++q)
      face[q] = pan_test_pixel(ctx, f.tex, edge_x[q], 8);
   CHECK((face[0] == red && face[1] == green) ||
            (face[0] == green && face[1] == red),
         "filled quads: 0x%08x and 0x%08x, want one red and one green", face[0],
         face[1]);

   static const struct {
      const char *name;
      unsigned front, back;
   } modes[] = {
      { "GL_LINE", PIPE_POLYGON_MODE_LINE, PIPE_POLYGON_MODE_LINE },
      { "GL_POINT", PIPE_POLYGON_MODE_POINT, PIPE_POLYGON_MODE_POINT },
      { "GL_LINE front, GL_POINT back", PIPE_POLYGON_MODE_LINE,
        PIPE_POLYGON_MODE_POINT },
   };
   for (unsigned m = 0; m < ARRAY_SIZE(modes); ++m) {
      draw_quads(modes[m].front, modes[m].back);
      for (unsigned q = 0; q < 2; ++q) {
         bool front = face[q] == red;
         bool line =
            (front ? modes[m].front : modes[m].back) == PIPE_POLYGON_MODE_LINE;
         /* The middle of the bottom edge, or the first corner. */
         unsigned x = line ? edge_x[q] : corner_x[q];
         uint32_t got = pan_test_pixel(ctx, f.tex, x, 4);
         CHECK(got == face[q],
               "%s: quad %u (%s) at (%u, 4) is 0x%08x, want "
               "0x%08x",
               modes[m].name, q, front ? "front" : "back", x, got, face[q]);
         uint32_t inside = pan_test_pixel(ctx, f.tex, edge_x[q], 8);
         CHECK(inside == 0xff000000u, "%s: quad %u's inside is 0x%08x",
               modes[m].name, q, inside);
      }
   }

   pan_test_delete_shaders(ctx, vs, fs);
   pan_test_fullscreen_restore(ctx, &f, &vbuf);
   pan_test_fullscreen_teardown(ctx, &f);
   return pan_test_close(screen, ctx);
}
