/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Integer colour outputs of TGSI fragment shaders.  TGSI registers have
 * no type, so tgsi_to_nir declares every colour output a vec4 of floats,
 * even where util_blitter's integer blit shaders store the result of an
 * integer texel fetch.  Valhall's BLEND converts the registers from the
 * type the compiler gives it (the output's), so integer texels stored as
 * "floats" reach an integer target as converted floats: blits between
 * integer buffers came out black on the G57.  Bifrost's BLEND takes the
 * register format from the blend descriptor and never saw the difference.
 *
 * An output whose every store is the direct result of an integer texture
 * instruction takes that integer type here, before nir_lower_io gives the
 * stores their source type.
 */

#include "compiler/nir/nir_builder.h"

#include "pan_context.h"

/* The base type of the integer texture result def is (through moves), or
 * 0 when it is something else. */
static nir_alu_type
int_tex_type(nir_ssa_def *def)
{
   nir_instr *p = def->parent_instr;

   while (p->type == nir_instr_type_alu) {
      nir_alu_instr *alu = nir_instr_as_alu(p);
      if (alu->op != nir_op_mov || !alu->src[0].src.is_ssa)
         return 0;
      p = alu->src[0].src.ssa->parent_instr;
   }
   if (p->type != nir_instr_type_tex)
      return 0;
   nir_alu_type t = nir_alu_type_get_base_type(nir_instr_as_tex(p)->dest_type);
   return t == nir_type_int || t == nir_type_uint ? t : 0;
}

bool
panfrost_nir_type_tgsi_outputs(nir_shader *nir)
{
   /* Per output variable: the integer type all its stores agree on, or
    * nir_type_invalid once one does not. */
   struct hash_table *types = _mesa_pointer_hash_table_create(NULL);
   bool progress = false;

   if (!types)
      return false;
   nir_foreach_function (f, nir) {
      if (!f->impl)
         continue;
      nir_foreach_block (block, f->impl) {
         nir_foreach_instr (instr, block) {
            if (instr->type != nir_instr_type_intrinsic)
               continue;
            nir_intrinsic_instr *intr = nir_instr_as_intrinsic(instr);
            if (intr->intrinsic != nir_intrinsic_store_deref)
               continue;
            nir_variable *var = nir_intrinsic_get_var(intr, 0);
            if (!var || var->data.mode != nir_var_shader_out ||
                !glsl_type_is_vector_or_scalar(var->type) ||
                glsl_get_base_type(var->type) != GLSL_TYPE_FLOAT)
               continue;
            nir_alu_type t =
               intr->src[1].is_ssa ? int_tex_type(intr->src[1].ssa) : 0;
            struct hash_entry *e = _mesa_hash_table_search(types, var);
            uintptr_t prev = e ? (uintptr_t)e->data : t;
            _mesa_hash_table_insert(types, var,
                                    (void *)(uintptr_t)(prev == t ? t : nir_type_invalid));
         }
      }
   }
   hash_table_foreach (types, e) {
      nir_variable *var = (nir_variable *)e->key;
      nir_alu_type t = (nir_alu_type)(uintptr_t)e->data;
      if (t != nir_type_int && t != nir_type_uint)
         continue;
      var->type =
         glsl_vector_type(t == nir_type_int ? GLSL_TYPE_INT : GLSL_TYPE_UINT,
                          glsl_get_vector_elements(var->type));
      progress = true;
   }
   _mesa_hash_table_destroy(types, NULL);
   if (progress) {
      /* The derefs carry the variable's type too. */
      nir_foreach_function (f, nir) {
         if (!f->impl)
            continue;
         nir_foreach_block (block, f->impl) {
            nir_foreach_instr (instr, block) {
               if (instr->type != nir_instr_type_deref)
                  continue;
               nir_deref_instr *d = nir_instr_as_deref(instr);
               if (d->deref_type == nir_deref_type_var)
                  d->type = d->var->type;
            }
         }
      }
   }
   return progress;
}
