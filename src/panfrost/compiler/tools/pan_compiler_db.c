/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * pan-compiler-db: GLSL sources of one program (*.vert, *.frag, *.comp)
 * through the base's standalone GLSL front end to NIR, then through OUR
 * compiler for G57 (v9), printing one shader-db line per compiled shader
 * in the format the stock compiler prints with BIFROST_MESA_DEBUG=shaderdb:
 *
 *   SHADER-DB: MESA_SHADER_FRAGMENT shader: 12 inst, ... spills:fills
 *
 * A vertex shader is compiled twice, as the two IDVS variants the v9
 * driver runs (MESA_SHADER_POSITION, MESA_SHADER_VARYING).  A shader our
 * compiler refuses prints "PAN-DB-REFUSED: <stage>: <reason>" instead.
 * The figures are from our own binary: the instruction count, the
 * per-unit counts from the ISA description's unit of each instruction
 * (cycles use the throughputs the stock report assumes per core and
 * cycle: 64 FMA/CVT, 16 SFU, 16 varying, 4 texture, 1 load/store), the
 * size in 16-byte quadwords, threads from the registers used (two
 * threads up to r31), the loops and the spill stores and fills.
 *
 * With --print=1 the IR after each pass and the disassembly go to
 * stderr; --print=2 prints the NIR handed to the compiler first.
 *
 * Exit status: 0 all compiled, 1 something refused, 2 usage, 3 GLSL
 * front end failure, 4 I/O error.  See docs/drivers/panfrost/compiler.rst.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* nir.h first: the GLSL headers use its types. */
#include "compiler/nir/nir.h"
#include "compiler/nir_types.h"
#include "main/mtypes.h"
#include "compiler/glsl/gl_nir.h"
#include "compiler/glsl/gl_nir_linker.h"
#include "compiler/glsl/glsl_to_nir.h"
#include "compiler/glsl/standalone.h"

#include "isa/pan_isa_va.h"
#include "pan_compile.h"
#include "../../../../tests/oracle/oracle_glsl_ir.h"

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

/* What a GL state tracker hands a driver: I/O and uniforms with driver
 * locations in slot order, default uniforms in UBO 0, samplers lowered. */
static void
to_driver_nir(struct gl_shader_program *prog, nir_shader *nir)
{
   gl_shader_stage stage = nir->info.stage;

   if (stage == MESA_SHADER_VERTEX) {
      nir_assign_var_locations(nir, nir_var_shader_in, &nir->num_inputs,
                               slot_count);
      nir_assign_io_var_locations(nir, nir_var_shader_out, &nir->num_outputs,
                                  stage);
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

struct unit_counts {
   unsigned fma, cvt, sfu, v, t, ls;
};

static void
count_units(const struct pan_va_binary *bin, struct unit_counts *u)
{
   memset(u, 0, sizeof(*u));
   for (unsigned i = 0; i < bin->nr_words; ++i) {
      struct pan_va_decoded d;
      if (!pan_va_decode(bin->words[i], &d) || !d.unit)
         continue;
      if (!strcmp(d.unit, "FMA"))
         u->fma++;
      else if (!strcmp(d.unit, "CVT"))
         u->cvt++;
      else if (!strcmp(d.unit, "SFU"))
         u->sfu++;
      else if (!strcmp(d.unit, "V"))
         u->v++;
      else if (!strcmp(d.unit, "T"))
         u->t++;
      else if (!strcmp(d.unit, "LS"))
         u->ls++;
      else if (!strcmp(d.unit, "VT"))
         u->v++, u->t++;
   }
}

static void
report(const char *stage, const struct pan_va_binary *bin)
{
   struct unit_counts u;
   count_units(bin, &u);
   float fma = u.fma / 64.0f, cvt = u.cvt / 64.0f, sfu = u.sfu / 16.0f;
   float v = u.v / 16.0f, t = u.t / 4.0f, ls = u.ls;
   float cycles = MAX2(MAX3(fma, cvt, sfu), MAX3(v, t, ls));
   printf("SHADER-DB: %s shader: %u inst, %f cycles, %f fma, %f cvt, "
          "%f sfu, %f v, %f t, %f ls, %u quadwords, %u threads, "
          "%u loops, %u:%u spills:fills\n",
          stage, bin->nr_words, cycles, fma, cvt, sfu, v, t, ls,
          bin->nr_words / 2, bin->work_regs <= 32 ? 2 : 1, bin->loops,
          bin->spills, bin->fills);
}

/* One compile of a clone; returns false (after printing why) on refusal. */
/* --print=N: 1 prints the IR after each pass and the disassembly, 2 the
 * NIR handed to the compiler as well. */
static int print_level;

static bool
compile_variant(nir_shader *nir, const char *stage, enum pan_va_variant variant)
{
   struct pan_va_compile_options opts = { .variant = variant };
   struct pan_va_binary bin;
   char err[256];
   void *mem = ralloc_context(NULL);
   nir_shader *clone = nir_shader_clone(mem, nir);
   FILE *print_ir = print_level ? stderr : NULL;
   if (print_level > 1)
      nir_print_shader(clone, stderr);
   bool ok =
      pan_va_compile_opts(clone, mem, &opts, &bin, print_ir, err, sizeof(err));

   if (ok)
      report(stage, &bin);
   else
      printf("PAN-DB-REFUSED: %s: %s\n", stage, err);
   ralloc_free(mem);
   return ok;
}

static int
compile(unsigned nr_files, char **files)
{
   static struct gl_context ctx;
   struct standalone_options opts = {
      .do_link = true,
      .lower_precision = true,
   };

   for (unsigned i = 0; i < nr_files; i++) {
      int v = version_of(files[i]);
      if (v < 0) {
         fprintf(stderr, "cannot read %s\n", files[i]);
         return 4;
      }
      opts.glsl_version = MAX2(opts.glsl_version, (unsigned)v);
   }
   /* GLSL 1.10/1.20 get 1.30's limits (one draw buffer is too few). */
   if (opts.glsl_version == 110 || opts.glsl_version == 120)
      opts.glsl_version = 130;

   struct gl_shader_program *prog =
      standalone_compile_shader(&opts, nr_files, files, &ctx);
   if (!prog || prog->data->LinkStatus != LINKING_SUCCESS) {
      fprintf(stderr, "GLSL front end failed\n");
      return 3;
   }
   oracle_lower_glsl_ir(prog);
   exec_list_make_empty(&prog->EmptyUniformLocations);
   for (unsigned s = 0; s < MESA_SHADER_STAGES; s++) {
      struct gl_linked_shader *sh = prog->_LinkedShaders[s];
      if (!sh)
         continue;
      sh->Program->info.stage = s;
      nir_shader *nir = glsl_to_nir(&ctx.Const, prog, s, &pan_va_nir_options);
      sh->Program->nir = nir;
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
      return 3;
   }

   bool all = true;
   for (unsigned s = 0; s < MESA_SHADER_STAGES; s++) {
      if (!prog->_LinkedShaders[s])
         continue;
      nir_shader *nir = prog->_LinkedShaders[s]->Program->nir;
      to_driver_nir(prog, nir);
      if (s == MESA_SHADER_VERTEX) {
         all &= compile_variant(nir, "MESA_SHADER_POSITION",
                                PAN_VA_VARIANT_POSITION);
         all &=
            compile_variant(nir, "MESA_SHADER_VARYING", PAN_VA_VARIANT_VARYING);
      } else {
         all &= compile_variant(nir, gl_shader_stage_name(s),
                                PAN_VA_VARIANT_DEFAULT);
      }
   }
   standalone_compiler_cleanup(prog);
   return all ? 0 : 1;
}

int
main(int argc, char **argv)
{
   int first = 1;
   if (argc > 1 && !strncmp(argv[1], "--print=", 8)) {
      char *end;
      long level = strtol(argv[1] + 8, &end, 10);
      if (*end || level < 0 || level > 2) {
         fprintf(stderr, "pan-compiler-db: --print takes 0, 1 or 2\n");
         return 2;
      }
      print_level = (int)level;
      first = 2;
   }
   if (argc <= first || !strncmp(argv[first], "-", 1)) {
      fprintf(stderr, "usage: pan-compiler-db [--print=0|1|2] "
                      "FILE.vert|.frag|.comp...\n");
      return 2;
   }
   return compile((unsigned)(argc - first), argv + first);
}
