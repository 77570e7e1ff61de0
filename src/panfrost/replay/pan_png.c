/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "pan_dump.h"
#include "pan_png.h"

static uint8_t *
put_be32(uint8_t *p, uint32_t v)
{
   p[0] = (uint8_t)(v >> 24);
   p[1] = (uint8_t)(v >> 16);
   p[2] = (uint8_t)(v >> 8);
   p[3] = (uint8_t)v;
   return p + 4;
}

/* One chunk: length, type, data, CRC of type and data. */
static uint8_t *
put_chunk(uint8_t *p, const char *type, const uint8_t *data, uint32_t len)
{
   p = put_be32(p, len);
   memcpy(p, type, 4);
   if (len)
      memcpy(p + 4, data, len);
   uint32_t crc = (uint32_t)crc32(0, p, 4 + len);
   return put_be32(p + 4 + len, crc);
}

uint8_t *
pan_png_encode_rgba8(const uint8_t *rgba, unsigned w, unsigned h,
                     size_t *size_B)
{
   static const uint8_t sig[8] = {
      0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'
   };

   if (!w || !h || w > (1u << 16) || h > (1u << 16))
      return NULL;

   /* Rows prefixed by filter type 0 (none). */
   size_t row_B = 1 + 4 * (size_t)w, raw_B = row_B * h;
   uint8_t *raw = malloc(raw_B);
   if (!raw)
      return NULL;
   for (unsigned y = 0; y < h; ++y) {
      raw[y * row_B] = 0;
      memcpy(raw + y * row_B + 1, rgba + (size_t)y * w * 4, 4 * (size_t)w);
   }

   uLongf z_B = compressBound(raw_B);
   uint8_t *z = malloc(z_B);
   if (!z || compress2(z, &z_B, raw, raw_B, 6) != Z_OK || z_B > UINT32_MAX) {
      free(raw);
      free(z);
      return NULL;
   }
   free(raw);

   uint8_t ihdr[13];
   put_be32(ihdr, w);
   put_be32(ihdr + 4, h);
   ihdr[8] = 8;  /* bits per channel */
   ihdr[9] = 6;  /* RGBA */
   ihdr[10] = 0; /* deflate */
   ihdr[11] = 0; /* adaptive filtering, type 0 used throughout */
   ihdr[12] = 0; /* no interlace */

   size_t total = sizeof(sig) + (12 + 13) + (12 + z_B) + 12;
   uint8_t *out = malloc(total), *p = out;
   if (out) {
      memcpy(p, sig, sizeof(sig));
      p = put_chunk(p + sizeof(sig), "IHDR", ihdr, 13);
      p = put_chunk(p, "IDAT", z, (uint32_t)z_B);
      put_chunk(p, "IEND", NULL, 0);
      *size_B = total;
   }
   free(z);
   return out;
}

int
pan_png_write_rgba8(const char *path, const uint8_t *rgba, unsigned w,
                    unsigned h, char *err, size_t err_size)
{
   size_t size_B;
   uint8_t *png = pan_png_encode_rgba8(rgba, w, h, &size_B);

   if (!png) {
      snprintf(err, err_size, "%s: cannot encode a %ux%u image", path, w, h);
      return -1;
   }
   int ret = pan_dump_write_bytes(path, png, size_B, err, err_size);
   free(png);
   return ret;
}
