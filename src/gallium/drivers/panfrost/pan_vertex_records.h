/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Draws from the vertex shader's records: the record variant (pan_gs.h)
 * writes every output of a draw's vertices, the CPU reads them once the
 * work is done and makes lists (or new records) of them, drawn by a
 * vertex shader copying records to the outputs.  The polygon modes
 * (pan_polygon_mode.c) and line stipple (pan_line_stipple.c) draw this
 * way.
 */

#ifndef PAN_VERTEX_RECORDS_H
#define PAN_VERTEX_RECORDS_H

#include <stdbool.h>
#include <stdint.h>

#include "pipe/p_state.h"

struct pan_bo;
struct panfrost_context;
struct panfrost_shader;

/* The varying locations the fragment shader reads flat (all when it is
 * unknown). */
uint64_t panfrost_vertex_flat_locations(const struct panfrost_context *ctx);

/* The locations vs writes, one vec4 record slot each in location order. */
uint64_t panfrost_vertex_output_mask(const struct panfrost_shader *vs);

/* The shader drawing records of the outputs of mask of vs, made once per
 * vertex shader; NULL after a message when it cannot be. */
struct panfrost_shader *panfrost_vertex_records_vs(struct panfrost_context *ctx,
                                                   struct panfrost_shader *vs,
                                                   uint64_t mask);

/* Index i of an index buffer of size-byte indices. */
unsigned panfrost_vertex_index_at(const uint8_t *in, unsigned size, unsigned i);

/* The draw's indices for the CPU to read: *in NULL for a draw without
 * them, else the user's or the index buffer mapped (then *xfer, for
 * pipe_buffer_unmap); false when they cannot be mapped. */
bool panfrost_vertex_map_indices(struct panfrost_context *ctx,
                                 const struct pipe_draw_info *info,
                                 const uint8_t **in,
                                 struct pipe_transfer **xfer);

/* The draw's vertex ids (its indices, or 0.. from its first vertex,
 * without the bias) and where restarts stand (cut), whose slots shade
 * the id before them; false when the indices cannot be mapped. */
bool panfrost_vertex_read_ids(struct panfrost_context *ctx,
                              const struct pipe_draw_info *info,
                              const struct pipe_draw_start_count_bias *d,
                              uint32_t *ids, uint8_t *cut);

/* Whether records of size_B bytes are within what one draw may take; a
 * message naming what of n vertices in instances when not (it is then
 * dropped). */
bool panfrost_vertex_records_fit(uint64_t size_B, const char *what, unsigned n,
                                 unsigned instances);

/* One draw of draws drawn from records; false when it failed. */
typedef bool (*panfrost_vertex_draw_one)(
   struct panfrost_context *ctx, const struct pipe_draw_info *info,
   unsigned drawid, const struct pipe_draw_start_count_bias *d);

/* draw_one for each of draws with its draw id, a message naming what for
 * each that failed (dropped). */
void panfrost_vertex_each_draw(
   struct panfrost_context *ctx, const struct pipe_draw_info *info,
   unsigned drawid_offset, const struct pipe_draw_start_count_bias *draws,
   unsigned num_draws, panfrost_vertex_draw_one draw_one, const char *what);

/* A run of the record variant and what drawing its records takes. */
struct panfrost_vertex_records {
   struct pipe_resource *buf; /* the records, then room for more */
   struct pan_bo *bo;
   uint8_t *cpu;                    /* mapped, once written */
   struct panfrost_shader *draw_vs; /* the records' shader, when asked */
   void *draw_ve;                   /* its vertex elements */
};

/* Runs vs's record variant of the outputs of mask over ids[0..nr) (bias
 * added) in every instance of the draw, records in a buffer of size_B
 * bytes, submits the pass and waits for them; with draw, also makes the
 * shader and vertex elements drawing them.  false when out of memory or
 * refused (what it made is in r for panfrost_vertex_records_release).
 */
bool panfrost_vertex_records_run(struct panfrost_context *ctx,
                                 struct panfrost_shader *vs, uint64_t mask,
                                 bool draw, const struct pipe_draw_info *info,
                                 unsigned drawid, int bias, const uint32_t *ids,
                                 unsigned nr, uint64_t size_B,
                                 struct panfrost_vertex_records *r);

void panfrost_vertex_records_release(struct panfrost_context *ctx,
                                     struct panfrost_vertex_records *r);

/* Records drawn by the records' shader (pass_vs with its vertex elements
 * pass_ve): nr_records of record_B bytes in records, for draw drawid. */
struct panfrost_vertex_list {
   struct panfrost_shader *pass_vs;
   void *pass_ve;
   struct pipe_resource *records;
   unsigned record_B, nr_records;
   unsigned drawid;
};

/* Draws the n records idx names (32-bit) as primitives of mode. */
void panfrost_vertex_draw_list(struct panfrost_context *ctx,
                               const struct panfrost_vertex_list *l,
                               enum pipe_prim_type mode, const uint32_t *idx,
                               unsigned n);

#endif
