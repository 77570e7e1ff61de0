/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Sampler views and sampler states.  Their hardware descriptors are packed
 * once, when the frontend creates them; a draw only copies them into its
 * resource tables (pan_draw_vbo.c) when the bindings changed.
 */

#include <stdio.h>

#include "util/format/u_format.h"
#include "util/u_dump.h"
#include "util/u_inlines.h"
#include "util/u_math.h"
#include "util/u_memory.h"

#include "pan_arch.h"
#include "pan_context.h"
#include "pan_resource.h"
#include "pan_screen.h"
#include "pan_texture.h"

static const struct panfrost_arch_texture *
arch_texture(struct pipe_context *pctx)
{
   const struct panfrost_arch *arch = panfrost_screen(pctx->screen)->arch;
   return arch ? arch->texture : NULL;
}

unsigned
panfrost_buffer_view_elements(const struct pipe_sampler_view *v)
{
   const struct pipe_resource *r = v->texture;
   unsigned texel_B = util_format_get_blocksize(v->format);

   if (!r || !texel_B || v->u.buf.offset >= r->width0)
      return 0;
   unsigned size_B = MIN2(v->u.buf.size, r->width0 - v->u.buf.offset);
   return MIN2(size_B / texel_B, PANFROST_MAX_TEXEL_BUFFER_ELEMENTS);
}

/* A buffer view: one linear 1D level of its elements, starting at the
 * view's offset.  The address is the BO's when the view is packed: when
 * pan_shadow.c gives the resource new storage it bumps layout_seq and the
 * view repacks (panfrost_sampler_view_refresh); when GL gives a buffer new
 * storage it is a new resource, and the state tracker makes a new view.
 */
static bool
pack_buffer_view(struct panfrost_context *ctx,
                 const struct panfrost_arch_texture *t,
                 struct panfrost_sampler_view *v)
{
   struct pipe_sampler_view *b = &v->base;
   struct panfrost_resource *rsc = panfrost_resource(b->texture);

   if (b->target != PIPE_BUFFER || b->texture->target != PIPE_BUFFER) {
      snprintf(v->error, sizeof(v->error), "buffer view of a %s "
                                           "resource as a %s",
               util_str_tex_target(b->texture->target, true),
               util_str_tex_target(b->target, true));
      return false;
   }
   if (b->u.buf.offset % PANFROST_TEXTURE_BUFFER_ALIGN_B) {
      snprintf(v->error, sizeof(v->error), "buffer view at offset %u, not "
                                           "a multiple of %u bytes",
               b->u.buf.offset, PANFROST_TEXTURE_BUFFER_ALIGN_B);
      return false;
   }

   /* The descriptor has no empty size: a view shorter than one texel
    * describes one, which stays inside the buffer's BO (page-sized); the
    * shader's textureSize() still reads 0 (pan_draw_vbo.c).
    */
   unsigned elements = MAX2(panfrost_buffer_view_elements(b), 1);
   unsigned texel_B = util_format_get_blocksize(b->format);
   struct panfrost_texture_view tv = {
      .target = PIPE_BUFFER,
      .format = b->format,
      .swizzle = { b->swizzle_r, b->swizzle_g, b->swizzle_b, b->swizzle_a },
      .width = elements,
      .height = 1,
      .depth = 1,
      .levels = 1,
      .layers = 1,
      .samples = 1,
   };
   struct panfrost_texture_plane p = {
      .addr = rsc->bo->gpu_va + b->u.buf.offset,
      .size_B = (uint64_t)elements * texel_B,
      .row_stride_B = elements * texel_B,
      .slice_stride_B = elements * texel_B,
      .texel_B = texel_B,
   };

   v->bo = pan_bo_create(&panfrost_screen(ctx->base.screen)->dev,
                         t->plane_size_B, 0, "Texture buffer plane");
   uint8_t *plane = v->bo ? pan_bo_mmap(v->bo) : NULL;
   if (!plane) {
      snprintf(v->error, sizeof(v->error), "out of memory for its plane");
      return false;
   }
   t->emit_plane(plane, &p);
   tv.planes = v->bo->gpu_va;
   if (t->texture_size_B > sizeof(v->desc) || !t->emit_texture(v->desc, &tv)) {
      snprintf(v->error, sizeof(v->error), "format %s of a buffer view "
                                           "cannot be sampled",
               util_format_short_name(b->format));
      return false;
   }
   return true;
}

/* Packs the planes (one per level of each layer, layer-major) and the
 * texture descriptor of a view; false after setting v->error.
 */
static bool
pack_view(struct panfrost_context *ctx, struct panfrost_sampler_view *v)
{
   const struct panfrost_arch_texture *t = arch_texture(&ctx->base);
   struct pipe_sampler_view *b = &v->base;
   struct panfrost_resource *rsc = panfrost_resource(b->texture);
   const struct pipe_resource *r = b->texture;

   if (!t) {
      snprintf(v->error, sizeof(v->error), "no texture descriptors on this "
                                           "GPU yet");
      return false;
   }
   v->layout_seq = rsc->layout_seq;
   if (b->target == PIPE_BUFFER || r->target == PIPE_BUFFER)
      return pack_buffer_view(ctx, t, v);
   if (b->u.tex.first_level > b->u.tex.last_level ||
       b->u.tex.last_level > r->last_level ||
       b->u.tex.first_layer > b->u.tex.last_layer) {
      snprintf(v->error, sizeof(v->error), "view of levels %u-%u, layers "
                                           "%u-%u is out of its texture",
               b->u.tex.first_level, b->u.tex.last_level,
               b->u.tex.first_layer, b->u.tex.last_layer);
      return false;
   }

   unsigned first = b->u.tex.first_level;
   /* A 2D view of a 3D texture (the preload of a pass rendering one of
    * its slices, pan_preload.c) is the slice first_layer.
    */
   bool slice_view = r->target == PIPE_TEXTURE_3D && b->target != r->target;
   bool is_3d = r->target == PIPE_TEXTURE_3D && !slice_view;
   struct panfrost_texture_view tv = {
      .target = b->target,
      .format = panfrost_plane_format(b->format),
      .swizzle = { b->swizzle_r, b->swizzle_g, b->swizzle_b, b->swizzle_a },
      .width = u_minify(r->width0, first),
      .height = u_minify(r->height0, first),
      .depth = is_3d ? u_minify(r->depth0, first) : 1,
      .levels = b->u.tex.last_level - first + 1,
      .layers = is_3d ? 1 : b->u.tex.last_layer - b->u.tex.first_layer + 1,
      .samples = MAX2(r->nr_samples, 1),
      .u_interleaved = panfrost_resource_is_tiled(rsc),
      .afbc = panfrost_resource_is_afbc(rsc),
   };
   /* Bifrost names each sample's surface (v7 after the levels of a
    * layer, v6 innermost); v9's plane holds the samples a slice stride
    * apart.
    */
   unsigned arch = panfrost_device(ctx->base.screen)->arch;
   unsigned sample_planes = arch < 9 ? tv.samples : 1;
   unsigned n = tv.levels * tv.layers * sample_planes;
   unsigned faces = tv.target == PIPE_TEXTURE_CUBE ||
                          tv.target == PIPE_TEXTURE_CUBE_ARRAY
                       ? 6
                       : 1;

   v->bo = pan_bo_create(&panfrost_screen(ctx->base.screen)->dev,
                         n * t->plane_size_B, 0, "Texture planes");
   uint8_t *planes = v->bo ? pan_bo_mmap(v->bo) : NULL;
   if (!planes) {
      snprintf(v->error, sizeof(v->error), "out of memory for its planes");
      return false;
   }
   for (unsigned layer = 0; layer < tv.layers; ++layer) {
      for (unsigned s = 0; s < sample_planes; ++s) {
         for (unsigned l = 0; l < tv.levels; ++l) {
            const struct pan_image_level *lv = &rsc->layout.levels[first + l];
            uint64_t offset_B =
               slice_view
                  ? pan_image_surface_offset_B(&rsc->image, &rsc->layout,
                                               first + l, 0,
                                               b->u.tex.first_layer)
                  : pan_image_surface_offset_B(
                       &rsc->image, &rsc->layout, first + l,
                       is_3d ? 0 : b->u.tex.first_layer + layer, s);
            struct panfrost_texture_plane p = {
               .addr = rsc->bo->gpu_va + offset_B,
               .size_B =
                  is_3d        ? lv->surface_stride_B * lv->depth_px
                  : slice_view ? lv->surface_stride_B
                               : lv->size_B,
               .slice_stride_B = lv->surface_stride_B,
               .row_stride_B = lv->row_stride_B,
               .texel_B = util_format_get_blocksize(tv.format),
               .format = tv.format,
               .u_interleaved = tv.u_interleaved,
               .afbc = tv.afbc,
               .afbc_mode = panfrost_afbc_mode(rsc->base.format),
            };
            /* v6 orders a cube's faces after its levels (cube, level,
             * face, sample); faces are layers elsewhere. */
            unsigned cube = layer / faces, face = layer % faces;
            unsigned i =
               arch == 6
                  ? ((cube * tv.levels + l) * faces + face) * sample_planes + s
                  : (layer * sample_planes + s) * tv.levels + l;
            t->emit_plane(planes + i * t->plane_size_B, &p);
         }
      }
   }
   tv.planes = v->bo->gpu_va;

   STATIC_ASSERT(sizeof(v->desc) >= 32);
   if (t->texture_size_B > sizeof(v->desc) || !t->emit_texture(v->desc, &tv)) {
      snprintf(v->error, sizeof(v->error), "format %s of a %s view cannot "
                                           "be sampled yet",
               util_format_short_name(b->format),
               util_str_tex_target(b->target, true));
      return false;
   }
   return true;
}

bool
panfrost_texture_buffer_format(struct pipe_screen *pscreen,
                               enum pipe_format format)
{
   const struct panfrost_arch *arch = panfrost_screen(pscreen)->arch;
   const struct util_format_description *d = util_format_description(format);

   /* Whole texels of 1, 2, 4, 8 or 16 bytes: 12-byte RGB32 would bring
    * ARB_texture_buffer_object_rgb32 and with it OES_texture_buffer, whose
    * image buffers views do not offer.
    */
   if (!arch || !arch->texture || !d || d->layout != UTIL_FORMAT_LAYOUT_PLAIN ||
       util_format_is_depth_or_stencil(format) ||
       !util_is_power_of_two_nonzero(d->block.bits / 8) ||
       d->block.bits % 8 || d->block.bits > 128)
      return false;
   /* The emitter is the judge: a one-texel view of the format. */
   struct panfrost_texture_view tv = {
      .target = PIPE_BUFFER,
      .format = format,
      .swizzle = { PIPE_SWIZZLE_X, PIPE_SWIZZLE_Y, PIPE_SWIZZLE_Z,
                   PIPE_SWIZZLE_W },
      .width = 1,
      .height = 1,
      .depth = 1,
      .levels = 1,
      .layers = 1,
      .samples = 1,
   };
   uint32_t desc[8];
   return arch->texture->texture_size_B <= sizeof(desc) &&
          arch->texture->emit_texture(desc, &tv);
}

static struct pipe_sampler_view *
panfrost_create_sampler_view(struct pipe_context *pctx,
                             struct pipe_resource *prsc,
                             const struct pipe_sampler_view *templ)
{
   struct panfrost_sampler_view *v = CALLOC_STRUCT(panfrost_sampler_view);

   if (!v)
      return NULL;
   v->base = *templ;
   v->base.texture = NULL;
   pipe_resource_reference(&v->base.texture, prsc);
   pipe_reference_init(&v->base.reference, 1);
   v->base.context = pctx;
   if (!pack_view(panfrost_context(pctx), v) && v->bo) {
      pan_bo_unref(v->bo);
      v->bo = NULL;
   }
   return &v->base;
}

/* Component c of textureSize() of view v at its first level, component 3
 * its level count (textureQueryLevels()); 0 when there is no view. */
uint32_t
panfrost_texture_size(const struct pipe_sampler_view *v, unsigned c)
{
   if (!v || !v->texture)
      return 0;
   if (v->target == PIPE_BUFFER)
      return c ? 0 : panfrost_buffer_view_elements(v);
   const struct pipe_resource *r = v->texture;
   unsigned level = v->u.tex.first_level;
   if (c == 3)
      return v->u.tex.last_level - level + 1;
   unsigned layers = v->u.tex.last_layer - v->u.tex.first_layer + 1;
   uint32_t size[3] = { u_minify(r->width0, level), u_minify(r->height0, level),
                        u_minify(r->depth0, level) };
   switch (v->target) {
   case PIPE_TEXTURE_1D_ARRAY:
      size[1] = layers;
      break;
   case PIPE_TEXTURE_2D_ARRAY:
      size[2] = layers;
      break;
   case PIPE_TEXTURE_CUBE_ARRAY:
      size[2] = layers / 6;
      break;
   default:
      break;
   }
   return c < 3 ? size[c] : 0;
}

bool
panfrost_sampler_view_refresh(struct panfrost_context *ctx,
                              struct panfrost_sampler_view *v)
{
   const struct pipe_resource *r = v->base.texture;

   if (v->layout_seq ==
       panfrost_resource((struct pipe_resource *)r)->layout_seq)
      return v->bo != NULL;
   /* A batch still using the old planes holds its own reference. */
   if (v->bo)
      pan_bo_unref(v->bo);
   v->bo = NULL;
   if (!pack_view(ctx, v) && v->bo) {
      pan_bo_unref(v->bo);
      v->bo = NULL;
   }
   return v->bo != NULL;
}

static void
panfrost_sampler_view_destroy(struct pipe_context *pctx,
                              struct pipe_sampler_view *view)
{
   struct panfrost_sampler_view *v = panfrost_sampler_view(view);

   /* A batch still using the planes holds its own reference. */
   if (v->bo)
      pan_bo_unref(v->bo);
   pipe_resource_reference(&view->texture, NULL);
   FREE(v);
}

static void
panfrost_set_sampler_views(struct pipe_context *pctx,
                           enum pipe_shader_type stage, unsigned start,
                           unsigned count, unsigned unbind_trailing,
                           bool take_ownership,
                           struct pipe_sampler_view **views)
{
   struct panfrost_context *ctx = panfrost_context(pctx);
   struct pipe_sampler_view **slots = ctx->state.views[stage];
   uint32_t *mask = &ctx->state.view_mask[stage];

   for (unsigned i = 0; i < count; ++i) {
      struct pipe_sampler_view *view = views ? views[i] : NULL;

      if (take_ownership) {
         pipe_sampler_view_reference(&slots[start + i], NULL);
         slots[start + i] = view;
      } else {
         pipe_sampler_view_reference(&slots[start + i], view);
      }
   }
   for (unsigned i = 0; i < unbind_trailing; ++i)
      pipe_sampler_view_reference(&slots[start + count + i], NULL);
   for (unsigned i = start; i < start + count + unbind_trailing; ++i)
      *mask = slots[i] ? *mask | BITFIELD_BIT(i) : *mask & ~BITFIELD_BIT(i);
   ctx->dirty |= PANFROST_DIRTY_TEXTURES;
}

static void *
panfrost_create_sampler_state(struct pipe_context *pctx,
                              const struct pipe_sampler_state *templ)
{
   const struct panfrost_arch_texture *t = arch_texture(pctx);
   struct panfrost_sampler_state *s = CALLOC_STRUCT(panfrost_sampler_state);

   if (!s)
      return NULL;
   s->base = *templ;
   /* Without emitters draws are refused before any table is built. */
   if (t && t->sampler_size_B <= sizeof(s->desc))
      t->emit_sampler(s->desc, templ);
   return s;
}

static void
panfrost_bind_sampler_states(struct pipe_context *pctx,
                             enum pipe_shader_type stage, unsigned start,
                             unsigned count, void **samplers)
{
   struct panfrost_context *ctx = panfrost_context(pctx);

   uint32_t *mask = &ctx->state.sampler_mask[stage];

   for (unsigned i = 0; i < count; ++i) {
      void *s = samplers ? samplers[i] : NULL;
      ctx->state.samplers[stage][start + i] = s;
      *mask = s ? *mask | BITFIELD_BIT(start + i)
                : *mask & ~BITFIELD_BIT(start + i);
   }
   ctx->dirty |= PANFROST_DIRTY_SAMPLERS;
}

static void
panfrost_delete_sampler_state(struct pipe_context *pctx, void *cso)
{
   FREE(cso);
}

void
panfrost_context_init_textures(struct pipe_context *pctx)
{
   pctx->create_sampler_state = panfrost_create_sampler_state;
   pctx->bind_sampler_states = panfrost_bind_sampler_states;
   pctx->delete_sampler_state = panfrost_delete_sampler_state;
   pctx->create_sampler_view = panfrost_create_sampler_view;
   pctx->sampler_view_destroy = panfrost_sampler_view_destroy;
   pctx->set_sampler_views = panfrost_set_sampler_views;
}
