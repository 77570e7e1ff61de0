/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Per-architecture half of the chain oracle (built once per PAN_ARCH):
 * walks a synthetic frame with our unpackers and lists key descriptor
 * fields -- framebuffer and render target, tiler context, textures,
 * samplers, attribute buffers, shader pointers -- as the stock decoder
 * should print them.  Only descriptors the stock decoder actually visits
 * are listed, under the headings it prints them with.
 */
#include <stdio.h>

#include "oracle_chain_expect.h"
#include "pan_genxml.h"

#if PAN_ARCH <= 6
#define FORMAT_LABEL "Format (v6)"
#else
#define FORMAT_LABEL "Format (v7)"
#endif

#define NAME(e, v) (PAN_GENX(e##_name)(v) ? PAN_GENX(e##_name)(v) : "?")

struct walk {
   const struct pan_dump *d;
   struct oracle_expects *x;
   unsigned missing;
};

/* Descriptor bytes, or NULL (counted: the walker must not lose its way). */
static const void *
at(struct walk *w, uint64_t va, unsigned size_B)
{
   const void *p = oracle_dump_cpu(w->d, va, size_B);
   if (!p) {
      fprintf(stderr, "expect: 0x%llx is not in the dump\n",
              (unsigned long long)va);
      w->missing++;
   }
   return p;
}

/* A 22-bit pixel format word in the stock spelling: format name, flags,
 * then the swizzle (v4-v6) or component order (v7+). */
static void
pixel_format_text(char *buf, size_t n, uint32_t word)
{
   struct PAN_GENX(pixel_format) pf;
   PAN_GENX(pixel_format_unpack)(&word, &pf);
#if PAN_ARCH <= 6
   snprintf(buf, n, "%s%s%s %s%s%s%s", NAME(format, pf.format),
            pf.srgb ? " srgb" : "", pf.big_endian ? " big-endian" : "",
            NAME(channel, pf.swizzle.r), NAME(channel, pf.swizzle.g),
            NAME(channel, pf.swizzle.b), NAME(channel, pf.swizzle.a));
#else
   snprintf(buf, n, "%s%s %s", NAME(format, pf.format), pf.srgb ? " srgb" : "",
            NAME(rgb_component_order, pf.order));
#endif
}

static const char *
bool_text(bool b)
{
   return b ? "true" : "false";
}

#if PAN_ARCH >= 5
static void
expect_render_targets(struct walk *w, uint64_t va, unsigned count)
{
   static const char rt[] = "Color Render Targets:/Color Render Target 0:";
   static const char rgb[] =
      "Color Render Targets:/Color Render Target 0:/RGB:";
   const void *p = at(w, va, pan_size(render_target));
   if (!p || count == 0)
      return;
   pan_unpack(p, render_target, r);
   oracle_expect(w->x, rt, "Internal Format", "%s",
                 NAME(color_buffer_internal_format, r.internal_format));
   oracle_expect(w->x, rt, "Writeback Format", "%s",
                 NAME(color_format, r.writeback_format));
   oracle_expect(w->x, rt, "Writeback Block Format", "%s",
                 NAME(block_format, r.writeback_block_format));
   oracle_expect(w->x, rt, "Write Enable", "%s", bool_text(r.write_enable));
   oracle_expect(w->x, rgb, "Base", "0x%llx", (unsigned long long)r.rgb.base);
   oracle_expect(w->x, rgb, "Row Stride", "%u", r.rgb.row_stride_B);
}
#endif

/* The framebuffer descriptor; with_rts when the stock decoder follows it
 * from a fragment job (it prints render targets only then). */
static void
expect_framebuffer(struct walk *w, uint64_t tagged, bool with_rts)
{
   static const char params[] = "Framebuffer:/Parameters:";
#if PAN_ARCH == 4
   const void *p = at(w, tagged, pan_size(framebuffer));
   if (!p)
      return;
   pan_section_unpack(p, framebuffer, parameters, fb);
   oracle_expect(w->x, params, "Bound Max X", "%u", fb.bound_max_x);
   oracle_expect(w->x, params, "Bound Max Y", "%u", fb.bound_max_y);
   oracle_expect(w->x, params, "Internal Format", "%s",
                 NAME(color_buffer_internal_format, fb.internal_format));
   oracle_expect(w->x, params, "Color Writeback Format", "%s",
                 NAME(color_format, fb.color_writeback_format));
   oracle_expect(w->x, "Framebuffer:/Parameters:/Color Writeback:", "Base",
                 "0x%llx", (unsigned long long)fb.color_writeback.base);
   oracle_expect(w->x,
                 "Framebuffer:/Parameters:/Color Writeback:", "Row Stride",
                 "%u", fb.color_writeback.row_stride_B);
   (void)with_rts;
#else
   uint64_t va = tagged & ~(uint64_t)MALI_FBD_TAG_MASK;
   const void *p = at(w, va, pan_size(framebuffer));
   if (!p)
      return;
   pan_section_unpack(p, framebuffer, parameters, fb);
   oracle_expect(w->x, params, "Width", "%u", fb.width);
   oracle_expect(w->x, params, "Height", "%u", fb.height);
   oracle_expect(w->x, params, "Bound Max X", "%u", fb.bound_max_x);
   oracle_expect(w->x, params, "Bound Max Y", "%u", fb.bound_max_y);
   oracle_expect(w->x, params, "Sample Count", "%u", fb.sample_count);
   va += pan_size(framebuffer);
   if (fb.has_zs_crc_extension) {
      const void *z = at(w, va, pan_size(zs_crc_extension));
      if (!z)
         return;
      pan_unpack(z, zs_crc_extension, zs);
      oracle_expect(w->x, "ZS CRC Extension:", "ZS Write Format", "%s",
                    NAME(zs_format, zs.zs_write_format));
      oracle_expect(w->x, "ZS CRC Extension:", "ZS Block Format", "%s",
                    NAME(block_format, zs.zs_block_format));
      va += pan_size(zs_crc_extension);
   }
   if (with_rts)
      expect_render_targets(w, va, fb.render_target_count);
#endif
}

#if PAN_ARCH >= 6
static void
expect_tiler_context(struct walk *w, uint64_t va)
{
   const void *p = at(w, va, pan_size(tiler_context));
   if (!p)
      return;
   pan_unpack(p, tiler_context, t);
   oracle_expect(w->x, "Tiler Job Payload:/Tiler:", "FB Width", "%u",
                 t.fb_width);
   oracle_expect(w->x, "Tiler Job Payload:/Tiler:", "FB Height", "%u",
                 t.fb_height);
}
#endif

static void
expect_texture(struct walk *w, const char *path, const void *p)
{
   char fmt[96];
   pan_unpack(p, texture, t);
   pixel_format_text(fmt, sizeof(fmt), t.format);
   oracle_expect(w->x, path, "Width", "%u", t.width);
   oracle_expect(w->x, path, "Height", "%u", t.height);
   oracle_expect(w->x, path, FORMAT_LABEL, "%s", fmt);
   oracle_expect(w->x, path, "Dimension", "%s",
                 NAME(texture_dimension, t.dimension));
}

static void
expect_sampler(struct walk *w, const char *path, const void *p)
{
   pan_unpack(p, sampler, s);
   oracle_expect(w->x, path, "Magnify Nearest", "%s",
                 bool_text(s.magnify_nearest));
   oracle_expect(w->x, path, "Minify Nearest", "%s",
                 bool_text(s.minify_nearest));
}

#if PAN_ARCH <= 7
/* Record 0 of an attribute/varying array and the buffer it selects. */
static void
expect_attribute(struct walk *w, const char *path, uint64_t rec_va,
                 uint64_t bufs_va)
{
   char fmt[96];
   const void *a = at(w, rec_va, pan_size(attribute));
   if (!a)
      return;
   pan_unpack(a, attribute, rec);
   pixel_format_text(fmt, sizeof(fmt), rec.format);
   oracle_expect(w->x, path, FORMAT_LABEL, "%s", fmt);
   oracle_expect(w->x, path, "Buffer index", "%u", rec.buffer_index);

   const void *b =
      at(w, bufs_va + rec.buffer_index * pan_size(attribute_buffer),
         pan_size(attribute_buffer));
   if (!b)
      return;
   pan_unpack(b, attribute_buffer, buf);
   oracle_expect(w->x, path, "Pointer", "0x%llx",
                 (unsigned long long)buf.address);
   oracle_expect(w->x, path, "Stride", "%u", buf.stride);
   oracle_expect(w->x, path, "Size", "%u", buf.size);
}

static void
expect_draw(struct walk *w, const void *p, bool tiler)
{
   pan_unpack(p, draw, d);
   const void *rsd = d.state ? at(w, d.state, pan_size(renderer_state)) : NULL;
   if (rsd) {
      pan_unpack(rsd, renderer_state, rs);
      oracle_expect(w->x, "State:/Shader:", "Shader", "0x%llx",
                    (unsigned long long)rs.shader.shader);
   }
   if (d.attributes)
      expect_attribute(w, "Attribute:", d.attributes, d.attribute_buffers);
   if (d.varyings)
      expect_attribute(w, "Varying:", d.varyings, d.varying_buffers);
   if (d.textures) {
#if PAN_ARCH <= 5
      /* An array of pointers to the descriptors. */
      const uint64_t *ptrs = at(w, d.textures, 8);
      const void *t = ptrs ? at(w, *ptrs, pan_size(texture)) : NULL;
#else
      const void *t = at(w, d.textures, pan_size(texture));
#endif
      if (t)
         expect_texture(w, "Textures */Texture:", t);
   }
   if (d.samplers) {
      const void *s = at(w, d.samplers, pan_size(sampler));
      if (s)
         expect_sampler(w, "Samplers */Sampler 0:", s);
   }
#if PAN_ARCH == 4
   /* Every v4 draw points at the SFBD, and the stock decoder follows it. */
   expect_framebuffer(w, d.graphics.fbd, false);
#elif PAN_ARCH == 5
   if (tiler)
      expect_framebuffer(w, d.graphics.fbd, false);
#endif
   (void)tiler;
}

static void
expect_job(struct walk *w, unsigned type, uint64_t va)
{
   const void *job;
   switch (type) {
   case MALI_JOB_TYPE_COMPUTE:
   case MALI_JOB_TYPE_VERTEX:
      if ((job = at(w, va, pan_size(compute_job))))
         expect_draw(w, pan_section_ptr(job, compute_job, draw), false);
      break;
   case MALI_JOB_TYPE_TILER: {
      if (!(job = at(w, va, pan_size(tiler_job))))
         break;
      expect_draw(w, pan_section_ptr(job, tiler_job, draw), true);
#if PAN_ARCH >= 6
      pan_section_unpack(job, tiler_job, tiler, tp);
      expect_tiler_context(w, tp.address);
#endif
      break;
   }
   case MALI_JOB_TYPE_FRAGMENT: {
      if (!(job = at(w, va, pan_size(fragment_job))))
         break;
      pan_section_unpack(job, fragment_job, payload, f);
      oracle_expect(w->x, "Fragment Job Payload:", "Bound Max X", "%u",
                    f.bound_max_x);
      oracle_expect(w->x, "Fragment Job Payload:", "Bound Max Y", "%u",
                    f.bound_max_y);
      expect_framebuffer(w, f.framebuffer, true);
      break;
   }
   default:
      break;
   }
}
#else /* Valhall */

/* The descriptors of every resource table of a shader environment. */
static void
expect_resources(struct walk *w, uint64_t tagged)
{
   unsigned tables = tagged & 63;
   uint64_t va = tagged & ~(uint64_t)63;
   for (unsigned i = 0; i < tables; ++i) {
      const void *r = at(w, va + i * pan_size(resource), pan_size(resource));
      if (!r)
         return;
      pan_unpack(r, resource, res);
      for (uint64_t off = 0; off + 32 <= res.size; off += 32) {
         const void *p = at(w, res.address + off, 32);
         char fmt[96];
         if (!p)
            return;
         /* Every Valhall descriptor starts with its 4-bit type. */
         pan_unpack(p, buffer, probe);
         switch (probe.type) {
         case MALI_DESCRIPTOR_TYPE_BUFFER:
            oracle_expect(w->x, "Entry */Buffer:", "Address", "0x%llx",
                          (unsigned long long)probe.address);
            oracle_expect(w->x, "Entry */Buffer:", "Size", "%u", probe.size);
            break;
         case MALI_DESCRIPTOR_TYPE_TEXTURE: {
            expect_texture(w, "Entry */Texture:", p);
            pan_unpack(p, texture, t);
            const void *pl = at(w, t.surfaces, pan_size(plane));
            if (!pl)
               break;
            pan_unpack(pl, plane, plane);
            oracle_expect(w->x, "Entry */Texture:/Plane 0:", "Clump ordering",
                          "%s",
                          NAME(clump_ordering, plane.generic.clump_ordering));
            oracle_expect(w->x, "Entry */Texture:/Plane 0:", "Row stride", "%u",
                          plane.row_stride_B);
            oracle_expect(w->x, "Entry */Texture:/Plane 0:", "Pointer",
                          "0x%llx", (unsigned long long)plane.address);
            break;
         }
         case MALI_DESCRIPTOR_TYPE_SAMPLER:
            expect_sampler(w, "Entry */Sampler:", p);
            break;
         case MALI_DESCRIPTOR_TYPE_ATTRIBUTE: {
            pan_unpack(p, attribute, a);
            pixel_format_text(fmt, sizeof(fmt), a.format);
            oracle_expect(w->x, "Entry */Attribute:", FORMAT_LABEL, "%s", fmt);
            oracle_expect(w->x, "Entry */Attribute:", "Stride", "%u",
                          a.strided.stride);
            break;
         }
         default:
            break;
         }
      }
   }
}

/* path: where the stock decoder prints the environment itself, or NULL
 * where it only follows it (IDVS position and varying shaders). */
static void
expect_env(struct walk *w, const char *path, const void *p)
{
   pan_unpack(p, shader_environment, env);
   if (path) {
      oracle_expect(w->x, path, "Shader", "0x%llx",
                    (unsigned long long)env.shader);
      oracle_expect(w->x, path, "Resources", "0x%llx",
                    (unsigned long long)env.resources);
      oracle_expect(w->x, path, "FAU count", "%u", env.fau_count);
   }
   const void *sp =
      env.shader ? at(w, env.shader, pan_size(shader_program)) : NULL;
   if (sp) {
      pan_unpack(sp, shader_program, prog);
      oracle_expect(w->x, "Shader Shader:", "Binary", "0x%llx",
                    (unsigned long long)prog.binary);
   }
   if (env.resources)
      expect_resources(w, env.resources);
}

static void
expect_job(struct walk *w, unsigned type, uint64_t va)
{
   const void *job;
   switch (type) {
   case MALI_JOB_TYPE_COMPUTE: {
      if (!(job = at(w, va, pan_size(compute_job))))
         break;
      pan_section_unpack(job, compute_job, payload, c);
      oracle_expect(w->x, "Compute:", "Workgroup size X", "%u",
                    c.workgroup_size_x);
      oracle_expect(w->x, "Compute:", "Workgroup count X", "%u",
                    c.workgroup_count_x);
      /* The environment is the last 32 bytes of the payload. */
      expect_env(w, "Compute:/Compute:",
                 (const uint8_t *)pan_section_ptr(job, compute_job, payload) +
                    32);
      break;
   }
   case MALI_JOB_TYPE_MALLOC_VERTEX: {
      if (!(job = at(w, va, pan_size(malloc_vertex_job))))
         break;
      pan_section_unpack(job, malloc_vertex_job, tiler, tp);
      const void *t = at(w, tp.address, pan_size(tiler_context));
      if (t) {
         pan_unpack(t, tiler_context, tc);
         oracle_expect(w->x, "Tiler Job Payload:/Tiler:", "FB Width", "%u",
                       tc.fb_width);
         oracle_expect(w->x, "Tiler Job Payload:/Tiler:", "FB Height", "%u",
                       tc.fb_height);
      }
      pan_section_unpack(job, malloc_vertex_job, draw, d);
      oracle_expect(w->x, "Draw:", "Blend count", "%u", d.blend_count);
      oracle_expect(w->x, "Draw:", "Sample mask", "%u", d.sample_mask);
      expect_env(
         w, "Draw:/Shader:",
         (const uint8_t *)pan_section_ptr(job, malloc_vertex_job, draw) + 64);
      expect_env(w, NULL, pan_section_ptr(job, malloc_vertex_job, position));
      expect_env(w, NULL, pan_section_ptr(job, malloc_vertex_job, varying));
      break;
   }
   case MALI_JOB_TYPE_FRAGMENT: {
      if (!(job = at(w, va, pan_size(fragment_job))))
         break;
      pan_section_unpack(job, fragment_job, payload, f);
      oracle_expect(w->x, "Fragment Job Payload:", "Bound Max X", "%u",
                    f.bound_max_x);
      oracle_expect(w->x, "Fragment Job Payload:", "Bound Max Y", "%u",
                    f.bound_max_y);
      expect_framebuffer(w, f.framebuffer, true);
      break;
   }
   default:
      break;
   }
}
#endif

void
PAN_GENX(oracle_chain_expect)(const struct pan_dump *d,
                              struct oracle_expects *x)
{
   struct walk w = { .d = d, .x = x };
   for (unsigned c = 0; c < d->chain_count; ++c) {
      unsigned guard = 0;
      for (uint64_t va = d->chains[c]; va && guard++ < 64;) {
         const void *job = at(&w, va, pan_size(job_header));
         if (!job)
            break;
         pan_unpack(job, job_header, h);
         expect_job(&w, h.type, va);
         va = h.next;
      }
   }
   /* A descriptor the walker could not reach is a failed expectation. */
   for (unsigned i = 0; i < w.missing; ++i)
      oracle_expect(x, "(walker)", "unreachable descriptor", "%u", i);
}
