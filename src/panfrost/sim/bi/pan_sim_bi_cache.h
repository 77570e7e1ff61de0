/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Decoded-clause cache of the Bifrost interpreter: each clause is unpacked,
 * its register blocks and instructions identified once, and later runs of
 * the same bytes execute from the decoded form.
 */

#ifndef PAN_SIM_BI_CACHE_H
#define PAN_SIM_BI_CACHE_H

#include "pan_sim_bi_priv.h"

/* The largest clause cached (8 tuples and 6 constants fit). */
#define BI_SIM_CACHE_QUADS 16

struct bi_sim_tuple {
   bool ok; /* false: decoding faults; run the uncached path for the fault */
   struct bi_regblock blk;
   struct pan_sim_bi_ins ins[2]; /* FMA, ADD */
   struct pan_sim_memo memo[2];
};

struct bi_sim_clause {
   uint64_t va; /* GPU address of the clause */
   unsigned quads; /* 0: empty slot */
   uint64_t bytes[2 * BI_SIM_CACHE_QUADS];
   struct bi_clause clause;
   struct bi_regblock first; /* the first tuple's block, for the last writes */
   struct bi_sim_tuple t[8];
};

/*
 * The decoded clause at byte pc of the program, or NULL when it cannot be
 * cached (malformed, or too large).  Entries are checked against the
 * program's bytes on every lookup, so a program rewritten in place (GPU
 * memory reused between submits) is decoded again.  The cache is per
 * thread; a run nested in another (a shader run from a message of
 * another) does not use it, so the outer run's entries stay valid.
 */
struct bi_sim_clause *pan_sim_bi_cache_get(const struct pan_sim_bi_config *cfg,
                                           uint64_t pc);

/* Around every run: counts the runs in progress on this thread. */
void pan_sim_bi_cache_enter(void);
void pan_sim_bi_cache_leave(void);

/* Identify one instruction word (shared with the uncached path); false
 * when it does not decode. */
bool pan_sim_bi_identify(uint32_t word, unsigned unit,
                         struct pan_sim_bi_ins *ins);

#endif
