/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Textures in compute shaders at the Gallium level on the drm-shim, whose
 * simulator runs the jobs (G57, G52, G72).  Shaders built with
 * nir_builder write what they read into a storage buffer, one thread a
 * texel, and every word is compared with what they must have read:
 * texelFetch of a 2D texture, texture() through a nearest and a linear
 * sampler, textureSize at levels 0 and 1 (of 2D and cube map arrays too),
 * texelFetch and textureSize of a texture buffer, a dispatch sampling a
 * texture the pending pass clears, and a view that cannot be sampled (the
 * dispatch is dropped with a message, not run).
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

/* The texture: TEX_W x TEX_H texels at level 0, a second level. */
#define TEX_W 8
#define TEX_H 4
#define FILL 0xdeadbeefu

static struct pipe_screen *screen;
static struct pipe_context *ctx;

static void
texel(unsigned x, unsigned y, uint8_t out[4])
{
   out[0] = 16 * x + 3;
   out[1] = 40 * y + 5;
   out[2] = (x * 7 + y * 13) & 0xff;
   out[3] = 200 + x + y;
}

static uint32_t
texel_word(unsigned x, unsigned y)
{
   uint8_t t[4];
   texel(x, y, t);
   return t[0] | t[1] << 8 | t[2] << 16 | (uint32_t)t[3] << 24;
}

static struct pipe_resource *
buffer(unsigned size_B)
{
   struct pipe_resource *r = pipe_buffer_create(screen, PIPE_BIND_SHADER_BUFFER,
                                                PIPE_USAGE_DEFAULT, size_B);
   uint32_t fill[256];

   for (unsigned i = 0; i < ARRAY_SIZE(fill); ++i)
      fill[i] = FILL;
   pipe_buffer_write(ctx, r, 0, MIN2(size_B, sizeof(fill)), fill);
   return r;
}

/* An RGBA8 2D texture of two levels, level 0 filled with texel(). */
static struct pipe_resource *
texture(unsigned bind)
{
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = PIPE_FORMAT_R8G8B8A8_UNORM,
      .width0 = TEX_W,
      .height0 = TEX_H,
      .depth0 = 1,
      .array_size = 1,
      .last_level = 1,
      .bind = PIPE_BIND_SAMPLER_VIEW | bind,
   };
   uint8_t data[TEX_H][TEX_W][4];
   for (unsigned y = 0; y < TEX_H; ++y)
      for (unsigned x = 0; x < TEX_W; ++x)
         texel(x, y, data[y][x]);
   struct pipe_resource *r = screen->resource_create(screen, &templ);
   struct pipe_box box = { .width = TEX_W, .height = TEX_H, .depth = 1 };
   if (r)
      ctx->texture_subdata(ctx, r, 0, PIPE_MAP_WRITE, &box, data, TEX_W * 4,
                           sizeof(data));
   return r;
}

static struct pipe_sampler_view *
view(struct pipe_resource *r, unsigned last_level)
{
   struct pipe_sampler_view vt = {
      .format = PIPE_FORMAT_R8G8B8A8_UNORM,
      .target = r->target,
      PAN_TEST_IDENTITY_SWIZZLE,
   };
   if (r->target == PIPE_BUFFER) {
      vt.u.buf.size = r->width0;
   } else {
      vt.u.tex.last_level = last_level;
   }
   return ctx->create_sampler_view(ctx, r, &vt);
}

static void *
sampler(unsigned filter)
{
   struct pipe_sampler_state st = {
      .wrap_s = PIPE_TEX_WRAP_CLAMP_TO_EDGE,
      .wrap_t = PIPE_TEX_WRAP_CLAMP_TO_EDGE,
      .wrap_r = PIPE_TEX_WRAP_CLAMP_TO_EDGE,
      .min_img_filter = filter,
      .mag_img_filter = filter,
      .min_mip_filter = PIPE_TEX_MIPFILTER_NONE,
   };
   return ctx->create_sampler_state(ctx, &st);
}

static void
store(nir_builder *b, nir_ssa_def *offset_B, nir_ssa_def *value)
{
   nir_store_ssbo(b, value, nir_imm_int(b, 0), offset_B, .write_mask = 1,
                  .align_mul = 4);
}

/* A 1D-dispatched shader over TEX_W x TEX_H threads; *x, *y and *i are
 * the thread's texel and index.
 */
static nir_builder
grid_shader(const char *name, nir_ssa_def **x, nir_ssa_def **y, nir_ssa_def **i)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_COMPUTE, name);
   b.shader->info.workgroup_size[0] = TEX_W;
   b.shader->info.workgroup_size[1] = 1;
   b.shader->info.workgroup_size[2] = 1;
   b.shader->info.num_ssbos = 1;
   nir_ssa_def *id = nir_load_global_invocation_id(&b, 32);
   *x = nir_channel(&b, id, 0);
   *y = nir_channel(&b, id, 1);
   *i = nir_iadd(&b, nir_imul_imm(&b, *y, TEX_W), *x);
   return b;
}

static void *
finish(nir_builder *b)
{
   struct pipe_compute_state cso = { .ir_type = PIPE_SHADER_IR_NIR,
                                     .prog = b->shader };
   return ctx->create_compute_state(ctx, &cso);
}

static nir_ssa_def *
tex_op(nir_builder *b, nir_texop op, enum glsl_sampler_dim dim,
       nir_ssa_def *coord, nir_ssa_def *lod, nir_alu_type type, unsigned comps)
{
   nir_tex_instr *t = nir_tex_instr_create(b->shader, !!coord + !!lod);
   unsigned n = 0;
   t->op = op;
   t->sampler_dim = dim;
   t->texture_index = 0;
   t->sampler_index = 0;
   t->dest_type = type;
   if (coord) {
      t->coord_components = coord->num_components;
      t->src[n].src_type = nir_tex_src_coord;
      t->src[n++].src = nir_src_for_ssa(coord);
   }
   if (lod) {
      t->src[n].src_type = nir_tex_src_lod;
      t->src[n++].src = nir_src_for_ssa(lod);
   }
   nir_ssa_dest_init(&t->instr, &t->dest, comps, 32, NULL);
   nir_builder_instr_insert(b, &t->instr);
   BITSET_SET(b->shader->info.textures_used, 0);
   if (op != nir_texop_txf && op != nir_texop_txs)
      BITSET_SET(b->shader->info.samplers_used, 0);
   return &t->dest.ssa;
}

/* word i = texelFetch(tex, (x, y), 0) packed as RGBA8. */
static void *
fetch_cs(void)
{
   nir_ssa_def *x, *y, *i;
   nir_builder b = grid_shader("fetch", &x, &y, &i);
   nir_ssa_def *v =
      tex_op(&b, nir_texop_txf, GLSL_SAMPLER_DIM_2D, nir_vec2(&b, x, y),
             nir_imm_int(&b, 0), nir_type_float32, 4);
   store(&b, nir_imul_imm(&b, i, 4), nir_pack_unorm_4x8(&b, v));
   return finish(&b);
}

/* word i = texture(tex, ((x + dx) / W, (y + 0.5) / H)) packed as RGBA8:
 * dx 0.5 is a texel centre, 1 the edge between x and x + 1.
 */
static void *
sample_cs(float dx)
{
   nir_ssa_def *x, *y, *i;
   nir_builder b = grid_shader("sample", &x, &y, &i);
   nir_ssa_def *s =
      nir_fmul_imm(&b, nir_fadd_imm(&b, nir_u2f32(&b, x), dx), 1.0 / TEX_W);
   nir_ssa_def *t =
      nir_fmul_imm(&b, nir_fadd_imm(&b, nir_u2f32(&b, y), 0.5), 1.0 / TEX_H);
   nir_ssa_def *v = tex_op(&b, nir_texop_tex, GLSL_SAMPLER_DIM_2D,
                           nir_vec2(&b, s, t), NULL, nir_type_float32, 4);
   store(&b, nir_imul_imm(&b, i, 4), nir_pack_unorm_4x8(&b, v));
   return finish(&b);
}

/* word i = texture(tex, (1.0, (y + 0.5) / H)): the right edge, where
 * the state tracker's GL_CLAMP emulation leaves coordinates past it.
 */
static void *
edge_cs(void)
{
   nir_ssa_def *x, *y, *i;
   nir_builder b = grid_shader("edge", &x, &y, &i);
   nir_ssa_def *t =
      nir_fmul_imm(&b, nir_fadd_imm(&b, nir_u2f32(&b, y), 0.5), 1.0 / TEX_H);
   nir_ssa_def *v = tex_op(&b, nir_texop_tex, GLSL_SAMPLER_DIM_2D,
                           nir_vec2(&b, nir_imm_float(&b, 1.0), t), NULL,
                           nir_type_float32, 4);
   store(&b, nir_imul_imm(&b, i, 4), nir_pack_unorm_4x8(&b, v));
   return finish(&b);
}

/* words 0-1: textureSize(tex, 0), words 2-3: textureSize(tex, lod)
 * where lod comes from thread 0's x + 1 (a run-time level).
 */
static void *
size_cs(enum glsl_sampler_dim dim)
{
   nir_ssa_def *x, *y, *i;
   nir_builder b = grid_shader("size", &x, &y, &i);
   unsigned n = dim == GLSL_SAMPLER_DIM_BUF ? 1 : 2;
   nir_ssa_def *s0 = tex_op(&b, nir_texop_txs, dim, NULL, nir_imm_int(&b, 0),
                            nir_type_int32, n);
   nir_push_if(&b, nir_ieq_imm(&b, i, 0));
   for (unsigned c = 0; c < n; ++c)
      store(&b, nir_imm_int(&b, 4 * c), nir_channel(&b, s0, c));
   if (dim != GLSL_SAMPLER_DIM_BUF) {
      nir_ssa_def *s1 = tex_op(&b, nir_texop_txs, dim, NULL,
                               nir_iadd_imm(&b, x, 1), nir_type_int32, n);
      for (unsigned c = 0; c < n; ++c)
         store(&b, nir_imm_int(&b, 8 + 4 * c), nir_channel(&b, s1, c));
   }
   nir_pop_if(&b, NULL);
   return finish(&b);
}

/* word i = texelFetch(samplerBuffer, i) packed as RGBA8. */
static void *
buffer_fetch_cs(void)
{
   nir_ssa_def *x, *y, *i;
   nir_builder b = grid_shader("buffer_fetch", &x, &y, &i);
   nir_ssa_def *v = tex_op(&b, nir_texop_txf, GLSL_SAMPLER_DIM_BUF, i,
                           nir_imm_int(&b, 0), nir_type_float32, 4);
   store(&b, nir_imul_imm(&b, i, 4), nir_pack_unorm_4x8(&b, v));
   return finish(&b);
}

static void
dispatch(void *cs, struct pipe_resource *out)
{
   struct pipe_shader_buffer sb = { .buffer = out, .buffer_size = out->width0 };
   ctx->set_shader_buffers(ctx, PIPE_SHADER_COMPUTE, 0, 1, &sb, 0x1);
   ctx->bind_compute_state(ctx, cs);
   struct pipe_grid_info grid = { .work_dim = 2,
                                  .block = { TEX_W, 1, 1 },
                                  .grid = { 1, TEX_H, 1 } };
   ctx->launch_grid(ctx, &grid);
}

typedef uint32_t (*expect_fn)(unsigned x, unsigned y);

/* Every word against want(x, y), each channel within tol. */
static void
check_words(const char *what, struct pipe_resource *out, expect_fn want,
            unsigned tol)
{
   uint32_t got[TEX_W * TEX_H];
   unsigned bad = 0, first = 0;

   pipe_buffer_read(ctx, out, 0, sizeof(got), got);
   for (unsigned i = 0; i < TEX_W * TEX_H; ++i) {
      uint32_t w = want(i % TEX_W, i / TEX_W);
      for (unsigned c = 0; c < 4; ++c) {
         int d =
            (int)((got[i] >> (8 * c)) & 0xff) - (int)((w >> (8 * c)) & 0xff);
         if (d > (int)tol || d < -(int)tol) {
            if (!bad++)
               first = i;
            break;
         }
      }
   }
   CHECK(!bad, "%s: %u of %u words wrong, first %u: 0x%08x, want 0x%08x", what,
         bad, TEX_W * TEX_H, first, got[first],
         want(first % TEX_W, first / TEX_W));
}

/* Linear filtering at the edge between x and x + 1 (clamped at the last
 * column): the rounded average of the two.
 */
static uint32_t
linear_word(unsigned x, unsigned y)
{
   uint8_t a[4], b[4];
   uint32_t w = 0;
   texel(x, y, a);
   texel(MIN2(x + 1, TEX_W - 1), y, b);
   for (unsigned c = 0; c < 4; ++c)
      w |= (uint32_t)((a[c] + b[c] + 1) / 2) << (8 * c);
   return w;
}

/* The border colour of clamp_sampler: (0, 0, 1, 1). */
#define BORDER_WORD 0xffff0000u

/* GL_CLAMP at the right edge: nearest picks the edge texel, linear
 * blends it half and half with the border colour.
 */
static uint32_t
clamp_nearest_word(unsigned x, unsigned y)
{
   return texel_word(TEX_W - 1, y);
}

static uint32_t
clamp_linear_word(unsigned x, unsigned y)
{
   uint32_t t = texel_word(TEX_W - 1, y), w = 0;
   for (unsigned c = 0; c < 4; ++c) {
      unsigned a = (t >> (8 * c)) & 0xff, b = (BORDER_WORD >> (8 * c)) & 0xff;
      w |= ((a + b + 1) / 2) << (8 * c);
   }
   return w;
}

static uint32_t
clear_word(unsigned x, unsigned y)
{
   return 0xff00ff00u; /* (0, 1, 0, 1) */
}

static void
bind_texture(struct pipe_sampler_view *v, void *s)
{
   ctx->set_sampler_views(ctx, PIPE_SHADER_COMPUTE, 0, 1, 0, false, &v);
   ctx->bind_sampler_states(ctx, PIPE_SHADER_COMPUTE, 0, 1, &s);
}

static void
test_fetch_and_sample(void)
{
   struct pipe_resource *tex = texture(0);
   struct pipe_sampler_view *v = view(tex, 1);
   void *nearest = sampler(PIPE_TEX_FILTER_NEAREST);
   void *linear = sampler(PIPE_TEX_FILTER_LINEAR);
   struct pipe_resource *out = buffer(TEX_W * TEX_H * 4);
   void *cs[4] = { fetch_cs(), sample_cs(0.5), sample_cs(1.0),
                   size_cs(GLSL_SAMPLER_DIM_2D) };

   bind_texture(v, nearest);
   dispatch(cs[0], out);
   check_words("texelFetch", out, texel_word, 0);
   dispatch(cs[1], out);
   check_words("texture, nearest, texel centres", out, texel_word, 0);
   bind_texture(v, linear);
   dispatch(cs[2], out);
   check_words("texture, linear, texel edges", out, linear_word, 1);

   uint32_t got[4];
   dispatch(cs[3], out);
   pipe_buffer_read(ctx, out, 0, sizeof(got), got);
   CHECK(got[0] == TEX_W && got[1] == TEX_H && got[2] == TEX_W / 2 &&
            got[3] == TEX_H / 2,
         "textureSize: %ux%u and %ux%u at level 1, want %ux%u and %ux%u",
         got[0], got[1], got[2], got[3], TEX_W, TEX_H, TEX_W / 2, TEX_H / 2);

   ctx->set_sampler_views(ctx, PIPE_SHADER_COMPUTE, 0, 0, 1, false, NULL);
   ctx->bind_sampler_states(ctx, PIPE_SHADER_COMPUTE, 0, 1, (void *[]){ NULL });
   for (unsigned i = 0; i < ARRAY_SIZE(cs); ++i)
      ctx->delete_compute_state(ctx, cs[i]);
   ctx->delete_sampler_state(ctx, nearest);
   ctx->delete_sampler_state(ctx, linear);
   pipe_sampler_view_reference(&v, NULL);
   pipe_resource_reference(&tex, NULL);
   pipe_resource_reference(&out, NULL);
}

static void
test_buffer(void)
{
   uint32_t data[TEX_W * TEX_H];
   for (unsigned i = 0; i < ARRAY_SIZE(data); ++i)
      data[i] = texel_word(i % TEX_W, i / TEX_W);
   struct pipe_resource *tbo = pipe_buffer_create(
      screen, PIPE_BIND_SAMPLER_VIEW, PIPE_USAGE_DEFAULT, sizeof(data));
   pipe_buffer_write(ctx, tbo, 0, sizeof(data), data);
   struct pipe_sampler_view *v = view(tbo, 0);
   struct pipe_resource *out = buffer(TEX_W * TEX_H * 4);
   void *cs[2] = { buffer_fetch_cs(), size_cs(GLSL_SAMPLER_DIM_BUF) };

   ctx->set_sampler_views(ctx, PIPE_SHADER_COMPUTE, 0, 1, 0, false, &v);
   dispatch(cs[0], out);
   check_words("texelFetch of a texture buffer", out, texel_word, 0);
   uint32_t got;
   dispatch(cs[1], out);
   pipe_buffer_read(ctx, out, 0, 4, &got);
   CHECK(got == TEX_W * TEX_H, "textureSize of a texture buffer: %u, want %u",
         got, TEX_W * TEX_H);

   ctx->set_sampler_views(ctx, PIPE_SHADER_COMPUTE, 0, 0, 1, false, NULL);
   for (unsigned i = 0; i < ARRAY_SIZE(cs); ++i)
      ctx->delete_compute_state(ctx, cs[i]);
   pipe_sampler_view_reference(&v, NULL);
   pipe_resource_reference(&tbo, NULL);
   pipe_resource_reference(&out, NULL);
}

/* words 0-2: textureSize(array tex, lod) of a 2D or cube map array, lod
 * from thread 0's x + 1 (a run-time level 1): the layer or cube count is
 * not minified.
 */
static void *
array_size_cs(enum glsl_sampler_dim dim)
{
   nir_ssa_def *x, *y, *i;
   nir_builder b = grid_shader("array_size", &x, &y, &i);
   nir_tex_instr *t = nir_tex_instr_create(b.shader, 1);
   t->op = nir_texop_txs;
   t->sampler_dim = dim;
   t->is_array = true;
   t->dest_type = nir_type_int32;
   t->src[0].src_type = nir_tex_src_lod;
   t->src[0].src = nir_src_for_ssa(nir_iadd_imm(&b, x, 1));
   nir_ssa_dest_init(&t->instr, &t->dest, 3, 32, NULL);
   nir_builder_instr_insert(&b, &t->instr);
   BITSET_SET(b.shader->info.textures_used, 0);
   nir_push_if(&b, nir_ieq_imm(&b, i, 0));
   for (unsigned c = 0; c < 3; ++c)
      store(&b, nir_imm_int(&b, 4 * c), nir_channel(&b, &t->dest.ssa, c));
   nir_pop_if(&b, NULL);
   return finish(&b);
}

/* textureSize at level 1 of an 8x8 2D array of 12 layers and of the same
 * texture seen as a cube map array of 2 cubes.
 */
static void
test_array_sizes(void)
{
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_CUBE_ARRAY,
      .format = PIPE_FORMAT_R8G8B8A8_UNORM,
      .width0 = 8,
      .height0 = 8,
      .depth0 = 1,
      .array_size = 12,
      .last_level = 1,
      .bind = PIPE_BIND_SAMPLER_VIEW,
   };
   struct pipe_resource *tex = screen->resource_create(screen, &templ);
   struct pipe_resource *out = buffer(TEX_W * TEX_H * 4);
   CHECK(tex, "cube map array creation failed");
   if (!tex)
      return;
   static const struct {
      enum pipe_texture_target target;
      enum glsl_sampler_dim dim;
      uint32_t want[3];
   } cases[] = {
      { PIPE_TEXTURE_2D_ARRAY, GLSL_SAMPLER_DIM_2D, { 4, 4, 12 } },
      { PIPE_TEXTURE_CUBE_ARRAY, GLSL_SAMPLER_DIM_CUBE, { 4, 4, 2 } },
   };
   for (unsigned k = 0; k < ARRAY_SIZE(cases); ++k) {
      struct pipe_sampler_view vt = {
         .format = templ.format,
         .target = cases[k].target,
         .u.tex = { .first_layer = 0, .last_layer = 11, .last_level = 1 },
         PAN_TEST_IDENTITY_SWIZZLE,
      };
      struct pipe_sampler_view *v = ctx->create_sampler_view(ctx, tex, &vt);
      void *cs = array_size_cs(cases[k].dim);
      ctx->set_sampler_views(ctx, PIPE_SHADER_COMPUTE, 0, 1, 0, false, &v);
      dispatch(cs, out);
      uint32_t got[3];
      pipe_buffer_read(ctx, out, 0, sizeof(got), got);
      CHECK(!memcmp(got, cases[k].want, sizeof(got)),
            "textureSize of a %s at level 1: %u %u %u, want %u %u %u",
            k ? "cube map array" : "2D array", got[0], got[1], got[2],
            cases[k].want[0], cases[k].want[1], cases[k].want[2]);
      ctx->set_sampler_views(ctx, PIPE_SHADER_COMPUTE, 0, 0, 1, false, NULL);
      ctx->delete_compute_state(ctx, cs);
      pipe_sampler_view_reference(&v, NULL);
   }
   pipe_resource_reference(&tex, NULL);
   pipe_resource_reference(&out, NULL);
}

/* GL_CLAMP (PIPE_TEX_WRAP_CLAMP): the state tracker emulates it (the
 * screen says the samplers cannot) by saturating coordinates, which
 * leaves the sampler to pick the edge texel when filtering nearest and
 * to blend in the border when filtering linearly.
 */
static void
test_gl_clamp(void)
{
   struct pipe_resource *tex = texture(0);
   struct pipe_sampler_view *v = view(tex, 0);
   struct pipe_resource *out = buffer(TEX_W * TEX_H * 4);
   void *cs = edge_cs();

   CHECK(!screen->get_param(screen, PIPE_CAP_GL_CLAMP),
         "GL_CLAMP offered, which the samplers do not have");
   for (unsigned linear = 0; linear < 2; ++linear) {
      unsigned filter =
         linear ? PIPE_TEX_FILTER_LINEAR : PIPE_TEX_FILTER_NEAREST;
      struct pipe_sampler_state st = {
         .wrap_s = PIPE_TEX_WRAP_CLAMP,
         .wrap_t = PIPE_TEX_WRAP_CLAMP,
         .wrap_r = PIPE_TEX_WRAP_CLAMP,
         .min_img_filter = filter,
         .mag_img_filter = filter,
         .min_mip_filter = PIPE_TEX_MIPFILTER_NONE,
         .border_color.f = { 0, 0, 1, 1 },
      };
      void *smp = ctx->create_sampler_state(ctx, &st);
      bind_texture(v, smp);
      dispatch(cs, out);
      check_words(linear ? "GL_CLAMP, linear, at s = 1"
                         : "GL_CLAMP, nearest, at s = 1",
                  out, linear ? clamp_linear_word : clamp_nearest_word, 1);
      ctx->bind_sampler_states(ctx, PIPE_SHADER_COMPUTE, 0, 1,
                               (void *[]){ NULL });
      ctx->delete_sampler_state(ctx, smp);
   }

   ctx->set_sampler_views(ctx, PIPE_SHADER_COMPUTE, 0, 0, 1, false, NULL);
   ctx->delete_compute_state(ctx, cs);
   pipe_sampler_view_reference(&v, NULL);
   pipe_resource_reference(&tex, NULL);
   pipe_resource_reference(&out, NULL);
}

/* A clear of the texture as the pass's target, then a dispatch fetching
 * it without a flush between: the batch's compute jobs run before its
 * pass, so the dispatch must submit the pass first.
 */
static void
test_after_pass(void)
{
   struct pipe_resource *tex = texture(PIPE_BIND_RENDER_TARGET);
   struct pipe_surface st = { .format = tex->format };
   struct pipe_surface *surf = ctx->create_surface(ctx, tex, &st);
   struct pipe_framebuffer_state fb = {
      .width = TEX_W,
      .height = TEX_H,
      .nr_cbufs = 1,
      .cbufs = { surf },
   };
   struct pipe_sampler_view *v = view(tex, 0);
   struct pipe_resource *out = buffer(TEX_W * TEX_H * 4);
   void *cs = fetch_cs();

   ctx->set_framebuffer_state(ctx, &fb);
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL,
              &(union pipe_color_union){ .f = { 0, 1, 0, 1 } }, 0, 0);
   ctx->set_sampler_views(ctx, PIPE_SHADER_COMPUTE, 0, 1, 0, false, &v);
   dispatch(cs, out);
   check_words("texelFetch after a clear of the pending pass", out, clear_word,
               0);

   struct pipe_framebuffer_state none = { .width = TEX_W, .height = TEX_H };
   ctx->set_framebuffer_state(ctx, &none);
   ctx->set_sampler_views(ctx, PIPE_SHADER_COMPUTE, 0, 0, 1, false, NULL);
   ctx->delete_compute_state(ctx, cs);
   pipe_surface_reference(&surf, NULL);
   pipe_sampler_view_reference(&v, NULL);
   pipe_resource_reference(&tex, NULL);
   pipe_resource_reference(&out, NULL);
}

int
main(int argc, char **argv)
{
   if (!pan_test_open(&screen, &ctx))
      return 1;
   /* GLES 3.1 asks for 16 texture units in compute. */
   static const enum pipe_shader_cap caps[] = {
      PIPE_SHADER_CAP_MAX_TEXTURE_SAMPLERS,
      PIPE_SHADER_CAP_MAX_SAMPLER_VIEWS,
   };
   for (unsigned i = 0; i < ARRAY_SIZE(caps); ++i) {
      int n = screen->get_shader_param(screen, PIPE_SHADER_COMPUTE, caps[i]);
      CHECK(n >= 16, "%d compute texture units (cap %u), want 16", n, caps[i]);
   }
   test_fetch_and_sample();
   test_buffer();
   test_array_sizes();
   test_gl_clamp();
   test_after_pass();
   return pan_test_close(screen, ctx);
}
