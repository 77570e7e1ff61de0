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

#include "pan_test_polygon.h"
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
   return pan_test_create_shader(ctx, &b);
}

/* Quad q at x from 4 + 16q to 12 + 16q, y from 4 to 12 (pixel centres):
 * the point of the outline or corner to probe. */
static const unsigned corner_x[2] = { 4, 20 }, edge_x[2] = { 8, 24 };

static void
draw_quads(unsigned fill_front, unsigned fill_back)
{
   struct pipe_rasterizer_state rs =
      pan_test_polygon_rasterizer(fill_front, fill_back);
   pan_test_draw_two_quads(ctx, &rs);
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
   const uint32_t red = 0xff0000ffu, green = PAN_TEST_GREEN;
   uint32_t face[2];
   draw_quads(PIPE_POLYGON_MODE_FILL, PIPE_POLYGON_MODE_FILL);
   for (unsigned q = 0; q < 2; ++q)
      face[q] = pan_test_pixel(ctx, f.tex, edge_x[q], 8);
   CHECK((face[0] == red && face[1] == green) ||
            (face[0] == green && face[1] == red),
         "filled quads: 0x%08x and 0x%08x, want one red and one green", face[0],
         face[1]);

   for (unsigned m = 0; m < PAN_TEST_POLYGON_MODES; ++m) {
      const struct pan_test_polygon_mode *mode = &pan_test_polygon_modes[m];
      draw_quads(mode->front, mode->back);
      for (unsigned q = 0; q < 2; ++q) {
         bool front = face[q] == red;
         bool line =
            (front ? mode->front : mode->back) == PIPE_POLYGON_MODE_LINE;
         /* The middle of the bottom edge, or the first corner. */
         unsigned x = line ? edge_x[q] : corner_x[q];
         uint32_t got = pan_test_pixel(ctx, f.tex, x, 4);
         CHECK(got == face[q],
               "%s: quad %u (%s) at (%u, 4) is 0x%08x, want "
               "0x%08x",
               mode->name, q, front ? "front" : "back", x, got, face[q]);
         uint32_t inside = pan_test_pixel(ctx, f.tex, edge_x[q], 8);
         CHECK(inside == PAN_TEST_BLACK, "%s: quad %u's inside is 0x%08x",
               mode->name, q, inside);
      }
   }

   pan_test_delete_shaders(ctx, vs, fs);
   pan_test_fullscreen_restore(ctx, &f, &vbuf);
   pan_test_fullscreen_teardown(ctx, &f);
   return pan_test_close(screen, ctx);
}
