/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* gl_PointCoord with its origin at the bottom.  The hardware's point
 * coordinate grows down the framebuffer (PIPE_SPRITE_COORD_UPPER_LEFT);
 * the state tracker asks for the other origin when the application's
 * GL_POINT_SPRITE_COORD_ORIGIN and the framebuffer's orientation differ
 * (a user framebuffer with the default origin, for one), which only the
 * shader can do per draw: y becomes 1 - y at every read.
 */

#include "compiler/nir/nir_builder.h"

#include "pan_context.h"

static bool
flip_y(nir_builder *b, nir_instr *instr, void *data)
{
   if (instr->type != nir_instr_type_intrinsic)
      return false;
   nir_intrinsic_instr *intr = nir_instr_as_intrinsic(instr);
   if (intr->intrinsic != nir_intrinsic_load_deref)
      return false;
   nir_variable *var = nir_intrinsic_get_var(intr, 0);
   if (!var || var->data.mode != nir_var_shader_in ||
       var->data.location != VARYING_SLOT_PNTC ||
       intr->dest.ssa.num_components < 2)
      return false;

   nir_ssa_def *v = &intr->dest.ssa;
   nir_ssa_def *c[4];
   b->cursor = nir_after_instr(instr);
   for (unsigned i = 0; i < v->num_components; ++i)
      c[i] = nir_channel(b, v, i);
   c[1] = nir_fsub(b, nir_imm_float(b, 1.0f), c[1]);
   nir_ssa_def *flipped = nir_vec(b, c, v->num_components);
   nir_ssa_def_rewrite_uses_after(v, flipped, flipped->parent_instr);
   return true;
}

bool
panfrost_nir_flip_point_coord(nir_shader *nir)
{
   return nir_shader_instructions_pass(
      nir, flip_y, nir_metadata_block_index | nir_metadata_dominance, NULL);
}
