/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Internals of the Midgard interpreter.
 */

#ifndef PAN_SIM_MID_PRIV_H
#define PAN_SIM_MID_PRIV_H

#include "pan_isa_mid.h"
#include "pan_sim_mid.h"

/* Registers with a meaning of their own. */
#define MID_REG_CONST 26 /* ALU source: the bundle's embedded constants */
#define MID_REG_LDST 26  /* r26/r27: texture inputs without texture registers */
#define MID_REG_TEX 28   /* r28/r29: texture inputs written, results read */
#define MID_REG_COND 31  /* condition of csel and branches (.w) */

struct mid_exec {
   struct pan_sim_mid_thread *t;
   const struct pan_sim_mid_config *cfg;
   const struct pan_mid_bundle *b;
   /* Registers as the current stage started: the units of one stage
    * (vmul/sadd, then vadd/smul/lut) and the two words of a load/store
    * bundle read these. */
   uint32_t in[PAN_SIM_MID_REGS][4];
};

bool mid_fault(struct pan_sim_mid_thread *t, const char *fmt, ...)
   __attribute__((format(printf, 2, 3)));

/* Field of an instruction (0 when its layout lacks it). */
uint64_t mid_f(const struct pan_mid_instr *I, const char *name);

/* A source register as a unit of this bundle sees it. */
const uint32_t *mid_read_reg(const struct mid_exec *x, unsigned reg);

/* The register an ALU or load/store write goes to (r28/r29: the texture
 * unit's inputs). */
uint32_t *mid_write_reg(struct mid_exec *x, unsigned reg);

/* Run one ALU unit's instruction; false on a fault. */
bool mid_exec_alu(struct mid_exec *x, const struct pan_mid_instr *I);

/* Run one load/store word; false on a fault. */
bool mid_exec_ldst(struct mid_exec *x, const struct pan_mid_instr *I);

/* Attribute and varying messages (op: ld_attr_*, ld_vary_*, st_vary_*). */
bool mid_exec_attr(struct mid_exec *x, const struct pan_mid_instr *I,
                   const char *op);

/* A texture word of a bundle with this tag (2: texvtx). */
bool mid_exec_tex(struct mid_exec *x, const struct pan_mid_instr *I,
                  unsigned tag);

#endif
