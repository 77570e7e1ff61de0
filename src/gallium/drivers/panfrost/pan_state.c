/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Constant state objects and bindings. Objects are kept as the frontend
 * described them; translation into hardware descriptors belongs to the
 * per-architecture draw path, which will hang its data off these. */

#include "util/u_framebuffer.h"
#include "util/u_helpers.h"
#include "util/u_inlines.h"
#include "util/u_memory.h"
#include "util/u_prim.h"

#include "pan_context.h"
#include "pan_fb.h"
#include "pan_texture.h"

static void *
panfrost_cso_dup(const void *templ, size_t size)
{
   return mem_dup(templ, size);
}

static void
panfrost_cso_delete(struct pipe_context *pctx, void *cso)
{
   FREE(cso);
}

/* One create/bind pair per CSO kind that is stored by value; binding
 * marks `dirty` (enum panfrost_dirty) for the draw path.
 */
#define PAN_CSO(kind, field, type, dirty_bits)                                \
   static void *panfrost_create_##kind(struct pipe_context *pctx,            \
                                       const type *templ)                    \
   {                                                                         \
      return panfrost_cso_dup(templ, sizeof(*templ));                        \
   }                                                                         \
   static void panfrost_bind_##kind(struct pipe_context *pctx, void *cso)    \
   {                                                                         \
      panfrost_context(pctx)->state.field = cso;                             \
      panfrost_context(pctx)->dirty |= (dirty_bits);                         \
   }

/* The rasterizer is read at each draw (its polygon offset by
 * panfrost_depth_bias_update): nothing to rebuild. */
PAN_CSO(blend, blend, struct pipe_blend_state, PANFROST_DIRTY_BLEND)
PAN_CSO(rasterizer, rast, struct pipe_rasterizer_state, 0)
PAN_CSO(zsa, zsa, struct pipe_depth_stencil_alpha_state, PANFROST_DIRTY_ZSA)

void
panfrost_depth_bias_update(struct panfrost_context *ctx,
                           enum pipe_prim_type mode)
{
   const struct pipe_rasterizer_state *rast = ctx->state.rast;
   struct panfrost_depth_bias b = { 0 };
   bool on = false;

   /* GL offsets polygons only, whatever their mode: lines and points
    * stand for polygons only when pan_polygon_mode.c draws them. */
   if (rast && u_reduced_prim(mode) == PIPE_PRIM_TRIANGLES)
      on = rast->offset_tri;
   else if (rast && ctx->unfilled_polygons)
      on = u_reduced_prim(mode) == PIPE_PRIM_LINES ? rast->offset_line
                                                   : rast->offset_point;
   if (on) {
      b = (struct panfrost_depth_bias){
         .enable = true,
         .units = rast->offset_units * 2.0f,
         .factor = rast->offset_scale,
         .clamp = rast->offset_clamp,
      };
   }
   struct panfrost_depth_bias *o = &ctx->depth_bias;
   if (b.enable != o->enable || b.units != o->units || b.factor != o->factor ||
       b.clamp != o->clamp) {
      *o = b;
      ctx->dirty |= PANFROST_DIRTY_ZSA;
   }
}

static void *
panfrost_create_vertex_elements(struct pipe_context *pctx, unsigned count,
                                const struct pipe_vertex_element *elements)
{
   struct panfrost_vertex_elements *ve =
      CALLOC_STRUCT(panfrost_vertex_elements);

   if (!ve)
      return NULL;
   ve->count = count;
   memcpy(ve->elements, elements, count * sizeof(*elements));
   return ve;
}

static void
panfrost_bind_vertex_elements(struct pipe_context *pctx, void *cso)
{
   panfrost_context(pctx)->state.vertex_elements = cso;
   panfrost_context(pctx)->dirty |= PANFROST_DIRTY_VERTEX;
}

static struct pipe_surface *
panfrost_create_surface(struct pipe_context *pctx, struct pipe_resource *prsc,
                        const struct pipe_surface *templ)
{
   struct pipe_surface *surf = MALLOC_STRUCT(pipe_surface);

   if (!surf)
      return NULL;

   /* A surface is one level (and layer range) of the resource, sized to
    * that level. */
   *surf = (struct pipe_surface){
      .context = pctx,
      .format = templ->format,
      .width = u_minify(prsc->width0, templ->u.tex.level),
      .height = u_minify(prsc->height0, templ->u.tex.level),
      .nr_samples = templ->nr_samples,
      .u = templ->u,
   };
   pipe_reference_init(&surf->reference, 1);
   pipe_resource_reference(&surf->texture, prsc);
   return surf;
}

static void
panfrost_surface_destroy(struct pipe_context *pctx, struct pipe_surface *surf)
{
   pipe_resource_reference(&surf->texture, NULL);
   FREE(surf);
}

static void
panfrost_set_constant_buffer(struct pipe_context *pctx,
                             enum pipe_shader_type stage, uint index,
                             bool take_ownership,
                             const struct pipe_constant_buffer *buf)
{
   struct panfrost_context *ctx = panfrost_context(pctx);

   struct pipe_constant_buffer *cb = &ctx->state.cbufs[stage][index];

   util_copy_constant_buffer(cb, buf, take_ownership);
   if (cb->buffer || cb->user_buffer)
      ctx->state.cbuf_mask[stage] |= BITFIELD_BIT(index);
   else
      ctx->state.cbuf_mask[stage] &= ~BITFIELD_BIT(index);
   if (stage == PIPE_SHADER_VERTEX)
      ctx->dirty |= PANFROST_DIRTY_CONST_VS;
   else if (stage == PIPE_SHADER_FRAGMENT)
      ctx->dirty |= PANFROST_DIRTY_CONST_FS;
}

static void
panfrost_set_vertex_buffers(struct pipe_context *pctx, unsigned start,
                            unsigned count, unsigned unbind_trailing,
                            bool take_ownership,
                            const struct pipe_vertex_buffer *buffers)
{
   struct panfrost_context *ctx = panfrost_context(pctx);
   struct panfrost_state *st = &ctx->state;

   util_set_vertex_buffers_mask(st->vbufs, &st->vbuf_mask, buffers, start,
                                count, unbind_trailing, take_ownership);
   st->vbuf_count = util_last_bit(st->vbuf_mask);
   ctx->dirty |= PANFROST_DIRTY_VERTEX;
}

static void
panfrost_set_framebuffer_state(struct pipe_context *pctx,
                               const struct pipe_framebuffer_state *fb)
{
   struct panfrost_context *ctx = panfrost_context(pctx);

   if (!util_framebuffer_state_equal(&ctx->state.fb, fb))
      panfrost_batch_framebuffer_changes(ctx);
   util_copy_framebuffer_state(&ctx->state.fb, fb);
}

static void
panfrost_set_blend_color(struct pipe_context *pctx,
                         const struct pipe_blend_color *color)
{
   struct panfrost_context *ctx = panfrost_context(pctx);

   ctx->state.blend_color = *color;
   ctx->dirty |= PANFROST_DIRTY_BLEND; /* the descriptors hold it */
}

static void
panfrost_set_stencil_ref(struct pipe_context *pctx,
                         const struct pipe_stencil_ref ref)
{
   struct panfrost_context *ctx = panfrost_context(pctx);

   ctx->state.stencil_ref = ref;
   ctx->dirty |= PANFROST_DIRTY_ZSA; /* the descriptor holds it */
}

static void
panfrost_set_sample_mask(struct pipe_context *pctx, unsigned mask)
{
   panfrost_context(pctx)->state.sample_mask = mask;
}

/* GL_SAMPLE_POSITION: where the framebuffer descriptors' tables put the
 * samples (pan_fb.c).
 */
static void
panfrost_get_sample_position(struct pipe_context *pctx, unsigned sample_count,
                             unsigned index, float *out)
{
   pan_fb_sample_position(sample_count, index, out);
}

static void
panfrost_set_min_samples(struct pipe_context *pctx, unsigned min_samples)
{
   panfrost_context(pctx)->state.min_samples = min_samples;
}

static void
panfrost_set_clip_state(struct pipe_context *pctx,
                        const struct pipe_clip_state *clip)
{
   panfrost_context(pctx)->state.clip = *clip;
}

static void
panfrost_set_polygon_stipple(struct pipe_context *pctx,
                             const struct pipe_poly_stipple *stipple)
{
   panfrost_context(pctx)->state.stipple = *stipple;
}

/* One viewport and one scissor: the hardware has no viewport arrays. */
static void
panfrost_set_scissor_states(struct pipe_context *pctx, unsigned start,
                            unsigned count,
                            const struct pipe_scissor_state *scissors)
{
   if (start == 0 && count)
      panfrost_context(pctx)->state.scissor = scissors[0];
}

static void
panfrost_set_viewport_states(struct pipe_context *pctx, unsigned start,
                             unsigned count,
                             const struct pipe_viewport_state *viewports)
{
   if (start == 0 && count) {
      panfrost_context(pctx)->state.viewport = viewports[0];
      panfrost_context(pctx)->dirty |= PANFROST_DIRTY_VIEWPORT;
   }
}

/* Drop every reference the bindings hold, at context destruction. */
void
panfrost_context_release_state(struct pipe_context *pctx)
{
   struct panfrost_state *st = &panfrost_context(pctx)->state;

   for (unsigned s = 0; s < PIPE_SHADER_TYPES; ++s) {
      for (unsigned i = 0; i < PANFROST_MAX_SAMPLERS; ++i)
         pipe_sampler_view_reference(&st->views[s][i], NULL);
      for (unsigned i = 0; i < PIPE_MAX_CONSTANT_BUFFERS; ++i)
         pipe_resource_reference(&st->cbufs[s][i].buffer, NULL);
   }
   for (unsigned i = 0; i < PANFROST_MAX_VBUFS; ++i)
      pipe_vertex_buffer_unreference(&st->vbufs[i]);
   util_unreference_framebuffer_state(&st->fb);
}

void
panfrost_context_init_state(struct pipe_context *pctx)
{
   pctx->create_blend_state = panfrost_create_blend;
   pctx->bind_blend_state = panfrost_bind_blend;
   pctx->delete_blend_state = panfrost_cso_delete;
   pctx->create_rasterizer_state = panfrost_create_rasterizer;
   pctx->bind_rasterizer_state = panfrost_bind_rasterizer;
   pctx->delete_rasterizer_state = panfrost_cso_delete;
   pctx->create_depth_stencil_alpha_state = panfrost_create_zsa;
   pctx->bind_depth_stencil_alpha_state = panfrost_bind_zsa;
   pctx->delete_depth_stencil_alpha_state = panfrost_cso_delete;
   pctx->create_vertex_elements_state = panfrost_create_vertex_elements;
   pctx->bind_vertex_elements_state = panfrost_bind_vertex_elements;
   pctx->delete_vertex_elements_state = panfrost_cso_delete;
   panfrost_context_init_textures(pctx);

   pctx->create_surface = panfrost_create_surface;
   pctx->surface_destroy = panfrost_surface_destroy;

   pctx->set_constant_buffer = panfrost_set_constant_buffer;
   pctx->set_vertex_buffers = panfrost_set_vertex_buffers;
   pctx->set_framebuffer_state = panfrost_set_framebuffer_state;
   pctx->set_blend_color = panfrost_set_blend_color;
   pctx->set_stencil_ref = panfrost_set_stencil_ref;
   pctx->set_sample_mask = panfrost_set_sample_mask;
   /* Every sample until told otherwise: frontends (cso) only call
    * set_sample_mask when the mask leaves its all-ones default.
    */
   panfrost_context(pctx)->state.sample_mask = ~0u;
   pctx->set_min_samples = panfrost_set_min_samples;
   pctx->get_sample_position = panfrost_get_sample_position;
   pctx->set_clip_state = panfrost_set_clip_state;
   pctx->set_polygon_stipple = panfrost_set_polygon_stipple;
   pctx->set_scissor_states = panfrost_set_scissor_states;
   pctx->set_viewport_states = panfrost_set_viewport_states;
}
