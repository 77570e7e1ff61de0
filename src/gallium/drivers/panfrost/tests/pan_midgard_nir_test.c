/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The driver's NIR preparation for Midgard (pan_midgard.c): a fragment
 * shader written lane by lane in scalar ops, as the state tracker hands
 * some over, compiles to as many instructions as the same shader written
 * with vector ops, and dot() of two-component vectors to as many as a
 * two-lane multiply and an add.  The counts come from the compiler's
 * shader-db line, sent through the debug callback.  No GPU.
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
   glsl_type_singleton_decref();
   printf("pan_midgard_nir: %u checks, %u failed\n", pan_test_checks,
          pan_test_failures);
   return pan_test_failures ? 1 : 0;
}
