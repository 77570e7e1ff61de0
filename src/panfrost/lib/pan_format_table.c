/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include <stddef.h>

#include "pan_format_table.h"

#define T PAN_USE_TEXTURE
#define R PAN_USE_RENDER
#define D PAN_USE_DEPTH
#define V PAN_USE_VERTEX

/* Sorted by nothing in particular: it is indexed once into a lookup array. */
static const struct pan_format_support pan_formats[] = {
   /* 8-bit normalised colour */
   { PIPE_FORMAT_R8_UNORM, T | R | V, 4 },
   { PIPE_FORMAT_R8G8_UNORM, T | R | V, 4 },
   { PIPE_FORMAT_R8G8B8_UNORM, T | V, 4 },
   { PIPE_FORMAT_R8G8B8A8_UNORM, T | R | V, 4 },
   { PIPE_FORMAT_R8G8B8X8_UNORM, T | R, 4 },
   { PIPE_FORMAT_B8G8R8A8_UNORM, T | R, 4 },
   { PIPE_FORMAT_B8G8R8X8_UNORM, T | R, 4 },
   { PIPE_FORMAT_A8B8G8R8_UNORM, T | R, 4 },
   { PIPE_FORMAT_R8G8B8A8_SRGB, T | R, 4 },
   { PIPE_FORMAT_B8G8R8A8_SRGB, T | R, 4 },
   { PIPE_FORMAT_R8_SNORM, T | V, 4 },
   { PIPE_FORMAT_R8G8_SNORM, T | V, 4 },
   { PIPE_FORMAT_R8G8B8A8_SNORM, T | V, 4 },
   { PIPE_FORMAT_A8_UNORM, T | R, 4 },
   { PIPE_FORMAT_L8_UNORM, T, 4 },
   { PIPE_FORMAT_L8A8_UNORM, T, 4 },
   { PIPE_FORMAT_I8_UNORM, T, 4 },

   /* packed colour */
   { PIPE_FORMAT_B5G6R5_UNORM, T | R, 4 },
   { PIPE_FORMAT_B4G4R4A4_UNORM, T | R, 4 },
   { PIPE_FORMAT_B5G5R5A1_UNORM, T | R, 4 },
   { PIPE_FORMAT_R10G10B10A2_UNORM, T | R | V, 4 },
   { PIPE_FORMAT_B10G10R10A2_UNORM, T | R, 4 },
   { PIPE_FORMAT_R11G11B10_FLOAT, T | R, 5 },
   { PIPE_FORMAT_R9G9B9E5_FLOAT, T, 5 },

   /* floating point */
   { PIPE_FORMAT_R16_FLOAT, T | R | V, 4 },
   { PIPE_FORMAT_R16G16_FLOAT, T | R | V, 4 },
   { PIPE_FORMAT_R16G16B16A16_FLOAT, T | R | V, 4 },
   { PIPE_FORMAT_R32_FLOAT, T | R | V, 4 },
   { PIPE_FORMAT_R32G32_FLOAT, T | R | V, 4 },
   { PIPE_FORMAT_R32G32B32_FLOAT, T | V, 4 },
   { PIPE_FORMAT_R32G32B32A32_FLOAT, T | R | V, 4 },

   /* integer */
   { PIPE_FORMAT_R8_UINT, T | R | V, 5 },
   { PIPE_FORMAT_R8G8B8A8_UINT, T | R | V, 5 },
   { PIPE_FORMAT_R8G8B8A8_SINT, T | R | V, 5 },
   { PIPE_FORMAT_R16_UINT, T | R | V, 5 },
   { PIPE_FORMAT_R16G16B16A16_UINT, T | R | V, 5 },
   { PIPE_FORMAT_R16G16B16A16_SINT, T | R | V, 5 },
   { PIPE_FORMAT_R32_UINT, T | R | V, 5 },
   { PIPE_FORMAT_R32_SINT, T | R | V, 5 },
   { PIPE_FORMAT_R32G32B32A32_UINT, T | R | V, 5 },
   { PIPE_FORMAT_R32G32B32A32_SINT, T | R | V, 5 },

   /* vertex-only normalised/scaled */
   { PIPE_FORMAT_R16_UNORM, T | V, 4 },
   { PIPE_FORMAT_R16G16_UNORM, T | V, 4 },
   { PIPE_FORMAT_R16G16B16A16_UNORM, T | V, 4 },
   { PIPE_FORMAT_R16_SNORM, V, 4 },
   { PIPE_FORMAT_R16G16_SNORM, V, 4 },
   { PIPE_FORMAT_R16G16B16A16_SNORM, V, 4 },

   /* depth and stencil */
   { PIPE_FORMAT_Z16_UNORM, T | D, 4 },
   { PIPE_FORMAT_Z24_UNORM_S8_UINT, T | D, 4 },
   { PIPE_FORMAT_Z24X8_UNORM, T | D, 4 },
   { PIPE_FORMAT_Z32_FLOAT, T | D, 4 },
   { PIPE_FORMAT_Z32_FLOAT_S8X24_UINT, T | D, 5 },
   { PIPE_FORMAT_S8_UINT, D, 4 },
};

const struct pan_format_support *
pan_format_support(enum pipe_format format)
{
   for (size_t i = 0; i < sizeof(pan_formats) / sizeof(pan_formats[0]); ++i) {
      if (pan_formats[i].format == format)
         return &pan_formats[i];
   }
   return NULL;
}

bool
pan_format_supports(unsigned arch, enum pipe_format format, unsigned uses)
{
   const struct pan_format_support *f = pan_format_support(format);

   return f && arch >= f->min_arch && (f->uses & uses) == uses;
}
