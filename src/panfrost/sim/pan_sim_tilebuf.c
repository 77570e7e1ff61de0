/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The tile buffer of a frame with draws: one tile-buffer word per pixel
 * and colour target (the layout of the clear words, so write-back is the
 * clear path's conversion applied pixel by pixel), a float depth per pixel
 * and which pixels the draws changed.  The whole frame rectangle is kept
 * at once rather than tile by tile: functionally the same, since draws
 * never read a neighbouring tile.
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pan_sim_draw.h"
#include "pan_sim_priv.h"
#include "pan_uinterleave.h"

bool
pan_sim_tilebuf_init(struct pan_sim_tilebuf *tb, int x0, int y0, unsigned w,
                     unsigned h, float z_clear)
{
   size_t n = (size_t)w * h;

   memset(tb, 0, sizeof(*tb));
   tb->x0 = x0;
   tb->y0 = y0;
   tb->w = w;
   tb->h = h;
   tb->depth = malloc(n * sizeof(float));
   tb->written = calloc(n, sizeof(uint16_t));
   if (!tb->depth || !tb->written)
      return false;
   for (size_t i = 0; i < n; ++i)
      tb->depth[i] = z_clear;
   return true;
}

bool
pan_sim_tilebuf_add_rt(struct pan_sim_tilebuf *tb, unsigned rt,
                       const uint8_t int_bits[4], const uint8_t frac_bits[4],
                       const uint32_t clear[4])
{
   struct pan_sim_tb_rt *t = &tb->rt[rt];
   size_t n = (size_t)tb->w * tb->h;

   t->words = malloc(n * 16);
   if (!t->words)
      return false;
   t->present = true;
   memcpy(t->int_bits, int_bits, 4);
   memcpy(t->frac_bits, frac_bits, 4);
   for (size_t i = 0; i < n; ++i)
      memcpy(&t->words[4 * i], clear, 16);
   return true;
}

void
pan_sim_tilebuf_fini(struct pan_sim_tilebuf *tb)
{
   for (unsigned i = 0; i < PAN_SIM_MAX_RTS; ++i)
      free(tb->rt[i].words);
   free(tb->depth);
   free(tb->written);
   memset(tb, 0, sizeof(*tb));
}

void
pan_sim_tib_decode(const struct pan_sim_tb_rt *rt, const uint32_t *w,
                   float rgba[4])
{
   unsigned pos = 0;

   for (unsigned c = 0; c < 4; ++c) {
      unsigned n = rt->int_bits[c];
      uint32_t raw = (w[0] >> (pos + rt->frac_bits[c])) & ((1u << n) - 1);
      /* A channel the buffer does not keep reads as one. */
      rgba[c] = n ? (float)raw / (float)((1u << n) - 1) : 1.0f;
      pos += n + rt->frac_bits[c];
   }
}

void
pan_sim_tib_encode(const struct pan_sim_tb_rt *rt, const float rgba[4],
                   unsigned mask, uint32_t *w)
{
   unsigned pos = 0;

   for (unsigned c = 0; c < 4; ++c) {
      unsigned n = rt->int_bits[c], f = rt->frac_bits[c];
      if ((mask & (1u << c)) && n) {
         float v = isnan(rgba[c]) ? 0.0f : fminf(fmaxf(rgba[c], 0.0f), 1.0f);
         /* Round to the stored precision; the fraction bits below the
          * channel (dithering precision) are left zero. */
         uint32_t raw = (uint32_t)lrintf(v * (float)((1u << n) - 1));
         uint32_t m = ((1u << (n + f)) - 1) << pos;
         w[0] = (w[0] & ~m) | ((raw << f) << pos);
      }
      pos += n + f;
   }
}

void
pan_sim_fill_put(const struct pan_sim_fill *fill, unsigned x, unsigned y,
                 const struct pan_sim_pixel *px)
{
   unsigned el = px->size_B;
   uint64_t off =
      fill->layout == PAN_SIM_LINEAR
         ? (uint64_t)y * fill->row_stride_B + (uint64_t)x * el
         : pan_uinterleave_ref_offset_B(x, y, fill->row_stride_B, el, false);

   for (unsigned l = 0; l < fill->layers; ++l) {
      uint8_t *dst = fill->cpu + (off + (uint64_t)l * fill->layer_stride_B -
                                  fill->cpu_first_off);
      for (unsigned i = 0; i < el; ++i)
         dst[i] =
            (uint8_t)((dst[i] & ~px->mask[i]) | (px->bytes[i] & px->mask[i]));
   }
}
