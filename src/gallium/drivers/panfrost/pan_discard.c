/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Draws with rasterizer discard.  Nothing reaches the tiler, so the pass
 * gets no job for them, yet the vertex shader's stores, atomics and image
 * writes must happen.  A vertex shader that writes memory gets a compute
 * variant, the transform feedback rewrite with no output selected (every
 * output dropped, the memory accesses kept), dispatched once per distinct
 * vertex of the draw's whole primitives in each instance: what a vertex
 * job or an IDVS position program would have shaded.  Transform feedback
 * and the primitive counts are done before (pan_xfb.c); when a capture
 * ran the vertex shader, its writes are made already.
 */

#include <stdio.h>
#include <stdlib.h>

#include "compiler/nir/nir.h"
#include "util/log.h"
#include "util/u_memory.h"

#include "pan_context.h"

/* The memory-writing variant of vs, NULL when it writes no memory.  Made
 * once; a variant that failed keeps its message in its error field.
 */
static struct panfrost_compute_shader *
effects_variant(struct panfrost_context *ctx, struct panfrost_shader *vs)
{
   static const struct pipe_stream_output_info no_outputs;

   if (vs->effects_known)
      return vs->effects;
   vs->effects_known = true;
   nir_shader *copy = vs->nir ? nir_shader_clone(NULL, vs->nir) : NULL;
   if (!copy)
      return NULL;
   nir_shader_gather_info(copy, nir_shader_get_entrypoint(copy));
   if (!copy->info.writes_memory) {
      ralloc_free(copy);
      return NULL;
   }

   char err[200];
   if (!panfrost_nir_lower_xfb(copy, &no_outputs, err, sizeof(err))) {
      ralloc_free(copy);
      vs->effects = CALLOC_STRUCT(panfrost_compute_shader);
      if (vs->effects)
         snprintf(vs->effects->error, sizeof(vs->effects->error), "%s", err);
      return vs->effects;
   }
   struct pipe_compute_state cso = {
      .ir_type = PIPE_SHADER_IR_NIR,
      .prog = copy,
      .req_input_mem = 8,
   };
   vs->effects = ctx->base.create_compute_state(&ctx->base, &cso);
   /* The vertex stage's views, samplers, buffers and images. */
   if (vs->effects) {
      vs->effects->tex_stage = PIPE_SHADER_VERTEX;
      vs->effects->mem_stage = PIPE_SHADER_VERTEX;
   }
   return vs->effects;
}

void
panfrost_discard_draw(struct panfrost_context *ctx,
                      const struct pipe_draw_info *info, unsigned drawid,
                      const struct pipe_draw_start_count_bias *draw)
{
   struct panfrost_shader *vs = ctx->state.shaders[PIPE_SHADER_VERTEX];

   if (!vs || !info->instance_count || !draw->count)
      return;
   struct panfrost_compute_shader *v = effects_variant(ctx, vs);
   if (!v)
      return; /* it writes no memory */
   if (v->error[0]) {
      panfrost_warn_once(ctx, PANFROST_WARN_DRAW,
                         "the vertex shader's memory writes under rasterizer "
                         "discard are dropped: %s",
                         v->error);
      return;
   }

   uint32_t *ids;
   unsigned n = panfrost_xfb_unroll_draw(ctx, info, draw, &ids);
   if (!n)
      return;
   n = panfrost_distinct_ids(ids, n);
   uint64_t total = (uint64_t)n * info->instance_count;
   if (total > (1u << 24)) {
      panfrost_warn_once(ctx, PANFROST_WARN_DRAW,
                         "%llu vertices under rasterizer discard are too "
                         "many, their memory writes dropped",
                         (unsigned long long)total);
      free(ids);
      return;
   }
   const uint64_t no_targets[PIPE_MAX_SO_BUFFERS] = { 0 };
   int32_t first = info->index_size ? draw->index_bias : (int32_t)draw->start;
   if (panfrost_xfb_run(ctx, v, info, drawid, first, info->index_size != 0, ids,
                        n, (unsigned)total, no_targets) < 0)
      mesa_loge("panfrost: out of memory for the vertex shader's writes "
                "under rasterizer discard, dropped");
   free(ids);
}
