/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Primitive queries.  The draw path counts each draw's primitives on the
 * CPU when it is made (pan_xfb.c), into counters that only grow; a query
 * keeps their values at begin and at end, and its result is the
 * difference, known as soon as it ends.
 *
 * Timer queries have no GPU timestamps to read: they submit what is
 * pending, wait for it, and read the clock get_timestamp reads (the CPU's
 * monotonic clock).  That serialises the CPU and the GPU at each timer
 * query, and measures the GPU's work as the time until it is done.
 *
 * Occlusion queries own a BO of one 64-bit counter per shader core id,
 * which the fragment jobs of the draws made while the query is active add
 * their passing samples to (or set, for a predicate); the result is the
 * sum, read once the batch is done.
 */

#include <string.h>

#include "pipe/p_screen.h"
#include "util/os_time.h"
#include "util/u_memory.h"

#include "pan_bo.h"
#include "pan_context.h"
#include "pan_screen.h"

struct panfrost_query {
   enum pipe_query_type type;
   unsigned index; /* vertex stream */
   bool active;
   struct panfrost_prim_counters begin, end;
   uint64_t begin_ns, end_ns; /* timer queries */
   struct pan_bo *bo;         /* occlusion queries */
   bool used;                 /* a draw was given bo */
};

static bool
is_occlusion(enum pipe_query_type type)
{
   return type == PIPE_QUERY_OCCLUSION_COUNTER ||
          type == PIPE_QUERY_OCCLUSION_PREDICATE ||
          type == PIPE_QUERY_OCCLUSION_PREDICATE_CONSERVATIVE;
}

static bool
is_timer(enum pipe_query_type type)
{
   return type == PIPE_QUERY_TIMESTAMP || type == PIPE_QUERY_TIME_ELAPSED;
}

/* The clock once the GPU has finished everything submitted so far. */
static uint64_t
idle_time(struct pipe_context *pctx)
{
   struct pipe_screen *screen = pctx->screen;
   struct pipe_fence_handle *fence = NULL;

   pctx->flush(pctx, &fence, 0);
   if (fence) {
      screen->fence_finish(screen, pctx, fence, OS_TIMEOUT_INFINITE);
      screen->fence_reference(screen, &fence, NULL);
   }
   return screen->get_timestamp(screen);
}

static struct panfrost_query *
pan_query(struct pipe_query *q)
{
   return (struct panfrost_query *)q;
}

/* Fresh zeroed counters for occlusion query q; false when out of memory. */
static bool
new_counters(struct pipe_context *pctx, struct panfrost_query *q)
{
   struct pan_device *dev = &panfrost_screen(pctx->screen)->dev;
   struct pan_bo *bo = pan_bo_create(dev, sizeof(uint64_t) * dev->core_id_range,
                                     0, "Occlusion query");

   if (!bo || !pan_bo_mmap(bo)) {
      pan_bo_unref(bo);
      return false;
   }
   memset(bo->cpu, 0, bo->size_B);
   pan_bo_unref(q->bo);
   q->bo = bo;
   q->used = false;
   return true;
}

static struct pipe_query *
panfrost_create_query(struct pipe_context *pctx, unsigned type, unsigned index)
{
   switch (type) {
   case PIPE_QUERY_PRIMITIVES_GENERATED:
   case PIPE_QUERY_PRIMITIVES_EMITTED:
   case PIPE_QUERY_SO_STATISTICS:
   case PIPE_QUERY_SO_OVERFLOW_PREDICATE:
   case PIPE_QUERY_SO_OVERFLOW_ANY_PREDICATE:
   case PIPE_QUERY_TIMESTAMP:
   case PIPE_QUERY_TIME_ELAPSED:
   case PIPE_QUERY_OCCLUSION_COUNTER:
   case PIPE_QUERY_OCCLUSION_PREDICATE:
   case PIPE_QUERY_OCCLUSION_PREDICATE_CONSERVATIVE:
      break;
   default:
      return NULL;
   }

   struct panfrost_query *q = CALLOC_STRUCT(panfrost_query);
   if (!q)
      return NULL;
   q->type = type;
   q->index = index;
   if (is_occlusion(type) && !new_counters(pctx, q)) {
      FREE(q);
      return NULL;
   }
   return (struct pipe_query *)q;
}

static void
panfrost_destroy_query(struct pipe_context *pctx, struct pipe_query *pq)
{
   struct panfrost_query *q = pan_query(pq);

   struct panfrost_context *ctx = panfrost_context(pctx);

   if (ctx->render_cond.query == pq)
      ctx->render_cond.query = NULL;

   if (ctx->occlusion == q)
      ctx->occlusion = NULL;
   else if (q->active)
      ctx->xfb.active_queries--;
   pan_bo_unref(q->bo);
   FREE(q);
}

static bool
panfrost_begin_query(struct pipe_context *pctx, struct pipe_query *pq)
{
   struct panfrost_xfb_ctx *x = &panfrost_context(pctx)->xfb;
   struct panfrost_query *q = pan_query(pq);

   if (is_timer(q->type)) {
      q->begin_ns = idle_time(pctx);
      return true;
   }
   if (q->bo) {
      /* Draws of an earlier use may still add to the counters: those get
       * new ones rather than a flush. */
      if (q->used && !new_counters(pctx, q))
         return false;
      panfrost_context(pctx)->occlusion = q;
      return true;
   }
   if (!q->active)
      x->active_queries++;
   q->active = true;
   q->begin = x->counts;
   return true;
}

static bool
panfrost_end_query(struct pipe_context *pctx, struct pipe_query *pq)
{
   struct panfrost_xfb_ctx *x = &panfrost_context(pctx)->xfb;
   struct panfrost_query *q = pan_query(pq);

   if (is_timer(q->type)) {
      q->end_ns = idle_time(pctx);
      return true;
   }
   if (q->bo) {
      struct panfrost_context *ctx = panfrost_context(pctx);
      if (ctx->occlusion == q)
         ctx->occlusion = NULL;
      return true;
   }
   if (q->active)
      x->active_queries--;
   q->active = false;
   q->end = x->counts;
   return true;
}

/* An occlusion query's result, false when it is not known yet (when
 * !wait).  Only the pending batch can still have to add to the counters:
 * it is submitted when it does and submit allows; without a submit, a
 * result it still has to add to is not known yet.
 */
static bool
occlusion_result(struct panfrost_context *ctx, struct panfrost_query *q,
                 bool wait, bool submit, union pipe_query_result *result)
{
   if (panfrost_batch_uses_bo(ctx, q->bo)) {
      if (!submit)
         return false;
      panfrost_batch_submit(ctx);
   }
   if (!pan_bo_wait(q->bo, wait ? INT64_MAX : 0, false))
      return false;
   uint64_t passed = 0;
   const uint64_t *counter = q->bo->cpu;
   unsigned cores = panfrost_screen(ctx->base.screen)->dev.core_id_range;
   for (unsigned i = 0; i < cores; ++i)
      passed += counter[i];
   if (q->type == PIPE_QUERY_OCCLUSION_COUNTER)
      result->u64 = passed;
   else
      result->b = passed != 0;
   return true;
}

static bool
panfrost_get_query_result(struct pipe_context *pctx, struct pipe_query *pq,
                          bool wait, union pipe_query_result *result)
{
   struct panfrost_query *q = pan_query(pq);
   /* Only stream 0 exists: the others count nothing. */
   bool stream0 = q->index == 0 ||
                  q->type == PIPE_QUERY_SO_OVERFLOW_ANY_PREDICATE;
   uint64_t generated = stream0 ? q->end.generated - q->begin.generated : 0;
   uint64_t emitted = stream0 ? q->end.emitted - q->begin.emitted : 0;

   /* A result that is not ready is asked for again: the submit lets it
    * become ready even without a wait. */
   if (q->bo)
      return occlusion_result(panfrost_context(pctx), q, wait, true, result);

   switch (q->type) {
   case PIPE_QUERY_PRIMITIVES_GENERATED:
      result->u64 = generated;
      break;
   case PIPE_QUERY_PRIMITIVES_EMITTED:
      result->u64 = emitted;
      break;
   case PIPE_QUERY_SO_STATISTICS:
      result->so_statistics.num_primitives_written = emitted;
      result->so_statistics.primitives_storage_needed = generated;
      break;
   case PIPE_QUERY_TIMESTAMP:
      result->u64 = q->end_ns;
      break;
   case PIPE_QUERY_TIME_ELAPSED:
      result->u64 = q->end_ns - q->begin_ns;
      break;
   default:
      result->b = stream0 && q->end.overflows != q->begin.overflows;
      break;
   }
   return true;
}

static void
panfrost_set_active_query_state(struct pipe_context *pctx, bool enable)
{
   panfrost_context(pctx)->xfb.queries_paused = !enable;
}

bool
panfrost_occlusion_for_draw(struct panfrost_context *ctx, uint64_t *va,
                            bool *counter)
{
   struct panfrost_query *q = ctx->occlusion;

   *va = 0;
   if (!q || ctx->xfb.queries_paused)
      return true;
   q->used = true;
   *va = q->bo->gpu_va;
   *counter = q->type == PIPE_QUERY_OCCLUSION_COUNTER;
   return panfrost_batch_add_bo(ctx, q->bo,
                                PAN_BO_ACCESS_READ | PAN_BO_ACCESS_WRITE);
}

static void
panfrost_render_condition(struct pipe_context *pctx, struct pipe_query *pq,
                          bool condition, enum pipe_render_cond_flag mode)
{
   struct panfrost_context *ctx = panfrost_context(pctx);

   ctx->render_cond.query = pq;
   ctx->render_cond.condition = condition;
   ctx->render_cond.mode = mode;
}

bool
panfrost_render_condition_check(struct panfrost_context *ctx)
{
   struct pipe_query *pq = ctx->render_cond.query;
   enum pipe_render_cond_flag mode = ctx->render_cond.mode;
   bool wait = mode == PIPE_RENDER_COND_WAIT ||
               mode == PIPE_RENDER_COND_BY_REGION_WAIT;
   union pipe_query_result result = {0};

   if (!pq)
      return true;
   /* No-wait modes render when the result is not known yet, without
    * submitting the pending batch to learn it. */
   struct panfrost_query *q = pan_query(pq);
   bool known = q->bo ? occlusion_result(ctx, q, wait, wait, &result)
                      : panfrost_get_query_result(&ctx->base, pq, wait,
                                                  &result);
   if (!known)
      return true;
   /* A counter stands for "any sample passed". */
   bool value = q->type == PIPE_QUERY_OCCLUSION_COUNTER
                   ? result.u64 != 0
                   : result.b;
   return value != ctx->render_cond.condition;
}

void
panfrost_context_init_query(struct pipe_context *pctx)
{
   pctx->create_query = panfrost_create_query;
   pctx->destroy_query = panfrost_destroy_query;
   pctx->begin_query = panfrost_begin_query;
   pctx->end_query = panfrost_end_query;
   pctx->get_query_result = panfrost_get_query_result;
   pctx->set_active_query_state = panfrost_set_active_query_state;
   pctx->render_condition = panfrost_render_condition;
}
