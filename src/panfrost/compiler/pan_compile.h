/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Entry point of our compiler: a NIR compute, vertex or fragment shader in,
 * Valhall (v9) instruction words out.  See docs/drivers/panfrost/compiler.rst.
 */

#ifndef PAN_COMPILE_H
#define PAN_COMPILE_H

#include "compiler/nir/nir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* NIR options the shaders given to pan_va_compile should be built with. */
extern const nir_shader_compiler_options pan_va_nir_options;

/*
 * Where FAU uniform word k of a vertex or fragment shader comes from: the
 * driver fills the push constants in this order (docs: driver interface).
 */
enum pan_va_push_source {
   PAN_VA_PUSH_UBO,             /* word at offset_B of UBO ubo */
   PAN_VA_PUSH_VIEWPORT_SCALE,  /* component offset_B / 4 of the scale */
   PAN_VA_PUSH_VIEWPORT_OFFSET, /* component offset_B / 4 of the offset */
   /* Component offset_B / 4 of the integer size of texture `ubo` at its
    * view's first level, in textureSize() order: width, then height
    * (not 1D), then depth (3D) or the layers (arrays; cube arrays count
    * cubes); component 3 is the view's level count (textureQueryLevels).
    */
   PAN_VA_PUSH_TEXTURE_SIZE,
   /* The constant offset_B itself (the compiler's constants). */
   PAN_VA_PUSH_CONSTANT,
   /* Word offset_B / 4 of the draw's parameters (PAN_VA_DRAW_*). */
   PAN_VA_PUSH_DRAW,
   /* Component offset_B / 4 of imageSize() of image `ubo` (graphics
    * stages; compute drivers lower image_size themselves). */
   PAN_VA_PUSH_IMAGE_SIZE,
};

/* The draw parameters a vertex shader can push (PAN_VA_PUSH_DRAW). */
enum pan_va_draw_param {
   /* What the vertex ID register counts from: gl_VertexID is the register
    * plus this (Bifrost's vertex jobs count from their first vertex;
    * Valhall's IDVS register already holds the whole ID: 0 there). */
   PAN_VA_DRAW_FIRST_VERTEX,
   PAN_VA_DRAW_BASE_VERTEX,   /* gl_BaseVertex: the index bias, or 0 */
   PAN_VA_DRAW_BASE_INSTANCE, /* gl_BaseInstance */
   PAN_VA_DRAW_ID,            /* gl_DrawID */
   PAN_VA_DRAW_PARAMS,
};

struct pan_va_push_word {
   uint8_t source; /* enum pan_va_push_source */
   uint8_t ubo;
   uint32_t offset_B;
};

#define PAN_VA_MAX_PUSH_WORDS 128

/* Where a fragment shader's BLEND has its colour (4 registers from
 * colour), the second colour of dual-source blending (the first again
 * without) and the coverage; 0xff when no BLEND. */
struct pan_blend_regs {
   uint8_t colour, colour1, coverage;
};

struct pan_va_binary {
   uint64_t *words; /* ralloc'd on the mem_ctx given */
   unsigned nr_words;
   /* Register file needed: <= 16 (r0..work_regs-1 only), 32 (the half
    * file r0-r15 + r48-r63) or 64 (compiler.rst, register allocation). */
   unsigned work_regs;
   unsigned loops;     /* NIR loops compiled */
   /* Thread-local storage per thread (bytes) the driver must provide for
    * spilled values, and the stores and loads spilling added. */
   unsigned tls_size;
   unsigned spills, fills;
   /* Graphics stages: the pushed uniform words, u0 first. */
   struct pan_va_push_word push[PAN_VA_MAX_PUSH_WORDS];
   unsigned nr_push;
   /* Fragment shaders: where the BLEND of each render target has its
    * colours and coverage, which a blend shader it calls reads there
    * (pan_va_blend_options). */
   struct pan_blend_regs blend_regs[8];
};

/*
 * Varyings live in 16-byte slots of the IDVS varying buffer (one record
 * each on v6/v7): generic VARn is slot n, the fixed-function ones
 * (colours, texture coordinates, clip distances, fog, the primitive id)
 * take the slots after the 32 generic ones in a fixed order, so that a
 * vertex and a fragment shader compiled apart agree.  The slot of a varying location,
 * or -1 for one that has none; and the slots a shader with these varyings
 * (outputs written, inputs read) needs: one past the highest.
 */
#define PAN_VA_GENERIC_SLOTS 32
#define PAN_VA_VARYING_SLOTS 48
int pan_va_varying_slot(unsigned location);
unsigned pan_va_varying_slots(uint64_t locations);

/* Bifrost: the varying record a vertex shader writes gl_PointSize
 * through (one binary32 per vertex), past every varying slot. */
#define PAN_BI_POINT_SIZE_RECORD PAN_VA_VARYING_SLOTS

/* Which program a vertex shader becomes: the v9 driver runs IDVS, a
 * position shader then a varying shader (docs: driver interface). */
enum pan_va_variant {
   PAN_VA_VARIANT_DEFAULT,  /* compute and fragment shaders */
   PAN_VA_VARIANT_POSITION, /* gl_Position and gl_PointSize only */
   PAN_VA_VARIANT_VARYING,  /* the other outputs only */
};

/*
 * A v9 blend shader (docs/drivers/panfrost/blend.rst), which the fragment
 * shader's BLEND calls with its return address in r48 (0: end the
 * thread), sharing the fragment shader's registers: it reads the source
 * colour and the coverage where that BLEND has them (the fragment
 * shader's pan_va_binary.blend_regs).  Its NIR is a fragment shader:
 * load_input at location VARYING_SLOT_VAR0 is that colour (32-bit float
 * or integer words), at VARYING_SLOT_VAR1 the second colour of
 * dual-source blending, load_output of the target's colour reads the
 * destination from the tile buffer (LD_TILE through `conversion`, in
 * registers of the output's type), and store_output writes the result
 * through the internal blend descriptor `store` (opaque, naming the
 * render target and its conversion).  Blend shaders push nothing
 * (constants are in the code) and write r0-r15 only, unless called by
 * the caller's last BLEND (`last`: it ends the thread, nothing of the
 * caller's is left to keep).
 */
struct pan_va_blend_options {
   unsigned rt;
   uint32_t conversion; /* internal conversion descriptor, packed */
   uint64_t store;      /* internal blend descriptor, packed */
   uint8_t colour_reg, colour1_reg, coverage_reg;
   bool last;
   /* Samples of the target (0 or 1: single-sampled); more means the draw
    * is shaded once a sample and the blend shader blends that sample. */
   uint8_t nr_samples;
};

struct pan_va_compile_options {
   /* Keep uniforms in movs instead of folding them into sources (to
    * measure the folding). */
   bool no_fau_fold;
   enum pan_va_variant variant;
   /* Registers r0..max_regs-1 only (0: all), to test spilling. */
   unsigned max_regs;
   /* Compile a blend shader (fragment NIR) when not NULL. */
   const struct pan_va_blend_options *blend;
};

/*
 * Shared variables of a compute shader laid out at their natural sizes
 * (the total in info.shared_size, the bytes a workgroup needs) and their
 * accesses turned into load_shared / store_shared at 32-bit offsets.  The
 * compilers run it themselves; a driver that needs the size before
 * compiling (a cached binary skips the compiler) runs it first, and the
 * second run changes nothing.
 */
void pan_nir_lower_shared(nir_shader *nir);

/*
 * Compile; the NIR is lowered in place.  Returns false with a message in
 * err for what the compiler does not support (no crash, nothing leaked).
 * When print_ir is set, the IR is printed there after each pass.
 */
bool pan_va_compile(nir_shader *nir, void *mem_ctx, struct pan_va_binary *out,
                    FILE *print_ir, char *err, size_t err_size);

/* The same with options (NULL: defaults). */
bool pan_va_compile_opts(nir_shader *nir, void *mem_ctx,
                         const struct pan_va_compile_options *opts,
                         struct pan_va_binary *out, FILE *print_ir, char *err,
                         size_t err_size);

/*
 * Bifrost (v6 Mali-G72, v7 Mali-G52): the same NIR in (built with
 * pan_va_nir_options), clauses out; vertex shaders as IDVS variants like
 * on v9.  See docs/drivers/panfrost/compiler.rst, "Bifrost".
 */
struct pan_bi_stats {
   unsigned instrs;  /* FMA and ADD slots that are not NOPs */
   unsigned tuples;  /* tuples, NOP-only ones included */
   unsigned clauses;
   unsigned quads;   /* 128-bit quadwords, constants included */
   unsigned nops;    /* FMA and ADD NOP slots */
   /* Tuples holding a message; messages by kind. */
   unsigned msg_tuples, msg_tex, msg_vary, msg_ldst;
   /* What the stock report's cycle estimate counts (pan_compile_report.c):
    * message tuples whose other slot does arithmetic, and the 16-bit
    * halves varying messages interpolate (two per 32-bit component). */
   unsigned msg_arith_tuples, vary_halves;
};

/* A v7 fragment message preload (pan_bi_message_preload.c), the first
 * landing in r0.., the second in r4..: comps words (0 when unused) of an
 * interpolated f32 varying (LD_VAR_IMM at the centre) or, with texture,
 * the 2D lookup (VAR_TEX, f32) of texture and sampler texture_index at
 * words 0 and 1 of that varying, at LOD 0 when zero_lod.  varying is the
 * record the message names, slot the varying slot it reads: they differ
 * for a VAR_TEX of a slot beyond its 3-bit index, whose record is then a
 * record below 8 the shader does not read, which the driver points at
 * the slot in the fragment job's table. */
struct pan_bi_message_preload {
   uint8_t varying, slot, comps;
   bool texture, zero_lod;
   uint8_t texture_index;
};

struct pan_bi_binary {
   uint64_t *words; /* ralloc'd on the mem_ctx given; 2 per quadword */
   unsigned nr_words;
   /* Register file needed: <= 16 (r0..work_regs-1 only), 32 (the half
    * file r0-r15 + r48-r63) or 64 (compiler.rst, register allocation). */
   unsigned work_regs;
   /* Vertex shaders: the varying slots stored as 32-bit integers (bit n:
    * slot n), whose records must be integer ones (ST_CVT .u32 moves the
    * bits; a float record would convert them). */
   uint64_t int_varyings;
   unsigned loops;
   unsigned preloads; /* hardware-preloaded registers read */
   struct pan_bi_message_preload messages[2];
   struct pan_bi_stats stats;
   /* Graphics stages: the pushed uniform words, u0.w0 first. */
   struct pan_va_push_word push[PAN_VA_MAX_PUSH_WORDS];
   unsigned nr_push;
   /* Spilling: bytes of thread storage per thread, stores, fills. */
   unsigned tls_size, spills, fills;
   /* Fragment shaders: where each target's BLEND has its colours and
    * coverage (as pan_va_binary.blend_regs), and the byte offset of the
    * clause a blend shader it calls returns to (0: none, the BLEND ends
    * the shader), which its blend descriptor gives (pan_bi_blend.c). */
   struct pan_blend_regs blend_regs[8];
   uint32_t blend_return[8];
};

struct pan_bi_compile_options {
   unsigned arch; /* 6 or 7; 0: 7 */
   enum pan_va_variant variant;
   /* Registers r0..max_regs-1 only (0: all), to test spilling. */
   unsigned max_regs;
   /* Compile a blend shader (as pan_va_compile_options.blend: its BLEND
    * hands it the return address in r48, where it jumps back). */
   const struct pan_va_blend_options *blend;
};

bool pan_bi_compile(nir_shader *nir, void *mem_ctx,
                    const struct pan_bi_compile_options *opts,
                    struct pan_bi_binary *out, FILE *print_ir, char *err,
                    size_t err_size);

/* Slots of a varying or attribute type: its vec4 count, the unit of the
 * drivers' I/O locations (a type_size for nir_lower_io). */
int pan_vec4_slots(const struct glsl_type *type, bool bindless);

/*
 * Reports (pan_compile_report.c).  BIFROST_MESA_DEBUG, as users of the
 * stock compiler know it: "shaders" prints the NIR, our IR after each
 * pass and the disassembly; "shaderdb" one line of statistics per shader.
 */
#define PAN_COMPILER_DEBUG_SHADERS  (1u << 0)
#define PAN_COMPILER_DEBUG_SHADERDB (1u << 1)

unsigned pan_compiler_debug(void);

/* The stage as the stock report names it (IDVS halves included). */
const char *pan_shaderdb_stage_name(gl_shader_stage stage,
                                    enum pan_va_variant variant);

/* Valhall instructions per execution unit of the ISA description. */
struct pan_va_unit_counts {
   unsigned fma, cvt, sfu, v, t, ls;
};

void pan_va_unit_counts(const struct pan_va_binary *bin,
                        struct pan_va_unit_counts *u);

/* The shader-db line the stock compiler prints after "SHADER-DB: ", with
 * its keys and meaning (v9: cycles per unit; v6/v7: tuples, clauses and
 * message counts).  Returns what snprintf returns. */
int pan_va_shaderdb_line(const struct pan_va_binary *bin, const char *stage,
                         char *buf, size_t size);
int pan_bi_shaderdb_line(const struct pan_bi_binary *bin, unsigned arch,
                         const char *stage, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
