/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Benchmark (meson benchmark, not a test): fragments shaded per second of
 * a full-screen draw with an interpolated colour, through the whole
 * simulated pipeline (vertex or malloc-vertex job, tiler, fragment job
 * with rasteriser, interpolation, shader interpreter and blending).  The
 * draws are the hand-packed ones of test_pan_sim_draw.c, reused here.
 * See docs/drivers/panfrost/simulator-oracle.rst, "Performance".
 */

#include "pan_sim_bench.h"

#define main pan_sim_draw_test_main
int pan_sim_draw_test_main(void);
#include "test_pan_sim_draw.c"
#undef main

static const float full_pos[4][4] = {
   { -1, -1, 0, 1 },
   { 1, -1, 0, 1 },
   { -1, 1, 0, 1 },
   { 1, 1, 0, 1 },
};
static const float full_col[4][4] = {
   { 1, 0, 0, 1 },
   { 0, 1, 0, 1 },
   { 0, 0, 1, 1 },
   { 1, 1, 1, 1 },
};

static bool
draw_once(void)
{
   struct frame f;
   emit_frame(&f, 0, false);
#if PAN_ARCH >= 9
   struct vdraw d = { .mode = MALI_DRAW_MODE_TRIANGLE_STRIP,
                      .nr = 4,
                      .pos = full_pos,
                      .col = full_col };
   return render_v9(&f, &d, 1);
#else
   struct draw d = { .mode = MALI_DRAW_MODE_TRIANGLE_STRIP,
                     .nr = 4,
                     .pos = full_pos,
                     .col = full_col,
                     .varying_fs = true };
   return render(&f, &d, 1);
#endif
}

int
main(void)
{
#if PAN_ARCH >= 9
   setup_v9();
#else
   setup();
#endif
   /* The frame and draw descriptors are bump-allocated after the shaders:
    * each draw starts again from there. */
   uint64_t mark = used;
   unsigned draws = 0;
   double t0 = pan_sim_bench_now(), t;
   do {
      used = mark;
      if (!draw_once())
         return pan_test_summary("bench_pan_sim_draw");
      draws++;
      t = pan_sim_bench_now() - t0;
   } while (t < 1.0);
   printf("v%d full-screen draw, %ux%u: %u draws in %.2f s, %.0f "
          "fragments/s\n",
          PAN_ARCH, W, H, draws, t, draws * (double)(W * H) / t);
   free(mem);
   return pan_test_summary("bench_pan_sim_draw");
}
