/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Draws on the job manager's vertex and tiler jobs (v7, pan_draw_jm.c),
 * and the parts of the IDVS path (pan_draw_vbo.c) both use.
 */

#ifndef PAN_DRAW_JM_H
#define PAN_DRAW_JM_H

#include <stdbool.h>

#include "pipe/p_state.h"

struct panfrost_context;
struct panfrost_draw_job;
struct panfrost_program;
struct panfrost_shader_env;
struct pan_index_range;

/* From pan_draw_vbo.c: the scissor, depth range and (0 when empty) count
 * of j; the index range of an indexed draw (false: nothing to draw); the
 * push words of a program (*reusable: none came from a constant buffer in
 * a resource, whose contents change without a rebind); descriptor tables
 * of textures and samplers.
 */
void panfrost_draw_bounds(struct panfrost_context *ctx,
                          struct panfrost_draw_job *j);
bool panfrost_draw_index_range(struct panfrost_context *ctx,
                               const struct pipe_draw_info *info,
                               const struct pipe_draw_start_count_bias *draw,
                               struct pan_index_range *r);
bool panfrost_draw_push_words(struct panfrost_context *ctx,
                              enum pipe_shader_type stage,
                              const struct panfrost_program *p,
                              struct panfrost_shader_env *env,
                              bool *reusable);
/* A table of copies of the descriptors packed with the bound sampler
 * views (views) or sampler states, NULL slots zeroed; 0 when out of
 * memory.
 */
uint64_t panfrost_draw_descriptor_table(struct panfrost_context *ctx,
                                        void *const *objs, unsigned n,
                                        bool views, unsigned size_B,
                                        unsigned align_B);

/* What became of a vertex buffer the draw reads. */
enum panfrost_fetch {
   PANFROST_FETCH_OK,
   PANFROST_FETCH_DROPPED, /* it cannot be fetched: the draw is dropped */
   PANFROST_FETCH_OOM,
};

/* The address and size of vertex buffer i (0 when unbound), recorded for
 * reading by the batch; both draw paths describe buffers from it.
 */
enum panfrost_fetch panfrost_vertex_buffer_range(struct panfrost_context *ctx,
                                                 unsigned i, uint64_t *va,
                                                 unsigned *size_B);

/* The tiler context of the pass, made at its first draw; 0 when out of
 * memory.
 */
uint64_t panfrost_batch_tiler(struct panfrost_context *ctx);

/* Draws on v7; drops what it cannot do with a message. */
void panfrost_jm_draw_vbo(struct panfrost_context *ctx,
                          const struct pipe_draw_info *info,
                          const struct pipe_draw_indirect_info *indirect,
                          const struct pipe_draw_start_count_bias *draws,
                          unsigned num_draws);

#endif /* PAN_DRAW_JM_H */
