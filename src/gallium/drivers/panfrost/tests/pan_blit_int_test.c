/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Integer blits (glBlitFramebuffer between integer colour buffers) on the
 * simulated GPU: util_blitter draws them with a texel-fetching integer
 * shader into an integer render target.  Each case blits an 8x8 source
 * 2x up into a 16x16 destination (a scaled blit cannot be a copy), then
 * into another integer format of the same signedness, and checks every
 * destination texel against the source texel it magnifies, exactly.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipe/p_context.h"
#include "pipe/p_defines.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"
#include "util/format/u_format.h"
#include "util/u_inlines.h"

#include "pan_test_screen.h"

static struct pipe_screen *screen;

#define RT_BIND (PIPE_BIND_SAMPLER_VIEW | PIPE_BIND_RENDER_TARGET)
static struct pipe_context *ctx;

/* Source texel (x, y) component c: distinct per texel and component,
 * negative for signed formats, within every format's range.
 */
static int32_t
value(unsigned x, unsigned y, unsigned c, bool is_signed)
{
   int32_t v = (int32_t)(y * 8 + x) + 16 * (int32_t)c;
   return is_signed && ((x + y + c) & 1) ? -v - 1 : v;
}

static void
fill(struct pipe_resource *tex, enum pipe_format format)
{
   bool is_signed = util_format_is_pure_sint(format);
   unsigned comps = util_format_get_nr_components(format);
   unsigned bpp = util_format_get_blocksize(format);
   uint8_t data[8 * 8 * 16];

   for (unsigned y = 0; y < 8; ++y) {
      for (unsigned x = 0; x < 8; ++x) {
         int32_t v[4] = { 0 };
         for (unsigned c = 0; c < comps; ++c)
            v[c] = value(x, y, c, is_signed);
         util_format_pack_rgba(format, data + (y * 8 + x) * bpp, v, 1);
      }
   }
   struct pipe_box box;
   u_box_2d(0, 0, 8, 8, &box);
   ctx->texture_subdata(ctx, tex, 0, 0, &box, data, 8 * bpp, 0);
}

/* Every texel of the 16x16 dst against the source texel it magnifies. */
static void
check(struct pipe_resource *dst, enum pipe_format src_format, const char *what)
{
   enum pipe_format format = dst->format;
   bool is_signed = util_format_is_pure_sint(src_format);
   unsigned comps = MIN2(util_format_get_nr_components(format),
                         util_format_get_nr_components(src_format));
   unsigned bpp = util_format_get_blocksize(format);
   struct pipe_transfer *xfer;
   const uint8_t *map =
      pipe_texture_map(ctx, dst, 0, 0, PIPE_MAP_READ, 0, 0, 16, 16, &xfer);
   CHECK(map, "%s: map failed", what);
   if (!map)
      return;
   unsigned bad = 0;
   for (unsigned y = 0; y < 16; ++y) {
      for (unsigned x = 0; x < 16; ++x) {
         int32_t got[4] = { 0 };
         util_format_unpack_rgba(format, got, map + y * xfer->stride + x * bpp,
                                 1);
         for (unsigned c = 0; c < comps; ++c) {
            int32_t want = value(x / 2, y / 2, c, is_signed);
            if (got[c] != want && bad++ == 0)
               printf("%s: (%u, %u) component %u is %d, want %d\n", what, x, y,
                      c, got[c], want);
         }
      }
   }
   pipe_texture_unmap(ctx, xfer);
   CHECK(bad == 0, "%s: %u wrong components", what, bad);
}

static void
blit(struct pipe_resource *dst, struct pipe_resource *src)
{
   struct pipe_blit_info info = {
      .dst = { .resource = dst, .format = dst->format },
      .src = { .resource = src, .format = src->format },
      .mask = PIPE_MASK_RGBA,
      .filter = PIPE_TEX_FILTER_NEAREST,
   };
   u_box_2d(0, 0, 16, 16, &info.dst.box);
   u_box_2d(0, 0, 8, 8, &info.src.box);
   pan_test_debug_msg[0] = 0;
   ctx->blit(ctx, &info);
   CHECK(!strstr(pan_test_debug_msg, "unsupported"), "%s -> %s refused: %s",
         util_format_short_name(src->format),
         util_format_short_name(dst->format), pan_test_debug_msg);
}

/* src scaled into a fresh texture of its format, then of other. */
static void
test_formats(enum pipe_format format, enum pipe_format other)
{
   char what[96];
   struct pipe_resource *src = pan_test_texture(screen, format, 8, 0, RT_BIND);
   struct pipe_resource *dst = pan_test_texture(screen, format, 16, 0, RT_BIND);
   struct pipe_resource *dst2 = pan_test_texture(screen, other, 16, 0, RT_BIND);
   CHECK(src && dst && dst2, "%s: resource_create failed",
         util_format_short_name(format));
   if (src && dst && dst2) {
      fill(src, format);
      blit(dst, src);
      snprintf(what, sizeof(what), "%s scaled", util_format_short_name(format));
      check(dst, format, what);
      blit(dst2, src);
      snprintf(what, sizeof(what), "%s -> %s scaled",
               util_format_short_name(format), util_format_short_name(other));
      check(dst2, format, what);
   }
   pipe_resource_reference(&src, NULL);
   pipe_resource_reference(&dst, NULL);
   pipe_resource_reference(&dst2, NULL);
}

int
main(int argc, char **argv)
{
   if (!pan_test_open(&screen, &ctx))
      return 1;
   test_formats(PIPE_FORMAT_R8G8B8A8_UINT, PIPE_FORMAT_R32G32B32A32_UINT);
   test_formats(PIPE_FORMAT_R8G8B8A8_SINT, PIPE_FORMAT_R16G16B16A16_SINT);
   test_formats(PIPE_FORMAT_R32G32B32A32_SINT, PIPE_FORMAT_R8G8B8A8_SINT);
   test_formats(PIPE_FORMAT_R16G16_UINT, PIPE_FORMAT_R32G32_UINT);
   test_formats(PIPE_FORMAT_R32_SINT, PIPE_FORMAT_R16_SINT);
   return pan_test_close(screen, ctx);
}
