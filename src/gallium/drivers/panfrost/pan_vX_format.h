/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Gallium formats to the hardware's, for one PAN_ARCH (pan_vX_format.c);
 * used by the texture and attribute descriptors.
 */

#ifndef PAN_VX_FORMAT_H
#define PAN_VX_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

#include "pipe/p_format.h"

#include "pan_genxml.h"

/* The hardware format of a Gallium format read in memory order, and the
 * swizzle (PIPE_SWIZZLE_*) from its channels to RGBA; 0 when the hardware
 * has none.
 */
unsigned PAN_GENX(panfrost_format)(enum pipe_format format,
                                   unsigned char swizzle[4]);

/* The hardware's name of an ETC2/EAC format's blocks ("etc2_rgb8"), NULL
 * for other formats: v9 planes name it as their clump format.
 */
const char *PAN_GENX(panfrost_etc_block)(enum pipe_format format);

/* The pixel format word of a hardware format read in RGBA order. */
uint32_t PAN_GENX(panfrost_pixel_format)(unsigned hw, bool srgb);

/* The hardware format of a vertex attribute format (channels in memory
 * order, no swizzle); 0 when there is none.
 */
unsigned PAN_GENX(panfrost_attribute_format)(enum pipe_format format);

/* The pixel format word of a vertex buffer format: channels in memory
 * order, or blue and red swapped by the word's component order (v7+) or
 * swizzle (v6) for the BGRA formats; 0 when there is none.
 */
uint32_t PAN_GENX(panfrost_vertex_format)(enum pipe_format format);

#endif
