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
#include "util/ralloc.h"
#include "util/u_debug.h"

#include "mid_compile.h"
#include "pan_compile.h"
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
 * stock compiler does.  Fragment shaders only: in vertex shaders a vector
 * holds its whole register longer than its scalar pieces would, and three
 * of them fell from four threads to two (T860 shader-db). */
static void
vectorize(nir_shader *nir)
{
   bool progress;
   do {
      progress = false;
      NIR_PASS(progress, nir, nir_opt_vectorize, NULL, NULL);
      NIR_PASS(progress, nir, nir_copy_prop);
      NIR_PASS(progress, nir, nir_opt_cse);
      NIR_PASS(progress, nir, nir_opt_dce);
   } while (progress);
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
   if (nir->info.stage == MESA_SHADER_FRAGMENT)
      vectorize(nir);
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
   }
   ralloc_free(mem);
   return ok;
}
