/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Job-chain decoder.
 *
 * The caller describes a GPU address space as a list of mappings (GPU VA,
 * CPU copy, size, name: the simulator's struct pan_sim_region, read only)
 * and hands over the address of the first job of a chain.  The decoder
 * walks the chain with the walker it shares with the simulator
 * (pan_sim_chain.h), prints every job and every
 * descriptor it can reach through pointers, disassembles shaders, and
 * reports inconsistencies as lines starting with "ERROR: ".  It never
 * dereferences memory outside the mappings, and every walk is bounded by
 * the limits below, so any input (including a hostile dump) is safe.
 */

#ifndef PAN_DECODE_H
#define PAN_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pan_sim_space.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The decoder reads the address-space view of the simulator; these names
 * are the decoder's spelling of the same types. */
#define pan_decode_mapping pan_sim_region
#define pan_decode_space   pan_sim_space

struct pan_decode_limits {
   unsigned max_jobs;    /* jobs per chain */
   unsigned max_depth;   /* pointer-following depth */
   uint64_t max_bytes;   /* descriptor bytes read per chain */
   unsigned max_array;   /* elements of one descriptor array */
   unsigned max_shader_B; /* bytes disassembled per shader */
};

struct pan_decode_stats {
   unsigned jobs;
   unsigned descriptors;
   unsigned errors;
   uint64_t bytes;
};

/* Conservative limits suited to real frames. */
void pan_decode_default_limits(struct pan_decode_limits *lim);

/* True when the decoder was built for this architecture (4, 5, 6, 7, 9). */
bool pan_decode_supports_arch(unsigned arch);

/*
 * Decode one job chain.  Returns the number of ERROR lines printed (0 for a
 * clean chain), or -1 when the architecture is not supported.  stats and
 * lim may be NULL.
 */
int pan_decode_chain(FILE *fp, unsigned arch,
                     const struct pan_sim_space *space, uint64_t jc_va,
                     const struct pan_decode_limits *lim,
                     struct pan_decode_stats *stats);

/* Print the mappings of an address space (one line each). */
void pan_decode_print_space(FILE *fp, const struct pan_sim_space *space);

#ifdef __cplusplus
}
#endif

#endif /* PAN_DECODE_H */
