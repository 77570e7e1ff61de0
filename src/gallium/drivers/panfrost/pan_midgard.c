/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Midgard (v4/v5) has no job emitters yet, so its draws are dropped; its
 * shaders are compiled all the same when their state objects are created,
 * with our Midgard compiler, so that MIDGARD_MESA_DEBUG=shaders,shaderdb
 * work through the driver as they do with the stock one (shader-db runs
 * on the drm-shim with PAN_GPU_ID=860 or 720).  The binaries are not kept.
 */

#include <stdio.h>

#include "compiler/nir/nir.h"
#include "compiler/nir/nir_builder.h"
#include "util/ralloc.h"
#include "util/u_debug.h"

#include "mid_compile.h"
#include "pan_compile.h"
#include "pan_isa_mid.h"
#include "pan_midgard.h"

/* The driver's half of the interface: the I/O the state tracker leaves as
 * variables becomes load_input/store_output at constant slots, what the
 * compiler reads. */
static void
lower_io(nir_shader *nir)
{
   NIR_PASS_V(nir, nir_lower_indirect_derefs,
              nir_var_shader_in | nir_var_shader_out, UINT32_MAX);
   NIR_PASS_V(nir, nir_lower_io, nir_var_shader_in | nir_var_shader_out,
              pan_vec4_slots, (nir_lower_io_options)0);
}

/* The state tracker hands over some vector expressions split into scalar
 * ops, where Midgard's ALUs run four lanes per instruction: lanes
 * computing the same operation are merged back into vector ops, as the
 * stock compiler does.  In vertex shaders only conversions (bone indices
 * and the like): there a vector holds its whole register longer than its
 * scalar pieces would, and with every op merged three of them fell from
 * four threads to two (T860 shader-db). */
static uint8_t
conversions_only(const nir_instr *instr, UNUSED const void *data)
{
   if (instr->type != nir_instr_type_alu)
      return 0;
   switch (nir_instr_as_alu(instr)->op) {
   case nir_op_f2i32:
   case nir_op_f2u32:
   case nir_op_i2f32:
   case nir_op_u2f32:
      return 4;
   default:
      return 0;
   }
}

static void
vectorize(nir_shader *nir, nir_vectorize_cb filter)
{
   bool progress;
   do {
      progress = false;
      NIR_PASS(progress, nir, nir_opt_vectorize, filter, NULL);
      NIR_PASS(progress, nir, nir_copy_prop);
      NIR_PASS(progress, nir, nir_opt_cse);
      NIR_PASS(progress, nir, nir_opt_dce);
   } while (progress);
}

/* dot(a, b) of two-component vectors as one two-lane multiply and an add
 * of its lanes (what stock emits): the compiler makes every horizontal op
 * scalar, and fdot2 would become two scalar multiplies and the add. */
static bool
lower_fdot2(nir_builder *b, nir_instr *instr, UNUSED void *data)
{
   if (instr->type != nir_instr_type_alu)
      return false;
   nir_alu_instr *alu = nir_instr_as_alu(instr);
   if (alu->op != nir_op_fdot2 || !alu->dest.dest.is_ssa)
      return false;
   b->cursor = nir_before_instr(instr);
   nir_ssa_def *m = nir_fmul(b, nir_ssa_for_alu_src(b, alu, 0),
                             nir_ssa_for_alu_src(b, alu, 1));
   nir_ssa_def *sum = nir_fadd(b, nir_channel(b, m, 0), nir_channel(b, m, 1));
   nir_ssa_def_rewrite_uses(&alu->dest.dest.ssa, sum);
   nir_instr_remove(instr);
   return true;
}

bool
panfrost_midgard_compile(unsigned gpu_id, nir_shader *nir,
                         struct util_debug_callback *debug, char *err,
                         size_t err_size)
{
   unsigned flags = mid_compiler_debug();
   FILE *print_ir = (flags & MID_DEBUG_SHADERS) ? stderr : NULL;
   const char *stage = gl_shader_stage_name(nir->info.stage);
   void *mem = ralloc_context(NULL);
   struct mid_binary bin;

   if (nir->info.stage != MESA_SHADER_COMPUTE)
      lower_io(nir);
   if (nir->info.stage == MESA_SHADER_FRAGMENT) {
      /* Explicit gradients become an explicit LOD here rather than in the
       * compiler, so that the LOD computation (the lengths of the scaled
       * gradients: two-lane dot products) goes through the lowering and
       * vectorization below. */
      nir_lower_tex_options tex = { .lower_txd = true };
      NIR_PASS_V(nir, nir_lower_tex, &tex);
   }
   NIR_PASS_V(nir, nir_shader_instructions_pass, lower_fdot2,
              nir_metadata_block_index | nir_metadata_dominance, NULL);
   if (nir->info.stage == MESA_SHADER_FRAGMENT)
      vectorize(nir, NULL);
   else
      vectorize(nir, conversions_only);
   if (print_ir) {
      fprintf(stderr, "-- NIR (%s)\n", stage);
      nir_print_shader(nir, stderr);
   }
   bool ok = mem && mid_compile(nir, gpu_id, mem, &bin, print_ir, err,
                                err_size);
   if (!mem)
      snprintf(err, err_size, "out of memory");
   if (ok) {
      char line[256];
      mid_shaderdb_line(&bin, stage, line, sizeof(line));
      if (flags & MID_DEBUG_SHADERDB)
         fprintf(stderr, "SHADER-DB: %s\n", line);
      util_debug_message(debug, SHADER_INFO, "%s", line);
      if ((flags & MID_DEBUG_DISASM) && bin.nr_bundles) {
         char derr[128];
         fprintf(stderr, "-- disassembly (%s)\n", stage);
         if (pan_mid_disassemble(bin.code, bin.size_B, stderr, false, derr,
                                 sizeof(derr)))
            fprintf(stderr, "disassembly failed: %s\n", derr);
      }
   }
   ralloc_free(mem);
   return ok;
}
