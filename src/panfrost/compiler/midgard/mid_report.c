/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * What the Midgard compiler tells its users about a binary: the shader-db
 * line in the stock compiler's format and the MIDGARD_MESA_DEBUG flags
 * that ask for it, shared by the driver and pan-mid-compiler-db so that
 * both print the same figures for the same binary.
 */

#include <stdio.h>

#include "util/u_debug.h"
#include "mid_compile.h"

static const struct debug_named_value mid_debug_flags[] = {
   { "shaders", MID_DEBUG_SHADERS,
     "Print the NIR, the IR before scheduling and after allocation" },
   { "shaderdb", MID_DEBUG_SHADERDB,
     "Print one SHADER-DB line of statistics per compiled shader" },
   { "disasm", MID_DEBUG_DISASM,
     "Print the disassembly of each compiled shader (the kept schedule)" },
   DEBUG_NAMED_VALUE_END,
};

DEBUG_GET_ONCE_FLAGS_OPTION(mid_debug_env, "MIDGARD_MESA_DEBUG",
                            mid_debug_flags, 0)

unsigned
mid_compiler_debug(void)
{
   return (unsigned)debug_get_option_mid_debug_env();
}

int
mid_shaderdb_line(const struct mid_binary *bin, const char *stage, char *buf,
                  size_t size)
{
   /* Quadwords: the code without its trailing zero quadword.  Midgard
    * never spills here (the compiler refuses instead): 0:0. */
   return snprintf(buf, size,
                   "%s shader: %u inst, %u bundles, %u quadwords, "
                   "%u registers, %u threads, %u loops, 0:0 spills:fills",
                   stage, bin->nr_instrs, bin->nr_bundles,
                   bin->size_B / 16 - 1, bin->work_regs, bin->threads,
                   bin->loops);
}
