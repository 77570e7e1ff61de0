/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Our NIR -> Midgard (Mali T720 v4, T860 v5) compiler.  See
 * docs/drivers/panfrost/compiler-midgard.rst.
 */

#ifndef MID_COMPILE_H
#define MID_COMPILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compiler/nir/nir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* NIR options the shaders given to mid_compile should be built with. */
extern const nir_shader_compiler_options mid_nir_options;

#define MID_MAX_PUSH 16 /* uniform vec4s preloaded into r23 down to r8 */
#define MID_MAX_RTS  8  /* render targets a fragment shader writes out */

/* Vec4s of the system-value UBO (struct mid_binary::sysval_ubo). */
#define MID_SYSVAL_VIEWPORT_SCALE  0
#define MID_SYSVAL_VIEWPORT_OFFSET 1
#define MID_SYSVAL_DRAW            2
#define MID_SYSVAL_TEX_SIZE        3

/* Attributes the vertex shader reads its IDs from (special attribute
 * buffers the driver sets up): the vertex ID from zero, the instance ID. */
#define MID_ATTR_VERTEX_ID   16
#define MID_ATTR_INSTANCE_ID 17

struct mid_binary {
   uint8_t *code; /* bundles then a zero quadword; ralloc'd on mem_ctx */
   unsigned size_B;
   unsigned nr_instrs;  /* ALU, load/store and branch words */
   unsigned nr_bundles; /* not counting the trailing zero quadword */
   unsigned work_regs;  /* r0..work_regs-1 hold values */
   unsigned threads;    /* 4, 2 or 1 by work_regs */
   unsigned loops;
   /* Uniform vec4 i (preloaded into r(23-i)) is bytes 16*push[i] .. +16
    * of UBO push_ubo[i]. */
   unsigned push[MID_MAX_PUSH];
   unsigned push_ubo[MID_MAX_PUSH];
   unsigned nr_push;
   /* The system-value UBO (nir->info.num_ubos, past the shader's own),
    * by vec4 (MID_SYSVAL_*): the viewport scale and offset (vertex
    * shaders), the first vertex in x of MID_SYSVAL_DRAW (integer, added
    * to the vertex ID attribute), and from MID_SYSVAL_TEX_SIZE + i the
    * size of texture i at LOD 0 (integers: width, height, depth or
    * layers). */
   unsigned sysval_ubo;
   unsigned nr_tex; /* texture instructions */
   bool writes_depth; /* fragment: gl_FragDepth goes out with the colour */
   unsigned rts_written; /* fragment: render targets written out, by bit */
   unsigned nr_schedules; /* schedules the compiler tried (levels run) */
   /* Of those, stopped before allocation: provably no better than the
    * best schedule found before them (mid_compile.c, cutoff). */
   unsigned nr_cut;
};

/*
 * Compile a NIR shader (gpu_id 0x720 or 0x860).  False with a message
 * naming the construct we do not support; never aborts on input.
 */
bool mid_compile(nir_shader *nir, unsigned gpu_id, void *mem_ctx,
                 struct mid_binary *out, FILE *print_ir, char *err,
                 size_t err_size);

/*
 * Reports (mid_report.c).  MIDGARD_MESA_DEBUG, as users of the stock
 * compiler know it: "shaders" prints the NIR and our IR, "shaderdb" one
 * line of statistics per shader; "disasm" (ours alone) the binary's
 * disassembly, which tests/oracle_driver/mid_op_histogram.py counts.
 */
#define MID_DEBUG_SHADERS  (1u << 0)
#define MID_DEBUG_SHADERDB (1u << 1)
#define MID_DEBUG_DISASM   (1u << 2)

unsigned mid_compiler_debug(void);

/* The shader-db line the stock compiler prints after "SHADER-DB: " (its
 * keys: inst, bundles, quadwords, registers, threads, loops,
 * spills:fills).  Returns what snprintf returns. */
int mid_shaderdb_line(const struct mid_binary *bin, const char *stage,
                      char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
