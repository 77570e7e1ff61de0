/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Static statistics of a raw Bifrost (v6/v7) or Valhall (v9) shader
 * binary, decoded with the ISA library's clause unpacker and instruction
 * tables, so that any compiler's output is measured by one cycle model
 * (docs/drivers/panfrost/compiler.rst, "One ruler: pan-shader-stats").
 */

#ifndef PAN_SHADER_STATS_H
#define PAN_SHADER_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct pan_shader_stats {
   unsigned arch;            /* 6, 7 or 9 */
   unsigned instrs;          /* v6/v7: FMA/ADD words not NOP; v9: words */
   unsigned tuples, clauses; /* v6/v7 */
   unsigned quads; /* 16-byte quadwords, trailing zero padding excluded */
   /* Highest register written + 1 (0: none).  Reads alone do not count:
    * a register read before any write is one the hardware preloads. */
   unsigned max_reg;
   unsigned loops;         /* backward branches */
   unsigned spills, fills; /* stores / loads of thread-local storage */
   /* v6/v7: clauses by message class; arithmetic tuples (no message). */
   unsigned arith_tuples, tex, vary, ldst;
   /* 16-bit halves varying messages interpolate (a 32-bit component is
    * two), which the stock report's varying cycles count. */
   unsigned vary_halves;
   /* v9: instructions per unit of the ISA description (VT counts twice). */
   unsigned fma, cvt, sfu, v, t, ls;
};

/*
 * Fill st from size_B bytes of code.  Returns false with a message in
 * err for input that is not a program of that architecture (a size that
 * is not whole words or quadwords, a quadword that starts no clause, an
 * unknown instruction word).
 */
bool pan_shader_stats(unsigned arch, const void *data, size_t size_B,
                      struct pan_shader_stats *st, char *err, size_t err_size);

/* Print st as one shader-db line of the stock report's shape. */
void pan_shader_stats_print(FILE *fp, const char *stage,
                            const struct pan_shader_stats *st);

#endif
