/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Draw descriptors and the IDVS (malloc-vertex) job, compiled once per
 * PAN_ARCH (v9 so far).  The driver interface of the shaders these
 * descriptors run is in docs/drivers/panfrost/compiler.rst.
 */

#include <string.h>

#include "pipe/p_defines.h"
#include "util/format/u_format.h"
#include "util/u_math.h"

#include "pan_arch.h"
#include "pan_genxml.h"
#include "pan_vX_blend.h"
#include "pan_vX_tiler.h"
#include "pan_vX_format.h"

#if PAN_ARCH != 9
#error "draw jobs are only built for v9 so far"
#endif

/* r59-r61 carry the IDVS output index, vertex id and instance id of a
 * vertex shader, and the pixel position, coverage and varying source of a
 * fragment shader: the compiler's graphics ABI reads all three.
 */
#define PRELOAD_GFX (0x7u << (59 - 48))
/* Fragment shaders also get r58, the facing of the primitive (0: front). */
#define PRELOAD_FACING (1u << (58 - 48))

static void
emit_gfx_shader(void *cpu, enum panfrost_gfx_program kind, uint64_t binary,
                unsigned work_regs)
{
   pan_pack(cpu, shader_program, cfg)
   {
      cfg.stage = kind == PANFROST_PROGRAM_VERTEX ? MALI_SHADER_STAGE_VERTEX
                                                  : MALI_SHADER_STAGE_FRAGMENT;
      cfg.primary_shader = true;
      cfg.register_allocation =
         work_regs <= 32 ? MALI_SHADER_REGISTER_ALLOCATION_32_PER_THREAD
                         : MALI_SHADER_REGISTER_ALLOCATION_64_PER_THREAD;
      cfg.preload.r48_r63 =
         PRELOAD_GFX | (kind == PANFROST_PROGRAM_FRAGMENT ? PRELOAD_FACING : 0);
      /* Fragment quads need all four lanes for derivatives and the
       * computed LOD of textures.
       */
      cfg.requires_helper_threads = kind == PANFROST_PROGRAM_FRAGMENT;
      cfg.binary = binary;
   }
}

static void
emit_resource(void *cpu, uint64_t addr, unsigned count)
{
   pan_pack(cpu, resource, cfg)
   {
      cfg.address = addr;
      cfg.size = (uint64_t)count * pan_size(buffer);
   }
}

static void
emit_buffer(void *cpu, uint64_t addr, unsigned size_B, unsigned stride_B)
{
   pan_pack(cpu, buffer, cfg)
   {
      cfg.address = addr;
      cfg.size = size_B;
      cfg.strided.stride = stride_B;
   }
}

static bool
emit_attribute(void *cpu, unsigned format, unsigned buffer_index,
               unsigned offset_B, unsigned stride_B, unsigned divisor)
{
   uint32_t word = PAN_GENX(panfrost_vertex_format)(format);

   if (!word)
      return false;
   pan_pack(cpu, attribute, cfg)
   {
      cfg.attribute_type = MALI_ATTRIBUTE_TYPE_1D;
      cfg.format = word;
      cfg.table = PANFROST_TABLE_ATTRIBUTE_BUFFER;
      cfg.frequency = divisor ? MALI_ATTRIBUTE_FREQUENCY_INSTANCE
                              : MALI_ATTRIBUTE_FREQUENCY_VERTEX;
      if (divisor > 1 && util_is_power_of_two_nonzero(divisor)) {
         /* element = instance >> r */
         cfg.attribute_type = MALI_ATTRIBUTE_TYPE_1D_POT_DIVISOR;
         cfg.divisor_r = util_logbase2(divisor);
      } else if (divisor > 1) {
         /* element = (instance * d) >> (32 + r): with r = floor(log2)
          * and d rounded up, d * divisor overshoots 2^(32 + r) by less
          * than divisor <= 2^(r + 1), which keeps the quotient exact for
          * every instance below 2^31 (so the extra bit stays clear).
          */
         unsigned r = util_logbase2(divisor);
         cfg.attribute_type = MALI_ATTRIBUTE_TYPE_1D_NPOT_DIVISOR;
         cfg.divisor_r = r;
         cfg.divisor_d =
            (uint32_t)(((1ull << (32 + r)) + divisor - 1) / divisor);
      }
      cfg.offset = offset_B;
      cfg.buffer_index = buffer_index;
      cfg.strided.stride = stride_B;
   }
   return true;
}

static void
emit_depth_stencil(void *cpu, const struct panfrost_zs_state *zs)
{
   const struct panfrost_zs_face *f = &zs->face[0], *b = &zs->face[1];

   pan_pack(cpu, depth_stencil, cfg)
   {
      /* PIPE_FUNC_* and the hardware's comparisons share their order. */
      cfg.depth_function = zs->depth ? zs->depth_func : MALI_FUNC_ALWAYS;
      cfg.depth_write_enable = zs->depth && zs->depth_write;
      if (zs->shader_z)
         cfg.depth_source = MALI_DEPTH_SOURCE_SHADER;
      cfg.stencil_from_shader = zs->shader_s;
      cfg.stencil_test_enable = zs->stencil;
      cfg.depth_bias_enable = zs->bias.enable;
      if (zs->bias.enable) {
         cfg.depth_units = zs->bias.units;
         cfg.depth_factor = zs->bias.factor;
         cfg.depth_bias_clamp = zs->bias.clamp;
      }
      cfg.front_compare_function = zs->stencil ? f->func : MALI_FUNC_ALWAYS;
      cfg.back_compare_function = zs->stencil ? b->func : MALI_FUNC_ALWAYS;
      if (zs->stencil) {
         cfg.front_stencil_fail = PAN_GENX(panfrost_stencil_op)(f->fail);
         cfg.front_depth_fail = PAN_GENX(panfrost_stencil_op)(f->zfail);
         cfg.front_depth_pass = PAN_GENX(panfrost_stencil_op)(f->zpass);
         cfg.back_stencil_fail = PAN_GENX(panfrost_stencil_op)(b->fail);
         cfg.back_depth_fail = PAN_GENX(panfrost_stencil_op)(b->zfail);
         cfg.back_depth_pass = PAN_GENX(panfrost_stencil_op)(b->zpass);
         cfg.front_write_mask = f->write_mask;
         cfg.back_write_mask = b->write_mask;
         cfg.front_value_mask = f->value_mask;
         cfg.back_value_mask = b->value_mask;
         cfg.front_reference_value = f->ref;
         cfg.back_reference_value = b->ref;
      } else {
         cfg.front_write_mask = cfg.back_write_mask = 0xff;
         cfg.front_value_mask = cfg.back_value_mask = 0xff;
      }
   }
}

static unsigned
index_type(unsigned size_B)
{
   switch (size_B) {
   case 1:
      return MALI_INDEX_TYPE_UINT8;
   case 2:
      return MALI_INDEX_TYPE_UINT16;
   case 4:
      return MALI_INDEX_TYPE_UINT32;
   default:
      return MALI_INDEX_TYPE_NONE;
   }
}

static void
pack_env(void *cpu, const struct panfrost_shader_env *e)
{
   pan_pack(cpu, shader_environment, cfg)
   {
      cfg.shader = e->shader;
      cfg.resources = e->resources;
      cfg.thread_storage = e->thread_storage;
      cfg.fau = e->fau;
      cfg.fau_count = e->fau_words / 2;
   }
}

static void
emit_draw_job(void *cpu, const struct panfrost_draw_job *j)
{
   bool polygon = j->mode >= PIPE_PRIM_TRIANGLES;

   pan_section_pack(cpu, malloc_vertex_job, header, cfg)
   {
      cfg.type = MALI_JOB_TYPE_MALLOC_VERTEX;
      cfg.index = j->index;
      /* Draws are shaded in order, so later ones see the tiler's state. */
      cfg.barrier = true;
   }
   pan_section_pack(cpu, malloc_vertex_job, primitive, cfg)
   {
      cfg.draw_mode = PAN_GENX(panfrost_draw_mode)(j->mode);
      cfg.index_type = index_type(j->index_size_B);
      cfg.secondary_shader = j->varying_B != 0;
      /* Outside the draw's depth range: dropped, or clamped to it. */
      cfg.low_depth_cull = j->cull_below_z;
      cfg.high_depth_cull = j->cull_above_z;
      /* Only the all-ones index restarts (PIPE_CAP_PRIMITIVE_RESTART_
       * FIXED_INDEX); the caller refuses any other.
       */
      cfg.restart.primitive_restart = j->restart
                                         ? MALI_PRIMITIVE_RESTART_IMPLICIT
                                         : MALI_PRIMITIVE_RESTART_NONE;
      cfg.base_vertex_offset = j->base_vertex;
      cfg.index_count = j->count;
      cfg.point_size_array_format = j->point_size_array
                                       ? MALI_POINT_SIZE_ARRAY_FORMAT_FP32
                                       : MALI_POINT_SIZE_ARRAY_FORMAT_NONE;
   }
   pan_section_pack(cpu, malloc_vertex_job, instance_count, cfg)
   {
      cfg.count = j->instances;
   }
   pan_section_pack(cpu, malloc_vertex_job, allocation, cfg)
   {
      /* A vertex packet holds the position (16 bytes) then the varyings;
       * 16 and 0 is how the hardware wants "no varyings".
       */
      cfg.vertex_packet_stride = j->varying_B + 16;
      cfg.vertex_attribute_stride = j->varying_B;
   }
   pan_section_pack(cpu, malloc_vertex_job, tiler, cfg)
   {
      cfg.address = j->tiler;
   }
   pan_section_pack(cpu, malloc_vertex_job, scissor, cfg)
   {
      cfg.scissor_minimum_x = j->scissor[0];
      cfg.scissor_minimum_y = j->scissor[1];
      cfg.scissor_maximum_x = j->scissor[2];
      cfg.scissor_maximum_y = j->scissor[3];
   }
   pan_section_pack(cpu, malloc_vertex_job, primitive_size, cfg)
   {
      cfg.fixed.constant = j->point_size;
   }
   pan_section_pack(cpu, malloc_vertex_job, indices, cfg)
   {
      cfg.address = j->indices;
   }
   pan_section_pack(cpu, malloc_vertex_job, draw, cfg)
   {
      cfg.front_face_ccw = j->front_ccw;
      /* Culling concerns polygons only; the hardware does not check. */
      cfg.cull_front_face = polygon && j->cull_front;
      cfg.cull_back_face = polygon && j->cull_back;
      cfg.multisample_enable = j->multisample;
      cfg.sample_mask = j->sample_mask;
      cfg.evaluate_per_sample = j->per_sample;
      cfg.alpha_to_coverage = j->alpha_to_coverage;
      cfg.single_sampled_lines = true;
      cfg.render_target_mask = j->rt_mask;
      cfg.vertex_array.packet = true;
      cfg.minimum_z = j->min_z;
      cfg.maximum_z = j->max_z;
      cfg.depth_stencil = j->depth_stencil;
      cfg.blend = j->blend;
      cfg.blend_count = j->blend_count;
      cfg.occlusion = j->occlusion;
      if (j->occlusion)
         cfg.occlusion_query = j->occlusion_counter
                                  ? MALI_OCCLUSION_MODE_COUNTER
                                  : MALI_OCCLUSION_MODE_PREDICATE;
      /* A discarding shader must run before depth is written, and one
       * storing to memory before the tests (GL runs them after it) and
       * for every fragment they let through (no forward pixel kill);
       * otherwise early depth and forward pixel kill are safe.
       */
      /* Alpha to coverage decides the coverage in the shader too. */
      /* A shader giving the depth or stencil reference (ZS_EMIT) must
       * run before the tests and the write.
       */
      bool late = j->fs_kills || j->fs_writes_memory ||
                  j->alpha_to_coverage || j->fs_writes_zs;
      cfg.pixel_kill_operation =
         late ? MALI_PIXEL_KILL_FORCE_LATE : MALI_PIXEL_KILL_WEAK_EARLY;
      cfg.zs_update_operation =
         late ? MALI_PIXEL_KILL_FORCE_LATE : MALI_PIXEL_KILL_STRONG_EARLY;
      /* Early fragment tests: before the shader, whose depth, discards
       * and stores cannot change them (failing fragments never run it).
       */
      if (j->fs_early_tests) {
         cfg.pixel_kill_operation = MALI_PIXEL_KILL_FORCE_EARLY;
         cfg.zs_update_operation = MALI_PIXEL_KILL_FORCE_EARLY;
      }
      cfg.allow_forward_pixel_to_kill = !late;
      cfg.allow_forward_pixel_to_be_killed = !j->fs_writes_memory;
      cfg.shader_modifies_coverage = j->fs_kills || j->alpha_to_coverage;
      cfg.overdraw_alpha0 = cfg.overdraw_alpha1 = false;
   }
   pack_env((uint8_t *)pan_section_ptr(cpu, malloc_vertex_job, draw) +
               pan_size(draw) - pan_size(shader_environment),
            &j->fragment);
   pack_env(pan_section_ptr(cpu, malloc_vertex_job, position), &j->position);
   if (j->varying_B)
      pack_env(pan_section_ptr(cpu, malloc_vertex_job, varying), &j->varying);
}

static void
emit_preload_draw(void *cpu, const struct panfrost_shader_env *fs,
                  uint64_t blend, unsigned blend_count, unsigned rt_mask,
                  uint64_t depth_stencil, bool per_sample)
{
   memset(cpu, 0, 3 * pan_size(draw));
   pan_pack(cpu, draw, cfg)
   {
      /* Runs first on every pixel: nothing earlier to kill, and later
       * primitives may hide it.
       */
      cfg.pixel_kill_operation =
         rt_mask ? MALI_PIXEL_KILL_FORCE_EARLY : MALI_PIXEL_KILL_FORCE_LATE;
      cfg.zs_update_operation =
         rt_mask ? MALI_PIXEL_KILL_FORCE_EARLY : MALI_PIXEL_KILL_FORCE_LATE;
      cfg.allow_forward_pixel_to_be_killed = true;
      /* A multisampled pass loads each sample with its own fetch. */
      cfg.multisample_enable = per_sample;
      cfg.evaluate_per_sample = per_sample;
      cfg.sample_mask = 0xffff;
      cfg.render_target_mask = rt_mask;
      cfg.minimum_z = 0.0f;
      cfg.maximum_z = 1.0f;
      cfg.depth_stencil = depth_stencil;
      cfg.blend = blend;
      cfg.blend_count = blend_count;
   }
   pack_env((uint8_t *)cpu + pan_size(draw) - pan_size(shader_environment),
            fs);
}

const struct panfrost_arch_draw PAN_GENX(panfrost_arch_draw) = {
   .emit_gfx_shader = emit_gfx_shader,
   .resource_size_B = pan_size(resource),
   .resource_align_B = 64, /* a table as a whole */
   .desc_size_B = pan_size(buffer),
   .emit_resource = emit_resource,
   .emit_buffer = emit_buffer,
   .emit_attribute = emit_attribute,
   .blend_size_B = pan_size(blend),
   .blend_align_B = pan_alignment(blend),
   .emit_blend = PAN_GENX(panfrost_emit_blend),
   .blend_needs_shader = PAN_GENX(panfrost_blend_needs_shader),
   .blend_shader_io = PAN_GENX(panfrost_blend_shader_io),
   .depth_stencil_size_B = pan_size(depth_stencil),
   .depth_stencil_align_B = pan_alignment(depth_stencil),
   .emit_depth_stencil = emit_depth_stencil,
   .tiler_heap_size_B = pan_size(tiler_heap),
   .tiler_context_size_B = pan_size(tiler_context),
   .tiler_align_B = pan_alignment(tiler_context),
   .emit_tiler = PAN_GENX(panfrost_emit_tiler),
   .draw_job_size_B = pan_size(malloc_vertex_job),
   .emit_draw_job = emit_draw_job,
   .frame_shaders_size_B = 3 * pan_size(draw),
   .frame_shaders_align_B = pan_alignment(draw),
   .emit_preload_draw = emit_preload_draw,
};
