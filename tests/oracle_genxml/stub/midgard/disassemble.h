/* Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Stand-in for the stock Midgard disassembler when the stock decoder is
 * built as a test oracle: shader binaries are not what the oracle checks,
 * so disassembly prints nothing. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
static inline void
disassemble_midgard(FILE *fp, uint8_t *code, size_t size, unsigned gpu_id,
                    bool verbose)
{
   (void)fp; (void)code; (void)size; (void)gpu_id; (void)verbose;
}
