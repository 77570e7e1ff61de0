/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Internal tables of the Midgard assembler/disassembler, generated from
 * midgard_isa.py by gen_mid.py, and the field printer/parser they drive.
 */

#ifndef PAN_ISA_MID_PRIV_H
#define PAN_ISA_MID_PRIV_H

#include "pan_isa_mid.h"

enum mid_kind {
   MID_UINT,
   MID_SINT,
   MID_HEX,
   MID_ENUM,
   MID_REG,
   MID_SWZ,
   MID_FLAG,
};

struct mid_field {
   const char *name;
   uint8_t start, size, kind;
   bool reserved; /* no known meaning: the validator wants it zero */
   uint32_t def;  /* omitted from the text when equal */
   const char *const *names;
   const char *const *int_names; /* used when the op takes integers */
};

struct mid_op {
   const char *name;
   uint16_t value;
   uint8_t units; /* bit i: mid_units[i] may run it (ALU ops only) */
   bool is_int;
   int8_t fmt; /* layout other than the slot's, or -1 */
};

/* Order of midgard_isa.FORMATS. */
enum mid_format_id {
   MID_FMT_VECTOR,
   MID_FMT_SCALAR,
   MID_FMT_BRANCH,
   MID_FMT_BRANCH_UNCOND,
   MID_FMT_BRANCHX,
   MID_FMT_LDST,
   MID_FMT_TEX,
   MID_NR_FORMATS,
};

struct mid_format {
   const char *name;
   uint8_t bits, op_start, op_size, nr_fields;
   const struct mid_field *fields;
   const struct mid_op *ops;
   unsigned nr_ops;
};

#define MID_NR_UNITS 7
#define MID_NR_ALU 5 /* units with a register word */

struct mid_unit {
   const char *name;
   uint8_t enable_bit, halfwords;
   bool regword;
   uint8_t fmt;
};

enum mid_bundle_kind {
   MID_KIND_RAW,
   MID_KIND_TEX,
   MID_KIND_LDST,
   MID_KIND_ALU
};

struct mid_tag {
   const char *name;
   uint8_t quadwords, kind;
};

extern const struct mid_format mid_formats[MID_NR_FORMATS];
extern const struct mid_unit mid_units[MID_NR_UNITS];
extern const struct mid_tag mid_tags[16];
extern const uint32_t mid_control_unknown;

uint64_t mid_get(const uint64_t *bits, unsigned start, unsigned size);
void mid_set(uint64_t *bits, unsigned start, unsigned size, uint64_t v);

const struct mid_op *mid_find_op(const struct mid_format *fmt, unsigned v);

/* The layout an instruction of slot format fmt_id actually uses. */
const struct mid_format *mid_layout(unsigned fmt_id, const uint64_t *bits);

/* Print "unit.op field=value ..." (no newline). */
void mid_print_instr(struct pan_isa_str *s, const char *unit, unsigned fmt_id,
                     const uint64_t *bits);

/* Parse the text after "unit." into bits; -1 with err set. */
int mid_parse_instr(char *text, unsigned fmt_id, uint64_t *bits, char *err,
                    size_t err_size);

/* Name each problem of one instruction (unit < 0: not an ALU unit). */
void mid_check_instr(unsigned fmt_id, int unit, const uint64_t *bits,
                     size_t offset_B, pan_isa_invalid_fn invalid, void *user,
                     unsigned *count);

#endif
