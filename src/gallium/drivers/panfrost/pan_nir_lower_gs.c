/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The compute variant of a geometry shader (pan_gs.h).  Invocation g
 * (clamped to the count: extra invocations redo the last one, writing the
 * same values) is geometry instance g % invocations of input primitive
 * g / invocations, counted over every instance of the draw.  Its inputs
 * are vec4s of the input records; its outputs live in local vec4s until
 * EmitVertex copies them to output record g * max_vertices + count
 * (count: NIR's vertex counter, nir_lower_gs_intrinsics) and writes the
 * indices of the primitive that vertex ends: itself for points, the
 * previous one and itself for lines, the last three of the strip (in the
 * draw's provoking order, odd triangles swapped to keep their winding)
 * for triangles, or restart indices when the strip is not long enough.
 * At the end, the records not emitted get restart indices too, so the
 * list's unused entries draw nothing.
 */

#include <stdio.h>

#include "compiler/nir/nir.h"
#include "compiler/nir/nir_builder.h"
#include "util/bitscan.h"
#include "util/ralloc.h"

#include "pan_compile.h"
#include "pan_gs.h"

#define PARAM(field) offsetof(struct panfrost_gs_params, field)
#define RESTART 0xffffffffu

struct lower_gs {
   struct panfrost_gs_info *info;
   nir_ssa_def *params, *g, *prim, *inv;
   nir_variable *outs[64]; /* per output location */
   char *err;
   size_t err_size;
   bool failed;
};

static bool
fail(struct lower_gs *s, const char *msg)
{
   if (!s->failed)
      snprintf(s->err, s->err_size, "geometry shader: %s", msg);
   s->failed = true;
   return false;
}

static nir_ssa_def *
param32(nir_builder *b, struct lower_gs *s, unsigned offset_B)
{
   return nir_load_global(b, nir_iadd_imm(b, s->params, offset_B), 4, 1, 32);
}

static nir_ssa_def *
param64(nir_builder *b, struct lower_gs *s, unsigned offset_B)
{
   nir_ssa_def *v =
      nir_load_global(b, nir_iadd_imm(b, s->params, offset_B), 4, 2, 32);
   return nir_pack_64_2x32_split(b, nir_channel(b, v, 0), nir_channel(b, v, 1));
}

static nir_ssa_def *
offset_addr(nir_builder *b, nir_ssa_def *base, nir_ssa_def *offset_B)
{
   return nir_iadd(b, base, nir_u2u64(b, offset_B));
}

unsigned
panfrost_gs_vertices_per_prim(enum pipe_prim_type mode)
{
   return mode == PIPE_PRIM_POINTS ? 1 : mode == PIPE_PRIM_LINES ? 2 : 3;
}

static unsigned
slot_of(uint64_t mask, unsigned loc)
{
   return util_bitcount64(mask & BITFIELD64_MASK(loc));
}

static void
load_invocation(nir_builder *b, struct lower_gs *s)
{
   nir_ssa_def *in = nir_load_kernel_input(b, 2, 32, nir_imm_int(b, 0));
   s->params =
      nir_pack_64_2x32_split(b, nir_channel(b, in, 0), nir_channel(b, in, 1));
   nir_ssa_def *count = param32(b, s, PARAM(count));
   nir_ssa_def *gid = nir_channel(b, nir_load_global_invocation_id(b, 32), 0);
   s->g = nir_umin(b, gid, nir_iadd_imm(b, count, -1));
   unsigned n = s->info->invocations;
   s->inv = nir_umod(b, s->g, nir_imm_int(b, n));
   nir_ssa_def *global = nir_udiv(b, s->g, nir_imm_int(b, n));
   s->prim = nir_umod(b, global, param32(b, s, PARAM(prims)));
}

static nir_ssa_def *
lower_input(nir_builder *b, struct lower_gs *s, nir_intrinsic_instr *intr)
{
   unsigned loc =
      nir_intrinsic_io_semantics(intr).location + nir_src_as_uint(intr->src[1]);
   uint64_t mask = s->info->in_mask;
   if (intr->dest.ssa.bit_size != 32 || loc >= 64 ||
       !(mask & BITFIELD64_BIT(loc))) {
      fail(s, "input out of range or not 32-bit");
      return NULL;
   }
   unsigned stride = util_bitcount64(mask) * 16;
   nir_ssa_def *global =
      nir_udiv(b, s->g, nir_imm_int(b, s->info->invocations));
   nir_ssa_def *vertex = nir_iadd(
      b, nir_imul_imm(b, global, s->info->vertices_in), intr->src[0].ssa);
   nir_ssa_def *at =
      nir_iadd_imm(b, nir_imul_imm(b, vertex, stride),
                   slot_of(mask, loc) * 16 + nir_intrinsic_component(intr) * 4);
   return nir_load_global(b, offset_addr(b, param64(b, s, PARAM(in)), at), 4,
                          intr->dest.ssa.num_components, 32);
}

/* Keeps the written components in the location's local vec4. */
static void
lower_output(nir_builder *b, struct lower_gs *s, nir_intrinsic_instr *intr)
{
   unsigned loc =
      nir_intrinsic_io_semantics(intr).location + nir_src_as_uint(intr->src[1]);
   nir_ssa_def *value = intr->src[0].ssa;
   if (value->bit_size != 32) {
      fail(s, "outputs must be 32-bit");
      return;
   }
   if (loc >= 64 || !s->outs[loc])
      return;
   unsigned first = nir_intrinsic_component(intr);
   nir_ssa_def *c[4];
   nir_ssa_def *undef = nir_ssa_undef(b, 1, 32);
   for (unsigned i = 0; i < 4; ++i) {
      c[i] = i >= first && i - first < value->num_components
                ? nir_channel(b, value, i - first)
                : undef;
   }
   nir_store_var(b, s->outs[loc], nir_vec(b, c, 4),
                 (nir_intrinsic_write_mask(intr) << first) & 0xf);
}

static nir_ssa_def *
index_addr(nir_builder *b, struct lower_gs *s, nir_ssa_def *j)
{
   unsigned per = panfrost_gs_vertices_per_prim(s->info->out_mode);
   return offset_addr(b, param64(b, s, PARAM(indices)),
                      nir_imul_imm(b, j, per * 4));
}

/* Output record j of the draw: what vertex `count` of this invocation. */
static nir_ssa_def *
record_index(nir_builder *b, struct lower_gs *s, nir_ssa_def *count)
{
   return nir_iadd(b, nir_imul_imm(b, s->g, s->info->max_vertices), count);
}

static void
lower_emit(nir_builder *b, struct lower_gs *s, nir_intrinsic_instr *intr)
{
   nir_ssa_def *j = record_index(b, s, intr->src[0].ssa);
   nir_ssa_def *n = intr->src[1].ssa; /* vertices before it in the strip */
   unsigned stride = util_bitcount64(s->info->out_mask) * 16;
   nir_ssa_def *rec =
      offset_addr(b, param64(b, s, PARAM(out)), nir_imul_imm(b, j, stride));

   u_foreach_bit64 (loc, s->info->out_mask) {
      nir_store_global(
         b, nir_iadd_imm(b, rec, slot_of(s->info->out_mask, loc) * 16), 16,
         nir_load_var(b, s->outs[loc]), 0xf);
   }

   nir_ssa_def *r = nir_imm_int(b, RESTART);
   nir_ssa_def *idx[3];
   unsigned per = panfrost_gs_vertices_per_prim(s->info->out_mode);
   if (per == 1) {
      idx[0] = j;
   } else if (per == 2) {
      nir_ssa_def *ok = nir_uge(b, n, nir_imm_int(b, 1));
      idx[0] = nir_bcsel(b, ok, nir_iadd_imm(b, j, -1), r);
      idx[1] = nir_bcsel(b, ok, j, r);
   } else {
      nir_ssa_def *ok = nir_uge(b, n, nir_imm_int(b, 2));
      nir_ssa_def *odd = nir_iand_imm(b, n, 1); /* (n - 2) & 1 */
      nir_ssa_def *first =
         nir_ine_imm(b, param32(b, s, PARAM(flatshade_first)), 0);
      nir_ssa_def *j2 = nir_iadd_imm(b, j, -2), *j1 = nir_iadd_imm(b, j, -1);
      /* last provoking: (j2 + odd, j1 - odd, j); first: (j2, j1 + odd,
       * j - odd) */
      nir_ssa_def *v[3] = {
         nir_bcsel(b, first, j2, nir_iadd(b, j2, odd)),
         nir_bcsel(b, first, nir_iadd(b, j1, odd), nir_isub(b, j1, odd)),
         nir_bcsel(b, first, nir_isub(b, j, odd), j),
      };
      for (unsigned i = 0; i < 3; ++i)
         idx[i] = nir_bcsel(b, ok, v[i], r);
   }
   /* A layered pass draws the primitives of its layer only. */
   if (s->outs[VARYING_SLOT_LAYER]) {
      nir_ssa_def *layers = param32(b, s, PARAM(layers));
      nir_ssa_def *layer = nir_umin(
         b, nir_channel(b, nir_load_var(b, s->outs[VARYING_SLOT_LAYER]), 0),
         nir_iadd_imm(b, layers, -1));
      nir_ssa_def *keep =
         nir_ior(b, nir_ieq_imm(b, layers, 0),
                 nir_ieq(b, layer, param32(b, s, PARAM(layer))));
      for (unsigned i = 0; i < per; ++i)
         idx[i] = nir_bcsel(b, keep, idx[i], r);
   }
   nir_store_global(b, index_addr(b, s, j), 4, nir_vec(b, idx, per),
                    BITFIELD_MASK(per));
}

/* Restart indices for the records [count, max_vertices) of this
 * invocation.
 */
static void
lower_end(nir_builder *b, struct lower_gs *s, nir_intrinsic_instr *intr)
{
   unsigned per = panfrost_gs_vertices_per_prim(s->info->out_mode);
   nir_variable *k = nir_local_variable_create(b->impl, glsl_uint_type(), "k");
   nir_store_var(b, k, intr->src[0].ssa, 1);
   nir_push_loop(b);
   {
      nir_ssa_def *kv = nir_load_var(b, k);
      nir_push_if(b, nir_uge(b, kv, nir_imm_int(b, s->info->max_vertices)));
      nir_jump(b, nir_jump_break);
      nir_pop_if(b, NULL);
      nir_ssa_def *r[3] = { nir_imm_int(b, RESTART), nir_imm_int(b, RESTART),
                            nir_imm_int(b, RESTART) };
      nir_store_global(b, index_addr(b, s, record_index(b, s, kv)), 4,
                       nir_vec(b, r, per), BITFIELD_MASK(per));
      nir_store_var(b, k, nir_iadd_imm(b, kv, 1), 1);
   }
   nir_pop_loop(b, NULL);
}

static nir_ssa_def *
lower_ubo(nir_builder *b, struct lower_gs *s, nir_intrinsic_instr *intr)
{
   nir_ssa_def *idx =
      nir_umin(b, intr->src[0].ssa, nir_imm_int(b, PANFROST_GS_MAX_UBOS - 1));
   nir_ssa_def *entry = offset_addr(b, nir_iadd_imm(b, s->params, PARAM(ubos)),
                                    nir_imul_imm(b, idx, 8));
   nir_ssa_def *w = nir_load_global(b, entry, 4, 2, 32);
   nir_ssa_def *base =
      nir_pack_64_2x32_split(b, nir_channel(b, w, 0), nir_channel(b, w, 1));
   return nir_load_global(b, offset_addr(b, base, intr->src[1].ssa), 4,
                          intr->dest.ssa.num_components,
                          intr->dest.ssa.bit_size);
}

static bool
lower_instr(nir_builder *b, nir_instr *instr, void *data)
{
   struct lower_gs *s = data;

   /* Textures stay: the compute variant samples the geometry stage's
    * views and samplers (pan_compute.c, tex_stage). */
   if (s->failed || instr->type != nir_instr_type_intrinsic)
      return false;

   nir_intrinsic_instr *intr = nir_instr_as_intrinsic(instr);
   nir_ssa_def *repl = NULL;
   b->cursor = nir_before_instr(instr);

   switch (intr->intrinsic) {
   case nir_intrinsic_load_per_vertex_input:
      if (!nir_src_is_const(intr->src[1]))
         return fail(s, "indirect input");
      repl = lower_input(b, s, intr);
      break;
   case nir_intrinsic_store_output:
      if (!nir_src_is_const(intr->src[1]))
         return fail(s, "indirect output");
      lower_output(b, s, intr);
      nir_instr_remove(instr);
      return true;
   case nir_intrinsic_emit_vertex_with_counter:
      /* Only stream 0 is rasterized. */
      if (nir_intrinsic_stream_id(intr) == 0)
         lower_emit(b, s, intr);
      nir_instr_remove(instr);
      return true;
   case nir_intrinsic_end_primitive_with_counter:
      nir_instr_remove(instr);
      return true;
   case nir_intrinsic_set_vertex_and_primitive_count:
      if (nir_intrinsic_stream_id(intr) == 0)
         lower_end(b, s, intr);
      nir_instr_remove(instr);
      return true;
   case nir_intrinsic_load_ubo:
      repl = lower_ubo(b, s, intr);
      break;
   case nir_intrinsic_load_primitive_id:
      repl = s->prim;
      break;
   case nir_intrinsic_load_invocation_id:
      repl = s->inv;
      break;
   case nir_intrinsic_load_ssbo:
   case nir_intrinsic_store_ssbo:
   case nir_intrinsic_image_deref_load:
   case nir_intrinsic_image_deref_store:
      return fail(s, "storage buffers and images are not supported");
   default:
      return false;
   }
   if (!repl)
      return false;
   nir_ssa_def_rewrite_uses(&intr->dest.ssa, repl);
   nir_instr_remove(instr);
   return true;
}

static bool
output_mode(unsigned prim, enum pipe_prim_type *mode)
{
   switch (prim) {
   case SHADER_PRIM_POINTS:
      *mode = PIPE_PRIM_POINTS;
      return true;
   case SHADER_PRIM_LINE_STRIP:
      *mode = PIPE_PRIM_LINES;
      return true;
   case SHADER_PRIM_TRIANGLE_STRIP:
      *mode = PIPE_PRIM_TRIANGLES;
      return true;
   default:
      return false;
   }
}

/* The output locations of integer type (they travel as integers to the
 * final draw's shader), or declared noperspective. */
static uint64_t
outputs_of_kind(nir_shader *nir, bool noperspective)
{
   uint64_t mask = 0;
   nir_foreach_shader_out_variable(var, nir)
   {
      const struct glsl_type *t = glsl_without_array(var->type);
      bool match =
         noperspective
            ? var->data.interpolation == INTERP_MODE_NOPERSPECTIVE
            : glsl_base_type_is_integer(glsl_get_base_type(t));
      if (match && var->data.location >= 0 && var->data.location < 64) {
         unsigned n = glsl_count_attribute_slots(var->type, false);
         mask |= BITFIELD64_RANGE(var->data.location,
                                  MIN2(n, 64 - var->data.location));
      }
   }
   return mask;
}

bool
panfrost_nir_lower_gs(nir_shader *nir, struct panfrost_gs_info *info, char *err,
                      size_t err_size)
{
   struct lower_gs s = { .info = info, .err = err, .err_size = err_size };

   memset(info, 0, sizeof(*info));
   info->vertices_in = nir->info.gs.vertices_in;
   info->max_vertices = nir->info.gs.vertices_out;
   info->invocations = MAX2(nir->info.gs.invocations, 1);
   if (info->vertices_in < 1 || info->vertices_in > 6 || info->vertices_in == 5)
      return fail(&s, "unknown input primitive");
   if (!output_mode(nir->info.gs.output_primitive, &info->out_mode))
      return fail(&s, "unknown output primitive");
   info->out_int_mask = outputs_of_kind(nir, false);
   info->out_noperspective_mask = outputs_of_kind(nir, true);
   info->clip_distances = nir->info.clip_distance_array_size;

   NIR_PASS_V(nir, nir_lower_gs_intrinsics,
              nir_lower_gs_intrinsics_count_vertices_per_primitive);
   NIR_PASS_V(nir, nir_lower_indirect_derefs,
              nir_var_function_temp | nir_var_shader_in | nir_var_shader_out,
              UINT32_MAX);
   NIR_PASS_V(nir, nir_lower_io, nir_var_shader_in | nir_var_shader_out,
              pan_vec4_slots, (nir_lower_io_options)0);
   NIR_PASS_V(nir, nir_lower_system_values);
   NIR_PASS_V(nir, nir_opt_dce);
   NIR_PASS_V(nir, nir_remove_dead_derefs);

   nir_function_impl *impl = nir_shader_get_entrypoint(nir);
   nir_shader_gather_info(nir, impl);
   info->in_mask = nir->info.inputs_read;
   info->out_mask = nir->info.outputs_written;
   info->out_int_mask &= info->out_mask;
   info->out_noperspective_mask &= info->out_mask;
   if (!info->in_mask)
      info->in_mask = BITFIELD64_BIT(VARYING_SLOT_POS); /* a record each */

   /* From here on it is a compute shader (gs and cs info share a union). */
   nir->info.stage = MESA_SHADER_COMPUTE;
   memset(&nir->info.cs, 0, sizeof(nir->info.cs));
   nir->info.workgroup_size[0] = 32;
   nir->info.workgroup_size[1] = 1;
   nir->info.workgroup_size[2] = 1;
   nir->info.workgroup_size_variable = false;
   nir->info.shared_size = 0;
   nir->num_inputs = nir->num_outputs = 0;
   ralloc_free(nir->xfb_info);
   nir->xfb_info = NULL;
   nir_foreach_variable_with_modes_safe(var, nir,
                                        nir_var_shader_in | nir_var_shader_out)
      exec_node_remove(&var->node);

   u_foreach_bit64 (loc, info->out_mask)
      s.outs[loc] = nir_local_variable_create(impl, glsl_uvec4_type(), "out");

   nir_builder b;
   nir_builder_init(&b, impl);
   b.cursor = nir_before_cf_list(&impl->body);
   load_invocation(&b, &s);
   /* A vertex emitted before gl_Layer is written goes to layer 0. */
   if (s.outs[VARYING_SLOT_LAYER])
      nir_store_var(&b, s.outs[VARYING_SLOT_LAYER], nir_imm_ivec4(&b, 0, 0, 0, 0),
                    0xf);

   nir_shader_instructions_pass(nir, lower_instr, nir_metadata_none, &s);
   if (s.failed)
      return false;
   NIR_PASS_V(nir, nir_lower_vars_to_ssa);
   NIR_PASS_V(nir, nir_opt_dce);
   nir_shader_gather_info(nir, impl);
   return true;
}

nir_shader *
panfrost_gs_passthrough_vs(const void *options,
                           const struct panfrost_gs_info *info)
{
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_VERTEX, options,
                                                  "geometry output");
   unsigned stride_B = util_bitcount64(info->out_mask) * 16;

   /* Global loads, which no attribute count limits: the records' address
    * is the first two words of constant buffer 0 (pan_gs.c), the index
    * names the record. */
   nir_ssa_def *w = nir_load_ubo(&b, 2, 32, nir_imm_int(&b, 0),
                                 nir_imm_int(&b, 0), .align_mul = 8,
                                 .range = 8);
   nir_ssa_def *rec = offset_addr(
      &b, nir_pack_64_2x32_split(&b, nir_channel(&b, w, 0), nir_channel(&b, w, 1)),
      nir_imul_imm(&b, nir_load_vertex_id(&b), stride_B));
   unsigned i = 0;

   u_foreach_bit64 (loc, info->out_mask) {
      bool is_int = info->out_int_mask & BITFIELD64_BIT(loc);
      unsigned at_B = 16 * i++;
      /* The layer picked the primitives of the draw (pan_gs.c refuses
       * the viewport); gl_ClipVertex means nothing after the geometry
       * stage; edge flags were read from the records
       * (pan_polygon_mode.c). */
      if (loc == VARYING_SLOT_CLIP_VERTEX || loc == VARYING_SLOT_LAYER ||
          loc == VARYING_SLOT_VIEWPORT || loc == VARYING_SLOT_EDGE)
         continue;
      unsigned comps = loc == VARYING_SLOT_PSIZ ? 1 : 4;
      const struct glsl_type *t = is_int ? glsl_uvec4_type() : glsl_vec4_type();
      const struct glsl_type *ot = comps == 1 ? glsl_float_type() : t;
      nir_variable *out =
         nir_variable_create(b.shader, nir_var_shader_out, ot, "output");
      out->data.location =
         loc == VARYING_SLOT_PRIMITIVE_ID ? PANFROST_PRIMITIVE_ID_SLOT : loc;
      out->data.driver_location = i - 1;
      /* The vertex shader scales these by w (pan_va_noperspective.c):
       * gl_Position, the first location, is stored before. */
      if (info->out_noperspective_mask & BITFIELD64_BIT(loc))
         out->data.interpolation = INTERP_MODE_NOPERSPECTIVE;
      nir_ssa_def *v =
         nir_load_global(&b, nir_iadd_imm(&b, rec, at_B), 16, comps, 32);
      nir_store_var(&b, out, v, BITFIELD_MASK(comps));
   }
   /* Whole vec4s of clip distances, as our compilers write them. */
   b.shader->info.clip_distance_array_size = MIN2(info->clip_distances, 8);
   b.shader->info.num_ubos = 1;
   b.shader->num_outputs = i;
   nir_shader_gather_info(b.shader, nir_shader_get_entrypoint(b.shader));
   return b.shader;
}
