/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Line stipple, which the hardware has no mode for: stippled lines are
 * drawn as the dashes their pattern leaves on (pan_line_stipple.c).
 */

#ifndef PAN_LINE_STIPPLE_H
#define PAN_LINE_STIPPLE_H

#include <stdbool.h>

#include "pipe/p_state.h"

struct panfrost_context;

/* Whether panfrost_line_stipple_draw() takes the draw. */
bool panfrost_line_stipple_applies(const struct panfrost_context *ctx,
                                   const struct pipe_draw_info *info);

/* Draws `draws` as their stipple's dashes when the rasterizer stipples
 * lines; false when it does not apply (the draw is for the caller).
 */
bool panfrost_line_stipple_draw(struct panfrost_context *ctx,
                                const struct pipe_draw_info *info,
                                unsigned drawid_offset,
                                const struct pipe_draw_start_count_bias *draws,
                                unsigned num_draws);

#endif
