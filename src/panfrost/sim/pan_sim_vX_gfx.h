/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Shared by the graphics executors of one architecture (compiled once per
 * PAN_ARCH; Bifrost v6/v7 and Valhall v9): vertex jobs
 * (pan_sim_vX_vertex.c), tiler jobs (pan_sim_vX_tiler.c) and the shading
 * of the fragment job's primitives (pan_sim_vX_shade.c).
 */

#ifndef PAN_SIM_VX_GFX_H
#define PAN_SIM_VX_GFX_H

#include "pan_genxml.h"
#include "pan_sim_arch.h"
#include "pan_sim_draw.h"
#include "pan_sim_vX_texture.h"

#if PAN_ARCH >= 6

#if PAN_ARCH >= 9
#include "pan_sim_va.h"
#include "pan_sim_va_gfx.h"
#define GFX_LANES PAN_SIM_VA_LANES
#define GFX_ERR_LEN PAN_SIM_VA_GFX_ERR_LEN
#define GFX_PROGRAM_ALIGN_B 8
typedef struct pan_sim_va_mem gfx_mem_ops_t;
#else
#include "pan_sim_bi.h"
#include "pan_sim_bi_gfx.h"
#define GFX_LANES (PAN_ARCH == 6 ? PAN_SIM_BI_LANES_G72 : PAN_SIM_BI_LANES_G52)
#define GFX_ERR_LEN PAN_SIM_BI_GFX_ERR_LEN
#define GFX_PROGRAM_ALIGN_B 16
typedef struct pan_sim_bi_mem gfx_mem_ops_t;
#endif

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
   /* v9 vertex shaders: addresses from GFX_PACKET_WINDOW on are their
    * vertex packets', mapped by this callback (NULL: refused, with
    * message set). */
   uint8_t *(*packet)(struct gfx_mem *m, uint64_t addr, unsigned size);
   void *packet_user;
   /* v9: texture messages on the shader's resource tables (set by
    * sim_gfx_config, living as long as the config). */
   struct pan_sim_tex_env tex_env;
   struct pan_sim_tex_ops tex;
};
#define GFX_PACKET_WINDOW (0xffffull << 48)

/* A memory format word ("pixel format" view) as the simulator models it:
 * false and err set for formats, orders or sRGB it does not. */
bool PAN_GENX(sim_gfx_format)(uint32_t word, const char *kind, unsigned index,
                              struct pan_sim_mem_format *fmt, char *err);
extern const gfx_mem_ops_t PAN_GENX(sim_gfx_mem_ops);

/* ST_CVT: comps register values to addr as the internal_conversion word
 * says (varyings, image texels); a constant memory format drops the
 * store.  False with err set. */
bool PAN_GENX(sim_gfx_st_cvt)(const struct pan_sim_space *space,
                              uint64_t addr, uint32_t conversion,
                              unsigned comps, const uint32_t in[4], char *err);

#if PAN_ARCH <= 7
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

/* The register file a v6/v7 renderer state declares (pan_sim_bi_config
 * work_regs): v7's shader_register_allocation; v6 has no half mode. */
static inline unsigned
PAN_GENX(sim_bi_declared_regs)(const struct PAN_GENX(renderer_state) * rs)
{
#if PAN_ARCH >= 7
   return rs->properties.shader_register_allocation ==
                MALI_SHADER_REGISTER_ALLOCATION_32_PER_THREAD
             ? 32
             : 64;
#else
   (void)rs;
   return 64;
#endif
}

/* The tl segment of cfg from the draw's thread storage descriptor at va:
 * graphics warps run one at a time, so lane l is thread l. */
bool PAN_GENX(sim_gfx_thread_storage)(struct pan_sim_ctx *ctx, uint64_t va,
                                      struct pan_sim_bi_config *cfg);
#endif

/* LOAD.ubo: size bytes at offset of uniform buffer index of the table. */
bool PAN_GENX(sim_gfx_ubo)(const struct pan_sim_space *space, uint64_t table,
                           uint32_t index, uint32_t offset, unsigned size,
                           void *out, char *err);

/* Reads of size bytes at va for a callback: NULL and err set on failure. */
const void *PAN_GENX(sim_gfx_read)(const struct pan_sim_space *space,
                                   uint64_t va, uint64_t size, const char *what,
                                   char *err);

#if PAN_ARCH >= 9
/* Entry `index` of resource table `table` of a shader environment's
 * resource pointer (count in its low 6 bits): the descriptor's address,
 * checked against the table's size. */
bool PAN_GENX(sim_gfx_resource)(const struct pan_sim_space *space,
                                uint64_t resources, unsigned table,
                                unsigned index, uint64_t *va, char *err);

/* A v9 shader environment made ready to run: the shader program
 * descriptor's binary, preload mask and denormal mode, the FAU (64-bit
 * entries, as uniform words) and the resource table. */
struct gfx_env {
   struct gfx_program prog;
   uint32_t preload;   /* bit n: r(48 + n) */
   unsigned work_regs; /* registers declared: 32 or 64 */
   const uint32_t *fau;
   unsigned fau_words;
   uint64_t resources;
   uint64_t tls;          /* thread storage base (thread_local_pointer) */
   uint32_t tls_thread_B; /* bytes per thread, 0: none */
   bool ftz;
};
bool PAN_GENX(sim_gfx_env)(struct pan_sim_ctx *ctx, const void *packed_env,
                           const char *what, struct gfx_env *out);
/* Interpreter configuration for env (memory adapter m, callbacks g). */
void PAN_GENX(sim_gfx_config)(const struct gfx_env *env, struct gfx_mem *m,
                              const struct pan_sim_va_gfx *g,
                              struct pan_sim_va_config *cfg);
/* LD_BUFFER of a uniform buffer (table 0 of the resources). */
bool PAN_GENX(sim_gfx_ld_buffer)(const struct pan_sim_space *space,
                                 uint64_t resources, unsigned table,
                                 uint32_t index, uint32_t offset,
                                 unsigned size, void *out, char *err);

/* The vertex packets of a malloc-vertex job (pan_sim_vX_vertex.c): one per
 * index of every instance, filled by the position and varying shaders.
 * On success rec->packets is the caller's to free. */
bool PAN_GENX(sim_gfx_shade_packets)(struct pan_sim_ctx *ctx, uint64_t job_va,
                                     const void *job,
                                     struct pan_sim_draw_rec *rec);
bool PAN_GENX(sim_exec_malloc_vertex)(struct pan_sim_ctx *ctx,
                                      uint64_t job_va);
#else
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
#endif

/* The fragment job's half: shade the primitives of l into tb. */
struct pan_sim_tilebuf;
bool PAN_GENX(sim_shade_list)(struct pan_sim_ctx *ctx,
                              const struct pan_sim_plist *l,
                              struct pan_sim_tilebuf *tb);

#endif
#endif
