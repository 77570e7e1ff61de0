/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* GLSL images: bindings and their descriptors (pan_image.h). */

#include <stdio.h>
#include <string.h>

#include "util/format/u_format.h"
#include "util/u_dump.h"
#include "util/u_inlines.h"

#include "pan_arch.h"
#include "pan_batch.h"
#include "pan_context.h"
#include "pan_image.h"
#include "pan_resource.h"
#include "pan_screen.h"
#include "pan_texture.h"
#include "pan_uinterleave.h"

static void
panfrost_set_shader_images(struct pipe_context *pctx,
                           enum pipe_shader_type stage, unsigned start,
                           unsigned count, unsigned unbind_trailing,
                           const struct pipe_image_view *views)
{
   struct panfrost_compute_ctx *c = &panfrost_context(pctx)->compute;

   for (unsigned i = start; i < start + count + unbind_trailing; ++i) {
      struct pipe_image_view *slot = &c->images[stage][i];
      const struct pipe_image_view *v =
         views && i < start + count ? &views[i - start] : NULL;

      if (i >= PANFROST_MAX_IMAGES)
         break;
      /* Storage images cannot be AFBC: such a texture is converted, or
       * left unbound when it must keep its layout (shared).
       */
      if (v && v->resource && v->resource->target != PIPE_BUFFER &&
          !panfrost_resource_convert(pctx, panfrost_resource(v->resource)))
         v = NULL;
      if (v && v->resource) {
         pipe_resource_reference(&slot->resource, v->resource);
         slot->format = v->format;
         slot->access = v->access;
         slot->shader_access = v->shader_access;
         slot->u = v->u;
      } else {
         pipe_resource_reference(&slot->resource, NULL);
         memset(slot, 0, sizeof(*slot));
      }
   }
   /* Draws rebuild their resource tables and push words (the sizes)
    * with the textures'. */
   if (stage == PIPE_SHADER_VERTEX || stage == PIPE_SHADER_FRAGMENT)
      panfrost_context(pctx)->dirty |= PANFROST_DIRTY_TEXTURES;
}

/* The texels of a buffer image: its range clamped to the buffer and to
 * the descriptors' 16-bit width, as texture buffers are (pan_texture.c). */
static unsigned
buffer_elements(const struct pipe_image_view *v)
{
   const struct pipe_resource *r = v->resource;
   unsigned texel_B = util_format_get_blocksize(v->format);

   if (!texel_B || v->u.buf.offset >= r->width0)
      return 0;
   unsigned size_B = MIN2(v->u.buf.size, r->width0 - v->u.buf.offset);
   return MIN2(size_B / texel_B, PANFROST_MAX_TEXEL_BUFFER_ELEMENTS);
}

/* A buffer image as one linear row of its texels from the view's offset
 * (a 1D image to the compilers); an empty one describes one texel, which
 * the shader's bounds test (imageSize 0) never reaches. */
static void
buffer_surface(const struct pipe_image_view *v,
               struct panfrost_image_surface *s)
{
   unsigned texel_B = util_format_get_blocksize(v->format);
   unsigned elements = MAX2(buffer_elements(v), 1);

   *s = (struct panfrost_image_surface){
      .format = v->format,
      .addr = panfrost_resource(v->resource)->bo->gpu_va + v->u.buf.offset,
      .width = elements,
      .height = 1,
      .depth = 1,
      .texel_B = texel_B,
      .row_stride_B = elements * texel_B,
      .slice_stride_B = elements * texel_B,
      .size_B = (uint64_t)elements * texel_B,
   };
}

/* Checks what neither architecture can address; false with a message. */
static bool
check_view(const struct pipe_image_view *v, char *err, size_t err_size)
{
   const struct pipe_resource *r = v->resource;

   if (r->target == PIPE_BUFFER) {
      /* The texture unit's alignment of a linear base, as for texture
       * buffers (PIPE_CAP_TEXTURE_BUFFER_OFFSET_ALIGNMENT). */
      if (v->u.buf.offset % PANFROST_TEXTURE_BUFFER_ALIGN_B) {
         snprintf(err, err_size,
                  "buffer image at offset %u, not a multiple of %u bytes",
                  v->u.buf.offset, PANFROST_TEXTURE_BUFFER_ALIGN_B);
         return false;
      }
      return true;
   }
   if (r->nr_samples > 1) {
      snprintf(err, err_size, "multisampled images are not supported");
      return false;
   }
   if (v->u.tex.level > r->last_level ||
       v->u.tex.first_layer > v->u.tex.last_layer) {
      snprintf(err, err_size,
               "image view of level %u, layers %u-%u is out of its texture",
               v->u.tex.level, v->u.tex.first_layer, v->u.tex.last_layer);
      return false;
   }
   return true;
}

/* v9: a buffer image's texture descriptor, a 1D view of one plane. */
static bool
pack_buffer_image(struct panfrost_context *ctx,
                  const struct panfrost_arch_texture *t,
                  const struct pipe_image_view *v, void *desc, char *err,
                  size_t err_size)
{
   struct panfrost_image_surface s;
   buffer_surface(v, &s);
   struct panfrost_texture_view tv = {
      .target = PIPE_BUFFER,
      .format = v->format,
      .swizzle = { PIPE_SWIZZLE_X, PIPE_SWIZZLE_Y, PIPE_SWIZZLE_Z,
                   PIPE_SWIZZLE_W },
      .width = s.width,
      .height = 1,
      .depth = 1,
      .levels = 1,
      .layers = 1,
   };
   struct pan_ptr plane =
      pan_pool_alloc(&ctx->batch.pool, t->plane_size_B, t->align_B);
   if (!plane.cpu) {
      snprintf(err, err_size, "out of memory for image planes");
      return false;
   }
   struct panfrost_texture_plane p = {
      .addr = s.addr,
      .size_B = s.size_B,
      .slice_stride_B = s.slice_stride_B,
      .row_stride_B = s.row_stride_B,
      .texel_B = s.texel_B,
   };
   t->emit_plane(plane.cpu, &p);
   tv.planes = plane.gpu;
   if (!t->emit_texture(desc, &tv)) {
      snprintf(err, err_size, "format %s of a buffer image is not supported",
               util_format_short_name(v->format));
      return false;
   }
   return true;
}

/* Packs the texture descriptor of v into desc, its plane in the pool;
 * false with a message in err. */
static bool
pack_image(struct panfrost_context *ctx, const struct pipe_image_view *v,
           void *desc, char *err, size_t err_size)
{
   const struct panfrost_arch *arch = panfrost_screen(ctx->base.screen)->arch;
   const struct panfrost_arch_texture *t = arch ? arch->texture : NULL;
   struct panfrost_resource *rsc = panfrost_resource(v->resource);
   const struct pipe_resource *r = v->resource;
   unsigned level = v->u.tex.level;

   if (!t || !arch->draw) {
      snprintf(err, err_size, "images are not supported on this GPU yet");
      return false;
   }
   if (!check_view(v, err, err_size))
      return false;
   if (r->target == PIPE_BUFFER)
      return pack_buffer_image(ctx, t, v, desc, err, err_size);

   /* One layer of a 3D texture bound alone is a 2D image: its slice is
    * the plane. */
   bool is_3d = r->target == PIPE_TEXTURE_3D &&
                !(v->u.tex.first_layer == v->u.tex.last_layer &&
                  u_minify(r->depth0, level) > 1);
   unsigned layers = v->u.tex.last_layer - v->u.tex.first_layer + 1;
   /* So is one face of a cube map or cube map array (GL's non-layered
    * binding): the cube dimension takes whole cubes only. */
   bool cube = r->target == PIPE_TEXTURE_CUBE ||
               r->target == PIPE_TEXTURE_CUBE_ARRAY;
   bool as_2d = (r->target == PIPE_TEXTURE_3D && !is_3d) ||
                (cube && layers % 6);
   struct panfrost_texture_view tv = {
      .target = as_2d ? PIPE_TEXTURE_2D : r->target,
      .format = v->format,
      .swizzle = { PIPE_SWIZZLE_X, PIPE_SWIZZLE_Y, PIPE_SWIZZLE_Z,
                   PIPE_SWIZZLE_W },
      .width = u_minify(r->width0, level),
      .height = u_minify(r->height0, level),
      .depth = is_3d ? u_minify(r->depth0, level) : 1,
      .levels = 1,
      .layers = is_3d ? 1 : layers,
      .u_interleaved = panfrost_resource_is_tiled(rsc),
   };
   struct pan_ptr planes =
      pan_pool_alloc(&ctx->batch.pool, tv.layers * t->plane_size_B, t->align_B);
   if (!planes.cpu) {
      snprintf(err, err_size, "out of memory for image planes");
      return false;
   }
   const struct pan_image_level *lv = &rsc->layout.levels[level];
   for (unsigned layer = 0; layer < tv.layers; ++layer) {
      unsigned z = is_3d ? 0 : v->u.tex.first_layer + layer;
      bool slice = r->target == PIPE_TEXTURE_3D;
      uint64_t offset_B = pan_image_surface_offset_B(
         &rsc->image, &rsc->layout, level, slice ? 0 : z, slice ? z : 0);
      struct panfrost_texture_plane p = {
         .addr = rsc->bo->gpu_va + offset_B,
         .size_B = is_3d   ? lv->surface_stride_B * lv->depth_px
                   : slice ? lv->surface_stride_B
                           : lv->size_B,
         .slice_stride_B = lv->surface_stride_B,
         .row_stride_B = lv->row_stride_B,
         .texel_B = util_format_get_blocksize(tv.format),
         .u_interleaved = tv.u_interleaved,
      };
      t->emit_plane((uint8_t *)planes.cpu + layer * t->plane_size_B, &p);
   }
   tv.planes = planes.gpu;
   if (!t->emit_texture(desc, &tv)) {
      snprintf(err, err_size, "format %s of a %s image is not supported",
               util_format_short_name(v->format),
               util_str_tex_target(r->target, true));
      return false;
   }
   return true;
}

/* One layer of a 3D texture bound alone is a 2D image of that slice. */
static bool
whole_3d(const struct pipe_image_view *v)
{
   const struct pipe_resource *r = v->resource;
   return r->target == PIPE_TEXTURE_3D &&
          !(v->u.tex.first_layer == v->u.tex.last_layer &&
            u_minify(r->depth0, v->u.tex.level) > 1);
}

/* Bifrost: the view as the attribute unit addresses it, a 3D block of
 * texels whose slices are the 3D level's or the bound layers. */
static void
image_surface(const struct pipe_image_view *v, struct panfrost_image_surface *s)
{
   struct panfrost_resource *rsc = panfrost_resource(v->resource);
   const struct pipe_resource *r = v->resource;
   unsigned level = v->u.tex.level, first = v->u.tex.first_layer;
   const struct pan_image_level *lv = &rsc->layout.levels[level];
   bool slices = r->target == PIPE_TEXTURE_3D, is_3d = whole_3d(v);

   *s = (struct panfrost_image_surface){
      .format = v->format,
      .width = u_minify(r->width0, level),
      .height =
         r->target == PIPE_TEXTURE_1D_ARRAY ? 1 : u_minify(r->height0, level),
      .depth = is_3d    ? u_minify(r->depth0, level)
               : slices ? 1
                        : v->u.tex.last_layer - first + 1,
      .texel_B = util_format_get_blocksize(v->format),
      .row_stride_B = lv->row_stride_B,
      .slice_stride_B =
         slices ? lv->surface_stride_B : rsc->layout.array_stride_B,
   };
   uint64_t offset_B = pan_image_surface_offset_B(&rsc->image, &rsc->layout,
                                                  level, slices ? 0 : first,
                                                  slices && !is_3d ? first : 0);
   s->addr = rsc->bo->gpu_va + offset_B;
   s->u_interleaved = panfrost_resource_is_tiled(rsc);
   /* A tiled surface's rows of tiles are row_stride_B apart. */
   s->size_B = (uint64_t)(s->depth - 1) * s->slice_stride_B +
               (s->u_interleaved
                   ? (uint64_t)DIV_ROUND_UP(s->height, PAN_UTILE_DIM_EL) *
                        s->row_stride_B
                   : (uint64_t)(s->height - 1) * s->row_stride_B +
                        (uint64_t)s->width * s->texel_B);
}

bool
panfrost_image_attributes(struct panfrost_context *ctx,
                          enum pipe_shader_type stage, unsigned count,
                          uint64_t *attrs, uint64_t *bufs, char *err,
                          size_t err_size)
{
   const struct panfrost_arch *arch = panfrost_screen(ctx->base.screen)->arch;

   if (!arch || !arch->emit_image) {
      snprintf(err, err_size, "images are not supported on this GPU yet");
      return false;
   }
   struct pan_ptr a = pan_pool_alloc(
      &ctx->batch.pool, count * arch->image_attr_size_B, arch->image_align_B);
   struct pan_ptr b = pan_pool_alloc(
      &ctx->batch.pool, count * arch->image_bufs_size_B, arch->image_align_B);
   if (!a.cpu || !b.cpu) {
      snprintf(err, err_size, "out of memory for image descriptors");
      return false;
   }
   for (unsigned i = 0; i < count; ++i) {
      const struct pipe_image_view *v = &ctx->compute.images[stage][i];
      struct panfrost_image_surface s;

      /* Unbound: the shader's bounds checks never reach the records. */
      if (!v->resource) {
         memset((uint8_t *)a.cpu + i * arch->image_attr_size_B, 0,
                arch->image_attr_size_B);
         memset((uint8_t *)b.cpu + i * arch->image_bufs_size_B, 0,
                arch->image_bufs_size_B);
         continue;
      }
      if (!check_view(v, err, err_size))
         return false;
      if (v->resource->target == PIPE_BUFFER)
         buffer_surface(v, &s);
      else
         image_surface(v, &s);
      if (!arch->emit_image((uint8_t *)a.cpu + i * arch->image_attr_size_B,
                            (uint8_t *)b.cpu + i * arch->image_bufs_size_B, i,
                            &s)) {
         snprintf(err, err_size, "format %s of an image is not supported",
                  util_format_short_name(v->format));
         return false;
      }
      bool write = v->access & PIPE_IMAGE_ACCESS_WRITE;
      if (!panfrost_batch_add_bo(ctx, panfrost_resource(v->resource)->bo,
                                 PAN_BO_ACCESS_READ |
                                    (write ? PAN_BO_ACCESS_WRITE : 0))) {
         snprintf(err, err_size, "out of memory");
         return false;
      }
   }
   *attrs = a.gpu;
   *bufs = b.gpu;
   return true;
}

uint64_t
panfrost_image_table(struct panfrost_context *ctx, enum pipe_shader_type stage,
                     unsigned count, char *err, size_t err_size)
{
   const struct panfrost_arch *arch = panfrost_screen(ctx->base.screen)->arch;
   const struct panfrost_arch_texture *t = arch ? arch->texture : NULL;

   if (!t) {
      snprintf(err, err_size, "images are not supported on this GPU yet");
      return 0;
   }
   struct pan_ptr table =
      pan_pool_alloc(&ctx->batch.pool, count * t->texture_size_B, t->align_B);
   if (!table.cpu) {
      snprintf(err, err_size, "out of memory for image descriptors");
      return 0;
   }
   for (unsigned i = 0; i < count; ++i) {
      const struct pipe_image_view *v = &ctx->compute.images[stage][i];
      void *desc = (uint8_t *)table.cpu + i * t->texture_size_B;

      memset(desc, 0, t->texture_size_B);
      if (!v->resource)
         continue;
      bool write = v->access & PIPE_IMAGE_ACCESS_WRITE;
      if (!pack_image(ctx, v, desc, err, err_size))
         return 0;
      if (!panfrost_batch_add_bo(ctx, panfrost_resource(v->resource)->bo,
                                 PAN_BO_ACCESS_READ |
                                    (write ? PAN_BO_ACCESS_WRITE : 0))) {
         snprintf(err, err_size, "out of memory");
         return 0;
      }
   }
   return table.gpu;
}

uint32_t
panfrost_image_size(struct panfrost_context *ctx, enum pipe_shader_type stage,
                    unsigned i, unsigned c)
{
   const struct pipe_image_view *v = &ctx->compute.images[stage][i];
   const struct pipe_resource *r = v->resource;

   if (!r || c > 2)
      return 0;
   if (r->target == PIPE_BUFFER)
      return c ? 0 : buffer_elements(v);
   unsigned level = v->u.tex.level;
   unsigned layers = v->u.tex.last_layer - v->u.tex.first_layer + 1;
   if (c == 0)
      return u_minify(r->width0, level);
   switch (r->target) {
   case PIPE_TEXTURE_1D_ARRAY:
      return c == 1 ? layers : 0;
   case PIPE_TEXTURE_2D_ARRAY:
      return c == 1 ? u_minify(r->height0, level) : layers;
   case PIPE_TEXTURE_CUBE_ARRAY:
      return c == 1 ? u_minify(r->height0, level) : layers / 6;
   case PIPE_TEXTURE_3D:
      return c == 1 ? u_minify(r->height0, level) : u_minify(r->depth0, level);
   default:
      return c == 1 ? u_minify(r->height0, level) : 0;
   }
}

void
panfrost_context_release_images(struct panfrost_context *ctx)
{
   for (unsigned s = 0; s < PIPE_SHADER_TYPES; ++s) {
      for (unsigned i = 0; i < PANFROST_MAX_IMAGES; ++i)
         pipe_resource_reference(&ctx->compute.images[s][i].resource, NULL);
   }
}

void
panfrost_context_init_images(struct pipe_context *pctx)
{
   pctx->set_shader_images = panfrost_set_shader_images;
}
