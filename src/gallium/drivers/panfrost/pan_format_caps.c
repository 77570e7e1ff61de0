/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include "util/format/u_format.h"

#include "pan_fb.h"
#include "pan_format_table.h"
#include "pan_screen.h"
#include "pan_texture.h"

static bool
panfrost_is_format_supported(struct pipe_screen *pscreen,
                             enum pipe_format format,
                             enum pipe_texture_target target,
                             unsigned sample_count,
                             unsigned storage_sample_count, unsigned bind)
{
   unsigned arch = panfrost_device(pscreen)->arch;
   unsigned uses = 0;

   /* 4x render targets, depth/stencil buffers and textures (texel
    * fetches) on v6+.  A level's samples are surfaces one after the
    * other.
    */
   if (sample_count > 1 || storage_sample_count > 1) {
      if (arch < 6 || sample_count != 4 ||
          (storage_sample_count && storage_sample_count != 4) ||
          (target != PIPE_TEXTURE_2D && target != PIPE_TEXTURE_RECT &&
           target != PIPE_TEXTURE_2D_ARRAY) ||
          (bind & ~(PIPE_BIND_RENDER_TARGET | PIPE_BIND_DEPTH_STENCIL |
                    PIPE_BIND_BLENDABLE | PIPE_BIND_DISPLAY_TARGET |
                    PIPE_BIND_SAMPLER_VIEW)))
         return false;
   }

   if (format == PIPE_FORMAT_NONE)
      return true;

   if (bind & PIPE_BIND_SAMPLER_VIEW)
      uses |= PAN_USE_TEXTURE;
   if (bind & (PIPE_BIND_RENDER_TARGET | PIPE_BIND_DISPLAY_TARGET |
               PIPE_BIND_SCANOUT))
      uses |= PAN_USE_RENDER;
   /* Fixed-function blending needs a normalised tile-buffer layout; raw
    * (float, integer) targets would need blend shaders.
    */
   if (bind & PIPE_BIND_BLENDABLE)
      uses |= PAN_USE_RENDER | PAN_USE_BLEND;
   /* The table also checks that this architecture's framebuffer
    * descriptors can write the format's depth/stencil layout back.
    */
   if (bind & PIPE_BIND_DEPTH_STENCIL)
      uses |= PAN_USE_DEPTH;
   if (bind & PIPE_BIND_VERTEX_BUFFER)
      uses |= PAN_USE_VERTEX;

   /* GLSL images (pan_image.h): linear colour formats of plain texels,
    * which the texture unit (v9) or the attribute unit (v6/v7) reads and
    * ST_CVT writes back.
    */
   if (bind & PIPE_BIND_SHADER_IMAGE) {
      const struct util_format_description *d =
         util_format_description(format);
      if (arch < 6 || !d || d->layout != UTIL_FORMAT_LAYOUT_PLAIN ||
          util_format_is_depth_or_stencil(format) ||
          util_format_is_srgb(format))
         return false;
      /* Buffer images are 1D views of the buffer's texels, as texture
       * buffers are. */
      if (target == PIPE_BUFFER) {
         if (!panfrost_texture_buffer_format(pscreen, format))
            return false;
         if (!(bind & ~(PIPE_BIND_SHADER_IMAGE | PIPE_BIND_SAMPLER_VIEW)))
            return true;
      } else {
         uses |= PAN_USE_TEXTURE;
      }
   }

   /* Index buffers are raw memory. */
   if (bind & PIPE_BIND_INDEX_BUFFER) {
      if (format != PIPE_FORMAT_R8_UINT && format != PIPE_FORMAT_R16_UINT &&
          format != PIPE_FORMAT_R32_UINT)
         return false;
      if (!uses)
         return true;
   }

   /* Texture buffers: sampler views of buffers (pan_texture.c), in any
    * format the texture descriptors name, table or not: GL's buffer
    * formats (R8I, RG16UI, the compatibility profile's L/A/I...) are not
    * all the table's, which lists what other textures may pick.
    */
   if (target == PIPE_BUFFER && (bind & PIPE_BIND_SAMPLER_VIEW)) {
      if (!panfrost_texture_buffer_format(pscreen, format))
         return false;
      uses &= ~PAN_USE_TEXTURE;
      if (!uses)
         return true;
   }
   if (target == PIPE_BUFFER && !(uses & PAN_USE_VERTEX) && uses)
      return false; /* only vertex buffers and buffer views */

   /* Float depth + stencil is a Z32F and an S8 plane (pan_resource.h);
    * samplers see the depth plane.
    */
   if (format == PIPE_FORMAT_Z32_FLOAT_S8X24_UINT) {
      return pan_format_supports(arch, PIPE_FORMAT_Z32_FLOAT, uses) &&
             (!(uses & PAN_USE_DEPTH) ||
              pan_fb_zs_supported(arch, PAN_ZS_D32F_S8));
   }

   /* Compressed formats are sampled where the GPU says it decodes them. */
   unsigned hw_compressed = pan_format_compressed_index(format);
   if (hw_compressed && !pan_device_supports_compressed_format(
                           panfrost_device(pscreen), hw_compressed))
      return false;

   return pan_format_supports(arch, format, uses);
}

void
panfrost_screen_init_formats(struct pipe_screen *pscreen)
{
   pscreen->is_format_supported = panfrost_is_format_supported;
}
