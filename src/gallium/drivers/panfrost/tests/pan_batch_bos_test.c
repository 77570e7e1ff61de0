/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * A frame of many draws, each with a vertex buffer of its own (what
 * immediate-mode GL and piglit's tex-miplevel-selection do): more buffers
 * than one submit may list.  The batch must submit along the way instead
 * of dropping the pass; the last draw's colour must cover the target.
 */

#include <stdio.h>
#include <string.h>

#include "compiler/nir/nir_builder.h"
#include "pipe/p_context.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"
#include "util/u_inlines.h"

#include "pan_test_screen.h"

#define SIZE 16
#define DRAWS 400

static struct pipe_screen *screen;
static struct pipe_context *ctx;

int
main(int argc, char **argv)
{
   static const float quad[6][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 },
                                     { -1, 1 },  { 1, -1 }, { 1, 1 } };
   struct pan_test_fullscreen f;

   if (!pan_test_open_fullscreen(&screen, &ctx, SIZE, SIZE, &f))
      return 1;
   struct pipe_vertex_element ve[2] = {
      { .src_offset = 0, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
      { .src_offset = 16, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
   };
   void *velems = ctx->create_vertex_elements_state(ctx, 2, ve);
   ctx->bind_vertex_elements_state(ctx, velems);
   void *vs = pan_test_pass_through_vs(screen, ctx, "bos-vs"),
        *fs = pan_test_colour_fs(screen, ctx, "bos-fs", false);
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);

   union pipe_color_union black = { .f = { 0, 0, 0, 1 } };
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &black, 1.0, 0);
   for (unsigned i = 0; i < DRAWS; ++i) {
      /* Red, then green for the last draw. */
      bool last = i == DRAWS - 1;
      float data[6][8];
      for (unsigned v = 0; v < 6; ++v) {
         const float p[8] = { quad[v][0], quad[v][1], 0, 1, !last, last, 0, 1 };
         memcpy(data[v], p, sizeof(p));
      }
      struct pipe_resource *vb =
         pan_test_draw_triangles(screen, ctx, &data[0][0], 6);
      pipe_resource_reference(&vb, NULL);
   }
   ctx->flush(ctx, NULL, 0);

   struct pipe_transfer *xfer;
   const uint8_t *map = f.tex
                           ? pipe_texture_map(ctx, f.tex, 0, 0, PIPE_MAP_READ,
                                              0, 0, SIZE, SIZE, &xfer)
                           : NULL;
   CHECK(map, "map failed");
   if (map) {
      unsigned bad = 0;
      for (unsigned y = 0; y < SIZE; ++y) {
         for (unsigned x = 0; x < SIZE; ++x) {
            const uint8_t *p = map + y * xfer->stride + x * 4;
            if ((p[0] != 0 || p[1] != 255 || p[2] != 0) && bad++ == 0)
               printf("(%u, %u) is %u %u %u, want 0 255 0\n", x, y, p[0], p[1],
                      p[2]);
         }
      }
      pipe_texture_unmap(ctx, xfer);
      CHECK(bad == 0, "%u draws, one buffer each: %u of %u pixels wrong", DRAWS,
            bad, SIZE * SIZE);
   }

   ctx->bind_vs_state(ctx, NULL);
   ctx->bind_fs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, vs);
   ctx->delete_fs_state(ctx, fs);
   ctx->bind_vertex_elements_state(ctx, f.cso[3]);
   ctx->delete_vertex_elements_state(ctx, velems);
   pan_test_fullscreen_teardown(ctx, &f);
   return pan_test_close(screen, ctx);
}
