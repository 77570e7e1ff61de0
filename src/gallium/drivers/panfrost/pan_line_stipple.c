/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Line stipple on the CPU.  The vertex shader's record variant (pan_gs.h)
 * writes every output of the draw's vertices, waited for; each line is
 * then walked in window space as GL counts its stipple (one step a pixel
 * of the major axis, the counter going on along a strip or loop or
 * around a GL_LINE polygon and starting again at each independent line,
 * polygon and restart) and every run of
 * steps the pattern leaves on becomes a line of its own, its ends
 * interpolated from the line's records (perspective-correct, or in window
 * space for noperspective outputs; flat ones from the line's provoking
 * vertex).  Those lines are drawn from the new records by the records'
 * shader (pan_vertex_records.h), with a rasterizer that does not
 * stipple.  Lines with an end behind the eye are not split (no
 * window position to count in).
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/nir/nir.h"
#include "util/log.h"
#include "util/u_inlines.h"
#include "util/u_math.h"
#include "util/u_prim.h"

#include "pan_batch.h"
#include "pan_context.h"
#include "pan_line_stipple.h"
#include "pan_resource.h"
#include "pan_vertex_records.h"

bool
panfrost_line_stipple_applies(const struct panfrost_context *ctx,
                              const struct pipe_draw_info *info)
{
   const struct pipe_rasterizer_state *rast = ctx->state.rast;
   const struct panfrost_shader *vs = ctx->state.shaders[PIPE_SHADER_VERTEX];

   return rast && rast->line_stipple_enable && vs && vs->nir && !vs->error[0] &&
          (info->mode == PIPE_PRIM_LINES ||
           info->mode == PIPE_PRIM_LINE_STRIP ||
           info->mode == PIPE_PRIM_LINE_LOOP) &&
          !ctx->gs && !ctx->xfb.num_targets && !ctx->xfb.active_queries;
}

/* The new records of one draw, as they grow. */
struct dashes {
   const uint8_t *rec; /* the vertex shader's records */
   unsigned record_B;
   uint64_t mask;      /* their locations, in order */
   uint64_t flat_mask; /* those taken from the provoking vertex */
   uint64_t nop_mask;  /* those interpolated in window space */
   uint8_t *out;
   unsigned nr, cap; /* records in out, room */
};

/* Appends the point at window-space fraction t of the line from record
 * a to record b, whose flat outputs are pv's; false when out of memory. */
static bool
add_point(struct dashes *ds, unsigned a, unsigned b, unsigned pv, float t)
{
   if (ds->nr == ds->cap) {
      unsigned cap = MAX2(64, 2 * ds->cap);
      uint8_t *out = realloc(ds->out, (size_t)cap * ds->record_B);
      if (!out)
         return false;
      ds->out = out, ds->cap = cap;
   }
   const float *ra = (const float *)(ds->rec + (uint64_t)a * ds->record_B);
   const float *rb = (const float *)(ds->rec + (uint64_t)b * ds->record_B);
   const uint8_t *rp = ds->rec + (uint64_t)pv * ds->record_B;
   float *dst = (float *)(ds->out + (size_t)ds->nr++ * ds->record_B);
   /* The clip-space fraction giving window fraction t (gl_Position is
    * the first slot): perspective-correct outputs follow it. */
   double wa = ra[3], wb = rb[3];
   double den = (1 - t) * wb + t * wa;
   float s = den != 0 ? (float)(t * wa / den) : t;
   unsigned slot = 0;

   u_foreach_bit64 (loc, ds->mask) {
      if (ds->flat_mask & BITFIELD64_BIT(loc)) {
         memcpy(dst + 4 * slot, rp + 16 * slot, 16);
      } else {
         float f = ds->nop_mask & BITFIELD64_BIT(loc) ? t : s;
         for (unsigned c = 0; c < 4; ++c) {
            float x = ra[4 * slot + c], y = rb[4 * slot + c];
            dst[4 * slot + c] = x + f * (y - x);
         }
      }
      ++slot;
   }
   return true;
}

/* Window position of a record's gl_Position; false behind the eye. */
static bool
window_xy(const struct panfrost_context *ctx, const uint8_t *r, double xy[2])
{
   const float *p = (const float *)r;
   const struct pipe_viewport_state *vp = &ctx->state.viewport;

   if (!(p[3] > 0))
      return false;
   for (unsigned k = 0; k < 2; ++k)
      xy[k] = p[k] / (double)p[3] * vp->scale[k] + vp->translate[k];
   return true;
}

/* The dashes of the line from record a to b, its stipple counter at
 * *counter (advanced past it); false when out of memory. */
static bool
add_line(const struct panfrost_context *ctx, struct dashes *ds, unsigned a,
         unsigned b, unsigned *counter)
{
   const struct pipe_rasterizer_state *rast = ctx->state.rast;
   unsigned pv = rast->flatshade_first ? a : b;
   unsigned factor = rast->line_stipple_factor + 1;
   double p0[2], p1[2];

   if (!window_xy(ctx, ds->rec + (uint64_t)a * ds->record_B, p0) ||
       !window_xy(ctx, ds->rec + (uint64_t)b * ds->record_B, p1))
      return add_point(ds, a, b, pv, 0) && add_point(ds, a, b, pv, 1);
   /* GL counts a step per fragment along the major axis.  The length is
    * rounded to 1/256 pixel: the round trip through clip space leaves a
    * whole length a little over (one step too many). */
   double len = fmax(fabs(p1[0] - p0[0]), fabs(p1[1] - p0[1]));
   len = round(len * 256) / 256;
   unsigned steps = isfinite(len) && len < (1u << 24) ? (unsigned)ceil(len) : 0;
   bool on = false;
   unsigned start = 0;

   for (unsigned i = 0; i <= steps; ++i) {
      unsigned bit = ((*counter + i) / factor) & 15;
      bool lit = i < steps && (rast->line_stipple_pattern >> bit) & 1;
      if (lit == on)
         continue;
      if (lit) {
         start = i;
      } else if (!add_point(ds, a, b, pv, (float)(start / len)) ||
                 !add_point(ds, a, b, pv, (float)fmin(i / len, 1.0))) {
         return false;
      }
      on = lit;
   }
   *counter += steps;
   return true;
}

/* The dashes of every line of the draw: n records an instance of vertex
 * ids[], cut[i] where a restart stands.  The outlines of GL_LINE polygons
 * (unfilled_polygons) come as line lists whose edges follow each other
 * around each polygon: GL goes on counting along them, so a line there
 * starting at the vertex the previous one ended at keeps its counter. */
static bool
add_lines(const struct panfrost_context *ctx, struct dashes *ds,
          enum pipe_prim_type mode, const uint32_t *ids, const uint8_t *cut,
          unsigned n, unsigned instances)
{
   bool outline = ctx->unfilled_polygons;

   for (unsigned inst = 0; inst < instances; ++inst) {
      unsigned base = inst * n;
      for (unsigned a = 0, b; a < n; a = b + 1) {
         for (b = a; b < n && !cut[b]; ++b)
            ;
         unsigned count = b - a, counter = 0;
         if (count < 2)
            continue;
         if (mode == PIPE_PRIM_LINES) {
            for (unsigned k = 0; k + 1 < count; k += 2) {
               /* Each line on its own, but a polygon's edges. */
               if (!outline || !k || ids[a + k] != ids[a + k - 1])
                  counter = 0;
               if (!add_line(ctx, ds, base + a + k, base + a + k + 1, &counter))
                  return false;
            }
            continue;
         }
         for (unsigned k = 0; k + 1 < count; ++k) {
            if (!add_line(ctx, ds, base + a + k, base + a + k + 1, &counter))
               return false;
         }
         if (mode == PIPE_PRIM_LINE_LOOP &&
             !add_line(ctx, ds, base + b - 1, base + a, &counter))
            return false;
      }
   }
   return true;
}

/* Output locations declared noperspective. */
static uint64_t
noperspective_mask(const struct panfrost_shader *vs)
{
   uint64_t mask = 0;
   nir_foreach_shader_out_variable(var, vs->nir)
   {
      if (var->data.interpolation == INTERP_MODE_NOPERSPECTIVE &&
          var->data.location >= 0 && var->data.location < 64)
         mask |= BITFIELD64_BIT(var->data.location);
   }
   return mask;
}

/* Draws the dashes' records as lines with the pass-through shader and a
 * rasterizer that does not stipple. */
static void
draw_dashes(struct panfrost_context *ctx, const struct dashes *ds,
            struct panfrost_shader *pass_vs, void *pass_ve, unsigned drawid)
{
   struct pipe_resource *buf = pipe_buffer_create(
      ctx->base.screen, PIPE_BIND_SHADER_BUFFER | PIPE_BIND_VERTEX_BUFFER,
      PIPE_USAGE_STREAM, ds->nr * ds->record_B);
   uint32_t *idx = malloc(ds->nr * sizeof(uint32_t));
   const struct pipe_rasterizer_state *rast = ctx->state.rast;
   struct pipe_rasterizer_state plain = *rast;
   plain.line_stipple_enable = false;
   void *cso =
      buf && idx ? ctx->base.create_rasterizer_state(&ctx->base, &plain) : NULL;

   if (cso) {
      pipe_buffer_write(&ctx->base, buf, 0, ds->nr * ds->record_B, ds->out);
      for (unsigned i = 0; i < ds->nr; ++i)
         idx[i] = i;
      struct panfrost_vertex_list l = {
         .pass_vs = pass_vs,
         .pass_ve = pass_ve,
         .records = buf,
         .record_B = ds->record_B,
         .nr_records = ds->nr,
         .drawid = drawid,
      };
      void *saved = ctx->state.rast;
      ctx->base.bind_rasterizer_state(&ctx->base, cso);
      if (panfrost_batch_add_bo(ctx, panfrost_resource(buf)->bo,
                                PAN_BO_ACCESS_READ))
         panfrost_vertex_draw_list(ctx, &l, PIPE_PRIM_LINES, idx, ds->nr);
      ctx->base.bind_rasterizer_state(&ctx->base, saved);
      ctx->base.delete_rasterizer_state(&ctx->base, cso);
   } else {
      mesa_loge("panfrost: out of memory for a stippled line draw, dropped");
   }
   free(idx);
   pipe_resource_reference(&buf, NULL);
}

/* One draw; false when it could not be drawn. */
static bool
stipple_draw(struct panfrost_context *ctx, const struct pipe_draw_info *info,
             unsigned drawid, const struct pipe_draw_start_count_bias *d)
{
   struct panfrost_shader *vs = ctx->state.shaders[PIPE_SHADER_VERTEX];
   unsigned n = d->count, instances = info->instance_count;

   if (n < 2 || !instances)
      return true;
   uint64_t mask =
      panfrost_vertex_output_mask(vs) | BITFIELD64_BIT(VARYING_SLOT_POS);
   unsigned record_B = util_bitcount64(mask) * 16;
   uint64_t total = (uint64_t)n * instances;
   if (!panfrost_vertex_records_fit(total * record_B, "stippled line draw", n,
                                    instances))
      return true;
   uint32_t *ids = malloc(n * sizeof(uint32_t));
   uint8_t *cut = calloc(n, 1);
   int bias = info->index_size ? d->index_bias : (int)d->start;
   struct panfrost_vertex_records vr = { 0 };
   bool ok = ids && cut && panfrost_vertex_read_ids(ctx, info, d, ids, cut) &&
             panfrost_vertex_records_run(ctx, vs, mask, true, info, drawid,
                                         bias, ids, n, total * record_B, &vr);
   struct dashes ds = {
      .rec = ok ? vr.cpu : NULL,
      .record_B = record_B,
      .mask = mask,
      .flat_mask = panfrost_vertex_flat_locations(ctx) & mask &
                   ~BITFIELD64_BIT(VARYING_SLOT_POS),
      .nop_mask = noperspective_mask(vs),
   };
   ok = ds.rec && add_lines(ctx, &ds, info->mode, ids, cut, n, instances);
   if (ok && ds.nr)
      draw_dashes(ctx, &ds, vr.draw_vs, vr.draw_ve, drawid);
   panfrost_vertex_records_release(ctx, &vr);
   free(ds.out);
   free(cut);
   free(ids);
   return ok;
}

bool
panfrost_line_stipple_draw(struct panfrost_context *ctx,
                           const struct pipe_draw_info *info,
                           unsigned drawid_offset,
                           const struct pipe_draw_start_count_bias *draws,
                           unsigned num_draws)
{
   if (!panfrost_line_stipple_applies(ctx, info))
      return false;
   panfrost_vertex_each_draw(ctx, info, drawid_offset, draws, num_draws,
                             stipple_draw, "stippled line draw");
   return true;
}
