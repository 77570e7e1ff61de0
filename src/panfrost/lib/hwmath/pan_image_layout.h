/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Memory layout of images: where every mip level, array layer, depth slice
 * and sample lives, for linear, u-interleaved and AFBC images, and the size
 * of the transaction-elimination CRC buffer.  Plain C, no Gallium types:
 * the format is described by its block footprint and bytes per block.
 *
 * Units: _px pixels, _el elements (pixels, or compression blocks), _B bytes.
 * See docs/drivers/panfrost/image-layout.rst.
 */

#ifndef PAN_IMAGE_LAYOUT_H
#define PAN_IMAGE_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PAN_IMAGE_MAX_LEVELS 17

enum pan_image_tiling {
   PAN_IMAGE_TILING_LINEAR,
   PAN_IMAGE_TILING_U_INTERLEAVED,
   PAN_IMAGE_TILING_AFBC,
};

enum pan_afbc_superblock {
   PAN_AFBC_SUPERBLOCK_16X16,
   PAN_AFBC_SUPERBLOCK_32X8,
   PAN_AFBC_SUPERBLOCK_64X4,
};

/* How the payload of an AFBC superblock packs its pixels: the component
 * sizes of the format (its order is the descriptors' format's business).
 * Only these formats compress; v9 descriptors name the mode.
 */
enum pan_afbc_mode {
   PAN_AFBC_MODE_NONE,
   PAN_AFBC_MODE_R8,
   PAN_AFBC_MODE_R8G8,
   PAN_AFBC_MODE_R5G6B5,
   PAN_AFBC_MODE_R4G4B4A4,
   PAN_AFBC_MODE_R5G5B5A1,
   PAN_AFBC_MODE_R8G8B8,
   PAN_AFBC_MODE_R8G8B8A8,
};

enum pan_image_dim {
   PAN_IMAGE_DIM_1D,
   PAN_IMAGE_DIM_2D,
   PAN_IMAGE_DIM_3D,
   PAN_IMAGE_DIM_CUBE,
};

enum pan_image_crc {
   PAN_IMAGE_CRC_NONE,
   /* CRC of each level right after the level's data */
   PAN_IMAGE_CRC_INBAND,
   /* All CRCs in a separate buffer */
   PAN_IMAGE_CRC_OOB,
};

struct pan_image_desc {
   unsigned arch; /* 4, 5, 6, 7, 9 ... */
   enum pan_image_dim dim;
   unsigned width_px, height_px, depth_px;
   unsigned array_size; /* layers; 6 per cube */
   unsigned nr_samples;
   unsigned nr_levels;

   /* Format: block footprint (1x1 for plain formats) and bytes per block */
   unsigned block_w_px, block_h_px, block_size_B;

   enum pan_image_tiling tiling;
   enum pan_afbc_superblock afbc_superblock;
   bool afbc_tiled_headers;
   enum pan_image_crc crc;

   /* Imported images: fixed offset and row stride (2D, 1 level, 1 layer,
    * 1 sample, no in-band CRC). */
   bool has_explicit_layout;
   uint64_t explicit_offset_B;
   uint32_t explicit_row_stride_B;
};

struct pan_image_level {
   unsigned width_px, height_px, depth_px;

   /* Start of the level within one array layer */
   uint64_t offset_B;

   /* Linear: bytes per row of blocks.  U-interleaved: bytes per row of
    * tiles.  AFBC: header bytes per row of superblocks (of 8x8-superblock
    * tiles with tiled headers). */
   uint32_t row_stride_B;

   /* Distance between depth slices / samples of the level.  For AFBC 2D
    * images: header plus body of one surface.  For 3D AFBC: one slice's
    * body; headers are at afbc_header_stride_B intervals. */
   uint64_t surface_stride_B;

   /* All bytes of the level in one layer, including in-band CRC */
   uint64_t size_B;

   /* AFBC: header size of one surface (body follows it, aligned) or, for
    * 3D, of all slices' headers together; body size likewise. */
   uint64_t afbc_header_size_B;
   uint64_t afbc_body_size_B;
   uint64_t afbc_header_stride_B;

   /* CRC: 8 bytes per 16x16 px tile */
   uint64_t crc_offset_B; /* in-band: within the layer; OOB: CRC buffer */
   uint32_t crc_row_stride_B;
   uint32_t crc_size_B;
};

struct pan_image_layout {
   unsigned nr_levels;
   struct pan_image_level levels[PAN_IMAGE_MAX_LEVELS];
   uint64_t array_stride_B;
   uint64_t data_size_B;
   uint64_t crc_size_B; /* out-of-band CRC buffer */
};

/* Whether the architecture supports this AFBC variant (v5+ 16x16, v6+
 * 32x8, v9+ 64x4, tiled headers v7+). */
bool pan_afbc_variant_supported(unsigned arch,
                                enum pan_afbc_superblock superblock,
                                bool tiled_headers);

/* Superblock footprint in pixels */
void pan_afbc_superblock_size_px(enum pan_afbc_superblock sb, unsigned *w_px,
                                 unsigned *h_px);

/* Fill `out`.  Returns false (out undefined) for unsupported or
 * inconsistent descriptions. */
bool pan_image_layout_init(const struct pan_image_desc *desc,
                           struct pan_image_layout *out);

/* Byte offset of a surface: level, array layer, and depth slice or sample.
 * For AFBC this is the header; the body follows at
 * pan_image_afbc_body_offset_B(). */
uint64_t pan_image_surface_offset_B(const struct pan_image_desc *desc,
                                    const struct pan_image_layout *layout,
                                    unsigned level, unsigned layer,
                                    unsigned slice_or_sample);

uint64_t pan_image_afbc_body_offset_B(const struct pan_image_desc *desc,
                                      const struct pan_image_layout *layout,
                                      unsigned level, unsigned layer,
                                      unsigned slice);

#ifdef __cplusplus
}
#endif

#endif
