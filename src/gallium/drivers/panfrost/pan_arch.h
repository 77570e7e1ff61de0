/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The per-architecture half of the driver's job building.  Each copy of
 * pan_vX_*.c (compiled once per PAN_ARCH) exports one table; the screen
 * picks its architecture's at creation (NULL when the driver has no job
 * emitters for it yet), and everything else calls through screen->arch.
 * The inputs are arch-neutral: addresses, counts and sizes.
 */

#ifndef PAN_ARCH_H
#define PAN_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pan_attr_addressing;

/* One compute dispatch, as the job needs it. */
struct panfrost_compute_job {
   uint64_t shader;         /* shader program descriptor */
   uint64_t fau;            /* push words, 64-bit aligned */
   unsigned fau_words;      /* even */
   uint64_t thread_storage; /* local storage descriptor */
   uint64_t resources;      /* v9: resource tables | count, 0: none */
   uint64_t attributes;     /* v6/v7: images' attribute records, 0: none */
   uint64_t attribute_buffers;
   uint64_t textures, samplers; /* v6/v7: descriptor tables, 0: none */
   unsigned size[3];        /* workgroup size */
   unsigned count[3];       /* workgroups */
   unsigned index;          /* job index in its chain, from 1 */
};

/* What a graphics shader program descriptor describes. */
enum panfrost_gfx_program {
   PANFROST_PROGRAM_VERTEX,   /* IDVS position or varying shader */
   PANFROST_PROGRAM_FRAGMENT,
};

/* The state one shader of a draw runs with. */
struct panfrost_shader_env {
   uint64_t shader;         /* shader program descriptor */
   uint64_t resources;      /* resource table pointer, count in the low bits */
   uint64_t fau;            /* push words, 64-bit aligned */
   unsigned fau_words;      /* even */
   uint64_t thread_storage; /* local storage descriptor */
};

/* One draw, as the IDVS (malloc-vertex) job needs it. */
struct panfrost_draw_job {
   unsigned index;      /* job index in its chain, from 1 */
   unsigned mode;       /* enum pipe_prim_type */
   unsigned count;      /* vertices, or indices */
   unsigned instances;
   unsigned index_size_B; /* 0: not indexed */
   bool restart;          /* primitive restart at the all-ones index */
   uint64_t indices;      /* first index read */
   uint32_t base_vertex;  /* added to each index, or the first vertex */
   uint64_t tiler;        /* tiler context */
   unsigned scissor[4];   /* min x, min y, max x, max y (inclusive) */
   float min_z, max_z;
   /* Fragments below min_z, above max_z are dropped rather than clamped
    * to it: GL's depth clipping, off under ARB_depth_clamp (the near plane
    * is max_z when the depth range is reversed).
    */
   bool cull_below_z, cull_above_z;
   bool cull_front, cull_back, front_ccw;
   /* Coverage per sample (a multisampled pass with the rasterizer's
    * multisample on), and the samples a draw may write.
    */
   bool multisample;
   uint16_t sample_mask;
   /* ATEST cuts the coverage by render target 0's alpha (multisample). */
   bool alpha_to_coverage;
   /* Shaded once a sample: a multisampled pass calling a blend shader,
    * which blends the sample it runs for. */
   bool per_sample;
   uint64_t occlusion;     /* occlusion query counter, 0: none */
   bool occlusion_counter; /* false: a predicate */
   float point_size;      /* of points whose shader writes none; lines:
                           * their width */
   bool point_size_array; /* points: the position shader writes theirs */
   uint64_t depth_stencil;
   uint64_t blend;        /* blend descriptors, one per render target */
   unsigned blend_count;
   unsigned rt_mask;
   bool fs_kills;         /* the fragment shader discards */
   bool fs_writes_memory; /* ... or stores to memory: tested late */
   bool fs_writes_zs;     /* ... or gives the depth or stencil reference */
   bool fs_early_tests;   /* GL's early fragment tests: forced early */
   unsigned varying_B;    /* per vertex, 0 without a varying shader */
   struct panfrost_shader_env position, varying, fragment;
};

/* Fixed-function blending of one render target (pan_vX_blend.c). */
struct panfrost_blend_rt {
   bool enabled;       /* a render target is bound */
   unsigned format;    /* enum pipe_format */
   unsigned colormask; /* PIPE_MASK_RGBA bits */
   bool blend;         /* blending on, else replace */
   unsigned rgb_func, rgb_src, rgb_dst;       /* PIPE_BLEND_*, _BLENDFACTOR_* */
   unsigned alpha_func, alpha_src, alpha_dst;
   float constant[4]; /* set_blend_color */
   bool logicop;          /* a logic op (logicop_func, PIPE_LOGICOP_*) */
   unsigned logicop_func; /* instead of blending */
   /* The blend shader doing it (pan_blend_shader.h), 0 for the blend
    * unit, and on v6/v7 the address it returns to (the clause after the
    * calling BLEND; 0: the BLEND ends the fragment shader). */
   uint64_t shader, shader_return;
   /* Alpha replaced by 1 after the coverage is taken (multisampled). */
   bool alpha_to_one;
};

/* The depth and stencil tests of a draw, for its attachment's aspects. */
struct panfrost_zs_face {
   unsigned func;          /* PIPE_FUNC_* */
   unsigned fail, zfail, zpass; /* PIPE_STENCIL_OP_* */
   uint8_t value_mask, write_mask, ref;
};

/* Polygon offset of a draw's primitives (pan_state.c). */
struct panfrost_depth_bias {
   bool enable;
   /* In the hardware's unit, one step of the depth format: GL's units
    * doubled (GL leaves the minimum resolvable difference to us; two
    * steps is what softpipe and the stock driver take too). */
   float units;
   float factor; /* times the primitive's largest depth slope */
   float clamp;  /* bound of the offset's magnitude, 0: none */
};

struct panfrost_zs_state {
   bool depth, depth_write;
   unsigned depth_func; /* PIPE_FUNC_* */
   bool stencil;
   struct panfrost_zs_face face[2]; /* front, back */
   /* The fragment shader gives the depth, the stencil reference
    * (ZS_EMIT), tested and written late. */
   bool shader_z, shader_s;
   struct panfrost_depth_bias bias;
};

/* Resource tables of a graphics shader (the compiler's driver interface). */
enum panfrost_table {
   PANFROST_TABLE_UBO = 0,
   PANFROST_TABLE_ATTRIBUTE = 1,
   PANFROST_TABLE_ATTRIBUTE_BUFFER = 2,
   PANFROST_TABLE_SAMPLER = 3,
   PANFROST_TABLE_TEXTURE = 4,
   PANFROST_TABLE_IMAGE = 5, /* GLSL images, texture descriptors */
   PANFROST_TABLE_COUNT,
};

struct panfrost_arch_draw {
   /* Graphics shader program descriptor. */
   void (*emit_gfx_shader)(void *cpu, enum panfrost_gfx_program kind,
                           uint64_t binary, unsigned work_regs);

   /* Resource tables: one entry per table, each naming count descriptors
    * of desc_size_B bytes at addr.
    */
   unsigned resource_size_B, resource_align_B, desc_size_B;
   void (*emit_resource)(void *cpu, uint64_t addr, unsigned count);
   /* A buffer descriptor (attribute buffers, constant buffers). */
   void (*emit_buffer)(void *cpu, uint64_t addr, unsigned size_B,
                       unsigned stride_B);
   /* An attribute descriptor reading buffer buffer_index of the attribute
    * buffer table, per vertex (divisor 0) or one element every divisor
    * instances; false for a format it cannot fetch.
    */
   bool (*emit_attribute)(void *cpu, unsigned format, unsigned buffer_index,
                          unsigned offset_B, unsigned stride_B,
                          unsigned divisor);
   /* NULL when done, else why fixed-function blending cannot. */
   unsigned blend_size_B, blend_align_B;
   const char *(*emit_blend)(void *cpu, unsigned rt,
                             const struct panfrost_blend_rt *b);
   /* Blend shaders (NULL without): whether b needs one (the blend unit
    * cannot do it), and the internal conversion and blend descriptors a
    * blend shader of render target rt reads and stores with.
    */
   bool (*blend_needs_shader)(const struct panfrost_blend_rt *b);
   void (*blend_shader_io)(const struct panfrost_blend_rt *b, unsigned rt,
                           uint32_t *conversion, uint64_t *store);
   unsigned depth_stencil_size_B, depth_stencil_align_B;
   void (*emit_depth_stencil)(void *cpu, const struct panfrost_zs_state *zs);
   /* The tiler heap descriptor and a tiler context using it. */
   unsigned tiler_heap_size_B, tiler_context_size_B, tiler_align_B;
   void (*emit_tiler)(void *heap_cpu, uint64_t heap_va, void *ctx_cpu,
                      uint64_t heap_bo_va, unsigned heap_size_B,
                      unsigned hierarchy_mask, unsigned fb_width,
                      unsigned fb_height, bool first_provoking);
   unsigned draw_job_size_B;
   void (*emit_draw_job)(void *cpu, const struct panfrost_draw_job *j);
   /* A framebuffer's three frame shader draws (colour pre-frame,
    * depth/stencil pre-frame, post-frame): the first runs fs into the
    * targets of rt_mask, the others none.  Without targets (rt_mask 0)
    * it is the depth/stencil one, killed and updated late for ZS_EMIT.
    */
   unsigned frame_shaders_size_B, frame_shaders_align_B;
   void (*emit_preload_draw)(void *cpu, const struct panfrost_shader_env *fs,
                             uint64_t blend, unsigned blend_count,
                             unsigned rt_mask, uint64_t depth_stencil,
                             bool per_sample);
};

/* A sampler view as the texture descriptor needs it: the view's first
 * level and layer are the descriptor's first.  Its planes are one per
 * level of each layer, layer-major (cube faces count as layers).
 */
struct panfrost_texture_view {
   unsigned target;          /* enum pipe_texture_target */
   unsigned format;          /* enum pipe_format */
   unsigned char swizzle[4]; /* PIPE_SWIZZLE_* of the view */
   unsigned width, height, depth; /* of the first level */
   unsigned levels, layers;
   unsigned samples; /* 0 or 1; 4 on v9: the samples a slice stride apart */
   bool u_interleaved; /* 16x16 tiles (image-layout.rst), else linear */
   bool afbc;          /* AFBC surfaces (headers in rows, 16x16 blocks) */
   uint64_t planes;
};

/* One level of one layer of an image: rows of texels, or of 16x16 tiles
 * when u-interleaved.
 */
struct panfrost_texture_plane {
   uint64_t addr;
   uint64_t size_B;
   uint64_t slice_stride_B; /* between the slices of a 3D level */
   uint32_t row_stride_B;
   unsigned texel_B;
   unsigned format; /* enum pipe_format: v9 names compressed clumps */
   bool u_interleaved;
   /* An AFBC surface: addr is its first header, row_stride_B the header
    * bytes of a row of superblocks; afbc_mode its payload packing
    * (enum pan_afbc_mode).
    */
   bool afbc;
   unsigned afbc_mode;
};

/* One GLSL image as Bifrost's attribute unit addresses it (pan_image.c):
 * its first texel (of the bound level and first layer), width x height x
 * depth texels (depth: the slices of a 3D level or the bound layers), the
 * rows and slices (or layers) strides apart.
 */
struct panfrost_image_surface {
   uint64_t addr;
   unsigned format; /* enum pipe_format */
   unsigned width, height, depth;
   unsigned texel_B, row_stride_B;
   uint64_t slice_stride_B, size_B;
   bool u_interleaved; /* row_stride_B is then a row of 16x16 tiles */
};

struct pipe_sampler_state;
struct nir_shader;
struct pan_va_push_word;

/* A v7 fragment message preload (the compiler's pan_bi_message_preload):
 * comps words of varying slot `slot` (0: unused) into r0.. or r4.., or
 * with texture its 2D lookup in texture and sampler texture_index; the
 * message names record `varying`, which the fragment job's table points
 * at the slot when they differ. */
struct panfrost_message_preload {
   uint8_t varying, slot, comps, texture_index;
   bool texture, zero_lod;
};

/* A compiled program, whichever compiler made it (Valhall on v9, Bifrost
 * on v6/v7): the words are ralloc'd on the mem_ctx given to compile.
 */
struct panfrost_binary {
   const uint64_t *words;
   unsigned nr_words;
   unsigned work_regs; /* register file: <= 32 fits the half file */
   uint64_t int_varyings; /* v6/v7 vertex: pan_bi_binary's */
   unsigned tls_size;  /* spilled bytes per thread */
   const struct pan_va_push_word *push; /* graphics: pushed words, u0 first */
   unsigned nr_push;
   /* Fragment shaders: where each BLEND has its colours and coverage
    * (0xff: no BLEND), and on v6/v7 the byte offset of the clause after
    * it, where a blend shader it calls returns (0: none). */
   uint8_t blend_colour[8], blend_colour1[8], blend_coverage[8];
   uint32_t blend_return[8];
   /* v7 fragment shaders: the message preloads (pan_bi_binary.messages). */
   struct panfrost_message_preload messages[2];
   /* The shader-db line (stock keys), for the GL debug output. */
   char shaderdb[384];
};

/* Texture and sampler descriptors, packed once per state object. */
struct panfrost_arch_texture {
   unsigned texture_size_B, plane_size_B, sampler_size_B, align_B;
   /* false for a format or target the texture unit cannot sample. */
   bool (*emit_texture)(void *cpu, const struct panfrost_texture_view *v);
   void (*emit_plane)(void *cpu, const struct panfrost_texture_plane *p);
   void (*emit_sampler)(void *cpu, const struct pipe_sampler_state *s);
};

/* One draw of the job-manager path (v7): a vertex job then a tiler job,
 * the tiler's waiting on the vertex job.  The vertex shader writes each
 * vertex's window position at position + 16 * vertex and its varyings
 * through the varying records; the fragment shader reads them back.
 */
struct panfrost_jm_draw {
   unsigned vertex_index, tiler_index; /* job indices in the chain */
   unsigned mode;                      /* enum pipe_prim_type */
   unsigned count;                     /* vertices, or indices */
   unsigned vertices;    /* per instance: the range, padded when instanced */
   unsigned instances;
   uint32_t offset_start; /* first vertex the attributes read */
   unsigned index_size_B; /* 0: not indexed */
   bool restart;
   uint64_t indices;
   uint32_t base_vertex_offset; /* added to each index by the tiler */
   bool cull_front, cull_back, front_ccw, flatshade_first;
   bool cull_below_z, cull_above_z; /* as in panfrost_draw_job */
   float point_size; /* of points whose shader writes none; lines: width */
   uint64_t tiler, viewport, thread_storage;
   uint64_t position, varyings, varying_buffers;
   uint64_t fs_varyings; /* the tiler job's records when not varyings */
   uint64_t point_sizes; /* points' per-vertex sizes, 0: point_size */
   uint64_t attributes, attribute_buffers;
   uint64_t vs_state, fs_state; /* renderer states */
   uint64_t vs_fau, fs_fau;
   uint64_t vs_ubos, fs_ubos; /* constant buffer tables */
   uint64_t textures[2], samplers[2]; /* vertex, fragment */
   /* The fragment shader's images (panfrost_image_attributes), 0: none */
   uint64_t fs_attributes, fs_attribute_buffers;
   uint64_t occlusion;     /* occlusion query counter, 0: none */
   bool occlusion_counter; /* false: a predicate */
};

/* A fragment shader's renderer state, followed by its blend descriptors. */
struct panfrost_jm_fragment {
   uint64_t binary;
   unsigned work_regs; /* panfrost_binary's; 0: declare the whole file */
   unsigned fau_words, varyings, ubos, textures, samplers;
   bool kills;
   bool writes_memory; /* stores to memory: tested late, never killed */
   bool early_tests;   /* GL's early fragment tests: forced early */
   bool multisample;   /* coverage per sample (panfrost_draw_job) */
   bool per_sample;    /* shaded once a sample (4x preloads) */
   bool alpha_to_coverage; /* as panfrost_draw_job's */
   uint16_t sample_mask;
   struct panfrost_message_preload messages[2]; /* panfrost_binary's */
   unsigned rt_count;
   struct panfrost_blend_rt rts[8];
   struct panfrost_zs_state zs;
};

/* Descriptor emitters of the v4-v7 job manager's draws. */
struct panfrost_arch_jm {
   unsigned rsd_size_B, rsd_align_B, blend_size_B;
   void (*emit_vertex_rsd)(void *cpu, uint64_t binary, unsigned work_regs,
                           unsigned fau_words, unsigned attributes,
                           unsigned varyings, unsigned ubos,
                           unsigned textures, unsigned samplers);
   /* NULL when done, else why the render targets cannot be drawn to. */
   const char *(*emit_fragment_rsd)(void *cpu,
                                    const struct panfrost_jm_fragment *f);
   /* Blend shaders, as panfrost_arch_draw's. */
   bool (*blend_needs_shader)(const struct panfrost_blend_rt *b);
   void (*blend_shader_io)(const struct panfrost_blend_rt *b, unsigned rt,
                           uint32_t *conversion, uint64_t *store);
   unsigned attribute_size_B, buffer_size_B, buffer_align_B;
   /* false for a format the attribute unit cannot fetch. */
   bool (*emit_attribute)(void *cpu, unsigned format, unsigned buffer_index,
                          int32_t offset_B);
   /* A buffer read at the vertex id, modulo modulus when not 0 (the
    * padded vertex count of an instanced draw); addr must be
    * buffer_align_B aligned.
    */
   void (*emit_attribute_buffer)(void *cpu, uint64_t addr, unsigned size_B,
                                 unsigned stride_B, unsigned modulus);
   /* The two buffer records (the second a continuation when the mode
    * needs one) of per-instance data addressed as `a` says (see
    * pan_instancing.h), for an instance divisor of `divisor`.
    */
   void (*emit_instance_buffer)(void *cpu, uint64_t addr, unsigned size_B,
                                unsigned stride_B,
                                const struct pan_attr_addressing *a,
                                unsigned divisor);
   /* A constant buffer (addr 16-byte aligned) of the table the shaders'
    * non-pushed loads read.
    */
   unsigned ubo_size_B;
   void (*emit_ubo)(void *cpu, uint64_t addr, unsigned size_B);
   /* The record of varying slot n: 16 bytes at 16 * n of buffer 0, four
    * 32-bit integers when integer (the vertex shader stores integers
    * there, pan_bi_binary.int_varyings), else binary32. */
   void (*emit_varying)(void *cpu, unsigned slot, bool integer);
   unsigned viewport_size_B, viewport_align_B;
   void (*emit_viewport)(void *cpu, const unsigned scissor[4], float min_z,
                         float max_z);
   unsigned tiler_heap_size_B, tiler_context_size_B, tiler_align_B;
   void (*emit_tiler)(void *heap_cpu, uint64_t heap_va, void *ctx_cpu,
                      uint64_t heap_bo_va, unsigned heap_size_B,
                      unsigned hierarchy_mask, unsigned fb_width,
                      unsigned fb_height, bool first_provoking);
   /* A framebuffer's three frame shader draws (colour pre-frame,
    * depth/stencil pre-frame, post-frame): the first runs the fragment
    * renderer state fs_state with its texture and sampler tables over the
    * rectangle at position (four window-space vertices, a triangle
    * strip), the others nothing.
    */
   unsigned frame_shaders_size_B, frame_shaders_align_B;
   void (*emit_preload_draw)(void *cpu, uint64_t fs_state, uint64_t textures,
                             uint64_t samplers, uint64_t viewport,
                             uint64_t position, uint64_t thread_storage);
   unsigned vertex_job_size_B, tiler_job_size_B;
   /* The jobs of a draw, but for what patch_jobs writes; false for a mode
    * the tiler has none for.
    */
   bool (*emit_vertex_job)(void *cpu, const struct panfrost_jm_draw *d);
   bool (*emit_tiler_job)(void *cpu, const struct panfrost_jm_draw *d);
   /* The 8-byte invocation section of both jobs; false when the counts do
    * not fit its word.
    */
   bool (*pack_invocation)(void *cpu, unsigned vertices, unsigned instances);
   /* Writes into copies of the jobs the fields that change from draw to
    * draw: job indices, invocation, offset_start, every address of the
    * draw sections, base_vertex_offset, count and indices.  Jobs packed
    * once serve every draw that differs from theirs only in those.
    */
   void (*patch_jobs)(void *vjob, void *tjob, const struct panfrost_jm_draw *d,
                      const void *invocation);
};

/* Workgroup-local (shared) storage of a compute job: size_B bytes for
 * each of the instances workgroup slots (both powers of two) from base,
 * which is 4096-aligned and whose storage stays within one 4 GiB region
 * (the hardware adds offsets to the low word alone).
 */
struct panfrost_wls {
   uint64_t base;
   unsigned size_B, instances;
};

struct panfrost_arch {
   /* Compiles nir (lowered in place) with the architecture's compiler;
    * variant is an enum pan_va_variant.  false with a message in err.
    */
   bool (*compile)(struct nir_shader *nir, void *mem_ctx, unsigned variant,
                   struct panfrost_binary *out, char *err, size_t err_size);
   /* The same for a blend shader's NIR (pan_blend_shader.c) called as
    * blend (a struct pan_va_blend_options) says. */
   bool (*compile_blend)(struct nir_shader *nir, void *mem_ctx,
                         const void *blend, struct panfrost_binary *out,
                         char *err, size_t err_size);

   /* Compute shader program descriptor (v9) or renderer state (v6/v7) for
    * a binary needing work_regs registers (pan_compile.h) plus the preloads
    * and fau_words push words; textures and samplers are the table sizes
    * the renderer state bounds a v6/v7 shader's indices by (unused on v9,
    * whose resource tables carry their counts).
    */
   unsigned shader_desc_size_B, shader_desc_align_B;
   void (*emit_compute_shader)(void *cpu, uint64_t binary, unsigned work_regs,
                               unsigned fau_words, unsigned textures,
                               unsigned samplers);

   /* Bifrost images (v6/v7; 0 and NULL on v9): attribute record `index`
    * at attr and its buffer records (a 3D buffer and its continuation,
    * image_bufs_size_B in all) at bufs, as LD_ATTR_TEX / LEA_ATTR_TEX read
    * them; false for a format the attribute unit cannot convert.
    */
   unsigned image_attr_size_B, image_bufs_size_B, image_align_B;
   bool (*emit_image)(void *attr, void *bufs, unsigned index,
                      const struct panfrost_image_surface *s);

   /* A local storage descriptor: tls_base 0 means no thread storage,
    * else tls_shift gives 16 << tls_shift bytes per thread
    * (panfrost_tls_shift); wls NULL means no workgroup storage.
    */
   unsigned local_storage_size_B, local_storage_align_B;
   void (*emit_local_storage)(void *cpu, uint64_t tls_base,
                              unsigned tls_shift,
                              const struct panfrost_wls *wls);

   /* Draw emitters, NULL when the architecture has none yet: draw for
    * Valhall's IDVS path, jm for the vertex and tiler jobs of v7.
    */
   const struct panfrost_arch_draw *draw;
   const struct panfrost_arch_jm *jm;
   const struct panfrost_arch_texture *texture;

   unsigned job_align_B;
   unsigned compute_job_size_B;
   /* false when the job cannot encode the dispatch (v7: the six sizes and
    * counts share one 32-bit word).
    */
   bool (*emit_compute_job)(void *cpu, const struct panfrost_compute_job *j);

   /* Points the header of the job at cpu to the next job of the chain. */
   void (*link_job)(void *cpu, uint64_t next);
};

extern const struct panfrost_arch pan_v6_panfrost_arch;
extern const struct panfrost_arch_jm pan_v6_panfrost_arch_jm;
extern const struct panfrost_arch_texture pan_v6_panfrost_arch_texture;
extern const struct panfrost_arch_texture pan_v7_panfrost_arch_texture;
extern const struct panfrost_arch pan_v7_panfrost_arch;
extern const struct panfrost_arch_jm pan_v7_panfrost_arch_jm;
extern const struct panfrost_arch pan_v9_panfrost_arch;
extern const struct panfrost_arch_draw pan_v9_panfrost_arch_draw;
extern const struct panfrost_arch_texture pan_v9_panfrost_arch_texture;

/* The table of an architecture, NULL when none is built in. */
const struct panfrost_arch *panfrost_arch_get(unsigned arch);

#endif /* PAN_ARCH_H */
