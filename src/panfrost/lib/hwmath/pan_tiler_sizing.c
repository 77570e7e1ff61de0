/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include "pan_tiler_sizing.h"

static uint64_t
align_u64(uint64_t v, uint64_t a)
{
   return (v + a - 1) / a * a;
}

static unsigned
log2_u32(uint32_t v)
{
   return 31 - __builtin_clz(v);
}

static uint32_t
next_pot(uint32_t v)
{
   return v <= 1 ? 1 : 1u << (32 - __builtin_clz(v - 1));
}

uint32_t
pan_tiler_tile_count(unsigned fb_width_px, unsigned fb_height_px,
                     unsigned tile_w_px, unsigned tile_h_px)
{
   uint32_t nx = (fb_width_px + tile_w_px - 1) / tile_w_px;
   uint32_t ny = (fb_height_px + tile_h_px - 1) / tile_h_px;
   return nx * ny;
}

bool
pan_midgard_hierarchy_mask_valid(unsigned mask)
{
   return mask != 0 && !(mask & ~PAN_MIDGARD_TILER_MASK_ALL);
}

unsigned
pan_midgard_hierarchy_mask(unsigned fb_width_px, unsigned fb_height_px)
{
   (void)fb_width_px;
   (void)fb_height_px;
   /* No heuristic yet: 16x16 through 2048x2048, as the reference driver */
   return 0xff;
}

/* Tiles summed over the enabled levels */
static uint64_t
hierarchy_tiles(unsigned w, unsigned h, unsigned mask)
{
   uint64_t tiles = 0;

   for (unsigned level = 0; level < PAN_MIDGARD_TILER_LEVELS; ++level) {
      if (mask & (1u << level)) {
         unsigned size = PAN_TILER_MIN_TILE_PX << level;
         tiles += pan_tiler_tile_count(w, h, size, size);
      }
   }
   return tiles;
}

static bool
fill_disabled(bool hierarchy, struct pan_midgard_polygon_list *out)
{
   out->hierarchy_mask =
      hierarchy ? PAN_MIDGARD_TILER_DISABLED : PAN_MIDGARD_TILER_USER;
   out->header_size_B = PAN_MIDGARD_MIN_HEADER_B;
   /* The flat tiler wants one word of body to read the end marker from */
   out->body_size_B = PAN_MIDGARD_MIN_HEADER_B + (hierarchy ? 0 : 4);
   out->total_size_B = PAN_MIDGARD_MIN_HEADER_B + 4;
   out->alloc_size_B = next_pot(out->total_size_B);
   return true;
}

static bool
fill_sizes(uint64_t header, uint64_t body, struct pan_midgard_polygon_list *out)
{
   uint64_t total = header + body;

   if (total > (1u << 31))
      return false;

   out->header_size_B = (uint32_t)header;
   out->body_size_B = (uint32_t)body;
   out->total_size_B = (uint32_t)total;
   out->alloc_size_B = next_pot((uint32_t)total);
   return true;
}

bool
pan_midgard_polygon_list(unsigned fb_width_px, unsigned fb_height_px,
                         unsigned mask, bool has_draws,
                         struct pan_midgard_polygon_list *out)
{
   if (!has_draws)
      return fill_disabled(true, out);

   if (!pan_midgard_hierarchy_mask_valid(mask) || !fb_width_px ||
       !fb_height_px)
      return false;

   uint64_t tiles = hierarchy_tiles(fb_width_px, fb_height_px, mask);
   uint64_t header =
      align_u64(PAN_MIDGARD_PROLOGUE_B + tiles * PAN_MIDGARD_HEADER_B_PER_TILE,
                PAN_MIDGARD_LIST_ALIGN_B);
   uint64_t body =
      align_u64(PAN_MIDGARD_PROLOGUE_B + tiles * PAN_MIDGARD_BODY_B_PER_TILE,
                PAN_MIDGARD_LIST_ALIGN_B);

   out->hierarchy_mask = mask;
   return fill_sizes(header, body, out);
}

/* Smallest power-of-two tile of at least 16 px giving at most 63 tiles.
 * (The reference driver's next_pot(size / 63) can give 64 or 65 tiles for
 * sizes just above 63 * 2^n; we keep strictly to the limit.) */
static unsigned
flat_tile_px(unsigned fb_px)
{
   unsigned t = PAN_TILER_MIN_TILE_PX;
   while ((fb_px + t - 1) / t > 63)
      t *= 2;
   return t;
}

unsigned
pan_midgard_flat_tile_field(unsigned fb_width_px, unsigned fb_height_px)
{
   unsigned w = flat_tile_px(fb_width_px), h = flat_tile_px(fb_height_px);
   return log2_u32(w / 16) | (log2_u32(h / 16) << 6);
}

/*
 * Flat tiling sizes are 512 + the per-tile bytes rounded DOWN to 512.  The
 * reference driver counts tiles of half the chosen width and height here
 * (four times as many), which over-allocates but is what is known to work
 * on hardware; we keep that.
 */
static uint64_t
flat_size(unsigned w, unsigned h, unsigned field, unsigned bytes_per_tile)
{
   unsigned tw = (16u << (field & 0x7)) / 2;
   unsigned th = (16u << ((field >> 6) & 0x7)) / 2;
   uint64_t raw = (uint64_t)pan_tiler_tile_count(w, h, tw, th) * bytes_per_tile;

   return PAN_MIDGARD_LIST_ALIGN_B +
          raw / PAN_MIDGARD_LIST_ALIGN_B * PAN_MIDGARD_LIST_ALIGN_B;
}

bool
pan_midgard_flat_polygon_list(unsigned fb_width_px, unsigned fb_height_px,
                              bool has_draws,
                              struct pan_midgard_polygon_list *out)
{
   if (!has_draws)
      return fill_disabled(false, out);

   if (!fb_width_px || !fb_height_px)
      return false;

   unsigned field = pan_midgard_flat_tile_field(fb_width_px, fb_height_px);
   out->hierarchy_mask = field;
   return fill_sizes(flat_size(fb_width_px, fb_height_px, field,
                               PAN_MIDGARD_HEADER_B_PER_TILE),
                     flat_size(fb_width_px, fb_height_px, field,
                               PAN_MIDGARD_BODY_B_PER_TILE),
                     out);
}

struct pan_tiler_features
pan_decode_tiler_features(uint32_t raw)
{
   return (struct pan_tiler_features){
      .bin_size_B = 1u << (raw & 0x1f),
      .max_levels = (raw >> 8) & 0xf,
   };
}

bool
pan_tiler_context_params(const struct pan_tiler_features *features,
                         unsigned fb_width_px, unsigned fb_height_px,
                         struct pan_tiler_context_params *out)
{
   if (features->max_levels < 2 || !fb_width_px || !fb_height_px ||
       fb_width_px > 65536 || fb_height_px > 65536)
      return false;

   unsigned mask = features->max_levels >= 8 ? 0xff : 0x28;
   unsigned larger = fb_width_px > fb_height_px ? fb_width_px : fb_height_px;

   if (larger >= 4096)
      mask &= ~1u;

   out->hierarchy_mask = mask;
   out->fb_width_px = fb_width_px;
   out->fb_height_px = fb_height_px;
   return true;
}

bool
pan_tiler_heap_layout(uint32_t reserved_size_B,
                      struct pan_tiler_heap_layout *out)
{
   if (reserved_size_B == 0)
      reserved_size_B = PAN_TILER_HEAP_RESERVED_B;
   if (reserved_size_B % 4096)
      return false;

   out->reserved_size_B = reserved_size_B;
   out->initial_commit_B = 0;
   out->grow_size_B = PAN_TILER_HEAP_GROW_B;
   out->kernel_bo_flags = PAN_KERNEL_BO_HEAP | PAN_KERNEL_BO_NOEXEC;
   out->bottom_offset_B = 0;
   out->top_offset_B = reserved_size_B;
   return true;
}
