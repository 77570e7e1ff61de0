/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Arch-neutral pixel work of the simulator: tile-buffer values to memory
 * pixels, depth/stencil packing, and filling an image rectangle with one
 * pixel in the linear or u-interleaved layout.
 *
 * The simulator keeps its own description of the tile-buffer and
 * write-back layouts (here and in the format tables of
 * pan_sim_vX_fragment.c) on purpose. It models the hardware, so it must not
 * share the driver's assumptions: it never uses lib/'s pan_rt_format or
 * format table. If the driver packs a format wrongly, the pixels the
 * simulator writes differ from what the driver meant, and end-to-end tests
 * catch it; a shared table would make both sides wrong in the same way.
 */

/* clock_gettime() in strict C11 builds */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "pan_sim_priv.h"
#include "pan_uinterleave.h"

/* Writes the low `width` bits of value at bit `start`, a byte at a time:
 * every written-back pixel comes through here. */
static void
put_bits(struct pan_sim_pixel *px, unsigned start, unsigned width,
         uint64_t value)
{
   while (width) {
      unsigned shift = start % 8, n = 8 - shift < width ? 8 - shift : width;
      uint8_t m = (uint8_t)(((1u << n) - 1) << shift);
      uint8_t *b = &px->bytes[start / 8];

      px->mask[start / 8] |= m;
      *b = (uint8_t)((*b & ~m) | ((uint8_t)(value << shift) & m));
      value >>= n;
      start += n;
      width -= n;
   }
}

/* Unsigned normalised n-bit value to m bits, rounding to nearest. */
static uint32_t
unorm_rescale(uint32_t v, unsigned n, unsigned m)
{
   uint64_t max_n = (1ull << n) - 1, max_m = (1ull << m) - 1;

   if (n == m)
      return v;
   return (uint32_t)((2 * v * max_m + max_n) / (2 * max_n));
}

bool
pan_sim_color_pixel(struct pan_sim_ctx *ctx, const char *what,
                   const struct pan_sim_tib_format *tib,
                   const struct pan_sim_wb_format *wb, uint32_t swizzle,
                   const uint32_t clear[4], struct pan_sim_pixel *out)
{
   memset(out, 0, sizeof(*out));

   if (wb->raw || wb->native) {
      /* The tile-buffer bytes as they are. */
      unsigned size_B = wb->raw ? wb->size_B : tib->raw ? tib->raw_B : 4;
      uint8_t words[16];

      if (!size_B)
         return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, 0,
                             "%s: write-back format %s needs a sized "
                             "tile-buffer format, not %s",
                             what, wb->name, tib->name);
      if (size_B > sizeof(words))
         return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, 0,
                             "%s: %s pixels are larger than a clear value "
                             "(%u > 16 bytes)",
                             what, wb->name, size_B);
      for (unsigned i = 0; i < 16; ++i)
         words[i] = (uint8_t)(clear[i / 4] >> (8 * (i % 4)));
      out->size_B = (uint8_t)size_B;
      memcpy(out->bytes, words, size_B);
      memset(out->mask, 0xff, size_B);
      return true;
   }

   if (tib->raw)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, 0,
                          "%s: tile-buffer format %s can only be written "
                          "back raw, not as %s",
                          what, tib->name, wb->name);

   /* Where each logical channel starts in the tile-buffer word. */
   unsigned start[4], pos = 0;
   for (unsigned c = 0; c < 4; ++c) {
      start[c] = pos;
      pos += tib->int_bits[c] + tib->frac_bits[c];
   }

   out->size_B = (uint8_t)wb->size_B;
   unsigned bit = 0;
   for (unsigned k = 0; k < wb->comps; ++k) {
      unsigned sel = (swizzle >> (3 * k)) & 7;
      unsigned m = wb->bits[k];
      uint32_t max_m = (uint32_t)((1ull << m) - 1);
      uint32_t v;

      if (sel <= 3) {
         unsigned n = tib->int_bits[sel];
         /* A channel the tile buffer does not keep (the alpha of
          * R5G6B5A0) reads as one.
          */
         if (!n) {
            v = max_m;
         } else {
            uint32_t raw = (clear[0] >> (start[sel] + tib->frac_bits[sel])) &
                           (uint32_t)((1ull << n) - 1);
            v = unorm_rescale(raw, n, m);
         }
      } else if (sel == 4) {
         v = 0;
      } else if (sel == 5) {
         v = max_m;
      } else {
         return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, 0,
                             "%s: swizzle 0x%03x selects channel %u for "
                             "component %u",
                             what, swizzle, sel, k);
      }
      put_bits(out, bit, m, v);
      bit += m;
   }
   /* Bits past the last field up to the byte boundary are stored too. */
   memset(out->mask, 0xff, out->size_B);
   return true;
}

void
pan_sim_zs_pixel(const struct pan_sim_zs_format *f, bool write_depth,
                float depth, bool write_stencil, uint8_t stencil,
                struct pan_sim_pixel *out)
{
   bool has_depth = f->depth_bits != 0, has_stencil = f->stencil_bits != 0;

   memset(out, 0, sizeof(*out));
   out->size_B = f->size_B;

   /* Padding ("X") bits go with the depth, or with the stencil of a
    * stencil-only format, and are written as zero.
    */
   if ((write_depth && has_depth) ||
       (write_stencil && has_stencil && !has_depth)) {
      for (unsigned b = 0; b < 8u * f->size_B; ++b) {
         bool in_d = has_depth && b >= f->depth_bit &&
                     b < f->depth_bit + f->depth_bits;
         bool in_s = has_stencil && b >= f->stencil_bit &&
                     b < f->stencil_bit + f->stencil_bits;
         if (!in_d && !in_s)
            put_bits(out, b, 1, 0);
      }
   }

   if (write_depth && has_depth) {
      uint64_t d;

      if (f->depth_float) {
         uint32_t bits;
         memcpy(&bits, &depth, 4);
         d = bits;
      } else {
         double max = (double)((1ull << f->depth_bits) - 1);
         double z = isnan(depth) ? 0.0 : depth < 0 ? 0.0 : depth > 1 ? 1.0
                                                                      : depth;
         d = (uint64_t)(z * max + 0.5);
      }
      put_bits(out, f->depth_bit, f->depth_bits, d);
   }
   if (write_stencil && has_stencil)
      put_bits(out, f->stencil_bit, f->stencil_bits, stencil);
}

/* Byte offsets, relative to the image base, of the first byte and one past
 * the last byte the rectangle touches in layer 0.
 */
static void
rect_extent(const struct pan_sim_fill *f, const struct pan_sim_rect *r,
            uint64_t *first, uint64_t *end)
{
   uint64_t el = f->px.size_B, stride = f->row_stride_B;

   if (f->layout == PAN_SIM_LINEAR) {
      *first = r->y0 * stride + r->x0 * el;
      *end = r->y1 * stride + (r->x1 + 1ull) * el;
   } else {
      uint64_t tile_B = PAN_UTILE_DIM_EL * PAN_UTILE_DIM_EL * el;
      *first = (r->y0 / PAN_UTILE_DIM_EL) * stride +
               (r->x0 / PAN_UTILE_DIM_EL) * tile_B;
      *end = (r->y1 / PAN_UTILE_DIM_EL) * stride +
             (r->x1 / PAN_UTILE_DIM_EL + 1ull) * tile_B;
   }
}

bool
pan_sim_fill_check(struct pan_sim_ctx *ctx, struct pan_sim_fill *fill,
                  const struct pan_sim_rect *r)
{
   uint64_t first, end;

   if (fill->layout == PAN_SIM_U_INTERLEAVED &&
       !pan_utile_el_size_supported(fill->px.size_B))
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, fill->base,
                          "%s: %u-byte pixels cannot be u-interleaved",
                          fill->what, fill->px.size_B);
   if (!fill->layers)
      fill->layers = 1;

   rect_extent(fill, r, &first, &end);
   end += (uint64_t)(fill->layers - 1) * fill->layer_stride_B;
   if (fill->base + first < fill->base)
      return pan_sim_fault(ctx, PAN_SIM_WRITE_FAULT, fill->base,
                          "%s: address overflow", fill->what);

   fill->cpu = pan_sim_ctx_write(ctx, fill->base + first, end - first,
                          fill->what);
   if (!fill->cpu)
      return false;
   /* Keep the pointer inside the checked range; run() rebases offsets. */
   fill->cpu_first_off = first;
   return true;
}

static inline void
store(uint8_t *dst, const struct pan_sim_pixel *px, bool full)
{
   if (full) {
      memcpy(dst, px->bytes, px->size_B);
      return;
   }
   for (unsigned i = 0; i < px->size_B; ++i)
      dst[i] = (uint8_t)((dst[i] & ~px->mask[i]) | (px->bytes[i] & px->mask[i]));
}

void
pan_sim_fill_run(const struct pan_sim_fill *fill, const struct pan_sim_rect *r)
{
   const struct pan_sim_pixel *px = &fill->px;
   unsigned el = px->size_B;
   bool full = true;

   for (unsigned i = 0; i < el; ++i)
      full &= px->mask[i] == 0xff;

   for (unsigned l = 0; l < fill->layers; ++l) {
      uint64_t layer_off = (uint64_t)l * fill->layer_stride_B;

      for (unsigned y = r->y0; y <= r->y1; ++y) {
         for (unsigned x = r->x0; x <= r->x1; ++x) {
            uint64_t off =
               fill->layout == PAN_SIM_LINEAR
                  ? (uint64_t)y * fill->row_stride_B + (uint64_t)x * el
                  : pan_uinterleave_ref_offset_B(x, y, fill->row_stride_B, el,
                                                 false);
            store(fill->cpu + (off + layer_off - fill->cpu_first_off), px,
                  full);
         }
      }
   }
}

uint64_t
pan_sim_now_ns(void)
{
   struct timespec ts;

   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
