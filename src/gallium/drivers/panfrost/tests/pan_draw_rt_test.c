/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The render-target side of the draw path, pixel-checked on the
 * drm-shim's simulated GPU (G57, G52 or G72): blending against a C
 * reference of the GL equations (every function and factor pair, the
 * blend constant, through the blend unit or blend shaders), every colour
 * format the screen renders to, depth and stencil attachments, and
 * several render targets with independent blending and colour masks.
 *
 * Rectangles are drawn as two triangles with edges on pixel boundaries,
 * so every pixel of a cell is covered exactly.
 */

#include <math.h>
#include <stdarg.h>
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
#include "util/u_debug.h"
#include "util/u_inlines.h"
#include "util/u_math.h"

#include "pan_test_screen.h"

#define W 64
#define H 64
#define MAX_RTS 4

static struct pipe_screen *screen;
static struct pipe_context *ctx;
/* Whether the driver blends what the blend unit cannot with blend
 * shaders (every GPU now): it then offers dual-source blending, whose
 * second colour only they read.  Without, those draws are refused with a
 * message. */
static bool blend_shaders;
static struct pipe_resource *vbufs[1024];
static unsigned nr_vbufs;

/* A new context for each test: the driver reports each kind of dropped
 * draw once per context, and the tests check those messages.
 */
static void
new_context(void)
{
   static struct util_debug_callback cb = {
      .debug_message = pan_test_debug_message,
   };

   ctx->destroy(ctx);
   ctx = screen->context_create(screen, NULL, 0);
   if (!ctx) {
      printf("FAIL: no context\n");
      exit(1);
   }
   ctx->set_debug_callback(ctx, &cb);
   pan_test_debug_msg[0] = 0;
}

/* ------------------------------------------------------------------ */
/* Shaders and fixed state                                             */
/* ------------------------------------------------------------------ */

static nir_variable *
io_var(nir_shader *s, nir_variable_mode mode, unsigned location,
       unsigned driver_location, const struct glsl_type *type, const char *name)
{
   nir_variable *v = nir_variable_create(s, mode, type, name);
   v->data.location = location;
   v->data.driver_location = driver_location;
   return v;
}

static nir_builder
shader(gl_shader_stage stage, const char *name)
{
   enum pipe_shader_type p =
      stage == MESA_SHADER_VERTEX ? PIPE_SHADER_VERTEX : PIPE_SHADER_FRAGMENT;
   const nir_shader_compiler_options *opts =
      screen->get_compiler_options(screen, PIPE_SHADER_IR_NIR, p);
   return nir_builder_init_simple_shader(stage, opts, "%s", name);
}

/* gl_Position = attribute 0, VAR0 = attribute 1. */
static void *
pass_through_vs(void)
{
   nir_builder b = shader(MESA_SHADER_VERTEX, "pass-through");
   const struct glsl_type *v4 = glsl_vec4_type();
   nir_variable *pos =
      io_var(b.shader, nir_var_shader_in, VERT_ATTRIB_GENERIC0, 0, v4, "pos");
   nir_variable *col =
      io_var(b.shader, nir_var_shader_in, VERT_ATTRIB_GENERIC1, 1, v4, "col");
   nir_store_var(&b,
                 io_var(b.shader, nir_var_shader_out, VARYING_SLOT_POS, 0, v4,
                        "gl_Position"),
                 nir_load_var(&b, pos), 0xf);
   nir_store_var(
      &b, io_var(b.shader, nir_var_shader_out, VARYING_SLOT_VAR0, 1, v4, "v0"),
      nir_load_var(&b, col), 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_vs_state(ctx, &cso);
}

/* Output i = VAR0 with its channels rotated i times (i = 0: VAR0), as
 * float, or as unsigned or signed integers (VAR0 * 100) for integer
 * targets.
 */
static void *
colour_fs(unsigned outputs, nir_alu_type type)
{
   nir_builder b = shader(MESA_SHADER_FRAGMENT, "colours");
   const struct glsl_type *v4 = glsl_vec4_type();
   nir_variable *in =
      io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, v4, "v0");
   in->data.interpolation = INTERP_MODE_FLAT;
   nir_ssa_def *c = nir_load_var(&b, in);
   if (type != nir_type_float)
      c = nir_f2i32(&b, nir_fmul_imm(&b, c, 100.0));
   const struct glsl_type *t = type == nir_type_float  ? v4
                               : type == nir_type_uint ? glsl_uvec4_type()
                                                       : glsl_ivec4_type();
   for (unsigned i = 0; i < outputs; ++i) {
      nir_variable *out = io_var(b.shader, nir_var_shader_out,
                                 FRAG_RESULT_DATA0 + i, i, t, "colour");
      nir_ssa_def *s = nir_swizzle(
         &b, c, (unsigned[]){ i % 4, (i + 1) % 4, (i + 2) % 4, (i + 3) % 4 },
         4);
      nir_store_var(&b, out, s, 0xf);
   }
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

struct scene {
   void *vs, *fs, *rast, *ve;
};

static struct scene
scene_begin(unsigned outputs, nir_alu_type type)
{
   struct scene sc;
   struct pipe_rasterizer_state rast = {
      .half_pixel_center = 1,
      .depth_clip_near = 1,
      .depth_clip_far = 1,
      .cull_face = PIPE_FACE_NONE,
      .front_ccw = 1,
   };
   struct pipe_vertex_element ve[2] = {
      { .src_offset = 0, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
      { .src_offset = 16, .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
   };
   struct pipe_viewport_state vp = {
      .scale = { W / 2.0f, H / 2.0f, 0.5f },
      .translate = { W / 2.0f, H / 2.0f, 0.5f },
   };

   sc.rast = ctx->create_rasterizer_state(ctx, &rast);
   sc.ve = ctx->create_vertex_elements_state(ctx, 2, ve);
   sc.vs = pass_through_vs();
   sc.fs = colour_fs(outputs, type);
   ctx->bind_rasterizer_state(ctx, sc.rast);
   ctx->bind_vertex_elements_state(ctx, sc.ve);
   ctx->bind_vs_state(ctx, sc.vs);
   ctx->bind_fs_state(ctx, sc.fs);
   ctx->set_viewport_states(ctx, 0, 1, &vp);
   ctx->set_sample_mask(ctx, ~0u);
   return sc;
}

static void
scene_end(struct scene *sc)
{
   struct pipe_framebuffer_state none = { 0 };

   ctx->flush(ctx, NULL, 0);
   ctx->bind_vs_state(ctx, NULL);
   ctx->bind_fs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, sc->vs);
   ctx->delete_fs_state(ctx, sc->fs);
   ctx->delete_rasterizer_state(ctx, sc->rast);
   ctx->delete_vertex_elements_state(ctx, sc->ve);
   ctx->set_framebuffer_state(ctx, &none);
   for (unsigned i = 0; i < nr_vbufs; ++i)
      pipe_resource_reference(&vbufs[i], NULL);
   nr_vbufs = 0;
}

static void *
bind_blend(const struct pipe_blend_state *b)
{
   void *cso = ctx->create_blend_state(ctx, b);
   ctx->bind_blend_state(ctx, cso);
   return cso;
}

static void *
bind_zsa(const struct pipe_depth_stencil_alpha_state *z)
{
   void *cso = ctx->create_depth_stencil_alpha_state(ctx, z);
   ctx->bind_depth_stencil_alpha_state(ctx, cso);
   return cso;
}

/* Draws pixels [x0, x1) x [y0, y1) at window depth 0.5 + z / 2 with a flat
 * colour; clockwise (back-facing with front_ccw) when cw.
 */
static void
draw_rect(unsigned x0, unsigned y0, unsigned x1, unsigned y1, float z,
          const float rgba[4], bool cw)
{
   float px[4][2] = { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } };
   /* Gallium judges the winding with y growing downwards, as rows do:
    * (x0,y0) (x1,y0) (x1,y1) turns clockwise.
    */
   static const unsigned ccw_order[6] = { 0, 3, 2, 0, 2, 1 };
   static const unsigned cw_order[6] = { 0, 1, 2, 0, 2, 3 };
   const unsigned *order = cw ? cw_order : ccw_order;
   float data[6 * 8];

   for (unsigned i = 0; i < 6; ++i) {
      const float *p = px[order[i]];
      data[i * 8 + 0] = (p[0] - W / 2.0f) / (W / 2.0f);
      data[i * 8 + 1] = (p[1] - H / 2.0f) / (H / 2.0f);
      data[i * 8 + 2] = z;
      data[i * 8 + 3] = 1.0f;
      memcpy(&data[i * 8 + 4], rgba, 16);
   }
   struct pipe_resource *r = pan_test_draw_triangles(screen, ctx, data, 6);
   if (nr_vbufs < ARRAY_SIZE(vbufs))
      vbufs[nr_vbufs++] = r;
   else
      pipe_resource_reference(&r, NULL);
}

static struct pipe_surface *
make_surface(enum pipe_format format, unsigned bind)
{
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = format,
      .width0 = W,
      .height0 = H,
      .depth0 = 1,
      .array_size = 1,
      .bind = bind,
   };
   struct pipe_resource *tex = screen->resource_create(screen, &templ);
   if (!tex)
      return NULL;
   struct pipe_surface st = { .format = format };
   struct pipe_surface *s = ctx->create_surface(ctx, tex, &st);
   pipe_resource_reference(&tex, NULL); /* the surface keeps it */
   return s;
}

static void
set_fb(struct pipe_surface **cbufs, unsigned n, struct pipe_surface *zs)
{
   struct pipe_framebuffer_state fb = {
      .width = W, .height = H, .nr_cbufs = n, .zsbuf = zs
   };
   for (unsigned i = 0; i < n; ++i)
      fb.cbufs[i] = cbufs[i];
   ctx->set_framebuffer_state(ctx, &fb);
}

/* Pixel (x, y) of the surface as RGBA floats (integer formats as their
 * integer values).
 */
static void
read_pixels(struct pipe_surface *s, float (*out)[W][4])
{
   struct pipe_transfer *xfer;
   const uint8_t *map =
      pipe_texture_map(ctx, s->texture, 0, 0, PIPE_MAP_READ, 0, 0, W, H, &xfer);
   CHECK(map, "%s: map failed", util_format_short_name(s->format));
   if (!map) {
      memset(out, 0, sizeof(float) * 4 * W * H);
      return;
   }
   const struct util_format_description *d = util_format_description(s->format);
   for (unsigned y = 0; y < H; ++y) {
      for (unsigned x = 0; x < W; ++x) {
         const uint8_t *p = map + y * xfer->stride + x * (d->block.bits / 8);
         if (util_format_is_pure_uint(s->format)) {
            uint32_t u[4];
            util_format_unpack_rgba(s->format, u, p, 1);
            for (unsigned c = 0; c < 4; ++c)
               out[y][x][c] = u[c];
         } else if (util_format_is_pure_sint(s->format)) {
            int32_t i[4];
            util_format_unpack_rgba(s->format, i, p, 1);
            for (unsigned c = 0; c < 4; ++c)
               out[y][x][c] = i[c];
         } else {
            util_format_unpack_rgba(s->format, out[y][x], p, 1);
         }
      }
   }
   pipe_texture_unmap(ctx, xfer);
}

static float (*pixels)[W][4];

static bool
near(const float a[4], const float b[4], float tol, unsigned mask)
{
   for (unsigned c = 0; c < 4; ++c) {
      if ((mask & (1u << c)) && !(fabsf(a[c] - b[c]) <= tol))
         return false;
   }
   return true;
}

/* Checks that every pixel of [x0, x1) x [y0, y1) is want. */
static bool
check_rect(const char *what, unsigned x0, unsigned y0, unsigned x1, unsigned y1,
           const float want[4], float tol, unsigned mask)
{
   for (unsigned y = y0; y < y1; ++y) {
      for (unsigned x = x0; x < x1; ++x) {
         const float *got = pixels[y][x];
         if (!near(got, want, tol, mask)) {
            CHECK(false,
                  "%s: pixel (%u, %u) = %.4f %.4f %.4f %.4f, want %.4f "
                  "%.4f %.4f %.4f",
                  what, x, y, got[0], got[1], got[2], got[3], want[0], want[1],
                  want[2], want[3]);
            return false;
         }
      }
   }
   CHECK(true, "%s", what);
   return true;
}

/* Rectangles of one flat colour each, read exactly. */
struct rect_want {
   const char *label;
   unsigned x0, y0, x1, y1;
   const float *rgba;
};

static void
check_rects(const char *name, const struct rect_want *r, unsigned n)
{
   for (unsigned i = 0; i < n; ++i) {
      char what[96];
      snprintf(what, sizeof(what), "%s: %s", name, r[i].label);
      check_rect(what, r[i].x0, r[i].y0, r[i].x1, r[i].y1, r[i].rgba, 0,
                 PIPE_MASK_RGBA);
   }
}

static void
clear_colour(const float rgba[4])
{
   union pipe_color_union c;
   memcpy(c.f, rgba, sizeof(c.f));
   ctx->clear(ctx, PIPE_CLEAR_COLOR, NULL, &c, 0, 0);
}

/* ------------------------------------------------------------------ */
/* Blending against a C reference                                      */
/* ------------------------------------------------------------------ */

static const unsigned factors[] = {
   PIPE_BLENDFACTOR_ZERO,
   PIPE_BLENDFACTOR_ONE,
   PIPE_BLENDFACTOR_SRC_COLOR,
   PIPE_BLENDFACTOR_INV_SRC_COLOR,
   PIPE_BLENDFACTOR_SRC_ALPHA,
   PIPE_BLENDFACTOR_INV_SRC_ALPHA,
   PIPE_BLENDFACTOR_DST_COLOR,
   PIPE_BLENDFACTOR_INV_DST_COLOR,
   PIPE_BLENDFACTOR_DST_ALPHA,
   PIPE_BLENDFACTOR_INV_DST_ALPHA,
   PIPE_BLENDFACTOR_CONST_COLOR,
   PIPE_BLENDFACTOR_INV_CONST_COLOR,
   PIPE_BLENDFACTOR_CONST_ALPHA,
   PIPE_BLENDFACTOR_INV_CONST_ALPHA,
   PIPE_BLENDFACTOR_SRC_ALPHA_SATURATE,
};

/* The GL factor of channel c. */
static float
factor_value(unsigned f, unsigned c, const float s[4], const float d[4],
             const float k[4])
{
   switch (f) {
   case PIPE_BLENDFACTOR_ZERO:
      return 0;
   case PIPE_BLENDFACTOR_ONE:
      return 1;
   case PIPE_BLENDFACTOR_SRC_COLOR:
      return s[c];
   case PIPE_BLENDFACTOR_INV_SRC_COLOR:
      return 1 - s[c];
   case PIPE_BLENDFACTOR_SRC_ALPHA:
      return s[3];
   case PIPE_BLENDFACTOR_INV_SRC_ALPHA:
      return 1 - s[3];
   case PIPE_BLENDFACTOR_DST_COLOR:
      return d[c];
   case PIPE_BLENDFACTOR_INV_DST_COLOR:
      return 1 - d[c];
   case PIPE_BLENDFACTOR_DST_ALPHA:
      return d[3];
   case PIPE_BLENDFACTOR_INV_DST_ALPHA:
      return 1 - d[3];
   case PIPE_BLENDFACTOR_CONST_COLOR:
      return k[c];
   case PIPE_BLENDFACTOR_INV_CONST_COLOR:
      return 1 - k[c];
   case PIPE_BLENDFACTOR_CONST_ALPHA:
      return k[3];
   case PIPE_BLENDFACTOR_INV_CONST_ALPHA:
      return 1 - k[3];
   default: /* alpha saturate */
      return c == 3 ? 1 : MIN2(s[3], 1 - d[3]);
   }
}

static void
blend_ref(const struct pipe_rt_blend_state *rt, const float s[4],
          const float d[4], const float k[4], float out[4])
{
   for (unsigned c = 0; c < 4; ++c) {
      bool a = c == 3;
      unsigned func = a ? rt->alpha_func : rt->rgb_func;
      float fs = factor_value(a ? rt->alpha_src_factor : rt->rgb_src_factor, c,
                              s, d, k);
      float fd = factor_value(a ? rt->alpha_dst_factor : rt->rgb_dst_factor, c,
                              s, d, k);
      float v;
      switch (func) {
      case PIPE_BLEND_ADD:
         v = s[c] * fs + d[c] * fd;
         break;
      case PIPE_BLEND_SUBTRACT:
         v = s[c] * fs - d[c] * fd;
         break;
      case PIPE_BLEND_REVERSE_SUBTRACT:
         v = d[c] * fd - s[c] * fs;
         break;
      case PIPE_BLEND_MIN:
         v = MIN2(s[c], d[c]);
         break;
      default:
         v = MAX2(s[c], d[c]);
         break;
      }
      out[c] = (rt->colormask & (1u << c)) ? CLAMP(v, 0.0f, 1.0f) : d[c];
   }
}

/* The factor as the blend unit's operand (what it multiplies by, and
 * whether inverted) in one channel group: ONE is ZERO inverted, and in
 * the alpha group colour factors are alpha ones.  -1 for none.
 */
static int
unit_factor(unsigned f, bool alpha, bool *inv)
{
   *inv = f == PIPE_BLENDFACTOR_ONE || f == PIPE_BLENDFACTOR_INV_SRC_COLOR ||
          f == PIPE_BLENDFACTOR_INV_SRC_ALPHA ||
          f == PIPE_BLENDFACTOR_INV_DST_COLOR ||
          f == PIPE_BLENDFACTOR_INV_DST_ALPHA ||
          f == PIPE_BLENDFACTOR_INV_CONST_COLOR ||
          f == PIPE_BLENDFACTOR_INV_CONST_ALPHA;
   switch (f) {
   case PIPE_BLENDFACTOR_ZERO:
   case PIPE_BLENDFACTOR_ONE:
      return 0;
   case PIPE_BLENDFACTOR_SRC_COLOR:
   case PIPE_BLENDFACTOR_INV_SRC_COLOR:
      return alpha ? 2 : 1;
   case PIPE_BLENDFACTOR_SRC_ALPHA:
   case PIPE_BLENDFACTOR_INV_SRC_ALPHA:
      return 2;
   case PIPE_BLENDFACTOR_DST_COLOR:
   case PIPE_BLENDFACTOR_INV_DST_COLOR:
      return alpha ? 4 : 3;
   case PIPE_BLENDFACTOR_DST_ALPHA:
   case PIPE_BLENDFACTOR_INV_DST_ALPHA:
      return 4;
   /* One constant for all channels (a constant whose used channels
    * differ is refused anyway).
    */
   case PIPE_BLENDFACTOR_CONST_COLOR:
   case PIPE_BLENDFACTOR_INV_CONST_COLOR:
   case PIPE_BLENDFACTOR_CONST_ALPHA:
   case PIPE_BLENDFACTOR_INV_CONST_ALPHA:
      return 6;
   default:
      return -1;
   }
}

/* Whether (+/-)A + (+/-)B * C covers src * S (func) dst * D: one factor
 * zero or one, both the same (maybe one inverted), or src*dst + dst*src.
 */
static bool
fixed_function_ok(unsigned func, unsigned sf, unsigned df, bool alpha)
{
   bool si, di;
   int s = unit_factor(sf, alpha, &si), d = unit_factor(df, alpha, &di);

   if (func == PIPE_BLEND_MIN || func == PIPE_BLEND_MAX || s < 0 || d < 0)
      return false;
   if (s == 0 || d == 0 || s == d)
      return true;
   /* dst * src + src * dst, per channel */
   return func == PIPE_BLEND_ADD && !si && !di &&
          (alpha ? s == 4 && d == 2 : s == 3 && d == 1);
}

/* Source and destination of the blend tests: unorm8 values, so that the
 * destination is exact in the target.
 */
static const float src_rgba[4] = { 204 / 255.0f, 77 / 255.0f, 153 / 255.0f,
                                   102 / 255.0f };
static const float dst_rgba[4] = { 51 / 255.0f, 179 / 255.0f, 128 / 255.0f,
                                   166 / 255.0f };

#define CELL 4
#define CELLS (W / CELL)

/* Every pair of factors (the same for colour and alpha) with one function
 * on an RGBA8 target, a 4x4 cell each, in one pass: fixed-function pairs
 * must match the reference within one unorm8 step, the others too with
 * blend shaders, or else be dropped with a message and leave the
 * destination.
 */
static void
test_blend_factors(unsigned func, const float k[4])
{
   const unsigned n = ARRAY_SIZE(factors);
   struct pipe_surface *rt =
      make_surface(PIPE_FORMAT_R8G8B8A8_UNORM, PIPE_BIND_RENDER_TARGET);
   struct scene sc = scene_begin(1, nir_type_float);
   struct pipe_depth_stencil_alpha_state zsa = { 0 };
   void *z = bind_zsa(&zsa);
   void *csos[ARRAY_SIZE(factors) * ARRAY_SIZE(factors)];
   struct pipe_blend_color bc;
   memcpy(bc.color, k, sizeof(bc.color));
   bool homogeneous = k[0] == k[1] && k[1] == k[2] && k[2] == k[3];
   unsigned refused = 0;

   set_fb(&rt, 1, NULL);
   ctx->set_blend_color(ctx, &bc);
   clear_colour(dst_rgba);
   for (unsigned i = 0; i < n * n; ++i) {
      struct pipe_blend_state b = {
         .rt[0] = { .blend_enable = 1,
                    .rgb_func = func,
                    .alpha_func = func,
                    .rgb_src_factor = factors[i / n],
                    .alpha_src_factor = factors[i / n],
                    .rgb_dst_factor = factors[i % n],
                    .alpha_dst_factor = factors[i % n],
                    .colormask = PIPE_MASK_RGBA },
      };
      csos[i] = bind_blend(&b);
      draw_rect((i % CELLS) * CELL, (i / CELLS) * CELL,
                (i % CELLS) * CELL + CELL, (i / CELLS) * CELL + CELL, 0,
                src_rgba, false);
   }
   ctx->flush(ctx, NULL, 0);
   read_pixels(rt, pixels);

   for (unsigned i = 0; i < n * n; ++i) {
      const struct pipe_rt_blend_state r = {
         .rgb_func = func,
         .alpha_func = func,
         .rgb_src_factor = factors[i / n],
         .alpha_src_factor = factors[i / n],
         .rgb_dst_factor = factors[i % n],
         .alpha_dst_factor = factors[i % n],
         .colormask = PIPE_MASK_RGBA,
      };
      bool uses_k = false;
      for (unsigned f = 0; f < 2; ++f) {
         unsigned x = f ? r.rgb_dst_factor : r.rgb_src_factor;
         uses_k |= x == PIPE_BLENDFACTOR_CONST_COLOR ||
                   x == PIPE_BLENDFACTOR_INV_CONST_COLOR;
      }
      bool ok =
         blend_shaders ||
         (fixed_function_ok(func, r.rgb_src_factor, r.rgb_dst_factor, false) &&
          fixed_function_ok(func, r.alpha_src_factor, r.alpha_dst_factor,
                            true) &&
          (homogeneous || !uses_k));
      float want[4];
      if (ok)
         blend_ref(&r, src_rgba, dst_rgba, k, want);
      else
         memcpy(want, dst_rgba, sizeof(want));
      refused += !ok;
      char what[96];
      snprintf(what, sizeof(what), "func %u, factors %u/%u%s", func,
               r.rgb_src_factor, r.rgb_dst_factor, ok ? "" : " (refused)");
      /* One unorm8 step, plus the blend constant's 16-bit precision. */
      check_rect(what, (i % CELLS) * CELL, (i / CELLS) * CELL,
                 (i % CELLS) * CELL + CELL, (i / CELLS) * CELL + CELL, want,
                 1.01f / 255.0f, PIPE_MASK_RGBA);
   }
   CHECK(!refused == !strstr(pan_test_debug_msg, "needs a blend shader"),
         "func %u: %u pairs refused, message '%s'", func, refused,
         pan_test_debug_msg);
   /* 52 pairs with a zero or one (not alpha saturate), 32 of one factor
    * (maybe inverted; the constants count as one), src * dst + dst * src
    * when adding; 20 of them read a constant colour whose channels may
    * differ.
    */
   unsigned want = blend_shaders ? n * n
                   : 84 + (func == PIPE_BLEND_ADD) - (homogeneous ? 0 : 20);
   CHECK((func >= PIPE_BLEND_MIN && !blend_shaders) ||
            n * n - refused == want,
         "func %u: %u of %u pairs refused", func, refused, n * n);

   scene_end(&sc);
   for (unsigned i = 0; i < n * n; ++i)
      ctx->delete_blend_state(ctx, csos[i]);
   ctx->delete_depth_stencil_alpha_state(ctx, z);
   pipe_surface_reference(&rt, NULL);
}

/* Separate colour and alpha equations, and colour masks, one cell each. */
static void
test_blend_separate(void)
{
   static const struct pipe_rt_blend_state cases[] = {
      { 1, PIPE_BLEND_ADD, PIPE_BLENDFACTOR_SRC_ALPHA,
        PIPE_BLENDFACTOR_INV_SRC_ALPHA, PIPE_BLEND_ADD, PIPE_BLENDFACTOR_ONE,
        PIPE_BLENDFACTOR_ZERO, PIPE_MASK_RGBA },
      { 1, PIPE_BLEND_REVERSE_SUBTRACT, PIPE_BLENDFACTOR_ONE,
        PIPE_BLENDFACTOR_ONE, PIPE_BLEND_ADD, PIPE_BLENDFACTOR_DST_ALPHA,
        PIPE_BLENDFACTOR_ZERO, PIPE_MASK_RGBA },
      { 1, PIPE_BLEND_ADD, PIPE_BLENDFACTOR_DST_COLOR,
        PIPE_BLENDFACTOR_SRC_COLOR, PIPE_BLEND_SUBTRACT, PIPE_BLENDFACTOR_ONE,
        PIPE_BLENDFACTOR_SRC_ALPHA, PIPE_MASK_RGBA },
      { 1, PIPE_BLEND_ADD, PIPE_BLENDFACTOR_ONE, PIPE_BLENDFACTOR_ONE,
        PIPE_BLEND_ADD, PIPE_BLENDFACTOR_ONE, PIPE_BLENDFACTOR_ONE,
        PIPE_MASK_R | PIPE_MASK_A },
      { 0, 0, 0, 0, 0, 0, 0, PIPE_MASK_G | PIPE_MASK_B },
      { 0, 0, 0, 0, 0, 0, 0, 0 },
   };
   static const float k[4] = { 0.25f, 0.25f, 0.25f, 0.25f };
   struct pipe_surface *rt =
      make_surface(PIPE_FORMAT_R8G8B8A8_UNORM, PIPE_BIND_RENDER_TARGET);
   struct scene sc = scene_begin(1, nir_type_float);
   struct pipe_depth_stencil_alpha_state zsa = { 0 };
   void *z = bind_zsa(&zsa);
   void *csos[ARRAY_SIZE(cases)];

   set_fb(&rt, 1, NULL);
   clear_colour(dst_rgba);
   for (unsigned i = 0; i < ARRAY_SIZE(cases); ++i) {
      struct pipe_blend_state b = { .rt[0] = cases[i] };
      csos[i] = bind_blend(&b);
      draw_rect(i * 8, 0, i * 8 + 8, 8, 0, src_rgba, false);
   }
   ctx->flush(ctx, NULL, 0);
   read_pixels(rt, pixels);
   for (unsigned i = 0; i < ARRAY_SIZE(cases); ++i) {
      struct pipe_rt_blend_state r = cases[i];
      if (!r.blend_enable) {
         r.rgb_func = r.alpha_func = PIPE_BLEND_ADD;
         r.rgb_src_factor = r.alpha_src_factor = PIPE_BLENDFACTOR_ONE;
         r.rgb_dst_factor = r.alpha_dst_factor = PIPE_BLENDFACTOR_ZERO;
      }
      float want[4];
      blend_ref(&r, src_rgba, dst_rgba, k, want);
      char what[64];
      snprintf(what, sizeof(what), "separate blend case %u", i);
      check_rect(what, i * 8, 0, i * 8 + 8, 8, want, 1.01f / 255.0f,
                 PIPE_MASK_RGBA);
      ctx->delete_blend_state(ctx, csos[i]);
   }
   scene_end(&sc);
   ctx->delete_depth_stencil_alpha_state(ctx, z);
   pipe_surface_reference(&rt, NULL);
}

/* A logic op other than copy: XOR of the unorm8 bits with a blend
 * shader, else refused with a message. */
static void
test_logic_op(void)
{
   struct pipe_surface *rt =
      make_surface(PIPE_FORMAT_R8G8B8A8_UNORM, PIPE_BIND_RENDER_TARGET);
   struct scene sc = scene_begin(1, nir_type_float);
   struct pipe_depth_stencil_alpha_state zsa = { 0 };
   void *z = bind_zsa(&zsa);
   struct pipe_blend_state b = {
      .logicop_enable = 1,
      .logicop_func = PIPE_LOGICOP_XOR,
      .rt[0].colormask = PIPE_MASK_RGBA,
   };
   void *cso = bind_blend(&b);

   set_fb(&rt, 1, NULL);
   clear_colour(dst_rgba);
   pan_test_debug_msg[0] = 0;
   draw_rect(0, 0, W, H, 0, src_rgba, false);
   CHECK(!blend_shaders == !!strstr(pan_test_debug_msg, "logic op"),
         "logic op: message '%s'", pan_test_debug_msg);
   ctx->flush(ctx, NULL, 0);
   read_pixels(rt, pixels);
   float x[4];
   for (unsigned c = 0; c < 4; ++c) {
      unsigned s = lroundf(src_rgba[c] * 255), d = lroundf(dst_rgba[c] * 255);
      x[c] = (s ^ d) / 255.0f;
   }
   check_rect(blend_shaders ? "logic op xor" : "logic op refused", 0, 0, W,
              H, blend_shaders ? x : dst_rgba, 0.5f / 255.0f, PIPE_MASK_RGBA);
   scene_end(&sc);
   ctx->delete_blend_state(ctx, cso);
   ctx->delete_depth_stencil_alpha_state(ctx, z);
   pipe_surface_reference(&rt, NULL);
}

/* Dual-source blending: colour VAR0 and the second colour k1, blended
 * src * SRC1_COLOR + dst * (1 - SRC1_ALPHA) and src * SRC1_ALPHA + dst *
 * (1 - SRC1_COLOR), a blend shader each (refused on the G52 and G72).
 */
static void
test_dual_source(void)
{
   static const float k1[4] = { 0.25f, 0.5f, 0.75f, 0.5f };
   nir_builder b = shader(MESA_SHADER_FRAGMENT, "dual-source");
   const struct glsl_type *v4 = glsl_vec4_type();
   nir_variable *in =
      io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, v4, "v0");
   in->data.interpolation = INTERP_MODE_FLAT;
   nir_store_var(&b,
                 io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, v4,
                        "colour"),
                 nir_load_var(&b, in), 0xf);
   nir_variable *second = io_var(b.shader, nir_var_shader_out,
                                 FRAG_RESULT_DATA0, 0, v4, "colour1");
   second->data.index = 1;
   nir_store_var(&b, second, nir_imm_vec4(&b, k1[0], k1[1], k1[2], k1[3]),
                 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };

   struct pipe_surface *rt =
      make_surface(PIPE_FORMAT_R8G8B8A8_UNORM, PIPE_BIND_RENDER_TARGET);
   struct scene sc = scene_begin(1, nir_type_float);
   void *fs = ctx->create_fs_state(ctx, &cso);
   ctx->bind_fs_state(ctx, fs);
   struct pipe_depth_stencil_alpha_state zsa = { 0 };
   void *z = bind_zsa(&zsa);
   static const unsigned f[2][2] = {
      { PIPE_BLENDFACTOR_SRC1_COLOR, PIPE_BLENDFACTOR_INV_SRC1_ALPHA },
      { PIPE_BLENDFACTOR_SRC1_ALPHA, PIPE_BLENDFACTOR_INV_SRC1_COLOR },
   };
   void *csos[2];

   set_fb(&rt, 1, NULL);
   clear_colour(dst_rgba);
   pan_test_debug_msg[0] = 0;
   for (unsigned i = 0; i < 2; ++i) {
      struct pipe_blend_state bs = {
         .rt[0] = { .blend_enable = 1,
                    .rgb_func = PIPE_BLEND_ADD,
                    .alpha_func = PIPE_BLEND_ADD,
                    .rgb_src_factor = f[i][0],
                    .alpha_src_factor = f[i][0],
                    .rgb_dst_factor = f[i][1],
                    .alpha_dst_factor = f[i][1],
                    .colormask = PIPE_MASK_RGBA },
      };
      csos[i] = bind_blend(&bs);
      draw_rect(i * 32, 0, i * 32 + 32, H, 0, src_rgba, false);
   }
   CHECK(!blend_shaders == !!strstr(pan_test_debug_msg, "blend shader"),
         "dual source: message '%s'", pan_test_debug_msg);
   ctx->flush(ctx, NULL, 0);
   read_pixels(rt, pixels);
   for (unsigned i = 0; i < 2; ++i) {
      float want[4];
      for (unsigned c = 0; c < 4; ++c) {
         float s1 = i ? k1[3] : k1[c];
         float d1 = i ? 1 - k1[c] : 1 - k1[3];
         want[c] = blend_shaders ? src_rgba[c] * s1 + dst_rgba[c] * d1
                                 : dst_rgba[c];
      }
      check_rect(i ? "dual source: src1 alpha" : "dual source: src1 colour",
                 i * 32, 0, i * 32 + 32, H, want, 1.01f / 255.0f,
                 PIPE_MASK_RGBA);
      ctx->delete_blend_state(ctx, csos[i]);
   }
   scene_end(&sc);
   ctx->delete_fs_state(ctx, fs);
   ctx->delete_depth_stencil_alpha_state(ctx, z);
   pipe_surface_reference(&rt, NULL);
}

/* An alpha-only target through blend shaders (min, max): its one channel
 * is alpha, which the shader must blend as alpha (refused on the G52 and
 * G72). */
static void
test_alpha_only_blend(void)
{
   static const float dst[4] = { 0, 0, 0, 0.4f };
   static const float src[4] = { 0.2f, 0.9f, 0.5f, 0.6f };
   static const unsigned funcs[2] = { PIPE_BLEND_MIN, PIPE_BLEND_MAX };
   struct pipe_surface *rt =
      make_surface(PIPE_FORMAT_A8_UNORM, PIPE_BIND_RENDER_TARGET);
   struct scene sc = scene_begin(1, nir_type_float);
   struct pipe_depth_stencil_alpha_state zsa = { 0 };
   void *z = bind_zsa(&zsa);
   void *csos[2];

   set_fb(&rt, 1, NULL);
   clear_colour(dst);
   pan_test_debug_msg[0] = 0;
   for (unsigned i = 0; i < 2; ++i) {
      struct pipe_blend_state b = {
         .rt[0] = { .blend_enable = 1,
                    .rgb_func = funcs[i],
                    .alpha_func = funcs[i],
                    .rgb_src_factor = PIPE_BLENDFACTOR_ONE,
                    .alpha_src_factor = PIPE_BLENDFACTOR_ONE,
                    .rgb_dst_factor = PIPE_BLENDFACTOR_ONE,
                    .alpha_dst_factor = PIPE_BLENDFACTOR_ONE,
                    .colormask = PIPE_MASK_RGBA },
      };
      csos[i] = bind_blend(&b);
      draw_rect(i * 32, 0, i * 32 + 32, H, 0, src, false);
   }
   CHECK(!blend_shaders == !!strstr(pan_test_debug_msg, "blend shader"),
         "a8_unorm: message '%s'", pan_test_debug_msg);
   ctx->flush(ctx, NULL, 0);
   read_pixels(rt, pixels);
   for (unsigned i = 0; i < 2; ++i) {
      float want[4] = { 0, 0, 0,
                        !blend_shaders ? dst[3]
                        : i            ? MAX2(src[3], dst[3])
                                       : MIN2(src[3], dst[3]) };
      check_rect(i ? "a8_unorm: max" : "a8_unorm: min", i * 32, 0,
                 i * 32 + 32, H, want, 0.5f / 255.0f, PIPE_MASK_A);
      ctx->delete_blend_state(ctx, csos[i]);
   }
   scene_end(&sc);
   ctx->delete_depth_stencil_alpha_state(ctx, z);
   pipe_surface_reference(&rt, NULL);
}

/* Blending float targets, unclamped (values exact in binary16): adding
 * and min with a blend shader, else refused with a message. */
static void
test_float_blend(enum pipe_format format)
{
   static const float dst[4] = { 0.5f, 1.5f, -0.25f, 2.0f };
   static const float src[4] = { 0.75f, 0.5f, 0.5f, 0.25f };
   static const unsigned funcs[2] = { PIPE_BLEND_ADD, PIPE_BLEND_MIN };
   struct pipe_surface *rt = make_surface(format, PIPE_BIND_RENDER_TARGET);
   struct scene sc = scene_begin(1, nir_type_float);
   struct pipe_depth_stencil_alpha_state zsa = { 0 };
   void *z = bind_zsa(&zsa);
   void *csos[2];

   set_fb(&rt, 1, NULL);
   clear_colour(dst);
   pan_test_debug_msg[0] = 0;
   for (unsigned i = 0; i < 2; ++i) {
      struct pipe_blend_state b = {
         .rt[0] = { .blend_enable = 1,
                    .rgb_func = funcs[i],
                    .alpha_func = funcs[i],
                    .rgb_src_factor = PIPE_BLENDFACTOR_ONE,
                    .alpha_src_factor = PIPE_BLENDFACTOR_ONE,
                    .rgb_dst_factor = PIPE_BLENDFACTOR_ONE,
                    .alpha_dst_factor = PIPE_BLENDFACTOR_ONE,
                    .colormask = PIPE_MASK_RGBA },
      };
      csos[i] = bind_blend(&b);
      draw_rect(i * 32, 0, i * 32 + 32, H, 0, src, false);
   }
   CHECK(!blend_shaders == !!strstr(pan_test_debug_msg, "float render target"),
         "%s: message '%s'", util_format_short_name(format),
         pan_test_debug_msg);
   ctx->flush(ctx, NULL, 0);
   read_pixels(rt, pixels);
   for (unsigned i = 0; i < 2; ++i) {
      float want[4];
      for (unsigned c = 0; c < 4; ++c)
         want[c] = !blend_shaders ? dst[c]
                   : i            ? MIN2(src[c], dst[c])
                                  : src[c] + dst[c];
      char what[64];
      snprintf(what, sizeof(what), "%s: %s", util_format_short_name(format),
               i ? "min" : "add");
      check_rect(what, i * 32, 0, i * 32 + 32, H, want, 0, PIPE_MASK_RGBA);
      ctx->delete_blend_state(ctx, csos[i]);
   }
   scene_end(&sc);
   ctx->delete_depth_stencil_alpha_state(ctx, z);
   pipe_surface_reference(&rt, NULL);
}

/* ------------------------------------------------------------------ */
/* Every colour render-target format                                   */
/* ------------------------------------------------------------------ */

/* The smallest step of the format's channels (0 for integers and float
 * formats, whose values here are exact in 10 bits of mantissa or more,
 * except the packed floats: 5 or 6 bits).
 */
static float
format_tolerance(enum pipe_format f)
{
   const struct util_format_description *d = util_format_description(f);
   unsigned bits = 32;

   if (util_format_is_pure_integer(f))
      return 0;
   for (unsigned c = 0; c < d->nr_channels; ++c) {
      if (d->channel[c].size)
         bits = MIN2(bits, d->channel[c].size);
   }
   if (util_format_is_float(f))
      return bits < 16 ? 1.0f / 32 : 1.0f / 1024;
   if (util_format_is_srgb(f))
      return 2.5f / 255.0f;
   return 1.01f / ((1u << bits) - 1);
}

/* The channels the format keeps, each once (a luminance format's
 * red only); the others read as 0, alpha as 1.
 */
static unsigned
format_mask(enum pipe_format f)
{
   const struct util_format_description *d = util_format_description(f);
   unsigned mask = 0, seen = 0;

   for (unsigned c = 0; c < 4; ++c) {
      unsigned s = d->swizzle[c];
      if (s <= PIPE_SWIZZLE_W && !(seen & (1u << s))) {
         mask |= 1u << c;
         seen |= 1u << s;
      }
   }
   return mask;
}

/* Replace on the left half, and on blendable formats an alpha blend on
 * the right half, over a clear; integer targets get integer outputs.
 */
static void
test_format(enum pipe_format f)
{
   const char *name = util_format_short_name(f);
   bool uint = util_format_is_pure_uint(f), sint = util_format_is_pure_sint(f);
   bool blendable = screen->is_format_supported(screen, f, PIPE_TEXTURE_2D, 0,
                                                0, PIPE_BIND_BLENDABLE);
   struct pipe_surface *rt = make_surface(f, PIPE_BIND_RENDER_TARGET);
   CHECK(rt, "%s: no surface", name);
   if (!rt)
      return;
   struct scene sc = scene_begin(1, uint   ? nir_type_uint
                                    : sint ? nir_type_int
                                           : nir_type_float);
   struct pipe_depth_stencil_alpha_state zsa = { 0 };
   void *z = bind_zsa(&zsa);
   struct pipe_blend_state replace = { .rt[0].colormask = PIPE_MASK_RGBA };
   struct pipe_blend_state over = {
      .rt[0] = { 1, PIPE_BLEND_ADD, PIPE_BLENDFACTOR_SRC_ALPHA,
                 PIPE_BLENDFACTOR_INV_SRC_ALPHA, PIPE_BLEND_ADD,
                 PIPE_BLENDFACTOR_ONE, PIPE_BLENDFACTOR_INV_SRC_ALPHA,
                 PIPE_MASK_RGBA },
   };
   static const float src[4] = { 0.75f, 0.25f, 0.5f, 0.625f };
   static const float clear[4] = { 0.125f, 0.5f, 0.875f, 0.25f };

   set_fb(&rt, 1, NULL);
   union pipe_color_union cc;
   for (unsigned c = 0; c < 4; ++c) {
      if (uint)
         cc.ui[c] = (unsigned)(clear[c] * 100);
      else if (sint)
         cc.i[c] = (int)(clear[c] * 100);
      else
         cc.f[c] = clear[c];
   }
   ctx->clear(ctx, PIPE_CLEAR_COLOR, NULL, &cc, 0, 0);
   void *b0 = bind_blend(&replace);
   pan_test_debug_msg[0] = 0;
   draw_rect(0, 0, W / 2, H, 0, src, false);
   void *b1 = bind_blend(&over);
   if (blendable)
      draw_rect(W / 2, 0, W, H, 0, src, false);
   CHECK(!pan_test_debug_msg[0], "%s: %s", name, pan_test_debug_msg);
   ctx->flush(ctx, NULL, 0);
   read_pixels(rt, pixels);

   /* The references after a round trip through the format (sRGB ones
    * blended in linear space, the readback decoding them). */
   float want[4], dst[4], blended[4];
   uint8_t packed[16];
   float scale = uint || sint ? 100 : 1;
   const struct util_format_description *d = util_format_description(f);
   for (unsigned c = 0; c < 4; ++c) {
      want[c] = scale == 1 ? src[c] : (float)(int)(src[c] * 100);
      dst[c] = scale == 1 ? clear[c] : (float)(int)(clear[c] * 100);
      /* An integer too wide for its channel (62 in the 2-bit alpha of
       * R10G10B10A2_UINT) is clamped by the blend unit to the largest
       * value the channel holds: piglit's gl-3.0-render-integer expects
       * it of 8-bit targets and is not among the stock driver's known
       * failures on a real G52.
       */
      unsigned bits = c < d->nr_channels ? d->channel[c].size : 0;
      if (uint && bits && bits < 32)
         want[c] = MIN2(want[c], (float)((1u << bits) - 1));
   }
   if (scale == 1) {
      util_format_pack_rgba(f, packed, dst, 1);
      util_format_unpack_rgba(f, dst, packed, 1);
   }
   unsigned mask = format_mask(f);
   char what[96];
   snprintf(what, sizeof(what), "%s: replace", name);
   check_rect(what, 0, 0, W / 2, H, want, format_tolerance(f), mask);
   if (blendable) {
      blend_ref(&over.rt[0], src, dst, (float[4]){ 0 }, blended);
      snprintf(what, sizeof(what), "%s: blend", name);
      check_rect(what, W / 2, 0, W, H, blended, format_tolerance(f), mask);
   }
   scene_end(&sc);
   ctx->delete_blend_state(ctx, b0);
   ctx->delete_blend_state(ctx, b1);
   ctx->delete_depth_stencil_alpha_state(ctx, z);
   pipe_surface_reference(&rt, NULL);
}

static void
test_all_formats(void)
{
   unsigned tested = 0;

   for (unsigned f = 1; f < PIPE_FORMAT_COUNT; ++f) {
      const struct util_format_description *d = util_format_description(f);
      if (!d || d->colorspace == UTIL_FORMAT_COLORSPACE_ZS ||
          !screen->is_format_supported(screen, f, PIPE_TEXTURE_2D, 0, 0,
                                       PIPE_BIND_RENDER_TARGET))
         continue;
      new_context();
      test_format(f);
      tested++;
   }
   CHECK(tested >= 10, "only %u render target formats", tested);
}

/* ------------------------------------------------------------------ */
/* Depth and stencil                                                   */
/* ------------------------------------------------------------------ */

static const float red[4] = { 1, 0, 0, 1 }, green[4] = { 0, 1, 0, 1 },
                   blue[4] = { 0, 0, 1, 1 }, black[4] = { 0, 0, 0, 1 };

/* Depth and stencil of pixel (x, y) of a depth/stencil surface. */
static void
read_zs(struct pipe_surface *s, unsigned x, unsigned y, float *z, int *st)
{
   struct pipe_transfer *xfer;
   const uint8_t *map =
      pipe_texture_map(ctx, s->texture, 0, 0, PIPE_MAP_READ, 0, 0, W, H, &xfer);
   *z = -1;
   *st = -1;
   if (!map)
      return;
   const struct util_format_description *d = util_format_description(s->format);
   const uint8_t *p = map + y * xfer->stride + x * (d->block.bits / 8);
   if (util_format_has_depth(d))
      util_format_unpack_z_float(s->format, z, p, 1);
   if (util_format_has_stencil(d)) {
      uint8_t v;
      util_format_unpack_s_8uint(s->format, &v, p, 1);
      *st = v;
   }
   pipe_texture_unmap(ctx, xfer);
}

/* An RGBA8 target and a zf depth/stencil buffer bound, one float output
 * replacing the colour, depth tested with LESS and written (until a test
 * binds its own state); false (counted) when the buffer cannot be made.
 */
struct depth_scene {
   const char *name;
   struct pipe_surface *rt, *zs;
   struct scene sc;
   void *blend, *zsa;
};

static bool
depth_scene_begin(struct depth_scene *d, enum pipe_format zf)
{
   d->name = util_format_short_name(zf);
   d->rt = make_surface(PIPE_FORMAT_R8G8B8A8_UNORM, PIPE_BIND_RENDER_TARGET);
   d->zs = make_surface(zf, PIPE_BIND_DEPTH_STENCIL);
   CHECK(d->zs, "%s: no surface", d->name);
   if (!d->zs) {
      pipe_surface_reference(&d->rt, NULL);
      return false;
   }
   d->sc = scene_begin(1, nir_type_float);
   struct pipe_blend_state replace = { .rt[0].colormask = PIPE_MASK_RGBA };
   d->blend = bind_blend(&replace);
   struct pipe_depth_stencil_alpha_state zsa = {
      .depth_enabled = 1,
      .depth_writemask = 1,
      .depth_func = PIPE_FUNC_LESS,
   };
   d->zsa = bind_zsa(&zsa);
   set_fb(&d->rt, 1, d->zs);
   return true;
}

static void
depth_scene_end(struct depth_scene *d)
{
   scene_end(&d->sc);
   ctx->delete_blend_state(ctx, d->blend);
   ctx->delete_depth_stencil_alpha_state(ctx, d->zsa);
   pipe_surface_reference(&d->rt, NULL);
   pipe_surface_reference(&d->zs, NULL);
}

/* Three overlapping rectangles with LESS: the middle one at 0.5, one
 * behind it at 0.7 (hidden where they overlap), one in front at 0.3;
 * then the depth buffer must hold the nearest of each pixel.
 */
static void
test_depth(enum pipe_format zf)
{
   struct depth_scene ds;
   if (!depth_scene_begin(&ds, zf))
      return;
   const char *name = ds.name;
   struct pipe_surface *rt = ds.rt, *zs = ds.zs;
   union pipe_color_union cc = { .f = { 0, 0, 0, 1 } };

   ctx->clear(ctx, PIPE_CLEAR_COLOR | PIPE_CLEAR_DEPTHSTENCIL, NULL, &cc, 1.0,
              0);
   pan_test_debug_msg[0] = 0;
   draw_rect(16, 16, 48, 48, 0.0f, red, false);   /* z 0.5 */
   draw_rect(0, 0, 32, 32, 0.4f, green, false);   /* z 0.7, behind */
   draw_rect(32, 32, 64, 64, -0.4f, blue, false); /* z 0.3, in front */
   CHECK(!pan_test_debug_msg[0], "%s: %s", name, pan_test_debug_msg);
   ctx->flush(ctx, NULL, 0);
   read_pixels(rt, pixels);

   const struct rect_want first[] = {
      { "red in front of green", 16, 16, 32, 32, red },
      { "green alone", 0, 0, 16, 32, green },
      { "blue in front of red", 32, 32, 48, 48, blue },
      { "red alone", 16, 32, 32, 48, red },
      { "untouched", 0, 48, 16, 64, black },
   };
   check_rects(name, first, ARRAY_SIZE(first));

   /* Written back at the end of the pass. */
   static const struct {
      unsigned x, y;
      float z;
   } probes[] = {
      { 20, 20, 0.5f }, { 4, 4, 0.7f }, { 40, 40, 0.3f }, { 4, 60, 1.0f }
   };
   for (unsigned i = 0; i < ARRAY_SIZE(probes); ++i) {
      float got;
      int s;
      read_zs(zs, probes[i].x, probes[i].y, &got, &s);
      CHECK(fabsf(got - probes[i].z) < 1.0f / 4096,
            "%s: depth at (%u, %u) = %f, want %f", name, probes[i].x,
            probes[i].y, got, probes[i].z);
   }

   /* A second pass that clears depth to 0.6: only the draw at 0.5 passes. */
   ctx->clear(ctx, PIPE_CLEAR_COLOR | PIPE_CLEAR_DEPTHSTENCIL, NULL, &cc, 0.6,
              0);
   draw_rect(0, 0, 32, 64, 0.4f, green, false); /* 0.7: fails */
   draw_rect(32, 0, 64, 64, 0.0f, red, false);  /* 0.5: passes */
   ctx->flush(ctx, NULL, 0);
   read_pixels(rt, pixels);
   const struct rect_want second[] = {
      { "cleared to 0.6, behind", 0, 0, 32, 64, black },
      { "cleared to 0.6, in front", 32, 0, 64, 64, red },
   };
   check_rects(name, second, ARRAY_SIZE(second));

   depth_scene_end(&ds);
}

/* Depth kept across passes: a pass draws at 0.5 and is flushed; the next
 * one, without a depth clear, must test against 0.5 (a pre-frame draw
 * loads it): a rectangle at 0.7 stays hidden, one at 0.3 shows.  With
 * stencil, a pass clearing the stencil alone keeps the depth too.
 */
static void
test_depth_preload(enum pipe_format zf)
{
   struct depth_scene ds;
   if (!depth_scene_begin(&ds, zf))
      return;
   const char *name = ds.name;
   struct pipe_surface *rt = ds.rt, *zs = ds.zs;
   union pipe_color_union cc = { .f = { 0, 0, 0, 1 } };

   ctx->clear(ctx, PIPE_CLEAR_COLOR | PIPE_CLEAR_DEPTHSTENCIL, NULL, &cc, 1.0,
              0);
   draw_rect(0, 0, 64, 64, 0.0f, red, false); /* z 0.5 */
   ctx->flush(ctx, NULL, 0);
   pan_test_debug_msg[0] = 0;
   draw_rect(0, 0, 32, 64, 0.4f, green, false);  /* z 0.7: hidden */
   draw_rect(32, 0, 64, 64, -0.4f, blue, false); /* z 0.3: shows */
   ctx->flush(ctx, NULL, 0);
   CHECK(!pan_test_debug_msg[0], "%s: %s", name, pan_test_debug_msg);
   bool has_s = util_format_has_stencil(util_format_description(zf));
   read_pixels(rt, pixels);
   const struct rect_want want[] = {
      { "behind the loaded depth", 0, 0, 32, 64, red },
      { "in front of the loaded depth", 32, 0, 64, 64, blue },
   };
   check_rects(name, want, ARRAY_SIZE(want));
   float got;
   int st;
   read_zs(zs, 8, 8, &got, &st);
   CHECK(fabsf(got - 0.5f) < 1.0f / 4096, "%s: kept depth %f, want 0.5",
         name, got);
   read_zs(zs, 40, 8, &got, &st);
   CHECK(fabsf(got - 0.3f) < 1.0f / 4096, "%s: new depth %f, want 0.3",
         name, got);

   if (has_s) {
      /* The stencil cleared alone: depth 0.5 must stay under the left. */
      ctx->clear(ctx, PIPE_CLEAR_STENCIL, NULL, &cc, 0, 5);
      draw_rect(0, 0, 32, 64, 0.4f, green, false);
      ctx->flush(ctx, NULL, 0);
      read_pixels(rt, pixels);
      check_rect("depth kept by a stencil clear", 0, 0, 32, 64, red, 0,
                 PIPE_MASK_RGBA);
   }

   depth_scene_end(&ds);
}

/* Stencil kept across passes: a pass marks the left half with 7 and is
 * flushed; the next, without a stencil clear, draws where EQUAL 7: the
 * left half only (a pre-frame draw loads the stencil).  Then a pass
 * clearing depth alone keeps it too.
 */
static void
test_stencil_preload(enum pipe_format zf)
{
   struct depth_scene ds;
   if (!depth_scene_begin(&ds, zf))
      return;
   const char *name = ds.name;
   union pipe_color_union cc = { .f = { 0, 0, 0, 1 } };
   struct pipe_depth_stencil_alpha_state mark = {
      .stencil[0] = { .enabled = 1,
                      .func = PIPE_FUNC_ALWAYS,
                      .zpass_op = PIPE_STENCIL_OP_REPLACE,
                      .valuemask = 0xff,
                      .writemask = 0xff },
   };
   struct pipe_depth_stencil_alpha_state equal = {
      .stencil[0] = { .enabled = 1,
                      .func = PIPE_FUNC_EQUAL,
                      .valuemask = 0xff,
                      .writemask = 0xff },
   };
   void *z1 = bind_zsa(&mark);
   void *z2 = ctx->create_depth_stencil_alpha_state(ctx, &equal);

   ctx->clear(ctx, PIPE_CLEAR_COLOR | PIPE_CLEAR_DEPTHSTENCIL, NULL, &cc, 1.0,
              0);
   ctx->set_stencil_ref(ctx, (struct pipe_stencil_ref){ { 7, 7 } });
   draw_rect(0, 0, 32, H, 0, red, false);
   ctx->flush(ctx, NULL, 0);
   pan_test_debug_msg[0] = 0;
   ctx->bind_depth_stencil_alpha_state(ctx, z2);
   draw_rect(0, 0, W, H, 0, green, false);
   ctx->flush(ctx, NULL, 0);
   CHECK(!pan_test_debug_msg[0], "%s: %s", name, pan_test_debug_msg);
   read_pixels(ds.rt, pixels);
   const struct rect_want want[] = {
      { "stencil 7 kept", 0, 0, 32, H, green },
      { "stencil 0 kept", 32, 0, W, H, black },
   };
   check_rects(name, want, ARRAY_SIZE(want));

   if (util_format_has_depth(util_format_description(zf))) {
      ctx->clear(ctx, PIPE_CLEAR_COLOR | PIPE_CLEAR_DEPTH, NULL, &cc, 1.0, 0);
      draw_rect(0, 0, W, H, 0, blue, false);
      ctx->flush(ctx, NULL, 0);
      read_pixels(ds.rt, pixels);
      const struct rect_want after[] = {
         { "stencil kept by a depth clear", 0, 0, 32, H, blue },
         { "stencil 0 kept by a depth clear", 32, 0, W, H, black },
      };
      check_rects(name, after, ARRAY_SIZE(after));
   }

   depth_scene_end(&ds);
   ctx->delete_depth_stencil_alpha_state(ctx, z1);
   ctx->delete_depth_stencil_alpha_state(ctx, z2);
}

/* Stencil: mark a rectangle (REPLACE), draw where EQUAL, count with
 * INCR_WRAP and INVERT under masks, and test back faces with their own
 * state.
 */
static void
test_stencil(enum pipe_format zf)
{
   const char *name = util_format_short_name(zf);
   struct pipe_surface *rt =
      make_surface(PIPE_FORMAT_R8G8B8A8_UNORM, PIPE_BIND_RENDER_TARGET);
   struct pipe_surface *zs = make_surface(zf, PIPE_BIND_DEPTH_STENCIL);
   struct scene sc = scene_begin(1, nir_type_float);
   struct pipe_blend_state replace = { .rt[0].colormask = PIPE_MASK_RGBA };
   void *b = bind_blend(&replace);
   union pipe_color_union cc = { .f = { 0, 0, 0, 1 } };

   set_fb(&rt, 1, zs);
   ctx->clear(ctx, PIPE_CLEAR_COLOR | PIPE_CLEAR_DEPTHSTENCIL, NULL, &cc, 1.0,
              3);

   /* 1: rows 0-31 get 5 (REPLACE, ALWAYS), colour masked off. */
   struct pipe_blend_state nocolour = { .rt[0].colormask = 0 };
   void *b2 = bind_blend(&nocolour);
   struct pipe_depth_stencil_alpha_state mark = {
      .stencil[0] = { .enabled = 1,
                      .func = PIPE_FUNC_ALWAYS,
                      .zpass_op = PIPE_STENCIL_OP_REPLACE,
                      .valuemask = 0xff,
                      .writemask = 0xff },
   };
   void *z1 = bind_zsa(&mark);
   ctx->set_stencil_ref(ctx, (struct pipe_stencil_ref){ { 5, 5 } });
   draw_rect(0, 0, W, 32, 0, red, false);

   /* 2: INCR_WRAP where stencil & 0x4 == 4 (rows 0-31: 5 -> 6), writing
    * only the low 4 bits; colour red where it passes.
    */
   ctx->bind_blend_state(ctx, b);
   struct pipe_depth_stencil_alpha_state incr = {
      .stencil[0] = { .enabled = 1,
                      .func = PIPE_FUNC_EQUAL,
                      .zpass_op = PIPE_STENCIL_OP_INCR_WRAP,
                      .fail_op = PIPE_STENCIL_OP_INVERT,
                      .valuemask = 0x4,
                      .writemask = 0x0f },
   };
   void *z2 = bind_zsa(&incr);
   ctx->set_stencil_ref(ctx, (struct pipe_stencil_ref){ { 4, 4 } });
   /* Columns 0-31 only: rows 32-63 there fail (3 & 4 != 4) and INVERT
    * the low nibble: 3 -> 12.
    */
   draw_rect(0, 0, 32, H, 0, red, false);

   /* 3: two-sided.  Front faces pass GREATER (ref 4 > stencil: rows
    * 32-63, stencil 3) and keep; back faces pass LESS (4 < stencil: rows
    * 0-31, stencil 5) and decrement.
    */
   struct pipe_depth_stencil_alpha_state two = {
      .stencil[0] = { .enabled = 1,
                      .func = PIPE_FUNC_GREATER,
                      .zpass_op = PIPE_STENCIL_OP_KEEP,
                      .valuemask = 0xff,
                      .writemask = 0xff },
      .stencil[1] = { .enabled = 1,
                      .func = PIPE_FUNC_LESS,
                      .zpass_op = PIPE_STENCIL_OP_DECR,
                      .valuemask = 0xff,
                      .writemask = 0xff },
   };
   void *z3 = bind_zsa(&two);
   draw_rect(32, 0, 48, H, 0, green, false); /* front */
   draw_rect(48, 0, 64, H, 0, blue, true);   /* back */
   ctx->flush(ctx, NULL, 0);
   read_pixels(rt, pixels);

   /* Stencil now: cols 0-31: rows 0-31 6, rows 32-63 12; cols 32-47:
    * rows 0-31 5, rows 32-63 3; cols 48-63: rows 0-31 4 (5 decremented),
    * rows 32-63 3 (4 < 3 fails).
    */
   const struct rect_want want[] = {
      { "EQUAL under a mask", 0, 0, 32, 32, red },
      { "EQUAL fails", 0, 32, 32, 64, black },
      { "front GREATER fails", 32, 0, 48, 32, black },
      { "front GREATER passes", 32, 32, 48, 64, green },
      { "back LESS passes", 48, 0, 64, 32, blue },
      { "back LESS fails", 48, 32, 64, 64, black },
   };
   check_rects(name, want, ARRAY_SIZE(want));

   static const struct {
      unsigned x, y;
      int s;
   } probes[] = { { 4, 4, 6 },   { 4, 40, 12 }, { 36, 4, 5 },
                  { 36, 40, 3 }, { 52, 4, 4 },  { 52, 40, 3 } };
   for (unsigned i = 0; i < ARRAY_SIZE(probes); ++i) {
      float zv;
      int s;
      read_zs(zs, probes[i].x, probes[i].y, &zv, &s);
      CHECK(s == probes[i].s, "%s: stencil at (%u, %u) = %d, want %d", name,
            probes[i].x, probes[i].y, s, probes[i].s);
   }

   scene_end(&sc);
   ctx->delete_blend_state(ctx, b);
   ctx->delete_blend_state(ctx, b2);
   ctx->delete_depth_stencil_alpha_state(ctx, z1);
   ctx->delete_depth_stencil_alpha_state(ctx, z2);
   ctx->delete_depth_stencil_alpha_state(ctx, z3);
   pipe_surface_reference(&rt, NULL);
   pipe_surface_reference(&zs, NULL);
}

/* Float depth + stencil lives in two planes: a CPU write of part of the
 * interleaved pixels must reach both and leave the rest as the clear left
 * them.
 */
static void
test_split_zs_write(void)
{
   const enum pipe_format zf = PIPE_FORMAT_Z32_FLOAT_S8X24_UINT;
   struct pipe_surface *rt =
      make_surface(PIPE_FORMAT_R8G8B8A8_UNORM, PIPE_BIND_RENDER_TARGET);
   struct pipe_surface *zs = make_surface(zf, PIPE_BIND_DEPTH_STENCIL);
   union pipe_color_union cc = { .f = { 0, 0, 0, 1 } };

   set_fb(&rt, 1, zs);
   ctx->clear(ctx, PIPE_CLEAR_COLOR | PIPE_CLEAR_DEPTHSTENCIL, NULL, &cc, 1.0,
              3);
   ctx->flush(ctx, NULL, 0);

   struct pipe_transfer *xfer;
   uint8_t *map = pipe_texture_map(ctx, zs->texture, 0, 0, PIPE_MAP_WRITE, 8,
                                   8, 16, 4, &xfer);
   CHECK(map, "split Z32F_S8: no write mapping");
   if (map) {
      for (unsigned y = 0; y < 4; ++y) {
         for (unsigned x = 0; x < 16; ++x) {
            float z = 0.25f;
            uint8_t st = 200;
            uint8_t *p = map + y * xfer->stride + x * 8;
            util_format_pack_z_float(zf, p, &z, 1);
            util_format_pack_s_8uint(zf, p, &st, 1);
         }
      }
      pipe_texture_unmap(ctx, xfer);
   }

   static const struct {
      unsigned x, y;
      float z;
      int s;
   } probes[] = { { 8, 8, 0.25f, 200 }, { 23, 11, 0.25f, 200 },
                  { 24, 8, 1.0f, 3 },   { 8, 12, 1.0f, 3 },
                  { 4, 4, 1.0f, 3 } };
   for (unsigned i = 0; i < ARRAY_SIZE(probes); ++i) {
      float z;
      int st;
      read_zs(zs, probes[i].x, probes[i].y, &z, &st);
      CHECK(z == probes[i].z && st == probes[i].s,
            "split Z32F_S8 at (%u, %u): %f/%d, want %f/%d", probes[i].x,
            probes[i].y, z, st, probes[i].z, probes[i].s);
   }
   pipe_surface_reference(&rt, NULL);
   pipe_surface_reference(&zs, NULL);
}

/* ------------------------------------------------------------------ */
/* Several render targets                                              */
/* ------------------------------------------------------------------ */

static const enum pipe_format unorm_rts[MAX_RTS] = {
   PIPE_FORMAT_R8G8B8A8_UNORM,
   PIPE_FORMAT_B8G8R8A8_UNORM,
   PIPE_FORMAT_R10G10B10A2_UNORM,
   PIPE_FORMAT_R8G8B8A8_UNORM,
};

/* Float targets (raw in the tile buffer): no blending, colour masks. */
static const enum pipe_format float_rts[MAX_RTS] = {
   PIPE_FORMAT_R16G16B16A16_FLOAT,
   PIPE_FORMAT_R32G32B32A32_FLOAT,
   PIPE_FORMAT_R11G11B10_FLOAT,
   PIPE_FORMAT_R32G32B32A32_FLOAT,
};

/* Four targets of different formats, the shader writing a rotation of
 * the colour to each: RT0 replace, RT1 additive, RT2 a colour mask, RT3
 * an alpha blend, with independent blending; float targets replace under
 * masks instead.
 */
static void
test_mrt(const enum pipe_format formats[MAX_RTS])
{
   struct pipe_surface *rts[MAX_RTS];
   for (unsigned i = 0; i < MAX_RTS; ++i)
      rts[i] = make_surface(formats[i], PIPE_BIND_RENDER_TARGET);
   struct scene sc = scene_begin(MAX_RTS, nir_type_float);
   struct pipe_depth_stencil_alpha_state zsa = { 0 };
   void *z = bind_zsa(&zsa);
   struct pipe_blend_state b = {
      .independent_blend_enable = 1,
      .rt = {
         { .colormask = PIPE_MASK_RGBA },
         { 1, PIPE_BLEND_ADD, PIPE_BLENDFACTOR_ONE, PIPE_BLENDFACTOR_ONE,
           PIPE_BLEND_ADD, PIPE_BLENDFACTOR_ONE, PIPE_BLENDFACTOR_ONE,
           PIPE_MASK_RGBA },
         { .colormask = PIPE_MASK_R | PIPE_MASK_B },
         { 1, PIPE_BLEND_ADD, PIPE_BLENDFACTOR_SRC_ALPHA,
           PIPE_BLENDFACTOR_INV_SRC_ALPHA, PIPE_BLEND_ADD,
           PIPE_BLENDFACTOR_ONE, PIPE_BLENDFACTOR_ZERO, PIPE_MASK_RGBA },
      },
   };
   if (formats == float_rts) {
      b.rt[1].blend_enable = b.rt[3].blend_enable = 0;
      b.rt[3].colormask = PIPE_MASK_G | PIPE_MASK_A;
   }
   void *cso = bind_blend(&b);
   static const float src[4] = { 0.5f, 0.25f, 0.125f, 0.75f };
   static const float clear[4] = { 0.25f, 0.5f, 0.25f, 0.0f };

   CHECK(screen->get_param(screen, PIPE_CAP_MAX_RENDER_TARGETS) >= 4,
         "PIPE_CAP_MAX_RENDER_TARGETS %d",
         screen->get_param(screen, PIPE_CAP_MAX_RENDER_TARGETS));
   set_fb(rts, MAX_RTS, NULL);
   clear_colour(clear);
   pan_test_debug_msg[0] = 0;
   draw_rect(8, 8, 56, 56, 0, src, false);
   CHECK(!pan_test_debug_msg[0], "MRT: %s", pan_test_debug_msg);
   ctx->flush(ctx, NULL, 0);
   for (unsigned i = 0; i < MAX_RTS; ++i) {
      float s[4], want[4], d[4];
      uint8_t packed[16];
      for (unsigned c = 0; c < 4; ++c)
         s[c] = src[(c + i) % 4];
      util_format_pack_rgba(formats[i], packed, clear, 1);
      util_format_unpack_rgba(formats[i], d, packed, 1);
      struct pipe_rt_blend_state r = b.rt[i];
      if (!r.blend_enable) {
         r.rgb_func = r.alpha_func = PIPE_BLEND_ADD;
         r.rgb_src_factor = r.alpha_src_factor = PIPE_BLENDFACTOR_ONE;
         r.rgb_dst_factor = r.alpha_dst_factor = PIPE_BLENDFACTOR_ZERO;
      }
      blend_ref(&r, s, d, (float[4]){ 0 }, want);
      read_pixels(rts[i], pixels);
      char what[64];
      snprintf(what, sizeof(what), "MRT %u (%s)", i,
               util_format_short_name(formats[i]));
      check_rect(what, 8, 8, 56, 56, want, format_tolerance(formats[i]),
                 PIPE_MASK_RGBA);
      snprintf(what, sizeof(what), "MRT %u (%s) outside", i,
               util_format_short_name(formats[i]));
      check_rect(what, 0, 0, W, 8, d, 0, PIPE_MASK_RGBA);
   }
   scene_end(&sc);
   ctx->delete_blend_state(ctx, cso);
   ctx->delete_depth_stencil_alpha_state(ctx, z);
   for (unsigned i = 0; i < MAX_RTS; ++i)
      pipe_surface_reference(&rts[i], NULL);
}

/* A pass that draws without clearing keeps what the previous pass left:
 * two targets (RGBA8 and R5G6B5, or RGBA16F and RGBA32F) drawn in one
 * pass, then a second pass draws elsewhere, clearing target 1 only;
 * target 0 must hold both rectangles over the first clear, target 1 the
 * second rectangle over its new clear.
 */
static void
test_preload(const enum pipe_format formats[2])
{
   struct pipe_surface *rts[2];
   for (unsigned i = 0; i < 2; ++i)
      rts[i] = make_surface(formats[i], PIPE_BIND_RENDER_TARGET);
   struct scene sc = scene_begin(2, nir_type_float);
   struct pipe_depth_stencil_alpha_state zsa = { 0 };
   void *z = bind_zsa(&zsa);
   struct pipe_blend_state replace = {
      .independent_blend_enable = 1,
      .rt = { { .colormask = PIPE_MASK_RGBA },
              { .colormask = PIPE_MASK_RGBA } },
   };
   void *b = bind_blend(&replace);
   union pipe_color_union c0 = { .f = { 0.25f, 0.5f, 0.75f, 1.0f } };
   union pipe_color_union c1 = { .f = { 1.0f, 1.0f, 0.0f, 1.0f } };

   set_fb(rts, 2, NULL);
   ctx->clear(ctx, PIPE_CLEAR_COLOR, NULL, &c0, 0, 0);
   draw_rect(0, 0, 32, 32, 0, red, false);
   ctx->flush(ctx, NULL, 0);
   pan_test_debug_msg[0] = 0;
   ctx->clear(ctx, PIPE_CLEAR_COLOR1, NULL, &c1, 0, 0);
   draw_rect(32, 32, 64, 64, 0, green, false);
   ctx->flush(ctx, NULL, 0);
   CHECK(!pan_test_debug_msg[0], "preload: %s", pan_test_debug_msg);

   /* Output 1 is the colour rotated once: green -> (1, 0, 1, 0), alpha
    * reading 1 in a target without it.
    */
   const float green1[4] = { 1, 0, 1,
                             util_format_has_alpha(formats[1]) ? 0 : 1 };
   read_pixels(rts[0], pixels);
   check_rect("preload: first pass's rectangle", 0, 0, 32, 32, red, 0,
              PIPE_MASK_RGBA);
   check_rect("preload: second pass's rectangle", 32, 32, 64, 64, green, 0,
              PIPE_MASK_RGBA);
   check_rect("preload: first clear", 32, 0, 64, 32, c0.f, 1.01f / 255,
              PIPE_MASK_RGBA);
   check_rect("preload: first clear below", 0, 32, 32, 64, c0.f, 1.01f / 255,
              PIPE_MASK_RGBA);
   read_pixels(rts[1], pixels);
   check_rect("preload: cleared again", 0, 0, 32, 32, c1.f, 0, PIPE_MASK_RGBA);
   check_rect("preload: target 1 drawn", 32, 32, 64, 64, green1, 0,
              PIPE_MASK_RGBA);

   scene_end(&sc);
   ctx->delete_blend_state(ctx, b);
   ctx->delete_depth_stencil_alpha_state(ctx, z);
   for (unsigned i = 0; i < 2; ++i)
      pipe_surface_reference(&rts[i], NULL);
}

/* gl_FragColor (FRAG_RESULT_COLOR) draws into a lone target, and is
 * refused with a message while two are bound (it would only reach the
 * first).
 */
static void
test_fragcolor(void)
{
   struct pipe_surface *rts[2];
   for (unsigned i = 0; i < 2; ++i)
      rts[i] =
         make_surface(PIPE_FORMAT_R8G8B8A8_UNORM, PIPE_BIND_RENDER_TARGET);
   struct scene sc = scene_begin(0, nir_type_float);
   nir_builder b = shader(MESA_SHADER_FRAGMENT, "fragcolor");
   nir_store_var(&b,
                 io_var(b.shader, nir_var_shader_out, FRAG_RESULT_COLOR, 0,
                        glsl_vec4_type(), "gl_FragColor"),
                 nir_imm_vec4(&b, 0, 1, 0, 1), 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   void *fs = ctx->create_fs_state(ctx, &cso);
   ctx->bind_fs_state(ctx, fs);
   struct pipe_depth_stencil_alpha_state zsa = { 0 };
   void *z = bind_zsa(&zsa);
   struct pipe_blend_state replace = { .rt[0].colormask = PIPE_MASK_RGBA };
   void *bl = bind_blend(&replace);

   set_fb(rts, 1, NULL);
   clear_colour(black);
   draw_rect(0, 0, W, H, 0, red, false);
   ctx->flush(ctx, NULL, 0);
   read_pixels(rts[0], pixels);
   check_rect("gl_FragColor, one target", 0, 0, W, H, green, 0, PIPE_MASK_RGBA);

   set_fb(rts, 2, NULL);
   clear_colour(black);
   pan_test_debug_msg[0] = 0;
   draw_rect(0, 0, W, H, 0, red, false);
   CHECK(strstr(pan_test_debug_msg, "gl_FragColor"),
         "gl_FragColor, two targets: message '%s'", pan_test_debug_msg);
   ctx->flush(ctx, NULL, 0);
   for (unsigned i = 0; i < 2; ++i) {
      read_pixels(rts[i], pixels);
      check_rect("gl_FragColor, two targets: refused", 0, 0, W, H, black, 0,
                 PIPE_MASK_RGBA);
   }

   scene_end(&sc);
   ctx->delete_fs_state(ctx, fs);
   ctx->delete_blend_state(ctx, bl);
   ctx->delete_depth_stencil_alpha_state(ctx, z);
   for (unsigned i = 0; i < 2; ++i)
      pipe_surface_reference(&rts[i], NULL);
}

int
main(int argc, char **argv)
{
   if (!pan_test_open(&screen, &ctx))
      return 1;
   blend_shaders =
      screen->get_param(screen, PIPE_CAP_MAX_DUAL_SOURCE_RENDER_TARGETS) > 0;
   pixels = calloc(H, sizeof(*pixels));
   if (!pixels)
      return 1;

   static const float homogeneous[4] = { 0.4f, 0.4f, 0.4f, 0.4f };
   static const float mixed[4] = { 0.2f, 0.4f, 0.6f, 0.8f };
   static const unsigned funcs[] = {
      PIPE_BLEND_ADD, PIPE_BLEND_SUBTRACT, PIPE_BLEND_REVERSE_SUBTRACT,
      PIPE_BLEND_MIN, PIPE_BLEND_MAX,
   };
   for (unsigned i = 0; i < ARRAY_SIZE(funcs); ++i) {
      new_context();
      test_blend_factors(funcs[i], homogeneous);
   }
   new_context();
   test_blend_factors(PIPE_BLEND_ADD, mixed);
   new_context();
   test_blend_separate();
   new_context();
   test_logic_op();
   new_context();
   test_dual_source();
   new_context();
   test_alpha_only_blend();
   new_context();
   test_float_blend(PIPE_FORMAT_R16G16B16A16_FLOAT);
   new_context();
   test_float_blend(PIPE_FORMAT_R32G32B32A32_FLOAT);
   test_all_formats();
   static const enum pipe_format zs_formats[] = {
      PIPE_FORMAT_Z16_UNORM,
      PIPE_FORMAT_Z24_UNORM_S8_UINT,
      PIPE_FORMAT_Z24X8_UNORM,
      PIPE_FORMAT_Z32_FLOAT,
      PIPE_FORMAT_Z32_FLOAT_S8X24_UINT,
   };
   for (unsigned i = 0; i < ARRAY_SIZE(zs_formats); ++i) {
      new_context();
      test_depth(zs_formats[i]);
      new_context();
      test_depth_preload(zs_formats[i]);
   }
   static const enum pipe_format s_formats[] = {
      PIPE_FORMAT_Z24_UNORM_S8_UINT,
      PIPE_FORMAT_S8_UINT,
      PIPE_FORMAT_Z32_FLOAT_S8X24_UINT,
   };
   for (unsigned i = 0; i < ARRAY_SIZE(s_formats); ++i) {
      new_context();
      test_stencil_preload(s_formats[i]);
   }
   new_context();
   test_stencil(PIPE_FORMAT_Z24_UNORM_S8_UINT);
   new_context();
   test_stencil(PIPE_FORMAT_S8_UINT);
   new_context();
   test_stencil(PIPE_FORMAT_Z32_FLOAT_S8X24_UINT);
   new_context();
   test_split_zs_write();
   new_context();
   test_mrt(unorm_rts);
   new_context();
   test_mrt(float_rts);
   static const enum pipe_format preload_unorm[2] = {
      PIPE_FORMAT_R8G8B8A8_UNORM,
      PIPE_FORMAT_B5G6R5_UNORM,
   };
   static const enum pipe_format preload_float[2] = {
      PIPE_FORMAT_R16G16B16A16_FLOAT,
      PIPE_FORMAT_R32G32B32A32_FLOAT,
   };
   new_context();
   test_preload(preload_unorm);
   new_context();
   test_preload(preload_float);
   new_context();
   test_fragcolor();

   free(pixels);
   return pan_test_close(screen, ctx);
}
