/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Compute descriptors and jobs, compiled once per PAN_ARCH (v9 so far). */

#include "pan_arch.h"
#include "pan_genxml.h"

#if PAN_ARCH != 9
#error "compute jobs are only built for v9 so far"
#endif

/* The compiler's compute ABI reads these (docs: compiler.rst). */
#define PRELOAD_FIRST_REG 48
#define PRELOAD_COMPUTE_REGS(first, last)                                      \
   (((1u << ((last) - (first) + 1)) - 1) << ((first)-PRELOAD_FIRST_REG))

static void
emit_compute_shader(void *cpu, uint64_t binary, unsigned work_regs)
{
   pan_pack(cpu, shader_program, cfg)
   {
      cfg.stage = MALI_SHADER_STAGE_COMPUTE;
      cfg.primary_shader = true;
      /* Half the register file leaves r0-r15 and r48-r63 to a thread, so
       * more threads fit; the compiler allocates from r0 upwards.
       */
      cfg.register_allocation =
         work_regs <= 16 ? MALI_SHADER_REGISTER_ALLOCATION_32_PER_THREAD
                         : MALI_SHADER_REGISTER_ALLOCATION_64_PER_THREAD;
      /* Local, workgroup and global ids, r55-r62: the hardware writes them
       * whether the shader reads them or not.
       */
      cfg.preload.r48_r63 = PRELOAD_COMPUTE_REGS(55, 62);
      cfg.binary = binary;
   }
}

static void
emit_local_storage(void *cpu, uint64_t tls_base, unsigned tls_shift)
{
   pan_pack(cpu, local_storage, cfg)
   {
      if (tls_base) {
         cfg.tls_size = tls_shift;
         cfg.tls_base_pointer = tls_base;
      }
      cfg.wls_instances = MALI_LOCAL_STORAGE_NO_WLS;
   }
}

static void
emit_compute_job(void *cpu, const struct panfrost_compute_job *j)
{
   pan_section_pack(cpu, compute_job, header, cfg)
   {
      cfg.type = MALI_JOB_TYPE_COMPUTE;
      cfg.index = j->index;
      /* Each dispatch sees the memory the previous ones wrote. */
      cfg.barrier = true;
   }
   pan_section_pack(cpu, compute_job, payload, cfg)
   {
      cfg.workgroup_size_x = j->size[0];
      cfg.workgroup_size_y = j->size[1];
      cfg.workgroup_size_z = j->size[2];
      cfg.workgroup_count_x = j->count[0];
      cfg.workgroup_count_y = j->count[1];
      cfg.workgroup_count_z = j->count[2];
      cfg.compute.shader = j->shader;
      cfg.compute.fau = j->fau;
      cfg.compute.fau_count = j->fau_words / 2;
      cfg.compute.thread_storage = j->thread_storage;
   }
}

static void
link_job(void *cpu, uint64_t next)
{
   pan_section_unpack(cpu, compute_job, header, h);
   h.next = next;
   pan_section_pack(cpu, compute_job, header, cfg) { cfg = h; }
}

const struct panfrost_arch PAN_GENX(panfrost_arch) = {
   .shader_desc_size_B = pan_size(shader_program),
   .shader_desc_align_B = pan_alignment(shader_program),
   .emit_compute_shader = emit_compute_shader,
   .local_storage_size_B = pan_size(local_storage),
   .local_storage_align_B = pan_alignment(local_storage),
   .emit_local_storage = emit_local_storage,
   .draw = &PAN_GENX(panfrost_arch_draw),
   .texture = &PAN_GENX(panfrost_arch_texture),
   .job_align_B = pan_alignment(compute_job),
   .compute_job_size_B = pan_size(compute_job),
   .emit_compute_job = emit_compute_job,
   .link_job = link_job,
};
