/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Layered rendering (pan_layer.h) at the Gallium level on the drm-shim:
 * a 2D array of 4 layers, a cube map (6 faces), a 3D texture of 4
 * slices and a 4x 2D array of 3 layers (read back through resolves of
 * each layer) bound whole as the colour buffer.  A clear must clear every
 * layer; a geometry shader turns a point into one rectangle per layer,
 * rectangle l in cell l of a 4 x 2 grid, coloured (1, l / 5, 0) and routed to
 * layer l with gl_Layer: each layer must hold its own rectangle and the clear
 * colour elsewhere.  A rectangle whose gl_Layer is past the last layer lands in
 * the last one (clamped, as softpipe does); rectangles sent to the layers in
 * reverse are captured in the order they were emitted; a geometry shader that
 * never writes gl_Layer and a draw without one render into layer 0 only, the
 * passes of the other layers loading what earlier passes left there (2D views
 * of one slice of the 3D texture).  A shader writing gl_ViewportIndex is
 * refused (one viewport).
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

#define W 32
#define H 32
#define CELL_W (W / 4)
#define CELL_H (H / 2)
#define MAX_LAYERS 6

static struct pipe_screen *screen;
static struct pipe_context *ctx;

static uint8_t pixels[MAX_LAYERS][H][W][4];

/* Rectangles in the shader's own coordinates: cell c of the 4 x 2 grid
 * (columns of W / 4, rows of H / 2) in clip space.
 */
static void
cell_rect(unsigned c, float *x0, float *y0, float *x1, float *y1)
{
   *x0 = -1.0f + (c % 4) * 0.5f;
   *x1 = *x0 + 0.5f;
   *y0 = -1.0f + (c / 4) * 1.0f;
   *y1 = *y0 + 1.0f;
}

/* What the geometry shader does with gl_Layer. */
enum layer_mode {
   LAYER_PER_CELL, /* rectangle l to layer l */
   LAYER_REVERSED, /* rectangle l to layer rects - 1 - l */
   LAYER_PAST_END, /* rectangle 0 to layer 7, past every target's end */
   LAYER_UNWRITTEN,
   VIEWPORT_INDEX, /* writes gl_ViewportIndex instead */
};

/* A point in, `rects` rectangles out (4 vertices each, one strip each);
 * so: the captured outputs, or NULL.
 */
static void *
layer_gs_so(enum layer_mode mode, unsigned rects,
            const struct pipe_stream_output_info *so)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_GEOMETRY, "gs");
   nir_shader *s = b.shader;
   s->info.gs.input_primitive = SHADER_PRIM_POINTS;
   s->info.gs.vertices_in = 1;
   s->info.gs.output_primitive = SHADER_PRIM_TRIANGLE_STRIP;
   s->info.gs.vertices_out = 4 * rects;
   s->info.gs.invocations = 1;
   nir_variable *pos = nir_variable_create(
      s, nir_var_shader_in, glsl_array_type(glsl_vec4_type(), 1, 0), "gl_in");
   pos->data.location = VARYING_SLOT_POS;
   nir_variable *opos =
      pan_test_io_var(s, nir_var_shader_out, VARYING_SLOT_POS, 0, "pos");
   nir_variable *ocol =
      pan_test_io_var(s, nir_var_shader_out, VARYING_SLOT_VAR0, 1, "col");
   nir_variable *olayer = NULL;
   if (mode != LAYER_UNWRITTEN) {
      olayer = nir_variable_create(s, nir_var_shader_out, glsl_int_type(),
                                   "gl_Layer");
      olayer->data.location =
         mode == VIEWPORT_INDEX ? VARYING_SLOT_VIEWPORT : VARYING_SLOT_LAYER;
      olayer->data.driver_location = 2;
   }

   /* The input point only decides that something is drawn. */
   nir_ssa_def *p = nir_load_array_var_imm(&b, pos, 0);
   nir_ssa_def *z = nir_channel(&b, p, 2);
   for (unsigned l = 0; l < rects; ++l) {
      float x0, y0, x1, y1;
      cell_rect(l, &x0, &y0, &x1, &y1);
      nir_ssa_def *col = nir_imm_vec4(&b, 1, l / 5.0f, 0, 1);
      int layer = mode == LAYER_PAST_END   ? 7
                  : mode == LAYER_REVERSED ? (int)(rects - 1 - l)
                                           : (int)l;
      const float xy[4][2] = { { x0, y0 }, { x1, y0 }, { x0, y1 }, { x1, y1 } };
      for (unsigned v = 0; v < 4; ++v) {
         nir_ssa_def *vp =
            nir_vec4(&b, nir_imm_float(&b, xy[v][0]),
                     nir_imm_float(&b, xy[v][1]), z, nir_imm_float(&b, 1));
         nir_store_var(&b, opos, vp, 0xf);
         nir_store_var(&b, ocol, col, 0xf);
         if (olayer)
            nir_store_var(&b, olayer, nir_imm_int(&b, layer), 1);
         nir_emit_vertex(&b, .stream_id = 0);
      }
      nir_end_primitive(&b, .stream_id = 0);
   }
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR, .ir.nir = s };
   if (so)
      cso.stream_output = *so;
   return ctx->create_gs_state(ctx, &cso);
}

static void *
layer_gs(enum layer_mode mode, unsigned rects)
{
   return layer_gs_so(mode, rects, NULL);
}

/* A layered colour buffer: a 2D array of `layers` layers, a cube or a 3D
 * texture of `layers` slices.
 */
static struct pipe_resource *
bind_layered(enum pipe_texture_target target, unsigned layers, unsigned samples,
             struct pipe_surface **surf)
{
   struct pipe_resource templ = {
      .target = target,
      .format = PIPE_FORMAT_R8G8B8A8_UNORM,
      .width0 = W,
      .height0 = H, /* square: cube faces */
      .depth0 = target == PIPE_TEXTURE_3D ? layers : 1,
      .array_size = target == PIPE_TEXTURE_3D ? 1 : layers,
      .nr_samples = samples,
      .nr_storage_samples = samples,
      .bind = PIPE_BIND_RENDER_TARGET | PIPE_BIND_SAMPLER_VIEW,
   };
   struct pipe_resource *tex = screen->resource_create(screen, &templ);
   *surf = NULL;
   if (!tex)
      return NULL;
   struct pipe_surface st = {
      .format = templ.format,
      .u.tex = { .level = 0, .first_layer = 0, .last_layer = layers - 1 },
   };
   *surf = ctx->create_surface(ctx, tex, &st);
   struct pipe_framebuffer_state fb = {
      .width = W,
      .height = H,
      .layers = layers,
      .nr_cbufs = 1,
      .cbufs = { *surf },
   };
   ctx->set_framebuffer_state(ctx, &fb);
   return tex;
}

/* A single-sampled copy of layer l of a multisampled texture (a
 * resolve), NULL on failure.
 */
static struct pipe_resource *
resolve_layer(struct pipe_resource *tex, unsigned l)
{
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = tex->format,
      .width0 = W,
      .height0 = H,
      .depth0 = 1,
      .array_size = 1,
      .bind = PIPE_BIND_RENDER_TARGET | PIPE_BIND_SAMPLER_VIEW,
   };
   struct pipe_resource *dst = screen->resource_create(screen, &templ);
   if (!dst)
      return NULL;
   struct pipe_blit_info blit = {
      .dst = { .resource = dst,
               .format = tex->format,
               .box = { 0, 0, 0, W, H, 1 } },
      .src = { .resource = tex,
               .format = tex->format,
               .box = { 0, 0, (int)l, W, H, 1 } },
      .mask = PIPE_MASK_RGBA,
      .filter = PIPE_TEX_FILTER_NEAREST,
   };
   ctx->blit(ctx, &blit);
   return dst;
}

static void
read_layers(struct pipe_resource *tex, unsigned layers)
{
   memset(pixels, 0, sizeof(pixels));
   for (unsigned l = 0; l < layers; ++l) {
      struct pipe_transfer *xfer;
      struct pipe_resource *one =
         tex->nr_samples > 1 ? resolve_layer(tex, l) : NULL;
      struct pipe_resource *src = tex->nr_samples > 1 ? one : tex;
      const uint8_t *map =
         src ? pipe_texture_map(ctx, src, 0, src == tex ? l : 0, PIPE_MAP_READ,
                                0, 0, W, H, &xfer)
             : NULL;
      CHECK(map, "layer %u map failed", l);
      for (unsigned y = 0; map && y < H; ++y)
         memcpy(pixels[l][y], map + y * xfer->stride, W * 4);
      if (map)
         pipe_texture_unmap(ctx, xfer);
      pipe_resource_reference(&one, NULL);
   }
}

static bool
is_rgb(unsigned l, unsigned x, unsigned y, int r, int g, int b)
{
   const uint8_t *p = pixels[l][y][x];
   return abs(p[0] - r) <= 2 && abs(p[1] - g) <= 2 && abs(p[2] - b) <= 2;
}

/* Centre pixel of cell c, counted in the window (whichever way y runs,
 * cells 0-3 and 4-7 are rows of their own).
 */
static void
cell_centre(unsigned c, unsigned *x, unsigned *y)
{
   *x = (c % 4) * CELL_W + CELL_W / 2;
   *y = (c / 4) * CELL_H + CELL_H / 2;
}

/* Which window row holds the shader's cells 0-3: the viewport may flip. */
static unsigned row_of_cell0;

/* Layer l must show exactly the rectangles of `cells` (bit per cell) in
 * their colours, the clear colour in every other cell.
 */
static void
check_layer(const char *what, unsigned l, unsigned cells)
{
   for (unsigned c = 0; c < 8; ++c) {
      unsigned x, y;
      unsigned wc = (c % 4) + 4 * ((c / 4) ^ row_of_cell0);
      cell_centre(wc, &x, &y);
      if (cells & (1u << c)) {
         int g = (int)(c / 5.0f * 255.0f + 0.5f);
         CHECK(is_rgb(l, x, y, 255, g, 0),
               "%s: layer %u cell %u has its rectangle (got %u %u %u)", what, l,
               c, pixels[l][y][x][0], pixels[l][y][x][1], pixels[l][y][x][2]);
      } else {
         CHECK(is_rgb(l, x, y, 0, 0, 255),
               "%s: layer %u cell %u holds the clear colour (got %u %u %u)",
               what, l, c, pixels[l][y][x][0], pixels[l][y][x][1],
               pixels[l][y][x][2]);
      }
   }
}

static void
clear_blue(void)
{
   union pipe_color_union c = { .f = { 0, 0, 1, 1 } };
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &c, 0, 0);
}

static void
draw_point(void)
{
   struct pipe_draw_info info = { .mode = PIPE_PRIM_POINTS,
                                  .instance_count = 1 };
   struct pipe_draw_start_count_bias d = { .count = 1 };
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
}

/* Every layer cleared, then a rectangle per layer into its own layer. */
static void
test_layers(const char *what, enum pipe_texture_target target, unsigned layers,
            unsigned samples)
{
   struct pipe_surface *surf;
   /* What GL asks before it makes such a texture. */
   CHECK(screen->is_format_supported(
            screen, PIPE_FORMAT_R8G8B8A8_UNORM, target, samples, samples,
            PIPE_BIND_RENDER_TARGET | PIPE_BIND_SAMPLER_VIEW),
         "%s: offered", what);
   struct pipe_resource *tex = bind_layered(target, layers, samples, &surf);
   CHECK(tex && surf, "%s: layered target", what);
   if (!tex || !surf) {
      pipe_resource_reference(&tex, NULL);
      return;
   }

   /* Something in every layer first, so that the clear shows. */
   union pipe_color_union red = { .f = { 1, 0, 0, 1 } };
   ctx->clear_render_target(ctx, surf, &red, 0, 0, W, H, false);
   clear_blue();
   read_layers(tex, layers);
   for (unsigned l = 0; l < layers; ++l)
      check_layer(what, l, 0);

   void *gs = layer_gs(LAYER_PER_CELL, layers);
   ctx->bind_gs_state(ctx, gs);
   clear_blue();
   draw_point();
   ctx->bind_gs_state(ctx, NULL);
   read_layers(tex, layers);
   for (unsigned l = 0; l < layers; ++l)
      check_layer(what, l, 1u << l);
   ctx->delete_gs_state(ctx, gs);

   /* Past the end: the last layer.  Not written: layer 0, as a draw
    * without a geometry shader. */
   void *past = layer_gs(LAYER_PAST_END, 2);
   void *unwritten = layer_gs(LAYER_UNWRITTEN, 3);
   clear_blue();
   ctx->bind_gs_state(ctx, past);
   draw_point();
   ctx->bind_gs_state(ctx, unwritten);
   draw_point();
   ctx->bind_gs_state(ctx, NULL);
   read_layers(tex, layers);
   check_layer(what, 0, 0x7);
   for (unsigned l = 1; l + 1 < layers; ++l)
      check_layer(what, l, 0);
   check_layer(what, layers - 1, 0x3);
   ctx->delete_gs_state(ctx, past);
   ctx->delete_gs_state(ctx, unwritten);

   struct pipe_framebuffer_state none = { 0 };
   ctx->set_framebuffer_state(ctx, &none);
   pipe_surface_reference(&surf, NULL);
   pipe_resource_reference(&tex, NULL);
}

/* Finds which window row the shader's bottom cells land in with the
 * test's viewport: one rectangle of a non-layered target.
 */
static void
find_orientation(void)
{
   struct pipe_surface *surf;
   struct pipe_resource *tex = bind_layered(PIPE_TEXTURE_2D_ARRAY, 1, 0, &surf);
   void *gs = layer_gs(LAYER_UNWRITTEN, 1);
   clear_blue();
   ctx->bind_gs_state(ctx, gs);
   draw_point();
   ctx->bind_gs_state(ctx, NULL);
   read_layers(tex, 1);
   unsigned x, y;
   cell_centre(4, &x, &y);
   row_of_cell0 = is_rgb(0, x, y, 255, 0, 0) ? 1 : 0;
   check_layer("not layered", 0, 0x1);
   ctx->delete_gs_state(ctx, gs);
   struct pipe_framebuffer_state none = { 0 };
   ctx->set_framebuffer_state(ctx, &none);
   pipe_surface_reference(&surf, NULL);
   pipe_resource_reference(&tex, NULL);
}

/* Rectangles sent to the layers in reverse while their colours' green
 * is captured: the capture keeps the order they were emitted in, not the
 * layers'.
 */
static void
test_capture(void)
{
   struct pipe_stream_output_info so = {
      .num_outputs = 1,
      .stride = { 1 },
      /* Written locations in order: position, layer, colour. */
      .output = { { .register_index = 2,
                    .start_component = 1,
                    .num_components = 1 } },
   };
   enum { RECTS = 4, VERTS = RECTS * 6 };
   struct pipe_surface *surf;
   struct pipe_resource *tex =
      bind_layered(PIPE_TEXTURE_2D_ARRAY, RECTS, 0, &surf);
   struct pipe_resource *buf = pipe_buffer_create(
      screen, PIPE_BIND_STREAM_OUTPUT, PIPE_USAGE_DEFAULT, VERTS * 4);
   struct pipe_stream_output_target *t =
      ctx->create_stream_output_target(ctx, buf, 0, VERTS * 4);
   unsigned zero = 0;
   void *gs = layer_gs_so(LAYER_REVERSED, RECTS, &so);

   clear_blue();
   ctx->bind_gs_state(ctx, gs);
   ctx->set_stream_output_targets(ctx, 1, &t, &zero);
   draw_point();
   ctx->set_stream_output_targets(ctx, 0, NULL, NULL);
   ctx->bind_gs_state(ctx, NULL);
   float got[VERTS];
   pipe_buffer_read(ctx, buf, 0, sizeof(got), got);
   unsigned wrong = 0;
   for (unsigned k = 0; k < VERTS; ++k)
      wrong += fabsf(got[k] - (k / 6) / 5.0f) > 1e-6f;
   CHECK(!wrong, "capture in emission order: %u of %u values wrong", wrong,
         VERTS);
   read_layers(tex, RECTS);
   for (unsigned l = 0; l < RECTS; ++l)
      check_layer("reversed", RECTS - 1 - l, 1u << l);

   ctx->delete_gs_state(ctx, gs);
   ctx->stream_output_target_destroy(ctx, t);
   pipe_resource_reference(&buf, NULL);
   struct pipe_framebuffer_state none = { 0 };
   ctx->set_framebuffer_state(ctx, &none);
   pipe_surface_reference(&surf, NULL);
   pipe_resource_reference(&tex, NULL);
}

static void
test_viewport_refused(void)
{
   pan_test_debug_msg[0] = 0;
   void *gs = layer_gs(VIEWPORT_INDEX, 1);
   CHECK(strstr(pan_test_debug_msg, "gl_ViewportIndex"),
         "gl_ViewportIndex refused with a message: '%s'", pan_test_debug_msg);
   ctx->delete_gs_state(ctx, gs);
}

int
main(int argc, char **argv)
{
   if (!pan_test_open(&screen, &ctx))
      return 1;

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
   void *cso[6] = {
      ctx->create_blend_state(ctx, &blend),
      ctx->create_rasterizer_state(ctx, &rast),
      ctx->create_depth_stencil_alpha_state(ctx, &zsa),
      ctx->create_vertex_elements_state(ctx, 2, ve),
      pan_test_pass_through_vs(screen, ctx, "vs"),
      pan_test_colour_fs(screen, ctx, "fs", false),
   };
   ctx->bind_blend_state(ctx, cso[0]);
   ctx->bind_rasterizer_state(ctx, cso[1]);
   ctx->bind_depth_stencil_alpha_state(ctx, cso[2]);
   ctx->bind_vertex_elements_state(ctx, cso[3]);
   ctx->bind_vs_state(ctx, cso[4]);
   ctx->bind_fs_state(ctx, cso[5]);
   ctx->set_viewport_states(ctx, 0, 1, &vp);
   ctx->set_sample_mask(ctx, ~0u);
   static const float point[8] = { 0, 0, 0.5f, 1, 0, 0, 0, 0 };
   struct pipe_resource *vbuf = pipe_buffer_create(
      screen, PIPE_BIND_VERTEX_BUFFER, PIPE_USAGE_DEFAULT, sizeof(point));
   pipe_buffer_write(ctx, vbuf, 0, sizeof(point), point);
   struct pipe_vertex_buffer vb = { .stride = 32, .buffer.resource = vbuf };
   ctx->set_vertex_buffers(ctx, 0, 1, 0, false, &vb);

   find_orientation();
   test_layers("2D array", PIPE_TEXTURE_2D_ARRAY, 4, 0);
   test_layers("cube", PIPE_TEXTURE_CUBE, 6, 0);
   test_layers("3D", PIPE_TEXTURE_3D, 4, 0);
   test_layers("4x 2D array", PIPE_TEXTURE_2D_ARRAY, 3, 4);
   test_capture();
   test_viewport_refused();

   ctx->set_vertex_buffers(ctx, 0, 0, 1, false, NULL);
   pipe_resource_reference(&vbuf, NULL);
   ctx->bind_vs_state(ctx, NULL);
   ctx->bind_fs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, cso[4]);
   ctx->delete_fs_state(ctx, cso[5]);
   ctx->delete_blend_state(ctx, cso[0]);
   ctx->delete_rasterizer_state(ctx, cso[1]);
   ctx->delete_depth_stencil_alpha_state(ctx, cso[2]);
   ctx->delete_vertex_elements_state(ctx, cso[3]);
   return pan_test_close(screen, ctx);
}
