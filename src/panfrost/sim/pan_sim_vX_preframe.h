/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#ifndef PAN_SIM_VX_PREFRAME_H
#define PAN_SIM_VX_PREFRAME_H

#include <stdbool.h>
#include <stdint.h>

#include "pan_sim_arch.h"

struct pan_sim_ctx;
struct pan_sim_tilebuf;

#if PAN_ARCH >= 6
/* Whether the draw and what it points at are visible to the simulator
 * (false: reported once). */
bool PAN_GENX(sim_preframe_usable)(struct pan_sim_ctx *ctx, uint64_t dcds,
                                   unsigned which);
/* Shade frame shader draw `which` of the array at dcds into tb (see
 * pan_sim_vX_preframe.c) for a frame of width x height pixels; false with
 * the fault reported. */
bool PAN_GENX(sim_preframe_run)(struct pan_sim_ctx *ctx, uint64_t dcds,
                                unsigned which, unsigned width,
                                unsigned height, struct pan_sim_tilebuf *tb);
#endif

#endif
