/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Texture buffers (buffer sampler views) at the Gallium level on the
 * drm-shim, whose simulator runs the jobs (G57: IDVS, G52 and G72: vertex
 * and tiler jobs).  Shaders built with nir_builder fetch texels of buffer
 * views and ask their size (texelFetch and textureSize on a samplerBuffer)
 * in the vertex and the fragment stage; every pixel of the target is
 * compared with what they must have read.  Also: a view at an offset, the
 * 65536-texel limit on a larger buffer, the order of a draw sampling a
 * buffer and a later CPU write, transform feedback capture or dispatch
 * into it, and a view the descriptors cannot describe.  Midgard (--none)
 * must not offer them.
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

#define W 16
#define H 8
#define MAX_TEXELS 65536

static struct pipe_screen *screen;
static struct pipe_context *ctx;

#define io_var pan_test_io_var

/* texelFetch(samplerBuffer texture, index), of base type `type`. */
static nir_ssa_def *
fetch(nir_builder *b, unsigned texture, nir_ssa_def *index, nir_alu_type type)
{
   nir_tex_instr *t = nir_tex_instr_create(b->shader, 2);
   t->op = nir_texop_txf;
   t->sampler_dim = GLSL_SAMPLER_DIM_BUF;
   t->texture_index = texture;
   t->sampler_index = texture;
   t->coord_components = 1;
   t->dest_type = type;
   t->src[0].src_type = nir_tex_src_coord;
   t->src[0].src = nir_src_for_ssa(index);
   t->src[1].src_type = nir_tex_src_lod;
   t->src[1].src = nir_src_for_ssa(nir_imm_int(b, 0));
   nir_ssa_dest_init(&t->instr, &t->dest, 4, 32, NULL);
   nir_builder_instr_insert(b, &t->instr);
   BITSET_SET(b->shader->info.textures_used, texture);
   return &t->dest.ssa;
}

/* textureSize(samplerBuffer texture). */
static nir_ssa_def *
size(nir_builder *b, unsigned texture)
{
   nir_tex_instr *t = nir_tex_instr_create(b->shader, 1);
   t->op = nir_texop_txs;
   t->sampler_dim = GLSL_SAMPLER_DIM_BUF;
   t->texture_index = texture;
   t->dest_type = nir_type_int32;
   t->src[0].src_type = nir_tex_src_lod;
   t->src[0].src = nir_src_for_ssa(nir_imm_int(b, 0));
   nir_ssa_dest_init(&t->instr, &t->dest, 1, 32, NULL);
   nir_builder_instr_insert(b, &t->instr);
   BITSET_SET(b->shader->info.textures_used, texture);
   return &t->dest.ssa;
}

/* Position from attribute 0; VAR0 = the colour a vertex mode gives:
 * 0 (none), or texelFetch(texture 1, index from the vertex id) of an
 * R8_UNORM buffer in r and (textureSize == 65536) in g.
 */
static void *
vertex_shader(bool sample, unsigned first, struct pipe_stream_output_info *so)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_VERTEX, "tbo_vs");
   nir_variable *pos =
      io_var(b.shader, nir_var_shader_in, VERT_ATTRIB_GENERIC0, 0, "pos");
   nir_variable *opos =
      io_var(b.shader, nir_var_shader_out, VARYING_SLOT_POS, 0, "gl_Position");
   nir_variable *v0 =
      io_var(b.shader, nir_var_shader_out, VARYING_SLOT_VAR0, 1, "v0");
   nir_store_var(&b, opos, nir_load_var(&b, pos), 0xf);
   nir_ssa_def *c = nir_imm_vec4(&b, 0, 0, 0, 1);
   if (sample) {
      nir_ssa_def *at = nir_iadd_imm(&b, nir_load_vertex_id(&b), first);
      nir_ssa_def *t = fetch(&b, 1, at, nir_type_float32);
      nir_ssa_def *full =
         nir_b2f32(&b, nir_ieq_imm(&b, size(&b, 1), MAX_TEXELS));
      c = nir_vec4(&b, nir_channel(&b, t, 0), full, nir_imm_float(&b, 0),
                   nir_imm_float(&b, 1));
   }
   nir_store_var(&b, v0, c, 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   if (so)
      cso.stream_output = *so;
   return ctx->create_vs_state(ctx, &cso);
}

/* colour = VAR0 */
static void *
varying_fs(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_FRAGMENT, "tbo_var");
   nir_variable *v0 =
      io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
   nir_variable *out =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "colour");
   nir_store_var(&b, out, nir_load_var(&b, v0), 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

/* Texel (y * W + x) of texture 0, an RGBA8 view or, integer, an RG32UI
 * one (colour = its words / 255); b = textureSize(texture 0) / 255.
 */
static void *
fetch_fs(bool integer)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_FRAGMENT, "tbo_fs");
   nir_variable *out =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "colour");
   nir_ssa_def *fc = nir_f2u32(&b, nir_load_frag_coord(&b));
   nir_ssa_def *at = nir_iadd(&b, nir_imul_imm(&b, nir_channel(&b, fc, 1), W),
                              nir_channel(&b, fc, 0));
   nir_ssa_def *t =
      fetch(&b, 0, at, integer ? nir_type_uint32 : nir_type_float32);
   if (integer)
      t = nir_fmul_imm(&b, nir_u2f32(&b, t), 1.0 / 255.0);
   nir_ssa_def *n = nir_fmul_imm(&b, nir_i2f32(&b, size(&b, 0)), 1.0 / 255.0);
   nir_store_var(
      &b, out,
      nir_vec4(&b, nir_channel(&b, t, 0), nir_channel(&b, t, 1), n,
               integer ? nir_imm_float(&b, 1) : nir_channel(&b, t, 3)),
      0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

static struct pipe_sampler_view *
buffer_view(struct pipe_resource *r, enum pipe_format format, unsigned offset_B,
            unsigned size_B)
{
   struct pipe_sampler_view t = {
      .format = format,
      .target = PIPE_BUFFER,
      PAN_TEST_IDENTITY_SWIZZLE,
      .u.buf = { .offset = offset_B, .size = size_B },
   };
   return ctx->create_sampler_view(ctx, r, &t);
}

static void
bind_view(enum pipe_shader_type stage, unsigned slot,
          struct pipe_sampler_view *v)
{
   ctx->set_sampler_views(ctx, stage, slot, 1, 0, false, &v);
}

static struct pipe_resource *
buffer(unsigned size_B, const void *data)
{
   struct pipe_resource *r =
      pipe_buffer_create(screen,
                         PIPE_BIND_SAMPLER_VIEW | PIPE_BIND_STREAM_OUTPUT |
                            PIPE_BIND_SHADER_BUFFER,
                         PIPE_USAGE_DEFAULT, size_B);
   if (r && data)
      pipe_buffer_write(ctx, r, 0, size_B, data);
   return r;
}

static void
setup(struct pan_test_fullscreen *f)
{
   pan_test_fullscreen_setup(screen, ctx, W, H, f);
}

static void
teardown(struct pan_test_fullscreen *f)
{
   for (unsigned s = 0; s < 2; ++s) {
      ctx->set_sampler_views(ctx, s ? PIPE_SHADER_FRAGMENT : PIPE_SHADER_VERTEX,
                             0, 0, 2, false, NULL);
   }
   pan_test_fullscreen_teardown(ctx, f);
}

static void
draw_triangle(void)
{
   struct pipe_draw_info info = { .mode = PIPE_PRIM_TRIANGLES,
                                  .instance_count = 1 };
   struct pipe_draw_start_count_bias d = { .count = 3 };
   union pipe_color_union c = { .f = { 0, 0, 1, 1 } };
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &c, 0, 0);
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
}

/* Every pixel (x, y) must be want(x, y); what names the case. */
static void
check_pixels(struct pan_test_fullscreen *f, const char *what,
             void (*want)(unsigned x, unsigned y, uint8_t px[4]))
{
   struct pipe_transfer *xfer;
   const uint8_t *map =
      pipe_texture_map(ctx, f->tex, 0, 0, PIPE_MAP_READ, 0, 0, W, H, &xfer);
   unsigned bad = 0;

   CHECK(map, "%s: render target map failed", what);
   for (unsigned y = 0; map && y < H; ++y) {
      for (unsigned x = 0; x < W; ++x) {
         const uint8_t *p = map + y * xfer->stride + x * 4;
         uint8_t w[4];
         want(x, y, w);
         /* One step of rounding for the r / 255 conversions. */
         bool ok = true;
         for (unsigned c = 0; c < 4; ++c)
            ok &= p[c] + 1 >= w[c] && p[c] <= w[c] + 1;
         if (!ok && bad++ < 4)
            CHECK(false, "%s: pixel (%u, %u) is %u %u %u %u, want %u %u %u %u",
                  what, x, y, p[0], p[1], p[2], p[3], w[0], w[1], w[2], w[3]);
      }
   }
   CHECK(map && !bad, "%s: %u pixels differ", what, bad);
   if (map)
      pipe_texture_unmap(ctx, xfer);
}

/* The RGBA8 texel i of the fragment tests (after the view's offset), of
 * a generation of the data (r). */
static uint32_t
texel(unsigned i, unsigned gen)
{
   return ((i + 37 * gen) & 0xff) | (255 - (i & 0xff)) << 8 | 0x55u << 16 |
          0xf0u << 24;
}

static unsigned want_gen, want_size, want_alpha;

static void
want_fetch(unsigned x, unsigned y, uint8_t px[4])
{
   uint32_t t = texel(y * W + x, want_gen);
   px[0] = t & 0xff;
   px[1] = (t >> 8) & 0xff;
   px[2] = want_size;
   px[3] = want_alpha;
}

/* A buffer of a few texels before the view's offset and W * H in it, the
 * view RGBA8_UNORM: pixel (x, y) reads texel y * W + x of the view and the
 * view's size; then an RG32UI view of the same bytes (integer results).
 */
static void
test_fragment(struct pan_test_fullscreen *f)
{
   const unsigned offset_B = 64;
   uint32_t data[16 + W * H];
   for (unsigned i = 0; i < ARRAY_SIZE(data); ++i)
      data[i] = i < 16 ? 0xdeadbeef : texel(i - 16, 0);
   struct pipe_resource *r = buffer(sizeof(data), data);
   struct pipe_sampler_view *v =
      buffer_view(r, PIPE_FORMAT_R8G8B8A8_UNORM, offset_B, W * H * 4);
   void *vs = vertex_shader(false, 0, NULL), *fs = fetch_fs(false);

   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);
   bind_view(PIPE_SHADER_FRAGMENT, 0, v);
   draw_triangle();
   want_gen = 0;
   want_size = W * H;
   want_alpha = 0xf0;
   check_pixels(f, "RGBA8 view at an offset", want_fetch);

   /* RG32UI texels (words i % 256 and 255 - i % 256), in a view of W * H
    * of the buffer's W * H + 8: textureSize is the view's.
    */
   void *ifs = fetch_fs(true);
   uint32_t words[2 * (W * H + 8)];
   for (unsigned i = 0; i < W * H + 8; ++i) {
      words[2 * i] = i % 256;
      words[2 * i + 1] = 255 - i % 256;
   }
   struct pipe_resource *ri = buffer(sizeof(words), words);
   struct pipe_sampler_view *vi =
      buffer_view(ri, PIPE_FORMAT_R32G32_UINT, 0, W * H * 8);
   bind_view(PIPE_SHADER_FRAGMENT, 0, vi);
   ctx->bind_fs_state(ctx, ifs);
   draw_triangle();
   want_alpha = 255;
   check_pixels(f, "RG32UI view", want_fetch);

   bind_view(PIPE_SHADER_FRAGMENT, 0, NULL);
   ctx->bind_fs_state(ctx, NULL);
   ctx->delete_fs_state(ctx, fs);
   ctx->delete_fs_state(ctx, ifs);
   ctx->bind_vs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, vs);
   pipe_sampler_view_reference(&v, NULL);
   pipe_sampler_view_reference(&vi, NULL);
   pipe_resource_reference(&r, NULL);
   pipe_resource_reference(&ri, NULL);
}

static uint8_t want_vs_r;

static void
want_vertex(unsigned x, unsigned y, uint8_t px[4])
{
   px[0] = want_vs_r;
   px[1] = 255;
   px[2] = 0;
   px[3] = 255;
}

/* The vertex stage: an R8_UNORM view of a buffer of 70000 bytes holds
 * 65536 texels (textureSize, g), and each vertex reads one of the last
 * three, all 200 (r); the texels before are 7.
 */
static void
test_vertex(struct pan_test_fullscreen *f)
{
   static uint8_t bytes[70000];
   memset(bytes, 7, sizeof(bytes));
   memset(bytes + MAX_TEXELS - 3, 200, 3);
   struct pipe_resource *r = buffer(sizeof(bytes), bytes);
   struct pipe_sampler_view *v =
      buffer_view(r, PIPE_FORMAT_R8_UNORM, 0, sizeof(bytes));
   void *vs = vertex_shader(true, MAX_TEXELS - 3, NULL), *fs = varying_fs();

   CHECK(screen->get_param(screen, PIPE_CAP_MAX_TEXEL_BUFFER_ELEMENTS_UINT) ==
            MAX_TEXELS,
         "65536 texels a view");
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);
   bind_view(PIPE_SHADER_VERTEX, 1, v);
   draw_triangle();
   want_vs_r = 200;
   check_pixels(f, "vertex fetches of the last texels", want_vertex);

   /* A CPU write after a draw sampling the buffer must wait for it: the
    * pixels keep 200 (the write submits the draw first), the next draw
    * sees 100.
    */
   draw_triangle();
   memset(bytes + MAX_TEXELS - 3, 100, 3);
   pipe_buffer_write(ctx, r, MAX_TEXELS - 3, 3, bytes + MAX_TEXELS - 3);
   check_pixels(f, "draw before a buffer write", want_vertex);
   draw_triangle();
   want_vs_r = 100;
   check_pixels(f, "draw after a buffer write", want_vertex);

   bind_view(PIPE_SHADER_VERTEX, 1, NULL);
   pan_test_delete_shaders(ctx, vs, fs);
   pipe_sampler_view_reference(&v, NULL);
   pipe_resource_reference(&r, NULL);
}

/* A draw samples texels of a buffer, then a draw captures its vertices
 * into the same buffer with transform feedback: the capture runs as
 * compute jobs, ahead of the pass's draws, so the first draw must be
 * submitted before it (its pixels read the old texels).
 */
static void
test_capture_after(struct pan_test_fullscreen *f)
{
   /* W * H RGBA8 texels, the first 12 of which the capture overwrites. */
   uint32_t data[W * H];
   for (unsigned i = 0; i < W * H; ++i)
      data[i] = texel(i, 1);
   struct pipe_resource *r = buffer(sizeof(data), data);
   struct pipe_sampler_view *v =
      buffer_view(r, PIPE_FORMAT_R8G8B8A8_UNORM, 0, sizeof(data));
   struct pipe_stream_output_info so = {
      .num_outputs = 1,
      .stride = { 4 },
      .output = { { .register_index = 0, .num_components = 4 } },
   };
   void *vs = vertex_shader(false, 0, NULL), *fs = fetch_fs(false);
   void *cap = vertex_shader(false, 0, &so);

   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);
   bind_view(PIPE_SHADER_FRAGMENT, 0, v);
   union pipe_color_union c = { .f = { 0, 0, 1, 1 } };
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &c, 0, 0);
   struct pipe_draw_info info = { .mode = PIPE_PRIM_TRIANGLES,
                                  .instance_count = 1 };
   struct pipe_draw_start_count_bias d = { .count = 3 };
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);

   /* The capture writes the positions over the texels; nothing drawn. */
   struct pipe_stream_output_target *t =
      ctx->create_stream_output_target(ctx, r, 0, sizeof(data));
   unsigned zero = 0;
   ctx->bind_vs_state(ctx, cap);
   ctx->set_stream_output_targets(ctx, 1, &t, &zero);
   struct pipe_rasterizer_state rast = { .rasterizer_discard = 1,
                                         .half_pixel_center = 1,
                                         .depth_clip_near = 1,
                                         .depth_clip_far = 1 };
   void *discard = ctx->create_rasterizer_state(ctx, &rast);
   ctx->bind_rasterizer_state(ctx, discard);
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
   ctx->set_stream_output_targets(ctx, 0, NULL, NULL);
   ctx->bind_rasterizer_state(ctx, f->cso[1]);

   want_gen = 1;
   want_size = W * H;
   want_alpha = 0xf0;
   check_pixels(f, "draw before a capture into its buffer", want_fetch);
   float got[4];
   pipe_buffer_read(ctx, r, 16, sizeof(got), got);
   CHECK(got[0] == 3 && got[1] == -1 && got[3] == 1,
         "captured second vertex (%g, %g, %g, %g)", got[0], got[1], got[2],
         got[3]);

   pipe_so_target_reference(&t, NULL);
   ctx->delete_rasterizer_state(ctx, discard);
   bind_view(PIPE_SHADER_FRAGMENT, 0, NULL);
   pan_test_delete_shaders(ctx, vs, fs);
   ctx->delete_vs_state(ctx, cap);
   pipe_sampler_view_reference(&v, NULL);
   pipe_resource_reference(&r, NULL);
}

/* word[i] = 0 for W * H words of storage buffer 0, one per thread. */
static void *
zero_cs(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_COMPUTE, "zero");
   b.shader->info.workgroup_size[0] = W;
   b.shader->info.workgroup_size[1] = 1;
   b.shader->info.workgroup_size[2] = 1;
   b.shader->info.num_ssbos = 1;
   nir_ssa_def *i = nir_channel(&b, nir_load_global_invocation_id(&b, 32), 0);
   nir_store_ssbo(&b, nir_imm_int(&b, 0), nir_imm_int(&b, 0),
                  nir_imul_imm(&b, i, 4), .write_mask = 1, .align_mul = 4);
   struct pipe_compute_state cso = { .ir_type = PIPE_SHADER_IR_NIR,
                                     .prog = b.shader };
   return ctx->create_compute_state(ctx, &cso);
}

/* A draw samples a buffer, then a dispatch zeroes it through a storage
 * buffer: the batch's compute jobs run ahead of its pass, so the draw
 * must be submitted first (its pixels read the old texels).
 */
static void
test_dispatch_after(struct pan_test_fullscreen *f)
{
   uint32_t data[W * H];
   for (unsigned i = 0; i < W * H; ++i)
      data[i] = texel(i, 2);
   struct pipe_resource *r = buffer(sizeof(data), data);
   struct pipe_sampler_view *v =
      buffer_view(r, PIPE_FORMAT_R8G8B8A8_UNORM, 0, sizeof(data));
   void *vs = vertex_shader(false, 0, NULL), *fs = fetch_fs(false);
   void *cs = zero_cs();

   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);
   bind_view(PIPE_SHADER_FRAGMENT, 0, v);
   draw_triangle();
   struct pipe_shader_buffer sb = { .buffer = r, .buffer_size = sizeof(data) };
   ctx->set_shader_buffers(ctx, PIPE_SHADER_COMPUTE, 0, 1, &sb, 0x1);
   ctx->bind_compute_state(ctx, cs);
   struct pipe_grid_info grid = { .work_dim = 1,
                                  .block = { W, 1, 1 },
                                  .grid = { H, 1, 1 } };
   ctx->launch_grid(ctx, &grid);

   want_gen = 2;
   want_size = W * H;
   want_alpha = 0xf0;
   check_pixels(f, "draw before a dispatch writing its buffer", want_fetch);
   uint32_t got[W * H];
   pipe_buffer_read(ctx, r, 0, sizeof(got), got);
   unsigned zeros = 0;
   for (unsigned i = 0; i < W * H; ++i)
      zeros += got[i] == 0;
   CHECK(zeros == W * H, "dispatch zeroed %u of %u words", zeros, W * H);

   ctx->set_shader_buffers(ctx, PIPE_SHADER_COMPUTE, 0, 1, NULL, 0);
   ctx->bind_compute_state(ctx, NULL);
   ctx->delete_compute_state(ctx, cs);
   bind_view(PIPE_SHADER_FRAGMENT, 0, NULL);
   pan_test_delete_shaders(ctx, vs, fs);
   pipe_sampler_view_reference(&v, NULL);
   pipe_resource_reference(&r, NULL);
}

/* What the screen offers, and a view it cannot describe (an offset off
 * the 64-byte alignment): a draw sampling it is dropped, naming why.
 */
static void
test_limits(struct pan_test_fullscreen *f)
{
   CHECK(screen->get_param(screen, PIPE_CAP_TEXTURE_BUFFER_OBJECTS) == 1,
         "texture buffers offered");
   CHECK(screen->get_param(screen, PIPE_CAP_TEXTURE_BUFFER_OFFSET_ALIGNMENT) ==
            64,
         "views on 64-byte boundaries");
   CHECK(screen->get_param(screen, PIPE_CAP_GLSL_FEATURE_LEVEL) >= 140,
         "GLSL 1.40 or later");
   static const enum pipe_format ok[] = {
      PIPE_FORMAT_R8_UNORM,    PIPE_FORMAT_R8_SINT,
      PIPE_FORMAT_R16G16_UINT, PIPE_FORMAT_R16G16B16A16_FLOAT,
      PIPE_FORMAT_R32G32_SINT, PIPE_FORMAT_R32G32B32A32_FLOAT,
      PIPE_FORMAT_L8A8_UNORM,  PIPE_FORMAT_I32_FLOAT,
   };
   for (unsigned i = 0; i < ARRAY_SIZE(ok); ++i) {
      CHECK(screen->is_format_supported(screen, ok[i], PIPE_BUFFER, 0, 0,
                                        PIPE_BIND_SAMPLER_VIEW),
            "buffer views of format %u", ok[i]);
   }
   CHECK(!screen->is_format_supported(screen, PIPE_FORMAT_R32G32B32_FLOAT,
                                      PIPE_BUFFER, 0, 0,
                                      PIPE_BIND_SAMPLER_VIEW),
         "no RGB32 buffer views");

   uint32_t data[64] = { 0 };
   struct pipe_resource *r = buffer(sizeof(data), data);
   struct pipe_sampler_view *v =
      buffer_view(r, PIPE_FORMAT_R8G8B8A8_UNORM, 4, 64);
   void *vs = vertex_shader(false, 0, NULL), *fs = fetch_fs(false);
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);
   bind_view(PIPE_SHADER_FRAGMENT, 0, v);
   pan_test_debug_msg[0] = 0;
   draw_triangle();
   CHECK(strstr(pan_test_debug_msg, "not a multiple of 64"),
         "misaligned view message: \"%s\"", pan_test_debug_msg);

   bind_view(PIPE_SHADER_FRAGMENT, 0, NULL);
   pan_test_delete_shaders(ctx, vs, fs);
   pipe_sampler_view_reference(&v, NULL);
   pipe_resource_reference(&r, NULL);
}

int
main(int argc, char **argv)
{
   struct pan_test_fullscreen f;

   if (!pan_test_open(&screen, &ctx))
      return 1;
   /* Midgard (--none): no buffer views, so no texture buffers, no RGBA8
    * buffer views and GLSL 1.30. */
   if (argc > 1 && !strcmp(argv[1], "--none")) {
      CHECK(!screen->get_param(screen, PIPE_CAP_TEXTURE_BUFFER_OBJECTS),
            "texture buffers offered without buffer views");
      CHECK(!screen->is_format_supported(screen, PIPE_FORMAT_R8G8B8A8_UNORM,
                                         PIPE_BUFFER, 0, 0,
                                         PIPE_BIND_SAMPLER_VIEW),
            "RGBA8 buffer views offered without buffer views");
      CHECK(screen->get_param(screen, PIPE_CAP_GLSL_FEATURE_LEVEL) == 130,
            "GLSL %d, want 1.30",
            screen->get_param(screen, PIPE_CAP_GLSL_FEATURE_LEVEL));
      return pan_test_close(screen, ctx);
   }
   setup(&f);
   test_limits(&f);
   test_fragment(&f);
   test_vertex(&f);
   test_capture_after(&f);
   test_dispatch_after(&f);
   teardown(&f);
   return pan_test_close(screen, ctx);
}
