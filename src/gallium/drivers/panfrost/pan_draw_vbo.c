/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * draw_vbo: one IDVS job per draw, appended to the pass of the current
 * framebuffer.  The state is translated into descriptors here, with the
 * architecture's emitters (screen->arch->draw); what the driver cannot do
 * yet drops the draw with a message given once per context.  See
 * docs/drivers/panfrost/draw-path.rst.
 */

#include <math.h>
#include <string.h>

#include "indices/u_primconvert.h"
#include "util/format/u_format.h"
#include "util/log.h"
#include "util/u_framebuffer.h"
#include "util/u_inlines.h"
#include "util/u_math.h"
#include "util/u_prim.h"

#include "pan_arch.h"
#include "pan_blend.h"
#include "pan_blend_shader.h"
#include "pan_bo.h"
#include "pan_context.h"
#include "pan_image.h"
#include "pan_draw_jm.h"
#include "pan_fb.h"
#include "pan_index_range.h"
#include "pan_layer.h"
#include "pan_line_stipple.h"
#include "pan_polygon_mode.h"
#include "pan_vs_once.h"
#include "pan_resource.h"
#include "pan_screen.h"
#include "pan_ssbo.h"
#include "pan_texture.h"
#include "pan_tiler_sizing.h"

#define drop(ctx, ...) panfrost_warn_once(ctx, PANFROST_WARN_DRAW, __VA_ARGS__)

/* Copies size_B bytes into the batch's memory; 0 when out of memory. */
static uint64_t
upload(struct panfrost_context *ctx, const void *data, size_t size_B,
       unsigned align_B)
{
   struct pan_ptr p = pan_pool_alloc(&ctx->batch.pool, MAX2(size_B, 4),
                                     align_B);
   if (!p.cpu)
      return 0;
   memcpy(p.cpu, data, size_B);
   return p.gpu;
}

/* The GPU address of a resource range the draw reads. */
static uint64_t
read_resource(struct panfrost_context *ctx, struct pipe_resource *prsc,
              unsigned offset_B)
{
   struct pan_bo *bo = panfrost_resource(prsc)->bo;

   if (!panfrost_batch_add_bo(ctx, bo, PAN_BO_ACCESS_READ))
      return 0;
   return bo->gpu_va + offset_B;
}

enum panfrost_fetch
panfrost_vertex_buffer_range(struct panfrost_context *ctx, unsigned i,
                             uint64_t *va, unsigned *size_B)
{
   const struct pipe_vertex_buffer *vb = &ctx->state.vbufs[i];
   struct pipe_resource *r = vb->buffer.resource;

   *va = 0;
   *size_B = 0;
   if (vb->is_user_buffer) {
      drop(ctx, "user vertex buffers are not supported (the frontend "
                "uploads them), draw dropped");
      return PANFROST_FETCH_DROPPED;
   }
   if (!r)
      return PANFROST_FETCH_OK;
   *va = read_resource(ctx, r, vb->buffer_offset);
   *size_B = r->width0 - MIN2(vb->buffer_offset, r->width0);
   return *va ? PANFROST_FETCH_OK : PANFROST_FETCH_OOM;
}

/* The tiler context of the pass, made at its first draw (either draw
 * path: both tables have the same tiler emitter).
 */
uint64_t
panfrost_batch_tiler(struct panfrost_context *ctx)
{
   struct panfrost_screen *screen = panfrost_screen(ctx->base.screen);
   const struct panfrost_arch_draw *d = screen->arch->draw;
   const struct panfrost_arch_jm *jm = screen->arch->jm;
   const struct pipe_framebuffer_state *fb = &ctx->state.fb;
   struct panfrost_batch *b = &ctx->batch;
   struct pan_tiler_heap_layout heap;
   struct pan_tiler_context_params params;

   if (b->tiler)
      return b->tiler;
   const struct pipe_rasterizer_state *rast = ctx->state.rast;
   bool first = rast && rast->flatshade_first;

   struct pan_tiler_features features =
      pan_decode_tiler_features(screen->dev.tiler_features
                                   ? screen->dev.tiler_features
                                   : PAN_TILER_FEATURES_DEFAULT);
   if (!pan_tiler_heap_layout(0, &heap) ||
       !pan_tiler_context_params(&features, fb->width, fb->height, &params))
      return 0;
   if (!ctx->tiler_heap) {
      ctx->tiler_heap = pan_bo_create(&screen->dev, heap.reserved_size_B,
                                      PAN_BO_GROWABLE | PAN_BO_INVISIBLE,
                                      "Tiler heap");
      if (!ctx->tiler_heap)
         return 0;
   }

   unsigned align_B = jm ? jm->tiler_align_B : d->tiler_align_B;
   struct pan_ptr h = pan_pool_alloc(
      &b->pool, jm ? jm->tiler_heap_size_B : d->tiler_heap_size_B, align_B);
   struct pan_ptr t = pan_pool_alloc(
      &b->pool, jm ? jm->tiler_context_size_B : d->tiler_context_size_B,
      align_B);
   if (!h.cpu || !t.cpu ||
       !panfrost_batch_add_bo(ctx, ctx->tiler_heap,
                              PAN_BO_ACCESS_READ | PAN_BO_ACCESS_WRITE))
      return 0;
   (jm ? jm->emit_tiler : d->emit_tiler)(h.cpu, h.gpu, t.cpu,
                 ctx->tiler_heap->gpu_va + heap.bottom_offset_B,
                 heap.reserved_size_B, params.hierarchy_mask,
                 params.fb_width_px, params.fb_height_px, first);
   b->tiler = t.gpu;
   b->tiler_first_provoking = first;
   return b->tiler;
}

/* The push words of one program (the compiler's push table); *reusable
 * is cleared when a word comes from a constant buffer in a resource.
 */
static bool
push_words(struct panfrost_context *ctx, enum pipe_shader_type stage,
           const struct panfrost_program *p, struct panfrost_shader_env *env,
           bool *reusable)
{
   const struct pipe_viewport_state *vp = &ctx->state.viewport;

   /* Written in place: 64-bit aligned, an even number of words */
   env->fau_words = ALIGN_POT(p->nr_push, 2);
   env->fau = 0;
   if (!env->fau_words)
      return true;
   struct pan_ptr fau =
      pan_pool_alloc(&ctx->batch.pool, env->fau_words * 4, 8);
   uint32_t *words = fau.cpu;
   if (!words)
      return false;
   words[env->fau_words - 1] = 0;

   for (unsigned i = 0; i < p->nr_push; ++i) {
      const struct pan_va_push_word *w = &p->push[i];
      unsigned c = w->offset_B / 4;

      switch (w->source) {
      case PAN_VA_PUSH_VIEWPORT_SCALE:
         memcpy(&words[i], &vp->scale[c % 3], 4);
         break;
      case PAN_VA_PUSH_VIEWPORT_OFFSET:
         memcpy(&words[i], &vp->translate[c % 3], 4);
         break;
      case PAN_VA_PUSH_TEXTURE_SIZE:
         words[i] =
            panfrost_texture_size(ctx->state.views[stage][w->ubo], c);
         break;
      case PAN_VA_PUSH_IMAGE_SIZE:
         words[i] = panfrost_image_size(ctx, stage, w->ubo, c);
         break;
      case PAN_VA_PUSH_CONSTANT:
         words[i] = w->offset_B;
         break;
      case PAN_VA_PUSH_DRAW:
         /* Changes from draw to draw: never kept. */
         words[i] = ctx->draw_params[c % PAN_VA_DRAW_PARAMS];
         *reusable = false;
         break;
      default: {
         const struct pipe_constant_buffer *cb =
            &ctx->state.cbufs[stage][w->ubo];
         const uint8_t *data = cb->user_buffer;
         *reusable &= data != NULL;
         if (!data && cb->buffer)
            data = (const uint8_t *)pan_bo_mmap(
                      panfrost_resource(cb->buffer)->bo) +
                   cb->buffer_offset;
         if (!data || w->offset_B + 4 > cb->buffer_size) {
            drop(ctx, "constant buffer %u does not hold the word at %u, "
                      "draw dropped",
                 w->ubo, w->offset_B);
            return false;
         }
         memcpy(&words[i], data + w->offset_B, 4);
      }
      }
   }
   env->fau = fau.gpu;
   return true;
}

/* The constant buffers of a stage as buffer descriptors (LD_BUFFER). */
static uint64_t
ubo_table(struct panfrost_context *ctx, enum pipe_shader_type stage,
          unsigned *count)
{
   const struct panfrost_arch_draw *d =
      panfrost_screen(ctx->base.screen)->arch->draw;
   const struct pipe_constant_buffer *cbs = ctx->state.cbufs[stage];
   unsigned n = 0;

   for (unsigned i = 0; i < PIPE_MAX_CONSTANT_BUFFERS; ++i) {
      if (cbs[i].buffer || cbs[i].user_buffer)
         n = i + 1;
   }
   *count = n;
   if (!n)
      return 0;

   struct pan_ptr t = pan_pool_alloc(&ctx->batch.pool, n * d->desc_size_B,
                                     d->resource_align_B);
   if (!t.cpu)
      return 0;
   for (unsigned i = 0; i < n; ++i) {
      uint64_t va = 0;
      if (cbs[i].user_buffer)
         va = upload(ctx, cbs[i].user_buffer, cbs[i].buffer_size, 16);
      else if (cbs[i].buffer)
         va = read_resource(ctx, cbs[i].buffer, cbs[i].buffer_offset);
      d->emit_buffer(t.cpu + i * d->desc_size_B, va,
                     va ? cbs[i].buffer_size : 0, 0);
   }
   return t.gpu;
}

/* Copies the descriptors packed with the bound views or samplers of a
 * stage (n slots, NULL ones zeroed) into a table; 0 when out of memory.
 */
static uint64_t
descriptor_table(struct panfrost_context *ctx, void *const *objs, unsigned n,
                 bool views, unsigned size_B, unsigned align_B)
{
   struct pan_ptr t = pan_pool_alloc(&ctx->batch.pool, n * size_B, align_B);

   if (!t.cpu)
      return 0;
   for (unsigned i = 0; i < n; ++i) {
      uint8_t *dst = (uint8_t *)t.cpu + i * size_B;
      const void *desc = NULL;
      if (views && objs[i]) {
         struct panfrost_sampler_view *v = objs[i];
         /* Views that cannot be sampled are refused before the draw. */
         if (panfrost_sampler_view_refresh(ctx, v) &&
             panfrost_batch_add_bo(ctx, v->bo, PAN_BO_ACCESS_READ) &&
             read_resource(ctx, v->base.texture, 0))
            desc = v->desc;
      } else if (objs[i]) {
         desc = ((const struct panfrost_sampler_state *)objs[i])->desc;
      }
      if (desc)
         memcpy(dst, desc, size_B);
      else
         memset(dst, 0, size_B);
   }
   return t.gpu;
}

/* The texture and sampler tables of a stage (slot 0 vertex, 1 fragment);
 * false when out of memory.
 */
static bool
texture_tables(struct panfrost_context *ctx, enum pipe_shader_type stage,
               unsigned slot)
{
   const struct panfrost_arch_texture *t =
      panfrost_screen(ctx->base.screen)->arch->texture;
   struct panfrost_draw_cache *c = &ctx->batch.draw_cache;
   void *const *views = (void *const *)ctx->state.views[stage];
   void *const *samplers = ctx->state.samplers[stage];
   unsigned nt = 0, ns = 0;

   for (unsigned i = 0; i < PANFROST_MAX_SAMPLERS; ++i) {
      if (views[i])
         nt = i + 1;
      if (samplers[i])
         ns = i + 1;
   }
   c->texture_count[slot] = nt;
   c->sampler_count[slot] = ns;
   c->textures[slot] = nt ? descriptor_table(ctx, views, nt, true,
                                             t->texture_size_B, t->align_B)
                          : 0;
   c->samplers[slot] = ns ? descriptor_table(ctx, samplers, ns, false,
                                             t->sampler_size_B, t->align_B)
                          : 0;
   return (!nt || c->textures[slot]) && (!ns || c->samplers[slot]);
}

/* Vertex elements as attributes of table 1 and vertex buffers as table 2;
 * false (after a message) for what the draw cannot fetch.
 */
static bool
vertex_tables(struct panfrost_context *ctx, unsigned base_instance,
              uint64_t *attribs, unsigned *attrib_count, uint64_t *bufs,
              unsigned *buf_count)
{
   const struct panfrost_arch_draw *d =
      panfrost_screen(ctx->base.screen)->arch->draw;
   const struct panfrost_vertex_elements *ve = ctx->state.vertex_elements;
   unsigned nve = ve ? ve->count : 0;
   unsigned nvb = ctx->state.vbuf_count;

   *attrib_count = nve;
   *buf_count = nvb;
   struct pan_ptr a = pan_pool_alloc(&ctx->batch.pool,
                                     MAX2(nve, 1) * d->desc_size_B,
                                     d->resource_align_B);
   struct pan_ptr b = pan_pool_alloc(&ctx->batch.pool,
                                     MAX2(nvb, 1) * d->desc_size_B,
                                     d->resource_align_B);
   if (!a.cpu || !b.cpu)
      return false;
   *attribs = a.gpu;
   *bufs = b.gpu;

   for (unsigned i = 0; i < nvb; ++i) {
      uint64_t va;
      unsigned size_B;
      if (panfrost_vertex_buffer_range(ctx, i, &va, &size_B) !=
          PANFROST_FETCH_OK)
         return false;
      d->emit_buffer(b.cpu + i * d->desc_size_B, va, size_B,
                     ctx->state.vbufs[i].stride);
   }
   for (unsigned i = 0; i < nve; ++i) {
      const struct pipe_vertex_element *e = &ve->elements[i];
      if (e->vertex_buffer_index >= nvb) {
         drop(ctx, "vertex element %u: buffer %u not bound, draw dropped",
              i, e->vertex_buffer_index);
         return false;
      }
      /* The instance index the hardware fetches with counts from 0: a
       * base instance moves the start of per-instance data instead. */
      unsigned stride = ctx->state.vbufs[e->vertex_buffer_index].stride;
      unsigned offset =
         e->src_offset + (e->instance_divisor ? base_instance * stride : 0);
      if (!d->emit_attribute(a.cpu + i * d->desc_size_B, e->src_format,
                             e->vertex_buffer_index, offset, stride,
                             e->instance_divisor)) {
         drop(ctx, "vertex format %s is not supported, draw dropped",
              util_format_short_name(e->src_format));
         return false;
      }
   }
   return true;
}

/* One resource table pointer (count in the low bits, as the hardware
 * wants) over the tables given.  The texture and sampler tables of the
 * stage (slot 0 vertex, 1 fragment) go in when it has any.
 */
static uint64_t
resource_tables(struct panfrost_context *ctx, uint64_t *addr,
                unsigned *count, unsigned n, unsigned slot)
{
   const struct panfrost_arch_draw *d =
      panfrost_screen(ctx->base.screen)->arch->draw;
   const struct panfrost_draw_cache *c = &ctx->batch.draw_cache;

   if (c->texture_count[slot] || c->sampler_count[slot]) {
      for (unsigned i = n; i < PANFROST_TABLE_SAMPLER; ++i)
         addr[i] = count[i] = 0;
      addr[PANFROST_TABLE_SAMPLER] = c->samplers[slot];
      count[PANFROST_TABLE_SAMPLER] = c->sampler_count[slot];
      addr[PANFROST_TABLE_TEXTURE] = c->textures[slot];
      count[PANFROST_TABLE_TEXTURE] = c->texture_count[slot];
      n = PANFROST_TABLE_TEXTURE + 1;
   }
   if (count[PANFROST_TABLE_IMAGE]) {
      for (unsigned i = n; i < PANFROST_TABLE_IMAGE; ++i)
         addr[i] = count[i] = 0;
      n = PANFROST_TABLE_IMAGE + 1;
   }
   struct pan_ptr t = pan_pool_alloc(&ctx->batch.pool, n * d->resource_size_B,
                                     d->resource_align_B);
   if (!t.cpu)
      return 0;
   for (unsigned i = 0; i < n; ++i)
      d->emit_resource(t.cpu + i * d->resource_size_B, addr[i], count[i]);
   return t.gpu | n;
}

/* The fragment shader's images as table PANFROST_TABLE_IMAGE of tables
 * (unbound ones zeroed: the shader's bounds checks skip them); false
 * after a warning when one cannot be described.  The
 * pass then writes memory: a later dispatch submits it first.
 */
static bool
fragment_images(struct panfrost_context *ctx, const struct panfrost_shader *fs,
                uint64_t *tables, unsigned *counts)
{
   char err[128] = "";

   if (!fs->nr_images)
      return true;
   tables[PANFROST_TABLE_IMAGE] = panfrost_image_table(
      ctx, PIPE_SHADER_FRAGMENT, fs->nr_images, err, sizeof(err));
   if (!tables[PANFROST_TABLE_IMAGE]) {
      drop(ctx, "fragment images: %s, draw dropped", err);
      return false;
   }
   counts[PANFROST_TABLE_IMAGE] = fs->nr_images;
   ctx->batch.draw_ssbos = true;
   return true;
}

/* The blend descriptor of render target i at cpu, through a blend shader
 * when the blend unit cannot do it; NULL when done, else why not (err
 * holds the message).
 */
static const char *
blend_desc(struct panfrost_context *ctx, void *cpu, unsigned i,
           struct panfrost_blend_rt *b, char *err, size_t err_size)
{
   const struct panfrost_arch_draw *d =
      panfrost_screen(ctx->base.screen)->arch->draw;
   const struct panfrost_shader *fs = ctx->state.shaders[PIPE_SHADER_FRAGMENT];

   panfrost_blend_rt_init(b, ctx->state.blend, i, &ctx->state.fb,
                          &ctx->state.blend_color);
   if (fs && d->blend_needs_shader && d->blend_needs_shader(b)) {
      b->shader = panfrost_blend_shader_get(ctx, b, i, &fs->progs[0], err,
                                            err_size);
      if (!b->shader)
         return err;
   }
   return d->emit_blend(cpu, i, b);
}

/* Blend descriptors of the framebuffer's render targets. */
static uint64_t
blend_descs(struct panfrost_context *ctx, unsigned *count, unsigned *rt_mask,
            bool *shader)
{
   const struct panfrost_arch_draw *d =
      panfrost_screen(ctx->base.screen)->arch->draw;
   const struct pipe_framebuffer_state *fb = &ctx->state.fb;
   const struct pipe_blend_state *blend = ctx->state.blend;
   unsigned n = MAX2(fb->nr_cbufs, 1);
   struct pan_ptr t = pan_pool_alloc(&ctx->batch.pool, n * d->blend_size_B,
                                     d->blend_align_B);

   if (!t.cpu || !blend)
      return 0;
   *count = n;
   *rt_mask = 0;
   *shader = false;
   for (unsigned i = 0; i < n; ++i) {
      struct panfrost_blend_rt b;
      char err[256];
      const char *why =
         blend_desc(ctx, t.cpu + i * d->blend_size_B, i, &b, err, sizeof(err));
      if (why) {
         drop(ctx, "render target %u (%s): %s, draw dropped", i,
              util_format_short_name(b.format), why);
         return 0;
      }
      if (b.enabled)
         *rt_mask |= BITFIELD_BIT(i);
      *shader |= b.shader != 0;
   }
   return t.gpu;
}

/* Whether every render target can be blended (by the blend unit or a
 * blend shader), checked again only when the blend state or the fragment
 * shader (whose registers the blend shaders read) may have changed (the
 * descriptors are packed into scratch memory and dropped), so that a
 * refusal is not taken for running out of memory.
 */
static bool
blend_supported(struct panfrost_context *ctx)
{
   const struct panfrost_arch_draw *d =
      panfrost_screen(ctx->base.screen)->arch->draw;
   const struct pipe_framebuffer_state *fb = &ctx->state.fb;
   const struct panfrost_shader *fs = ctx->state.shaders[PIPE_SHADER_FRAGMENT];
   uint8_t scratch[64] __attribute__((aligned(64)));

   if (ctx->batch.draw_cache.valid && !(ctx->dirty & PANFROST_DIRTY_BLEND) &&
       ctx->batch.draw_cache.fs_prog == fs->progs[0].desc)
      return true;
   assert(d->blend_size_B <= sizeof(scratch));
   for (unsigned i = 0; i < fb->nr_cbufs; ++i) {
      struct panfrost_blend_rt b;
      char err[256];
      const char *why = blend_desc(ctx, scratch, i, &b, err, sizeof(err));
      if (why) {
         drop(ctx, "render target %u (%s): %s, draw dropped", i,
              util_format_short_name(b.format), why);
         return false;
      }
   }
   return true;
}

/* The rectangle the draw may touch: the viewport, the scissor when the
 * rasterizer enables it, and the framebuffer, inclusive.
 */
static void
draw_bounds(struct panfrost_context *ctx, struct panfrost_draw_job *j)
{
   const struct pipe_viewport_state *vp = &ctx->state.viewport;
   const struct pipe_rasterizer_state *rast = ctx->state.rast;
   const struct pipe_framebuffer_state *fb = &ctx->state.fb;
   float minx = vp->translate[0] - fabsf(vp->scale[0]);
   float maxx = vp->translate[0] + fabsf(vp->scale[0]);
   float miny = vp->translate[1] - fabsf(vp->scale[1]);
   float maxy = vp->translate[1] + fabsf(vp->scale[1]);
   int x0 = MAX2((int)minx, 0), y0 = MAX2((int)miny, 0);
   int x1 = MIN2((int)ceilf(maxx), (int)fb->width);
   int y1 = MIN2((int)ceilf(maxy), (int)fb->height);

   if (rast && rast->scissor) {
      const struct pipe_scissor_state *s = &ctx->state.scissor;
      x0 = MAX2(x0, (int)s->minx);
      y0 = MAX2(y0, (int)s->miny);
      x1 = MIN2(x1, (int)s->maxx);
      y1 = MIN2(y1, (int)s->maxy);
   }
   /* An empty rectangle still needs min <= max: the hardware bounds are
    * inclusive, so an empty draw covers one pixel outside nothing; the
    * caller skips those draws.
    */
   j->scissor[0] = x0;
   j->scissor[1] = y0;
   j->scissor[2] = MAX2(x1, x0 + 1) - 1;
   j->scissor[3] = MAX2(y1, y0 + 1) - 1;

   float z0 = vp->translate[2] - vp->scale[2];
   float z1 = vp->translate[2] + vp->scale[2];
   j->min_z = CLAMP(MIN2(z0, z1), 0.0f, 1.0f);
   j->max_z = CLAMP(MAX2(z0, z1), 0.0f, 1.0f);
   /* The near plane lands on max_z when the depth range is reversed. */
   bool reversed = vp->scale[2] < 0.0f;
   bool clip_near = !rast || rast->depth_clip_near;
   bool clip_far = !rast || rast->depth_clip_far;
   j->cull_below_z = reversed ? clip_far : clip_near;
   j->cull_above_z = reversed ? clip_near : clip_far;
   j->count = (x1 > x0 && y1 > y0) ? j->count : 0;
}

/* The CPU view of a buffer once the work writing it is done (the pass
 * writing it is submitted first); NULL when it cannot be waited for or
 * mapped.
 */
static const uint8_t *
map_for_read(struct panfrost_context *ctx, struct pipe_resource *prsc)
{
   struct panfrost_resource *rsc = panfrost_resource(prsc);

   if (panfrost_batch_writes(ctx, prsc))
      panfrost_batch_submit(ctx);
   return pan_bo_wait(rsc->bo, INT64_MAX, false) ? pan_bo_mmap(rsc->bo)
                                                 : NULL;
}

bool
panfrost_read_buffer(struct panfrost_context *ctx, struct pipe_resource *prsc,
                     uint64_t offset_B, unsigned size_B, void *dst)
{
   if (!prsc || prsc->target != PIPE_BUFFER || offset_B > prsc->width0 ||
       size_B > prsc->width0 - offset_B)
      return false;
   const uint8_t *cpu = map_for_read(ctx, prsc);
   if (!cpu)
      return false;
   memcpy(dst, cpu + offset_B, size_B);
   return true;
}

/* The index range of an indexed draw, cached per index buffer; false when
 * no index counts (the draw draws nothing).
 */
static bool
index_range(struct panfrost_context *ctx, const struct pipe_draw_info *info,
            const struct pipe_draw_start_count_bias *draw,
            struct pan_index_range *r)
{
   struct pan_index_scan scan = {
      .count = draw->count,
      .index_size_B = info->index_size,
      .restart = info->primitive_restart,
      .restart_index = info->restart_index,
   };
   bool ok;

   /* The output of a geometry shader, whose indices the GPU writes. */
   if (ctx->gs_index_range) {
      *r = *ctx->gs_index_range;
      return true;
   }
   if (info->has_user_indices) {
      scan.indices =
         (const uint8_t *)info->index.user + draw->start * info->index_size;
      ok = pan_index_range(&scan, r);
   } else {
      struct panfrost_resource *rsc = panfrost_resource(info->index.resource);
      const uint8_t *cpu = map_for_read(ctx, &rsc->base);
      ok = cpu && pan_index_cache_get(&rsc->index_cache, cpu,
                                      draw->start * info->index_size, &scan,
                                      r);
   }
   return ok && r->min <= r->max;
}

/* Checks that the draw can be done; false after a message when not. */
static bool
draw_supported(struct panfrost_context *ctx, const struct pipe_draw_info *info)
{
   struct panfrost_shader *vs = ctx->state.shaders[PIPE_SHADER_VERTEX];
   struct panfrost_shader *fs = ctx->state.shaders[PIPE_SHADER_FRAGMENT];
   const struct pipe_depth_stencil_alpha_state *zsa = ctx->state.zsa;
   const struct panfrost_arch *arch =
      panfrost_screen(ctx->base.screen)->arch;

   if (!arch || !arch->draw) {
      drop(ctx, "draws are not implemented on this GPU yet (dropped)");
      return false;
   }
   if (!vs || !fs || !ctx->state.rast || !ctx->state.blend || !zsa)
      return false;
   if (vs->error[0] || fs->error[0]) {
      drop(ctx, "draw with a shader that did not compile dropped: %s",
           vs->error[0] ? vs->error : fs->error);
      return false;
   }
   for (unsigned s = 0; s < 2; ++s) {
      enum pipe_shader_type stage = s ? PIPE_SHADER_FRAGMENT
                                      : PIPE_SHADER_VERTEX;
      if (!(s ? fs : vs)->uses_textures)
         continue;
      for (unsigned i = 0; i < PANFROST_MAX_SAMPLERS; ++i) {
         struct pipe_sampler_view *v = ctx->state.views[stage][i];
         if (v && !panfrost_sampler_view(v)->bo) {
            drop(ctx, "texture %u cannot be sampled (%s), draw dropped", i,
                 panfrost_sampler_view(v)->error);
            return false;
         }
      }
   }
   if (zsa->alpha_enabled) {
      drop(ctx, "the alpha test is not implemented yet, draw dropped");
      return false;
   }
   if (!panfrost_ssbo_check_draw(ctx))
      return false;
   /* Logic ops are blend shaders (blend_desc). */
   if (!blend_supported(ctx))
      return false;
   /* The compiler gives gl_FragColor to target 0 only. */
   if (fs->writes_fragcolor && ctx->state.fb.nr_cbufs > 1) {
      drop(ctx, "gl_FragColor with %u render targets bound is not "
                "implemented yet, draw dropped",
           ctx->state.fb.nr_cbufs);
      return false;
   }
   return true;
}

/* Rebuilds what the state changes since the previous draw of the pass
 * (ctx->dirty, the shaders) invalidated in the draw cache; false when out
 * of memory or after a message for a draw that cannot be done.
 */
static bool
update_draw_cache(struct panfrost_context *ctx, struct panfrost_shader *vs,
                  struct panfrost_shader *fs)
{
   struct panfrost_draw_cache *c = &ctx->batch.draw_cache;
   const struct panfrost_arch_draw *d =
      panfrost_screen(ctx->base.screen)->arch->draw;
   const struct pipe_depth_stencil_alpha_state *zsa = ctx->state.zsa;
   unsigned dirty = c->valid ? ctx->dirty : ~0u;
   bool vs_new = !c->valid || c->vs_prog != vs->progs[0].desc;
   bool fs_new = !c->valid || c->fs_prog != fs->progs[0].desc;

   /* Rebuilt in place: a failure leaves the cache to be rebuilt whole. */
   c->valid = false;

   unsigned tls_size = MAX2(MAX2(vs->progs[0].tls_size, vs->progs[1].tls_size),
                            fs->progs[0].tls_size);
   if (!c->tls || c->tls_size != tls_size) {
      c->tls = panfrost_batch_local_storage(ctx, tls_size);
      c->tls_size = tls_size;
      if (!c->tls)
         return false;
   }
   unsigned base_instance = ctx->draw_params[PAN_VA_DRAW_BASE_INSTANCE];
   if ((dirty & PANFROST_DIRTY_VERTEX) ||
       c->attrib_base_instance != base_instance) {
      if (!vertex_tables(ctx, base_instance, &c->attribs, &c->attrib_count,
                         &c->vbufs, &c->vbuf_count))
         return false;
      c->attrib_base_instance = base_instance;
   }
   /* Storage buffers come with the constant buffers (pan_ssbo.h). */
   if ((dirty & PANFROST_DIRTY_CONST_VS) &&
       !panfrost_ssbo_use_in_draw(ctx, PIPE_SHADER_VERTEX))
      return false;
   if ((dirty & PANFROST_DIRTY_CONST_FS) &&
       !panfrost_ssbo_use_in_draw(ctx, PIPE_SHADER_FRAGMENT))
      return false;
   if (dirty & PANFROST_DIRTY_CONST_VS)
      c->ubos[0] = ubo_table(ctx, PIPE_SHADER_VERTEX, &c->ubo_count[0]);
   if (dirty & PANFROST_DIRTY_CONST_FS)
      c->ubos[1] = ubo_table(ctx, PIPE_SHADER_FRAGMENT, &c->ubo_count[1]);
   const unsigned tex_bits = PANFROST_DIRTY_TEXTURES | PANFROST_DIRTY_SAMPLERS;
   if ((dirty & tex_bits) &&
       (!texture_tables(ctx, PIPE_SHADER_VERTEX, 0) ||
        !texture_tables(ctx, PIPE_SHADER_FRAGMENT, 1)))
      return false;
   if (dirty & (PANFROST_DIRTY_VERTEX | PANFROST_DIRTY_CONST_VS | tex_bits)) {
      uint64_t tables[PANFROST_TABLE_COUNT] = { 0 };
      unsigned counts[PANFROST_TABLE_COUNT] = { 0 };
      tables[PANFROST_TABLE_UBO] = c->ubos[0];
      counts[PANFROST_TABLE_UBO] = c->ubo_count[0];
      tables[PANFROST_TABLE_ATTRIBUTE] = c->attribs;
      counts[PANFROST_TABLE_ATTRIBUTE] = c->attrib_count;
      tables[PANFROST_TABLE_ATTRIBUTE_BUFFER] = c->vbufs;
      counts[PANFROST_TABLE_ATTRIBUTE_BUFFER] = c->vbuf_count;
      c->vs_res = resource_tables(ctx, tables, counts,
                                  PANFROST_TABLE_ATTRIBUTE_BUFFER + 1, 0);
   }
   if (dirty & (PANFROST_DIRTY_CONST_FS | tex_bits)) {
      uint64_t tables[PANFROST_TABLE_COUNT] = { c->ubos[1] };
      unsigned counts[PANFROST_TABLE_COUNT] = { c->ubo_count[1] };
      if (!fragment_images(ctx, fs, tables, counts))
         return false;
      c->fs_res = resource_tables(ctx, tables, counts, 1, 1);
   }
   /* Blend shaders read the fragment shader's registers. */
   if ((dirty & PANFROST_DIRTY_BLEND) || fs_new)
      c->blend = blend_descs(ctx, &c->blend_count, &c->rt_mask,
                             &c->blend_shader);
   /* The depth/stencil descriptor says whether the shader gives them. */
   if ((dirty & PANFROST_DIRTY_ZSA) || fs_new) {
      struct pan_ptr ds = pan_pool_alloc(&ctx->batch.pool,
                                         d->depth_stencil_size_B,
                                         d->depth_stencil_align_B);
      struct panfrost_zs_state zs;
      panfrost_zs_state_init(&zs, zsa, &ctx->state.stencil_ref,
                             ctx->state.fb.zsbuf);
      zs.shader_z = fs->writes_depth;
      zs.shader_s = fs->writes_stencil;
      zs.bias = ctx->depth_bias;
      if (ds.cpu)
         d->emit_depth_stencil(ds.cpu, &zs);
      c->depth_stencil = ds.gpu;
   }
   if (!c->vs_res || !c->fs_res || !c->blend || !c->depth_stencil)
      return false;

   /* Push words: per program, after a change of its shader, its stage's
    * constant buffers, the viewport or the textures (any program may push
    * those).
    */
   const struct panfrost_program *progs[3] = { &vs->progs[0], &vs->progs[1],
                                               &fs->progs[0] };
   for (unsigned i = 0; i < 3; ++i) {
      bool frag = i == 2;
      unsigned const_bit =
         frag ? PANFROST_DIRTY_CONST_FS : PANFROST_DIRTY_CONST_VS;
      if (!(frag ? fs_new : vs_new) && c->fau_reusable[i] &&
          !(dirty & (const_bit | PANFROST_DIRTY_VIEWPORT |
                     PANFROST_DIRTY_TEXTURES)))
         continue;
      struct panfrost_shader_env env = { 0 };
      c->fau_reusable[i] = true;
      if (!push_words(ctx, frag ? PIPE_SHADER_FRAGMENT : PIPE_SHADER_VERTEX,
                      progs[i], &env, &c->fau_reusable[i]))
         return false;
      c->fau[i] = env.fau;
      c->fau_words[i] = env.fau_words;
   }

   /* The batch keeps the shader BOs (and so their addresses) alive. */
   if ((vs_new && !panfrost_batch_add_bo(ctx, vs->bo, PAN_BO_ACCESS_READ)) ||
       (fs_new && !panfrost_batch_add_bo(ctx, fs->bo, PAN_BO_ACCESS_READ)))
      return false;
   c->vs_prog = vs->progs[0].desc;
   c->fs_prog = fs->progs[0].desc;
   c->valid = true;
   ctx->dirty = 0;
   return true;
}

/* The shader environment of program i (position, varying, fragment) */
static struct panfrost_shader_env
cached_env(const struct panfrost_draw_cache *c, const struct panfrost_program *p,
           unsigned i)
{
   return (struct panfrost_shader_env){
      .shader = p->desc,
      .resources = i == 2 ? c->fs_res : c->vs_res,
      .fau = c->fau[i],
      .fau_words = c->fau_words[i],
      .thread_storage = c->tls,
   };
}

static bool
emit_draw(struct panfrost_context *ctx, const struct pipe_draw_info *info,
          const struct pipe_draw_start_count_bias *draw)
{
   const struct panfrost_arch_draw *d =
      panfrost_screen(ctx->base.screen)->arch->draw;
   struct panfrost_shader *vs = ctx->state.shaders[PIPE_SHADER_VERTEX];
   struct panfrost_shader *fs = ctx->state.shaders[PIPE_SHADER_FRAGMENT];
   const struct pipe_rasterizer_state *rast = ctx->state.rast;
   struct panfrost_draw_job j = {
      .mode = info->mode,
      .count = draw->count,
      .instances = info->instance_count,
      .index_size_B = info->index_size,
      .restart = info->index_size && info->primitive_restart,
      .base_vertex = info->index_size ? draw->index_bias : draw->start,
      .cull_front = rast->cull_face & PIPE_FACE_FRONT,
      .cull_back = rast->cull_face & PIPE_FACE_BACK,
      .front_ccw = rast->front_ccw,
      .point_size = u_reduced_prim(info->mode) == PIPE_PRIM_LINES
                       ? rast->line_width
                       : rast->point_size,
      .point_size_array = info->mode == PIPE_PRIM_POINTS && vs->writes_psiz,
      .fs_kills = fs->kills,
      .fs_writes_memory = fs->writes_memory,
      .fs_writes_zs = fs->writes_depth || fs->writes_stencil,
      .fs_early_tests = fs->early_tests,
   };
   /* Single-sampled passes ignore the state tracker's sample mask. */
   bool msaa = util_framebuffer_get_num_samples(&ctx->state.fb) > 1;
   j.multisample = msaa && rast->multisample;
   j.sample_mask = msaa ? ctx->state.sample_mask : 0xffff;
   const struct pipe_blend_state *bs = ctx->state.blend;
   j.alpha_to_coverage = j.multisample && bs && bs->alpha_to_coverage;

   /* The IDVS vertex ID register already counts from base_vertex. */
   ctx->draw_params[PAN_VA_DRAW_FIRST_VERTEX] = 0;
   draw_bounds(ctx, &j);
   if (!j.count || !j.instances)
      return true;

   /* The vertex ids the IDVS programs see: from base_vertex. */
   uint32_t first_id = j.base_vertex, span = j.count;
   if (info->index_size) {
      struct pan_index_range r;
      if (!index_range(ctx, info, draw, &r))
         return true; /* every index is a restart: nothing to draw */
      first_id += r.min;
      span = r.max - r.min + 1;
      if (info->has_user_indices)
         j.indices = upload(ctx,
                            (const uint8_t *)info->index.user +
                               draw->start * info->index_size,
                            draw->count * info->index_size, 64);
      else
         j.indices = read_resource(ctx, info->index.resource,
                                   draw->start * info->index_size);
      if (!j.indices)
         return false;
   }

   /* Varyings are 16-byte slots; the packet holds what either side
    * names, so the fragment shader never reads past the packet.
    */
   unsigned slots = MAX2(vs->varying_slots, fs->varying_slots);
   j.varying_B = slots * 16;

   panfrost_depth_bias_update(ctx, info->mode);
   if (!panfrost_vertex_results_for_draw(ctx, vs, first_id, span,
                                         j.instances) ||
       !panfrost_batch_tiler(ctx) || !update_draw_cache(ctx, vs, fs))
      return false;

   const struct panfrost_draw_cache *c = &ctx->batch.draw_cache;
   j.tiler = ctx->batch.tiler;
   j.blend = c->blend;
   j.blend_count = c->blend_count;
   j.rt_mask = c->rt_mask;
   /* A blend shader blends the one sample its thread is shaded for. */
   j.per_sample = msaa && c->blend_shader;
   j.depth_stencil = c->depth_stencil;
   j.position = cached_env(c, &vs->progs[0], 0);
   j.varying = cached_env(c, &vs->progs[1], 1);
   j.fragment = cached_env(c, &fs->progs[0], 2);
   if (!panfrost_occlusion_for_draw(ctx, &j.occlusion, &j.occlusion_counter))
      return false;

   struct pan_ptr job = pan_pool_alloc(&ctx->batch.pool, d->draw_job_size_B,
                                       PAN_JOB_ALIGN_B);
   if (!job.cpu)
      return false;
   j.index = util_dynarray_num_elements(&ctx->batch.draw_jobs,
                                        struct panfrost_batch_job) +
             1;
   d->emit_draw_job(job.cpu, &j);
   return panfrost_batch_add_draw_job(ctx, job.cpu, job.gpu);
}

/* Points, lines and triangles in every form but quads and polygons. */
#define PANFROST_PRIM_MODES BITFIELD_MASK(PIPE_PRIM_TRIANGLE_FAN + 1)

/* A draw the hardware cannot take as it is: its mode, or a restart index
 * other than the all-ones one the hardware knows.
 */
static bool
needs_primconvert(const struct pipe_draw_info *info)
{
   return !(PANFROST_PRIM_MODES & BITFIELD_BIT(info->mode)) ||
          (info->index_size && info->primitive_restart &&
           info->restart_index != BITFIELD_MASK(info->index_size * 8));
}

void
panfrost_draw_bounds(struct panfrost_context *ctx, struct panfrost_draw_job *j)
{
   draw_bounds(ctx, j);
}

bool
panfrost_draw_index_range(struct panfrost_context *ctx,
                          const struct pipe_draw_info *info,
                          const struct pipe_draw_start_count_bias *draw,
                          struct pan_index_range *r)
{
   return index_range(ctx, info, draw, r);
}

uint64_t
panfrost_draw_descriptor_table(struct panfrost_context *ctx, void *const *objs,
                               unsigned n, bool views, unsigned size_B,
                               unsigned align_B)
{
   return descriptor_table(ctx, objs, n, views, size_B, align_B);
}

bool
panfrost_draw_push_words(struct panfrost_context *ctx,
                         enum pipe_shader_type stage,
                         const struct panfrost_program *p,
                         struct panfrost_shader_env *env, bool *reusable)
{
   *reusable = true;
   return push_words(ctx, stage, p, env, reusable);
}

/* Indirect draws on the CPU: the arguments of each draw are read once the
 * work writing them is done, and it is drawn as a direct draw.  At most draw_count draws, fewer when the count buffer says
 * so (GL's indirect count parameter).
 */
static void
draw_indirect(struct pipe_context *pctx, const struct pipe_draw_info *info,
              unsigned drawid_offset,
              const struct pipe_draw_indirect_info *indirect)
{
   struct panfrost_context *ctx = panfrost_context(pctx);
   /* count, instances, first, (base vertex,) base instance */
   unsigned words = info->index_size ? 5 : 4;
   unsigned n = indirect->draw_count;

   if (indirect->indirect_draw_count) {
      uint32_t max;
      if (!panfrost_read_buffer(ctx, indirect->indirect_draw_count,
                                indirect->indirect_draw_count_offset, 4,
                                &max)) {
         drop(ctx, "the draw count of an indirect draw is outside its "
                   "buffer, draw dropped");
         return;
      }
      n = MIN2(n, max);
   }
   for (unsigned i = 0; i < n; ++i) {
      uint32_t a[5];
      if (!panfrost_read_buffer(ctx, indirect->buffer,
                                indirect->offset +
                                   (uint64_t)i * indirect->stride,
                                words * 4, a)) {
         drop(ctx, "indirect draw %u of %u is outside its buffer, dropped",
              i, n);
         return;
      }
      struct pipe_draw_info direct = *info;
      direct.instance_count = a[1];
      direct.start_instance = a[words - 1];
      direct.index_bounds_valid = false;
      struct pipe_draw_start_count_bias d = {
         .start = a[2],
         .count = a[0],
         .index_bias = info->index_size ? (int32_t)a[3] : 0,
      };
      panfrost_draw_vbo(pctx, &direct, drawid_offset + i, NULL, &d, 1);
   }
}

/* Rasteriser state the hardware has no mode for and the state tracker
 * leaves to the driver: said once, then drawn without it. */
static void
warn_unsupported_raster(struct panfrost_context *ctx,
                        const struct pipe_draw_info *info)
{
   const struct pipe_rasterizer_state *rast = ctx->state.rast;
   enum pipe_prim_type reduced = u_reduced_prim(info->mode);

   if (!rast)
      return;
   if (rast->line_stipple_enable && reduced == PIPE_PRIM_LINES &&
       !panfrost_line_stipple_applies(ctx, info))
      panfrost_warn_once(ctx, PANFROST_WARN_LINE_STIPPLE,
                         "line stipple is not implemented for adjacency, "
                         "geometry shaders or transform feedback: these "
                         "lines are drawn solid");
   if (reduced == PIPE_PRIM_TRIANGLES &&
       (rast->fill_front != PIPE_POLYGON_MODE_FILL ||
        rast->fill_back != PIPE_POLYGON_MODE_FILL) &&
       /* Nothing to draw (all edge flags off culls both faces). */
       rast->cull_face != PIPE_FACE_FRONT_AND_BACK &&
       !panfrost_polygon_mode_applies(ctx, info))
      panfrost_warn_once(ctx, PANFROST_WARN_POLYGON_MODE,
                         "polygon modes other than fill are not "
                         "implemented for adjacency with culling, "
                         "different modes per face or flat shading, "
                         "geometry shaders or transform feedback: these "
                         "polygons are drawn filled");
}

void
panfrost_draw_vbo(struct pipe_context *pctx, const struct pipe_draw_info *info,
                  unsigned drawid_offset,
                  const struct pipe_draw_indirect_info *indirect,
                  const struct pipe_draw_start_count_bias *draws,
                  unsigned num_draws)
{
   struct panfrost_context *ctx = panfrost_context(pctx);
   struct pipe_draw_start_count_bias from_so;
   unsigned storage_seq =
      p_atomic_read(&panfrost_screen(pctx->screen)->storage_seq);

   if (!panfrost_render_condition_check(ctx))
      return;
   /* A resource got new storage (pan_shadow.c), maybe one this context
    * binds: its descriptors are built again.
    */
   if (ctx->storage_seq != storage_seq) {
      ctx->storage_seq = storage_seq;
      ctx->dirty |= PANFROST_DIRTY_STORAGE;
   }
   /* Without a geometry shader writing gl_Layer, layer 0 of a layered
    * framebuffer; the geometry stage picks the layers of its own draws. */
   if (!ctx->gs)
      panfrost_batch_use_layer(ctx, ctx->gs_layer);
   panfrost_select_fs(ctx, info->mode == PIPE_PRIM_POINTS);
   warn_unsupported_raster(ctx, info);
   /* glDrawTransformFeedback: the vertices captured, known on the CPU. */
   if (indirect && indirect->count_from_stream_output) {
      from_so = (struct pipe_draw_start_count_bias){
         .count = panfrost_so_target_vertices(indirect->count_from_stream_output),
      };
      draws = &from_so;
      num_draws = 1;
      indirect = NULL;
   }
   if (indirect) {
      draw_indirect(pctx, info, drawid_offset, indirect);
      return;
   }
   /* Before any of the paths below draws: only the geometry stage
    * (pan_gs.c) gives the fragment shader a primitive ID. */
   struct panfrost_shader *fs = ctx->state.shaders[PIPE_SHADER_FRAGMENT];
   if (fs && fs->reads_primitive_id && !ctx->gs && !ctx->gs_index_range) {
      drop(ctx, "gl_PrimitiveID in a fragment shader without a geometry "
                "shader is not supported, draw dropped");
      return;
   }
   /* A vertex shader whose memory writes the paths below would make
    * twice: run once, its outputs drawn from records (pan_vs_once.h). */
   if (panfrost_vs_once_applies(ctx, info)) {
      for (unsigned i = 0; i < num_draws; ++i)
         panfrost_vs_once_draw(
            ctx, info, drawid_offset + (info->increment_draw_id ? i : 0),
            &draws[i]);
      return;
   }
   /* GL_LINE / GL_POINT polygons as lines or points (pan_polygon_mode.c). */
   if (panfrost_polygon_mode_draw(ctx, info, drawid_offset, draws, num_draws))
      return;
   /* Stippled lines as their dashes (pan_line_stipple.c). */
   if (panfrost_line_stipple_draw(ctx, info, drawid_offset, draws, num_draws))
      return;
   /* Compute work first, then the draw of its output (pan_gs.c);
    * its primitives are assembled there, any restart index. */
   if (ctx->gs) {
      panfrost_gs_draw_vbo(ctx, info, drawid_offset, draws, num_draws);
      return;
   }
   if (needs_primconvert(info)) {
      if (!ctx->primconvert) {
         struct primconvert_config cfg = {
            .primtypes_mask = PANFROST_PRIM_MODES,
            .restart_primtypes_mask = PANFROST_PRIM_MODES,
            .fixed_prim_restart = true,
         };
         ctx->primconvert = util_primconvert_create_config(pctx, &cfg);
      }
      if (!ctx->primconvert) {
         mesa_loge("panfrost: out of memory for a draw, dropped");
         return;
      }
      /* It draws again through draw_vbo, in modes we have. */
      util_primconvert_save_rasterizer_state(ctx->primconvert,
                                             ctx->state.rast);
      util_primconvert_draw_vbo(ctx->primconvert, info, drawid_offset,
                                indirect, draws, num_draws);
      return;
   }
   const struct pipe_rasterizer_state *rast = ctx->state.rast;
   bool discard = rast && rast->rasterizer_discard;
   for (unsigned i = 0; i < num_draws; ++i) {
      bool shaded = panfrost_xfb_draw(ctx, info, drawid_offset + i, &draws[i]);
      /* Nothing rasterised: only the vertex shader's memory writes are
       * left to make, when the capture did not make them. */
      if (discard && !shaded)
         panfrost_discard_draw(ctx, info, drawid_offset + i, &draws[i]);
   }
   if (discard)
      return;
   bool jm = panfrost_screen(pctx->screen)->arch &&
             panfrost_screen(pctx->screen)->arch->jm;
   if (!jm && !draw_supported(ctx, info))
      return;
   /* The pass's tiler context holds the provoking-vertex convention:
    * a draw with the other one starts a new pass. */
   if (!jm && ctx->batch.tiler &&
       ctx->batch.tiler_first_provoking != rast->flatshade_first)
      panfrost_batch_submit(ctx);
   if (panfrost_batch_nearly_full(ctx))
      panfrost_batch_submit(ctx);
   for (unsigned i = 0; i < num_draws; ++i) {
      /* What the vertex shaders push of this draw (the first vertex is
       * the architecture's). */
      ctx->draw_params[PAN_VA_DRAW_BASE_VERTEX] =
         info->index_size ? draws[i].index_bias : 0;
      ctx->draw_params[PAN_VA_DRAW_BASE_INSTANCE] = info->start_instance;
      ctx->draw_params[PAN_VA_DRAW_ID] =
         drawid_offset + (info->increment_draw_id ? i : 0);
      if (jm) {
         panfrost_jm_draw_vbo(ctx, info, NULL, &draws[i], 1);
         continue;
      }
      if (!emit_draw(ctx, info, &draws[i])) {
         mesa_loge("panfrost: out of memory for a draw, dropped");
         return;
      }
   }
}
