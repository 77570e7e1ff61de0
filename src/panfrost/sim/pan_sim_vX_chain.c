/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The job-header layout of one architecture (compiled once per PAN_ARCH):
 * everything the chain walker and the status write-back need, through the
 * genxml packers so the layout is described once, in the XML.
 */

#include <string.h>

#include "pan_genxml.h"
#include "pan_sim_chain.h"

static void
unpack_header(const void *cpu, struct pan_sim_job *out)
{
   pan_unpack(cpu, job_header, h);

   out->type = h.type;
   out->type_name = PAN_GENX(job_type_name)(h.type);
   out->index = h.index;
   out->dep1 = h.dependency_1;
   out->dep2 = h.dependency_2;
   out->next = h.next;
   out->exception_status = h.exception_status;
#if PAN_ARCH <= 7
   out->is_64b = h.is_64b;
#else
   out->is_64b = true;
#endif
}

/* Only the status words change: the rest of the header is the driver's.
 * The XML of every architecture puts exception_status in word 0 and
 * fault_pointer in words 2-3; packing a scratch header keeps the encoding
 * in one place.
 */
static void
write_status(void *cpu, uint32_t status, const uint64_t *fault_va)
{
   uint32_t w[pan_size(job_header) / 4];

   pan_pack(w, job_header, cfg) {
      cfg.exception_status = status;
      cfg.fault_pointer = fault_va ? *fault_va : 0;
   }
   memcpy(cpu, &w[0], 4);
   if (fault_va)
      memcpy((uint8_t *)cpu + 8, &w[2], 8);
}

const struct pan_sim_header_layout PAN_GENX(sim_header_layout) = {
   .size_B = pan_size(job_header),
   .align_B = pan_alignment(job_header),
   .unpack = unpack_header,
   .write_status = write_status,
};
