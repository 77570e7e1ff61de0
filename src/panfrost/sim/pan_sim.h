/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * CPU execution of Mali job chains: the first piece of a functional GPU
 * model. The drm-shim calls it at DRM_PANFROST_SUBMIT; tests call it on an
 * address space of their own. It does not depend on drm-shim.
 *
 * The caller describes the GPU address space as regions (GPU address, size,
 * CPU pointer). Every access is checked against them: an address outside
 * every region, a descriptor running past the end of its region, a
 * malformed or unsupported descriptor make the job fault. A fault is
 * reported as one "pan shim: ..." line on the log, written to the job
 * header as a real GPU would, and stops the chain. Nothing outside the
 * regions is ever touched, and a faulting job writes no pixels.
 *
 * What runs (see docs/drivers/panfrost/drm-shim.rst for the semantics):
 *    FRAGMENT     clear and write back every render target and the
 *                 depth/stencil buffers (primitives are not rasterised)
 *    WRITE_VALUE  zero, immediates, timestamps
 *    NULL, CACHE_FLUSH  nothing to do
 * Other job types are reported once per process as not executed yet and
 * are completed without effect.
 */

#ifndef PAN_SHIM_EXEC_H
#define PAN_SHIM_EXEC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One mapped range of the GPU address space. */
struct pan_shim_exec_region {
   uint64_t gpu_va;
   uint64_t size_B;
   void *cpu;
};

struct pan_shim_exec_space {
   const struct pan_shim_exec_region *regions;
   unsigned count;
};

/* Exception codes written to job headers (hardware values). */
#define PAN_SHIM_EXEC_DONE         0x01
#define PAN_SHIM_EXEC_CONFIG_FAULT 0x40 /* malformed/unsupported descriptor */
#define PAN_SHIM_EXEC_READ_FAULT   0x42 /* read outside mapped memory */
#define PAN_SHIM_EXEC_WRITE_FAULT  0x43 /* write outside mapped memory */

struct pan_shim_exec_stats {
   unsigned jobs_run;     /* executed (including NULL and cache flushes) */
   unsigned jobs_skipped; /* of a type not executed yet, marked done */
   bool faulted;
   uint32_t fault_status; /* PAN_SHIM_EXEC_*_FAULT */
   uint64_t fault_job_va; /* the faulting job (or unreadable header) */
};

/* Jobs walked per chain at most; a longer chain faults. */
#define PAN_SHIM_EXEC_MAX_JOBS 65536

/* True when the executor was built for this architecture (4, 5, 6, 7, 9). */
bool pan_shim_exec_supports_arch(unsigned arch);

/*
 * Run the job chain starting at jc_va, jobs in chain order. log NULL means
 * stderr. stats may be NULL. Returns 0 when every job completed, -1 after a
 * fault, -2 when the architecture is not built in (nothing is touched).
 */
int pan_shim_exec_chain(unsigned arch, const struct pan_shim_exec_space *space,
                        uint64_t jc_va, FILE *log,
                        struct pan_shim_exec_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* PAN_SHIM_EXEC_H */
