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

static uint32_t
pixel(struct pipe_resource *tex, unsigned x, unsigned y)
{
   struct pipe_transfer *xfer;
   const uint8_t *map =
      pipe_texture_map(ctx, tex, 0, 0, PIPE_MAP_READ, x, y, 1, 1, &xfer);
   uint32_t p = 0;

   if (map) {
      memcpy(&p, map, 4);
      pipe_texture_unmap(ctx, xfer);
   }
   return p;
}

int
main(int argc, char **argv)
{
   struct pan_test_fullscreen f;

   if (!pan_test_open(&screen, &ctx))
      return 1;
   pan_test_fullscreen_setup(screen, ctx, SIZE, SIZE, &f);

   /* Quad 0 counter-clockwise in clip space, quad 1 clockwise. */
   float data[8][4];
   for (unsigned q = 0; q < 2; ++q) {
      const float x0 = pan_test_ndc(4 + 16 * q, SIZE),
                  x1 = pan_test_ndc(12 + 16 * q, SIZE);
      const float y0 = pan_test_ndc(4, SIZE), y1 = pan_test_ndc(12, SIZE);
      const float c[4][2] = { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } };
      for (unsigned i = 0; i < 4; ++i) {
         unsigned k = q ? 3 - i : i;
         const float v[4] = { c[k][0], c[k][1], 0, 1 };
         memcpy(data[4 * q + i], v, sizeof(v));
      }
   }
   struct pipe_resource *vbuf = pipe_buffer_create(
      screen, PIPE_BIND_VERTEX_BUFFER, PIPE_USAGE_DEFAULT, sizeof(data));
   pipe_buffer_write(ctx, vbuf, 0, sizeof(data), data);
   struct pipe_vertex_buffer vb = { .stride = 16, .buffer.resource = vbuf };
   ctx->set_vertex_buffers(ctx, 0, 1, 0, false, &vb);
   void *vs = pan_test_position_vs(screen, ctx, "position"), *fs = facing_fs();
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);

   /* Filled: the colour of each quad's face. */
   const uint32_t red = 0xff0000ffu, green = 0xff00ff00u;
   uint32_t face[2];
   draw_quads(PIPE_POLYGON_MODE_FILL, PIPE_POLYGON_MODE_FILL);
   for (unsigned q = 0; q < 2; ++q)
      face[q] = pixel(f.tex, edge_x[q], 8);
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
         uint32_t got = pixel(f.tex, x, 4);
         CHECK(got == face[q],
               "%s: quad %u (%s) at (%u, 4) is 0x%08x, want "
               "0x%08x",
               modes[m].name, q, front ? "front" : "back", x, got, face[q]);
         uint32_t inside = pixel(f.tex, edge_x[q], 8);
         CHECK(inside == 0xff000000u, "%s: quad %u's inside is 0x%08x",
               modes[m].name, q, inside);
      }
   }

   ctx->bind_rasterizer_state(ctx, f.cso[1]);
   ctx->bind_fs_state(ctx, NULL);
   ctx->delete_fs_state(ctx, fs);
   ctx->bind_vs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, vs);
   vb.buffer.resource = f.vbuf;
   ctx->set_vertex_buffers(ctx, 0, 1, 0, false, &vb);
   pipe_resource_reference(&vbuf, NULL);
   pan_test_fullscreen_teardown(ctx, &f);
   return pan_test_close(screen, ctx);
}
