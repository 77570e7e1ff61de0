/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The architecture-independent half of pan_fb.h: picking the
 * per-architecture emitter, tile sizing, and the small tables every
 * framebuffer needs.
 */

#include <assert.h>
#include <stddef.h>
#include <string.h>

#include "util/macros.h"
#include "util/u_math.h"

#include "pan_fb_arch.h"
#include "pan_tiler_sizing.h"

/* The one place that maps an architecture to its emitter. */
static const struct pan_fb_arch *
fb_arch(unsigned arch)
{
   switch (arch) {
#ifdef PAN_FB_HAVE_V4
   case 4: return &pan_v4_fb_arch;
#endif
#ifdef PAN_FB_HAVE_V5
   case 5: return &pan_v5_fb_arch;
#endif
#ifdef PAN_FB_HAVE_V6
   case 6: return &pan_v6_fb_arch;
#endif
#ifdef PAN_FB_HAVE_V7
   case 7: return &pan_v7_fb_arch;
#endif
#ifdef PAN_FB_HAVE_V9
   case 9: return &pan_v9_fb_arch;
#endif
   default: return NULL;
   }
}

bool
pan_fb_color_supported(unsigned arch, const struct pan_rt_format *f)
{
   const struct pan_fb_arch *a = fb_arch(arch);
   return a && a->color_supported(f);
}

bool
pan_fb_zs_supported(unsigned arch, enum pan_zs_layout layout)
{
   const struct pan_fb_arch *a = fb_arch(arch);
   return a && a->zs_supported(layout);
}

unsigned
pan_fb_size_B(unsigned arch, const struct pan_fb *fb)
{
   return fb_arch(arch)->size_B(fb);
}

unsigned
pan_fragment_job_size_B(unsigned arch)
{
   return fb_arch(arch)->fragment_job_size_B();
}

uint64_t
pan_fb_emit(unsigned arch, const struct pan_fb *fb, void *cpu,
            uint64_t gpu_va)
{
   assert(!(gpu_va % PAN_FB_ALIGN_B));
   return fb_arch(arch)->emit(fb, cpu, gpu_va);
}

void
pan_fb_emit_fragment_job(unsigned arch, const struct pan_fb *fb,
                         uint64_t fbd_ptr, void *cpu)
{
   fb_arch(arch)->emit_fragment_job(fb, fbd_ptr, cpu);
}

void
pan_fb_tile_size(const struct pan_fb *fb, unsigned *tile_px,
                 unsigned *cbuf_B)
{
   unsigned bpp = 0;

   for (unsigned i = 0; i < fb->rt_count; ++i) {
      if (fb->rts[i].enabled)
         bpp += fb->rts[i].format.tib_B;
   }
   /* Every sample has its colour in the tile buffer. */
   bpp = util_next_power_of_two(MAX2(bpp, 1) * MAX2(fb->nr_samples, 1));

   /* As many pixels as the budget holds, at most one 16x16 tile and at
    * least 4x4; the colour buffer is allocated in 1 KiB units.
    */
   unsigned px = fb->tile_budget_B / bpp;
   px = CLAMP(px, 4 * 4, PAN_TILE_PX * PAN_TILE_PX);
   *tile_px = 1u << util_logbase2(px);
   *cbuf_B = ALIGN_POT(bpp * *tile_px, 1024);
}

void
pan_fb_init_empty_polygon_list(const struct pan_fb *fb, void *cpu)
{
   memset(cpu, 0, PAN_FB_EMPTY_POLYGON_LIST_B);

   /* A tiler without hierarchy reads one list body even when binning is
    * off; this word terminates it.
    */
   if (fb->no_hierarchical_tiling) {
      uint32_t end = 0xa0000000u;
      memcpy((uint8_t *)cpu + PAN_MIDGARD_MIN_HEADER_B, &end, sizeof(end));
   }
}

/* The 4x positions, (x, y) in 1/256 pixel from the pixel's corner: the
 * rotated grid, so that no two samples share a row or a column.
 */
static const uint16_t pan_grid4[4][2] = {
   { 96, 32 }, { 224, 96 }, { 32, 160 }, { 160, 224 },
};

void
pan_fb_sample_position(unsigned nr_samples, unsigned s, float pos[2])
{
   bool four = nr_samples == 4 && s < 4;

   pos[0] = four ? pan_grid4[s][0] / 256.0f : 0.5f;
   pos[1] = four ? pan_grid4[s][1] / 256.0f : 0.5f;
}

void
pan_fb_write_sample_positions(void *cpu)
{
   /* Each table holds (x, y) in 1/256 pixel from the pixel's corner, one
    * pair a sample, and at index 32 the pixel origin the shaders read (the
    * centre).  Single sample: the centre.  4x: pan_grid4.
    */
   uint16_t table[PAN_SAMPLE_POSITIONS_B / 2] = {0};
   uint16_t *one = table, *four = table + PAN_SAMPLE_POSITIONS_4X_B / 2;

   one[0] = one[1] = 128;
   one[64] = one[65] = 128;
   for (unsigned s = 0; s < 4; ++s) {
      four[2 * s] = pan_grid4[s][0];
      four[2 * s + 1] = pan_grid4[s][1];
   }
   four[64] = four[65] = 128;
   memcpy(cpu, table, sizeof(table));
}
