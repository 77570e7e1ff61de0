/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Bifrost (Mali v6/v7) assembler and disassembler.  Programs are printed
 * clause by clause in the syntax of docs/drivers/panfrost/assembly.rst;
 * bytes that do not form a clause our packer would produce are printed as
 * .quad lines, so every input disassembles to text that assembles back to
 * the same bytes.
 */

#ifndef PAN_ISA_BI_H
#define PAN_ISA_BI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pan_isa_text.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Print one FMA (unit 0, 23 bits) or ADD (unit 1, 20 bits) word. */
size_t pan_bi_print_instr(uint32_t word, unsigned unit, char *buf,
                          size_t size);

/* Assemble one FMA/ADD instruction; returns 0 or -1 with err set. */
int pan_bi_assemble_instr(const char *text, unsigned unit, uint32_t *word,
                          char *err, size_t err_size);

/* Name of the encoding a word decodes to, or NULL. */
const char *pan_bi_instr_name(uint32_t word, unsigned unit);

/*
 * Disassemble a program into fp.  The size must be a multiple of 16 bytes
 * (one quadword); otherwise -1 with a message in err.
 */
int pan_bi_disassemble(const void *data, size_t size_B, FILE *fp,
                       bool offsets, char *err, size_t err_size);

/*
 * Check a program the way pan_bi_disassemble reads it: a quadword that
 * starts no clause (printed as .quad), an FMA or ADD word of unknown
 * encoding (.word) or with bits outside every field (extra:), and a
 * trailing partial quadword are each passed to invalid with the byte
 * offset of their clause.  All-zero quadwords are padding, not errors.
 * Returns how many were reported.
 */
unsigned pan_bi_validate(const void *data, size_t size_B,
                         pan_isa_invalid_fn invalid, void *user);

/* Assemble a program, appending to out; -1 with "line N: ..." in err. */
int pan_bi_assemble(const char *text, size_t len, struct pan_isa_bytes *out,
                    char *err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
