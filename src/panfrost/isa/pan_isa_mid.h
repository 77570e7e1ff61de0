/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Midgard (Mali v4/v5) assembler and disassembler.  Programs are printed
 * bundle by bundle in the syntax of docs/drivers/panfrost/assembly.rst;
 * bundles our encoder would not produce byte for byte (unknown tags,
 * non-zero padding, a wrong size) are printed as .raw quadwords, so every
 * input disassembles to text that assembles back to the same bytes.
 */

#ifndef PAN_ISA_MID_H
#define PAN_ISA_MID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pan_isa_text.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Slots of a bundle: the ALU units, then the load/store and texture words. */
enum pan_mid_slot {
   PAN_MID_VMUL,
   PAN_MID_SADD,
   PAN_MID_VADD,
   PAN_MID_SMUL,
   PAN_MID_LUT,
   PAN_MID_BR,  /* compact branch */
   PAN_MID_BRX, /* extended branch */
   PAN_MID_LDST,
   PAN_MID_TEX,
};

struct pan_mid_instr {
   enum pan_mid_slot slot;
   /* ALU: register word in bits 0-15, instruction word above it.  Texture:
    * the whole bundle (tag byte cleared).  Others: the word itself. */
   uint64_t bits[2];
};

struct pan_mid_bundle {
   unsigned tag, next_tag;
   bool raw;         /* not decodable: size_B bytes kept in raw */
   uint32_t control; /* ALU: unknown control bits (not tags, not enables) */
   unsigned nr_instrs;
   struct pan_mid_instr instrs[7];
   bool has_consts;
   uint32_t consts[4];
   size_t size_B;
   uint8_t raw_bytes[64];
};

/*
 * Decode the bundle at data (size_B bytes available, a multiple of 16).
 * Returns its size in bytes (a raw bundle when not canonical), 0 if empty.
 */
size_t pan_mid_decode_bundle(const uint8_t *data, size_t size_B,
                             struct pan_mid_bundle *b);

/* Encode into out (64 bytes); returns the size or 0 when it cannot be. */
size_t pan_mid_encode_bundle(const struct pan_mid_bundle *b, uint8_t *out);

/* Disassemble a program (size a multiple of 16) into fp. */
int pan_mid_disassemble(const void *data, size_t size_B, FILE *fp, bool offsets,
                        char *err, size_t err_size);

/*
 * Report each problem with the byte offset of its bundle: unknown tags and
 * non-canonical bundles (printed .raw), unknown opcodes, bits with no
 * known meaning set, ALU ops on a unit that cannot run them, an invalid
 * next tag, a truncated end.  Returns how many were reported.
 */
unsigned pan_mid_validate(const void *data, size_t size_B,
                          pan_isa_invalid_fn invalid, void *user);

/* Assemble a program, appending to out; -1 with "line N: ..." in err. */
int pan_mid_assemble(const char *text, size_t len, struct pan_isa_bytes *out,
                     char *err, size_t err_size);

/* Name of an ALU opcode, load/store opcode or texture opcode, or NULL. */
const char *pan_mid_op_name(enum pan_mid_slot slot, unsigned op);

/*
 * The opcode of a decoded instruction: its name (NULL when the value is
 * unknown), value and whether its sources are integers.
 */
const char *pan_mid_instr_op(const struct pan_mid_instr *I, unsigned *value,
                             bool *is_int);

/*
 * The named field of the layout I uses (as printed by the disassembler:
 * "mask", "aswz", "dcomp"...), signed fields sign-extended; false when
 * that layout has no such field.
 */
bool pan_mid_instr_field(const struct pan_mid_instr *I, const char *name,
                         uint64_t *value);

/*
 * Building instructions for a compiler: init gives slot and opcode (by
 * name) with every field at its default; set writes one named field of
 * the layout the opcode uses.  False for an unknown opcode or field, or
 * a value that does not fit.
 */
bool pan_mid_instr_init(struct pan_mid_instr *I, enum pan_mid_slot slot,
                        const char *op_name);
bool pan_mid_instr_set(struct pan_mid_instr *I, const char *name,
                       uint64_t value);

/* ALU units (bit i: enum pan_mid_slot i) that run an opcode; 0: unknown. */
unsigned pan_mid_alu_op_units(const char *op_name);

#ifdef __cplusplus
}
#endif

#endif
