/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Clip distances in the fragment shader.  Mali rasterises whole primitives
 * and has no user clip planes: the vertex shader writes gl_ClipDistance
 * to the varyings CLIP_DIST0/1 like any other (interpolated), and a
 * fragment shader variant discards the fragments where an enabled
 * distance is negative, which cuts the primitive where the distance
 * crosses zero, as clipping would.  The screen keeps
 * PIPE_CAP_NIR_COMPACT_ARRAYS off, so the GLSL linker gives both stages
 * gl_ClipDistance as two vec4 slots; the state tracker lowers user clip
 * planes to the same outputs.
 */

#include "compiler/nir/nir_builder.h"

#include "pan_context.h"

/* The fragment shader's input at `location`: the shader's own when it
 * reads gl_ClipDistance (a vec4 or an array of two), else a new vec4.
 */
static nir_variable *
clip_input(nir_shader *nir, gl_varying_slot location, nir_ssa_def **vec,
           nir_builder *b)
{
   nir_foreach_shader_in_variable(var, nir)
   {
      unsigned slots = glsl_count_attribute_slots(var->type, false);
      if (var->data.location > (int)location ||
          var->data.location + slots <= location)
         continue;
      nir_deref_instr *d = nir_build_deref_var(b, var);
      if (glsl_type_is_array(var->type))
         d = nir_build_deref_array_imm(b, d, location - var->data.location);
      *vec = nir_load_deref(b, d);
      return var;
   }

   nir_variable *var = nir_variable_create(
      nir, nir_var_shader_in, glsl_vec4_type(),
      location == VARYING_SLOT_CLIP_DIST0 ? "pan_clip_dist0"
                                          : "pan_clip_dist1");
   var->data.location = location;
   var->data.interpolation = INTERP_MODE_SMOOTH;
   *vec = nir_load_var(b, var);
   return var;
}

bool
panfrost_nir_lower_clip_fs(nir_shader *nir, unsigned enables)
{
   nir_function_impl *impl = nir_shader_get_entrypoint(nir);
   nir_builder b;

   if (!enables || nir->info.stage != MESA_SHADER_FRAGMENT)
      return false;
   nir_builder_init(&b, impl);
   b.cursor = nir_before_cf_list(&impl->body);

   nir_ssa_def *vec[2] = { NULL, NULL };
   nir_ssa_def *cut = NULL;
   u_foreach_bit (plane, enables & 0xff) {
      unsigned slot = plane / 4;
      if (!vec[slot])
         clip_input(nir, VARYING_SLOT_CLIP_DIST0 + slot, &vec[slot], &b);
      /* Negative distances are outside; NaN is not. */
      nir_ssa_def *out = nir_flt(&b, nir_channel(&b, vec[slot], plane % 4),
                                 nir_imm_float(&b, 0));
      cut = cut ? nir_ior(&b, cut, out) : out;
   }
   nir_discard_if(&b, cut);
   nir->info.fs.uses_discard = true;
   nir->info.inputs_read |= BITFIELD64_BIT(VARYING_SLOT_CLIP_DIST0);
   if (enables & 0xf0)
      nir->info.inputs_read |= BITFIELD64_BIT(VARYING_SLOT_CLIP_DIST1);
   nir_metadata_preserve(impl, nir_metadata_none);
   return true;
}
