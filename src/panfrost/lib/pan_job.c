/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The architecture-independent half of pan_job.h. */

#include <stddef.h>

#include "pan_job_arch.h"

/* The one place that maps an architecture to its job header code. */
static const struct pan_job_arch *
job_arch(unsigned arch)
{
   switch (arch) {
#ifdef PAN_JOB_HAVE_V4
   case 4:
      return &pan_v4_job_arch;
#endif
#ifdef PAN_JOB_HAVE_V5
   case 5:
      return &pan_v5_job_arch;
#endif
#ifdef PAN_JOB_HAVE_V6
   case 6:
      return &pan_v6_job_arch;
#endif
#ifdef PAN_JOB_HAVE_V7
   case 7:
      return &pan_v7_job_arch;
#endif
#ifdef PAN_JOB_HAVE_V9
   case 9:
      return &pan_v9_job_arch;
#endif
   default:
      return NULL;
   }
}

bool
pan_job_read_status(unsigned arch, const void *header,
                    struct pan_job_status *out)
{
   const struct pan_job_arch *a = job_arch(arch);

   if (!a)
      return false;
   a->read_status(header, out);
   return true;
}

bool
pan_job_write_status(unsigned arch, void *header, uint32_t exception_status,
                     uint64_t fault_va)
{
   const struct pan_job_arch *a = job_arch(arch);

   if (!a)
      return false;
   a->write_status(header, exception_status, fault_va);
   return true;
}

unsigned
pan_job_header_size_B(unsigned arch)
{
   const struct pan_job_arch *a = job_arch(arch);

   return a ? a->header_size_B : 0;
}

const char *
pan_job_exception_name(uint32_t exception_status)
{
   switch (pan_job_exception_type(exception_status)) {
   case PAN_JOB_EXCEPTION_NOT_STARTED:
      return "NOT_STARTED";
   case PAN_JOB_EXCEPTION_DONE:
      return "DONE";
   case PAN_JOB_EXCEPTION_INTERRUPTED:
      return "INTERRUPTED";
   case PAN_JOB_EXCEPTION_STOPPED:
      return "STOPPED";
   case PAN_JOB_EXCEPTION_TERMINATED:
      return "TERMINATED";
   case PAN_JOB_EXCEPTION_ACTIVE:
      return "ACTIVE";
   case PAN_JOB_EXCEPTION_CONFIG_FAULT:
      return "JOB_CONFIG_FAULT";
   case PAN_JOB_EXCEPTION_POWER_FAULT:
      return "JOB_POWER_FAULT";
   case PAN_JOB_EXCEPTION_READ_FAULT:
      return "JOB_READ_FAULT";
   case PAN_JOB_EXCEPTION_WRITE_FAULT:
      return "JOB_WRITE_FAULT";
   case PAN_JOB_EXCEPTION_AFFINITY_FAULT:
      return "JOB_AFFINITY_FAULT";
   case PAN_JOB_EXCEPTION_BUS_FAULT:
      return "JOB_BUS_FAULT";
   case PAN_JOB_EXCEPTION_INSTR_INVALID_PC:
      return "INSTR_INVALID_PC";
   case PAN_JOB_EXCEPTION_INSTR_INVALID_ENC:
      return "INSTR_INVALID_ENC";
   case PAN_JOB_EXCEPTION_INSTR_TYPE_MISMATCH:
      return "INSTR_TYPE_MISMATCH";
   case PAN_JOB_EXCEPTION_INSTR_OPERAND_FAULT:
      return "INSTR_OPERAND_FAULT";
   case PAN_JOB_EXCEPTION_INSTR_TLS_FAULT:
      return "INSTR_TLS_FAULT";
   case PAN_JOB_EXCEPTION_INSTR_BARRIER_FAULT:
      return "INSTR_BARRIER_FAULT";
   case PAN_JOB_EXCEPTION_INSTR_ALIGN_FAULT:
      return "INSTR_ALIGN_FAULT";
   case PAN_JOB_EXCEPTION_DATA_INVALID_FAULT:
      return "DATA_INVALID_FAULT";
   case PAN_JOB_EXCEPTION_TILE_RANGE_FAULT:
      return "TILE_RANGE_FAULT";
   case PAN_JOB_EXCEPTION_ADDR_RANGE_FAULT:
      return "ADDRESS_RANGE_FAULT";
   case PAN_JOB_EXCEPTION_OUT_OF_MEMORY:
      return "OUT_OF_MEMORY";
   case PAN_JOB_EXCEPTION_UNKNOWN:
      return "UNKNOWN";
   default:
      return NULL;
   }
}
