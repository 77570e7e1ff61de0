/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Line stipple (pan_line_stipple.c): horizontal lines from pixel centre
 * x = 2 to x = 30 whose colour runs from red to blue.  Pixel x is lit when
 * bit ((x - x0) / factor) & 15 of the pattern is set, x0 being where the
 * stipple counter started: the line's start for an independent line, the
 * strip's start for a line strip (the counter goes on across its
 * vertices).  A lit pixel keeps the colour the line has there unstippled.
 * A GL_LINE quad's outline is stippled as one strip from its first
 * vertex (GL goes on counting around a polygon).
 * Before, stippled lines were drawn solid.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipe/p_context.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"
#include "util/u_inlines.h"

#include "pan_test_polygon.h"
#include "pan_test_screen.h"

#define SIZE 32

static struct pipe_screen *screen;
static struct pipe_context *ctx;

/* Draws the lines through pixel centres xs[0..n) of row 8 (or rows ys),
 * in mode (quads as GL_LINE polygons), with the stipple (factor 0: none);
 * the colour is red at x 2, blue at x 30. */
static void
draw(enum pipe_prim_type mode, const unsigned *xs, const unsigned *ys,
     unsigned n, unsigned factor, unsigned pattern)
{
   float v[4][8];
   for (unsigned i = 0; i < n; ++i) {
      float t = (xs[i] - 2) / 28.0f;
      float p[8] = { pan_test_ndc(xs[i], SIZE),
                     pan_test_ndc(ys ? ys[i] : 8, SIZE),
                     0,
                     1,
                     1 - t,
                     0,
                     t,
                     1 };
      memcpy(v[i], p, sizeof(p));
   }
   struct pipe_rasterizer_state rs =
      pan_test_rasterizer(mode == PIPE_PRIM_QUADS ? PIPE_POLYGON_MODE_LINE
                                                  : PIPE_POLYGON_MODE_FILL);
   rs.line_stipple_enable = factor != 0;
   rs.line_stipple_factor = factor ? factor - 1 : 0;
   rs.line_stipple_pattern = pattern;
   struct pipe_resource *vb = pan_test_bind_vertices(screen, ctx, v[0], n);
   struct pipe_draw_info info = { .mode = mode, .instance_count = 1 };
   struct pipe_draw_start_count_bias d = { .count = n };

   pan_test_draw_cleared(ctx, &rs, &info, &d, 1);
   pipe_resource_reference(&vb, NULL);
}

static bool
close_to(uint32_t a, uint32_t b)
{
   for (unsigned c = 0; c < 32; c += 8) {
      int d = (int)((a >> c) & 0xff) - (int)((b >> c) & 0xff);
      if (abs(d) > 2)
         return false;
   }
   return true;
}

int
main(int argc, char **argv)
{
   struct pan_test_fullscreen f;
   struct pan_test_colour_draw cd;

   if (!pan_test_open_fullscreen(&screen, &ctx, SIZE, SIZE, &f))
      return 1;
   pan_test_colour_draw_setup(screen, ctx, "stipple", false, &cd);

   /* The colours of the line unstippled. */
   static const unsigned whole[2] = { 2, 30 };
   uint32_t solid[SIZE];
   draw(PIPE_PRIM_LINES, whole, NULL, 2, 0, 0);
   for (unsigned x = 0; x < SIZE; ++x)
      solid[x] = pan_test_pixel(ctx, f.tex, x, 8);
   CHECK(solid[2] != PAN_TEST_BLACK && solid[29] != PAN_TEST_BLACK &&
            solid[30] == PAN_TEST_BLACK,
         "unstippled: pixels 2, 29, 30 are 0x%08x 0x%08x 0x%08x", solid[2],
         solid[29], solid[30]);

   /* A strip's counter goes on at x 8; a second independent line starts
    * its own there. */
   static const unsigned split[3] = { 2, 8, 30 };
   static const unsigned pairs[4] = { 2, 8, 8, 30 };
   /* A GL_LINE quad whose first edge is the line (its right edge starts
    * at x 30, left unchecked). */
   static const unsigned quad_x[4] = { 2, 30, 30, 2 },
                         quad_y[4] = { 8, 8, 20, 20 };
   static const struct {
      const char *name;
      enum pipe_prim_type mode;
      const unsigned *xs, *ys;
      unsigned n, factor, pattern, restart_x;
   } cases[] = {
      { "line, factor 1", PIPE_PRIM_LINES, whole, NULL, 2, 1, 0x0f0f, 2 },
      { "line, factor 2", PIPE_PRIM_LINES, whole, NULL, 2, 2, 0x00ff, 2 },
      { "line, factor 3", PIPE_PRIM_LINES, whole, NULL, 2, 3, 0x3333, 2 },
      { "strip", PIPE_PRIM_LINE_STRIP, split, NULL, 3, 1, 0x0f0f, 2 },
      { "two lines", PIPE_PRIM_LINES, pairs, NULL, 4, 1, 0x0f0f, 8 },
      { "GL_LINE quad", PIPE_PRIM_QUADS, quad_x, quad_y, 4, 1, 0x0f0f, 2 },
   };
   for (unsigned c = 0; c < ARRAY_SIZE(cases); ++c) {
      draw(cases[c].mode, cases[c].xs, cases[c].ys, cases[c].n, cases[c].factor,
           cases[c].pattern);
      unsigned wrong = 0, first = 0;
      for (unsigned x = 0; x < (cases[c].ys ? 30 : SIZE); ++x) {
         unsigned x0 = x < cases[c].restart_x ? 2 : cases[c].restart_x;
         bool lit =
            x >= 2 && x < 30 &&
            (cases[c].pattern >> (((x - x0) / cases[c].factor) & 15)) & 1;
         uint32_t got = pan_test_pixel(ctx, f.tex, x, 8);
         if (lit ? !close_to(got, solid[x]) : got != PAN_TEST_BLACK) {
            if (!wrong++)
               first = x;
         }
      }
      uint32_t at = pan_test_pixel(ctx, f.tex, first, 8);
      CHECK(!wrong,
            "%s: %u pixels wrong, the first x %u: 0x%08x (unstippled "
            "0x%08x)",
            cases[c].name, wrong, first, at, solid[first]);
   }

   /* The quad's second edge, up x 30 from row 8: its counter goes on
    * from the first edge's 28 steps. */
   draw(PIPE_PRIM_QUADS, quad_x, quad_y, 4, 1, 0x0f0f);
   unsigned wrong = 0, first = 0;
   for (unsigned y = 8; y < 20; ++y) {
      bool lit = (0x0f0f >> ((28 + y - 8) & 15)) & 1;
      uint32_t got = pan_test_pixel(ctx, f.tex, 30, y);
      if (lit != (got != PAN_TEST_BLACK) && !wrong++)
         first = y;
   }
   CHECK(!wrong, "GL_LINE quad's second edge: %u pixels wrong, the first y %u",
         wrong, first);

   struct pipe_resource *none = NULL;
   pan_test_colour_draw_teardown(ctx, f.cso[3], &cd);
   pan_test_fullscreen_restore(ctx, &f, &none);
   pan_test_fullscreen_teardown(ctx, &f);
   return pan_test_close(screen, ctx);
}
