/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * AFBC render targets on the simulated GPU (gallium-afbc-*): which
 * templates are compressed, that a pass really writes AFBC headers into
 * such a target, that a second pass samples it, and that the CPU reads
 * and writes it after the conversion a map or an upload makes (pixel-
 * checked), on the G57, G52 and G72 alike.
 */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drm-uapi/drm_fourcc.h"
#include "frontend/winsys_handle.h"
#include "pipe/p_context.h"
#include "pipe/p_defines.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"
#include "util/format/u_format.h"
#include "util/u_inlines.h"
#include "util/u_surface.h"

#include "pan_context.h"
#include "pan_resource.h"
#include "pan_screen.h"
#include "pan_texture.h"
#include "pan_test_screen.h"

#define FMT PIPE_FORMAT_R8G8B8A8_UNORM
#define RT_BIND (PIPE_BIND_SAMPLER_VIEW | PIPE_BIND_RENDER_TARGET)
#define ZS_BIND (PIPE_BIND_SAMPLER_VIEW | PIPE_BIND_DEPTH_STENCIL)

static struct pipe_screen *screen;
static struct pipe_context *ctx;
static bool afbc; /* whether this GPU compresses render targets */

static const uint8_t quadrant_rgba[4][4] = {
   { 255, 0, 0, 255 },
   { 0, 255, 0, 255 },
   { 0, 0, 255, 255 },
   { 255, 255, 255, 128 },
};

static const uint8_t *
quadrant(unsigned x, unsigned y, unsigned size)
{
   return quadrant_rgba[(y >= size / 2) * 2 + (x >= size / 2)];
}

static struct pipe_resource *
make(enum pipe_texture_target target, enum pipe_format format, unsigned size,
     unsigned layers, unsigned last_level, unsigned bind, unsigned samples)
{
   struct pipe_resource templ = {
      .target = target,
      .format = format,
      .width0 = size,
      .height0 = size,
      .depth0 = target == PIPE_TEXTURE_3D ? layers : 1,
      .array_size = target == PIPE_TEXTURE_3D ? 1 : layers,
      .last_level = last_level,
      .bind = bind,
      .nr_samples = samples,
   };
   return screen->resource_create(screen, &templ);
}

static uint64_t
modifier(struct pipe_resource *r)
{
   return r ? panfrost_resource(r)->modifier : DRM_FORMAT_MOD_INVALID;
}

/* Which templates are compressed, and what export and the query say. */
static void
test_choice(void)
{
   const uint64_t tiled = DRM_FORMAT_MOD_ARM_16X16_BLOCK_U_INTERLEAVED;
   const uint64_t rt = afbc ? PANFROST_MOD_AFBC : tiled;
   struct {
      enum pipe_texture_target target;
      enum pipe_format format;
      unsigned layers, bind, samples;
      uint64_t want;
   } cases[] = {
      { PIPE_TEXTURE_2D, FMT, 1, RT_BIND, 0, rt },
      { PIPE_TEXTURE_2D, PIPE_FORMAT_R8G8B8A8_SRGB, 1, RT_BIND, 0, rt },
      { PIPE_TEXTURE_2D, PIPE_FORMAT_B5G6R5_UNORM, 1, RT_BIND, 0, rt },
      { PIPE_TEXTURE_2D, PIPE_FORMAT_R8_UNORM, 1, RT_BIND, 0, rt },
      { PIPE_TEXTURE_2D_ARRAY, FMT, 3, RT_BIND, 0, rt },
      { PIPE_TEXTURE_CUBE, FMT, 6, RT_BIND, 0, rt },
      /* Sampled only, storage images, float, 3D: u-interleaved. */
      { PIPE_TEXTURE_2D, FMT, 1, PIPE_BIND_SAMPLER_VIEW, 0, tiled },
      { PIPE_TEXTURE_2D, FMT, 1, RT_BIND | PIPE_BIND_SHADER_IMAGE, 0, tiled },
      { PIPE_TEXTURE_2D, PIPE_FORMAT_R16G16B16A16_FLOAT, 1, RT_BIND, 0, tiled },
      { PIPE_TEXTURE_3D, FMT, 4, RT_BIND, 0, tiled },
      /* Depth/stencil buffers of the packed formats too, not Z32F. */
      { PIPE_TEXTURE_2D, PIPE_FORMAT_Z24_UNORM_S8_UINT, 1, ZS_BIND, 0, rt },
      { PIPE_TEXTURE_2D, PIPE_FORMAT_Z16_UNORM, 1, ZS_BIND, 0, rt },
      { PIPE_TEXTURE_2D, PIPE_FORMAT_Z32_FLOAT, 1, ZS_BIND, 0, tiled },
      /* Shared and multisampled: linear. */
      { PIPE_TEXTURE_2D, FMT, 1, RT_BIND | PIPE_BIND_SHARED, 0,
        DRM_FORMAT_MOD_LINEAR },
      { PIPE_TEXTURE_2D, FMT, 1, RT_BIND, 4, DRM_FORMAT_MOD_LINEAR },
   };
   for (unsigned i = 0; i < ARRAY_SIZE(cases); ++i) {
      struct pipe_resource *r =
         make(cases[i].target, cases[i].format, 32, cases[i].layers, 0,
              cases[i].bind, cases[i].samples);
      CHECK(r && modifier(r) == cases[i].want,
            "choice %u (%s): modifier 0x%llx, want 0x%llx", i,
            util_format_short_name(cases[i].format),
            (unsigned long long)modifier(r), (unsigned long long)cases[i].want);
      pipe_resource_reference(&r, NULL);
   }

   uint64_t mods[4];
   int count = 0;
   screen->query_dmabuf_modifiers(screen, FMT, 4, mods, NULL, &count);
   CHECK(count == (afbc ? 3 : 2) && mods[0] == rt,
         "RGBA8 modifiers: %d, first 0x%llx", count,
         (unsigned long long)mods[0]);

   bool external = true;
   CHECK(screen->is_dmabuf_modifier_supported(screen, PANFROST_MOD_AFBC, FMT,
                                              &external) == afbc &&
            !external,
         "AFBC modifier support of RGBA8");
   CHECK(!screen->is_dmabuf_modifier_supported(
            screen, PANFROST_MOD_AFBC, PIPE_FORMAT_R16G16B16A16_FLOAT, NULL),
         "AFBC modifier supported for RGBA16F");
   CHECK(screen->get_dmabuf_modifier_planes(screen, PANFROST_MOD_AFBC, FMT) ==
            1,
         "AFBC planes of RGBA8");

   /* Asked for by modifier: given when the GPU compresses, else refused;
    * the export names it.
    */
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = FMT,
      .width0 = 40,
      .height0 = 24,
      .depth0 = 1,
      .array_size = 1,
      .bind = RT_BIND,
   };
   const uint64_t want = PANFROST_MOD_AFBC;
   struct pipe_resource *r =
      screen->resource_create_with_modifiers(screen, &templ, &want, 1);
   CHECK(afbc ? r && modifier(r) == want : !r,
         "create with the AFBC modifier: %p", (void *)r);
   if (r) {
      struct winsys_handle wh = { .type = WINSYS_HANDLE_TYPE_KMS };
      bool ok = screen->resource_get_handle(screen, ctx, r, &wh, 0);
      /* Three superblocks a row of 16-byte headers. */
      CHECK(ok && wh.modifier == want && wh.stride == 3 * 16,
            "AFBC export: modifier 0x%llx, stride %u",
            (unsigned long long)wh.modifier, wh.stride);
   }
   pipe_resource_reference(&r, NULL);

   /* Shared with another process, it keeps its layout: a map is refused,
    * not converted.
    */
   templ.bind |= PIPE_BIND_SHARED;
   r = screen->resource_create_with_modifiers(screen, &templ, &want, 1);
   CHECK(afbc ? r && modifier(r) == want : !r, "shared AFBC: %p", (void *)r);
   if (r) {
      struct pipe_transfer *xfer = NULL;
      void *map =
         pipe_texture_map(ctx, r, 0, 0, PIPE_MAP_READ, 0, 0, 40, 24, &xfer);
      CHECK(!map && modifier(r) == want, "a shared AFBC image was mapped");
      if (map)
         pipe_texture_unmap(ctx, xfer);
   }
   pipe_resource_reference(&r, NULL);
}

/* A texture the CPU fills (u-interleaved): the four quadrants. */
static struct pipe_resource *
quadrant_texture(unsigned size)
{
   struct pipe_resource *tex =
      make(PIPE_TEXTURE_2D, FMT, size, 1, 0, PIPE_BIND_SAMPLER_VIEW, 0);
   if (!tex)
      return NULL;
   uint8_t *data = malloc(size * size * 4);
   for (unsigned y = 0; y < size; ++y)
      for (unsigned x = 0; x < size; ++x)
         memcpy(data + (y * size + x) * 4, quadrant(x, y, size), 4);
   struct pipe_box box;
   u_box_2d(0, 0, size, size, &box);
   ctx->texture_subdata(ctx, tex, 0, 0, &box, data, size * 4, 0);
   free(data);
   return tex;
}

/* A draw sampling src (level src_level) into level dst_level of dst. */
static void
copy(struct pipe_resource *dst, unsigned dst_level, struct pipe_resource *src,
     unsigned src_level, unsigned size)
{
   struct pipe_blit_info info = {
      .dst = { .resource = dst, .level = dst_level, .format = FMT },
      .src = { .resource = src, .level = src_level, .format = FMT },
      .mask = PIPE_MASK_RGBA,
      .filter = PIPE_TEX_FILTER_NEAREST,
      /* A scissored blit is never resource_copy_region's CPU copy (which
       * would map, so convert, the AFBC source): it is drawn.
       */
      .scissor_enable = true,
      .scissor = { 0, 0, size, size },
   };
   u_box_2d(0, 0, size, size, &info.dst.box);
   u_box_2d(0, 0, size, size, &info.src.box);
   ctx->blit(ctx, &info);
}

/* Every pixel of level `level` (size x size) is the quadrant colour, or
 * solid when not NULL.
 */
static void
check_pixels(struct pipe_resource *tex, unsigned level, unsigned size,
             const uint8_t *solid, const char *what)
{
   struct pipe_transfer *xfer;
   const uint8_t *map = pipe_texture_map(ctx, tex, level, 0, PIPE_MAP_READ, 0,
                                         0, size, size, &xfer);
   CHECK(map, "%s: map failed", what);
   if (!map)
      return;
   unsigned bad = 0;
   for (unsigned y = 0; y < size; ++y) {
      for (unsigned x = 0; x < size; ++x) {
         const uint8_t *p = map + y * xfer->stride + x * 4;
         const uint8_t *want = solid ? solid : quadrant(x, y, size);
         if (memcmp(p, want, 4) && bad++ == 0)
            printf("%s: (%u, %u) is %u %u %u %u, want %u %u %u %u\n", what, x,
                   y, p[0], p[1], p[2], p[3], want[0], want[1], want[2],
                   want[3]);
      }
   }
   pipe_texture_unmap(ctx, xfer);
   CHECK(bad == 0, "%s: %u of %u pixels wrong", what, bad, size * size);
}

/* The first header of the AFBC surface at level, layer of r, read straight
 * from memory: the simulator wrote it, so the render target descriptor
 * said AFBC.  A written uncompressed superblock names its payload (bytes
 * 0-3, past the headers) and sizes of 1 for its subblocks.
 */
static void
check_afbc_written(struct pipe_resource *r, unsigned level, unsigned layer,
                   const char *what)
{
   struct panfrost_resource *rsc = panfrost_resource(r);

   CHECK(rsc->modifier == PANFROST_MOD_AFBC, "%s: not AFBC (0x%llx)", what,
         (unsigned long long)rsc->modifier);
   if (rsc->modifier != PANFROST_MOD_AFBC)
      return;
   ctx->flush(ctx, NULL, 0);
   const uint8_t *cpu = pan_bo_mmap(rsc->bo);
   const struct pan_image_level *l = &rsc->layout.levels[level];
   uint64_t hdr_off =
      pan_image_surface_offset_B(&rsc->image, &rsc->layout, level, layer, 0);
   const uint8_t *h = cpu + hdr_off;
   uint32_t payload = h[0] | h[1] << 8 | h[2] << 16 | (uint32_t)h[3] << 24;
   CHECK(payload >= l->afbc_header_size_B &&
            payload < l->afbc_header_size_B + l->afbc_body_size_B,
         "%s: first header's payload at %u, headers %u bytes", what, payload,
         (unsigned)l->afbc_header_size_B);
   /* First subblock size (bits 32-37): 1 is uncompressed, 0 solid. */
   CHECK((h[4] & 63) <= 1 && (h[4] & 63) + payload != 0,
         "%s: first header %02x %02x %02x %02x %02x", what, h[0], h[1], h[2],
         h[3], h[4]);
}

/* A pass draws into an AFBC target, a second samples it into another
 * AFBC target's level 1; maps read both back after their conversion, and
 * the targets are u-interleaved from then on.
 */
static void
test_render_sample_map(void)
{
   const unsigned size = 64;
   struct pipe_resource *src = quadrant_texture(size);
   struct pipe_resource *a = make(PIPE_TEXTURE_2D, FMT, size, 1, 0, RT_BIND, 0);
   struct pipe_resource *b =
      make(PIPE_TEXTURE_2D, FMT, size * 2, 1, 1, RT_BIND, 0);
   CHECK(src && a && b, "render: resource_create failed");
   if (!src || !a || !b)
      goto out;
   CHECK(modifier(a) == (afbc ? PANFROST_MOD_AFBC
                              : DRM_FORMAT_MOD_ARM_16X16_BLOCK_U_INTERLEAVED),
         "render target layout 0x%llx", (unsigned long long)modifier(a));

   copy(a, 0, src, 0, size);
   if (afbc)
      check_afbc_written(a, 0, 0, "first pass");
   copy(b, 1, a, 0, size);
   if (afbc) {
      check_afbc_written(b, 1, 0, "second pass");
      CHECK(modifier(a) == PANFROST_MOD_AFBC, "sampling converted it");
   }
   check_pixels(b, 1, size, NULL, "sampled AFBC, read back");

   /* A view packed for the AFBC layout is packed again after the map's
    * conversion, before a draw uses it.
    */
   struct pipe_sampler_view templ = {
      .format = FMT,
      .target = PIPE_TEXTURE_2D,
      PAN_TEST_IDENTITY_SWIZZLE,
   };
   struct pipe_sampler_view *view = ctx->create_sampler_view(ctx, a, &templ);
   struct panfrost_sampler_view *pv = panfrost_sampler_view(view);
   uint32_t before[8];
   memcpy(before, pv->desc, sizeof(before));

   check_pixels(a, 0, size, NULL, "rendered AFBC, read back");
   bool repacked = panfrost_sampler_view_refresh(panfrost_context(ctx), pv) &&
                   pv->layout_seq == panfrost_resource(a)->layout_seq;
   CHECK(repacked && (!afbc || memcmp(before, pv->desc, sizeof(before))),
         "the view was not packed again after the conversion");
   pipe_sampler_view_reference(&view, NULL);
   CHECK(modifier(a) == DRM_FORMAT_MOD_ARM_16X16_BLOCK_U_INTERLEAVED,
         "a mapped target stays AFBC (0x%llx)",
         (unsigned long long)modifier(a));
   /* Converted, it renders and samples as before. */
   copy(b, 1, a, 0, size);
   check_pixels(b, 1, size, NULL, "after the conversion");
out:
   pipe_resource_reference(&src, NULL);
   pipe_resource_reference(&a, NULL);
   pipe_resource_reference(&b, NULL);
}

/* A clear to a solid colour, then an upload of a 16x16 corner: the
 * conversion keeps the cleared pixels the upload does not touch.  A
 * layer of an array and a cube face likewise.
 */
static void
test_clear_subdata(enum pipe_texture_target target, unsigned layers,
                   const char *what)
{
   const unsigned size = 32;
   const uint8_t solid[4] = { 32, 64, 128, 255 };
   const uint8_t patch[4] = { 7, 8, 9, 10 };
   struct pipe_resource *r = make(target, FMT, size, layers, 0, RT_BIND, 0);
   CHECK(r, "%s: resource_create failed", what);
   if (!r)
      return;
   unsigned layer = layers - 1;
   struct pipe_surface templ = {
      .format = FMT,
      .u.tex = { .level = 0, .first_layer = layer, .last_layer = layer },
   };
   struct pipe_surface *surf = ctx->create_surface(ctx, r, &templ);
   union pipe_color_union color = {
      .f = { 32 / 255.0f, 64 / 255.0f, 128 / 255.0f, 1.0f },
   };
   ctx->clear_render_target(ctx, surf, &color, 0, 0, size, size, false);
   if (afbc)
      check_afbc_written(r, 0, layer, what);

   uint8_t data[16 * 16 * 4];
   for (unsigned i = 0; i < 16 * 16; ++i)
      memcpy(data + i * 4, patch, 4);
   struct pipe_box box;
   u_box_3d(0, 0, layer, 16, 16, 1, &box);
   ctx->texture_subdata(ctx, r, 0, 0, &box, data, 16 * 4, 0);

   struct pipe_transfer *xfer;
   const uint8_t *map = pipe_texture_map_3d(ctx, r, 0, PIPE_MAP_READ, 0, 0,
                                            layer, size, size, 1, &xfer);
   CHECK(map, "%s: map failed", what);
   if (map) {
      unsigned bad = 0;
      for (unsigned y = 0; y < size; ++y)
         for (unsigned x = 0; x < size; ++x)
            bad += memcmp(map + y * xfer->stride + x * 4,
                          x < 16 && y < 16 ? patch : solid, 4) != 0;
      pipe_texture_unmap(ctx, xfer);
      CHECK(bad == 0, "%s: %u pixels wrong", what, bad);
   }
   pipe_surface_reference(&surf, NULL);
   pipe_resource_reference(&r, NULL);
}

/* Each compressible format: a clear to a colour every format holds
 * exactly, the AFBC headers, and the packed pixels a map reads back.
 */
static void
test_formats(void)
{
   static const enum pipe_format formats[] = {
      PIPE_FORMAT_R8_UNORM,       PIPE_FORMAT_R8G8_UNORM,
      PIPE_FORMAT_B5G6R5_UNORM,   PIPE_FORMAT_B4G4R4A4_UNORM,
      PIPE_FORMAT_B5G5R5A1_UNORM, PIPE_FORMAT_R8G8B8A8_SRGB,
   };
   const float rgba[4] = { 1.0f, 0.0f, 1.0f, 1.0f };
   const unsigned size = 48;

   for (unsigned i = 0; i < ARRAY_SIZE(formats); ++i) {
      enum pipe_format f = formats[i];
      const char *what = util_format_short_name(f);
      if (!screen->is_format_supported(screen, f, PIPE_TEXTURE_2D, 0, 0,
                                       PIPE_BIND_RENDER_TARGET))
         continue;
      struct pipe_resource *r =
         make(PIPE_TEXTURE_2D, f, size, 1, 0, RT_BIND, 0);
      CHECK(r, "%s: resource_create failed", what);
      if (!r)
         continue;
      struct pipe_surface templ = { .format = f };
      struct pipe_surface *surf = ctx->create_surface(ctx, r, &templ);
      union pipe_color_union color;
      memcpy(color.f, rgba, sizeof(rgba));
      ctx->clear_render_target(ctx, surf, &color, 0, 0, size, size, false);
      if (afbc)
         check_afbc_written(r, 0, 0, what);

      uint8_t want[16] = { 0 };
      util_format_pack_rgba(f, want, rgba, 1);
      unsigned px_B = util_format_get_blocksize(f);
      struct pipe_transfer *xfer;
      const uint8_t *map =
         pipe_texture_map(ctx, r, 0, 0, PIPE_MAP_READ, 0, 0, size, size, &xfer);
      CHECK(map, "%s: map failed", what);
      if (map) {
         unsigned bad = 0;
         for (unsigned y = 0; y < size; ++y)
            for (unsigned x = 0; x < size; ++x)
               bad +=
                  memcmp(map + y * xfer->stride + x * px_B, want, px_B) != 0;
         pipe_texture_unmap(ctx, xfer);
         CHECK(bad == 0, "%s: %u pixels wrong", what, bad);
      }
      pipe_surface_reference(&surf, NULL);
      pipe_resource_reference(&r, NULL);
   }
}

/* Depth/stencil: a clear of an AFBC depth/stencil buffer writes its
 * headers; a depth/stencil blit draws into another AFBC one from it (its
 * shaders sample AFBC), and maps of both read the values back after the
 * conversion (itself a depth/stencil blit).
 */
static void
test_zs(enum pipe_format f)
{
   const unsigned size = 32;
   const char *what = util_format_short_name(f);
   const struct util_format_description *d = util_format_description(f);
   bool s = util_format_has_stencil(d);
   struct pipe_resource *a = make(PIPE_TEXTURE_2D, f, size, 1, 0, ZS_BIND, 0);
   struct pipe_resource *b = make(PIPE_TEXTURE_2D, f, size, 1, 0, ZS_BIND, 0);
   CHECK(a && b, "%s: resource_create failed", what);
   if (!a || !b)
      goto out;
   struct pipe_surface templ = { .format = f };
   struct pipe_surface *surf = ctx->create_surface(ctx, a, &templ);
   ctx->clear_depth_stencil(ctx, surf,
                            PIPE_CLEAR_DEPTH | (s ? PIPE_CLEAR_STENCIL : 0),
                            0.25, 0x5a, 0, 0, size, size, false);
   pipe_surface_reference(&surf, NULL);
   if (afbc)
      check_afbc_written(a, 0, 0, what);

   struct pipe_blit_info info = {
      .dst = { .resource = b, .format = f },
      .src = { .resource = a, .format = f },
      .mask = PIPE_MASK_Z | (s ? PIPE_MASK_S : 0),
      .filter = PIPE_TEX_FILTER_NEAREST,
      /* Drawn, not resource_copy_region's CPU copy (see copy()). */
      .scissor_enable = true,
      .scissor = { 0, 0, size, size },
   };
   u_box_2d(0, 0, size, size, &info.dst.box);
   u_box_2d(0, 0, size, size, &info.src.box);
   ctx->blit(ctx, &info);
   if (afbc) {
      check_afbc_written(b, 0, 0, what);
      CHECK(modifier(a) == PANFROST_MOD_AFBC, "%s: sampling converted it",
            what);
   }

   struct pipe_resource *rs[2] = { a, b };
   for (unsigned i = 0; i < 2; ++i) {
      struct pipe_transfer *xfer;
      const uint8_t *map = pipe_texture_map(ctx, rs[i], 0, 0, PIPE_MAP_READ,
                                            0, 0, size, size, &xfer);
      CHECK(map, "%s: map failed", what);
      if (!map)
         continue;
      unsigned bad = 0;
      for (unsigned y = 0; y < size; ++y) {
         for (unsigned x = 0; x < size; ++x) {
            const uint8_t *p = map + y * xfer->stride +
                               x * util_format_get_blocksize(f);
            float z;
            uint8_t st = 0x5a;
            util_format_unpack_z_float(f, &z, p, 1);
            if (s)
               util_format_unpack_s_8uint(f, &st, p, 1);
            bad += fabsf(z - 0.25f) > 1e-4f || st != 0x5a;
         }
      }
      pipe_texture_unmap(ctx, xfer);
      CHECK(bad == 0, "%s %s: %u values wrong", what, i ? "blitted" : "cleared",
            bad);
      CHECK(modifier(rs[i]) == DRM_FORMAT_MOD_ARM_16X16_BLOCK_U_INTERLEAVED,
            "%s: a mapped buffer stays AFBC", what);
   }
out:
   pipe_resource_reference(&a, NULL);
   pipe_resource_reference(&b, NULL);
}

/* Bound as a storage image, an AFBC texture becomes u-interleaved and
 * keeps its pixels.
 */
static void
test_image_bind(void)
{
   const unsigned size = 32;
   struct pipe_resource *src = quadrant_texture(size);
   struct pipe_resource *r = make(PIPE_TEXTURE_2D, FMT, size, 1, 0, RT_BIND, 0);
   CHECK(src && r, "image: resource_create failed");
   if (src && r) {
      copy(r, 0, src, 0, size);
      struct pipe_image_view view = {
         .resource = r,
         .format = FMT,
         .access = PIPE_IMAGE_ACCESS_READ_WRITE,
         .shader_access = PIPE_IMAGE_ACCESS_READ_WRITE,
      };
      ctx->set_shader_images(ctx, PIPE_SHADER_COMPUTE, 0, 1, 0, &view);
      CHECK(modifier(r) == DRM_FORMAT_MOD_ARM_16X16_BLOCK_U_INTERLEAVED,
            "bound as an image: 0x%llx", (unsigned long long)modifier(r));
      ctx->set_shader_images(ctx, PIPE_SHADER_COMPUTE, 0, 0, 1, NULL);
      check_pixels(r, 0, size, NULL, "image-bound texture");
   }
   pipe_resource_reference(&src, NULL);
   pipe_resource_reference(&r, NULL);
}

int
main(int argc, char **argv)
{
   if (!pan_test_open(&screen, &ctx))
      return 1;
   struct panfrost_screen *s = panfrost_screen(screen);
   /* Not PAN_MESA_DEBUG=noafbc's business: these checks fail with it. */
   afbc = s->dev.arch >= 6 && s->dev.has_afbc;
   printf("arch v%u: AFBC render targets %s\n", s->dev.arch,
          afbc ? "on" : "off");
   test_choice();
   test_render_sample_map();
   test_clear_subdata(PIPE_TEXTURE_2D, 1, "2D clear + upload");
   test_clear_subdata(PIPE_TEXTURE_2D_ARRAY, 3, "array layer clear + upload");
   test_clear_subdata(PIPE_TEXTURE_CUBE, 6, "cube face clear + upload");
   test_image_bind();
   test_formats();
   test_zs(PIPE_FORMAT_Z24_UNORM_S8_UINT);
   test_zs(PIPE_FORMAT_Z24X8_UNORM);
   test_zs(PIPE_FORMAT_Z16_UNORM);
   return pan_test_close(screen, ctx);
}
