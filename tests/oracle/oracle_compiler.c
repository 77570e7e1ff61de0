/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Test oracle: drives the base's STOCK Bifrost/Valhall compiler and
 * disassembler so that our ISA library can be checked against real
 * machine code.  Built only under tests/oracle, never part of the product.
 * Built a second time with ORACLE_MIDGARD defined, against the stock
 * Midgard compiler (GPU ids 0x720 for T720/v4, 0x860 for T860/v5), as
 * stock-midgard-compiler: the two back ends share header names, so they
 * cannot live in one executable.
 *
 *   stock-bifrost-compiler compile --out=DIR --gpu=ID[,ID...] FILES...
 *      FILES are GLSL sources named *.vert, *.frag or *.comp forming one
 *      program; writes DIR/<stage>-<id in hex>.bin per stage and GPU.
 *   stock-bifrost-compiler disasm --gpu=ID FILE.bin
 *      prints the stock disassembly of a binary.
 *
 * Exit status: 0 ok, 2 usage, 3 GLSL compile/link failure, 4 I/O error.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/nir/nir.h"
#include "compiler/nir_types.h"
#include "main/mtypes.h"
#include "compiler/glsl/gl_nir.h"
#include "compiler/glsl/gl_nir_linker.h"
#include "compiler/glsl/glsl_to_nir.h"
#include "compiler/glsl/standalone.h"
#include "util/u_dynarray.h"

#ifdef ORACLE_MIDGARD
#include "disassemble.h"
#include "midgard_compile.h"
#define ORACLE_NAME       "stock-midgard-compiler"
#define oracle_nir_options midgard_nir_options
#else
#include "bifrost_compile.h"
#include "disassemble.h"
#include "valhall/disassemble.h"
#define ORACLE_NAME       "stock-bifrost-compiler"
#define oracle_nir_options bifrost_nir_options
#endif

#include "oracle_glsl_ir.h"

#define MAX_GPUS 4

static int
usage(void)
{
   fprintf(stderr,
           "usage: " ORACLE_NAME " compile --out=DIR --gpu=ID[,ID] "
           "FILES...\n"
           "       " ORACLE_NAME " disasm --gpu=ID FILE\n");
   return 2;
}

static int
slot_count(const struct glsl_type *type, bool bindless)
{
   return glsl_count_attribute_slots(type, false);
}

static int
dword_count(const struct glsl_type *type, bool bindless)
{
   return glsl_count_dword_slots(type, bindless);
}

static const char *
stage_tag(gl_shader_stage stage)
{
   switch (stage) {
   case MESA_SHADER_VERTEX:
      return "vs";
   case MESA_SHADER_FRAGMENT:
      return "fs";
   case MESA_SHADER_COMPUTE:
      return "cs";
   default:
      return "xx";
   }
}

/*
 * The GLSL version from a #version directive (110 without one).  The
 * standalone compiler takes one version for the whole program.
 */
static int
glsl_version_of(const char *path)
{
   FILE *fp = fopen(path, "r");
   char line[512];
   int version = 110;

   if (!fp)
      return -1;
   while (fgets(line, sizeof(line), fp)) {
      const char *p = line;
      while (*p == ' ' || *p == '\t')
         p++;
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

/* What a GL state tracker does before linking: no copies, no globals. */
static void
preprocess_nir(nir_shader *nir)
{
   NIR_PASS_V(nir, nir_lower_io_to_temporaries,
              nir_shader_get_entrypoint(nir), true,
              nir->info.stage != MESA_SHADER_FRAGMENT);
   NIR_PASS_V(nir, nir_lower_global_vars_to_local);
   NIR_PASS_V(nir, nir_split_var_copies);
   NIR_PASS_V(nir, nir_lower_var_copies);
}

static void
lower_to_nir(struct gl_shader_program *prog, nir_shader *nir)
{
   gl_shader_stage stage = nir->info.stage;

   /* Varyings get driver locations in slot order, as a GL state tracker
    * assigns them; gl_FragColor is broadcast to the colour buffers. */
   if (stage == MESA_SHADER_VERTEX) {
      nir_assign_var_locations(nir, nir_var_shader_in, &nir->num_inputs,
                               slot_count);
      nir_assign_io_var_locations(nir, nir_var_shader_out,
                                  &nir->num_outputs, stage);
   } else if (stage == MESA_SHADER_FRAGMENT) {
      NIR_PASS_V(nir, nir_lower_fragcolor, 8);
      nir_assign_io_var_locations(nir, nir_var_shader_in, &nir->num_inputs,
                                  stage);
      nir_assign_var_locations(nir, nir_var_shader_out, &nir->num_outputs,
                               slot_count);
   }
   nir_assign_var_locations(nir, nir_var_uniform, &nir->num_uniforms,
                            slot_count);

   NIR_PASS_V(nir, nir_opt_copy_prop_vars);
   NIR_PASS_V(nir, nir_opt_combine_stores, nir_var_all);
   NIR_PASS_V(nir, nir_lower_system_values);
   NIR_PASS_V(nir, gl_nir_lower_samplers, prog);
   NIR_PASS_V(nir, nir_lower_io, nir_var_uniform, dword_count,
              (nir_lower_io_options)0);
   NIR_PASS_V(nir, nir_lower_uniforms_to_ubo, true, false);
   NIR_PASS_V(nir, gl_nir_lower_images, true);
   NIR_PASS_V(nir, gl_nir_lower_buffers, prog);
   NIR_PASS_V(nir, nir_opt_constant_folding);
}

static int
write_file(const char *path, const void *data, size_t size)
{
   FILE *fp = fopen(path, "wb");
   if (!fp || fwrite(data, 1, size, fp) != size) {
      fprintf(stderr, "cannot write %s\n", path);
      if (fp)
         fclose(fp);
      return 4;
   }
   fclose(fp);
   return 0;
}

static int
compile(const char *out, const unsigned *gpus, unsigned nr_gpus,
        unsigned nr_files, char **files)
{
   static struct gl_context ctx;
   struct standalone_options opts = {
      .glsl_version = 0,
      .do_link = true,
      .lower_precision = true,
   };

   for (unsigned i = 0; i < nr_files; i++) {
      int v = glsl_version_of(files[i]);
      if (v < 0) {
         fprintf(stderr, "cannot read %s\n", files[i]);
         return 4;
      }
      opts.glsl_version = MAX2(opts.glsl_version, v);
   }

   /* The standalone front end gives GLSL 1.10/1.20 contexts a single draw
    * buffer, less than any GL 2 driver: use 1.30's limits for them (the
    * shaders are still parsed as the version they declare). */
   if (opts.glsl_version == 110 || opts.glsl_version == 120)
      opts.glsl_version = 130;

   struct gl_shader_program *prog =
      standalone_compile_shader(&opts, nr_files, files, &ctx);
   if (!prog || prog->data->LinkStatus != LINKING_SUCCESS) {
      fprintf(stderr, "GLSL front end failed\n");
      return 3;
   }
   oracle_lower_glsl_ir(prog);

   /* The standalone linker leaves varying locations and uniform storage
    * to the NIR linker; the back end and sampler lowering need both.  The standalone program object
    * never initialised the list it keeps unused locations in. */
   exec_list_make_empty(&prog->EmptyUniformLocations);
   for (unsigned s = 0; s < MESA_SHADER_STAGES; s++) {
      struct gl_linked_shader *sh = prog->_LinkedShaders[s];
      if (!sh)
         continue;
      sh->Program->info.stage = s;
      sh->Program->nir =
         glsl_to_nir(&ctx.Const, prog, s, &oracle_nir_options);
      preprocess_nir(sh->Program->nir);
   }
   if (!gl_nir_link_varyings(&ctx.Const, &ctx.Extensions, ctx.API, prog) ||
       !gl_nir_link_uniforms(&ctx.Const, prog, false)) {
      fprintf(stderr, "GLSL front end failed: NIR linking\n");
      return 3;
   }

   int ret = 0;
   for (unsigned s = 0; s < MESA_SHADER_STAGES && !ret; s++) {
      if (!prog->_LinkedShaders[s])
         continue;
      nir_shader *nir = prog->_LinkedShaders[s]->Program->nir;
      lower_to_nir(prog, nir);

      for (unsigned g = 0; g < nr_gpus && !ret; g++) {
         struct panfrost_compile_inputs inputs = {
            .gpu_id = gpus[g],
            .fixed_sysval_ubo = -1,
         };
         struct pan_shader_info info = {0};
         struct util_dynarray binary;
         char path[4096];

         util_dynarray_init(&binary, NULL);
#ifdef ORACLE_MIDGARD
         midgard_compile_shader_nir(nir_shader_clone(NULL, nir), &inputs,
                                    &binary, &info);
#else
         bifrost_compile_shader_nir(nir_shader_clone(NULL, nir), &inputs,
                                    &binary, &info);
#endif
         snprintf(path, sizeof(path), "%s/%s-%04x.bin", out,
                  stage_tag(s), gpus[g]);
         ret = write_file(path, binary.data, binary.size);
         util_dynarray_fini(&binary);
      }
   }
   standalone_compiler_cleanup(prog);
   return ret;
}

static int
disasm(unsigned gpu, const char *path)
{
   FILE *fp = fopen(path, "rb");
   if (!fp) {
      fprintf(stderr, "cannot open %s\n", path);
      return 4;
   }
   fseek(fp, 0, SEEK_END);
   long size = ftell(fp);
   rewind(fp);

   /* Room for a terminating zero word: both disassemblers stop there. */
   uint64_t *code = calloc((size_t)size / 8 + 2, 8);
   if (!code || fread(code, 1, (size_t)size, fp) != (size_t)size) {
      fclose(fp);
      free(code);
      fprintf(stderr, "cannot read %s\n", path);
      return 4;
   }
   fclose(fp);

#ifdef ORACLE_MIDGARD
   disassemble_midgard(stdout, (uint8_t *)code, (size_t)size & ~15ul, gpu,
                       false);
#else
   if ((gpu >> 12) >= 9)
      disassemble_valhall(stdout, code, (unsigned)size & ~7u, false);
   else
      disassemble_bifrost(stdout, (uint8_t *)code, (size_t)size & ~15ul,
                          false);
#endif
   free(code);
   return 0;
}

static unsigned
parse_gpus(const char *list, unsigned *gpus)
{
   unsigned n = 0;
   char *end;

   while (*list && n < MAX_GPUS) {
      gpus[n++] = (unsigned)strtoul(list, &end, 0);
      if (end == list)
         return 0;
      list = *end == ',' ? end + 1 : end;
   }
   return *list ? 0 : n;
}

int
main(int argc, char **argv)
{
   const char *out = ".";
   unsigned gpus[MAX_GPUS], nr_gpus = 0;
   int i = 2;

   if (argc < 3)
      return usage();
   for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
      if (!strncmp(argv[i], "--out=", 6))
         out = argv[i] + 6;
      else if (!strncmp(argv[i], "--gpu=", 6))
         nr_gpus = parse_gpus(argv[i] + 6, gpus);
      else
         return usage();
   }
   if (!nr_gpus || i >= argc)
      return usage();

   if (!strcmp(argv[1], "compile"))
      return compile(out, gpus, nr_gpus, (unsigned)(argc - i), argv + i);
   if (!strcmp(argv[1], "disasm") && i + 1 == argc)
      return disasm(gpus[0], argv[i]);
   return usage();
}
