/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include <stddef.h>

#include "pan_format_table.h"

/* The v5 names stand for the encoding v5 and later share (see the header);
 * the test walks every architecture's enums.
 */
#include "pan_v5_pack.h"

#define T PAN_USE_TEXTURE
#define R PAN_USE_RENDER
#define B PAN_USE_BLEND
#define D PAN_USE_DEPTH
#define V PAN_USE_VERTEX

/* The table reads best as aligned rows. */
/* clang-format off */
#define TIB(x) PAN_V5_COLOR_BUFFER_INTERNAL_FORMAT_##x
#define WB(x)  PAN_V5_COLOR_FORMAT_##x

/* Memory component i of the write-back format takes tile-buffer channel
 * c_i; three bits each, component 0 lowest (the genxml swizzle struct).
 * Pasted directly so that R, B, ... are not the use macros above.
 */
#define SWZ(a, b, c, d)                                                     \
   (PAN_V5_CHANNEL_##a | PAN_V5_CHANNEL_##b << 3 |                          \
    PAN_V5_CHANNEL_##c << 6 | PAN_V5_CHANNEL_##d << 9)

#define ROW(fmt, uses, arch)                                                \
   [PIPE_FORMAT_##fmt] = {PIPE_FORMAT_##fmt, (uses), (arch), 0, 0, 0,       \
                          PAN_ZS_NONE}
#define BLENDABLE(fmt, uses, arch, tib, wb, swizzle)                        \
   [PIPE_FORMAT_##fmt] = {PIPE_FORMAT_##fmt, (uses) | R | B, (arch),        \
                          TIB(tib), WB(wb), swizzle, PAN_ZS_NONE}
#define ZS(fmt, uses, arch, layout)                                         \
   [PIPE_FORMAT_##fmt] = {PIPE_FORMAT_##fmt, (uses) | D, (arch), 0, 0, 0,   \
                          PAN_ZS_##layout}

/* Indexed by pipe_format; a zero row (no use) is a format nothing
 * supports.
 */
static const struct pan_format_info pan_formats[PIPE_FORMAT_COUNT] = {
   /* 8-bit normalised colour */
   BLENDABLE(R8_UNORM, T | V, 4, R8G8B8A8, R8, SWZ(R, 0, 0, 0)),
   BLENDABLE(R8G8_UNORM, T | V, 4, R8G8B8A8, R8G8, SWZ(R, G, 0, 0)),
   ROW(R8G8B8_UNORM, T | V, 4),
   BLENDABLE(R8G8B8A8_UNORM, T | V, 4, R8G8B8A8, R8G8B8A8, SWZ(R, G, B, A)),
   BLENDABLE(R8G8B8X8_UNORM, T, 4, R8G8B8A8, R8G8B8A8, SWZ(R, G, B, 1)),
   BLENDABLE(B8G8R8A8_UNORM, T | V, 4, R8G8B8A8, R8G8B8A8, SWZ(B, G, R, A)),
   BLENDABLE(B8G8R8X8_UNORM, T, 4, R8G8B8A8, R8G8B8A8, SWZ(B, G, R, 1)),
   BLENDABLE(A8B8G8R8_UNORM, T, 4, R8G8B8A8, R8G8B8A8, SWZ(A, B, G, R)),
   BLENDABLE(R8G8B8A8_SRGB, T, 4, R8G8B8A8, R8G8B8A8, SWZ(R, G, B, A)),
   BLENDABLE(B8G8R8A8_SRGB, T, 4, R8G8B8A8, R8G8B8A8, SWZ(B, G, R, A)),
   ROW(R8_SNORM, T | V, 4),
   ROW(R8G8_SNORM, T | V, 4),
   ROW(R8G8B8A8_SNORM, T | V, 4),
   BLENDABLE(A8_UNORM, T, 4, R8G8B8A8, R8, SWZ(A, 0, 0, 0)),
   ROW(L8_UNORM, T, 4),
   ROW(L8A8_UNORM, T, 4),
   ROW(I8_UNORM, T, 4),

   /* packed colour */
   BLENDABLE(B5G6R5_UNORM, T, 4, R5G6B5A0, R5G6B5, SWZ(B, G, R, 1)),
   BLENDABLE(B4G4R4A4_UNORM, T, 4, R4G4B4A4, R4G4B4A4, SWZ(B, G, R, A)),
   BLENDABLE(B5G5R5A1_UNORM, T, 4, R5G5B5A1, R5G5B5A1, SWZ(B, G, R, A)),
   BLENDABLE(R10G10B10A2_UNORM, T | V, 4, R10G10B10A2, R10G10B10A2,
             SWZ(R, G, B, A)),
   BLENDABLE(B10G10R10A2_UNORM, T | V, 4, R10G10B10A2, R10G10B10A2,
             SWZ(B, G, R, A)),
   /* Vertex data only (ARB_vertex_type_2_10_10_10_rev), where draws are
    * (Bifrost and Valhall).
    */
   /* Raw in the tile buffer, written back as the packed word
    * (ARB_texture_rgb10_a2ui).
    */
   ROW(R10G10B10A2_UINT, T | R, 6),
   ROW(R10G10B10A2_SNORM, V, 6),
   ROW(B10G10R10A2_SNORM, V, 6),
   ROW(R10G10B10A2_USCALED, V, 6),
   ROW(B10G10R10A2_USCALED, V, 6),
   ROW(R10G10B10A2_SSCALED, V, 6),
   ROW(B10G10R10A2_SSCALED, V, 6),
   ROW(R11G11B10_FLOAT, T | R, 5),
   ROW(R9G9B9E5_FLOAT, T, 5),

   /* floating point: rendered raw, blended only by shaders */
   ROW(R16_FLOAT, T | R | V, 4),
   ROW(R16G16_FLOAT, T | R | V, 4),
   ROW(R16G16B16A16_FLOAT, T | R | V, 4),
   ROW(R32_FLOAT, T | R | V, 4),
   ROW(R32G32_FLOAT, T | R | V, 4),
   ROW(R32G32B32_FLOAT, T | V, 4),
   ROW(R32G32B32A32_FLOAT, T | R | V, 4),

   /* integer (every one and two-channel size GL 3.0 names: RG8I has no
    * wider fallback in the state tracker) */
   ROW(R8_UINT, T | R | V, 5),
   ROW(R8_SINT, T | R | V, 5),
   ROW(R8G8_UINT, T | R | V, 5),
   ROW(R8G8_SINT, T | R | V, 5),
   ROW(R8G8B8A8_UINT, T | R | V, 5),
   ROW(R8G8B8A8_SINT, T | R | V, 5),
   ROW(R16_UINT, T | R | V, 5),
   ROW(R16_SINT, T | R | V, 5),
   ROW(R16G16_UINT, T | R | V, 5),
   ROW(R16G16_SINT, T | R | V, 5),
   ROW(R16G16B16A16_UINT, T | R | V, 5),
   ROW(R16G16B16A16_SINT, T | R | V, 5),
   ROW(R32_UINT, T | R | V, 5),
   ROW(R32_SINT, T | R | V, 5),
   ROW(R32G32_UINT, T | R | V, 5),
   ROW(R32G32_SINT, T | R | V, 5),
   ROW(R32G32B32A32_UINT, T | R | V, 5),
   ROW(R32G32B32A32_SINT, T | R | V, 5),

   /* 16-bit normalised: textures and vertex data (GL 3.1's required
    * R16_SNORM family would otherwise fall back to 8 bits); the unorm
    * ones are also raw render targets, which GL 3.0 requires (the blend
    * unit converts to and from 16 bits, blending takes a shader) */
   ROW(R16_UNORM, T | R | V, 4),
   ROW(R16G16_UNORM, T | R | V, 4),
   ROW(R16G16B16A16_UNORM, T | R | V, 4),
   ROW(R16_SNORM, T | V, 4),
   ROW(R16G16_SNORM, T | V, 4),
   ROW(R16G16B16A16_SNORM, T | V, 4),

   /* depth and stencil; which architectures can write each layout back is
    * in pan_zs_layouts below.
    */
   ZS(Z16_UNORM, T, 4, D16),
   ZS(Z24_UNORM_S8_UINT, T, 4, D24S8),
   ZS(Z24X8_UNORM, T, 4, D24X8),
   ZS(Z32_FLOAT, T, 4, D32F),
   ZS(Z32_FLOAT_S8X24_UINT, T, 5, D32F_S8X24),
   /* Sampled as R8UI (stencil in red): the S8 planes util_blitter's
    * stencil blits read (pan_blit.c).
    */
   ZS(S8_UINT, T, 4, S8),
   /* The stencil of a D24S8 texture (ARB_stencil_texturing): its top
    * byte, sampled as the fourth channel of RGBA8UI.
    */
   ROW(X24S8_UINT, T, 6),

   /* ETC2 and EAC (ETC1 is a subset of ETC2 RGB8): 4x4 blocks, sampled
    * where the GPU's texture features list them (pan_format_caps.c).
    */
   ROW(ETC1_RGB8, T, 6),
   ROW(ETC2_RGB8, T, 6),
   ROW(ETC2_SRGB8, T, 6),
   ROW(ETC2_RGB8A1, T, 6),
   ROW(ETC2_SRGB8A1, T, 6),
   ROW(ETC2_RGBA8, T, 6),
   ROW(ETC2_SRGBA8, T, 6),
   ROW(ETC2_R11_UNORM, T, 6),
   ROW(ETC2_R11_SNORM, T, 6),
   ROW(ETC2_RG11_UNORM, T, 6),
   ROW(ETC2_RG11_SNORM, T, 6),

   /* 2D ASTC LDR, every footprint of KHR_texture_compression_astc_ldr:
    * 16-byte blocks, sampled where the texture features list them.
    */
   ROW(ASTC_4x4, T, 6),
   ROW(ASTC_4x4_SRGB, T, 6),
   ROW(ASTC_5x4, T, 6),
   ROW(ASTC_5x4_SRGB, T, 6),
   ROW(ASTC_5x5, T, 6),
   ROW(ASTC_5x5_SRGB, T, 6),
   ROW(ASTC_6x5, T, 6),
   ROW(ASTC_6x5_SRGB, T, 6),
   ROW(ASTC_6x6, T, 6),
   ROW(ASTC_6x6_SRGB, T, 6),
   ROW(ASTC_8x5, T, 6),
   ROW(ASTC_8x5_SRGB, T, 6),
   ROW(ASTC_8x6, T, 6),
   ROW(ASTC_8x6_SRGB, T, 6),
   ROW(ASTC_8x8, T, 6),
   ROW(ASTC_8x8_SRGB, T, 6),
   ROW(ASTC_10x5, T, 6),
   ROW(ASTC_10x5_SRGB, T, 6),
   ROW(ASTC_10x6, T, 6),
   ROW(ASTC_10x6_SRGB, T, 6),
   ROW(ASTC_10x8, T, 6),
   ROW(ASTC_10x8_SRGB, T, 6),
   ROW(ASTC_10x10, T, 6),
   ROW(ASTC_10x10_SRGB, T, 6),
   ROW(ASTC_12x10, T, 6),
   ROW(ASTC_12x10_SRGB, T, 6),
   ROW(ASTC_12x12, T, 6),
   ROW(ASTC_12x12_SRGB, T, 6),
};
/* clang-format on */

/* Every framebuffer descriptor names D16, D24S8, D24X8 and D32 depth and
 * an S8 separate stencil buffer.  The interleaved 64-bit float depth +
 * stencil pixel is a Midgard and Bifrost depth/stencil format only:
 * Valhall's list stops at D32, so there it would take two planes.
 */
static const struct pan_zs_layout_info pan_zs_layouts[PAN_ZS_LAYOUT_COUNT] = {
   [PAN_ZS_D16] = { PAN_ZS_KIND_DEPTH, 2, 4, UINT8_MAX },
   [PAN_ZS_D24S8] = { PAN_ZS_KIND_DEPTH_STENCIL, 4, 4, UINT8_MAX },
   [PAN_ZS_D24X8] = { PAN_ZS_KIND_DEPTH, 4, 4, UINT8_MAX },
   [PAN_ZS_D32F] = { PAN_ZS_KIND_DEPTH, 4, 4, UINT8_MAX },
   [PAN_ZS_D32F_S8X24] = { PAN_ZS_KIND_DEPTH_STENCIL, 8, 4, 7 },
   [PAN_ZS_S8] = { PAN_ZS_KIND_STENCIL, 1, 4, UINT8_MAX },
   [PAN_ZS_D32F_S8] = { PAN_ZS_KIND_DEPTH_STENCIL, 4, 4, UINT8_MAX },
};

const struct pan_format_info *
pan_format_info(enum pipe_format format)
{
   if ((unsigned)format >= PIPE_FORMAT_COUNT || !pan_formats[format].uses)
      return NULL;
   return &pan_formats[format];
}

unsigned
pan_format_compressed_index(enum pipe_format format)
{
   switch (format) {
   case PIPE_FORMAT_ETC1_RGB8:
   case PIPE_FORMAT_ETC2_RGB8:
   case PIPE_FORMAT_ETC2_SRGB8: return PAN_V5_FORMAT_ETC2_RGB8;
   case PIPE_FORMAT_ETC2_RGB8A1:
   case PIPE_FORMAT_ETC2_SRGB8A1: return PAN_V5_FORMAT_ETC2_RGB8A1;
   case PIPE_FORMAT_ETC2_RGBA8:
   case PIPE_FORMAT_ETC2_SRGBA8: return PAN_V5_FORMAT_ETC2_RGBA8;
   case PIPE_FORMAT_ETC2_R11_UNORM: return PAN_V5_FORMAT_ETC2_R11_UNORM;
   case PIPE_FORMAT_ETC2_R11_SNORM: return PAN_V5_FORMAT_ETC2_R11_SNORM;
   case PIPE_FORMAT_ETC2_RG11_UNORM: return PAN_V5_FORMAT_ETC2_RG11_UNORM;
   case PIPE_FORMAT_ETC2_RG11_SNORM: return PAN_V5_FORMAT_ETC2_RG11_SNORM;
   default: break;
   }
   /* 2D ASTC: the linear formats decode wide (16-bit floats), which the
    * HDR format names; sRGB ones decode to 8 bits through the LDR one.
    */
   if (format >= PIPE_FORMAT_ASTC_4x4 && format <= PIPE_FORMAT_ASTC_12x12)
      return PAN_V5_FORMAT_ASTC_2D_HDR;
   if (format >= PIPE_FORMAT_ASTC_4x4_SRGB &&
       format <= PIPE_FORMAT_ASTC_12x12_SRGB)
      return PAN_V5_FORMAT_ASTC_2D_LDR;
   return 0;
}

const struct pan_zs_layout_info *
pan_zs_layout_info(enum pan_zs_layout l)
{
   if (l == PAN_ZS_NONE || (unsigned)l >= PAN_ZS_LAYOUT_COUNT)
      return NULL;
   return &pan_zs_layouts[l];
}

bool
pan_zs_layout_supported(unsigned arch, enum pan_zs_layout l)
{
   const struct pan_zs_layout_info *i = pan_zs_layout_info(l);

   return i && arch >= i->min_arch && arch <= i->max_arch;
}

bool
pan_format_supports(unsigned arch, enum pipe_format format, unsigned uses)
{
   const struct pan_format_info *f = pan_format_info(format);

   if (!f || arch < f->min_arch || (f->uses & uses) != uses)
      return false;
   /* A depth/stencil attachment also needs the emitter's layout. */
   if ((uses & PAN_USE_DEPTH) && !pan_zs_layout_supported(arch, f->zs))
      return false;
   return true;
}
