/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Stream output targets and the capture of a draw's vertices.  The draw's
 * primitives are unrolled on the CPU into a list of (vertex id, instance
 * id) pairs in GL's capture order (strips, loops and fans as separate
 * primitives, restarts honoured); the vertex shader's compute variant runs
 * once per pair and writes the selected outputs at the targets' current
 * offsets.  Only whole primitives that fit in every buffer are written; the
 * counts feed the primitive queries.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/nir/nir.h"
#include "util/format/u_format.h"
#include "util/log.h"
#include "util/u_inlines.h"
#include "util/u_math.h"
#include "util/u_memory.h"

#include "pan_bo.h"
#include "pan_context.h"
#include "pan_resource.h"

#define XFB_BLOCK 32

static struct panfrost_so_target *
so_target(struct pipe_stream_output_target *t)
{
   return (struct panfrost_so_target *)t;
}

static struct pipe_stream_output_target *
panfrost_create_so_target(struct pipe_context *pctx,
                          struct pipe_resource *prsc, unsigned offset_B,
                          unsigned size_B)
{
   struct panfrost_so_target *t = CALLOC_STRUCT(panfrost_so_target);

   if (!t)
      return NULL;
   pipe_reference_init(&t->base.reference, 1);
   pipe_resource_reference(&t->base.buffer, prsc);
   t->base.context = pctx;
   struct panfrost_xfb_ctx *x = &panfrost_context(pctx)->xfb;
   if (!x->tracking) {
      /* The pending draws were not noted: until the batch is submitted,
       * ask it about every buffer (feeds_draws). */
      x->tracking = true;
      x->nr_reads = PANFROST_XFB_MAX_READS + 1;
   }
   t->base.buffer_offset = offset_B;
   t->base.buffer_size = size_B;
   return &t->base;
}

static void
panfrost_so_target_destroy(struct pipe_context *pctx,
                           struct pipe_stream_output_target *t)
{
   pipe_resource_reference(&t->buffer, NULL);
   FREE(t);
}

/* An offset of -1 appends to what the target already holds. */
static void
panfrost_set_so_targets(struct pipe_context *pctx, unsigned num,
                        struct pipe_stream_output_target **targets,
                        const unsigned *offsets)
{
   struct panfrost_xfb_ctx *x = &panfrost_context(pctx)->xfb;

   for (unsigned i = 0; i < PIPE_MAX_SO_BUFFERS; ++i) {
      struct pipe_stream_output_target *t = i < num ? targets[i] : NULL;
      if (t && offsets[i] != ~0u)
         so_target(t)->offset_B = offsets[i];
      pipe_so_target_reference(&x->targets[i], t);
   }
   x->num_targets = num;
}

unsigned
panfrost_so_target_vertices(struct pipe_stream_output_target *t)
{
   struct panfrost_so_target *so = so_target(t);
   return so->stride_B ? so->offset_B / so->stride_B : 0;
}

struct panfrost_compute_shader *
panfrost_xfb_create_variant(struct panfrost_context *ctx, const nir_shader *nir,
                            const struct pipe_stream_output_info *so)
{
   if (!so->num_outputs)
      return NULL;

   nir_shader *copy = nir_shader_clone(NULL, nir);
   char err[200];
   if (!panfrost_nir_lower_xfb(copy, so, err, sizeof(err))) {
      struct panfrost_compute_shader *v =
         CALLOC_STRUCT(panfrost_compute_shader);
      mesa_loge("panfrost: %s", err);
      if (v)
         snprintf(v->error, sizeof(v->error), "%s", err);
      ralloc_free(copy);
      return v;
   }
   struct pipe_compute_state cso = {
      .ir_type = PIPE_SHADER_IR_NIR,
      .prog = copy,
      .req_input_mem = 8,
   };
   struct panfrost_compute_shader *v =
      ctx->base.create_compute_state(&ctx->base, &cso);
   /* Its texture fetches read the vertex stage's views and samplers, its
    * memory accesses the vertex stage's buffers and images. */
   if (v) {
      v->tex_stage = PIPE_SHADER_VERTEX;
      v->mem_stage = PIPE_SHADER_VERTEX;
   }
   return v;
}

/* The draw's primitives as a list of vertex ids. */
struct xfb_walk {
   enum pipe_prim_type mode;
   bool flatshade_first;
   const uint8_t *indices; /* at the draw's first index; NULL: not indexed */
   unsigned index_size, count, start;
   int bias;
   bool restart;
   unsigned restart_index;
};

static uint32_t
index_at(const struct xfb_walk *w, unsigned i)
{
   switch (w->index_size) {
   case 1:
      return w->indices[i];
   case 2:
      return ((const uint16_t *)w->indices)[i];
   default:
      return ((const uint32_t *)w->indices)[i];
   }
}

static uint32_t
vertex_id(const struct xfb_walk *w, unsigned i)
{
   return w->indices ? index_at(w, i) + w->bias : w->start + i;
}

/* Appends the vertices of the primitives of positions [first, first + len)
 * (no restart inside) to out (when not NULL); returns the new count.
 */
static unsigned
unroll_segment(const struct xfb_walk *w, unsigned first, unsigned len,
               uint32_t *out, unsigned n)
{
#define PUT(p)                                                                \
   do {                                                                       \
      if (out)                                                                \
         out[n] = vertex_id(w, first + (p));                                  \
      n++;                                                                    \
   } while (0)

   switch (w->mode) {
   case PIPE_PRIM_POINTS:
      for (unsigned p = 0; p < len; ++p)
         PUT(p);
      break;
   case PIPE_PRIM_LINES:
      for (unsigned p = 0; p + 1 < len; p += 2) {
         PUT(p);
         PUT(p + 1);
      }
      break;
   case PIPE_PRIM_LINE_STRIP:
   case PIPE_PRIM_LINE_LOOP:
      for (unsigned p = 0; p + 1 < len; ++p) {
         PUT(p);
         PUT(p + 1);
      }
      if (w->mode == PIPE_PRIM_LINE_LOOP && len >= 2) {
         PUT(len - 1);
         PUT(0);
      }
      break;
   case PIPE_PRIM_TRIANGLES:
      for (unsigned p = 0; p + 2 < len; p += 3) {
         PUT(p);
         PUT(p + 1);
         PUT(p + 2);
      }
      break;
   case PIPE_PRIM_TRIANGLE_STRIP:
      /* Odd triangles swap two vertices to keep the winding, keeping the
       * provoking vertex in its place.
       */
      for (unsigned p = 0; p + 2 < len; ++p) {
         unsigned odd = p & 1;
         if (w->flatshade_first) {
            PUT(p);
            PUT(p + 1 + odd);
            PUT(p + 2 - odd);
         } else {
            PUT(p + odd);
            PUT(p + 1 - odd);
            PUT(p + 2);
         }
      }
      break;
   case PIPE_PRIM_TRIANGLE_FAN:
      for (unsigned p = 1; p + 1 < len; ++p) {
         if (w->flatshade_first) {
            PUT(p);
            PUT(p + 1);
            PUT(0);
         } else {
            PUT(0);
            PUT(p);
            PUT(p + 1);
         }
      }
      break;
   /* With adjacency, only geometry shaders take them (GL's order). */
   case PIPE_PRIM_LINES_ADJACENCY:
      for (unsigned p = 0; p + 3 < len; p += 4) {
         for (unsigned v = 0; v < 4; ++v)
            PUT(p + v);
      }
      break;
   case PIPE_PRIM_LINE_STRIP_ADJACENCY:
      for (unsigned p = 0; p + 3 < len; ++p) {
         for (unsigned v = 0; v < 4; ++v)
            PUT(p + v);
      }
      break;
   case PIPE_PRIM_TRIANGLES_ADJACENCY:
      for (unsigned p = 0; p + 5 < len; p += 6) {
         for (unsigned v = 0; v < 6; ++v)
            PUT(p + v);
      }
      break;
   case PIPE_PRIM_TRIANGLE_STRIP_ADJACENCY:
      /* Triangle t of the even vertices, each edge followed by the vertex
       * across it: the previous triangle's (1 for the first), the next
       * one's (2t + 5 for the last) and 2t + 3; odd triangles start at
       * their second vertex to keep the winding.
       */
      for (unsigned t = 0; 2 * t + 5 < len; ++t) {
         unsigned e = 2 * t;
         unsigned before = t ? e - 2 : 1;
         unsigned after = e + 7 < len ? e + 6 : e + 5;
         if (t & 1) {
            PUT(e + 2);
            PUT(before);
            PUT(e);
            PUT(e + 3);
            PUT(e + 4);
            PUT(after);
         } else {
            PUT(e);
            PUT(before);
            PUT(e + 2);
            PUT(after);
            PUT(e + 4);
            PUT(e + 3);
         }
      }
      break;
   default:
      break;
   }
#undef PUT
   return n;
}

static unsigned
unroll(const struct xfb_walk *w, uint32_t *out)
{
   unsigned n = 0, first = 0;

   for (unsigned i = 0; i <= w->count; ++i) {
      if (i == w->count ||
          (w->indices && w->restart && index_at(w, i) == w->restart_index)) {
         n = unroll_segment(w, first, i - first, out, n);
         first = i + 1;
      }
   }
   return n;
}

static unsigned
vertices_per_prim(enum pipe_prim_type mode)
{
   switch (mode) {
   case PIPE_PRIM_POINTS:
      return 1;
   case PIPE_PRIM_LINES:
   case PIPE_PRIM_LINE_STRIP:
   case PIPE_PRIM_LINE_LOOP:
      return 2;
   case PIPE_PRIM_TRIANGLES:
   case PIPE_PRIM_TRIANGLE_STRIP:
   case PIPE_PRIM_TRIANGLE_FAN:
      return 3;
   default:
      return 0;
   }
}

/* The draw's indices on the CPU, after the work writing them. */
static const uint8_t *
map_indices(struct panfrost_context *ctx, const struct pipe_draw_info *info,
            const struct pipe_draw_start_count_bias *draw)
{
   const uint8_t *base;

   if (info->has_user_indices) {
      base = info->index.user;
   } else {
      struct panfrost_resource *rsc = panfrost_resource(info->index.resource);
      if (panfrost_batch_writes(ctx, &rsc->base))
         panfrost_batch_submit(ctx);
      base = pan_bo_wait(rsc->bo, INT64_MAX, false) ? pan_bo_mmap(rsc->bo)
                                                      : NULL;
   }
   return base ? base + draw->start * info->index_size : NULL;
}

bool
panfrost_compute_ubo_addresses(struct panfrost_context *ctx,
                               enum pipe_shader_type stage, uint64_t *ubos)
{
   for (unsigned i = 0; i < PIPE_MAX_CONSTANT_BUFFERS; ++i) {
      const struct pipe_constant_buffer *cb = &ctx->state.cbufs[stage][i];
      if (cb->buffer) {
         struct pan_bo *bo = panfrost_resource(cb->buffer)->bo;
         if (!panfrost_batch_add_bo(ctx, bo, PAN_BO_ACCESS_READ))
            return false;
         ubos[i] = bo->gpu_va + cb->buffer_offset;
      } else if (cb->user_buffer) {
         struct pan_ptr c =
            pan_pool_alloc(&ctx->batch.pool, MAX2(cb->buffer_size, 4), 16);
         if (!c.cpu)
            return false;
         memcpy(c.cpu, cb->user_buffer, cb->buffer_size);
         ubos[i] = c.gpu;
      }
   }
   return true;
}

/* Runs the capture of n vertices (a whole number of primitives) whose
 * pairs are in the table after p; false when out of memory.
 */
static bool
dispatch(struct panfrost_context *ctx, struct panfrost_compute_shader *v,
         uint64_t params, unsigned n)
{
   struct panfrost_compute_shader *saved = ctx->compute.shader;
   uint32_t input[2] = { (uint32_t)params, (uint32_t)(params >> 32) };
   struct pipe_grid_info grid = {
      .block = { XFB_BLOCK, 1, 1 },
      .grid = { DIV_ROUND_UP(n, XFB_BLOCK), 1, 1 },
      .input = input,
   };

   /* The draw passed the render condition: checking it again could wait
    * for its query, which submits the batch holding the parameters. */
   struct pipe_query *cond = ctx->render_cond.query;
   ctx->render_cond.query = NULL;
   ctx->compute.shader = v;
   ctx->base.launch_grid(&ctx->base, &grid);
   ctx->compute.shader = saved;
   ctx->render_cond.query = cond;
   return true;
}

static void
note_read(struct panfrost_xfb_ctx *x, const struct pipe_resource *prsc)
{
   if (!prsc || x->nr_reads > PANFROST_XFB_MAX_READS)
      return;
   for (unsigned i = 0; i < x->nr_reads; ++i) {
      if (x->reads[i] == prsc)
         return;
   }
   if (x->nr_reads < PANFROST_XFB_MAX_READS)
      x->reads[x->nr_reads] = prsc;
   x->nr_reads++;
}

/* Notes the buffers a draw reads (vertex, index and constant buffers,
 * texture buffers).
 * Every draw passes here before its job joins the batch, so a batch
 * without draw jobs means a new batch: the list starts again.
 */
static void
note_draw_reads(struct panfrost_context *ctx, const struct pipe_draw_info *info)
{
   struct panfrost_xfb_ctx *x = &ctx->xfb;

   if (!util_dynarray_num_elements(&ctx->batch.draw_jobs,
                                   struct panfrost_batch_job))
      x->nr_reads = 0;
   u_foreach_bit(i, ctx->state.vbuf_mask)
      note_read(x, ctx->state.vbufs[i].buffer.resource);
   if (info->index_size && !info->has_user_indices)
      note_read(x, info->index.resource);
   for (unsigned s = 0; s < 2; ++s) {
      enum pipe_shader_type st = s ? PIPE_SHADER_FRAGMENT : PIPE_SHADER_VERTEX;
      for (unsigned i = 0; i < PIPE_MAX_CONSTANT_BUFFERS; ++i)
         note_read(x, ctx->state.cbufs[st][i].buffer);
      u_foreach_bit(i, ctx->state.view_mask[st]) {
         const struct pipe_sampler_view *v = ctx->state.views[st][i];
         if (v->target == PIPE_BUFFER)
            note_read(x, v->texture);
      }
   }
}

/* Whether a draw already in the batch may read prsc. */
static bool
feeds_draws(struct panfrost_context *ctx, struct pipe_resource *prsc)
{
   const struct panfrost_xfb_ctx *x = &ctx->xfb;

   if (x->nr_reads > PANFROST_XFB_MAX_READS)
      return panfrost_batch_uses(ctx, prsc);
   for (unsigned i = 0; i < x->nr_reads; ++i) {
      if (x->reads[i] == prsc)
         return true;
   }
   return false;
}

/* Captures the first n vertices of the unrolled draw (per_instance per
 * instance, in ids) into the targets; true when the variant was run.
 */
static bool
capture(struct panfrost_context *ctx, struct panfrost_shader *vs,
        const struct pipe_draw_info *info, unsigned drawid,
        const struct xfb_walk *w, const uint32_t *ids, unsigned per_instance,
        unsigned n)
{
   struct panfrost_xfb_ctx *x = &ctx->xfb;
   const struct pipe_stream_output_info *so = &vs->stream_output;

   if (vs->xfb->error[0]) {
      panfrost_warn_once(ctx, PANFROST_WARN_DRAW,
                         "transform feedback variant refused, nothing "
                         "captured: %s",
                         vs->xfb->error);
      return false;
   }

   /* The batch's compute jobs run before its draws: a draw already in it
    * must not read what this capture writes (the pixels drawn so far are
    * lost until passes preload their previous contents).
    */
   bool drawn = util_dynarray_num_elements(&ctx->batch.draw_jobs,
                                           struct panfrost_batch_job) != 0;
   for (unsigned b = 0; drawn && b < PIPE_MAX_SO_BUFFERS; ++b) {
      if (so->stride[b] && feeds_draws(ctx, x->targets[b]->buffer)) {
         panfrost_batch_submit(ctx);
         break;
      }
   }

   /* A submit after the targets are added to the batch would drop them. */
   panfrost_compute_submit_before(ctx, vs->xfb);
   uint64_t targets[PIPE_MAX_SO_BUFFERS] = { 0 };
   for (unsigned b = 0; b < PIPE_MAX_SO_BUFFERS; ++b) {
      if (!so->stride[b])
         continue;
      struct panfrost_so_target *t = so_target(x->targets[b]);
      struct panfrost_resource *rsc = panfrost_resource(t->base.buffer);
      unsigned at = t->base.buffer_offset + t->offset_B;
      unsigned size_B = n * so->stride[b] * 4;
      if (!panfrost_batch_add_bo(ctx, rsc->bo,
                                 PAN_BO_ACCESS_READ | PAN_BO_ACCESS_WRITE))
         goto oom;
      pan_index_cache_invalidate(&rsc->index_cache, at, size_B);
      targets[b] = rsc->bo->gpu_va + at;
      t->offset_B += size_B;
      t->stride_B = so->stride[b] * 4;
   }
   if (panfrost_xfb_run(ctx, vs->xfb, info, drawid, w->indices ? w->bias
                                                               : w->start,
                        w->indices != NULL, ids, per_instance, n,
                        targets) >= 0)
      return true;
oom:
   mesa_loge("panfrost: out of memory for transform feedback, nothing "
             "captured");
   return false;
}

int
panfrost_xfb_run(struct panfrost_context *ctx,
                 struct panfrost_compute_shader *v,
                 const struct pipe_draw_info *info, unsigned drawid,
                 int32_t first_vertex, bool indexed, const uint32_t *ids,
                 unsigned per_instance, unsigned n, const uint64_t *targets)
{
   unsigned table_B = ALIGN_POT(sizeof(struct panfrost_xfb_params), 16);
   /* Before anything goes into the batch: a submit would drop it. */
   panfrost_compute_submit_before(ctx, v);
   struct pan_ptr mem =
      pan_pool_alloc(&ctx->batch.pool, table_B + (size_t)n * 8, 16);
   if (!mem.cpu)
      return -1;
   struct panfrost_xfb_params *p = mem.cpu;
   memset(p, 0, sizeof(*p));
   p->count = n;
   p->first_vertex = first_vertex;
   p->base_instance = info->start_instance;
   p->draw_id = drawid;
   p->is_indexed = indexed;
   if (!panfrost_xfb_fill_attribs(ctx, p, ids, per_instance,
                                  DIV_ROUND_UP(n, per_instance)))
      return 1;
   if (!panfrost_compute_ubo_addresses(ctx, PIPE_SHADER_VERTEX, p->ubos))
      return -1;

   uint32_t *pairs = (uint32_t *)((uint8_t *)mem.cpu + table_B);
   for (unsigned i = 0; i < n; ++i) {
      pairs[2 * i] = ids[i % per_instance];
      pairs[2 * i + 1] = i / per_instance;
   }
   memcpy(p->targets, targets, sizeof(p->targets));
   dispatch(ctx, v, mem.gpu, n);
   return 0;
}

/* Primitives of the draw that fit in every buffer the shader writes. */
static uint64_t
prims_that_fit(struct panfrost_context *ctx,
               const struct pipe_stream_output_info *so, unsigned vpp,
               uint64_t prims)
{
   for (unsigned b = 0; b < PIPE_MAX_SO_BUFFERS; ++b) {
      if (!so->stride[b])
         continue;
      struct pipe_stream_output_target *t = ctx->xfb.targets[b];
      if (!t)
         return 0;
      unsigned used = so_target(t)->offset_B;
      uint64_t room = t->buffer_size > used ? t->buffer_size - used : 0;
      prims = MIN2(prims, room / (so->stride[b] * 4) / vpp);
   }
   return prims;
}

bool
panfrost_xfb_draw(struct panfrost_context *ctx,
                  const struct pipe_draw_info *info, unsigned drawid,
                  const struct pipe_draw_start_count_bias *draw)
{
   struct panfrost_xfb_ctx *x = &ctx->xfb;
   struct panfrost_shader *vs = ctx->state.shaders[PIPE_SHADER_VERTEX];
   const struct pipe_rasterizer_state *rast = ctx->state.rast;
   bool capturing = x->num_targets && vs && vs->xfb;
   bool counting = x->active_queries && !x->queries_paused;
   unsigned vpp = vertices_per_prim(info->mode);
   bool ran = false;

   if ((!capturing && !counting) || !vpp || !draw->count ||
       !info->instance_count)
      goto note;

   struct xfb_walk w = {
      .mode = info->mode,
      .flatshade_first = rast && rast->flatshade_first,
      .index_size = info->index_size,
      .count = draw->count,
      .start = draw->start,
      .bias = draw->index_bias,
      .restart = info->primitive_restart,
      .restart_index = info->restart_index,
   };
   if (info->index_size) {
      w.indices = map_indices(ctx, info, draw);
      if (!w.indices)
         goto note;
   }

   unsigned per_instance = unroll(&w, NULL);
   uint64_t prims = (uint64_t)per_instance / vpp * info->instance_count;
   uint64_t emitted = 0;
   if (capturing && prims) {
      emitted = prims_that_fit(ctx, &vs->stream_output, vpp, prims);
      uint32_t *ids = emitted ? malloc(per_instance * sizeof(uint32_t)) : NULL;
      if (ids) {
         unroll(&w, ids);
         ran = capture(ctx, vs, info, drawid, &w, ids, per_instance,
                       (unsigned)(emitted * vpp));
         free(ids);
      }
   }
   if (counting) {
      x->counts.generated += prims;
      /* A geometry shader's output is captured by pan_gs_xfb.c. */
      if (x->num_targets && !ctx->gs_index_range) {
         x->counts.emitted += emitted;
         x->counts.overflows += emitted < prims;
      }
   }
note:
   /* After the capture: its own reads are not in the batch yet. */
   if (x->tracking)
      note_draw_reads(ctx, info);
   return ran;
}

unsigned
panfrost_xfb_unroll_draw(struct panfrost_context *ctx,
                         const struct pipe_draw_info *info,
                         const struct pipe_draw_start_count_bias *draw,
                         uint32_t **ids)
{
   return panfrost_xfb_unroll_primitives(ctx, info, draw, false, ids);
}

unsigned
panfrost_xfb_unroll_primitives(struct panfrost_context *ctx,
                               const struct pipe_draw_info *info,
                               const struct pipe_draw_start_count_bias *draw,
                               bool flatshade_first, uint32_t **ids)
{
   struct xfb_walk w = {
      .mode = info->mode,
      .flatshade_first = flatshade_first,
      .index_size = info->index_size,
      .count = draw->count,
      .start = draw->start,
      .bias = draw->index_bias,
      .restart = info->primitive_restart,
      .restart_index = info->restart_index,
   };
   *ids = NULL;
   if (info->index_size) {
      w.indices = map_indices(ctx, info, draw);
      if (!w.indices)
         return 0;
   }
   unsigned n = unroll(&w, NULL);
   *ids = n ? malloc(n * sizeof(uint32_t)) : NULL;
   if (!*ids)
      return 0;
   unroll(&w, *ids);
   return n;
}

static int
compare_ids(const void *a, const void *b)
{
   uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
   return (x > y) - (x < y);
}

unsigned
panfrost_distinct_ids(uint32_t *ids, unsigned n)
{
   unsigned k = 0;

   qsort(ids, n, sizeof(*ids), compare_ids);
   for (unsigned i = 0; i < n; ++i) {
      if (!k || ids[k - 1] != ids[i])
         ids[k++] = ids[i];
   }
   return k;
}

unsigned
panfrost_id_rank(const uint32_t *ids, unsigned n, uint32_t id)
{
   const uint32_t *at = bsearch(&id, ids, n, sizeof(*ids), compare_ids);
   return at ? (unsigned)(at - ids) : 0;
}

void
panfrost_context_release_xfb(struct panfrost_context *ctx)
{
   for (unsigned i = 0; i < PIPE_MAX_SO_BUFFERS; ++i)
      pipe_so_target_reference(&ctx->xfb.targets[i], NULL);
}

void
panfrost_context_init_xfb(struct pipe_context *pctx)
{
   pctx->create_stream_output_target = panfrost_create_so_target;
   pctx->stream_output_target_destroy = panfrost_so_target_destroy;
   pctx->set_stream_output_targets = panfrost_set_so_targets;
}
