/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Draw state of one architecture (compiled once per PAN_ARCH): renderer
 * state, attributes, textures, samplers, uniform buffers and blend
 * descriptors up to v7; resource tables and shader environments on
 * Valhall; thread storage on all. */

#include "pan_decode_arch.h"

void
PAN_GENX(decode_local_storage)(struct pan_decode_ctx *ctx, uint64_t va)
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

#if PAN_ARCH <= 7
static void
decode_attributes(struct pan_decode_ctx *ctx, uint64_t attr_va, uint64_t buf_va,
                  unsigned count, const char *what)
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
   /* The table is aligned as the XML says; its records follow each other
    * every 16 bytes, and only those taking a continuation start a pair. */
   if (nbufs && buf_va % pan_alignment(attribute_buffer))
      pan_decode_error(ctx, "%s buffers at 0x%" PRIx64 " are not %u-byte "
                       "aligned", what, buf_va,
                       (unsigned)pan_alignment(attribute_buffer));
   for (unsigned i = 0; i < nbufs; ++i) {
      uint64_t va = buf_va + i * pan_size(attribute_buffer);
      snprintf(label, sizeof(label), "%s buffer %u", what, i);
      DECODE_ALIGNED(ctx, attribute_buffer, b, va, pan_size(attribute_buffer),
                     label)
      {
         if ((b.type == MALI_ATTRIBUTE_TYPE_1D_NPOT_DIVISOR ||
              b.type == MALI_ATTRIBUTE_TYPE_1D_NPOT_DIVISOR_WRITE_REDUCTION ||
              b.type == MALI_ATTRIBUTE_TYPE_3D_LINEAR ||
              b.type == MALI_ATTRIBUTE_TYPE_3D_INTERLEAVED) &&
             va % (2 * pan_size(attribute_buffer)))
            pan_decode_error(ctx, "%s: a record with a continuation at an "
                             "odd index", label);
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
            DECODE(ctx, attribute_buffer_continuation_3d, c, va, "continuation") {}
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
      if (PAN_ARCH <= 5) {
         /* Midgard: an array of pointers to texture descriptors. */
         const uint64_t *ptr =
            pan_decode_fetch(ctx, va + 8 * i, 8, 8, "texture pointer");
         if (!ptr)
            break;
         uint64_t tex;
         memcpy(&tex, ptr, 8);
         decode_texture(ctx, tex, label);
      } else {
         decode_texture(ctx, va + i * pan_size(texture), label);
      }
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
            pan_decode_shader(ctx, b.shader.pc & ~(uint64_t)15, "blend shader");
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
#else
      n->push_B = rs.preload.uniform_count * 8;
#endif
      /* Midgard keeps the first instruction's tag in the low bits. */
      pan_decode_shader(ctx,
                        PAN_ARCH <= 5 ? rs.shader.shader & ~(uint64_t)15
                                      : rs.shader.shader,
                        "shader");
#if PAN_ARCH >= 5
      /* Blend descriptors follow the renderer state of fragment work. */
      if (fragment)
         decode_blends(ctx, va + pan_size(renderer_state), ctx->rt_count);
#endif
   }
   pan_decode_pop(ctx);
}

void
PAN_GENX(decode_draw)(struct pan_decode_ctx *ctx, const void *packed,
                      bool fragment, bool graphics)
{
   struct shader_counts n = { 0 };
   pan_unpack(packed, draw, d);

   if (!pan_decode_push(ctx, "draw"))
      return;
   if (d.state)
      decode_renderer_state(ctx, d.state, fragment, &n);
   else
      pan_decode_error(ctx, "draw without a renderer state");

   decode_attributes(ctx, d.attributes, d.attribute_buffers, n.attributes,
                     "attribute");
   decode_attributes(ctx, d.varyings, d.varying_buffers, n.varyings, "varying");
   decode_textures(ctx, d.textures, n.textures);
   decode_array_of_samplers(ctx, d.samplers, n.samplers);
   decode_ubos(ctx, d.uniform_buffers, n.ubos);
   if (n.push_B) {
      const void *p =
         pan_decode_fetch(ctx, d.push_uniforms, n.push_B, 8, "push uniforms");
      if (p) {
         pan_decode_log(ctx, "push uniforms @ 0x%" PRIx64 ":", d.push_uniforms);
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
   PAN_GENX(decode_local_storage)
   (ctx, d.compute.thread_storage & ~(uint64_t)63);
#else
   PAN_GENX(decode_local_storage)(ctx, d.thread_storage);
#endif
   pan_decode_pop(ctx);
}
#endif /* PAN_ARCH <= 7 */

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
            pan_decode_error(
               ctx, "%s: size %" PRIu64 " is not a whole number of descriptors",
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

void
PAN_GENX(decode_shader_env)(struct pan_decode_ctx *ctx, const void *packed,
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
   PAN_GENX(decode_local_storage)(ctx, env.thread_storage);
   if (env.fau && env.fau_count) {
      const void *p =
         pan_decode_fetch(ctx, env.fau, env.fau_count * 8, 8, "FAU");
      if (p) {
         pan_decode_log(ctx, "FAU @ 0x%" PRIx64 ":", env.fau);
         pan_decode_hexdump(ctx, p, env.fau_count * 8);
      }
   }
   pan_decode_pop(ctx);
}

void
PAN_GENX(decode_v9_draw)(struct pan_decode_ctx *ctx, const void *packed)
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
   PAN_GENX(decode_shader_env)(ctx, (const uint8_t *)packed + 64, "fragment");
   pan_decode_pop(ctx);
}

#endif /* PAN_ARCH >= 9 */
