/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * noperspective varyings on Valhall, whose varying unit interpolates with
 * perspective only: the vertex shader stores each noperspective output
 * times the clip w, and the fragment shader (pan_ir_from_nir_gfx.c)
 * multiplies what it reads by 1/w interpolated linearly (gl_FragCoord.w).
 * Perspective interpolation of v * w is sum(b_i v_i) / sum(b_i / w_i), so
 * the product is the screen-linear sum(b_i v_i).
 *
 * Runs on variables, before the viewport transform and the IDVS split
 * (the varying variant has no position store left).  An output it scales
 * becomes smooth in the vertex shader; one it cannot (the position not
 * computed before the store, or not written once as a whole vec4) stays
 * noperspective and the back end refuses the shader.
 */

#include "pan_compile_priv.h"

/* The one whole-vec4 store of gl_Position, or NULL. */
static nir_intrinsic_instr *
position_store(nir_function_impl *impl, nir_variable *pos)
{
   nir_intrinsic_instr *found = NULL;

   nir_foreach_block(block, impl) {
      nir_foreach_instr(instr, block) {
         if (instr->type != nir_instr_type_intrinsic)
            continue;
         nir_intrinsic_instr *st = nir_instr_as_intrinsic(instr);
         if (st->intrinsic != nir_intrinsic_store_deref ||
             nir_deref_instr_get_variable(nir_src_as_deref(st->src[0])) != pos)
            continue;
         if (found ||
             nir_src_as_deref(st->src[0])->deref_type != nir_deref_type_var ||
             nir_intrinsic_write_mask(st) != 0xf)
            return NULL;
         found = st;
      }
   }
   return found;
}

/* Whether def is computed before instr on every path to it. */
static bool
computed_before(nir_ssa_def *def, nir_instr *instr)
{
   nir_block *db = def->parent_instr->block;
   if (db != instr->block)
      return nir_block_dominates(db, instr->block);
   return def->parent_instr->index < instr->index;
}

/* The store_deref of a noperspective output, or NULL. */
static nir_intrinsic_instr *
noperspective_store(nir_instr *instr)
{
   if (instr->type != nir_instr_type_intrinsic)
      return NULL;
   nir_intrinsic_instr *st = nir_instr_as_intrinsic(instr);
   if (st->intrinsic != nir_intrinsic_store_deref)
      return NULL;
   nir_variable *var =
      nir_deref_instr_get_variable(nir_src_as_deref(st->src[0]));
   return var && var->data.mode == nir_var_shader_out &&
                var->data.interpolation == INTERP_MODE_NOPERSPECTIVE
             ? st
             : NULL;
}

void
pan_va_lower_noperspective(nir_shader *nir)
{
   nir_variable *pos = nir_find_variable_with_location(nir, nir_var_shader_out,
                                                       VARYING_SLOT_POS);
   bool any = false;
   nir_foreach_shader_out_variable(var, nir)
      any |= var->data.interpolation == INTERP_MODE_NOPERSPECTIVE;
   if (!any || !pos)
      return;

   nir_function_impl *impl = nir_shader_get_entrypoint(nir);
   nir_intrinsic_instr *pos_store = position_store(impl, pos);
   if (!pos_store)
      return;
   nir_metadata_require(impl,
                        nir_metadata_dominance | nir_metadata_instr_index);
   nir_ssa_def *clip = pos_store->src[1].ssa;

   /* All or nothing: a store the position does not reach leaves the
    * outputs noperspective, for the back end to refuse. */
   nir_foreach_block(block, impl) {
      nir_foreach_instr(instr, block) {
         if (noperspective_store(instr) && !computed_before(clip, instr))
            return;
      }
   }

   nir_builder b;
   nir_builder_init(&b, impl);
   nir_foreach_block(block, impl) {
      nir_foreach_instr_safe(instr, block) {
         nir_intrinsic_instr *st = noperspective_store(instr);
         if (!st)
            continue;
         b.cursor = nir_before_instr(instr);
         nir_ssa_def *v =
            nir_fmul(&b, st->src[1].ssa, nir_channel(&b, clip, 3));
         nir_instr_rewrite_src_ssa(instr, &st->src[1], v);
      }
   }
   nir_metadata_preserve(impl,
                         nir_metadata_block_index | nir_metadata_dominance);
   nir_foreach_shader_out_variable(var, nir) {
      if (var->data.interpolation == INTERP_MODE_NOPERSPECTIVE)
         var->data.interpolation = INTERP_MODE_SMOOTH;
   }
}
