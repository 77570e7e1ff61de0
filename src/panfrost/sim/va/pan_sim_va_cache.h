/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Decoded-instruction cache of the Valhall interpreter.
 */

#ifndef PAN_SIM_VA_CACHE_H
#define PAN_SIM_VA_CACHE_H

#include "pan_sim_va_priv.h"

/* Around every run: counts the runs in progress on this thread. */
void pan_sim_va_cache_enter(void);
void pan_sim_va_cache_leave(void);

/* The decoded instruction at pc: from the cache, or decoded into scratch
 * when it cannot be used.  A fault is reported as pan_sim_va_decode()
 * does. */
enum va_sim_result pan_sim_va_fetch(struct pan_sim_va_ctx *c, unsigned pc,
                                    struct pan_sim_va_ins *scratch,
                                    const struct pan_sim_va_ins **ins);

#endif
