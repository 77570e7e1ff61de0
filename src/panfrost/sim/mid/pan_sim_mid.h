/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Functional interpreter of Midgard (Mali v4/v5) shader binaries: one
 * thread, bundle by bundle, decoded through the generated tables of
 * src/panfrost/isa.  See docs/drivers/panfrost/simulator-midgard.rst.
 */

#ifndef PAN_SIM_MID_H
#define PAN_SIM_MID_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PAN_SIM_MID_REGS 32
#define PAN_SIM_MID_UNIFORMS 16 /* r23 down to r8 */
#define PAN_SIM_MID_MAX_UBOS 16
#define PAN_SIM_MID_RTS 8 /* render targets a writeout can name */
#define PAN_SIM_MID_FAULT_LEN 256
/* Bundles executed per run when the caller gives no budget. */
#define PAN_SIM_MID_DEFAULT_BUDGET (1u << 20)

/* Memory of load/store messages; false: access impossible (fault). */
struct pan_sim_mid_mem {
   void *user;
   bool (*read)(void *user, uint64_t addr, void *data, unsigned size);
   bool (*write)(void *user, uint64_t addr, const void *data, unsigned size);
};

/* Register formats of the attribute and varying messages, from the opcode's
 * suffix: _32 (f32), _16 (f16, two per 32-bit word), _32u, _32i. */
enum pan_sim_mid_regfmt {
   PAN_SIM_MID_F32,
   PAN_SIM_MID_F16,
   PAN_SIM_MID_U32,
   PAN_SIM_MID_S32,
};

#define PAN_SIM_MID_GFX_ERR_LEN 160

/* A texture word as the sampler sees it: operands already read from r28/r29
 * through the word's input swizzle. */
struct pan_sim_mid_tex {
   const char *op;   /* "normal" (with bias/LOD) or "fetch" */
   bool vertex;      /* texvtx bundle: the LOD is explicit, not a bias */
   unsigned dim;     /* texture_dimension encoding: 0 cube, 1..3 1D..3D */
   bool shadow;      /* compare mode: reference in coords[2] */
   unsigned texture; /* immediate indices */
   unsigned sampler;
   uint32_t coords[4]; /* floats (integers for fetch); array index in w */
   float lod;          /* bias or LOD (fetch: an integer level) */
};

/*
 * Messages that need job-level state (descriptors, the primitive being
 * shaded) are the executor's, reached through these callbacks; each returns
 * false after writing why into err, and the instruction faults with it.
 * pan_sim_mid_desc.h fills them from v4/v5 descriptors in memory.
 */
struct pan_sim_mid_gfx {
   void *user;
   /* ld_attr_*: attribute `index` of the thread's vertex, from the
    * attribute table or (varying_table) the varying table. */
   bool (*ld_attr)(void *user, bool varying_table, unsigned index,
                   enum pan_sim_mid_regfmt fmt, uint32_t out[4], char *err);
   /* st_vary_*: the components in comp_mask of in to varying `index` of
    * the thread's vertex (table as for ld_attr). */
   bool (*st_vary)(void *user, bool varying_table, unsigned index,
                   enum pan_sim_mid_regfmt fmt, unsigned comp_mask,
                   const uint32_t in[4], char *err);
   /* ld_vary_*: varying `index` at the thread's pixel. */
   bool (*ld_vary)(void *user, unsigned index, bool flat,
                   enum pan_sim_mid_regfmt fmt, uint32_t out[4], char *err);
   /* Texture words: four 32-bit results. */
   bool (*tex)(void *user, const struct pan_sim_mid_tex *req, uint32_t out[4],
               char *err);
};

struct pan_sim_mid_ubo {
   uint64_t va;
   uint32_t size;
};

struct pan_sim_mid_config {
   const uint8_t *program; /* bundles, a multiple of 16 bytes */
   unsigned program_size;

   /* Uniform vec4 i is preloaded into register r(23 - i), as the hardware
    * does for the uniforms the shader descriptor announces. */
   const uint32_t (*uniforms)[4];
   unsigned nr_uniforms; /* at most PAN_SIM_MID_UNIFORMS */

   struct pan_sim_mid_ubo ubos[PAN_SIM_MID_MAX_UBOS];
   unsigned nr_ubos;

   struct pan_sim_mid_mem mem;
   /* Attribute, varying and texture messages; NULL callbacks fault. */
   const struct pan_sim_mid_gfx *gfx;
   /* T720, T820 and T830 have no texture registers of their own: texture
    * words read their inputs from r26/r27 and write their results to
    * r0/r1 (a register select of 0/1 names the pair's first/second). */
   bool tex_aliasing;
   uint64_t budget; /* bundles; 0: PAN_SIM_MID_DEFAULT_BUDGET */
};

enum pan_sim_mid_status {
   PAN_SIM_MID_DONE,  /* reached a bundle whose next tag is break */
   PAN_SIM_MID_FAULT, /* see thread->fault */
};

struct pan_sim_mid_thread {
   uint32_t r[PAN_SIM_MID_REGS][4]; /* 128-bit registers, 32-bit words */
   /* r28/r29 are two pairs: ALU and load/store words write the texture
    * unit's inputs (here), texture words write their results (r[28..29]),
    * which is what ALU words read. */
   uint32_t tex_in[2][4];
   uint32_t pc;                     /* byte offset of the next bundle */
   bool discarded;
   unsigned writeouts; /* writeout branches run */
   uint32_t colour[4]; /* r0 at the last writeout */
   /* r0 at the last writeout of each render target (the index is r1.z
    * >> 8 when the writeout bundle writes r1.z, else 0), and which ones
    * were written out. */
   uint32_t rt_colour[PAN_SIM_MID_RTS][4];
   unsigned rt_written;
   uint64_t bundles;   /* bundles executed */
   char fault[PAN_SIM_MID_FAULT_LEN];
};

/* Zero the registers, start at byte 0. */
void pan_sim_mid_thread_init(struct pan_sim_mid_thread *t);

/* Preload the uniforms and run until the program ends or faults. */
enum pan_sim_mid_status pan_sim_mid_run(struct pan_sim_mid_thread *t,
                                        const struct pan_sim_mid_config *cfg);

/* NULL when the interpreter executes the ALU opcode of that name, else why
 * it refuses it; for the every-opcode test. */
const char *pan_sim_mid_alu_refusal(const char *name);

#ifdef __cplusplus
}
#endif

#endif
