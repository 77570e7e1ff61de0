/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Job header status, compiled once per PAN_ARCH. */

#include "pan_genxml.h"
#include "pan_job_arch.h"

static void
read_status(const void *header, struct pan_job_status *out)
{
   pan_unpack(header, job_header, h);

   out->exception_status = h.exception_status;
   out->fault_va = h.fault_pointer;
   out->type = h.type;
   out->index = h.index;
}

/* A round trip through the unpacked struct: the driver's fields keep
 * their values, and the status fields land wherever this architecture's
 * XML puts them.
 */
static void
write_status(void *header, uint32_t exception_status, uint64_t fault_va)
{
   pan_unpack(header, job_header, h);

   h.exception_status = exception_status;
   h.fault_pointer = fault_va;
   PAN_GENX(job_header_pack)(header, &h);
}

const struct pan_job_arch PAN_GENX(job_arch) = {
   .header_size_B = pan_size(job_header),
   .read_status = read_status,
   .write_status = write_status,
};
