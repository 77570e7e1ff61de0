/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* AFBC headers and uncompressed payloads (the format is described in
 * pan_sim_afbc.h). */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pan_sim_afbc.h"

#define ERR(...) snprintf(err, PAN_SIM_AFBC_ERR_LEN, __VA_ARGS__)

/* Header tiles are 8x8 superblocks. */
#define HEADER_TILE 8

void
pan_sim_afbc_pos(const struct pan_sim_afbc *a, unsigned x, unsigned y,
                 struct pan_sim_afbc_pos *pos)
{
   unsigned sb_w = a->wide ? 32 : 16, sb_h = a->wide ? 8 : 16;
   uint64_t sx = x / sb_w, sy = y / sb_h;

   if (a->tiled) {
      uint64_t tiles_per_row = a->sb_per_row / HEADER_TILE;
      uint64_t tile = (sy / HEADER_TILE) * tiles_per_row + sx / HEADER_TILE;
      pos->index = tile * HEADER_TILE * HEADER_TILE +
                   (sy % HEADER_TILE) * HEADER_TILE + sx % HEADER_TILE;
   } else {
      pos->index = sy * a->sb_per_row + sx;
   }
   unsigned ix = x % sb_w, iy = y % sb_h;
   pos->sub = (iy / 4) * (sb_w / 4) + ix / 4;
   pos->in = (iy % 4) * 4 + ix % 4;
}

uint32_t
pan_sim_afbc_sb_per_row(const struct pan_sim_afbc *a, uint64_t row_stride_B)
{
   uint64_t per = PAN_SIM_AFBC_HEADER_B * (a->tiled ? HEADER_TILE : 1);
   return (uint32_t)(row_stride_B / per);
}

/* The 16 bits from byte bit / 8 (the last size ends in the last byte). */
static unsigned
bits16(const uint8_t *hdr, unsigned bit)
{
   unsigned i = bit / 8;
   return hdr[i] | (i + 1 < PAN_SIM_AFBC_HEADER_B ? hdr[i + 1] << 8 : 0);
}

static unsigned
subblock_size(const uint8_t *hdr, unsigned k)
{
   unsigned bit = 32 + 6 * k;
   return (bits16(hdr, bit) >> (bit % 8)) & 63;
}

static void
set_subblock_size(uint8_t *hdr, unsigned k, unsigned size)
{
   unsigned bit = 32 + 6 * k, i = bit / 8;
   unsigned v = bits16(hdr, bit);
   v = (v & ~(63u << (bit % 8))) | (size << (bit % 8));
   hdr[i] = (uint8_t)v;
   if (i + 1 < PAN_SIM_AFBC_HEADER_B)
      hdr[i + 1] = (uint8_t)(v >> 8);
}

bool
pan_sim_afbc_locate(const struct pan_sim_afbc *a, const uint8_t *hdr,
                    const struct pan_sim_afbc_pos *pos, uint64_t *off,
                    char *err)
{
   uint64_t hdr_off = pos->index * PAN_SIM_AFBC_HEADER_B;

   if (subblock_size(hdr, 0) == 0) {
      /* Solid colour: the pixel value in the header's second half. */
      if (a->el_B > 8) {
         ERR("AFBC superblock %" PRIu64 ": solid colour of %u-byte pixels",
             pos->index, a->el_B);
         return false;
      }
      *off = hdr_off + 8;
      return true;
   }
   uint32_t payload =
      hdr[0] | hdr[1] << 8 | hdr[2] << 16 | (uint32_t)hdr[3] << 24;
   uint64_t sub_B = 16u * a->el_B, at = payload;
   for (unsigned k = 0; k < pos->sub; ++k) {
      unsigned s = subblock_size(hdr, k);
      at += s == 1 ? sub_B : s;
   }
   unsigned s = subblock_size(hdr, pos->sub);
   if (s != 1) {
      ERR("AFBC superblock %" PRIu64 ": subblock %u is compressed (%u "
          "bytes), which is not decoded",
          pos->index, pos->sub, s);
      return false;
   }
   *off = at + (uint64_t)pos->in * a->el_B;
   return true;
}

static const uint8_t *
header(const struct pan_sim_afbc_buf *b, uint64_t index, char *err)
{
   uint64_t off = index * PAN_SIM_AFBC_HEADER_B;

   if (off + PAN_SIM_AFBC_HEADER_B > b->size_B) {
      ERR("AFBC header %" PRIu64 " outside the %" PRIu64 "-byte surface",
          index, b->size_B);
      return NULL;
   }
   return b->buf + off;
}

static const uint8_t *
pixel_at(const struct pan_sim_afbc *a, const struct pan_sim_afbc_buf *b,
         const struct pan_sim_afbc_pos *pos, char *err)
{
   const uint8_t *hdr = header(b, pos->index, err);
   uint64_t off;

   if (!hdr || !pan_sim_afbc_locate(a, hdr, pos, &off, err))
      return NULL;
   if (off < b->body_off && off >= pos->index * PAN_SIM_AFBC_HEADER_B + 8 &&
       off < (pos->index + 1) * PAN_SIM_AFBC_HEADER_B)
      return b->buf + off; /* solid colour */
   if (off < b->body_off || off + a->el_B > b->size_B) {
      ERR("AFBC superblock %" PRIu64 ": payload offset %" PRIu64
          " outside the body [%" PRIu64 ", %" PRIu64 ")",
          pos->index, off, b->body_off, b->size_B);
      return NULL;
   }
   return b->buf + off;
}

const uint8_t *
pan_sim_afbc_pixel(const struct pan_sim_afbc *a,
                   const struct pan_sim_afbc_buf *b, unsigned x, unsigned y,
                   char *err)
{
   struct pan_sim_afbc_pos pos;

   pan_sim_afbc_pos(a, x, y, &pos);
   return pixel_at(a, b, &pos, err);
}

/* Whether the header already describes the fixed uncompressed payload. */
static bool
is_fixed(const uint8_t *hdr, uint64_t payload)
{
   uint32_t p = hdr[0] | hdr[1] << 8 | hdr[2] << 16 | (uint32_t)hdr[3] << 24;

   if (p != payload)
      return false;
   for (unsigned k = 0; k < 16; ++k) {
      if (subblock_size(hdr, k) != 1)
         return false;
   }
   return true;
}

bool
pan_sim_afbc_store(const struct pan_sim_afbc *a,
                   const struct pan_sim_afbc_buf *b, unsigned x, unsigned y,
                   const uint8_t *bytes, const uint8_t *mask, char *err)
{
   struct pan_sim_afbc_pos pos;
   uint32_t payload_B = pan_sim_afbc_payload_B(a);

   pan_sim_afbc_pos(a, x, y, &pos);
   uint64_t payload = b->body_off + pos.index * payload_B;
   const uint8_t *hdr = header(b, pos.index, err);
   if (!hdr)
      return false;
   if (payload > UINT32_MAX || payload + payload_B > b->size_B) {
      ERR("AFBC superblock %" PRIu64 ": its payload at %" PRIu64
          " does not fit the %" PRIu64 "-byte surface",
          pos.index, payload, b->size_B);
      return false;
   }
   if (!is_fixed(hdr, payload)) {
      /* Decode the whole superblock before moving it: the old payload
       * may overlap the new place. */
      uint8_t tmp[256 * 16];
      for (unsigned i = 0; i < 256; ++i) {
         struct pan_sim_afbc_pos p = {pos.index, i / 16, i % 16};
         const uint8_t *src = pixel_at(a, b, &p, err);
         if (!src)
            return false;
         memcpy(tmp + i * a->el_B, src, a->el_B);
      }
      memcpy(b->buf + payload, tmp, payload_B);
      uint8_t h[PAN_SIM_AFBC_HEADER_B] = {
         (uint8_t)payload, (uint8_t)(payload >> 8), (uint8_t)(payload >> 16),
         (uint8_t)(payload >> 24)};
      for (unsigned k = 0; k < 16; ++k)
         set_subblock_size(h, k, 1);
      memcpy(b->buf + pos.index * PAN_SIM_AFBC_HEADER_B, h, sizeof(h));
   }
   uint8_t *dst =
      b->buf + payload + ((uint64_t)pos.sub * 16 + pos.in) * a->el_B;
   for (unsigned i = 0; i < a->el_B; ++i)
      dst[i] = (uint8_t)((dst[i] & ~mask[i]) | (bytes[i] & mask[i]));
   return true;
}
