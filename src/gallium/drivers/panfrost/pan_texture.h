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
   unsigned layout_seq; /* the texture's layout_seq it was packed for */
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

/* Buffer views (texture buffer objects) are one linear 1D level: the
 * descriptor's width field holds 65536 texels, GL's minimum.  They start
 * on 64-byte boundaries, the alignment the texture unit wants for the
 * base of a linear surface (the value the stock driver gives GL too).
 */
#define PANFROST_MAX_TEXEL_BUFFER_ELEMENTS 65536
#define PANFROST_TEXTURE_BUFFER_ALIGN_B 64

/* The texels a buffer view covers, within its buffer and the limit. */
unsigned panfrost_buffer_view_elements(const struct pipe_sampler_view *v);

/* Whether the screen's texture descriptors can read buffer views of
 * format (is_format_supported for PIPE_BUFFER sampler views).
 */
bool panfrost_texture_buffer_format(struct pipe_screen *pscreen,
                                    enum pipe_format format);

/* Component c of textureSize() of view v at its first level (0 when
 * there is no view): draws and dispatches push it.
 */
uint32_t panfrost_texture_size(const struct pipe_sampler_view *v,
                               unsigned c);

/* Packs v again when its texture's layout or storage changed since (an
 * AFBC resource converted by a map, new storage for a CPU write:
 * pan_shadow.c); false when it cannot be sampled.
 */
struct panfrost_context;
bool panfrost_sampler_view_refresh(struct panfrost_context *ctx,
                                   struct panfrost_sampler_view *v);

void panfrost_context_init_textures(struct pipe_context *pctx);

#endif
