/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Fixed-function state of desktop GL 3.2 and 3.3 on the simulated GPU,
 * pixel-checked: depth clipping turned off at either end (the depth is
 * then clamped to the viewport's depth range, read back from the depth
 * buffer), also with a reversed depth range; vertex colours in the BGRA
 * and 2:10:10:10 formats (EXT_vertex_array_bgra,
 * ARB_vertex_type_2_10_10_10_rev); linear filtering of a cube map across
 * a face edge and at a cube corner, seamless or not
 * (ARB_seamless_cube_map); flat quads taking the first or the last
 * vertex's colour (PIPE_CAP_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION);
 * R10G10B10A2_UINT render targets (with a
 * colour mask) and texel fetches (ARB_texture_rgb10_a2ui).
 */

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "pipe/p_context.h"
#include "pipe/p_defines.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"
#include "util/format/u_format.h"
#include "util/u_inlines.h"

#include "pan_test_screen.h"

#define SIZE 16

static struct pipe_screen *screen;
static struct pipe_context *ctx;

/* A SIZE x SIZE RGBA8 target and a Z32F depth buffer, bound. */
struct frame {
   struct pipe_resource *color, *depth;
   struct pipe_surface *csurf, *zsurf;
};

static struct frame
frame_begin(void)
{
   struct frame f = { 0 };
   f.csurf = pan_test_bind_target(screen, ctx, SIZE, SIZE, &f.color);
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = PIPE_FORMAT_Z32_FLOAT,
      .width0 = SIZE,
      .height0 = SIZE,
      .depth0 = 1,
      .array_size = 1,
      .bind = PIPE_BIND_DEPTH_STENCIL,
   };
   f.depth = screen->resource_create(screen, &templ);
   if (f.depth) {
      struct pipe_surface st = { .format = templ.format };
      f.zsurf = ctx->create_surface(ctx, f.depth, &st);
   }
   struct pipe_framebuffer_state fb = {
      .width = SIZE,
      .height = SIZE,
      .nr_cbufs = 1,
      .cbufs = { f.csurf },
      .zsbuf = f.zsurf,
   };
   ctx->set_framebuffer_state(ctx, &fb);
   return f;
}

static void
frame_end(struct frame *f)
{
   struct pipe_framebuffer_state fb = { 0 };
   ctx->set_framebuffer_state(ctx, &fb);
   pipe_surface_reference(&f->csurf, NULL);
   pipe_surface_reference(&f->zsurf, NULL);
   pipe_resource_reference(&f->color, NULL);
   pipe_resource_reference(&f->depth, NULL);
}

/* Pixel (x, y) of the colour target and of the depth buffer. */
static void
read_pixel(struct frame *f, unsigned x, unsigned y, uint8_t rgba[4], float *z)
{
   struct pipe_transfer *xfer;
   const uint8_t *map =
      pipe_texture_map(ctx, f->color, 0, 0, PIPE_MAP_READ, x, y, 1, 1, &xfer);
   CHECK(map, "colour map failed");
   memset(rgba, 0, 4);
   if (map) {
      memcpy(rgba, map, 4);
      pipe_texture_unmap(ctx, xfer);
   }
   *z = NAN;
   if (!f->depth)
      return;
   map =
      pipe_texture_map(ctx, f->depth, 0, 0, PIPE_MAP_READ, x, y, 1, 1, &xfer);
   CHECK(map, "depth map failed");
   if (map) {
      memcpy(z, map, 4);
      pipe_texture_unmap(ctx, xfer);
   }
}

/* Replace blending, depth always passing and written, no culling. */
static void
bind_common_state(void **cso)
{
   struct pipe_blend_state blend = { .rt[0].colormask = PIPE_MASK_RGBA };
   struct pipe_depth_stencil_alpha_state zsa = {
      .depth_enabled = 1,
      .depth_writemask = 1,
      .depth_func = PIPE_FUNC_ALWAYS,
   };
   cso[0] = ctx->create_blend_state(ctx, &blend);
   cso[1] = ctx->create_depth_stencil_alpha_state(ctx, &zsa);
   ctx->bind_blend_state(ctx, cso[0]);
   ctx->bind_depth_stencil_alpha_state(ctx, cso[1]);
   ctx->set_sample_mask(ctx, ~0u);
}

static void
unbind_common_state(void **cso)
{
   ctx->delete_blend_state(ctx, cso[0]);
   ctx->delete_depth_stencil_alpha_state(ctx, cso[1]);
}

/* The viewport over the whole frame with window depth z_ndc * zs + zt. */
static void
set_viewport(float zs, float zt)
{
   struct pipe_viewport_state vp = {
      .scale = { SIZE / 2.0f, SIZE / 2.0f, zs },
      .translate = { SIZE / 2.0f, SIZE / 2.0f, zt },
   };
   ctx->set_viewport_states(ctx, 0, 1, &vp);
}

/* ------------------------------------------------------------------ */
/* Depth clipping and clamping (ARB_depth_clamp)                       */
/* ------------------------------------------------------------------ */

struct clamp_case {
   const char *what;
   bool clip_near, clip_far;
   float zs, zt; /* viewport depth scale and translate */
   float z_ndc;  /* of the whole quad */
   bool drawn;
   float depth; /* written when drawn */
};

static const struct clamp_case clamp_cases[] = {
   { "inside, clipped", true, true, 0.25f, 0.5f, 0.5f, true, 0.625f },
   { "beyond far, clipped", true, true, 0.25f, 0.5f, 1.5f, false, 0 },
   { "beyond far, far clamped", true, false, 0.25f, 0.5f, 1.5f, true, 0.75f },
   { "beyond far, near clamped", false, true, 0.25f, 0.5f, 1.5f, false, 0 },
   { "before near, near clamped", false, true, 0.25f, 0.5f, -1.5f, true,
     0.25f },
   { "before near, far clamped", true, false, 0.25f, 0.5f, -1.5f, false, 0 },
   { "inside, all clamped", false, false, 0.25f, 0.5f, -0.5f, true, 0.375f },
   /* Reversed range: the near plane lands on the larger depth. */
   { "reversed, before near, near clamped", false, true, -0.25f, 0.5f, -1.5f,
     true, 0.75f },
   { "reversed, before near, far clamped", true, false, -0.25f, 0.5f, -1.5f,
     false, 0 },
   { "reversed, beyond far, far clamped", true, false, -0.25f, 0.5f, 1.5f, true,
     0.25f },
};

static const float quad_pos[6][4] = {
   { -1, -1, 0, 1 }, { 1, -1, 0, 1 }, { -1, 1, 0, 1 },
   { -1, 1, 0, 1 },  { 1, -1, 0, 1 }, { 1, 1, 0, 1 },
};

static void
test_depth_clamp(void)
{
   void *common[2];
   bind_common_state(common);
   struct pipe_vertex_element ve[2] = {
      { .src_offset = 0, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
      { .src_offset = 16, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
   };
   void *velems = ctx->create_vertex_elements_state(ctx, 2, ve);
   ctx->bind_vertex_elements_state(ctx, velems);
   void *vs = pan_test_pass_through_vs(screen, ctx, "fixed-vs"),
        *fs = pan_test_colour_fs(screen, ctx, "fixed-fs", false);
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);

   for (unsigned i = 0; i < ARRAY_SIZE(clamp_cases); ++i) {
      const struct clamp_case *c = &clamp_cases[i];
      struct frame f = frame_begin();
      struct pipe_rasterizer_state rs = {
         .half_pixel_center = 1,
         .depth_clip_near = c->clip_near,
         .depth_clip_far = c->clip_far,
         .depth_clamp = !c->clip_near || !c->clip_far,
         .cull_face = PIPE_FACE_NONE,
      };
      void *rast = ctx->create_rasterizer_state(ctx, &rs);
      ctx->bind_rasterizer_state(ctx, rast);
      set_viewport(c->zs, c->zt);

      float data[6][8];
      for (unsigned v = 0; v < 6; ++v) {
         memcpy(data[v], quad_pos[v], 16);
         data[v][2] = c->z_ndc;
         static const float green[4] = { 0, 1, 0, 1 };
         memcpy(&data[v][4], green, 16);
      }
      union pipe_color_union black = { .f = { 0, 0, 0, 1 } };
      ctx->clear(ctx, PIPE_CLEAR_COLOR0 | PIPE_CLEAR_DEPTH, NULL, &black, 0.5,
                 0);
      struct pipe_resource *vb =
         pan_test_draw_triangles(screen, ctx, &data[0][0], 6);
      ctx->flush(ctx, NULL, 0);

      uint8_t rgba[4];
      float z;
      read_pixel(&f, SIZE / 2, SIZE / 2, rgba, &z);
      bool drawn = rgba[1] == 255;
      CHECK(drawn == c->drawn, "depth clamp, %s: %s, want %s", c->what,
            drawn ? "drawn" : "not drawn", c->drawn ? "drawn" : "not drawn");
      float want = c->drawn ? c->depth : 0.5f;
      CHECK(fabsf(z - want) < 1e-6f, "depth clamp, %s: depth %f, want %f",
            c->what, z, want);
      pipe_resource_reference(&vb, NULL);
      ctx->bind_rasterizer_state(ctx, NULL);
      ctx->delete_rasterizer_state(ctx, rast);
      frame_end(&f);
   }
   ctx->bind_vs_state(ctx, NULL);
   ctx->bind_fs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, vs);
   ctx->delete_fs_state(ctx, fs);
   ctx->bind_vertex_elements_state(ctx, NULL);
   ctx->delete_vertex_elements_state(ctx, velems);
   unbind_common_state(common);
}

/* ------------------------------------------------------------------ */
/* Vertex formats (BGRA, 2:10:10:10)                                   */
/* ------------------------------------------------------------------ */

/* A 10:10:10:2 word, component 0 in the low bits. */
static uint32_t
word_1010102(int c0, int c1, int c2, int c3)
{
   return (c0 & 0x3ff) | (c1 & 0x3ff) << 10 | (c2 & 0x3ff) << 20 |
          (uint32_t)(c3 & 3) << 30;
}

struct vformat_case {
   enum pipe_format format;
   uint32_t word;   /* the vertex colour as stored */
   uint8_t want[4]; /* the pixel it draws (RGBA8, clamped) */
};

static void
test_vertex_formats(void)
{
   const struct vformat_case cases[] = {
      /* Bytes B, G, R, A in memory. */
      { PIPE_FORMAT_B8G8R8A8_UNORM, 0xff40a0e0u, { 0x40, 0xa0, 0xe0, 0xff } },
      { PIPE_FORMAT_R8G8B8A8_UNORM, 0xff40a0e0u, { 0xe0, 0xa0, 0x40, 0xff } },
      { PIPE_FORMAT_R10G10B10A2_UNORM,
        word_1010102(1023, 0, 512, 3),
        { 255, 0, 128, 255 } },
      { PIPE_FORMAT_B10G10R10A2_UNORM,
        word_1010102(1023, 0, 512, 1),
        { 128, 0, 255, 85 } },
      /* -511 is -1 (clamped to 0 in the target), 256/511 about 0.5. */
      { PIPE_FORMAT_R10G10B10A2_SNORM,
        word_1010102(511, -511, 256, 1),
        { 255, 0, 128, 255 } },
      { PIPE_FORMAT_B10G10R10A2_SNORM,
        word_1010102(256, -512, 511, -1),
        { 255, 0, 128, 0 } },
      /* Scaled: integers read as floats (1.0, or clamped). */
      { PIPE_FORMAT_R10G10B10A2_USCALED,
        word_1010102(1, 0, 1000, 0),
        { 255, 0, 255, 0 } },
      { PIPE_FORMAT_B10G10R10A2_USCALED,
        word_1010102(0, 1, 0, 2),
        { 0, 255, 0, 255 } },
      /* -1 must read as -1 (0 here), not 1023. */
      { PIPE_FORMAT_R10G10B10A2_SSCALED,
        word_1010102(-1, 1, -512, 1),
        { 0, 255, 0, 255 } },
      { PIPE_FORMAT_B10G10R10A2_SSCALED,
        word_1010102(1, -1, 0, -1),
        { 0, 0, 255, 0 } },
   };
   void *common[2];
   bind_common_state(common);
   void *vs = pan_test_pass_through_vs(screen, ctx, "fixed-vs"),
        *fs = pan_test_colour_fs(screen, ctx, "fixed-fs", false);
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);
   struct pipe_rasterizer_state rs = {
      .half_pixel_center = 1,
      .depth_clip_near = 1,
      .depth_clip_far = 1,
      .cull_face = PIPE_FACE_NONE,
   };
   void *rast = ctx->create_rasterizer_state(ctx, &rs);
   ctx->bind_rasterizer_state(ctx, rast);
   set_viewport(0.5f, 0.5f);

   for (unsigned i = 0; i < ARRAY_SIZE(cases); ++i) {
      const struct vformat_case *c = &cases[i];
      const char *name = util_format_short_name(c->format);
      CHECK(screen->is_format_supported(screen, c->format, PIPE_BUFFER, 0, 0,
                                        PIPE_BIND_VERTEX_BUFFER),
            "vertex format %s: not supported", name);
      struct pipe_vertex_element ve[2] = {
         { .src_offset = 0, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
         { .src_offset = 16, .src_format = c->format },
      };
      void *velems = ctx->create_vertex_elements_state(ctx, 2, ve);
      ctx->bind_vertex_elements_state(ctx, velems);
      struct frame f = frame_begin();
      float data[6][8] = { 0 };
      for (unsigned v = 0; v < 6; ++v) {
         memcpy(data[v], quad_pos[v], 16);
         memcpy(&data[v][4], &c->word, 4);
      }
      union pipe_color_union grey = { .f = { 0.2f, 0.2f, 0.2f, 0.2f } };
      ctx->clear(ctx, PIPE_CLEAR_COLOR0 | PIPE_CLEAR_DEPTH, NULL, &grey, 0.5,
                 0);
      pan_test_debug_msg[0] = 0;
      struct pipe_resource *vb =
         pan_test_draw_triangles(screen, ctx, &data[0][0], 6);
      ctx->flush(ctx, NULL, 0);
      uint8_t rgba[4];
      float z;
      read_pixel(&f, 3, SIZE - 2, rgba, &z);
      bool ok = true;
      for (unsigned k = 0; k < 4; ++k)
         ok &= abs((int)rgba[k] - (int)c->want[k]) <= 1;
      CHECK(ok, "vertex format %s: pixel %u %u %u %u, want %u %u %u %u (%s)",
            name, rgba[0], rgba[1], rgba[2], rgba[3], c->want[0], c->want[1],
            c->want[2], c->want[3], pan_test_debug_msg);
      pipe_resource_reference(&vb, NULL);
      frame_end(&f);
      ctx->bind_vertex_elements_state(ctx, NULL);
      ctx->delete_vertex_elements_state(ctx, velems);
   }
   ctx->bind_rasterizer_state(ctx, NULL);
   ctx->delete_rasterizer_state(ctx, rast);
   ctx->bind_vs_state(ctx, NULL);
   ctx->bind_fs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, vs);
   ctx->delete_fs_state(ctx, fs);
   unbind_common_state(common);
}

/* ------------------------------------------------------------------ */
/* Seamless cube maps                                                  */
/* ------------------------------------------------------------------ */

/* Every texel of face f (GL order +X, -X, +Y, -Y, +Z, -Z). */
static const uint8_t face_rgba[6][4] = {
   { 255, 0, 0, 255 },   { 0, 255, 0, 255 }, { 0, 0, 0, 255 },
   { 255, 255, 0, 255 }, { 0, 0, 255, 255 }, { 255, 0, 255, 255 },
};

/* DATA0 = the cube map of unit 0 in direction VAR0.xyz. */
static void *
cube_fs(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_FRAGMENT, "cube-fs");
   nir_variable *out = pan_test_io_var(b.shader, nir_var_shader_out,
                                       FRAG_RESULT_DATA0, 0, "colour");
   nir_variable *in =
      pan_test_io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
   in->data.interpolation = INTERP_MODE_SMOOTH;
   nir_tex_instr *tex = nir_tex_instr_create(b.shader, 1);
   tex->op = nir_texop_tex;
   tex->sampler_dim = GLSL_SAMPLER_DIM_CUBE;
   tex->dest_type = nir_type_float32;
   tex->coord_components = 3;
   tex->src[0].src_type = nir_tex_src_coord;
   tex->src[0].src = nir_src_for_ssa(nir_channels(&b, nir_load_var(&b, in), 7));
   nir_ssa_dest_init(&tex->instr, &tex->dest, 4, 32, NULL);
   nir_builder_instr_insert(&b, &tex->instr);
   BITSET_SET(b.shader->info.textures_used, 0);
   BITSET_SET(b.shader->info.samplers_used, 0);
   nir_store_var(&b, out, &tex->dest.ssa, 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

/* A 2x2 cube map of face_rgba, with a view. */
static struct pipe_sampler_view *
make_cube(struct pipe_resource **tex)
{
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_CUBE,
      .format = PIPE_FORMAT_R8G8B8A8_UNORM,
      .width0 = 2,
      .height0 = 2,
      .depth0 = 1,
      .array_size = 6,
      .bind = PIPE_BIND_SAMPLER_VIEW,
   };
   *tex = screen->resource_create(screen, &templ);
   if (!*tex)
      return NULL;
   for (unsigned f = 0; f < 6; ++f) {
      uint8_t data[4][4];
      for (unsigned i = 0; i < 4; ++i)
         memcpy(data[i], face_rgba[f], 4);
      struct pipe_box box = { .z = f, .width = 2, .height = 2, .depth = 1 };
      ctx->texture_subdata(ctx, *tex, 0, PIPE_MAP_WRITE, &box, data, 8, 16);
   }
   struct pipe_sampler_view vt = {
      .format = templ.format,
      .target = PIPE_TEXTURE_CUBE,
      .u.tex = { .first_layer = 0, .last_layer = 5 },
      PAN_TEST_IDENTITY_SWIZZLE,
   };
   return ctx->create_sampler_view(ctx, *tex, &vt);
}

/* The mean of weights w[k] of the colours of faces f[k], channel c. */
static unsigned
mix(const unsigned f[4], const double w[4], unsigned c)
{
   double v = 0;
   for (unsigned k = 0; k < 4; ++k)
      v += w[k] * face_rgba[f[k]][c];
   return (unsigned)(v + 0.5);
}

static void
test_seamless_cube(void)
{
   /* On +X (s = (1 - 0.99) / 2): the footprint's left column (weight
    * 0.49) lies on +Z; with t = 0.005 too, its top row on +Y and the
    * corner texel is the mean of the other three.
    */
   const float edge_dir[4] = { 1.0f, 0.0f, 0.99f, 1.0f };
   const float corner_dir[4] = { 1.0f, 0.99f, 0.99f, 1.0f };
   const double edge_w[4] = { 0.49 * 0.5, 0.51 * 0.5, 0.49 * 0.5, 0.51 * 0.5 };
   const unsigned edge_f[4] = { 4, 0, 4, 0 };
   /* Corner: (-1, -1) is the mean of +X (0, 0), +Z and +Y. */
   const double wc = 0.49 * 0.49;
   const double corner_w[4] = { 0.49 * 0.51 + wc / 3, 0.51 * 0.51 + wc / 3,
                                0.49 * 0.51 + wc / 3, 0.0 };
   const unsigned corner_f[4] = { 2, 0, 4, 0 };

   struct {
      const char *what;
      const float *dir;
      bool seamless;
      const unsigned *f;
      const double *w;
   } cases[] = {
      { "edge, seamless", edge_dir, true, edge_f, edge_w },
      { "edge, faces apart", edge_dir, false, NULL, NULL },
      { "corner, seamless", corner_dir, true, corner_f, corner_w },
      { "corner, faces apart", corner_dir, false, NULL, NULL },
   };

   struct pipe_resource *tex;
   struct pipe_sampler_view *view = make_cube(&tex);
   CHECK(view, "cube map creation failed");
   if (!view)
      return;
   void *common[2];
   bind_common_state(common);
   void *vs = pan_test_pass_through_vs(screen, ctx, "fixed-vs"),
        *fs = cube_fs();
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);
   struct pipe_rasterizer_state rs = {
      .half_pixel_center = 1,
      .depth_clip_near = 1,
      .depth_clip_far = 1,
      .cull_face = PIPE_FACE_NONE,
   };
   void *rast = ctx->create_rasterizer_state(ctx, &rs);
   ctx->bind_rasterizer_state(ctx, rast);
   struct pipe_vertex_element ve[2] = {
      { .src_offset = 0, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
      { .src_offset = 16, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
   };
   void *velems = ctx->create_vertex_elements_state(ctx, 2, ve);
   ctx->bind_vertex_elements_state(ctx, velems);
   set_viewport(0.5f, 0.5f);
   ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 1, 0, false, &view);

   for (unsigned i = 0; i < ARRAY_SIZE(cases); ++i) {
      /* Clamped to the edge when the faces are apart (GL's rule for
       * cube maps without seamless filtering). */
      struct pipe_sampler_state st = {
         .wrap_s = PIPE_TEX_WRAP_CLAMP_TO_EDGE,
         .wrap_t = PIPE_TEX_WRAP_CLAMP_TO_EDGE,
         .wrap_r = PIPE_TEX_WRAP_CLAMP_TO_EDGE,
         .min_img_filter = PIPE_TEX_FILTER_LINEAR,
         .mag_img_filter = PIPE_TEX_FILTER_LINEAR,
         .min_mip_filter = PIPE_TEX_MIPFILTER_NONE,
         .seamless_cube_map = cases[i].seamless,
      };
      void *smp = ctx->create_sampler_state(ctx, &st);
      ctx->bind_sampler_states(ctx, PIPE_SHADER_FRAGMENT, 0, 1, &smp);
      struct frame f = frame_begin();
      float data[6][8];
      for (unsigned v = 0; v < 6; ++v) {
         memcpy(data[v], quad_pos[v], 16);
         memcpy(&data[v][4], cases[i].dir, 16);
      }
      union pipe_color_union black = { .f = { 0, 0, 0, 0 } };
      ctx->clear(ctx, PIPE_CLEAR_COLOR0 | PIPE_CLEAR_DEPTH, NULL, &black, 0.5,
                 0);
      struct pipe_resource *vb =
         pan_test_draw_triangles(screen, ctx, &data[0][0], 6);
      ctx->flush(ctx, NULL, 0);
      uint8_t rgba[4];
      float z;
      read_pixel(&f, SIZE / 2, SIZE / 2, rgba, &z);
      bool ok = true;
      unsigned want[4];
      for (unsigned c = 0; c < 4; ++c) {
         want[c] =
            cases[i].f ? mix(cases[i].f, cases[i].w, c) : face_rgba[0][c];
         ok &= abs((int)rgba[c] - (int)want[c]) <= 2;
      }
      CHECK(ok, "cube map, %s: %u %u %u %u, want %u %u %u %u", cases[i].what,
            rgba[0], rgba[1], rgba[2], rgba[3], want[0], want[1], want[2],
            want[3]);
      pipe_resource_reference(&vb, NULL);
      frame_end(&f);
      ctx->bind_sampler_states(ctx, PIPE_SHADER_FRAGMENT, 0, 1, NULL);
      ctx->delete_sampler_state(ctx, smp);
   }
   ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 0, 1, false, NULL);
   pipe_sampler_view_reference(&view, NULL);
   pipe_resource_reference(&tex, NULL);
   ctx->bind_vertex_elements_state(ctx, NULL);
   ctx->delete_vertex_elements_state(ctx, velems);
   ctx->bind_rasterizer_state(ctx, NULL);
   ctx->delete_rasterizer_state(ctx, rast);
   ctx->bind_vs_state(ctx, NULL);
   ctx->bind_fs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, vs);
   ctx->delete_fs_state(ctx, fs);
   unbind_common_state(common);
}

/* ------------------------------------------------------------------ */
/* Provoking vertex of quads                                           */
/* ------------------------------------------------------------------ */

/* A quad over the frame (GL's quad order), four colours, flat: every
 * pixel is the last vertex's colour, or the first's with flatshade_first.
 */
static void
test_quad_provoking(void)
{
   static const float corner[4][2] = {
      { -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, 1 }
   };
   static const float colour[4][4] = {
      { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 }, { 1, 1, 0, 1 }
   };
   CHECK(screen->get_param(screen,
                           PIPE_CAP_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION),
         "quads do not follow the provoking vertex convention");
   void *common[2];
   bind_common_state(common);
   void *vs = pan_test_pass_through_vs(screen, ctx, "fixed-vs"),
        *fs = pan_test_colour_fs(screen, ctx, "fixed-fs", true);
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);
   struct pipe_vertex_element ve[2] = {
      { .src_offset = 0, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
      { .src_offset = 16, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
   };
   void *velems = ctx->create_vertex_elements_state(ctx, 2, ve);
   ctx->bind_vertex_elements_state(ctx, velems);
   set_viewport(0.5f, 0.5f);
   float data[4][8];
   for (unsigned v = 0; v < 4; ++v) {
      const float pos[4] = { corner[v][0], corner[v][1], 0, 1 };
      memcpy(data[v], pos, 16);
      memcpy(&data[v][4], colour[v], 16);
   }
   struct pipe_resource *vb = pipe_buffer_create(
      screen, PIPE_BIND_VERTEX_BUFFER, PIPE_USAGE_DEFAULT, sizeof(data));
   pipe_buffer_write(ctx, vb, 0, sizeof(data), data);
   struct pipe_vertex_buffer vbuf = { .stride = 32, .buffer.resource = vb };
   ctx->set_vertex_buffers(ctx, 0, 1, 0, false, &vbuf);

   for (unsigned first = 0; first < 2; ++first) {
      struct pipe_rasterizer_state rs = {
         .half_pixel_center = 1,
         .depth_clip_near = 1,
         .depth_clip_far = 1,
         .cull_face = PIPE_FACE_NONE,
         .flatshade_first = first,
      };
      void *rast = ctx->create_rasterizer_state(ctx, &rs);
      ctx->bind_rasterizer_state(ctx, rast);
      struct frame f = frame_begin();
      union pipe_color_union black = { .f = { 0, 0, 0, 0 } };
      ctx->clear(ctx, PIPE_CLEAR_COLOR0 | PIPE_CLEAR_DEPTH, NULL, &black, 0.5,
                 0);
      struct pipe_draw_info info = {
         .mode = PIPE_PRIM_QUADS,
         .instance_count = 1,
         .max_index = 3,
      };
      struct pipe_draw_start_count_bias d = { .start = 0, .count = 4 };
      ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
      ctx->flush(ctx, NULL, 0);
      const float *want = colour[first ? 0 : 3];
      unsigned bad = 0;
      static const unsigned at[4][2] = {
         { 1, 1 }, { SIZE - 2, 1 }, { SIZE - 2, SIZE - 2 }, { 1, SIZE - 2 }
      };
      for (unsigned k = 0; k < 4; ++k) {
         uint8_t rgba[4];
         float z;
         read_pixel(&f, at[k][0], at[k][1], rgba, &z);
         for (unsigned c = 0; c < 4; ++c)
            bad += rgba[c] != (uint8_t)(want[c] * 255);
      }
      CHECK(!bad, "flat quad, %s vertex: %u channels wrong",
            first ? "first" : "last", bad);
      frame_end(&f);
      ctx->bind_rasterizer_state(ctx, NULL);
      ctx->delete_rasterizer_state(ctx, rast);
   }
   pipe_resource_reference(&vb, NULL);
   ctx->bind_vertex_elements_state(ctx, NULL);
   ctx->delete_vertex_elements_state(ctx, velems);
   ctx->bind_vs_state(ctx, NULL);
   ctx->bind_fs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, vs);
   ctx->delete_fs_state(ctx, fs);
   unbind_common_state(common);
}

/* ------------------------------------------------------------------ */
/* R10G10B10A2_UINT (ARB_texture_rgb10_a2ui)                           */
/* ------------------------------------------------------------------ */

/* A SIZE x SIZE texture of format, bound as the only colour buffer when
 * target; NULL on failure. */
static struct pipe_resource *
make_uint_texture(enum pipe_format format, bool target,
                  struct pipe_surface **surf)
{
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = format,
      .width0 = SIZE,
      .height0 = SIZE,
      .depth0 = 1,
      .array_size = 1,
      .bind = PIPE_BIND_SAMPLER_VIEW | (target ? PIPE_BIND_RENDER_TARGET : 0),
   };
   struct pipe_resource *r = screen->resource_create(screen, &templ);
   *surf = NULL;
   if (!r || !target)
      return r;
   struct pipe_surface st = { .format = format };
   *surf = ctx->create_surface(ctx, r, &st);
   struct pipe_framebuffer_state fb = {
      .width = SIZE,
      .height = SIZE,
      .nr_cbufs = 1,
      .cbufs = { *surf },
   };
   ctx->set_framebuffer_state(ctx, &fb);
   return r;
}

/* Texel (x, y) of r, size_B bytes. */
static void
read_texel(struct pipe_resource *r, unsigned x, unsigned y, void *out,
           unsigned size_B)
{
   struct pipe_transfer *xfer;
   const uint8_t *map =
      pipe_texture_map(ctx, r, 0, 0, PIPE_MAP_READ, x, y, 1, 1, &xfer);
   CHECK(map, "map failed");
   memset(out, 0, size_B);
   if (map) {
      memcpy(out, map, size_B);
      pipe_texture_unmap(ctx, xfer);
   }
}

/* DATA0 (uvec4) = value, or the texel of unit 0 at the pixel. */
static void *
uint_fs(const uint32_t value[4], bool fetch)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_FRAGMENT, "uint-fs");
   nir_variable *out = nir_variable_create(b.shader, nir_var_shader_out,
                                           glsl_uvec4_type(), "colour");
   out->data.location = FRAG_RESULT_DATA0;
   nir_ssa_def *v;
   if (fetch) {
      nir_variable *pos = nir_variable_create(b.shader, nir_var_shader_in,
                                              glsl_vec4_type(), "pos");
      pos->data.location = VARYING_SLOT_POS;
      nir_ssa_def *xy =
         nir_f2i32(&b, nir_channels(&b, nir_load_var(&b, pos), 3));
      nir_tex_instr *tex = nir_tex_instr_create(b.shader, 2);
      tex->op = nir_texop_txf;
      tex->sampler_dim = GLSL_SAMPLER_DIM_2D;
      tex->dest_type = nir_type_uint32;
      tex->coord_components = 2;
      tex->src[0].src_type = nir_tex_src_coord;
      tex->src[0].src = nir_src_for_ssa(xy);
      tex->src[1].src_type = nir_tex_src_lod;
      tex->src[1].src = nir_src_for_ssa(nir_imm_int(&b, 0));
      nir_ssa_dest_init(&tex->instr, &tex->dest, 4, 32, NULL);
      nir_builder_instr_insert(&b, &tex->instr);
      BITSET_SET(b.shader->info.textures_used, 0);
      v = &tex->dest.ssa;
   } else {
      v = nir_imm_ivec4(&b, value[0], value[1], value[2], value[3]);
   }
   nir_store_var(&b, out, v, 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

static void
draw_quad(void)
{
   float data[6][8] = { 0 };
   for (unsigned v = 0; v < 6; ++v)
      memcpy(data[v], quad_pos[v], 16);
   struct pipe_resource *vb =
      pan_test_draw_triangles(screen, ctx, &data[0][0], 6);
   ctx->flush(ctx, NULL, 0);
   pipe_resource_reference(&vb, NULL);
}

static void
test_rgb10_a2ui(void)
{
   const enum pipe_format fmt = PIPE_FORMAT_R10G10B10A2_UINT;
   CHECK(screen->is_format_supported(screen, fmt, PIPE_TEXTURE_2D, 0, 0,
                                     PIPE_BIND_RENDER_TARGET |
                                        PIPE_BIND_SAMPLER_VIEW),
         "R10G10B10A2_UINT is not a render and sampler format");
   const uint32_t value[4] = { 1023, 5, 512, 2 };
   const uint32_t want_word = 1023 | 5 << 10 | 512 << 20 | 2u << 30;

   struct pipe_blend_state blend = { .rt[0].colormask = PIPE_MASK_RGBA };
   struct pipe_depth_stencil_alpha_state zsa = { 0 };
   struct pipe_rasterizer_state rs = {
      .half_pixel_center = 1,
      .depth_clip_near = 1,
      .depth_clip_far = 1,
      .cull_face = PIPE_FACE_NONE,
   };
   struct pipe_vertex_element ve[2] = {
      { .src_offset = 0, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
      { .src_offset = 16, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
   };
   void *cso_blend = ctx->create_blend_state(ctx, &blend);
   blend.rt[0].colormask = PIPE_MASK_R | PIPE_MASK_B;
   void *cso_masked = ctx->create_blend_state(ctx, &blend);
   void *cso_zsa = ctx->create_depth_stencil_alpha_state(ctx, &zsa);
   void *cso_rast = ctx->create_rasterizer_state(ctx, &rs);
   void *velems = ctx->create_vertex_elements_state(ctx, 2, ve);
   void *vs = pan_test_pass_through_vs(screen, ctx, "fixed-vs");
   void *fs_const = uint_fs(value, false), *fs_fetch = uint_fs(NULL, true);
   ctx->bind_depth_stencil_alpha_state(ctx, cso_zsa);
   ctx->bind_rasterizer_state(ctx, cso_rast);
   ctx->bind_vertex_elements_state(ctx, velems);
   ctx->bind_vs_state(ctx, vs);
   ctx->set_sample_mask(ctx, ~0u);
   set_viewport(0.5f, 0.5f);

   /* A constant, then the same under a red and blue colour mask over a
    * cleared target. */
   for (unsigned masked = 0; masked < 2; ++masked) {
      struct pipe_surface *surf;
      struct pipe_resource *rt = make_uint_texture(fmt, true, &surf);
      CHECK(rt && surf, "rgb10_a2ui target creation failed");
      if (!rt || !surf)
         break;
      union pipe_color_union clear = { .ui = { 7, 8, 9, 1 } };
      ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &clear, 0, 0);
      ctx->bind_blend_state(ctx, masked ? cso_masked : cso_blend);
      ctx->bind_fs_state(ctx, fs_const);
      draw_quad();
      uint32_t word;
      read_texel(rt, 5, 9, &word, 4);
      uint32_t want =
         masked ? (1023 | 8 << 10 | 512 << 20 | 1u << 30) : want_word;
      CHECK(word == want, "rgb10_a2ui %s: 0x%08x, want 0x%08x",
            masked ? "masked draw" : "draw", word, want);
      struct pipe_framebuffer_state fb = { 0 };
      ctx->set_framebuffer_state(ctx, &fb);
      pipe_surface_reference(&surf, NULL);
      pipe_resource_reference(&rt, NULL);
   }

   /* texelFetch of every texel into an RGBA32UI target. */
   struct pipe_surface *surf;
   struct pipe_resource *src = make_uint_texture(fmt, false, &surf);
   struct pipe_resource *dst =
      make_uint_texture(PIPE_FORMAT_R32G32B32A32_UINT, true, &surf);
   CHECK(src && dst && surf, "rgb10_a2ui texture creation failed");
   if (src && dst && surf) {
      uint32_t data[SIZE][SIZE];
      for (unsigned y = 0; y < SIZE; ++y)
         for (unsigned x = 0; x < SIZE; ++x)
            data[y][x] = (x * 60 + 3) | (y * 61) << 10 | (1023 - x - y) << 20 |
                         ((x + y) & 3) << 30;
      struct pipe_box box = { .width = SIZE, .height = SIZE, .depth = 1 };
      ctx->texture_subdata(ctx, src, 0, PIPE_MAP_WRITE, &box, data, SIZE * 4,
                           sizeof(data));
      struct pipe_sampler_view vt = {
         .format = fmt,
         .target = PIPE_TEXTURE_2D,
         PAN_TEST_IDENTITY_SWIZZLE,
      };
      struct pipe_sampler_view *view = ctx->create_sampler_view(ctx, src, &vt);
      ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 1, 0, false, &view);
      ctx->bind_blend_state(ctx, cso_blend);
      ctx->bind_fs_state(ctx, fs_fetch);
      union pipe_color_union clear = { .ui = { 0, 0, 0, 0 } };
      ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &clear, 0, 0);
      draw_quad();
      unsigned bad = 0;
      for (unsigned y = 0; y < SIZE; y += 5) {
         for (unsigned x = 0; x < SIZE; x += 3) {
            uint32_t got[4], w = data[y][x];
            const uint32_t want[4] = { w & 0x3ff, (w >> 10) & 0x3ff,
                                       (w >> 20) & 0x3ff, w >> 30 };
            read_texel(dst, x, y, got, 16);
            if (memcmp(got, want, 16) && bad++ == 0)
               printf("rgb10_a2ui fetch (%u, %u): %u %u %u %u, want %u %u "
                      "%u %u\n",
                      x, y, got[0], got[1], got[2], got[3], want[0], want[1],
                      want[2], want[3]);
         }
      }
      CHECK(!bad, "rgb10_a2ui fetch: %u texels wrong", bad);
      ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 0, 1, false, NULL);
      pipe_sampler_view_reference(&view, NULL);
   }
   struct pipe_framebuffer_state fb = { 0 };
   ctx->set_framebuffer_state(ctx, &fb);
   pipe_surface_reference(&surf, NULL);
   pipe_resource_reference(&src, NULL);
   pipe_resource_reference(&dst, NULL);

   ctx->bind_fs_state(ctx, NULL);
   ctx->bind_vs_state(ctx, NULL);
   ctx->delete_fs_state(ctx, fs_const);
   ctx->delete_fs_state(ctx, fs_fetch);
   ctx->delete_vs_state(ctx, vs);
   ctx->bind_vertex_elements_state(ctx, NULL);
   ctx->delete_vertex_elements_state(ctx, velems);
   ctx->bind_blend_state(ctx, NULL);
   ctx->delete_blend_state(ctx, cso_blend);
   ctx->delete_blend_state(ctx, cso_masked);
   ctx->bind_depth_stencil_alpha_state(ctx, NULL);
   ctx->delete_depth_stencil_alpha_state(ctx, cso_zsa);
   ctx->bind_rasterizer_state(ctx, NULL);
   ctx->delete_rasterizer_state(ctx, cso_rast);
}

int
main(int argc, char **argv)
{
   if (!pan_test_open(&screen, &ctx))
      return 1;
   CHECK(screen->get_param(screen, PIPE_CAP_DEPTH_CLIP_DISABLE),
         "PIPE_CAP_DEPTH_CLIP_DISABLE is off");
   test_depth_clamp();
   test_vertex_formats();
   CHECK(screen->get_param(screen, PIPE_CAP_SEAMLESS_CUBE_MAP_PER_TEXTURE),
         "PIPE_CAP_SEAMLESS_CUBE_MAP_PER_TEXTURE is off");
   test_seamless_cube();
   test_quad_provoking();
   test_rgb10_a2ui();
   return pan_test_close(screen, ctx);
}
