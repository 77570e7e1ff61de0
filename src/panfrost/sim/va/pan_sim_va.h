/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Functional interpreter of Valhall (Mali v9) shader binaries: one warp of
 * 16 lanes, driven by the generated instruction tables.  See
 * docs/drivers/panfrost/simulator-valhall.rst.
 */

#ifndef PAN_SIM_VA_H
#define PAN_SIM_VA_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PAN_SIM_VA_LANES 16
#define PAN_SIM_VA_REGS 64
#define PAN_SIM_VA_FAULT_LEN 256
/* Instructions issued per run when the caller gives no budget. */
#define PAN_SIM_VA_DEFAULT_BUDGET (1u << 20)

/*
 * Memory seen by message instructions.  Each callback returns false when
 * the access is not possible (unmapped address...); the interpreter then
 * faults naming the instruction and the address.
 */
struct pan_sim_va_mem {
   void *user;
   bool (*read)(void *user, uint64_t addr, void *data, unsigned size);
   bool (*write)(void *user, uint64_t addr, const void *data, unsigned size);
};

struct pan_sim_va_gfx;
struct pan_sim_tex_ops;
struct pan_sim_image_ops;

struct pan_sim_va_config {
   const uint64_t *program; /* instruction words */
   unsigned program_words;
   uint64_t program_va; /* GPU address of program[0] */

   const uint32_t *uniforms; /* u0, u1, ... */
   unsigned uniform_words;

   /* Special FAU values, 64-bit per entry, indexed [page][entry].  Entries
    * named lane_id and program_counter are computed by the interpreter. */
   uint64_t special[4][16];

   /* Thread storage: a load or store with memaccess=force at the
    * thread_local_pointer value plus o goes, on lane l, to that pointer +
    * (tls_thread + l) * tls_thread_B + o, like the hardware giving every
    * thread its own slot; o must stay below tls_thread_B and within one
    * 16-byte line.  tls_thread_B 0: the address is used as it is. */
   uint32_t tls_thread_B;
   uint32_t tls_thread; /* thread index of lane 0 */

   struct pan_sim_va_mem mem;
   /* Descriptor work of graphics messages (pan_sim_va_gfx.h); NULL in
    * compute jobs, where those instructions fault. */
   const struct pan_sim_va_gfx *gfx;
   /* Texture messages (pan_sim_texture.h); NULL: they fault. */
   const struct pan_sim_tex_ops *tex;
   /* Image messages (pan_sim_img.h); NULL: they fault. */
   const struct pan_sim_image_ops *image;
   /* Registers the shader declared (simulator-valhall.rst): 0 or 64 all,
    * 32 r0-r15 and r48-r63 (twice the threads), 16 r0-r15 and r48 (the
    * blend shader ABI, for tests).  Any other register operand faults;
    * called code runs in the caller's file. */
   unsigned work_regs;
   uint64_t budget;           /* 0: PAN_SIM_VA_DEFAULT_BUDGET */
   bool flush_f32, flush_f16; /* denormals flushed to zero */

   /* Calls (v9 blend shaders): an absolute branch to an address outside
    * the program runs the code code_at gives for it (words from va on,
    * NULL when there is none) on the lanes taking it, with their
    * registers, until they branch back out of that code or end.  NULL:
    * such branches fault. */
   const uint64_t *(*code_at)(void *user, uint64_t va, unsigned *words);
   void *code_user;
   /* Set on the called code's run: a branch out of the program returns
    * (pan_sim_va_warp.exit_va) instead of faulting. */
   bool returns;
};

enum pan_sim_va_status {
   PAN_SIM_VA_DONE,    /* every lane ended */
   PAN_SIM_VA_FAULT,   /* see warp->fault */
   PAN_SIM_VA_BARRIER, /* every live lane passed a barrier: run again once
                        * the workgroup's other warps got there */
};

struct pan_sim_va_warp {
   uint32_t r[PAN_SIM_VA_LANES][PAN_SIM_VA_REGS];
   uint32_t pc[PAN_SIM_VA_LANES]; /* instruction index per lane */
   uint16_t live;                 /* lanes still running */
   uint16_t discarded;            /* lanes ended by discard */
   /* Fragment helper lanes (no covered sample): they run for the quad's
    * derivatives, but their global stores, atomics and image stores are
    * dropped, as the hardware drops them (pan_sim_va_msg.c). */
   uint16_t helper;
   uint64_t executed;             /* instructions issued */
   uint16_t exited;               /* lanes that branched out (returns) */
   uint64_t exit_va[PAN_SIM_VA_LANES]; /* where they branched to */
   char fault[PAN_SIM_VA_FAULT_LEN];
};

/* Zero the registers and start the lanes of exec_mask at instruction 0. */
void pan_sim_va_warp_init(struct pan_sim_va_warp *w, uint16_t exec_mask);

/* Run until every lane ended, a barrier or a fault.  After a barrier the
 * warp is left just past it, so calling again resumes it. */
enum pan_sim_va_status pan_sim_va_run(struct pan_sim_va_warp *w,
                                      const struct pan_sim_va_config *cfg);

/*
 * Whether the interpreter executes an instruction word.  The word runs once
 * through the interpreter's own dispatch, on one lane of a scratch warp with
 * zeroed registers and a memory of zeros, so the answer cannot disagree with
 * execution.  On false, why says what is refused (or why the word does not
 * decode).  Faults other than refusals (a zero address...) count as
 * executed: the instruction is modelled, the scratch state is not valid.
 */
bool pan_sim_va_implemented(uint64_t word, char *why, unsigned why_len);

#ifdef __cplusplus
}
#endif

#endif
