/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Checks the format table against Mesa's format descriptions (a wrong row
 * means the GL frontend is told a lie) and every hardware value in it
 * against the genxml enums of every architecture (a wrong value means a
 * descriptor the GPU reads differently).
 */

#include <stdio.h>
#include <string.h>

#include "util/format/u_format.h"
#include "util/pan_test_util.h"

#include "pan_format_table.h"

/* The table's encoding is spelled with v5 names, which are always built;
 * meson says which other architectures are (PAN_TEST_HAVE_Vn).
 */
#include "pan_v5_pack.h"
#ifdef PAN_TEST_HAVE_V4
#include "pan_v4_pack.h"
#endif
#ifdef PAN_TEST_HAVE_V6
#include "pan_v6_pack.h"
#endif
#ifdef PAN_TEST_HAVE_V7
#include "pan_v7_pack.h"
#endif
#ifdef PAN_TEST_HAVE_V9
#include "pan_v9_pack.h"
#endif

/* Every check names the format it is about. */
#define CHECK(cond, fmt, ...) PAN_CHECK(cond, "%s: " fmt, name, ##__VA_ARGS__)

/* The generated enum names of one architecture. */
struct arch_enums {
   unsigned arch;
   const char *(*tib)(unsigned v);
   const char *(*wb)(unsigned v);
   const char *(*channel)(unsigned v);
};

#define ARCH_ENUMS(N)                                                          \
   static const char *tib_v##N(unsigned v)                                     \
   {                                                                           \
      return pan_v##N##_color_buffer_internal_format_name(v);                  \
   }                                                                           \
   static const char *wb_v##N(unsigned v)                                      \
   {                                                                           \
      return pan_v##N##_color_format_name(v);                                  \
   }                                                                           \
   static const char *channel_v##N(unsigned v)                                 \
   {                                                                           \
      return pan_v##N##_channel_name(v);                                       \
   }

ARCH_ENUMS(5)
#ifdef PAN_TEST_HAVE_V4
ARCH_ENUMS(4)
#endif
#ifdef PAN_TEST_HAVE_V6
ARCH_ENUMS(6)
#endif
#ifdef PAN_TEST_HAVE_V7
ARCH_ENUMS(7)
#endif
#ifdef PAN_TEST_HAVE_V9
ARCH_ENUMS(9)
#endif

static const struct arch_enums archs[] = {
#ifdef PAN_TEST_HAVE_V4
   { 4, tib_v4, wb_v4, channel_v4 },
#endif
   { 5, tib_v5, wb_v5, channel_v5 },
#ifdef PAN_TEST_HAVE_V6
   { 6, tib_v6, wb_v6, channel_v6 },
#endif
#ifdef PAN_TEST_HAVE_V7
   { 7, tib_v7, wb_v7, channel_v7 },
#endif
#ifdef PAN_TEST_HAVE_V9
   { 9, tib_v9, wb_v9, channel_v9 },
#endif
};

static bool
same_name(const char *a, const char *b)
{
   return a && b && !strcmp(a, b);
}

/* The blendable encodings mean the same on every architecture: the
 * table's value names the same thing in each generated enum.
 */
static void
check_hw_values(const struct pan_format_info *f, const char *name)
{
   if (!(f->uses & PAN_USE_BLEND)) {
      CHECK(!f->tib && !f->writeback && !f->swizzle,
            "hardware layout on a raw or non-colour format");
      return;
   }

   const char *tib = tib_v5(f->tib), *wb = wb_v5(f->writeback);
   CHECK(tib && strcmp(tib, "raw_value") && strncmp(tib, "raw", 3),
         "tile-buffer format %u is not a blendable layout", f->tib);
   CHECK(wb && strncmp(wb, "raw", 3), "write-back format %u is raw",
         f->writeback);

   for (unsigned a = 0; a < ARRAY_SIZE(archs); ++a) {
      CHECK(same_name(archs[a].tib(f->tib), tib),
            "v%u names tile-buffer format %u %s, not %s", archs[a].arch, f->tib,
            archs[a].tib(f->tib), tib);
      CHECK(same_name(archs[a].wb(f->writeback), wb),
            "v%u names write-back format %u %s, not %s", archs[a].arch,
            f->writeback, archs[a].wb(f->writeback), wb);
      for (unsigned c = 0; c < 4; ++c) {
         unsigned ch = (f->swizzle >> (3 * c)) & 7;
         CHECK(archs[a].channel(ch) != NULL, "v%u has no swizzle channel %u",
               archs[a].arch, ch);
      }
   }

   /* The swizzle reads every channel the format stores and the write-back
    * format's size is the format's.
    */
   const struct util_format_description *desc =
      util_format_description(f->format);
   static const struct {
      const char *wb;
      unsigned bits;
   } wb_bits[] = {
      { "r8", 8 },        { "r8g8", 16 },   { "r8g8b8a8", 32 },
      { "r4g4b4a4", 16 }, { "r5g6b5", 16 }, { "r10g10b10a2", 32 },
      { "r5g5b5a1", 16 },
   };
   bool found = false;
   for (unsigned i = 0; i < ARRAY_SIZE(wb_bits); ++i) {
      if (!strcmp(wb_bits[i].wb, wb)) {
         found = true;
         CHECK(wb_bits[i].bits == desc->block.bits,
               "write-back %s is %u bits, the format %u", wb, wb_bits[i].bits,
               desc->block.bits);
      }
   }
   CHECK(found, "write-back %s not expected for a blendable format", wb);
}

/* The depth/stencil layout agrees with the format's channels. */
static void
check_zs(const struct pan_format_info *f, const char *name)
{
   const struct util_format_description *desc =
      util_format_description(f->format);
   bool is_zs = util_format_is_depth_or_stencil(f->format);

   CHECK((f->zs != PAN_ZS_NONE) == !!(f->uses & PAN_USE_DEPTH),
         "depth/stencil layout without depth use or the reverse");
   CHECK(!(f->uses & PAN_USE_DEPTH) || is_zs, "depth use on a colour format");
   if (f->zs == PAN_ZS_NONE)
      return;

   const struct pan_zs_layout_info *l = pan_zs_layout_info(f->zs);
   CHECK(l != NULL, "layout %u has no description", f->zs);
   if (!l)
      return;
   CHECK(l->bytes * 8 == desc->block.bits, "layout of %u bytes for %u bits",
         l->bytes, desc->block.bits);
   CHECK(pan_zs_layout_has_depth(f->zs) == util_format_has_depth(desc),
         "depth aspect disagrees");
   CHECK(pan_zs_layout_has_stencil(f->zs) == util_format_has_stencil(desc),
         "stencil aspect disagrees");
}

static void
check_entry(const struct pan_format_info *f)
{
   const struct util_format_description *desc =
      util_format_description(f->format);
   const char *name = util_format_short_name(f->format);

   CHECK(desc != NULL, "no description");
   if (!desc)
      return;

   CHECK(f->uses != 0 && !(f->uses & ~PAN_USE_ALL), "uses 0x%x", f->uses);
   CHECK(f->min_arch >= 4 && f->min_arch <= 10, "bad min arch %u", f->min_arch);

   bool zs = util_format_is_depth_or_stencil(f->format);
   CHECK(!zs || !(f->uses & (PAN_USE_RENDER | PAN_USE_VERTEX)),
         "depth format used as colour or vertex data");
   CHECK(!(f->uses & PAN_USE_BLEND) || (f->uses & PAN_USE_RENDER),
         "blendable but not renderable");

   /* Compressed formats are neither rendered to nor fetched per vertex. */
   bool compressed = util_format_is_compressed(f->format);
   CHECK(!compressed || !(f->uses & (PAN_USE_RENDER | PAN_USE_VERTEX)),
         "compressed format rendered or fetched");

   /* Pure integer colour exists from Midgard v5 on in this driver (stencil
    * is an integer too, and is there from v4). */
   if (util_format_is_pure_integer(f->format) && !zs)
      CHECK(f->min_arch >= 5, "integer format before v5");

   /* Fixed-function blending is for normalised data only. */
   if (f->uses & PAN_USE_BLEND)
      CHECK(!util_format_is_pure_integer(f->format) &&
               !util_format_is_float(f->format),
            "integer or float format blendable in the tile buffer");

   check_hw_values(f, name);
   check_zs(f, name);

   /* Gating: a use is there from min_arch on; depth/stencil also needs
    * the layout on that architecture.
    */
   for (unsigned arch = 4; arch <= 10; ++arch) {
      for (unsigned use = 1; use <= PAN_USE_VERTEX; use <<= 1) {
         bool want = (f->uses & use) && arch >= f->min_arch;
         if (use == PAN_USE_DEPTH)
            want = want && pan_zs_layout_supported(arch, f->zs);
         CHECK(pan_format_supports(arch, f->format, use) == want,
               "arch %u use 0x%x gating wrong", arch, use);
      }
   }
}

int
main(void)
{
   unsigned rows = 0;

   for (unsigned i = 0; i < PIPE_FORMAT_COUNT; ++i) {
      const struct pan_format_info *f = pan_format_info(i);
      if (f) {
         PAN_CHECK(f->format == i, "row %u holds format %u", i, f->format);
         check_entry(f);
         rows++;
      }
   }
   PAN_CHECK(rows > 50, "only %u rows", rows);
   PAN_CHECK(!pan_format_info(PIPE_FORMAT_COUNT) &&
                !pan_format_info((enum pipe_format) - 1),
             "out-of-range format has a row");
   PAN_CHECK(!pan_zs_layout_info(PAN_ZS_NONE) &&
                !pan_zs_layout_info(PAN_ZS_LAYOUT_COUNT),
             "PAN_ZS_NONE / out of range has a layout");
   for (unsigned l = PAN_ZS_NONE + 1; l < PAN_ZS_LAYOUT_COUNT; ++l) {
      const struct pan_zs_layout_info *i = pan_zs_layout_info(l);
      PAN_CHECK(i && i->bytes && i->kind != PAN_ZS_KIND_NONE &&
                   i->min_arch >= 4 && i->max_arch >= i->min_arch,
                "layout %u description", l);
   }

   /* The formats every GLES 2 application needs. */
   const char *name = "essentials";
   CHECK(pan_format_supports(4, PIPE_FORMAT_R8G8B8A8_UNORM,
                             PAN_USE_TEXTURE | PAN_USE_RENDER | PAN_USE_BLEND),
         "RGBA8");
   CHECK(pan_format_supports(4, PIPE_FORMAT_B5G6R5_UNORM,
                             PAN_USE_RENDER | PAN_USE_BLEND),
         "RGB565");
   CHECK(pan_format_supports(4, PIPE_FORMAT_Z24_UNORM_S8_UINT, PAN_USE_DEPTH),
         "Z24S8");
   CHECK(pan_format_supports(4, PIPE_FORMAT_R32G32B32A32_FLOAT, PAN_USE_VERTEX),
         "vec4 attributes");
   CHECK(!pan_format_supports(4, PIPE_FORMAT_NONE, PAN_USE_TEXTURE), "NONE");

   /* Separate stencil everywhere; interleaved float depth + stencil only
    * where the depth/stencil format list has it (not Valhall).
    */
   for (unsigned arch = 4; arch <= 9; ++arch) {
      CHECK(pan_format_supports(arch, PIPE_FORMAT_S8_UINT, PAN_USE_DEPTH),
            "S8 on v%u", arch);
      CHECK(pan_format_supports(arch, PIPE_FORMAT_Z32_FLOAT_S8X24_UINT,
                                PAN_USE_DEPTH) == (arch >= 5 && arch <= 7),
            "Z32F_S8X24 on v%u", arch);
   }
   CHECK(
      pan_format_supports(9, PIPE_FORMAT_Z32_FLOAT_S8X24_UINT, PAN_USE_TEXTURE),
      "Z32F_S8X24 sampling on v9 follows the row, not the layout");
   CHECK(!pan_format_supports(9, PIPE_FORMAT_R16G16B16A16_FLOAT, PAN_USE_BLEND),
         "RGBA16F is raw in the tile buffer");

   printf("%u rows checked\n", rows);
   return pan_test_summary("pan_format_table");
}
