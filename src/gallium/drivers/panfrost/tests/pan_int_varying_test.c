/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Flat integer varyings whose bits look like NaNs (draw-path.rst, typed
 * integer varyings): the vertex shader writes ivec4 and uvec4 varyings
 * holding quiet and signalling NaN patterns, -1 and infinities' bits, in
 * slots read through LEA_ATTR_IMM and through LEA_ATTR (slot 17 on
 * Bifrost), beside a float varying; the fragment shader compares every
 * word with what it must be and draws green where all agree, else red
 * with the count of wrong words.  Integer varyings passed through a
 * binary32 record lose such patterns on the simulator (a binary32 store
 * gives NaNs the default pattern, as hardware may), so this passes only
 * with integer records and integer register formats.  Every pixel is
 * checked on the G57, G52 and G72.
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

#include "pan_test_screen.h"

#define W 8
#define H 8

static struct pipe_screen *screen;
static struct pipe_context *ctx;

/* The integer varyings: location, signedness, the four words. */
static const struct {
   unsigned location;
   bool is_signed;
   uint32_t w[4];
} ints[] = {
   { VARYING_SLOT_VAR0, true, { 0x7fc00001u, 0xffffffffu, 0x7f800001u, 5 } },
   { VARYING_SLOT_VAR1,
     false,
     { 0xfff00000u, 0x7fffffffu, 0xffc00000u, 0x80000001u } },
   { VARYING_SLOT_VAR17,
     false,
     { 0x7f800000u, 0xff800003u, 0x7fa00000u, 0xfffffffeu } },
};
#define NR_INTS (sizeof(ints) / sizeof(ints[0]))
/* A float varying beside them: a plain value, kept as it is. */
#define FLOAT_LOC VARYING_SLOT_VAR2
static const float fvals[4] = { 0.25f, -1.5f, 3.0f, 0.125f };

static nir_variable *
io_var(nir_shader *s, nir_variable_mode mode, unsigned location,
       unsigned driver_location, const struct glsl_type *type, bool flat)
{
   nir_variable *v = nir_variable_create(s, mode, type, "v");
   v->data.location = location;
   v->data.driver_location = driver_location;
   v->data.interpolation = flat ? INTERP_MODE_FLAT : INTERP_MODE_SMOOTH;
   return v;
}

static const struct glsl_type *
int_type(unsigned i)
{
   return ints[i].is_signed ? glsl_ivec4_type() : glsl_uvec4_type();
}

static nir_ssa_def *
int_value(nir_builder *b, unsigned i)
{
   return nir_imm_ivec4(b, (int)ints[i].w[0], (int)ints[i].w[1],
                        (int)ints[i].w[2], (int)ints[i].w[3]);
}

static void *
vertex_shader(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_VERTEX, "ivary_vs");
   nir_variable *pos = pan_test_io_var(b.shader, nir_var_shader_in,
                                       VERT_ATTRIB_GENERIC0, 0, "pos");
   nir_variable *opos = pan_test_io_var(b.shader, nir_var_shader_out,
                                        VARYING_SLOT_POS, 0, "gl_Position");
   nir_store_var(&b, opos, nir_load_var(&b, pos), 0xf);
   for (unsigned i = 0; i < NR_INTS; ++i) {
      nir_variable *v = io_var(b.shader, nir_var_shader_out, ints[i].location,
                               i + 1, int_type(i), true);
      nir_store_var(&b, v, int_value(&b, i), 0xf);
   }
   nir_variable *f = io_var(b.shader, nir_var_shader_out, FLOAT_LOC,
                            NR_INTS + 1, glsl_vec4_type(), false);
   nir_store_var(&b, f,
                 nir_imm_vec4(&b, fvals[0], fvals[1], fvals[2], fvals[3]), 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_vs_state(ctx, &cso);
}

static void *
fragment_shader(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_FRAGMENT, "ivary_fs");
   nir_variable *out = pan_test_io_var(b.shader, nir_var_shader_out,
                                       FRAG_RESULT_DATA0, 0, "colour");
   nir_ssa_def *wrong = nir_imm_int(&b, 0);
   for (unsigned i = 0; i < NR_INTS; ++i) {
      nir_variable *v = io_var(b.shader, nir_var_shader_in, ints[i].location, i,
                               int_type(i), true);
      nir_ssa_def *got = nir_load_var(&b, v);
      nir_ssa_def *want = int_value(&b, i);
      for (unsigned c = 0; c < 4; ++c)
         wrong = nir_iadd(&b, wrong,
                          nir_b2i32(&b, nir_ine(&b, nir_channel(&b, got, c),
                                                nir_channel(&b, want, c))));
   }
   nir_variable *f = io_var(b.shader, nir_var_shader_in, FLOAT_LOC, NR_INTS,
                            glsl_vec4_type(), false);
   nir_ssa_def *fv = nir_load_var(&b, f);
   for (unsigned c = 0; c < 4; ++c)
      wrong = nir_iadd(&b, wrong,
                       nir_b2i32(&b, nir_fneu(&b, nir_channel(&b, fv, c),
                                              nir_imm_float(&b, fvals[c]))));
   nir_ssa_def *ok = nir_ieq_imm(&b, wrong, 0);
   nir_ssa_def *colour =
      nir_vec4(&b, nir_fmul_imm(&b, nir_i2f32(&b, wrong), 1.0f / 255),
               nir_b2f32(&b, ok), nir_imm_float(&b, 0), nir_imm_float(&b, 1));
   nir_store_var(&b, out, colour, 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

int
main(void)
{
   struct pan_test_fullscreen f;

   if (!pan_test_open_fullscreen(&screen, &ctx, W, H, &f))
      return 1;
   void *vs = vertex_shader(), *fs = fragment_shader();
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);

   struct pipe_draw_info info = { .mode = PIPE_PRIM_TRIANGLES,
                                  .instance_count = 1 };
   struct pipe_draw_start_count_bias d = { .count = 3 };
   union pipe_color_union c = { .f = { 0, 0, 1, 1 } };
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &c, 0, 0);
   pan_test_debug_msg[0] = 0;
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
   CHECK(!pan_test_debug_msg[0], "driver said \"%s\"", pan_test_debug_msg);

   struct pipe_transfer *xfer;
   const uint8_t *map =
      pipe_texture_map(ctx, f.tex, 0, 0, PIPE_MAP_READ, 0, 0, W, H, &xfer);
   unsigned bad = 0;
   CHECK(map, "render target map failed");
   for (unsigned y = 0; map && y < H; ++y) {
      for (unsigned x = 0; x < W; ++x) {
         const uint8_t *p = map + y * xfer->stride + x * 4;
         if (p[0] == 0 && p[1] == 255 && p[2] == 0 && p[3] == 255)
            continue;
         if (bad++ < 4)
            CHECK(false, "pixel (%u, %u) is %u %u %u %u (%u words wrong)", x, y,
                  p[0], p[1], p[2], p[3], p[0]);
      }
   }
   CHECK(map && !bad, "%u pixels differ", bad);
   if (map)
      pipe_texture_unmap(ctx, xfer);

   pan_test_delete_shaders(ctx, vs, fs);
   pan_test_fullscreen_teardown(ctx, &f);
   return pan_test_close(screen, ctx);
}
