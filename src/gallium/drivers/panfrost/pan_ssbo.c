/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Storage buffers of draws (pan_ssbo.h): a vertex or fragment stage's
 * bound slots become the words of its constant buffer PANFROST_SSBO_CBUF,
 * which the draw paths push and describe like the application's constant
 * buffers, so that nothing else of them needs to know about storage
 * buffers; and each pass records the buffers its draws may read or write.
 */

#include <assert.h>
#include <string.h>
#include <strings.h>

#include "util/u_inlines.h"

#include "pan_bo.h"
#include "pan_context.h"
#include "pan_resource.h"
#include "pan_screen.h"
#include "pan_ssbo.h"

static_assert(PANFROST_SSBO_CBUF < PIPE_MAX_CONSTANT_BUFFERS,
              "the storage slots' constant buffer must exist");
static_assert(PANFROST_VERTEX_RESULTS_CBUF < PIPE_MAX_CONSTANT_BUFFERS,
              "the vertex results' constant buffer must exist");
static_assert(PANFROST_SSBO_SLOT_WORDS * PANFROST_MAX_SSBOS ==
                 ARRAY_SIZE(((struct panfrost_compute_ctx *)0)
                               ->gfx_ssbo_words[0]),
              "one set of slot words per storage slot");

void
panfrost_ssbo_bind_gfx(struct panfrost_context *ctx,
                       enum pipe_shader_type stage)
{
   const struct pipe_shader_buffer *sb = ctx->compute.ssbos[stage];
   const struct pan_bo *sink = ctx->compute.ssbo_sink;
   const struct panfrost_shader *so = ctx->state.shaders[stage];
   bool frag = stage == PIPE_SHADER_FRAGMENT;
   uint32_t *words = ctx->compute.gfx_ssbo_words[frag];
   /* The slots the shader names are pushed: all of them must be words of
    * the buffer, bound or not.
    */
   unsigned n = sink && so ? util_last_bit(so->ssbo_slots) : 0;

   for (unsigned i = 0; i < PANFROST_MAX_SSBOS; ++i) {
      uint32_t *w = &words[i * PANFROST_SSBO_SLOT_WORDS];
      uint64_t va = sink ? sink->gpu_va : 0;
      unsigned size_B = 0;

      /* Read at each build: new storage (pan_shadow.c) marks the
       * bindings dirty (PANFROST_DIRTY_STORAGE). */
      if (sb[i].buffer) {
         va = panfrost_resource(sb[i].buffer)->bo->gpu_va +
              sb[i].buffer_offset;
         size_B = sb[i].buffer_size;
         n = MAX2(n, i + 1);
      }
      w[0] = (uint32_t)va;
      w[1] = (uint32_t)(va >> 32);
      w[2] = size_B;
      w[3] = 0;
   }

   struct pipe_constant_buffer *cb =
      &ctx->state.cbufs[stage][PANFROST_SSBO_CBUF];
   cb->buffer = NULL;
   cb->buffer_offset = 0;
   cb->user_buffer = n ? words : NULL;
   cb->buffer_size = n * PANFROST_SSBO_SLOT_WORDS * 4;
   if (n)
      ctx->state.cbuf_mask[stage] |= BITFIELD_BIT(PANFROST_SSBO_CBUF);
   else
      ctx->state.cbuf_mask[stage] &= ~BITFIELD_BIT(PANFROST_SSBO_CBUF);
   ctx->dirty |= frag ? PANFROST_DIRTY_CONST_FS : PANFROST_DIRTY_CONST_VS;
}

/* The slots so names that nothing is bound to. */
static uint32_t
unbound_slots(const struct panfrost_context *ctx, enum pipe_shader_type stage,
              const struct panfrost_shader *so)
{
   uint32_t mask = 0;
   u_foreach_bit(i, so ? so->ssbo_slots : 0) {
      if (!ctx->compute.ssbos[stage][i].buffer)
         mask |= BITFIELD_BIT(i);
   }
   return mask;
}

bool
panfrost_ssbo_check_draw(struct panfrost_context *ctx)
{
   for (unsigned s = 0; s < 2; ++s) {
      enum pipe_shader_type stage = s ? PIPE_SHADER_FRAGMENT
                                      : PIPE_SHADER_VERTEX;
      const struct panfrost_shader *so = ctx->state.shaders[stage];
      uint32_t unbound = unbound_slots(ctx, stage, so);
      if (!unbound)
         continue;
      if (so->ssbo_reach_B > PANFROST_SSBO_SINK_B) {
         panfrost_warn_once(ctx, PANFROST_WARN_DRAW,
                            "%s shader storage slot %u is not bound and "
                            "the shader may reach past the %u bytes that "
                            "stand in for it, draw dropped",
                            s ? "fragment" : "vertex", (unsigned)ffs(unbound) - 1,
                            PANFROST_SSBO_SINK_B);
         return false;
      }
      if (!ctx->compute.ssbo_sink) {
         ctx->compute.ssbo_sink =
            pan_bo_create(panfrost_device(ctx->base.screen),
                          PANFROST_SSBO_SINK_B, PAN_BO_INVISIBLE,
                          "unbound storage slots");
         if (!ctx->compute.ssbo_sink)
            return false;
      }
      /* Rewritten only when a named slot is not yet a pushed word of
       * the sink's address.
       */
      const uint32_t *words = ctx->compute.gfx_ssbo_words[s];
      const struct pipe_constant_buffer *cb =
         &ctx->state.cbufs[stage][PANFROST_SSBO_CBUF];
      bool stale = cb->buffer_size < util_last_bit(unbound) * 16;
      u_foreach_bit(i, unbound) {
         stale |= words[i * PANFROST_SSBO_SLOT_WORDS] !=
                  (uint32_t)ctx->compute.ssbo_sink->gpu_va;
      }
      if (stale)
         panfrost_ssbo_bind_gfx(ctx, stage);
   }
   return true;
}

bool
panfrost_ssbo_use_in_draw(struct panfrost_context *ctx,
                          enum pipe_shader_type stage)
{
   const struct pipe_shader_buffer *sb = ctx->compute.ssbos[stage];
   uint32_t writable = ctx->compute.ssbo_writable[stage];

   if (!(ctx->state.cbuf_mask[stage] & BITFIELD_BIT(PANFROST_SSBO_CBUF)))
      return true;
   /* Unbound slots' accesses go there (panfrost_ssbo_check_draw). */
   if (ctx->compute.ssbo_sink &&
       !panfrost_batch_add_bo(ctx, ctx->compute.ssbo_sink,
                              PAN_BO_ACCESS_READ | PAN_BO_ACCESS_WRITE))
      return false;
   for (unsigned i = 0; i < PANFROST_MAX_SSBOS; ++i) {
      if (!sb[i].buffer)
         continue;
      struct panfrost_resource *rsc = panfrost_resource(sb[i].buffer);
      bool write = writable & BITFIELD_BIT(i);
      if (!panfrost_batch_add_bo(ctx, rsc->bo,
                                 PAN_BO_ACCESS_READ |
                                    (write ? PAN_BO_ACCESS_WRITE : 0)))
         return false;
      /* Index ranges read from it before the pass ran are stale. */
      if (write)
         pan_index_cache_invalidate(&rsc->index_cache, sb[i].buffer_offset,
                                    sb[i].buffer_size);
   }
   /* Compute jobs run before the pass: a dispatch after these draws
    * submits the pass first (pan_compute.c).
    */
   ctx->batch.draw_ssbos = true;
   return true;
}

bool
panfrost_vertex_results_for_draw(struct panfrost_context *ctx,
                                 const struct panfrost_shader *vs,
                                 uint32_t first, uint32_t span,
                                 uint32_t instances)
{
   struct panfrost_state *st = &ctx->state;
   struct pipe_constant_buffer *cb =
      &st->cbufs[PIPE_SHADER_VERTEX][PANFROST_VERTEX_RESULTS_CBUF];
   const uint32_t bit = BITFIELD_BIT(PANFROST_VERTEX_RESULTS_CBUF);

   if (!vs->vertex_results_B) {
      /* Left bound, it would cost each later draw an upload. */
      if (st->cbuf_mask[PIPE_SHADER_VERTEX] & bit) {
         memset(cb, 0, sizeof(*cb));
         st->cbuf_mask[PIPE_SHADER_VERTEX] &= ~bit;
         ctx->dirty |= PANFROST_DIRTY_CONST_VS;
      }
      return true;
   }
   uint64_t size_B = (uint64_t)span * instances * vs->vertex_results_B;
   if (size_B > PANFROST_VERTEX_RESULTS_MAX_B) {
      panfrost_warn_once(ctx, PANFROST_WARN_DRAW,
                         "a vertex shader's atomics for %u vertices of %u "
                         "instances are too many, draw dropped",
                         span, instances);
      return false;
   }
   /* Read by this draw only: the batch's memory. */
   struct pan_ptr buf = pan_pool_alloc(&ctx->batch.pool, size_B, 8);
   if (!buf.cpu)
      return false;
   uint32_t *w = ctx->vertex_results_words;
   w[0] = (uint32_t)buf.gpu;
   w[1] = (uint32_t)(buf.gpu >> 32);
   w[2] = first;
   w[3] = span;
   cb->buffer = NULL;
   cb->buffer_offset = 0;
   cb->user_buffer = w;
   cb->buffer_size = sizeof(ctx->vertex_results_words);
   st->cbuf_mask[PIPE_SHADER_VERTEX] |= bit;
   /* New words for each draw: pushed again. */
   ctx->dirty |= PANFROST_DIRTY_CONST_VS;
   return true;
}
