/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include "pan_test_screen.h"

#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "compiler/glsl_types.h"
#include "pipe/p_context.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"
#include "tgsi/tgsi_from_mesa.h"
#include "util/u_debug.h"
#include "util/u_inlines.h"

#include "pan_public.h"

unsigned pan_test_failures, pan_test_checks;
char pan_test_debug_msg[512];
char pan_test_shaderdb_msg[512];

void
pan_test_debug_message(void *data, unsigned *id, enum util_debug_type type,
                       const char *fmt, va_list args)
{
   char msg[512];
   vsnprintf(msg, sizeof(msg), fmt, args);
   /* The compilers' statistics ("MESA_SHADER_X shader: N inst, ...") are
    * kept apart from the driver's complaints, which the tests check. */
   bool shaderdb = !strncmp(msg, "MESA_SHADER_", 12) && strstr(msg, " shader: ");
   memcpy(shaderdb ? pan_test_shaderdb_msg : pan_test_debug_msg, msg,
          sizeof(msg));
}

bool
pan_test_open(struct pipe_screen **screen, struct pipe_context **ctx)
{
   /* The drm-shim's render node; the screen owns the descriptor. */
   int fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);

   if (fd < 0) {
      perror("open render node");
      return false;
   }
   *screen = panfrost_create_screen(fd, NULL);
   if (!*screen) {
      printf("FAIL: no panfrost screen\n");
      return false;
   }
   *ctx = (*screen)->context_create(*screen, NULL, 0);
   if (!*ctx) {
      printf("FAIL: no context\n");
      (*screen)->destroy(*screen);
      return false;
   }
   static struct util_debug_callback cb = {
      .debug_message = pan_test_debug_message,
   };
   (*ctx)->set_debug_callback(*ctx, &cb);
   glsl_type_singleton_init_or_ref();
   return true;
}

nir_builder
pan_test_shader(struct pipe_screen *screen, gl_shader_stage stage,
                const char *name)
{
   enum pipe_shader_type p = pipe_shader_type_from_mesa(stage);
   const nir_shader_compiler_options *opts =
      screen->get_compiler_options(screen, PIPE_SHADER_IR_NIR, p);
   return nir_builder_init_simple_shader(stage, opts, "%s", name);
}

nir_variable *
pan_test_io_var(nir_shader *s, nir_variable_mode mode, unsigned location,
                unsigned driver_location, const char *name)
{
   nir_variable *v = nir_variable_create(s, mode, glsl_vec4_type(), name);
   v->data.location = location;
   v->data.driver_location = driver_location;
   return v;
}

void
pan_test_vs_outputs(nir_shader *s, nir_variable **pos, nir_variable **v0)
{
   *pos = pan_test_io_var(s, nir_var_shader_out, VARYING_SLOT_POS, 0,
                          "gl_Position");
   *v0 = pan_test_io_var(s, nir_var_shader_out, VARYING_SLOT_VAR0, 1, "v0");
}

void *
pan_test_create_shader(struct pipe_context *ctx, nir_builder *b)
{
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b->shader };
   if (b->shader->info.stage == MESA_SHADER_FRAGMENT)
      return ctx->create_fs_state(ctx, &cso);
   return ctx->create_vs_state(ctx, &cso);
}

/* gl_Position = attribute 0 and, with colour, VAR0 = attribute 1. */
static void *
attribute_vs(struct pipe_screen *screen, struct pipe_context *ctx,
             const char *name, bool colour)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_VERTEX, name);
   nir_variable *pos = pan_test_io_var(b.shader, nir_var_shader_in,
                                       VERT_ATTRIB_GENERIC0, 0, "pos");
   nir_variable *opos = pan_test_io_var(b.shader, nir_var_shader_out,
                                        VARYING_SLOT_POS, 0, "gl_Position");
   nir_store_var(&b, opos, nir_load_var(&b, pos), 0xf);
   if (colour) {
      nir_variable *col = pan_test_io_var(b.shader, nir_var_shader_in,
                                          VERT_ATTRIB_GENERIC1, 1, "col");
      nir_variable *ocol = pan_test_io_var(b.shader, nir_var_shader_out,
                                           VARYING_SLOT_VAR0, 1, "v0");
      nir_store_var(&b, ocol, nir_load_var(&b, col), 0xf);
   }
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_vs_state(ctx, &cso);
}

void *
pan_test_pass_through_vs(struct pipe_screen *screen, struct pipe_context *ctx,
                         const char *name)
{
   return attribute_vs(screen, ctx, name, true);
}

void *
pan_test_position_vs(struct pipe_screen *screen, struct pipe_context *ctx,
                     const char *name)
{
   return attribute_vs(screen, ctx, name, false);
}

void *
pan_test_colour_fs(struct pipe_screen *screen, struct pipe_context *ctx,
                   const char *name, bool flat)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_FRAGMENT, name);
   nir_variable *out = pan_test_io_var(b.shader, nir_var_shader_out,
                                       FRAG_RESULT_DATA0, 0, "colour");
   nir_variable *in =
      pan_test_io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
   in->data.interpolation = flat ? INTERP_MODE_FLAT : INTERP_MODE_SMOOTH;
   nir_store_var(&b, out, nir_load_var(&b, in), 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

/* DATA0 = texelFetch of texture 0 at ivec2(gl_FragCoord.xy) with `index`:
 * the level of a 2D texture, or the sample of a multisampled one. */
static void *
fetch_fs(struct pipe_screen *screen, struct pipe_context *ctx, bool ms,
         nir_ssa_def *(*index)(nir_builder *b, unsigned value), unsigned value)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_FRAGMENT,
                                   ms ? "fetch-ms" : "fetch");
   nir_ssa_def *xy =
      nir_f2i32(&b, nir_channels(&b, nir_load_frag_coord(&b), 0x3));
   nir_tex_instr *tex = nir_tex_instr_create(b.shader, 2);
   tex->op = ms ? nir_texop_txf_ms : nir_texop_txf;
   tex->sampler_dim = ms ? GLSL_SAMPLER_DIM_MS : GLSL_SAMPLER_DIM_2D;
   tex->dest_type = nir_type_float32;
   tex->coord_components = 2;
   tex->src[0].src_type = nir_tex_src_coord;
   tex->src[0].src = nir_src_for_ssa(xy);
   tex->src[1].src_type = ms ? nir_tex_src_ms_index : nir_tex_src_lod;
   tex->src[1].src = nir_src_for_ssa(index(&b, value));
   nir_ssa_dest_init(&tex->instr, &tex->dest, 4, 32, NULL);
   nir_builder_instr_insert(&b, &tex->instr);
   BITSET_SET(b.shader->info.textures_used, 0);
   nir_store_var(&b,
                 pan_test_io_var(b.shader, nir_var_shader_out,
                                 FRAG_RESULT_DATA0, 0, "out"),
                 &tex->dest.ssa, 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

static nir_ssa_def *
imm_index(nir_builder *b, unsigned value)
{
   return nir_imm_int(b, (int)value);
}

/* Uniform word 0 of constant buffer 0 */
static nir_ssa_def *
uniform_index(nir_builder *b, unsigned value)
{
   (void)value;
   return nir_load_ubo(b, 1, 32, nir_imm_int(b, 0), nir_imm_int(b, 0),
                       .align_mul = 4, .range = 4);
}

void *
pan_test_fetch_sample_fs(struct pipe_screen *screen, struct pipe_context *ctx,
                         bool uniform, unsigned sample)
{
   return fetch_fs(screen, ctx, true, uniform ? uniform_index : imm_index,
                   sample);
}

void *
pan_test_fetch_fs(struct pipe_screen *screen, struct pipe_context *ctx,
                  unsigned lod)
{
   return fetch_fs(screen, ctx, false, imm_index, lod);
}

unsigned
pan_test_fetch_compare(struct pipe_screen *screen, struct pipe_context *ctx,
                       struct pipe_resource *tex, unsigned lod, unsigned w,
                       unsigned h, const uint8_t *want, unsigned tolerance,
                       const char *what)
{
   struct pan_test_fullscreen f;
   pan_test_fullscreen_setup(screen, ctx, w, h, &f);
   void *vs = pan_test_position_vs(screen, ctx, "fetch-vs");
   void *fs = pan_test_fetch_fs(screen, ctx, lod);
   CHECK(vs && fs, "%s: shaders not created", what);
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);

   struct pipe_sampler_view vt = {
      .format = tex->format,
      .target = PIPE_TEXTURE_2D,
      .texture = tex,
      .u.tex.last_level = tex->last_level,
      PAN_TEST_IDENTITY_SWIZZLE,
   };
   struct pipe_sampler_view *view = ctx->create_sampler_view(ctx, tex, &vt);
   CHECK(view, "%s: no sampler view", what);
   ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 1, 0, false, &view);

   union pipe_color_union grey = { .f = { 0.5f, 0.5f, 0.5f, 0.5f } };
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &grey, 1.0, 0);
   pan_test_debug_msg[0] = 0;
   struct pipe_draw_info info = { .mode = PIPE_PRIM_TRIANGLES,
                                  .instance_count = 1,
                                  .max_index = 2 };
   struct pipe_draw_start_count_bias draw = { .count = 3 };
   ctx->draw_vbo(ctx, &info, 0, NULL, &draw, 1);
   ctx->flush(ctx, NULL, 0);
   CHECK(!pan_test_debug_msg[0], "%s: the driver said \"%s\"", what,
         pan_test_debug_msg);

   unsigned bad = w * h;
   struct pipe_transfer *xfer;
   const uint8_t *map =
      f.tex
         ? pipe_texture_map(ctx, f.tex, 0, 0, PIPE_MAP_READ, 0, 0, w, h, &xfer)
         : NULL;
   CHECK(map, "%s: target map failed", what);
   if (map) {
      bad = 0;
      for (unsigned y = 0; y < h; ++y) {
         for (unsigned x = 0; x < w; ++x) {
            const uint8_t *g = map + y * xfer->stride + x * 4;
            const uint8_t *e = want + (y * w + x) * 4;
            bool off = false;
            for (unsigned c = 0; c < 4; ++c)
               off |= (unsigned)abs((int)g[c] - (int)e[c]) > tolerance;
            if (off && bad++ == 0)
               printf("%s: (%u, %u) is %u %u %u %u, want %u %u %u %u\n", what,
                      x, y, g[0], g[1], g[2], g[3], e[0], e[1], e[2], e[3]);
         }
      }
      pipe_texture_unmap(ctx, xfer);
   }

   ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 0, 1, false, NULL);
   pipe_sampler_view_reference(&view, NULL);
   ctx->bind_vs_state(ctx, NULL);
   ctx->bind_fs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, vs);
   ctx->delete_fs_state(ctx, fs);
   pan_test_fullscreen_teardown(ctx, &f);
   return bad;
}

struct pipe_resource *
pan_test_texture(struct pipe_screen *screen, enum pipe_format format,
                 unsigned size, unsigned samples, unsigned bind)
{
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = format,
      .width0 = size,
      .height0 = size,
      .depth0 = 1,
      .array_size = 1,
      .nr_samples = samples,
      .nr_storage_samples = samples,
      .bind = bind,
   };
   return screen->resource_create(screen, &templ);
}

struct pipe_surface *
pan_test_bind_target(struct pipe_screen *screen, struct pipe_context *ctx,
                     unsigned w, unsigned h, struct pipe_resource **tex)
{
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = PIPE_FORMAT_R8G8B8A8_UNORM,
      .width0 = w,
      .height0 = h,
      .depth0 = 1,
      .array_size = 1,
      .bind = PIPE_BIND_RENDER_TARGET,
   };
   *tex = screen->resource_create(screen, &templ);
   if (!*tex)
      return NULL;
   struct pipe_surface st = { .format = templ.format };
   struct pipe_surface *surf = ctx->create_surface(ctx, *tex, &st);
   struct pipe_framebuffer_state fb = {
      .width = w, .height = h, .nr_cbufs = 1, .cbufs = { surf },
   };
   ctx->set_framebuffer_state(ctx, &fb);
   return surf;
}

struct pipe_resource *
pan_test_storage_buffer(struct pipe_screen *screen, struct pipe_context *ctx,
                        unsigned size_B, const void *data)
{
   struct pipe_resource *r = pipe_buffer_create(screen, PIPE_BIND_SHADER_BUFFER,
                                                PIPE_USAGE_DEFAULT, size_B);
   if (r && data)
      pipe_buffer_write(ctx, r, 0, size_B, data);
   return r;
}

/* n vertices of stride_B bytes from data as vertex buffer 0. */
static struct pipe_resource *
bind_vertex_buffer(struct pipe_screen *screen, struct pipe_context *ctx,
                   const float *data, unsigned n, unsigned stride_B)
{
   struct pipe_resource *r = pipe_buffer_create(
      screen, PIPE_BIND_VERTEX_BUFFER, PIPE_USAGE_DEFAULT, n * stride_B);
   pipe_buffer_write(ctx, r, 0, n * stride_B, data);
   struct pipe_vertex_buffer vb = { .stride = stride_B, .buffer.resource = r };
   ctx->set_vertex_buffers(ctx, 0, 1, 0, false, &vb);
   return r;
}

struct pipe_resource *
pan_test_bind_vertices(struct pipe_screen *screen, struct pipe_context *ctx,
                       const float *data, unsigned n)
{
   return bind_vertex_buffer(screen, ctx, data, n, 32);
}

struct pipe_resource *
pan_test_draw_vertices(struct pipe_screen *screen, struct pipe_context *ctx,
                       enum pipe_prim_type mode, const float *data, unsigned n)
{
   struct pipe_resource *r = pan_test_bind_vertices(screen, ctx, data, n);
   struct pipe_draw_info info = {
      .mode = mode,
      .instance_count = 1,
      .max_index = n - 1,
   };
   struct pipe_draw_start_count_bias d = { .start = 0, .count = n };
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
   return r;
}

struct pipe_resource *
pan_test_draw_triangles(struct pipe_screen *screen, struct pipe_context *ctx,
                        const float *data, unsigned n)
{
   return pan_test_draw_vertices(screen, ctx, PIPE_PRIM_TRIANGLES, data, n);
}

void
pan_test_check_pixels(struct pipe_context *ctx, const char *what,
                      struct pipe_resource *tex, unsigned w, unsigned h,
                      pan_test_pixel_differs differs, const void *want)
{
   struct pipe_transfer *xfer;
   const uint8_t *map =
      pipe_texture_map(ctx, tex, 0, 0, PIPE_MAP_READ, 0, 0, w, h, &xfer);
   unsigned bad = 0;

   CHECK(map, "%s: render target map failed", what);
   for (unsigned y = 0; map && y < h; ++y) {
      for (unsigned x = 0; x < w; ++x) {
         char msg[128];
         if (differs(map + y * xfer->stride + x * 4, want, msg, sizeof(msg)) &&
             bad++ < 2)
            CHECK(false, "%s: pixel (%u, %u) %s", what, x, y, msg);
      }
   }
   CHECK(map && !bad, "%s: %u pixels differ", what, bad);
   if (map)
      pipe_texture_unmap(ctx, xfer);
}

uint32_t
pan_test_pixel(struct pipe_context *ctx, struct pipe_resource *tex, unsigned x,
               unsigned y)
{
   struct pipe_transfer *xfer;
   const uint8_t *map =
      pipe_texture_map(ctx, tex, 0, 0, PIPE_MAP_READ, x, y, 1, 1, &xfer);
   uint32_t p = 0;

   if (map) {
      memcpy(&p, map, 4);
      pipe_texture_unmap(ctx, xfer);
   }
   return p;
}

void
pan_test_quad(float (*out)[4], unsigned x0, unsigned y0, unsigned x1,
              unsigned y1, unsigned size, const unsigned order[4])
{
   const float l = pan_test_ndc(x0, size), r = pan_test_ndc(x1, size);
   const float b = pan_test_ndc(y0, size), t = pan_test_ndc(y1, size);
   const float c[4][2] = { { l, b }, { r, b }, { r, t }, { l, t } };

   for (unsigned i = 0; i < 4; ++i) {
      const float v[4] = { c[order[i]][0], c[order[i]][1], 0, 1 };
      memcpy(out[i], v, sizeof(v));
   }
}

struct pipe_resource *
pan_test_bind_positions(struct pipe_screen *screen, struct pipe_context *ctx,
                        const float *data, unsigned n)
{
   return bind_vertex_buffer(screen, ctx, data, n, 16);
}

struct pipe_resource *
pan_test_bind_two_quads(struct pipe_screen *screen, struct pipe_context *ctx,
                        unsigned size, const unsigned order1[4])
{
   static const unsigned ccw[4] = { 0, 1, 2, 3 };
   float data[8][4];

   pan_test_quad(data, 4, 4, 12, 12, size, ccw);
   pan_test_quad(data + 4, 20, 4, 28, 12, size, order1);
   return pan_test_bind_positions(screen, ctx, data[0], 8);
}

void
pan_test_fullscreen_restore(struct pipe_context *ctx,
                            struct pan_test_fullscreen *f,
                            struct pipe_resource **vbuf)
{
   struct pipe_vertex_buffer vb = { .stride = 16, .buffer.resource = f->vbuf };

   ctx->bind_rasterizer_state(ctx, f->cso[1]);
   ctx->set_vertex_buffers(ctx, 0, 1, 0, false, &vb);
   pipe_resource_reference(vbuf, NULL);
}

void
pan_test_delete_shaders(struct pipe_context *ctx, void *vs, void *fs)
{
   ctx->bind_fs_state(ctx, NULL);
   ctx->delete_fs_state(ctx, fs);
   ctx->bind_vs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, vs);
}

int
pan_test_close(struct pipe_screen *screen, struct pipe_context *ctx)
{
   glsl_type_singleton_decref();
   ctx->destroy(ctx);
   screen->destroy(screen);
   printf("%u checks, %u failed\n", pan_test_checks, pan_test_failures);
   return pan_test_failures ? 1 : 0;
}

void
pan_test_fullscreen_setup(struct pipe_screen *screen, struct pipe_context *ctx,
                          unsigned w, unsigned h, struct pan_test_fullscreen *f)
{
   f->surf = pan_test_bind_target(screen, ctx, w, h, &f->tex);

   struct pipe_blend_state blend = { .rt[0].colormask = PIPE_MASK_RGBA };
   struct pipe_rasterizer_state rast = {
      .half_pixel_center = 1,
      .depth_clip_near = 1,
      .depth_clip_far = 1,
   };
   struct pipe_depth_stencil_alpha_state zsa = { 0 };
   struct pipe_vertex_element ve = {
      .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT,
   };
   struct pipe_viewport_state vp = {
      .scale = { w / 2.0f, h / 2.0f, 0.5f },
      .translate = { w / 2.0f, h / 2.0f, 0.5f },
   };
   f->cso[0] = ctx->create_blend_state(ctx, &blend);
   f->cso[1] = ctx->create_rasterizer_state(ctx, &rast);
   f->cso[2] = ctx->create_depth_stencil_alpha_state(ctx, &zsa);
   f->cso[3] = ctx->create_vertex_elements_state(ctx, 1, &ve);
   ctx->bind_blend_state(ctx, f->cso[0]);
   ctx->bind_rasterizer_state(ctx, f->cso[1]);
   ctx->bind_depth_stencil_alpha_state(ctx, f->cso[2]);
   ctx->bind_vertex_elements_state(ctx, f->cso[3]);
   ctx->set_viewport_states(ctx, 0, 1, &vp);
   ctx->set_sample_mask(ctx, ~0u);

   /* One triangle over the whole target (and beyond). */
   static const float pos[] = { -1, -1, 0, 1, 3, -1, 0, 1, -1, 3, 0, 1 };
   f->vbuf = pipe_buffer_create(screen, PIPE_BIND_VERTEX_BUFFER,
                                PIPE_USAGE_DEFAULT, sizeof(pos));
   pipe_buffer_write(ctx, f->vbuf, 0, sizeof(pos), pos);
   struct pipe_vertex_buffer vb = { .stride = 16, .buffer.resource = f->vbuf };
   ctx->set_vertex_buffers(ctx, 0, 1, 0, false, &vb);
}

bool
pan_test_open_fullscreen(struct pipe_screen **screen, struct pipe_context **ctx,
                         unsigned w, unsigned h, struct pan_test_fullscreen *f)
{
   if (!pan_test_open(screen, ctx))
      return false;
   pan_test_fullscreen_setup(*screen, *ctx, w, h, f);
   return true;
}

struct pipe_rasterizer_state
pan_test_rasterizer(unsigned fill)
{
   return (struct pipe_rasterizer_state){
      .half_pixel_center = 1,
      .depth_clip_near = 1,
      .depth_clip_far = 1,
      .line_width = 1.0f,
      .point_size = 1.0f,
      .fill_front = fill,
      .fill_back = fill,
   };
}

void
pan_test_colour_draw_setup(struct pipe_screen *screen, struct pipe_context *ctx,
                           const char *name, bool flat,
                           struct pan_test_colour_draw *d)
{
   struct pipe_vertex_element ve[2] = {
      { .src_offset = 0, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
      { .src_offset = 16, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
   };
   d->ves = ctx->create_vertex_elements_state(ctx, 2, ve);
   ctx->bind_vertex_elements_state(ctx, d->ves);
   d->vs = pan_test_pass_through_vs(screen, ctx, name);
   d->fs = pan_test_colour_fs(screen, ctx, name, flat);
   ctx->bind_vs_state(ctx, d->vs);
   ctx->bind_fs_state(ctx, d->fs);
}

void
pan_test_colour_draw_teardown(struct pipe_context *ctx, void *ves,
                              struct pan_test_colour_draw *d)
{
   ctx->bind_vs_state(ctx, NULL);
   ctx->bind_fs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, d->vs);
   ctx->delete_fs_state(ctx, d->fs);
   ctx->bind_vertex_elements_state(ctx, ves);
   ctx->delete_vertex_elements_state(ctx, d->ves);
}

void
pan_test_msaa_draw_setup(struct pipe_screen *screen, struct pipe_context *ctx,
                         const char *name, unsigned size,
                         struct pan_test_msaa_draw *d)
{
   d->vs = pan_test_pass_through_vs(screen, ctx, name);
   d->fs = pan_test_colour_fs(screen, ctx, name, true);
   ctx->bind_vs_state(ctx, d->vs);
   struct pipe_vertex_element ve[2] = {
      { .src_offset = 0, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
      { .src_offset = 16, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
   };
   d->ves = ctx->create_vertex_elements_state(ctx, 2, ve);
   ctx->bind_vertex_elements_state(ctx, d->ves);
   struct pipe_viewport_state vp = {
      .scale = { size / 2.0f, size / 2.0f, 0.5f },
      .translate = { size / 2.0f, size / 2.0f, 0.5f },
   };
   ctx->set_viewport_states(ctx, 0, 1, &vp);
   struct pipe_rasterizer_state rs = {
      .half_pixel_center = 1,
      .depth_clip_near = 1,
      .depth_clip_far = 1,
      .multisample = 1,
   };
   d->rast = ctx->create_rasterizer_state(ctx, &rs);
   ctx->bind_rasterizer_state(ctx, d->rast);
   struct pipe_depth_stencil_alpha_state zs = { 0 };
   d->zsa = ctx->create_depth_stencil_alpha_state(ctx, &zs);
   ctx->bind_depth_stencil_alpha_state(ctx, d->zsa);
   struct pipe_blend_state obs = { .rt[0].colormask = PIPE_MASK_RGBA };
   d->opaque = ctx->create_blend_state(ctx, &obs);
}

void
pan_test_msaa_draw_teardown(struct pipe_context *ctx,
                            struct pan_test_msaa_draw *d)
{
   ctx->bind_vs_state(ctx, NULL);
   ctx->bind_fs_state(ctx, NULL);
   ctx->bind_blend_state(ctx, NULL);
   ctx->bind_rasterizer_state(ctx, NULL);
   ctx->bind_depth_stencil_alpha_state(ctx, NULL);
   ctx->bind_vertex_elements_state(ctx, NULL);
   ctx->delete_vs_state(ctx, d->vs);
   ctx->delete_fs_state(ctx, d->fs);
   ctx->delete_blend_state(ctx, d->opaque);
   ctx->delete_rasterizer_state(ctx, d->rast);
   ctx->delete_depth_stencil_alpha_state(ctx, d->zsa);
   ctx->delete_vertex_elements_state(ctx, d->ves);
}

void
pan_test_fullscreen_teardown(struct pipe_context *ctx,
                             struct pan_test_fullscreen *f)
{
   struct pipe_framebuffer_state none = { 0 };
   ctx->set_framebuffer_state(ctx, &none);
   ctx->set_vertex_buffers(ctx, 0, 0, 1, false, NULL);
   ctx->delete_blend_state(ctx, f->cso[0]);
   ctx->delete_rasterizer_state(ctx, f->cso[1]);
   ctx->delete_depth_stencil_alpha_state(ctx, f->cso[2]);
   ctx->delete_vertex_elements_state(ctx, f->cso[3]);
   pipe_surface_reference(&f->surf, NULL);
   pipe_resource_reference(&f->tex, NULL);
   pipe_resource_reference(&f->vbuf, NULL);
}
