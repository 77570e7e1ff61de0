/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#ifndef PAN_TEXTURE_H
#define PAN_TEXTURE_H

#include "pipe/p_state.h"

#include "pan_bo.h"

/* A sampler view with its texture descriptor and planes, packed at
 * creation (screen->arch->texture).  bo is NULL when the view cannot be
 * sampled; error says why, and draws sampling it are dropped.
 */
struct panfrost_sampler_view {
   struct pipe_sampler_view base;
   struct pan_bo *bo; /* the planes the descriptor points to */
   uint32_t desc[8];  /* texture descriptor */
   char error[96];
};

/* A sampler state and its descriptor, packed at creation. */
struct panfrost_sampler_state {
   struct pipe_sampler_state base;
   uint32_t desc[8];
};

static inline struct panfrost_sampler_view *
panfrost_sampler_view(struct pipe_sampler_view *v)
{
   return (struct panfrost_sampler_view *)v;
}

void panfrost_context_init_textures(struct pipe_context *pctx);

#endif
