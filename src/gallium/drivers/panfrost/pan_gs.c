/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Geometry state objects and the draws through them (pan_gs.h): two
 * dispatches (the vertex shader's record variant, the geometry shader's
 * compute variant) and an indexed draw of the list they produce, all in
 * the current batch, whose compute jobs run before its render pass.
 */

#include <stdio.h>
#include <string.h>

#include "compiler/nir/nir.h"
#include "nir/tgsi_to_nir.h"
#include "util/log.h"
#include "util/ralloc.h"
#include "util/u_inlines.h"
#include "util/u_math.h"
#include "util/u_memory.h"

#include "pan_bo.h"
#include "pan_context.h"
#include "pan_gs.h"
#include "pan_index_range.h"
#include "pan_layer.h"
#include "pan_resource.h"

#define GS_BLOCK 32
#define GS_ARENA_B (4u << 20)

#define drop(ctx, ...) panfrost_warn_once(ctx, PANFROST_WARN_DRAW, __VA_ARGS__)

static void
gs_error(struct panfrost_context *ctx, struct panfrost_gs *gs, const char *msg)
{
   snprintf(gs->error, sizeof(gs->error), "%s", msg);
   mesa_loge("panfrost: geometry shader refused: %s", msg);
   util_debug_message(&ctx->debug, SHADER_INFO,
                      "panfrost: geometry shader refused: %s", msg);
}

static void *
panfrost_create_gs(struct pipe_context *pctx,
                   const struct pipe_shader_state *cso)
{
   struct panfrost_context *ctx = panfrost_context(pctx);
   struct panfrost_gs *gs = CALLOC_STRUCT(panfrost_gs);
   char err[sizeof(gs->error)] = "";

   if (!gs)
      return NULL;
   nir_shader *nir = cso->type == PIPE_SHADER_IR_NIR
                        ? cso->ir.nir
                        : tgsi_to_nir(cso->tokens, pctx->screen, false);
   gs->stream_output = cso->stream_output;
   if (!panfrost_nir_lower_gs(nir, &gs->info, err, sizeof(err))) {
      ralloc_free(nir);
      gs_error(ctx, gs, err);
      return gs;
   }
   /* One viewport (PIPE_CAP_MAX_VIEWPORTS is 1). */
   if (gs->info.out_mask & BITFIELD64_BIT(VARYING_SLOT_VIEWPORT)) {
      ralloc_free(nir);
      gs_error(ctx, gs, "gl_ViewportIndex is not supported");
      return gs;
   }

   /* The compute variant, and what draws its output. */
   struct pipe_compute_state c = {
      .ir_type = PIPE_SHADER_IR_NIR,
      .prog = nir,
      .req_input_mem = 8,
   };
   gs->compute = pctx->create_compute_state(pctx, &c);
   if (!gs->compute || gs->compute->error[0]) {
      gs_error(ctx, gs,
               gs->compute ? gs->compute->error
                           : "out of memory for its variant");
      return gs;
   }
   gs->compute->tex_stage = PIPE_SHADER_GEOMETRY;
   const void *options = pctx->screen->get_compiler_options(
      pctx->screen, PIPE_SHADER_IR_NIR, PIPE_SHADER_VERTEX);
   struct pipe_shader_state vs = {
      .type = PIPE_SHADER_IR_NIR,
      .ir.nir = panfrost_gs_passthrough_vs(options, &gs->info),
   };
   gs->vs = pctx->create_vs_state(pctx, &vs);
   if (!gs->vs || gs->vs->error[0]) {
      gs_error(ctx, gs, gs->vs ? gs->vs->error : "out of memory");
      return gs;
   }
   /* The pass-through shader reads the records with global loads; the
    * records stay vertex buffer 0 of its draw, which no element reads. */
   struct pipe_vertex_element ve = {
      .src_format = PIPE_FORMAT_R32G32B32A32_UINT,
   };
   gs->vertex_elements = pctx->create_vertex_elements_state(pctx, 1, &ve);
   if (!gs->vertex_elements)
      gs_error(ctx, gs, "out of memory");
   return gs;
}

static void
panfrost_bind_gs(struct pipe_context *pctx, void *cso)
{
   panfrost_context(pctx)->gs = cso;
}

static void
panfrost_delete_gs(struct pipe_context *pctx, void *cso)
{
   struct panfrost_context *ctx = panfrost_context(pctx);
   struct panfrost_gs *gs = cso;

   if (ctx->gs == gs)
      ctx->gs = NULL;
   if (gs->compute)
      pctx->delete_compute_state(pctx, gs->compute);
   if (gs->vs)
      pctx->delete_vs_state(pctx, gs->vs);
   if (gs->vertex_elements)
      pctx->delete_vertex_elements_state(pctx, gs->vertex_elements);
   FREE(gs);
}

/* The vertex shader's record variant for the locations in mask, made at
 * the first draw with a geometry shader reading them.
 */
struct panfrost_compute_shader *
panfrost_gs_vs_records(struct panfrost_context *ctx,
                       struct panfrost_shader *vs, uint64_t mask)
{
   if (vs->gs_records && vs->gs_records_mask == mask)
      return vs->gs_records;
   if (vs->gs_records)
      ctx->base.delete_compute_state(&ctx->base, vs->gs_records);
   vs->gs_records = NULL;
   if (!vs->nir)
      return NULL;

   nir_shader *copy = nir_shader_clone(NULL, vs->nir);
   char err[200];
   if (!copy)
      return NULL;
   if (!panfrost_nir_lower_vs_records(copy, mask, err, sizeof(err))) {
      struct panfrost_compute_shader *v =
         CALLOC_STRUCT(panfrost_compute_shader);
      mesa_loge("panfrost: %s", err);
      if (v)
         snprintf(v->error, sizeof(v->error), "%s", err);
      ralloc_free(copy);
      vs->gs_records = v;
   } else {
      struct pipe_compute_state cso = {
         .ir_type = PIPE_SHADER_IR_NIR,
         .prog = copy,
         .req_input_mem = 8,
      };
      vs->gs_records = ctx->base.create_compute_state(&ctx->base, &cso);
      /* Vertex texture fetches read the vertex stage's views. */
      if (vs->gs_records) {
         vs->gs_records->tex_stage = PIPE_SHADER_VERTEX;
         vs->gs_records->mem_stage = PIPE_SHADER_VERTEX;
      }
   }
   vs->gs_records_mask = mask;
   return vs->gs_records;
}

static void
dispatch(struct panfrost_context *ctx, struct panfrost_compute_shader *v,
         uint64_t params, unsigned n)
{
   struct panfrost_compute_shader *saved = ctx->compute.shader;
   uint32_t input[2] = { (uint32_t)params, (uint32_t)(params >> 32) };
   struct pipe_grid_info grid = {
      .block = { GS_BLOCK, 1, 1 },
      .grid = { DIV_ROUND_UP(n, GS_BLOCK), 1, 1 },
      .input = input,
   };

   ctx->compute.shader = v;
   ctx->base.launch_grid(&ctx->base, &grid);
   ctx->compute.shader = saved;
}

/* Room for a draw's list and output records (pan_gs.h): draws share the context's
 * arena, a new one when it is full (the batches keep the old ones), so
 * that a batch of many draws holds few BOs.  NULL when out of memory.
 */
struct pipe_resource *
panfrost_gs_arena_alloc(struct panfrost_context *ctx, uint64_t size_B,
                        unsigned *offset_B)
{
   size_B = ALIGN_POT(size_B, 64);
   if (!ctx->gs_arena || ctx->gs_arena_used + size_B > ctx->gs_arena->width0) {
      pipe_resource_reference(&ctx->gs_arena, NULL);
      ctx->gs_arena = pipe_buffer_create(
         ctx->base.screen, PIPE_BIND_VERTEX_BUFFER | PIPE_BIND_INDEX_BUFFER,
         PIPE_USAGE_STREAM, MAX2(size_B, GS_ARENA_B));
      ctx->gs_arena_used = 0;
      if (!ctx->gs_arena)
         return NULL;
   }
   *offset_B = ctx->gs_arena_used;
   ctx->gs_arena_used += size_B;
   return ctx->gs_arena;
}

void
panfrost_context_release_gs(struct panfrost_context *ctx)
{
   pipe_resource_reference(&ctx->gs_arena, NULL);
}

void
panfrost_draw_records(struct panfrost_context *ctx, struct panfrost_shader *vs,
                      void *ve, const struct pipe_vertex_buffer *records,
                      uint64_t records_va, unsigned nr_records,
                      const struct pipe_draw_info *info, unsigned drawid,
                      const struct pipe_draw_start_count_bias *draw)
{
   struct panfrost_state *st = &ctx->state;
   struct pan_index_range range = { 0, nr_records - 1 };
   struct panfrost_gs *gs = ctx->gs;
   struct panfrost_shader *old_vs = st->shaders[PIPE_SHADER_VERTEX];
   void *old_ve = st->vertex_elements;
   struct pipe_vertex_buffer vb0 = st->vbufs[0];
   uint32_t vbuf_mask = st->vbuf_mask;
   unsigned vbuf_count = st->vbuf_count;
   struct pipe_constant_buffer cb0 = st->cbufs[PIPE_SHADER_VERTEX][0];
   uint32_t cbuf_mask = st->cbuf_mask[PIPE_SHADER_VERTEX];

   st->shaders[PIPE_SHADER_VERTEX] = vs;
   st->vertex_elements = ve;
   st->vbufs[0] = *records;
   st->vbuf_mask = 1;
   st->vbuf_count = 1;
   st->cbufs[PIPE_SHADER_VERTEX][0] = (struct pipe_constant_buffer){
      .user_buffer = &records_va,
      .buffer_size = sizeof(records_va),
   };
   st->cbuf_mask[PIPE_SHADER_VERTEX] |= 1;
   /* The records are indexed from 0: no scan of the list. */
   ctx->gs = NULL;
   ctx->gs_index_range = &range;
   ctx->dirty |= PANFROST_DIRTY_VERTEX | PANFROST_DIRTY_CONST_VS;

   panfrost_draw_vbo(&ctx->base, info, drawid, NULL, draw, 1);

   ctx->gs_index_range = NULL;
   ctx->gs = gs;
   st->shaders[PIPE_SHADER_VERTEX] = old_vs;
   st->vertex_elements = old_ve;
   st->vbufs[0] = vb0;
   st->vbuf_mask = vbuf_mask;
   st->vbuf_count = vbuf_count;
   st->cbufs[PIPE_SHADER_VERTEX][0] = cb0;
   st->cbuf_mask[PIPE_SHADER_VERTEX] = cbuf_mask;
   ctx->dirty |= PANFROST_DIRTY_VERTEX | PANFROST_DIRTY_CONST_VS;
}

/* Draws the list: the output records (at records_at_B), whose address the
 * pass-through shader finds in its constant buffer 0, the indices from
 * index_at_B of the same buffer.
 */
static void
draw_list(struct panfrost_context *ctx, struct panfrost_gs *gs,
          struct pipe_resource *buf, unsigned index_at_B, unsigned records_at_B,
          unsigned records, unsigned drawid)
{
   unsigned per = panfrost_gs_vertices_per_prim(gs->info.out_mode);
   struct pipe_draw_info info = {
      .mode = gs->info.out_mode,
      .index_size = 4,
      .primitive_restart = true,
      .restart_index = ~0u,
      .instance_count = 1,
      .index.resource = buf,
   };
   struct pipe_draw_start_count_bias draw = { .start = index_at_B / 4,
                                              .count = records * per };
   struct pipe_vertex_buffer vb = {
      .stride = util_bitcount64(gs->info.out_mask) * 16,
      .buffer_offset = records_at_B,
      .buffer.resource = buf,
   };

   panfrost_draw_records(ctx, gs->vs, gs->vertex_elements, &vb,
                         panfrost_resource(buf)->bo->gpu_va + records_at_B,
                         records, &info, drawid, &draw);
}

/* What a run of gs_draw does with its list. */
#define GS_CAPTURE (1 << 0) /* the stream outputs, when targets are bound */
#define GS_DRAW (1 << 1)

/* One draw: false when out of memory. */
static bool
gs_draw(struct panfrost_context *ctx, struct panfrost_gs *gs,
        struct panfrost_compute_shader *records,
        const struct pipe_draw_info *info, unsigned drawid,
        const struct pipe_draw_start_count_bias *draw, unsigned layer,
        unsigned layers, unsigned what)
{
   const struct panfrost_gs_info *gi = &gs->info;
   const struct pipe_rasterizer_state *rast = ctx->state.rast;
   uint32_t *ids;
   unsigned per_instance = panfrost_xfb_unroll_draw(ctx, info, draw, &ids);
   uint64_t prims = per_instance / gi->vertices_in;
   uint64_t invocations = prims * info->instance_count * gi->invocations;
   uint64_t records_n = invocations * gi->max_vertices;
   unsigned per = panfrost_gs_vertices_per_prim(gi->out_mode);
   unsigned in_B = util_bitcount64(gi->in_mask) * 16;
   unsigned out_B = util_bitcount64(gi->out_mask) * 16;

   if (!records_n) {
      free(ids);
      return true;
   }
   /* Both dispatches run before the pending pass and would not see what
    * it renders; submitting inside them would lose the records of this
    * batch's pool, so the pass goes now. */
   if (panfrost_compute_samples_pass_output(ctx, records) ||
       panfrost_compute_samples_pass_output(ctx, gs->compute))
      panfrost_batch_submit(ctx);
   uint64_t n = prims * gi->vertices_in * info->instance_count;
   uint64_t index_B = ALIGN_POT(records_n * per * 4, 64);
   uint64_t size_B = index_B + records_n * out_B;
   if (size_B > (1u << 30) || n * in_B > (1u << 30)) {
      drop(ctx, "a geometry shader draw would need more than 1 GiB, dropped");
      free(ids);
      return true;
   }

   /* 1. The vertex records. */
   struct pan_ptr in = pan_pool_alloc(&ctx->batch.pool, n * in_B, 16);
   uint64_t targets[PIPE_MAX_SO_BUFFERS] = { in.gpu };
   int r = in.cpu ? panfrost_xfb_run(ctx, records, info, drawid,
                                     info->index_size ? draw->index_bias
                                                      : draw->start,
                                     info->index_size != 0, ids, per_instance,
                                     (unsigned)n, targets)
                  : -1;
   free(ids);
   if (r)
      return r > 0;

   /* 2. The geometry shader, into a buffer the draw reads. */
   unsigned at_B = 0;
   struct pipe_resource *buf = panfrost_gs_arena_alloc(ctx, size_B, &at_B);
   struct pan_ptr p =
      pan_pool_alloc(&ctx->batch.pool, sizeof(struct panfrost_gs_params), 16);
   if (!buf || !p.cpu)
      return false;
   struct pan_bo *bo = panfrost_resource(buf)->bo;
   if (!panfrost_batch_add_bo(ctx, bo,
                              PAN_BO_ACCESS_READ | PAN_BO_ACCESS_WRITE))
      return false;
   struct panfrost_gs_params *params = p.cpu;
   *params = (struct panfrost_gs_params){
      .count = invocations,
      .prims = prims,
      .flatshade_first = rast && rast->flatshade_first,
      .in = in.gpu,
      .out = bo->gpu_va + at_B + index_B,
      .indices = bo->gpu_va + at_B,
      .layer = layer,
      .layers = layers,
   };
   if (!panfrost_compute_ubo_addresses(ctx, PIPE_SHADER_GEOMETRY,
                                       params->ubos))
      return false;
   dispatch(ctx, gs->compute, p.gpu, invocations);

   /* Transform feedback reads the list on the CPU (pan_gs_xfb.c). */
   if ((what & GS_CAPTURE) && gs->stream_output.num_outputs &&
       ctx->xfb.num_targets)
      panfrost_gs_capture(ctx, gs, buf, at_B, at_B + index_B, records_n);
   if (!(what & GS_DRAW))
      return true;

   /* 3. The list. */
   draw_list(ctx, gs, buf, at_B, at_B + index_B, records_n, drawid);
   return true;
}

/* Vertices of each primitive of the mode as a geometry shader takes it. */
static unsigned
input_vertices(enum pipe_prim_type mode)
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
   case PIPE_PRIM_LINES_ADJACENCY:
   case PIPE_PRIM_LINE_STRIP_ADJACENCY:
      return 4;
   case PIPE_PRIM_TRIANGLES_ADJACENCY:
   case PIPE_PRIM_TRIANGLE_STRIP_ADJACENCY:
      return 6;
   default:
      return 0;
   }
}

/* The draws of panfrost_gs_draw_vbo, into layers layers (0: layer 0). */
static void
gs_draws(struct panfrost_context *ctx, struct panfrost_gs *gs,
         struct panfrost_compute_shader *records,
         const struct pipe_draw_info *info, unsigned drawid_offset,
         const struct pipe_draw_start_count_bias *draws, unsigned num_draws,
         unsigned layers)
{
   /* A capture takes the primitives in the order they were emitted: from
    * a run of its own keeping every layer, which draws nothing. */
   bool capture = layers && gs->stream_output.num_outputs &&
                  ctx->xfb.num_targets;
   for (unsigned i = 0; i < num_draws; ++i) {
      unsigned drawid = drawid_offset + (info->increment_draw_id ? i : 0);
      if (capture &&
          !gs_draw(ctx, gs, records, info, drawid, &draws[i], 0, 0,
                   GS_CAPTURE)) {
         mesa_loge("panfrost: out of memory for a geometry shader capture, "
                   "dropped");
         return;
      }
      for (unsigned l = 0; l < MAX2(layers, 1); ++l) {
         panfrost_batch_use_layer(ctx, l);
         ctx->gs_layer = l;
         bool ok = gs_draw(ctx, gs, records, info, drawid, &draws[i], l,
                           layers, capture ? GS_DRAW : GS_CAPTURE | GS_DRAW);
         ctx->gs_layer = 0;
         if (!ok) {
            mesa_loge("panfrost: out of memory for a geometry shader "
                      "draw, dropped");
            return;
         }
      }
   }
}

void
panfrost_gs_draw_vbo(struct panfrost_context *ctx,
                     const struct pipe_draw_info *info, unsigned drawid_offset,
                     const struct pipe_draw_start_count_bias *draws,
                     unsigned num_draws)
{
   struct panfrost_gs *gs = ctx->gs;
   struct panfrost_shader *vs = ctx->state.shaders[PIPE_SHADER_VERTEX];

   if (gs->error[0]) {
      drop(ctx,
           "draw with a geometry shader that did not compile "
           "dropped: %s",
           gs->error);
      return;
   }
   if (!vs || vs->error[0])
      return;
   if (input_vertices(info->mode) != gs->info.vertices_in) {
      drop(ctx, "draw mode does not match the geometry shader's input, "
                "dropped");
      return;
   }

   struct panfrost_compute_shader *records =
      panfrost_gs_vs_records(ctx, vs, gs->info.in_mask);
   if (!records || records->error[0]) {
      drop(ctx, "draw with a geometry shader dropped: %s",
           records ? records->error : "out of memory");
      return;
   }
   /* A shader writing gl_Layer into a layered framebuffer runs once per
    * layer, each run's list keeping that layer's primitives, drawn in
    * that layer's pass (pan_layer.h); otherwise into layer 0. */
   unsigned layers = 0;
   if (gs->info.out_mask & BITFIELD64_BIT(VARYING_SLOT_LAYER)) {
      layers = panfrost_fb_layers(&ctx->state.fb);
      if (layers == 1)
         layers = 0;
   }
   /* The draw passed the render condition: the dispatches and the draw of
    * the list must not check it again, since waiting for its query could
    * submit the batch holding their records and parameters. */
   struct pipe_query *cond = ctx->render_cond.query;
   ctx->render_cond.query = NULL;
   gs_draws(ctx, gs, records, info, drawid_offset, draws, num_draws, layers);
   ctx->render_cond.query = cond;
}

void
panfrost_context_init_gs(struct pipe_context *pctx)
{
   pctx->create_gs_state = panfrost_create_gs;
   pctx->bind_gs_state = panfrost_bind_gs;
   pctx->delete_gs_state = panfrost_delete_gs;
}
