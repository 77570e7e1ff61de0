/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* AFBC words that render-target and texture descriptors share, for the
 * files compiled once per architecture (include after pan_genxml.h).
 */

#ifndef PAN_VX_AFBC_H
#define PAN_VX_AFBC_H

#include "pan_image_layout.h"

#if PAN_ARCH >= 9
/* v9 descriptors name the payload's packing; earlier ones take it from
 * the format. */
static inline unsigned
pan_afbc_compression_mode(enum pan_afbc_mode m)
{
   switch (m) {
   case PAN_AFBC_MODE_R8: return MALI_AFBC_COMPRESSION_MODE_R8;
   case PAN_AFBC_MODE_R8G8: return MALI_AFBC_COMPRESSION_MODE_R8G8;
   case PAN_AFBC_MODE_R5G6B5: return MALI_AFBC_COMPRESSION_MODE_R5G6B5;
   case PAN_AFBC_MODE_R4G4B4A4: return MALI_AFBC_COMPRESSION_MODE_R4G4B4A4;
   case PAN_AFBC_MODE_R5G5B5A1: return MALI_AFBC_COMPRESSION_MODE_R5G5B5A1;
   case PAN_AFBC_MODE_R8G8B8: return MALI_AFBC_COMPRESSION_MODE_R8G8B8;
   default: return MALI_AFBC_COMPRESSION_MODE_R8G8B8A8;
   }
}
#endif

#endif /* PAN_VX_AFBC_H */
