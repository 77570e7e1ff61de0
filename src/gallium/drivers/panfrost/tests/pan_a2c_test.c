/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Alpha to coverage and alpha to one on a 4x multisampled target
 * (blend.rst, "Alpha to coverage and alpha to one").  The target is
 * cleared to zero, then a draw over it writes colour (1, 0.5, 0.25, a)
 * for alphas 0, 0.25, 0.5, 0.75 and 1.  Each sample is read back with
 * texelFetch: with alpha to coverage a pixel must have round(a * 4) of
 * its samples written (which ones is the implementation's choice), and
 * they hold alpha 1 with alpha to one, a otherwise; the resolve is the
 * average.  The blend-shader case (an XOR logic op over the zero clear,
 * which stores the colour as is) checks the same through blend shaders.
 * Without the feature every sample is written and keeps its alpha.
 */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/glsl_types.h"
#include "compiler/nir/nir.h"
#include "compiler/nir/nir_builder.h"
#include "pipe/p_context.h"
#include "pipe/p_defines.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"
#include "util/u_inlines.h"

#include "pan_test_screen.h"

#define S 16
#define FMT PIPE_FORMAT_R8G8B8A8_UNORM

static struct pipe_screen *screen;
static struct pipe_context *ctx;

struct a2c_case {
   const char *name;
   bool a2c, a2one, logicop;
};

static struct pipe_resource *
texture(unsigned samples, unsigned bind)
{
   return pan_test_texture(screen, FMT, S, samples, bind);
}

/* A triangle covering the whole target in one colour. */
static void
draw_full(const float rgba[4])
{
   const float px[3][2] = { { -1, -1 }, { -1, 3 }, { 3, -1 } };
   float data[3 * 8];
   for (unsigned i = 0; i < 3; ++i) {
      data[i * 8 + 0] = px[i][0];
      data[i * 8 + 1] = px[i][1];
      data[i * 8 + 2] = 0.0f;
      data[i * 8 + 3] = 1.0f;
      memcpy(&data[i * 8 + 4], rgba, 4 * sizeof(float));
   }
   struct pipe_resource *r = pan_test_draw_triangles(screen, ctx, data, 3);
   pipe_resource_reference(&r, NULL);
}

static void *
fetch_fs(unsigned sample)
{
   return pan_test_fetch_sample_fs(screen, ctx, false, sample);
}

static void
set_target(struct pipe_surface *s, unsigned samples)
{
   struct pipe_framebuffer_state fb = {
      .width = S,
      .height = S,
      .samples = samples,
      .nr_cbufs = 1,
      .cbufs = { s },
   };
   ctx->set_framebuffer_state(ctx, &fb);
}

/* Copies ss (single sampled) into out[S * S * 4]. */
static bool
read_image(struct pipe_resource *ss, uint8_t *out)
{
   struct pipe_transfer *xfer;
   const uint8_t *map =
      pipe_texture_map(ctx, ss, 0, 0, PIPE_MAP_READ, 0, 0, S, S, &xfer);
   if (!map)
      return false;
   for (unsigned y = 0; y < S; ++y)
      memcpy(out + y * S * 4, map + y * xfer->stride, S * 4);
   pipe_texture_unmap(ctx, xfer);
   return true;
}

static void
run_case(const struct a2c_case *c, float alpha, void *colour_fs, void *opaque)
{
   char what[96];
   snprintf(what, sizeof(what), "%s, alpha %.2f", c->name, alpha);
   struct pipe_resource *ms =
      texture(4, PIPE_BIND_RENDER_TARGET | PIPE_BIND_SAMPLER_VIEW);
   struct pipe_resource *ss = texture(0, PIPE_BIND_RENDER_TARGET);
   uint8_t *img = calloc(5, S * S * 4);
   CHECK(ms && ss && img, "%s: allocation failed", what);
   if (!ms || !ss || !img)
      goto out;
   struct pipe_surface templ = { .format = FMT };
   struct pipe_surface *msbuf = ctx->create_surface(ctx, ms, &templ);
   struct pipe_surface *ssbuf = ctx->create_surface(ctx, ss, &templ);

   set_target(msbuf, 4);
   ctx->bind_fs_state(ctx, colour_fs);
   union pipe_color_union clear = { .f = { 0, 0, 0, 0 } };
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &clear, 1.0, 0);
   struct pipe_blend_state bs = {
      .alpha_to_coverage = c->a2c,
      .alpha_to_one = c->a2one,
      .logicop_enable = c->logicop,
      .logicop_func = PIPE_LOGICOP_XOR,
      .rt[0].colormask = PIPE_MASK_RGBA,
   };
   void *blend = ctx->create_blend_state(ctx, &bs);
   ctx->bind_blend_state(ctx, blend);
   pan_test_debug_msg[0] = 0;
   const float rgba[4] = { 1.0f, 0.5f, 0.25f, alpha };
   draw_full(rgba);
   CHECK(!strstr(pan_test_debug_msg, "dropped"), "%s: %s", what,
         pan_test_debug_msg);
   ctx->flush(ctx, NULL, 0);
   ctx->bind_blend_state(ctx, opaque);
   ctx->delete_blend_state(ctx, blend);

   /* Each sample into img[0..3], then the resolve into img[4]. */
   struct pipe_sampler_view vt = {
      .format = FMT,
      .target = PIPE_TEXTURE_2D,
      PAN_TEST_IDENTITY_SWIZZLE,
   };
   struct pipe_sampler_view *view = ctx->create_sampler_view(ctx, ms, &vt);
   struct pipe_sampler_state sst = {
      .min_img_filter = PIPE_TEX_FILTER_NEAREST,
      .mag_img_filter = PIPE_TEX_FILTER_NEAREST,
   };
   void *sampler = ctx->create_sampler_state(ctx, &sst);
   set_target(ssbuf, 1);
   for (unsigned s = 0; s < 4; ++s) {
      void *fs = fetch_fs(s);
      ctx->bind_fs_state(ctx, fs);
      ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 1, 0, false, &view);
      ctx->bind_sampler_states(ctx, PIPE_SHADER_FRAGMENT, 0, 1, &sampler);
      draw_full(rgba);
      ctx->flush(ctx, NULL, 0);
      CHECK(read_image(ss, img + s * S * S * 4), "%s: map failed", what);
      ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 0, 1, false, NULL);
      ctx->bind_fs_state(ctx, colour_fs);
      ctx->delete_fs_state(ctx, fs);
   }
   ctx->delete_sampler_state(ctx, sampler);
   pipe_sampler_view_reference(&view, NULL);

   struct pipe_framebuffer_state none = { 0 };
   ctx->set_framebuffer_state(ctx, &none);
   struct pipe_blit_info info = {
      .dst = { .resource = ss, .format = FMT },
      .src = { .resource = ms, .format = FMT },
      .mask = PIPE_MASK_RGBA,
      .filter = PIPE_TEX_FILTER_NEAREST,
   };
   u_box_2d(0, 0, S, S, &info.dst.box);
   u_box_2d(0, 0, S, S, &info.src.box);
   ctx->blit(ctx, &info);
   CHECK(read_image(ss, img + 4 * S * S * 4), "%s: map failed", what);

   /* The expected count, the colour of a written sample. */
   unsigned want_n = c->a2c ? (unsigned)lroundf(alpha * 4.0f) : 4;
   const uint8_t on[4] = { 255, 128, 64,
                           c->a2one ? 255 : (uint8_t)lroundf(alpha * 255.0f) };
   unsigned bad = 0;
   for (unsigned p = 0; p < S * S; ++p) {
      unsigned n = 0;
      bool ok = true;
      for (unsigned s = 0; s < 4; ++s) {
         const uint8_t *v = img + (s * S * S + p) * 4;
         bool written = v[0] != 0;
         n += written;
         for (unsigned i = 0; i < 4; ++i)
            ok &= abs((int)v[i] - (written ? on[i] : 0)) <= 1;
      }
      const uint8_t *r = img + (4 * S * S + p) * 4;
      for (unsigned i = 0; i < 4; ++i)
         ok &= fabsf(r[i] - on[i] * want_n / 4.0f) <= 1.5f;
      if ((!ok || n != want_n) && bad++ == 0)
         printf("%s: pixel (%u, %u) has %u samples written (want %u), "
                "resolved %u %u %u %u\n",
                what, p % S, p / S, n, want_n, r[0], r[1], r[2], r[3]);
   }
   CHECK(bad == 0, "%s: %u of %u pixels wrong", what, bad, S * S);

   pipe_surface_reference(&msbuf, NULL);
   pipe_surface_reference(&ssbuf, NULL);
out:
   free(img);
   pipe_resource_reference(&ms, NULL);
   pipe_resource_reference(&ss, NULL);
}

int
main(void)
{
   if (!pan_test_open(&screen, &ctx))
      return 1;

   struct pan_test_msaa_draw d;
   pan_test_msaa_draw_setup(screen, ctx, "a2c", S, &d);
   void *fs = d.fs, *opaque = d.opaque;
   ctx->set_sample_mask(ctx, 0xf);

   bool shaders =
      screen->get_param(screen, PIPE_CAP_MAX_DUAL_SOURCE_RENDER_TARGETS);
   const struct a2c_case cases[] = {
      { "alpha to coverage", .a2c = true },
      { "alpha to coverage + alpha to one", .a2c = true, .a2one = true },
      { "alpha to one", .a2one = true },
      { "blend shader, alpha to coverage + alpha to one", .a2c = true,
        .a2one = true, .logicop = true },
   };
   static const float alphas[] = { 0.0f, 0.25f, 0.5f, 0.75f, 1.0f };
   for (unsigned i = 0; i < ARRAY_SIZE(cases); ++i) {
      if (cases[i].logicop && !shaders)
         continue;
      for (unsigned a = 0; a < ARRAY_SIZE(alphas); ++a)
         run_case(&cases[i], alphas[a], fs, opaque);
   }

   pan_test_msaa_draw_teardown(ctx, &d);
   return pan_test_close(screen, ctx);
}
