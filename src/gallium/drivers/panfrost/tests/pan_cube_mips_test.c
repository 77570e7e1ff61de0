/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Mipmapped cube maps (draw-path.rst, "Textures"): an 8x8 cube map and a
 * cube map array of two cubes, 4 levels, every (cube, face, level) its
 * own colour, each sampled with textureLod at the centre of every face
 * at every level, one pixel each.  v6 names a cube's faces after its
 * levels in the surface list, v7 and v9 after the layers; a wrong order
 * reads another face or level (or no surface at all).
 */

#include <stdint.h>
#include <stdio.h>
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

#define SIZE 8
#define LEVELS 4

static struct pipe_screen *screen;
static struct pipe_context *ctx;

/* The colour of face f of cube c at level l. */
static void
colour_of(unsigned c, unsigned f, unsigned l, uint8_t out[4])
{
   out[0] = (uint8_t)(40 * f + 7);
   out[1] = (uint8_t)(60 * l + 11);
   out[2] = (uint8_t)(100 * c + 13);
   out[3] = 255;
}

/* Direction of the centre of face f (GL order +X, -X, +Y, -Y, +Z, -Z). */
static void
face_dir(unsigned f, float d[3])
{
   memset(d, 0, 3 * sizeof(float));
   d[f / 2] = f & 1 ? -1.0f : 1.0f;
}

/* DATA0 = textureLod(unit 0, VAR0.xyz (with the layer VAR1.x for an
 * array), VAR0.w). */
static void *
lod_fs(bool array)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_FRAGMENT, "cube-lod");
   nir_variable *out = pan_test_io_var(b.shader, nir_var_shader_out,
                                       FRAG_RESULT_DATA0, 0, "colour");
   nir_variable *in =
      pan_test_io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
   in->data.interpolation = INTERP_MODE_FLAT;
   nir_ssa_def *v = nir_load_var(&b, in);
   nir_ssa_def *coord = nir_channels(&b, v, 7);
   if (array)
      coord = nir_vec4(&b, nir_channel(&b, v, 0), nir_channel(&b, v, 1),
                       nir_channel(&b, v, 2), nir_imm_float(&b, 1.0f));
   nir_tex_instr *tex = nir_tex_instr_create(b.shader, 2);
   tex->op = nir_texop_txl;
   tex->sampler_dim = GLSL_SAMPLER_DIM_CUBE;
   tex->is_array = array;
   tex->dest_type = nir_type_float32;
   tex->coord_components = array ? 4 : 3;
   tex->src[0].src_type = nir_tex_src_coord;
   tex->src[0].src = nir_src_for_ssa(coord);
   tex->src[1].src_type = nir_tex_src_lod;
   tex->src[1].src = nir_src_for_ssa(nir_channel(&b, v, 3));
   nir_ssa_dest_init(&tex->instr, &tex->dest, 4, 32, NULL);
   nir_builder_instr_insert(&b, &tex->instr);
   BITSET_SET(b.shader->info.textures_used, 0);
   BITSET_SET(b.shader->info.samplers_used, 0);
   nir_store_var(&b, out, &tex->dest.ssa, 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

/* A cube map (cubes 1) or cube map array, every level and face filled. */
static struct pipe_sampler_view *
make_cubes(unsigned cubes, struct pipe_resource **tex)
{
   enum pipe_texture_target target =
      cubes > 1 ? PIPE_TEXTURE_CUBE_ARRAY : PIPE_TEXTURE_CUBE;
   struct pipe_resource templ = {
      .target = target,
      .format = PIPE_FORMAT_R8G8B8A8_UNORM,
      .width0 = SIZE,
      .height0 = SIZE,
      .depth0 = 1,
      .array_size = 6 * cubes,
      .last_level = LEVELS - 1,
      .bind = PIPE_BIND_SAMPLER_VIEW,
   };
   *tex = screen->resource_create(screen, &templ);
   if (!*tex)
      return NULL;
   for (unsigned c = 0; c < cubes; ++c) {
      for (unsigned f = 0; f < 6; ++f) {
         for (unsigned l = 0; l < LEVELS; ++l) {
            unsigned n = SIZE >> l;
            uint8_t data[SIZE * SIZE][4];
            for (unsigned i = 0; i < n * n; ++i)
               colour_of(c, f, l, data[i]);
            struct pipe_box box = { .z = (int)(6 * c + f),
                                    .width = (int)n,
                                    .height = (int)n,
                                    .depth = 1 };
            ctx->texture_subdata(ctx, *tex, l, PIPE_MAP_WRITE, &box, data,
                                 n * 4, n * n * 4);
         }
      }
   }
   struct pipe_sampler_view vt = {
      .format = templ.format,
      .target = target,
      .u.tex = { .first_layer = 0,
                 .last_layer = 6 * cubes - 1,
                 .first_level = 0,
                 .last_level = LEVELS - 1 },
      PAN_TEST_IDENTITY_SWIZZLE,
   };
   return ctx->create_sampler_view(ctx, *tex, &vt);
}

/* Pixel (face, level) of a 6 x LEVELS target: a point-sized quad each. */
static void
run(unsigned cubes)
{
   struct pipe_resource *tex = NULL, *target = NULL;
   struct pipe_sampler_view *view = make_cubes(cubes, &tex);
   CHECK(view, "%u cube(s): creation failed", cubes);
   if (!view) {
      pipe_resource_reference(&tex, NULL);
      return;
   }
   struct pipe_surface *surf =
      pan_test_bind_target(screen, ctx, 6, LEVELS, &target);
   void *fs = lod_fs(cubes > 1);
   ctx->bind_fs_state(ctx, fs);
   struct pipe_sampler_state st = {
      .wrap_s = PIPE_TEX_WRAP_CLAMP_TO_EDGE,
      .wrap_t = PIPE_TEX_WRAP_CLAMP_TO_EDGE,
      .wrap_r = PIPE_TEX_WRAP_CLAMP_TO_EDGE,
      .min_img_filter = PIPE_TEX_FILTER_NEAREST,
      .mag_img_filter = PIPE_TEX_FILTER_NEAREST,
      .min_mip_filter = PIPE_TEX_MIPFILTER_NEAREST,
      .max_lod = LEVELS - 1,
   };
   void *smp = ctx->create_sampler_state(ctx, &st);
   ctx->bind_sampler_states(ctx, PIPE_SHADER_FRAGMENT, 0, 1, &smp);
   ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 1, 0, false, &view);

   /* The last cube of an array (layer 1), so the cube index counts. */
   unsigned cube = cubes - 1;
   float data[6 * LEVELS * 6][8];
   unsigned nv = 0;
   for (unsigned f = 0; f < 6; ++f) {
      for (unsigned l = 0; l < LEVELS; ++l) {
         float x0 = f / 3.0f - 1, x1 = (f + 1) / 3.0f - 1;
         float y0 = l * 2.0f / LEVELS - 1, y1 = (l + 1) * 2.0f / LEVELS - 1;
         const float corner[6][2] = { { x0, y0 }, { x1, y0 }, { x0, y1 },
                                      { x1, y0 }, { x1, y1 }, { x0, y1 } };
         float d[3];
         face_dir(f, d);
         for (unsigned v = 0; v < 6; ++v, ++nv) {
            data[nv][0] = corner[v][0];
            data[nv][1] = corner[v][1];
            data[nv][2] = 0;
            data[nv][3] = 1;
            memcpy(&data[nv][4], d, sizeof(d));
            data[nv][7] = (float)l;
         }
      }
   }
   union pipe_color_union black = { .f = { 0, 0, 0, 0 } };
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &black, 1.0, 0);
   struct pipe_resource *vb =
      pan_test_draw_triangles(screen, ctx, &data[0][0], nv);
   ctx->flush(ctx, NULL, 0);

   struct pipe_transfer *xfer;
   const uint8_t *map = pipe_texture_map(ctx, target, 0, 0, PIPE_MAP_READ, 0, 0,
                                         6, LEVELS, &xfer);
   CHECK(map, "%u cube(s): map failed", cubes);
   for (unsigned f = 0; map && f < 6; ++f) {
      for (unsigned l = 0; l < LEVELS; ++l) {
         const uint8_t *p = map + l * xfer->stride + f * 4;
         uint8_t want[4];
         colour_of(cube, f, l, want);
         CHECK(!memcmp(p, want, 4),
               "%u cube(s), face %u level %u: %u %u %u %u, want %u %u %u %u",
               cubes, f, l, p[0], p[1], p[2], p[3], want[0], want[1], want[2],
               want[3]);
      }
   }
   if (map)
      pipe_texture_unmap(ctx, xfer);

   pipe_resource_reference(&vb, NULL);
   ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 0, 1, false, NULL);
   ctx->bind_sampler_states(ctx, PIPE_SHADER_FRAGMENT, 0, 1, NULL);
   ctx->delete_sampler_state(ctx, smp);
   ctx->bind_fs_state(ctx, NULL);
   ctx->delete_fs_state(ctx, fs);
   struct pipe_framebuffer_state none = { 0 };
   ctx->set_framebuffer_state(ctx, &none);
   pipe_surface_reference(&surf, NULL);
   pipe_resource_reference(&target, NULL);
   pipe_sampler_view_reference(&view, NULL);
   pipe_resource_reference(&tex, NULL);
}

int
main(void)
{
   if (!pan_test_open(&screen, &ctx))
      return 1;
   void *vs = pan_test_pass_through_vs(screen, ctx, "cube-lod-vs");
   ctx->bind_vs_state(ctx, vs);
   struct pipe_vertex_element ve[2] = {
      { .src_offset = 0, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
      { .src_offset = 16, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
   };
   void *ves = ctx->create_vertex_elements_state(ctx, 2, ve);
   ctx->bind_vertex_elements_state(ctx, ves);
   struct pipe_viewport_state vp = {
      .scale = { 3.0f, LEVELS / 2.0f, 0.5f },
      .translate = { 3.0f, LEVELS / 2.0f, 0.5f },
   };
   ctx->set_viewport_states(ctx, 0, 1, &vp);
   struct pipe_rasterizer_state rs = {
      .half_pixel_center = 1,
      .depth_clip_near = 1,
      .depth_clip_far = 1,
   };
   void *rast = ctx->create_rasterizer_state(ctx, &rs);
   ctx->bind_rasterizer_state(ctx, rast);
   struct pipe_depth_stencil_alpha_state zs = { 0 };
   void *zsa = ctx->create_depth_stencil_alpha_state(ctx, &zs);
   ctx->bind_depth_stencil_alpha_state(ctx, zsa);
   struct pipe_blend_state bs = { .rt[0].colormask = PIPE_MASK_RGBA };
   void *blend = ctx->create_blend_state(ctx, &bs);
   ctx->bind_blend_state(ctx, blend);

   run(1);
   /* Every GPU these tests mock (v6, v7, v9) offers cube map arrays. */
   CHECK(screen->get_param(screen, PIPE_CAP_CUBE_MAP_ARRAY),
         "PIPE_CAP_CUBE_MAP_ARRAY is off");
   run(2);

   ctx->bind_vs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, vs);
   ctx->bind_vertex_elements_state(ctx, NULL);
   ctx->delete_vertex_elements_state(ctx, ves);
   ctx->bind_rasterizer_state(ctx, NULL);
   ctx->delete_rasterizer_state(ctx, rast);
   ctx->bind_depth_stencil_alpha_state(ctx, NULL);
   ctx->delete_depth_stencil_alpha_state(ctx, zsa);
   ctx->bind_blend_state(ctx, NULL);
   ctx->delete_blend_state(ctx, blend);
   return pan_test_close(screen, ctx);
}
