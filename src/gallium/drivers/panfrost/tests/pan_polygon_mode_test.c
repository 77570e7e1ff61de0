/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Polygon modes (pan_polygon_mode.c): a square drawn as two triangles
 * (a list, an indexed strip, the strip twice split by a primitive
 * restart) and as one quad with GL_LINE on both
 * faces must colour its outline and leave its inside clear, the
 * triangles' diagonal drawn and the quad's not; with GL_POINT only its
 * corners are coloured.  With different modes per face and with a face
 * culled, swapping the faces must swap the results.
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

/* Draws the square (8, 8)-(24, 24), in pixel centres, in `mode`, its
 * vertices green. */
static void
draw_square(enum pipe_prim_type mode, bool indexed, bool restart)
{
   const float lo = pan_test_ndc(8, SIZE), hi = pan_test_ndc(24, SIZE);
   /* Corners: 0 (lo, lo), 1 (hi, lo), 2 (hi, hi), 3 (lo, hi). */
   const float corner[4][2] = {
      { lo, lo }, { hi, lo }, { hi, hi }, { lo, hi }
   };
   static const unsigned list[6] = { 0, 1, 2, 0, 2, 3 };
   static const unsigned quad[4] = { 0, 1, 2, 3 };
   static const unsigned strip[4] = { 1, 2, 0, 3 };
   const unsigned *order = mode == PIPE_PRIM_TRIANGLES ? list
                           : mode == PIPE_PRIM_QUADS   ? quad
                                                       : strip;
   unsigned n = mode == PIPE_PRIM_TRIANGLES ? 6 : 4;
   float data[6][8];
   unsigned nv = indexed ? 4 : n;
   for (unsigned v = 0; v < nv; ++v) {
      unsigned c = indexed ? v : order[v];
      const float p[8] = { corner[c][0], corner[c][1], 0, 1, 0, 1, 0, 1 };
      memcpy(data[v], p, sizeof(p));
   }
   struct pipe_resource *r = pan_test_bind_vertices(screen, ctx, data[0], nv);
   /* With a restart: the square twice, a restart index between. */
   uint16_t idx[13];
   unsigned count = restart ? 2 * n + 1 : n;
   for (unsigned i = 0; i < count; ++i)
      idx[i] = i == n ? 0xffff : (uint16_t)order[i % (n + 1)];
   struct pipe_draw_info info = {
      .mode = mode,
      .instance_count = 1,
      .index_size = indexed ? 2 : 0,
      .has_user_indices = indexed,
      .index.user = indexed ? idx : NULL,
      .primitive_restart = restart,
      .restart_index = 0xffff,
      .max_index = nv - 1,
   };
   struct pipe_draw_start_count_bias d = { .start = 0, .count = count };
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
   pipe_resource_reference(&r, NULL);
}

static bool
green(const uint8_t *p)
{
   return p[0] == 0 && p[1] == 255 && p[2] == 0;
}

/* Draws the square and checks the pixels that tell the modes apart:
 * `want` per probe (1 green, 0 the black background). */
static void
check(const char *what, struct pipe_resource *target, void *rast,
      enum pipe_prim_type mode, bool indexed, bool restart, const int want[6],
      bool expect_warning)
{
   /* Probes: top edge middle, left edge middle, a corner, the centre
    * (on the triangles' diagonal), inside off the diagonal, outside. */
   static const unsigned probe[6][2] = { { 16, 8 },  { 8, 16 },  { 24, 24 },
                                         { 16, 16 }, { 12, 20 }, { 4, 4 } };
   ctx->bind_rasterizer_state(ctx, rast);
   union pipe_color_union black = { .f = { 0, 0, 0, 1 } };
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &black, 1.0, 0);
   pan_test_debug_msg[0] = 0;
   draw_square(mode, indexed, restart);
   ctx->flush(ctx, NULL, 0);
   CHECK(expect_warning == (strstr(pan_test_debug_msg, "polygon") != NULL),
         "%s: driver message \"%s\"", what, pan_test_debug_msg);

   struct pipe_transfer *xfer;
   const uint8_t *map = target
                           ? pipe_texture_map(ctx, target, 0, 0, PIPE_MAP_READ,
                                              0, 0, SIZE, SIZE, &xfer)
                           : NULL;
   CHECK(map, "%s: map failed", what);
   if (!map)
      return;
   if (!want) {
      pipe_texture_unmap(ctx, xfer);
      return;
   }
   for (unsigned i = 0; i < 6; ++i) {
      const uint8_t *p = map + probe[i][1] * xfer->stride + probe[i][0] * 4;
      CHECK(green(p) == (want[i] != 0),
            "%s: pixel (%u, %u) is %u %u %u, "
            "want %s",
            what, probe[i][0], probe[i][1], p[0], p[1], p[2],
            want[i] ? "green" : "black");
   }
   pipe_texture_unmap(ctx, xfer);
}

/* Draws the triangle list and says what it became: 'L' its outline and
 * diagonal, 'P' its corners, '0' nothing, '?' anything else. */
static char
classify(struct pipe_resource *target, void *rast)
{
   static const unsigned probe[6][2] = { { 16, 8 },  { 8, 16 },  { 24, 24 },
                                         { 16, 16 }, { 12, 20 }, { 4, 4 } };
   static const int lines[6] = { 1, 1, 1, 1, 0, 0 };
   static const int points[6] = { 0, 0, 1, 0, 0, 0 };
   ctx->bind_rasterizer_state(ctx, rast);
   union pipe_color_union black = { .f = { 0, 0, 0, 1 } };
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &black, 1.0, 0);
   draw_square(PIPE_PRIM_TRIANGLES, false, false);
   ctx->flush(ctx, NULL, 0);
   struct pipe_transfer *xfer;
   const uint8_t *map = target
                           ? pipe_texture_map(ctx, target, 0, 0, PIPE_MAP_READ,
                                              0, 0, SIZE, SIZE, &xfer)
                           : NULL;
   if (!map)
      return '?';
   bool is_l = true, is_p = true, empty = true;
   for (unsigned i = 0; i < 6; ++i) {
      bool g = green(map + probe[i][1] * xfer->stride + probe[i][0] * 4);
      is_l &= g == (lines[i] != 0);
      is_p &= g == (points[i] != 0);
      empty &= !g;
   }
   pipe_texture_unmap(ctx, xfer);
   return is_l ? 'L' : is_p ? 'P' : empty ? '0' : '?';
}

int
main(int argc, char **argv)
{
   struct pan_test_fullscreen f;

   if (!pan_test_open_fullscreen(&screen, &ctx, SIZE, SIZE, &f))
      return 1;
   struct pan_test_colour_draw d;
   pan_test_colour_draw_setup(screen, ctx, "pm", false, &d);

   struct pipe_rasterizer_state rs =
      pan_test_rasterizer(PIPE_POLYGON_MODE_LINE);
   void *line = ctx->create_rasterizer_state(ctx, &rs);
   rs.fill_front = rs.fill_back = PIPE_POLYGON_MODE_POINT;
   void *point = ctx->create_rasterizer_state(ctx, &rs);
   rs.fill_front = rs.fill_back = PIPE_POLYGON_MODE_LINE;
   rs.cull_face = PIPE_FACE_BACK;
   void *culled = ctx->create_rasterizer_state(ctx, &rs);

   /* Outline and diagonal; outline only; corners only; filled. */
   static const int tris[6] = { 1, 1, 1, 1, 0, 0 };
   static const int quad[6] = { 1, 1, 1, 0, 0, 0 };
   static const int corners[6] = { 0, 0, 1, 0, 0, 0 };
   static const int filled[6] = { 1, 1, 0, 1, 1, 0 }; /* not the far corner */
   check("GL_LINE triangles", f.tex, line, PIPE_PRIM_TRIANGLES, false, false,
         tris, false);
   check("GL_LINE indexed strip", f.tex, line, PIPE_PRIM_TRIANGLE_STRIP, true,
         false, tris, false);
   check("GL_LINE indexed strips with a restart", f.tex, line,
         PIPE_PRIM_TRIANGLE_STRIP, true, true, tris, false);
   check("GL_LINE quad", f.tex, line, PIPE_PRIM_QUADS, false, false, quad,
         false);
   check("GL_POINT triangles", f.tex, point, PIPE_PRIM_TRIANGLES, false, false,
         corners, false);
   check("GL_POINT indexed quad", f.tex, point, PIPE_PRIM_QUADS, true, false,
         corners, false);
   /* Per face: which face the square shows depends on the winding the
    * viewport gives it, so each pair of draws swaps the faces' modes or
    * the culled face and must give both results, one each. */
   pan_test_debug_msg[0] = 0;
   rs.cull_face = PIPE_FACE_NONE;
   rs.fill_front = PIPE_POLYGON_MODE_LINE;
   rs.fill_back = PIPE_POLYGON_MODE_POINT;
   void *lp = ctx->create_rasterizer_state(ctx, &rs);
   rs.fill_front = PIPE_POLYGON_MODE_POINT;
   rs.fill_back = PIPE_POLYGON_MODE_LINE;
   void *pl = ctx->create_rasterizer_state(ctx, &rs);
   rs.fill_front = rs.fill_back = PIPE_POLYGON_MODE_LINE;
   rs.cull_face = PIPE_FACE_FRONT;
   void *culled_front = ctx->create_rasterizer_state(ctx, &rs);
   char a = classify(f.tex, lp), b = classify(f.tex, pl);
   CHECK((a == 'L' && b == 'P') || (a == 'P' && b == 'L'),
         "front GL_LINE, back GL_POINT gave '%c', swapped '%c'", a, b);
   a = classify(f.tex, culled);
   b = classify(f.tex, culled_front);
   CHECK((a == 'L' && b == '0') || (a == '0' && b == 'L'),
         "GL_LINE culling back faces gave '%c', front faces '%c'", a, b);
   CHECK(!pan_test_debug_msg[0], "per-face modes: driver said \"%s\"",
         pan_test_debug_msg);
   ctx->delete_rasterizer_state(ctx, lp);
   ctx->delete_rasterizer_state(ctx, pl);
   ctx->delete_rasterizer_state(ctx, culled_front);
   check("filled", f.tex, f.cso[1], PIPE_PRIM_TRIANGLES, false, false, filled,
         false);

   ctx->bind_rasterizer_state(ctx, f.cso[1]);
   ctx->delete_rasterizer_state(ctx, line);
   ctx->delete_rasterizer_state(ctx, point);
   ctx->delete_rasterizer_state(ctx, culled);
   pan_test_colour_draw_teardown(ctx, f.cso[3], &d);
   pan_test_fullscreen_teardown(ctx, &f);
   return pan_test_close(screen, ctx);
}
