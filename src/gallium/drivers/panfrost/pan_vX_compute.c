/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Compute descriptors and jobs, compiled once per PAN_ARCH (v6, v7, v9):
 * differences are #if PAN_ARCH blocks.
 */

#include "pan_arch.h"
#include "pan_genxml.h"
#include "pan_invocation.h"
#include "pan_vX_format.h"
#include "util/macros.h"

#if PAN_ARCH != 6 && PAN_ARCH != 7 && PAN_ARCH != 9
#error "compute jobs are only built for v6, v7 and v9 so far"
#endif

bool PAN_GENX(panfrost_compile)(struct nir_shader *nir, void *mem_ctx,
                                unsigned variant, struct panfrost_binary *out,
                                char *err, size_t err_size);
bool PAN_GENX(panfrost_compile_blend)(struct nir_shader *nir, void *mem_ctx,
                                      const void *blend,
                                      struct panfrost_binary *out, char *err,
                                      size_t err_size);

#if PAN_ARCH >= 9
/* The compiler's compute ABI reads these (docs: compiler.rst). */
#define PRELOAD_FIRST_REG 48
#define PRELOAD_COMPUTE_REGS(first, last)                                      \
   (((1u << ((last) - (first) + 1)) - 1) << ((first)-PRELOAD_FIRST_REG))

static void
emit_compute_shader(void *cpu, uint64_t binary, unsigned work_regs,
                    unsigned fau_words, unsigned textures, unsigned samplers)
{
   pan_pack(cpu, shader_program, cfg)
   {
      cfg.stage = MALI_SHADER_STAGE_COMPUTE;
      cfg.primary_shader = true;
      /* Half the register file leaves r0-r15 and r48-r63 to a thread, so
       * more threads fit; the compiler's work_regs 32 fits in that.
       */
      cfg.register_allocation =
         work_regs <= 32 ? MALI_SHADER_REGISTER_ALLOCATION_32_PER_THREAD
                         : MALI_SHADER_REGISTER_ALLOCATION_64_PER_THREAD;
      /* Local, workgroup and global ids, r55-r62: the hardware writes them
       * whether the shader reads them or not.
       */
      cfg.preload.r48_r63 = PRELOAD_COMPUTE_REGS(55, 62);
      cfg.binary = binary;
   }
}
#else
/* The renderer state of a compute shader: Bifrost has no separate program
 * descriptor, and the push word count lives here rather than in the job.
 */
static void
emit_compute_shader(void *cpu, uint64_t binary, unsigned work_regs,
                    unsigned fau_words, unsigned textures, unsigned samplers)
{
   pan_pack(cpu, renderer_state, cfg)
   {
      cfg.shader.shader = binary;
      cfg.shader.texture_count = textures;
      cfg.shader.sampler_count = samplers;
#if PAN_ARCH >= 7
      /* The half file (r0-r15, r48-r63) keeps the preloads r55-r62. */
      cfg.properties.shader_register_allocation =
         work_regs && work_regs <= 32
            ? MALI_SHADER_REGISTER_ALLOCATION_32_PER_THREAD
            : MALI_SHADER_REGISTER_ALLOCATION_64_PER_THREAD;
#endif
      /* Local, workgroup and global ids (compiler.rst, compute ABI). */
      cfg.preload.compute.local_invocation_xy = true;
      cfg.preload.compute.local_invocation_z = true;
      cfg.preload.compute.work_group_x = true;
      cfg.preload.compute.work_group_y = true;
      cfg.preload.compute.work_group_z = true;
      cfg.preload.compute.global_invocation_x = true;
      cfg.preload.compute.global_invocation_y = true;
      cfg.preload.compute.global_invocation_z = true;
      /* 64-bit FAU entries from the job's push uniform pointer. */
      cfg.preload.uniform_count = DIV_ROUND_UP(fau_words, 2);
   }
}
#endif

static void
emit_local_storage(void *cpu, uint64_t tls_base, unsigned tls_shift,
                   const struct panfrost_wls *wls)
{
   pan_pack(cpu, local_storage, cfg)
   {
      if (tls_base) {
         cfg.tls_size = tls_shift;
         cfg.tls_base_pointer = tls_base;
      }
      if (wls) {
         /* 2^(scale - 1) bytes per instance, the base field 0. */
         cfg.wls_instances = wls->instances;
         cfg.wls_size_scale = util_logbase2(wls->size_B) + 1;
         cfg.wls_base_pointer = wls->base;
      } else {
         cfg.wls_instances = MALI_LOCAL_STORAGE_NO_WLS;
      }
   }
}

#if PAN_ARCH >= 9
static bool
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
      cfg.compute.resources = j->resources;
   }
   return true;
}
#else
static bool
emit_compute_job(void *cpu, const struct panfrost_compute_job *j)
{
   struct panfrost_invocation inv;

   if (!panfrost_invocation_pack(j->size, j->count, &inv))
      return false;
   pan_section_pack(cpu, compute_job, header, cfg)
   {
      cfg.type = MALI_JOB_TYPE_COMPUTE;
      cfg.index = j->index;
      /* Each dispatch sees the memory the previous ones wrote. */
      cfg.barrier = true;
   }
   pan_section_pack(cpu, compute_job, invocation, cfg)
   {
      cfg.invocations = inv.word;
      cfg.size_y_shift = inv.shift[0];
      cfg.size_z_shift = inv.shift[1];
      cfg.workgroups_x_shift = inv.shift[2];
      cfg.workgroups_y_shift = inv.shift[3];
      cfg.workgroups_z_shift = inv.shift[4];
      /* Compute splits at the workgroup boundary, so that a workgroup's
       * threads stay together (barriers need it).
       */
      cfg.thread_group_split = inv.shift[2];
   }
   pan_section_pack(cpu, compute_job, parameters, cfg)
   {
      /* Bits of each workgroup dimension plus one, summed. */
      cfg.job_task_split = MIN2(util_logbase2_ceil(j->size[0] + 1) +
                                   util_logbase2_ceil(j->size[1] + 1) +
                                   util_logbase2_ceil(j->size[2] + 1),
                                15);
   }
   pan_section_pack(cpu, compute_job, draw, cfg)
   {
      cfg.state = j->shader;
      cfg.push_uniforms = j->fau;
      cfg.thread_storage = j->thread_storage;
      cfg.attributes = j->attributes;
      cfg.attribute_buffers = j->attribute_buffers;
      cfg.textures = j->textures;
      cfg.samplers = j->samplers;
   }
   return true;
}
#endif

#if PAN_ARCH <= 7
/* An image as an attribute record over a 3D linear buffer and its
 * continuation: the texel size is the stride, the image's rows and
 * slices (or layers) the continuation's strides.  The record's format
 * word is the texel format, read without a swizzle: formats whose
 * components the texture unit would reorder are refused.
 */
static bool
emit_image(void *attr, void *bufs, unsigned index,
           const struct panfrost_image_surface *s)
{
   /* The attribute unit's formats: components in their memory order. */
   unsigned hw = PAN_GENX(panfrost_attribute_format)(s->format);

   if (!hw)
      return false;
   pan_pack(bufs, attribute_buffer, cfg)
   {
      cfg.type = s->u_interleaved ? MALI_ATTRIBUTE_TYPE_3D_INTERLEAVED
                                  : MALI_ATTRIBUTE_TYPE_3D_LINEAR;
      cfg.address = s->addr;
      cfg.stride = s->texel_B;
      cfg.size = s->size_B;
   }
   pan_pack((uint8_t *)bufs + pan_size(attribute_buffer),
            attribute_buffer_continuation_3d, cfg)
   {
      cfg.s_dimension = s->width;
      cfg.t_dimension = s->height;
      cfg.r_dimension = s->depth;
      cfg.row_stride_B = s->row_stride_B;
      cfg.slice_stride_B = s->slice_stride_B;
   }
   pan_pack(attr, attribute, cfg)
   {
      cfg.buffer_index = 2 * index;
      cfg.format = PAN_GENX(panfrost_pixel_format)(hw, false);
   }
   return true;
}
#endif

/* Only the 64-bit next word (word 6 of every job header) changes: written
 * as it is, not through an unpack and repack of the header.
 */
static void
link_job(void *cpu, uint64_t next)
{
   memcpy((uint8_t *)pan_section_ptr(cpu, compute_job, header) + 24, &next,
          8);
}

const struct panfrost_arch PAN_GENX(panfrost_arch) = {
   .compile = PAN_GENX(panfrost_compile),
   .compile_blend = PAN_GENX(panfrost_compile_blend),
#if PAN_ARCH >= 9
   .shader_desc_size_B = pan_size(shader_program),
   .shader_desc_align_B = pan_alignment(shader_program),
#else
   .shader_desc_size_B = pan_size(renderer_state),
   .shader_desc_align_B = pan_alignment(renderer_state),
#endif
   .emit_compute_shader = emit_compute_shader,
#if PAN_ARCH <= 7
   .image_attr_size_B = pan_size(attribute),
   .image_bufs_size_B = 2 * pan_size(attribute_buffer),
   .image_align_B = MAX2(pan_alignment(attribute_buffer),
                         pan_alignment(attribute)),
   .emit_image = emit_image,
#endif
   .local_storage_size_B = pan_size(local_storage),
   .local_storage_align_B = pan_alignment(local_storage),
   .emit_local_storage = emit_local_storage,
   .texture = &PAN_GENX(panfrost_arch_texture),
#if PAN_ARCH >= 9
   .draw = &PAN_GENX(panfrost_arch_draw),
#else
   .jm = &PAN_GENX(panfrost_arch_jm),
#endif
   .job_align_B = pan_alignment(compute_job),
   .compute_job_size_B = pan_size(compute_job),
   .emit_compute_job = emit_compute_job,
   .link_job = link_job,
};
