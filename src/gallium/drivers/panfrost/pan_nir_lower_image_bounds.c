/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * GL's rules for invalid image accesses: a load or atomic at coordinates
 * outside the image, or of an image unit with nothing bound, returns
 * zero, and a store or atomic there changes nothing.  The hardware
 * faults instead, so every access is guarded by its coordinates against
 * imageSize(), which the driver pushes (0 for an unbound slot, so every
 * access to it fails the test).  Cube faces count as 6 layers each.
 * A load's zero is the zero texel as the format reads it: a format of
 * fewer than four components fills alpha with 1, as piglit's
 * arb_shader_image_load_store-invalid expects.
 * imageSize of an image indexed at run time becomes a select among the
 * pushed sizes of every slot.
 */

#include <string.h>

#include "compiler/nir/nir.h"
#include "compiler/nir/nir_builder.h"
#include "util/format/u_format.h"
#include "util/u_dynarray.h"

#include "pan_compute.h"

/* Loads, stores and atomics of an image unit read or write a texel; the
 * size and sample-count queries do not.  Told apart by the intrinsic's
 * name, so that every atomic NIR has is covered. */
static bool
is_access(const nir_intrinsic_instr *intr)
{
   static const char *const kinds[] = { "image_load", "image_store",
                                        "image_atomic" };
   const char *name = nir_intrinsic_infos[intr->intrinsic].name;
   if (strstr(name, "raw"))
      return false;
   for (unsigned i = 0; i < ARRAY_SIZE(kinds); ++i) {
      if (!strncmp(name, kinds[i], strlen(kinds[i])))
         return true;
   }
   return false;
}

/* Whether every coordinate of intr is inside its image. */
static nir_ssa_def *
in_bounds(nir_builder *b, nir_intrinsic_instr *intr)
{
   enum glsl_sampler_dim dim = nir_intrinsic_image_dim(intr);
   bool array = nir_intrinsic_image_array(intr);
   unsigned n = nir_image_intrinsic_coord_components(intr);
   bool cube = dim == GLSL_SAMPLER_DIM_CUBE;
   /* imageSize of a cube has no third component without layers. */
   unsigned size_comps = cube && !array ? 2 : n;

   nir_intrinsic_instr *size =
      nir_intrinsic_instr_create(b->shader, nir_intrinsic_image_size);
   size->src[0] = nir_src_for_ssa(intr->src[0].ssa);
   size->src[1] = nir_src_for_ssa(nir_imm_int(b, 0));
   size->num_components = size_comps;
   nir_intrinsic_set_image_dim(size, dim);
   nir_intrinsic_set_image_array(size, array);
   nir_intrinsic_set_format(size, nir_intrinsic_format(intr));
   nir_intrinsic_set_access(size, nir_intrinsic_access(intr));
   nir_ssa_dest_init(&size->instr, &size->dest, size_comps, 32, NULL);
   nir_builder_instr_insert(b, &size->instr);

   nir_ssa_def *coord = intr->src[1].ssa, *ok = nir_imm_true(b);
   for (unsigned c = 0; c < n; ++c) {
      nir_ssa_def *limit = c < size_comps ? nir_channel(b, &size->dest.ssa, c)
                                          : nir_imm_int(b, 1);
      if (cube && c == 2)
         limit = nir_imul_imm(b, limit, 6);
      ok = nir_iand(b, ok, nir_ult(b, nir_channel(b, coord, c), limit));
   }
   return ok;
}

/* What an invalid access returns: zero, and for a load of a format with
 * fewer than four components alpha 1 (integer or float, as the load's
 * type), which the format's conversion gives a zero texel. */
static nir_ssa_def *
invalid_result(nir_builder *b, nir_intrinsic_instr *intr)
{
   unsigned n = intr->dest.ssa.num_components, bits = intr->dest.ssa.bit_size;
   nir_ssa_def *zero = nir_imm_zero(b, n, bits);
   if (intr->intrinsic != nir_intrinsic_image_load || n < 4)
      return zero;
   enum pipe_format format = nir_intrinsic_format(intr);
   if (format == PIPE_FORMAT_NONE || util_format_get_nr_components(format) >= 4)
      return zero;
   bool is_float = nir_alu_type_get_base_type(nir_intrinsic_dest_type(intr)) ==
                   nir_type_float;
   nir_ssa_def *one =
      is_float ? nir_imm_floatN_t(b, 1.0, bits) : nir_imm_intN_t(b, 1, bits);
   nir_ssa_def *c[4];
   for (unsigned i = 0; i < 4; ++i)
      c[i] = i == 3 ? one : nir_channel(b, zero, i);
   return nir_vec(b, c, 4);
}

static void
guard(nir_builder *b, nir_intrinsic_instr *intr)
{
   bool has_dest = nir_intrinsic_infos[intr->intrinsic].has_dest;
   b->cursor = nir_before_instr(&intr->instr);
   nir_ssa_def *ok = in_bounds(b, intr);

   /* The uses move to the phi after the if, through a stand-in. */
   nir_ssa_def *stand_in = NULL;
   if (has_dest) {
      stand_in = nir_ssa_undef(b, intr->dest.ssa.num_components,
                               intr->dest.ssa.bit_size);
      nir_ssa_def_rewrite_uses(&intr->dest.ssa, stand_in);
   }
   nir_instr_remove(&intr->instr);
   nir_push_if(b, ok);
   nir_builder_instr_insert(b, &intr->instr);
   nir_push_else(b, NULL);
   nir_ssa_def *zero = NULL;
   if (has_dest)
      zero = invalid_result(b, intr);
   nir_pop_if(b, NULL);
   if (has_dest) {
      nir_ssa_def_rewrite_uses(stand_in, nir_if_phi(b, &intr->dest.ssa, zero));
      nir_instr_remove(stand_in->parent_instr);
   }
}

/* The image slots the shader's image variables take (arrays count every
 * element), as many as an index may name. */
static unsigned
image_slots(nir_shader *nir)
{
   unsigned n = 0;
   nir_foreach_variable_with_modes (var, nir, nir_var_image | nir_var_uniform)
      n += glsl_type_get_image_count(var->type);
   return n;
}

/*
 * imageSize of an image chosen at run time (an array of images indexed by
 * a uniform): sizes are pushed per image, so this selects among the sizes
 * of every slot; an index past them gets 0, which fails every bounds test.
 */
static void
select_size(nir_builder *b, nir_intrinsic_instr *size, unsigned slots)
{
   nir_ssa_def *index = size->src[0].ssa, *v = NULL;
   b->cursor = nir_after_instr(&size->instr);
   v = nir_imm_zero(b, size->dest.ssa.num_components, size->dest.ssa.bit_size);
   for (unsigned i = 0; i < slots; ++i) {
      nir_ssa_def *slot = nir_imm_int(b, i);
      nir_intrinsic_instr *one =
         nir_instr_as_intrinsic(nir_instr_clone(b->shader, &size->instr));
      nir_builder_instr_insert(b, &one->instr);
      nir_instr_rewrite_src_ssa(&one->instr, &one->src[0], slot);
      v = nir_bcsel(b, nir_ieq_imm(b, index, i), &one->dest.ssa, v);
   }
   nir_ssa_def_rewrite_uses(&size->dest.ssa, v);
   nir_instr_remove(&size->instr);
}

static bool
is_dynamic_size(const nir_instr *instr)
{
   if (instr->type != nir_instr_type_intrinsic)
      return false;
   const nir_intrinsic_instr *intr = nir_instr_as_intrinsic(instr);
   return intr->intrinsic == nir_intrinsic_image_size &&
          !nir_src_is_const(intr->src[0]);
}

void
panfrost_nir_lower_image_bounds(nir_shader *nir)
{
   unsigned slots = MIN2(image_slots(nir), PANFROST_MAX_IMAGES);

   nir_foreach_function (f, nir) {
      if (!f->impl)
         continue;
      nir_builder b;
      nir_builder_init(&b, f->impl);
      struct util_dynarray accesses;
      util_dynarray_init(&accesses, NULL);
      nir_foreach_block (blk, f->impl) {
         nir_foreach_instr (instr, blk) {
            if (instr->type == nir_instr_type_intrinsic &&
                is_access(nir_instr_as_intrinsic(instr)))
               util_dynarray_append(&accesses, nir_intrinsic_instr *,
                                    nir_instr_as_intrinsic(instr));
         }
      }
      util_dynarray_foreach(&accesses, nir_intrinsic_instr *, intr)
         guard(&b, *intr);
      bool progress =
         util_dynarray_num_elements(&accesses, nir_intrinsic_instr *) != 0;
      /* Then the sizes of images chosen at run time, the guards' too. */
      util_dynarray_clear(&accesses);
      nir_foreach_block (blk, f->impl) {
         nir_foreach_instr (instr, blk) {
            if (is_dynamic_size(instr))
               util_dynarray_append(&accesses, nir_intrinsic_instr *,
                                    nir_instr_as_intrinsic(instr));
         }
      }
      util_dynarray_foreach(&accesses, nir_intrinsic_instr *, intr)
         select_size(&b, *intr, slots);
      progress |=
         util_dynarray_num_elements(&accesses, nir_intrinsic_instr *) != 0;
      if (progress)
         nir_metadata_preserve(f->impl, nir_metadata_none);
      util_dynarray_fini(&accesses);
   }
}
