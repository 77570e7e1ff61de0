/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * What the compiler tells its users about a binary: the shader-db line
 * in the stock compilers' format (so one script reads both compilers'
 * output) and the BIFROST_MESA_DEBUG flags that ask for it.  Shared by
 * the driver and the command-line tools, so that they print the same
 * figures for the same binary.
 */

#include <stdio.h>
#include <string.h>

#include "isa/pan_isa_va.h"
#include "util/u_debug.h"
#include "util/macros.h"
#include "pan_compile.h"

static const struct debug_named_value pan_compiler_debug_flags[] = {
   { "shaders", PAN_COMPILER_DEBUG_SHADERS,
     "Print the NIR, the IR after each pass and the disassembly" },
   { "shaderdb", PAN_COMPILER_DEBUG_SHADERDB,
     "Print one SHADER-DB line of statistics per compiled shader" },
   DEBUG_NAMED_VALUE_END,
};

DEBUG_GET_ONCE_FLAGS_OPTION(pan_compiler_debug_env, "BIFROST_MESA_DEBUG",
                            pan_compiler_debug_flags, 0)

unsigned
pan_compiler_debug(void)
{
   return (unsigned)debug_get_option_pan_compiler_debug_env();
}

const char *
pan_shaderdb_stage_name(gl_shader_stage stage, enum pan_va_variant variant)
{
   /* The stock report names the IDVS halves of a vertex shader. */
   if (variant == PAN_VA_VARIANT_POSITION)
      return "MESA_SHADER_POSITION";
   if (variant == PAN_VA_VARIANT_VARYING)
      return "MESA_SHADER_VARYING";
   return gl_shader_stage_name(stage);
}

void
pan_va_unit_counts(const struct pan_va_binary *bin,
                   struct pan_va_unit_counts *u)
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

int
pan_va_shaderdb_line(const struct pan_va_binary *bin, const char *stage,
                     char *buf, size_t size)
{
   struct pan_va_unit_counts u;
   pan_va_unit_counts(bin, &u);

   /* Per core and cycle, as the stock report assumes: 64 FMA/CVT, 16 SFU,
    * 16 varying, 4 texture, 1 load/store. */
   float fma = u.fma / 64.0f, cvt = u.cvt / 64.0f, sfu = u.sfu / 16.0f;
   float v = u.v / 16.0f, t = u.t / 4.0f, ls = u.ls;
   float cycles = MAX2(MAX3(fma, cvt, sfu), MAX3(v, t, ls));

   return snprintf(buf, size,
                   "%s shader: %u inst, %f cycles, %f fma, %f cvt, "
                   "%f sfu, %f v, %f t, %f ls, %u quadwords, %u threads, "
                   "%u loops, %u:%u spills:fills",
                   stage, bin->nr_words, cycles, fma, cvt, sfu, v, t, ls,
                   bin->nr_words / 2, bin->work_regs <= 32 ? 2 : 1,
                   bin->loops, bin->spills, bin->fills);
}

int
pan_bi_shaderdb_line(const struct pan_bi_binary *bin, unsigned arch,
                     const char *stage, char *buf, size_t size)
{
   const struct pan_bi_stats *st = &bin->stats;
   /* v7 runs two threads up to 32 registers; v6 never trades them. */
   bool v7 = arch != 6;
   /* The stock report's estimate, so that the keys mean the same: 24
    * arithmetic tuples a cycle (a message tuple whose other slot is
    * busy counts too), two texture messages, 16 interpolated halves
    * (a 32-bit component is two) and one load/store message. */
   float arith = (st->tuples - st->msg_tuples + st->msg_arith_tuples) / 24.0f;
   float t = st->msg_tex / 2.0f, v = st->vary_halves / 16.0f;
   float ls = st->msg_ldst;
   float cycles = MAX2(MAX2(arith, t), MAX2(v, ls));
   char preloads[32] = "";

   if (v7)
      snprintf(preloads, sizeof(preloads), ", %u preloads", bin->preloads);

   return snprintf(buf, size,
                   "%s shader: %u inst, %u tuples, %u clauses, "
                   "%f cycles, %f arith, %f texture, %f vary, %f ldst, "
                   "%u quadwords, %u threads%s, %u loops, %u:%u spills:fills",
                   stage, st->instrs, st->tuples, st->clauses, cycles, arith,
                   t, v, ls, st->quads, v7 && bin->work_regs <= 32 ? 2 : 1,
                   preloads, bin->loops, bin->spills, bin->fills);
}
