/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Gallium's blend and depth/stencil/alpha state as the per-architecture
 * emitters take it (struct panfrost_blend_rt, struct panfrost_zs_state).
 */

#ifndef PAN_BLEND_H
#define PAN_BLEND_H

#include "pipe/p_state.h"

#include "pan_arch.h"

/* Render target rt of the framebuffer under the blend state. */
void panfrost_blend_rt_init(struct panfrost_blend_rt *b,
                            const struct pipe_blend_state *blend, unsigned rt,
                            const struct pipe_framebuffer_state *fb,
                            const struct pipe_blend_color *color);

/* The tests a draw makes: only those the attachment has an aspect for
 * (GL: without a depth or stencil buffer the test passes).
 */
void panfrost_zs_state_init(struct panfrost_zs_state *zs,
                            const struct pipe_depth_stencil_alpha_state *zsa,
                            const struct pipe_stencil_ref *ref,
                            const struct pipe_surface *zsbuf);

#endif
