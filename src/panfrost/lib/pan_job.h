/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * What the GPU writes back into a job header when it is done with the job:
 * the exception status and, for a fault, the faulting address. Read (and,
 * for fake kernels and simulators, written) through the generated
 * job_header packer of the device's architecture, never at raw offsets.
 */

#ifndef PAN_JOB_H
#define PAN_JOB_H

#include <stdbool.h>
#include <stdint.h>

/* Exception types (bits 7:0 of the exception status) come from the hardware
 * description, common to every architecture; v5's generated header names
 * them for arch-neutral code.
 */
#include "pan_v5_pack.h"

#define PAN_JOB_EXCEPTION(name) PAN_V5_EXCEPTION_TYPE_##name

#ifdef __cplusplus
extern "C" {
#endif

struct pan_job_status {
   uint32_t exception_status; /* raw word; type in bits 7:0 */
   uint64_t fault_va;         /* meaningful for faults only */
   unsigned type;             /* hardware job type */
   unsigned index;
};

/* Unpacks the header at header (pan_job_header_size_B(arch) bytes).
 * false when the architecture is not built in.
 */
bool pan_job_read_status(unsigned arch, const void *header,
                         struct pan_job_status *out);

/* Sets the exception status and fault address of a packed header, as the
 * GPU would, leaving the driver's fields as they are. For fake kernels and
 * simulators. false when the architecture is not built in.
 */
bool pan_job_write_status(unsigned arch, void *header,
                          uint32_t exception_status, uint64_t fault_va);

/* Bytes of a job header; 0 when the architecture is not built in. */
unsigned pan_job_header_size_B(unsigned arch);

static inline unsigned
pan_job_exception_type(uint32_t exception_status)
{
   return exception_status & 0xff;
}

/* Whether the GPU ran the job and it ended in anything but success (a job
 * never started reads as 0 and is not a failure here).
 */
static inline bool
pan_job_status_failed(uint32_t exception_status)
{
   unsigned type = pan_job_exception_type(exception_status);

   return type != PAN_JOB_EXCEPTION(NOT_STARTED) &&
          type != PAN_JOB_EXCEPTION(DONE);
}

/* "data_invalid_fault" etc. (the description's names), or NULL for a type
 * the hardware description does not name.
 */
const char *pan_job_exception_name(uint32_t exception_status);

#ifdef __cplusplus
}
#endif

#endif /* PAN_JOB_H */
