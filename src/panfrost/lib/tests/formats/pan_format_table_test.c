/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Checks the format support table against Mesa's format descriptions: a
 * wrong row here means the GL frontend is told a lie. */

#include <stdio.h>

#include "util/format/u_format.h"
#include "util/pan_test_util.h"

#include "pan_format_table.h"

/* Every check names the format it is about. */
#define CHECK(cond, fmt, ...) PAN_CHECK(cond, "%s: " fmt, name, ##__VA_ARGS__)

static void
check_entry(const struct pan_format_support *f)
{
   const struct util_format_description *desc =
      util_format_description(f->format);
   const char *name = util_format_short_name(f->format);

   CHECK(desc != NULL, "no description");
   if (!desc)
      return;

   CHECK(pan_format_support(f->format) == f, "listed twice");
   CHECK(f->uses != 0, "no use");
   CHECK(f->min_arch >= 4 && f->min_arch <= 10, "bad min arch %u",
         f->min_arch);

   bool zs = util_format_is_depth_or_stencil(f->format);
   CHECK(!(f->uses & PAN_USE_DEPTH) || zs, "depth use on a colour format");
   CHECK(!zs || !(f->uses & (PAN_USE_RENDER | PAN_USE_VERTEX)),
         "depth format used as colour or vertex data");

   /* Compressed formats are neither rendered to nor fetched per vertex. */
   bool compressed = util_format_is_compressed(f->format);
   CHECK(!compressed || !(f->uses & (PAN_USE_RENDER | PAN_USE_VERTEX)),
         "compressed format rendered or fetched");

   /* Pure integer colour exists from Midgard v5 on in this driver (stencil
    * is an integer too, and is there from v4). */
   if (util_format_is_pure_integer(f->format) && !zs)
      CHECK(f->min_arch >= 5, "integer format before v5");

   /* Architecture gating is monotonic: available from min_arch onwards. */
   for (unsigned arch = 4; arch <= 10; ++arch) {
      bool has = pan_format_supports(arch, f->format, f->uses);
      CHECK(has == (arch >= f->min_arch), "arch %u gating wrong", arch);
   }

   /* Asking for a use the row lacks must fail. */
   for (unsigned use = 1; use <= PAN_USE_VERTEX; use <<= 1) {
      if (!(f->uses & use))
         CHECK(!pan_format_supports(10, f->format, use),
               "use %u granted without being listed", use);
   }
}

int
main(void)
{
   unsigned rows = 0;

   for (unsigned i = 0; i < PIPE_FORMAT_COUNT; ++i) {
      const struct pan_format_support *f = pan_format_support(i);
      if (f) {
         check_entry(f);
         rows++;
      }
   }

   /* The formats every GLES 2 application needs. */
   const char *name = "essentials";
   CHECK(pan_format_supports(4, PIPE_FORMAT_R8G8B8A8_UNORM,
                             PAN_USE_TEXTURE | PAN_USE_RENDER),
         "RGBA8");
   CHECK(pan_format_supports(4, PIPE_FORMAT_B5G6R5_UNORM, PAN_USE_RENDER),
         "RGB565");
   CHECK(pan_format_supports(4, PIPE_FORMAT_Z24_UNORM_S8_UINT, PAN_USE_DEPTH),
         "Z24S8");
   CHECK(pan_format_supports(4, PIPE_FORMAT_R32G32B32A32_FLOAT,
                             PAN_USE_VERTEX),
         "vec4 attributes");
   CHECK(!pan_format_supports(4, PIPE_FORMAT_NONE, PAN_USE_TEXTURE), "NONE");

   printf("%u rows checked\n", rows);
   return pan_test_summary("pan_format_table");
}
