/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Compute: shader state objects compiled with our Valhall compiler, the
 * push words a dispatch fills for them, and launch_grid.  The driver side
 * of the interface is described in docs/drivers/panfrost/draw-path.rst.
 */

#ifndef PAN_COMPUTE_H
#define PAN_COMPUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pipe/p_state.h"

struct nir_shader;
struct pan_bo;
struct panfrost_context;

#define PANFROST_MAX_SSBOS 16
/* Images per stage (PIPE_SHADER_CAP_MAX_SHADER_IMAGES), within the
 * 16 the compiler's image instructions index. */
#define PANFROST_MAX_IMAGES 8
/* Constant buffers per stage: 0 for GL uniforms, 15 uniform blocks. */
#define PANFROST_MAX_CONST_BUFFERS 16
#define PANFROST_MAX_PUSH_ENTRIES 64
/* The compiler's limit on uniform words (pan_compile.h). */
#define PANFROST_MAX_PUSH_WORDS 128
/* Shared memory per workgroup (PIPE_COMPUTE_CAP_MAX_LOCAL_SIZE). */
#define PANFROST_MAX_SHARED_B (32u << 10)

/* What a push word holds; each entry is filled at dispatch. */
enum panfrost_push_source {
   PANFROST_PUSH_SSBO_ADDR,      /* 64-bit address of SSBO slot index */
   PANFROST_PUSH_SSBO_SIZE,      /* bytes bound at SSBO slot index */
   PANFROST_PUSH_UBO_ADDR,       /* 64-bit address of constant buffer index */
   /* 64-bit address of a table of the constant buffers' 64-bit addresses
    * (0 when unbound), for block indices known only at run time. */
   PANFROST_PUSH_UBO_TABLE,
   /* 64-bit address of a table of the storage slots, 4 words each as in
    * PANFROST_SSBO_CBUF (address, size, 0), for run-time block indices. */
   PANFROST_PUSH_SSBO_TABLE,
   PANFROST_PUSH_NUM_WORKGROUPS, /* component index of the grid */
   PANFROST_PUSH_WORKGROUP_SIZE, /* component index of the block */
   PANFROST_PUSH_INPUT,          /* word at byte offset of the kernel input */
   /* imageSize() component index % 4 of image index / 4 (pan_image.h) */
   PANFROST_PUSH_IMAGE_SIZE,
   /* textureSize() at the view's first level, component index % 4 of
    * sampler view index / 4 (panfrost_texture_size; 3: the level count) */
   PANFROST_PUSH_TEXTURE_SIZE,
};

struct panfrost_push_entry {
   uint8_t source; /* enum panfrost_push_source */
   uint8_t words;  /* 1, or 2 for addresses (64-bit aligned) */
   uint16_t index;
   uint32_t offset_B;
   unsigned first_word;
};

struct panfrost_push_layout {
   struct panfrost_push_entry entries[PANFROST_MAX_PUSH_ENTRIES];
   unsigned count;
   unsigned nr_words;
};

/*
 * Rewrites what the compiler cannot reach by itself into push constants
 * and global memory: SSBO and constant buffer accesses become global loads,
 * stores and atomics at pushed addresses (the SSBO part shared with draws,
 * pan_nir_lower_ssbo.c), grid and block sizes and kernel inputs
 * become push words, and so do textureSize() (minified in NIR for
 * other levels); gl_LocalInvocationIndex is computed from the local
 * id.  false with a message in err for what the driver does not support
 * (too many push words, kernel inputs at run-time offsets).
 */
bool panfrost_nir_lower_compute(struct nir_shader *nir,
                                struct panfrost_push_layout *layout, char *err,
                                size_t err_size);

/* Guards every image load, store and atomic by its coordinates against
 * imageSize() (pan_nir_lower_image_bounds.c): outside the image, or with
 * no image bound, loads and atomics return 0 and stores do nothing, as GL
 * says.
 */
void panfrost_nir_lower_image_bounds(struct nir_shader *nir);

/* One past the highest image index the shader's image intrinsics name
 * (constants folded first). */
unsigned panfrost_nir_image_count(struct nir_shader *nir);

/* A compute state object.  error is set when the shader could not be
 * compiled: dispatches of it are dropped with that message.
 */
struct panfrost_compute_shader {
   struct pan_bo *bo; /* binary, then the shader program descriptor */
   uint64_t shader_desc;
   unsigned work_regs;
   unsigned tls_size; /* spilled bytes per thread */
   unsigned wls_B;    /* shared memory bytes per workgroup */
   struct panfrost_push_layout push;
   unsigned input_B; /* kernel input bytes the shader may read */
   unsigned nr_images; /* one past the highest image the shader uses */
   bool uses_textures; /* samples or fetches through sampler views */
   /* The stage whose sampler views and samplers it uses: the compute
    * stage, or the geometry stage for a geometry shader's variant. */
   enum pipe_shader_type tex_stage;
   /* The stage whose storage buffers and images it uses: the vertex
    * stage for the vertex shader's compute variants (pan_xfb.h). */
   enum pipe_shader_type mem_stage;
   char error[256];
};

/* Whether dispatching so would sample a texture the pending render pass
 * writes (the batch must be submitted first for it to see the pixels). */
bool panfrost_compute_samples_pass_output(struct panfrost_context *ctx,
                                          const struct panfrost_compute_shader *so);

/* Submits the pending batch when a dispatch of so must not join it (its
 * pass has draws that must run first).  launch_grid does it; callers that
 * put the dispatch's inputs in the batch's memory first call it before,
 * since a submit releases that memory.
 */
void panfrost_compute_submit_before(struct panfrost_context *ctx,
                                    const struct panfrost_compute_shader *so);

/* Buffers and images bound per stage through set_shader_buffers and
 * set_shader_images. */
struct panfrost_compute_ctx {
   struct pipe_shader_buffer ssbos[PIPE_SHADER_TYPES][PANFROST_MAX_SSBOS];
   struct pipe_image_view images[PIPE_SHADER_TYPES][PANFROST_MAX_IMAGES];
   uint32_t ssbo_writable[PIPE_SHADER_TYPES];
   /* The vertex and fragment stages' slots as the words of their
    * constant buffer PANFROST_SSBO_CBUF (pan_ssbo.h), 4 per slot.
    */
   uint32_t gfx_ssbo_words[2][PANFROST_MAX_SSBOS * 4];
   /* Where unbound slots that draws name point (PANFROST_SSBO_SINK_B),
    * made by the first such draw.
    */
   struct pan_bo *ssbo_sink;
   struct panfrost_compute_shader *shader;
};

void panfrost_context_init_compute(struct pipe_context *pctx);
void panfrost_context_release_compute(struct panfrost_context *ctx);

#endif /* PAN_COMPUTE_H */
