/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The attribute unit's formats on one architecture (-DPAN_ARCH): the
 * packed 10:10:10:2 formats in every number kind (unorm, snorm, and the
 * integers that scaled vertex formats read into float registers), and the
 * BGRA component order (v7+) or swizzle (v6) that swaps blue and red, as
 * sim_gfx_format and pan_sim_mem_to_regs read an element, and the
 * R11F_G11F_B10F and RGB10_A2 converting stores of images
 * (sim_gfx_st_cvt).
 */

#include <math.h>
#include <string.h>

#include "pan_genxml.h"
#include "pan_sim_vX_gfx.h"
#include "util/pan_test_util.h"

/* The pixel format word of hardware format hw, blue and red swapped when
 * bgra. */
static uint32_t
format_word(unsigned hw, bool bgra)
{
   uint32_t word = 0;
   pan_pack(&word, pixel_format, cfg)
   {
      cfg.format = hw;
#if PAN_ARCH >= 7
      cfg.order =
         bgra ? MALI_RGB_COMPONENT_ORDER_BGRA : MALI_RGB_COMPONENT_ORDER_RGBA;
#else
      cfg.swizzle.r = bgra ? MALI_CHANNEL_B : MALI_CHANNEL_R;
      cfg.swizzle.g = MALI_CHANNEL_G;
      cfg.swizzle.b = bgra ? MALI_CHANNEL_R : MALI_CHANNEL_B;
      cfg.swizzle.a = MALI_CHANNEL_A;
#endif
   }
   return word;
}

static uint32_t
word_1010102(int c0, int c1, int c2, int c3)
{
   return (c0 & 0x3ff) | (c1 & 0x3ff) << 10 | (c2 & 0x3ff) << 20 |
          (uint32_t)(c3 & 3) << 30;
}

/* Reads elem through the format word as four float registers. */
static bool
fetch(uint32_t word, uint32_t elem, float out[4])
{
   struct pan_sim_mem_format f;
   char err[256] = "";
   uint32_t regs[4];

   if (!PAN_GENX(sim_gfx_format)(word, "attribute", 0, &f, err)) {
      PAN_CHECK(false, "format 0x%x refused: %s", word, err);
      return false;
   }
   PAN_CHECK(f.comps * f.bits / 8 == 4, "element of %u bytes, want 4",
             f.comps * f.bits / 8);
   pan_sim_mem_to_regs(&f, &elem, PAN_SIM_REG_F32, 4, regs);
   memcpy(out, regs, 16);
   return true;
}

static void
check(const char *what, uint32_t word, uint32_t elem, float r, float g, float b,
      float a)
{
   float v[4];
   const float want[4] = { r, g, b, a };

   if (!fetch(word, elem, v))
      return;
   for (unsigned c = 0; c < 4; ++c)
      PAN_CHECK(fabsf(v[c] - want[c]) < 1e-6f,
                "%s: component %u is %f, "
                "want %f",
                what, c, v[c], want[c]);
}

/* A record of binary32 (or binary16) components with the float register
 * format of its width moves bits, but a binary32 store gives NaN patterns
 * (-1, -3, a signalling NaN) the default NaN, as hardware may; an integer
 * record with u32 registers keeps them (integer varyings, whose bits may
 * look like NaNs). */
static void
check_raw_copy(void)
{
   struct pan_sim_mem_format f32 = { 0 }, f16 = { 0 }, u32 = { 0 };
   const uint32_t in[4] = { 0xffffffffu, 0xfffffffdu, 0x7f800001u, 2 };
   const uint32_t quiet[4] = { 0x7fc00000u, 0x7fc00000u, 0x7fc00000u, 2 };
   uint32_t mem[4], out[4];

   PAN_CHECK(pan_sim_mem_format_parse("rgba32f", &f32), "rgba32f refused");
   pan_sim_regs_to_mem(&f32, PAN_SIM_REG_F32, 4, in, mem);
   PAN_CHECK(!memcmp(mem, quiet, 16),
             "f32 store gave 0x%x 0x%x 0x%x 0x%x", mem[0], mem[1], mem[2],
             mem[3]);
   PAN_CHECK(pan_sim_mem_format_parse("rgba32ui", &u32), "rgba32ui refused");
   pan_sim_regs_to_mem(&u32, PAN_SIM_REG_U32, 4, in, mem);
   PAN_CHECK(!memcmp(mem, in, 16), "u32 store changed 0x%x 0x%x 0x%x 0x%x",
             mem[0], mem[1], mem[2], mem[3]);
   pan_sim_mem_to_regs(&u32, in, PAN_SIM_REG_AUTO, 4, out);
   PAN_CHECK(!memcmp(out, in, 16), "u32 load changed 0x%x 0x%x 0x%x 0x%x",
             out[0], out[1], out[2], out[3]);
   pan_sim_mem_to_regs(&f32, in, PAN_SIM_REG_F32, 4, out);
   PAN_CHECK(!memcmp(out, in, 16), "f32 load changed 0x%x 0x%x 0x%x 0x%x",
             out[0], out[1], out[2], out[3]);

   const uint32_t h[4] = { 0xfffe7c01u, 0x00010002u }; /* in[4] */
   PAN_CHECK(pan_sim_mem_format_parse("rgba16f", &f16), "rgba16f refused");
   pan_sim_regs_to_mem(&f16, PAN_SIM_REG_F16, 4, h, mem);
   PAN_CHECK(!memcmp(mem, h, 8), "f16 store changed 0x%x 0x%x", mem[0], mem[1]);
   pan_sim_mem_to_regs(&f16, h, PAN_SIM_REG_F16, 4, out);
   PAN_CHECK(!memcmp(out, h, 8), "f16 load changed 0x%x 0x%x", out[0], out[1]);
}

/* The blend unit's conversion into integer tile-buffer formats clamps to
 * each component's range (GL's integer render targets keep 255 of 1000),
 * where a store keeps the low bits. */
static void
check_tile_saturation(void)
{
   struct pan_sim_mem_format u8, s8, s16, u1010102;
   const uint32_t big[4] = { 1001, 2, 0xfffffff0u /* -16 */, 300 };
   uint8_t mem[16];

   PAN_CHECK(pan_sim_mem_format_parse("rgba8ui", &u8) &&
                pan_sim_mem_format_parse("rgba8i", &s8) &&
                pan_sim_mem_format_parse("rgba16i", &s16) &&
                pan_sim_mem_format_parse("rgb10_a2ui", &u1010102),
             "integer formats refused");
   pan_sim_regs_to_tile(&u8, PAN_SIM_REG_U32, 4, big, mem);
   PAN_CHECK(mem[0] == 255 && mem[1] == 2 && mem[2] == 255 && mem[3] == 255,
             "u32 into rgba8ui: %u %u %u %u", mem[0], mem[1], mem[2], mem[3]);
   pan_sim_regs_to_tile(&s8, PAN_SIM_REG_S32, 4, big, mem);
   PAN_CHECK(mem[0] == 127 && mem[1] == 2 && mem[2] == (uint8_t)-16 &&
                mem[3] == 127,
             "s32 into rgba8i: %d %d %d %d", (int8_t)mem[0], (int8_t)mem[1],
             (int8_t)mem[2], (int8_t)mem[3]);
   const uint32_t wide[4] = { 40000, 0xffff0000u /* -65536 */, 5, 0 };
   int16_t h[4];
   pan_sim_regs_to_tile(&s16, PAN_SIM_REG_S32, 4, wide, h);
   PAN_CHECK(h[0] == 32767 && h[1] == -32768 && h[2] == 5 && h[3] == 0,
             "s32 into rgba16i: %d %d %d %d", h[0], h[1], h[2], h[3]);
   uint32_t w = 0;
   pan_sim_regs_to_tile(&u1010102, PAN_SIM_REG_U32, 4, big, &w);
   PAN_CHECK(w == word_1010102(1001, 2, 1023, 3), "u32 into rgb10_a2ui: 0x%x",
             w);
   /* Stores keep the low bits. */
   pan_sim_regs_to_mem(&u8, PAN_SIM_REG_U32, 4, big, mem);
   PAN_CHECK(mem[0] == (1001 & 0xff) && mem[3] == (300 & 0xff),
             "u32 stored as rgba8ui: %u %u", mem[0], mem[3]);
}

/* An image store to R11F_G11F_B10F (ST_CVT of a float vec4): the packed
 * word of 11/11/10-bit unsigned floats, rounded to nearest even, negatives
 * 0, alpha dropped; a store of two components keeps the third's bits. */
static void
check_st_cvt_r11g11b10(void)
{
   uint32_t mem[2] = { 0, 0x3ffu << 22 };
   struct pan_sim_region r = { 0x10000, sizeof(mem), mem, "image", true };
   struct pan_sim_space space = { &r, 1 };
   uint32_t conv = 0;
   char err[256] = "";

   pan_pack(&conv, internal_conversion, cfg)
   {
      cfg.memory_format = format_word(MALI_FORMAT_R11F_G11F_B10F, false);
      cfg.register_format = MALI_REGISTER_FILE_FORMAT_F32;
   }
   /* 1.0: exponent 15; 0.5 + 1/128: exponent 14, mantissa 1 of 6 bits;
    * 65000 rounds down to the largest 10-bit value, 64512 (exponent 30,
    * mantissa 31 of 5 bits); -2 is 0. */
   const float in_f[4] = { 1.0f, 0.5f + 1.0f / 128, 65000.0f, -2.0f };
   uint32_t in[4];
   memcpy(in, in_f, sizeof(in));
   PAN_CHECK(PAN_GENX(sim_gfx_st_cvt)(&space, 0x10000, conv, 4,
                                      in, err),
             "r11f_g11f_b10f store refused: %s", err);
   uint32_t want = (15u << 6) | ((14u << 6 | 1) << 11) | ((30u << 5 | 31) << 22);
   PAN_CHECK(mem[0] == want, "r11f_g11f_b10f stored 0x%08x, want 0x%08x",
             mem[0], want);
   PAN_CHECK(pan_sim_r11g11b10_channel(mem[0], 2) == 64512.0f,
             "blue reads back %f", pan_sim_r11g11b10_channel(mem[0], 2));

   const float two_f[4] = { 0.25f, 2.0f, 0, 0 };
   uint32_t two[4];
   memcpy(two, two_f, sizeof(two));
   PAN_CHECK(PAN_GENX(sim_gfx_st_cvt)(&space, 0x10004, conv, 2,
                                      two, err),
             "two-component store refused: %s", err);
   want = (13u << 6) | ((16u << 6) << 11) | (0x3ffu << 22);
   PAN_CHECK(mem[1] == want, "two components stored 0x%08x, want 0x%08x",
             mem[1], want);

   /* Integer registers have no float to convert. */
   pan_pack(&conv, internal_conversion, cfg)
   {
      cfg.memory_format = format_word(MALI_FORMAT_R11F_G11F_B10F, false);
      cfg.register_format = MALI_REGISTER_FILE_FORMAT_U32;
   }
   PAN_CHECK(!PAN_GENX(sim_gfx_st_cvt)(&space, 0x10000, conv, 4,
                                       in, err),
             "u32 into r11f_g11f_b10f accepted");
   PAN_EXPECT_STR_HAS(err, "r11f_g11f_b10f");

   /* RGB10_A2 images: unorm from floats, the unsigned integer form from
    * u32 registers; three components keep alpha's bits. */
   pan_pack(&conv, internal_conversion, cfg)
   {
      cfg.memory_format = format_word(MALI_FORMAT_RGB10_A2_UNORM, false);
      cfg.register_format = MALI_REGISTER_FILE_FORMAT_F32;
   }
   const float unorm_f[4] = { 1.0f, 0.0f, 341 / 1023.0f, 2 / 3.0f };
   memcpy(in, unorm_f, sizeof(in));
   mem[0] = 0;
   PAN_CHECK(PAN_GENX(sim_gfx_st_cvt)(&space, 0x10000, conv, 4, in, err),
             "rgb10_a2_unorm store refused: %s", err);
   PAN_CHECK(mem[0] == word_1010102(1023, 0, 341, 2),
             "rgb10_a2_unorm stored 0x%08x", mem[0]);
   pan_pack(&conv, internal_conversion, cfg)
   {
      cfg.memory_format = format_word(MALI_FORMAT_RGB10_A2UI, false);
      cfg.register_format = MALI_REGISTER_FILE_FORMAT_U32;
   }
   const uint32_t ui[4] = { 7, 1000, 3, 0 };
   mem[1] = word_1010102(0, 0, 0, 1);
   PAN_CHECK(PAN_GENX(sim_gfx_st_cvt)(&space, 0x10004, conv, 3, ui, err),
             "rgb10_a2ui store refused: %s", err);
   PAN_CHECK(mem[1] == word_1010102(7, 1000, 3, 1),
             "rgb10_a2ui stored 0x%08x", mem[1]);
}

int
main(void)
{
   check_raw_copy();
   check_tile_saturation();
   check_st_cvt_r11g11b10();
   check("rgb10_a2_unorm", format_word(MALI_FORMAT_RGB10_A2_UNORM, false),
         word_1010102(1023, 0, 341, 2), 1.0f, 0.0f, 341 / 1023.0f, 2 / 3.0f);
   check("rgb10_a2_unorm bgra", format_word(MALI_FORMAT_RGB10_A2_UNORM, true),
         word_1010102(1023, 0, 341, 2), 341 / 1023.0f, 0.0f, 1.0f, 2 / 3.0f);
   /* Signed components are sign-extended from their width; -512 and the
    * 2-bit -2 clamp to -1. */
   check("rgb10_a2_snorm", format_word(MALI_FORMAT_RGB10_A2_SNORM, false),
         word_1010102(-512, 511, -1, -2), -1.0f, 1.0f, -1 / 511.0f, -1.0f);
   check("rgb10_a2_snorm bgra", format_word(MALI_FORMAT_RGB10_A2_SNORM, true),
         word_1010102(-512, 511, 100, 1), 100 / 511.0f, 1.0f, -1.0f, 1.0f);
   /* Scaled formats: integers into float registers. */
   check("rgb10_a2ui", format_word(MALI_FORMAT_RGB10_A2UI, false),
         word_1010102(1023, 7, 0, 3), 1023.0f, 7.0f, 0.0f, 3.0f);
   check("rgb10_a2i bgra", format_word(MALI_FORMAT_RGB10_A2I, true),
         word_1010102(-3, 200, -512, -1), -512.0f, 200.0f, -3.0f, -1.0f);
   /* Bytes B, G, R, A of a BGRA8 colour. */
   check("rgba8_unorm bgra", format_word(MALI_FORMAT_RGBA8_UNORM, true),
         0xff336699u, 0x33 / 255.0f, 0x66 / 255.0f, 0x99 / 255.0f, 1.0f);
   check("rgba8_unorm", format_word(MALI_FORMAT_RGBA8_UNORM, false),
         0xff336699u, 0x99 / 255.0f, 0x66 / 255.0f, 0x33 / 255.0f, 1.0f);

#if PAN_ARCH >= 7
   /* An order the simulator does not model is refused with a message. */
   uint32_t word = 0;
   pan_pack(&word, pixel_format, cfg)
   {
      cfg.format = MALI_FORMAT_RGBA8_UNORM;
      cfg.order = MALI_RGB_COMPONENT_ORDER_ARGB;
   }
   struct pan_sim_mem_format f;
   char err[256] = "";
   PAN_CHECK(!PAN_GENX(sim_gfx_format)(word, "attribute", 3, &f, err),
             "ARGB accepted");
   PAN_EXPECT_STR_HAS(err, "component order argb");
#else
   /* v6: a swizzle reading the constants 0 and 1. */
   uint32_t word = 0;
   pan_pack(&word, pixel_format, cfg)
   {
      cfg.format = MALI_FORMAT_RGBA8_UNORM;
      cfg.swizzle.r = MALI_CHANNEL_A;
      cfg.swizzle.g = MALI_CHANNEL_0;
      cfg.swizzle.b = MALI_CHANNEL_1;
      cfg.swizzle.a = MALI_CHANNEL_R;
   }
   check("rgba8_unorm a01r", word, 0xff336699u, 1.0f, 0.0f, 1.0f,
         0x99 / 255.0f);
#endif
   return pan_test_summary("pan_sim_attrib");
}
