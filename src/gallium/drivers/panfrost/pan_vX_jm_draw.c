/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Draw descriptors of the Bifrost job manager (v6, v7): a vertex job running
 * the whole vertex shader (our compiler's default variant: position and
 * varyings in one program), then a tiler job; renderer states carry the
 * shader, its preloads and push word count, the fragment one followed by
 * the blend descriptors.  The orchestration is pan_draw_jm.c.
 */

#include <string.h>

#include "pipe/p_defines.h"
#include "pipe/p_format.h"
#include "util/macros.h"

#include "pan_arch.h"
#include "pan_compile.h"
#include "pan_genxml.h"
#include "pan_instancing.h"
#include "pan_invocation.h"
#include "pan_vX_blend.h"
#include "pan_vX_format.h"
#include "pan_vX_tiler.h"

#if PAN_ARCH != 6 && PAN_ARCH != 7
#error "job-manager draws are only built for Bifrost (v6, v7) so far"
#endif

/* The register file a v7 thread declares: half of it (r0-r15 and r48-r63,
 * twice the threads) when the compiler kept to that; v6 has no half
 * mode.  0 (not known) declares the whole file. */
static void
declare_registers(struct PAN_GENX(renderer_state) * cfg, unsigned work_regs)
{
#if PAN_ARCH >= 7
   cfg->properties.shader_register_allocation =
      work_regs && work_regs <= 32
         ? MALI_SHADER_REGISTER_ALLOCATION_32_PER_THREAD
         : MALI_SHADER_REGISTER_ALLOCATION_64_PER_THREAD;
#else
   (void)cfg;
   (void)work_regs;
#endif
}

static void
emit_vertex_rsd(void *cpu, uint64_t binary, unsigned work_regs,
                unsigned fau_words, unsigned attributes, unsigned varyings,
                unsigned ubos, unsigned textures, unsigned samplers)
{
   pan_pack(cpu, renderer_state, cfg)
   {
      cfg.shader.shader = binary;
      cfg.shader.texture_count = textures;
      cfg.shader.sampler_count = samplers;
      cfg.properties.uniform_buffer_count = ubos;
      cfg.shader.attribute_count = attributes;
      cfg.shader.varying_count = varyings;
      declare_registers(&cfg, work_regs);
      /* compiler.rst, driver interface (v7): r58:r59 position address,
       * r61 vertex id, r62 instance id.
       */
      cfg.preload.vertex.vertex_id = true;
      cfg.preload.vertex.instance_id = true;
      cfg.preload.vertex.position_result_address_lo = true;
      cfg.preload.vertex.position_result_address_hi = true;
      cfg.preload.uniform_count = DIV_ROUND_UP(fau_words, 2);
   }
}

/* One face of the stencil test. */
static struct PAN_GENX(stencil)
stencil_face(const struct panfrost_zs_face *f)
{
   return (struct PAN_GENX(stencil)){
      .reference_value = f->ref,
      .mask = f->value_mask,
      .compare_function = f->func,
      .stencil_fail = PAN_GENX(panfrost_stencil_op)(f->fail),
      .depth_fail = PAN_GENX(panfrost_stencil_op)(f->zfail),
      .depth_pass = PAN_GENX(panfrost_stencil_op)(f->zpass),
   };
}

static const char *
emit_fragment_rsd(void *cpu, const struct panfrost_jm_fragment *f)
{
   uint8_t *blends = (uint8_t *)cpu + pan_size(renderer_state);

   for (unsigned i = 0; i < f->rt_count; ++i) {
      const char *why = PAN_GENX(panfrost_emit_blend)(
         blends + i * pan_size(blend), i, &f->rts[i]);
      if (why)
         return why;
   }
   pan_pack(cpu, renderer_state, cfg)
   {
      cfg.shader.shader = f->binary;
      cfg.shader.varying_count = f->varyings;
      cfg.shader.texture_count = f->textures;
      cfg.shader.sampler_count = f->samplers;
      cfg.properties.uniform_buffer_count = f->ubos;
      declare_registers(&cfg, f->work_regs);
      cfg.properties.depth_source = f->zs.shader_z
                                       ? MALI_DEPTH_SOURCE_SHADER
                                       : MALI_DEPTH_SOURCE_FIXED_FUNCTION;
      /* Stores to memory must happen for every fragment the tests let
       * through, so the tests come after the shader and a later fragment
       * may not kill this one.
       */
      /* Alpha to coverage decides the coverage in the shader too. */
      /* So does a shader giving the depth or stencil reference. */
      bool late = f->kills || f->writes_memory || f->alpha_to_coverage ||
                  f->zs.shader_z || f->zs.shader_s;
      cfg.properties.shader_modifies_coverage =
         f->kills || f->alpha_to_coverage;
      cfg.properties.allow_forward_pixel_to_kill = !late;
      cfg.properties.allow_forward_pixel_to_be_killed = !f->writes_memory;
      cfg.properties.pixel_kill_operation =
         late ? MALI_PIXEL_KILL_FORCE_LATE : MALI_PIXEL_KILL_WEAK_EARLY;
      cfg.properties.zs_update_operation =
         f->zs.shader_z || f->zs.shader_s || f->writes_memory
            ? MALI_PIXEL_KILL_FORCE_LATE
            : MALI_PIXEL_KILL_STRONG_EARLY;
      /* Early fragment tests: before the shader, whose depth, discards
       * and stores cannot change them (failing fragments never run it).
       */
      if (f->early_tests) {
         cfg.properties.pixel_kill_operation = MALI_PIXEL_KILL_FORCE_EARLY;
         cfg.properties.zs_update_operation = MALI_PIXEL_KILL_FORCE_EARLY;
      }
      cfg.properties.stencil_from_shader = f->zs.shader_s;
      cfg.multisample_misc.sample_mask = f->sample_mask;
      cfg.multisample_misc.multisample_enable = f->multisample;
      cfg.multisample_misc.evaluate_per_sample = f->per_sample;
      /* PIPE_FUNC_* and the hardware's comparisons share their order. */
      cfg.multisample_misc.depth_function =
         f->zs.depth ? f->zs.depth_func : MALI_FUNC_ALWAYS;
      cfg.multisample_misc.depth_write_mask = f->zs.depth && f->zs.depth_write;
      cfg.stencil_mask_misc.stencil_enable = f->zs.stencil;
      cfg.stencil_mask_misc.alpha_to_coverage = f->alpha_to_coverage;
      cfg.stencil_mask_misc.stencil_mask_front = f->zs.face[0].write_mask;
      cfg.stencil_mask_misc.stencil_mask_back = f->zs.face[1].write_mask;
      cfg.stencil_mask_misc.single_sampled_lines = true;
      /* Lines and points count as front facing. */
      cfg.stencil_mask_misc.front_facing_depth_bias = f->zs.bias.enable;
      cfg.stencil_mask_misc.back_facing_depth_bias = f->zs.bias.enable;
      if (f->zs.bias.enable) {
         cfg.depth_units = f->zs.bias.units;
         cfg.depth_factor = f->zs.bias.factor;
         cfg.depth_bias_clamp = f->zs.bias.clamp;
      }
      /* compiler.rst, driver interface (v7): r58 facing, r59 pixel
       * position, r60 coverage, r61 sample mask.
       */
      cfg.preload.fragment.primitive_flags = true;
      cfg.preload.fragment.fragment_position = true;
      cfg.preload.fragment.coverage = true;
      cfg.preload.fragment.sample_mask_id = true;
      cfg.preload.uniform_count = DIV_ROUND_UP(f->fau_words, 2);
#if PAN_ARCH >= 7
      /* The messages the compiler left to the hardware (r0.., r4..;
       * pan_bi_message_preload.c). */
      for (unsigned k = 0; k < 2; ++k) {
         struct PAN_GENX(message_preload) *m =
            k ? &cfg.fragment_messages.message_preload_2
              : &cfg.fragment_messages.message_preload_1;
         const struct panfrost_message_preload *p = &f->messages[k];
         if (!p->comps)
            continue;
         if (p->texture) {
            m->type = MALI_MESSAGE_TYPE_VAR_TEX;
            m->var_tex.varying_index = p->varying;
            m->var_tex.texture_index = p->texture_index;
            m->var_tex.register_format =
               MALI_MESSAGE_PRELOAD_REGISTER_FORMAT_F32;
            m->var_tex.zero_lod = p->zero_lod;
            continue;
         }
         m->type = MALI_MESSAGE_TYPE_LD_VAR;
         m->ld_var.varying_index = p->varying;
         m->ld_var.register_format = MALI_MESSAGE_PRELOAD_REGISTER_FORMAT_F32;
         m->ld_var.num_components = p->comps;
      }
#endif
      if (f->zs.stencil) {
         cfg.stencil_front = stencil_face(&f->zs.face[0]);
         cfg.stencil_back = stencil_face(&f->zs.face[1]);
      }
   }
   return NULL;
}

static bool
emit_attribute(void *cpu, unsigned format, unsigned buffer_index,
               int32_t offset_B)
{
   uint32_t word = PAN_GENX(panfrost_vertex_format)(format);

   if (!word)
      return false;
   pan_pack(cpu, attribute, cfg)
   {
      cfg.buffer_index = buffer_index;
      cfg.format = word;
      cfg.offset = offset_B;
   }
   return true;
}

static void
emit_attribute_buffer(void *cpu, uint64_t addr, unsigned size_B,
                      unsigned stride_B, unsigned modulus)
{
   pan_pack(cpu, attribute_buffer, cfg)
   {
      cfg.type = MALI_ATTRIBUTE_TYPE_1D;
      if (modulus) {
         cfg.type = MALI_ATTRIBUTE_TYPE_1D_MODULUS;
         cfg.modulus.padded_count = modulus;
      }
      cfg.address = addr;
      cfg.stride = stride_B;
      cfg.size = size_B;
   }
}

static void
emit_instance_buffer(void *cpu, uint64_t addr, unsigned size_B,
                     unsigned stride_B, const struct pan_attr_addressing *a,
                     unsigned divisor)
{
   pan_pack(cpu, attribute_buffer, cfg)
   {
      cfg.address = addr;
      cfg.stride = stride_B;
      cfg.size = size_B;
      switch (a->mode) {
      case PAN_ATTR_MODE_POT_DIVISOR:
         cfg.type = MALI_ATTRIBUTE_TYPE_1D_POT_DIVISOR;
         cfg.pot.divisor = a->hw_divisor;
         break;
      case PAN_ATTR_MODE_NPOT_DIVISOR:
         cfg.type = MALI_ATTRIBUTE_TYPE_1D_NPOT_DIVISOR;
         cfg.npot.shift = a->shift;
         cfg.npot.extra = a->round_down;
         break;
      default:
         /* One instance, or a divisor no id reaches: element 0 */
         cfg.stride = 0;
         break;
      }
   }
   pan_pack((uint8_t *)cpu + pan_size(attribute_buffer),
            attribute_buffer_continuation_npot, cfg)
   {
      if (a->mode == PAN_ATTR_MODE_NPOT_DIVISOR)
         cfg.divisor_numerator = a->magic;
      cfg.divisor = divisor;
   }
}

static void
emit_ubo(void *cpu, uint64_t addr, unsigned size_B)
{
   pan_pack(cpu, uniform_buffer, cfg)
   {
      /* A bound range may exceed what shaders can address (64 KiB). */
      cfg.entries = CLAMP(DIV_ROUND_UP(size_B, 16), 1, 4096);
      cfg.address = addr;
   }
}

static void
emit_varying(void *cpu, unsigned slot, bool integer)
{
   bool psiz = slot == PAN_BI_POINT_SIZE_RECORD; /* alone in buffer 1 */
   /* Integers keep their bits through an integer record: a float one
    * converts them, and the conversion may quieten NaN patterns. */
   unsigned format = psiz      ? MALI_FORMAT_R32F
                     : integer ? MALI_FORMAT_RGBA32UI
                               : MALI_FORMAT_RGBA32F;
   pan_pack(cpu, attribute, cfg)
   {
      cfg.buffer_index = psiz;
      cfg.format = PAN_GENX(panfrost_pixel_format)(format, false);
      cfg.offset = psiz ? 0 : 16 * slot;
   }
}

static void
emit_viewport(void *cpu, const unsigned scissor[4], float min_z, float max_z)
{
   pan_pack(cpu, viewport, cfg)
   {
      cfg.scissor_minimum_x = scissor[0];
      cfg.scissor_minimum_y = scissor[1];
      cfg.scissor_maximum_x = scissor[2];
      cfg.scissor_maximum_y = scissor[3];
      cfg.minimum_z = min_z;
      cfg.maximum_z = max_z;
   }
}

/* The vertex shader runs once per vertex of each instance: a 1x1x1 group
 * repeated (1, vertices, instances) times.  Both jobs of a draw carry the
 * same invocation section.
 */
static bool
pack_invocation(void *cpu, unsigned vertices, unsigned instances)
{
   const unsigned size[3] = { 1, 1, 1 };
   const unsigned count[3] = { 1, vertices, instances };
   struct panfrost_invocation inv;

   if (!panfrost_invocation_pack(size, count, &inv))
      return false;
   pan_pack(cpu, invocation, cfg)
   {
      cfg.invocations = inv.word;
      cfg.size_y_shift = inv.shift[0];
      cfg.size_z_shift = inv.shift[1];
      cfg.workgroups_x_shift = inv.shift[2];
      cfg.workgroups_y_shift = inv.shift[3];
      cfg.workgroups_z_shift = inv.shift[4];
      cfg.thread_group_split = MALI_SPLIT_MIN_EFFICIENT;
   }
   return true;
}

static bool
emit_vertex_job(void *cpu, const struct panfrost_jm_draw *d)
{
   pan_section_pack(cpu, compute_job, header, cfg)
   {
      cfg.type = MALI_JOB_TYPE_VERTEX;
      cfg.index = d->vertex_index;
   }
   pan_section_pack(cpu, compute_job, parameters, cfg)
   {
      cfg.job_task_split = 5;
   }
   pan_section_pack(cpu, compute_job, draw, cfg)
   {
      cfg.state = d->vs_state;
      cfg.attributes = d->attributes;
      cfg.attribute_buffers = d->attribute_buffers;
      cfg.varyings = d->varyings;
      cfg.varying_buffers = d->varying_buffers;
      cfg.position = d->position;
      cfg.push_uniforms = d->vs_fau;
      cfg.uniform_buffers = d->vs_ubos;
      cfg.textures = d->textures[0];
      cfg.samplers = d->samplers[0];
      cfg.thread_storage = d->thread_storage;
      cfg.offset_start = d->offset_start;
      if (d->instances > 1)
         cfg.instance_size = d->vertices;
   }
   return true;
}

static bool
emit_tiler_job(void *cpu, const struct panfrost_jm_draw *d)
{
   /* Segments take their provoking vertex from the draw's
    * flat_shading_vertex (set: the first), with the primitive's
    * first_provoking_vertex set, as the stock driver programs lines. */
   const bool lines = d->mode == PIPE_PRIM_LINES ||
                      d->mode == PIPE_PRIM_LINE_STRIP ||
                      d->mode == PIPE_PRIM_LINE_LOOP;

   if (!PAN_GENX(panfrost_draw_mode)(d->mode))
      return false;
   pan_section_pack(cpu, tiler_job, header, cfg)
   {
      cfg.type = MALI_JOB_TYPE_TILER;
      cfg.index = d->tiler_index;
      cfg.dependency_1 = d->vertex_index;
   }
   pan_section_pack(cpu, tiler_job, primitive, cfg)
   {
      cfg.draw_mode = PAN_GENX(panfrost_draw_mode)(d->mode);
      cfg.index_type = d->index_size_B == 1   ? MALI_INDEX_TYPE_UINT8
                       : d->index_size_B == 2 ? MALI_INDEX_TYPE_UINT16
                       : d->index_size_B == 4 ? MALI_INDEX_TYPE_UINT32
                                              : MALI_INDEX_TYPE_NONE;
      cfg.primitive_restart = d->restart ? MALI_PRIMITIVE_RESTART_IMPLICIT
                                         : MALI_PRIMITIVE_RESTART_NONE;
      cfg.first_provoking_vertex = lines || d->flatshade_first;
      /* Outside the viewport's depth range: dropped, or clamped to it. */
      cfg.low_depth_cull = d->cull_below_z;
      cfg.high_depth_cull = d->cull_above_z;
      if (d->point_sizes)
         cfg.point_size_array_format = MALI_POINT_SIZE_ARRAY_FORMAT_FP32;
      cfg.job_task_split = 6;
      cfg.base_vertex_offset = d->base_vertex_offset;
      cfg.index_count = d->count;
      cfg.indices = d->indices;
   }
   pan_section_pack(cpu, tiler_job, primitive_size, cfg)
   {
      if (d->point_sizes)
         cfg.per_vertex.size_array = d->point_sizes;
      else
         cfg.fixed.constant = d->point_size;
   }
   pan_section_pack(cpu, tiler_job, tiler, cfg)
   {
      cfg.address = d->tiler;
   }
   pan_section_pack(cpu, tiler_job, draw, cfg)
   {
      cfg.front_face_ccw = d->front_ccw;
      cfg.cull_front_face = d->cull_front;
      cfg.cull_back_face = d->cull_back;
      cfg.flat_shading_vertex = lines && d->flatshade_first;
      cfg.state = d->fs_state;
      cfg.varyings = d->varyings;
      cfg.varying_buffers = d->varying_buffers;
      cfg.position = d->position;
      cfg.viewport = d->viewport;
      cfg.push_uniforms = d->fs_fau;
      cfg.uniform_buffers = d->fs_ubos;
      cfg.textures = d->textures[1];
      cfg.samplers = d->samplers[1];
      cfg.attributes = d->fs_attributes;
      cfg.attribute_buffers = d->fs_attribute_buffers;
      cfg.thread_storage = d->thread_storage;
      cfg.occlusion = d->occlusion;
      if (d->occlusion)
         cfg.occlusion_query = d->occlusion_counter
                                  ? MALI_OCCLUSION_MODE_COUNTER
                                  : MALI_OCCLUSION_MODE_PREDICATE;
      if (d->instances > 1)
         cfg.instance_size = d->vertices;
   }
   return true;
}

/* The draw sections' 13 addresses, from position to thread_storage,
 * fill consecutive words.
 */
static_assert(pan_field_offset(draw, thread_storage) -
                    pan_field_offset(draw, position) ==
                 12 * sizeof(uint64_t),
              "draw addresses are consecutive");

#define put(dst, off, value)                                                   \
   do {                                                                        \
      __typeof__(value) v_ = (value);                                          \
      memcpy((uint8_t *)(dst) + (off), &v_, sizeof(v_));                       \
   } while (0)

static void
patch_jobs(void *vjob, void *tjob, const struct panfrost_jm_draw *d,
           const void *invocation)
{
   uint8_t *vdraw = pan_section_ptr(vjob, compute_job, draw);
   uint8_t *tdraw = pan_section_ptr(tjob, tiler_job, draw);
   uint8_t *prim = pan_section_ptr(tjob, tiler_job, primitive);
   /* The draw sections' addresses, in the order of their words */
   const uint64_t vertex[13] = {
      d->position,   d->vs_ubos,         d->textures[0],    d->samplers[0],
      d->vs_fau,     d->vs_state,        d->attribute_buffers,
      d->attributes, d->varying_buffers, d->varyings,       0,
      0,             d->thread_storage,
   };
   const uint64_t fs_varyings = d->fs_varyings ? d->fs_varyings : d->varyings;
   const uint64_t tiler[13] = {
      d->position,   d->fs_ubos,         d->textures[1], d->samplers[1],
      d->fs_fau,     d->fs_state,        d->fs_attribute_buffers,
      d->fs_attributes, d->varying_buffers, fs_varyings, d->viewport,
      d->occlusion,  d->thread_storage,
   };

   memcpy(pan_section_ptr(vjob, compute_job, invocation), invocation,
          pan_size(invocation));
   memcpy(pan_section_ptr(tjob, tiler_job, invocation), invocation,
          pan_size(invocation));
   put(vjob, pan_field_offset(job_header, index), (uint16_t)d->vertex_index);
   put(tjob, pan_field_offset(job_header, index), (uint16_t)d->tiler_index);
   put(tjob, pan_field_offset(job_header, dependency_1),
       (uint16_t)d->vertex_index);
   put(vdraw, pan_field_offset(draw, offset_start), (uint32_t)d->offset_start);
   memcpy(vdraw + pan_field_offset(draw, position), vertex, sizeof(vertex));
   memcpy(tdraw + pan_field_offset(draw, position), tiler, sizeof(tiler));
   put(prim, pan_field_offset(primitive, base_vertex_offset),
       (uint32_t)d->base_vertex_offset);
   put(prim, pan_field_offset(primitive, index_count),
       (uint32_t)(d->count - 1));
   put(prim, pan_field_offset(primitive, indices), (uint64_t)d->indices);
   if (d->point_sizes)
      put(pan_section_ptr(tjob, tiler_job, primitive_size), 0,
          (uint64_t)d->point_sizes);
}

#undef put

static void
emit_preload_draw(void *cpu, uint64_t fs_state, uint64_t textures,
                  uint64_t samplers, uint64_t viewport, uint64_t position,
                  uint64_t thread_storage)
{
   memset(cpu, 0, 3 * pan_size(draw));
   pan_pack(cpu, draw, cfg)
   {
      cfg.state = fs_state;
      cfg.textures = textures;
      cfg.samplers = samplers;
      cfg.viewport = viewport;
      cfg.position = position;
      cfg.thread_storage = thread_storage;
   }
}

const struct panfrost_arch_jm PAN_GENX(panfrost_arch_jm) = {
   .rsd_size_B = pan_size(renderer_state),
   .rsd_align_B = pan_alignment(renderer_state),
   .blend_size_B = pan_size(blend),
   .emit_vertex_rsd = emit_vertex_rsd,
   .emit_fragment_rsd = emit_fragment_rsd,
   .blend_needs_shader = PAN_GENX(panfrost_blend_needs_shader),
   .blend_shader_io = PAN_GENX(panfrost_blend_shader_io),
   .attribute_size_B = pan_size(attribute),
   .buffer_size_B = pan_size(attribute_buffer),
   .buffer_align_B = 64, /* the address field drops the low 6 bits */
   .emit_attribute = emit_attribute,
   .emit_attribute_buffer = emit_attribute_buffer,
   .emit_instance_buffer = emit_instance_buffer,
   .ubo_size_B = pan_size(uniform_buffer),
   .emit_ubo = emit_ubo,
   .emit_varying = emit_varying,
   .viewport_size_B = pan_size(viewport),
   .viewport_align_B = pan_alignment(viewport),
   .emit_viewport = emit_viewport,
   .tiler_heap_size_B = pan_size(tiler_heap),
   .tiler_context_size_B = pan_size(tiler_context),
   .tiler_align_B = pan_alignment(tiler_context),
   .emit_tiler = PAN_GENX(panfrost_emit_tiler),
   .frame_shaders_size_B = 3 * pan_size(draw),
   .frame_shaders_align_B = pan_alignment(draw),
   .emit_preload_draw = emit_preload_draw,
   .vertex_job_size_B = pan_size(compute_job),
   .tiler_job_size_B = pan_size(tiler_job),
   .emit_vertex_job = emit_vertex_job,
   .emit_tiler_job = emit_tiler_job,
   .pack_invocation = pack_invocation,
   .patch_jobs = patch_jobs,
};
