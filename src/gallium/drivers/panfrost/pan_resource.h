/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#ifndef PAN_RESOURCE_H
#define PAN_RESOURCE_H

#include "pipe/p_state.h"

#include "pan_bo.h"
#include "pan_image_layout.h"
#include "pan_index_cache.h"

struct panfrost_resource {
   struct pipe_resource base;
   struct pan_bo *bo;
   struct pan_image_desc image;
   struct pan_image_layout layout;
   /* DRM_FORMAT_MOD_LINEAR or DRM_FORMAT_MOD_ARM_16X16_BLOCK_U_INTERLEAVED
    * (pan_resource_layout.c picks it from the template).
    */
   uint64_t modifier;
   /* Display-side buffer when a kmsro display owns the scanout memory. */
   struct renderonly_scanout *scanout;
   /* Index ranges of indexed draws from this buffer; CPU and GPU writes
    * forget the ranges they overlap.
    */
   struct pan_index_cache index_cache;
   /* Z32_FLOAT_S8X24_UINT: Mali has no interleaved float depth + stencil
    * format on every architecture, so bo holds Z32F depth and this S8
    * resource the stencil.
    */
   struct panfrost_resource *stencil;
};

/* Staging memory of transfers through a linear copy (pan_transfer.c). */
struct panfrost_staging;
void panfrost_staging_free(struct panfrost_staging *s);

static inline struct panfrost_resource *
panfrost_resource(struct pipe_resource *prsc)
{
   return (struct panfrost_resource *)prsc;
}

/* The format of the pixels in rsc->bo: the depth plane of a split
 * depth/stencil format.
 */
static inline enum pipe_format
panfrost_plane_format(enum pipe_format format)
{
   return format == PIPE_FORMAT_Z32_FLOAT_S8X24_UINT ? PIPE_FORMAT_Z32_FLOAT
                                                     : format;
}

static inline bool
panfrost_resource_is_tiled(const struct panfrost_resource *rsc)
{
   return rsc->image.tiling == PAN_IMAGE_TILING_U_INTERLEAVED;
}

/* The layout a template gets when the caller leaves the choice to us:
 * DRM_FORMAT_MOD_ARM_16X16_BLOCK_U_INTERLEAVED when the GPU may tile it,
 * else DRM_FORMAT_MOD_LINEAR.
 */
uint64_t panfrost_resource_best_modifier(const struct pipe_resource *templ,
                                         unsigned arch);

/* Whether a template may be u-interleaved at all (whatever its binding):
 * for modifier lists, dma-buf queries and imports.
 */
bool panfrost_resource_can_tile(const struct pipe_resource *templ,
                                unsigned arch);

/* Computes rsc->image and rsc->layout from rsc->base and rsc->modifier. A non-zero row
 * stride describes an imported image whose layout is given. */
bool panfrost_resource_init_layout(struct panfrost_resource *rsc,
                                   unsigned arch,
                                   uint32_t explicit_row_stride_B,
                                   uint64_t explicit_offset_B);

/* Byte offset of a box's first block within the resource's BO. */
uint64_t panfrost_resource_offset_B(const struct panfrost_resource *rsc,
                                    unsigned level,
                                    const struct pipe_box *box);

void panfrost_context_init_resource(struct pipe_context *pctx);

#endif
