/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The per-architecture half of pan_job.h: each copy of pan_vX_job.c
 * exports one of these tables, and pan_job.c picks the device's.
 */

#ifndef PAN_JOB_ARCH_H
#define PAN_JOB_ARCH_H

#include "pan_job.h"

struct pan_job_arch {
   unsigned header_size_B;
   void (*read_status)(const void *header, struct pan_job_status *out);
   void (*write_status)(void *header, uint32_t exception_status,
                        uint64_t fault_va);
};

extern const struct pan_job_arch pan_v4_job_arch;
extern const struct pan_job_arch pan_v5_job_arch;
extern const struct pan_job_arch pan_v6_job_arch;
extern const struct pan_job_arch pan_v7_job_arch;
extern const struct pan_job_arch pan_v9_job_arch;

#endif /* PAN_JOB_ARCH_H */
