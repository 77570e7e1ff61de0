/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Loading the render targets a pass neither clears nor fully covers into
 * the tile buffer before its draws: a colour pre-frame draw in the
 * framebuffer descriptor, whose fragment shader fetches each target's
 * texel at the pixel (v9).
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

/* Frees the context's preload shaders. */
void panfrost_preload_fini(struct panfrost_context *ctx);

#endif
