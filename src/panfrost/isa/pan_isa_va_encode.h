/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Structured Valhall encoder: an instruction given as fields (operation,
 * registers, sources, immediates, modifiers) to a 64-bit word, built on
 * the same generated table as the text assembler (pan_isa_va.h), so a
 * compiler can encode without printing and parsing text.  For any
 * instruction the result equals pan_va_assemble_line of its text.
 */

#ifndef PAN_ISA_VA_ENCODE_H
#define PAN_ISA_VA_ENCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PAN_VA_MAX_OPERANDS 8
#define PAN_VA_MAX_MODS 12
#define PAN_VA_MAX_SRC_MODS 4

/* Where a source comes from (the 8-bit selector of the encoding). */
enum pan_va_src_kind {
   PAN_VA_SRC_REG,     /* r0..r63; discard marks the last use (^rN) */
   PAN_VA_SRC_UNIFORM, /* u0..u255: FAU page value / 64, word value % 64 */
   PAN_VA_SRC_LUT,     /* entry 0..31 of the hardware immediate table */
   PAN_VA_SRC_SPECIAL, /* special FAU value 0..15 of page special_page */
};

/* Destination write masks; zero (the default) writes the whole word. */
enum pan_va_write {
   PAN_VA_WRITE_ALL,
   PAN_VA_WRITE_H0,
   PAN_VA_WRITE_H1,
   PAN_VA_WRITE_NONE,
};

/*
 * One modifier: the field by its name in the description, and the value
 * by name (an enum value, e.g. "wait0") or, when value is NULL, by number
 * (the enum index; 1 sets a flag).
 */
struct pan_va_mod_value {
   const char *field;
   const char *value;
   unsigned ivalue;
};

struct pan_va_src {
   uint8_t kind; /* enum pan_va_src_kind */
   uint8_t value;
   bool discard;         /* registers */
   uint8_t word;         /* specials: 32-bit half, 0 or 1 */
   uint8_t special_page; /* specials: FAU page 0..3 */
   uint8_t nr_mods;
   struct pan_va_mod_value mods[PAN_VA_MAX_SRC_MODS];
};

/*
 * An operand, in the order of the description (the order the text
 * syntax writes them).  Which members count depends on the operand kind:
 * staging {reg, count}, destination {reg, write}, source {src},
 * immediate {imm}.
 */
struct pan_va_operand {
   uint8_t reg;
   uint8_t count;
   uint8_t write; /* enum pan_va_write */
   struct pan_va_src src;
   int64_t imm;
};

struct pan_va_instr {
   int op;           /* index into the table; < 0: look name up */
   const char *name; /* mnemonic, used when op < 0 */
   unsigned nr_operands;
   struct pan_va_operand operands[PAN_VA_MAX_OPERANDS];
   unsigned nr_mods; /* unlisted enum modifiers take their default */
   struct pan_va_mod_value mods[PAN_VA_MAX_MODS];
   int page; /* FAU page when no operand names one; < 0: none */
};

/*
 * Encode.  Returns 0 with the word, or -1 with a message in err for
 * anything the instruction does not accept (unknown names, values out of
 * range, sources from two FAU pages...).
 */
int pan_va_encode(const struct pan_va_instr *in, uint64_t *word, char *err,
                  size_t err_size);

/* Index of the instruction with this mnemonic, or -1. */
int pan_va_op_lookup(const char *name);

/* Operand kinds of an instruction, for building pan_va_instr generically. */
enum pan_va_operand_kind {
   PAN_VA_OPERAND_STAGING,
   PAN_VA_OPERAND_DEST,
   PAN_VA_OPERAND_SRC,
   PAN_VA_OPERAND_IMM,
};

/* Number of operands of instruction op, and the kind of operand k
 * (-1 when out of range). */
int pan_va_op_nr_operands(unsigned op);
int pan_va_op_operand_kind(unsigned op, unsigned k);

/* The special FAU value called name ("lane_id"...): its page and index
 * for a PAN_VA_SRC_SPECIAL source.  Returns false when there is none. */
bool pan_va_special_lookup(const char *name, uint8_t *page, uint8_t *index);

/* The hardware immediate table: entry i of 32, and the entry holding v
 * (-1 when none does). */
uint32_t pan_va_lut_value(unsigned i);
int pan_va_lut_index(uint32_t v);

#ifdef __cplusplus
}
#endif

#endif
