/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Jobs of one architecture (compiled once per PAN_ARCH): the table-driven
 * struct checks, and the dispatch of one job by type to the framebuffer
 * and draw decoders. The chain itself is walked by the shared walker
 * (src/panfrost/sim/pan_sim_chain.h), from pan_decode_common.c. */

#include "pan_decode_arch.h"

static const struct pan_gx_struct_desc *
struct_desc(const char *name)
{
   for (unsigned i = 0; i < PAN_GENX(struct_desc_count); ++i) {
      if (!strcmp(PAN_GENX(struct_descs)[i].name, name))
         return &PAN_GENX(struct_descs)[i];
   }
   return NULL;
}

void
PAN_GENX(decode_check_type)(struct pan_decode_ctx *ctx, const char *type,
                            const void *p, const char *what)
{
   const struct pan_gx_struct_desc *d = struct_desc(type);
   if (d)
      pan_decode_check_struct(ctx, d, p, what);
}

/* Check every section of a multi-struct descriptor. */
void
PAN_GENX(decode_check_descriptor)(struct pan_decode_ctx *ctx, const char *type,
                                  const void *p)
{
   for (unsigned i = 0; i < PAN_GENX(descriptor_desc_count); ++i) {
      const struct pan_gx_descriptor_desc *d = &PAN_GENX(descriptor_descs)[i];
      if (!d->name || strcmp(d->name, type))
         continue;
      for (unsigned s = 0; s < d->section_count; ++s) {
         const struct pan_gx_section_desc *sec = &d->sections[s];
         pan_decode_check_struct(ctx, sec->layout,
                                 (const uint8_t *)p + sec->offset_B, sec->name);
      }
   }
}

static void
check_indices(struct pan_decode_ctx *ctx, unsigned index_type, uint64_t indices,
              uint64_t count)
{
   static const unsigned size_B[] = { 0, 1, 2, 4 };
   if (index_type == 0 || index_type > 3)
      return;
   if (!indices) {
      pan_decode_error(ctx, "indexed draw without an index buffer");
      return;
   }
   pan_decode_check_range(ctx, indices, count * size_B[index_type],
                          "index buffer");
}

#if PAN_ARCH >= 9
static void
decode_v9_idvs(struct pan_decode_ctx *ctx, const void *p, bool malloc_vertex)
{
   /* Both IDVS layouts share the offsets of these sections. */
   pan_section_unpack(p, tiler_job, primitive, prim);
   pan_section_unpack(p, tiler_job, tiler, tp);
   pan_section_unpack(p, tiler_job, indices, idx);
   pan_section_unpack(p, tiler_job, instance_count, ic);

   (void)ic;
   check_indices(ctx, prim.index_type, idx.address, prim.index_count);
   PAN_GENX(decode_tiler_context)(ctx, tp.address);
   PAN_GENX(decode_v9_draw)(ctx, pan_section_ptr(p, tiler_job, draw));
   if (malloc_vertex) {
      PAN_GENX(decode_shader_env)
      (ctx, pan_section_ptr(p, malloc_vertex_job, position), "position");
      PAN_GENX(decode_shader_env)
      (ctx, pan_section_ptr(p, malloc_vertex_job, varying), "varying");
   }
}
#endif

static void
check_write_value(struct pan_decode_ctx *ctx, const void *payload)
{
   pan_unpack(payload, write_value_job_payload, wv);
   unsigned size_B = 8;

#if PAN_ARCH >= 6
   switch (wv.type) {
   case MALI_WRITE_VALUE_TYPE_IMMEDIATE_8:
      size_B = 1;
      break;
   case MALI_WRITE_VALUE_TYPE_IMMEDIATE_16:
      size_B = 2;
      break;
   case MALI_WRITE_VALUE_TYPE_IMMEDIATE_32:
      size_B = 4;
      break;
   default:
      break;
   }
#endif
   if (wv.address & (size_B - 1))
      pan_decode_error(ctx, "write-value target is not %u-byte aligned",
                       size_B);
   pan_decode_check_range(ctx, wv.address, size_B, "write-value target");
}

/* Fetch the whole descriptor of a job, print it and check its sections. */
#define JOB(ctx, D, va, p)                                                     \
   const void *p = pan_decode_fetch(ctx, va, pan_size(D), 0, #D);              \
   if (p)                                                                      \
      PRINT_DESCRIPTOR(ctx, D, p);                                             \
   if (p)

void
PAN_GENX(decode_job)(struct pan_decode_ctx *ctx, uint64_t va, unsigned type)
{
   switch (type) {
   case MALI_JOB_TYPE_NULL:
      break;
   case MALI_JOB_TYPE_WRITE_VALUE: {
      JOB(ctx, write_value_job, va, p)
      check_write_value(ctx, pan_section_ptr(p, write_value_job, payload));
      break;
   }
   case MALI_JOB_TYPE_CACHE_FLUSH: {
      JOB(ctx, cache_flush_job, va, p) {}
      break;
   }
   case MALI_JOB_TYPE_FRAGMENT: {
      JOB(ctx, fragment_job, va, p)
      {
         pan_section_unpack(p, fragment_job, payload, fp);
         if (fp.bound_max_x < fp.bound_min_x || fp.bound_max_y < fp.bound_min_y)
            pan_decode_error(ctx, "fragment job: empty tile bounds");
         PAN_GENX(decode_framebuffer)(ctx, fp.framebuffer);
      }
      break;
   }
#if PAN_ARCH <= 7
   case MALI_JOB_TYPE_COMPUTE:
   case MALI_JOB_TYPE_VERTEX: {
      JOB(ctx, compute_job, va, p)
      PAN_GENX(decode_draw)
      (ctx, pan_section_ptr(p, compute_job, draw), false,
       type == MALI_JOB_TYPE_VERTEX);
      break;
   }
   case MALI_JOB_TYPE_TILER: {
      JOB(ctx, tiler_job, va, p)
      {
         pan_section_unpack(p, tiler_job, primitive, prim);
         check_indices(ctx, prim.index_type, prim.indices, prim.index_count);
#if PAN_ARCH >= 6
         pan_section_unpack(p, tiler_job, tiler, tp);
         PAN_GENX(decode_tiler_context)(ctx, tp.address);
#endif
         PAN_GENX(decode_draw)
         (ctx, pan_section_ptr(p, tiler_job, draw), true, true);
      }
      break;
   }
#if PAN_ARCH >= 6
   case MALI_JOB_TYPE_INDEXED_VERTEX: {
      JOB(ctx, indexed_vertex_job, va, p)
      {
         pan_section_unpack(p, indexed_vertex_job, primitive, prim);
         check_indices(ctx, prim.index_type, prim.indices, prim.index_count);
         pan_section_unpack(p, indexed_vertex_job, tiler, tp);
         PAN_GENX(decode_tiler_context)(ctx, tp.address);
         PAN_GENX(decode_draw)
         (ctx, pan_section_ptr(p, indexed_vertex_job, vertex_draw), false,
          true);
         PAN_GENX(decode_draw)
         (ctx, pan_section_ptr(p, indexed_vertex_job, fragment_draw), true,
          true);
      }
      break;
   }
#endif
#else
   case MALI_JOB_TYPE_COMPUTE: {
      JOB(ctx, compute_job, va, p)
      {
         pan_section_unpack(p, compute_job, payload, cp);
         if (!cp.workgroup_count_x || !cp.workgroup_count_y ||
             !cp.workgroup_count_z)
            pan_decode_error(ctx, "compute job with no workgroups");
         PAN_GENX(decode_shader_env)
         (ctx, (const uint8_t *)pan_section_ptr(p, compute_job, payload) + 32,
          "compute");
      }
      break;
   }
   case MALI_JOB_TYPE_TILER: {
      JOB(ctx, tiler_job, va, p)
      decode_v9_idvs(ctx, p, false);
      break;
   }
   case MALI_JOB_TYPE_MALLOC_VERTEX: {
      JOB(ctx, malloc_vertex_job, va, p)
      decode_v9_idvs(ctx, p, true);
      break;
   }
#endif
   default:
      pan_decode_error(ctx, "job type %u cannot be decoded on v%d", type,
                       PAN_ARCH);
      break;
   }
}
