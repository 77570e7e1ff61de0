/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#ifndef PAN_CONTEXT_H
#define PAN_CONTEXT_H

#include "pipe/p_context.h"
#include "pipe/p_state.h"
#include "util/u_debug.h"

#include "pan_arch.h"
#include "pan_batch.h"
#include "pan_compile.h"
#include "pan_compute.h"
#include "pan_gs.h"
#include "pan_xfb.h"

struct pan_index_range;

#define PANFROST_MAX_SAMPLERS 16
#define PANFROST_MAX_VBUFS 16

/* One program of a graphics shader, compiled by our compiler. */
struct panfrost_program {
   uint64_t desc;          /* shader program descriptor */
   unsigned tls_size;      /* thread storage per thread for spills */
   unsigned work_regs;     /* registers needed (panfrost_binary's) */
   uint64_t int_varyings;  /* v6/v7 vertex: panfrost_binary's */
   unsigned nr_push;
   struct pan_va_push_word push[PAN_VA_MAX_PUSH_WORDS];
   /* Fragment: the code's address and where each target's BLEND has its
    * colour and coverage, for the blend shaders it calls
    * (pan_blend_shader.c).
    */
   uint64_t binary;
   struct {
      uint8_t colour, colour1, coverage;
   } blend_regs[8];
   uint32_t blend_return[8]; /* v6/v7: panfrost_binary's */
   struct panfrost_message_preload messages[2]; /* panfrost_binary's */
};

/* A vertex or fragment state object, compiled at creation (pan_shader.c).
 * A vertex shader is two IDVS programs, position then varying; a fragment
 * shader one.  error is set when it could not be compiled: its draws are
 * dropped with that message.
 */
/* What a fragment shader variant adds to the shader: discards where the
 * enabled clip distances (bit i: gl_ClipDistance[i]) are negative
 * (pan_nir_lower_clip.c); for points, texture coordinates replaced by the
 * point coordinate (bit n: TEXn) and the point coordinate's y flipped
 * (pan_nir_lower_point_coord.c).
 */
struct panfrost_fs_key {
   uint8_t clip;
   uint8_t sprite;
   bool flip_point_coord;
   /* gl_FrontFacing false: lines and points of back faces drawn for
    * GL_LINE and GL_POINT polygons (pan_polygon_mode.c). */
   bool back_face;
};

struct panfrost_shader {
   enum pipe_shader_type stage;
   struct pan_bo *bo; /* binaries, then the program descriptors */
   struct panfrost_program progs[2];
   unsigned nr_progs;
   /* Generic varyings VARn written (vertex) or read (fragment): highest
    * n + 1, each a 16-byte slot of the vertex packet.
    */
   unsigned varying_slots;
   bool kills;        /* fragment: discards */
   /* fragment: stores or atomics to memory, which must happen for every
    * fragment the tests let through: no early tests, no forward pixel
    * kill.
    */
   bool writes_memory;
   uint32_t ssbo_slots; /* storage slots read at constant indices */
   uint32_t ssbo_reach_B; /* their accesses' last byte + 1 (pan_ssbo.h) */
   /* v9 vertex: bytes a vertex keeps of the atomics' results the IDVS
    * varying program reads back (pan_ssbo.h), 0 for none.
    */
   uint32_t vertex_results_B;
   bool writes_psiz;  /* vertex: gl_PointSize */
   bool writes_fragcolor; /* fragment: gl_FragColor, for every target */
   /* fragment: gl_FragDepth and the stencil reference (stencil export):
    * the draw takes them from the shader (ZS_EMIT), tested late.
    */
   bool writes_depth, writes_stencil;
   /* fragment: GL's early fragment tests (layout(early_fragment_tests)):
    * the tests and their updates come before the shader, whatever it
    * writes.
    */
   bool early_tests;
   bool uses_textures;
   unsigned nr_images; /* one past the highest image index used */
   /* vertex: the clip distances it writes (bit i: gl_ClipDistance[i]) */
   uint8_t clip_dist_mask;
   /* fragment: the texture coordinates (bit n: TEXn) and whether
    * gl_PointCoord are read, its NIR for the variants of rasterizer
    * state (panfrost_select_fs), and those variants, each compiled for
    * its key.
    */
   uint8_t tex_inputs;
   bool reads_point_coord;
   bool reads_face; /* fragment: gl_FrontFacing */
   /* fragment: gl_PrimitiveID, which only geometry shaders write */
   bool reads_primitive_id;
   struct nir_shader *nir;
   struct panfrost_shader *variants, *next_variant;
   struct panfrost_fs_key key;
   char error[256];
   /* Outputs captured by transform feedback, and the compute variant
    * writing them (pan_xfb.h); NULL without stream outputs.
    */
   struct pipe_stream_output_info stream_output;
   struct panfrost_compute_shader *xfb;
   /* vertex: its record variant for a geometry shader reading the
    * locations of gs_records_mask (pan_gs.h), made at the first such draw.
    */
   struct panfrost_compute_shader *gs_records;
   uint64_t gs_records_mask;
   /* vertex: the shader drawing its records of every output (gs_records
    * of outputs_written) for instanced polygon-mode draws with facing
    * (pan_polygon_mode.c), made at the first such draw.
    */
   struct panfrost_shader *polygon_vs;
   /* vertex: its variant making only its memory writes, for draws with
    * rasterizer discard (pan_discard.c), looked for at the first such draw
    * (effects_known; NULL when the shader writes no memory).
    */
   struct panfrost_compute_shader *effects;
   bool effects_known;
   /* vertex: stores or atomics to memory; once: its draws cannot make
    * them once per vertex as an IDVS pair (pan_ssbo.h) and run it once
    * as a compute variant writing every output, drawn from those records
    * by records_vs with records_ve (pan_vs_once.h), made at the first
    * such draw.
    */
   bool vs_writes_memory, once;
   struct panfrost_shader *records_vs;
   void *records_ve;
};

struct panfrost_vertex_elements {
   unsigned count;
   struct pipe_vertex_element elements[PIPE_MAX_ATTRIBS];
};

/* Gallium state as last set by the frontend. The draw path will translate
 * it into hardware descriptors; nothing here is hardware-specific. */
struct panfrost_state {
   void *blend, *rast, *zsa, *vertex_elements;
   struct panfrost_shader *shaders[PIPE_SHADER_TYPES];
   /* The fragment shader bound; shaders[PIPE_SHADER_FRAGMENT] is it or
    * its variant for the rasterizer state (panfrost_select_fs).
    */
   struct panfrost_shader *fs_bound;
   void *samplers[PIPE_SHADER_TYPES][PANFROST_MAX_SAMPLERS];
   struct pipe_sampler_view *views[PIPE_SHADER_TYPES][PANFROST_MAX_SAMPLERS];
   struct pipe_constant_buffer cbufs[PIPE_SHADER_TYPES]
                                    [PIPE_MAX_CONSTANT_BUFFERS];
   /* Bit i: slot i of the stage holds something; kept by the setters so
    * that draws need not scan every slot.
    */
   uint32_t view_mask[PIPE_SHADER_TYPES], sampler_mask[PIPE_SHADER_TYPES];
   uint32_t cbuf_mask[PIPE_SHADER_TYPES];
   struct pipe_vertex_buffer vbufs[PANFROST_MAX_VBUFS];
   uint32_t vbuf_mask; /* bound slots; kept across calls (partial binds) */
   unsigned vbuf_count;
   struct pipe_framebuffer_state fb;
   struct pipe_blend_color blend_color;
   struct pipe_stencil_ref stencil_ref;
   struct pipe_scissor_state scissor;
   struct pipe_viewport_state viewport;
   struct pipe_poly_stipple stipple;
   struct pipe_clip_state clip;
   unsigned sample_mask;
   unsigned min_samples;
};

/* What a state setter changed, for the draw path: the next draw rebuilds
 * the descriptors made from it and reuses the others from the previous
 * draw of the same pass (struct panfrost_draw_cache).
 */
enum panfrost_dirty {
   PANFROST_DIRTY_VERTEX = BITFIELD_BIT(0),   /* vertex buffers or elements */
   PANFROST_DIRTY_CONST_VS = BITFIELD_BIT(1), /* vertex constant buffers */
   PANFROST_DIRTY_CONST_FS = BITFIELD_BIT(2), /* fragment constant buffers */
   PANFROST_DIRTY_VIEWPORT = BITFIELD_BIT(3),
   PANFROST_DIRTY_BLEND = BITFIELD_BIT(4),
   PANFROST_DIRTY_ZSA = BITFIELD_BIT(5),
   PANFROST_DIRTY_TEXTURES = BITFIELD_BIT(6), /* sampler views */
   PANFROST_DIRTY_SAMPLERS = BITFIELD_BIT(7), /* sampler states */
};

/* The descriptors that hold resources' addresses: vertex buffers,
 * constant and storage buffers (push words), sampler views and images.
 */
#define PANFROST_DIRTY_STORAGE                                                 \
   (PANFROST_DIRTY_VERTEX | PANFROST_DIRTY_CONST_VS |                          \
    PANFROST_DIRTY_CONST_FS | PANFROST_DIRTY_TEXTURES)

/* Things the driver cannot do yet, each reported once per context: the
 * context keeps one bit per kind (bit N for kind N) once it has warned.
 */
enum panfrost_warning {
   PANFROST_WARN_BLIT,
   PANFROST_WARN_FORMAT,
   PANFROST_WARN_PARTIAL_CLEAR,
   PANFROST_WARN_COMPUTE,
   PANFROST_WARN_DRAW,
   PANFROST_WARN_PRELOAD,
   /* Fixed-function GL the hardware lacks and nothing lowers yet: line
    * stipple (drawn solid) and polygon modes (drawn filled). */
   PANFROST_WARN_LINE_STIPPLE,
   PANFROST_WARN_POLYGON_MODE,
};

struct panfrost_context {
   struct pipe_context base;
   struct panfrost_state state;
   unsigned dirty; /* enum panfrost_dirty, since the last draw */
   /* The screen's storage_seq the descriptors were built after. */
   unsigned storage_seq;
   /* The draw being emitted, as its shaders push it (pan_va_draw_param) */
   uint32_t draw_params[PAN_VA_DRAW_PARAMS];
   /* PANFROST_VERTEX_RESULTS_CBUF's words for the draw (pan_ssbo.h). */
   uint32_t vertex_results_words[4];
   struct panfrost_compute_ctx compute;
   struct panfrost_xfb_ctx xfb;
   struct panfrost_query *occlusion; /* the active occlusion query */
   struct {
      struct pipe_query *query; /* NULL: render unconditionally */
      bool condition;           /* the result that skips rendering */
      enum pipe_render_cond_flag mode;
   } render_cond;
   struct util_debug_callback debug;
   unsigned warned; /* bit N: warned of enum panfrost_warning N */

   /* The pass being gathered, and the fence of the last submit. */
   struct panfrost_batch batch;
   struct pipe_fence_handle *last_fence;

   /* The growable tiler heap of this context's passes, made at the first
    * draw.
    */
   struct pan_bo *tiler_heap;

   /* Rewrites draws the hardware has no mode for (quads, polygons) or
    * whose restart index is not the fixed one into indexed triangles;
    * made at the first such draw.
    */
   struct primconvert_context *primconvert;

   /* Shaders loading the render targets of passes without a clear
    * (pan_preload.c), made as needed.
    */
   struct panfrost_preload *preload;

   /* Draws blits and mipmap generation (pan_blit.c). */
   struct blitter_context *blitter;

   /* The geometry shader bound (pan_gs.h), and the index range of the
    * draw of its output while it is drawn (its indices are the GPU's).
    */
   struct panfrost_gs *gs;
   const struct pan_index_range *gs_index_range;
   /* The layer its list is drawn into (pan_layer.h); 0 for other draws. */
   unsigned gs_layer;
   /* The buffer its lists and output records are taken from (pan_gs.c) */
   struct pipe_resource *gs_arena;
   unsigned gs_arena_used;

   /* Blend shaders compiled so far, by key (pan_blend_shader.c). */
   struct panfrost_blend_shaders *blend_shaders;

   /* The polygon offset of the last draw, which its depth/stencil state
    * holds (panfrost_depth_bias_update), and whether the lines or points
    * being drawn are polygons' (pan_polygon_mode.c), which GL offsets.
    */
   struct panfrost_depth_bias depth_bias;
   bool unfilled_polygons;
   /* The lines or points being drawn are back faces' (pan_polygon_mode.c),
    * which the fragment shader's gl_FrontFacing must say. */
   bool back_face_polygons;
};

static inline struct panfrost_context *
panfrost_context(struct pipe_context *pctx)
{
   return (struct panfrost_context *)pctx;
}

/* Logs and sends a GL debug message the first time `what` happens. */
void panfrost_warn_once(struct panfrost_context *ctx,
                        enum panfrost_warning what, const char *fmt, ...)
   PRINTFLIKE(3, 4);

void panfrost_context_init_state(struct pipe_context *pctx);
void panfrost_context_init_shaders(struct pipe_context *pctx);
void panfrost_context_init_draw(struct pipe_context *pctx);
bool panfrost_context_init_blit(struct panfrost_context *ctx);
void panfrost_blit_draw(struct panfrost_context *ctx,
                       const struct pipe_blit_info *info);
void panfrost_context_release_blit(struct panfrost_context *ctx);
/* Points shaders[PIPE_SHADER_FRAGMENT] at the bound fragment shader or
 * at its variant for the clip distances the rasterizer enables and the
 * vertex shader writes, and for point sprites when drawing points.
 */
void panfrost_select_fs(struct panfrost_context *ctx, bool points);
bool panfrost_nir_lower_clip_fs(struct nir_shader *nir, unsigned enables);
bool panfrost_nir_flip_point_coord(struct nir_shader *nir);
/* gl_FrontFacing as false, and whether a shader reads it
 * (pan_nir_lower_back_face.c). */
bool panfrost_nir_back_face(struct nir_shader *nir);
bool panfrost_nir_reads_face(const struct nir_shader *nir);
/* Integer types for TGSI colour outputs storing integer texels
 * (pan_nir_type_outputs.c). */
bool panfrost_nir_type_tgsi_outputs(struct nir_shader *nir);
void panfrost_draw_vbo(struct pipe_context *pctx,
                       const struct pipe_draw_info *info,
                       unsigned drawid_offset,
                       const struct pipe_draw_indirect_info *indirect,
                       const struct pipe_draw_start_count_bias *draws,
                       unsigned num_draws);
/* Copies size_B bytes at offset_B of buffer prsc once the work writing
 * it is done; false when the range is outside the buffer or it cannot be
 * mapped.  Indirect draws and dispatches read their arguments with it.
 */
bool panfrost_read_buffer(struct panfrost_context *ctx,
                          struct pipe_resource *prsc, uint64_t offset_B,
                          unsigned size_B, void *dst);
void panfrost_context_release_state(struct pipe_context *pctx);
/* The polygon offset a draw of `mode` takes from the rasterizer; marks the
 * depth/stencil state dirty when it changes. */
void panfrost_depth_bias_update(struct panfrost_context *ctx,
                                enum pipe_prim_type mode);

#endif
