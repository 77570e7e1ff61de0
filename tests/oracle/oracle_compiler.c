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
 *      program; writes DIR/<stage>-<id in hex>.bin per stage and GPU and,
 *      for Bifrost/Valhall, DIR/<stage>-<id>.info: the driver interface the
 *      binary expects (for va_diff_exec.py), one item a line:
 *         sysval_ubo N        the UBO index holding the system values
 *         sysval I TYPE ID    system value I (16 bytes at I * 16 there)
 *         push I UBO OFFSET   FAU uniform word I is that UBO's word
 *         secondary OFFSET    byte offset of the IDVS varying variant
 *         message I VARYING FP16 COMPS TEXTURE SKIP ZERO_LOD TEXTURE_INDEX
 *                             v7 fragment message preload I (into r4I..)
 *         blend RT TYPE       nir_alu_type of render target RT's colour
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
#include "util/u_dynarray.h"

#ifdef ORACLE_MIDGARD
#include "disassemble.h"
#include "midgard_compile.h"
#define ORACLE_NAME "stock-midgard-compiler"
#define oracle_nir_options midgard_nir_options
#else
#include "bifrost_compile.h"
#include "disassemble.h"
#include "valhall/disassemble.h"
#define ORACLE_NAME "stock-bifrost-compiler"
#define oracle_nir_options bifrost_nir_options
#endif

#include "pan_glsl_front.h"

#define MAX_GPUS 4

static int
usage(void)
{
   fprintf(stderr, "usage: " ORACLE_NAME " compile --out=DIR --gpu=ID[,ID] "
                   "FILES...\n"
                   "       " ORACLE_NAME " disasm --gpu=ID FILE\n");
   return 2;
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

#ifndef ORACLE_MIDGARD
/* The .info file of a stage (see the top of the file). */
static int
write_info(const char *out, gl_shader_stage s, unsigned gpu,
           unsigned sysval_ubo, const struct pan_shader_info *info)
{
   char path[4096];
   snprintf(path, sizeof(path), "%s/%s-%04x.info", out, stage_tag(s), gpu);
   FILE *fp = fopen(path, "w");
   if (!fp) {
      fprintf(stderr, "cannot write %s\n", path);
      return 4;
   }
   fprintf(fp, "sysval_ubo %u\n", sysval_ubo);
   for (unsigned i = 0; i < info->sysvals.sysval_count; i++)
      fprintf(fp, "sysval %u %u %u\n", i,
              PAN_SYSVAL_TYPE(info->sysvals.sysvals[i]),
              PAN_SYSVAL_ID(info->sysvals.sysvals[i]));
   for (unsigned i = 0; i < info->push.count; i++)
      fprintf(fp, "push %u %u %u\n", i, info->push.words[i].ubo,
              info->push.words[i].offset);
   if (s == MESA_SHADER_VERTEX && info->vs.secondary_enable)
      fprintf(fp, "secondary %u\n", info->vs.secondary_offset);
   /* The register count the binary declares (32: the half file). */
   fprintf(fp, "work_regs %u\n", info->work_reg_count);
   if (s == MESA_SHADER_VERTEX && info->vs.secondary_enable)
      fprintf(fp, "secondary_work_regs %u\n",
              info->vs.secondary_work_reg_count);
   /* Bifrost: the v7 fragment message preloads and the colour types the
    * blend descriptors convert from. */
   for (unsigned i = 0; gpu < 0x9000 && s == MESA_SHADER_FRAGMENT && i < 2;
        i++) {
      const struct bifrost_message_preload *m = &info->bifrost.messages[i];
      if (m->enabled)
         fprintf(fp, "message %u %u %u %u %u %u %u %u\n", i,
                 m->varying_index, m->fp16, m->num_components, m->texture,
                 m->skip, m->zero_lod, m->texture_index);
   }
   for (unsigned rt = 0; gpu < 0x9000 && s == MESA_SHADER_FRAGMENT && rt < 8;
        rt++) {
      if (info->bifrost.blend[rt].type)
         fprintf(fp, "blend %u %u\n", rt,
                 (unsigned)info->bifrost.blend[rt].type);
   }
   fclose(fp);
   return 0;
}
#endif

struct compile_state {
   const char *out;
   const unsigned *gpus;
   unsigned nr_gpus;
   int ret; /* the first write failure */
};

/* One linked stage (from the GLSL front our tools share): lowered as a GL
 * state tracker would, compiled by the stock back end for every GPU. */
static bool
compile_stage(struct gl_shader_program *prog, nir_shader *nir, void *data)
{
   struct compile_state *c = data;
   gl_shader_stage s = nir->info.stage;

   /* After a failed write the remaining stages are not compiled. */
   if (c->ret)
      return false;
   pan_glsl_to_driver_nir(prog, nir);

   for (unsigned g = 0; g < c->nr_gpus && !c->ret; g++) {
      struct panfrost_compile_inputs inputs = {
         .gpu_id = c->gpus[g],
         .fixed_sysval_ubo = -1,
      };
      struct pan_shader_info info = { 0 };
      struct util_dynarray binary;
      char path[4096];

      util_dynarray_init(&binary, NULL);
#ifdef ORACLE_MIDGARD
      midgard_compile_shader_nir(nir_shader_clone(NULL, nir), &inputs, &binary,
                                 &info);
#else
      bifrost_compile_shader_nir(nir_shader_clone(NULL, nir), &inputs, &binary,
                                 &info);
#endif
      snprintf(path, sizeof(path), "%s/%s-%04x.bin", c->out, stage_tag(s),
               c->gpus[g]);
      c->ret = write_file(path, binary.data, binary.size);
      util_dynarray_fini(&binary);
#ifndef ORACLE_MIDGARD
      if (!c->ret)
         c->ret = write_info(c->out, s, c->gpus[g], nir->info.num_ubos, &info);
#endif
   }
   return !c->ret;
}

static int
compile(const char *out, const unsigned *gpus, unsigned nr_gpus,
        unsigned nr_files, char **files)
{
   const struct pan_glsl_front_options opts = {
      .nir_options = &oracle_nir_options,
      .lower_precision = true,
   };
   struct compile_state c = { out, gpus, nr_gpus, 0 };

   /* The front's statuses are ours (3 GLSL failure, 4 unreadable source);
    * a stage refused is a failed write. */
   enum pan_glsl_front_status st =
      pan_glsl_front_run(&opts, nr_files, files, compile_stage, &c);
   return st == PAN_GLSL_FRONT_REFUSED ? c.ret : (int)st;
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
      disassemble_bifrost(stdout, (uint8_t *)code, (size_t)size & ~15ul, false);
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
