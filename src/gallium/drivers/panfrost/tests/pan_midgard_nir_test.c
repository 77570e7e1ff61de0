/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The driver's NIR preparation for Midgard (pan_midgard.c): a fragment
 * shader written lane by lane in scalar ops, as the state tracker hands
 * some over, compiles to as many instructions as the same shader written
 * with vector ops, and dot() of two-component vectors to as many as a
 * two-lane multiply and an add; textureGrad, its gradients lowered before
 * vectorizing, to fewer than through the compiler alone.  The counts come
 * from the compiler's shader-db line, sent through the debug callback.
 * No GPU.
 */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "compiler/glsl_types.h"
#include "compiler/nir/nir.h"
#include "compiler/nir/nir_builder.h"
#include "util/ralloc.h"
#include "util/u_debug.h"

#include "mid_compile.h"
#include "pan_midgard.h"
#include "pan_test_check.h"

unsigned pan_test_failures, pan_test_checks;

static void
keep_line(void *data, unsigned *id, enum util_debug_type type, const char *fmt,
          va_list args)
{
   vsnprintf(data, 256, fmt, args);
}

enum shape { SCALAR_LANES, VECTOR, DOT2_OP, DOT2_BY_HAND };

/* out = a * b (four lanes), or out.x = dot(a.xy, b.xy), built as shape
 * says; a and b are varyings. */
static nir_shader *
build(enum shape shape)
{
   nir_builder b = nir_builder_init_simple_shader(
      MESA_SHADER_FRAGMENT, &mid_nir_options, "midgard_nir");
   nir_variable *in[2];
   for (unsigned i = 0; i < 2; i++) {
      in[i] = nir_variable_create(b.shader, nir_var_shader_in, glsl_vec4_type(),
                                  i ? "b" : "a");
      in[i]->data.location = VARYING_SLOT_VAR0 + i;
      in[i]->data.driver_location = i;
   }
   nir_variable *out = nir_variable_create(b.shader, nir_var_shader_out,
                                           glsl_vec4_type(), "colour");
   out->data.location = FRAG_RESULT_DATA0;
   nir_ssa_def *a = nir_load_var(&b, in[0]), *c = nir_load_var(&b, in[1]);
   nir_ssa_def *v = NULL;
   switch (shape) {
   case SCALAR_LANES: {
      nir_ssa_def *l[4];
      for (unsigned i = 0; i < 4; i++)
         l[i] = nir_fmul(&b, nir_channel(&b, a, i), nir_channel(&b, c, i));
      v = nir_vec(&b, l, 4);
      break;
   }
   case VECTOR:
      v = nir_fmul(&b, a, c);
      break;
   case DOT2_OP:
      v = nir_fdot2(&b, nir_channels(&b, a, 0x3), nir_channels(&b, c, 0x3));
      break;
   case DOT2_BY_HAND: {
      nir_ssa_def *m =
         nir_fmul(&b, nir_channels(&b, a, 0x3), nir_channels(&b, c, 0x3));
      v = nir_fadd(&b, nir_channel(&b, m, 0), nir_channel(&b, m, 1));
      break;
   }
   }
   if (v->num_components == 1)
      v = nir_vec4(&b, v, v, v, v);
   nir_store_var(&b, out, v, 0xf);
   return b.shader;
}

static int
vec4_slots(const struct glsl_type *type, bool bindless)
{
   return glsl_count_attribute_slots(type, false);
}

/* colour = textureGrad(tex, a.xy, a.zw, b.xy) of varyings a and b: its
 * LOD is the longer of the two scaled gradients' lengths, two-lane dot
 * products. */
static nir_shader *
build_txd(void)
{
   nir_builder b = nir_builder_init_simple_shader(
      MESA_SHADER_FRAGMENT, &mid_nir_options, "midgard_txd");
   nir_ssa_def *in[2];
   for (unsigned i = 0; i < 2; i++) {
      nir_variable *var = nir_variable_create(
         b.shader, nir_var_shader_in, glsl_vec4_type(), i ? "b" : "a");
      var->data.location = VARYING_SLOT_VAR0 + i;
      var->data.driver_location = i;
      in[i] = nir_load_var(&b, var);
   }
   nir_variable *out = nir_variable_create(b.shader, nir_var_shader_out,
                                           glsl_vec4_type(), "colour");
   out->data.location = FRAG_RESULT_DATA0;
   nir_tex_instr *t = nir_tex_instr_create(b.shader, 3);
   t->op = nir_texop_txd;
   t->sampler_dim = GLSL_SAMPLER_DIM_2D;
   t->dest_type = nir_type_float32;
   t->coord_components = 2;
   const nir_tex_src_type types[] = { nir_tex_src_coord, nir_tex_src_ddx,
                                      nir_tex_src_ddy };
   nir_ssa_def *srcs[] = { nir_channels(&b, in[0], 0x3),
                           nir_channels(&b, in[0], 0xc),
                           nir_channels(&b, in[1], 0x3) };
   for (unsigned i = 0; i < 3; i++) {
      t->src[i].src_type = types[i];
      t->src[i].src = nir_src_for_ssa(srcs[i]);
   }
   nir_ssa_dest_init(&t->instr, &t->dest, 4, 32, NULL);
   nir_builder_instr_insert(&b, &t->instr);
   nir_store_var(&b, out, &t->dest.ssa, 0xf);
   return b.shader;
}

/* Instructions of the shader on the T860, from its shader-db line. */
static unsigned
instructions(enum shape shape)
{
   char line[256] = "";
   char err[256] = "";
   struct util_debug_callback debug = { .debug_message = keep_line,
                                        .data = line };
   nir_shader *nir = build(shape);
   bool ok = panfrost_midgard_compile(0x860, nir, &debug, err, sizeof(err));
   ralloc_free(nir);
   unsigned n = 0;
   const char *p = strstr(line, "shader: ");
   CHECK(ok && p && sscanf(p, "shader: %u inst", &n) == 1,
         "shape %d: compiled %d (%s), line '%s'", shape, ok, err, line);
   return n;
}

int
main(void)
{
   glsl_type_singleton_init_or_ref();
   unsigned lanes = instructions(SCALAR_LANES), vec = instructions(VECTOR);
   CHECK(lanes == vec,
         "four scalar multiplies: %u instructions, one vec4 "
         "multiply: %u",
         lanes, vec);
   unsigned dot = instructions(DOT2_OP), hand = instructions(DOT2_BY_HAND);
   CHECK(dot == hand, "fdot2: %u instructions, multiply and add: %u", dot,
         hand);
   /* textureGrad through the driver against the compiler alone (its I/O
    * lowered here as the driver does): the driver lowers the gradients
    * before vectorizing, so the squares of each gradient's two lanes are
    * one multiply instead of two. */
   char line[256] = "", err[256] = "";
   struct util_debug_callback debug = { .debug_message = keep_line,
                                        .data = line };
   nir_shader *nir = build_txd();
   bool ok = panfrost_midgard_compile(0x860, nir, &debug, err, sizeof(err));
   ralloc_free(nir);
   unsigned driver = 0;
   const char *p = strstr(line, "shader: ");
   CHECK(ok && p && sscanf(p, "shader: %u inst", &driver) == 1,
         "textureGrad through the driver: %d (%s)", ok, err);
   nir = build_txd();
   NIR_PASS_V(nir, nir_lower_io, nir_var_shader_in | nir_var_shader_out,
              vec4_slots, (nir_lower_io_options)0);
   void *mem = ralloc_context(NULL);
   struct mid_binary bin;
   ok = mid_compile(nir, 0x860, mem, &bin, NULL, err, sizeof(err));
   CHECK(ok, "textureGrad alone: %s", err);
   CHECK(ok && driver < bin.nr_instrs,
         "textureGrad: %u instructions through the driver, %u alone", driver,
         ok ? bin.nr_instrs : 0);
   ralloc_free(mem);
   ralloc_free(nir);
   glsl_type_singleton_decref();
   printf("pan_midgard_nir: %u checks, %u failed\n", pan_test_checks,
          pan_test_failures);
   return pan_test_failures ? 1 : 0;
}
