/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Vertex shaders whose memory writes the IDVS pair or transform feedback
 * would repeat, drawn from records of one run per vertex (pan_vs_once.h),
 * at the Gallium level on the drm-shim whose simulator runs the jobs:
 *
 * - atomics in a loop whose results reach a varying: the counter must be
 *   vertex invocations x iterations, with points drawn at (vertex id,
 *   instance id), without and with indices;
 * - an unread atomic (a write) with transform feedback of gl_Position and
 *   a flat-shaded triangle strip over the whole target, as arrays and
 *   indexed in two instances with the first vertex provoking: the counter
 *   must be the four vertices an instance, the positions captured in GL's
 *   order, the primitives generated and emitted two an instance, and each
 *   triangle drawn in its provoking vertex's colour;
 * - the same shader drawing that strip as GL_LINE polygons with back
 *   faces culled (the facing path): the counter must be 4;
 * - an image store from a vertex shader, when the driver offers vertex
 *   images (it does not yet: reported and skipped).
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
#include "util/u_inlines.h"

#include "pan_test_check.h"
#include "pan_test_screen.h"

#define W 8
#define H 4
#define INSTANCES 2
#define FIRST 2
#define COUNT 4
#define ITER 3
#define CLEAR 0xff

static struct pipe_screen *screen;
static struct pipe_context *ctx;

/* sum of ITER atomicAdd(slot 0 word 0, 1) in a loop; the point at pixel
 * (vertex id, instance id); VAR0 = (sum % 200 / 255, 1, 0, 1).
 */
static void *
loop_vs(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_VERTEX, "loop_vs");
   nir_variable *pos, *v0;
   pan_test_vs_outputs(b.shader, &pos, &v0);
   nir_variable *iv = nir_local_variable_create(b.impl, glsl_uint_type(), "i");
   nir_variable *sv =
      nir_local_variable_create(b.impl, glsl_uint_type(), "sum");
   nir_store_var(&b, iv, nir_imm_int(&b, 0), 1);
   nir_store_var(&b, sv, nir_imm_int(&b, 0), 1);
   nir_loop *loop = nir_push_loop(&b);
   {
      nir_ssa_def *i = nir_load_var(&b, iv);
      nir_push_if(&b, nir_uge(&b, i, nir_imm_int(&b, ITER)));
      nir_jump(&b, nir_jump_break);
      nir_pop_if(&b, NULL);
      nir_ssa_def *old = nir_ssbo_atomic_add(
         &b, 32, nir_imm_int(&b, 0), nir_imm_int(&b, 0), nir_imm_int(&b, 1));
      nir_store_var(&b, sv, nir_iadd(&b, nir_load_var(&b, sv), old), 1);
      nir_store_var(&b, iv, nir_iadd_imm(&b, i, 1), 1);
   }
   nir_pop_loop(&b, loop);
   nir_ssa_def *x = nir_u2f32(&b, nir_iadd(&b, nir_load_vertex_id_zero_base(&b),
                                           nir_load_first_vertex(&b)));
   nir_ssa_def *y = nir_u2f32(&b, nir_load_instance_id(&b));
   x = nir_fadd_imm(&b, nir_fmul_imm(&b, nir_fadd_imm(&b, x, 0.5), 2.0 / W),
                    -1.0);
   y = nir_fadd_imm(&b, nir_fmul_imm(&b, nir_fadd_imm(&b, y, 0.5), 2.0 / H),
                    -1.0);
   nir_store_var(&b, pos,
                 nir_vec4(&b, x, y, nir_imm_float(&b, 0), nir_imm_float(&b, 1)),
                 0xf);
   nir_ssa_def *sum = nir_umod(&b, nir_load_var(&b, sv), nir_imm_int(&b, 200));
   nir_store_var(&b, v0,
                 nir_vec4(&b, nir_fmul_imm(&b, nir_u2f32(&b, sum), 1.0 / 255),
                          nir_imm_float(&b, 1), nir_imm_float(&b, 0),
                          nir_imm_float(&b, 1)),
                 0xf);
   b.shader->info.num_ssbos = 1;
   return pan_test_create_shader(ctx, &b);
}

static uint32_t
read_counter(struct pipe_resource *counter)
{
   uint32_t count = 0;
   pipe_buffer_read(ctx, counter, 0, 4, &count);
   return count;
}

static void
loop_draw(struct pipe_resource *tex, struct pipe_resource *counter,
          bool indexed)
{
   const char *what = indexed ? "loop, indexed" : "loop, arrays";
   static const uint16_t indices[COUNT] = { 3, 0, 2, 1 };
   struct pipe_draw_info info = {
      .mode = PIPE_PRIM_POINTS,
      .instance_count = INSTANCES,
      .index_size = indexed ? 2 : 0,
      .has_user_indices = indexed,
      .index.user = indexed ? indices : NULL,
   };
   struct pipe_draw_start_count_bias d = {
      .start = indexed ? 0 : FIRST,
      .count = COUNT,
      .index_bias = indexed ? FIRST : 0,
   };
   union pipe_color_union c = { .f = { 1, 1, 1, 1 } };
   uint32_t zero = 0;

   pipe_buffer_write(ctx, counter, 0, 4, &zero);
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &c, 0, 0);
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
   uint32_t count = read_counter(counter);
   CHECK(count == COUNT * INSTANCES * ITER,
         "%s: the counter is %u, want %u (%u atomics per vertex)", what, count,
         COUNT * INSTANCES * ITER, ITER);

   unsigned bad = 0;
   for (unsigned y = 0; y < H; ++y) {
      for (unsigned x = 0; x < W; ++x) {
         uint32_t p = pan_test_pixel(ctx, tex, x, y);
         unsigned red = p & 0xff, green = (p >> 8) & 0xff;
         bool point = y < INSTANCES && x >= FIRST && x < FIRST + COUNT;
         bool ok = point ? red < 200 && green == 0xff : red == CLEAR;
         if (!ok && bad++ < 4)
            CHECK(false, "%s: pixel (%u, %u) is 0x%08x, want %s", what, x, y, p,
                  point ? "a point" : "the clear colour");
      }
   }
   CHECK(!bad, "%s: %u pixels are wrong", what, bad);
}

/* gl_Position = attribute 0, VAR0 = attribute 1, and atomicAdd(slot 0
 * word 0, 1) whose result nothing reads; gl_Position captured.
 */
static void *
xfb_vs(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_VERTEX, "xfb_vs");
   nir_variable *pos = pan_test_io_var(b.shader, nir_var_shader_in,
                                       VERT_ATTRIB_GENERIC0, 0, "pos");
   nir_variable *col = pan_test_io_var(b.shader, nir_var_shader_in,
                                       VERT_ATTRIB_GENERIC1, 1, "col");
   nir_variable *opos = pan_test_io_var(b.shader, nir_var_shader_out,
                                        VARYING_SLOT_POS, 0, "gl_Position");
   nir_variable *ocol =
      pan_test_io_var(b.shader, nir_var_shader_out, VARYING_SLOT_VAR0, 1, "v0");
   nir_ssbo_atomic_add(&b, 32, nir_imm_int(&b, 0), nir_imm_int(&b, 0),
                       nir_imm_int(&b, 1));
   nir_store_var(&b, opos, nir_load_var(&b, pos), 0xf);
   nir_store_var(&b, ocol, nir_load_var(&b, col), 0xf);
   b.shader->info.num_ssbos = 1;
   struct pipe_shader_state cso = {
      .type = PIPE_SHADER_IR_NIR,
      .ir.nir = b.shader,
      .stream_output = {
         .num_outputs = 1,
         .stride = { 4 },
         .output = { { .register_index = 0, .num_components = 4 } },
      },
   };
   return ctx->create_vs_state(ctx, &cso);
}

/* A strip of two triangles over the target, from vertex 5 of the buffer
 * (vertices 0 to 4 are not drawn): with last, vertex 2's colour (blue)
 * fills the lower left triangle and vertex 3's (white) the upper right
 * one, with the first vertex provoking vertex 0's (red) and 1's (green).
 * "first" draws it indexed with a bias, in two instances.
 */
static void
xfb_draw(struct pipe_resource *tex, struct pipe_resource *counter,
         void *rast_first, void *rast, bool first)
{
   const char *what = first ? "xfb, first provoking, indexed, instanced"
                            : "xfb, last provoking";
   static const float v[9][8] = {
      [5] = { -1, -1, 0, 1, 1, 0, 0, 1 },
      [6] = { 1, -1, 0, 1, 0, 1, 0, 1 },
      [7] = { -1, 1, 0, 1, 0, 0, 1, 1 },
      [8] = { 1, 1, 0, 1, 1, 1, 1, 1 },
   };
   static const uint16_t indices[4] = { 2, 3, 4, 5 };
   /* The strip's triangles as GL captures them. */
   static const unsigned last_order[6] = { 0, 1, 2, 2, 1, 3 };
   static const unsigned first_order[6] = { 0, 1, 2, 1, 3, 2 };
   const unsigned *order = first ? first_order : last_order;
   unsigned instances = first ? 2 : 1, captured = 6 * instances;
   struct pipe_vertex_element ve[2] = {
      { .src_offset = 0, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
      { .src_offset = 16, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
   };
   void *ves = ctx->create_vertex_elements_state(ctx, 2, ve);
   void *vs = xfb_vs();
   struct pipe_resource *out = pipe_buffer_create(
      screen, PIPE_BIND_STREAM_OUTPUT, PIPE_USAGE_DEFAULT, 12 * 16 + 64);
   struct pipe_stream_output_target *t =
      out ? ctx->create_stream_output_target(ctx, out, 0, captured * 16) : NULL;
   CHECK(ves && vs && t, "%s: states and target created", what);
   if (!ves || !vs || !t)
      goto done;
   ctx->bind_vertex_elements_state(ctx, ves);
   ctx->bind_vs_state(ctx, vs);
   if (first)
      ctx->bind_rasterizer_state(ctx, rast_first);
   struct pipe_resource *vb = pan_test_bind_vertices(screen, ctx, &v[0][0], 9);
   union pipe_color_union c = { .f = { 0, 0, 0, 1 } };
   uint32_t zero = 0;
   unsigned offset = 0;

   pipe_buffer_write(ctx, counter, 0, 4, &zero);
   float junk[48];
   memset(junk, 0xcd, sizeof(junk));
   pipe_buffer_write(ctx, out, 0, sizeof(junk), junk);
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &c, 0, 0);
   struct pipe_query *gen =
      ctx->create_query(ctx, PIPE_QUERY_PRIMITIVES_GENERATED, 0);
   struct pipe_query *emit =
      ctx->create_query(ctx, PIPE_QUERY_PRIMITIVES_EMITTED, 0);
   CHECK(gen && emit, "%s: primitive queries created", what);
   if (gen)
      ctx->begin_query(ctx, gen);
   if (emit)
      ctx->begin_query(ctx, emit);
   ctx->set_stream_output_targets(ctx, 1, &t, &offset);
   struct pipe_draw_info info = {
      .mode = PIPE_PRIM_TRIANGLE_STRIP,
      .instance_count = instances,
      .index_size = first ? 2 : 0,
      .has_user_indices = first,
      .index.user = first ? indices : NULL,
   };
   struct pipe_draw_start_count_bias d = {
      .start = first ? 0 : 5,
      .count = 4,
      .index_bias = first ? 3 : 0,
   };
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
   ctx->set_stream_output_targets(ctx, 0, NULL, NULL);
   /* The list's draw counts what was generated, the capture what it
    * wrote: two triangles an instance. */
   for (unsigned i = 0; i < 2; ++i) {
      struct pipe_query *q = i ? emit : gen;
      union pipe_query_result r = { 0 };
      if (!q)
         continue;
      ctx->end_query(ctx, q);
      CHECK(ctx->get_query_result(ctx, q, true, &r) && r.u64 == 2 * instances,
            "%s: primitives %s is %llu, want %u", what,
            i ? "emitted" : "generated", (unsigned long long)r.u64,
            2 * instances);
      ctx->destroy_query(ctx, q);
   }

   uint32_t count = read_counter(counter);
   CHECK(count == 4 * instances,
         "%s: the counter is %u, want %u (one atomic per vertex)", what, count,
         4 * instances);
   float got[48];
   pipe_buffer_read(ctx, out, 0, sizeof(got), got);
   unsigned wrong = 0;
   for (unsigned i = 0; i < captured; ++i) {
      const float *want = v[5 + order[i % 6]];
      if (memcmp(&got[4 * i], want, 16) && wrong++ < 2)
         CHECK(false,
               "%s: captured vertex %u is (%g, %g, %g, %g), want "
               "vertex %u's position",
               what, i, got[4 * i], got[4 * i + 1], got[4 * i + 2],
               got[4 * i + 3], 5 + order[i % 6]);
   }
   CHECK(!wrong, "%s: %u captured vertices are wrong", what, wrong);
   /* RGBA8 words in memory order. */
   uint32_t lower = first ? 0xff0000ff : 0xffff0000;
   uint32_t upper = first ? 0xff00ff00 : 0xffffffff;
   uint32_t p0 = pan_test_pixel(ctx, tex, 0, 0);
   uint32_t p1 = pan_test_pixel(ctx, tex, W - 1, H - 1);
   CHECK(p0 == lower && p1 == upper,
         "%s: the triangles are 0x%08x and 0x%08x, want 0x%08x and 0x%08x "
         "(their provoking vertices' colours)",
         what, p0, p1, lower, upper);
   unsigned bad = 0;
   for (unsigned y = 0; y < H; ++y) {
      for (unsigned x = 0; x < W; ++x) {
         uint32_t p = pan_test_pixel(ctx, tex, x, y);
         if (p != lower && p != upper && bad++ < 2)
            CHECK(false, "%s: pixel (%u, %u) is 0x%08x, not drawn", what, x, y,
                  p);
      }
   }
   CHECK(!bad, "%s: %u pixels are wrong", what, bad);
   ctx->bind_rasterizer_state(ctx, rast);
   ctx->bind_vs_state(ctx, NULL);
   pipe_resource_reference(&vb, NULL);
done:
   if (t)
      ctx->stream_output_target_destroy(ctx, t);
   pipe_resource_reference(&out, NULL);
   if (vs)
      ctx->delete_vs_state(ctx, vs);
   if (ves)
      ctx->delete_vertex_elements_state(ctx, ves);
}

/* The strip of xfb_draw's vertices 5 to 8 in GL_LINE polygons with back
 * faces culled, smoothly shaded: the facing path (pan_polygon_mode.c)
 * works the faces out from positions its own run of the shader made, so
 * the shader is run once for the records and its outputs drawn from them.
 */
static void
polygon_draw(struct pipe_resource *tex, struct pipe_resource *counter,
             void *rast)
{
   static const float v[9][8] = {
      [5] = { -1, -1, 0, 1, 1, 0, 0, 1 },
      [6] = { 1, -1, 0, 1, 0, 1, 0, 1 },
      [7] = { -1, 1, 0, 1, 0, 0, 1, 1 },
      [8] = { 1, 1, 0, 1, 1, 1, 1, 1 },
   };
   struct pipe_vertex_element ve[2] = {
      { .src_offset = 0, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
      { .src_offset = 16, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
   };
   struct pipe_rasterizer_state rs =
      pan_test_rasterizer(PIPE_POLYGON_MODE_LINE);
   rs.cull_face = PIPE_FACE_BACK;
   void *lines = ctx->create_rasterizer_state(ctx, &rs);
   void *ves = ctx->create_vertex_elements_state(ctx, 2, ve);
   void *vs = xfb_vs();
   void *fs = pan_test_colour_fs(screen, ctx, "once_smooth_fs", false);
   CHECK(lines && ves && vs && fs, "polygon: states created");
   if (lines && ves && vs && fs) {
      ctx->bind_rasterizer_state(ctx, lines);
      ctx->bind_vertex_elements_state(ctx, ves);
      ctx->bind_vs_state(ctx, vs);
      ctx->bind_fs_state(ctx, fs);
      struct pipe_resource *vb =
         pan_test_bind_vertices(screen, ctx, &v[0][0], 9);
      union pipe_color_union c = { .f = { 0, 0, 0, 1 } };
      uint32_t zero = 0;
      pipe_buffer_write(ctx, counter, 0, 4, &zero);
      ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &c, 0, 0);
      struct pipe_draw_info info = {
         .mode = PIPE_PRIM_TRIANGLE_STRIP,
         .instance_count = 1,
      };
      struct pipe_draw_start_count_bias d = { .start = 5, .count = 4 };
      ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
      uint32_t count = read_counter(counter);
      CHECK(count == 4,
            "polygon: the counter is %u, want 4 (one atomic per vertex)",
            count);
      unsigned drawn = 0;
      for (unsigned y = 0; y < H; ++y) {
         for (unsigned x = 0; x < W; ++x)
            drawn += pan_test_pixel(ctx, tex, x, y) != 0xff000000;
      }
      CHECK(drawn && drawn < W * H,
            "polygon: %u of %u pixels drawn, want the outlines'", drawn, W * H);
      ctx->bind_rasterizer_state(ctx, rast);
      ctx->bind_vs_state(ctx, NULL);
      ctx->bind_fs_state(ctx, NULL);
      pipe_resource_reference(&vb, NULL);
   }
   if (vs)
      ctx->delete_vs_state(ctx, vs);
   if (fs)
      ctx->delete_fs_state(ctx, fs);
   if (ves)
      ctx->delete_vertex_elements_state(ctx, ves);
   if (lines)
      ctx->delete_rasterizer_state(ctx, lines);
}

int
main(int argc, char **argv)
{
   struct pan_test_fullscreen f;

   if (!pan_test_open_fullscreen(&screen, &ctx, W, H, &f))
      return 1;
   struct pipe_rasterizer_state rs =
      pan_test_rasterizer(PIPE_POLYGON_MODE_FILL);
   void *rast = ctx->create_rasterizer_state(ctx, &rs);
   rs.flatshade_first = true;
   void *rast_first = ctx->create_rasterizer_state(ctx, &rs);
   ctx->bind_rasterizer_state(ctx, rast);
   void *vs = loop_vs();
   void *fs = pan_test_colour_fs(screen, ctx, "once_fs", true);
   struct pipe_resource *counter =
      pan_test_storage_buffer(screen, ctx, 16, NULL);
   CHECK(counter, "storage buffer creation failed");
   if (counter) {
      struct pipe_shader_buffer sb = { .buffer = counter, .buffer_size = 16 };
      ctx->bind_vs_state(ctx, vs);
      ctx->bind_fs_state(ctx, fs);
      ctx->set_shader_buffers(ctx, PIPE_SHADER_VERTEX, 0, 1, &sb, 1);
      loop_draw(f.tex, counter, false);
      loop_draw(f.tex, counter, true);
      xfb_draw(f.tex, counter, rast_first, rast, false);
      xfb_draw(f.tex, counter, rast_first, rast, true);
      polygon_draw(f.tex, counter, rast);
      ctx->bind_fs_state(ctx, fs);
      ctx->set_shader_buffers(ctx, PIPE_SHADER_VERTEX, 0, 1, NULL, 0);
   }
   if (screen->get_shader_param(screen, PIPE_SHADER_VERTEX,
                                PIPE_SHADER_CAP_MAX_SHADER_IMAGES))
      CHECK(false, "vertex images are offered: add their image store case");
   else
      printf("vertex images are not offered: no image store case\n");
   pan_test_delete_shaders(ctx, vs, fs);
   ctx->bind_rasterizer_state(ctx, f.cso[1]);
   ctx->delete_rasterizer_state(ctx, rast);
   ctx->delete_rasterizer_state(ctx, rast_first);
   pipe_resource_reference(&counter, NULL);
   pan_test_fullscreen_teardown(ctx, &f);
   return pan_test_close(screen, ctx);
}
