/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include "pan_test_polygon.h"

#include "pipe/p_context.h"
#include "util/macros.h"

#include "pan_test_screen.h"

const struct pan_test_polygon_mode
   pan_test_polygon_modes[PAN_TEST_POLYGON_MODES] = {
      { "GL_LINE", PIPE_POLYGON_MODE_LINE, PIPE_POLYGON_MODE_LINE },
      { "GL_POINT", PIPE_POLYGON_MODE_POINT, PIPE_POLYGON_MODE_POINT },
      { "GL_LINE front, GL_POINT back", PIPE_POLYGON_MODE_LINE,
        PIPE_POLYGON_MODE_POINT },
   };

struct pipe_rasterizer_state
pan_test_polygon_rasterizer(unsigned fill_front, unsigned fill_back)
{
   struct pipe_rasterizer_state rs = pan_test_rasterizer(fill_front);
   rs.fill_back = fill_back;
   rs.front_ccw = 1;
   return rs;
}

void
pan_test_draw_cleared(struct pipe_context *ctx,
                      const struct pipe_rasterizer_state *rs,
                      const struct pipe_draw_info *info,
                      const struct pipe_draw_start_count_bias *draws,
                      unsigned num_draws)
{
   void *rast = ctx->create_rasterizer_state(ctx, rs);
   union pipe_color_union black = { .f = { 0, 0, 0, 1 } };

   ctx->bind_rasterizer_state(ctx, rast);
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &black, 0, 0);
   for (unsigned i = 0; i < num_draws; ++i)
      ctx->draw_vbo(ctx, info, 0, NULL, &draws[i], 1);
   ctx->flush(ctx, NULL, 0);
   ctx->delete_rasterizer_state(ctx, rast);
}

void
pan_test_draw_two_quads(struct pipe_context *ctx,
                        const struct pipe_rasterizer_state *rs)
{
   struct pipe_draw_info info = { .mode = PIPE_PRIM_QUADS,
                                  .instance_count = 1 };
   static const struct pipe_draw_start_count_bias quads[2] = {
      { .start = 0, .count = 4 },
      { .start = 4, .count = 4 },
   };
   pan_test_draw_cleared(ctx, rs, &info, quads, 2);
}
