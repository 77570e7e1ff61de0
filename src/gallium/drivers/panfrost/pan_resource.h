/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#ifndef PAN_RESOURCE_H
#define PAN_RESOURCE_H

#include "pipe/p_state.h"

#include "pan_bo.h"

#define PANFROST_MAX_MIP_LEVELS 16

/* Linear layout of one resource: every level and layer at a byte offset in
 * one buffer object. Tiled and compressed layouts come with the draw path. */
struct panfrost_layout {
   uint64_t offset_B[PANFROST_MAX_MIP_LEVELS];
   uint32_t row_stride_B[PANFROST_MAX_MIP_LEVELS];
   uint64_t layer_stride_B[PANFROST_MAX_MIP_LEVELS];
   uint64_t size_B;
};

struct panfrost_resource {
   struct pipe_resource base;
   struct pan_bo *bo;
   struct panfrost_layout layout;
   /* Display-side buffer when a kmsro display owns the scanout memory. */
   struct renderonly_scanout *scanout;
};

static inline struct panfrost_resource *
panfrost_resource(struct pipe_resource *prsc)
{
   return (struct panfrost_resource *)prsc;
}

void panfrost_layout_linear(const struct pipe_resource *templ,
                            uint32_t first_row_stride_B,
                            struct panfrost_layout *layout);

void panfrost_context_init_resource(struct pipe_context *pctx);

#endif
