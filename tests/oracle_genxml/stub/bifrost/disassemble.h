/* Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Stand-in for the stock Bifrost disassembler (see midgard/disassemble.h
 * next to this file). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
static inline void
disassemble_bifrost(FILE *fp, uint8_t *code, size_t size, bool verbose)
{
   (void)fp; (void)code; (void)size; (void)verbose;
}
