/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The per-architecture half of the driver's job building.  Each copy of
 * pan_vX_*.c (compiled once per PAN_ARCH) exports one table; the screen
 * picks its architecture's at creation (NULL when the driver has no job
 * emitters for it yet), and everything else calls through screen->arch.
 * The inputs are arch-neutral: addresses, counts and sizes.
 */

#ifndef PAN_ARCH_H
#define PAN_ARCH_H

#include <stdbool.h>
#include <stdint.h>

/* One compute dispatch, as the job needs it. */
struct panfrost_compute_job {
   uint64_t shader;         /* shader program descriptor */
   uint64_t fau;            /* push words, 64-bit aligned */
   unsigned fau_words;      /* even */
   uint64_t thread_storage; /* local storage descriptor */
   unsigned size[3];        /* workgroup size */
   unsigned count[3];       /* workgroups */
   unsigned index;          /* job index in its chain, from 1 */
};

struct panfrost_arch {
   /* Compute shader program descriptor for a binary using registers
    * r0..work_regs-1 plus the compute preloads.
    */
   unsigned shader_desc_size_B, shader_desc_align_B;
   void (*emit_compute_shader)(void *cpu, uint64_t binary, unsigned work_regs);

   /* A local storage descriptor without thread or workgroup storage. */
   unsigned local_storage_size_B, local_storage_align_B;
   void (*emit_local_storage)(void *cpu);

   unsigned job_align_B;
   unsigned compute_job_size_B;
   void (*emit_compute_job)(void *cpu, const struct panfrost_compute_job *j);

   /* Points the header of the job at cpu to the next job of the chain. */
   void (*link_job)(void *cpu, uint64_t next);
};

extern const struct panfrost_arch pan_v9_panfrost_arch;

/* The table of an architecture, NULL when none is built in. */
const struct panfrost_arch *panfrost_arch_get(unsigned arch);

#endif /* PAN_ARCH_H */
