/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * See pan_glsl_front.h.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pan_glsl_front.h"

#include "compiler/nir_types.h"
#include "main/mtypes.h"
#include "compiler/glsl/gl_nir.h"
#include "compiler/glsl/gl_nir_linker.h"
#include "compiler/glsl/glsl_to_nir.h"
#include "compiler/glsl/standalone.h"

#include "../../../../tests/oracle/oracle_glsl_ir.h"

int
pan_glsl_attribute_slots(const struct glsl_type *type, bool bindless)
{
   return glsl_count_attribute_slots(type, false);
}

int
pan_glsl_dword_slots(const struct glsl_type *type, bool bindless)
{
   return glsl_count_dword_slots(type, bindless);
}

/* What a GL state tracker hands a driver: I/O and uniforms with driver
 * locations in slot order (gl_FragColor broadcast to the colour buffers),
 * default uniforms in UBO 0, samplers lowered. */
void
pan_glsl_to_driver_nir(struct gl_shader_program *prog, nir_shader *nir)
{
   gl_shader_stage stage = nir->info.stage;

   if (stage == MESA_SHADER_VERTEX) {
      nir_assign_var_locations(nir, nir_var_shader_in, &nir->num_inputs,
                               pan_glsl_attribute_slots);
      nir_assign_io_var_locations(nir, nir_var_shader_out, &nir->num_outputs,
                                  stage);
   } else if (stage == MESA_SHADER_FRAGMENT) {
      NIR_PASS_V(nir, nir_lower_fragcolor, 8);
      /* gl_FragData[i] as one output per render target, as the GL state
       * tracker hands them to a driver. */
      NIR_PASS_V(nir, nir_lower_io_arrays_to_elements_no_indirects, true);
      nir_assign_io_var_locations(nir, nir_var_shader_in, &nir->num_inputs,
                                  stage);
      nir_assign_var_locations(nir, nir_var_shader_out, &nir->num_outputs,
                               pan_glsl_attribute_slots);
   }
   nir_assign_var_locations(nir, nir_var_uniform, &nir->num_uniforms,
                            pan_glsl_attribute_slots);
   NIR_PASS_V(nir, nir_opt_copy_prop_vars);
   NIR_PASS_V(nir, nir_opt_combine_stores, nir_var_all);
   NIR_PASS_V(nir, nir_lower_system_values);
   NIR_PASS_V(nir, gl_nir_lower_samplers, prog);
   NIR_PASS_V(nir, nir_lower_io, nir_var_uniform, pan_glsl_dword_slots,
              (nir_lower_io_options)0);
   NIR_PASS_V(nir, nir_lower_uniforms_to_ubo, true, false);
   NIR_PASS_V(nir, gl_nir_lower_images, true);
   NIR_PASS_V(nir, gl_nir_lower_buffers, prog);
   NIR_PASS_V(nir, nir_opt_constant_folding);
}

/* The #version of a source (110 without one); -1 when unreadable. */
static int
version_of(const char *path)
{
   FILE *fp = fopen(path, "r");
   char line[512];
   int version = 110;

   if (!fp)
      return -1;
   while (fgets(line, sizeof(line), fp)) {
      const char *p = line + strspn(line, " \t");
      if (strncmp(p, "#version", 8))
         continue;
      int n = atoi(p + 8);
      if (strstr(p, " es"))
         version = n == 100 ? 100 : 300;
      else if (n > 0)
         version = n;
      break;
   }
   fclose(fp);
   return version;
}

enum pan_glsl_front_status
pan_glsl_front_run(const struct pan_glsl_front_options *opts, unsigned nr_files,
                   char **files, pan_glsl_stage_fn fn, void *data)
{
   static struct gl_context ctx;
   struct standalone_options sopts = {
      .do_link = true,
      .lower_precision = opts->lower_precision,
   };

   for (unsigned i = 0; i < nr_files; i++) {
      int v = version_of(files[i]);
      if (v < 0) {
         fprintf(stderr, "cannot read %s\n", files[i]);
         return PAN_GLSL_FRONT_IO;
      }
      sopts.glsl_version = MAX2(sopts.glsl_version, (unsigned)v);
   }
   /* GLSL 1.10/1.20 get 1.30's limits (one draw buffer is too few). */
   if (sopts.glsl_version == 110 || sopts.glsl_version == 120)
      sopts.glsl_version = 130;

   struct gl_shader_program *prog =
      standalone_compile_shader(&sopts, nr_files, files, &ctx);
   if (!prog || prog->data->LinkStatus != LINKING_SUCCESS) {
      fprintf(stderr, "GLSL front end failed\n");
      if (prog)
         standalone_compiler_cleanup(prog);
      return PAN_GLSL_FRONT_FAILED;
   }
   oracle_lower_glsl_ir(prog);
   exec_list_make_empty(&prog->EmptyUniformLocations);
   for (unsigned s = 0; s < MESA_SHADER_STAGES; s++) {
      struct gl_linked_shader *sh = prog->_LinkedShaders[s];
      if (!sh)
         continue;
      sh->Program->info.stage = s;
      nir_shader *nir = glsl_to_nir(&ctx.Const, prog, s, opts->nir_options);
      sh->Program->nir = nir;
      /* glsl_to_nir allocates the shader without a parent, and the
       * standalone clean-up frees the program but not its NIR: freed with
       * the program, it does not leak. */
      ralloc_steal(sh->Program, nir);
      NIR_PASS_V(nir, nir_lower_io_to_temporaries,
                 nir_shader_get_entrypoint(nir), true,
                 s != MESA_SHADER_FRAGMENT);
      NIR_PASS_V(nir, nir_lower_global_vars_to_local);
      NIR_PASS_V(nir, nir_split_var_copies);
      NIR_PASS_V(nir, nir_lower_var_copies);
   }
   if (!gl_nir_link_varyings(&ctx.Const, &ctx.Extensions, ctx.API, prog) ||
       !gl_nir_link_uniforms(&ctx.Const, prog, false)) {
      fprintf(stderr, "GLSL front end failed: NIR linking\n");
      standalone_compiler_cleanup(prog);
      return PAN_GLSL_FRONT_FAILED;
   }

   bool all = true;
   for (unsigned s = 0; s < MESA_SHADER_STAGES; s++) {
      if (prog->_LinkedShaders[s])
         all &= fn(prog, prog->_LinkedShaders[s]->Program->nir, data);
   }
   standalone_compiler_cleanup(prog);
   return all ? PAN_GLSL_FRONT_OK : PAN_GLSL_FRONT_REFUSED;
}
