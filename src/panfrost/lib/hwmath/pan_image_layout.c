/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include <string.h>
#include "pan_image_layout.h"

/* Levels start on cache lines: required for AFBC, good for the rest. */
#define LEVEL_ALIGN_B          64
#define LINEAR_ROW_ALIGN_B     64
#define ARRAY_SIZE_ALIGN_B     4096
#define AFBC_HEADER_B          16 /* per superblock */
#define AFBC_TILE_SB           8  /* superblocks per header tile edge */
#define AFBC_BODY_ALIGN_B      64
#define AFBC_TILED_BODY_ALIGN_B 4096
#define CRC_TILE_PX            16
#define CRC_B_PER_TILE         8
#define UTILE_EL               16 /* u-interleaved tile edge, plain */
#define UTILE_COMPRESSED_EL    4  /* ... and for block-compressed formats */

static uint64_t
align64(uint64_t v, uint64_t a)
{
   return (v + a - 1) / a * a;
}

static unsigned
div_up(unsigned a, unsigned b)
{
   return (a + b - 1) / b;
}

static unsigned
minify(unsigned v, unsigned level)
{
   v >>= level;
   return v ? v : 1;
}

bool
pan_afbc_variant_supported(unsigned arch, enum pan_afbc_superblock sb,
                           bool tiled_headers)
{
   unsigned min_arch;

   switch (sb) {
   case PAN_AFBC_SUPERBLOCK_16X16: min_arch = 5; break;
   case PAN_AFBC_SUPERBLOCK_32X8: min_arch = 6; break;
   case PAN_AFBC_SUPERBLOCK_64X4: min_arch = 9; break;
   default: return false;
   }
   if (tiled_headers && min_arch < 7)
      min_arch = 7;
   return arch >= min_arch;
}

void
pan_afbc_superblock_size_px(enum pan_afbc_superblock sb, unsigned *w_px,
                            unsigned *h_px)
{
   static const unsigned w[] = { 16, 32, 64 }, h[] = { 16, 8, 4 };
   *w_px = w[sb];
   *h_px = h[sb];
}

static bool
desc_valid(const struct pan_image_desc *d)
{
   bool compressed = d->block_w_px > 1 || d->block_h_px > 1;

   if (!d->width_px || !d->height_px || !d->depth_px || !d->array_size ||
       !d->nr_samples || !d->nr_levels || d->nr_levels > PAN_IMAGE_MAX_LEVELS ||
       !d->block_w_px || !d->block_h_px || !d->block_size_B)
      return false;

   /* Multisampled images are 2D: samples take the place of depth */
   if (d->depth_px > 1 && d->nr_samples > 1)
      return false;
   if (d->dim != PAN_IMAGE_DIM_3D && d->depth_px > 1)
      return false;

   if (d->tiling == PAN_IMAGE_TILING_AFBC &&
       (compressed ||
        !pan_afbc_variant_supported(d->arch, d->afbc_superblock,
                                    d->afbc_tiled_headers)))
      return false;

   if (d->has_explicit_layout &&
       (d->dim != PAN_IMAGE_DIM_2D || d->nr_levels > 1 || d->array_size > 1 ||
        d->nr_samples > 1 || d->crc == PAN_IMAGE_CRC_INBAND ||
        d->explicit_offset_B % LEVEL_ALIGN_B))
      return false;

   return true;
}

/* Alignment of the level's extent in elements: tile, superblock (tile of
 * superblocks with tiled headers) or nothing. */
static void
el_alignment(const struct pan_image_desc *d, unsigned *w_el, unsigned *h_el,
             unsigned *rows_el)
{
   bool compressed = d->block_w_px > 1 || d->block_h_px > 1;

   switch (d->tiling) {
   case PAN_IMAGE_TILING_U_INTERLEAVED:
      *w_el = *h_el = *rows_el = compressed ? UTILE_COMPRESSED_EL : UTILE_EL;
      break;
   case PAN_IMAGE_TILING_AFBC: {
      unsigned sw, sh, t = d->afbc_tiled_headers ? AFBC_TILE_SB : 1;
      pan_afbc_superblock_size_px(d->afbc_superblock, &sw, &sh);
      *w_el = sw * t;
      *h_el = sh * t;
      *rows_el = sh;
      break;
   }
   default:
      *w_el = *h_el = *rows_el = 1;
      break;
   }
}

/* Lay out the AFBC header and body of a level whose one-surface body is
 * body_B.  Returns false on overflow or a too small explicit row stride. */
static bool
afbc_level(const struct pan_image_desc *d, struct pan_image_level *lvl,
           unsigned w_el, unsigned h_el, uint64_t body_B, uint64_t *offset_B)
{
   unsigned sw, sh, t = d->afbc_tiled_headers ? AFBC_TILE_SB : 1;
   pan_afbc_superblock_size_px(d->afbc_superblock, &sw, &sh);

   uint64_t row_B = (uint64_t)(w_el / sw) * t * AFBC_HEADER_B;
   unsigned header_rows = h_el / (sh * t);
   uint64_t body_align =
      d->afbc_tiled_headers ? AFBC_TILED_BODY_ALIGN_B : AFBC_BODY_ALIGN_B;
   uint64_t header_B = align64(row_B * header_rows, body_align);

   if (row_B > UINT32_MAX)
      return false;
   if (d->has_explicit_layout && d->explicit_row_stride_B < row_B)
      return false;

   lvl->row_stride_B = (uint32_t)row_B;
   lvl->afbc_header_stride_B = header_B;
   if (d->dim == PAN_IMAGE_DIM_3D) {
      /* All slices' headers first, then all bodies */
      lvl->afbc_header_size_B = header_B * lvl->depth_px;
      lvl->afbc_body_size_B = body_B * lvl->depth_px;
      lvl->surface_stride_B = body_B;
      *offset_B += lvl->afbc_header_size_B;
   } else {
      lvl->afbc_header_size_B = header_B;
      lvl->afbc_body_size_B = body_B;
      lvl->surface_stride_B = header_B + body_B;
   }
   return true;
}

static bool
layout_level(const struct pan_image_desc *d, unsigned l,
             struct pan_image_layout *out, uint64_t *offset_B,
             uint64_t *oob_crc_B)
{
   struct pan_image_level *lvl = &out->levels[l];
   unsigned align_w, align_h, tile_rows;
   el_alignment(d, &align_w, &align_h, &tile_rows);

   lvl->width_px = minify(d->width_px, l);
   lvl->height_px = minify(d->height_px, l);
   lvl->depth_px = d->dim == PAN_IMAGE_DIM_3D ? minify(d->depth_px, l) : 1;

   unsigned w_el = (unsigned)align64(div_up(lvl->width_px, d->block_w_px),
                                     align_w);
   unsigned h_el = (unsigned)align64(div_up(lvl->height_px, d->block_h_px),
                                     align_h);

   /* Bytes per row of tiles / superblocks / blocks */
   uint64_t row_B = (uint64_t)d->block_size_B * w_el * tile_rows;
   if (d->tiling == PAN_IMAGE_TILING_LINEAR && !d->has_explicit_layout)
      row_B = align64(row_B, LINEAR_ROW_ALIGN_B);
   if (d->has_explicit_layout && d->tiling != PAN_IMAGE_TILING_AFBC) {
      if (d->explicit_row_stride_B < row_B)
         return false;
      row_B = d->explicit_row_stride_B;
   }
   if (row_B > UINT32_MAX)
      return false;

   uint64_t surface_B = row_B * (h_el / tile_rows);

   *offset_B = align64(*offset_B, LEVEL_ALIGN_B);
   lvl->offset_B = *offset_B;
   lvl->row_stride_B = (uint32_t)row_B;
   lvl->surface_stride_B = surface_B;

   if (d->tiling == PAN_IMAGE_TILING_AFBC &&
       !afbc_level(d, lvl, w_el, h_el, surface_B, offset_B))
      return false;

   /* Depth slices or samples, one after the other */
   uint64_t data_B = (d->tiling == PAN_IMAGE_TILING_AFBC &&
                      d->dim == PAN_IMAGE_DIM_3D)
                        ? surface_B * lvl->depth_px
                        : lvl->surface_stride_B * lvl->depth_px *
                             d->nr_samples;
   *offset_B += data_B;
   lvl->size_B = data_B;

   if (d->crc != PAN_IMAGE_CRC_NONE) {
      lvl->crc_row_stride_B = div_up(lvl->width_px, CRC_TILE_PX) *
                              CRC_B_PER_TILE;
      lvl->crc_size_B = lvl->crc_row_stride_B *
                        div_up(lvl->height_px, CRC_TILE_PX);
      if (d->crc == PAN_IMAGE_CRC_INBAND) {
         lvl->crc_offset_B = *offset_B;
         *offset_B += lvl->crc_size_B;
         lvl->size_B += lvl->crc_size_B;
      } else {
         lvl->crc_offset_B = *oob_crc_B;
         *oob_crc_B += lvl->crc_size_B;
      }
   }
   return true;
}

bool
pan_image_layout_init(const struct pan_image_desc *desc,
                      struct pan_image_layout *out)
{
   memset(out, 0, sizeof(*out));
   if (!desc_valid(desc))
      return false;

   uint64_t offset_B = desc->has_explicit_layout ? desc->explicit_offset_B : 0;
   uint64_t oob_crc_B = 0;

   out->nr_levels = desc->nr_levels;
   for (unsigned l = 0; l < desc->nr_levels; ++l) {
      if (!layout_level(desc, l, out, &offset_B, &oob_crc_B))
         return false;
   }

   /* Each array layer holds a whole mip chain */
   out->array_stride_B = align64(offset_B, LEVEL_ALIGN_B);
   out->data_size_B =
      desc->has_explicit_layout
         ? offset_B
         : align64(out->array_stride_B * desc->array_size, ARRAY_SIZE_ALIGN_B);
   out->crc_size_B = oob_crc_B;
   return true;
}

uint64_t
pan_image_surface_offset_B(const struct pan_image_desc *desc,
                           const struct pan_image_layout *layout,
                           unsigned level, unsigned layer,
                           unsigned slice_or_sample)
{
   const struct pan_image_level *lvl = &layout->levels[level];
   bool afbc_3d = desc->tiling == PAN_IMAGE_TILING_AFBC &&
                  desc->dim == PAN_IMAGE_DIM_3D;

   if (afbc_3d)
      return lvl->offset_B + slice_or_sample * lvl->afbc_header_stride_B;

   return lvl->offset_B + layer * layout->array_stride_B +
          slice_or_sample * lvl->surface_stride_B;
}

uint64_t
pan_image_afbc_body_offset_B(const struct pan_image_desc *desc,
                             const struct pan_image_layout *layout,
                             unsigned level, unsigned layer, unsigned slice)
{
   const struct pan_image_level *lvl = &layout->levels[level];

   if (desc->dim == PAN_IMAGE_DIM_3D)
      return lvl->offset_B + lvl->afbc_header_size_B +
             slice * lvl->surface_stride_B;

   return pan_image_surface_offset_B(desc, layout, level, layer, 0) +
          lvl->afbc_header_size_B;
}
