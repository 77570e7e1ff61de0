/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Buffers and textures: creation, import/export and their layout's
 * modifier. */

#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "frontend/winsys_handle.h"
#include "renderonly/renderonly.h"
#include "util/format/u_format.h"
#include "util/log.h"
#include "util/u_inlines.h"
#include "util/u_memory.h"
#include "util/u_surface.h"
#include "util/u_transfer.h"
#include "drm-uapi/drm_fourcc.h"

#include "pan_context.h"
#include "pan_resource.h"
#include "pan_screen.h"

static struct panfrost_resource *
panfrost_resource_alloc(struct pipe_screen *pscreen,
                        const struct pipe_resource *templ)
{
   struct panfrost_resource *rsc = CALLOC_STRUCT(panfrost_resource);

   if (!rsc)
      return NULL;
   pan_index_cache_init(&rsc->index_cache);

   rsc->base = *templ;
   rsc->base.screen = pscreen;
   pipe_reference_init(&rsc->base.reference, 1);
   return rsc;
}

static const char *
panfrost_resource_label(const struct pipe_resource *templ)
{
   if (templ->target == PIPE_BUFFER)
      return "buffer";
   if (templ->bind & PIPE_BIND_SCANOUT)
      return "scanout";
   if (templ->bind & (PIPE_BIND_RENDER_TARGET | PIPE_BIND_DEPTH_STENCIL))
      return "render target";
   return "texture";
}

/* Scanout memory on a kmsro system belongs to the display device: it is
 * allocated there and imported into the GPU. */
static bool
panfrost_resource_create_scanout(struct panfrost_screen *screen,
                                 struct panfrost_resource *rsc)
{
   struct winsys_handle handle = { 0 };

   rsc->scanout =
      renderonly_scanout_for_resource(&rsc->base, screen->ro, &handle);
   if (!rsc->scanout)
      return false;

   rsc->bo = pan_bo_import(&screen->dev, handle.handle);
   close(handle.handle);
   if (!rsc->bo) {
      renderonly_scanout_destroy(rsc->scanout, screen->ro);
      rsc->scanout = NULL;
      return false;
   }

   if (!panfrost_resource_init_layout(rsc, screen->dev.arch, handle.stride,
                                      0)) {
      pan_bo_unref(rsc->bo);
      renderonly_scanout_destroy(rsc->scanout, screen->ro);
      rsc->scanout = NULL;
      return false;
   }
   return true;
}

/* AFBC for this screen's render targets: the GPU has it and
 * PAN_MESA_DEBUG=noafbc does not forbid it.
 */
static bool
panfrost_screen_afbc(struct panfrost_screen *screen)
{
   return screen->dev.has_afbc && !(screen->debug & PANFROST_DBG_NOAFBC);
}

/* Zeroed headers are transparent black superblocks: a fresh AFBC
 * resource must not show what a recycled BO held (a pass that does not
 * clear it loads its headers).
 */
static bool
panfrost_resource_clear_afbc_headers(struct panfrost_resource *rsc)
{
   uint8_t *cpu = pan_bo_mmap(rsc->bo);

   if (!cpu)
      return false;
   for (unsigned l = 0; l < rsc->layout.nr_levels; ++l) {
      for (unsigned layer = 0; layer < rsc->image.array_size; ++layer) {
         uint64_t off =
            pan_image_surface_offset_B(&rsc->image, &rsc->layout, l, layer, 0);
         memset(cpu + off, 0, rsc->layout.levels[l].afbc_header_size_B);
      }
   }
   return true;
}

/* modifier: DRM_FORMAT_MOD_INVALID lets the usage decide. */
static struct pipe_resource *
panfrost_resource_create_modifier(struct pipe_screen *pscreen,
                                  const struct pipe_resource *templ,
                                  uint64_t modifier)
{
   struct panfrost_screen *screen = panfrost_screen(pscreen);
   struct panfrost_resource *rsc = panfrost_resource_alloc(pscreen, templ);

   if (!rsc)
      return NULL;

   if (screen->ro && (templ->bind & PIPE_BIND_SCANOUT)) {
      /* The display allocates it: linear. */
      rsc->modifier = DRM_FORMAT_MOD_LINEAR;
      if (!panfrost_resource_create_scanout(screen, rsc)) {
         FREE(rsc);
         return NULL;
      }
      return &rsc->base;
   }

   rsc->modifier =
      modifier != DRM_FORMAT_MOD_INVALID
         ? modifier
         : panfrost_resource_best_modifier(templ, screen->dev.arch,
                                           panfrost_screen_afbc(screen));
   if (!panfrost_resource_init_layout(rsc, screen->dev.arch, 0, 0)) {
      mesa_loge("panfrost: no layout for a %ux%ux%u %s resource",
                templ->width0, templ->height0, templ->depth0,
                util_format_short_name(templ->format));
      FREE(rsc);
      return NULL;
   }

   uint32_t flags = (templ->bind & PIPE_BIND_SHARED) ? PAN_BO_SHARED : 0;
   rsc->bo = pan_bo_create(&screen->dev, MAX2(rsc->layout.data_size_B, 1), flags,
                           panfrost_resource_label(templ));
   if (!rsc->bo) {
      mesa_loge("panfrost: out of memory allocating %" PRIu64 " bytes",
                rsc->layout.data_size_B);
      FREE(rsc);
      return NULL;
   }

   if (rsc->image.tiling == PAN_IMAGE_TILING_AFBC &&
       !panfrost_resource_clear_afbc_headers(rsc)) {
      pan_bo_unref(rsc->bo);
      FREE(rsc);
      return NULL;
   }

   if (templ->format == PIPE_FORMAT_Z32_FLOAT_S8X24_UINT) {
      struct pipe_resource s_templ = *templ;
      s_templ.format = PIPE_FORMAT_S8_UINT;
      s_templ.bind &= ~(PIPE_BIND_SHARED | PIPE_BIND_SCANOUT);
      struct pipe_resource *s =
         panfrost_resource_create_modifier(pscreen, &s_templ, rsc->modifier);
      if (!s) {
         pan_bo_unref(rsc->bo);
         FREE(rsc);
         return NULL;
      }
      rsc->stencil = panfrost_resource(s);
   }
   return &rsc->base;
}

static struct pipe_resource *
panfrost_resource_create(struct pipe_screen *pscreen,
                         const struct pipe_resource *templ)
{
   return panfrost_resource_create_modifier(pscreen, templ,
                                            DRM_FORMAT_MOD_INVALID);
}

static bool
has_modifier(const uint64_t *modifiers, int count, uint64_t m)
{
   for (int i = 0; i < count; ++i) {
      if (modifiers[i] == m)
         return true;
   }
   return false;
}

static struct pipe_resource *
panfrost_resource_create_with_modifiers(struct pipe_screen *pscreen,
                                        const struct pipe_resource *templ,
                                        const uint64_t *modifiers, int count)
{
   struct panfrost_screen *screen = panfrost_screen(pscreen);
   const uint64_t tiled = DRM_FORMAT_MOD_ARM_16X16_BLOCK_U_INTERLEAVED;

   /* The caller's list names the layouts its consumer reads: AFBC, then
    * tiled when allowed and the GPU can, else linear. Display memory is
    * linear.
    */
   if (has_modifier(modifiers, count, PANFROST_MOD_AFBC) &&
       !(screen->ro && (templ->bind & PIPE_BIND_SCANOUT)) &&
       panfrost_screen_afbc(screen) &&
       panfrost_resource_can_afbc(templ, screen->dev.arch))
      return panfrost_resource_create_modifier(pscreen, templ,
                                               PANFROST_MOD_AFBC);
   if (has_modifier(modifiers, count, tiled) &&
       !(screen->ro && (templ->bind & PIPE_BIND_SCANOUT)) &&
       panfrost_resource_can_tile(templ, screen->dev.arch))
      return panfrost_resource_create_modifier(pscreen, templ, tiled);
   if (has_modifier(modifiers, count, DRM_FORMAT_MOD_LINEAR))
      return panfrost_resource_create_modifier(pscreen, templ,
                                               DRM_FORMAT_MOD_LINEAR);
   if (has_modifier(modifiers, count, DRM_FORMAT_MOD_INVALID))
      return panfrost_resource_create(pscreen, templ);
   return NULL;
}

/* The pixels of every level and layer of src copied into dst by a blit
 * per level, in the linear twin of the format (sRGB copied as bits).
 */
static void
panfrost_resource_copy_levels(struct panfrost_context *ctx,
                              struct pipe_resource *dst,
                              struct pipe_resource *src)
{
   enum pipe_format fmt = util_format_linear(src->format);
   const struct util_format_description *d = util_format_description(fmt);
   /* Depth and stencil are copied by the blitter's gl_FragDepth and
    * stencil-reference shaders.
    */
   unsigned mask = !util_format_is_depth_or_stencil(fmt) ? PIPE_MASK_RGBA
                   : (util_format_has_depth(d) ? PIPE_MASK_Z : 0) |
                        (util_format_has_stencil(d) ? PIPE_MASK_S : 0);

   for (unsigned l = 0; l <= src->last_level; ++l) {
      struct pipe_blit_info info = {
         .src = { .resource = src, .level = l, .format = fmt },
         .dst = { .resource = dst, .level = l, .format = fmt },
         .mask = mask,
         .filter = PIPE_TEX_FILTER_NEAREST,
      };
      u_box_3d(0, 0, 0, u_minify(src->width0, l), u_minify(src->height0, l),
               util_num_layers(src, l), &info.src.box);
      info.dst.box = info.src.box;
      panfrost_blit_draw(ctx, &info);
   }
}

bool
panfrost_resource_convert(struct pipe_context *pctx,
                          struct panfrost_resource *rsc)
{
   struct panfrost_context *ctx = panfrost_context(pctx);

   if (!panfrost_resource_is_afbc(rsc))
      return true;
   /* Another process reads and writes this BO as AFBC: a new one in
    * another layout would leave it behind.
    */
   if (rsc->bo->flags & PAN_BO_SHARED) {
      mesa_loge("panfrost: an AFBC %s image shared through a handle cannot "
                "be mapped, uploaded to or bound as a storage image",
                util_format_short_name(rsc->base.format));
      return false;
   }

   /* A pass still writing it goes first. */
   if (panfrost_batch_uses(ctx, &rsc->base))
      panfrost_batch_submit(ctx);

   struct pipe_resource *tmp = panfrost_resource_create_modifier(
      rsc->base.screen, &rsc->base,
      DRM_FORMAT_MOD_ARM_16X16_BLOCK_U_INTERLEAVED);
   if (!tmp) {
      mesa_loge("panfrost: no memory to convert an AFBC %s resource",
                util_format_short_name(rsc->base.format));
      return false;
   }
   struct panfrost_resource *t = panfrost_resource(tmp);

   if (rsc->afbc_written) {
      panfrost_resource_copy_levels(ctx, tmp, &rsc->base);
      if (panfrost_batch_uses(ctx, tmp))
         panfrost_batch_submit(ctx);
      if (!pan_bo_wait(t->bo, INT64_MAX, true)) {
         mesa_loge("panfrost: converting an AFBC resource failed");
         pipe_resource_reference(&tmp, NULL);
         return false;
      }
   }

   /* rsc takes the new pixels; tmp leaves with the AFBC ones. */
   struct pan_bo *bo = rsc->bo;
   rsc->bo = t->bo;
   t->bo = bo;
   rsc->image = t->image;
   rsc->layout = t->layout;
   rsc->modifier = t->modifier;
   rsc->afbc_written = false;
   rsc->layout_seq++;
   pipe_resource_reference(&tmp, NULL);
   /* Descriptor tables are built again with views packed anew. */
   ctx->dirty |= PANFROST_DIRTY_TEXTURES;
   return true;
}

static void
panfrost_resource_destroy(struct pipe_screen *pscreen,
                          struct pipe_resource *prsc)
{
   struct panfrost_screen *screen = panfrost_screen(pscreen);
   struct panfrost_resource *rsc = panfrost_resource(prsc);

   if (rsc->scanout)
      renderonly_scanout_destroy(rsc->scanout, screen->ro);
   if (rsc->bo)
      pan_bo_unref(rsc->bo);
   if (rsc->stencil)
      panfrost_resource_destroy(pscreen, &rsc->stencil->base);
   FREE(rsc);
}

static struct pipe_resource *
panfrost_resource_from_handle(struct pipe_screen *pscreen,
                              const struct pipe_resource *templ,
                              struct winsys_handle *whandle, unsigned usage)
{
   struct panfrost_screen *screen = panfrost_screen(pscreen);

   if (whandle->type != WINSYS_HANDLE_TYPE_FD)
      return NULL;
   uint64_t modifier = whandle->modifier == DRM_FORMAT_MOD_INVALID
                          ? DRM_FORMAT_MOD_LINEAR
                          : whandle->modifier;
   bool afbc = modifier == PANFROST_MOD_AFBC;
   if (modifier != DRM_FORMAT_MOD_LINEAR &&
       !(modifier == DRM_FORMAT_MOD_ARM_16X16_BLOCK_U_INTERLEAVED &&
         panfrost_resource_can_tile(templ, screen->dev.arch)) &&
       !(afbc && panfrost_screen_afbc(screen) &&
         panfrost_resource_can_afbc(templ, screen->dev.arch))) {
      mesa_loge("panfrost: cannot import %s with modifier 0x%" PRIx64,
                util_format_short_name(templ->format), modifier);
      return NULL;
   }
   /* One handle cannot carry the separate stencil plane. */
   if (templ->format == PIPE_FORMAT_Z32_FLOAT_S8X24_UINT)
      return NULL;

   struct panfrost_resource *rsc = panfrost_resource_alloc(pscreen, templ);
   if (!rsc)
      return NULL;

   rsc->modifier = modifier;
   rsc->bo = pan_bo_import(&screen->dev, whandle->handle);
   if (!rsc->bo) {
      FREE(rsc);
      return NULL;
   }

   /* An AFBC image's header rows follow from its width: the exported
    * stride is that row, nothing to obey.
    */
   const struct pan_image_level *l0 = &rsc->layout.levels[0];
   if (!panfrost_resource_init_layout(rsc, screen->dev.arch,
                                      afbc ? 0 : whandle->stride,
                                      afbc ? 0 : whandle->offset) ||
       (afbc && (whandle->stride != l0->row_stride_B || whandle->offset)) ||
       l0->offset_B + l0->size_B > rsc->bo->size_B) {
      mesa_loge("panfrost: imported buffer too small for %ux%u %s",
                templ->width0, templ->height0,
                util_format_short_name(templ->format));
      pan_bo_unref(rsc->bo);
      FREE(rsc);
      return NULL;
   }
   return &rsc->base;
}

static bool
panfrost_resource_get_handle(struct pipe_screen *pscreen,
                             struct pipe_context *pctx,
                             struct pipe_resource *prsc,
                             struct winsys_handle *whandle, unsigned usage)
{
   struct panfrost_resource *rsc = panfrost_resource(prsc);

   whandle->stride = rsc->layout.levels[0].row_stride_B;
   whandle->offset = rsc->layout.levels[0].offset_B;
   whandle->modifier = rsc->modifier;

   switch (whandle->type) {
   case WINSYS_HANDLE_TYPE_KMS:
      if (rsc->scanout)
         return renderonly_get_handle(rsc->scanout, whandle);
      whandle->handle = rsc->bo->handle;
      rsc->exported = true; /* the handle names this BO for good */
      return true;
   case WINSYS_HANDLE_TYPE_FD: {
      int fd = pan_bo_export(rsc->bo);
      if (fd < 0)
         return false;
      whandle->handle = fd;
      return true;
   }
   default:
      return false;
   }
}

static void
panfrost_query_dmabuf_modifiers(struct pipe_screen *pscreen,
                                enum pipe_format format, int max,
                                uint64_t *modifiers, unsigned int *external_only,
                                int *count)
{
   struct panfrost_screen *screen = panfrost_screen(pscreen);
   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = format,
      .width0 = 1,
      .height0 = 1,
      .depth0 = 1,
      .array_size = 1,
   };
   const uint64_t all[] = {
      PANFROST_MOD_AFBC,
      DRM_FORMAT_MOD_ARM_16X16_BLOCK_U_INTERLEAVED,
      DRM_FORMAT_MOD_LINEAR,
   };
   /* The better ones for the GPU first: AFBC when the format compresses,
    * tiled when it tiles.
    */
   unsigned first =
      panfrost_screen_afbc(screen) &&
            panfrost_resource_can_afbc(&templ, screen->dev.arch)
         ? 0
      : panfrost_resource_can_tile(&templ, screen->dev.arch) ? 1
                                                             : 2;

   *count = ARRAY_SIZE(all) - first;
   for (int i = 0; i < *count && i < max; ++i) {
      modifiers[i] = all[first + i];
      if (external_only)
         external_only[i] = false;
   }
}

/* What the query lists, one plane each (the AFBC headers and body are one
 * plane).
 */
static bool
panfrost_is_dmabuf_modifier_supported(struct pipe_screen *pscreen,
                                      uint64_t modifier,
                                      enum pipe_format format,
                                      bool *external_only)
{
   uint64_t mods[4];
   int count = 0;

   panfrost_query_dmabuf_modifiers(pscreen, format, ARRAY_SIZE(mods), mods,
                                   NULL, &count);
   if (external_only)
      *external_only = false;
   return has_modifier(mods, MIN2(count, (int)ARRAY_SIZE(mods)), modifier);
}

static unsigned
panfrost_get_dmabuf_modifier_planes(struct pipe_screen *pscreen,
                                    uint64_t modifier, enum pipe_format format)
{
   return util_format_get_num_planes(format);
}

void
panfrost_screen_init_resource(struct pipe_screen *pscreen)
{
   pscreen->resource_create = panfrost_resource_create;
   pscreen->resource_create_with_modifiers =
      panfrost_resource_create_with_modifiers;
   pscreen->resource_destroy = panfrost_resource_destroy;
   pscreen->resource_from_handle = panfrost_resource_from_handle;
   pscreen->resource_get_handle = panfrost_resource_get_handle;
   pscreen->query_dmabuf_modifiers = panfrost_query_dmabuf_modifiers;
   pscreen->is_dmabuf_modifier_supported =
      panfrost_is_dmabuf_modifier_supported;
   pscreen->get_dmabuf_modifier_planes = panfrost_get_dmabuf_modifier_planes;
}
