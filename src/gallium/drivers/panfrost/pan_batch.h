/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * A batch is the work of one render pass on the context's current
 * framebuffer, gathered until something needs its results (a flush, a CPU
 * map of a buffer it writes, a framebuffer change) and then submitted as
 * one job chain.  Today a pass holds clears only: the chain is a single
 * fragment job whose framebuffer descriptor carries the clear values.
 */

#ifndef PAN_BATCH_H
#define PAN_BATCH_H

#include "pipe/p_state.h"

#include "pan_pool.h"

struct panfrost_context;

struct panfrost_batch {
   /* PIPE_CLEAR_* requested since the last submit. */
   unsigned clear;
   union pipe_color_union clear_color[PIPE_MAX_COLOR_BUFS];
   float clear_depth;
   uint8_t clear_stencil;

   /* Descriptors and jobs of the pass being built. */
   struct pan_pool pool;
};

void panfrost_batch_init(struct panfrost_context *ctx);
void panfrost_batch_fini(struct panfrost_context *ctx);

/* Records a clear of the current framebuffer. */
void panfrost_batch_clear(struct panfrost_context *ctx, unsigned buffers,
                          const union pipe_color_union *color, double depth,
                          unsigned stencil);

/* Whether the pending pass writes this resource. */
bool panfrost_batch_writes(struct panfrost_context *ctx,
                           const struct pipe_resource *prsc);

/* Submits the pending pass, if any.  Returns false when the submit failed
 * (the pass is dropped and the reason logged).
 */
bool panfrost_batch_submit(struct panfrost_context *ctx);

#endif /* PAN_BATCH_H */
