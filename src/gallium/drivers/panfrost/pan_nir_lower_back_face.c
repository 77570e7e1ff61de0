/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* gl_FrontFacing false at every read, for the lines and points drawn for
 * the back faces of GL_LINE and GL_POINT polygons (pan_polygon_mode.c):
 * the hardware makes every line and point front-facing, GL gives them the
 * polygon's face.  The face is a system value or an input (VARYING_SLOT_FACE,
 * a variable or lowered) of any type whose zero means back (a bool, an
 * integer, TGSI's float).
 */

#include "compiler/nir/nir_builder.h"

#include "pan_context.h"

static bool
is_face(nir_intrinsic_instr *intr)
{
   if (intr->intrinsic == nir_intrinsic_load_front_face)
      return true;
   if (intr->intrinsic == nir_intrinsic_load_input)
      return nir_intrinsic_io_semantics(intr).location == VARYING_SLOT_FACE;
   if (intr->intrinsic != nir_intrinsic_load_deref)
      return false;
   nir_variable *var = nir_intrinsic_get_var(intr, 0);
   return var && var->data.mode == nir_var_shader_in &&
          var->data.location == VARYING_SLOT_FACE;
}

static bool
back_face(nir_builder *b, nir_instr *instr, void *data)
{
   if (instr->type != nir_instr_type_intrinsic)
      return false;
   nir_intrinsic_instr *intr = nir_instr_as_intrinsic(instr);
   if (!is_face(intr))
      return false;

   b->cursor = nir_before_instr(instr);
   nir_ssa_def *zero =
      nir_imm_zero(b, intr->dest.ssa.num_components, intr->dest.ssa.bit_size);
   nir_ssa_def_rewrite_uses(&intr->dest.ssa, zero);
   nir_instr_remove(instr);
   return true;
}

bool
panfrost_nir_back_face(nir_shader *nir)
{
   return nir_shader_instructions_pass(
      nir, back_face, nir_metadata_block_index | nir_metadata_dominance, NULL);
}

bool
panfrost_nir_reads_face(const nir_shader *nir)
{
   return BITSET_TEST(nir->info.system_values_read, SYSTEM_VALUE_FRONT_FACE) ||
          (nir->info.inputs_read & VARYING_BIT_FACE);
}
