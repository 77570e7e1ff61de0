/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * NIR lowering for the graphics stages, before the common passes:
 * variables to load_input/store_output with vec4 slots, the viewport
 * transform in the vertex shader (v9 hardware takes window coordinates),
 * noperspective outputs stored times the clip w (pan_va_noperspective.c),
 * and the IDVS split: a position variant keeps the position and point
 * size stores, a varying variant the others.  Texture lookups with
 * gradients become explicit-LOD lookups.  Large indirect temporaries
 * go to thread storage; small ones and indirect varyings become selects,
 * since the back end reads varyings at constant slots.
 */

#include "pan_compile_priv.h"

int
pan_vec4_slots(const struct glsl_type *type, bool bindless)
{
   return glsl_count_attribute_slots(type, false);
}

static bool
is_position_output(unsigned location)
{
   return location == VARYING_SLOT_POS || location == VARYING_SLOT_PSIZ;
}

/* Drop the stores the other IDVS variant makes. */
static bool
keep_variant(nir_builder *b, nir_instr *instr, void *data)
{
   enum pan_va_variant variant = *(enum pan_va_variant *)data;
   if (instr->type != nir_instr_type_intrinsic)
      return false;
   nir_intrinsic_instr *intr = nir_instr_as_intrinsic(instr);
   if (intr->intrinsic != nir_intrinsic_store_output)
      return false;
   bool pos = is_position_output(nir_intrinsic_io_semantics(intr).location);
   if (pos == (variant == PAN_VA_VARIANT_POSITION))
      return false;
   nir_instr_remove(instr);
   return true;
}

/* Mesa's varying compaction (nir_compact_varyings) leaves vertex outputs
 * written piecewise: a packed vec4 gets .x in one store and .yzw in
 * another.  The back end stores a write mask's words from the first
 * component to the last, holes included (the .yzw store overwrote .x), so
 * each output is written once, whole, at the end, from a temporary. */
static void
lower_outputs_to_temporaries(nir_shader *nir)
{
   NIR_PASS_V(nir, nir_lower_io_to_temporaries,
              nir_shader_get_entrypoint(nir), true, false);
   NIR_PASS_V(nir, nir_lower_global_vars_to_local);
   NIR_PASS_V(nir, nir_split_var_copies);
   NIR_PASS_V(nir, nir_lower_var_copies);
   NIR_PASS_V(nir, nir_lower_vars_to_ssa);
}

/* Just after instr (after the phis for a phi). */
static nir_cursor
after_def(nir_instr *instr)
{
   return instr->type == nir_instr_type_phi ? nir_after_phis(instr->block)
                                            : nir_after_instr(instr);
}

static bool
top_level(nir_function_impl *impl, nir_instr *instr)
{
   return instr->block->cf_node.parent == &impl->cf_node;
}

/* The temporaries' stores all sit in the last block, after a mov of each
 * value, which keeps every output live to the end: 32 vec4 varyings are
 * 128 registers.  A store of a value defined outside any branch or loop
 * moves up (with its mov and its constant slot offset) to just after
 * that definition, so each output is stored as soon as it is known,
 * still once and whole. */
static void
store_outputs_early(nir_shader *nir)
{
   nir_function_impl *impl = nir_shader_get_entrypoint(nir);
   nir_block *end = nir_impl_last_block(impl);
   nir_builder b;
   nir_builder_init(&b, impl);

   /* Forwards: a moved store lands before the ones still to visit. */
   nir_foreach_instr_safe(instr, end) {
      if (instr->type != nir_instr_type_intrinsic)
         continue;
      nir_intrinsic_instr *st = nir_instr_as_intrinsic(instr);
      if (st->intrinsic != nir_intrinsic_store_output ||
          !nir_src_is_const(st->src[1]))
         continue;
      nir_instr *def = st->src[0].ssa->parent_instr;
      if (!top_level(impl, def))
         continue;
      /* Moving a definition up past nothing it reads is always safe. */
      if (def->type == nir_instr_type_alu &&
          nir_instr_as_alu(def)->op == nir_op_mov) {
         nir_instr *src = nir_instr_as_alu(def)->src[0].src.ssa->parent_instr;
         if (top_level(impl, src))
            nir_instr_move(after_def(src), def);
      }
      nir_instr_move(after_def(def), instr);
      b.cursor = nir_before_instr(instr);
      nir_instr_rewrite_src_ssa(
         instr, &st->src[1],
         nir_imm_int(&b, (int)nir_src_as_uint(st->src[1])));
   }
   nir_metadata_preserve(impl, nir_metadata_block_index |
                                  nir_metadata_dominance);
}

void
pan_va_lower_gfx_nir(nir_shader *nir, enum pan_va_variant variant)
{
   if (nir->info.stage == MESA_SHADER_VERTEX)
      lower_outputs_to_temporaries(nir);
   /* Before the selects below: large indexed temporaries go to scratch. */
   pan_compile_lower_scratch(nir);
   /* Varyings are read and written at constant slots (LD_VAR_BUF_IMM,
    * STORE at an immediate offset): an indexed varying array becomes a
    * select of its elements too. */
   NIR_PASS_V(nir, nir_lower_indirect_derefs,
              nir_var_function_temp | nir_var_shader_in | nir_var_shader_out,
              UINT32_MAX);
   if (nir->info.stage == MESA_SHADER_VERTEX)
      pan_va_lower_noperspective(nir);
   if (nir->info.stage == MESA_SHADER_VERTEX &&
       variant != PAN_VA_VARIANT_VARYING)
      NIR_PASS_V(nir, nir_lower_viewport_transform);
   NIR_PASS_V(nir, nir_lower_io, nir_var_shader_in | nir_var_shader_out,
              pan_vec4_slots, (nir_lower_io_options)0);
   if (nir->info.stage == MESA_SHADER_VERTEX)
      store_outputs_early(nir);
   if (nir->info.stage == MESA_SHADER_VERTEX &&
       variant != PAN_VA_VARIANT_DEFAULT) {
      NIR_PASS_V(nir, nir_shader_instructions_pass, keep_variant,
                 nir_metadata_block_index | nir_metadata_dominance, &variant);
   }
   /* Projective lookups divide first; implicit LODs outside fragment
    * shaders are LOD 0; explicit gradients become an explicit LOD computed
    * from them and the texture size (a pushed word, see
    * pan_ir_from_nir_tex.c), as the stock compiler does.  A size at
    * another LOD is the LOD 0 size minified; a gather of four offsets is
    * four gathers (one offset word each). */
   const nir_lower_tex_options tex = {
      .lower_txp = ~0u,
      .lower_invalid_implicit_lod = true,
      .lower_txd = true,
      .lower_txs_lod = true,
      .lower_tg4_offsets = true,
   };
   NIR_PASS_V(nir, nir_lower_tex, &tex);
   NIR_PASS_V(nir, nir_opt_dce);
}
