/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Functional interpreter of Bifrost (Mali v6/v7) shader binaries: one warp,
 * clause by clause, driven by the generated instruction tables of
 * src/panfrost/isa.  See docs/drivers/panfrost/simulator-bifrost.rst.
 */

#ifndef PAN_SIM_BI_H
#define PAN_SIM_BI_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PAN_SIM_BI_MAX_LANES 16
/* Warp widths: Mali-G52 (v7) runs 8 lanes, Mali-G72 (v6) 4. */
#define PAN_SIM_BI_LANES_G52 8
#define PAN_SIM_BI_LANES_G72 4
#define PAN_SIM_BI_REGS 64
#define PAN_SIM_BI_FAULT_LEN 256
/* Tuples executed per run when the caller gives no budget. */
#define PAN_SIM_BI_DEFAULT_BUDGET (1u << 20)

/* Memory of message instructions; false: access impossible (fault). */
struct pan_sim_bi_mem {
   void *user;
   bool (*read)(void *user, uint64_t addr, void *data, unsigned size);
   bool (*write)(void *user, uint64_t addr, const void *data, unsigned size);
};

struct pan_sim_bi_gfx;
struct pan_sim_tex_ops;
struct pan_sim_image_ops;

struct pan_sim_bi_config {
   const uint64_t *program; /* clause quadwords, two words each */
   unsigned program_quads;
   uint64_t program_va; /* GPU address of program[0] */

   const uint32_t *uniforms; /* FAU uN is words 2N (.w0) and 2N + 1 (.w1) */
   unsigned uniform_words;

   /* FAU special values (index 0..15: lane_id, warp_id...); lane_id is
    * computed by the interpreter. */
   uint64_t special[16];

   struct pan_sim_bi_mem mem;
   /* Workgroup-local storage: loads and stores with the wls segment
    * access mem at wls_base + offset, offset + size <= wls_size. */
   uint64_t wls_base;
   uint32_t wls_size;
   /* Thread-local storage: with the tl segment, lane l's offset o is at
    * tls_base + (tls_thread + l) * tls_thread_B + o, o + size <=
    * tls_thread_B (0: no thread storage, the segment faults). */
   uint64_t tls_base;
   uint32_t tls_thread_B;
   uint32_t tls_thread; /* thread index of lane 0 */
   /* Registers the shader declared (v7 renderer state
    * shader_register_allocation): 0 or 64 all, 32 r0-r15 and r48-r63
    * (twice the threads); any other register read or written faults.
    * v6 has no such mode.  A called blend shader runs in this file. */
   unsigned work_regs;
   unsigned lanes;  /* warp width, 1..16; 0: PAN_SIM_BI_LANES_G52 */
   uint64_t budget; /* tuples; 0: PAN_SIM_BI_DEFAULT_BUDGET */
   /* Descriptor work of graphics messages (pan_sim_bi_gfx.h); compute
    * jobs only give st_cvt (image stores). */
   const struct pan_sim_bi_gfx *gfx;
   /* Texture messages (pan_sim_texture.h); NULL: they fault. */
   const struct pan_sim_tex_ops *tex;
   /* Image messages (pan_sim_img.h); NULL: they fault. */
   const struct pan_sim_image_ops *image;
   /* Blend-shader calls (pan_sim_bi_call.c): the code at a GPU address
    * (quadwords from va on, NULL when there is none).  NULL: a BLEND in
    * shader mode faults. */
   const uint64_t *(*code_at)(void *user, uint64_t va, unsigned *quads);
   void *code_user;
   /* Set on the called code's run: a branch out of the program returns
    * (pan_sim_bi_warp.exited) instead of faulting. */
   bool returns;
};

enum pan_sim_bi_status {
   PAN_SIM_BI_DONE,    /* every lane ended */
   PAN_SIM_BI_FAULT,   /* see warp->fault */
   PAN_SIM_BI_BARRIER, /* every live lane ran a clause with a barrier: run
                        * again once the workgroup's other warps did */
};

struct pan_sim_bi_warp {
   uint32_t r[PAN_SIM_BI_MAX_LANES][PAN_SIM_BI_REGS];
   uint64_t pc[PAN_SIM_BI_MAX_LANES]; /* byte offset of the next clause */
   uint16_t live;                     /* lanes still running */
   uint16_t discarded;                /* lanes ended by discard */
   /* Fragment helper lanes (no covered sample): they run for the quad's
    * derivatives, but their global stores, atomics and image stores are
    * dropped, as the hardware drops them (pan_sim_bi_msg.c). */
   uint16_t helper;
   uint64_t tuples;                   /* tuples executed */
   uint64_t clauses;                  /* clauses issued */
   uint16_t exited;                   /* lanes that branched out (returns) */
   uint64_t exit_va[PAN_SIM_BI_MAX_LANES]; /* where they branched to */
   char fault[PAN_SIM_BI_FAULT_LEN];
};

/* Zero the registers and start the lanes of exec_mask at byte 0. */
void pan_sim_bi_warp_init(struct pan_sim_bi_warp *w, uint16_t exec_mask);

/* Run until every lane ended, a barrier or a fault.  After a barrier the
 * lanes wait at the clause following it, so calling again resumes. */
enum pan_sim_bi_status pan_sim_bi_run(struct pan_sim_bi_warp *w,
                                      const struct pan_sim_bi_config *cfg);

/* "ok" or why bi_ops[index] is refused by the interpreter (NULL: it is
 * executed); for the every-instruction test. */
const char *pan_sim_bi_refusal(unsigned index);

/*
 * Whether the interpreter executes the FMA (unit 0) or ADD (unit 1)
 * instruction word, decided by the interpreter's own dispatch from the word
 * alone.  On false, why names the refused instruction or the decode
 * problem.
 */
bool pan_sim_bi_implemented(uint32_t word, unsigned unit, char *why,
                            unsigned why_len);

#ifdef __cplusplus
}
#endif

#endif
