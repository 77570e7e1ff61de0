/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * TILER and IDVS jobs on Bifrost, the tiling half of MALLOC_VERTEX jobs on
 * Valhall (compiled once per PAN_ARCH, executed on v6/v7 and v9).  On v9
 * the vertices are the job's vertex packets (pan_sim_vX_vertex.c), one per
 * index of every instance, the provoking vertex comes from the tiler
 * context and only the implicit restart index exists; the rest is shared.
 *
 * The job assembles primitives from the vertex job's outputs and records
 * them in the simulator's functional polygon list of its tiler context
 * (pan_sim_raster.c explains why the hardware's list is not modelled).
 *    vertices   index i of the draw (0..index_count - 1), or the index
 *               read from primitive.indices (8/16/32-bit) plus
 *               base_vertex_offset; instance k adds k * vertices per
 *               instance; position at draw.position + 16 * that
 *    positions  window coordinates and 1/w as the vertex shader stored
 *               them (Bifrost drivers do the viewport transform and
 *               the perspective divide in the vertex shader)
 *    restart    explicit: primitive_restart_index; implicit: all ones
 *    modes      triangles, strips (odd triangles reordered as GL does),
 *               fans; the provoking vertex follows first_provoking_vertex
 *    culling    front face by draw.front_face_ccw, counter-clockwise
 *               meaning as seen with rows growing downwards (the stock
 *               driver passes Gallium's front_ccw, defined that way, as
 *               is), cull_front/back_face
 *    points     a square of the primitive_size constant, or of the
 *               per-vertex fp16/fp32 size array, at least one pixel wide
 *    lines      lists, strips and loops (each run between restarts
 *               closed), of the primitive_size constant's width (at
 *               least one pixel); the provoking vertex is the segment's
 *               first when draw.flat_shading_vertex is set, its last
 *               otherwise on v6/v7 (the stock driver's convention: it
 *               sets the primitive's first_provoking_vertex for lines
 *               and chooses with that bit), first_provoking_vertex of
 *               the tiler context on v9; never culled
 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pan_sim_fp.h"
#include "pan_sim_vX_gfx.h"

#if PAN_ARCH >= 6

struct tiler_run {
   struct pan_sim_ctx *ctx;
   struct pan_sim_plist *list;
   struct PAN_GENX(draw) draw;
   struct PAN_GENX(primitive) prim;
   unsigned draw_index;
   uint32_t vertices, instances;
   const uint8_t *indices;
   unsigned index_B;
   uint32_t restart;
   bool use_restart;
   bool first_provoking;
   const void *primitive_size; /* the packed section */
   float line_width;
   unsigned line_provoking; /* 0: a segment's first vertex, 1: its last */
   /* v9: the draw's vertex packets (indexed by instance * index_count +
    * i rather than by vertex id: see pan_sim_vX_vertex.c). */
   const struct pan_sim_draw_rec *rec;
};

static bool
read_vertex(struct tiler_run *t, uint32_t out_index, struct pan_sim_vtx *v)
{
   const float *p;
   if (t->rec && t->rec->packets) {
      if (out_index >= t->rec->nr_packets)
         return pan_sim_fault(t->ctx, PAN_SIM_CONFIG_FAULT, 0,
                              "vertex packet %u of %u", out_index,
                              t->rec->nr_packets);
      p = (const float *)(t->rec->packets +
                          (uint64_t)out_index * t->rec->packet_B);
   } else {
#if PAN_ARCH <= 7
      p = pan_sim_ctx_read(t->ctx, t->draw.position + 16ull * out_index, 16,
                           "vertex position");
#else
      return pan_sim_fault(t->ctx, PAN_SIM_CONFIG_FAULT, 0,
                           "draw without vertex packets");
#endif
   }
   if (!p)
      return false;
   v->x = p[0];
   v->y = p[1];
   v->z = p[2];
   v->inv_w = p[3];
   v->index = out_index;
   return true;
}

static bool
emit_triangle(struct tiler_run *t, const uint32_t idx[3], unsigned provoking)
{
   struct pan_sim_prim p = { .provoking = provoking, .draw = t->draw_index };

   for (unsigned i = 0; i < 3; ++i) {
      if (!read_vertex(t, idx[i], &p.v[i]))
         return false;
   }
   double area = ((double)p.v[1].x - p.v[0].x) * ((double)p.v[2].y - p.v[0].y) -
                 ((double)p.v[1].y - p.v[0].y) * ((double)p.v[2].x - p.v[0].x);
   if (!(area != 0))
      return true; /* degenerate (or NaN): nothing to draw */
   /* Counter-clockwise as seen with rows growing downwards (Gallium's
    * window convention, which the stock driver passes through): a
    * negative area in this (x, row) frame. */
   p.front = (area < 0) == t->draw.front_face_ccw;
   if ((p.front && t->draw.cull_front_face) ||
       (!p.front && t->draw.cull_back_face))
      return true;
   if (!pan_sim_plist_add_prim(t->list, &p))
      return pan_sim_fault(t->ctx, PAN_SIM_CONFIG_FAULT, 0,
                           "polygon list: more than %u primitives or out of "
                           "memory",
                           PAN_SIM_MAX_PRIMS);
   return true;
}

static bool
emit_point(struct tiler_run *t, uint32_t idx)
{
   struct pan_sim_prim p = { .front = true, .draw = t->draw_index };
   float size;

   if (!read_vertex(t, idx, &p.v[0]))
      return false;
   p.v[1] = p.v[2] = p.v[0];
   pan_unpack(t->primitive_size, primitive_size, ps);
   switch (t->prim.point_size_array_format) {
   case MALI_POINT_SIZE_ARRAY_FORMAT_NONE:
      size = ps.fixed.constant;
      break;
#if PAN_ARCH >= 9
   case MALI_POINT_SIZE_ARRAY_FORMAT_FP32:
   case MALI_POINT_SIZE_ARRAY_FORMAT_FP16: {
      /* The position shader stored it in the packet. */
      const uint8_t *at = t->rec->packets + (uint64_t)idx * t->rec->packet_B +
                          PAN_SIM_PACKET_POINT_SIZE;
      uint16_t h;
      if (t->prim.point_size_array_format ==
          MALI_POINT_SIZE_ARRAY_FORMAT_FP32) {
         memcpy(&size, at, 4);
      } else {
         memcpy(&h, at, 2);
         size = (float)pan_sim_fp_f16_to_f64(h);
      }
      break;
   }
#else
   case MALI_POINT_SIZE_ARRAY_FORMAT_FP32: {
      const float *s = pan_sim_ctx_read(
         t->ctx, ps.per_vertex.size_array + 4ull * idx, 4, "point sizes");
      if (!s)
         return false;
      size = *s;
      break;
   }
   default: {
      const uint16_t *s = pan_sim_ctx_read(
         t->ctx, ps.per_vertex.size_array + 2ull * idx, 2, "point sizes");
      if (!s)
         return false;
      size = (float)pan_sim_fp_f16_to_f64(*s);
      break;
   }
#endif
   }
   /* Sizes below one pixel (or NaN) draw one pixel, as GL's minimum. */
   p.point_size = size >= 1.0f ? size : 1.0f;
   if (!pan_sim_plist_add_prim(t->list, &p))
      return pan_sim_fault(t->ctx, PAN_SIM_CONFIG_FAULT, 0,
                           "polygon list: more than %u primitives or out of "
                           "memory",
                           PAN_SIM_MAX_PRIMS);
   return true;
}

static bool
emit_line(struct tiler_run *t, uint32_t a, uint32_t b)
{
   struct pan_sim_prim p = {
      .front = true,
      .draw = t->draw_index,
      .provoking = t->line_provoking,
      .line_width = t->line_width,
   };

   if (!read_vertex(t, a, &p.v[0]) || !read_vertex(t, b, &p.v[1]))
      return false;
   p.v[2] = p.v[1];
   if (p.v[0].x == p.v[1].x && p.v[0].y == p.v[1].y)
      return true; /* no length: nothing to draw */
   if (!pan_sim_plist_add_prim(t->list, &p))
      return pan_sim_fault(t->ctx, PAN_SIM_CONFIG_FAULT, 0,
                           "polygon list: more than %u primitives or out of "
                           "memory",
                           PAN_SIM_MAX_PRIMS);
   return true;
}

/* The vertex that index i of instance k names (a vertex-job output on
 * v6/v7, a vertex packet on v9); *restart when i holds the restart
 * index. */
static uint32_t
vertex_at(const struct tiler_run *t, uint32_t i, uint32_t k, bool *restart)
{
   uint32_t v = i;

   *restart = false;
   if (t->indices) {
      v = 0;
      memcpy(&v, t->indices + (uint64_t)i * t->index_B, t->index_B);
      *restart = t->use_restart && v == t->restart;
      v += t->prim.base_vertex_offset;
   }
#if PAN_ARCH >= 9
   return k * (uint32_t)t->prim.index_count + i;
#else
   return v + k * t->vertices;
#endif
}

/* One instance: walk the index stream, restarting where asked. */
static bool
assemble(struct tiler_run *t, uint32_t instance)
{
   const uint32_t count = (uint32_t)t->prim.index_count;
   const bool first = t->first_provoking;
   uint32_t run[3], n = 0, fan0 = 0, in_run = 0, q[4];
   const bool loop = t->prim.draw_mode == MALI_DRAW_MODE_LINE_LOOP;

   for (uint32_t i = 0; i <= count; ++i) {
      bool restart = true;
      uint32_t v = i < count ? vertex_at(t, i, instance, &restart) : 0;
      if (restart) {
         /* A loop closes each run from its last vertex to its first. */
         if (loop && in_run >= 2 && !emit_line(t, run[1], fan0))
            return false;
         n = 0;
         in_run = 0;
         continue;
      }
      uint32_t k = in_run++;
      uint32_t tri[3];
      switch (t->prim.draw_mode) {
      case MALI_DRAW_MODE_POINTS:
         if (!emit_point(t, v))
            return false;
         break;
      case MALI_DRAW_MODE_LINES:
         run[n++] = v;
         if (n < 2)
            continue;
         n = 0;
         if (!emit_line(t, run[0], run[1]))
            return false;
         break;
      case MALI_DRAW_MODE_LINE_STRIP:
      case MALI_DRAW_MODE_LINE_LOOP:
         if (k == 0)
            fan0 = v;
         else if (!emit_line(t, run[1], v))
            return false;
         run[1] = v;
         break;
      case MALI_DRAW_MODE_TRIANGLES:
         run[n++] = v;
         if (n < 3)
            continue;
         n = 0;
         if (!emit_triangle(t, run, first ? 0 : 2))
            return false;
         break;
      case MALI_DRAW_MODE_TRIANGLE_STRIP:
         run[0] = run[1];
         run[1] = run[2];
         run[2] = v;
         if (k < 2)
            continue;
         /* Odd triangles swap their first two vertices to keep the
          * winding; the provoking vertex is the triangle's first or last
          * in strip order. */
         if (k % 2) {
            tri[0] = run[1], tri[1] = run[0], tri[2] = run[2];
            if (!emit_triangle(t, tri, first ? 1 : 2))
               return false;
         } else if (!emit_triangle(t, run, first ? 0 : 2)) {
            return false;
         }
         break;
      case MALI_DRAW_MODE_QUADS:
#if PAN_ARCH <= 6
      case MALI_DRAW_MODE_QUAD_STRIP:
#endif
         /* A quad is two triangles sharing its provoking vertex (the
          * first or last of the quad), in the quad's winding.  A strip's
          * quad k is (2k, 2k + 1, 2k + 3, 2k + 2). */
         q[k % 4] = v;
         if (t->prim.draw_mode == MALI_DRAW_MODE_QUADS ? k % 4 != 3
                                                       : k < 3 || k % 2 == 0)
            continue;
         uint32_t quad[4] = { q[0], q[1], q[2], q[3] };
         if (t->prim.draw_mode != MALI_DRAW_MODE_QUADS) {
            quad[0] = q[(k - 3) % 4], quad[1] = q[(k - 2) % 4];
            quad[2] = q[k % 4], quad[3] = q[(k - 1) % 4];
         }
         /* Rotated so that the provoking vertex comes first in both. */
         unsigned p = first ? 0 : 3;
         tri[0] = quad[p], tri[1] = quad[(p + 1) % 4], tri[2] = quad[(p + 2) % 4];
         if (!emit_triangle(t, tri, 0))
            return false;
         tri[0] = quad[p], tri[1] = quad[(p + 2) % 4], tri[2] = quad[(p + 3) % 4];
         if (!emit_triangle(t, tri, 0))
            return false;
         break;
      default: /* fan */
         if (k == 0) {
            fan0 = v;
            continue;
         }
         run[1] = run[2];
         run[2] = v;
         if (k < 2)
            continue;
         tri[0] = fan0, tri[1] = run[1], tri[2] = run[2];
         if (!emit_triangle(t, tri, first ? 1 : 2))
            return false;
         break;
      }
   }
   return true;
}

/* What the tiler half of a job reads: its sections as packed, its vertex
 * and instance counts, and the draw record to file (v9: with the vertex
 * packets, which the list owns from then on). */
struct tile_in {
   const void *primitive, *primitive_size, *tiler, *draw;
   uint32_t vertices, instances;
   uint64_t indices;
   struct pan_sim_draw_rec rec;
};

static bool
tile(struct pan_sim_ctx *ctx, uint64_t job_va, struct tile_in *in)
{
   struct tiler_run t = {
      .ctx = ctx,
      .primitive_size = in->primitive_size,
      .vertices = in->vertices,
      .instances = in->instances,
   };

   PAN_GENX(primitive_unpack)(in->primitive, &t.prim);
   pan_unpack(in->tiler, tiler_pointer, tp);
   PAN_GENX(draw_unpack)(in->draw, &t.draw);
   const struct PAN_GENX(primitive) prim = t.prim;

   switch (prim.draw_mode) {
   case MALI_DRAW_MODE_NONE:
      return true;
   case MALI_DRAW_MODE_POINTS:
   case MALI_DRAW_MODE_LINES:
   case MALI_DRAW_MODE_LINE_STRIP:
   case MALI_DRAW_MODE_LINE_LOOP:
   case MALI_DRAW_MODE_TRIANGLES:
   case MALI_DRAW_MODE_TRIANGLE_STRIP:
   case MALI_DRAW_MODE_TRIANGLE_FAN:
   case MALI_DRAW_MODE_QUADS:
#if PAN_ARCH <= 6
   case MALI_DRAW_MODE_QUAD_STRIP:
#endif
      break;
   default: {
      const char *name = PAN_GENX(draw_mode_name)(prim.draw_mode);
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, job_va,
                           "draw mode %s (%u) is not executed yet",
                           name ? name : "undefined", (unsigned)prim.draw_mode);
   }
   }
   /* The tiler context must be there, even though only its address is
    * used (as the polygon list's key) and, on v9, its provoking vertex. */
   const void *tctx =
      tp.address ? pan_sim_ctx_read(ctx, tp.address, pan_size(tiler_context),
                                    "tiler context")
                 : NULL;
   if (!tctx)
      return tp.address ? false
                        : pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, job_va,
                                        "tiler job without a tiler context");
#if PAN_ARCH >= 9
   pan_unpack(tctx, tiler_context, tc);
   t.first_provoking = tc.first_provoking_vertex;
   t.line_provoking = t.first_provoking ? 0 : 1;
   /* Only the implicit (all ones) restart index exists on v9. */
   bool restart = prim.restart.primitive_restart != MALI_PRIMITIVE_RESTART_NONE;
   uint32_t restart_index = ~0u;
#else
   t.first_provoking = prim.first_provoking_vertex;
   t.line_provoking = t.draw.flat_shading_vertex ? 0 : 1;
   bool restart = prim.primitive_restart != MALI_PRIMITIVE_RESTART_NONE;
   uint32_t restart_index =
      prim.primitive_restart == MALI_PRIMITIVE_RESTART_EXPLICIT
         ? prim.primitive_restart_index
         : ~0u;
#endif

   if (prim.draw_mode == MALI_DRAW_MODE_LINES ||
       prim.draw_mode == MALI_DRAW_MODE_LINE_STRIP ||
       prim.draw_mode == MALI_DRAW_MODE_LINE_LOOP) {
      /* The section holds a width only when no size array is named. */
      if (prim.point_size_array_format != MALI_POINT_SIZE_ARRAY_FORMAT_NONE)
         return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, job_va,
                              "lines with a per-vertex size array");
      pan_unpack(in->primitive_size, primitive_size, ps);
      /* Narrower than a pixel (or NaN) draws one pixel wide, GL's
       * minimum. */
      t.line_width = ps.fixed.constant >= 1.0f ? ps.fixed.constant : 1.0f;
   }

   if (prim.index_type != MALI_INDEX_TYPE_NONE) {
      t.index_B = prim.index_type == MALI_INDEX_TYPE_UINT8    ? 1
                  : prim.index_type == MALI_INDEX_TYPE_UINT16 ? 2
                                                              : 4;
      t.indices = pan_sim_ctx_read(ctx, in->indices,
                                   (uint64_t)prim.index_count * t.index_B,
                                   "indices");
      if (!t.indices)
         return false;
      t.use_restart = restart;
      t.restart = restart_index == ~0u
                     ? (uint32_t)((1ull << (8 * t.index_B)) - 1)
                     : restart_index;
   }

   t.list = pan_sim_plist_get(tp.address);
   in->rec.low_depth_cull = prim.low_depth_cull;
   in->rec.high_depth_cull = prim.high_depth_cull;
   memcpy(in->rec.draw, in->draw, PAN_SIM_DRAW_B);
   if (!t.list || !pan_sim_plist_add_draw(t.list, &in->rec))
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, job_va, "out of memory");
   in->rec.packets = NULL; /* the list's now */
   t.draw_index = t.list->nr_draws - 1;
   t.rec = &t.list->draws[t.draw_index];

   for (uint32_t k = 0; k < t.instances; ++k) {
      if (!assemble(&t, k))
         return false;
   }
   return true;
}

#if PAN_ARCH <= 7
/* The vertex and instance counts of a v6/v7 job's invocation section. */
static bool
tile_in_v7(struct pan_sim_ctx *ctx, uint64_t job_va, const void *invocation,
           struct tile_in *in)
{
   pan_unpack(in->primitive, primitive, prim);
   in->indices = prim.indices;
   return PAN_GENX(sim_gfx_job_counts)(ctx, job_va, invocation, &in->vertices,
                                       &in->instances);
}

bool
PAN_GENX(sim_exec_tiler)(struct pan_sim_ctx *ctx, uint64_t job_va)
{
   const uint8_t *job = pan_sim_ctx_read(ctx, job_va, pan_size(tiler_job),
                                         "tiler job descriptor");
   if (!job)
      return false;
   struct tile_in in = {
      .primitive = pan_section_ptr(job, tiler_job, primitive),
      .primitive_size = pan_section_ptr(job, tiler_job, primitive_size),
      .tiler = pan_section_ptr(job, tiler_job, tiler),
      .draw = pan_section_ptr(job, tiler_job, draw),
   };
   return tile_in_v7(ctx, job_va, pan_section_ptr(job, tiler_job, invocation),
                     &in) &&
          tile(ctx, job_va, &in);
}

/* IDVS: the vertex_draw section's position (and varying) shaders over the
 * job's vertices, then tiling with the fragment_draw section. */
bool
PAN_GENX(sim_exec_indexed_vertex)(struct pan_sim_ctx *ctx, uint64_t job_va)
{
   const uint8_t *job = pan_sim_ctx_read(
      ctx, job_va, pan_size(indexed_vertex_job), "IDVS job descriptor");
   if (!job)
      return false;
   pan_section_unpack(job, indexed_vertex_job, primitive, prim);
   pan_section_unpack(job, indexed_vertex_job, fragment_draw, fdraw);
   const void *inv = pan_section_ptr(job, indexed_vertex_job, invocation);
   struct tile_in in = {
      .primitive = pan_section_ptr(job, indexed_vertex_job, primitive),
      .primitive_size =
         pan_section_ptr(job, indexed_vertex_job, primitive_size),
      .tiler = pan_section_ptr(job, indexed_vertex_job, tiler),
      .draw = pan_section_ptr(job, indexed_vertex_job, fragment_draw),
   };
   return PAN_GENX(sim_gfx_shade_vertices)(
             ctx, job_va, inv,
             pan_section_ptr(job, indexed_vertex_job, vertex_draw),
             fdraw.position, true, prim.secondary_shader) &&
          tile_in_v7(ctx, job_va, inv, &in) && tile(ctx, job_va, &in);
}
#else
/* MALLOC_VERTEX: the position and varying shaders fill the vertex packets
 * (pan_sim_vX_vertex.c), then the draw is tiled from them. */
bool
PAN_GENX(sim_exec_malloc_vertex)(struct pan_sim_ctx *ctx, uint64_t job_va)
{
   const uint8_t *job = pan_sim_ctx_read(ctx, job_va, pan_size(malloc_vertex_job),
                                         "malloc-vertex job descriptor");
   if (!job)
      return false;
   pan_section_unpack(job, malloc_vertex_job, primitive, prim);
   pan_section_unpack(job, malloc_vertex_job, instance_count, ic);
   pan_section_unpack(job, malloc_vertex_job, indices, ind);
   pan_section_unpack(job, malloc_vertex_job, scissor, sc);
   struct tile_in in = {
      .primitive = pan_section_ptr(job, malloc_vertex_job, primitive),
      .primitive_size = pan_section_ptr(job, malloc_vertex_job, primitive_size),
      .tiler = pan_section_ptr(job, malloc_vertex_job, tiler),
      .draw = pan_section_ptr(job, malloc_vertex_job, draw),
      .vertices = prim.index_count,
      .instances = ic.count,
      .indices = ind.address,
      .rec.scissor = { sc.scissor_minimum_x, sc.scissor_minimum_y,
                       sc.scissor_maximum_x, sc.scissor_maximum_y },
   };
   if (prim.draw_mode == MALI_DRAW_MODE_NONE || !prim.index_count ||
       !ic.count)
      return true;
   bool ok = PAN_GENX(sim_gfx_shade_packets)(ctx, job_va, job, &in.rec) &&
             tile(ctx, job_va, &in);
   free(in.rec.packets); /* NULL once the list took them */
   return ok;
}
#endif
#endif
