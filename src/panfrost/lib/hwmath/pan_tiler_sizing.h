/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Tiler memory sizing.
 *
 * Midgard (v4, v5): the driver allocates the polygon list itself.  With
 * hierarchical tiling the tiler bins primitives at several tile sizes
 * ("levels", 16x16 px << level); the polygon list has a header of 8 bytes
 * per tile of every enabled level after a 64-byte prologue, and a body of
 * 512 bytes per tile, each rounded up to 512 bytes.  GPUs without
 * hierarchical tiling (T720, T820, T830) take one tile size instead.
 *
 * Bifrost and Valhall (v6+): the tiler writes into a heap the kernel grows
 * on demand; the driver only reserves address space and describes it.
 *
 * See docs/drivers/panfrost/tiler.rst.
 */

#ifndef PAN_TILER_SIZING_H
#define PAN_TILER_SIZING_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PAN_TILER_MIN_TILE_PX        16
/* Midgard hierarchy: levels 0..8, i.e. 16x16 up to 4096x4096 tiles */
#define PAN_MIDGARD_TILER_LEVELS     9
#define PAN_MIDGARD_TILER_MASK_ALL   0x1ff
#define PAN_MIDGARD_PROLOGUE_B       64
#define PAN_MIDGARD_HEADER_B_PER_TILE 8
#define PAN_MIDGARD_BODY_B_PER_TILE  512
#define PAN_MIDGARD_LIST_ALIGN_B     512
/* Smallest header, used when the tiler is disabled (no draws) */
#define PAN_MIDGARD_MIN_HEADER_B     512
/* Hierarchy mask values with special meaning */
#define PAN_MIDGARD_TILER_DISABLED   0x1000
#define PAN_MIDGARD_TILER_USER       0x0fff

/* Number of w x h tiles covering a width x height framebuffer */
uint32_t pan_tiler_tile_count(unsigned fb_width_px, unsigned fb_height_px,
                              unsigned tile_w_px, unsigned tile_h_px);

/* Hierarchy mask the driver uses on Midgard GPUs with hierarchical tiling:
 * every level the polygon-list sizing covers (16x16 .. 2048x2048). */
unsigned pan_midgard_hierarchy_mask(unsigned fb_width_px,
                                    unsigned fb_height_px);

/* True if `mask` is a valid Midgard hierarchy mask (non-zero, levels 0-8) */
bool pan_midgard_hierarchy_mask_valid(unsigned mask);

struct pan_midgard_polygon_list {
   /* Value of the hierarchy-mask field of the tiler descriptor */
   unsigned hierarchy_mask;
   /* Header: body starts this many bytes into the list */
   uint32_t header_size_B;
   /* "Polygon list size" field: the body part's size */
   uint32_t body_size_B;
   /* Bytes to allocate for header + body; the reference driver also
    * rounds the allocation up to a power of two (alloc_size_B) */
   uint32_t total_size_B;
   uint32_t alloc_size_B;
};

/*
 * Polygon list of a Midgard GPU with hierarchical tiling, for the given
 * framebuffer and hierarchy mask (levels 0-8).  has_draws = false gives the
 * minimal disabled configuration.  Returns false on an invalid mask or a
 * size that overflows 32 bits.
 */
bool pan_midgard_polygon_list(unsigned fb_width_px, unsigned fb_height_px,
                              unsigned mask, bool has_draws,
                              struct pan_midgard_polygon_list *out);

/*
 * GPUs without hierarchical tiling: the field holds the tile size as
 * log2(w / 16) | log2(h / 16) << 6.  Tiles are powers of two of at least
 * 16 px, with fewer than 64 tiles across each dimension; we take the
 * smallest such tile.
 */
unsigned pan_midgard_flat_tile_field(unsigned fb_width_px,
                                     unsigned fb_height_px);

bool pan_midgard_flat_polygon_list(unsigned fb_width_px,
                                   unsigned fb_height_px, bool has_draws,
                                   struct pan_midgard_polygon_list *out);

/* Tiler features register as reported by the kernel: log2 of the bin size
 * in the low 5 bits, the number of hierarchy levels in bits 8-11.  Old
 * kernels report nothing; 0x809 (512 B, 8 levels) is then assumed. */
#define PAN_TILER_FEATURES_DEFAULT 0x809

struct pan_tiler_features {
   uint32_t bin_size_B;
   unsigned max_levels;
};

struct pan_tiler_features pan_decode_tiler_features(uint32_t raw);

/* Bifrost/Valhall tiler context fields chosen by the driver */
struct pan_tiler_context_params {
   unsigned hierarchy_mask;
   /* Stored minus one in the descriptor */
   unsigned fb_width_px;
   unsigned fb_height_px;
};

/* All levels when the GPU has 8, else 0x28 (64x64 and 256x256 tiles).  For
 * framebuffers 4096 px or larger the 16x16 level is dropped to bound heap
 * use. */
bool pan_tiler_context_params(const struct pan_tiler_features *features,
                              unsigned fb_width_px, unsigned fb_height_px,
                              struct pan_tiler_context_params *out);

/* Growable tiler heap (v6+) */
#define PAN_TILER_HEAP_RESERVED_B (128u * 1024 * 1024)
/* The kernel maps heap BOs lazily, in 2 MiB pieces on GPU faults */
#define PAN_TILER_HEAP_GROW_B     (2u * 1024 * 1024)
/* Kernel flags for the heap BO: PANFROST_BO_HEAP | PANFROST_BO_NOEXEC */
#define PAN_KERNEL_BO_NOEXEC      1u
#define PAN_KERNEL_BO_HEAP        2u

struct pan_tiler_heap_layout {
   uint32_t reserved_size_B;   /* BO size, and the descriptor's size */
   uint32_t initial_commit_B;  /* memory backed at creation */
   uint32_t grow_size_B;       /* granule the kernel backs on faults */
   uint32_t kernel_bo_flags;   /* for DRM_IOCTL_PANFROST_CREATE_BO */
   /* Descriptor pointers relative to the BO base: base = bottom = 0,
    * top = reserved_size_B */
   uint32_t bottom_offset_B;
   uint32_t top_offset_B;
};

/* reserved_size_B 0 selects the default 128 MiB.  Returns false when the
 * size is not a multiple of 4 KiB (the descriptor's size granule). */
bool pan_tiler_heap_layout(uint32_t reserved_size_B,
                           struct pan_tiler_heap_layout *out);

#ifdef __cplusplus
}
#endif

#endif
