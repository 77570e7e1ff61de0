/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * How a colour render-target format lives in the tile buffer and how the
 * tile buffer is written back to memory, and how a clear colour is packed
 * for it.  Arch-independent: the enum values below are the hardware's
 * encodings shared by v5 and later; the per-architecture framebuffer
 * emitter translates the few that differ on v4.
 *
 * Two families:
 *  - blendable formats keep normalised channels in the tile buffer in one
 *    of a few packed layouts (R8G8B8A8, R5G6B5A0, ...) with the logical
 *    channels R, G, B, A from bit 0 up; the write-back format plus a
 *    swizzle produce the memory layout;
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

/* Tile-buffer ("internal") colour formats. */
enum pan_tib_format {
   PAN_TIB_RAW_VALUE = 0,
   PAN_TIB_R8G8B8A8 = 1,
   PAN_TIB_R10G10B10A2 = 2,
   PAN_TIB_R8G8B8A2 = 3,
   PAN_TIB_R4G4B4A4 = 4,
   PAN_TIB_R5G6B5A0 = 5,
   PAN_TIB_R5G5B5A1 = 6,
   PAN_TIB_RAW8 = 32,
   PAN_TIB_RAW16 = 33,
   PAN_TIB_RAW32 = 34,
   PAN_TIB_RAW64 = 35,
   PAN_TIB_RAW128 = 36,
};

/* Write-back colour formats (v5+ encoding). */
enum pan_wb_format {
   PAN_WB_RAW8 = 0,
   PAN_WB_RAW16 = 1,
   PAN_WB_RAW24 = 2,
   PAN_WB_RAW32 = 3,
   PAN_WB_RAW48 = 4,
   PAN_WB_RAW64 = 5,
   PAN_WB_RAW96 = 6,
   PAN_WB_RAW128 = 7,
   PAN_WB_R8 = 16,
   PAN_WB_R8G8 = 17,
   PAN_WB_R8G8B8 = 18,
   PAN_WB_R8G8B8A8 = 19,
   PAN_WB_R4G4B4A4 = 20,
   PAN_WB_R5G6B5 = 21,
   PAN_WB_R10G10B10A2 = 24,
   PAN_WB_R5G5B5A1 = 28,
};

/* Swizzle components: which tile-buffer channel a memory component takes. */
enum pan_rt_channel {
   PAN_RT_R = 0,
   PAN_RT_G = 1,
   PAN_RT_B = 2,
   PAN_RT_A = 3,
   PAN_RT_0 = 4,
   PAN_RT_1 = 5,
};

#define PAN_RT_SWIZZLE(a, b, c, d)                                          \
   ((PAN_RT_##a) | (PAN_RT_##b) << 3 | (PAN_RT_##c) << 6 | (PAN_RT_##d) << 9)

struct pan_rt_format {
   uint8_t tib;       /* enum pan_tib_format */
   uint8_t writeback; /* enum pan_wb_format */
   uint16_t swizzle;  /* PAN_RT_SWIZZLE, identity for raw formats */
   uint8_t tib_B;     /* tile-buffer bytes per pixel */
   uint8_t mem_B;     /* memory bytes per pixel */
   bool raw;
   bool srgb;
};

/* The layout of a colour render-target format; false when the format
 * cannot be rendered to.
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
