/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Screen capabilities. They describe what the driver does today, not what
 * the hardware could do: every cap not listed below falls back to Gallium's
 * conservative defaults, and features land here together with the code that
 * implements them. Today that is OpenGL ES 2.0 level state handling; the
 * draw path itself is not implemented yet (see pan_draw.c). */

#include <stdint.h>
#include <string.h>

#include "util/macros.h"
#include "util/u_screen.h"

#include "pan_compile.h"
#include "pan_compute.h"
#include "pan_screen.h"
#include "pan_texture.h"

/* Texture size limits are the hardware's (16K on every architecture). */
#define PAN_MAX_TEXTURE_2D_LEVELS 15 /* 16384 px */
#define PAN_MAX_TEXTURE_3D_LEVELS 12 /* 2048 px */

/* Storage buffers in draws: where the Bifrost and Valhall compilers do
 * the draws (v6 and later).
 */
static bool
panfrost_has_storage(struct pipe_screen *pscreen)
{
   return panfrost_screen(pscreen)->arch && panfrost_device(pscreen)->arch >= 6;
}

/* Texture buffers: buffer views in the v6+ texture descriptors, fetched
 * by the Bifrost and Valhall compilers (Midgard's refuses samplerBuffer).
 */
static bool
panfrost_has_texture_buffers(struct pipe_screen *pscreen)
{
   return panfrost_screen(pscreen)->arch && panfrost_device(pscreen)->arch >= 6;
}

static int
panfrost_get_param(struct pipe_screen *pscreen, enum pipe_cap param)
{
   switch (param) {
   case PIPE_CAP_NPOT_TEXTURES:
   case PIPE_CAP_BLEND_EQUATION_SEPARATE:
   case PIPE_CAP_MIXED_COLORBUFFER_FORMATS:
   /* Each attachment keeps its own stride; the pass covers the
    * framebuffer's (smallest) size. Gives ARB_framebuffer_object, which
    * piglit's desktop runs need for their FBO. */
   case PIPE_CAP_MIXED_FRAMEBUFFER_SIZES:
   /* The shader reads the pixel's row from the top of the target
    * (r59): the state tracker flips gl_FragCoord.y for window-system
    * buffers only, where an FBO keeps it.
    */
   case PIPE_CAP_FS_COORD_ORIGIN_UPPER_LEFT:
   case PIPE_CAP_FS_COORD_PIXEL_CENTER_HALF_INTEGER:
   case PIPE_CAP_FRAGMENT_SHADER_TEXTURE_LOD:
   case PIPE_CAP_FRAGMENT_SHADER_DERIVATIVES:
   case PIPE_CAP_ANISOTROPIC_FILTER:
   case PIPE_CAP_PRIMITIVE_RESTART_FIXED_INDEX:
   /* Jobs take an instance count and the vertex shader reads the instance
    * id from its preloaded register (ARB_draw_instanced). */
   case PIPE_CAP_VS_INSTANCEID:
   /* Bilinear filtering of binary16 textures (pan_draw_test checks it). */
   case PIPE_CAP_TEXTURE_HALF_FLOAT_LINEAR:
   /* GL uniforms as dwords of constant buffer 0 (lower_uniforms_to_ubo) */
   case PIPE_CAP_PACKED_UNIFORMS:
      return 1;

   /* The v6/v7 renderer state and the v9 depth/stencil descriptor bound
    * the polygon offset (gallium-depth-bias-*); Midgard has no draws. */
   case PIPE_CAP_POLYGON_OFFSET_CLAMP:
      return panfrost_device(pscreen)->arch >= 6;

   case PIPE_CAP_MAX_TEXTURE_2D_SIZE:
      return 1 << (PAN_MAX_TEXTURE_2D_LEVELS - 1);
   case PIPE_CAP_MAX_TEXTURE_3D_LEVELS:
      return PAN_MAX_TEXTURE_3D_LEVELS;
   case PIPE_CAP_MAX_TEXTURE_CUBE_LEVELS:
      return PAN_MAX_TEXTURE_2D_LEVELS;
   /* The descriptor's array size has 16 bits; GL asks for 256. */
   case PIPE_CAP_MAX_TEXTURE_ARRAY_LAYERS:
      return 2048;

   /* One blend descriptor each, with its own equation (pan_vX_blend.c).
    * Midgard writes several targets from v5 on: v4 has one.
    */
   case PIPE_CAP_MAX_RENDER_TARGETS:
      return panfrost_device(pscreen)->arch >= 5 ? 8 : 1;
   case PIPE_CAP_INDEP_BLEND_ENABLE:
   case PIPE_CAP_INDEP_BLEND_FUNC:
      return 1;
   /* An RGB target kept in a format with alpha (GL_RGB16 in RGBA16, GL_RGB5
    * in RGB5_A1) reads as alpha 1: the state tracker rewrites destination
    * alpha factors for it, as the tile buffer holds a real alpha.
    */
   case PIPE_CAP_RGB_OVERRIDE_DST_ALPHA_BLEND:
      return 1;

   /* Integers, bit ops, texelFetch, textureSize/Lod/Grad, flat varyings,
    * integer textures, uniform blocks (draw-path.rst); 1.40 adds texture
    * buffers, which the v6+ views and compilers read (samplerBuffer);
    * 1.50 geometry shaders, which v6+ run as compute work (geometry.rst);
    * 3.30 with blend shaders, which give GL 3.3 dual-source blending.
    */
   case PIPE_CAP_GLSL_FEATURE_LEVEL:
   case PIPE_CAP_GLSL_FEATURE_LEVEL_COMPATIBILITY:
      if (!panfrost_has_texture_buffers(pscreen))
         return 130;
      return panfrost_device(pscreen)->arch >= 6 ? 330 : 150;
   /* 310 is what lets the state tracker offer GLES its geometry shader
    * extensions (OES/EXT_geometry_shader, with instanced geometry
    * shaders) and, on top of them, cube map arrays to GLES 3.1: the same
    * stages and views as desktop GL's (geometry.rst).
    */
   case PIPE_CAP_ESSL_FEATURE_LEVEL:
      return panfrost_screen(pscreen)->arch ? 310 : 300;

   case PIPE_CAP_CONSTANT_BUFFER_OFFSET_ALIGNMENT:
      return 16;
   /* Storage buffers are global addresses: any word will do, and 4 lets
    * the state tracker bind atomic counter buffers at their offset
    * without a pushed correction.
    */
   case PIPE_CAP_SHADER_BUFFER_OFFSET_ALIGNMENT:
      return panfrost_has_storage(pscreen) ? 4 : 0;
   case PIPE_CAP_MIN_MAP_BUFFER_ALIGNMENT:
      return 64;
   case PIPE_CAP_TEXTURE_BUFFER_OFFSET_ALIGNMENT:
      return PANFROST_TEXTURE_BUFFER_ALIGN_B;
   /* Buffer views are 1D textures (pan_texture.c).  Fetches read no
    * sampler, but with TEXTURE_BUFFER_SAMPLER the state tracker binds one
    * for buffer units as for the others, so no sampler table is empty
    * where the hardware might look (the stock driver asks for it too).
    */
   case PIPE_CAP_TEXTURE_BUFFER_OBJECTS:
   case PIPE_CAP_TEXTURE_BUFFER_SAMPLER:
      return panfrost_has_texture_buffers(pscreen);
   case PIPE_CAP_MAX_TEXEL_BUFFER_ELEMENTS_UINT:
      return PANFROST_MAX_TEXEL_BUFFER_ELEMENTS;

   case PIPE_CAP_MAX_VERTEX_ATTRIB_STRIDE:
      return 2048;

   case PIPE_CAP_PREFER_BACK_BUFFER_REUSE:
   case PIPE_CAP_PREFER_REAL_BUFFER_IN_CONSTBUF0:
      return 0;

   case PIPE_CAP_VENDOR_ID:
      return 0x13B5; /* Arm's PCI vendor id */
   case PIPE_CAP_DEVICE_ID:
      return panfrost_device(pscreen)->gpu_id;

   case PIPE_CAP_VIDEO_MEMORY:
      return 0;
   case PIPE_CAP_UMA:
   case PIPE_CAP_ACCELERATED:
      return 1;

   /* 32 generic slots and the fixed-function ones after them
    * (pan_va_varying_slot): GL 3.2's 128 components. */
   case PIPE_CAP_MAX_VARYINGS:
      return PAN_VA_GENERIC_SLOTS;
   /* gl_TexCoord[] and gl_PointCoord keep their own locations, so GLSL's
    * varyings start at VAR0 (without it the state tracker moves them up
    * by 9, and the 32nd lands past VAR31). */
   case PIPE_CAP_TGSI_TEXCOORD:
      return 1;
   /* Nothing clamps colours in hardware: the state tracker clamps
    * gl_FrontColor & co. (and fixed-point fragment colours) in the shaders
    * when GL asks (glClampColor), instead of expecting us to. */
   case PIPE_CAP_VERTEX_COLOR_UNCLAMPED:
      return 1;

   case PIPE_CAP_SHAREABLE_SHADERS:
      return 1;

   /* Image intrinsics reach the driver as indices (pan_image.h). */
   case PIPE_CAP_NIR_IMAGES_AS_DEREF:
      return 0;
   /* Stores convert to any image format (ST_CVT, with the conversion
    * word of LEA_TEX on v9 or of the image's attribute record on v6/v7). */
   case PIPE_CAP_IMAGE_STORE_FORMATTED:
      return panfrost_device(pscreen)->arch >= 6;
   /* texelFetch from 4x textures (pan_texture.c, txf_ms). */
   case PIPE_CAP_TEXTURE_MULTISAMPLE:
      return panfrost_device(pscreen)->arch >= 6;
   /* The second colour reaches blend shaders (pan_blend_shader.c). */
   case PIPE_CAP_MAX_DUAL_SOURCE_RENDER_TARGETS:
      return panfrost_device(pscreen)->arch >= 6 ? 1 : 0;

   /* Compute runs where the driver has job emitters (v9): launch_grid with
    * shader storage buffers and constant buffers.  GL's compute shaders
    * also need images and atomics, which keeps them off for now.
    */
   case PIPE_CAP_COMPUTE:
      return panfrost_screen(pscreen)->arch != NULL;

   /* Transform feedback runs a compute variant of the vertex shader
    * (pan_xfb.c), so it exists where compute does.
    */
   case PIPE_CAP_MAX_STREAM_OUTPUT_BUFFERS:
      return panfrost_screen(pscreen)->arch ? PIPE_MAX_SO_BUFFERS : 0;
   case PIPE_CAP_MAX_STREAM_OUTPUT_SEPARATE_COMPONENTS:
   case PIPE_CAP_MAX_STREAM_OUTPUT_INTERLEAVED_COMPONENTS:
      return 64;
   case PIPE_CAP_STREAM_OUTPUT_PAUSE_RESUME:
   case PIPE_CAP_STREAM_OUTPUT_INTERLEAVE_BUFFERS:
      return panfrost_screen(pscreen)->arch != NULL;

   /* Geometry shaders run as compute work before the draw (pan_gs.h),
    * where compute does; GL 3.2's minimums.
    */
   case PIPE_CAP_MAX_GEOMETRY_OUTPUT_VERTICES:
      return panfrost_screen(pscreen)->arch ? 256 : 0;
   case PIPE_CAP_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS:
      return panfrost_screen(pscreen)->arch ? 1024 : 0;

   /* Indirect draws read their arguments on the CPU once the work writing
    * them is done and draw them directly (pan_draw_vbo.c).
    */
   case PIPE_CAP_DRAW_INDIRECT:
   case PIPE_CAP_MULTI_DRAW_INDIRECT:
   case PIPE_CAP_MULTI_DRAW_INDIRECT_PARAMS:
   /* gl_BaseVertex, gl_BaseInstance and gl_DrawID: words the vertex
    * shader pushes (PAN_VA_PUSH_DRAW).  gl_InstanceID counts from 0
    * whatever the base instance, which moves per-instance attributes
    * instead (pan_draw_vbo.c). */
   case PIPE_CAP_DRAW_PARAMETERS:
   case PIPE_CAP_START_INSTANCE:
      return panfrost_screen(pscreen)->arch != NULL;

   /* Attribute descriptors step every divisor instances on v9 (power of
    * two or not, pan_vX_draw.c); on v6/v7 per-instance buffer records
    * divide the invocation id by the padded count times the divisor
    * (pan_draw_jm.c).  ARB_instanced_arrays.
    */
   case PIPE_CAP_VERTEX_ELEMENT_INSTANCE_DIVISOR:
      return panfrost_screen(pscreen)->arch != NULL;

   /* Any restart index: draws whose index is not the all-ones one the
    * hardware knows go through primconvert, which splits them at the
    * restarts (needs_primconvert in pan_draw_vbo.c).  NV_primitive_restart,
    * part of GL 3.1.
    */
   case PIPE_CAP_PRIMITIVE_RESTART:
      return 1;

   /* No user clip planes in the hardware: the state tracker writes them
    * to gl_ClipDistance in the vertex shader, and a fragment shader
    * variant discards where one is negative (pan_nir_lower_clip.c).
    */
   case PIPE_CAP_CLIP_PLANES:
      return 0;

   /* Fixed-function state of desktop GL that Bifrost and Valhall do in the
    * shader: the state tracker compiles fragment shader variants that
    * discard by the alpha test, pick the back colours by gl_FrontFacing
    * and make the colours flat under glShadeModel(GL_FLAT).
    */
   case PIPE_CAP_ALPHA_TEST:
   case PIPE_CAP_TWO_SIDED_COLOR:
   case PIPE_CAP_FLATSHADE:
      return 0;

   /* The primitive's low and high depth cull bits drop fragments beyond
    * the depth range or clamp them to it, each end apart (pan_vX_draw.c,
    * pan_vX_jm_draw.c).  ARB_depth_clamp, AMD_depth_clamp_separate.
    */
   case PIPE_CAP_DEPTH_CLIP_DISABLE:
   case PIPE_CAP_DEPTH_CLIP_DISABLE_SEPARATE:
   /* Quads are drawn by the tiler, or split by primconvert keeping the
    * provoking vertex, with the first or last vertex as GL asks.
    */
   case PIPE_CAP_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION:
      return panfrost_screen(pscreen)->arch != NULL;

   /* The sampler descriptor's seamless_cube_map bit, set per sampler
    * state (pan_vX_texture.c): linear filters of cube maps then read
    * across face edges.  ARB_seamless_cube_map and the per-texture AMD
    * extension.
    */
   case PIPE_CAP_SEAMLESS_CUBE_MAP:
   case PIPE_CAP_SEAMLESS_CUBE_MAP_PER_TEXTURE:
      return panfrost_device(pscreen)->arch >= 6;

   /* Cube map arrays: the v6+ texture descriptor's cube dimension takes
    * an array size in cubes over surfaces of 6 faces each; the compilers
    * pass the layer after the face coordinates; render targets and images
    * address a face of a cube as a layer (layer * 6 + face).
    * ARB_texture_cube_map_array.
    */
   case PIPE_CAP_CUBE_MAP_ARRAY:
      return panfrost_device(pscreen)->arch >= 6;

   /* A pass of only a size: its fragment job runs without any target. */
   case PIPE_CAP_FRAMEBUFFER_NO_ATTACHMENT:
      return panfrost_screen(pscreen)->arch != NULL;

   /* Rectangle textures sample with unnormalised coordinates (the
    * sampler's normalized_coordinates off), so the state tracker need not
    * scale every lookup by the size: the compilers take RECT as 2D (the
    * Midgard one too, whose shaders are compiled to be measured). */
   case PIPE_CAP_TEXRECT:
      return 1;

   /* Timer queries wait for the GPU and read the CPU clock (pan_query.c). */
   case PIPE_CAP_QUERY_TIMESTAMP:
   case PIPE_CAP_QUERY_TIME_ELAPSED:
      return 1;

   /* The stencil reference a fragment shader gives (gl_FragStencilRefARB)
    * is ZS_EMIT's, like gl_FragDepth: the draw takes both from the shader
    * (panfrost_zs_state).  util_blitter's stencil blits need it.
    */
   case PIPE_CAP_SHADER_STENCIL_EXPORT:
      return panfrost_screen(pscreen)->arch != NULL;

   /* Draws count their passing samples into the query's BO (pan_query.c). */
   case PIPE_CAP_OCCLUSION_QUERY:
      return panfrost_screen(pscreen)->arch != NULL;

   /* Checked on the CPU before each draw, clear and dispatch (pan_query.c). */
   case PIPE_CAP_CONDITIONAL_RENDER:
   case PIPE_CAP_CONDITIONAL_RENDER_INVERTED:
      return panfrost_screen(pscreen)->arch != NULL;

   /* Gathers of any component, shadow gathers and texel offsets, constant
    * or computed, where the Bifrost and Valhall compilers do them
    * (TEX_GATHER, TEXC; pan_ir_from_nir_tex.c).  ARB_texture_gather.  The
    * offset word holds bytes, but GL's range is what the stock driver
    * offers on the hardware.
    */
   case PIPE_CAP_MAX_TEXTURE_GATHER_COMPONENTS:
      return panfrost_device(pscreen)->arch >= 6 ? 4 : 0;
   case PIPE_CAP_TEXTURE_GATHER_SM5:
   /* Views' swizzles compose with the format's in the v6+ texture
    * descriptors (pan_vX_texture.c); gathers pick among the swizzled
    * channels (ARB_texture_gather's miplevels test swizzles). */
   case PIPE_CAP_TEXTURE_SWIZZLE:
      return panfrost_device(pscreen)->arch >= 6;
   case PIPE_CAP_MIN_TEXTURE_GATHER_OFFSET:
   case PIPE_CAP_MIN_TEXEL_OFFSET:
      return -8;
   case PIPE_CAP_MAX_TEXTURE_GATHER_OFFSET:
   case PIPE_CAP_MAX_TEXEL_OFFSET:
      return 7;

   /* The samplers have no GL_CLAMP mode: the state tracker saturates the
    * coordinates and the sampler picks the edge or the border by filter
    * (wrap_mode, pan_vX_texture.c). */
   case PIPE_CAP_GL_CLAMP:
      return 0;
   /* Capabilities the defaults would turn on but we have not built. */
   case PIPE_CAP_TEXTURE_TRANSFER_MODES:
   case PIPE_CAP_SAMPLER_VIEW_TARGET:
      return 0;

   default:
      return u_pipe_screen_get_param_defaults(pscreen, param);
   }
}

/* Float limits. Lines and points are drawn with 4-bit sub-pixel precision
 * in the rasteriser's fixed point; anything not listed is 0. */
static const float panfrost_capf[] = {
   [PIPE_CAPF_MIN_LINE_WIDTH] = 1.0f,
   [PIPE_CAPF_MIN_LINE_WIDTH_AA] = 1.0f,
   [PIPE_CAPF_MAX_LINE_WIDTH] = 255.0f,
   [PIPE_CAPF_MAX_LINE_WIDTH_AA] = 255.0f,
   [PIPE_CAPF_LINE_WIDTH_GRANULARITY] = 0.0625f,
   [PIPE_CAPF_MIN_POINT_SIZE] = 1.0f,
   [PIPE_CAPF_MIN_POINT_SIZE_AA] = 1.0f,
   [PIPE_CAPF_MAX_POINT_SIZE] = 1024.0f,
   [PIPE_CAPF_MAX_POINT_SIZE_AA] = 1024.0f,
   [PIPE_CAPF_POINT_SIZE_GRANULARITY] = 0.0625f,
   [PIPE_CAPF_MAX_TEXTURE_ANISOTROPY] = 16.0f,
   [PIPE_CAPF_MAX_TEXTURE_LOD_BIAS] = 16.0f,
};

static float
panfrost_get_paramf(struct pipe_screen *pscreen, enum pipe_capf param)
{
   return (unsigned)param < ARRAY_SIZE(panfrost_capf) ? panfrost_capf[param]
                                                      : 0.0f;
}

/* The limits of our compiler, the same in every stage it compiles. */
static int
panfrost_compiler_shader_param(enum pipe_shader_cap param)
{
   switch (param) {
   case PIPE_SHADER_CAP_MAX_INSTRUCTIONS:
   case PIPE_SHADER_CAP_MAX_ALU_INSTRUCTIONS:
      return 16384;
   case PIPE_SHADER_CAP_MAX_CONTROL_FLOW_DEPTH:
      return 1024;
   case PIPE_SHADER_CAP_MAX_TEMPS:
      return 256;
   /* 64 KiB: what a v6/v7 uniform buffer descriptor can size (4096
    * entries of 16 bytes); words past the FAU table are read with
    * LD_BUFFER, so large uniform arrays need no more than that.
    */
   case PIPE_SHADER_CAP_MAX_CONST_BUFFER0_SIZE:
      return 64 * 1024;
   /* Buffer 0 (GL uniforms, pushed) and the uniform blocks, read with
    * LD_BUFFER from resource table 0 in draws and through a table of
    * addresses in compute (pan_nir_lower_compute.c). */
   case PIPE_SHADER_CAP_MAX_CONST_BUFFERS:
      return PANFROST_MAX_CONST_BUFFERS;
   case PIPE_SHADER_CAP_INTEGERS:
      return 1;
   case PIPE_SHADER_CAP_PREFERRED_IR:
      return PIPE_SHADER_IR_NIR;
   case PIPE_SHADER_CAP_SUPPORTED_IRS:
      return 1 << PIPE_SHADER_IR_NIR;
   default:
      return 0;
   }
}

/* What our compiler and the push-word interface take (pan_compute.h). */
static int
panfrost_get_compute_shader_param(enum pipe_shader_cap param)
{
   if (param == PIPE_SHADER_CAP_MAX_SHADER_BUFFERS)
      return PANFROST_MAX_SSBOS;
   /* Constant buffer loads become global loads at any offset; without
    * this the state tracker turns uniform blocks off in every stage. */
   if (param == PIPE_SHADER_CAP_INDIRECT_CONST_ADDR)
      return 1;
   /* Temporary arrays indexed at run time go to thread storage, which
    * compute jobs get as draws do (panfrost_batch_compute_storage). */
   if (param == PIPE_SHADER_CAP_INDIRECT_TEMP_ADDR)
      return 1;
   /* The draws' texture and sampler tables (pan_compute.c), as many. */
   if (param == PIPE_SHADER_CAP_MAX_TEXTURE_SAMPLERS ||
       param == PIPE_SHADER_CAP_MAX_SAMPLER_VIEWS)
      return 16;
   if (param == PIPE_SHADER_CAP_MAX_TEX_INSTRUCTIONS ||
       param == PIPE_SHADER_CAP_MAX_TEX_INDIRECTIONS)
      return 16384;
   return panfrost_compiler_shader_param(param);
}

/* The geometry stage's compute variant (pan_nir_lower_gs.c) reads its
 * inputs and constant buffers with global loads; it samples no textures
 * and reaches no storage buffers or images.
 */
static int
panfrost_gs_shader_param(enum pipe_shader_cap param)
{
   switch (param) {
   case PIPE_SHADER_CAP_MAX_INPUTS:
      return 16;
   /* The final draw reads the output records with global loads (no
    * attribute count), into the 32 generic varying slots. */
   case PIPE_SHADER_CAP_MAX_OUTPUTS:
      return PAN_VA_GENERIC_SLOTS;
   case PIPE_SHADER_CAP_INDIRECT_INPUT_ADDR:
   case PIPE_SHADER_CAP_INDIRECT_OUTPUT_ADDR:
   case PIPE_SHADER_CAP_INDIRECT_TEMP_ADDR:
   case PIPE_SHADER_CAP_INDIRECT_CONST_ADDR:
      return 1;
   case PIPE_SHADER_CAP_MAX_TEX_INSTRUCTIONS:
   case PIPE_SHADER_CAP_MAX_TEX_INDIRECTIONS:
      return 16384;
   /* The compute variant samples this stage's views (pan_gs.c): GL 3.2's
    * 16 geometry texture units. */
   case PIPE_SHADER_CAP_MAX_TEXTURE_SAMPLERS:
   case PIPE_SHADER_CAP_MAX_SAMPLER_VIEWS:
      return 16;
   case PIPE_SHADER_CAP_MAX_SHADER_BUFFERS:
   case PIPE_SHADER_CAP_MAX_SHADER_IMAGES:
      return 0;
   default:
      return panfrost_compiler_shader_param(param);
   }
}

#define RET(...)                                                               \
   do {                                                                        \
      const uint64_t v_[] = { __VA_ARGS__ };                                   \
      if (ret)                                                                 \
         memcpy(ret, v_, sizeof(v_));                                          \
      return sizeof(v_);                                                       \
   } while (0)

static int
panfrost_get_compute_param(struct pipe_screen *pscreen,
                           enum pipe_shader_ir ir_type,
                           enum pipe_compute_cap param, void *ret)
{
   const struct pan_device *dev = panfrost_device(pscreen);
   uint64_t threads = dev->max_workgroup_size;

   if (!panfrost_screen(pscreen)->arch)
      return 0;

   switch (param) {
   case PIPE_COMPUTE_CAP_ADDRESS_BITS:
      if (ret)
         *(uint32_t *)ret = 64;
      return sizeof(uint32_t);
   case PIPE_COMPUTE_CAP_IR_TARGET:
      if (ret)
         strcpy(ret, "panfrost");
      return strlen("panfrost") + 1;
   case PIPE_COMPUTE_CAP_GRID_DIMENSION:
      RET(3);
   /* The job takes 32-bit counts; GL asks for 65535 at least. */
   case PIPE_COMPUTE_CAP_MAX_GRID_SIZE:
      RET(65535, 65535, 65535);
   case PIPE_COMPUTE_CAP_MAX_BLOCK_SIZE:
      RET(threads, threads, threads);
   case PIPE_COMPUTE_CAP_MAX_THREADS_PER_BLOCK:
      RET(threads);
   case PIPE_COMPUTE_CAP_MAX_LOCAL_SIZE:
      RET((uint64_t)PANFROST_MAX_SHARED_B);
   case PIPE_COMPUTE_CAP_MAX_PRIVATE_SIZE:
   case PIPE_COMPUTE_CAP_MAX_VARIABLE_THREADS_PER_BLOCK:
      RET(0);
   case PIPE_COMPUTE_CAP_MAX_GLOBAL_SIZE:
   case PIPE_COMPUTE_CAP_MAX_MEM_ALLOC_SIZE:
      RET(1ull << 30);
   case PIPE_COMPUTE_CAP_MAX_INPUT_SIZE:
      RET(4096);
   case PIPE_COMPUTE_CAP_MAX_CLOCK_FREQUENCY:
      RET(800);
   case PIPE_COMPUTE_CAP_MAX_COMPUTE_UNITS:
      RET(1);
   case PIPE_COMPUTE_CAP_IMAGES_SUPPORTED:
      RET(panfrost_screen(pscreen)->arch != NULL);
   case PIPE_COMPUTE_CAP_SUBGROUP_SIZE:
      RET(16);
   default:
      return 0;
   }
}

static int
panfrost_get_shader_param(struct pipe_screen *pscreen,
                          enum pipe_shader_type shader,
                          enum pipe_shader_cap param)
{
   bool graphics =
      shader == PIPE_SHADER_VERTEX || shader == PIPE_SHADER_FRAGMENT;

   /* Images in compute shaders (pan_image.h): texture descriptors on v9,
    * attribute records on v6/v7. */
   if (shader == PIPE_SHADER_COMPUTE &&
       param == PIPE_SHADER_CAP_MAX_SHADER_IMAGES)
      return panfrost_screen(pscreen)->arch ? PANFROST_MAX_IMAGES : 0;
   if (shader == PIPE_SHADER_COMPUTE && panfrost_screen(pscreen)->arch)
      return panfrost_get_compute_shader_param(param);
   if (shader == PIPE_SHADER_GEOMETRY)
      return panfrost_screen(pscreen)->arch ? panfrost_gs_shader_param(param)
                                            : 0;
   if (!graphics)
      return 0;

   switch (param) {
   case PIPE_SHADER_CAP_MAX_TEX_INSTRUCTIONS:
   case PIPE_SHADER_CAP_MAX_TEX_INDIRECTIONS:
      return 16384;
   /* Vertex attributes, or varying slots. */
   case PIPE_SHADER_CAP_MAX_INPUTS:
      return shader == PIPE_SHADER_FRAGMENT ? PAN_VA_GENERIC_SLOTS : 16;
   case PIPE_SHADER_CAP_MAX_OUTPUTS:
      return shader == PIPE_SHADER_FRAGMENT ? 1 : PAN_VA_GENERIC_SLOTS;
   case PIPE_SHADER_CAP_INDIRECT_INPUT_ADDR:
   case PIPE_SHADER_CAP_INDIRECT_OUTPUT_ADDR:
   case PIPE_SHADER_CAP_INDIRECT_TEMP_ADDR:
   case PIPE_SHADER_CAP_INDIRECT_CONST_ADDR:
      return 1;
   case PIPE_SHADER_CAP_MAX_TEXTURE_SAMPLERS:
   case PIPE_SHADER_CAP_MAX_SAMPLER_VIEWS:
      return 16;
   /* Global accesses at the addresses of the driver's constant buffer
    * PANFROST_SSBO_CBUF (pan_ssbo.h), where draws exist.  Without
    * hardware counters the state tracker makes atomic counters storage
    * buffers: it keeps half of the slots for them.
    */
   case PIPE_SHADER_CAP_MAX_SHADER_BUFFERS:
      return panfrost_has_storage(pscreen) ? PANFROST_MAX_SSBOS : 0;
   /* Fragment images (pan_image.h; attribute records on v6/v7): with
    * them and formatted stores the state tracker offers
    * ARB_shader_image_load_store. */
   case PIPE_SHADER_CAP_MAX_SHADER_IMAGES:
      return shader == PIPE_SHADER_FRAGMENT &&
                   panfrost_screen(pscreen)->arch
                ? PANFROST_MAX_IMAGES
                : 0;
   default:
      return panfrost_compiler_shader_param(param);
   }
}

void
panfrost_screen_init_caps(struct pipe_screen *pscreen)
{
   pscreen->get_param = panfrost_get_param;
   pscreen->get_paramf = panfrost_get_paramf;
   pscreen->get_shader_param = panfrost_get_shader_param;
   pscreen->get_compute_param = panfrost_get_compute_param;
   /* The clock timer queries read (pan_query.c). */
   pscreen->get_timestamp = u_default_get_timestamp;
}
