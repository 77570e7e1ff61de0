/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * 4x multisampling on the simulated GPU, pixel-checked after a resolve
 * (pipe_context::blit to a single-sampled resource): a triangle whose
 * long edge crosses pixels covers part of their samples, so those pixels
 * resolve to a blend of the triangle and the clear colour; the sample
 * mask limits what a draw writes; a depth-tested draw keeps its samples'
 * depths.  On GPUs without multisampling, the screen refuses 4x formats.
 *
 * The samples lie on the rotated 4x grid (3/8, 1/8), (7/8, 3/8),
 * (1/8, 5/8), (5/8, 7/8) of a pixel: the line x + y = 32 (window
 * pixels) crosses pixels with x + y = 31 between samples 0, 2 (inside)
 * and 1, 3 (outside).
 */

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
#include "util/format/u_format.h"
#include "util/u_inlines.h"

#include "pan_test_screen.h"

#define S 32
#define FMT PIPE_FORMAT_R8G8B8A8_UNORM
#define ZFMT PIPE_FORMAT_Z32_FLOAT

static struct pipe_screen *screen;
static struct pipe_context *ctx;
/* Colour resolves flip the image vertically (a blit the direct CPU
 * resolve refuses: it resolves into a copy first).
 */
static bool flip_resolve;
/* Colour resolves read a copy of the 4x resource (resource_copy_region,
 * every sample) instead.
 */
static bool copy_first;

static nir_variable *
var(nir_shader *s, nir_variable_mode mode, unsigned location,
    unsigned driver_location, const char *name)
{
   nir_variable *v = nir_variable_create(s, mode, glsl_vec4_type(), name);
   v->data.location = location;
   v->data.driver_location = driver_location;
   return v;
}

/* gl_Position = attribute 0, a flat colour = attribute 1. */
static void
bind_shaders(void **vs, void **fs)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_VERTEX, "msaa-vs");
   nir_store_var(&b,
                 var(b.shader, nir_var_shader_out, VARYING_SLOT_POS, 0, "pos"),
                 nir_load_var(&b, var(b.shader, nir_var_shader_in,
                                      VERT_ATTRIB_GENERIC0, 0, "p")),
                 0xf);
   nir_store_var(&b,
                 var(b.shader, nir_var_shader_out, VARYING_SLOT_VAR0, 1, "c"),
                 nir_load_var(&b, var(b.shader, nir_var_shader_in,
                                      VERT_ATTRIB_GENERIC1, 1, "col")),
                 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   *vs = ctx->create_vs_state(ctx, &cso);

   b = pan_test_shader(screen, MESA_SHADER_FRAGMENT, "msaa-fs");
   nir_variable *in =
      var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "c");
   in->data.interpolation = INTERP_MODE_FLAT;
   nir_store_var(&b,
                 var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "out"),
                 nir_load_var(&b, in), 0xf);
   cso.ir.nir = b.shader;
   *fs = ctx->create_fs_state(ctx, &cso);
   ctx->bind_vs_state(ctx, *vs);
   ctx->bind_fs_state(ctx, *fs);
}

static struct pipe_resource *
texture(enum pipe_format format, unsigned samples, unsigned bind)
{
   return pan_test_texture(screen, format, S, samples, bind);
}

/* The triangle (0, 0), (n, 0), (0, n) in window pixels at depth z, one
 * flat colour.
 */
static void
draw_corner(float n, float z, const float rgba[4])
{
   const float px[3][2] = { { 0, 0 }, { 0, n }, { n, 0 } };
   float data[3 * 8];
   for (unsigned i = 0; i < 3; ++i) {
      data[i * 8 + 0] = px[i][0] / (S / 2.0f) - 1.0f;
      data[i * 8 + 1] = px[i][1] / (S / 2.0f) - 1.0f;
      data[i * 8 + 2] = z;
      data[i * 8 + 3] = 1.0f;
      memcpy(&data[i * 8 + 4], rgba, 16);
   }
   struct pipe_resource *r = pan_test_draw_triangles(screen, ctx, data, 3);
   pipe_resource_reference(&r, NULL);
}

static void
resolve(struct pipe_resource *ms, struct pipe_resource *ss, unsigned mask)
{
   struct pipe_resource *copy = NULL;
   if (copy_first && mask == PIPE_MASK_RGBA) {
      struct pipe_box box;
      u_box_2d(0, 0, S, S, &box);
      copy = texture(FMT, 4, PIPE_BIND_RENDER_TARGET);
      CHECK(copy, "copy: resource_create failed");
      if (!copy)
         return;
      ctx->resource_copy_region(ctx, copy, 0, 0, 0, 0, ms, 0, &box);
      ms = copy;
   }
   struct pipe_blit_info info = {
      .dst = { .resource = ss, .format = ss->format },
      .src = { .resource = ms, .format = ms->format },
      .mask = mask,
      .filter = PIPE_TEX_FILTER_NEAREST,
   };
   u_box_2d(0, 0, S, S, &info.dst.box);
   u_box_2d(0, 0, S, S, &info.src.box);
   if (flip_resolve && mask == PIPE_MASK_RGBA)
      u_box_2d(0, S, S, -S, &info.src.box);
   ctx->blit(ctx, &info);
   pipe_resource_reference(&copy, NULL);
}

/* Expected red channel of pixel (x, y) when `inside` of its samples are
 * covered by a red triangle over a black clear.
 */
static unsigned
want_red(unsigned inside)
{
   return (255 * inside + 2) / 4;
}

/* Checks the red channel of the resolved colour: covered[] gives, for
 * pixels with x + y < 31, = 31 and > 31, how many samples are red.
 */
static void
check_colour(struct pipe_resource *ss, const unsigned covered[3],
             const char *what)
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
         unsigned sy = flip_resolve ? S - 1 - y : y;
         unsigned band = x + sy < 31 ? 0 : x + sy == 31 ? 1 : 2;
         unsigned r = want_red(covered[band]);
         if ((abs((int)p[0] - (int)r) > 1 || p[1] || p[2] || p[3] != 255) &&
             bad++ == 0)
            printf("%s: (%u, %u) is %u %u %u %u, want %u 0 0 255\n", what, x, y,
                   p[0], p[1], p[2], p[3], r);
      }
   }
   pipe_texture_unmap(ctx, xfer);
   CHECK(bad == 0, "%s: %u of %u pixels wrong", what, bad, S * S);
}

/* Clears a 4x colour target (and depth, when given) to black / 1.0,
 * draws the red corner triangle with the sample mask and depth z, and
 * resolves the colour.
 */
static void
draw_and_resolve(bool multisample, unsigned sample_mask, float z,
                 bool with_depth, bool two_passes, const unsigned covered[3],
                 const char *what)
{
   struct pipe_resource *ms = texture(FMT, 4, PIPE_BIND_RENDER_TARGET);
   struct pipe_resource *ss =
      texture(FMT, 0, PIPE_BIND_RENDER_TARGET | PIPE_BIND_SAMPLER_VIEW);
   struct pipe_resource *zms =
      with_depth ? texture(ZFMT, 4, PIPE_BIND_DEPTH_STENCIL) : NULL;
   CHECK(ms && ss && (!with_depth || zms), "%s: resource_create failed", what);
   if (!ms || !ss || (with_depth && !zms))
      goto out;

   struct pipe_surface templ = { .format = FMT };
   struct pipe_surface *cbuf = ctx->create_surface(ctx, ms, &templ);
   templ.format = ZFMT;
   struct pipe_surface *zbuf =
      zms ? ctx->create_surface(ctx, zms, &templ) : NULL;
   struct pipe_framebuffer_state fb = {
      .width = S,
      .height = S,
      .samples = 4,
      .nr_cbufs = 1,
      .cbufs = { cbuf },
      .zsbuf = zbuf,
   };
   ctx->set_framebuffer_state(ctx, &fb);

   struct pipe_rasterizer_state rs = {
      .half_pixel_center = 1,
      .depth_clip_near = 1,
      .depth_clip_far = 1,
      .multisample = multisample,
   };
   void *rast = ctx->create_rasterizer_state(ctx, &rs);
   ctx->bind_rasterizer_state(ctx, rast);
   struct pipe_depth_stencil_alpha_state zs = {
      .depth_enabled = with_depth,
      .depth_writemask = with_depth,
      .depth_func = PIPE_FUNC_LESS,
   };
   void *zsa = ctx->create_depth_stencil_alpha_state(ctx, &zs);
   ctx->bind_depth_stencil_alpha_state(ctx, zsa);
   ctx->set_sample_mask(ctx, sample_mask);

   union pipe_color_union black = { .f = { 0, 0, 0, 1 } };
   ctx->clear(ctx, PIPE_CLEAR_COLOR0 | (with_depth ? PIPE_CLEAR_DEPTH : 0),
              NULL, &black, 1.0, 0);
   static const float red[4] = { 1, 0, 0, 1 };
   static const float blue[4] = { 0, 0, 1, 1 };
   draw_corner(S, z, red);
   /* A blue triangle over the whole target but behind the red one: it
    * shows in the samples red left.
    */
   /* A second pass loads the samples (colour and depth) back. */
   if (two_passes)
      ctx->flush(ctx, NULL, 0);
   if (with_depth)
      draw_corner(2 * S, 0.5f, blue);
   ctx->flush(ctx, NULL, 0);
   resolve(ms, ss, PIPE_MASK_RGBA);
   if (!with_depth) {
      check_colour(ss, covered, what);
   } else {
      /* Each sample is red or blue, none black. */
      struct pipe_transfer *xfer;
      const uint8_t *map =
         pipe_texture_map(ctx, ss, 0, 0, PIPE_MAP_READ, 0, 0, S, S, &xfer);
      CHECK(map, "%s: map failed", what);
      unsigned bad = 0;
      for (unsigned y = 0; map && y < S; ++y) {
         for (unsigned x = 0; x < S; ++x) {
            const uint8_t *p = map + y * xfer->stride + x * 4;
            unsigned band = x + y < 31 ? 0 : x + y == 31 ? 1 : 2;
            unsigned r = want_red(covered[band]);
            unsigned b = 255 - r;
            if ((abs((int)p[0] - (int)r) > 1 || abs((int)p[2] - (int)b) > 1 ||
                 p[1]) &&
                bad++ == 0)
               printf("%s: (%u, %u) is %u %u %u, want %u 0 %u\n", what, x, y,
                      p[0], p[1], p[2], r, b);
         }
      }
      if (map)
         pipe_texture_unmap(ctx, xfer);
      CHECK(bad == 0, "%s: %u of %u pixels wrong", what, bad, S * S);
   }

   struct pipe_framebuffer_state none = { 0 };
   ctx->set_framebuffer_state(ctx, &none);
   ctx->delete_rasterizer_state(ctx, rast);
   ctx->delete_depth_stencil_alpha_state(ctx, zsa);
   pipe_surface_reference(&cbuf, NULL);
   pipe_surface_reference(&zbuf, NULL);
out:
   pipe_resource_reference(&ms, NULL);
   pipe_resource_reference(&ss, NULL);
   pipe_resource_reference(&zms, NULL);
}

static void *
fetch_fs(bool uniform, unsigned sample)
{
   return pan_test_fetch_sample_fs(screen, ctx, uniform, sample);
}

/* The red corner drawn 4x, then each sample read back with texelFetch
 * into a single-sampled target: on the edge samples 0 and 2 are red, 1
 * and 3 the black clear.
 */
static void
test_fetch(void *colour_fs)
{
   struct pipe_resource *ms =
      texture(FMT, 4, PIPE_BIND_RENDER_TARGET | PIPE_BIND_SAMPLER_VIEW);
   struct pipe_resource *ss = texture(FMT, 0, PIPE_BIND_RENDER_TARGET);
   CHECK(ms && ss, "texelFetch: resource_create failed");
   if (!ms || !ss)
      goto out;

   struct pipe_surface templ = { .format = FMT };
   struct pipe_surface *msbuf = ctx->create_surface(ctx, ms, &templ);
   struct pipe_surface *ssbuf = ctx->create_surface(ctx, ss, &templ);
   struct pipe_framebuffer_state fb = {
      .width = S,
      .height = S,
      .samples = 4,
      .nr_cbufs = 1,
      .cbufs = { msbuf },
   };
   ctx->set_framebuffer_state(ctx, &fb);
   struct pipe_rasterizer_state rs = {
      .half_pixel_center = 1,
      .depth_clip_near = 1,
      .depth_clip_far = 1,
      .multisample = 1,
   };
   void *rast = ctx->create_rasterizer_state(ctx, &rs);
   ctx->bind_rasterizer_state(ctx, rast);
   struct pipe_depth_stencil_alpha_state zs = { 0 };
   void *zsa = ctx->create_depth_stencil_alpha_state(ctx, &zs);
   ctx->bind_depth_stencil_alpha_state(ctx, zsa);
   /* No set_sample_mask: a new context writes every sample (frontends
    * only set masks other than all ones).
    */
   union pipe_color_union black = { .f = { 0, 0, 0, 1 } };
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &black, 1.0, 0);
   static const float red[4] = { 1, 0, 0, 1 };
   ctx->bind_fs_state(ctx, colour_fs);
   draw_corner(S, 0.0f, red);

   struct pipe_sampler_view vt = {
      .format = FMT,
      .target = PIPE_TEXTURE_2D,
      PAN_TEST_IDENTITY_SWIZZLE,
   };
   struct pipe_sampler_view *view = ctx->create_sampler_view(ctx, ms, &vt);
   struct pipe_sampler_state ss_state = {
      .min_img_filter = PIPE_TEX_FILTER_NEAREST,
      .mag_img_filter = PIPE_TEX_FILTER_NEAREST,
   };
   void *sampler = ctx->create_sampler_state(ctx, &ss_state);
   fb.samples = 1;
   fb.cbufs[0] = ssbuf;
   for (unsigned i = 0; i < 8; ++i) {
      unsigned sample = i % 4;
      bool uniform = i >= 4;
      char what[64];
      snprintf(what, sizeof(what), "texelFetch of sample %u%s", sample,
               uniform ? " (uniform)" : "");
      uint32_t word[4] = { sample };
      struct pipe_constant_buffer cb = { .user_buffer = word,
                                         .buffer_size = 16 };
      ctx->set_constant_buffer(ctx, PIPE_SHADER_FRAGMENT, 0, false, &cb);
      void *fs = fetch_fs(uniform, sample);
      ctx->set_framebuffer_state(ctx, &fb);
      ctx->bind_fs_state(ctx, fs);
      ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 1, 0, false, &view);
      ctx->bind_sampler_states(ctx, PIPE_SHADER_FRAGMENT, 0, 1, &sampler);
      ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &black, 1.0, 0);
      draw_corner(2 * S, 0.0f, red);
      ctx->flush(ctx, NULL, 0);
      check_colour(ss, (const unsigned[]){ 4, sample % 2 ? 0 : 4, 0 }, what);
      ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 0, 1, false, NULL);
      ctx->bind_fs_state(ctx, colour_fs);
      ctx->delete_fs_state(ctx, fs);
   }

   struct pipe_framebuffer_state none = { 0 };
   ctx->set_framebuffer_state(ctx, &none);
   ctx->delete_sampler_state(ctx, sampler);
   pipe_sampler_view_reference(&view, NULL);
   ctx->delete_rasterizer_state(ctx, rast);
   ctx->delete_depth_stencil_alpha_state(ctx, zsa);
   pipe_surface_reference(&msbuf, NULL);
   pipe_surface_reference(&ssbuf, NULL);
out:
   pipe_resource_reference(&ms, NULL);
   pipe_resource_reference(&ss, NULL);
}

/* A depth resolve copies sample 0 of each pixel. */
static void
test_depth_resolve(void)
{
   struct pipe_resource *zms = texture(ZFMT, 4, PIPE_BIND_DEPTH_STENCIL);
   struct pipe_resource *zss =
      texture(ZFMT, 0, PIPE_BIND_DEPTH_STENCIL | PIPE_BIND_SAMPLER_VIEW);
   CHECK(zms && zss, "depth resolve: resource_create failed");
   if (!zms || !zss)
      goto out;
   struct pipe_surface templ = { .format = ZFMT };
   struct pipe_surface *zbuf = ctx->create_surface(ctx, zms, &templ);
   struct pipe_framebuffer_state fb = {
      .width = S,
      .height = S,
      .samples = 4,
      .zsbuf = zbuf,
   };
   ctx->set_framebuffer_state(ctx, &fb);
   ctx->clear(ctx, PIPE_CLEAR_DEPTH, NULL, NULL, 0.375, 0);
   ctx->flush(ctx, NULL, 0);
   resolve(zms, zss, PIPE_MASK_Z);

   struct pipe_transfer *xfer;
   const float *map =
      pipe_texture_map(ctx, zss, 0, 0, PIPE_MAP_READ, 0, 0, S, S, &xfer);
   CHECK(map, "depth resolve: map failed");
   unsigned bad = 0;
   for (unsigned y = 0; map && y < S; ++y)
      for (unsigned x = 0; x < S; ++x)
         bad += map[y * xfer->stride / 4 + x] != 0.375f;
   if (map)
      pipe_texture_unmap(ctx, xfer);
   CHECK(bad == 0, "depth resolve: %u of %u pixels wrong", bad, S * S);

   struct pipe_framebuffer_state none = { 0 };
   ctx->set_framebuffer_state(ctx, &none);
   pipe_surface_reference(&zbuf, NULL);
out:
   pipe_resource_reference(&zms, NULL);
   pipe_resource_reference(&zss, NULL);
}

int
main(int argc, char **argv)
{
   if (!pan_test_open(&screen, &ctx))
      return 1;

   bool msaa = screen->is_format_supported(screen, FMT, PIPE_TEXTURE_2D, 4, 4,
                                           PIPE_BIND_RENDER_TARGET);
   CHECK(!screen->is_format_supported(screen, FMT, PIPE_TEXTURE_2D, 2, 2,
                                      PIPE_BIND_RENDER_TARGET),
         "2x offered");
   CHECK(!screen->is_format_supported(screen, FMT, PIPE_TEXTURE_3D, 4, 4,
                                      PIPE_BIND_RENDER_TARGET),
         "4x 3D offered");
   if (argc > 1 && !strcmp(argv[1], "--none")) {
      CHECK(!msaa, "4x offered on a GPU without multisampling");
      return pan_test_close(screen, ctx);
   }
   CHECK(msaa, "4x RGBA8 render targets not offered");
   CHECK(screen->is_format_supported(screen, FMT, PIPE_TEXTURE_2D, 4, 4,
                                     PIPE_BIND_SAMPLER_VIEW),
         "4x textures not offered");
   CHECK(screen->is_format_supported(screen, ZFMT, PIPE_TEXTURE_2D, 4, 4,
                                     PIPE_BIND_DEPTH_STENCIL),
         "4x Z32F depth buffers not offered");

   void *vs, *fs;
   bind_shaders(&vs, &fs);
   struct pipe_vertex_element ve[2] = {
      { .src_offset = 0, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
      { .src_offset = 16, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
   };
   void *ves = ctx->create_vertex_elements_state(ctx, 2, ve);
   ctx->bind_vertex_elements_state(ctx, ves);
   struct pipe_viewport_state vp = {
      .scale = { S / 2.0f, S / 2.0f, 0.5f },
      .translate = { S / 2.0f, S / 2.0f, 0.5f },
   };
   ctx->set_viewport_states(ctx, 0, 1, &vp);
   struct pipe_blend_state bs = { .rt[0].colormask = PIPE_MASK_RGBA };
   void *blend = ctx->create_blend_state(ctx, &bs);
   ctx->bind_blend_state(ctx, blend);

   test_fetch(fs);
   /* Samples covered inside, on and past the edge. */
   draw_and_resolve(true, ~0u, 0.0f, false, false,
                    (const unsigned[]){ 4, 2, 0 }, "4x edge");
   /* Sample 0 only: a quarter inside, and on the edge (sample 0 lies
    * inside).
    */
   draw_and_resolve(true, 0x1, 0.0f, false, false,
                    (const unsigned[]){ 1, 1, 0 }, "4x sample mask 0x1");
   /* Samples 1 and 3 only: none on the edge. */
   draw_and_resolve(true, 0xa, 0.0f, false, false,
                    (const unsigned[]){ 2, 0, 0 }, "4x sample mask 0xa");
   flip_resolve = true;
   draw_and_resolve(true, ~0u, 0.0f, false, false,
                    (const unsigned[]){ 4, 2, 0 }, "4x edge, flipped resolve");
   flip_resolve = false;
   copy_first = true;
   draw_and_resolve(true, ~0u, 0.0f, false, false,
                    (const unsigned[]){ 4, 2, 0 }, "4x edge, copied first");
   copy_first = false;
   /* Without the rasterizer's multisample the pixel centre decides for
    * all samples: the centres of the edge pixels lie on the edge, which
    * the tie-break rule leaves out.
    */
   draw_and_resolve(false, ~0u, 0.0f, false, false,
                    (const unsigned[]){ 4, 0, 0 }, "4x, multisample off");
   /* The same over two passes: the second preloads every sample. */
   draw_and_resolve(true, ~0u, -0.5f, true, true, (const unsigned[]){ 4, 2, 0 },
                    "4x depth, two passes");
   /* Depth per sample: the blue triangle behind fills what red left. */
   draw_and_resolve(true, ~0u, -0.5f, true, false,
                    (const unsigned[]){ 4, 2, 0 }, "4x depth");
   test_depth_resolve();

   ctx->bind_vs_state(ctx, NULL);
   ctx->bind_fs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, vs);
   ctx->delete_fs_state(ctx, fs);
   ctx->delete_vertex_elements_state(ctx, ves);
   ctx->bind_blend_state(ctx, NULL);
   ctx->delete_blend_state(ctx, blend);
   return pan_test_close(screen, ctx);
}
