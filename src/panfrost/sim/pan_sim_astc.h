/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* ASTC block decoding for the simulator's texture unit: the LDR profile of
 * 2D blocks (every footprint from 4x4 to 12x12), as the Khronos Data
 * Format Specification describes it.  A block is 16 bytes; its texels come
 * out as the specification's 16-bit interpolated values, which the caller
 * turns into 8-bit (sRGB or not) or 16-bit float results.
 */

#ifndef PAN_SIM_ASTC_H
#define PAN_SIM_ASTC_H

#include <stdbool.h>
#include <stdint.h>

/* Texel (x, y) (x below block_w, y below block_h) of the block, RGBA,
 * each the 16-bit value C of the specification's interpolation (sRGB
 * blocks expand their endpoints differently).  Returns false, leaving the
 * error colour (opaque magenta) in c[], for blocks the LDR profile does
 * not decode: reserved block modes, impossible weight grids or endpoint
 * counts, HDR endpoint modes and HDR void-extent blocks.
 */
bool pan_sim_astc_texel(const uint8_t block[16], unsigned block_w,
                        unsigned block_h, bool srgb, unsigned x, unsigned y,
                        uint16_t c[4]);

/* Channel values of pan_sim_astc_texel's result: `wide` gives the
 * specification's FP16 decode of a linear texture (C / 65536 rounded
 * toward zero to half precision, 65535 being 1.0), otherwise the 8-bit
 * unorm value (its top byte), linear or sRGB to be converted by the
 * caller.  The error colour reads 1, 0, 1, 1 either way.
 */
float pan_sim_astc_channel(uint16_t c, bool wide);

#endif
