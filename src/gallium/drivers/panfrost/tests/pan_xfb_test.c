/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Transform feedback and the primitive queries on the v9 draw path, at
 * the Gallium level on the drm-shim whose simulator runs the capture's
 * compute jobs.  A vertex shader built with nir_builder writes
 * gl_Position = pos + a uniform offset and VAR0 = (col.x, col.y,
 * instance id, vertex id); every captured word is compared with a
 * reference computed here from GL's decomposition of the primitives.
 * The timer queries are checked for order against each other, the
 * occlusion queries' counts against the pixels drawn, and conditional
 * rendering against them.
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
#include "util/u_box.h"
#include "util/u_inlines.h"

#include "pan_test_screen.h"

#define W 32
#define H 32
#define NV 6

static struct pipe_screen *screen;
static struct pipe_context *ctx;

static const float offset[4] = { 0.5f, -0.25f, 0.0f, 0.0f };
static const float clear_rgba[4] = { 0.0f, 0.0f, 1.0f, 1.0f };

/* Vertex i: position (i / 8 - 0.5, (i & 1) / 2 - 0.5, 0, 1) and colour
 * (i + 0.5, 10 + i, 0, 0).
 */
static void
vertex(unsigned i, float pos[4], float col[4])
{
   pos[0] = i / 8.0f - 0.5f;
   pos[1] = (i & 1) / 2.0f - 0.5f;
   pos[2] = 0.0f;
   pos[3] = 1.0f;
   col[0] = i + 0.5f;
   col[1] = 10.0f + i;
   col[2] = col[3] = 0.0f;
}

/* What the shader writes for a vertex: gl_Position then VAR0. */
static void
outputs(unsigned vid, unsigned iid, float out[8])
{
   float col[4];
   vertex(vid, out, col);
   for (unsigned c = 0; c < 4; ++c)
      out[c] += offset[c];
   out[4] = col[0];
   out[5] = col[1];
   out[6] = iid;
   out[7] = vid;
}

#define io_var pan_test_io_var

static void *
capture_vs(const struct pipe_stream_output_info *so)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_VERTEX, "xfb");
   nir_variable *pos =
      io_var(b.shader, nir_var_shader_in, VERT_ATTRIB_GENERIC0, 0, "pos");
   nir_variable *col =
      io_var(b.shader, nir_var_shader_in, VERT_ATTRIB_GENERIC1, 1, "col");
   nir_variable *opos =
      io_var(b.shader, nir_var_shader_out, VARYING_SLOT_POS, 0, "gl_Position");
   nir_variable *ov =
      io_var(b.shader, nir_var_shader_out, VARYING_SLOT_VAR0, 1, "v0");
   b.shader->num_uniforms = 1;
   b.shader->info.num_ubos = 1;

   nir_ssa_def *off = nir_load_ubo(&b, 4, 32, nir_imm_int(&b, 0),
                                   nir_imm_int(&b, 0), .align_mul = 16,
                                   .range = 16);
   nir_store_var(&b, opos, nir_fadd(&b, nir_load_var(&b, pos), off), 0xf);
   nir_ssa_def *c = nir_load_var(&b, col);
   nir_ssa_def *v[4] = {
      nir_channel(&b, c, 0), nir_channel(&b, c, 1),
      nir_u2f32(&b, nir_load_instance_id(&b)),
      nir_u2f32(&b, nir_load_vertex_id(&b)),
   };
   nir_store_var(&b, ov, nir_vec(&b, v, 4), 0xf);

   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader,
                                    .stream_output = *so };
   return ctx->create_vs_state(ctx, &cso);
}

static void *
constant_fs(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_FRAGMENT, "red");
   nir_variable *out =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "colour");
   nir_store_var(&b, out, nir_imm_vec4(&b, 1, 0, 0, 1), 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

/* ------------------------------------------------------------------ */

struct fixture {
   struct pipe_resource *tex, *vbuf;
   struct pipe_surface *surf;
   void *cso[5], *discard;
};

static void
setup(struct fixture *f)
{
   f->surf = pan_test_bind_target(screen, ctx, W, H, &f->tex);

   struct pipe_blend_state blend = { .rt[0].colormask = PIPE_MASK_RGBA };
   struct pipe_rasterizer_state rast = {
      .half_pixel_center = 1,
      .depth_clip_near = 1,
      .depth_clip_far = 1,
   };
   struct pipe_depth_stencil_alpha_state zsa = { 0 };
   struct pipe_vertex_element ve[2] = {
      { .src_offset = 0, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
      { .src_offset = 16, .src_format = PIPE_FORMAT_R32G32_FLOAT },
   };
   struct pipe_viewport_state vp = {
      .scale = { W / 2.0f, H / 2.0f, 0.5f },
      .translate = { W / 2.0f, H / 2.0f, 0.5f },
   };
   f->cso[0] = ctx->create_blend_state(ctx, &blend);
   f->cso[1] = ctx->create_rasterizer_state(ctx, &rast);
   f->cso[2] = ctx->create_depth_stencil_alpha_state(ctx, &zsa);
   f->cso[3] = ctx->create_vertex_elements_state(ctx, 2, ve);
   f->cso[4] = constant_fs();
   rast.rasterizer_discard = 1;
   f->discard = ctx->create_rasterizer_state(ctx, &rast);
   ctx->bind_blend_state(ctx, f->cso[0]);
   ctx->bind_rasterizer_state(ctx, f->cso[1]);
   ctx->bind_depth_stencil_alpha_state(ctx, f->cso[2]);
   ctx->bind_vertex_elements_state(ctx, f->cso[3]);
   ctx->bind_fs_state(ctx, f->cso[4]);
   ctx->set_viewport_states(ctx, 0, 1, &vp);
   ctx->set_sample_mask(ctx, ~0u);

   /* Vertex i at 24 * i: a vec4 position and a vec2 colour. */
   float data[NV * 6];
   for (unsigned i = 0; i < NV; ++i) {
      float col[4];
      vertex(i, &data[i * 6], col);
      data[i * 6 + 4] = col[0];
      data[i * 6 + 5] = col[1];
   }
   f->vbuf = pipe_buffer_create(screen, PIPE_BIND_VERTEX_BUFFER,
                                PIPE_USAGE_DEFAULT, sizeof(data));
   pipe_buffer_write(ctx, f->vbuf, 0, sizeof(data), data);
   struct pipe_vertex_buffer vb = {
      .stride = 24,
      .buffer.resource = f->vbuf,
   };
   ctx->set_vertex_buffers(ctx, 0, 1, 0, false, &vb);
   struct pipe_constant_buffer cb = {
      .user_buffer = offset,
      .buffer_size = sizeof(offset),
   };
   ctx->set_constant_buffer(ctx, PIPE_SHADER_VERTEX, 0, false, &cb);
}

static void
teardown(struct fixture *f)
{
   struct pipe_framebuffer_state none = { 0 };
   ctx->set_framebuffer_state(ctx, &none);
   ctx->set_vertex_buffers(ctx, 0, 0, 1, false, NULL);
   ctx->set_constant_buffer(ctx, PIPE_SHADER_VERTEX, 0, false, NULL);
   ctx->bind_fs_state(ctx, NULL);
   ctx->delete_fs_state(ctx, f->cso[4]);
   ctx->delete_blend_state(ctx, f->cso[0]);
   ctx->delete_rasterizer_state(ctx, f->cso[1]);
   ctx->delete_rasterizer_state(ctx, f->discard);
   ctx->delete_depth_stencil_alpha_state(ctx, f->cso[2]);
   ctx->delete_vertex_elements_state(ctx, f->cso[3]);
   pipe_surface_reference(&f->surf, NULL);
   pipe_resource_reference(&f->tex, NULL);
   pipe_resource_reference(&f->vbuf, NULL);
}

/* Pixels of the target that are not the clear colour. */
static unsigned
drawn_pixels(struct fixture *f)
{
   struct pipe_transfer *xfer;
   const uint8_t *map =
      pipe_texture_map(ctx, f->tex, 0, 0, PIPE_MAP_READ, 0, 0, W, H, &xfer);
   unsigned n = 0;
   CHECK(map, "render target map failed");
   for (unsigned y = 0; map && y < H; ++y) {
      for (unsigned x = 0; x < W; ++x)
         n += map[y * xfer->stride + x * 4 + 2] != 255;
   }
   if (map)
      pipe_texture_unmap(ctx, xfer);
   return n;
}

static void
clear(void)
{
   union pipe_color_union c;
   memcpy(c.f, clear_rgba, sizeof(c.f));
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &c, 0, 0);
}

static struct pipe_resource *
so_buffer(unsigned size_B)
{
   struct pipe_resource *r = pipe_buffer_create(
      screen, PIPE_BIND_STREAM_OUTPUT, PIPE_USAGE_DEFAULT, size_B);
   uint8_t junk[1024];
   memset(junk, 0xcd, sizeof(junk));
   pipe_buffer_write(ctx, r, 0, size_B, junk);
   return r;
}

static void
draw(enum pipe_prim_type mode, unsigned start, unsigned count,
     unsigned instances)
{
   struct pipe_draw_info info = { .mode = mode, .instance_count = instances };
   struct pipe_draw_start_count_bias d = { .start = start, .count = count };
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
}

/* Compares the words of a buffer with the reference: for each captured
 * vertex (vid, iid pairs), the components [first, first + n) of its
 * outputs at word stride * k; words past the capture keep the 0xcd fill.
 */
static void
check_capture(const char *what, struct pipe_resource *buf, unsigned stride,
              unsigned first, unsigned n, const unsigned (*ids)[2],
              unsigned nr, unsigned words)
{
   uint32_t got[256];
   pipe_buffer_read(ctx, buf, 0, words * 4, got);
   unsigned bad = 0;
   for (unsigned k = 0; k < nr; ++k) {
      float ref[8];
      outputs(ids[k][0], ids[k][1], ref);
      for (unsigned c = 0; c < n; ++c) {
         float g;
         memcpy(&g, &got[k * stride + c], 4);
         if (g != ref[first + c] && bad++ < 4)
            CHECK(false, "%s: vertex %u word %u is %f, want %f", what, k, c,
                  g, ref[first + c]);
      }
   }
   for (unsigned w = nr * stride; w < words; ++w) {
      if (got[w] != 0xcdcdcdcd && bad++ < 4)
         CHECK(false, "%s: word %u past the capture is 0x%08x", what, w,
               got[w]);
   }
   CHECK(!bad, "%s: %u words differ", what, bad);
}

static uint64_t
query_u64(struct pipe_query *q)
{
   union pipe_query_result r = { 0 };
   CHECK(ctx->get_query_result(ctx, q, true, &r), "query result");
   return r.u64;
}

/* A triangle strip of 5 vertices (3 triangles) captured interleaved into
 * one buffer with room for 4 triangles, twice (the second appends: only
 * one triangle fits), with the four queries around both draws; then the
 * same with rasterizer discard, which must still capture and not draw.
 */
static void
test_interleaved(struct fixture *f)
{
   struct pipe_stream_output_info so = {
      .num_outputs = 2,
      .stride = { 8 },
      .output = {
         { .register_index = 0, .num_components = 4, .dst_offset = 0 },
         { .register_index = 1, .num_components = 4, .dst_offset = 4 },
      },
   };
   void *vs = capture_vs(&so);
   ctx->bind_vs_state(ctx, vs);
   struct pipe_resource *buf = so_buffer(12 * 8 * 4 + 64);
   struct pipe_stream_output_target *t =
      ctx->create_stream_output_target(ctx, buf, 0, 12 * 8 * 4);
   struct pipe_query *gen =
      ctx->create_query(ctx, PIPE_QUERY_PRIMITIVES_GENERATED, 0);
   struct pipe_query *emit =
      ctx->create_query(ctx, PIPE_QUERY_PRIMITIVES_EMITTED, 0);
   struct pipe_query *stats = ctx->create_query(ctx, PIPE_QUERY_SO_STATISTICS, 0);
   struct pipe_query *ovf =
      ctx->create_query(ctx, PIPE_QUERY_SO_OVERFLOW_PREDICATE, 0);
   CHECK(gen && emit && stats && ovf, "primitive queries created");

   clear();
   ctx->begin_query(ctx, gen);
   ctx->begin_query(ctx, emit);
   ctx->begin_query(ctx, stats);
   ctx->begin_query(ctx, ovf);
   unsigned zero = 0, append = ~0u;
   ctx->set_stream_output_targets(ctx, 1, &t, &zero);
   draw(PIPE_PRIM_TRIANGLE_STRIP, 0, 5, 1);
   ctx->set_stream_output_targets(ctx, 0, NULL, NULL);
   ctx->set_stream_output_targets(ctx, 1, &t, &append);
   draw(PIPE_PRIM_TRIANGLE_STRIP, 1, 5, 1);
   ctx->end_query(ctx, gen);
   ctx->end_query(ctx, emit);
   ctx->end_query(ctx, stats);
   ctx->end_query(ctx, ovf);
   ctx->set_stream_output_targets(ctx, 0, NULL, NULL);

   static const unsigned strip[][2] = {
      { 0, 0 }, { 1, 0 }, { 2, 0 }, { 2, 0 }, { 1, 0 }, { 3, 0 },
      { 2, 0 }, { 3, 0 }, { 4, 0 }, { 1, 0 }, { 2, 0 }, { 3, 0 },
   };
   check_capture("interleaved strip, appended", buf, 8, 0, 8, strip, 12,
                 12 * 8 + 16);
   CHECK(query_u64(gen) == 6, "primitives generated %llu, want 6",
         (unsigned long long)query_u64(gen));
   CHECK(query_u64(emit) == 4, "primitives emitted %llu, want 4",
         (unsigned long long)query_u64(emit));
   union pipe_query_result r = { 0 };
   ctx->get_query_result(ctx, stats, true, &r);
   CHECK(r.so_statistics.num_primitives_written == 4 &&
            r.so_statistics.primitives_storage_needed == 6,
         "SO statistics %llu written, %llu needed",
         (unsigned long long)r.so_statistics.num_primitives_written,
         (unsigned long long)r.so_statistics.primitives_storage_needed);
   ctx->get_query_result(ctx, ovf, true, &r);
   CHECK(r.b, "the overflow predicate is set");
   CHECK(drawn_pixels(f) > 0, "the strips are drawn without discard");

   /* Discard: captured from the start again, nothing drawn; a draw
    * without targets counts for the generated query only.
    */
   clear();
   ctx->bind_rasterizer_state(ctx, f->discard);
   ctx->begin_query(ctx, gen);
   ctx->begin_query(ctx, emit);
   ctx->begin_query(ctx, ovf);
   ctx->set_stream_output_targets(ctx, 1, &t, &zero);
   draw(PIPE_PRIM_TRIANGLES, 0, 6, 1);
   ctx->set_stream_output_targets(ctx, 0, NULL, NULL);
   draw(PIPE_PRIM_POINTS, 0, 3, 1);
   ctx->end_query(ctx, gen);
   ctx->end_query(ctx, emit);
   ctx->end_query(ctx, ovf);
   ctx->bind_rasterizer_state(ctx, f->cso[1]);
   static const unsigned tris[][2] = {
      { 0, 0 }, { 1, 0 }, { 2, 0 }, { 3, 0 }, { 4, 0 }, { 5, 0 },
   };
   check_capture("triangles with discard", buf, 8, 0, 8, tris, 6, 6 * 8);
   CHECK(query_u64(gen) == 5, "primitives generated %llu, want 5",
         (unsigned long long)query_u64(gen));
   CHECK(query_u64(emit) == 2, "primitives emitted %llu, want 2",
         (unsigned long long)query_u64(emit));
   ctx->get_query_result(ctx, ovf, true, &r);
   CHECK(!r.b, "no overflow");
   CHECK(drawn_pixels(f) == 0, "rasterizer discard draws nothing");

   /* glDrawTransformFeedback: as many vertices as the target holds. */
   struct pipe_draw_indirect_info from_so = { .count_from_stream_output = t };
   struct pipe_draw_info info = { .mode = PIPE_PRIM_TRIANGLES,
                                  .instance_count = 1 };
   struct pipe_draw_start_count_bias d = { 0 };
   ctx->bind_rasterizer_state(ctx, f->discard);
   ctx->begin_query(ctx, gen);
   ctx->draw_vbo(ctx, &info, 0, &from_so, &d, 1);
   ctx->end_query(ctx, gen);
   ctx->bind_rasterizer_state(ctx, f->cso[1]);
   CHECK(query_u64(gen) == 2, "a draw of the 6 captured vertices made %llu "
                              "primitives, want 2",
         (unsigned long long)query_u64(gen));

   ctx->destroy_query(ctx, gen);
   ctx->destroy_query(ctx, emit);
   ctx->destroy_query(ctx, stats);
   ctx->destroy_query(ctx, ovf);
   pipe_so_target_reference(&t, NULL);
   pipe_resource_reference(&buf, NULL);
   ctx->bind_vs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, vs);
}

/* Two buffers, separate: gl_Position.xy into one, VAR0.zw (instance and
 * vertex ids) into the other, from an instanced indexed strip with a
 * restart and an index bias, and a line loop after it (appended).
 */
static void
test_separate(struct fixture *f)
{
   struct pipe_stream_output_info so = {
      .num_outputs = 2,
      .stride = { 2, 2 },
      .output = {
         { .register_index = 0, .num_components = 2, .output_buffer = 0 },
         { .register_index = 1, .start_component = 2, .num_components = 2,
           .output_buffer = 1 },
      },
   };
   void *vs = capture_vs(&so);
   ctx->bind_vs_state(ctx, vs);
   struct pipe_resource *b[2] = { so_buffer(256), so_buffer(256) };
   struct pipe_stream_output_target *t[2];
   for (unsigned i = 0; i < 2; ++i)
      t[i] = ctx->create_stream_output_target(ctx, b[i], 0, 256);

   clear();
   ctx->bind_rasterizer_state(ctx, f->discard);
   unsigned zero[2] = { 0, 0 };
   ctx->set_stream_output_targets(ctx, 2, t, zero);
   static const uint16_t idx[] = { 3, 2, 1, 0xffff, 0, 1, 4 };
   struct pipe_draw_info info = {
      .mode = PIPE_PRIM_TRIANGLE_STRIP,
      .index_size = 2,
      .instance_count = 2,
      .primitive_restart = true,
      .restart_index = 0xffff,
      .has_user_indices = true,
      .index.user = idx,
   };
   struct pipe_draw_start_count_bias d = { .count = 7, .index_bias = 1 };
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
   draw(PIPE_PRIM_LINE_LOOP, 2, 3, 1);
   ctx->set_stream_output_targets(ctx, 0, NULL, NULL);
   ctx->bind_rasterizer_state(ctx, f->cso[1]);

   static const unsigned ids[][2] = {
      { 4, 0 }, { 3, 0 }, { 2, 0 }, { 1, 0 }, { 2, 0 }, { 5, 0 },
      { 4, 1 }, { 3, 1 }, { 2, 1 }, { 1, 1 }, { 2, 1 }, { 5, 1 },
      { 2, 0 }, { 3, 0 }, { 3, 0 }, { 4, 0 }, { 4, 0 }, { 2, 0 },
   };
   check_capture("separate, position.xy", b[0], 2, 0, 2, ids, 18, 64);
   check_capture("separate, ids", b[1], 2, 6, 2, ids, 18, 64);

   for (unsigned i = 0; i < 2; ++i) {
      pipe_so_target_reference(&t[i], NULL);
      pipe_resource_reference(&b[i], NULL);
   }
   ctx->bind_vs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, vs);
}

/* Timer queries: a timestamp before and after a draw with its elapsed
 * time between, all from the clock get_timestamp reads.
 */
static void
test_timers(struct fixture *f)
{
   struct pipe_query *t0 = ctx->create_query(ctx, PIPE_QUERY_TIMESTAMP, 0);
   struct pipe_query *t1 = ctx->create_query(ctx, PIPE_QUERY_TIMESTAMP, 0);
   struct pipe_query *dt = ctx->create_query(ctx, PIPE_QUERY_TIME_ELAPSED, 0);
   struct pipe_stream_output_info so = { 0 };
   void *vs = capture_vs(&so);

   CHECK(t0 && t1 && dt, "timer queries created");
   ctx->bind_vs_state(ctx, vs);
   clear();
   ctx->end_query(ctx, t0);
   ctx->begin_query(ctx, dt);
   draw(PIPE_PRIM_TRIANGLE_STRIP, 0, 5, 1);
   ctx->end_query(ctx, dt);
   ctx->end_query(ctx, t1);
   uint64_t a = query_u64(t0), b = query_u64(t1), d = query_u64(dt);
   CHECK(a && a < b && d && d <= b - a &&
            screen->get_timestamp(screen) >= b,
         "timestamps %llu, %llu with %llu elapsed between",
         (unsigned long long)a, (unsigned long long)b, (unsigned long long)d);
   CHECK(drawn_pixels(f) > 0, "the timed draw is drawn");

   ctx->destroy_query(ctx, t0);
   ctx->destroy_query(ctx, t1);
   ctx->destroy_query(ctx, dt);
   ctx->bind_vs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, vs);
}

/* Occlusion queries with a depth buffer, in one pass (no flush between
 * the draws): a strip over part of the target, then a wider one at the
 * same depth that the first hides where they overlap under LESS, then
 * the wider one again, hidden everywhere.  The counts are compared with
 * the pixels the draws colour.
 */
static void
test_occlusion(struct fixture *f)
{
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = PIPE_FORMAT_Z24_UNORM_S8_UINT,
      .width0 = W,
      .height0 = H,
      .depth0 = 1,
      .array_size = 1,
      .bind = PIPE_BIND_DEPTH_STENCIL,
   };
   struct pipe_resource *zs = screen->resource_create(screen, &templ);
   struct pipe_surface st = { .format = templ.format };
   struct pipe_surface *zsurf = ctx->create_surface(ctx, zs, &st);
   struct pipe_framebuffer_state fb = {
      .width = W, .height = H, .nr_cbufs = 1, .cbufs = { f->surf },
      .zsbuf = zsurf,
   };
   struct pipe_depth_stencil_alpha_state zsa = {
      .depth_enabled = 1,
      .depth_writemask = 1,
      .depth_func = PIPE_FUNC_LESS,
   };
   void *less = ctx->create_depth_stencil_alpha_state(ctx, &zsa);
   struct pipe_stream_output_info so = { 0 };
   void *vs = capture_vs(&so);
   struct pipe_query *q[4];
   static const enum pipe_query_type types[4] = {
      PIPE_QUERY_OCCLUSION_COUNTER, PIPE_QUERY_OCCLUSION_COUNTER,
      PIPE_QUERY_OCCLUSION_COUNTER, PIPE_QUERY_OCCLUSION_PREDICATE,
   };
   for (unsigned i = 0; i < 4; ++i)
      q[i] = ctx->create_query(ctx, types[i], 0);
   CHECK(screen->get_param(screen, PIPE_CAP_OCCLUSION_QUERY),
         "occlusion queries offered");
   CHECK(q[0] && q[1] && q[2] && q[3], "occlusion queries created");
   if (!q[0] || !q[1] || !q[2] || !q[3])
      return;

   ctx->set_framebuffer_state(ctx, &fb);
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_depth_stencil_alpha_state(ctx, less);

   /* The narrow strip alone: its pixels. */
   clear();
   ctx->clear(ctx, PIPE_CLEAR_DEPTHSTENCIL, NULL, NULL, 1.0, 0);
   draw(PIPE_PRIM_TRIANGLE_STRIP, 0, 4, 1);
   unsigned narrow = drawn_pixels(f);

   clear();
   ctx->clear(ctx, PIPE_CLEAR_DEPTHSTENCIL, NULL, NULL, 1.0, 0);
   ctx->begin_query(ctx, q[0]);
   draw(PIPE_PRIM_TRIANGLE_STRIP, 0, 4, 1);
   ctx->end_query(ctx, q[0]);
   ctx->begin_query(ctx, q[1]);
   draw(PIPE_PRIM_TRIANGLE_STRIP, 0, 6, 1);
   ctx->end_query(ctx, q[1]);
   ctx->begin_query(ctx, q[2]);
   draw(PIPE_PRIM_TRIANGLE_STRIP, 0, 6, 1);
   ctx->end_query(ctx, q[2]);
   ctx->begin_query(ctx, q[3]);
   draw(PIPE_PRIM_TRIANGLE_STRIP, 0, 4, 1);
   ctx->end_query(ctx, q[3]);
   unsigned wide = drawn_pixels(f);
   uint64_t n[3] = { query_u64(q[0]), query_u64(q[1]), query_u64(q[2]) };
   union pipe_query_result any = { 0 };
   CHECK(ctx->get_query_result(ctx, q[3], true, &any), "predicate result");

   CHECK(narrow > 0 && narrow < wide, "%u pixels of the narrow strip, %u "
         "of both", narrow, wide);
   CHECK(n[0] == narrow, "the narrow strip passes %llu samples, want %u",
         (unsigned long long)n[0], narrow);
   CHECK(n[1] == wide - narrow, "the wide strip behind it passes %llu "
         "samples, want %u", (unsigned long long)n[1], wide - narrow);
   CHECK(n[2] == 0, "the hidden strip passes %llu samples",
         (unsigned long long)n[2]);
   CHECK(!any.b, "the predicate of a hidden strip is set");

   /* Reused: the counters start from zero again; a visible draw sets the
    * predicate.  One occlusion query is active at a time (the draw has
    * one pointer).
    */
   clear();
   ctx->clear(ctx, PIPE_CLEAR_DEPTHSTENCIL, NULL, NULL, 1.0, 0);
   ctx->begin_query(ctx, q[0]);
   draw(PIPE_PRIM_TRIANGLE_STRIP, 0, 6, 1);
   ctx->end_query(ctx, q[0]);
   n[0] = query_u64(q[0]);
   clear();
   ctx->clear(ctx, PIPE_CLEAR_DEPTHSTENCIL, NULL, NULL, 1.0, 0);
   ctx->begin_query(ctx, q[3]);
   draw(PIPE_PRIM_TRIANGLE_STRIP, 0, 4, 1);
   ctx->end_query(ctx, q[3]);
   CHECK(n[0] == wide, "the reused query counts %llu, want %u",
         (unsigned long long)n[0], wide);
   CHECK(ctx->get_query_result(ctx, q[3], true, &any) && any.b,
         "the predicate of a visible strip is set");

   for (unsigned i = 0; i < 4; ++i)
      ctx->destroy_query(ctx, q[i]);
   fb.zsbuf = NULL;
   ctx->set_framebuffer_state(ctx, &fb);
   ctx->bind_depth_stencil_alpha_state(ctx, f->cso[2]);
   ctx->delete_depth_stencil_alpha_state(ctx, less);
   ctx->bind_vs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, vs);
   pipe_surface_reference(&zsurf, NULL);
   pipe_resource_reference(&zs, NULL);
}

/* A pass without attachments (ARB_framebuffer_no_attachments): only the
 * framebuffer's size.  The fragment work still runs: an occlusion query
 * around the wide strip counts the pixels it covers in the target, which
 * a smaller no-attachment framebuffer must clip to its own size.
 */
static void
test_no_attachments(struct fixture *f)
{
   struct pipe_stream_output_info so = { 0 };
   void *vs = capture_vs(&so);
   struct pipe_query *q = ctx->create_query(ctx, PIPE_QUERY_OCCLUSION_COUNTER,
                                            0);
   CHECK(screen->get_param(screen, PIPE_CAP_FRAMEBUFFER_NO_ATTACHMENT),
         "framebuffers without attachments offered");
   if (!q)
      return;
   ctx->bind_vs_state(ctx, vs);
   clear();
   draw(PIPE_PRIM_TRIANGLE_STRIP, 0, 6, 1);
   unsigned wide = drawn_pixels(f);
   struct pipe_framebuffer_state with = {
      .width = W, .height = H, .nr_cbufs = 1, .cbufs = { f->surf },
   };
   uint64_t n[2];

   for (unsigned i = 0; i < 2; ++i) {
      struct pipe_framebuffer_state none = {
         .width = i ? 1 : W, .height = H, .layers = 1, .samples = 1,
      };
      ctx->set_framebuffer_state(ctx, &none);
      ctx->begin_query(ctx, q);
      draw(PIPE_PRIM_TRIANGLE_STRIP, 0, 6, 1);
      ctx->end_query(ctx, q);
      n[i] = query_u64(q);
   }
   ctx->set_framebuffer_state(ctx, &with);
   CHECK(wide > 0 && n[0] == wide, "no attachments: %llu samples pass, the "
         "target has %u pixels drawn", (unsigned long long)n[0], wide);
   CHECK(n[1] < n[0] && n[1] <= H, "no attachments, one column: %llu "
         "samples pass", (unsigned long long)n[1]);
   ctx->destroy_query(ctx, q);
   ctx->bind_vs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, vs);
}

/* A W/2 x H/2 red texture scaled over the whole target (a draw of the
 * blitter, not a copy), under the condition when cond is set.
 */
static void
blit_red(struct fixture *f, bool cond)
{
   struct pipe_resource templ = *f->tex;
   templ.width0 = W / 2;
   templ.height0 = H / 2;
   templ.bind = PIPE_BIND_SAMPLER_VIEW;
   struct pipe_resource *src = screen->resource_create(screen, &templ);
   uint32_t red[W / 2 * H / 2];
   for (unsigned i = 0; i < W / 2 * H / 2; ++i)
      red[i] = 0xff0000ff; /* R8G8B8A8: r = 255, b = 0 */
   struct pipe_blit_info info = {
      .dst = { .resource = f->tex, .format = templ.format },
      .src = { .resource = src, .format = templ.format },
      .mask = PIPE_MASK_RGBA,
      .filter = PIPE_TEX_FILTER_NEAREST,
      .render_condition_enable = cond,
   };
   CHECK(src, "blit source created");
   if (!src)
      return;
   u_box_2d(0, 0, W / 2, H / 2, &info.src.box);
   ctx->texture_subdata(ctx, src, 0, 0, &info.src.box, red, W / 2 * 4, 0);
   u_box_2d(0, 0, W, H, &info.dst.box);
   ctx->blit(ctx, &info);
   pipe_resource_reference(&src, NULL);
}

/* Draws (and a clear) made under conditional rendering whose query saw
 * nothing (a draw with rasterizer discard) are skipped, and made when
 * inverted; those under a query that saw samples are made, and skipped
 * when inverted.  Each mode is used once.  A blit is skipped only when
 * asked to look at the condition.
 */
static void
test_render_condition(struct fixture *f)
{
   struct pipe_stream_output_info so = { 0 };
   void *vs = capture_vs(&so);
   struct pipe_query *pred =
      ctx->create_query(ctx, PIPE_QUERY_OCCLUSION_PREDICATE, 0);
   struct pipe_query *count =
      ctx->create_query(ctx, PIPE_QUERY_OCCLUSION_COUNTER, 0);
   union pipe_color_union red = { .f = { 1.0f, 0.0f, 0.0f, 1.0f } };

   CHECK(screen->get_param(screen, PIPE_CAP_CONDITIONAL_RENDER) &&
            screen->get_param(screen, PIPE_CAP_CONDITIONAL_RENDER_INVERTED),
         "conditional rendering offered");
   CHECK(pred && count, "occlusion queries created");
   if (!pred || !count)
      return;
   ctx->bind_vs_state(ctx, vs);

   clear();
   ctx->bind_rasterizer_state(ctx, f->discard);
   ctx->begin_query(ctx, pred);
   draw(PIPE_PRIM_TRIANGLE_STRIP, 0, 6, 1);
   ctx->end_query(ctx, pred);
   ctx->bind_rasterizer_state(ctx, f->cso[1]);
   ctx->render_condition(ctx, pred, false, PIPE_RENDER_COND_WAIT);
   draw(PIPE_PRIM_TRIANGLE_STRIP, 0, 6, 1);
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &red, 0, 0);
   ctx->render_condition(ctx, NULL, false, 0);
   CHECK(drawn_pixels(f) == 0, "a draw and a clear under a hidden draw's "
         "predicate are skipped");
   ctx->render_condition(ctx, pred, false, PIPE_RENDER_COND_WAIT);
   blit_red(f, true);
   CHECK(drawn_pixels(f) == 0, "a conditional blit is skipped");
   blit_red(f, false);
   ctx->render_condition(ctx, NULL, false, 0);
   CHECK(drawn_pixels(f) == W * H, "an unconditional blit draws under the "
         "condition");
   clear();
   union pipe_color_union white = { .f = { 1.0f, 1.0f, 0.0f, 1.0f } };
   ctx->render_condition(ctx, pred, false, PIPE_RENDER_COND_WAIT);
   ctx->clear_render_target(ctx, f->surf, &white, 0, 0, W, H, true);
   CHECK(drawn_pixels(f) == 0, "a conditional clear_render_target is "
         "skipped");
   ctx->clear_render_target(ctx, f->surf, &white, 0, 0, W, H, false);
   ctx->render_condition(ctx, NULL, false, 0);
   CHECK(drawn_pixels(f) == W * H, "an unconditional clear_render_target "
         "clears under the condition");
   clear();
   ctx->render_condition(ctx, pred, true, PIPE_RENDER_COND_NO_WAIT);
   draw(PIPE_PRIM_TRIANGLE_STRIP, 0, 6, 1);
   ctx->render_condition(ctx, NULL, false, 0);
   unsigned wide = drawn_pixels(f);
   CHECK(wide > 0, "the inverted condition draws");

   clear();
   ctx->begin_query(ctx, count);
   draw(PIPE_PRIM_TRIANGLE_STRIP, 0, 4, 1);
   ctx->end_query(ctx, count);
   clear();
   ctx->render_condition(ctx, count, false, PIPE_RENDER_COND_BY_REGION_WAIT);
   draw(PIPE_PRIM_TRIANGLE_STRIP, 0, 6, 1);
   ctx->render_condition(ctx, NULL, false, 0);
   unsigned n = drawn_pixels(f);
   CHECK(n == wide, "a draw under a visible draw's count colours %u "
         "pixels, want %u", n, wide);
   clear();
   ctx->render_condition(ctx, count, true,
                         PIPE_RENDER_COND_BY_REGION_NO_WAIT);
   draw(PIPE_PRIM_TRIANGLE_STRIP, 0, 6, 1);
   ctx->render_condition(ctx, NULL, false, 0);
   CHECK(drawn_pixels(f) == 0, "the inverted condition skips the draw");

   /* A destroyed query no longer conditions anything. */
   ctx->render_condition(ctx, pred, false, PIPE_RENDER_COND_WAIT);
   ctx->destroy_query(ctx, pred);
   draw(PIPE_PRIM_TRIANGLE_STRIP, 0, 6, 1);
   CHECK(drawn_pixels(f) == wide, "drawn once the query is destroyed");

   ctx->destroy_query(ctx, count);
   ctx->bind_vs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, vs);
}

int
main(int argc, char **argv)
{
   struct fixture f;

   if (!pan_test_open(&screen, &ctx))
      return 1;
   CHECK(screen->get_param(screen, PIPE_CAP_MAX_STREAM_OUTPUT_BUFFERS) == 4,
         "four stream output buffers");
   setup(&f);
   test_interleaved(&f);
   test_separate(&f);
   test_timers(&f);
   test_occlusion(&f);
   test_no_attachments(&f);
   test_render_condition(&f);
   teardown(&f);
   return pan_test_close(screen, ctx);
}
