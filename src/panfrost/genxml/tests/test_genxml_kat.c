/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Known-answer tests for the generated packers.
 *
 * Every expected word below was computed by hand from the bit layout in the
 * XML (the derivation is in the comment next to it), NOT by running the
 * packer, so these tests catch a wrong layout helper or a wrong generator as
 * well as a wrong XML edit.  Built once per architecture (-DPAN_ARCH=N);
 * sections are selected with #if.
 */

#include <stdlib.h>

#include "pan_genxml.h"
#include "util/pan_test_util.h"

static void
check_words(const char *what, const void *got_, const uint32_t *expect,
            unsigned count)
{
   const uint32_t *got = got_;

   for (unsigned i = 0; i < count; i++) {
      PAN_CHECK(got[i] == expect[i],
                "%s %s: word %u is 0x%08x, expected 0x%08x", PAN_ARCH_NAME,
                what, i, got[i], expect[i]);
   }
}

/* CHECK(what, packed, expected words...) */
#define CHECK(what, packed, ...)                                              \
   do {                                                                       \
      static const uint32_t expect_[] = {__VA_ARGS__};                       \
      _Static_assert(sizeof(expect_) == sizeof(packed), "size mismatch");    \
      check_words(what, &(packed), expect_, sizeof(expect_) / 4);            \
   } while (0)

/* The job header has had the same layout on every Job Manager GPU. */
static void
test_job_header(void)
{
   struct mali_job_header_packed p;

   pan_pack(&p, job_header, cfg) {
      cfg.type = MALI_JOB_TYPE_FRAGMENT;
      cfg.barrier = true;
      cfg.index = 5;
      cfg.dependency_1 = 3;
      cfg.dependency_2 = 4;
      cfg.next = 0x123456780ull;
#if PAN_ARCH <= 7
      cfg.is_64b = true;
#endif
   }
   /* w4: is_64b 1 (bit 0, up to v7) | type 9 << 1 = 0x12
    *     | barrier 1 << 8 = 0x100 | index 5 << 16 = 0x50000
    * w5: dep1 3 | dep2 4 << 16 = 0x00040003
    * w6/w7: next, low then high half */
#if PAN_ARCH <= 7
   CHECK("job_header", p, 0, 0, 0, 0, 0x00050113, 0x00040003, 0x23456780,
         0x1);
#else
   /* v9 has no "is 64b" bit: w4 = 0x12 | 0x100 | 0x50000 */
   CHECK("job_header", p, 0, 0, 0, 0, 0x00050112, 0x00040003, 0x23456780,
         0x1);
#endif

   /* Unpack gives the same values back. */
   pan_unpack(&p, job_header, back);
   PAN_EXPECT(back.type == MALI_JOB_TYPE_FRAGMENT);
   PAN_EXPECT_EQ(back.index, 5);
   PAN_EXPECT_EQ(back.next, 0x123456780ull);
}

#if PAN_ARCH >= 6
/* Samplers kept their layout from v6 to v9. */
static void
test_bifrost_sampler(void)
{
   struct mali_sampler_packed p;

   pan_pack(&p, sampler, cfg) {
      cfg.wrap_mode_s = MALI_WRAP_MODE_REPEAT;
      cfg.minify_nearest = true;
      cfg.minimum_lod = 1.5f;
      cfg.maximum_lod = 10.0f;
      cfg.compare_function = MALI_FUNC_LEQUAL;
      cfg.lod_bias = -0.5f;
      cfg.maximum_anisotropy = 16;
      cfg.border_color_a = 0x3f800000;
   }
   /* w0: type 1 | wrap_r 9 << 8 = 0x900 | wrap_t 9 << 12 = 0x9000
    *     | wrap_s 8 << 16 = 0x80000 | seamless 1 << 23 = 0x800000
    *     | normalized 1 << 25 | clamp_int_array 1 << 26 | minify 1 << 27
    *     = 0x0E889901
    * w1: min_lod 1.5 * 256 = 0x180 | lequal 3 << 13 = 0x6000
    *     | max_lod 10 * 256 = 0xA00 << 16 = 0x0A006180
    * w2: lod_bias -0.5 * 256 = -128 -> 0xFF80 (16 bits)
    *     | aniso 16 - 1 = 15 << 16 = 0x000FFF80
    * w7: border alpha 1.0f */
   CHECK("sampler", p, 0x0E889901, 0x0A006180, 0x000FFF80, 0, 0, 0, 0,
         0x3f800000);

   pan_unpack(&p, sampler, back);
   PAN_EXPECT(back.minimum_lod == 1.5f);
   PAN_EXPECT(back.lod_bias == -0.5f);
   PAN_EXPECT_EQ(back.maximum_anisotropy, 16);
}

#endif

#if PAN_ARCH >= 6 && PAN_ARCH <= 7
static uint32_t
rgba8_format(void)
{
   struct mali_pixel_format_packed p;

   pan_pack(&p, pixel_format, cfg) {
      cfg.format = MALI_FORMAT_RGBA8_UNORM;
#if PAN_ARCH == 6
      cfg.swizzle.r = MALI_CHANNEL_R;
      cfg.swizzle.g = MALI_CHANNEL_G;
      cfg.swizzle.b = MALI_CHANNEL_B;
      cfg.swizzle.a = MALI_CHANNEL_A;
#else
      cfg.order = MALI_RGB_COMPONENT_ORDER_RGBA;
#endif
   }
   /* format 187 = 0xBB at bit 12 = 0xBB000; v6 adds the swizzle
    * R | G << 3 | B << 6 | A << 9 = 0 | 0x8 | 0x80 | 0x600 = 0x688 */
#if PAN_ARCH == 6
   CHECK("pixel_format", p, 0x000BB688);
#else
   CHECK("pixel_format", p, 0x000BB000);
#endif
   return p.opaque[0];
}

static void
test_bifrost_attribute(void)
{
   struct mali_attribute_packed p;

   pan_pack(&p, attribute, cfg) {
      cfg.buffer_index = 3;
      cfg.format = 0xBB000;
      cfg.offset = -16;
   }
   /* w0: index 3 | offset_enable 1 << 9 = 0x200
    *     | format 0xBB000 << 10 = 0x2EC00000 -> 0x2EC00203
    * w1: -16 */
   CHECK("attribute", p, 0x2EC00203, 0xFFFFFFF0);
}

static void
test_bifrost_attribute_buffer(void)
{
   struct mali_attribute_buffer_packed p;

   pan_pack(&p, attribute_buffer, cfg) {
      cfg.type = MALI_ATTRIBUTE_TYPE_1D_POT_DIVISOR;
      cfg.pot.divisor = 8;
      cfg.address = 0x12345640;
      cfg.stride = 16;
      cfg.size = 4096;
   }
   /* w0: type 2 | (address >> 6) << 6 = address low bits 0x12345640
    *     -> 0x12345642
    * w1: address bits 32.. = 0 | log2(8) = 3 << 24 = 0x03000000
    * w2: stride, w3: size */
   CHECK("attribute_buffer", p, 0x12345642, 0x03000000, 16, 4096);
}

static void
test_bifrost_texture(uint32_t fmt)
{
   struct mali_texture_packed p;

   pan_pack(&p, texture, cfg) {
      cfg.dimension = MALI_TEXTURE_DIMENSION_2D;
      cfg.format = fmt;
      cfg.width = 256;
      cfg.height = 128;
      cfg.swizzle = 0x688;
      cfg.texel_ordering = MALI_TEXTURE_LAYOUT_LINEAR;
      cfg.levels = 9;
      cfg.surfaces = 0x10000040;
   }
   /* w0: type 2 | dim 2 << 4 = 0x20 | format << 10
    *     (v7: 0xBB000 << 10 = 0x2EC00000; v6: 0xBB688 << 10 = 0x2EDA2000)
    * w1: width-1 = 0xFF | height-1 = 0x7F << 16 = 0x007F00FF
    * w2: swizzle 0x688 | linear 2 << 12 = 0x2000 | levels-1 = 8 << 16
    *     = 0x00082688
    * w3: sample count 1 -> log2 0, LODs 0
    * w4/5: surfaces; w6/7: array size 1 and depth 1 stored as 0 */
#if PAN_ARCH == 6
   CHECK("texture", p, 0x2EDA2022, 0x007F00FF, 0x00082688, 0, 0x10000040, 0,
         0, 0);
#else
   CHECK("texture", p, 0x2EC00022, 0x007F00FF, 0x00082688, 0, 0x10000040, 0,
         0, 0);
#endif
}

#endif

#if PAN_ARCH >= 6
static void
test_bifrost_blend(void)
{
   struct mali_blend_packed p;

   pan_pack(&p, blend, cfg) {
      cfg.constant = 0xABCD;
      cfg.equation.rgb.a = MALI_BLEND_OPERAND_A_SRC;
      cfg.equation.rgb.b = MALI_BLEND_OPERAND_B_SRC;
      cfg.equation.rgb.c = MALI_BLEND_OPERAND_C_ZERO;
      cfg.equation.alpha.a = MALI_BLEND_OPERAND_A_ZERO;
      cfg.equation.alpha.b = MALI_BLEND_OPERAND_B_SRC;
      cfg.equation.alpha.c = MALI_BLEND_OPERAND_C_SRC_ALPHA;
      cfg.equation.alpha.invert_c = true;
      cfg.equation.color_mask = 0xF;
      cfg.internal.mode = MALI_BLEND_MODE_FIXED_FUNCTION;
      cfg.internal.fixed_function.num_comps = 4;
      cfg.internal.fixed_function.rt = 1;
      cfg.internal.fixed_function.conversion.memory_format = 0xBB000;
      cfg.internal.fixed_function.conversion.register_format =
         MALI_REGISTER_FILE_FORMAT_F32;
   }
   /* w0: enable 1 << 9 = 0x200 | constant 0xABCD << 16 = 0xABCD0200
    * w1: rgb = a 2 | b 2 << 4 | c 1 << 8 = 0x122;
    *     alpha = a 1 | b 2 << 4 | c 5 << 8 | invert_c 1 << 11 = 0xD21 << 12
    *     | mask 0xF << 28 -> 0xF0D21122
    * w2: mode 2 | (num_comps - 1 = 3) << 3 = 0x18 | rt 1 << 16 = 0x0001001A
    * w3: memory format 0xBB000 | register format F32 = 1 << 24 */
   CHECK("blend/fixed-function", p, 0xABCD0200, 0xF0D21122, 0x0001001A,
         0x010BB000);

   pan_pack(&p, blend, cfg) {
      cfg.internal.mode = MALI_BLEND_MODE_SHADER;
#if PAN_ARCH <= 7
      cfg.internal.shader.return_value = 0x1000;
#endif
      cfg.internal.shader.pc = 0x2340;
      /* Ignored: not part of the selected case. */
      cfg.internal.fixed_function.rt = 7;
   }
   /* w0: enable 0x200; w1: empty equation
    * w2: mode 0 | (0x1000 >> 3) << 3 = 0x1000
    * w3: (0x2340 >> 4) << 4 = 0x2340 */
#if PAN_ARCH <= 7
   CHECK("blend/shader", p, 0x00000200, 0, 0x00001000, 0x00002340);
#else
   /* v9 blend shaders have no return address field. */
   CHECK("blend/shader", p, 0x00000200, 0, 0, 0x00002340);
#endif
}

static void
test_bifrost_framebuffer(void)
{
   struct mali_framebuffer_parameters_packed p;

   pan_pack(&p, framebuffer_parameters, cfg) {
      cfg.sample_locations = 0x2000;
      cfg.width = 1920;
      cfg.height = 1080;
      cfg.bound_max_x = 1919;
      cfg.bound_max_y = 1079;
      cfg.sample_count = 4;
      cfg.sample_pattern = MALI_SAMPLE_PATTERN_ROTATED_4X_GRID;
      cfg.effective_tile_size = 256;
      cfg.render_target_count = 1;
      cfg.color_buffer_allocation = 1024;
      cfg.z_internal_format = MALI_Z_INTERNAL_FORMAT_D24;
      cfg.z_write_enable = true;
      cfg.has_zs_crc_extension = true;
      cfg.z_clear = 1.0f;
      cfg.tiler = 0x800000040ull;
   }
   /* w4/5: sample locations
    * w8: 1919 = 0x77F | 1079 = 0x437 << 16; w10 the same for the bounds
    * w11: log2(4) = 2 | pattern 2 << 3 = 0x10 | log2(256) = 8 << 9 = 0x1000
    *      | rt count 0 | 1024 >> 10 = 1 << 24 -> 0x01001012
    * w12: z format 1 << 16 | z write 1 << 18 | zs_crc 1 << 21 = 0x00250000
    * w13: 1.0f; w14/15: tiler */
#if PAN_ARCH <= 7
   CHECK("framebuffer_parameters", p, 0, 0, 0, 0, 0x2000, 0, 0, 0,
         0x0437077F, 0, 0x0437077F, 0x01001012, 0x00250000, 0x3f800000,
         0x00000040, 0x8);
#else
   /* v9 defaults point_sprite_coord_origin_max_y (w11 bit 15 = 0x8000) */
   CHECK("framebuffer_parameters", p, 0, 0, 0, 0, 0x2000, 0, 0, 0,
         0x0437077F, 0, 0x0437077F, 0x01009012, 0x00250000, 0x3f800000,
         0x00000040, 0x8);
#endif
}

static void
test_bifrost_render_target(void)
{
   struct mali_render_target_packed p;

   pan_pack(&p, render_target, cfg) {
      cfg.internal_format = MALI_COLOR_BUFFER_INTERNAL_FORMAT_R8G8B8A8;
      cfg.write_enable = true;
      cfg.writeback_format = MALI_COLOR_FORMAT_R8G8B8A8;
      cfg.writeback_block_format = MALI_BLOCK_FORMAT_LINEAR;
      cfg.swizzle = 0x688;
      cfg.rgb.base = 0x40000;
      cfg.rgb.row_stride_B = 7680;
      cfg.clear.color_0 = 0xFF00FF00;
   }
   /* w0: internal format 1 << 26 = 0x04000000
    * w1: write 1 | format 19 << 3 = 0x98 | swizzle 0x688 << 16
    *     | linear: v7 2 << 8 = 0x200 (4-bit field at 8),
    *               v6 2 << 10 = 0x800 (2-bit field at 10)
    * w8/9: base; w10: row stride 0x1E00; w12: clear colour 0 */
#if PAN_ARCH == 6
   CHECK("render_target", p, 0x04000000, 0x06880899, 0, 0, 0, 0, 0, 0,
         0x40000, 0, 0x1E00, 0, 0xFF00FF00, 0, 0, 0);
#else
   CHECK("render_target", p, 0x04000000, 0x06880299, 0, 0, 0, 0, 0, 0,
         0x40000, 0, 0x1E00, 0, 0xFF00FF00, 0, 0, 0);
#endif
}

#endif

#if PAN_ARCH >= 6 && PAN_ARCH <= 7
static void
test_bifrost_fragment_job(void)
{
   struct mali_fragment_job_packed job;

   memset(&job, 0, sizeof(job));
   pan_section_pack(&job, fragment_job, header, cfg) {
      cfg.type = MALI_JOB_TYPE_FRAGMENT;
      cfg.index = 1;
   }
   pan_section_pack(&job, fragment_job, payload, cfg) {
      cfg.bound_max_x = 119;
      cfg.bound_max_y = 67;
      cfg.framebuffer = 0x10000001;
   }
   /* Header: w4 = is_64b 1 | type 9 << 1 | index 1 << 16 = 0x00010013.
    * Payload at byte 32 (word 8): w9 = 119 | 67 << 16 = 0x00430077,
    * w10 = framebuffer pointer (low bits carry the FBD tag). */
   CHECK("fragment_job", job, 0, 0, 0, 0, 0x00010013, 0, 0, 0,
         0, 0x00430077, 0x10000001, 0, 0, 0, 0, 0);
}
#endif

#if PAN_ARCH >= 9
static void
test_valhall_texture(void)
{
   struct mali_texture_packed p;

   pan_pack(&p, texture, cfg) {
      cfg.dimension = MALI_TEXTURE_DIMENSION_2D;
      cfg.format = 0xBB000;
      cfg.width = 256;
      cfg.height = 128;
      cfg.swizzle = 0x688;
      cfg.levels = 9;
      cfg.surfaces = 0x10000040;
   }
   /* w0: type texture 2 | dim 2 << 4 | 0xBB000 << 10 = 0x2EC00022
    * w1: 0x007F00FF; w2: swizzle 0x688 | levels-1 8 << 16 = 0x00080688 */
   CHECK("texture", p, 0x2EC00022, 0x007F00FF, 0x00080688, 0, 0x10000040, 0,
         0, 0);
}

static void
test_valhall_buffer(void)
{
   struct mali_buffer_packed p;

   pan_pack(&p, buffer, cfg) {
      cfg.size = 4096;
      cfg.address = 0x12345640;
      cfg.strided.stride = 16;
   }
   /* w0: type buffer 9 | simple 1 << 4 = 0x19; w1 size; w2/3 address;
    * w4 stride */
   CHECK("buffer", p, 0x19, 4096, 0x12345640, 0, 16, 0, 0, 0);
}

static void
test_valhall_plane(void)
{
   struct mali_plane_packed p;

   pan_pack(&p, plane, cfg) {
      cfg.plane_type = MALI_PLANE_TYPE_AFBC;
      cfg.afbc.ytr = true;
      cfg.afbc.compression_mode = MALI_AFBC_COMPRESSION_MODE_R8G8B8A8;
      cfg.afbc.header_stride = 64;
      cfg.size = 0x10000;
      cfg.address = 0x200000;
      /* Ignored: generic planes only. */
      cfg.generic.clump_format = MALI_CLUMP_FORMAT_RAW32;
   }
   /* w0: type plane 10 | AFBC 6 << 4 = 0x6A | ytr 1 << 16
    *     | mode 10 << 26 = 0x28000000 -> 0x2801006A
    * w1 size; w2/3 address; w5 header stride */
   CHECK("plane/afbc", p, 0x2801006A, 0x10000, 0x200000, 0, 0, 64, 0, 0);
}

static void
test_valhall_resource(void)
{
   struct mali_resource_packed p;

   pan_pack(&p, resource, cfg) {
      cfg.address = 0x1000040;
      cfg.size = 3;
   }
   /* w0/1: 56-bit address, "contains descriptors" (default) at w1 bit 24;
    * w2/3: entry count */
   CHECK("resource", p, 0x01000040, 0x01000000, 3, 0);
}
#endif

#if PAN_ARCH <= 5
static void
test_midgard_sampler(void)
{
   struct mali_sampler_packed p;

   pan_pack(&p, sampler, cfg) {
      cfg.magnify_nearest = false;
      cfg.lod_bias = 0.25f;
      cfg.minimum_lod = 2.0f;
      cfg.maximum_lod = 4.5f;
      cfg.wrap_mode_s = MALI_WRAP_MODE_REPEAT;
      cfg.compare_function = MALI_FUNC_LEQUAL;
   }
   /* w0: minify (default) 1 << 1 | normalized (default) 1 << 5 = 0x22
    *     | bias 0.25 * 256 = 0x40 << 16 -> 0x00400022
    * w1: min 2.0 * 256 = 0x200 | max 4.5 * 256 = 0x480 << 16 = 0x04800200
    * w2: wrap s 8 | t 9 << 4 = 0x90 | r 9 << 8 = 0x900 | lequal 3 << 12
    *     = 0x3000 | seamless (default) 1 << 15 = 0x8000 -> 0x0000B998 */
   CHECK("sampler", p, 0x00400022, 0x04800200, 0x0000B998, 0, 0, 0, 0, 0);
}

static void
test_midgard_texture(void)
{
   struct mali_texture_packed p;

   pan_pack(&p, texture, cfg) {
      cfg.width = 64;
      cfg.height = 32;
      cfg.array_size = 1;
      cfg.format = 0xBB688;
      cfg.dimension = MALI_TEXTURE_DIMENSION_2D;
      cfg.texel_ordering = MALI_TEXTURE_LAYOUT_LINEAR;
      cfg.swizzle = 0x688;
   }
   /* w0: 63 | 31 << 16 = 0x001F003F
    * w1: depth 1 and array size 1, both stored minus one -> 0
    * w2: format 0xBB688 | 2D 2 << 22 = 0x800000 | linear 2 << 24
    *     = 0x2000000 | 64-bit surface pointers (default) 1 << 28
    *     -> 0x128BB688
    * w3: one level -> 0; w4: swizzle */
   CHECK("texture", p, 0x001F003F, 0, 0x128BB688, 0, 0x688, 0, 0, 0);
}

static void
test_midgard_attribute(void)
{
   struct mali_attribute_packed p;

   pan_pack(&p, attribute, cfg) {
      cfg.buffer_index = 3;
      cfg.format = 0xBB688;
      cfg.offset = 8;
   }
   /* w0: 3 | offset_enable 1 << 9 | 0xBB688 << 10 = 0x2EDA2000
    *     -> 0x2EDA2203 */
   CHECK("attribute", p, 0x2EDA2203, 8);
}
#endif

#if PAN_ARCH == 5
static void
test_midgard_blend(void)
{
   struct mali_blend_packed p;

   pan_pack(&p, blend, cfg) {
      cfg.fixed_function.equation.rgb.a = MALI_BLEND_OPERAND_A_SRC;
      cfg.fixed_function.equation.rgb.b = MALI_BLEND_OPERAND_B_SRC;
      cfg.fixed_function.equation.rgb.c = MALI_BLEND_OPERAND_C_ZERO;
      cfg.fixed_function.equation.alpha.a = MALI_BLEND_OPERAND_A_SRC;
      cfg.fixed_function.equation.alpha.b = MALI_BLEND_OPERAND_B_SRC;
      cfg.fixed_function.equation.alpha.c = MALI_BLEND_OPERAND_C_ZERO;
      cfg.fixed_function.equation.color_mask = 0xF;
      cfg.fixed_function.constant = 0.5f;
   }
   /* w0: enable (default) 1 << 9 = 0x200
    * w2: rgb 2 | 2 << 4 | 1 << 8 = 0x122, alpha 0x122 << 12, mask 0xF << 28
    *     -> 0xF0122122; w3: 0.5f */
   CHECK("blend/fixed-function", p, 0x200, 0, 0xF0122122, 0x3F000000);

   pan_pack(&p, blend, cfg) {
      cfg.blend_shader = true;
      cfg.shader.pc = 0x1234567890ull;
   }
   /* w0: blend_shader 1 << 1 | enable 1 << 9 = 0x202; w2/3: shader address */
   CHECK("blend/shader", p, 0x202, 0, 0x34567890, 0x12);
}

static void
test_midgard_mfbd(void)
{
   struct mali_framebuffer_parameters_packed p;

   pan_pack(&p, framebuffer_parameters, cfg) {
      cfg.width = 800;
      cfg.height = 600;
      cfg.bound_max_x = 799;
      cfg.bound_max_y = 599;
      cfg.effective_tile_size = 256;
      cfg.render_target_count = 2;
      cfg.color_buffer_allocation = 2048;
      cfg.z_internal_format = MALI_Z_INTERNAL_FORMAT_D24;
      cfg.z_write_enable = true;
      cfg.z_clear = 0.5f;
   }
   /* w0: 799 = 0x31F | 599 = 0x257 << 16; w2: the same bounds
    * w3: log2(256) = 8 << 9 = 0x1000 | (2 - 1) << 19 = 0x80000
    *     | 2048 >> 10 = 2 << 24 -> 0x02081000
    * w4: D24 1 << 16 | z write 1 << 18 = 0x00050000; w5: 0.5f */
   CHECK("framebuffer_parameters", p, 0x0257031F, 0, 0x0257031F, 0x02081000,
         0x00050000, 0x3F000000);
}
#endif

#if PAN_ARCH == 4
static void
test_midgard_sfbd(void)
{
   struct mali_framebuffer_parameters_packed p;

   pan_pack(&p, framebuffer_parameters, cfg) {
      cfg.internal_format = MALI_COLOR_BUFFER_INTERNAL_FORMAT_R8G8B8A8;
      cfg.swizzle = 0x688;
      cfg.color_writeback_format = MALI_COLOR_FORMAT_R8G8B8A8;
      cfg.color_block_format = MALI_BLOCK_FORMAT_LINEAR;
      cfg.color_write_enable = true;
      cfg.bound_max_x = 799;
      cfg.bound_max_y = 599;
      cfg.color_writeback.base = 0x100000;
      cfg.color_writeback.row_stride_B = 3200;
      cfg.color_clear.color_0 = 0xFF0000FF;
      cfg.z_clear.value = 1.0f;
   }
   /* w0: format 1 | swizzle 0x688 << 6 = 0x1A200 | R8G8B8A8 19 << 18
    *     = 0x4C0000 | linear 2 << 26 = 0x8000000 | write 1 << 31
    *     -> 0x884DA201
    * w1: ZS format D24S8 (default) 5 << 18 = 0x00140000
    * w3: 799 | 599 << 16 = 0x0257031F
    * w12/13: colour base; w14: row stride 3200 = 0xC80
    * w24: clear colour 0; w28: Z clear 1.0f */
   CHECK("framebuffer_parameters (SFBD)", p, 0x884DA201, 0x00140000, 0,
         0x0257031F, 0, 0, 0, 0, 0, 0, 0, 0, 0x100000, 0, 0xC80, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0xFF0000FF, 0, 0, 0, 0x3f800000, 0, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0);
}
#endif

int
main(void)
{
   test_job_header();
#if PAN_ARCH <= 5
   test_midgard_sampler();
   test_midgard_texture();
   test_midgard_attribute();
#endif
#if PAN_ARCH == 5
   test_midgard_blend();
   test_midgard_mfbd();
#endif
#if PAN_ARCH == 4
   test_midgard_sfbd();
#endif
#if PAN_ARCH >= 6
   test_bifrost_sampler();
   test_bifrost_blend();
   test_bifrost_framebuffer();
   test_bifrost_render_target();
#endif
#if PAN_ARCH >= 6 && PAN_ARCH <= 7
   test_bifrost_texture(rgba8_format());
   test_bifrost_attribute();
   test_bifrost_attribute_buffer();
   test_bifrost_fragment_job();
#endif
#if PAN_ARCH >= 9
   test_valhall_texture();
   test_valhall_buffer();
   test_valhall_plane();
   test_valhall_resource();
#endif
   return pan_test_summary("genxml_kat_" PAN_ARCH_NAME);
}
