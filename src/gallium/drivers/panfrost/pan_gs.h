/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Geometry shaders, which Mali has no stage for, run as compute work
 * before the draw (docs/drivers/panfrost/geometry.rst):
 *
 * 1. the vertex shader's record variant (panfrost_nir_lower_vs_records)
 *    writes the outputs the geometry shader reads, a record per vertex of
 *    each input primitive, for every instance;
 * 2. the geometry shader's compute variant (panfrost_nir_lower_gs) runs
 *    once per input primitive and geometry instance, writes each emitted
 *    vertex into its own range of max_vertices output records and, for
 *    each of them, the indices of the point, line or triangle it ends (or
 *    restart indices), so the strips become a list;
 * 3. an indexed draw of that list with a vertex shader copying the
 *    records' vec4s to the outputs.
 */

#ifndef PAN_GS_H
#define PAN_GS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pipe/p_state.h"

struct nir_shader;
struct panfrost_context;
struct panfrost_compute_shader;
struct panfrost_shader;

#define PANFROST_GS_MAX_UBOS PIPE_MAX_CONSTANT_BUFFERS

/* gl_PrimitiveID travels from the geometry stage to the fragment shader
 * in a fixed-function slot of its own (pan_va_varying_slot), after the 32
 * generic ones.
 */
#define PANFROST_PRIMITIVE_ID_SLOT VARYING_SLOT_PRIMITIVE_ID

/* The block the compute variant reads at the address of its first two
 * kernel input words.
 */
struct panfrost_gs_params {
   uint32_t count;           /* invocations: instances * prims * invocations */
   uint32_t prims;           /* input primitives per instance */
   uint32_t flatshade_first; /* provoking-vertex convention of the draw */
   uint32_t pad;
   uint64_t in;      /* input records, vertices_in per primitive */
   uint64_t out;     /* output records, max_vertices per invocation */
   uint64_t indices; /* 32-bit indices, one primitive per output record */
   uint64_t ubos[PANFROST_GS_MAX_UBOS];
   /* Layered framebuffers (pan_layer.h): with layers > 0 the list keeps
    * only the primitives whose gl_Layer (of their last vertex), clamped
    * as an unsigned value to layers - 1 as softpipe does, is `layer`.
    */
   uint32_t layer;
   uint32_t layers;
};

/* What the lowering learns of the shader. */
struct panfrost_gs_info {
   uint64_t in_mask;  /* locations read, each a vec4 of an input record */
   uint64_t out_mask; /* locations written, each a vec4 of an output one */
   unsigned vertices_in, max_vertices, invocations;
   enum pipe_prim_type out_mode; /* points, lines or triangles */
   /* base type per output location: float, or integer bits */
   uint64_t out_int_mask;
   /* output locations declared noperspective */
   uint64_t out_noperspective_mask;
   unsigned clip_distances; /* gl_ClipDistance[] elements written */
};

/* Rewrites a geometry shader into its compute variant; false with a
 * message for what it cannot do.
 */
bool panfrost_nir_lower_gs(struct nir_shader *nir,
                           struct panfrost_gs_info *info, char *err,
                           size_t err_size);

/* Vertices each output primitive of a list of that mode takes. */
unsigned panfrost_gs_vertices_per_prim(enum pipe_prim_type mode);

/* The vertex shader of the final draw: vec4 i of the output record (read
 * at the address in the first two words of constant buffer 0, a record
 * per vertex index) to the i-th location of info->out_mask.
 */
struct nir_shader *
panfrost_gs_passthrough_vs(const void *options,
                           const struct panfrost_gs_info *info);

/* A geometry state object. */
struct panfrost_gs {
   struct panfrost_gs_info info;
   struct panfrost_compute_shader *compute;
   struct panfrost_shader *vs; /* the final draw's vertex shader */
   void *vertex_elements;      /* its attributes over the records */
   struct pipe_stream_output_info stream_output; /* captured outputs */
   char error[256];
};

/* Runs a draw's geometry stage and draws its output; the draw is done
 * (or dropped with a message) when it returns.
 */
void panfrost_gs_draw_vbo(struct panfrost_context *ctx,
                          const struct pipe_draw_info *info,
                          unsigned drawid_offset,
                          const struct pipe_draw_start_count_bias *draws,
                          unsigned num_draws);

/* Copies the stream outputs of the list's primitives from buf (indices
 * at index_at_B, output records at records_at_B) into the bound targets
 * once the GPU wrote them (pan_gs_xfb.c).
 */
void panfrost_gs_capture(struct panfrost_context *ctx,
                         const struct panfrost_gs *gs,
                         struct pipe_resource *buf, unsigned index_at_B,
                         unsigned records_at_B, unsigned records);

/* Draws a list of output records with a pass-through vertex shader vs
 * and its attributes ve swapped in for the bound ones around the draw:
 * records as the only vertex buffer, their address records_va in
 * constant buffer 0 of the vertex stage, indices from 0 to nr_records - 1
 * (not scanned) and no geometry shader.  The bound state is put back.
 */
void panfrost_draw_records(struct panfrost_context *ctx,
                           struct panfrost_shader *vs, void *ve,
                           const struct pipe_vertex_buffer *records,
                           uint64_t records_va, unsigned nr_records,
                           const struct pipe_draw_info *info, unsigned drawid,
                           const struct pipe_draw_start_count_bias *draw);

/* size_B bytes at *offset_B of a buffer the draws of records share (a
 * vertex and index buffer); NULL when out of memory.
 */
struct pipe_resource *panfrost_gs_arena_alloc(struct panfrost_context *ctx,
                                              uint64_t size_B,
                                              unsigned *offset_B);

void panfrost_context_init_gs(struct pipe_context *pctx);
void panfrost_context_release_gs(struct panfrost_context *ctx);

/* The vertex shader's record variant writing the outputs of the
 * locations in mask (one vec4 each, in location order) per vertex, kept
 * on the shader for that mask; NULL when out of memory, its error set
 * when it could not be made.
 */
struct panfrost_compute_shader *
panfrost_gs_vs_records(struct panfrost_context *ctx,
                       struct panfrost_shader *vs, uint64_t mask);

#endif
