/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Shapes of the generated Bifrost tables (pan_isa_bi_tables.c, produced by
 * gen_bi.py from bifrost_isa.py) and the clause model shared by the
 * Bifrost codec files.
 */

#ifndef PAN_ISA_BI_PRIV_H
#define PAN_ISA_BI_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "pan_isa_text.h"

struct bi_mod {
   const char *name;
   uint8_t start, size;
   const char *const *values; /* NULL: raw numeric field */
   int8_t dflt;               /* -1: always printed */
};

struct bi_imm {
   const char *name;
   uint8_t start, size;
};

struct bi_op {
   const char *name;
   uint8_t unit; /* 0 FMA (23-bit word), 1 ADD (20-bit word) */
   uint32_t mask, exact;
   uint8_t nr_srcs;
   uint8_t srcs[4];
   uint8_t nr_imms;
   struct bi_imm imms[2];
   uint8_t nr_mods;
   const struct bi_mod *mods;
};

enum bi_slot_kind {
   BI_SLOT_LIT,
   BI_SLOT_Z,
   BI_SLOT_TUPLE,
   BI_SLOT_UPPER,
   BI_SLOT_HEADER,
   BI_SLOT_CONST,
   BI_SLOT_M,
   BI_SLOT_ZERO,
};

struct bi_slot {
   uint8_t kind;
   int8_t a; /* literal, tuple index, constant bit offset */
   int8_t b; /* tuple bit offset, or second tuple of an upper pair */
};

/* tag_c, tag_b, tag_a, S, T, U, V: see bifrost_isa.py */
struct bi_quad_format {
   const char *name;
   struct bi_slot slots[7];
};

struct bi_header_field {
   const char *name;
   uint8_t start, size;
   const char *const *values;
   uint8_t nr_values;
};

/* Semantics of bi_ops[i]: family and destination/source types, numbered
 * as enum bi_family / enum bi_type of the generated pan_isa_bi_sem.h. */
struct bi_sem {
   uint8_t family, dst_type, src_type;
};

extern const struct bi_op bi_ops[];
extern const struct bi_sem bi_sems[];
extern const char *const bi_family_names[];
extern const char *const bi_type_names[];
extern const unsigned bi_nr_ops;
extern const struct bi_quad_format bi_quad_formats[];
extern const int8_t bi_sequences[8][6];
extern const int8_t bi_const_position[8][3];
extern const struct bi_header_field bi_header_fields[];
extern const unsigned bi_nr_header_fields;
extern const char *const bi_fma_sources[8];
extern const char *const bi_add_sources[8];

/* A 78-bit tuple: register block, FMA and ADD words. */
struct bi_tuple {
   uint64_t regs; /* 35 bits */
   uint32_t fma;  /* 23 bits */
   uint32_t add;  /* 20 bits */
};

/* A clause in canonical form: everything the packer needs. */
struct bi_clause {
   unsigned nr_tuples; /* 1..8 */
   struct bi_tuple tuples[8];
   uint64_t header; /* 45 bits */
   unsigned m;      /* 15 bits, only where the layout has an M field */
   unsigned nr_consts;
   uint64_t consts[8]; /* 60-bit values (constant >> 4) */
   /* Pack the constants and M as they are (the assembler, the unpacker);
    * otherwise, as a compiler wants, the packer marks the branch
    * distance first (bi_mark_branch). */
   bool verbatim;
};

/* Pack a clause; returns the number of quadwords (2 x uint64_t each) or
 * -1 if the constant count does not fit the layout. */
int bi_pack_clause(const struct bi_clause *c, uint64_t *out, unsigned max);

/* The constant whose high word the clause's branch (its last ADD) takes
 * as its target, or -1. */
int bi_branch_const(const struct bi_clause *c);

/* Mark that constant PC-relative (M = 4: the hardware adds the clause
 * address to its high word), moving it into a constant pair, with a zero
 * constant for padding if need be, where the layout has no M field; the
 * tuples' FAU indices follow the moves.  False when there is no room. */
bool bi_mark_branch(struct bi_clause *c);

/* Decode the canonical clause at words[0..]; returns quadwords consumed,
 * or 0 when the bytes are not a clause our packer would produce. */
unsigned bi_unpack_clause(const uint64_t *words, unsigned nr_quads,
                          struct bi_clause *c);

bool bi_ec0_packed(unsigned nr_tuples);
unsigned bi_const_quads_max(unsigned nr_tuples);

/* A register written with a tuple result; reg -1: none (t0/t1 only). */
enum bi_half { BI_HALF_FULL, BI_HALF_LO, BI_HALF_HI };

struct bi_dest {
   int8_t reg;
   uint8_t half; /* enum bi_half */
};

/*
 * Meaning of a tuple's register block.  Ports 0-2 read for this tuple;
 * fma/add say where the previous tuple's results go (for the first tuple:
 * the last tuple's).  spare/idle2/idle3/idle1 keep bits the meaning leaves
 * free (-1/false: what the encoder picks by itself).
 */
struct bi_regblock {
   int8_t read[3];
   uint8_t fau;
   struct bi_dest fma, add;
   int8_t spare; /* reg0 and reg1 bit 0 while port 0 is off */
   int8_t idle2, idle3; /* register fields of an idle port 2 / 3 */
   bool idle1; /* a non-first idle block encoded as mode 16, not 27 */
};

/* false for reserved control encodings (print those raw). */
bool bi_regs_decode(uint64_t bits, bool first, struct bi_regblock *b);
/* Like bi_regs_decode, but a reserved block still gives its FAU index
 * (and nothing else) for naming operands. */
bool bi_regs_decode_names(uint64_t bits, bool first, struct bi_regblock *b);
int bi_regs_encode(const struct bi_regblock *b, bool first, uint64_t *bits,
                   char *err, size_t err_size);
void bi_print_regblock(struct pan_isa_str *s, const struct bi_regblock *b,
                       bool first, uint64_t bits);
int bi_parse_regblock(char *text, struct bi_regblock *b, char *err,
                      size_t err_size);
void bi_print_fau(struct pan_isa_str *s, unsigned fau);
/* Operand text of the FAU low/high word given the clause constants. */
void bi_fau_operand(struct pan_isa_str *s, unsigned fau, bool hi,
                    const struct bi_clause *c);
void bi_print_dest(struct pan_isa_str *s, const struct bi_dest *d,
                   unsigned unit);
bool bi_parse_dest(const char *t, unsigned unit, struct bi_dest *d);

/*
 * Operand names of one tuple for printing/parsing instructions in a
 * clause: src[i] is the text of source selector i (unique within the
 * tuple), dest the destination text; NULL context: raw selector names,
 * no destination.
 */
struct bi_operand_ctx {
   char src[8][40];
   struct bi_dest dest;
};

void bi_operand_names(const struct bi_regblock *b, unsigned unit,
                      const struct bi_clause *c, struct bi_operand_ctx *ctx);

/* Instruction words. */
int bi_identify(uint32_t word, unsigned unit);
/* Why a word is no valid instruction of the unit, or NULL when it is. */
const char *bi_instr_problem(uint32_t word, unsigned unit);
void bi_print_instr(struct pan_isa_str *s, uint32_t word, unsigned unit,
                    const struct bi_operand_ctx *ctx);
int bi_parse_instr(char *text, unsigned unit, uint32_t *word,
                   const struct bi_operand_ctx *ctx, struct bi_dest *dest,
                   char *err, size_t err_size);

#endif
