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
   return pan_v5_exception_type_name(pan_job_exception_type(exception_status));
}
