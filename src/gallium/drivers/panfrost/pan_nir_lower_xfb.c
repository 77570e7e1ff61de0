/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The transform feedback variant of a vertex shader: a compute shader run
 * once per captured vertex.  Invocation k reads its (vertex id, instance
 * id) pair from the list after the parameter block (struct
 * panfrost_xfb_params, whose address is the kernel input), fetches its
 * attributes from the vertex buffers with global loads (32-bit channels),
 * reads its constant buffers from their addresses in the block, and writes
 * the outputs the stream output info selects to the buffers at
 * k * stride.  Every other output is dropped.  The grid may be rounded up:
 * invocations past the count skip the shader (its own atomics and stores
 * must run once per vertex).  Before a geometry shader the same variant
 * writes every output the geometry shader reads instead, one vec4 per
 * location in a record per vertex (pan_gs.h).
 */

#include <stdio.h>

#include "compiler/nir/nir.h"
#include "compiler/nir/nir_builder.h"
#include "util/bitscan.h"
#include "util/ralloc.h"

#include "pan_compile.h"
#include "pan_xfb.h"

#define PARAM(field) offsetof(struct panfrost_xfb_params, field)
#define ATTRIB(i, field)                                                      \
   (PARAM(attribs) + (i) * sizeof(struct panfrost_xfb_attrib) +               \
    offsetof(struct panfrost_xfb_attrib, field))

struct lower_xfb {
   const struct pipe_stream_output_info *so;
   /* Record mode (geometry shaders): the locations written, each a vec4
    * of the vertex's record at targets[0] + k * stride.
    */
   uint64_t record_mask;
   nir_ssa_def *params, *k, *vid, *iid;
   char *err;
   size_t err_size;
   bool failed;
};

static bool
fail(struct lower_xfb *s, const char *msg)
{
   if (!s->failed)
      snprintf(s->err, s->err_size, "%s: %s",
               s->record_mask ? "vertex shader before a geometry shader"
                              : "transform feedback",
               msg);
   s->failed = true;
   return false;
}

static nir_ssa_def *
load32(nir_builder *b, nir_ssa_def *addr, unsigned comps)
{
   return nir_load_global(b, addr, 4, comps, 32);
}

static nir_ssa_def *
param32(nir_builder *b, struct lower_xfb *s, unsigned offset_B)
{
   return load32(b, nir_iadd_imm(b, s->params, offset_B), 1);
}

static nir_ssa_def *
param64(nir_builder *b, struct lower_xfb *s, unsigned offset_B)
{
   nir_ssa_def *v = load32(b, nir_iadd_imm(b, s->params, offset_B), 2);
   return nir_pack_64_2x32_split(b, nir_channel(b, v, 0),
                                 nir_channel(b, v, 1));
}

/* An address plus a 32-bit byte offset. */
static nir_ssa_def *
offset_addr(nir_builder *b, nir_ssa_def *base, nir_ssa_def *offset_B)
{
   return nir_iadd(b, base, nir_u2u64(b, offset_B));
}

static void
load_params(nir_builder *b, struct lower_xfb *s)
{
   nir_ssa_def *in = nir_load_kernel_input(b, 2, 32, nir_imm_int(b, 0));
   s->params = nir_pack_64_2x32_split(b, nir_channel(b, in, 0),
                                      nir_channel(b, in, 1));
}

static nir_ssa_def *
invocation_index(nir_builder *b)
{
   return nir_channel(b, nir_load_global_invocation_id(b, 32), 0);
}

/* The preamble: the block address, the clamped invocation index and its
 * (vertex, instance) pair.
 */
static void
load_invocation(nir_builder *b, struct lower_xfb *s)
{
   load_params(b, s);
   nir_ssa_def *count = param32(b, s, PARAM(count));
   s->k = nir_umin(b, invocation_index(b), nir_iadd_imm(b, count, -1));
   unsigned table = ALIGN_POT(sizeof(struct panfrost_xfb_params), 16);
   nir_ssa_def *pair = load32(
      b, offset_addr(b, nir_iadd_imm(b, s->params, table),
                     nir_imul_imm(b, s->k, 8)), 2);
   s->vid = nir_channel(b, pair, 0);
   s->iid = nir_channel(b, pair, 1);
}

static nir_ssa_def *
lower_input(nir_builder *b, struct lower_xfb *s, nir_intrinsic_instr *intr)
{
   unsigned slot = nir_intrinsic_base(intr) + nir_src_as_uint(intr->src[0]);
   if (slot >= PANFROST_XFB_MAX_ATTRIBS || intr->dest.ssa.bit_size != 32) {
      fail(s, "vertex input out of range or not 32-bit");
      return NULL;
   }

   nir_ssa_def *divisor = param32(b, s, ATTRIB(slot, divisor));
   nir_ssa_def *per_instance =
      nir_iadd(b, param32(b, s, PARAM(base_instance)),
               nir_udiv(b, s->iid, nir_umax(b, divisor, nir_imm_int(b, 1))));
   nir_ssa_def *element =
      nir_bcsel(b, nir_ieq_imm(b, divisor, 0), s->vid, per_instance);
   nir_ssa_def *base = offset_addr(
      b, param64(b, s, ATTRIB(slot, addr)),
      nir_imul(b, element, param32(b, s, ATTRIB(slot, stride_B))));
   nir_ssa_def *last = param32(b, s, ATTRIB(slot, last_comp));

   /* Channels the format lacks read the last one it has (always in the
    * element) and take the defaults (0, 0, 0, 1).
    */
   nir_ssa_def *c[4];
   unsigned first = nir_intrinsic_component(intr);
   for (unsigned i = 0; i < intr->dest.ssa.num_components; ++i) {
      unsigned ch = first + i;
      nir_ssa_def *at = nir_umin(b, nir_imm_int(b, ch), last);
      nir_ssa_def *v = load32(b, offset_addr(b, base, nir_ishl_imm(b, at, 2)),
                              1);
      nir_ssa_def *def = ch == 3 ? param32(b, s, ATTRIB(slot, one))
                                 : nir_imm_int(b, 0);
      c[i] = nir_bcsel(b, nir_uge(b, last, nir_imm_int(b, ch)), v, def);
   }
   return nir_vec(b, c, intr->dest.ssa.num_components);
}

/* Writes the components of a store the stream output info selects. */
static void
lower_output(nir_builder *b, struct lower_xfb *s, nir_intrinsic_instr *intr)
{
   unsigned slot = nir_intrinsic_base(intr) + nir_src_as_uint(intr->src[1]);
   unsigned first = nir_intrinsic_component(intr);
   unsigned mask = nir_intrinsic_write_mask(intr);
   nir_ssa_def *value = intr->src[0].ssa;

   if (value->bit_size != 32) {
      fail(s, "captured outputs must be 32-bit");
      return;
   }
   if (s->record_mask) {
      unsigned loc = nir_intrinsic_io_semantics(intr).location +
                     nir_src_as_uint(intr->src[1]);
      if (loc >= 64 || !(s->record_mask & BITFIELD64_BIT(loc)))
         return;
      unsigned stride = util_bitcount64(s->record_mask) * 16;
      unsigned at = util_bitcount64(s->record_mask & BITFIELD64_MASK(loc));
      nir_ssa_def *vertex =
         offset_addr(b, param64(b, s, PARAM(targets[0])),
                     nir_imul_imm(b, s->k, stride));
      u_foreach_bit(i, mask) {
         nir_store_global(b, nir_iadd_imm(b, vertex, at * 16 + (first + i) * 4),
                          4, nir_channel(b, value, i), 1);
      }
      return;
   }
   for (unsigned o = 0; o < s->so->num_outputs; ++o) {
      const struct pipe_stream_output *out = &s->so->output[o];
      unsigned buf = out->output_buffer;
      if (out->register_index != slot || out->stream != 0)
         continue;
      nir_ssa_def *vertex = offset_addr(
         b, param64(b, s, PARAM(targets[buf])),
         nir_imul_imm(b, s->k, s->so->stride[buf] * 4));
      u_foreach_bit(i, mask) {
         unsigned ch = first + i;
         if (ch < out->start_component ||
             ch >= out->start_component + out->num_components)
            continue;
         unsigned word = out->dst_offset + ch - out->start_component;
         nir_store_global(b, nir_iadd_imm(b, vertex, word * 4), 4,
                          nir_channel(b, value, i), 1);
      }
   }
}

/* Uniform blocks read through their addresses in the block, the index
 * clamped to the table when it is known only at run time.
 */
static nir_ssa_def *
lower_ubo(nir_builder *b, struct lower_xfb *s, nir_intrinsic_instr *intr)
{
   nir_ssa_def *idx = nir_umin(b, intr->src[0].ssa,
                               nir_imm_int(b, PANFROST_XFB_MAX_UBOS - 1));
   nir_ssa_def *entry = offset_addr(b, nir_iadd_imm(b, s->params, PARAM(ubos)),
                                    nir_imul_imm(b, idx, 8));
   nir_ssa_def *w = load32(b, entry, 2);
   nir_ssa_def *base = nir_pack_64_2x32_split(b, nir_channel(b, w, 0),
                                              nir_channel(b, w, 1));
   return nir_load_global(b, offset_addr(b, base, intr->src[1].ssa), 4,
                          intr->dest.ssa.num_components,
                          intr->dest.ssa.bit_size);
}

static bool
lower_instr(nir_builder *b, nir_instr *instr, void *data)
{
   struct lower_xfb *s = data;

   if (s->failed)
      return false;
   /* Texture instructions stay: the compute variant samples the vertex
    * stage's views and samplers (tex_stage, pan_compute.c).
    */
   if (instr->type != nir_instr_type_intrinsic)
      return false;

   nir_intrinsic_instr *intr = nir_instr_as_intrinsic(instr);
   nir_ssa_def *repl = NULL;
   b->cursor = nir_before_instr(instr);

   switch (intr->intrinsic) {
   case nir_intrinsic_load_input:
      if (!nir_src_is_const(intr->src[0]))
         return fail(s, "indirect vertex input");
      repl = lower_input(b, s, intr);
      break;
   case nir_intrinsic_store_output:
      if (!nir_src_is_const(intr->src[1]))
         return fail(s, "indirect output");
      lower_output(b, s, intr);
      nir_instr_remove(instr);
      return true;
   case nir_intrinsic_load_ubo:
      repl = lower_ubo(b, s, intr);
      break;
   case nir_intrinsic_load_vertex_id:
      repl = s->vid;
      break;
   case nir_intrinsic_load_vertex_id_zero_base:
      repl = nir_isub(b, s->vid, param32(b, s, PARAM(first_vertex)));
      break;
   case nir_intrinsic_load_first_vertex:
   case nir_intrinsic_load_base_vertex:
      repl = param32(b, s, PARAM(first_vertex));
      break;
   case nir_intrinsic_load_instance_id:
      repl = s->iid;
      break;
   case nir_intrinsic_load_base_instance:
      repl = param32(b, s, PARAM(base_instance));
      break;
   case nir_intrinsic_load_draw_id:
      repl = param32(b, s, PARAM(draw_id));
      break;
   case nir_intrinsic_load_is_indexed_draw:
      repl = param32(b, s, PARAM(is_indexed));
      break;
   default:
      return false;
   }
   if (!repl)
      return false;
   nir_ssa_def_rewrite_uses(&intr->dest.ssa, repl);
   nir_instr_remove(instr);
   return true;
}

/* The grid is whole workgroups: the invocations past the count skip the
 * whole shader, since a repeated atomic or store of the shader's own
 * would count twice.
 */
static void
skip_past_count(nir_function_impl *impl)
{
   struct lower_xfb s = { 0 };
   nir_cf_list body;
   nir_builder b;

   nir_cf_extract(&body, nir_before_cf_list(&impl->body),
                  nir_after_cf_list(&impl->body));
   nir_builder_init(&b, impl);
   b.cursor = nir_after_cf_list(&impl->body);
   load_params(&b, &s);
   nir_push_if(&b, nir_ult(&b, invocation_index(&b),
                           param32(&b, &s, PARAM(count))));
   nir_cf_reinsert(&body, b.cursor);
   nir_pop_if(&b, NULL);
   nir_metadata_preserve(impl, nir_metadata_none);
}

static bool
lower_vs(nir_shader *nir, const struct pipe_stream_output_info *so,
         uint64_t record_mask, char *err, size_t err_size)
{
   struct lower_xfb s = {
      .so = so,
      .record_mask = record_mask,
      .err = err,
      .err_size = err_size,
   };

   NIR_PASS_V(nir, nir_lower_indirect_derefs,
              nir_var_function_temp | nir_var_shader_in | nir_var_shader_out,
              UINT32_MAX);
   NIR_PASS_V(nir, nir_lower_io, nir_var_shader_in | nir_var_shader_out,
              pan_vec4_slots, (nir_lower_io_options)0);
   NIR_PASS_V(nir, nir_lower_system_values);
   /* No deref of the variables removed below may stay behind. */
   NIR_PASS_V(nir, nir_opt_dce);
   NIR_PASS_V(nir, nir_remove_dead_derefs);

   /* From here on it is a compute shader of one invocation per vertex. */
   nir->info.stage = MESA_SHADER_COMPUTE;
   memset(&nir->info.cs, 0, sizeof(nir->info.cs));
   nir->info.workgroup_size[0] = 32;
   nir->info.workgroup_size[1] = 1;
   nir->info.workgroup_size[2] = 1;
   nir->info.workgroup_size_variable = false;
   nir->info.shared_size = 0;
   nir->num_inputs = nir->num_outputs = 0;
   ralloc_free(nir->xfb_info);
   nir->xfb_info = NULL; /* only geometry stages may carry one */
   nir_foreach_variable_with_modes_safe(var, nir,
                                        nir_var_shader_in | nir_var_shader_out)
      exec_node_remove(&var->node);

   nir_function_impl *impl = nir_shader_get_entrypoint(nir);
   nir_builder b;
   nir_builder_init(&b, impl);
   b.cursor = nir_before_cf_list(&impl->body);
   load_invocation(&b, &s);

   nir_shader_instructions_pass(nir, lower_instr, nir_metadata_none, &s);
   if (!s.failed) {
      skip_past_count(impl);
      nir_shader_gather_info(nir, impl);
   }
   return !s.failed;
}

bool
panfrost_nir_lower_xfb(nir_shader *nir,
                       const struct pipe_stream_output_info *so, char *err,
                       size_t err_size)
{
   return lower_vs(nir, so, 0, err, err_size);
}

bool
panfrost_nir_lower_vs_records(nir_shader *nir, uint64_t mask, char *err,
                              size_t err_size)
{
   static const struct pipe_stream_output_info none;
   return mask ? lower_vs(nir, &none, mask, err, err_size)
               : (snprintf(err, err_size, "no vertex outputs to keep"), false);
}
