/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Render-target formats and clear packing: every format the format table
 * calls renderable has a layout, and clear words match values worked out
 * by hand from the tile-buffer layouts (or the memory bytes, for raw
 * formats).
 */

#include <string.h>

#include "pipe/p_state.h"
#include "pan_format_table.h"
#include "pan_rt_format.h"
#include "pan_v5_pack.h"
#include "util/pan_test_util.h"

/* The table's encoding is the v5 one. */
#define SWZ(a, b, c, d)                                                     \
   (PAN_V5_CHANNEL_##a | PAN_V5_CHANNEL_##b << 3 | PAN_V5_CHANNEL_##c << 6 | \
    PAN_V5_CHANNEL_##d << 9)

static void
check_clear(enum pipe_format format, float r, float g, float b, float a,
            const uint32_t want[4], const char *what)
{
   struct pan_rt_format f;
   union pipe_color_union c = {.f = {r, g, b, a}};
   uint32_t got[4];

   PAN_CHECK(pan_rt_format_lookup(format, &f), "%s: no layout", what);
   pan_rt_pack_clear(format, &f, &c, got);
   PAN_CHECK(!memcmp(got, want, sizeof(got)),
             "%s: got %08x %08x %08x %08x, want %08x %08x %08x %08x", what,
             got[0], got[1], got[2], got[3], want[0], want[1], want[2],
             want[3]);
}

#define SPLAT(v) ((const uint32_t[4]){(v), (v), (v), (v)})

int
main(void)
{
   /* Every renderable colour format has a layout whose sizes agree, and
    * nothing else has one.
    */
   for (unsigned fmt = 1; fmt < PIPE_FORMAT_COUNT; ++fmt) {
      const struct pan_format_info *s = pan_format_info(fmt);
      struct pan_rt_format f;

      if (!s || !(s->uses & PAN_USE_RENDER)) {
         PAN_CHECK(!pan_rt_format_lookup(fmt, &f),
                   "format %u: a layout without the render use", fmt);
         continue;
      }
      PAN_CHECK(pan_rt_format_lookup(fmt, &f), "format %u: no layout", fmt);
      PAN_CHECK(f.raw == !(s->uses & PAN_USE_BLEND),
                "format %u: raw but blendable, or the reverse", fmt);
      PAN_CHECK(f.raw || (f.tib == s->tib && f.writeback == s->writeback &&
                          f.swizzle == s->swizzle),
                "format %u: layout is not the table's", fmt);
      PAN_CHECK(f.tib_B >= f.mem_B || !f.raw, "format %u: tib too small",
                fmt);
      PAN_CHECK(f.tib_B && !(f.tib_B & (f.tib_B - 1)),
                "format %u: tib bytes %u not a power of two", fmt, f.tib_B);
   }
   struct pan_rt_format f;
   PAN_CHECK(!pan_rt_format_lookup(PIPE_FORMAT_Z24_UNORM_S8_UINT, &f),
             "depth format has a colour layout");
   PAN_CHECK(!pan_rt_format_lookup(PIPE_FORMAT_ETC1_RGB8, &f),
             "compressed format has a colour layout");
   PAN_CHECK(!pan_rt_format_lookup(PIPE_FORMAT_R32G32B32_FLOAT, &f),
             "RGB32F (not renderable) has a colour layout");

   /* R8G8B8A8 tile buffer: 0.2, 0.4, 0.6, 1.0 -> 0x33, 0x66, 0x99, 0xff
    * from bit 0 up, whatever the memory order (the swizzle does that).
    */
   check_clear(PIPE_FORMAT_R8G8B8A8_UNORM, 0.2f, 0.4f, 0.6f, 1.0f,
               SPLAT(0xff996633), "rgba8");
   check_clear(PIPE_FORMAT_B8G8R8A8_UNORM, 0.2f, 0.4f, 0.6f, 1.0f,
               SPLAT(0xff996633), "bgra8");
   /* Formats without alpha clear alpha to one; out-of-range saturates. */
   check_clear(PIPE_FORMAT_R8G8B8X8_UNORM, -1.0f, 2.0f, 0.0f, 0.0f,
               SPLAT(0xff00ff00), "rgbx8");
   /* sRGB: linear 0.5 encodes to 0.7354 -> 188 (0xbc). */
   check_clear(PIPE_FORMAT_R8G8B8A8_SRGB, 0.5f, 0.0f, 1.0f, 0.5f,
               SPLAT(0x80ff00bc), "srgba8");
   /* R5G6B5A0: R 5.5 bits from 0, G 6.4 from 10, B 5.5 from 20, A 0.2
    * from 30; fractions zero.  1.0, 0.5, 0.0: R 31 << 5, G 32 << 4.
    */
   check_clear(PIPE_FORMAT_B5G6R5_UNORM, 1.0f, 0.5f, 0.0f, 0.0f,
               SPLAT((31u << 5) | ((32u << 4) << 10)), "rgb565");
   /* R4G4B4A4: 4.4 each; 1, 0, 1/3 -> 15, 0, 5; alpha 1 -> 15. */
   check_clear(PIPE_FORMAT_B4G4R4A4_UNORM, 1.0f, 0.0f, 1.0f / 3.0f, 1.0f,
               SPLAT((15u << 4) | (5u << 20) | (15u << 28)), "rgba4");
   /* R5G5B5A1: 5.5, 5.5, 5.5, 1.1; A is 1 at bit 30 + 1 fraction bit. */
   check_clear(PIPE_FORMAT_B5G5R5A1_UNORM, 0.0f, 1.0f, 0.0f, 1.0f,
               SPLAT((31u << 15) | (1u << 31)), "rgb5a1");
   /* R10G10B10A2: 1023 * 0.5 rounds to 512 (ties to even gives 512). */
   check_clear(PIPE_FORMAT_R10G10B10A2_UNORM, 0.5f, 0.0f, 1.0f, 1.0f,
               SPLAT(512u | (1023u << 20) | (3u << 30)), "rgb10a2");

   /* Raw formats: the memory bytes of one pixel. */
   float one = 1.0f, half = 0.5f;
   uint32_t one_bits, half_bits;
   memcpy(&one_bits, &one, 4);
   memcpy(&half_bits, &half, 4);
   check_clear(PIPE_FORMAT_R32_FLOAT, 1.0f, 0.5f, 0.0f, 0.0f,
               (const uint32_t[4]){one_bits, 0, 0, 0}, "r32f");
   check_clear(PIPE_FORMAT_R32G32B32A32_FLOAT, 1.0f, 0.5f, 0.0f, 1.0f,
               (const uint32_t[4]){one_bits, half_bits, 0, one_bits},
               "rgba32f");
   /* Half floats: 1.0 = 0x3c00, 0.5 = 0x3800. */
   check_clear(PIPE_FORMAT_R16G16B16A16_FLOAT, 1.0f, 0.5f, 0.0f, 1.0f,
               (const uint32_t[4]){0x38003c00, 0x3c000000, 0, 0}, "rgba16f");

   /* Integer formats read the colour as integers. */
   union pipe_color_union ui = {.ui = {1, 2, 300, 4}};
   uint32_t got[4];
   PAN_CHECK(pan_rt_format_lookup(PIPE_FORMAT_R8G8B8A8_UINT, &f) && f.raw,
             "rgba8ui is not raw");
   pan_rt_pack_clear(PIPE_FORMAT_R8G8B8A8_UINT, &f, &ui, got);
   PAN_CHECK(got[0] == 0x04ff0201 && !got[1],
             "rgba8ui: got %08x (values clamp to 255)", got[0]);

   /* Layout facts the emitters rely on. */
   PAN_CHECK(pan_rt_format_lookup(PIPE_FORMAT_R16G16B16A16_FLOAT, &f) &&
                f.tib == PAN_V5_COLOR_BUFFER_INTERNAL_FORMAT_RAW64 &&
                f.writeback == PAN_V5_COLOR_FORMAT_RAW64 && f.tib_B == 8 &&
                f.swizzle == SWZ(R, G, B, A),
             "rgba16f layout");
   PAN_CHECK(pan_rt_format_lookup(PIPE_FORMAT_B8G8R8A8_UNORM, &f) &&
                f.swizzle == SWZ(B, G, R, A) &&
                f.tib == PAN_V5_COLOR_BUFFER_INTERNAL_FORMAT_R8G8B8A8 &&
                f.writeback == PAN_V5_COLOR_FORMAT_R8G8B8A8 && f.mem_B == 4,
             "bgra8 layout");
   PAN_CHECK(pan_rt_format_lookup(PIPE_FORMAT_B5G6R5_UNORM, &f) &&
                f.swizzle == SWZ(B, G, R, 1) &&
                f.tib == PAN_V5_COLOR_BUFFER_INTERNAL_FORMAT_R5G6B5A0 &&
                f.writeback == PAN_V5_COLOR_FORMAT_R5G6B5 && f.mem_B == 2,
             "rgb565 layout");
   PAN_CHECK(pan_rt_format_lookup(PIPE_FORMAT_R32G32B32_UINT, &f) == false,
             "RGB32UI has no row, so no layout");
   PAN_CHECK(pan_rt_format_lookup(PIPE_FORMAT_R11G11B10_FLOAT, &f) && f.raw &&
                f.mem_B == 4 && f.tib_B == 4 &&
                f.writeback == PAN_V5_COLOR_FORMAT_RAW32,
             "r11g11b10f is raw 32-bit");

   return pan_test_summary("pan_rt_format");
}
