/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * A vertex shader run once per vertex, its outputs drawn from records
 * (pan_vs_once.h).  Each distinct vertex id of the draw's primitives is
 * shaded once in each instance by the record variant (every output a vec4
 * of the record, in location order); the primitives, unrolled into a list
 * on the CPU with each strip's provoking vertex kept, name the records
 * (instance * distinct vertices + the id's rank) and are drawn as one
 * non-instanced indexed draw by a pass-through shader.  What this costs
 * over an IDVS draw (a compute pass over every output, the list built on
 * the CPU) is paid only by the draws nothing cheaper covers.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/nir/nir.h"
#include "util/log.h"
#include "util/u_inlines.h"
#include "util/u_math.h"
#include "util/u_prim.h"

#include "pan_bo.h"
#include "pan_context.h"
#include "pan_gs.h"
#include "pan_polygon_mode.h"
#include "pan_resource.h"
#include "pan_vs_once.h"

#define drop(ctx, ...) panfrost_warn_once(ctx, PANFROST_WARN_DRAW, __VA_ARGS__)

static bool
capturing(const struct panfrost_context *ctx, const struct panfrost_shader *vs)
{
   return ctx->xfb.num_targets && vs->xfb && !vs->xfb->error[0];
}

bool
panfrost_vs_once_applies(const struct panfrost_context *ctx,
                         const struct pipe_draw_info *info)
{
   const struct panfrost_shader *vs = ctx->state.shaders[PIPE_SHADER_VERTEX];
   const struct pipe_rasterizer_state *rast = ctx->state.rast;

   /* Under rasterizer discard the capture or pan_discard.c makes the
    * writes once already; a geometry shader's draws run the record
    * variant once. */
   if (!vs || vs->error[0] || !vs->nir || !vs->vs_writes_memory || ctx->gs ||
       (rast && rast->rasterizer_discard))
      return false;
   /* gl_PrimitiveID without a geometry shader: the draw is dropped
    * (pan_draw_vbo.c), which a draw of records would not be. */
   const struct panfrost_shader *fs = ctx->state.shaders[PIPE_SHADER_FRAGMENT];
   if (fs && fs->reads_primitive_id)
      return false;
   /* The modes the unrolled list can take (no adjacency). */
   if (info->mode > PIPE_PRIM_TRIANGLE_FAN || info->mode == PIPE_PRIM_QUADS ||
       info->mode == PIPE_PRIM_QUAD_STRIP || info->mode == PIPE_PRIM_POLYGON)
      return false;
   /* GL_LINE and GL_POINT polygons draw lists with the shader, after a
    * run of its own for the faces: the lists are drawn from the records
    * instead, through the same path. */
   return vs->once || capturing(ctx, vs) ||
          panfrost_polygon_mode_applies(ctx, info);
}

/* The slots of a variable of the shader's outputs. */
static unsigned
var_slots(const nir_variable *var)
{
   /* Clip distances: a compact array of floats, four a slot. */
   return var->data.compact ? DIV_ROUND_UP(glsl_get_length(var->type), 4)
                            : glsl_count_attribute_slots(var->type, false);
}

/* The locations vs writes (gl_Position always, first in a record), and
 * those of integer type. */
static uint64_t
output_mask(const struct panfrost_shader *vs, uint64_t *int_mask,
            uint64_t *noperspective_mask)
{
   uint64_t mask = BITFIELD64_BIT(VARYING_SLOT_POS);

   *int_mask = *noperspective_mask = 0;
   nir_foreach_shader_out_variable(var, vs->nir)
   {
      uint64_t bits = BITFIELD64_RANGE(var->data.location, var_slots(var));
      enum glsl_base_type t = glsl_get_base_type(glsl_without_array(var->type));
      mask |= bits;
      if (t == GLSL_TYPE_INT || t == GLSL_TYPE_UINT || t == GLSL_TYPE_BOOL)
         *int_mask |= bits;
      if (var->data.interpolation == INTERP_MODE_NOPERSPECTIVE)
         *noperspective_mask |= bits;
   }
   return mask;
}

/* The shader drawing the records of mask, and its attribute (the records
 * as vertex buffer 0, which it reads with global loads), made once. */
static bool
records_shader(struct panfrost_context *ctx, struct panfrost_shader *vs,
               uint64_t mask, uint64_t int_mask, uint64_t noperspective_mask)
{
   struct pipe_vertex_element ve = {
      .src_format = PIPE_FORMAT_R32G32B32A32_UINT,
   };
   if (!vs->records_ve)
      vs->records_ve =
         ctx->base.create_vertex_elements_state(&ctx->base, 1, &ve);
   if (vs->records_vs)
      return !vs->records_vs->error[0] && vs->records_ve;

   struct panfrost_gs_info gi = {
      .out_mask = mask,
      .out_int_mask = int_mask,
      .out_noperspective_mask = noperspective_mask,
      .clip_distances = vs->nir->info.clip_distance_array_size,
   };
   const void *options = ctx->base.screen->get_compiler_options(
      ctx->base.screen, PIPE_SHADER_IR_NIR, PIPE_SHADER_VERTEX);
   struct pipe_shader_state cso = {
      .type = PIPE_SHADER_IR_NIR,
      .ir.nir = panfrost_gs_passthrough_vs(options, &gi),
   };
   vs->records_vs = ctx->base.create_vs_state(&ctx->base, &cso);
   return vs->records_vs && !vs->records_vs->error[0] && vs->records_ve;
}

/* The stream outputs of vs naming vec4s of its records: register_index
 * is an output's driver location, a record's vec4 its location's rank
 * in mask (past the record for one not found, which is skipped). */
static void
record_stream_output(const struct panfrost_shader *vs, uint64_t mask,
                     struct pipe_stream_output_info *so)
{
   *so = vs->stream_output;
   for (unsigned o = 0; o < so->num_outputs; ++o) {
      unsigned r = so->output[o].register_index, at = 64;
      nir_foreach_shader_out_variable(var, vs->nir)
      {
         unsigned dl = var->data.driver_location;
         if (r >= dl && r < dl + var_slots(var)) {
            unsigned loc = var->data.location + (r - dl);
            at = util_bitcount64(mask & BITFIELD64_MASK(loc));
         }
      }
      so->output[o].register_index = at;
   }
}

/* One draw; false when out of memory. */
static bool
once_draw(struct panfrost_context *ctx, const struct pipe_draw_info *info,
          unsigned drawid, const struct pipe_draw_start_count_bias *draw)
{
   struct panfrost_shader *vs = ctx->state.shaders[PIPE_SHADER_VERTEX];
   const struct pipe_rasterizer_state *rast = ctx->state.rast;
   enum pipe_prim_type mode = u_reduced_prim(info->mode);
   unsigned per = mode == PIPE_PRIM_POINTS  ? 1
                  : mode == PIPE_PRIM_LINES ? 2
                                            : 3;
   uint64_t int_mask, nop_mask;
   uint64_t mask = output_mask(vs, &int_mask, &nop_mask);
   unsigned record_B = util_bitcount64(mask) * 16;

   if (!info->instance_count || !draw->count)
      return true;
   struct panfrost_compute_shader *rec = panfrost_gs_vs_records(ctx, vs, mask);
   if (!rec || rec->error[0] ||
       !records_shader(ctx, vs, mask, int_mask, nop_mask)) {
      drop(ctx, "a draw running its vertex shader once was dropped: %s",
           rec && rec->error[0]                         ? rec->error
           : vs->records_vs && vs->records_vs->error[0] ? vs->records_vs->error
                                                        : "out of memory");
      return true;
   }

   uint32_t *ids;
   unsigned n = panfrost_xfb_unroll_primitives(
      ctx, info, draw, rast && rast->flatshade_first, &ids);
   if (!n)
      return true;
   uint32_t *distinct = malloc(n * sizeof(uint32_t));
   if (!distinct) {
      free(ids);
      return false;
   }
   memcpy(distinct, ids, n * sizeof(uint32_t));
   unsigned nd = panfrost_distinct_ids(distinct, n);
   uint64_t records = (uint64_t)nd * info->instance_count;
   uint64_t list = (uint64_t)n * info->instance_count;
   uint64_t index_B = ALIGN_POT(list * 4, 64);
   uint64_t size_B = index_B + records * record_B;
   if (size_B > (1u << 30) || list > UINT32_MAX / 4) {
      drop(ctx, "a draw running its vertex shader once would need more than "
                "1 GiB, dropped");
      free(distinct);
      free(ids);
      return true;
   }

   /* The dispatch runs before the pending pass: when it samples what the
    * pass renders, the pass goes first. */
   if (panfrost_compute_samples_pass_output(ctx, rec))
      panfrost_batch_submit(ctx);
   unsigned at_B = 0;
   struct pipe_resource *buf = panfrost_gs_arena_alloc(ctx, size_B, &at_B);
   struct pan_bo *bo = buf ? panfrost_resource(buf)->bo : NULL;
   uint8_t *cpu = bo ? pan_bo_mmap(bo) : NULL;
   bool ok = cpu && panfrost_batch_add_bo(
                       ctx, bo, PAN_BO_ACCESS_READ | PAN_BO_ACCESS_WRITE);
   if (ok) {
      /* The list, instance after instance, in the arena's unused bytes. */
      uint32_t *idx = (uint32_t *)(cpu + at_B);
      for (unsigned k = 0; k < n; ++k)
         idx[k] = panfrost_id_rank(distinct, nd, ids[k]);
      for (unsigned i = 1; i < info->instance_count; ++i) {
         for (unsigned k = 0; k < n; ++k)
            idx[(uint64_t)i * n + k] = idx[k] + i * nd;
      }
      uint64_t targets[PIPE_MAX_SO_BUFFERS] = { bo->gpu_va + at_B + index_B };
      int r = panfrost_xfb_run(
         ctx, rec, info, drawid,
         info->index_size ? draw->index_bias : (int32_t)draw->start,
         info->index_size != 0, distinct, nd, (unsigned)records, targets);
      ok = r >= 0;
      if (r > 0) {
         free(distinct);
         free(ids);
         return true; /* dropped after a message */
      }
   }
   free(distinct);
   free(ids);
   if (!ok)
      return false;

   /* The capture copies the records of the list's primitives, which the
    * GPU must have written first (pan_gs_xfb.c). */
   if (capturing(ctx, vs)) {
      struct panfrost_gs g = {
         .info = { .out_mask = mask, .out_mode = mode },
      };
      record_stream_output(vs, mask, &g.stream_output);
      panfrost_gs_capture(ctx, &g, buf, at_B, at_B + index_B,
                          (unsigned)(list / per));
   }

   struct pipe_draw_info d = {
      .mode = mode,
      .index_size = 4,
      .instance_count = 1,
      .index.resource = buf,
   };
   struct pipe_draw_start_count_bias sc = { .start = at_B / 4,
                                            .count = (unsigned)list };
   struct pipe_vertex_buffer vb = {
      .stride = record_B,
      .buffer_offset = at_B + index_B,
      .buffer.resource = buf,
   };
   panfrost_draw_records(ctx, vs->records_vs, vs->records_ve, &vb,
                         bo->gpu_va + at_B + index_B, (unsigned)records, &d,
                         drawid, &sc);
   return true;
}

void
panfrost_vs_once_draw(struct panfrost_context *ctx,
                      const struct pipe_draw_info *info, unsigned drawid,
                      const struct pipe_draw_start_count_bias *draw)
{
   /* The draw passed the render condition: the dispatch and the draw of
    * the list must not wait for its query, which would submit the batch
    * holding their parameters. */
   struct pipe_query *cond = ctx->render_cond.query;
   ctx->render_cond.query = NULL;
   if (!once_draw(ctx, info, drawid, draw))
      mesa_loge("panfrost: out of memory for a draw running its vertex "
                "shader once, dropped");
   ctx->render_cond.query = cond;
}
