/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The geometry shader rewrite (pan_nir_lower_gs.c) on NIR alone: what it
 * learns of a shader, that no geometry intrinsic survives in the compute
 * shader it makes, what it refuses with a message, and the pass-through
 * vertex shader of the final draw.  No GPU: the draws themselves are
 * gallium-gs-*'s.
 */

#include <stdio.h>
#include <string.h>

#include "compiler/glsl_types.h"
#include "compiler/nir/nir.h"
#include "compiler/nir/nir_builder.h"
#include "util/ralloc.h"

#include "pan_gs.h"
#include "pan_test_check.h"

unsigned pan_test_failures, pan_test_checks;

static const nir_shader_compiler_options options = { 0 };

/* A geometry shader taking in_prim, with gl_Position and VAR0 out (an
 * ivec4 when int_var0), emitting `emits` vertices from gl_in[0].
 */
static nir_builder
gs(enum shader_prim in_prim, unsigned vertices_in, enum shader_prim out_prim,
   unsigned max_vertices, unsigned emits, bool int_var0)
{
   nir_builder b =
      nir_builder_init_simple_shader(MESA_SHADER_GEOMETRY, &options, "gs");
   nir_shader *s = b.shader;
   s->info.gs.input_primitive = in_prim;
   s->info.gs.vertices_in = vertices_in;
   s->info.gs.output_primitive = out_prim;
   s->info.gs.vertices_out = max_vertices;
   s->info.gs.invocations = 1;
   nir_variable *in = nir_variable_create(
      s, nir_var_shader_in, glsl_array_type(glsl_vec4_type(), vertices_in, 0),
      "gl_in");
   in->data.location = VARYING_SLOT_POS;
   nir_variable *pos = nir_variable_create(s, nir_var_shader_out,
                                           glsl_vec4_type(), "gl_Position");
   pos->data.location = VARYING_SLOT_POS;
   nir_variable *v0 = nir_variable_create(
      s, nir_var_shader_out, int_var0 ? glsl_ivec4_type() : glsl_vec4_type(),
      "v0");
   v0->data.location = VARYING_SLOT_VAR0;
   v0->data.driver_location = 1;
   for (unsigned i = 0; i < emits; ++i) {
      nir_store_var(&b, pos, nir_load_array_var_imm(&b, in, 0), 0xf);
      nir_store_var(&b, v0, nir_imm_ivec4(&b, i, 0, 0, 1), 0xf);
      nir_emit_vertex(&b, .stream_id = 0);
   }
   nir_end_primitive(&b, .stream_id = 0);
   return b;
}

/* Intrinsics of the kind in the shader. */
static unsigned
count(nir_shader *s, nir_intrinsic_op op)
{
   unsigned n = 0;
   nir_foreach_function (f, s) {
      if (!f->impl)
         continue;
      nir_foreach_block (block, f->impl) {
         nir_foreach_instr (instr, block) {
            n += instr->type == nir_instr_type_intrinsic &&
                 nir_instr_as_intrinsic(instr)->intrinsic == op;
         }
      }
   }
   return n;
}

static void
test_triangles(void)
{
   nir_builder b =
      gs(SHADER_PRIM_TRIANGLES, 3, SHADER_PRIM_TRIANGLE_STRIP, 6, 4, true);
   struct panfrost_gs_info info;
   char err[200] = "";
   bool ok = panfrost_nir_lower_gs(b.shader, &info, err, sizeof(err));

   CHECK(ok, "lowered: %s", err);
   CHECK(b.shader->info.stage == MESA_SHADER_COMPUTE, "a compute shader");
   CHECK(
      info.vertices_in == 3 && info.max_vertices == 6 && info.invocations == 1,
      "counts %u %u %u", info.vertices_in, info.max_vertices, info.invocations);
   CHECK(info.out_mode == PIPE_PRIM_TRIANGLES, "triangle list out");
   CHECK(info.in_mask == BITFIELD64_BIT(VARYING_SLOT_POS), "reads POS");
   CHECK(info.out_mask == (BITFIELD64_BIT(VARYING_SLOT_POS) |
                           BITFIELD64_BIT(VARYING_SLOT_VAR0)),
         "writes POS and VAR0");
   CHECK(info.out_int_mask == BITFIELD64_BIT(VARYING_SLOT_VAR0),
         "VAR0 is an integer output");
   static const nir_intrinsic_op gone[] = {
      nir_intrinsic_emit_vertex,
      nir_intrinsic_emit_vertex_with_counter,
      nir_intrinsic_end_primitive,
      nir_intrinsic_end_primitive_with_counter,
      nir_intrinsic_set_vertex_and_primitive_count,
      nir_intrinsic_store_output,
      nir_intrinsic_load_per_vertex_input,
   };
   for (unsigned i = 0; i < ARRAY_SIZE(gone); ++i) {
      CHECK(!count(b.shader, gone[i]), "no %s left",
            nir_intrinsic_infos[gone[i]].name);
   }
   /* Four records of two vec4s and an index triple each (the stores may
    * sit in branches), and the parameter block read. */
   CHECK(count(b.shader, nir_intrinsic_store_global) >= 4 * 3,
         "%u global stores", count(b.shader, nir_intrinsic_store_global));
   CHECK(count(b.shader, nir_intrinsic_load_kernel_input) == 1,
         "one kernel input load");
   ralloc_free(b.shader);
}

static void
test_refusals(void)
{
   struct panfrost_gs_info info;
   char err[200] = "";

   /* An output primitive a geometry shader cannot have. */
   nir_builder b = gs(SHADER_PRIM_POINTS, 1, SHADER_PRIM_QUADS, 4, 1, false);
   CHECK(!panfrost_nir_lower_gs(b.shader, &info, err, sizeof(err)) &&
            strstr(err, "output primitive"),
         "quads out refused: '%s'", err);
   ralloc_free(b.shader);

   /* Storage buffers are not reached from the geometry stage. */
   b = gs(SHADER_PRIM_POINTS, 1, SHADER_PRIM_POINTS, 1, 1, false);
   nir_ssa_def *v = nir_load_ssbo(&b, 1, 32, nir_imm_int(&b, 0),
                                  nir_imm_int(&b, 0), .align_mul = 4);
   nir_variable *o = nir_find_variable_with_location(
      b.shader, nir_var_shader_out, VARYING_SLOT_VAR0);
   nir_store_var(&b, o, nir_vec4(&b, v, v, v, v), 0xf);
   err[0] = 0;
   CHECK(!panfrost_nir_lower_gs(b.shader, &info, err, sizeof(err)) &&
            strstr(err, "storage buffers"),
         "storage buffer refused: '%s'", err);
   ralloc_free(b.shader);
}

static void
test_passthrough(void)
{
   struct panfrost_gs_info info = {
      .out_mask = BITFIELD64_BIT(VARYING_SLOT_POS) |
                  BITFIELD64_BIT(VARYING_SLOT_PSIZ) |
                  BITFIELD64_BIT(VARYING_SLOT_PRIMITIVE_ID) |
                  BITFIELD64_BIT(VARYING_SLOT_VAR3),
      .out_int_mask = BITFIELD64_BIT(VARYING_SLOT_PRIMITIVE_ID),
      .out_noperspective_mask = BITFIELD64_BIT(VARYING_SLOT_VAR3),
   };
   nir_shader *vs = panfrost_gs_passthrough_vs(&options, &info);
   /* noperspective stays so: the vertex shader scales it by w. */
   nir_variable *v3 =
      nir_find_variable_with_location(vs, nir_var_shader_out, VARYING_SLOT_VAR3);
   CHECK(v3 && v3->data.interpolation == INTERP_MODE_NOPERSPECTIVE,
         "VAR3 noperspective");
   /* Global loads of the records, no attributes (no 16-attribute
    * limit on the geometry outputs). */
   unsigned ins = 0, loads = 0;
   nir_foreach_shader_in_variable(var, vs) ins++;
   nir_foreach_block(blk, nir_shader_get_entrypoint(vs)) {
      nir_foreach_instr(instr, blk) {
         if (instr->type == nir_instr_type_intrinsic &&
             nir_instr_as_intrinsic(instr)->intrinsic ==
                nir_intrinsic_load_global)
            loads++;
      }
   }
   CHECK(ins == 0 && loads == 4, "a global load per record vec4 (%u, %u)",
         ins, loads);
   CHECK(vs->info.outputs_written ==
            (BITFIELD64_BIT(VARYING_SLOT_POS) |
             BITFIELD64_BIT(VARYING_SLOT_PSIZ) |
             BITFIELD64_BIT(PANFROST_PRIMITIVE_ID_SLOT) |
             BITFIELD64_BIT(VARYING_SLOT_VAR3)),
         "outputs 0x%" PRIx64, vs->info.outputs_written);
   nir_variable *psiz = nir_find_variable_with_location(vs, nir_var_shader_out,
                                                        VARYING_SLOT_PSIZ);
   CHECK(psiz && glsl_type_is_scalar(psiz->type), "gl_PointSize a float");
   nir_variable *pid = nir_find_variable_with_location(
      vs, nir_var_shader_out, PANFROST_PRIMITIVE_ID_SLOT);
   CHECK(pid && glsl_base_type_is_integer(glsl_get_base_type(pid->type)),
         "gl_PrimitiveID an integer in its slot");
   ralloc_free(vs);
}

int
main(void)
{
   glsl_type_singleton_init_or_ref();
   test_triangles();
   test_refusals();
   test_passthrough();
   glsl_type_singleton_decref();
   printf("%u checks, %u failed\n", pan_test_checks, pan_test_failures);
   return pan_test_failures ? 1 : 0;
}
