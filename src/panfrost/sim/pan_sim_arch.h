/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Per-architecture executors (files compiled with -DPAN_ARCH=N). Each job
 * type has its own file; pan_sim_vX_jobs.c lists them in the
 * architecture's table.
 */

#ifndef PAN_SIM_ARCH_H
#define PAN_SIM_ARCH_H

#include "pan_genxml_arch.h"
#include "pan_sim_priv.h"

/* COMPUTE jobs; v6 and later only (the shaders run on the ISA
 * interpreters). */
bool PAN_GENX(sim_exec_compute)(struct pan_sim_ctx *ctx, uint64_t job_va);
bool PAN_GENX(sim_exec_fragment)(struct pan_sim_ctx *ctx, uint64_t job_va);
bool PAN_GENX(sim_exec_write_value)(struct pan_sim_ctx *ctx, uint64_t job_va);

/* Thread storage of a job's local storage descriptor at va (0: none):
 * thread n's bytes start at base + n * thread_B, thread_B = 16 << tls_size
 * (0 when the descriptor gives no storage).  packed (may be NULL): the
 * descriptor's bytes, NULL when va is 0. */
struct pan_sim_tls {
   uint64_t base;
   uint32_t thread_B;
};
bool PAN_GENX(sim_thread_storage)(struct pan_sim_ctx *ctx, uint64_t va,
                                  struct pan_sim_tls *tls,
                                  const void **packed);

#endif /* PAN_SIM_ARCH_H */
