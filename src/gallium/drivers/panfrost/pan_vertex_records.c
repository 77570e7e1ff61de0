/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Draws from the vertex shader's records (pan_vertex_records.h). */

#include <stdlib.h>
#include <string.h>

#include "compiler/nir/nir.h"
#include "util/log.h"
#include "util/u_inlines.h"
#include "util/u_math.h"

#include "pan_batch.h"
#include "pan_bo.h"
#include "pan_context.h"
#include "pan_gs.h"
#include "pan_resource.h"
#include "pan_vertex_records.h"
#include "pan_xfb.h"

/* The varying locations the fragment shader reads flat (all of them when
 * it is unknown), which a primitive drawn from records takes from its original
 * one's provoking vertex. */
uint64_t
panfrost_vertex_flat_locations(const struct panfrost_context *ctx)
{
   const struct pipe_rasterizer_state *rast = ctx->state.rast;
   const struct panfrost_shader *fs = ctx->state.shaders[PIPE_SHADER_FRAGMENT];
   const uint64_t colours =
      BITFIELD64_BIT(VARYING_SLOT_COL0) | BITFIELD64_BIT(VARYING_SLOT_COL1) |
      BITFIELD64_BIT(VARYING_SLOT_BFC0) | BITFIELD64_BIT(VARYING_SLOT_BFC1);

   if (!fs || !fs->nir)
      return ~0ull;
   uint64_t mask = rast->flatshade ? colours : 0;
   nir_foreach_shader_in_variable(var, fs->nir)
   {
      /* gl_FrontFacing is flat but no vertex's (pan_nir_lower_back_face.c). */
      if (var->data.interpolation != INTERP_MODE_FLAT ||
          var->data.location == VARYING_SLOT_FACE || var->data.location < 0 ||
          var->data.location >= 64)
         continue;
      unsigned slots = glsl_count_attribute_slots(var->type, false);
      mask |= BITFIELD64_RANGE(var->data.location,
                               MIN2(slots, 64 - var->data.location));
   }
   /* Two-sided colours: the back ones stand for the front ones read. */
   if (mask & BITFIELD64_BIT(VARYING_SLOT_COL0))
      mask |= BITFIELD64_BIT(VARYING_SLOT_BFC0);
   if (mask & BITFIELD64_BIT(VARYING_SLOT_COL1))
      mask |= BITFIELD64_BIT(VARYING_SLOT_BFC1);
   return mask;
}

unsigned
panfrost_vertex_index_at(const uint8_t *in, unsigned size, unsigned i)
{
   if (size == 1)
      return in[i];
   if (size == 2)
      return ((const uint16_t *)in)[i];
   return ((const uint32_t *)in)[i];
}

bool
panfrost_vertex_map_indices(struct panfrost_context *ctx,
                            const struct pipe_draw_info *info,
                            const uint8_t **in, struct pipe_transfer **xfer)
{
   *in = NULL;
   *xfer = NULL;
   if (!info->index_size)
      return true;
   *in = info->has_user_indices
            ? info->index.user
            : pipe_buffer_map_range(&ctx->base, info->index.resource, 0,
                                    info->index.resource->width0, PIPE_MAP_READ,
                                    xfer);
   return *in != NULL;
}

/* The draw's vertex ids (its indices, or 0.. from its first vertex) and
 * where restarts stand (cut), whose slots shade the id before them;
 * false when the indices cannot be mapped. */
bool
panfrost_vertex_read_ids(struct panfrost_context *ctx,
                         const struct pipe_draw_info *info,
                         const struct pipe_draw_start_count_bias *d,
                         uint32_t *ids, uint8_t *cut)
{
   struct pipe_transfer *xfer;
   const uint8_t *in;
   if (!panfrost_vertex_map_indices(ctx, info, &in, &xfer))
      return false;
   bool restarts = info->index_size && info->primitive_restart;
   uint32_t last = 0;
   for (unsigned i = 0; i < d->count; ++i) {
      ids[i] =
         in ? panfrost_vertex_index_at(in, info->index_size, d->start + i) : i;
      cut[i] = restarts && ids[i] == info->restart_index;
      if (cut[i])
         ids[i] = last;
      last = ids[i];
   }
   if (xfer)
      pipe_buffer_unmap(&ctx->base, xfer);
   return true;
}

/* The locations vs writes, from its variables (the shader's info may not
 * have been gathered yet). */
uint64_t
panfrost_vertex_output_mask(const struct panfrost_shader *vs)
{
   uint64_t mask = 0;
   nir_foreach_shader_out_variable(var, vs->nir)
   {
      /* Clip distances: a compact array of floats, four a slot. */
      unsigned slots = var->data.compact
                          ? DIV_ROUND_UP(glsl_get_length(var->type), 4)
                          : glsl_count_attribute_slots(var->type, false);
      mask |= BITFIELD64_RANGE(var->data.location, slots);
   }
   return mask;
}

/* The shader drawing the records of every output of vs (the outputs in
 * location order, as the record variant writes them), made once; NULL
 * after a message when it cannot be.  */
struct panfrost_shader *
panfrost_vertex_records_vs(struct panfrost_context *ctx,
                           struct panfrost_shader *vs, uint64_t mask)
{
   if (vs->polygon_vs)
      return vs->polygon_vs->error[0] ? NULL : vs->polygon_vs;

   struct panfrost_gs_info gi = { .out_mask = mask };
   nir_foreach_shader_out_variable(var, vs->nir)
   {
      if (var->data.location < 0 || var->data.location >= 64)
         continue;
      if (var->data.interpolation == INTERP_MODE_NOPERSPECTIVE)
         gi.out_noperspective_mask |= BITFIELD64_BIT(var->data.location);
      /* Flat integers travel as integers (flat shading draws them). */
      const struct glsl_type *t = glsl_without_array(var->type);
      if (glsl_base_type_is_integer(glsl_get_base_type(t)))
         gi.out_int_mask |=
            BITFIELD64_RANGE(var->data.location,
                             MIN2(glsl_count_attribute_slots(var->type, false),
                                  64 - var->data.location));
   }
   gi.out_int_mask &= mask;
   gi.clip_distances = vs->nir->info.clip_distance_array_size;
   const void *options = ctx->base.screen->get_compiler_options(
      ctx->base.screen, PIPE_SHADER_IR_NIR, PIPE_SHADER_VERTEX);
   struct pipe_shader_state cso = {
      .type = PIPE_SHADER_IR_NIR,
      .ir.nir = panfrost_gs_passthrough_vs(options, &gi),
   };
   vs->polygon_vs = ctx->base.create_vs_state(&ctx->base, &cso);
   if (vs->polygon_vs && vs->polygon_vs->error[0])
      mesa_loge("panfrost: draws from vertex records (polygon modes, line "
                "stipple) are dropped: %s",
                vs->polygon_vs->error);
   return vs->polygon_vs && !vs->polygon_vs->error[0] ? vs->polygon_vs : NULL;
}

/* Larger record buffers are refused rather than tried. */
#define RECORDS_MAX_B (256u << 20)

bool
panfrost_vertex_records_fit(uint64_t size_B, const char *what, unsigned n,
                            unsigned instances)
{
   if (size_B <= RECORDS_MAX_B)
      return true;
   mesa_loge("panfrost: %s of %u vertices in %u instances is too large, "
             "dropped",
             what, n, instances);
   return false;
}

void
panfrost_vertex_each_draw(struct panfrost_context *ctx,
                          const struct pipe_draw_info *info,
                          unsigned drawid_offset,
                          const struct pipe_draw_start_count_bias *draws,
                          unsigned num_draws, panfrost_vertex_draw_one draw_one,
                          const char *what)
{
   for (unsigned i = 0; i < num_draws; ++i) {
      unsigned drawid = drawid_offset + (info->increment_draw_id ? i : 0);
      if (!draw_one(ctx, info, drawid, &draws[i]))
         mesa_loge("panfrost: %s failed, dropped", what);
   }
}

bool
panfrost_vertex_records_run(struct panfrost_context *ctx,
                            struct panfrost_shader *vs, uint64_t mask,
                            bool draw, const struct pipe_draw_info *info,
                            unsigned drawid, int bias, const uint32_t *ids,
                            unsigned nr, uint64_t size_B,
                            struct panfrost_vertex_records *r)
{
   memset(r, 0, sizeof(*r));
   struct panfrost_compute_shader *records =
      panfrost_gs_vs_records(ctx, vs, mask);
   if (draw)
      r->draw_vs = panfrost_vertex_records_vs(ctx, vs, mask);
   r->buf = pipe_buffer_create(ctx->base.screen, PIPE_BIND_SHADER_BUFFER,
                               PIPE_USAGE_STAGING, size_B);
   struct pipe_vertex_element pve = {
      .src_format = PIPE_FORMAT_R32G32B32A32_UINT,
   };
   if (r->draw_vs)
      r->draw_ve = ctx->base.create_vertex_elements_state(&ctx->base, 1, &pve);
   uint32_t *list = malloc(MAX2(nr, 1) * sizeof(uint32_t));
   bool ok = records && !records->error[0] && r->buf && list &&
             (!draw || (r->draw_vs && r->draw_ve));
   r->bo = ok ? panfrost_resource(r->buf)->bo : NULL;
   ok = ok && panfrost_batch_add_bo(ctx, r->bo,
                                    PAN_BO_ACCESS_READ | PAN_BO_ACCESS_WRITE);
   if (ok) {
      /* The variant shades vertex ids with the bias (or first vertex)
       * added, as gl_VertexID counts, in every instance. */
      for (unsigned i = 0; i < nr; ++i)
         list[i] = ids[i] + bias;
      uint64_t targets[PIPE_MAX_SO_BUFFERS] = { r->bo->gpu_va };
      ok = panfrost_xfb_run(ctx, records, info, drawid, bias,
                            info->index_size != 0, list, nr,
                            nr * MAX2(info->instance_count, 1), targets) == 0;
   }
   free(list);
   /* The records are needed now: the work goes and is waited for. */
   ok =
      ok && panfrost_batch_submit(ctx) && pan_bo_wait(r->bo, INT64_MAX, false);
   r->cpu = ok ? pan_bo_mmap(r->bo) : NULL;
   return r->cpu != NULL;
}

void
panfrost_vertex_draw_list(struct panfrost_context *ctx,
                          const struct panfrost_vertex_list *l,
                          enum pipe_prim_type mode, const uint32_t *idx,
                          unsigned n)
{
   struct pipe_draw_info d = {
      .mode = mode,
      .index_size = 4,
      .has_user_indices = true,
      .index.user = idx,
      .instance_count = 1,
   };
   struct pipe_draw_start_count_bias sc = { .count = n };
   struct pipe_vertex_buffer vb = {
      .stride = l->record_B,
      .buffer.resource = l->records,
   };

   panfrost_draw_records(ctx, l->pass_vs, l->pass_ve, &vb,
                         panfrost_resource(l->records)->bo->gpu_va,
                         l->nr_records, &d, l->drawid, &sc);
}

void
panfrost_vertex_records_release(struct panfrost_context *ctx,
                                struct panfrost_vertex_records *r)
{
   if (r->draw_ve)
      ctx->base.delete_vertex_elements_state(&ctx->base, r->draw_ve);
   pipe_resource_reference(&r->buf, NULL);
   memset(r, 0, sizeof(*r));
}
