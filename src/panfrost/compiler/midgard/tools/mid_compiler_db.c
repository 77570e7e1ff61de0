/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * pan-mid-compiler-db: the GLSL stages of one program through the base's
 * standalone GLSL front end (pan_glsl_front.c, shared with pan-compiler-db)
 * and then through OUR Midgard compiler, printing the shader-db line the
 * stock compiler prints with MIDGARD_MESA_DEBUG=shaderdb:
 *
 *   SHADER-DB: MESA_SHADER_FRAGMENT shader: 6 inst, 2 bundles,
 *   4 quadwords, 2 registers, 4 threads, 0 loops, 0:0 spills:fills
 *
 * or "PAN-DB-REFUSED: <stage>: <reason>".  --gpu=0x860 (default) or 0x720;
 * --out=DIR writes each binary to DIR/<vs|fs|cs>-<gpu>.bin (as the stock
 * oracle compiler does) for the disassembler.  --print=1 prints our IR
 * (before scheduling and after allocation, per level) to stderr.
 * Exit status: 0 all compiled, 1 something refused, 2 usage, 3 GLSL front
 * end failure, 4 I/O error.  See docs/drivers/panfrost/compiler-midgard.rst.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* pan_glsl_front.h first: it brings nir.h, which gl_nir.h needs. */
#include "pan_glsl_front.h"
#include "compiler/glsl/gl_nir.h"

#include "mid_compile.h"

/* I/O at driver locations, default uniforms in UBO 0 (which our compiler
 * pushes), samplers and buffers lowered: what the GL state tracker gives. */
static void
driver_nir(struct gl_shader_program *prog, nir_shader *nir)
{
   gl_shader_stage st = nir->info.stage;
   if (st == MESA_SHADER_FRAGMENT) {
      NIR_PASS_V(nir, nir_lower_fragcolor, 1);
      nir_assign_io_var_locations(nir, nir_var_shader_in, &nir->num_inputs, st);
      nir_assign_var_locations(nir, nir_var_shader_out, &nir->num_outputs,
                               pan_glsl_attribute_slots);
   } else if (st == MESA_SHADER_VERTEX) {
      nir_assign_var_locations(nir, nir_var_shader_in, &nir->num_inputs,
                               pan_glsl_attribute_slots);
      nir_assign_io_var_locations(nir, nir_var_shader_out, &nir->num_outputs,
                                  st);
   }
   nir_assign_var_locations(nir, nir_var_uniform, &nir->num_uniforms,
                            pan_glsl_attribute_slots);
   NIR_PASS_V(nir, nir_lower_system_values);
   NIR_PASS_V(nir, gl_nir_lower_samplers, prog);
   /* Uniform offsets in words (for UBO 0), varyings and attributes in
    * vec4 slots, the unit of their driver locations: an array element's
    * offset adds to the base. */
   NIR_PASS_V(nir, nir_lower_io, nir_var_uniform, pan_glsl_dword_slots,
              (nir_lower_io_options)0);
   NIR_PASS_V(nir, nir_lower_io, nir_var_shader_in | nir_var_shader_out,
              pan_glsl_attribute_slots, (nir_lower_io_options)0);
   NIR_PASS_V(nir, nir_lower_uniforms_to_ubo, true, false);
   NIR_PASS_V(nir, gl_nir_lower_buffers, prog);
   NIR_PASS_V(nir, nir_opt_constant_folding);
}

static const char *out_dir;

static void
write_binary(const struct mid_binary *bin, gl_shader_stage st, unsigned gpu)
{
   char path[4096];
   snprintf(path, sizeof(path), "%s/%s-%04x.bin", out_dir,
            st == MESA_SHADER_VERTEX     ? "vs"
            : st == MESA_SHADER_FRAGMENT ? "fs"
                                         : "cs",
            gpu);
   FILE *fp = fopen(path, "wb");
   if (!fp || fwrite(bin->code, 1, bin->size_B, fp) != bin->size_B)
      fprintf(stderr, "cannot write %s\n", path);
   if (fp)
      fclose(fp);
}

/* --print=1: our IR to stderr. */
static bool print_ir;

static bool
compile_stage(struct gl_shader_program *prog, nir_shader *nir, void *data)
{
   unsigned gpu = *(const unsigned *)data;
   driver_nir(prog, nir);
   const char *name = gl_shader_stage_name(nir->info.stage);
   struct mid_binary bin;
   char err[256];
   void *mem = ralloc_context(NULL);
   bool ok = mid_compile(nir_shader_clone(mem, nir), gpu, mem, &bin,
                         print_ir ? stderr : NULL, err, sizeof(err));
   if (ok && out_dir)
      write_binary(&bin, nir->info.stage, gpu);
   if (ok) {
      char line[256];
      mid_shaderdb_line(&bin, name, line, sizeof(line));
      printf("SHADER-DB: %s\n", line);
   } else
      printf("PAN-DB-REFUSED: %s: %s\n", name, err);
   ralloc_free(mem);
   return ok;
}

int
main(int argc, char **argv)
{
   unsigned gpu = 0x860;
   int first = 1;

   for (; first < argc && !strncmp(argv[first], "--", 2); first++) {
      if (!strncmp(argv[first], "--gpu=", 6))
         gpu = strtoul(argv[first] + 6, NULL, 16);
      else if (!strncmp(argv[first], "--out=", 6))
         out_dir = argv[first] + 6;
      else if (!strcmp(argv[first], "--print=1") ||
               !strcmp(argv[first], "--print=0"))
         print_ir = argv[first][8] == '1';
      else
         break;
   }
   if (first >= argc || argv[first][0] == '-') {
      fprintf(stderr, "usage: pan-mid-compiler-db [--gpu=860|720] [--out=DIR] "
                      "[--print=0|1] FILE.vert|.frag|.comp...\n");
      return 2;
   }
   /* No mediump lowering: our compiler has only 32-bit values, which
    * GLSL allows for any precision qualifier (the stock compiler gets
    * 16-bit code). */
   const struct pan_glsl_front_options opts = {
      .nir_options = &mid_nir_options,
   };
   return pan_glsl_front_run(&opts, (unsigned)(argc - first), argv + first,
                             compile_stage, &gpu);
}
