/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * A batch is the work gathered until something needs its results (a
 * flush, a CPU map of a buffer it uses, a framebuffer change): compute
 * dispatches, submitted first as one chain of compute jobs, and one render
 * pass on the context's current framebuffer.  Today a pass holds clears
 * only: its chain is a single fragment job whose framebuffer descriptor
 * carries the clear values.
 */

#ifndef PAN_BATCH_H
#define PAN_BATCH_H

#include "pipe/p_state.h"

#include "util/u_dynarray.h"

#include "pan_pool.h"

struct panfrost_context;
struct pan_bo;

/* What the vertex and tiler jobs of a v6/v7 draw hold besides the words
 * patch_jobs writes (pan_draw_jm.c): 64-bit words only, compared whole.
 */
struct panfrost_jm_job_key {
   uint64_t tiler;
   uint64_t modes; /* mode, indices, rasterizer and occlusion flags */
   uint64_t sizes; /* instance size, bits of the point size */
};

#define PANFROST_JM_JOBS_MAX_B 512

/* v6/v7: a texture or sampler table of the pass and a copy of the
 * descriptors it holds, reused when the same ones are bound again.
 */
struct panfrost_jm_table {
   uint64_t gpu;
   unsigned n;
   uint8_t desc[64];
};

/* The last two tables of one kind and stage; next is the one to replace. */
struct panfrost_jm_tables {
   struct panfrost_jm_table t[2];
   unsigned next;
};

/* Descriptors the previous draw of the pass made, which the next one
 * reuses while the state they came from is unchanged (ctx->dirty, and the
 * shaders' program descriptors, which stay valid while the batch holds
 * their BOs).  Emptied with the batch's memory at each submit.
 */
struct panfrost_draw_cache {
   bool valid;
   uint64_t vs_prog, fs_prog; /* program descriptors the pushes are for */
   uint64_t attribs, vbufs;
   unsigned attrib_count, vbuf_count;
   unsigned attrib_base_instance; /* what the attribute offsets include */
   uint64_t ubos[2]; /* vertex, fragment */
   unsigned ubo_count[2];
   /* Texture and sampler tables of the vertex and fragment stages. */
   uint64_t textures[2], samplers[2];
   unsigned texture_count[2], sampler_count[2];
   uint64_t vs_res, fs_res;
   uint64_t blend;
   unsigned blend_count, rt_mask;
   bool blend_shader; /* a target calls one: shaded per sample when MSAA */
   uint64_t depth_stencil;
   uint64_t tls;
   unsigned tls_size;
   /* Push words of the position, varying and fragment programs; only
    * reusable when none comes from a constant buffer in a resource, whose
    * contents can change without a rebind.
    */
   uint64_t fau[3];
   unsigned fau_words[3];
   bool fau_reusable[3];
   /* v6/v7 (pan_draw_jm.c): the instance padding the attribute buffers
    * were packed for, the renderer states of both stages and the counts
    * they were packed with (jm_rsd_key).
    */
   unsigned jm_divisor;
   /* v6/v7: some vertex element steps per instance, so the attribute
    * records follow every draw's first vertex and base instance.
    */
   bool jm_per_instance;
   uint64_t jm_states[2];
   unsigned jm_key[11];
   /* v6/v7: the viewport of the bounds in jm_bounds (scissor, depth
    * range bits), and the varying records of jm_slots slots, those of
    * jm_int_varyings integer ones.
    */
   uint64_t jm_viewport, jm_varyings;
   uint32_t jm_bounds[6];
   unsigned jm_slots;
   uint64_t jm_int_varyings;
   /* v6/v7: the vertex and tiler jobs of the last draw, valid while
    * jm_job_key holds, and the invocation section of jm_counts (vertices,
    * instances; 0 before the first draw).
    */
   bool jm_jobs_valid;
   struct panfrost_jm_job_key jm_job_key;
   uint64_t jm_jobs[PANFROST_JM_JOBS_MAX_B / 8];
   unsigned jm_counts[2];
   uint64_t jm_invocation;
   /* v6/v7: tables of [views, samplers][vertex, fragment]; the
    * enum panfrost_dirty bits besides their constant buffers the push
    * words of the [vertex, fragment] program depend on.
    */
   struct panfrost_jm_tables jm_tables[2][2];
   unsigned jm_push_dirty[2];
   /* v6/v7: the vertex elements (the first few) and the buffers' offsets
    * modulo 64 the attribute records (attribs) were packed for.
    */
   bool jm_elements_valid;
   unsigned jm_element_count;
   struct pipe_vertex_element jm_elements[8];
   uint8_t jm_misalign[16];
};

struct panfrost_batch {
   /* The layer of a layered framebuffer the pass renders (pan_layer.h),
    * counted from each attachment's first layer.  A submit keeps it, so
    * that a draw whose own work submits the pass (a full buffer list, a
    * provoking-vertex change) still lands in its layer; clears and draws
    * set it before they record anything.
    */
   unsigned layer;
   /* PIPE_CLEAR_* requested since the last submit. */
   unsigned clear;
   union pipe_color_union clear_color[PIPE_MAX_COLOR_BUFS];
   float clear_depth;
   uint8_t clear_stencil;

   /* Descriptors and jobs of the batch being built. */
   struct pan_pool pool;

   /* Compute jobs in dispatch order (struct panfrost_batch_job). */
   struct util_dynarray compute_jobs;
   /* IDVS jobs of the pass in draw order, and the tiler context they
    * share with the fragment job (0 before the first draw).
    */
   struct util_dynarray draw_jobs;
   uint64_t tiler;
   /* The flatshade_first the tiler context was made with (v9). */
   bool tiler_first_provoking;
   /* Draws of the pass bind storage buffers (pan_ssbo.c). */
   bool draw_ssbos;
   struct panfrost_draw_cache draw_cache;
   /* BOs the compute jobs use, each referenced until the submit
    * (struct panfrost_batch_bo).
    */
   struct util_dynarray bos;
   /* Shared memory of the dispatches (one after the other, so they can
    * share it), referenced through bos; NULL before the first.
    */
   struct pan_bo *wls_bo;
   /* Batches submitted with work since the context was made (a submit of
    * an empty batch does not count): what tests count flushes with.
    */
   unsigned submits;
};

struct panfrost_batch_job {
   void *cpu;
   uint64_t gpu;
};

struct panfrost_batch_bo {
   struct pan_bo *bo;
   uint32_t access; /* enum pan_bo_access */
};

void panfrost_batch_init(struct panfrost_context *ctx);
void panfrost_batch_fini(struct panfrost_context *ctx);

/* Records a clear of the current framebuffer. */
void panfrost_batch_clear(struct panfrost_context *ctx, unsigned buffers,
                          const union pipe_color_union *color, double depth,
                          unsigned stencil);

/* Whether the pending batch writes this resource. */
bool panfrost_batch_writes(struct panfrost_context *ctx,
                           const struct pipe_resource *prsc);

/* Whether the pending pass (its clears and draws) writes this resource,
 * an attachment: unlike compute jobs, it runs after the batch's
 * dispatches.
 */
bool panfrost_batch_renders(struct panfrost_context *ctx,
                            const struct pipe_resource *prsc);

/* Whether the pending batch holds a render pass (clears or draws), as
 * opposed to dispatches alone, which depend on no framebuffer.
 */
bool panfrost_batch_has_pass(struct panfrost_context *ctx);

/* Before another framebuffer is bound: a pass renders to one, so a batch
 * holding one is submitted; dispatches alone stay for the next pass.
 */
void panfrost_batch_framebuffer_changes(struct panfrost_context *ctx);

/* Whether the pending batch reads or writes this resource. */
bool panfrost_batch_uses(struct panfrost_context *ctx,
                         const struct pipe_resource *prsc);

/* Whether the pending batch's jobs read or write bo (a buffer of the
 * driver's own, such as an occlusion query's counters).
 */
bool panfrost_batch_uses_bo(struct panfrost_context *ctx,
                            const struct pan_bo *bo);

/* Records that the pending compute jobs use bo (it stays referenced until
 * the submit).  false when out of memory.
 */
bool panfrost_batch_add_bo(struct panfrost_context *ctx, struct pan_bo *bo,
                           uint32_t access);

/* Index the next compute job gets in its chain. */
unsigned panfrost_batch_next_job_index(struct panfrost_context *ctx);

/* Appends a compute job allocated from the batch pool (its index from
 * panfrost_batch_next_job_index).  false when out of memory.
 */
bool panfrost_batch_add_compute_job(struct panfrost_context *ctx, void *cpu,
                                    uint64_t gpu);

/* Appends an IDVS job of the pass (its index from the number of draw
 * jobs + 1).  false when out of memory.
 */
bool panfrost_batch_add_draw_job(struct panfrost_context *ctx, void *cpu,
                                 uint64_t gpu);

/* A local storage descriptor for jobs whose shaders spill tls_size bytes
 * per thread (0: none); the storage stays referenced until the submit.
 * 0 when out of memory.
 */
uint64_t panfrost_batch_local_storage(struct panfrost_context *ctx,
                                      unsigned tls_size);

/* The same for a dispatch of grid workgroups using wls_B bytes of shared
 * memory each (0: none), from the batch's shared memory.  0 when out of
 * memory or when the storage would be too large (PANFROST_MAX_WLS_TOTAL_B).
 */
#define PANFROST_MAX_WLS_TOTAL_B (1ull << 30)
uint64_t panfrost_batch_compute_storage(struct panfrost_context *ctx,
                                        unsigned tls_size, unsigned wls_B,
                                        const uint32_t grid[3]);

/* Whether the pending work references so many buffers that the next draw
 * could take a submit past the kernel list the batch builds (256): draws
 * submit first then, as a frame of many small immediate-mode draws needs.
 */
bool panfrost_batch_nearly_full(struct panfrost_context *ctx);

/* Submits the pending pass, if any.  Returns false when the submit failed
 * (the pass is dropped and the reason logged).
 */
bool panfrost_batch_submit(struct panfrost_context *ctx);

#endif /* PAN_BATCH_H */
