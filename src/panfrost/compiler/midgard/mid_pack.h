/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#ifndef MID_PACK_H
#define MID_PACK_H

#include "mid_ir.h"

/* Gather variables of one to three lanes into the lanes of shared
 * variables, on the scheduled bundles, so fewer registers hold them
 * (mid_pack.c). */
void mid_pack_scalars(struct mid_shader *s);

/* Per variable, the quarter registers it will take once packed: its lanes
 * for a value mid_pack_scalars may pack, else 4 (pressure estimates). */
uint8_t *mid_pack_weights(struct mid_shader *s, void *mem);

#endif
