/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Reading back the images a fragment job wrote, for observers of a run
 * (pan-replay, the drm-shim's PAN_SHIM_DUMP). The layout and formats are
 * the ones the fragment executor took from the framebuffer descriptor
 * (struct pan_sim_fill), so nothing here reads a descriptor again.
 */

#include <string.h>

#include "pan_sim_draw.h"
#include "pan_sim_priv.h"

void
pan_sim_report_images(struct pan_sim_ctx *ctx, uint64_t job_va,
                      const struct pan_sim_rect *rect,
                      const struct pan_sim_fill *fills, unsigned count)
{
   unsigned fragment = ctx->fragments++;

   if (!ctx->opts->on_image)
      return;
   for (unsigned i = 0; i < count; ++i) {
      const struct pan_sim_fill *f = &fills[i];
      struct pan_sim_image img = {
         .fragment = fragment,
         .job_va = job_va,
         .kind = f->rt >= 0              ? PAN_SIM_IMAGE_COLOR
                 : f->zs.depth_bits != 0 ? PAN_SIM_IMAGE_DEPTH_STENCIL
                                         : PAN_SIM_IMAGE_STENCIL,
         .rt = f->rt >= 0 ? (unsigned)f->rt : 0,
         .x0 = rect->x0,
         .y0 = rect->y0,
         .w = rect->x1 - rect->x0 + 1,
         .h = rect->y1 - rect->y0 + 1,
         .layers = f->layers ? f->layers : 1,
         .texel_B = f->px.size_B,
         .base = f->base,
         .rgba8 = f->rt >= 0 && !f->wb.raw && !f->wb.native && !f->tib.raw,
         .format = f->rt >= 0 ? f->wb.name : f->zs.name,
         .fill = f,
      };
      ctx->opts->on_image(ctx->opts->data, &img);
   }
}

/* The texel at (x, y) of layer l, inside the rectangle the executor
 * checked (pan_sim_fill_check); zeros where an AFBC header the job did not
 * write cannot be decoded (the job would have faulted on one it wrote). */
static const uint8_t *
texel(const struct pan_sim_fill *f, unsigned x, unsigned y, unsigned l)
{
   static const uint8_t zero[PAN_SIM_MAX_PIXEL_B];
   char err[PAN_SIM_AFBC_ERR_LEN];
   const uint8_t *p = pan_sim_fill_pixel(f, x, y, l, err);

   return p ? p : zero;
}

void
pan_sim_image_texels(const struct pan_sim_image *img, unsigned layer,
                     uint8_t *out)
{
   for (unsigned y = 0; y < img->h; ++y) {
      for (unsigned x = 0; x < img->w; ++x) {
         memcpy(out, texel(img->fill, img->x0 + x, img->y0 + y, layer),
                img->texel_B);
         out += img->texel_B;
      }
   }
}

bool
pan_sim_image_rgba8(const struct pan_sim_image *img, unsigned layer,
                    uint8_t *out)
{
   const struct pan_sim_fill *f = img->fill;

   if (!img->rgba8)
      return false;
   for (unsigned y = 0; y < img->h; ++y) {
      for (unsigned x = 0; x < img->w; ++x, out += 4) {
         uint32_t w[4];
         unsigned pos = 0;

         pan_sim_unpixel(f, texel(f, img->x0 + x, img->y0 + y, layer), w);
         for (unsigned c = 0; c < 4; ++c) {
            unsigned n = f->tib.int_bits[c], frac = f->tib.frac_bits[c];
            uint32_t raw = (w[0] >> (pos + frac)) & ((1u << n) - 1);
            uint32_t max = (1u << n) - 1;

            out[c] =
               n ? (uint8_t)((raw * 255u + max / 2) / max) : (c == 3 ? 255 : 0);
            pos += n + frac;
         }
      }
   }
   return true;
}
