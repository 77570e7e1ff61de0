/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Shader storage buffers (and the atomic counters the state tracker
 * turns into them) in every stage.  Our compilers reach memory through
 * 64-bit global addresses only, so each storage access becomes a global
 * one at the slot's address plus its offset (pan_nir_lower_ssbo.c).  Where
 * the slot's address and size come from is the stage's: push words filled
 * at dispatch in compute, and in draws the words of a constant buffer the
 * driver binds itself (PANFROST_SSBO_CBUF), which the compiler pushes like
 * any uniform.  See docs/drivers/panfrost/draw-path.rst.
 */

#ifndef PAN_SSBO_H
#define PAN_SSBO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pipe/p_defines.h"

#include "pan_compute.h"

struct nir_builder;
struct nir_shader;
struct nir_src;
struct nir_ssa_def;
struct panfrost_context;
struct panfrost_shader;

/* The constant buffer of a draw stage holding its storage buffers' slots:
 * the first one past those GL can bind.
 */
#define PANFROST_SSBO_CBUF PANFROST_MAX_CONST_BUFFERS
/* Its words per slot: address (low, high), bound size, 0. */
#define PANFROST_SSBO_SLOT_WORDS 4

/* Where a lowered access finds slot `index` (an index that may be known
 * only at run time): its 64-bit address, or its 32-bit bound size.  NULL
 * after writing why into err (an index the source cannot take).
 */
typedef struct nir_ssa_def *(*panfrost_ssbo_word_fn)(struct nir_builder *b,
                                                    struct nir_src *index,
                                                    bool size, void *data,
                                                    char *err,
                                                    size_t err_size);

/*
 * Rewrites load_ssbo, store_ssbo, the ssbo atomics and get_ssbo_size into
 * global memory accesses and values from fn.  false with a message in err
 * when something cannot be lowered.
 */
bool panfrost_nir_lower_ssbo(struct nir_shader *nir, panfrost_ssbo_word_fn fn,
                             void *data, char *err, size_t err_size);

/* Where a draw points the slots its shaders name but nothing is bound to
 * (GL leaves their accesses undefined; a draw must still run): a buffer
 * of this many bytes that takes their writes, their size reading 0.
 */
#define PANFROST_SSBO_SINK_B 4096

/* The same for a vertex or fragment shader: slots from PANFROST_SSBO_CBUF
 * (indices known only at run time too: the compiler reads the buffer);
 * *slots gets the slots named by constant indices, *reach_B one past the
 * last byte its accesses may touch (UINT32_MAX for offsets known only at
 * run time), which say whether an unbound slot can go to the sink.
 * A fragment shader's stores and atomics (storage buffers or global) are
 * made only in lanes with coverage, not in helper lanes.
 */
bool panfrost_nir_lower_ssbo_gfx(struct nir_shader *nir, uint32_t *slots,
                                 uint32_t *reach_B, char *err,
                                 size_t err_size);

/* v9 runs a vertex shader twice per vertex (the IDVS position and
 * varying programs): the varying one leaves out the stores, and the
 * atomics whose result it does not read, which the position one makes.
 */
void panfrost_nir_drop_vertex_writes(struct nir_shader *nir);

/*
 * An atomic whose result the vertex shader reads must still be made once
 * per vertex, and in a shader writing memory a load must see what it saw
 * in the position program (not the writes the position programs made
 * since): the position program stores each such result in a buffer of
 * the draw, one record per vertex of each instance, and the varying
 * program loads it there instead of repeating the atomic or the load.
 * The record of a vertex is (vertex id - first) + instance id * span,
 * from the words of PANFROST_VERTEX_RESULTS_CBUF: the buffer's address
 * (low, high), first and span (the draw's vertex range).  Reads in loops
 * are left as they are (an iteration count per vertex is not known):
 * they run in both programs.
 */
#define PANFROST_VERTEX_RESULTS_CBUF (PANFROST_SSBO_CBUF + 1)
/* The largest buffer of results a draw may take. */
#define PANFROST_VERTEX_RESULTS_MAX_B (64u << 20)

/* Whether a vertex shader (storage lowered) writes memory. */
bool panfrost_nir_vertex_writes_memory(struct nir_shader *nir);

/* Whether the records above cannot cover it: it writes memory and reads
 * the result of an atomic, or loads, in a loop.  Its draws then run it
 * once as a compute variant writing every output (pan_vs_once.h).
 */
bool panfrost_nir_vertex_needs_once(struct nir_shader *nir);

/* The bytes of a vertex's record (0: nothing to keep), before the
 * rewrite; the same for the clones of a shader.
 */
unsigned panfrost_nir_vertex_results_B(struct nir_shader *nir);

/* Rewrites the position (store the results) or the varying program (load
 * them instead of the atomics) of a record of record_B bytes.
 */
void panfrost_nir_keep_vertex_results(struct nir_shader *nir, bool varying,
                                      unsigned record_B);

/* Before an IDVS draw of vs whose vertex ids run from first to
 * first + span - 1: a buffer for the records of every instance, bound
 * (or, when vs keeps none, unbound) at PANFROST_VERTEX_RESULTS_CBUF.
 * false after a message when too large, or when out of memory.
 */
bool panfrost_vertex_results_for_draw(struct panfrost_context *ctx,
                                      const struct panfrost_shader *vs,
                                      uint32_t first, uint32_t span,
                                      uint32_t instances);

/* Points the slots the bound shaders name but nothing is bound to at the
 * sink buffer; false after a message when a shader may reach past it
 * (the draw is dropped) or out of memory.
 */
bool panfrost_ssbo_check_draw(struct panfrost_context *ctx);

/* After set_shader_buffers of a vertex or fragment stage: its slots into
 * PANFROST_SSBO_CBUF, the stage's constant buffers marked dirty.
 */
void panfrost_ssbo_bind_gfx(struct panfrost_context *ctx,
                            enum pipe_shader_type stage);

/* Records the storage buffers bound to a draw stage in the batch, for
 * reading, and for writing when writable (CPU maps then wait for the
 * pass).  false when out of memory.
 */
bool panfrost_ssbo_use_in_draw(struct panfrost_context *ctx,
                               enum pipe_shader_type stage);

#endif /* PAN_SSBO_H */
