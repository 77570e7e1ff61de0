/* Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Stand-in for the stock Valhall disassembler (see
 * ../../midgard/disassemble.h). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
static inline void
disassemble_valhall(FILE *fp, const uint64_t *code, unsigned size,
                    bool verbose)
{
   (void)fp; (void)code; (void)size; (void)verbose;
}
