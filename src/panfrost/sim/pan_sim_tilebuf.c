/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The tile buffer of a frame with draws: one tile-buffer word per sample
 * and colour target (the layout of the clear words, so write-back is the
 * clear path's conversion applied pixel by pixel), a float depth and a
 * stencil value per sample and which samples the draws changed.  The whole
 * frame rectangle is kept at once rather than tile by tile: functionally the
 * same, since draws never read a neighbouring tile.
 */

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pan_sim_draw.h"
#include "pan_sim_priv.h"
#include "pan_uinterleave.h"

bool
pan_sim_tilebuf_init(struct pan_sim_tilebuf *tb, int x0, int y0, unsigned w,
                     unsigned h, unsigned samples, float z_clear,
                     uint8_t s_clear)
{
   size_t n = (size_t)w * h * samples;

   memset(tb, 0, sizeof(*tb));
   if (!samples || samples > PAN_SIM_MAX_SAMPLES)
      return false;
   tb->x0 = x0;
   tb->y0 = y0;
   tb->w = w;
   tb->h = h;
   tb->samples = samples;
   for (unsigned s = 0; s < samples; ++s)
      tb->sample_x[s] = tb->sample_y[s] = 128;
   tb->depth = malloc(n * sizeof(float));
   tb->written = calloc(n, sizeof(uint16_t));
   tb->stencil = malloc(n ? n : 1);
   if (!tb->depth || !tb->written || !tb->stencil)
      return false;
   memset(tb->stencil, s_clear, n);
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
   size_t n = (size_t)tb->w * tb->h * tb->samples;

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
   free(tb->stencil);
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
      /* A channel the buffer does not keep reads as one (and may sit past
       * bit 31: R5G6B5's alpha has only fraction bits).
       */
      uint32_t raw =
         n ? (w[0] >> (pos + rt->frac_bits[c])) & ((1u << n) - 1) : 0;
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

/* Offset of pixel (x, y) from the image base, layer 0. */
static uint64_t
pixel_offset(const struct pan_sim_fill *fill, unsigned x, unsigned y,
             unsigned el)
{
   return fill->layout == PAN_SIM_LINEAR
             ? (uint64_t)y * fill->row_stride_B + (uint64_t)x * el
             : pan_uinterleave_ref_offset_B(x, y, fill->row_stride_B, el,
                                            false);
}

/* Unsigned normalised n-bit value to m bits, rounding to nearest. */
static uint32_t
rescale(uint32_t v, unsigned n, unsigned m)
{
   uint64_t max_n = (1ull << n) - 1, max_m = (1ull << m) - 1;
   return n == m ? v : (uint32_t)((2 * v * max_m + max_n) / (2 * max_n));
}

/* Memory pixel -> tile-buffer words: the inverse of the write-back
 * conversion (pan_sim_color_pixel).  Channels no component comes from
 * read as zero, alpha as one. */
void
pan_sim_unpixel(const struct pan_sim_fill *fill, const uint8_t *src,
                uint32_t w[4])
{
   const struct pan_sim_tib_format *tib = &fill->tib;
   const struct pan_sim_wb_format *wb = &fill->wb;

   memset(w, 0, 16);
   if (wb->raw || wb->native) {
      memcpy(w, src, fill->px.size_B < 16 ? fill->px.size_B : 16);
      return;
   }
   unsigned start[4], pos = 0;
   for (unsigned c = 0; c < 4; ++c) {
      start[c] = pos + tib->frac_bits[c];
      pos += tib->int_bits[c] + tib->frac_bits[c];
   }
   unsigned n3 = tib->int_bits[3];
   if (n3)
      w[0] |= ((1u << n3) - 1) << start[3];
   unsigned bit = 0;
   for (unsigned k = 0; k < wb->comps; ++k) {
      unsigned sel = (fill->swizzle >> (3 * k)) & 7, m = wb->bits[k];
      uint32_t v = 0;
      for (unsigned b = 0; b < m; ++b, ++bit)
         v |= (uint32_t)((src[bit / 8] >> (bit % 8)) & 1) << b;
      if (sel > 3 || !tib->int_bits[sel])
         continue;
      unsigned n = tib->int_bits[sel];
      uint32_t mask = ((1u << n) - 1) << start[sel];
      w[0] = (w[0] & ~mask) | (rescale(v, m, n) << start[sel]);
   }
}

/* The AFBC surface of a fill, mapped by pan_sim_afbc_fill_check. */
static struct pan_sim_afbc_buf
afbc_buf(const struct pan_sim_fill *fill, unsigned l)
{
   struct pan_sim_afbc_buf b = {
      .buf = fill->cpu + (uint64_t)l * fill->layer_stride_B,
      .size_B = fill->layer_stride_B,
      .body_off = fill->afbc_body_off,
   };
   return b;
}

const uint8_t *
pan_sim_fill_pixel(const struct pan_sim_fill *fill, unsigned x, unsigned y,
                   unsigned l, char *err)
{
   if (fill->layout == PAN_SIM_AFBC) {
      struct pan_sim_afbc_buf b = afbc_buf(fill, l);
      return pan_sim_afbc_pixel(&fill->afbc, &b, x, y, err);
   }
   return fill->cpu + (pixel_offset(fill, x, y, fill->px.size_B) +
                       (uint64_t)l * fill->layer_stride_B -
                       fill->cpu_first_off);
}

bool
pan_sim_tilebuf_load_rt(struct pan_sim_ctx *ctx, struct pan_sim_tilebuf *tb,
                        const struct pan_sim_fill *fill,
                        const struct pan_sim_rect *r)
{
   struct pan_sim_tb_rt *t = &tb->rt[fill->rt];
   char err[PAN_SIM_AFBC_ERR_LEN];

   if (fill->tib.raw && !fill->wb.raw && !fill->wb.native)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, fill->base,
                           "%s: loading %s into tile-buffer format %s is "
                           "not modelled",
                           fill->what, fill->wb.name, fill->tib.name);
   /* A multisampled image (a layer a sample) loads sample by sample;
    * otherwise every sample starts from the pixel. */
   bool per_sample = tb->samples > 1 && fill->layers == tb->samples;
   for (unsigned y = r->y0; y <= r->y1; ++y) {
      for (unsigned x = r->x0; x <= r->x1; ++x) {
         unsigned at = pan_sim_tilebuf_at(tb, (int)x, (int)y);
         for (unsigned s = 0; s < tb->samples; ++s) {
            const uint8_t *src =
               pan_sim_fill_pixel(fill, x, y, per_sample ? s : 0, err);
            if (!src)
               return pan_sim_fault(ctx, PAN_SIM_READ_FAULT, fill->base,
                                    "%s: %s", fill->what, err);
            pan_sim_unpixel(fill, src, &t->words[4 * (at + s)]);
         }
      }
   }
   return true;
}

bool
pan_sim_fill_put_layer(struct pan_sim_ctx *ctx, const struct pan_sim_fill *fill,
                       unsigned x, unsigned y, unsigned l,
                       const struct pan_sim_pixel *px)
{
   unsigned el = px->size_B;
   char err[PAN_SIM_AFBC_ERR_LEN];

   if (fill->layout == PAN_SIM_AFBC) {
      struct pan_sim_afbc_buf b = afbc_buf(fill, l);
      if (!pan_sim_afbc_store(&fill->afbc, &b, x, y, px->bytes, px->mask, err))
         return pan_sim_fault(ctx, PAN_SIM_WRITE_FAULT, fill->base, "%s: %s",
                              fill->what, err);
      return true;
   }
   uint8_t *dst =
      fill->cpu + (pixel_offset(fill, x, y, el) +
                   (uint64_t)l * fill->layer_stride_B - fill->cpu_first_off);
   for (unsigned i = 0; i < el; ++i)
      dst[i] =
         (uint8_t)((dst[i] & ~px->mask[i]) | (px->bytes[i] & px->mask[i]));
   return true;
}

bool
pan_sim_fill_put(struct pan_sim_ctx *ctx, const struct pan_sim_fill *fill,
                 unsigned x, unsigned y, const struct pan_sim_pixel *px)
{
   for (unsigned l = 0; l < fill->layers; ++l) {
      if (!pan_sim_fill_put_layer(ctx, fill, x, y, l, px))
         return false;
   }
   return true;
}

bool
pan_sim_afbc_fill_check(struct pan_sim_ctx *ctx, struct pan_sim_fill *fill,
                        const struct pan_sim_rect *r)
{
   const struct pan_sim_afbc *a = &fill->afbc;
   unsigned sb_w = a->wide ? 32 : 16, sb_h = a->wide ? 8 : 16;

   if (!fill->layers)
      fill->layers = 1;
   if (fill->layers > 1)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, fill->base,
                           "%s: multisampled AFBC is not executed yet",
                           fill->what);
   if (a->tiled && a->sb_per_row % 8)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, fill->base,
                           "%s: tiled AFBC headers with a row of %u "
                           "superblocks (not whole header tiles)",
                           fill->what, a->sb_per_row);
   if ((r->x1 + sb_w) / sb_w > a->sb_per_row)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, fill->base,
                           "%s: AFBC row of %u superblocks is narrower than "
                           "the frame (%u pixels)",
                           fill->what, a->sb_per_row, r->x1 + 1);
   if (fill->afbc_body_off & 15)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, fill->base,
                           "%s: AFBC body offset 0x%" PRIx64
                           " is not 16-byte aligned",
                           fill->what, fill->afbc_body_off);

   /* Superblocks up to the last one of the frame, whole header tiles when
    * tiled; the body holds one uncompressed payload for each. */
   uint64_t rows = (r->y1 + sb_h) / sb_h;
   if (a->tiled)
      rows = (rows + 7) / 8 * 8;
   uint64_t n = rows * a->sb_per_row;
   if (fill->afbc_body_off < n * PAN_SIM_AFBC_HEADER_B)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, fill->base,
                           "%s: AFBC body at +0x%" PRIx64 " overlaps the %" PRIu64
                           " headers",
                           fill->what, fill->afbc_body_off, n);
   uint64_t size = fill->afbc_body_off + n * pan_sim_afbc_payload_B(a);
   fill->cpu = pan_sim_ctx_write(ctx, fill->base, size, fill->what);
   if (!fill->cpu)
      return false;
   fill->cpu_first_off = 0;
   /* One layer: the stride is the surface checked. */
   fill->layer_stride_B = (uint32_t)size;
   return true;
}

bool
pan_sim_afbc_fill_run(struct pan_sim_ctx *ctx, const struct pan_sim_fill *fill,
                      const struct pan_sim_rect *r)
{
   for (unsigned y = r->y0; y <= r->y1; ++y) {
      for (unsigned x = r->x0; x <= r->x1; ++x) {
         if (!pan_sim_fill_put(ctx, fill, x, y, &fill->px))
            return false;
      }
   }
   return true;
}
