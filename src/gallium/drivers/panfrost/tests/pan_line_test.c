/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Lines through the driver on the simulated GPU, every pixel checked: a
 * horizontal list segment of width 1 and 3 (the rasteriser's line width
 * reaches the tiler, not the point size), a loop around a square (its
 * closing side drawn, every corner once under additive blending), and
 * flat colours from the segment's last vertex or, with flatshade_first,
 * its first (the draw's flat-shading vertex on v6/v7, the tiler context
 * on v9); a stippled line keeps its pattern's pixels.
 */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipe/p_context.h"
#include "pipe/p_defines.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"
#include "util/u_inlines.h"

#include "pan_test_screen.h"

#define SIZE 16

static struct pipe_screen *screen;
static struct pipe_context *ctx;

/* Window coordinate -> NDC (exact for multiples of 1/8). */
#define NDC(w) ((w) / (SIZE / 2.0f) - 1.0f)

struct line_draw {
   enum pipe_prim_type mode;
   unsigned n;
   const float (*win)[2]; /* window positions */
   const float (*col)[4];
   float width;
   bool flat, first, add;
   bool stipple; /* not implemented: said once, drawn solid */
};

/* Draw into a cleared SIZE x SIZE target and read every pixel back into
 * px (RGBA8). */
static void
draw_lines(const struct line_draw *d, uint8_t px[SIZE][SIZE][4])
{
   struct pipe_resource *tex = NULL;
   struct pipe_surface *surf =
      pan_test_bind_target(screen, ctx, SIZE, SIZE, &tex);
   struct pipe_blend_state blend = { .rt[0].colormask = PIPE_MASK_RGBA };
   if (d->add) {
      blend.rt[0].blend_enable = 1;
      blend.rt[0].rgb_func = blend.rt[0].alpha_func = PIPE_BLEND_ADD;
      blend.rt[0].rgb_src_factor = blend.rt[0].alpha_src_factor =
         PIPE_BLENDFACTOR_ONE;
      blend.rt[0].rgb_dst_factor = blend.rt[0].alpha_dst_factor =
         PIPE_BLENDFACTOR_ONE;
   }
   struct pipe_depth_stencil_alpha_state zsa = { 0 };
   struct pipe_rasterizer_state rs = {
      .half_pixel_center = 1,
      .depth_clip_near = 1,
      .depth_clip_far = 1,
      .line_width = d->width,
      .point_size = 7, /* what a line must not take */
      .flatshade_first = d->first,
      .flatshade = d->flat,
      .line_stipple_enable = d->stipple,
      .line_stipple_factor = 0,
      .line_stipple_pattern = 0x00ff,
   };
   void *cso_blend = ctx->create_blend_state(ctx, &blend);
   void *cso_zsa = ctx->create_depth_stencil_alpha_state(ctx, &zsa);
   void *cso_rs = ctx->create_rasterizer_state(ctx, &rs);
   ctx->bind_blend_state(ctx, cso_blend);
   ctx->bind_depth_stencil_alpha_state(ctx, cso_zsa);
   ctx->bind_rasterizer_state(ctx, cso_rs);
   ctx->set_sample_mask(ctx, ~0u);
   struct pipe_viewport_state vp = {
      .scale = { SIZE / 2.0f, SIZE / 2.0f, 0.5f },
      .translate = { SIZE / 2.0f, SIZE / 2.0f, 0.5f },
   };
   ctx->set_viewport_states(ctx, 0, 1, &vp);

   void *vs = pan_test_pass_through_vs(screen, ctx, "line-vs"),
        *fs = pan_test_colour_fs(screen, ctx, "line-fs", d->flat);
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);
   struct pipe_vertex_element ve[2] = {
      { .src_offset = 0, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
      { .src_offset = 16, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
   };
   void *velems = ctx->create_vertex_elements_state(ctx, 2, ve);
   ctx->bind_vertex_elements_state(ctx, velems);
   float data[8][8];
   for (unsigned v = 0; v < d->n; ++v) {
      const float pos[4] = { NDC(d->win[v][0]), NDC(d->win[v][1]), 0, 1 };
      memcpy(data[v], pos, 16);
      memcpy(&data[v][4], d->col[v], 16);
   }
   struct pipe_resource *vb = pipe_buffer_create(
      screen, PIPE_BIND_VERTEX_BUFFER, PIPE_USAGE_DEFAULT, 32 * d->n);
   pipe_buffer_write(ctx, vb, 0, 32 * d->n, data);
   struct pipe_vertex_buffer vbuf = { .stride = 32, .buffer.resource = vb };
   ctx->set_vertex_buffers(ctx, 0, 1, 0, false, &vbuf);

   union pipe_color_union black = { .f = { 0, 0, 0, 0 } };
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &black, 0, 0);
   struct pipe_draw_info info = {
      .mode = d->mode,
      .instance_count = 1,
      .max_index = d->n - 1,
   };
   struct pipe_draw_start_count_bias sc = { .start = 0, .count = d->n };
   ctx->draw_vbo(ctx, &info, 0, NULL, &sc, 1);
   ctx->flush(ctx, NULL, 0);

   memset(px, 0, SIZE * SIZE * 4);
   struct pipe_transfer *xfer;
   const uint8_t *map = tex ? pipe_texture_map(ctx, tex, 0, 0, PIPE_MAP_READ, 0,
                                               0, SIZE, SIZE, &xfer)
                            : NULL;
   CHECK(map, "colour map failed");
   if (map) {
      for (unsigned y = 0; y < SIZE; ++y)
         memcpy(px[y], map + y * xfer->stride, SIZE * 4);
      pipe_texture_unmap(ctx, xfer);
   }

   struct pipe_framebuffer_state fb = { 0 };
   ctx->set_framebuffer_state(ctx, &fb);
   pipe_surface_reference(&surf, NULL);
   pipe_resource_reference(&tex, NULL);
   pipe_resource_reference(&vb, NULL);
   ctx->bind_vertex_elements_state(ctx, NULL);
   ctx->delete_vertex_elements_state(ctx, velems);
   ctx->bind_vs_state(ctx, NULL);
   ctx->bind_fs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, vs);
   ctx->delete_fs_state(ctx, fs);
   ctx->bind_rasterizer_state(ctx, NULL);
   ctx->delete_rasterizer_state(ctx, cso_rs);
   ctx->bind_blend_state(ctx, NULL);
   ctx->delete_blend_state(ctx, cso_blend);
   ctx->bind_depth_stencil_alpha_state(ctx, NULL);
   ctx->delete_depth_stencil_alpha_state(ctx, cso_zsa);
}

static const float white[8][4] = {
   { 1, 1, 1, 1 }, { 1, 1, 1, 1 }, { 1, 1, 1, 1 }, { 1, 1, 1, 1 },
   { 1, 1, 1, 1 }, { 1, 1, 1, 1 }, { 1, 1, 1, 1 }, { 1, 1, 1, 1 },
};

/* From x 2 to 14 along row 7's centres: columns 2-13, rows 7 - w/2 up to
 * (excluded) 7 + w/2 from the line's centre 7.5. */
static void
test_width(void)
{
   static const float win[2][2] = { { 2, 7.5f }, { 14, 7.5f } };
   for (unsigned w = 1; w <= 3; w += 2) {
      struct line_draw d = { PIPE_PRIM_LINES, 2, win, white, (float)w };
      uint8_t px[SIZE][SIZE][4];
      draw_lines(&d, px);
      unsigned bad = 0, drawn = 0;
      for (int y = 0; y < SIZE; ++y) {
         for (int x = 0; x < SIZE; ++x) {
            bool in = x >= 2 && x <= 13 && fabs(y + 0.5 - 7.5) < w / 2.0;
            drawn += px[y][x][0] == 255;
            bad += px[y][x][0] != (in ? 255 : 0);
         }
      }
      CHECK(!bad, "width %u: %u pixels wrong (%u drawn, %u wanted)", w, bad,
            drawn, 12 * w);
   }
}

/* A loop around the square (3, 3) - (12, 12) through pixel centres,
 * blended additively at a quarter: its four sides, each corner once. */
static void
test_loop(void)
{
   static const float win[4][2] = {
      { 3.5f, 3.5f }, { 12.5f, 3.5f }, { 12.5f, 12.5f }, { 3.5f, 12.5f }
   };
   static const float quarter[4][4] = {
      { 0.25f, 0.25f, 0.25f, 0.25f },
      { 0.25f, 0.25f, 0.25f, 0.25f },
      { 0.25f, 0.25f, 0.25f, 0.25f },
      { 0.25f, 0.25f, 0.25f, 0.25f },
   };
   struct line_draw d = {
      PIPE_PRIM_LINE_LOOP, 4, win, quarter, 1, .add = true
   };
   uint8_t px[SIZE][SIZE][4];
   draw_lines(&d, px);
   unsigned bad = 0;
   for (int y = 0; y < SIZE; ++y) {
      for (int x = 0; x < SIZE; ++x) {
         bool edge = (x >= 3 && x <= 12 && (y == 3 || y == 12)) ||
                     (y >= 3 && y <= 12 && (x == 3 || x == 12));
         bad += abs((int)px[y][x][0] - (edge ? 64 : 0)) > 1;
      }
   }
   CHECK(!bad,
         "line loop: %u pixels not drawn exactly once or drawn "
         "outside the square's sides",
         bad);
}

/* Flat colours: red first vertex, green last. */
static void
test_provoking(void)
{
   static const float win[2][2] = { { 2, 5.5f }, { 14, 9.5f } };
   static const float col[2][4] = { { 1, 0, 0, 1 }, { 0, 1, 0, 1 } };
   for (unsigned first = 0; first < 2; ++first) {
      struct line_draw d = { PIPE_PRIM_LINES, 2, win, col, 1, .flat = true,
                             .first = first };
      uint8_t px[SIZE][SIZE][4];
      draw_lines(&d, px);
      unsigned drawn = 0, bad = 0;
      for (int y = 0; y < SIZE; ++y) {
         for (int x = 0; x < SIZE; ++x) {
            if (!px[y][x][3])
               continue;
            drawn++;
            bad += px[y][x][0] != (first ? 255 : 0) ||
                   px[y][x][1] != (first ? 0 : 255);
         }
      }
      CHECK(drawn == 12, "flat line: %u pixels drawn, not 12", drawn);
      CHECK(!bad,
            "flat line, %s vertex provoking: %u pixels of the other's "
            "colour",
            first ? "first" : "last", bad);
   }
}

/* A stippled line (pan_line_stipple.c) keeps its first eight pixels of
 * twelve under pattern 0x00ff, with no message (it was drawn solid after
 * one). */
static void
test_stipple(void)
{
   static const float win[2][2] = { { 2, 7.5f }, { 14, 7.5f } };
   struct line_draw d = { PIPE_PRIM_LINES, 2, win, white, 1, .stipple = true };
   uint8_t px[SIZE][SIZE][4];
   pan_test_debug_msg[0] = 0;
   draw_lines(&d, px);
   CHECK(!strstr(pan_test_debug_msg, "line stipple"),
         "a message for a stippled line: \"%s\"", pan_test_debug_msg);
   unsigned drawn = 0, first = SIZE, last = 0;
   for (unsigned x = 0; x < SIZE; ++x) {
      if (px[7][x][0] == 255) {
         drawn++;
         first = MIN2(first, x);
         last = x;
      }
   }
   CHECK(drawn == 8 && first == 2 && last == 9,
         "stippled line: %u pixels from %u to %u, not 8 from 2 to 9", drawn,
         first, last);
}

int
main(int argc, char **argv)
{
   if (!pan_test_open(&screen, &ctx))
      return 1;
   CHECK(screen->get_paramf(screen, PIPE_CAPF_MAX_LINE_WIDTH) >= 3,
         "wide lines are not offered");
   test_width();
   test_loop();
   test_provoking();
   test_stipple();
   return pan_test_close(screen, ctx);
}
