/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Loading the render targets a pass neither clears nor fully covers into
 * the tile buffer before its draws: a colour pre-frame draw in the
 * framebuffer descriptor, whose fragment shader fetches each target's
 * texel at the pixel, and a depth/stencil one writing the depth it
 * fetches through ZS_EMIT (v6/v7 and v9).
 */

#ifndef PAN_PRELOAD_H
#define PAN_PRELOAD_H

#include <stdbool.h>
#include <stdint.h>

struct panfrost_context;
struct pan_fb;

/* Points fb at a pre-frame draw loading render targets mask (bits of
 * ctx->state.fb.cbufs) from memory; false after a message when it cannot
 * (out of memory, a shader the compiler refuses), the pass then starting
 * from undefined contents there.
 */
bool panfrost_preload_color(struct panfrost_context *ctx, unsigned mask,
                            struct pan_fb *fb);

/* Points fb at a depth/stencil pre-frame draw loading the aspects
 * (PIPE_CLEAR_DEPTH, PIPE_CLEAR_STENCIL) of ctx->state.fb.zsbuf from
 * memory, after any colour one; false when it cannot (only depth is
 * loaded yet: false for the stencil alone).
 */
bool panfrost_preload_zs(struct panfrost_context *ctx, unsigned aspects,
                         struct pan_fb *fb);

/* Frees the context's preload shaders. */
void panfrost_preload_fini(struct panfrost_context *ctx);

#endif
