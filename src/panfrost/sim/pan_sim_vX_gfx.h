/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Shared by the graphics executors of one architecture (compiled once per
 * PAN_ARCH; Bifrost v6/v7 only so far): vertex jobs
 * (pan_sim_vX_vertex.c), tiler jobs (pan_sim_vX_tiler.c) and the shading
 * of the fragment job's primitives (pan_sim_vX_shade.c).
 */

#ifndef PAN_SIM_VX_GFX_H
#define PAN_SIM_VX_GFX_H

#include "pan_genxml.h"
#include "pan_sim_arch.h"
#include "pan_sim_draw.h"

#if PAN_ARCH >= 6 && PAN_ARCH <= 7

#include "pan_sim_bi.h"
#include "pan_sim_bi_gfx.h"

#define GFX_LANES (PAN_ARCH == 6 ? PAN_SIM_BI_LANES_G72 : PAN_SIM_BI_LANES_G52)

/* A shader binary copied out of GPU memory (quadword aligned). */
struct gfx_program {
   uint64_t va;
   uint64_t *words;
   unsigned quads;
};

bool PAN_GENX(sim_gfx_fetch)(struct pan_sim_ctx *ctx, uint64_t va,
                             const char *what, struct gfx_program *p);

/* Shader memory callbacks straight onto the job's space; the first failed
 * access is kept for the fault message. */
struct gfx_mem {
   const struct pan_sim_space *space;
   bool failed;
   char message[160];
};
extern const struct pan_sim_bi_mem PAN_GENX(sim_gfx_mem_ops);

/* Element `elem` of attribute `index` of a table (attributes or varyings
 * and their buffers): its address and format.  elem_of: the element
 * index for 1D buffers; instanced buffer types use vertex/instance as
 * documented in pan_sim_vX_vertex.c. */
struct gfx_attr_ref {
   uint64_t table, buffers;
   uint32_t linear, instance, vertices; /* vertex's place in the job */
   uint32_t offset_start;               /* added for attribute buffers */
   bool varying;
};
bool PAN_GENX(sim_gfx_locate)(const struct pan_sim_space *space,
                              const struct gfx_attr_ref *ref, unsigned index,
                              uint64_t *addr, uint32_t *format_word,
                              struct pan_sim_mem_format *fmt, char *err);

/* LOAD.ubo: size bytes at offset of uniform buffer index of the table. */
bool PAN_GENX(sim_gfx_ubo)(const struct pan_sim_space *space, uint64_t table,
                           uint32_t index, uint32_t offset, unsigned size,
                           void *out, char *err);

/* Reads of size bytes at va for a callback: NULL and err set on failure. */
const void *PAN_GENX(sim_gfx_read)(const struct pan_sim_space *space,
                                   uint64_t va, uint64_t size, const char *what,
                                   char *err);

/* Vertices per instance and instances of a vertex or tiler job's
 * invocation section (see pan_sim_vX_vertex.c). */
bool PAN_GENX(sim_gfx_job_counts)(struct pan_sim_ctx *ctx, uint64_t job_va,
                                  const void *invocation, uint32_t *vertices,
                                  uint32_t *instances);

/* Vertex shading of a packed draw section over the job's vertices (see
 * pan_sim_vX_vertex.c); idvs: the position shader, then the varying
 * shader when varyings. */
bool PAN_GENX(sim_gfx_shade_vertices)(struct pan_sim_ctx *ctx, uint64_t job_va,
                                      const void *invocation, const void *draw,
                                      uint64_t position, bool idvs,
                                      bool varyings);

bool PAN_GENX(sim_exec_vertex)(struct pan_sim_ctx *ctx, uint64_t job_va);
bool PAN_GENX(sim_exec_indexed_vertex)(struct pan_sim_ctx *ctx,
                                       uint64_t job_va);
bool PAN_GENX(sim_exec_tiler)(struct pan_sim_ctx *ctx, uint64_t job_va);

/* The fragment job's half: shade the primitives of l into tb. */
struct pan_sim_tilebuf;
bool PAN_GENX(sim_shade_list)(struct pan_sim_ctx *ctx,
                              const struct pan_sim_plist *l,
                              struct pan_sim_tilebuf *tb);

#endif
#endif
