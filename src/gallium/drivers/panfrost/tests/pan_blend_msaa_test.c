/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Blend shaders on a 4x multisampled target (blend.rst, "Multisampled
 * targets"), checked per sample against a C reference.  Every sample
 * starts from its own destination: the target is cleared to C0, then a
 * draw over the whole target with the sample mask 0x3 writes D1 to
 * samples 0 and 1 only.  A draw whose blend needs a blend shader (a logic
 * op, MIN/MAX, alpha saturate) then covers the corner triangle x + y < 32
 * (window pixels) under a sample mask: on the edge pixels (x + y = 31)
 * the triangle holds samples 0 and 2 (the rotated grid, as in
 * pan_msaa_test.c), so those pixels blend D1 in one sample and C0 in
 * another.  Each sample is read back with texelFetch into a single-
 * sampled target and compared, and the resolve (the average) too.
 * Without multisampled blend shaders the draw is dropped and the blended
 * samples keep their destination.
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

#define S 32
#define FMT PIPE_FORMAT_R8G8B8A8_UNORM

static struct pipe_screen *screen;
static struct pipe_context *ctx;

/* unorm8 colours: the clear, the first draw's and the blended source. */
static const uint8_t c0[4] = { 51, 204, 102, 255 };
static const uint8_t d1[4] = { 153, 51, 230, 128 };
static const uint8_t src[4] = { 102, 153, 26, 77 };

struct blend_case {
   const char *name;
   struct pipe_rt_blend_state rt;
   bool logicop;
   unsigned logicop_func;
};

static float
unorm(uint8_t v)
{
   return v / 255.0f;
}

/* The reference: the case's blend of src over destination d. */
static void
blend_ref(const struct blend_case *c, const uint8_t d[4], uint8_t out[4])
{
   for (unsigned i = 0; i < 4; ++i) {
      if (c->logicop) {
         out[i] = src[i] ^ d[i]; /* PIPE_LOGICOP_XOR only */
         continue;
      }
      bool alpha = i == 3;
      unsigned func = alpha ? c->rt.alpha_func : c->rt.rgb_func;
      unsigned sf = alpha ? c->rt.alpha_src_factor : c->rt.rgb_src_factor;
      unsigned df = alpha ? c->rt.alpha_dst_factor : c->rt.rgb_dst_factor;
      float s = unorm(src[i]), dv = unorm(d[i]), r;
      if (func == PIPE_BLEND_MIN) {
         r = fminf(s, dv);
      } else if (func == PIPE_BLEND_MAX) {
         r = fmaxf(s, dv);
      } else {
         /* ADD with SRC_ALPHA_SATURATE (alpha: ONE) and DST_COLOR. */
         float fs = alpha ? 1.0f : fminf(unorm(src[3]), 1.0f - unorm(d[3]));
         float fd = df == PIPE_BLENDFACTOR_DST_COLOR ? dv : 0.0f;
         (void)sf;
         r = fminf(s * fs + dv * fd, 1.0f);
      }
      out[i] = (uint8_t)lroundf(r * 255.0f);
   }
}

static struct pipe_resource *
texture(unsigned samples, unsigned bind)
{
   return pan_test_texture(screen, FMT, S, samples, bind);
}

/* The triangle (0, 0), (n, 0), (0, n) in window pixels, one colour. */
static void
draw_corner(float n, const uint8_t rgba[4])
{
   const float px[3][2] = { { 0, 0 }, { 0, n }, { n, 0 } };
   float data[3 * 8];
   for (unsigned i = 0; i < 3; ++i) {
      data[i * 8 + 0] = px[i][0] / (S / 2.0f) - 1.0f;
      data[i * 8 + 1] = px[i][1] / (S / 2.0f) - 1.0f;
      data[i * 8 + 2] = 0.0f;
      data[i * 8 + 3] = 1.0f;
      for (unsigned c = 0; c < 4; ++c)
         data[i * 8 + 4 + c] = unorm(rgba[c]);
   }
   struct pipe_resource *r = pan_test_draw_triangles(screen, ctx, data, 3);
   pipe_resource_reference(&r, NULL);
}

static void *
fetch_fs(unsigned sample)
{
   return pan_test_fetch_sample_fs(screen, ctx, false, sample);
}

/* Samples of pixel (x, y) the corner triangle x + y < 32 covers. */
static unsigned
corner_samples(unsigned x, unsigned y)
{
   return x + y < 31 ? 0xf : x + y == 31 ? 0x5 : 0;
}

/* What sample s of pixel (x, y) must hold after the blended draw. */
static void
want_sample(const struct blend_case *c, unsigned mask, unsigned x, unsigned y,
            unsigned s, uint8_t out[4])
{
   const uint8_t *d = s < 2 ? d1 : c0;
   if ((corner_samples(x, y) & mask) >> s & 1)
      blend_ref(c, d, out);
   else
      memcpy(out, d, 4);
}

/* Compares ss (a single-sampled copy) with want(x, y) within tol. */
static void
check_image(struct pipe_resource *ss, const struct blend_case *c, unsigned mask,
            int sample, const char *what)
{
   struct pipe_transfer *xfer;
   const uint8_t *map =
      pipe_texture_map(ctx, ss, 0, 0, PIPE_MAP_READ, 0, 0, S, S, &xfer);
   CHECK(map, "%s: map failed", what);
   if (!map)
      return;
   unsigned bad = 0;
   for (unsigned y = 0; y < S; ++y) {
      for (unsigned x = 0; x < S; ++x) {
         const uint8_t *p = map + y * xfer->stride + x * 4;
         unsigned want[4] = { 0 };
         for (unsigned s = 0; s < 4; ++s) {
            if (sample >= 0 && s != (unsigned)sample)
               continue;
            uint8_t w[4];
            want_sample(c, mask, x, y, s, w);
            for (unsigned i = 0; i < 4; ++i)
               want[i] += w[i];
         }
         unsigned n = sample >= 0 ? 1 : 4;
         bool ok = true;
         for (unsigned i = 0; i < 4; ++i) {
            /* The resolve rounds the average its own way. */
            float w = (float)want[i] / n;
            ok &= fabsf(p[i] - w) <= (sample >= 0 ? 0.0f : 1.0f);
         }
         if (!ok && bad++ == 0)
            printf("%s: (%u, %u) is %u %u %u %u, want %.1f %.1f %.1f %.1f\n",
                   what, x, y, p[0], p[1], p[2], p[3], (float)want[0] / n,
                   (float)want[1] / n, (float)want[2] / n, (float)want[3] / n);
      }
   }
   pipe_texture_unmap(ctx, xfer);
   CHECK(bad == 0, "%s: %u of %u pixels wrong", what, bad, S * S);
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

static void
run_case(const struct blend_case *c, unsigned mask, void *colour_fs,
         void *opaque)
{
   char what[96];
   struct pipe_resource *ms =
      texture(4, PIPE_BIND_RENDER_TARGET | PIPE_BIND_SAMPLER_VIEW);
   struct pipe_resource *ss = texture(0, PIPE_BIND_RENDER_TARGET);
   CHECK(ms && ss, "%s: resource_create failed", c->name);
   if (!ms || !ss)
      goto out;
   struct pipe_surface templ = { .format = FMT };
   struct pipe_surface *msbuf = ctx->create_surface(ctx, ms, &templ);
   struct pipe_surface *ssbuf = ctx->create_surface(ctx, ss, &templ);

   /* Per-sample destinations. */
   set_target(msbuf, 4);
   ctx->bind_fs_state(ctx, colour_fs);
   ctx->bind_blend_state(ctx, opaque);
   union pipe_color_union clear = { .f = { unorm(c0[0]), unorm(c0[1]),
                                           unorm(c0[2]), unorm(c0[3]) } };
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &clear, 1.0, 0);
   ctx->set_sample_mask(ctx, 0x3);
   draw_corner(2 * S, d1);

   /* The blended draw. */
   struct pipe_blend_state bs = { .logicop_enable = c->logicop,
                                  .logicop_func = c->logicop_func };
   bs.rt[0] = c->rt;
   bs.rt[0].colormask = PIPE_MASK_RGBA;
   void *blend = ctx->create_blend_state(ctx, &bs);
   ctx->bind_blend_state(ctx, blend);
   ctx->set_sample_mask(ctx, mask);
   pan_test_debug_msg[0] = 0;
   draw_corner(S, src);
   snprintf(what, sizeof(what), "%s, mask 0x%x", c->name, mask);
   CHECK(!strstr(pan_test_debug_msg, "dropped"), "%s: %s", what,
         pan_test_debug_msg);
   ctx->flush(ctx, NULL, 0);
   ctx->set_sample_mask(ctx, 0xf);
   ctx->bind_blend_state(ctx, opaque);
   ctx->delete_blend_state(ctx, blend);

   /* Each sample, then the resolve. */
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
      draw_corner(2 * S, c0);
      ctx->flush(ctx, NULL, 0);
      char sw[128];
      snprintf(sw, sizeof(sw), "%s, sample %u", what, s);
      check_image(ss, c, mask, (int)s, sw);
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
   snprintf(what, sizeof(what), "%s, mask 0x%x, resolved", c->name, mask);
   check_image(ss, c, mask, -1, what);

   pipe_surface_reference(&msbuf, NULL);
   pipe_surface_reference(&ssbuf, NULL);
out:
   pipe_resource_reference(&ms, NULL);
   pipe_resource_reference(&ss, NULL);
}

int
main(void)
{
   if (!pan_test_open(&screen, &ctx))
      return 1;
   if (!screen->get_param(screen, PIPE_CAP_MAX_DUAL_SOURCE_RENDER_TARGETS)) {
      printf("no blend shaders on this GPU\n");
      return pan_test_close(screen, ctx);
   }

   struct pan_test_msaa_draw d;
   pan_test_msaa_draw_setup(screen, ctx, "blend-msaa", S, &d);
   void *fs = d.fs, *opaque = d.opaque;

   const struct blend_case cases[] = {
      { "XOR", .logicop = true, .logicop_func = PIPE_LOGICOP_XOR },
      { "MIN rgb, MAX alpha",
        .rt = { .blend_enable = 1,
                .rgb_func = PIPE_BLEND_MIN,
                .rgb_src_factor = PIPE_BLENDFACTOR_ONE,
                .rgb_dst_factor = PIPE_BLENDFACTOR_ONE,
                .alpha_func = PIPE_BLEND_MAX,
                .alpha_src_factor = PIPE_BLENDFACTOR_ONE,
                .alpha_dst_factor = PIPE_BLENDFACTOR_ONE } },
      { "alpha saturate + dst colour",
        .rt = { .blend_enable = 1,
                .rgb_func = PIPE_BLEND_ADD,
                .rgb_src_factor = PIPE_BLENDFACTOR_SRC_ALPHA_SATURATE,
                .rgb_dst_factor = PIPE_BLENDFACTOR_DST_COLOR,
                .alpha_func = PIPE_BLEND_ADD,
                .alpha_src_factor = PIPE_BLENDFACTOR_ONE,
                .alpha_dst_factor = PIPE_BLENDFACTOR_ZERO } },
   };
   /* Every sample, then without sample 0 (the blend shader's sample is
    * not always the first). */
   static const unsigned masks[] = { 0xf, 0xe };
   for (unsigned i = 0; i < ARRAY_SIZE(cases); ++i) {
      for (unsigned m = 0; m < ARRAY_SIZE(masks); ++m)
         run_case(&cases[i], masks[m], fs, opaque);
   }

   pan_test_msaa_draw_teardown(ctx, &d);
   return pan_test_close(screen, ctx);
}
