/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#ifndef MID_PACK_H
#define MID_PACK_H

#include "util/bitscan.h"

#include "mid_ir.h"

/* Gather variables of one to three lanes into the lanes of shared
 * variables, on the scheduled bundles, so fewer registers hold them
 * (mid_pack.c).  live_in and live_out: per block (by index) and
 * variable, the lanes live into and out of it (the scheduler's).  With
 * min_regs, false (nothing packed) when the schedule provably needs at
 * least min_regs work registers (mid_reg_bound). */
bool mid_pack_scalars(struct mid_shader *s, const uint8_t *live_in,
                      const uint8_t *live_out, unsigned min_regs);

/* A number of work registers that allocation will take at least for the
 * scheduled shader (mid_reg_bound.c): size[v] is 4 for a variable packing
 * leaves whole, else the lanes it writes; live_out as for
 * mid_pack_scalars. */
unsigned mid_reg_bound(struct mid_shader *s, const uint8_t *size,
                       const uint8_t *live_out);

/* Per variable, the quarter registers it will take once packed: its lanes
 * for a value mid_pack_scalars may pack, else 4 (pressure estimates). */
uint8_t *mid_pack_weights(struct mid_shader *s, void *mem);

/* Bits set in m, for lane masks from a table in a constant (without
 * -mpopcnt util_bitcount is a library call, often made when scheduling). */
static inline unsigned
mid_lane_count(unsigned m)
{
   return m < 16 ? (unsigned)(0x4332322132212110ull >> (4 * m)) & 0xf
                 : util_bitcount(m);
}

#endif
