/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * How a colour render-target format lives in the tile buffer, how the tile
 * buffer is written back to memory, and how a clear colour is packed for
 * it.  Arch-independent, in the v5+ encoding of pan_format_table.h; the v4
 * framebuffer emitter translates the raw formats.
 *
 * Two families:
 *  - blendable formats (PAN_USE_BLEND) keep normalised channels in the
 *    tile buffer in one of a few packed layouts (R8G8B8A8, R5G6B5A0, ...)
 *    with the logical channels R, G, B, A from bit 0 up; the table's
 *    write-back format plus swizzle produce the memory layout;
 *  - every other renderable format is kept raw: the tile buffer holds the
 *    memory bytes of the pixel and writes them back unchanged.
 */

#ifndef PAN_RT_FORMAT_H
#define PAN_RT_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

#include "pipe/p_format.h"

#ifdef __cplusplus
extern "C" {
#endif

union pipe_color_union;

struct pan_rt_format {
   uint8_t tib;       /* tile-buffer format (color_buffer_internal_format) */
   uint8_t writeback; /* write-back format (color_format) */
   uint16_t swizzle;  /* tile-buffer channel per component, 3 bits each */
   uint8_t tib_B;     /* tile-buffer bytes per pixel */
   uint8_t mem_B;     /* memory bytes per pixel */
   bool raw;
   bool srgb;
};

/* The layout of a colour render-target format; false when the format
 * table does not list it as renderable (on any architecture).
 */
bool pan_rt_format_lookup(enum pipe_format format, struct pan_rt_format *out);

/* The four clear words of a render target of this format: the tile-buffer
 * value for blendable formats (sRGB encoding applied, missing alpha = 1),
 * the memory bytes of one pixel for raw formats.  color is read as float,
 * uint or sint according to the format.
 */
void pan_rt_pack_clear(enum pipe_format format, const struct pan_rt_format *f,
                       const union pipe_color_union *color, uint32_t out[4]);

#ifdef __cplusplus
}
#endif

#endif /* PAN_RT_FORMAT_H */
