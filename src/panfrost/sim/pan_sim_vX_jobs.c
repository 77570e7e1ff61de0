/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The table of job executors of one architecture (compiled once per
 * PAN_ARCH), plus the jobs that need no state of their own: NULL,
 * CACHE_FLUSH and WRITE_VALUE. The header layout is pan_sim_vX_chain.c's.
 */

#include <inttypes.h>
#include <string.h>

#include "pan_genxml.h"
#include "pan_sim_arch.h"
#include "pan_sim_vX_gfx.h"

/* NULL jobs exist for their dependencies; cache flushes have nothing to
 * flush in a model whose memory is the CPU's.
 */
static bool
exec_nothing(struct pan_sim_ctx *ctx, uint64_t job_va)
{
   (void)ctx;
   (void)job_va;
   return true;
}

bool
PAN_GENX(sim_exec_write_value)(struct pan_sim_ctx *ctx, uint64_t job_va)
{
   const void *job = pan_sim_ctx_read(ctx, job_va, pan_size(write_value_job),
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
      value = pan_sim_now_ns();
      break;
#if PAN_ARCH >= 6
   case MALI_WRITE_VALUE_TYPE_IMMEDIATE_8: size_B = 1; value = wv.immediate_value; break;
   case MALI_WRITE_VALUE_TYPE_IMMEDIATE_16: size_B = 2; value = wv.immediate_value; break;
   case MALI_WRITE_VALUE_TYPE_IMMEDIATE_32: size_B = 4; value = wv.immediate_value; break;
   case MALI_WRITE_VALUE_TYPE_IMMEDIATE_64: size_B = 8; value = wv.immediate_value; break;
#endif
   default:
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, job_va,
                          "write-value type %u is not defined on v%u",
                          (unsigned)wv.type, PAN_ARCH);
   }

   if (wv.address & (size_B - 1))
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, wv.address,
                          "write-value target 0x%" PRIx64
                          " is not %u-byte aligned",
                          (uint64_t)wv.address, size_B);
   uint8_t *dst =
      pan_sim_ctx_write(ctx, wv.address, size_B, "write-value target");
   if (!dst)
      return false;
   for (unsigned i = 0; i < size_B; ++i)
      dst[i] = (uint8_t)(value >> (8 * i));
   return true;
}

bool
PAN_GENX(sim_thread_storage)(struct pan_sim_ctx *ctx, uint64_t va,
                             struct pan_sim_tls *tls, const void **packed)
{
   *tls = (struct pan_sim_tls){ 0 };
   const void *p = NULL;
   if (packed)
      *packed = NULL;
   if (!va)
      return true;
   p = pan_sim_ctx_read(ctx, va, pan_size(local_storage), "thread storage");
   if (!p)
      return false;
   if (packed)
      *packed = p;
   pan_unpack(p, local_storage, ls);
   if (!ls.tls_base_pointer)
      return true;
   /* A 5-bit shift: at most 16 << 31 bytes would not fit 32 bits. */
   if (ls.tls_size > 27)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, va,
                           "thread storage of 16 << %u bytes per thread is "
                           "not modelled",
                           (unsigned)ls.tls_size);
   tls->base = ls.tls_base_pointer;
#if PAN_ARCH >= 9
   /* Packed addressing (the stock driver's choice) stores the base in
    * 256-byte units; flat (ours) stores the address. */
   if (ls.tls_address_mode == MALI_ADDRESS_MODE_PACKED)
      tls->base <<= 8;
#endif
   tls->thread_B = 16u << ls.tls_size;
   return true;
}

const struct pan_sim_executors PAN_GENX(sim_executors) = {
   .exec = {
      [MALI_JOB_TYPE_NULL] = exec_nothing,
      [MALI_JOB_TYPE_CACHE_FLUSH] = exec_nothing,
      [MALI_JOB_TYPE_WRITE_VALUE] = PAN_GENX(sim_exec_write_value),
      [MALI_JOB_TYPE_FRAGMENT] = PAN_GENX(sim_exec_fragment),
#if PAN_ARCH >= 6
      [MALI_JOB_TYPE_COMPUTE] = PAN_GENX(sim_exec_compute),
#endif
#if PAN_ARCH >= 6 && PAN_ARCH <= 7
      [MALI_JOB_TYPE_VERTEX] = PAN_GENX(sim_exec_vertex),
      [MALI_JOB_TYPE_TILER] = PAN_GENX(sim_exec_tiler),
      [MALI_JOB_TYPE_INDEXED_VERTEX] = PAN_GENX(sim_exec_indexed_vertex),
#endif
#if PAN_ARCH >= 9
      [MALI_JOB_TYPE_MALLOC_VERTEX] = PAN_GENX(sim_exec_malloc_vertex),
#endif
   },
};
