/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Blending into an R11G11B10_FLOAT render target at the Gallium level on
 * the drm-shim whose simulator runs the jobs.  The format is raw in the
 * tile buffer, so the driver blends it with a blend shader that reads the
 * destination (LD_TILE of the packed word).  Additive blending over a
 * clear, then again in a second pass that first loads the target from
 * memory; every pixel is compared with the sums, which the format holds
 * exactly (values above 1 included: the channels are unsigned floats).
 */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "compiler/nir/nir.h"
#include "compiler/nir/nir_builder.h"
#include "pipe/p_context.h"
#include "pipe/p_defines.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"
#include "util/format/u_format.h"
#include "util/u_inlines.h"

#include "pan_test_screen.h"

#define SIZE 8
#define FORMAT PIPE_FORMAT_R11G11B10_FLOAT

static struct pipe_screen *screen;
static struct pipe_context *ctx;

static void *
constant_fs(const float c[4])
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_FRAGMENT, "constant");
   nir_variable *out = pan_test_io_var(b.shader, nir_var_shader_out,
                                       FRAG_RESULT_DATA0, 0, "colour");
   nir_store_var(&b, out, nir_imm_vec4(&b, c[0], c[1], c[2], c[3]), 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

static bool
r11g11b10_differs(const uint8_t *p, const void *want, char *msg, size_t size)
{
   const float *w = want;
   float got[4];
   util_format_unpack_rgba(FORMAT, got, p, 1);
   snprintf(msg, size, "is %g %g %g, want %g %g %g", got[0], got[1], got[2],
            w[0], w[1], w[2]);
   return memcmp(got, w, 3 * sizeof(float)) != 0;
}

/* Every pixel of tex must be want (red, green, blue). */
static void
check_pixels(const char *what, struct pipe_resource *tex, const float want[3])
{
   pan_test_check_pixels(ctx, what, tex, SIZE, SIZE, r11g11b10_differs, want);
}

int
main(int argc, char **argv)
{
   struct pan_test_fullscreen f;

   if (!pan_test_open_fullscreen(&screen, &ctx, SIZE, SIZE, &f))
      return 1;
   CHECK(screen->is_format_supported(screen, FORMAT, PIPE_TEXTURE_2D, 0, 0,
                                     PIPE_BIND_RENDER_TARGET),
         "R11G11B10_FLOAT render targets");

   struct pipe_resource *tex =
      pan_test_texture(screen, FORMAT, SIZE, 0, PIPE_BIND_RENDER_TARGET);
   struct pipe_surface templ = { .format = FORMAT };
   struct pipe_surface *surf =
      tex ? ctx->create_surface(ctx, tex, &templ) : NULL;
   CHECK(surf, "no R11G11B10_FLOAT surface");
   if (!surf) {
      pipe_resource_reference(&tex, NULL);
      pan_test_fullscreen_teardown(ctx, &f);
      return pan_test_close(screen, ctx);
   }
   struct pipe_framebuffer_state fb = {
      .width = SIZE,
      .height = SIZE,
      .nr_cbufs = 1,
      .cbufs = { surf },
   };
   ctx->set_framebuffer_state(ctx, &fb);

   static const float src[4] = { 0.5f, 1.5f, 0.25f, 1.0f };
   void *vs = pan_test_position_vs(screen, ctx, "position");
   void *fs = constant_fs(src);
   struct pipe_blend_state add = {
      .rt[0] = { 1, PIPE_BLEND_ADD, PIPE_BLENDFACTOR_ONE, PIPE_BLENDFACTOR_ONE,
                 PIPE_BLEND_ADD, PIPE_BLENDFACTOR_ONE, PIPE_BLENDFACTOR_ONE,
                 PIPE_MASK_RGBA },
   };
   void *blend = ctx->create_blend_state(ctx, &add);
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);
   ctx->bind_blend_state(ctx, blend);

   union pipe_color_union clear = { .f = { 0.25f, 2.0f, 0.125f, 1.0f } };
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &clear, 0, 0);
   struct pipe_draw_info info = { .mode = PIPE_PRIM_TRIANGLES,
                                  .instance_count = 1 };
   struct pipe_draw_start_count_bias d = { .count = 3 };
   pan_test_debug_msg[0] = 0;
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
   check_pixels("blend over the clear", tex,
                (const float[3]){ 0.75f, 3.5f, 0.375f });
   /* A new pass, which loads the target, blends again. */
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
   check_pixels("blend over the loaded target", tex,
                (const float[3]){ 1.25f, 5.0f, 0.625f });
   CHECK(!pan_test_debug_msg[0], "driver message: %s", pan_test_debug_msg);

   ctx->bind_blend_state(ctx, f.cso[0]);
   ctx->delete_blend_state(ctx, blend);
   pan_test_delete_shaders(ctx, vs, fs);
   struct pipe_framebuffer_state none = { .width = SIZE, .height = SIZE };
   ctx->set_framebuffer_state(ctx, &none);
   pipe_surface_reference(&surf, NULL);
   pipe_resource_reference(&tex, NULL);
   pan_test_fullscreen_teardown(ctx, &f);
   return pan_test_close(screen, ctx);
}
