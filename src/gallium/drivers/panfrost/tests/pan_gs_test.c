/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Geometry shaders (pan_gs.h) at the Gallium level on the drm-shim, whose
 * simulator runs their compute jobs and the draw of their output.  The
 * geometry shaders are built with nir_builder: points become quads whose
 * colour is a uniform of the geometry stage; a triangle becomes two
 * copies, one strip each (EndPrimitive between them, so nothing joins
 * them); points become bars of a length read from a vertex output, with
 * a colour from gl_PrimitiveIDIn, in an indexed and instanced draw; a
 * triangle strip with adjacency becomes its triangles, coloured from an
 * adjacent vertex; clip distances written by the geometry shader clip
 * half a quad; points (with gl_PointSize) come out as a list (the
 * simulator draws no lines yet); transform feedback captures the
 * output's whole primitives; quads sample the geometry stage's texture.
 * The pixels are checked against what each shader should draw; a shader
 * writing gl_ViewportIndex is refused.
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

#define W 32
#define H 32

static struct pipe_screen *screen;
static struct pipe_context *ctx;
static struct pipe_resource *tex;

static const float clear_rgba[4] = { 0.0f, 0.0f, 1.0f, 1.0f };

#define io_var pan_test_io_var

/* gl_Position = attribute 0, VAR1 = attribute 1. */
static void *
pass_vs(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_VERTEX, "vs");
   nir_variable *pos =
      io_var(b.shader, nir_var_shader_in, VERT_ATTRIB_GENERIC0, 0, "pos");
   nir_variable *data =
      io_var(b.shader, nir_var_shader_in, VERT_ATTRIB_GENERIC1, 1, "data");
   nir_variable *opos =
      io_var(b.shader, nir_var_shader_out, VARYING_SLOT_POS, 0, "gl_Position");
   nir_variable *odata =
      io_var(b.shader, nir_var_shader_out, VARYING_SLOT_VAR1, 1, "data");
   nir_store_var(&b, opos, nir_load_var(&b, pos), 0xf);
   nir_store_var(&b, odata, nir_load_var(&b, data), 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_vs_state(ctx, &cso);
}

/* DATA0 = the interpolated VAR0. */
static void *
colour_fs(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_FRAGMENT, "fs");
   nir_variable *out =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "colour");
   nir_variable *in =
      io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
   in->data.interpolation = INTERP_MODE_SMOOTH;
   nir_store_var(&b, out, nir_load_var(&b, in), 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

/* A geometry shader's builder and its variables: gl_in[].gl_Position and
 * VAR1 in, gl_Position and VAR0 out.
 */
struct gs {
   nir_builder b;
   nir_variable *pos, *data, *opos, *ocol;
};

static void
gs_begin(struct gs *g, enum shader_prim in, unsigned vertices_in,
         enum shader_prim out, unsigned max_vertices)
{
   g->b = pan_test_shader(screen, MESA_SHADER_GEOMETRY, "gs");
   nir_shader *s = g->b.shader;
   s->info.gs.input_primitive = in;
   s->info.gs.vertices_in = vertices_in;
   s->info.gs.output_primitive = out;
   s->info.gs.vertices_out = max_vertices;
   s->info.gs.invocations = 1;
   const struct glsl_type *arr =
      glsl_array_type(glsl_vec4_type(), vertices_in, 0);
   g->pos = nir_variable_create(s, nir_var_shader_in, arr, "gl_in");
   g->pos->data.location = VARYING_SLOT_POS;
   g->data = nir_variable_create(s, nir_var_shader_in, arr, "data");
   g->data->data.location = VARYING_SLOT_VAR1;
   g->data->data.driver_location = 1;
   g->opos = io_var(s, nir_var_shader_out, VARYING_SLOT_POS, 0, "gl_Position");
   g->ocol = io_var(s, nir_var_shader_out, VARYING_SLOT_VAR0, 1, "colour");
}

static void
emit(struct gs *g, nir_ssa_def *pos, nir_ssa_def *col)
{
   nir_store_var(&g->b, g->opos, pos, 0xf);
   nir_store_var(&g->b, g->ocol, col, 0xf);
   nir_emit_vertex(&g->b, .stream_id = 0);
}

static void *
gs_end_so(struct gs *g, const struct pipe_stream_output_info *so)
{
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = g->b.shader };
   if (so)
      cso.stream_output = *so;
   return ctx->create_gs_state(ctx, &cso);
}

static void *
gs_end(struct gs *g)
{
   return gs_end_so(g, NULL);
}

static nir_ssa_def *
shifted(nir_builder *b, nir_ssa_def *p, float dx, float dy)
{
   return nir_fadd(b, p, nir_imm_vec4(b, dx, dy, 0, 0));
}

/* Points to 0.5-wide quads of the colour in the stage's constant buffer. */
static void *
quad_gs(void)
{
   struct gs g;
   gs_begin(&g, SHADER_PRIM_POINTS, 1, SHADER_PRIM_TRIANGLE_STRIP, 4);
   nir_builder *b = &g.b;
   b->shader->num_uniforms = 1;
   b->shader->info.num_ubos = 1;
   nir_ssa_def *col =
      nir_load_ubo(b, 4, 32, nir_imm_int(b, 0), nir_imm_int(b, 0),
                   .align_mul = 16, .range = 16);
   nir_ssa_def *p = nir_load_array_var_imm(b, g.pos, 0);
   emit(&g, shifted(b, p, -0.25f, -0.25f), col);
   emit(&g, shifted(b, p, 0.25f, -0.25f), col);
   emit(&g, shifted(b, p, -0.25f, 0.25f), col);
   emit(&g, shifted(b, p, 0.25f, 0.25f), col);
   return gs_end(&g);
}

/* A triangle to two copies 0.5 left (red) and 0.5 right (yellow), each
 * its own strip; so selects its captured outputs.
 */
static void *
twice_gs_so(const struct pipe_stream_output_info *so)
{
   struct gs g;
   gs_begin(&g, SHADER_PRIM_TRIANGLES, 3, SHADER_PRIM_TRIANGLE_STRIP, 6);
   nir_builder *b = &g.b;
   for (unsigned c = 0; c < 2; ++c) {
      nir_ssa_def *col = nir_imm_vec4(b, 1, c, 0, 1);
      for (unsigned v = 0; v < 3; ++v) {
         nir_ssa_def *p = nir_load_array_var_imm(b, g.pos, v);
         emit(&g, shifted(b, p, c ? 0.5f : -0.5f, 0), col);
      }
      nir_end_primitive(b, .stream_id = 0);
   }
   return gs_end_so(&g, so);
}

static void *
twice_gs(void)
{
   return twice_gs_so(NULL);
}

/* A point to a bar of data.x (1 to 4) segments of 0.125 to its right,
 * 0.125 high, coloured (1, gl_PrimitiveIDIn / 4, 0, 1): 2 * (n + 1)
 * vertices, a number the shader computes.
 */
static void *
bar_gs(void)
{
   struct gs g;
   gs_begin(&g, SHADER_PRIM_POINTS, 1, SHADER_PRIM_TRIANGLE_STRIP, 10);
   nir_builder *b = &g.b;
   nir_ssa_def *p = nir_load_array_var_imm(b, g.pos, 0);
   nir_ssa_def *n =
      nir_f2i32(b, nir_channel(b, nir_load_array_var_imm(b, g.data, 0), 0));
   nir_ssa_def *id = nir_u2f32(b, nir_load_primitive_id(b));
   nir_ssa_def *col =
      nir_vec4(b, nir_imm_float(b, 1), nir_fmul_imm(b, id, 0.25f),
               nir_imm_float(b, 0), nir_imm_float(b, 1));
   for (int i = 0; i < 5; ++i) {
      nir_push_if(b, nir_ige(b, n, nir_imm_int(b, i)));
      emit(&g, shifted(b, p, i * 0.125f, -0.0625f), col);
      emit(&g, shifted(b, p, i * 0.125f, 0.0625f), col);
      nir_pop_if(b, NULL);
   }
   return gs_end(&g);
}

/* ------------------------------------------------------------------ */

static void
clear(void)
{
   union pipe_color_union c;
   memcpy(c.f, clear_rgba, sizeof(c.f));
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &c, 0, 0);
}

static uint8_t pixels[H][W][4];

static void
read_pixels(void)
{
   struct pipe_transfer *xfer;
   const uint8_t *map =
      pipe_texture_map(ctx, tex, 0, 0, PIPE_MAP_READ, 0, 0, W, H, &xfer);
   CHECK(map, "render target map failed");
   memset(pixels, 0, sizeof(pixels));
   for (unsigned y = 0; map && y < H; ++y)
      memcpy(pixels[y], map + y * xfer->stride, W * 4);
   if (map)
      pipe_texture_unmap(ctx, xfer);
}

static bool
is_rgb(unsigned x, unsigned y, uint8_t r, uint8_t g, uint8_t b)
{
   const uint8_t *p = pixels[y][x];
   return abs(p[0] - r) <= 2 && abs(p[1] - g) <= 2 && abs(p[2] - b) <= 2;
}

static bool
is_clear(unsigned x, unsigned y)
{
   return is_rgb(x, y, 0, 0, 255);
}

static void
draw(enum pipe_prim_type mode, unsigned count)
{
   struct pipe_draw_info info = { .mode = mode, .instance_count = 1 };
   struct pipe_draw_start_count_bias d = { .count = count };
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
}

/* The green quads of quad_gs around (8, 8) and (24, 24) on the clear
 * colour. */
static void
check_quads(const char *what)
{
   read_pixels();

   unsigned wrong = 0;
   for (unsigned y = 0; y < H; ++y) {
      for (unsigned x = 0; x < W; ++x) {
         bool in = (x >= 4 && x < 12 && y >= 4 && y < 12) ||
                   (x >= 20 && x < 28 && y >= 20 && y < 28);
         if (in ? !is_rgb(x, y, 0, 255, 0) : !is_clear(x, y)) {
            if (!wrong)
               printf("%s: pixel (%u, %u) is %u %u %u\n", what, x, y,
                      pixels[y][x][0], pixels[y][x][1], pixels[y][x][2]);
            wrong++;
         }
      }
   }
   CHECK(!wrong, "%s: %u pixels wrong", what, wrong);
}

/* Two points at (8, 8) and (24, 24) become green 8 x 8 squares. */
static void
test_quads(void)
{
   static const float v[] = { -0.5f, -0.5f, 0, 1, 0, 0, 0, 0,
                              0.5f,  0.5f,  0, 1, 0, 0, 0, 0 };
   static const float green[4] = { 0, 1, 0, 1 };
   void *gs = quad_gs();
   struct pipe_constant_buffer cb = { .user_buffer = green,
                                      .buffer_size = sizeof(green) };
   struct pipe_resource *vb = pan_test_bind_vertices(screen, ctx, v, 2);

   ctx->set_constant_buffer(ctx, PIPE_SHADER_GEOMETRY, 0, false, &cb);
   ctx->bind_gs_state(ctx, gs);
   clear();
   draw(PIPE_PRIM_POINTS, 2);
   ctx->bind_gs_state(ctx, NULL);
   check_quads("points to quads");
   ctx->set_constant_buffer(ctx, PIPE_SHADER_GEOMETRY, 0, false, NULL);
   ctx->delete_gs_state(ctx, gs);
   pipe_resource_reference(&vb, NULL);
}

/* Green quads under a waited-for render condition that holds, over red
 * ones whose samples its query saw in the same pass.  Checking the
 * condition again inside the geometry draw would submit the batch
 * holding the vertex records and the shader's parameters.
 */
static void
test_quads_render_condition(void)
{
   static const float v[] = { -0.5f, -0.5f, 0, 1, 0, 0, 0, 0,
                              0.5f,  0.5f,  0, 1, 0, 0, 0, 0 };
   static const float red[4] = { 1, 0, 0, 1 }, green[4] = { 0, 1, 0, 1 };
   void *gs = quad_gs();
   struct pipe_constant_buffer cb = { .user_buffer = red,
                                      .buffer_size = sizeof(red) };
   struct pipe_resource *vb = pan_test_bind_vertices(screen, ctx, v, 2);
   struct pipe_query *q =
      ctx->create_query(ctx, PIPE_QUERY_OCCLUSION_PREDICATE, 0);

   CHECK(q, "occlusion predicate created");
   if (!q)
      return;
   ctx->set_constant_buffer(ctx, PIPE_SHADER_GEOMETRY, 0, false, &cb);
   ctx->bind_gs_state(ctx, gs);
   clear();
   ctx->begin_query(ctx, q);
   draw(PIPE_PRIM_POINTS, 2);
   ctx->end_query(ctx, q);
   ctx->render_condition(ctx, q, false, PIPE_RENDER_COND_WAIT);
   cb.user_buffer = green;
   ctx->set_constant_buffer(ctx, PIPE_SHADER_GEOMETRY, 0, false, &cb);
   for (unsigned i = 0; i < 2; ++i)
      draw(PIPE_PRIM_POINTS, 2);
   ctx->bind_gs_state(ctx, NULL);
   ctx->render_condition(ctx, NULL, false, 0);
   check_quads("points to quads under a render condition");
   ctx->destroy_query(ctx, q);
   ctx->set_constant_buffer(ctx, PIPE_SHADER_GEOMETRY, 0, false, NULL);
   ctx->delete_gs_state(ctx, gs);
   pipe_resource_reference(&vb, NULL);
}

/* 300 draws of the quads in one pass: their lists and records share
 * buffers, so the pass stays within the BOs a submit may name.
 */
static void
test_many_draws(void)
{
   static const float v[] = { -0.5f, -0.5f, 0, 1, 0, 0, 0, 0,
                              0.5f,  0.5f,  0, 1, 0, 0, 0, 0 };
   static const float green[4] = { 0, 1, 0, 1 };
   void *gs = quad_gs();
   struct pipe_constant_buffer cb = { .user_buffer = green,
                                      .buffer_size = sizeof(green) };
   struct pipe_resource *vb = pan_test_bind_vertices(screen, ctx, v, 2);

   ctx->set_constant_buffer(ctx, PIPE_SHADER_GEOMETRY, 0, false, &cb);
   ctx->bind_gs_state(ctx, gs);
   clear();
   for (unsigned i = 0; i < 300; ++i)
      draw(PIPE_PRIM_POINTS, 2);
   ctx->bind_gs_state(ctx, NULL);
   read_pixels();
   CHECK(is_rgb(8, 8, 0, 255, 0) && is_rgb(24, 24, 0, 255, 0) &&
            is_clear(16, 16),
         "300 draws: %u %u %u at (8, 8)", pixels[8][8][0], pixels[8][8][1],
         pixels[8][8][2]);
   ctx->set_constant_buffer(ctx, PIPE_SHADER_GEOMETRY, 0, false, NULL);
   ctx->delete_gs_state(ctx, gs);
   pipe_resource_reference(&vb, NULL);
}

/* A triangle centred on x = 16 drawn twice, 8 pixels left and right:
 * the middle stays clear only if the strips are not joined.
 */
static void
test_two_strips(void)
{
   static const float v[] = { -0.25f, -0.5f, 0, 1, 0, 0, 0, 0,
                              0.25f,  -0.5f, 0, 1, 0, 0, 0, 0,
                              0.0f,   0.5f,  0, 1, 0, 0, 0, 0 };
   void *gs = twice_gs();
   struct pipe_resource *vb = pan_test_bind_vertices(screen, ctx, v, 3);

   ctx->bind_gs_state(ctx, gs);
   clear();
   draw(PIPE_PRIM_TRIANGLES, 3);
   ctx->bind_gs_state(ctx, NULL);
   read_pixels();

   /* Rows 10 to 12: the copies span x 5-10 and 21-26 at least. */
   unsigned wrong = 0;
   for (unsigned y = 10; y <= 12; ++y) {
      for (unsigned x = 0; x < W; ++x) {
         bool ok = x >= 5 && x <= 10    ? is_rgb(x, y, 255, 0, 0)
                   : x >= 21 && x <= 26 ? is_rgb(x, y, 255, 255, 0)
                   : x >= 13 && x <= 18 ? is_clear(x, y)
                                        : true;
         if (!ok) {
            if (!wrong)
               printf("two strips: pixel (%u, %u) is %u %u %u\n", x, y,
                      pixels[y][x][0], pixels[y][x][1], pixels[y][x][2]);
            wrong++;
         }
      }
   }
   CHECK(!wrong, "one triangle to two strips: %u pixels wrong", wrong);
   CHECK(is_clear(16, 24) && is_clear(16, 6), "nothing between the copies");
   ctx->delete_gs_state(ctx, gs);
   pipe_resource_reference(&vb, NULL);
}

/* Three points (indexed, in reverse order) with 1, 2 and 4 segments at
 * rows 8, 16 and 24 from x = 4; primitive k is coloured (1, k / 4, 0).
 * Drawn with two instances, which give the same primitive ids.
 */
static void
test_bars(void)
{
   static const float v[] = { -0.75f, -0.5f, 0, 1, 4, 0, 0, 0,
                              -0.75f, 0.0f,  0, 1, 2, 0, 0, 0,
                              -0.75f, 0.5f,  0, 1, 1, 0, 0, 0 };
   static const uint16_t idx[] = { 2, 1, 0 };
   void *gs = bar_gs();
   struct pipe_resource *vb = pan_test_bind_vertices(screen, ctx, v, 3);

   ctx->bind_gs_state(ctx, gs);
   clear();
   struct pipe_draw_info info = {
      .mode = PIPE_PRIM_POINTS,
      .index_size = 2,
      .has_user_indices = true,
      .index.user = idx,
      .instance_count = 2,
   };
   struct pipe_draw_start_count_bias d = { .count = 3 };
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
   ctx->bind_gs_state(ctx, NULL);
   read_pixels();

   static const unsigned rows[3] = { 24, 16, 8 }, segs[3] = { 1, 2, 4 };
   for (unsigned k = 0; k < 3; ++k) {
      unsigned y = rows[k], n = 0;
      for (unsigned x = 0; x < W; ++x)
         n += !is_clear(x, y);
      CHECK(n == 2 * segs[k], "bar %u: %u pixels in row %u, not %u", k, n, y,
            2 * segs[k]);
      CHECK(is_rgb(4, y, 255, k * 64, 0) && is_rgb(4, y - 1, 255, k * 64, 0),
            "bar %u: colour %u %u %u, not 255 %u 0", k, pixels[y][4][0],
            pixels[y][4][1], pixels[y][4][2], k * 64);
      CHECK(is_clear(4, y + 1) && is_clear(4, y - 2), "bar %u: 2 rows", k);
   }
   ctx->delete_gs_state(ctx, gs);
   pipe_resource_reference(&vb, NULL);
}

/* Transform feedback of the two copies' gl_Position.xy and colour.xy
 * (register 0 and 1: the output locations in order), 4 words a vertex:
 * into room for 10 vertices, a draw captures both triangles and an
 * appending one only the first (whole triangles only; the last vertex
 * keeps the fill); into a larger buffer, a second draw appends.
 */
static void
test_capture(void)
{
   struct pipe_stream_output_info so = {
      .num_outputs = 2,
      .stride = { 4 },
      .output = {
         { .register_index = 0, .num_components = 2, .dst_offset = 0 },
         { .register_index = 1, .num_components = 2, .dst_offset = 2 },
      },
   };
   static const float v[] = { -0.25f, -0.5f, 0, 1, 0, 0, 0, 0,
                              0.25f,  -0.5f, 0, 1, 0, 0, 0, 0,
                              0.0f,   0.5f,  0, 1, 0, 0, 0, 0 };
   void *gs = twice_gs_so(&so);
   struct pipe_resource *vb = pan_test_bind_vertices(screen, ctx, v, 3);
   float fill[48];
   for (unsigned i = 0; i < 48; ++i)
      fill[i] = -7.0f;
   struct pipe_resource *small = pipe_buffer_create(
      screen, PIPE_BIND_STREAM_OUTPUT, PIPE_USAGE_DEFAULT, 10 * 16);
   struct pipe_resource *big = pipe_buffer_create(
      screen, PIPE_BIND_STREAM_OUTPUT, PIPE_USAGE_DEFAULT, sizeof(fill));
   pipe_buffer_write(ctx, small, 0, 10 * 16, fill);
   pipe_buffer_write(ctx, big, 0, sizeof(fill), fill);
   struct pipe_stream_output_target *t[2] = {
      ctx->create_stream_output_target(ctx, small, 0, 10 * 16),
      ctx->create_stream_output_target(ctx, big, 0, sizeof(fill)),
   };
   unsigned zero = 0, append = ~0u;

   ctx->bind_gs_state(ctx, gs);
   ctx->set_stream_output_targets(ctx, 1, &t[0], &zero);
   draw(PIPE_PRIM_TRIANGLES, 3);
   ctx->set_stream_output_targets(ctx, 1, &t[0], &append);
   draw(PIPE_PRIM_TRIANGLES, 3);
   ctx->set_stream_output_targets(ctx, 1, &t[1], &zero);
   draw(PIPE_PRIM_TRIANGLES, 3);
   ctx->set_stream_output_targets(ctx, 1, &t[1], &append);
   draw(PIPE_PRIM_TRIANGLES, 3);
   ctx->set_stream_output_targets(ctx, 0, NULL, NULL);
   ctx->bind_gs_state(ctx, NULL);

   float got[48];
   pipe_buffer_read(ctx, small, 0, 10 * 16, got);
   unsigned wrong = 0;
   for (unsigned k = 0; k < 10; ++k) {
      unsigned c = k < 6 ? k / 3 : 0, i = k % 3;
      const float want[4] = { v[i * 8] + (c ? 0.5f : -0.5f), v[i * 8 + 1], 1,
                              (float)c };
      for (unsigned w = 0; w < 4; ++w)
         wrong += got[k * 4 + w] != (k < 9 ? want[w] : -7.0f);
   }
   CHECK(!wrong, "captures into room for 10 vertices: %u words wrong", wrong);
   pipe_buffer_read(ctx, big, 0, sizeof(got), got);
   wrong = 0;
   for (unsigned k = 0; k < 12; ++k) {
      unsigned c = (k / 3) & 1, i = k % 3;
      const float want[4] = { v[i * 8] + (c ? 0.5f : -0.5f), v[i * 8 + 1], 1,
                              (float)c };
      for (unsigned w = 0; w < 4; ++w)
         wrong += got[k * 4 + w] != want[w];
   }
   CHECK(!wrong, "two captures, the second appended: %u words wrong", wrong);
   for (unsigned i = 0; i < 2; ++i) {
      ctx->stream_output_target_destroy(ctx, t[i]);
   }
   pipe_resource_reference(&small, NULL);
   pipe_resource_reference(&big, NULL);
   ctx->delete_gs_state(ctx, gs);
   pipe_resource_reference(&vb, NULL);
}

/* Points out, with gl_PointSize: a triangle becomes its three vertices
 * as 4-pixel squares.
 */
static void
test_points_out(void)
{
   struct gs g;
   gs_begin(&g, SHADER_PRIM_TRIANGLES, 3, SHADER_PRIM_POINTS, 3);
   nir_builder *b = &g.b;
   nir_variable *psiz = nir_variable_create(b->shader, nir_var_shader_out,
                                            glsl_float_type(), "gl_PointSize");
   psiz->data.location = VARYING_SLOT_PSIZ;
   psiz->data.driver_location = 2;
   for (unsigned i = 0; i < 3; ++i) {
      nir_store_var(b, psiz, nir_imm_float(b, 4), 1);
      emit(&g, nir_load_array_var_imm(b, g.pos, i),
           nir_imm_vec4(b, 1, 0, 1, 1));
   }
   void *gs = gs_end(&g);
   static const float v[] = { -0.5f, -0.5f, 0, 1, 0, 0, 0, 0,
                              0.5f,  -0.5f, 0, 1, 0, 0, 0, 0,
                              0.0f,  0.5f,  0, 1, 0, 0, 0, 0 };
   struct pipe_resource *vb = pan_test_bind_vertices(screen, ctx, v, 3);

   ctx->bind_gs_state(ctx, gs);
   clear();
   draw(PIPE_PRIM_TRIANGLES, 3);
   ctx->bind_gs_state(ctx, NULL);
   read_pixels();
   static const unsigned centre[3][2] = { { 8, 8 }, { 24, 8 }, { 16, 24 } };
   unsigned wrong = 0;
   for (unsigned y = 0; y < H; ++y) {
      for (unsigned x = 0; x < W; ++x) {
         bool in = false;
         for (unsigned k = 0; k < 3; ++k) {
            in |= x >= centre[k][0] - 2 && x < centre[k][0] + 2 &&
                  y >= centre[k][1] - 2 && y < centre[k][1] + 2;
         }
         wrong += in ? !is_rgb(x, y, 255, 0, 255) : !is_clear(x, y);
      }
   }
   CHECK(!wrong, "points out: %u pixels wrong", wrong);
   ctx->delete_gs_state(ctx, gs);
   pipe_resource_reference(&vb, NULL);
}

/* gl_PrimitiveID from the geometry shader to the fragment shader: a
 * point becomes a full-screen quad with gl_PrimitiveID = 1 + the input
 * primitive's id, which the fragment shader turns into green (a flat
 * integer varying in a slot past 31, which Bifrost reads with the
 * register form of LD_VAR_FLAT).
 */
static void
test_primitive_id(void)
{
   struct gs g;
   gs_begin(&g, SHADER_PRIM_POINTS, 1, SHADER_PRIM_TRIANGLE_STRIP, 4);
   nir_builder *b = &g.b;
   nir_variable *pid = nir_variable_create(b->shader, nir_var_shader_out,
                                           glsl_int_type(), "gl_PrimitiveID");
   pid->data.location = VARYING_SLOT_PRIMITIVE_ID;
   pid->data.driver_location = 2;
   nir_ssa_def *id = nir_iadd_imm(b, nir_load_primitive_id(b), 1);
   for (unsigned i = 0; i < 4; ++i) {
      nir_store_var(b, pid, id, 1);
      emit(&g, nir_imm_vec4(b, i & 1 ? 1 : -1, i & 2 ? 1 : -1, 0, 1),
           nir_imm_vec4(b, 1, 1, 1, 1));
   }
   void *gs = gs_end(&g);

   nir_builder f = pan_test_shader(screen, MESA_SHADER_FRAGMENT, "pid");
   nir_variable *out =
      io_var(f.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "colour");
   nir_variable *in = nir_variable_create(f.shader, nir_var_shader_in,
                                          glsl_int_type(), "gl_PrimitiveID");
   in->data.location = VARYING_SLOT_PRIMITIVE_ID;
   in->data.interpolation = INTERP_MODE_FLAT;
   nir_ssa_def *g4 =
      nir_fmul_imm(&f, nir_i2f32(&f, nir_load_var(&f, in)), 0.25f);
   nir_store_var(&f, out,
                 nir_vec4(&f, nir_imm_float(&f, 0), g4, nir_imm_float(&f, 0),
                          nir_imm_float(&f, 1)),
                 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = f.shader };
   pan_test_debug_msg[0] = 0;
   void *fs = ctx->create_fs_state(ctx, &cso);
   CHECK(!pan_test_debug_msg[0], "gl_PrimitiveID: '%s'", pan_test_debug_msg);

   static const float v[] = { 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0 };
   struct pipe_resource *vb = pan_test_bind_vertices(screen, ctx, v, 2);
   ctx->bind_fs_state(ctx, fs);
   ctx->bind_gs_state(ctx, gs);
   clear();
   draw(PIPE_PRIM_POINTS, 2); /* the second point's quad covers the first */
   ctx->bind_gs_state(ctx, NULL);
   read_pixels();
   CHECK(is_rgb(16, 16, 0, 128, 0) && is_rgb(0, 31, 0, 128, 0),
         "gl_PrimitiveID 2: pixel %u %u %u", pixels[16][16][0],
         pixels[16][16][1], pixels[16][16][2]);
   ctx->delete_gs_state(ctx, gs);
   ctx->delete_fs_state(ctx, fs);
   pipe_resource_reference(&vb, NULL);
}

/* GL 3.2's 128 geometry output components: a point becomes a full-screen
 * quad writing 32 distinct vec4s (VAR0 the colour output of gs_begin,
 * VAR1-VAR31 more), which the fragment shader compares; green where all
 * agree (the final draw reads 33 record vec4s, past any attribute count).
 */
static void
test_many_outputs(void)
{
   struct gs g;
   gs_begin(&g, SHADER_PRIM_POINTS, 1, SHADER_PRIM_TRIANGLE_STRIP, 4);
   nir_builder *b = &g.b;
   nir_variable *o[32] = { g.ocol };
   for (unsigned i = 1; i < 32; ++i)
      o[i] = io_var(b->shader, nir_var_shader_out, VARYING_SLOT_VAR0 + i,
                    1 + i, "o");
   for (unsigned v = 0; v < 4; ++v) {
      for (unsigned i = 1; i < 32; ++i)
         nir_store_var(b, o[i],
                       nir_imm_vec4(b, (4 * i + 1) / 256.0f,
                                    (4 * i + 2) / 256.0f,
                                    (4 * i + 3) / 256.0f,
                                    (4 * i + 4) / 256.0f),
                       0xf);
      emit(&g, nir_imm_vec4(b, v & 1 ? 1 : -1, v & 2 ? 1 : -1, 0, 1),
           nir_imm_vec4(b, 1 / 256.0f, 2 / 256.0f, 3 / 256.0f, 4 / 256.0f));
   }
   void *gs = gs_end(&g);

   nir_builder f = pan_test_shader(screen, MESA_SHADER_FRAGMENT, "many");
   nir_variable *out =
      io_var(f.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "colour");
   nir_ssa_def *wrong = nir_imm_int(&f, 0);
   for (unsigned i = 0; i < 32; ++i) {
      nir_variable *in = io_var(f.shader, nir_var_shader_in,
                                VARYING_SLOT_VAR0 + i, i, "in");
      nir_ssa_def *d = nir_fabs(
         &f, nir_fsub(&f, nir_load_var(&f, in),
                      nir_imm_vec4(&f, (4 * i + 1) / 256.0f,
                                   (4 * i + 2) / 256.0f, (4 * i + 3) / 256.0f,
                                   (4 * i + 4) / 256.0f)));
      nir_ssa_def *bad = nir_fge(&f, nir_fmax(&f, nir_fmax(&f, nir_channel(&f, d, 0),
                                                           nir_channel(&f, d, 1)),
                                              nir_fmax(&f, nir_channel(&f, d, 2),
                                                       nir_channel(&f, d, 3))),
                                 nir_imm_float(&f, 1e-3f));
      wrong = nir_iadd(&f, wrong, nir_b2i32(&f, bad));
   }
   nir_store_var(&f, out,
                 nir_vec4(&f, nir_fmul_imm(&f, nir_i2f32(&f, wrong), 1 / 255.0f),
                          nir_b2f32(&f, nir_ieq_imm(&f, wrong, 0)),
                          nir_imm_float(&f, 0), nir_imm_float(&f, 1)),
                 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = f.shader };
   pan_test_debug_msg[0] = 0;
   void *fs = ctx->create_fs_state(ctx, &cso);

   static const float v[] = { 0, 0, 0, 1, 0, 0, 0, 0 };
   struct pipe_resource *vb = pan_test_bind_vertices(screen, ctx, v, 1);
   ctx->bind_fs_state(ctx, fs);
   ctx->bind_gs_state(ctx, gs);
   clear();
   draw(PIPE_PRIM_POINTS, 1);
   ctx->bind_gs_state(ctx, NULL);
   CHECK(!pan_test_debug_msg[0], "32 geometry outputs: '%s'",
         pan_test_debug_msg);
   read_pixels();
   CHECK(is_rgb(16, 16, 0, 255, 0) && is_rgb(0, 31, 0, 255, 0),
         "32 geometry outputs: pixel %u %u %u (red: the wrong ones)",
         pixels[16][16][0], pixels[16][16][1], pixels[16][16][2]);
   ctx->delete_gs_state(ctx, gs);
   ctx->delete_fs_state(ctx, fs);
   pipe_resource_reference(&vb, NULL);
}

/* gl_ClipDistance[0] from the geometry shader: a point becomes a
 * full-screen quad whose distance is x, so with clip plane 0 enabled
 * only the right half is drawn.
 */
static void
test_clip_distance(void *clip)
{
   struct gs g;
   gs_begin(&g, SHADER_PRIM_POINTS, 1, SHADER_PRIM_TRIANGLE_STRIP, 4);
   nir_builder *b = &g.b;
   nir_variable *cd = nir_variable_create(
      b->shader, nir_var_shader_out, glsl_array_type(glsl_float_type(), 1, 0),
      "gl_ClipDistance");
   cd->data.location = VARYING_SLOT_CLIP_DIST0;
   cd->data.compact = true;
   cd->data.driver_location = 2;
   b->shader->info.clip_distance_array_size = 1;
   for (unsigned i = 0; i < 4; ++i) {
      float x = i & 1 ? 1 : -1;
      nir_store_deref(
         b, nir_build_deref_array_imm(b, nir_build_deref_var(b, cd), 0),
         nir_imm_float(b, x), 1);
      emit(&g, nir_imm_vec4(b, x, i & 2 ? 1 : -1, 0, 1),
           nir_imm_vec4(b, 0, 1, 0, 1));
   }
   void *gs = gs_end(&g);
   static const float v[] = { 0, 0, 0, 1, 0, 0, 0, 0 };
   struct pipe_resource *vb = pan_test_bind_vertices(screen, ctx, v, 1);

   ctx->bind_rasterizer_state(ctx, clip);
   ctx->bind_gs_state(ctx, gs);
   clear();
   draw(PIPE_PRIM_POINTS, 1);
   ctx->bind_gs_state(ctx, NULL);
   read_pixels();
   unsigned wrong = 0;
   for (unsigned y = 0; y < H; ++y) {
      for (unsigned x = 0; x < W; ++x)
         wrong += x < 16 ? !is_clear(x, y) : !is_rgb(x, y, 0, 255, 0);
   }
   CHECK(!wrong, "clip distance: %u pixels wrong (left %u %u %u)", wrong,
         pixels[16][4][0], pixels[16][4][1], pixels[16][4][2]);
   ctx->delete_gs_state(ctx, gs);
   pipe_resource_reference(&vb, NULL);
}

/* A triangle strip with adjacency: the even vertices make a square of
 * two triangles, each coloured (1, data.x of its input vertex 1, 0, 1):
 * vertex 1 (0.125) for the first, the first one's vertex 0 (0) for the
 * second.  Back faces are culled, so a triangle whose winding differs
 * from the first's leaves a hole.
 */
static void
test_strip_adjacency(void *cull)
{
   float v[8 * 8] = { 0 };
   static const float even[4][2] = {
      { -0.5f, -0.5f }, { 0.5f, -0.5f }, { -0.5f, 0.5f }, { 0.5f, 0.5f }
   };
   for (unsigned i = 0; i < 8; ++i) {
      v[i * 8 + 0] = i & 1 ? 3.0f : even[i / 2][0];
      v[i * 8 + 1] = i & 1 ? 3.0f : even[i / 2][1];
      v[i * 8 + 3] = 1;
      v[i * 8 + 4] = i / 8.0f;
   }
   struct gs g;
   gs_begin(&g, SHADER_PRIM_TRIANGLES_ADJACENCY, 6, SHADER_PRIM_TRIANGLE_STRIP,
            3);
   nir_builder *b = &g.b;
   nir_ssa_def *adj = nir_channel(b, nir_load_array_var_imm(b, g.data, 1), 0);
   nir_ssa_def *col = nir_vec4(b, nir_imm_float(b, 1), adj, nir_imm_float(b, 0),
                               nir_imm_float(b, 1));
   for (unsigned i = 0; i < 3; ++i)
      emit(&g, nir_load_array_var_imm(b, g.pos, 2 * i), col);
   void *gs = gs_end(&g);
   struct pipe_resource *vb = pan_test_bind_vertices(screen, ctx, v, 8);

   ctx->bind_rasterizer_state(ctx, cull);
   ctx->bind_gs_state(ctx, gs);
   clear();
   draw(PIPE_PRIM_TRIANGLE_STRIP_ADJACENCY, 8);
   ctx->bind_gs_state(ctx, NULL);
   read_pixels();

   unsigned wrong = 0;
   for (unsigned y = 8; y < 24; ++y) {
      for (unsigned x = 8; x < 24; ++x) {
         if (x + y == 31 || x + y == 32)
            continue; /* the shared edge */
         bool ok =
            x + y < 31 ? is_rgb(x, y, 255, 32, 0) : is_rgb(x, y, 255, 0, 0);
         if (!ok) {
            if (!wrong)
               printf("strip adjacency: pixel (%u, %u) is %u %u %u\n", x, y,
                      pixels[y][x][0], pixels[y][x][1], pixels[y][x][2]);
            wrong++;
         }
      }
   }
   CHECK(!wrong, "triangle strip with adjacency: %u pixels wrong", wrong);
   CHECK(is_clear(4, 4) && is_clear(28, 28), "nothing outside the square");
   ctx->delete_gs_state(ctx, gs);
   pipe_resource_reference(&vb, NULL);
}

/* A 2 x 1 RGBA8 texture of the two texels given. */
static struct pipe_resource *
texture_2x1(const uint8_t texels[2][4])
{
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = PIPE_FORMAT_R8G8B8A8_UNORM,
      .width0 = 2,
      .height0 = 1,
      .depth0 = 1,
      .array_size = 1,
      .bind = PIPE_BIND_SAMPLER_VIEW,
   };
   struct pipe_resource *r = screen->resource_create(screen, &templ);
   struct pipe_box box = { .width = 2, .height = 1, .depth = 1 };
   if (r)
      ctx->texture_subdata(ctx, r, 0, PIPE_MAP_WRITE, &box, texels, 8, 8);
   return r;
}

static nir_ssa_def *
gs_tex(nir_builder *b, nir_texop op, nir_ssa_def *coord, nir_ssa_def *lod)
{
   nir_tex_instr *t = nir_tex_instr_create(b->shader, coord ? 2 : 1);
   unsigned n = 0;
   t->op = op;
   t->sampler_dim = GLSL_SAMPLER_DIM_2D;
   t->dest_type = op == nir_texop_txs ? nir_type_int32 : nir_type_float32;
   if (coord) {
      t->coord_components = 2;
      t->src[n].src_type = nir_tex_src_coord;
      t->src[n++].src = nir_src_for_ssa(coord);
   }
   t->src[n].src_type = nir_tex_src_lod;
   t->src[n].src = nir_src_for_ssa(lod);
   nir_ssa_dest_init(&t->instr, &t->dest, op == nir_texop_txs ? 2 : 4, 32,
                     NULL);
   nir_builder_instr_insert(b, &t->instr);
   BITSET_SET(b->shader->info.textures_used, 0);
   if (op == nir_texop_txl)
      BITSET_SET(b->shader->info.samplers_used, 0);
   return &t->dest.ssa;
}

/* Points to quads coloured from the geometry stage's texture 0: with
 * data.y 0, textureLod at (data.x, 0.5); otherwise texelFetch of texel
 * (textureSize().x - 1, 0).
 */
static void *
tex_gs(void)
{
   struct gs g;
   gs_begin(&g, SHADER_PRIM_POINTS, 1, SHADER_PRIM_TRIANGLE_STRIP, 4);
   nir_builder *b = &g.b;
   nir_ssa_def *p = nir_load_array_var_imm(b, g.pos, 0);
   nir_ssa_def *d = nir_load_array_var_imm(b, g.data, 0);
   nir_ssa_def *zero = nir_imm_int(b, 0);
   nir_ssa_def *sampled =
      gs_tex(b, nir_texop_txl,
             nir_vec2(b, nir_channel(b, d, 0), nir_imm_float(b, 0.5f)),
             nir_imm_float(b, 0));
   nir_ssa_def *last =
      nir_iadd_imm(b, nir_channel(b, gs_tex(b, nir_texop_txs, NULL, zero), 0),
                   -1);
   nir_ssa_def *fetched =
      gs_tex(b, nir_texop_txf, nir_vec2(b, last, zero), zero);
   nir_ssa_def *col = nir_bcsel(b, nir_feq(b, nir_channel(b, d, 1), nir_imm_float(b, 0)),
                                sampled, fetched);
   emit(&g, shifted(b, p, -0.25f, -0.25f), col);
   emit(&g, shifted(b, p, 0.25f, -0.25f), col);
   emit(&g, shifted(b, p, -0.25f, 0.25f), col);
   emit(&g, shifted(b, p, 0.25f, 0.25f), col);
   return gs_end(&g);
}

/* Textures in the geometry stage: 16 units offered; three points become
 * quads sampling texel 0 (green) and texel 1 (yellow) with a nearest
 * sampler, and fetching the last texel (yellow), from the views bound to
 * the geometry stage, not those of the compute or vertex stage (red).
 */
static void
test_texture(void)
{
   static const float v[] = { -0.5f, -0.5f, 0, 1, 0.25f, 0, 0, 0,
                              0.5f,  0.5f,  0, 1, 0.75f, 0, 0, 0,
                              0.5f,  -0.5f, 0, 1, 0,     1, 0, 0 };
   static const uint8_t good[2][4] = { { 0, 255, 0, 255 },
                                       { 255, 255, 0, 255 } };
   static const uint8_t bad[2][4] = { { 255, 0, 0, 255 }, { 255, 0, 0, 255 } };

   CHECK(screen->get_shader_param(screen, PIPE_SHADER_GEOMETRY,
                                  PIPE_SHADER_CAP_MAX_SAMPLER_VIEWS) == 16 &&
            screen->get_shader_param(screen, PIPE_SHADER_GEOMETRY,
                                     PIPE_SHADER_CAP_MAX_TEXTURE_SAMPLERS) ==
               16,
         "16 geometry texture units");
   struct pipe_resource *t = texture_2x1(good), *other = texture_2x1(bad);
   struct pipe_sampler_view vt = {
      .format = PIPE_FORMAT_R8G8B8A8_UNORM,
      .target = PIPE_TEXTURE_2D,
      PAN_TEST_IDENTITY_SWIZZLE,
   };
   struct pipe_sampler_view *view = ctx->create_sampler_view(ctx, t, &vt);
   struct pipe_sampler_view *wrong_view =
      ctx->create_sampler_view(ctx, other, &vt);
   struct pipe_sampler_state st = {
      .wrap_s = PIPE_TEX_WRAP_CLAMP_TO_EDGE,
      .wrap_t = PIPE_TEX_WRAP_CLAMP_TO_EDGE,
      .min_img_filter = PIPE_TEX_FILTER_NEAREST,
      .mag_img_filter = PIPE_TEX_FILTER_NEAREST,
      .min_mip_filter = PIPE_TEX_MIPFILTER_NONE,
   };
   void *smp = ctx->create_sampler_state(ctx, &st);
   ctx->set_sampler_views(ctx, PIPE_SHADER_GEOMETRY, 0, 1, 0, false, &view);
   ctx->set_sampler_views(ctx, PIPE_SHADER_COMPUTE, 0, 1, 0, false,
                          &wrong_view);
   ctx->set_sampler_views(ctx, PIPE_SHADER_VERTEX, 0, 1, 0, false,
                          &wrong_view);
   ctx->bind_sampler_states(ctx, PIPE_SHADER_GEOMETRY, 0, 1, &smp);

   void *gs = tex_gs();
   struct pipe_resource *vb = pan_test_bind_vertices(screen, ctx, v, 3);
   ctx->bind_gs_state(ctx, gs);
   clear();
   draw(PIPE_PRIM_POINTS, 3);
   ctx->bind_gs_state(ctx, NULL);
   read_pixels();

   unsigned wrong = 0;
   for (unsigned y = 0; y < H; ++y) {
      for (unsigned x = 0; x < W; ++x) {
         bool q0 = x >= 4 && x < 12 && y >= 4 && y < 12;
         bool q1 = x >= 20 && x < 28 && y >= 20 && y < 28;
         bool q2 = x >= 20 && x < 28 && y >= 4 && y < 12;
         bool ok = q0        ? is_rgb(x, y, 0, 255, 0)
                   : q1 || q2 ? is_rgb(x, y, 255, 255, 0)
                              : is_clear(x, y);
         if (!ok) {
            if (!wrong)
               printf("texture: pixel (%u, %u) is %u %u %u\n", x, y,
                      pixels[y][x][0], pixels[y][x][1], pixels[y][x][2]);
            wrong++;
         }
      }
   }
   CHECK(!wrong, "geometry shader sampling a texture: %u pixels wrong", wrong);

   ctx->set_sampler_views(ctx, PIPE_SHADER_GEOMETRY, 0, 0, 1, false, NULL);
   ctx->set_sampler_views(ctx, PIPE_SHADER_COMPUTE, 0, 0, 1, false, NULL);
   ctx->set_sampler_views(ctx, PIPE_SHADER_VERTEX, 0, 0, 1, false, NULL);
   ctx->bind_sampler_states(ctx, PIPE_SHADER_GEOMETRY, 0, 1, NULL);
   ctx->delete_sampler_state(ctx, smp);
   ctx->delete_gs_state(ctx, gs);
   pipe_sampler_view_reference(&view, NULL);
   pipe_sampler_view_reference(&wrong_view, NULL);
   pipe_resource_reference(&t, NULL);
   pipe_resource_reference(&other, NULL);
   pipe_resource_reference(&vb, NULL);
}

/* A shader writing gl_ViewportIndex (one viewport) is refused with a
 * message and its draws dropped (gl_Layer: pan_layer_test.c).
 */
static void
test_refusal(void)
{
   struct gs g;
   gs_begin(&g, SHADER_PRIM_TRIANGLES, 3, SHADER_PRIM_TRIANGLE_STRIP, 3);
   nir_variable *layer = nir_variable_create(
      g.b.shader, nir_var_shader_out, glsl_int_type(), "gl_ViewportIndex");
   layer->data.location = VARYING_SLOT_VIEWPORT;
   layer->data.driver_location = 2;
   for (unsigned i = 0; i < 3; ++i) {
      nir_store_var(&g.b, layer, nir_imm_int(&g.b, 1), 1);
      emit(&g, nir_load_array_var_imm(&g.b, g.pos, i),
           nir_imm_vec4(&g.b, 1, 1, 1, 1));
   }
   void *gs = gs_end(&g);
   CHECK(strstr(pan_test_debug_msg, "gl_ViewportIndex"),
         "gl_ViewportIndex refused with a message: '%s'", pan_test_debug_msg);
   static const float v[] = { -1, -1, 0, 1, 0, 0, 0, 0, 1, -1, 0, 1,
                              0,  0,  0, 0, 0, 1, 0, 1, 0, 0,  0, 0 };
   struct pipe_resource *vb = pan_test_bind_vertices(screen, ctx, v, 3);
   ctx->bind_gs_state(ctx, gs);
   clear();
   draw(PIPE_PRIM_TRIANGLES, 3);
   ctx->bind_gs_state(ctx, NULL);
   read_pixels();
   CHECK(is_clear(16, 16), "refused shader draws nothing");
   ctx->delete_gs_state(ctx, gs);
   pipe_resource_reference(&vb, NULL);
}

int
main(int argc, char **argv)
{
   if (!pan_test_open(&screen, &ctx))
      return 1;
   struct pipe_surface *surf = pan_test_bind_target(screen, ctx, W, H, &tex);

   struct pipe_blend_state blend = { .rt[0].colormask = PIPE_MASK_RGBA };
   struct pipe_rasterizer_state rast = {
      .half_pixel_center = 1,
      .depth_clip_near = 1,
      .depth_clip_far = 1,
   };
   struct pipe_depth_stencil_alpha_state zsa = { 0 };
   struct pipe_vertex_element ve[2] = {
      { .src_offset = 0, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
      { .src_offset = 16, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
   };
   struct pipe_viewport_state vp = {
      .scale = { W / 2.0f, H / 2.0f, 0.5f },
      .translate = { W / 2.0f, H / 2.0f, 0.5f },
   };
   /* Whichever way the window's y runs, both triangles of a strip face
    * the same way. */
   rast.cull_face = PIPE_FACE_BACK;
   void *cull = ctx->create_rasterizer_state(ctx, &rast);
   rast.cull_face = PIPE_FACE_NONE;
   rast.clip_plane_enable = 1;
   void *clip = ctx->create_rasterizer_state(ctx, &rast);
   rast.clip_plane_enable = 0;
   void *cso[6] = {
      ctx->create_blend_state(ctx, &blend),
      ctx->create_rasterizer_state(ctx, &rast),
      ctx->create_depth_stencil_alpha_state(ctx, &zsa),
      ctx->create_vertex_elements_state(ctx, 2, ve),
      pass_vs(),
      colour_fs(),
   };
   ctx->bind_blend_state(ctx, cso[0]);
   ctx->bind_rasterizer_state(ctx, cso[1]);
   ctx->bind_depth_stencil_alpha_state(ctx, cso[2]);
   ctx->bind_vertex_elements_state(ctx, cso[3]);
   ctx->bind_vs_state(ctx, cso[4]);
   ctx->bind_fs_state(ctx, cso[5]);
   ctx->set_viewport_states(ctx, 0, 1, &vp);
   ctx->set_sample_mask(ctx, ~0u);

   test_quads();
   test_quads_render_condition();
   test_many_draws();
   test_two_strips();
   test_bars();
   test_points_out();
   test_capture();
   test_primitive_id();
   test_many_outputs();
   ctx->bind_fs_state(ctx, cso[5]);
   test_clip_distance(clip);
   test_strip_adjacency(cull);
   ctx->bind_rasterizer_state(ctx, cso[1]);
   test_texture();
   test_refusal();

   struct pipe_framebuffer_state none = { 0 };
   ctx->set_framebuffer_state(ctx, &none);
   ctx->set_vertex_buffers(ctx, 0, 0, 1, false, NULL);
   ctx->bind_vs_state(ctx, NULL);
   ctx->bind_fs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, cso[4]);
   ctx->delete_fs_state(ctx, cso[5]);
   ctx->delete_blend_state(ctx, cso[0]);
   ctx->delete_rasterizer_state(ctx, cso[1]);
   ctx->delete_rasterizer_state(ctx, cull);
   ctx->delete_rasterizer_state(ctx, clip);
   ctx->delete_depth_stencil_alpha_state(ctx, cso[2]);
   ctx->delete_vertex_elements_state(ctx, cso[3]);
   pipe_surface_reference(&surf, NULL);
   pipe_resource_reference(&tex, NULL);
   return pan_test_close(screen, ctx);
}
