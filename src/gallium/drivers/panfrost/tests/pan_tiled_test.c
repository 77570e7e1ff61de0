/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * U-interleaved resources on the simulated GPU, checked pixel for pixel
 * against a reference kept on the CPU:
 *
 * - which templates are tiled, and the modifier export and the dma-buf
 *   query report;
 * - the bytes in the buffer object sit where the 16x16 tiling puts them;
 * - uploads (texture_subdata, straight into the tiles) and read-backs and
 *   read-write maps (through a staging copy) of whole levels and partial
 *   boxes (odd sizes, mip levels, array layers, cube faces, 3D slices; 1
 *   to 16-byte texels);
 * - the GPU sampling a tiled texture and rendering into a tiled target
 *   (1:1 blits between tiled and linear resources, of levels, layers,
 *   faces and slices), partial clears that keep the rest (preloads) of
 *   colour and depth/stencil targets.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drm-uapi/drm_fourcc.h"
#include "frontend/winsys_handle.h"
#include "pipe/p_context.h"
#include "pipe/p_defines.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"
#include "util/format/u_format.h"
#include "util/u_dump.h"
#include "util/u_inlines.h"
#include "util/u_surface.h"

#include "../pan_resource.h"
#include "pan_test_screen.h"
#include "pan_uinterleave.h"

static struct pipe_screen *screen;
static struct pipe_context *ctx;

/* The reference byte c of texel (x, y) of surface s (layer, face or
 * slice) of a level; seed tells apart the writes of one test.
 */
static uint8_t
pattern(unsigned seed, unsigned level, unsigned s, unsigned x, unsigned y,
        unsigned c)
{
   return (uint8_t)(x * 7 + y * 13 + s * 29 + level * 53 + c * 3 + seed * 101 +
                    (x >> 4) * 17 + (y >> 4) * 5);
}

/* Formats of 1 to 16-byte texels for uploads and read-backs. */
static const enum pipe_format formats[] = {
   PIPE_FORMAT_R8_UINT,           PIPE_FORMAT_R8G8_UINT,
   PIPE_FORMAT_R8G8B8A8_UNORM,    PIPE_FORMAT_R16G16B16A16_UINT,
   PIPE_FORMAT_R32G32B32A32_UINT,
};

/* Formats whose GPU copies (through float) are exact for any bytes, of
 * 1 to 4-byte texels. (Integer copies through util_blitter come out
 * black on the G57 even between linear resources, whatever the layout;
 * no 8 or 16-byte unorm format renders.)
 */
static const enum pipe_format gpu_formats[] = {
   PIPE_FORMAT_R8_UNORM,
   PIPE_FORMAT_R8G8_UNORM,
   PIPE_FORMAT_R8G8B8A8_UNORM,
   PIPE_FORMAT_R10G10B10A2_UNORM,
};

static struct pipe_resource *
make(enum pipe_texture_target target, enum pipe_format format, unsigned w,
     unsigned h, unsigned d, unsigned layers, unsigned last_level,
     unsigned bind)
{
   struct pipe_resource t = { .target = target, .format = format };
   t.bind = bind;
   t.width0 = w, t.height0 = h, t.depth0 = d;
   t.array_size = layers, t.last_level = last_level;
   return screen->resource_create(screen, &t);
}

static unsigned
surfaces(const struct pipe_resource *r, unsigned level)
{
   return r->target == PIPE_TEXTURE_3D ? u_minify(r->depth0, level)
                                       : r->array_size;
}

/* Writes the pattern into box of (level, surfaces box.z..) of r. */
static void
upload_box(struct pipe_resource *r, unsigned level, const struct pipe_box *box,
           unsigned seed)
{
   unsigned bpp = util_format_get_blocksize(r->format);
   unsigned stride = box->width * bpp;
   uint8_t *data = malloc((size_t)stride * box->height * box->depth);
   for (int z = 0; z < box->depth; ++z)
      for (int y = 0; y < box->height; ++y)
         for (int x = 0; x < box->width; ++x)
            for (unsigned c = 0; c < bpp; ++c)
               data[((size_t)z * box->height + y) * stride + x * bpp + c] =
                  pattern(seed, level, box->z + z, box->x + x, box->y + y, c);
   ctx->texture_subdata(ctx, r, level, 0, box, data, stride,
                        stride * box->height);
   free(data);
}

static void
upload_all(struct pipe_resource *r, unsigned seed)
{
   for (unsigned l = 0; l <= r->last_level; ++l) {
      struct pipe_box box;
      u_box_3d(0, 0, 0, u_minify(r->width0, l), u_minify(r->height0, l),
               surfaces(r, l), &box);
      upload_box(r, l, &box, seed);
   }
}

/* The seed a texel of the reference was last written with: `inner` in
 * the box `in` (when not NULL), `outer` elsewhere.
 */
static unsigned
seed_at(const struct pipe_box *in, unsigned inner, unsigned outer, int x, int y,
        int z)
{
   if (in && x >= in->x && x < in->x + in->width && y >= in->y &&
       y < in->y + in->height && z >= in->z && z < in->z + in->depth)
      return inner;
   return outer;
}

/* Maps box of the level for reading and compares it with the pattern
 * (seed `inner` inside `in`, `outer` elsewhere); surface numbers of the
 * pattern are offset by dz (a copy from another surface).
 */
static void
check_box(struct pipe_resource *r, unsigned level, const struct pipe_box *box,
          const struct pipe_box *in, unsigned inner, unsigned outer, int dz,
          unsigned plevel, const char *what)
{
   unsigned bpp = util_format_get_blocksize(r->format);
   struct pipe_transfer *xfer;
   const uint8_t *map =
      ctx->texture_map(ctx, r, level, PIPE_MAP_READ, box, &xfer);
   CHECK(map, "%s: map failed", what);
   if (!map)
      return;
   unsigned bad = 0;
   for (int z = 0; z < box->depth; ++z) {
      for (int y = 0; y < box->height; ++y) {
         for (int x = 0; x < box->width; ++x) {
            int px = box->x + x, py = box->y + y, pz = box->z + z;
            unsigned seed = seed_at(in, inner, outer, px, py, pz);
            const uint8_t *p =
               map + z * xfer->layer_stride + y * xfer->stride + x * bpp;
            for (unsigned c = 0; c < bpp; ++c) {
               uint8_t want = pattern(seed, plevel, pz + dz, px, py, c);
               if (p[c] != want) {
                  if (bad++ == 0)
                     printf("%s: (%d, %d, %d) byte %u is %u, want %u\n", what,
                            px, py, pz, c, p[c], want);
                  break;
               }
            }
         }
      }
   }
   ctx->texture_unmap(ctx, xfer);
   CHECK(bad == 0, "%s: %u of %u texels wrong", what, bad,
         box->width * box->height * box->depth);
}

static void
check_level(struct pipe_resource *r, unsigned level, const struct pipe_box *in,
            unsigned inner, unsigned outer, const char *what)
{
   struct pipe_box box;
   u_box_3d(0, 0, 0, u_minify(r->width0, level), u_minify(r->height0, level),
            surfaces(r, level), &box);
   check_box(r, level, &box, in, inner, outer, 0, level, what);
}

/* Maps box of the level read-write, checks it holds seed `was` and
 * writes seed `now` there.
 */
static void
map_rewrite(struct pipe_resource *r, unsigned level, const struct pipe_box *box,
            unsigned was, unsigned now, const char *what)
{
   unsigned bpp = util_format_get_blocksize(r->format);
   struct pipe_transfer *xfer;
   uint8_t *map =
      ctx->texture_map(ctx, r, level, PIPE_MAP_READ_WRITE, box, &xfer);
   CHECK(map, "%s: read-write map failed", what);
   if (!map)
      return;
   unsigned bad = 0;
   for (int z = 0; z < box->depth; ++z) {
      for (int y = 0; y < box->height; ++y) {
         uint8_t *row = map + z * xfer->layer_stride + y * xfer->stride;
         for (int x = 0; x < box->width; ++x) {
            for (unsigned c = 0; c < bpp; ++c) {
               unsigned px = box->x + x, py = box->y + y, pz = box->z + z;
               bad += row[x * bpp + c] != pattern(was, level, pz, px, py, c);
               row[x * bpp + c] = pattern(now, level, pz, px, py, c);
            }
         }
      }
   }
   ctx->texture_unmap(ctx, xfer);
   CHECK(bad == 0, "%s: read-write map read %u wrong bytes", what, bad);
}

/* Which templates are tiled, and what export and the query report. */
static void
test_choice(void)
{
   const unsigned rt = PIPE_BIND_SAMPLER_VIEW | PIPE_BIND_RENDER_TARGET;
   const uint64_t tiled = DRM_FORMAT_MOD_ARM_16X16_BLOCK_U_INTERLEAVED;
   struct {
      enum pipe_texture_target target;
      enum pipe_format format;
      unsigned bind, usage, samples;
      uint64_t want;
   } cases[] = {
      { PIPE_TEXTURE_2D, PIPE_FORMAT_R8G8B8A8_UNORM, rt, 0, 0, tiled },
      { PIPE_TEXTURE_CUBE, PIPE_FORMAT_R8_UNORM, PIPE_BIND_SAMPLER_VIEW, 0, 0,
        tiled },
      { PIPE_TEXTURE_2D, PIPE_FORMAT_Z24_UNORM_S8_UINT, PIPE_BIND_DEPTH_STENCIL,
        0, 0, tiled },
      { PIPE_TEXTURE_2D, PIPE_FORMAT_R8G8B8A8_UNORM, rt | PIPE_BIND_LINEAR, 0,
        0, DRM_FORMAT_MOD_LINEAR },
      { PIPE_TEXTURE_2D, PIPE_FORMAT_R8G8B8A8_UNORM, rt | PIPE_BIND_SHARED, 0,
        0, DRM_FORMAT_MOD_LINEAR },
      { PIPE_TEXTURE_2D, PIPE_FORMAT_R8G8B8A8_UNORM, rt, PIPE_USAGE_STAGING, 0,
        DRM_FORMAT_MOD_LINEAR },
      { PIPE_TEXTURE_2D, PIPE_FORMAT_R8G8B8A8_UNORM, rt, PIPE_USAGE_STREAM, 0,
        DRM_FORMAT_MOD_LINEAR },
      { PIPE_TEXTURE_2D, PIPE_FORMAT_R8G8B8A8_UNORM, rt, 0, 4,
        DRM_FORMAT_MOD_LINEAR },
      /* 4x4 blocks tile too (tiles of 4x4 blocks, pan_etc_test.c). */
      { PIPE_TEXTURE_2D, PIPE_FORMAT_ETC2_RGB8, PIPE_BIND_SAMPLER_VIEW, 0, 0,
        tiled },
      { PIPE_TEXTURE_2D, PIPE_FORMAT_Z32_FLOAT_S8X24_UINT,
        PIPE_BIND_DEPTH_STENCIL, 0, 0, DRM_FORMAT_MOD_LINEAR },
   };
   for (unsigned i = 0; i < ARRAY_SIZE(cases); ++i) {
      struct pipe_resource templ = {
         .target = cases[i].target,
         .format = cases[i].format,
         .width0 = 20,
         .height0 = 20,
         .depth0 = 1,
         .array_size = cases[i].target == PIPE_TEXTURE_CUBE ? 6 : 1,
         .bind = cases[i].bind,
         .usage = cases[i].usage,
         .nr_samples = cases[i].samples,
      };
      struct pipe_resource *r = screen->resource_create(screen, &templ);
      CHECK(r, "choice %u: resource_create failed", i);
      if (!r)
         continue;
      uint64_t got = panfrost_resource(r)->modifier;
      CHECK(got == cases[i].want,
            "choice %u (%s): modifier 0x%llx, want "
            "0x%llx",
            i, util_format_short_name(cases[i].format), (unsigned long long)got,
            (unsigned long long)cases[i].want);
      pipe_resource_reference(&r, NULL);
   }

   /* A buffer is bytes. */
   struct pipe_resource *buf =
      pipe_buffer_create(screen, PIPE_BIND_VERTEX_BUFFER, 0, 4096);
   CHECK(buf && panfrost_resource(buf)->modifier == DRM_FORMAT_MOD_LINEAR,
         "a buffer is not linear");
   pipe_resource_reference(&buf, NULL);

   /* The export names the layout. */
   struct pipe_resource *r =
      make(PIPE_TEXTURE_2D, PIPE_FORMAT_R8G8B8A8_UNORM, 40, 24, 1, 1, 0, rt);
   struct winsys_handle wh = { .type = WINSYS_HANDLE_TYPE_KMS };
   bool ok = r && screen->resource_get_handle(screen, ctx, r, &wh, 0);
   CHECK(ok && wh.modifier == tiled && wh.stride == 3 * 16 * 16 * 4,
         "export: modifier 0x%llx, stride %u", (unsigned long long)wh.modifier,
         wh.stride);
   pipe_resource_reference(&r, NULL);

   /* The query offers tiling first, and only linear where it cannot. */
   uint64_t mods[4];
   int count = 0;
   screen->query_dmabuf_modifiers(screen, PIPE_FORMAT_R8G8B8A8_UNORM, 4, mods,
                                  NULL, &count);
   CHECK(count == 2 && mods[0] == tiled && mods[1] == DRM_FORMAT_MOD_LINEAR,
         "RGBA8 modifiers: %d", count);
   screen->query_dmabuf_modifiers(screen, PIPE_FORMAT_ETC2_RGB8, 4, mods, NULL,
                                  &count);
   CHECK(count == 2 && mods[0] == tiled && mods[1] == DRM_FORMAT_MOD_LINEAR,
         "ETC2 modifiers: %d", count);

   /* A list without tiling gets linear; a list of neither, nothing. */
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = PIPE_FORMAT_R8G8B8A8_UNORM,
      .width0 = 16,
      .height0 = 16,
      .depth0 = 1,
      .array_size = 1,
      .bind = rt,
   };
   const uint64_t linear_only = DRM_FORMAT_MOD_LINEAR;
   r = screen->resource_create_with_modifiers(screen, &templ, &linear_only, 1);
   CHECK(r && panfrost_resource(r)->modifier == DRM_FORMAT_MOD_LINEAR,
         "create with linear only");
   pipe_resource_reference(&r, NULL);
   const uint64_t both[] = { DRM_FORMAT_MOD_LINEAR, tiled };
   r = screen->resource_create_with_modifiers(screen, &templ, both, 2);
   CHECK(r && panfrost_resource(r)->modifier == tiled, "create with both");
   pipe_resource_reference(&r, NULL);
   const uint64_t afbc =
      DRM_FORMAT_MOD_ARM_AFBC(AFBC_FORMAT_MOD_BLOCK_SIZE_16x16);
   r = screen->resource_create_with_modifiers(screen, &templ, &afbc, 1);
   CHECK(!r, "create with AFBC only succeeded");
   pipe_resource_reference(&r, NULL);
}

/* The bytes sit where the tiling puts them: level 1 of an array layer. */
static void
test_bytes(void)
{
   struct pipe_resource *r =
      make(PIPE_TEXTURE_2D_ARRAY, PIPE_FORMAT_R8G8B8A8_UNORM, 70, 45, 1, 3, 2,
           PIPE_BIND_SAMPLER_VIEW);
   CHECK(r, "bytes: resource_create failed");
   if (!r)
      return;
   upload_all(r, 1);
   check_level(r, 1, NULL, 0, 1, "bytes: level 1 read back");
   struct panfrost_resource *rsc = panfrost_resource(r);
   const uint8_t *cpu = pan_bo_mmap(rsc->bo);
   const struct pan_image_level *l = &rsc->layout.levels[1];
   uint64_t base =
      pan_image_surface_offset_B(&rsc->image, &rsc->layout, 1, 2, 0);
   unsigned bad = 0;
   for (unsigned y = 0; y < 22; ++y) {
      for (unsigned x = 0; x < 35; ++x) {
         uint64_t at = base + pan_uinterleave_ref_offset_B(
                                 x, y, l->row_stride_B, 4, false);
         for (unsigned c = 0; c < 4; ++c)
            bad += cpu[at + c] != pattern(1, 1, 2, x, y, c);
      }
   }
   CHECK(l->row_stride_B == 3 * 16 * 16 * 4,
         "bytes: row stride %u of a 35-texel level", l->row_stride_B);
   CHECK(bad == 0, "bytes: %u bytes not where the tiling puts them", bad);
   pipe_resource_reference(&r, NULL);
}

/* Uploads whole levels, reads them back, rewrites a box at an odd place
 * crossing tiles and reads back a box around it and the whole level.
 */
static void
test_transfers(enum pipe_texture_target target, enum pipe_format format,
               unsigned w, unsigned h, unsigned d, unsigned layers,
               unsigned last_level)
{
   char what[128];
   snprintf(what, sizeof(what), "%s %s %ux%ux%u x%u",
            util_str_tex_target(target, true), util_format_short_name(format),
            w, h, d, layers);
   struct pipe_resource *r =
      make(target, format, w, h, d, layers, last_level, PIPE_BIND_SAMPLER_VIEW);
   CHECK(r, "%s: resource_create failed", what);
   if (!r)
      return;
   CHECK(panfrost_resource_is_tiled(panfrost_resource(r)), "%s: not tiled",
         what);
   upload_all(r, 2);
   for (unsigned l = 0; l <= last_level; ++l) {
      char lw[160];
      snprintf(lw, sizeof(lw), "%s level %u", what, l);
      check_level(r, l, NULL, 0, 2, lw);

      unsigned lw_px = u_minify(w, l), lh_px = u_minify(h, l);
      unsigned ns = surfaces(r, l);
      struct pipe_box in;
      u_box_3d(lw_px / 3, lh_px / 4, ns > 1 ? 1 : 0, MAX2(lw_px / 2, 1),
               MAX2(lh_px / 2, 1), ns > 2 ? ns - 2 : 1, &in);
      upload_box(r, l, &in, 3);
      snprintf(lw, sizeof(lw), "%s level %u after a partial write", what, l);
      check_level(r, l, &in, 3, 2, lw);
      /* A read-write map of the box: it reads what the upload wrote, and
       * what the caller writes there is stored back, tiles around kept.
       */
      map_rewrite(r, l, &in, 3, 8, lw);
      snprintf(lw, sizeof(lw), "%s level %u after a mapped write", what, l);
      check_level(r, l, &in, 8, 2, lw);
      upload_box(r, l, &in, 3);
      /* A partial read straddling the box's corner. */
      struct pipe_box part;
      u_box_3d(in.x / 2, in.y / 2, in.z, MAX2(lw_px - in.x / 2 - 1, 1),
               MAX2(lh_px - in.y / 2 - 1, 1), 1, &part);
      snprintf(lw, sizeof(lw), "%s level %u partial read", what, l);
      check_box(r, l, &part, &in, 3, 2, 0, l, lw);
   }
   pipe_resource_reference(&r, NULL);
}

/* A scissor covering the whole target: a 1:1 blit with one is never a
 * CPU copy (util_try_blit_via_copy_region), always a draw.
 */
static void
force_draw(struct pipe_blit_info *info)
{
   info->scissor_enable = true;
   info->scissor = (struct pipe_scissor_state){ 0, 0, 0xffff, 0xffff };
}

/* 1:1 GPU copy (util_blitter: a draw sampling src into dst) of the whole
 * level and surface sz of src to level dl and surface dz of dst.
 */
static void
gpu_copy(struct pipe_resource *dst, unsigned dl, unsigned dz,
         struct pipe_resource *src, unsigned sl, unsigned sz)
{
   unsigned w = u_minify(src->width0, sl), h = u_minify(src->height0, sl);
   struct pipe_blit_info info = {
      .dst = { .resource = dst, .level = dl, .format = dst->format },
      .src = { .resource = src, .level = sl, .format = src->format },
      .mask = PIPE_MASK_RGBA,
      .filter = PIPE_TEX_FILTER_NEAREST,
   };
   u_box_3d(0, 0, dz, w, h, 1, &info.dst.box);
   u_box_3d(0, 0, sz, w, h, 1, &info.src.box);
   force_draw(&info);
   ctx->blit(ctx, &info);
}

/* The GPU reads tiled textures and writes tiled targets: a copy from a
 * tiled source into a linear target and into a tiled target, and from a
 * linear source into a tiled target, of level `level`, surface `sz` into
 * the same level and surface `dz`.
 */
static void
test_gpu(enum pipe_texture_target target, enum pipe_format format, unsigned w,
         unsigned h, unsigned d, unsigned layers, unsigned levels,
         unsigned level, unsigned sz, unsigned dz)
{
   const unsigned bind = PIPE_BIND_SAMPLER_VIEW | PIPE_BIND_RENDER_TARGET;
   char what[160];
   snprintf(what, sizeof(what), "GPU %s %s %ux%ux%u x%u level %u (%u->%u)",
            util_str_tex_target(target, true), util_format_short_name(format),
            w, h, d, layers, level, sz, dz);
   if (!screen->is_format_supported(screen, format, target, 0, 0, bind)) {
      printf("%s: not a render target format here, skipped\n", what);
      return;
   }
   struct pipe_resource *tiled_src =
      make(target, format, w, h, d, layers, levels - 1, bind);
   struct pipe_resource *linear_src = make(target, format, w, h, d, layers,
                                           levels - 1, bind | PIPE_BIND_LINEAR);
   struct pipe_resource *tiled_dst =
      make(target, format, w, h, d, layers, levels - 1, bind);
   struct pipe_resource *linear_dst = make(target, format, w, h, d, layers,
                                           levels - 1, bind | PIPE_BIND_LINEAR);
   CHECK(tiled_src && linear_src && tiled_dst && linear_dst,
         "%s: resource_create failed", what);
   if (!tiled_src || !linear_src || !tiled_dst || !linear_dst)
      goto out;
   CHECK(panfrost_resource_is_tiled(panfrost_resource(tiled_src)) &&
            !panfrost_resource_is_tiled(panfrost_resource(linear_src)),
         "%s: layouts not as asked", what);
   upload_all(tiled_src, 4);
   upload_all(linear_src, 4);
   upload_all(tiled_dst, 5);
   upload_all(linear_dst, 5);

   struct pipe_box lvl;
   unsigned lw = u_minify(w, level), lh = u_minify(h, level);
   u_box_3d(0, 0, dz, lw, lh, 1, &lvl);
   char cw[200];

   gpu_copy(linear_dst, level, dz, tiled_src, level, sz);
   snprintf(cw, sizeof(cw), "%s tiled -> linear", what);
   check_box(linear_dst, level, &lvl, NULL, 4, 4, (int)sz - (int)dz, level, cw);

   gpu_copy(tiled_dst, level, dz, linear_src, level, sz);
   snprintf(cw, sizeof(cw), "%s linear -> tiled", what);
   check_box(tiled_dst, level, &lvl, NULL, 4, 4, (int)sz - (int)dz, level, cw);
   /* The other surfaces and levels of the target are untouched. */
   snprintf(cw, sizeof(cw), "%s linear -> tiled, the rest", what);
   for (unsigned l = 0; l < levels; ++l) {
      for (unsigned s = 0; s < surfaces(tiled_dst, l); ++s) {
         if (l == level && s == dz)
            continue;
         struct pipe_box b;
         u_box_3d(0, 0, s, u_minify(w, l), u_minify(h, l), 1, &b);
         check_box(tiled_dst, l, &b, NULL, 5, 5, 0, l, cw);
      }
   }

   upload_all(tiled_dst, 5);
   gpu_copy(tiled_dst, level, dz, tiled_src, level, sz);
   snprintf(cw, sizeof(cw), "%s tiled -> tiled", what);
   check_box(tiled_dst, level, &lvl, NULL, 4, 4, (int)sz - (int)dz, level, cw);
out:
   pipe_resource_reference(&tiled_src, NULL);
   pipe_resource_reference(&linear_src, NULL);
   pipe_resource_reference(&tiled_dst, NULL);
   pipe_resource_reference(&linear_dst, NULL);
}

/* A copy into part of a tiled target keeps the pixels around it: the
 * pass loads the tiles from memory and writes them all back.
 */
static void
test_partial_copy(unsigned w, unsigned h)
{
   const unsigned bind = PIPE_BIND_SAMPLER_VIEW | PIPE_BIND_RENDER_TARGET;
   const unsigned cx = 5, cy = 9, cw = w / 2, ch = h / 3;
   struct pipe_resource *r =
      make(PIPE_TEXTURE_2D, PIPE_FORMAT_R8G8B8A8_UNORM, w, h, 1, 1, 0, bind);
   struct pipe_resource *src = make(PIPE_TEXTURE_2D, PIPE_FORMAT_R8G8B8A8_UNORM,
                                    w, h, 1, 1, 0, bind | PIPE_BIND_LINEAR);
   CHECK(r && src, "partial copy: resource_create failed");
   if (!r || !src)
      goto out;
   upload_all(r, 6);
   upload_all(src, 7);
   struct pipe_blit_info info = {
      .dst = { .resource = r, .format = r->format },
      .src = { .resource = src, .format = src->format },
      .mask = PIPE_MASK_RGBA,
      .filter = PIPE_TEX_FILTER_NEAREST,
   };
   u_box_2d(cx, cy, cw, ch, &info.dst.box);
   u_box_2d(cx, cy, cw, ch, &info.src.box);
   force_draw(&info);
   ctx->blit(ctx, &info);

   struct pipe_box all, in;
   u_box_3d(0, 0, 0, w, h, 1, &all);
   u_box_3d(cx, cy, 0, cw, ch, 1, &in);
   char what[64];
   snprintf(what, sizeof(what), "partial copy %ux%u", w, h);
   check_box(r, 0, &all, &in, 7, 6, 0, 0, what);
out:
   pipe_resource_reference(&r, NULL);
   pipe_resource_reference(&src, NULL);
}

/* Depth/stencil targets: uploads read back, and a clear written back by
 * the GPU into the tiles.
 */
static void
test_zs(enum pipe_format format, unsigned w, unsigned h)
{
   const char *name = util_format_short_name(format);
   struct pipe_resource *r =
      make(PIPE_TEXTURE_2D, format, w, h, 1, 1, 0,
           PIPE_BIND_SAMPLER_VIEW | PIPE_BIND_DEPTH_STENCIL);
   CHECK(r, "%s: resource_create failed", name);
   if (!r)
      return;
   CHECK(panfrost_resource_is_tiled(panfrost_resource(r)), "%s: not tiled",
         name);
   bool f32 = format == PIPE_FORMAT_Z32_FLOAT;
   /* Depth values a float or a 24-bit integer holds exactly. */
   uint32_t *data = malloc(w * h * 4);
   for (unsigned i = 0; i < w * h; ++i) {
      unsigned x = i % w, y = i / w;
      uint32_t z24 = (x * 4099 + y * 131 + 7) & 0xffffff;
      if (f32) {
         float f = (float)z24 / 16777216.0f;
         memcpy(&data[i], &f, 4);
      } else {
         data[i] = z24 | ((x * 3 + y * 5) & 0xff) << 24;
      }
   }
   struct pipe_box box;
   u_box_2d(0, 0, w, h, &box);
   ctx->texture_subdata(ctx, r, 0, 0, &box, data, w * 4, 0);

   struct pipe_surface templ = { .format = format };
   struct pipe_surface *surf = ctx->create_surface(ctx, r, &templ);
   struct pipe_transfer *xfer;
   const uint8_t *map;
   unsigned bad = 0;

   /* The upload, read back through the untiling. */
   map = pipe_texture_map(ctx, r, 0, 0, PIPE_MAP_READ, 0, 0, w, h, &xfer);
   CHECK(map, "%s: map failed", name);
   for (unsigned y = 0; map && y < h; ++y)
      bad += memcmp(map + y * xfer->stride, data + y * w, w * 4) != 0;
   if (map)
      pipe_texture_unmap(ctx, xfer);
   CHECK(bad == 0, "%s %ux%u: %u rows of the upload wrong", name, w, h, bad);

   unsigned flags = f32 ? PIPE_CLEAR_DEPTH : PIPE_CLEAR_DEPTHSTENCIL;
   ctx->clear_depth_stencil(ctx, surf, flags, 0.5, 0x5a, 0, 0, w, h, false);

   map = pipe_texture_map(ctx, r, 0, 0, PIPE_MAP_READ, 0, 0, w, h, &xfer);
   CHECK(map, "%s: map failed", name);
   bad = 0;
   for (unsigned y = 0; map && y < h; ++y) {
      for (unsigned x = 0; x < w; ++x) {
         bool in = true;
         uint32_t got;
         memcpy(&got, map + y * xfer->stride + x * 4, 4);
         uint32_t want = data[y * w + x];
         if (in && f32) {
            float half = 0.5f;
            memcpy(&want, &half, 4);
         } else if (in) {
            want = 0x5au << 24 | 0x800000;
         }
         /* 0.5 as 24 bits may round either way. */
         bool ok = got == want || (in && !f32 && (got >> 24) == 0x5a &&
                                   ((got & 0xffffff) == 0x7fffff));
         if (!ok && bad++ == 0)
            printf("%s %ux%u: (%u, %u) is 0x%08x, want 0x%08x\n", name, w, h, x,
                   y, got, want);
      }
   }
   if (map)
      pipe_texture_unmap(ctx, xfer);
   CHECK(bad == 0, "%s %ux%u: %u pixels wrong", name, w, h, bad);
   free(data);
   pipe_surface_reference(&surf, NULL);
   pipe_resource_reference(&r, NULL);
}

int
main(int argc, char **argv)
{
   /* The layouts here are linear and u-interleaved: render targets would
    * be AFBC otherwise (gallium-afbc checks those).
    */
   const char *dbg = getenv("PAN_MESA_DEBUG");
   char flags[128];
   snprintf(flags, sizeof(flags), "%s%snoafbc", dbg ? dbg : "",
            dbg && *dbg ? "," : "");
   setenv("PAN_MESA_DEBUG", flags, 1);
   if (!pan_test_open(&screen, &ctx))
      return 1;
   test_choice();
   test_bytes();

   for (unsigned i = 0; i < ARRAY_SIZE(formats); ++i)
      test_transfers(PIPE_TEXTURE_2D, formats[i], 37, 21, 1, 1, 3);
   test_transfers(PIPE_TEXTURE_2D, PIPE_FORMAT_R8G8B8_UNORM, 19, 40, 1, 1, 1);
   test_transfers(PIPE_TEXTURE_2D, PIPE_FORMAT_R16G16B16_UNORM, 33, 17, 1, 1,
                  0);
   test_transfers(PIPE_TEXTURE_2D, PIPE_FORMAT_R32G32B32_FLOAT, 18, 18, 1, 1,
                  0);
   test_transfers(PIPE_TEXTURE_2D, PIPE_FORMAT_R8G8B8A8_UNORM, 1, 1, 1, 1, 0);
   test_transfers(PIPE_TEXTURE_1D, PIPE_FORMAT_R8G8B8A8_UNORM, 100, 1, 1, 1, 2);
   test_transfers(PIPE_TEXTURE_2D_ARRAY, PIPE_FORMAT_R16G16B16A16_UINT, 23, 31,
                  1, 4, 2);
   test_transfers(PIPE_TEXTURE_CUBE, PIPE_FORMAT_R8G8B8A8_UNORM, 20, 20, 1, 6,
                  1);
   test_transfers(PIPE_TEXTURE_3D, PIPE_FORMAT_R8G8_UINT, 17, 9, 5, 1, 2);

   for (unsigned i = 0; i < ARRAY_SIZE(gpu_formats); ++i)
      test_gpu(PIPE_TEXTURE_2D, gpu_formats[i], 37, 21, 1, 1, 1, 0, 0, 0);
   test_gpu(PIPE_TEXTURE_2D, PIPE_FORMAT_R8G8B8A8_UNORM, 70, 33, 1, 1, 3, 1, 0,
            0);
   test_gpu(PIPE_TEXTURE_2D, PIPE_FORMAT_R8G8B8A8_UNORM, 3, 50, 1, 1, 1, 0, 0,
            0);
   test_gpu(PIPE_TEXTURE_2D_ARRAY, PIPE_FORMAT_R8G8B8A8_UNORM, 29, 18, 1, 3, 2,
            1, 2, 0);
   test_gpu(PIPE_TEXTURE_CUBE, PIPE_FORMAT_R8G8_UNORM, 24, 24, 1, 6, 1, 0, 3,
            5);
   test_gpu(PIPE_TEXTURE_3D, PIPE_FORMAT_R8G8B8A8_UNORM, 20, 12, 4, 1, 1, 0, 1,
            3);

   test_partial_copy(61, 45);
   test_partial_copy(16, 32);
   test_zs(PIPE_FORMAT_Z24_UNORM_S8_UINT, 41, 37);
   test_zs(PIPE_FORMAT_Z32_FLOAT, 33, 40);
   return pan_test_close(screen, ctx);
}
