/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Valhall (Mali v9) assembler and disassembler.  The syntax is described in
 * docs/drivers/panfrost/assembly.rst.  Every 64-bit word disassembles to
 * text that assembles back to the same word, unknown encodings included
 * (as ".word" lines).
 */

#ifndef PAN_ISA_VA_H
#define PAN_ISA_VA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pan_isa_text.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pan_va_decoded {
   const char *name; /* mnemonic, NULL for an unknown encoding */
   const char *unit; /* execution unit from the description */
   uint64_t word;
   /* Bits the description gives no meaning to that differ from their
    * conventional value; printed as the extra: operand. */
   uint64_t extra;
};

/* Identify an instruction word.  Returns false for unknown encodings. */
bool pan_va_decode(uint64_t word, struct pan_va_decoded *out);

/*
 * Print one word in our syntax into buf.  Returns the length of the full
 * text (which may exceed size - 1 if truncated).
 */
size_t pan_va_print(uint64_t word, char *buf, size_t size);

/*
 * Assemble one line of text.  Returns 1 when a word was produced, 0 for a
 * blank or comment line, -1 on error (message in err).
 */
int pan_va_assemble_line(const char *line, uint64_t *word, char *err,
                         size_t err_size);

/*
 * Disassemble a buffer of instructions, one per line, into fp.  A size
 * that is not a whole number of words is an error (-1, message in err);
 * nothing is printed in that case.
 */
int pan_va_disassemble(const void *data, size_t size_B, FILE *fp,
                       bool offsets, char *err, size_t err_size);

/*
 * Check a program the way pan_va_disassemble reads it: each word whose
 * encoding is unknown, or that sets bits outside every field (what prints
 * as .word or extra:), is passed to invalid.  All-zero words are padding,
 * not errors.  Returns how many were reported, a partial word included.
 */
unsigned pan_va_validate(const void *data, size_t size_B,
                         pan_isa_invalid_fn invalid, void *user);

/*
 * Assemble a program (newline-separated lines) and append the words to
 * out.  Returns 0, or -1 with "line N: message" in err.
 */
int pan_va_assemble(const char *text, size_t len, struct pan_isa_bytes *out,
                    char *err, size_t err_size);

/* Number of instructions in the description, and the name of each. */
unsigned pan_va_op_count(void);
const char *pan_va_op_name(unsigned index);

#ifdef __cplusplus
}
#endif

#endif
