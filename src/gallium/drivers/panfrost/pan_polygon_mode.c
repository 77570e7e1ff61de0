/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* GL_LINE and GL_POINT polygon modes, on the CPU.  When both faces take
 * the same mode and neither is culled, the index list of the polygons'
 * edges (each polygon's outline, not the triangles' inner diagonals) or
 * vertices is built with Gallium's unfilled index translators and drawn
 * as lines or points; indexed draws with primitive restart are split at
 * the restarts.  Otherwise which face a polygon shows decides: the vertex
 * shader's positions are computed first (its record variant, pan_gs.h,
 * waited for), each polygon's facing is worked out from them, and it goes
 * into a list of filled triangles, of edges or of vertices by its face's
 * mode, culled faces left out.  Their lines and points take the
 * polygon offset of their mode (offset_line, offset_point); the hardware
 * gives lines and points no depth slope, so with a slope factor they take
 * the facing path, which adds each polygon's slope term to the units of
 * its lines and points, drawn in groups of equal units.  A fragment
 * shader reading gl_FrontFacing sends the draw down the facing path too:
 * the back faces' lines and points are drawn after the front ones' with
 * its variant that reads false (the hardware makes lines and points
 * front-facing).  Restarts split the facing path's polygons as they do
 * the other's.  An instanced draw's facing differs per instance: the
 * record variant then writes every output of every instance's vertices
 * in one dispatch, and the lists of all instances, naming those records,
 * are drawn once each by a shader copying them to the outputs (pan_gs.h's
 * pass-through), so the cost does not grow with draws per instance.
 * Flat shading takes that way too: each line, point or triangle drawn
 * for a polygon would take its own provoking vertex, so where that is not
 * the polygon's, the list names a copy of its record with the flat
 * locations of the polygon's provoking vertex, appended to the records
 * on the CPU once they are back.  Not covered (drawn filled after a
 * message, pan_draw_vbo.c): adjacency with facing or flat shading,
 * geometry shaders and transform feedback.  Edge flags (the vertex
 * shader's VARYING_SLOT_EDGE, which the state tracker adds for a
 * per-vertex edge-flag array) take the facing path too, the flag read
 * from the records: an edge of an independent triangle, quad or polygon
 * starting at a vertex flagged off is not drawn in GL_LINE, nor that
 * vertex in GL_POINT.  The hardware has no such output: the programs
 * drawing are compiled without it (panfrost_nir_drop_edge_flag).  A
 * vertex shader writing memory takes the records' way as well, its record
 * variant run over the draw's distinct vertices, so that it runs once per
 * vertex (pan_vs_once.c, which unrolls to triangles, leaves quads, quad
 * strips and polygons here).
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/nir/nir.h"
#include "indices/u_indices.h"
#include "util/format/u_format.h"
#include "util/log.h"
#include "util/u_inlines.h"
#include "util/u_math.h"
#include "util/u_prim.h"

#include "pan_batch.h"
#include "pan_bo.h"
#include "pan_context.h"
#include "pan_index_range.h"
#include "pan_polygon_mode.h"
#include "pan_resource.h"
#include "pan_vertex_records.h"
#include "pan_xfb.h"

static bool
flat_shaded(const struct panfrost_context *ctx)
{
   return panfrost_vertex_flat_locations(ctx) != 0;
}

/* Whether vs writes per-vertex edge flags. */
static bool
has_edge_flags(const struct panfrost_shader *vs)
{
   if (!vs || !vs->nir)
      return false;
   nir_foreach_shader_out_variable(var, vs->nir)
   {
      if (var->data.location == VARYING_SLOT_EDGE)
         return true;
   }
   return false;
}

static bool
unfilled_applies(const struct panfrost_context *ctx,
                 const struct pipe_draw_info *info)
{
   const struct pipe_rasterizer_state *rast = ctx->state.rast;

   return rast && u_reduced_prim(info->mode) == PIPE_PRIM_TRIANGLES &&
          rast->fill_front != PIPE_POLYGON_MODE_FILL &&
          rast->fill_front == rast->fill_back &&
          rast->cull_face == PIPE_FACE_NONE && !ctx->gs && !flat_shaded(ctx) &&
          !has_edge_flags(ctx->state.shaders[PIPE_SHADER_VERTEX]) &&
          /* Its writes once per vertex: the records' way. */
          !(ctx->state.shaders[PIPE_SHADER_VERTEX] &&
            ctx->state.shaders[PIPE_SHADER_VERTEX]->vs_writes_memory) &&
          /* Transform feedback captures the polygons themselves. */
          !ctx->xfb.num_targets && !ctx->xfb.active_queries;
}

/* Draws `count` vertices (indices of `in` from `start`, or vertex
 * numbers from `start` without indices) as the outlines or vertices of
 * their polygons.  false when out of memory.
 */
static bool
draw_run(struct panfrost_context *ctx, const struct pipe_draw_info *info,
         unsigned drawid, const uint8_t *in, unsigned start, unsigned count,
         int index_bias, unsigned mode)
{
   enum pipe_prim_type out_prim;
   unsigned out_size, out_nr;
   u_translate_func translate = NULL;
   u_generate_func generate = NULL;
   enum indices_mode m;

   if (in && mode == PIPE_POLYGON_MODE_POINT) {
      /* Every vertex once, widened below: the base's translator copies
       * 16-bit indices as 32-bit ones here (and 32-bit as 16-bit), which
       * overruns its output. */
      out_prim = PIPE_PRIM_POINTS;
      out_size = 4;
      out_nr = count;
      m = U_TRANSLATE_NORMAL;
   } else if (in) {
      m = u_unfilled_translator(info->mode, info->index_size, count, mode,
                                &out_prim, &out_size, &out_nr, &translate);
   } else {
      m = u_unfilled_generator(info->mode, start, count, mode, &out_prim,
                               &out_size, &out_nr, &generate);
   }
   if (m == U_TRANSLATE_ERROR || !out_nr)
      return true;

   void *out = malloc((size_t)out_nr * out_size);
   if (!out)
      return false;
   if (in && !translate) {
      for (unsigned i = 0; i < count; ++i)
         ((uint32_t *)out)[i] =
            panfrost_vertex_index_at(in, info->index_size, start + i);
   } else if (in) {
      translate(in, start, count, out_nr, info->restart_index, out);
   } else {
      generate(start, out_nr, out);
   }

   /* The lines or points, indexed from the draw's own indices (so its
    * index bias still applies) or its vertex numbers.
    */
   struct pipe_draw_info lines = *info;
   lines.mode = out_prim;
   lines.index_size = out_size;
   lines.has_user_indices = true;
   lines.index.user = out;
   lines.primitive_restart = false;
   lines.index_bounds_valid = false;
   struct pipe_draw_start_count_bias ld = {
      .start = 0,
      .count = out_nr,
      .index_bias = in ? index_bias : 0,
   };
   ctx->unfilled_polygons = true; /* offset_line/offset_point apply */
   panfrost_draw_vbo(&ctx->base, &lines, drawid, NULL, &ld, 1);
   ctx->unfilled_polygons = false;
   free(out);
   return true;
}

/* Whether a polygon drawn as lines or points needs its slope term of the
 * polygon offset (see the top of the file). */
static bool
needs_slope(const struct panfrost_context *ctx)
{
   const struct pipe_rasterizer_state *rast = ctx->state.rast;
   if (!rast)
      return false;
   bool line = rast->fill_front == PIPE_POLYGON_MODE_LINE ||
               rast->fill_back == PIPE_POLYGON_MODE_LINE;
   bool point = rast->fill_front == PIPE_POLYGON_MODE_POINT ||
                rast->fill_back == PIPE_POLYGON_MODE_POINT;
   return rast->offset_scale != 0 &&
          ((line && rast->offset_line) || (point && rast->offset_point));
}

/* The slope term of the offset of the polygon whose first three vertices
 * are v[0..2] (clip positions in pos), in GL's units: the factor times the
 * larger window-space depth slope of their plane, over two steps of the
 * depth format (the unit pan_state.c gives the hardware).
 */
static float
slope_units(const struct panfrost_context *ctx, const float *pos,
            const unsigned *v)
{
   const struct pipe_viewport_state *vp = &ctx->state.viewport;
   const struct pipe_surface *zs = ctx->state.fb.zsbuf;
   double w[3][3], zmax = 0;

   for (unsigned i = 0; i < 3; ++i) {
      const float *p = pos + 4 * v[i];
      if (!(p[3] > 0))
         return 0; /* no window position */
      for (unsigned k = 0; k < 3; ++k)
         w[i][k] = p[k] / (double)p[3] * vp->scale[k] + vp->translate[k];
      zmax = fmax(zmax, fabs(w[i][2]));
   }
   double ex = w[1][0] - w[0][0], ey = w[1][1] - w[0][1],
          ez = w[1][2] - w[0][2];
   double fx = w[2][0] - w[0][0], fy = w[2][1] - w[0][1],
          fz = w[2][2] - w[0][2];
   double det = ex * fy - ey * fx;
   if (det == 0)
      return 0;
   double m =
      fmax(fabs((ez * fy - ey * fz) / det), fabs((ex * fz - ez * fx) / det));
   enum pipe_format f = zs ? zs->format : PIPE_FORMAT_NONE;
   double step;
   if (f == PIPE_FORMAT_Z32_FLOAT || f == PIPE_FORMAT_Z32_FLOAT_S8X24_UINT) {
      int e = 0;
      frexp(zmax, &e);
      if (!(zmax >= ldexp(1.0, -126)))
         e = -125;
      step = ldexp(1.0, e - 1 - 23);
   } else {
      unsigned bits =
         zs ? util_format_get_component_bits(f, UTIL_FORMAT_COLORSPACE_ZS, 0)
            : 0;
      step = ldexp(1.0, -(int)(bits ? bits : 24));
   }
   const struct pipe_rasterizer_state *rast = ctx->state.rast;
   return (float)(rast->offset_scale * m / (2 * step));
}

/* Indices [start, start + count) of a list, from one polygon whose lines
 * or points take `units` more. */
struct offset_run {
   float units;
   unsigned start, count;
};

static int
cmp_run(const void *a, const void *b)
{
   float x = ((const struct offset_run *)a)->units,
         y = ((const struct offset_run *)b)->units;
   return x < y ? -1 : x > y;
}

/* How a facing draw's lists are drawn: with the bound vertex shader at
 * the draw's vertex ids (bias added), or for an instanced or flat-shaded
 * draw with the shader copying the records of every output (pass_vs),
 * which the lists index as instance * count + position in the draw (flat
 * shading's copies after them).
 */
struct list_drawer {
   const struct pipe_draw_info *info;
   int bias;
   struct panfrost_vertex_list list;
};

static void draw_list(struct panfrost_context *ctx,
                      const struct list_drawer *dr, enum pipe_prim_type mode,
                      const uint32_t *idx, unsigned n);

/* Draws list idx in groups of runs with equal units, each with the
 * rasterizer `plain` (bound as plain_cso) offset by them; tmp holds the
 * whole list. */
static void
draw_runs(struct panfrost_context *ctx, const struct list_drawer *dr,
          enum pipe_prim_type mode, const uint32_t *idx,
          struct offset_run *runs, unsigned nr, uint32_t *tmp,
          const struct pipe_rasterizer_state *plain, void *plain_cso)
{
   qsort(runs, nr, sizeof(*runs), cmp_run);
   for (unsigned i = 0, j; i < nr; i = j) {
      unsigned n = 0;
      for (j = i; j < nr && runs[j].units == runs[i].units; ++j) {
         memcpy(tmp + n, idx + runs[j].start, runs[j].count * sizeof(*tmp));
         n += runs[j].count;
      }
      struct pipe_rasterizer_state rs = *plain;
      rs.offset_units += runs[i].units;
      void *cso = ctx->base.create_rasterizer_state(&ctx->base, &rs);
      if (!cso)
         continue;
      ctx->base.bind_rasterizer_state(&ctx->base, cso);
      draw_list(ctx, dr, mode, tmp, n);
      ctx->base.bind_rasterizer_state(&ctx->base, plain_cso);
      ctx->base.delete_rasterizer_state(&ctx->base, cso);
   }
}

/* Whether the fragment shader reads gl_FrontFacing: the lines and points
 * of back faces then need its variant that says so (the hardware makes
 * every line and point front-facing), which only the facing path knows. */
static bool
needs_facing(const struct panfrost_context *ctx)
{
   const struct panfrost_shader *fs = ctx->state.fs_bound;
   return fs && fs->reads_face;
}

static bool
facing_applies(const struct panfrost_context *ctx,
               const struct pipe_draw_info *info)
{
   const struct pipe_rasterizer_state *rast = ctx->state.rast;
   const struct panfrost_shader *vs = ctx->state.shaders[PIPE_SHADER_VERTEX];

   return rast && vs && vs->nir &&
          u_reduced_prim(info->mode) == PIPE_PRIM_TRIANGLES &&
          info->mode != PIPE_PRIM_TRIANGLES_ADJACENCY &&
          info->mode != PIPE_PRIM_TRIANGLE_STRIP_ADJACENCY &&
          (rast->fill_front != PIPE_POLYGON_MODE_FILL ||
           rast->fill_back != PIPE_POLYGON_MODE_FILL) &&
          rast->cull_face != PIPE_FACE_FRONT_AND_BACK && !ctx->gs &&
          !ctx->xfb.num_targets && !ctx->xfb.active_queries;
}

static void
draw_list(struct panfrost_context *ctx, const struct list_drawer *dr,
          enum pipe_prim_type mode, const uint32_t *idx, unsigned n)
{
   if (!n)
      return;
   if (dr->list.pass_vs) {
      panfrost_vertex_draw_list(ctx, &dr->list, mode, idx, n);
      return;
   }
   struct pipe_draw_info d = *dr->info;
   d.mode = mode;
   d.index_size = 4;
   d.has_user_indices = true;
   d.index.user = idx;
   d.primitive_restart = false;
   d.index_bounds_valid = false;
   struct pipe_draw_start_count_bias sc = { .count = n,
                                            .index_bias = dr->bias };
   panfrost_draw_vbo(&ctx->base, &d, dr->list.drawid, NULL, &sc, 1);
}

/* Vertices (positions in the draw) of polygon k of the mode, in their
 * winding order; 0 past the last one. */
static unsigned
polygon(enum pipe_prim_type mode, unsigned count, unsigned k, unsigned v[])
{
   switch (mode) {
   case PIPE_PRIM_TRIANGLES:
      if (3 * k + 3 > count)
         return 0;
      v[0] = 3 * k, v[1] = 3 * k + 1, v[2] = 3 * k + 2;
      return 3;
   case PIPE_PRIM_TRIANGLE_STRIP:
      if (k + 3 > count)
         return 0;
      v[0] = k + (k & 1), v[1] = k + !(k & 1), v[2] = k + 2;
      return 3;
   case PIPE_PRIM_TRIANGLE_FAN:
      if (k + 3 > count)
         return 0;
      v[0] = 0, v[1] = k + 1, v[2] = k + 2;
      return 3;
   case PIPE_PRIM_QUADS:
      if (4 * k + 4 > count)
         return 0;
      for (unsigned i = 0; i < 4; ++i)
         v[i] = 4 * k + i;
      return 4;
   case PIPE_PRIM_QUAD_STRIP:
      if (2 * k + 4 > count)
         return 0;
      v[0] = 2 * k, v[1] = 2 * k + 1, v[2] = 2 * k + 3, v[3] = 2 * k + 2;
      return 4;
   case PIPE_PRIM_POLYGON:
      if (k || count < 3)
         return 0;
      for (unsigned i = 0; i < count; ++i)
         v[i] = i;
      return count;
   default:
      return 0;
   }
}

/* The vertex of polygon k of the mode (an index into polygon()'s v) whose
 * flat varyings the polygon takes, in GL's table of provoking vertices
 * (quads follow the convention: the pipe cap is on). */
static unsigned
provoking(enum pipe_prim_type mode, unsigned k, bool first)
{
   switch (mode) {
   case PIPE_PRIM_TRIANGLES:
      return first ? 0 : 2;
   case PIPE_PRIM_TRIANGLE_STRIP:
      return first ? (k & 1) : 2; /* vertex k, swapped to v[1] when odd */
   case PIPE_PRIM_TRIANGLE_FAN:
      return first ? 1 : 2;
   case PIPE_PRIM_QUADS:
      return first ? 0 : 3;
   case PIPE_PRIM_QUAD_STRIP:
      return first ? 0 : 2; /* vertex 2k or 2k + 3 */
   default:
      return 0; /* a polygon takes its first vertex either way */
   }
}

/* Flat shading through the records (see the top of the file): rec maps
 * the buffer, the draw's records first, copies appended from `next`. */
struct flat_records {
   uint8_t *rec;
   unsigned record_B, next;
   uint64_t mask;      /* locations in the records, in order */
   uint64_t flat_mask; /* those read flat */
};

/* The record to name at a primitive's provoking slot instead of r, for
 * a polygon whose provoking record is pv: r when it is pv, else a copy
 * of r with pv's flat locations. */
static uint32_t
flat_record(struct flat_records *fr, uint32_t r, uint32_t pv)
{
   if (!fr->rec || r == pv)
      return r;
   uint8_t *dst = fr->rec + (uint64_t)fr->next * fr->record_B;
   const uint8_t *from = fr->rec + (uint64_t)pv * fr->record_B;
   memcpy(dst, fr->rec + (uint64_t)r * fr->record_B, fr->record_B);
   u_foreach_bit64 (loc, fr->flat_mask) {
      unsigned at_B = 16 * util_bitcount64(fr->mask & BITFIELD64_MASK(loc));
      memcpy(dst + at_B, from + at_B, 16);
   }
   return fr->next++;
}

/* Whether the polygon of vertices v[0..c) (clip positions in pos) is
 * front-facing. */
static bool
front_facing(const struct panfrost_context *ctx, const float *pos,
             const unsigned *v, unsigned c)
{
   const struct pipe_rasterizer_state *rast = ctx->state.rast;
   const struct pipe_viewport_state *vp = &ctx->state.viewport;
   bool flip = (vp->scale[0] < 0) != (vp->scale[1] < 0);
   /* The homogeneous determinants of the fan's triangles have the sign
    * of the projected area for vertices in front of the eye. */
   double det = 0;
   for (unsigned i = 1; i + 1 < c; ++i) {
      const float *p = pos + 4 * v[0], *q = pos + 4 * v[i],
                  *e = pos + 4 * v[i + 1];
      det += p[0] * ((double)q[1] * e[3] - (double)e[1] * q[3]) -
             p[1] * ((double)q[0] * e[3] - (double)e[0] * q[3]) +
             p[3] * ((double)q[0] * e[1] - (double)e[0] * q[1]);
   }
   /* Window y runs down the framebuffer: a positive clip-space area is
    * clockwise there (unless the viewport mirrors). */
   bool ccw = (det < 0) != flip;
   return ccw == rast->front_ccw;
}

/* A facing pass's lists: filled triangles, edges, vertices; with the
 * slope term a run per polygon, the lines' from the start of runs, the
 * points' from the end (total). */
struct face_lists {
   uint32_t *fill, *line, *point;
   unsigned nf, nl, np;
   struct offset_run *runs;
   unsigned total, line_runs, point_runs;
   bool first; /* flatshade_first */
   struct flat_records *fr;
};

/* Adds the polygon v[0..c) (what the lists name) in its face's mode,
 * its provoking vertex pv, the edges starting at the vertices of
 * `boundary` (one bit each, the first 32). */
static void
add_polygon(struct face_lists *fl, unsigned mode, const unsigned *v, unsigned c,
            uint32_t pv, uint32_t boundary, bool offset, float units)
{
   struct flat_records *fr = fl->fr;
   bool first = fl->first;
   unsigned nl0 = fl->nl, np0 = fl->np;

   switch (mode) {
   case PIPE_POLYGON_MODE_LINE:
      for (unsigned i = 0; i < c; ++i) {
         if (i < 32 && !(boundary & BITFIELD_BIT(i)))
            continue;
         uint32_t a = v[i], b = v[(i + 1) % c];
         fl->line[fl->nl++] = first ? flat_record(fr, a, pv) : a;
         fl->line[fl->nl++] = first ? b : flat_record(fr, b, pv);
      }
      break;
   case PIPE_POLYGON_MODE_POINT:
      for (unsigned i = 0; i < c; ++i) {
         if (i >= 32 || (boundary & BITFIELD_BIT(i)))
            fl->point[fl->np++] = flat_record(fr, v[i], pv);
      }
      break;
   default:
      for (unsigned i = 1; i + 1 < c; ++i) {
         uint32_t a = v[0], b = v[i + 1];
         fl->fill[fl->nf++] = first ? flat_record(fr, a, pv) : a;
         fl->fill[fl->nf++] = v[i];
         fl->fill[fl->nf++] = first ? b : flat_record(fr, b, pv);
      }
      break;
   }
   if (offset && mode == PIPE_POLYGON_MODE_LINE)
      fl->runs[fl->line_runs++] =
         (struct offset_run){ units, nl0, fl->nl - nl0 };
   else if (offset)
      fl->runs[fl->total - ++fl->point_runs] =
         (struct offset_run){ units, np0, fl->np - np0 };
}

/* Draws a facing pass's lists with a rasterizer that fills and culls
 * nothing (the lists are already the faces' modes, the culled faces
 * out), the back faces' lines and points with the variant reading them
 * back-facing; tmp regroups the slope term's runs.  false when out of
 * memory. */
static bool
draw_pass(struct panfrost_context *ctx, const struct list_drawer *dr,
          const struct face_lists *fl, bool back, bool slope, uint32_t *tmp)
{
   const struct pipe_rasterizer_state *rast = ctx->state.rast;
   struct pipe_rasterizer_state plain = *rast;
   plain.fill_front = plain.fill_back = PIPE_POLYGON_MODE_FILL;
   plain.cull_face = PIPE_FACE_NONE;
   void *saved = ctx->state.rast;
   void *cso = ctx->base.create_rasterizer_state(&ctx->base, &plain);
   if (!cso)
      return false;
   ctx->base.bind_rasterizer_state(&ctx->base, cso);
   draw_list(ctx, dr, PIPE_PRIM_TRIANGLES, fl->fill, fl->nf);
   ctx->unfilled_polygons = true;
   ctx->back_face_polygons = back;
   if (slope) {
      draw_runs(ctx, dr, PIPE_PRIM_LINES, fl->line, fl->runs, fl->line_runs,
                tmp, &plain, cso);
      draw_runs(ctx, dr, PIPE_PRIM_POINTS, fl->point,
                fl->runs + fl->total - fl->point_runs, fl->point_runs, tmp,
                &plain, cso);
   } else {
      draw_list(ctx, dr, PIPE_PRIM_LINES, fl->line, fl->nl);
      draw_list(ctx, dr, PIPE_PRIM_POINTS, fl->point, fl->np);
   }
   ctx->unfilled_polygons = false;
   ctx->back_face_polygons = false;
   ctx->base.bind_rasterizer_state(&ctx->base, saved);
   ctx->base.delete_rasterizer_state(&ctx->base, cso);
   return true;
}

/* One draw by its polygons' facing (see the top of the file). */
static bool
facing_draw(struct panfrost_context *ctx, const struct pipe_draw_info *info,
            unsigned drawid, const struct pipe_draw_start_count_bias *d)
{
   const struct pipe_rasterizer_state *rast = ctx->state.rast;
   struct panfrost_shader *vs = ctx->state.shaders[PIPE_SHADER_VERTEX];
   unsigned n = d->count, instances = info->instance_count;
   /* Flat locations to give each polygon's lines, points and triangles. */
   uint64_t flat_mask = panfrost_vertex_flat_locations(ctx);
   /* A shader writing memory runs once per distinct vertex: the lists
    * are drawn from the records of that run (pan_vs_once.h leaves quads,
    * quad strips and polygons here). */
   bool once = vs->vs_writes_memory;
   /* Drawn from records of every output (instanced, flat or once). */
   bool by_record = instances > 1 || flat_mask || once;

   if (n < 3 || !instances)
      return true;
   /* An instance's vertices then take a record of every output. */
   uint64_t mask = BITFIELD64_BIT(VARYING_SLOT_POS);
   if (by_record)
      mask |= panfrost_vertex_output_mask(vs);
   /* GL flags the edges of independent polygons only. */
   bool edges = has_edge_flags(vs) && (info->mode == PIPE_PRIM_TRIANGLES ||
                                       info->mode == PIPE_PRIM_QUADS ||
                                       info->mode == PIPE_PRIM_POLYGON);
   if (edges)
      mask |= BITFIELD64_BIT(VARYING_SLOT_EDGE);
   unsigned edge_at_B =
      16 * util_bitcount64(mask & BITFIELD64_MASK(VARYING_SLOT_EDGE));
   unsigned record_B = util_bitcount64(mask) * 16;
   uint64_t total = (uint64_t)n * instances;
   /* Flat shading's copies: one per primitive drawn at most, and the
    * polygons of a strip or fan name three vertices a vertex. */
   uint64_t room = flat_mask ? 4 * total : total;
   /* The lists' 12 indices a vertex are counted in 32 bits too. */
   uint64_t size_B = total * 12 > UINT32_MAX ? UINT64_MAX : room * record_B;
   if (!panfrost_vertex_records_fit(size_B, "polygon-mode draw (facing path)",
                                    n, instances))
      return true;
   /* The draw's vertex ids: its indices, or 0.. from its first vertex;
    * restarts (cut) end the polygons and shade the id before them. */
   uint32_t *ids = malloc(n * sizeof(uint32_t));
   uint8_t *cut = calloc(n, 1);
   /* Filled triangles (3n indices at most: a strip's, a fan's), edges
    * (6n: a strip's triangles each give three) and vertices (3n), of
    * every instance. */
   uint32_t *lists = malloc(total * 12 * sizeof(uint32_t));
   unsigned *v = malloc(n * sizeof(unsigned));
   float *pos = malloc(total * 4 * sizeof(float));
   /* With the slope term: a run per polygon drawn as lines or points
    * (n polygons at most per instance), and room to regroup the edges. */
   bool slope = needs_slope(ctx);
   struct offset_run *runs = slope ? malloc(total * sizeof(*runs)) : NULL;
   uint32_t *tmp = slope ? malloc(total * 6 * sizeof(uint32_t)) : NULL;
   bool ok = ids && cut && lists && v && pos && (!slope || (runs && tmp)) &&
             panfrost_vertex_read_ids(ctx, info, d, ids, cut);
   /* Records per instance: one a position, or with once one a distinct
    * id (slot: the record of each position); flat shading's copies
    * after them. */
   unsigned nr = n;
   uint32_t *distinct = NULL, *slot = NULL;
   if (ok && once) {
      distinct = malloc(n * sizeof(uint32_t));
      slot = malloc(n * sizeof(uint32_t));
      ok = distinct && slot;
   }
   if (ok && once) {
      memcpy(distinct, ids, n * sizeof(uint32_t));
      nr = panfrost_distinct_ids(distinct, n);
      for (unsigned i = 0; i < n; ++i)
         slot[i] = panfrost_id_rank(distinct, nr, ids[i]);
   }
   uint64_t nrec = (uint64_t)nr * instances;
   room = nrec + (flat_mask ? 3 * total : 0);

   int bias = info->index_size ? d->index_bias : (int)d->start;
   struct panfrost_vertex_records vr = { 0 };
   ok = ok && panfrost_vertex_records_run(
                 ctx, vs, mask, by_record, info, drawid, bias,
                 distinct ? distinct : ids, nr, room * record_B, &vr);
   uint8_t *rec = ok ? vr.cpu : NULL;
   /* gl_Position is the first vec4 of a record. */
   for (uint64_t r = 0; rec && r < nrec; ++r)
      memcpy(pos + 4 * r, rec + r * record_B, 16);
   struct list_drawer dr = {
      .info = info,
      .bias = bias,
      .list = {
         .pass_vs = vr.draw_vs,
         .pass_ve = vr.draw_ve,
         .records = vr.buf,
         .record_B = record_B,
         .nr_records = (unsigned)nrec,
         .drawid = drawid,
      },
   };
   struct flat_records fr = {
      .rec = flat_mask ? rec : NULL,
      .record_B = record_B,
      .next = (unsigned)nrec,
      .mask = mask,
      .flat_mask = flat_mask & mask & ~BITFIELD64_BIT(VARYING_SLOT_POS),
   };
   bool first = rast->flatshade_first;
   /* With gl_FrontFacing read, the front faces first, then the back ones
    * with the shader variant that reads false. */
   bool by_face = needs_facing(ctx);
   for (unsigned pass = 0; rec && pass < (by_face ? 2 : 1); ++pass) {
      struct face_lists fl = {
         .fill = lists,
         .line = lists + 3 * total,
         .point = lists + 9 * total,
         .runs = runs,
         .total = (unsigned)total,
         .first = first,
         .fr = &fr,
      };
      unsigned c;
      for (unsigned inst = 0; inst < instances; ++inst) {
         /* An instance's positions; its records follow the previous
          * instance's. */
         const float *ipos = pos + 4 * (uint64_t)inst * nr;
         uint32_t base = inst * nr;
         /* Each piece between restarts on its own. */
         for (unsigned a = 0, b; a < n; a = b + 1) {
            for (b = a; b < n && !cut[b]; ++b)
               ;
            for (unsigned k = 0; (c = polygon(info->mode, b - a, k, v));
                 ++k) {
               /* Positions in the draw; with once, their records. */
               for (unsigned i = 0; i < c; ++i)
                  v[i] = slot ? slot[v[i] + a] : v[i] + a;
               bool front = front_facing(ctx, ipos, v, c);
               if (rast->cull_face & (front ? PIPE_FACE_FRONT : PIPE_FACE_BACK))
                  continue;
               if (by_face && front != (pass == 0))
                  continue;
               unsigned fill_mode = front ? rast->fill_front : rast->fill_back;
               bool offset = slope && fill_mode != PIPE_POLYGON_MODE_FILL;
               float units = offset ? slope_units(ctx, ipos, v) : 0;
               /* Whether an edge starts at v[i] (its record's flag). */
               uint32_t boundary = ~0u;
               for (unsigned i = 0; edges && i < c && i < 32; ++i) {
                  uint32_t flag; /* a float, either zero off */
                  memcpy(&flag,
                         rec + (uint64_t)(base + v[i]) * record_B + edge_at_B,
                         sizeof(flag));
                  if (!(flag & 0x7fffffffu))
                     boundary &= ~BITFIELD_BIT(i);
               }
               /* What the lists name: the records, or the draw's ids. */
               for (unsigned i = 0; i < c; ++i)
                  v[i] = by_record ? base + v[i] : ids[v[i]];
               add_polygon(&fl, fill_mode, v, c,
                           v[provoking(info->mode, k, first)], boundary, offset,
                           units);
            }
         }
      }
      dr.list.nr_records = fr.next; /* the flat copies too */
      ok = draw_pass(ctx, &dr, &fl, by_face && pass == 1, slope, tmp) && ok;
   }
   panfrost_vertex_records_release(ctx, &vr);
   free(tmp);
   free(runs);
   free(pos);
   free(v);
   free(lists);
   free(cut);
   free(ids);
   free(slot);
   free(distinct);
   return ok;
}

bool
panfrost_polygon_mode_applies(const struct panfrost_context *ctx,
                              const struct pipe_draw_info *info)
{
   return unfilled_applies(ctx, info) || facing_applies(ctx, info);
}

bool
panfrost_polygon_mode_draw(struct panfrost_context *ctx,
                           const struct pipe_draw_info *info,
                           unsigned drawid_offset,
                           const struct pipe_draw_start_count_bias *draws,
                           unsigned num_draws)
{
   const struct pipe_rasterizer_state *rast = ctx->state.rast;

   /* The facing path draws the slope term and back faces' lines and
    * points too, where it can. */
   if (!unfilled_applies(ctx, info) ||
       ((needs_slope(ctx) || needs_facing(ctx)) &&
        facing_applies(ctx, info))) {
      if (!facing_applies(ctx, info))
         return false;
      panfrost_vertex_each_draw(ctx, info, drawid_offset, draws, num_draws,
                                facing_draw, "polygon-mode draw with facing");
      return true;
   }
   u_unfilled_init();

   struct pipe_transfer *xfer;
   const uint8_t *in;
   if (!panfrost_vertex_map_indices(ctx, info, &in, &xfer)) {
      mesa_loge("panfrost: polygon-mode draw: indices not mapped, dropped");
      return true;
   }

   bool ok = true;
   for (unsigned i = 0; ok && i < num_draws; ++i) {
      const struct pipe_draw_start_count_bias *d = &draws[i];
      unsigned drawid = drawid_offset + (info->increment_draw_id ? i : 0);

      if (!in || !info->primitive_restart) {
         ok = draw_run(ctx, info, drawid, in, d->start, d->count, d->index_bias,
                       rast->fill_front);
         continue;
      }
      /* Restarts end the polygons: each run between them on its own. */
      unsigned run = d->start, end = d->start + d->count;
      for (unsigned k = d->start; ok && k <= end; ++k) {
         if (k < end && panfrost_vertex_index_at(in, info->index_size, k) !=
                           info->restart_index)
            continue;
         if (k > run)
            ok = draw_run(ctx, info, drawid, in, run, k - run, d->index_bias,
                          rast->fill_front);
         run = k + 1;
      }
   }
   if (xfer)
      pipe_buffer_unmap(&ctx->base, xfer);
   if (!ok)
      mesa_loge("panfrost: out of memory for a polygon-mode draw, dropped");
   return true;
}

void
panfrost_nir_drop_edge_flag(nir_shader *nir)
{
   nir_foreach_function(func, nir)
   {
      if (!func->impl)
         continue;
      nir_foreach_block(block, func->impl)
      {
         nir_foreach_instr_safe(instr, block)
         {
            if (instr->type != nir_instr_type_intrinsic)
               continue;
            nir_intrinsic_instr *intr = nir_instr_as_intrinsic(instr);
            if (intr->intrinsic == nir_intrinsic_store_output &&
                nir_intrinsic_io_semantics(intr).location ==
                   VARYING_SLOT_EDGE) {
               nir_instr_remove(instr);
            } else if (intr->intrinsic == nir_intrinsic_store_deref) {
               nir_variable *var = nir_intrinsic_get_var(intr, 0);
               if (!var || var->data.mode != nir_var_shader_out ||
                   var->data.location != VARYING_SLOT_EDGE)
                  continue;
               nir_deref_instr *deref = nir_src_as_deref(intr->src[0]);
               nir_instr_remove(instr);
               nir_deref_instr_remove_if_unused(deref);
            }
         }
      }
      nir_metadata_preserve(func->impl,
                            nir_metadata_block_index | nir_metadata_dominance);
   }
   nir_foreach_shader_out_variable_safe(var, nir)
   {
      if (var->data.location == VARYING_SLOT_EDGE)
         exec_node_remove(&var->node);
   }
   nir->info.outputs_written &= ~BITFIELD64_BIT(VARYING_SLOT_EDGE);
}
