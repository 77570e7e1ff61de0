/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The job-header layout and the table of executors of one architecture
 * (compiled once per PAN_ARCH), plus the jobs that need no state of their
 * own: NULL, CACHE_FLUSH and WRITE_VALUE.
 */

#include <inttypes.h>
#include <string.h>

#include "pan_genxml.h"
#include "pan_shim_exec_arch.h"

static void
unpack_header(const void *cpu, struct pan_sx_job_header *out)
{
   pan_unpack(cpu, job_header, h);

   out->type = h.type;
   out->index = h.index;
   out->next = h.next;
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
write_status(void *cpu, uint32_t status, uint64_t fault_va)
{
   uint32_t w[pan_size(job_header) / 4];

   pan_pack(w, job_header, cfg) {
      cfg.exception_status = status;
      cfg.fault_pointer = fault_va;
   }
   memcpy(cpu, &w[0], 4);
   if (status != PAN_SHIM_EXEC_DONE)
      memcpy((uint8_t *)cpu + 8, &w[2], 8);
}

static const char *
type_name(unsigned type)
{
   return PAN_GENX(job_type_name)(type);
}

/* NULL jobs exist for their dependencies; cache flushes have nothing to
 * flush in a model whose memory is the CPU's.
 */
static bool
exec_nothing(struct pan_sx_ctx *ctx, uint64_t job_va)
{
   (void)ctx;
   (void)job_va;
   return true;
}

bool
PAN_GENX(shim_exec_write_value)(struct pan_sx_ctx *ctx, uint64_t job_va)
{
   const void *job = pan_sx_map(ctx, job_va, pan_size(write_value_job), false,
                                "write-value job descriptor");
   unsigned size_B = 8;
   uint64_t value = 0;

   if (!job)
      return false;
   pan_section_unpack(job, write_value_job, payload, wv);

   switch (wv.type) {
   case MALI_WRITE_VALUE_TYPE_ZERO:
      break;
   case MALI_WRITE_VALUE_TYPE_CYCLE_COUNTER:
   case MALI_WRITE_VALUE_TYPE_SYSTEM_TIMESTAMP:
      /* No GPU clock here: host nanoseconds, monotonic like the real
       * counters.
       */
      value = pan_sx_now_ns();
      break;
#if PAN_ARCH >= 6
   case MALI_WRITE_VALUE_TYPE_IMMEDIATE_8: size_B = 1; value = wv.immediate_value; break;
   case MALI_WRITE_VALUE_TYPE_IMMEDIATE_16: size_B = 2; value = wv.immediate_value; break;
   case MALI_WRITE_VALUE_TYPE_IMMEDIATE_32: size_B = 4; value = wv.immediate_value; break;
   case MALI_WRITE_VALUE_TYPE_IMMEDIATE_64: size_B = 8; value = wv.immediate_value; break;
#endif
   default:
      return pan_sx_fault(ctx, PAN_SHIM_EXEC_CONFIG_FAULT, job_va,
                          "write-value type %u is not defined on v%u",
                          (unsigned)wv.type, PAN_ARCH);
   }

   if (wv.address & (size_B - 1))
      return pan_sx_fault(ctx, PAN_SHIM_EXEC_CONFIG_FAULT, wv.address,
                          "write-value target 0x%" PRIx64
                          " is not %u-byte aligned",
                          (uint64_t)wv.address, size_B);
   uint8_t *dst =
      pan_sx_map(ctx, wv.address, size_B, true, "write-value target");
   if (!dst)
      return false;
   for (unsigned i = 0; i < size_B; ++i)
      dst[i] = (uint8_t)(value >> (8 * i));
   return true;
}

const struct pan_sx_arch PAN_GENX(shim_exec_arch) = {
   .header_size_B = pan_size(job_header),
   .header_align_B = pan_alignment(job_header),
   .unpack_header = unpack_header,
   .write_status = write_status,
   .type_name = type_name,
   .exec = {
      [MALI_JOB_TYPE_NULL] = exec_nothing,
      [MALI_JOB_TYPE_CACHE_FLUSH] = exec_nothing,
      [MALI_JOB_TYPE_WRITE_VALUE] = PAN_GENX(shim_exec_write_value),
      [MALI_JOB_TYPE_FRAGMENT] = PAN_GENX(shim_exec_fragment),
   },
};
