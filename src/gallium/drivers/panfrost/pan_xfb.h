/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Transform feedback (stream output) and the queries counting primitives.
 * A vertex shader with stream outputs gets a compute variant
 * (pan_nir_lower_xfb.c) that runs the shader once per captured vertex and
 * writes the selected outputs to the buffers with global stores; each draw
 * with targets bound dispatches it over a list of (vertex, instance) pairs
 * unrolled on the CPU (pan_xfb.c), in the order GL captures them.  The
 * counts the queries read are kept on the CPU too (pan_query.c).
 */

#ifndef PAN_XFB_H
#define PAN_XFB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pipe/p_state.h"
#include "util/list.h"

struct nir_shader;
struct panfrost_context;
struct panfrost_compute_shader;

/* The parameter block the compute variant reads, at the address given in
 * its first two kernel input words; the (vertex id, instance id) pairs
 * follow it.
 */
#define PANFROST_XFB_MAX_ATTRIBS 32
#define PANFROST_XFB_MAX_UBOS PIPE_MAX_CONSTANT_BUFFERS

struct panfrost_xfb_attrib {
   uint64_t addr;      /* vertex buffer address plus the element offset */
   uint32_t stride_B;
   uint32_t divisor;   /* 0: per vertex */
   uint32_t last_comp; /* channels in memory - 1 */
   uint32_t one;       /* the default fourth channel: 1.0f or 1 */
   uint32_t pad[2];
};

struct panfrost_xfb_params {
   uint32_t count;        /* captured vertices */
   uint32_t first_vertex; /* draw start, or the index bias */
   uint32_t base_instance;
   uint32_t draw_id;
   uint32_t is_indexed;
   uint32_t pad[3];
   uint64_t targets[PIPE_MAX_SO_BUFFERS]; /* first vertex of each buffer */
   struct panfrost_xfb_attrib attribs[PANFROST_XFB_MAX_ATTRIBS];
   uint64_t ubos[PANFROST_XFB_MAX_UBOS];
};

/* Rewrites a vertex shader into the compute variant writing the outputs
 * so selects; false with a message for what it cannot do (textures).
 */
bool panfrost_nir_lower_xfb(struct nir_shader *nir,
                            const struct pipe_stream_output_info *so,
                            char *err, size_t err_size);

/* The variant of a vertex shader feeding a geometry shader: it writes
 * the outputs of the locations in mask (the geometry shader's inputs),
 * one vec4 each in location order, to a record per vertex.
 */
bool panfrost_nir_lower_vs_records(struct nir_shader *nir, uint64_t mask,
                                   char *err, size_t err_size);

struct panfrost_so_target {
   struct pipe_stream_output_target base;
   unsigned offset_B;  /* bytes written since the last reset */
   unsigned stride_B;  /* vertex stride of the last capture into it */
};

/* Counters the queries sample at begin and end: they only grow. */
struct panfrost_prim_counters {
   uint64_t generated, emitted, overflows;
};

/* Buffers the draws of the pending batch may read, for a capture to know
 * whether it must submit them first; noted only once the context has made
 * a stream output target.
 */
#define PANFROST_XFB_MAX_READS 64

struct panfrost_xfb_ctx {
   struct pipe_stream_output_target *targets[PIPE_MAX_SO_BUFFERS];
   unsigned num_targets;
   bool tracking;
   unsigned nr_reads; /* > PANFROST_XFB_MAX_READS: too many, assume any */
   const struct pipe_resource *reads[PANFROST_XFB_MAX_READS];
   struct panfrost_prim_counters counts;
   unsigned active_queries; /* primitive queries begun and not ended */
   bool queries_paused;     /* set_active_query_state(false) */
};

/* The compute variant of a vertex shader with stream outputs, compiled
 * from a copy of nir; NULL when it has none.  A variant that failed keeps
 * its message in its error field.
 */
struct panfrost_compute_shader *
panfrost_xfb_create_variant(struct panfrost_context *ctx,
                            const struct nir_shader *nir,
                            const struct pipe_stream_output_info *so);

/* Counts the primitives of a draw for the queries and captures its
 * vertices when targets are bound; true when the capture ran the vertex
 * shader (and so made its memory writes).
 */
bool panfrost_xfb_draw(struct panfrost_context *ctx,
                       const struct pipe_draw_info *info, unsigned drawid,
                       const struct pipe_draw_start_count_bias *draw);

/* A draw with rasterizer discard that transform feedback did not shade:
 * the vertex shader's memory writes, made by its compute variant over
 * every vertex of the draw's whole primitives (pan_discard.c).
 */
void panfrost_discard_draw(struct panfrost_context *ctx,
                           const struct pipe_draw_info *info, unsigned drawid,
                           const struct pipe_draw_start_count_bias *draw);

/* The vertex ids of the draw's primitives, in the order the geometry
 * stage takes them (triangle strips and fans as last-vertex-provoking
 * transform feedback captures them), in *ids, which the caller frees;
 * returns their count per instance, 0 when there are none.  Indices in a
 * buffer are read on the CPU.
 */
unsigned panfrost_xfb_unroll_draw(struct panfrost_context *ctx,
                                  const struct pipe_draw_info *info,
                                  const struct pipe_draw_start_count_bias *draw,
                                  uint32_t **ids);

/* The same with strips and fans as transform feedback captures them for
 * the provoking-vertex convention flatshade_first: each list primitive
 * keeps the strip's provoking vertex where a list's would be, and its
 * winding.
 */
unsigned
panfrost_xfb_unroll_primitives(struct panfrost_context *ctx,
                               const struct pipe_draw_info *info,
                               const struct pipe_draw_start_count_bias *draw,
                               bool flatshade_first, uint32_t **ids);

/* Sorts ids and keeps each once; returns how many are left. */
unsigned panfrost_distinct_ids(uint32_t *ids, unsigned n);

/* The position of id among the n sorted distinct ids (0 when absent). */
unsigned panfrost_id_rank(const uint32_t *ids, unsigned n, uint32_t id);

/* Dispatches v (a variant of panfrost_nir_lower_xfb or
 * panfrost_nir_lower_vs_records) over n vertices: invocation k shades
 * vertex ids[k % per_instance] of instance k / per_instance and writes at
 * k times its stride from targets.  0 once dispatched, 1 after a message
 * for vertex formats it cannot fetch, -1 when out of memory.
 */
int panfrost_xfb_run(struct panfrost_context *ctx,
                     struct panfrost_compute_shader *v,
                     const struct pipe_draw_info *info, unsigned drawid,
                     int32_t first_vertex, bool indexed, const uint32_t *ids,
                     unsigned per_instance, unsigned n, const uint64_t *targets);

/* The attribute records of p for the bound vertex elements
 * (pan_xfb_fetch.c): 32-bit float and integer channels read from the
 * vertex buffers, other formats converted into the batch's memory for the
 * elements the vertex ids (per_instance of them) and the instances name.
 * False after a message, or when out of memory.
 */
bool panfrost_xfb_fill_attribs(struct panfrost_context *ctx,
                               struct panfrost_xfb_params *p,
                               const uint32_t *ids, unsigned per_instance,
                               unsigned instances);

/* The GPU addresses of stage's constant buffers, as the compute variants
 * of the vertex and geometry shaders load them (ubos has
 * PIPE_MAX_CONSTANT_BUFFERS entries; unbound ones are left alone): bound
 * buffers are added to the batch, user buffers copied into its pool.
 * False when out of memory.
 */
bool panfrost_compute_ubo_addresses(struct panfrost_context *ctx,
                                    enum pipe_shader_type stage,
                                    uint64_t *ubos);

/* Vertices captured in a target (glDrawTransformFeedback). */
unsigned panfrost_so_target_vertices(struct pipe_stream_output_target *t);

void panfrost_context_init_xfb(struct pipe_context *pctx);
void panfrost_context_release_xfb(struct panfrost_context *ctx);
void panfrost_context_init_query(struct pipe_context *pctx);

/* The counter a draw adds its passing samples to (*va 0: no occlusion
 * query active), its BO added to the batch; false when out of memory. */
bool panfrost_occlusion_for_draw(struct panfrost_context *ctx, uint64_t *va,
                                 bool *counter);

/* Whether a draw, clear or dispatch should run under the current
 * conditional rendering state (pan_query.c). */
bool panfrost_render_condition_check(struct panfrost_context *ctx);

#endif
