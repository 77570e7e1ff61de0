/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * pan-compiler-db: GLSL sources of one program (*.vert, *.frag, *.comp)
 * through the base's standalone GLSL front end to NIR (pan_glsl_front.c),
 * then through OUR compiler for G57 (v9), printing one shader-db line per
 * compiled shader in the format the stock compiler prints with
 * BIFROST_MESA_DEBUG=shaderdb:
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
 * --gpu=G52 compiles for Bifrost v7 instead (pan_bi_compile), printing
 * the keys the stock compiler prints for v7: instructions (FMA/ADD slots
 * that are not NOPs), tuples, clauses, quadwords, threads, preloads,
 * loops, spills:fills, and cycle estimates (arithmetic tuples / 24 per
 * cycle, one message per cycle for each of texture, varying and
 * load/store; see docs/drivers/panfrost/compiler.rst).  --gpu=G72 does
 * the same for Bifrost v6, with the keys stock prints there: one thread
 * always (v6 does not trade registers for threads) and no preloads.
 *
 * --out=DIR (G57, G52 or G72) also writes each program to DIR/<tag>.bin and its
 * push table to DIR/<tag>.push ("push I SOURCE UBO OFFSET_B" per uniform
 * word, SOURCE an enum pan_va_push_source; on G52 also "message I VARYING
 * 0 COMPS TEXTURE 0 ZERO_LOD TEXTURE_INDEX" per message preload, as
 * bi-diff-run reads them), tag fs, cs, vs (the position variant) or vv
 * (the varying variant); see tests/oracle/va_diff_exec.py.
 *
 * Exit status: 0 all compiled, 1 something refused, 2 usage, 3 GLSL
 * front end failure, 4 I/O error.  See docs/drivers/panfrost/compiler.rst.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pan_glsl_front.h"
#include "pan_compile.h"

/* One line in the stock compiler's format (pan_compile_report.c). */
static void
report(const char *stage, const struct pan_va_binary *bin)
{
   char line[512];
   pan_va_shaderdb_line(bin, stage, line, sizeof(line));
   printf("SHADER-DB: %s\n", line);
}

/* One compile of a clone; returns false (after printing why) on refusal. */
/* --print=N: 1 prints the IR after each pass and the disassembly, 2 the
 * NIR handed to the compiler as well. */
static int print_level;
/* --gpu=G52 / G72: the Bifrost back end, its version (0: Valhall). */
static unsigned bifrost;
/* --out=DIR: where binaries go (NULL: nowhere). */
static const char *out_dir;

static bool
write_binary(const char *stage, const uint64_t *words, unsigned nr_words,
             const struct pan_va_push_word *push, unsigned nr_push,
             const struct pan_bi_message_preload *msgs, unsigned work_regs)
{
   static const struct {
      const char *stage, *tag;
   } tags[] = { { "MESA_SHADER_FRAGMENT", "fs" },
                { "MESA_SHADER_COMPUTE", "cs" },
                { "MESA_SHADER_POSITION", "vs" },
                { "MESA_SHADER_VARYING", "vv" } };
   const char *tag = NULL;
   for (unsigned i = 0; i < ARRAY_SIZE(tags); i++)
      tag = !strcmp(stage, tags[i].stage) ? tags[i].tag : tag;
   if (!tag)
      return true;
   char path[4096];
   snprintf(path, sizeof(path), "%s/%s.bin", out_dir, tag);
   FILE *fp = fopen(path, "wb");
   bool ok = fp && fwrite(words, 8, nr_words, fp) == nr_words;
   if (fp)
      ok = !fclose(fp) && ok;
   snprintf(path, sizeof(path), "%s/%s.push", out_dir, tag);
   fp = ok ? fopen(path, "w") : NULL;
   for (unsigned i = 0; fp && i < nr_push; i++)
      fprintf(fp, "push %u %u %u %u\n", i, push[i].source, push[i].ubo,
              push[i].offset_B);
   /* bi-diff-run's message preload lines (f32 only), which read varyings
    * by slot: the runner has no record tables. */
   /* The register file the driver declares from it (32: the half file). */
   if (fp)
      fprintf(fp, "work_regs %u\n", work_regs);
   for (unsigned k = 0; fp && msgs && k < 2; k++) {
      if (msgs[k].comps)
         fprintf(fp, "message %u %u 0 %u %u 0 %u %u\n", k, msgs[k].slot,
                 msgs[k].comps, msgs[k].texture, msgs[k].zero_lod,
                 msgs[k].texture_index);
   }
   ok = fp && !fclose(fp);
   if (!ok)
      fprintf(stderr, "pan-compiler-db: cannot write %s\n", path);
   return ok;
}

static void
report_bi(const char *stage, const struct pan_bi_binary *bin)
{
   char line[512];
   pan_bi_shaderdb_line(bin, bifrost, stage, line, sizeof(line));
   printf("SHADER-DB: %s\n", line);
}

static bool
compile_bi(nir_shader *clone, const char *stage, enum pan_va_variant variant,
           void *mem, FILE *print_ir)
{
   struct pan_bi_compile_options opts = { .arch = bifrost, .variant = variant };
   struct pan_bi_binary bin;
   char err[256];
   bool ok = pan_bi_compile(clone, mem, &opts, &bin, print_ir, err,
                            sizeof(err));
   if (ok)
      report_bi(stage, &bin);
   if (ok && out_dir &&
       !write_binary(stage, bin.words, bin.nr_words, bin.push, bin.nr_push,
                     bin.messages, bin.work_regs))
      exit(4);
   if (!ok)
      printf("PAN-DB-REFUSED: %s: %s\n", stage, err);
   return ok;
}

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
   if (bifrost) {
      bool ok = compile_bi(clone, stage, variant, mem, print_ir);
      ralloc_free(mem);
      return ok;
   }
   bool ok =
      pan_va_compile_opts(clone, mem, &opts, &bin, print_ir, err, sizeof(err));

   if (ok)
      report(stage, &bin);
   if (ok && out_dir &&
       !write_binary(stage, bin.words, bin.nr_words, bin.push, bin.nr_push,
                     NULL, bin.work_regs))
      exit(4);
   if (!ok)
      printf("PAN-DB-REFUSED: %s: %s\n", stage, err);
   ralloc_free(mem);
   return ok;
}

/* Each stage as the driver gets it, a vertex shader as both IDVS
 * variants. */
static bool
compile_stage(struct gl_shader_program *prog, nir_shader *nir, void *data)
{
   gl_shader_stage s = nir->info.stage;
   pan_glsl_to_driver_nir(prog, nir);
   if (s != MESA_SHADER_VERTEX)
      return compile_variant(nir,
                             pan_shaderdb_stage_name(s, PAN_VA_VARIANT_DEFAULT),
                             PAN_VA_VARIANT_DEFAULT);
   bool ok = compile_variant(
      nir, pan_shaderdb_stage_name(s, PAN_VA_VARIANT_POSITION),
      PAN_VA_VARIANT_POSITION);
   return compile_variant(nir,
                          pan_shaderdb_stage_name(s, PAN_VA_VARIANT_VARYING),
                          PAN_VA_VARIANT_VARYING) &&
          ok;
}

int
main(int argc, char **argv)
{
   int first = 1;
   if (argc > first && !strcmp(argv[first], "--gpu=G52")) {
      bifrost = 7;
      first++;
   } else if (argc > first && !strcmp(argv[first], "--gpu=G72")) {
      bifrost = 6;
      first++;
   }
   if (argc > first && !strncmp(argv[first], "--print=", 8)) {
      char *end;
      long level = strtol(argv[first] + 8, &end, 10);
      if (*end || level < 0 || level > 2) {
         fprintf(stderr, "pan-compiler-db: --print takes 0, 1 or 2\n");
         return 2;
      }
      print_level = (int)level;
      first++;
   }
   if (argc > first && !strncmp(argv[first], "--out=", 6))
      out_dir = argv[first++] + 6;
   if (argc <= first || !strncmp(argv[first], "-", 1)) {
      fprintf(stderr, "usage: pan-compiler-db [--gpu=G52|G72] [--print=0|1|2] "
                      "[--out=DIR] "
                      "FILE.vert|.frag|.comp...\n");
      return 2;
   }
   const struct pan_glsl_front_options opts = {
      .nir_options = &pan_va_nir_options,
      .lower_precision = true,
   };
   return pan_glsl_front_run(&opts, (unsigned)(argc - first), argv + first,
                             compile_stage, NULL);
}
