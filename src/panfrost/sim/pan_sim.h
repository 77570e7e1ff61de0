/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The functional GPU simulator: Mali job chains run on the CPU. The
 * drm-shim calls it at DRM_PANFROST_SUBMIT; tests call it on an address
 * space of their own. It does not depend on the drm-shim.
 *
 * The caller describes the GPU address space (pan_sim_space.h); the chain
 * is walked by the walker the decoder uses too (pan_sim_chain.h). Every
 * access is checked: an address outside every region, a descriptor
 * running past the end of its region, a write to a read-only region, a
 * malformed or unsupported descriptor, a dependency on a job that has not
 * run make the job fault. A fault is reported as one "pan sim: ..." line on
 * the log, written to the job header as a real GPU would, and stops the
 * chain. Nothing outside the regions is ever touched, and a faulting job
 * writes no pixels.
 *
 * What runs (see docs/drivers/panfrost/drm-shim.rst for the semantics):
 *    FRAGMENT     clear and write back every render target and the
 *                 depth/stencil buffers; on v6/v7 the frame's primitives
 *                 are rasterised and shaded first (simulator-draws.rst)
 *    VERTEX, TILER, INDEXED_VERTEX  (v6/v7) vertex shading and primitive
 *                 assembly into the simulator's functional polygon list
 *    COMPUTE      (v6/v7/v9) on the ISA interpreters
 *    WRITE_VALUE  zero, immediates, timestamps
 *    NULL, CACHE_FLUSH  nothing to do
 * Other job types are reported once per process as not executed yet and
 * are completed without effect.
 */

#ifndef PAN_SIM_H
#define PAN_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pan_sim_space.h"
#include "pan_v5_pack.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Exception codes written to job headers: the hardware description's
 * exception types (common to every architecture).
 */
#define PAN_SIM_STATUS_DONE PAN_V5_EXCEPTION_TYPE_DONE
/* malformed/unsupported descriptor */
#define PAN_SIM_CONFIG_FAULT PAN_V5_EXCEPTION_TYPE_JOB_CONFIG_FAULT
/* read outside mapped memory */
#define PAN_SIM_READ_FAULT PAN_V5_EXCEPTION_TYPE_JOB_READ_FAULT
/* write outside mapped (writable) memory */
#define PAN_SIM_WRITE_FAULT PAN_V5_EXCEPTION_TYPE_JOB_WRITE_FAULT

struct pan_sim_stats {
   unsigned jobs_run;     /* executed (including NULL and cache flushes) */
   unsigned jobs_skipped; /* of a type not executed yet, marked done */
   bool faulted;
   uint32_t fault_status; /* PAN_SIM_*_FAULT */
   uint64_t fault_job_va; /* the faulting job (or unreadable header) */
};

/* True when the simulator was built for this architecture (4, 5, 6, 7,
 * 9). */
bool pan_sim_supports_arch(unsigned arch);

/*
 * Run the job chain starting at jc_va, jobs in chain order (at most
 * PAN_SIM_CHAIN_MAX_JOBS; a longer chain faults). Regions the GPU writes
 * must be writable. log NULL means stderr; stats may be NULL. Returns 0
 * when every job completed, -1 after a fault, -2 when the architecture is
 * not built in (nothing is touched).
 */
int pan_sim_run_chain(unsigned arch, const struct pan_sim_space *space,
                      uint64_t jc_va, FILE *log, struct pan_sim_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* PAN_SIM_H */
