/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The Bifrost scheduler's shared state: instructions as FMA/ADD items,
 * tuples and clauses being built (pan_bi_schedule.c) and the per-block
 * list scheduler placing items into them (pan_bi_sched_list.c).
 */

#ifndef PAN_BI_SCHED_PRIV_H
#define PAN_BI_SCHED_PRIV_H

#include "util/u_dynarray.h"
#include "pan_bi.h"

#define MAX_CONSTS 4
#define NO_REG -1

enum bi_sched_opnd_kind {
   OPND_REG,
   OPND_UNIFORM,
   OPND_SPECIAL, /* value: FAU index * 2 + word */
   OPND_CONST,
   OPND_ZERO,
   OPND_BRANCH,
   OPND_T, /* the FMA result of the same tuple (ADD selector 3) */
};

struct bi_sched_opnd {
   uint8_t kind; /* enum bi_sched_opnd_kind */
   uint32_t value;
};

/* Loads (of memory, textures, varyings, attributes) keep their order
 * with side effects only; side effects (stores, tilebuffer messages,
 * discards, branches) with both. */
enum bi_sched_side {
   SIDE_NONE,
   SIDE_LOAD,
   SIDE_EFFECT,
};

/* One FMA or ADD instruction before placement. */
struct bi_sched_item {
   unsigned unit, op;
   uint32_t word;
   unsigned nr_srcs;
   struct bi_sched_opnd srcs[4];
   int dest; /* register the result goes to, or NO_REG */
   const char *msg;
   int staging, staging_count;
   int fau_only; /* FAU index the instruction reads with no selector */
   pan_ir_block *target;
   bool has_alt; /* same operation on the other unit: alt_word, alt_op */
   uint32_t alt_word;
   unsigned alt_op;
   uint8_t
      side; /* enum bi_sched_side: how it orders with the others of its block */
   /* Registers whose value nothing after this instruction reads before
    * the block writes them again (pan_bi_sched_list.c): an FMA result
    * only this ADD instruction reads through `t` needs no write. */
   uint64_t last_reads;
};

/* u[0] the FMA instruction, u[1] the ADD one; an unused unit is a NOP. */
struct bi_sched_tuple {
   struct bi_sched_item u[2];
   bool used[2];
   int8_t read[3];
   uint8_t fau;
};

struct bi_sched_clause {
   unsigned nr_tuples;
   struct bi_sched_tuple t[8];
   unsigned nr_consts;
   uint64_t consts[8];   /* full 64-bit values (low 4 bits from the index) */
   int branch_const;     /* constant holding the branch distance, or -1 */
   pan_ir_block *target; /* of the branch */
   const char *msg;
   int staging, staging_count;
};

struct bi_sched_ctx {
   const uint8_t *regs;
   struct util_dynarray clauses; /* struct bi_sched_clause */
   struct bi_sched_clause cur;
   int *block_clause; /* first clause of each block */
   struct util_dynarray
      pending; /* struct bi_sched_item of the block, in order */
   bool any_msg;
   int port2_reg; /* a register build_tuple puts on port 2, or NO_REG */
   char *err;
   size_t err_size;
};

bool bi_sched_fail(struct bi_sched_ctx *c, const char *fmt, const char *what);
bool bi_sched_is_msg(const struct bi_sched_item *it);
bool bi_sched_after_msg_ok(const struct bi_sched_clause *cl,
                           const struct bi_sched_item *it);
bool bi_sched_msg_ends_clause(const struct bi_sched_item *it);
bool bi_sched_needs_gap(const struct bi_sched_ctx *c,
                        const struct bi_sched_item *it);
bool bi_sched_try_pair(struct bi_sched_ctx *c, const struct bi_sched_item *in);
void bi_sched_note_msg(struct bi_sched_ctx *c, const struct bi_sched_item *it);
void bi_sched_close_clause(struct bi_sched_ctx *c);
bool bi_sched_place(struct bi_sched_ctx *c, const struct bi_sched_item *it);

/* pan_bi_sched_list.c */
bool bi_sched_queue(struct bi_sched_ctx *c, const struct bi_sched_item *it);
bool bi_sched_flush(struct bi_sched_ctx *c);

#endif
