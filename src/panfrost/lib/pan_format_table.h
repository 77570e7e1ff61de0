/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The one description of what Mali can do with each pipe_format: which uses
 * the driver offers from which architecture on, how a colour format lives
 * in the tile buffer and is written back, and which depth/stencil buffer
 * layout a depth or stencil format has.  The screen's format queries, the
 * render-target code (pan_rt_format.c) and the framebuffer emitters
 * (pan_vX_fb.c) all read it.
 *
 * Hardware encodings are the genxml-generated ones of the v5+ framebuffer
 * descriptors (tile-buffer format, write-back format, swizzle channels);
 * v4 names the blendable formats identically and its emitter translates
 * the raw ones.  tests/formats checks every value against the generated
 * enums of every architecture.
 */

#ifndef PAN_FORMAT_TABLE_H
#define PAN_FORMAT_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "pipe/p_format.h"

#ifdef __cplusplus
extern "C" {
#endif

enum pan_format_use {
   PAN_USE_TEXTURE = 1 << 0, /* sampled, filtered where the type allows */
   PAN_USE_RENDER = 1 << 1,  /* colour render target */
   PAN_USE_BLEND = 1 << 2,   /* fixed-function blending in the tile buffer */
   PAN_USE_DEPTH = 1 << 3,   /* depth and/or stencil attachment */
   PAN_USE_VERTEX = 1 << 4,  /* vertex attribute fetch */
};
#define PAN_USE_ALL                                                            \
   (PAN_USE_TEXTURE | PAN_USE_RENDER | PAN_USE_BLEND | PAN_USE_DEPTH |         \
    PAN_USE_VERTEX)

/* How a depth/stencil attachment is laid out in memory, which decides the
 * framebuffer fields it goes to: the depth/stencil buffer (with or without
 * stencil bits) or the separate stencil buffer.
 */
enum pan_zs_layout {
   PAN_ZS_NONE,
   PAN_ZS_D16,        /* 16-bit unorm depth */
   PAN_ZS_D24S8,      /* 24-bit unorm depth, stencil in the top byte */
   PAN_ZS_D24X8,      /* 24-bit unorm depth, top byte unused */
   PAN_ZS_D32F,       /* 32-bit float depth */
   PAN_ZS_D32F_S8X24, /* float depth, stencil in the low byte of word 1 */
   PAN_ZS_S8,         /* stencil only, in the separate stencil buffer */
   PAN_ZS_D32F_S8,    /* float depth, stencil in a separate S8 plane */
   PAN_ZS_LAYOUT_COUNT,
};

enum pan_zs_kind {
   PAN_ZS_KIND_NONE,
   PAN_ZS_KIND_DEPTH,         /* depth only */
   PAN_ZS_KIND_DEPTH_STENCIL, /* both, in one buffer */
   PAN_ZS_KIND_STENCIL,       /* stencil only */
};

struct pan_zs_layout_info {
   uint8_t kind;     /* enum pan_zs_kind */
   uint8_t bytes;    /* per pixel in memory */
   uint8_t min_arch; /* architectures whose framebuffer descriptors can */
   uint8_t max_arch; /* write it back; UINT8_MAX: no known last one */
};

struct pan_format_info {
   enum pipe_format format;
   uint8_t uses;     /* enum pan_format_use */
   uint8_t min_arch; /* first architecture version that has it */

   /* Colour render targets with a normalised tile-buffer layout
    * (PAN_USE_BLEND): tile-buffer format, write-back format and the
    * swizzle from tile-buffer channels to memory components.  Zero for
    * raw formats, whose layout follows from their size
    * (pan_rt_format_lookup).
    */
   uint8_t tib, writeback;
   uint16_t swizzle;

   uint8_t zs; /* enum pan_zs_layout, PAN_ZS_NONE for colour */
};

/* The row of a format, or NULL when no architecture supports it. */
const struct pan_format_info *pan_format_info(enum pipe_format format);

/* True when every use in `uses` is available for `format` on `arch`. */
bool pan_format_supports(unsigned arch, enum pipe_format format, unsigned uses);

/* The hardware format index (the bit of TEXTURE_FEATURES0) of a compressed
 * format of the table, 0 for the others.
 */
unsigned pan_format_compressed_index(enum pipe_format format);

/* The depth/stencil layout's facts, NULL for PAN_ZS_NONE or out of range. */
const struct pan_zs_layout_info *pan_zs_layout_info(enum pan_zs_layout l);

/* Whether arch can write back a depth/stencil buffer of this layout. */
bool pan_zs_layout_supported(unsigned arch, enum pan_zs_layout l);

static inline bool
pan_zs_layout_has_depth(enum pan_zs_layout l)
{
   const struct pan_zs_layout_info *i = pan_zs_layout_info(l);
   return i && (i->kind == PAN_ZS_KIND_DEPTH ||
                i->kind == PAN_ZS_KIND_DEPTH_STENCIL);
}

static inline bool
pan_zs_layout_has_stencil(enum pan_zs_layout l)
{
   const struct pan_zs_layout_info *i = pan_zs_layout_info(l);
   return i && (i->kind == PAN_ZS_KIND_STENCIL ||
                i->kind == PAN_ZS_KIND_DEPTH_STENCIL);
}

#ifdef __cplusplus
}
#endif

#endif
