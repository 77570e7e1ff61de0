/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#ifndef PAN_RESOURCE_H
#define PAN_RESOURCE_H

#include "drm-uapi/drm_fourcc.h"
#include "pipe/p_state.h"

#include "pan_bo.h"
#include "pan_image_layout.h"
#include "pan_index_cache.h"

struct panfrost_resource {
   struct pipe_resource base;
   struct pan_bo *bo;
   struct pan_image_desc image;
   struct pan_image_layout layout;
   /* DRM_FORMAT_MOD_LINEAR, DRM_FORMAT_MOD_ARM_16X16_BLOCK_U_INTERLEAVED
    * or PANFROST_MOD_AFBC (pan_resource_layout.c picks it from the
    * template; an AFBC resource becomes u-interleaved when the CPU or a
    * storage image needs its pixels: panfrost_resource_convert).
    */
   uint64_t modifier;
   /* Bumped when the layout changes under the resource (a conversion):
    * sampler views packed for an older one are packed again.
    */
   unsigned layout_seq;
   /* An AFBC resource a pass has written: until then it holds no pixels
    * (zeroed headers read as transparent black) and converts without a
    * copy.
    */
   bool afbc_written;
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
   /* CPU maps open on it (p_atomic_*): their pointers are into bo, which
    * must not be replaced meanwhile (pan_shadow.c).
    */
   int32_t map_count;
   /* Its BO was given out as a KMS handle: others address that BO. */
   bool exported;
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

/* Our AFBC layout: 16x16 superblocks, headers in rows, each superblock's
 * payload at a fixed place in the body (sparse), no YTR.
 */
#define PANFROST_MOD_AFBC                                                      \
   DRM_FORMAT_MOD_ARM_AFBC(AFBC_FORMAT_MOD_BLOCK_SIZE_16x16 |                  \
                           AFBC_FORMAT_MOD_SPARSE)

/* The layout a template gets when the caller leaves the choice to us:
 * PANFROST_MOD_AFBC for render targets that may be compressed (when afbc,
 * i.e. not PAN_MESA_DEBUG=noafbc), DRM_FORMAT_MOD_ARM_16X16_BLOCK_U_INTERLEAVED
 * when the GPU may tile it, else DRM_FORMAT_MOD_LINEAR.
 */
uint64_t panfrost_resource_best_modifier(const struct pipe_resource *templ,
                                         unsigned arch, bool afbc);

/* The AFBC payload packing of a format; PAN_AFBC_MODE_NONE when it does
 * not compress.
 */
enum pan_afbc_mode panfrost_afbc_mode(enum pipe_format format);

/* Whether a template may be AFBC at all (whatever its binding). */
bool panfrost_resource_can_afbc(const struct pipe_resource *templ,
                                unsigned arch);

static inline bool
panfrost_resource_is_afbc(const struct panfrost_resource *rsc)
{
   return rsc->image.tiling == PAN_IMAGE_TILING_AFBC;
}

/* Makes an AFBC resource u-interleaved, its pixels copied by a GPU blit,
 * before the CPU or a storage image touches them; nothing for the other
 * layouts. False (with a message) when it could not, or must not: an
 * exported or imported AFBC image keeps its layout.
 */
struct pipe_context;
bool panfrost_resource_convert(struct pipe_context *pctx,
                               struct panfrost_resource *rsc);

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

/* The largest BO that a partial CPU write copies into new storage rather
 * than submitting the pending batch that reads it and waiting
 * (pan_shadow.c): a memcpy of 1 MiB costs far less than a submit and a
 * wait for a batch's draws; larger resources would double their memory
 * and copy time for every such write.
 */
#define PANFROST_SHADOW_COPY_MAX_B (1u << 20)

/* Gives rsc a new BO for a CPU write of box at level (usage: the map's
 * PIPE_MAP_* flags) when GPU work still uses the old one and no pending
 * work writes it: the work keeps the old BO, the CPU writes the new one,
 * filled with the old contents the write keeps.  True when it did, the
 * write then needs no submit or wait; false when the caller must sync
 * (shared, imported, mapped, or too large to copy).
 */
struct panfrost_context;
bool panfrost_resource_shadow(struct panfrost_context *ctx,
                              struct panfrost_resource *rsc, unsigned usage,
                              unsigned level, const struct pipe_box *box);

#endif
