/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Per-architecture job-chain walker, compiled once per PAN_ARCH.  Printing
 * uses the generated print functions; this file only knows which fields
 * are pointers, what they point to and how many elements there are.
 */

#include <inttypes.h>
#include <string.h>

#include "pan_decode_priv.h"
#include "pan_genxml.h"

static const struct pan_gx_struct_desc *
struct_desc(const char *name)
{
   for (unsigned i = 0; i < PAN_GENX(struct_desc_count); ++i) {
      if (!strcmp(PAN_GENX(struct_descs)[i].name, name))
         return &PAN_GENX(struct_descs)[i];
   }
   return NULL;
}

static void
check_struct(struct pan_decode_ctx *ctx, const char *type, const void *p,
             const char *what)
{
   const struct pan_gx_struct_desc *d = struct_desc(type);
   if (d)
      pan_decode_check_struct(ctx, d, p, what);
}

/* Check every section of a multi-struct descriptor. */
static void
check_descriptor(struct pan_decode_ctx *ctx, const char *type, const void *p)
{
   for (unsigned i = 0; i < PAN_GENX(descriptor_desc_count); ++i) {
      const struct pan_gx_descriptor_desc *d = &PAN_GENX(descriptor_descs)[i];
      if (!d->name || strcmp(d->name, type))
         continue;
      for (unsigned s = 0; s < d->section_count; ++s) {
         const struct pan_gx_section_desc *sec = &d->sections[s];
         pan_decode_check_struct(ctx, sec->layout,
                                 (const uint8_t *)p + sec->offset_B,
                                 sec->name);
      }
   }
}

/* Fetch, print and check one struct; "var" is declared and unpacked. */
#define DECODE(ctx, T, var, va, label)                                         \
   const void *var##_p_ =                                                      \
      pan_decode_fetch(ctx, va, pan_size(T), pan_alignment(T), label);         \
   struct PAN_GENX(T) var;                                                     \
   memset(&var, 0, sizeof(var));                                               \
   if (var##_p_) {                                                             \
      PAN_GENX(T##_unpack)(var##_p_, &var);                                    \
      pan_decode_log(ctx, "%s @ 0x%" PRIx64 ":", label, (uint64_t)(va));       \
      pan_print((ctx)->fp, T, var, (ctx)->indent + 2);                         \
      check_struct(ctx, #T, var##_p_, label);                                  \
   }                                                                           \
   if (var##_p_)

/* Print a multi-section descriptor already fetched. */
#define PRINT_DESCRIPTOR(ctx, D, p)                                            \
   do {                                                                        \
      PAN_GENX(D##_print)((ctx)->fp, p, (ctx)->indent);                        \
      check_descriptor(ctx, #D, p);                                            \
   } while (0)

static void
decode_local_storage(struct pan_decode_ctx *ctx, uint64_t va)
{
   if (!va || !pan_decode_push(ctx, "local storage"))
      return;
   DECODE(ctx, local_storage, ls, va, "local storage")
   {
      if (ls.tls_size && ls.tls_base_pointer)
         pan_decode_check_range(ctx, ls.tls_base_pointer, 1, "TLS");
      if (ls.wls_base_pointer)
         pan_decode_check_range(ctx, ls.wls_base_pointer, 1, "WLS");
   }
   pan_decode_pop(ctx);
}

static void
check_indices(struct pan_decode_ctx *ctx, unsigned index_type,
              uint64_t indices, uint64_t count)
{
   static const unsigned size_B[] = {0, 1, 2, 4};
   if (index_type == 0 || index_type > 3)
      return;
   if (!indices) {
      pan_decode_error(ctx, "indexed draw without an index buffer");
      return;
   }
   pan_decode_check_range(ctx, indices, count * size_B[index_type],
                          "index buffer");
}

/* ---------------------------------------------------------------------- */
/* Framebuffers                                                           */
/* ---------------------------------------------------------------------- */

#if PAN_ARCH >= 5
static void
decode_render_targets(struct pan_decode_ctx *ctx, uint64_t va, unsigned count)
{
   for (unsigned i = 0; i < count; ++i) {
      char label[32];
      snprintf(label, sizeof(label), "render target %u", i);
      DECODE(ctx, render_target, rt, va + i * pan_size(render_target), label)
      {
#if PAN_ARCH <= 7
         bool afbc =
            rt.writeback_block_format == MALI_BLOCK_FORMAT_AFBC;
         if (rt.write_enable && !rt.yuv_enable && !afbc)
            pan_decode_check_range(ctx, rt.rgb.base, 1, label);
#else
         if (rt.write_enable && !rt.yuv_enable)
            pan_decode_check_range(ctx, rt.rgb.base, 1, label);
#endif
      }
   }
}
#endif

#if PAN_ARCH >= 6
static void
decode_tiler_context(struct pan_decode_ctx *ctx, uint64_t va)
{
   if (!pan_decode_push(ctx, "tiler context"))
      return;
   DECODE(ctx, tiler_context, t, va, "tiler context")
   {
      pan_decode_check_range(ctx, t.polygon_list, 1, "polygon list");
      if (pan_decode_push(ctx, "tiler heap")) {
         DECODE(ctx, tiler_heap, h, t.heap, "tiler heap")
         {
            if (h.top < h.bottom || h.bottom < h.base)
               pan_decode_error(ctx, "tiler heap: need base <= bottom <= top");
            else
               pan_decode_check_range(ctx, h.base, h.top - h.base,
                                      "tiler heap memory");
         }
         pan_decode_pop(ctx);
      }
   }
   pan_decode_pop(ctx);
}
#endif

static void
decode_framebuffer(struct pan_decode_ctx *ctx, uint64_t tagged)
{
#if PAN_ARCH >= 5
   uint64_t va = tagged & ~(uint64_t)63;
#else
   uint64_t va = tagged;
#endif
   if (!pan_decode_push(ctx, "framebuffer"))
      return;
   const void *p = pan_decode_fetch(ctx, va, pan_size(framebuffer),
                                    pan_alignment(framebuffer), "framebuffer");
   if (!p) {
      pan_decode_pop(ctx);
      return;
   }
   pan_decode_log(ctx, "framebuffer @ 0x%" PRIx64 ":", va);
   PRINT_DESCRIPTOR(ctx, framebuffer, p);

   pan_section_unpack(p, framebuffer, parameters, params);
#if PAN_ARCH == 4
   pan_section_unpack(p, framebuffer, tiler, tiler);
   pan_decode_check_range(ctx, tiler.polygon_list, 1, "polygon list");
   if (tiler.heap_end < tiler.heap_start)
      pan_decode_error(ctx, "tiler heap ends before it starts");
   (void)params;
#else
#if PAN_ARCH == 5
   pan_section_unpack(p, framebuffer, tiler, tiler);
   pan_decode_check_range(ctx, tiler.polygon_list, 1, "polygon list");
   if (!(tagged & MALI_FBD_TAG_IS_MFBD))
      pan_decode_error(ctx, "framebuffer pointer lacks the MFBD tag");
#else
   /* A pass without geometry (only clears) has no tiler context. */
   if (params.tiler)
      decode_tiler_context(ctx, params.tiler);
   else
      pan_decode_log(ctx, "no tiler context: the pass has no geometry");
   if (params.sample_locations)
      pan_decode_check_range(ctx, params.sample_locations, 4,
                             "sample locations");
#endif
   uint64_t next = va + pan_size(framebuffer);
   if (params.has_zs_crc_extension) {
      if (!(tagged & MALI_FBD_TAG_HAS_ZS_RT))
         pan_decode_error(ctx, "ZS/CRC extension present but untagged");
      DECODE(ctx, zs_crc_extension, zs, next, "ZS/CRC extension") {}
      next += pan_size(zs_crc_extension);
   }
   ctx->rt_count = params.render_target_count;
   decode_render_targets(ctx, next, params.render_target_count);
#endif
   pan_decode_pop(ctx);
}

/* ---------------------------------------------------------------------- */
/* Midgard / Bifrost draws                                                */
/* ---------------------------------------------------------------------- */

#if PAN_ARCH <= 7
static void
decode_attributes(struct pan_decode_ctx *ctx, uint64_t attr_va,
                  uint64_t buf_va, unsigned count, const char *what)
{
   unsigned nbufs = 0;
   char label[48];

   if (!count || !attr_va)
      return;
   if (count > ctx->lim.max_array)
      count = ctx->lim.max_array;
   for (unsigned i = 0; i < count; ++i) {
      snprintf(label, sizeof(label), "%s %u", what, i);
      DECODE(ctx, attribute, a, attr_va + i * pan_size(attribute), label)
      {
         if (a.buffer_index + 1 > nbufs)
            nbufs = a.buffer_index + 1;
      }
   }
   if (nbufs > ctx->lim.max_array)
      nbufs = ctx->lim.max_array;
   for (unsigned i = 0; i < nbufs; ++i) {
      uint64_t va = buf_va + i * pan_size(attribute_buffer);
      snprintf(label, sizeof(label), "%s buffer %u", what, i);
      DECODE(ctx, attribute_buffer, b, va, label)
      {
         if (b.address && b.size)
            pan_decode_check_range(ctx, b.address, b.size, label);
         /* Some kinds take a second record describing the divisor or the
          * 3D layout. */
         va += pan_size(attribute_buffer);
         if (b.type == MALI_ATTRIBUTE_TYPE_1D_NPOT_DIVISOR ||
             b.type == MALI_ATTRIBUTE_TYPE_1D_NPOT_DIVISOR_WRITE_REDUCTION) {
            DECODE(ctx, attribute_buffer_continuation_npot, c, va,
                   "continuation") {}
            i++;
         } else if (b.type == MALI_ATTRIBUTE_TYPE_3D_LINEAR ||
                    b.type == MALI_ATTRIBUTE_TYPE_3D_INTERLEAVED) {
            DECODE(ctx, attribute_buffer_continuation_3d, c, va,
                   "continuation") {}
            i++;
         }
      }
   }
}

static void
decode_texture(struct pan_decode_ctx *ctx, uint64_t va, const char *label)
{
   DECODE(ctx, texture, t, va, label)
   {
      unsigned faces = t.dimension == MALI_TEXTURE_DIMENSION_CUBE ? 6 : 1;
      uint64_t n = (uint64_t)t.levels * t.array_size * faces;
      if (n > ctx->lim.max_array)
         n = ctx->lim.max_array;
#if PAN_ARCH <= 5
      /* Midgard: the surface pointers follow the descriptor. */
      unsigned stride = t.manual_stride ? 16 : 8;
      uint64_t surf = va + pan_size(texture);
#else
      unsigned stride = pan_size(surface_with_stride);
      uint64_t surf = t.surfaces;
#endif
      for (uint64_t i = 0; i < n; ++i) {
         char sl[48];
         snprintf(sl, sizeof(sl), "surface %" PRIu64, i);
         DECODE(ctx, surface_with_stride, s, surf + i * stride, sl)
         {
            pan_decode_check_range(ctx, s.address, 1, sl);
         }
#if PAN_ARCH <= 5
         if (!t.manual_stride)
            break; /* 8-byte entries: only the first is shown */
#endif
      }
   }
}

static void
decode_textures(struct pan_decode_ctx *ctx, uint64_t va, unsigned count)
{
   if (!va || !count || !pan_decode_push(ctx, "textures"))
      return;
   if (count > ctx->lim.max_array)
      count = ctx->lim.max_array;
   for (unsigned i = 0; i < count; ++i) {
      char label[32];
      snprintf(label, sizeof(label), "texture %u", i);
#if PAN_ARCH <= 5
      /* Midgard: an array of pointers to texture descriptors. */
      const uint64_t *ptr = pan_decode_fetch(ctx, va + 8 * i, 8, 8,
                                             "texture pointer");
      if (!ptr)
         break;
      uint64_t tex;
      memcpy(&tex, ptr, 8);
      decode_texture(ctx, tex, label);
#else
      decode_texture(ctx, va + i * pan_size(texture), label);
#endif
   }
   pan_decode_pop(ctx);
}

static void
decode_array_of_samplers(struct pan_decode_ctx *ctx, uint64_t va,
                         unsigned count)
{
   if (count > ctx->lim.max_array)
      count = ctx->lim.max_array;
   for (unsigned i = 0; i < count && va; ++i) {
      char label[32];
      snprintf(label, sizeof(label), "sampler %u", i);
      DECODE(ctx, sampler, s, va + i * pan_size(sampler), label) {}
   }
}

static void
decode_ubos(struct pan_decode_ctx *ctx, uint64_t va, unsigned count)
{
   if (count > ctx->lim.max_array)
      count = ctx->lim.max_array;
   for (unsigned i = 0; i < count && va; ++i) {
      char label[32];
      snprintf(label, sizeof(label), "uniform buffer %u", i);
      DECODE(ctx, uniform_buffer, u, va + i * pan_size(uniform_buffer), label)
      {
         if (u.address)
            pan_decode_check_range(ctx, u.address, (uint64_t)u.entries * 16,
                                   label);
      }
   }
}

#if PAN_ARCH >= 5
static void
decode_blends(struct pan_decode_ctx *ctx, uint64_t va, unsigned count)
{
   for (unsigned i = 0; i < count; ++i) {
      char label[32];
      snprintf(label, sizeof(label), "blend %u", i);
      DECODE(ctx, blend, b, va + i * pan_size(blend), label)
      {
#if PAN_ARCH <= 5
         if (b.blend_shader)
            pan_decode_shader(ctx, b.shader.pc & ~(uint64_t)15,
                              "blend shader");
#endif
      }
   }
}
#endif

struct shader_counts {
   unsigned attributes, varyings, textures, samplers, ubos, push_B;
};

static void
decode_renderer_state(struct pan_decode_ctx *ctx, uint64_t va, bool fragment,
                      struct shader_counts *n)
{
   if (!pan_decode_push(ctx, "renderer state"))
      return;
   DECODE(ctx, renderer_state, rs, va, "renderer state")
   {
      n->attributes = rs.shader.attribute_count;
      n->varyings = rs.shader.varying_count;
      n->textures = rs.shader.texture_count;
      n->samplers = rs.shader.sampler_count;
      n->ubos = rs.properties.uniform_buffer_count;
#if PAN_ARCH <= 5
      n->push_B = rs.properties.uniform_count * 16;
      pan_decode_shader(ctx, rs.shader.shader & ~(uint64_t)15, "shader");
#else
      n->push_B = rs.preload.uniform_count * 8;
      pan_decode_shader(ctx, rs.shader.shader, "shader");
#endif
#if PAN_ARCH >= 5
      /* Blend descriptors follow the renderer state of fragment work. */
      if (fragment)
         decode_blends(ctx, va + pan_size(renderer_state), ctx->rt_count);
#endif
   }
   pan_decode_pop(ctx);
}

static void
decode_draw(struct pan_decode_ctx *ctx, const void *packed, bool fragment,
            bool graphics)
{
   struct shader_counts n = {0};
   pan_unpack(packed, draw, d);

   if (!pan_decode_push(ctx, "draw"))
      return;
   if (d.state)
      decode_renderer_state(ctx, d.state, fragment, &n);
   else
      pan_decode_error(ctx, "draw without a renderer state");

   decode_attributes(ctx, d.attributes, d.attribute_buffers, n.attributes,
                     "attribute");
   decode_attributes(ctx, d.varyings, d.varying_buffers, n.varyings,
                     "varying");
   decode_textures(ctx, d.textures, n.textures);
   decode_array_of_samplers(ctx, d.samplers, n.samplers);
   decode_ubos(ctx, d.uniform_buffers, n.ubos);
   if (n.push_B) {
      const void *p = pan_decode_fetch(ctx, d.push_uniforms, n.push_B, 8,
                                       "push uniforms");
      if (p) {
         pan_decode_log(ctx, "push uniforms @ 0x%" PRIx64 ":",
                        d.push_uniforms);
         pan_decode_hexdump(ctx, p, n.push_B);
      }
   }
   if (graphics && d.viewport) {
      DECODE(ctx, viewport, vp, d.viewport, "viewport") {}
   }
   if (d.occlusion)
      pan_decode_check_range(ctx, d.occlusion, 8, "occlusion query");
   if (d.position)
      pan_decode_check_range(ctx, d.position, 16, "position");
#if PAN_ARCH <= 5
   /* The shared-memory slot: the framebuffer for graphics, whose first
    * section is the local storage. */
   decode_local_storage(ctx, d.compute.thread_storage & ~(uint64_t)63);
#else
   decode_local_storage(ctx, d.thread_storage);
#endif
   pan_decode_pop(ctx);
}
#endif /* PAN_ARCH <= 7 */

/* ---------------------------------------------------------------------- */
/* Valhall                                                                */
/* ---------------------------------------------------------------------- */

#if PAN_ARCH >= 9
/* One 32-byte entry of a resource table, dispatched on its type nibble. */
static void
decode_resource_entry(struct pan_decode_ctx *ctx, uint64_t va,
                      const char *label)
{
   const uint8_t *p = pan_decode_fetch(ctx, va, 32, 32, label);
   if (!p)
      return;
   switch (p[0] & 0xf) {
   case 0:
      pan_decode_log(ctx, "%s @ 0x%" PRIx64 ": (empty)", label, va);
      break;
#define ENTRY(T, V)                                                            \
   case MALI_DESCRIPTOR_TYPE_##V: {                                            \
      DECODE(ctx, T, d, va, label) {}                                          \
      break;                                                                   \
   }
      ENTRY(sampler, SAMPLER)
      ENTRY(attribute, ATTRIBUTE)
      ENTRY(depth_stencil, DEPTH_STENCIL)
      ENTRY(shader_program, SHADER)
      ENTRY(plane, PLANE)
#undef ENTRY
   case MALI_DESCRIPTOR_TYPE_BUFFER: {
      DECODE(ctx, buffer, b, va, label)
      {
         if (b.address && b.size)
            pan_decode_check_range(ctx, b.address, b.size, label);
      }
      break;
   }
   case MALI_DESCRIPTOR_TYPE_TEXTURE: {
      DECODE(ctx, texture, t, va, label)
      {
         unsigned faces = t.dimension == MALI_TEXTURE_DIMENSION_CUBE ? 6 : 1;
         uint64_t planes = (uint64_t)t.levels * t.array_size * faces;
         if (planes > ctx->lim.max_array)
            planes = ctx->lim.max_array;
         if (pan_decode_push(ctx, "planes")) {
            for (uint64_t i = 0; i < planes; ++i) {
               char pl[32];
               snprintf(pl, sizeof(pl), "plane %" PRIu64, i);
               DECODE(ctx, plane, pd, t.surfaces + i * pan_size(plane), pl)
               {
                  pan_decode_check_range(ctx, pd.address, pd.size, pl);
               }
            }
            pan_decode_pop(ctx);
         }
      }
      break;
   }
   default:
      pan_decode_error(ctx, "%s: unknown descriptor type %u", label,
                       p[0] & 0xf);
      break;
   }
}

static void
decode_resources(struct pan_decode_ctx *ctx, uint64_t tagged)
{
   /* The low 6 bits count the tables; the array is 64-byte aligned. */
   uint64_t va = tagged & ~(uint64_t)63;
   unsigned tables = tagged & 63;

   if (!pan_decode_push(ctx, "resource tables"))
      return;
   for (unsigned t = 0; t < tables; ++t) {
      char label[48];
      snprintf(label, sizeof(label), "resource table %u", t);
      DECODE(ctx, resource, r, va + t * pan_size(resource), label)
      {
         uint64_t n = r.size / 32;
         if (r.size % 32)
            pan_decode_error(ctx, "%s: size %" PRIu64
                             " is not a whole number of descriptors",
                             label, (uint64_t)r.size);
         if (n > ctx->lim.max_array)
            n = ctx->lim.max_array;
         if (r.address && pan_decode_push(ctx, label)) {
            for (uint64_t i = 0; i < n && !ctx->exhausted; ++i) {
               char el[48];
               snprintf(el, sizeof(el), "table %u entry %" PRIu64, t, i);
               decode_resource_entry(ctx, r.address + 32 * i, el);
            }
            pan_decode_pop(ctx);
         }
      }
   }
   pan_decode_pop(ctx);
}

static void
decode_shader_env(struct pan_decode_ctx *ctx, const void *packed,
                  const char *stage)
{
   pan_unpack(packed, shader_environment, env);

   if (!env.shader)
      return;
   pan_decode_log(ctx, "%s shader environment:", stage);
   if (!pan_decode_push(ctx, stage))
      return;
   DECODE(ctx, shader_program, sp, env.shader, "shader program")
   {
      if (sp.type != MALI_DESCRIPTOR_TYPE_SHADER)
         pan_decode_error(ctx, "shader program has descriptor type %u",
                          sp.type);
      pan_decode_shader(ctx, sp.binary, "shader");
   }
   if (env.resources)
      decode_resources(ctx, env.resources);
   decode_local_storage(ctx, env.thread_storage);
   if (env.fau && env.fau_count) {
      const void *p = pan_decode_fetch(ctx, env.fau, env.fau_count * 8, 8,
                                       "FAU");
      if (p) {
         pan_decode_log(ctx, "FAU @ 0x%" PRIx64 ":", env.fau);
         pan_decode_hexdump(ctx, p, env.fau_count * 8);
      }
   }
   pan_decode_pop(ctx);
}

static void
decode_v9_draw(struct pan_decode_ctx *ctx, const void *packed)
{
   pan_unpack(packed, draw, d);

   if (!pan_decode_push(ctx, "draw"))
      return;
   if (d.depth_stencil) {
      DECODE(ctx, depth_stencil, ds, d.depth_stencil, "depth/stencil") {}
   }
   for (unsigned i = 0; i < d.blend_count && d.blend; ++i) {
      char label[32];
      snprintf(label, sizeof(label), "blend %u", i);
      DECODE(ctx, blend, b, d.blend + i * pan_size(blend), label) {}
   }
   if (d.occlusion)
      pan_decode_check_range(ctx, d.occlusion, 8, "occlusion query");
   /* The shader environment is the struct at word 16. */
   decode_shader_env(ctx, (const uint8_t *)packed + 64, "fragment");
   pan_decode_pop(ctx);
}

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
   decode_tiler_context(ctx, tp.address);
   decode_v9_draw(ctx, pan_section_ptr(p, tiler_job, draw));
   if (malloc_vertex) {
      decode_shader_env(ctx, pan_section_ptr(p, malloc_vertex_job, position),
                        "position");
      decode_shader_env(ctx, pan_section_ptr(p, malloc_vertex_job, varying),
                        "varying");
   }
}
#endif /* PAN_ARCH >= 9 */

/* ---------------------------------------------------------------------- */
/* Jobs                                                                   */
/* ---------------------------------------------------------------------- */

static void
check_write_value(struct pan_decode_ctx *ctx, const void *payload)
{
   pan_unpack(payload, write_value_job_payload, wv);
   unsigned size_B = 8;

#if PAN_ARCH >= 6
   switch (wv.type) {
   case MALI_WRITE_VALUE_TYPE_IMMEDIATE_8: size_B = 1; break;
   case MALI_WRITE_VALUE_TYPE_IMMEDIATE_16: size_B = 2; break;
   case MALI_WRITE_VALUE_TYPE_IMMEDIATE_32: size_B = 4; break;
   default: break;
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

static void
decode_job(struct pan_decode_ctx *ctx, uint64_t va, unsigned type)
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
         if (fp.bound_max_x < fp.bound_min_x ||
             fp.bound_max_y < fp.bound_min_y)
            pan_decode_error(ctx, "fragment job: empty tile bounds");
         decode_framebuffer(ctx, fp.framebuffer);
      }
      break;
   }
#if PAN_ARCH <= 7
   case MALI_JOB_TYPE_COMPUTE:
   case MALI_JOB_TYPE_VERTEX: {
      JOB(ctx, compute_job, va, p)
      decode_draw(ctx, pan_section_ptr(p, compute_job, draw), false,
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
         decode_tiler_context(ctx, tp.address);
#endif
         decode_draw(ctx, pan_section_ptr(p, tiler_job, draw), true, true);
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
         decode_tiler_context(ctx, tp.address);
         decode_draw(ctx, pan_section_ptr(p, indexed_vertex_job, vertex_draw),
                     false, true);
         decode_draw(ctx,
                     pan_section_ptr(p, indexed_vertex_job, fragment_draw),
                     true, true);
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
         decode_shader_env(
            ctx, (const uint8_t *)pan_section_ptr(p, compute_job, payload) + 32,
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

void
PAN_GENX(decode_jc)(struct pan_decode_ctx *ctx, uint64_t jc)
{
   uint64_t va = jc;

   while (va && !ctx->exhausted) {
      const void *h = pan_decode_fetch(ctx, va, pan_size(job_header),
                                       pan_alignment(job_header),
                                       "job header");
      if (!h)
         break;
      pan_unpack(h, job_header, hdr);
      if (!pan_decode_note_job(ctx, va, hdr.index, hdr.dependency_1,
                               hdr.dependency_2))
         break;
      ctx->stats.jobs++;

      const char *name = PAN_GENX(job_type_name)(hdr.type);
      pan_decode_log(ctx, "job %u @ 0x%" PRIx64 ": %s", hdr.index, va,
                     name ? name : "?");
#if PAN_ARCH <= 7
      if (!hdr.is_64b)
         pan_decode_error(ctx, "32-bit job descriptors are not supported");
#endif
      ctx->indent += 2;
      ctx->depth = 0;
      decode_job(ctx, va, hdr.type);
      ctx->indent -= 2;
      va = hdr.next;
   }
}
