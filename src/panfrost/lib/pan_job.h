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

#ifdef __cplusplus
extern "C" {
#endif

/* Exception types: bits 7:0 of the exception status. Below 0x40 the job
 * ran (or was stopped) without a fault; 0x40 and up are faults.
 */
enum pan_job_exception {
   PAN_JOB_EXCEPTION_NOT_STARTED = 0x00,
   PAN_JOB_EXCEPTION_DONE = 0x01,
   PAN_JOB_EXCEPTION_INTERRUPTED = 0x02,
   PAN_JOB_EXCEPTION_STOPPED = 0x03,
   PAN_JOB_EXCEPTION_TERMINATED = 0x04,
   PAN_JOB_EXCEPTION_ACTIVE = 0x08,
   PAN_JOB_EXCEPTION_CONFIG_FAULT = 0x40,
   PAN_JOB_EXCEPTION_POWER_FAULT = 0x41,
   PAN_JOB_EXCEPTION_READ_FAULT = 0x42,
   PAN_JOB_EXCEPTION_WRITE_FAULT = 0x43,
   PAN_JOB_EXCEPTION_AFFINITY_FAULT = 0x44,
   PAN_JOB_EXCEPTION_BUS_FAULT = 0x48,
   PAN_JOB_EXCEPTION_INSTR_INVALID_PC = 0x50,
   PAN_JOB_EXCEPTION_INSTR_INVALID_ENC = 0x51,
   PAN_JOB_EXCEPTION_INSTR_TYPE_MISMATCH = 0x52,
   PAN_JOB_EXCEPTION_INSTR_OPERAND_FAULT = 0x53,
   PAN_JOB_EXCEPTION_INSTR_TLS_FAULT = 0x54,
   PAN_JOB_EXCEPTION_INSTR_BARRIER_FAULT = 0x55,
   PAN_JOB_EXCEPTION_INSTR_ALIGN_FAULT = 0x56,
   PAN_JOB_EXCEPTION_DATA_INVALID_FAULT = 0x58,
   PAN_JOB_EXCEPTION_TILE_RANGE_FAULT = 0x59,
   PAN_JOB_EXCEPTION_ADDR_RANGE_FAULT = 0x5a,
   PAN_JOB_EXCEPTION_OUT_OF_MEMORY = 0x60,
   PAN_JOB_EXCEPTION_UNKNOWN = 0x7f,
};

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

   return type != PAN_JOB_EXCEPTION_NOT_STARTED &&
          type != PAN_JOB_EXCEPTION_DONE;
}

/* "DATA_INVALID_FAULT" etc., or NULL for a type this table lacks. */
const char *pan_job_exception_name(uint32_t exception_status);

#ifdef __cplusplus
}
#endif

#endif /* PAN_JOB_H */
