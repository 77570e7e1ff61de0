/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Builds a synthetic frame for one architecture (compiled per PAN_ARCH)
 * with the genxml packers and writes it as a submit dump:
 *
 *    pan_decode_gen_vN OUT VARIANT
 *
 * VARIANT "frame" is a complete, valid frame: a chain with write-value,
 * compute, vertex/tiler (IDVS on v9) and cache-flush jobs, and a second
 * chain with the fragment job.  The other variants damage it in one
 * specific way so that tests can check the decoder's ERROR lines:
 *    cycle     the last job links back to the first
 *    wild      the renderer state / shader pointer leaves every mapping
 *    baddep    a job depends on an index that no earlier job has
 *    badenum   a job header carries an undefined job type
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pan_dump.h"
#include "pan_genxml.h"

enum { M_JOBS, M_DESC, M_SHADER, M_BUF, M_HEAP, M_COUNT };

static struct pan_sim_region maps[M_COUNT];
static uint8_t *mem[M_COUNT];
static uint64_t used[M_COUNT];

static void
add_map(unsigned i, uint64_t va, uint64_t size_B, const char *name,
        bool captured)
{
   maps[i].gpu_va = va;
   maps[i].size_B = size_B;
   maps[i].name = name;
   mem[i] = calloc(1, size_B);
   maps[i].cpu = captured ? mem[i] : NULL;
}

/* Bump allocator inside one mapping; returns the GPU address. */
static uint64_t
alloc(unsigned m, uint64_t size_B, unsigned align_B, void **cpu)
{
   uint64_t off = (used[m] + align_B - 1) & ~(uint64_t)(align_B - 1);
   if (off + size_B > maps[m].size_B) {
      fprintf(stderr, "generator: mapping %u full\n", m);
      exit(2);
   }
   used[m] = off + size_B;
   if (cpu)
      *cpu = mem[m] + off;
   return maps[m].gpu_va + off;
}

#define ALLOC(m, T, cpu) alloc(m, pan_size(T), pan_alignment(T), (void **)(cpu))

/* Shader code: a Valhall fadd + nop.end, otherwise recognisable bytes. */
static uint64_t
emit_shader(void)
{
   uint8_t *p;
   uint64_t va = alloc(M_SHADER, 32, 64, (void **)&p);
#if PAN_ARCH >= 9
   static const uint64_t words[] = {0x00a4c00000000201ull,
                                    0x7800c00000000000ull};
   memcpy(p, words, sizeof(words));
#else
   for (unsigned i = 0; i < 32; ++i)
      p[i] = (uint8_t)(0x10 + i);
#endif
   return va;
}

/* A 22-bit pixel format word with the identity component order: what a
 * driver puts in attribute, texture and blend-conversion descriptors.
 * Packed with our own packer so that the format view is exercised too. */
static uint32_t
pixel_format(unsigned format)
{
   uint32_t word = 0;
   pan_pack(&word, pixel_format, cfg) {
      cfg.format = format;
#if PAN_ARCH <= 6
      cfg.swizzle.r = MALI_CHANNEL_R;
      cfg.swizzle.g = MALI_CHANNEL_G;
      cfg.swizzle.b = MALI_CHANNEL_B;
      cfg.swizzle.a = MALI_CHANNEL_A;
#else
      cfg.order = MALI_RGB_COMPONENT_ORDER_RGBA;
#endif
   }
   return word;
}

/* out = src: a zero term plus src times an inverted zero. */
static void
replace_equation(struct PAN_GENX(blend_equation) *eq)
{
   eq->rgb.a = MALI_BLEND_OPERAND_A_ZERO;
   eq->rgb.b = MALI_BLEND_OPERAND_B_SRC;
   eq->rgb.c = MALI_BLEND_OPERAND_C_ZERO;
   eq->rgb.invert_c = true;
   eq->alpha = eq->rgb;
   eq->color_mask = 0xf;
}

#if PAN_ARCH >= 6
/* Opaque blending into an RGBA8 UNORM target: the tile buffer converts
 * four 16-bit register channels to the memory format. */
static void
set_blend_conversion(struct PAN_GENX(internal_blend) *ib)
{
   ib->mode = MALI_BLEND_MODE_OPAQUE;
   ib->fixed_function.num_comps = 4;
   ib->fixed_function.conversion.memory_format =
      pixel_format(MALI_FORMAT_RGBA8_UNORM);
   ib->fixed_function.conversion.register_format =
      MALI_REGISTER_FILE_FORMAT_F16;
}
#endif

static uint64_t
emit_local_storage(void)
{
   void *p;
   uint64_t tls = alloc(M_BUF, 256, 64, NULL);
   uint64_t va = ALLOC(M_DESC, local_storage, &p);
   pan_pack(p, local_storage, cfg) {
      cfg.tls_size = 3;
      cfg.tls_base_pointer = tls;
   }
   return va;
}

static void
header(void *job, unsigned type, unsigned index, unsigned dep, uint64_t next)
{
   pan_pack(job, job_header, cfg) {
#if PAN_ARCH <= 7
      cfg.is_64b = true;
#endif
      cfg.type = type;
      cfg.index = index;
      cfg.dependency_1 = dep;
      cfg.next = next;
   }
}

static uint64_t
emit_write_value(void **job)
{
   uint64_t target = alloc(M_BUF, 8, 8, NULL);
   uint64_t va = ALLOC(M_JOBS, write_value_job, job);
   pan_section_pack(*job, write_value_job, payload, cfg) {
      cfg.address = target;
      cfg.type = MALI_WRITE_VALUE_TYPE_ZERO;
   }
   return va;
}

static uint64_t
emit_cache_flush(void **job)
{
   uint64_t va = ALLOC(M_JOBS, cache_flush_job, job);
   pan_section_pack(*job, cache_flush_job, payload, cfg) {
      cfg.clean_shader_core_ls = true;
      cfg.l2_clean = true;
      cfg.l2_invalidate = true;
   }
   return va;
}

#if PAN_ARCH >= 6
static uint64_t
emit_tiler_context(void)
{
   void *p, *h;
   uint64_t heap = ALLOC(M_DESC, tiler_heap, &h);
   pan_pack(h, tiler_heap, cfg) {
      cfg.size = (uint32_t)maps[M_HEAP].size_B;
      cfg.base = maps[M_HEAP].gpu_va;
      cfg.bottom = maps[M_HEAP].gpu_va;
      cfg.top = maps[M_HEAP].gpu_va + maps[M_HEAP].size_B;
   }
   uint64_t va = ALLOC(M_DESC, tiler_context, &p);
   pan_pack(p, tiler_context, cfg) {
      cfg.polygon_list = alloc(M_BUF, 512, 64, NULL);
      cfg.hierarchy_mask = 0x28;
      cfg.fb_width = 64;
      cfg.fb_height = 32;
      cfg.heap = heap;
   }
   return va;
}
#endif

/* The framebuffer: descriptor, ZS/CRC extension, one render target. */
static uint64_t
emit_framebuffer(uint64_t tiler)
{
   uint64_t color = alloc(M_BUF, 64 * 32 * 4, 64, NULL);
   uint8_t *p;
   uint64_t va = alloc(M_DESC, pan_size(framebuffer) + 128, 64, (void **)&p);
   (void)tiler;
   (void)color;

#if PAN_ARCH <= 5
   /* Midgard jobs find their thread storage at the start of the FBD. */
   pan_section_pack(p, framebuffer, local_storage, cfg) {
      cfg.tls_size = 3;
      cfg.tls_base_pointer = alloc(M_BUF, 256, 64, NULL);
   }
#endif
#if PAN_ARCH == 4
   pan_section_pack(p, framebuffer, parameters, cfg) {
      cfg.internal_format = MALI_COLOR_BUFFER_INTERNAL_FORMAT_R8G8B8A8;
      cfg.color_writeback_format = MALI_COLOR_FORMAT_R8G8B8A8;
      cfg.swizzle = 0x688; /* identity: R, G, B, A */
      cfg.sample_count = 1;
      cfg.color_write_enable = true;
      cfg.bound_max_x = 63;
      cfg.bound_max_y = 31;
      cfg.color_writeback.base = color;
      cfg.color_writeback.row_stride_B = 64 * 4;
   }
   pan_section_pack(p, framebuffer, tiler, cfg) {
      cfg.polygon_list = alloc(M_BUF, 512, 64, NULL);
      cfg.hierarchy_mask = 0x28;
      cfg.heap_start = maps[M_HEAP].gpu_va;
      cfg.heap_end = maps[M_HEAP].gpu_va + maps[M_HEAP].size_B;
   }
   return va;
#else
#if PAN_ARCH == 5
   pan_section_pack(p, framebuffer, tiler, cfg) {
      cfg.polygon_list = alloc(M_BUF, 512, 64, NULL);
      cfg.hierarchy_mask = 0x28;
      cfg.heap_start = maps[M_HEAP].gpu_va;
      cfg.heap_end = maps[M_HEAP].gpu_va + maps[M_HEAP].size_B;
   }
#endif
   pan_section_pack(p, framebuffer, parameters, cfg) {
      cfg.width = 64;
      cfg.height = 32;
      cfg.bound_max_x = 63;
      cfg.bound_max_y = 31;
      cfg.sample_count = 1;
      cfg.effective_tile_size = 256;
      cfg.render_target_count = 1;
      cfg.color_buffer_allocation = 1024;
      cfg.z_internal_format = MALI_Z_INTERNAL_FORMAT_D24;
      cfg.has_zs_crc_extension = true;
      cfg.z_clear = 1.0f;
#if PAN_ARCH >= 6
      cfg.tiler = tiler;
#endif
   }
   uint64_t zs_buf = alloc(M_BUF, 64 * 32 * 4, 64, NULL);
   pan_pack(p + pan_size(framebuffer), zs_crc_extension, cfg) {
#if PAN_ARCH <= 7
      cfg.zs_write_format = MALI_ZS_FORMAT_D24S8;
      cfg.zs_block_format = MALI_BLOCK_FORMAT_TILED_U_INTERLEAVED;
      cfg.linear.zs_writeback_base = zs_buf;
      cfg.linear.zs_writeback_row_stride = 64 * 4;
#else
      cfg.zs_write_format = MALI_ZS_FORMAT_D24S8;
      cfg.zs_block_format = MALI_BLOCK_FORMAT_TILED_U_INTERLEAVED;
      cfg.zs_writeback_base = zs_buf;
      cfg.zs_writeback_row_stride = 64 * 4 * 16;
#endif
   }
   pan_pack(p + pan_size(framebuffer) + 64, render_target, cfg) {
      cfg.internal_format = MALI_COLOR_BUFFER_INTERNAL_FORMAT_R8G8B8A8;
      cfg.write_enable = true;
      cfg.writeback_format = MALI_COLOR_FORMAT_R8G8B8A8;
      cfg.writeback_block_format = MALI_BLOCK_FORMAT_TILED_U_INTERLEAVED;
      cfg.swizzle = 0x688; /* identity: R, G, B, A */
      cfg.rgb.base = color;
      cfg.rgb.row_stride_B = 64 * 4 * 16;
#if PAN_ARCH == 5
      cfg.cleared.clear.color_0 = 0xff336699;
#else
      cfg.clear.color_0 = 0xff336699;
#endif
   }
   return va | MALI_FBD_TAG_IS_MFBD | MALI_FBD_TAG_HAS_ZS_RT;
#endif
}

static uint64_t
emit_fragment(void **job, uint64_t fbd)
{
   uint64_t va = ALLOC(M_JOBS, fragment_job, job);
   pan_section_pack(*job, fragment_job, payload, cfg) {
      cfg.bound_max_x = 3;
      cfg.bound_max_y = 1;
      cfg.framebuffer = fbd;
   }
   return va;
}

#if PAN_ARCH <= 7
/* One attribute record and its 1D buffer; returns the buffer record VA. */
static uint64_t
emit_attribs(uint64_t *attr_va, uint64_t data)
{
   void *a, *b;
   *attr_va = ALLOC(M_DESC, attribute, &a);
   pan_pack(a, attribute, cfg) {
      cfg.buffer_index = 0;
      cfg.format = pixel_format(MALI_FORMAT_RGBA32F);
      cfg.offset = 0;
   }
   uint64_t va = ALLOC(M_DESC, attribute_buffer, &b);
   pan_pack(b, attribute_buffer, cfg) {
      cfg.type = MALI_ATTRIBUTE_TYPE_1D;
      cfg.address = data;
      cfg.stride = 16;
      cfg.size = 64;
   }
   return va;
}

static uint64_t
emit_textures(void)
{
   uint8_t *t;
   uint64_t texels = alloc(M_BUF, 16 * 16 * 4, 64, NULL);
#if PAN_ARCH <= 5
   /* Descriptor followed by one (pointer, strides) pair. */
   uint64_t tex = alloc(M_DESC, pan_size(texture) + 16, 64, (void **)&t);
#else
   uint64_t tex = ALLOC(M_DESC, texture, &t);
   uint8_t *s;
   uint64_t surf = ALLOC(M_DESC, surface_with_stride, &s);
#endif
   pan_pack(t, texture, cfg) {
      cfg.width = 16;
      cfg.height = 16;
      cfg.array_size = 1;
      cfg.levels = 1;
      cfg.format = pixel_format(MALI_FORMAT_RGBA8_UNORM);
      cfg.dimension = MALI_TEXTURE_DIMENSION_2D;
      cfg.texel_ordering = MALI_TEXTURE_LAYOUT_LINEAR;
#if PAN_ARCH <= 5
      cfg.surface_pointer_is_64b = true;
      cfg.manual_stride = true;
#else
      cfg.surfaces = surf;
      cfg.sample_count = 1;
#endif
   }
#if PAN_ARCH <= 5
   pan_pack(t + pan_size(texture), surface_with_stride, cfg) {
      cfg.address = texels;
      cfg.row_stride_B = 64;
   }
   uint64_t *ptr;
   uint64_t array = alloc(M_DESC, 8, 8, (void **)&ptr);
   memcpy(ptr, &tex, 8);
   return array;
#else
   pan_pack(s, surface_with_stride, cfg) {
      cfg.address = texels;
      cfg.row_stride_B = 64;
   }
   return tex;
#endif
}

static uint64_t
emit_renderer_state(bool fragment)
{
   uint8_t *p;
   unsigned size_B = pan_size(renderer_state) + (fragment ? 16 : 0);
   uint64_t va = alloc(M_DESC, size_B, 64, (void **)&p);
   uint64_t code = emit_shader();

   pan_pack(p, renderer_state, cfg) {
      cfg.shader.shader = code | (PAN_ARCH <= 5 ? 1 : 0);
      cfg.shader.attribute_count = 1;
      cfg.shader.varying_count = 1;
      cfg.shader.texture_count = fragment ? 1 : 0;
      cfg.shader.sampler_count = fragment ? 1 : 0;
      cfg.properties.uniform_buffer_count = 1;
#if PAN_ARCH <= 5
      cfg.properties.uniform_count = 1;
      cfg.properties.work_register_count = 4;
#else
      cfg.preload.uniform_count = 2;
#endif
      cfg.multisample_misc.sample_mask = 0xffff;
      cfg.multisample_misc.depth_function = MALI_FUNC_ALWAYS;
      cfg.stencil_front.compare_function = MALI_FUNC_ALWAYS;
      cfg.stencil_back.compare_function = MALI_FUNC_ALWAYS;
#if PAN_ARCH == 4
      /* v4 keeps the single render target's blend state in the RSD. */
      replace_equation(&cfg.blend_fixed_function.equation);
#endif
   }
#if PAN_ARCH >= 5
   if (fragment) {
      pan_pack(p + pan_size(renderer_state), blend, cfg) {
         cfg.enable = true;
#if PAN_ARCH <= 5
         replace_equation(&cfg.fixed_function.equation);
#else
         replace_equation(&cfg.equation);
         set_blend_conversion(&cfg.internal);
#endif
      }
   }
#endif
   return va;
}

static void
emit_draw(void *draw, bool fragment, uint64_t shared, bool wild)
{
   uint64_t data = alloc(M_BUF, 64, 64, NULL);
   uint64_t attrs, varyings, ubo_va, push;
   uint64_t bufs = emit_attribs(&attrs, data);
   uint64_t vbufs = emit_attribs(&varyings, data);
   void *u, *s, *vp;
   uint8_t *pu;

   ubo_va = ALLOC(M_DESC, uniform_buffer, &u);
   pan_pack(u, uniform_buffer, cfg) {
      cfg.entries = 1;
      cfg.address = alloc(M_BUF, 16, 16, NULL);
   }
   push = alloc(M_BUF, 16, 16, (void **)&pu);
   for (unsigned i = 0; i < 16; ++i)
      pu[i] = (uint8_t)i;

   uint64_t samplers = ALLOC(M_DESC, sampler, &s);
   pan_pack(s, sampler, cfg) {
      cfg.magnify_nearest = true;
      cfg.minify_nearest = true;
   }
   uint64_t viewport = ALLOC(M_DESC, viewport, &vp);
   pan_pack(vp, viewport, cfg) {
      cfg.scissor_maximum_x = 63;
      cfg.scissor_maximum_y = 31;
   }

   pan_pack(draw, draw, cfg) {
#if PAN_ARCH <= 5
      cfg.draw_descriptor_is_64b = true;
      cfg.texture_descriptor_is_64b = true;
      cfg.compute.thread_storage = shared;
#else
      cfg.thread_storage = shared;
#endif
      cfg.four_components_per_vertex = true;
      cfg.state = wild ? 0xdead0000ull : emit_renderer_state(fragment);
      cfg.attributes = attrs;
      cfg.attribute_buffers = bufs;
      cfg.varyings = varyings;
      cfg.varying_buffers = vbufs;
      cfg.uniform_buffers = ubo_va;
      cfg.push_uniforms = push;
      if (fragment) {
         cfg.textures = emit_textures();
         cfg.samplers = samplers;
         cfg.viewport = viewport;
         cfg.position = data;
      }
   }
}

static void
emit_chains(uint64_t *chains, const char *variant)
{
   void *wv, *cj, *vj, *tj, *cf, *fj;
   uint64_t shared;
   bool wild = !strcmp(variant, "wild");

#if PAN_ARCH == 4
   uint64_t fbd = emit_framebuffer(0);
   shared = fbd;
#elif PAN_ARCH == 5
   /* Draws point at the MFBD (whose first section is the local storage)
    * with only the MFBD tag; the ZS/RT tag is for the fragment job. */
   uint64_t fbd = emit_framebuffer(0);
   shared = (fbd & ~(uint64_t)MALI_FBD_TAG_MASK) | MALI_FBD_TAG_IS_MFBD;
#else
   uint64_t fbd = emit_framebuffer(emit_tiler_context());
   shared = emit_local_storage();
#endif
   uint64_t wv_va = emit_write_value(&wv);
   uint64_t cj_va = ALLOC(M_JOBS, compute_job, &cj);
   uint64_t vj_va = ALLOC(M_JOBS, compute_job, &vj);
   uint64_t tj_va = ALLOC(M_JOBS, tiler_job, &tj);
   uint64_t cf_va = emit_cache_flush(&cf);

   pan_section_pack(cj, compute_job, invocation, cfg) { cfg.invocations = 7; }
   pan_section_pack(cj, compute_job, parameters, cfg) {
      cfg.job_task_split = 4;
   }
   emit_draw(pan_section_ptr(cj, compute_job, draw), false,
             PAN_ARCH == 5 ? emit_local_storage() : shared, false);
   pan_section_pack(vj, compute_job, invocation, cfg) { cfg.invocations = 2; }
   emit_draw(pan_section_ptr(vj, compute_job, draw), false, shared, wild);

   pan_section_pack(tj, tiler_job, invocation, cfg) { cfg.invocations = 2; }
   pan_section_pack(tj, tiler_job, primitive, cfg) {
      cfg.draw_mode = MALI_DRAW_MODE_TRIANGLES;
      cfg.index_count = 3;
   }
   pan_section_pack(tj, tiler_job, primitive_size, cfg) {
      cfg.fixed.constant = 1.0f;
   }
#if PAN_ARCH >= 6
   pan_section_pack(tj, tiler_job, tiler, cfg) {
      cfg.address = emit_tiler_context();
   }
#endif
   emit_draw(pan_section_ptr(tj, tiler_job, draw), true, shared, false);

   bool baddep = !strcmp(variant, "baddep");
   header(wv, MALI_JOB_TYPE_WRITE_VALUE, 1, 0, cj_va);
   header(cj, MALI_JOB_TYPE_COMPUTE, 2, 1, vj_va);
   header(vj, MALI_JOB_TYPE_VERTEX, 3, 0, tj_va);
   header(tj, MALI_JOB_TYPE_TILER, 4, baddep ? 9 : 3, cf_va);
   header(cf, !strcmp(variant, "badenum") ? 15 : MALI_JOB_TYPE_CACHE_FLUSH, 5,
          4, !strcmp(variant, "cycle") ? wv_va : 0);

   uint64_t fj_va = emit_fragment(&fj, fbd);
   header(fj, MALI_JOB_TYPE_FRAGMENT, 1, 0, 0);
   chains[0] = wv_va;
   chains[1] = fj_va;
}
#else /* Valhall */

static uint64_t
emit_resource_table(void)
{
   uint8_t *d, *r, *pl;
   uint64_t data = alloc(M_BUF, 256, 64, NULL);
   uint64_t table = alloc(M_DESC, 4 * 32, 64, (void **)&d);
   uint64_t plane = ALLOC(M_DESC, plane, &pl);

   pan_pack(d, buffer, cfg) {
      cfg.type = MALI_DESCRIPTOR_TYPE_BUFFER;
      cfg.buffer_type = MALI_BUFFER_TYPE_SIMPLE;
      cfg.address = data;
      cfg.size = 256;
   }
   pan_pack(d + 32, texture, cfg) {
      cfg.type = MALI_DESCRIPTOR_TYPE_TEXTURE;
      cfg.dimension = MALI_TEXTURE_DIMENSION_2D;
      cfg.width = 8;
      cfg.height = 8;
      cfg.format = pixel_format(MALI_FORMAT_RGBA8_UNORM);
      cfg.swizzle = 0x688; /* identity: R, G, B, A */
      cfg.levels = 1;
      cfg.array_size = 1;
      cfg.sample_count = 1;
      cfg.surfaces = plane;
   }
   pan_pack(pl, plane, cfg) {
      cfg.type = MALI_DESCRIPTOR_TYPE_PLANE;
      cfg.plane_type = MALI_PLANE_TYPE_GENERIC;
      cfg.generic.clump_ordering = MALI_CLUMP_ORDERING_LINEAR;
      cfg.generic.clump_format = MALI_CLUMP_FORMAT_RAW32;
      cfg.address = data;
      cfg.size = 256;
      cfg.row_stride_B = 32;
   }
   pan_pack(d + 64, sampler, cfg) {
      cfg.type = MALI_DESCRIPTOR_TYPE_SAMPLER;
      cfg.magnify_nearest = true;
   }
   pan_pack(d + 96, attribute, cfg) {
      cfg.type = MALI_DESCRIPTOR_TYPE_ATTRIBUTE;
      cfg.attribute_type = MALI_ATTRIBUTE_TYPE_1D;
      cfg.format = pixel_format(MALI_FORMAT_RGBA32F);
      cfg.strided.stride = 16;
   }
   uint64_t res = alloc(M_DESC, pan_size(resource), 64, (void **)&r);
   pan_pack(r, resource, cfg) {
      cfg.address = table;
      cfg.size = 4 * 32;
   }
   return res | 1; /* one table */
}

static void
emit_env(void *env, unsigned stage, uint64_t tls, bool wild)
{
   uint8_t *sp, *fau;
   uint64_t prog = ALLOC(M_DESC, shader_program, &sp);
   pan_pack(sp, shader_program, cfg) {
      cfg.type = MALI_DESCRIPTOR_TYPE_SHADER;
      cfg.stage = stage;
      cfg.binary = emit_shader();
   }
   uint64_t fau_va = alloc(M_BUF, 16, 16, (void **)&fau);
   for (unsigned i = 0; i < 16; ++i)
      fau[i] = (uint8_t)(0xa0 + i);
   pan_pack(env, shader_environment, cfg) {
      cfg.shader = wild ? 0xdead0000ull : prog;
      cfg.resources = emit_resource_table();
      cfg.thread_storage = tls;
      cfg.fau = fau_va;
      cfg.fau_count = 2;
   }
}

static void
emit_chains(uint64_t *chains, const char *variant)
{
   void *wv, *cj, *mj, *cf, *fj, *ds, *bl;
   uint64_t tiler = emit_tiler_context();
   uint64_t fbd = emit_framebuffer(tiler);
   uint64_t tls = emit_local_storage();
   uint64_t wv_va = emit_write_value(&wv);
   uint64_t cj_va = ALLOC(M_JOBS, compute_job, &cj);
   uint64_t mj_va = ALLOC(M_JOBS, malloc_vertex_job, &mj);
   uint64_t cf_va = emit_cache_flush(&cf);

   pan_section_pack(cj, compute_job, payload, cfg) {
      cfg.workgroup_size_x = 4;
      cfg.workgroup_size_y = 1;
      cfg.workgroup_size_z = 1;
      cfg.workgroup_count_x = 2;
      cfg.workgroup_count_y = 1;
      cfg.workgroup_count_z = 1;
   }
   emit_env((uint8_t *)pan_section_ptr(cj, compute_job, payload) + 32,
            MALI_SHADER_STAGE_COMPUTE, tls, !strcmp(variant, "wild"));

   pan_section_pack(mj, malloc_vertex_job, primitive, cfg) {
      cfg.draw_mode = MALI_DRAW_MODE_TRIANGLES;
      cfg.index_count = 3;
   }
   pan_section_pack(mj, malloc_vertex_job, instance_count, cfg) {
      cfg.count = 1;
   }
   pan_section_pack(mj, malloc_vertex_job, allocation, cfg) {
      cfg.vertex_packet_stride = 32;
      cfg.vertex_attribute_stride = 16;
   }
   pan_section_pack(mj, malloc_vertex_job, tiler, cfg) {
      cfg.address = tiler;
   }
   uint64_t ds_va = ALLOC(M_DESC, depth_stencil, &ds);
   pan_pack(ds, depth_stencil, cfg) {
      cfg.depth_function = MALI_FUNC_LESS;
      cfg.depth_write_enable = true;
   }
   uint64_t bl_va = ALLOC(M_DESC, blend, &bl);
   pan_pack(bl, blend, cfg) {
      cfg.enable = true;
      replace_equation(&cfg.equation);
      set_blend_conversion(&cfg.internal);
   }
   pan_section_pack(mj, malloc_vertex_job, draw, cfg) {
      cfg.depth_stencil = ds_va;
      cfg.blend = bl_va;
      cfg.blend_count = 1;
      cfg.sample_mask = 0xffff;
      cfg.render_target_mask = 1;
   }
   emit_env((uint8_t *)pan_section_ptr(mj, malloc_vertex_job, draw) + 64,
            MALI_SHADER_STAGE_FRAGMENT, tls, false);
   emit_env(pan_section_ptr(mj, malloc_vertex_job, position),
            MALI_SHADER_STAGE_VERTEX, tls, false);
   emit_env(pan_section_ptr(mj, malloc_vertex_job, varying),
            MALI_SHADER_STAGE_VERTEX, tls, false);

   bool baddep = !strcmp(variant, "baddep");
   header(wv, MALI_JOB_TYPE_WRITE_VALUE, 1, 0, cj_va);
   header(cj, MALI_JOB_TYPE_COMPUTE, 2, 1, mj_va);
   header(mj, MALI_JOB_TYPE_MALLOC_VERTEX, 3, baddep ? 9 : 0, cf_va);
   header(cf, !strcmp(variant, "badenum") ? 15 : MALI_JOB_TYPE_CACHE_FLUSH, 4,
          3, !strcmp(variant, "cycle") ? wv_va : 0);

   uint64_t fj_va = emit_fragment(&fj, fbd);
   header(fj, MALI_JOB_TYPE_FRAGMENT, 1, 0, 0);
   chains[0] = wv_va;
   chains[1] = fj_va;
}
#endif

int
main(int argc, char **argv)
{
   if (argc != 3) {
      fprintf(stderr, "usage: %s OUT VARIANT\n", argv[0]);
      return 2;
   }
   add_map(M_JOBS, 0x100000, 4096, "jobs", true);
   add_map(M_DESC, 0x200000, 16384, "descriptors", true);
   add_map(M_SHADER, 0x300000, 512, "shaders", true);
   add_map(M_BUF, 0x400000, 65536, "buffers", true);
   add_map(M_HEAP, 0x800000, 1 << 20, "tiler heap", false);

   struct pan_dump dump = {0};
   dump.gpu_id = PAN_ARCH == 4 ? 0x0720 : PAN_ARCH == 5 ? 0x0860
               : PAN_ARCH == 6 ? 0x6221 : PAN_ARCH == 7 ? 0x7212 : 0x9091;
   dump.arch = PAN_ARCH;
   dump.chain_count = 2;
   emit_chains(dump.chains, argv[2]);
   dump.maps = maps;
   dump.map_count = M_COUNT;

   char err[256];
   int ret = pan_dump_write_file(argv[1], &dump, err, sizeof(err));
   if (ret)
      fprintf(stderr, "%s\n", err);
   for (unsigned i = 0; i < M_COUNT; ++i)
      free(mem[i]);
   return ret ? 1 : 0;
}
