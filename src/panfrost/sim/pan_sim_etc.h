/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* ETC2 and EAC block decoding for the simulator's texture unit: one texel
 * of a 4x4 block, as the format's fields (unsigned or signed normalised
 * values in [0, 1] or [-1, 1]).  The encodings are those of the OpenGL ES
 * 3.0 specification, annex C.
 */

#ifndef PAN_SIM_ETC_H
#define PAN_SIM_ETC_H

#include <stdbool.h>
#include <stdint.h>

enum pan_sim_etc_kind {
   PAN_SIM_ETC2_RGB8,   /* 8 bytes: RGB (ETC1 blocks included) */
   PAN_SIM_ETC2_RGB8A1, /* 8 bytes: RGB with punch-through alpha */
   PAN_SIM_ETC2_RGBA8,  /* 16 bytes: EAC alpha, then ETC2 RGB */
   PAN_SIM_EAC_R11,     /* 8 bytes: one 11-bit channel */
   PAN_SIM_EAC_RG11,    /* 16 bytes: red block, then green block */
};

/* Texel (x, y), both below 4, of the block at `block` into v[0..3]
 * (channels the format lacks are left alone); `snorm` for the signed
 * R11/RG11 formats.
 */
void pan_sim_etc_texel(enum pan_sim_etc_kind kind, bool snorm,
                       const uint8_t *block, unsigned x, unsigned y,
                       float v[4]);

#endif
