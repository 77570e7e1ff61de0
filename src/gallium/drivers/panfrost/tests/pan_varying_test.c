/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * GL 3.2's 32 varying slots (128 components) at the Gallium level on the
 * drm-shim, whose simulator runs the jobs (G57: IDVS, G52 and G72: vertex
 * and tiler jobs).  A vertex shader writes 32 distinct vec4 varyings
 * (every slot VAR0-VAR31), the fragment shader compares each of them with
 * what it must be at its pixel and draws green where all agree, the count
 * of wrong slots in red otherwise; every pixel is checked.  Cases: smooth
 * varyings (each a different function of the position), flat ones
 * (Bifrost reads them with another instruction), and 30 generic varyings
 * with two fixed-function ones (gl_Color, gl_TexCoord[0]), which must not
 * share a slot with any generic one.
 */

#include <math.h>
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

#include "pan_test_screen.h"

#define W 16
#define H 8
#define SLOTS 32

static struct pipe_screen *screen;
static struct pipe_context *ctx;

enum mode { SMOOTH, FLAT, FIXED_FUNCTION };

/* The location of the i-th varying of a mode: the fixed-function case
 * puts gl_Color and gl_TexCoord[0] in place of VAR30 and VAR31. */
static unsigned
location(enum mode m, unsigned i)
{
   if (m == FIXED_FUNCTION && i == SLOTS - 2)
      return VARYING_SLOT_COL0;
   if (m == FIXED_FUNCTION && i == SLOTS - 1)
      return VARYING_SLOT_TEX0;
   return VARYING_SLOT_VAR0 + i;
}

/* Component c of varying i at clip-space x and y: a distinct constant,
 * plus (smooth) a slope in x or y that differs per varying. */
static nir_ssa_def *
value(nir_builder *b, enum mode m, unsigned i, unsigned c, nir_ssa_def *x,
      nir_ssa_def *y)
{
   nir_ssa_def *k = nir_imm_float(b, (i * 4 + c + 1) / 256.0f);
   if (m == FLAT)
      return k;
   float slope = (i % 7 + 1) / 64.0f * (c & 1 ? -1.0f : 1.0f);
   return nir_ffma(b, c & 2 ? y : x, nir_imm_float(b, slope), k);
}

static void *
vertex_shader(enum mode m)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_VERTEX, "vary_vs");
   nir_variable *pos =
      pan_test_io_var(b.shader, nir_var_shader_in, VERT_ATTRIB_GENERIC0, 0,
                      "pos");
   nir_variable *opos = pan_test_io_var(b.shader, nir_var_shader_out,
                                        VARYING_SLOT_POS, 0, "gl_Position");
   nir_ssa_def *p = nir_load_var(&b, pos);
   nir_store_var(&b, opos, p, 0xf);
   for (unsigned i = 0; i < SLOTS; ++i) {
      nir_variable *v = pan_test_io_var(b.shader, nir_var_shader_out,
                                        location(m, i), i + 1, "v");
      nir_ssa_def *w[4];
      for (unsigned c = 0; c < 4; ++c)
         w[c] = value(&b, m, i, c, nir_channel(&b, p, 0),
                      nir_channel(&b, p, 1));
      nir_store_var(&b, v, nir_vec(&b, w, 4), 0xf);
   }
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_vs_state(ctx, &cso);
}

/* Green where every varying is what the vertex shader's function gives at
 * the pixel's centre (clip space from gl_FragCoord), else red = the wrong
 * ones / 255. */
static void *
fragment_shader(enum mode m)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_FRAGMENT, "vary_fs");
   nir_variable *fc = pan_test_io_var(b.shader, nir_var_shader_in,
                                      VARYING_SLOT_POS, SLOTS, "coord");
   nir_variable *out = pan_test_io_var(b.shader, nir_var_shader_out,
                                       FRAG_RESULT_DATA0, 0, "colour");
   nir_ssa_def *coord = nir_load_var(&b, fc);
   nir_ssa_def *x = nir_fadd_imm(
      &b, nir_fmul_imm(&b, nir_channel(&b, coord, 0), 2.0f / W), -1.0f);
   nir_ssa_def *y = nir_fadd_imm(
      &b, nir_fmul_imm(&b, nir_channel(&b, coord, 1), 2.0f / H), -1.0f);
   nir_ssa_def *wrong = nir_imm_int(&b, 0);
   for (unsigned i = 0; i < SLOTS; ++i) {
      nir_variable *v = pan_test_io_var(b.shader, nir_var_shader_in,
                                        location(m, i), i, "v");
      v->data.interpolation =
         m == FLAT ? INTERP_MODE_FLAT : INTERP_MODE_SMOOTH;
      nir_ssa_def *got = nir_load_var(&b, v);
      nir_ssa_def *bad = nir_imm_false(&b);
      for (unsigned c = 0; c < 4; ++c) {
         nir_ssa_def *d = nir_fabs(
            &b, nir_fsub(&b, nir_channel(&b, got, c), value(&b, m, i, c, x, y)));
         bad = nir_ior(&b, bad, nir_fge(&b, d, nir_imm_float(&b, 1e-3f)));
      }
      wrong = nir_iadd(&b, wrong, nir_b2i32(&b, bad));
   }
   nir_ssa_def *ok = nir_ieq_imm(&b, wrong, 0);
   nir_ssa_def *colour =
      nir_vec4(&b, nir_fmul_imm(&b, nir_i2f32(&b, wrong), 1.0f / 255),
               nir_b2f32(&b, ok), nir_imm_float(&b, 0), nir_imm_float(&b, 1));
   nir_store_var(&b, out, colour, 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

static void
check_pixels(struct pan_test_fullscreen *f, const char *what)
{
   struct pipe_transfer *xfer;
   const uint8_t *map =
      pipe_texture_map(ctx, f->tex, 0, 0, PIPE_MAP_READ, 0, 0, W, H, &xfer);
   unsigned bad = 0;

   CHECK(map, "%s: render target map failed", what);
   for (unsigned y = 0; map && y < H; ++y) {
      for (unsigned x = 0; x < W; ++x) {
         const uint8_t *p = map + y * xfer->stride + x * 4;
         if (p[0] == 0 && p[1] == 255 && p[2] == 0 && p[3] == 255)
            continue;
         if (bad++ < 4)
            CHECK(false, "%s: pixel (%u, %u) is %u %u %u %u (%u slots wrong)",
                  what, x, y, p[0], p[1], p[2], p[3], p[0]);
      }
   }
   CHECK(map && !bad, "%s: %u pixels differ", what, bad);
   if (map)
      pipe_texture_unmap(ctx, xfer);
}

static void
test_mode(struct pan_test_fullscreen *f, enum mode m, const char *what)
{
   void *vs = vertex_shader(m), *fs = fragment_shader(m);
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);

   struct pipe_draw_info info = { .mode = PIPE_PRIM_TRIANGLES,
                                  .instance_count = 1 };
   struct pipe_draw_start_count_bias d = { .count = 3 };
   union pipe_color_union c = { .f = { 0, 0, 1, 1 } };
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &c, 0, 0);
   pan_test_debug_msg[0] = 0;
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
   CHECK(!pan_test_debug_msg[0], "%s: driver said \"%s\"", what,
         pan_test_debug_msg);
   check_pixels(f, what);

   pan_test_delete_shaders(ctx, vs, fs);
}

int
main(void)
{
   struct pan_test_fullscreen f;

   if (!pan_test_open(&screen, &ctx))
      return 1;
   /* What GL 3.2 asks: 128 varying, fragment input and geometry output
    * components. */
   CHECK(screen->get_param(screen, PIPE_CAP_MAX_VARYINGS) >= SLOTS,
         "%d varyings", screen->get_param(screen, PIPE_CAP_MAX_VARYINGS));
   CHECK(screen->get_shader_param(screen, PIPE_SHADER_FRAGMENT,
                                  PIPE_SHADER_CAP_MAX_INPUTS) >= SLOTS,
         "%d fragment inputs",
         screen->get_shader_param(screen, PIPE_SHADER_FRAGMENT,
                                  PIPE_SHADER_CAP_MAX_INPUTS));
   CHECK(screen->get_shader_param(screen, PIPE_SHADER_VERTEX,
                                  PIPE_SHADER_CAP_MAX_OUTPUTS) >= SLOTS,
         "%d vertex outputs",
         screen->get_shader_param(screen, PIPE_SHADER_VERTEX,
                                  PIPE_SHADER_CAP_MAX_OUTPUTS));
   pan_test_fullscreen_setup(screen, ctx, W, H, &f);
   test_mode(&f, SMOOTH, "32 smooth varyings");
   test_mode(&f, FLAT, "32 flat varyings");
   test_mode(&f, FIXED_FUNCTION, "30 generic and 2 fixed-function varyings");
   pan_test_fullscreen_teardown(ctx, &f);
   return pan_test_close(screen, ctx);
}
