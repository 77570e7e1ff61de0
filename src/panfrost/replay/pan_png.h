/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* A minimal PNG writer (zlib deflate): 8-bit RGBA, no interlace, filter
 * type 0 on every row, so the same pixels always give the same bytes.
 */

#ifndef PAN_PNG_H
#define PAN_PNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The PNG file bytes of a w x h RGBA8 image (rows top down), malloc'ed;
 * NULL when out of memory or the size is not representable. */
uint8_t *pan_png_encode_rgba8(const uint8_t *rgba, unsigned w, unsigned h,
                              size_t *size_B);

/* Write it to path: 0, or -1 with a message in err. */
int pan_png_write_rgba8(const char *path, const uint8_t *rgba, unsigned w,
                        unsigned h, char *err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
