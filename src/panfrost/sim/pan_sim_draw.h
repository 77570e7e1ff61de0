/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Arch-neutral parts of the graphics pipeline of the simulator:
 *    pan_sim_attrib.c  attribute/varying memory formats <-> registers
 *    pan_sim_raster.c  the functional polygon list (primitives recorded by
 *                      the tiler job, keyed by tiler context), triangle
 *                      setup and coverage, fixed-function blending
 * The per-arch executors (pan_sim_vX_vertex.c, pan_sim_vX_tiler.c,
 * pan_sim_vX_shade.c) read the descriptors and call these.
 */

#ifndef PAN_SIM_DRAW_H
#define PAN_SIM_DRAW_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- memory formats of attributes and varyings (pan_sim_attrib.c) ---- */

enum pan_sim_num {
   PAN_SIM_NUM_FLOAT,
   PAN_SIM_NUM_UNORM,
   PAN_SIM_NUM_SNORM,
   PAN_SIM_NUM_UINT,
   PAN_SIM_NUM_SINT,
};

struct pan_sim_mem_format {
   unsigned comps; /* 1..4 */
   unsigned bits;  /* per component: 8, 16, 32 (8 for rgb10_a2: 4 bytes) */
   enum pan_sim_num num;
   /* One 32-bit word of 10, 10, 10 and 2 bits (rgb10_a2*). */
   bool rgb10_a2;
   /* Register component c takes memory component order[c]; 4 and 5 are
    * the constants 0 and 1 (the descriptor's component order or swizzle;
    * the identity after parsing).
    */
   uint8_t order[4];
};

#include "pan_sim_regfmt.h"

/* Parse a hardware format name ("rgba32f", "rgba8_unorm", "r32ui",
 * "snap_4" as four floats...); false when the simulator does not model
 * it. */
bool pan_sim_mem_format_parse(const char *name, struct pan_sim_mem_format *f);

/* The register format a conversion with AUTO uses for this format. */
enum pan_sim_regfmt pan_sim_auto_regfmt(const struct pan_sim_mem_format *f);

/* Element in memory -> comps register values (missing components read
 * 0, 0, 0, 1).  16-bit register formats pack two components per word. */
void pan_sim_mem_to_regs(const struct pan_sim_mem_format *f, const void *src,
                         enum pan_sim_regfmt regfmt, unsigned comps,
                         uint32_t out[4]);

/* comps register values -> element in memory (only those components).
 * Integers narrower than the register keep their low bits. */
void pan_sim_regs_to_mem(const struct pan_sim_mem_format *f,
                         enum pan_sim_regfmt regfmt, unsigned comps,
                         const uint32_t in[4], void *dst);

/* The same as the blend unit converts a colour into a raw tile-buffer
 * format: integers narrower than the register are clamped to the
 * component's range (an 8-bit unsigned target keeps 255 of 1000). */
void pan_sim_regs_to_tile(const struct pan_sim_mem_format *f,
                          enum pan_sim_regfmt regfmt, unsigned comps,
                          const uint32_t in[4], void *dst);

/* Register values -> floats (f16/f32 register formats only). */
bool pan_sim_regs_to_float(enum pan_sim_regfmt regfmt, const uint32_t in[4],
                           unsigned comps, float out[4]);

/* R11G11B10F, which pan_sim_mem_format does not describe (three unsigned
 * floats of 11, 11 and 10 bits, red lowest), shared by the tile buffer
 * and converting stores: channel c (0..2) as a float, and old with the
 * channels in mask replaced by src rounded to nearest even. */
float pan_sim_r11g11b10_channel(uint32_t word, unsigned c);
uint32_t pan_sim_r11g11b10_pack(const float src[3], unsigned mask,
                                uint32_t old);

/* ---- the functional polygon list (pan_sim_raster.c) ---- */

/* A vertex as the tiler saw it: window coordinates, 1/w, and its index
 * among the vertex job's outputs (for the varyings). */
struct pan_sim_vtx {
   float x, y, z, inv_w;
   uint32_t index;
};

struct pan_sim_prim {
   struct pan_sim_vtx v[3];
   unsigned provoking; /* 0..2: the vertex of flat varyings */
   bool front;
   /* > 0: a point of this size (pixels) centred on v[0] (v[1], v[2] are
    * copies of it); 0: the triangle v[0..2]. */
   float point_size;
   /* > 0: the segment v[0] -> v[1] of this width (v[2] a copy of v[1];
    * pan_sim_line.h). */
   float line_width;
   unsigned draw; /* into pan_sim_plist.draws */
};

/* What the fragment job needs of one draw: the tiler job's draw section,
 * packed as in memory, and its viewport/depth settings. */
#define PAN_SIM_DRAW_B 128
struct pan_sim_draw_rec {
   uint8_t draw[PAN_SIM_DRAW_B];
   bool low_depth_cull, high_depth_cull;
   /* v9: the job's scissor box (inclusive) and the vertex packets the
    * malloc-vertex job allocated, in host memory owned by the list
    * (PAN_SIM_PACKET_* below); vertex indices of the primitives index
    * them.  NULL before v9. */
   uint16_t scissor[4]; /* min x, min y, max x, max y */
   uint8_t *packets;
   uint32_t packet_B, nr_packets;
};

/* A v9 vertex packet: the position (window x, y, z and 1/w as binary32),
 * the point size (binary32, 0 when not written) and the varyings the
 * varying shader stored, at their byte offsets from
 * PAN_SIM_PACKET_VARYINGS. */
#define PAN_SIM_PACKET_POINT_SIZE 16
#define PAN_SIM_PACKET_VARYINGS 32

struct pan_sim_plist {
   uint64_t key; /* the tiler context's address */
   struct pan_sim_draw_rec *draws;
   unsigned nr_draws, cap_draws;
   struct pan_sim_prim *prims;
   unsigned nr_prims, cap_prims;
};

/* Primitives of one frame at most, so a runaway draw cannot eat the
 * host's memory. */
#define PAN_SIM_MAX_PRIMS (1u << 22)

/* The list of tiler context `key`, created empty when missing; NULL when
 * out of memory. */
struct pan_sim_plist *pan_sim_plist_get(uint64_t key);
/* Detach the list of `key` (NULL when nothing was drawn); the caller frees
 * it with pan_sim_plist_free. */
struct pan_sim_plist *pan_sim_plist_take(uint64_t key);
void pan_sim_plist_free(struct pan_sim_plist *l);
/* Append; false when out of memory or over PAN_SIM_MAX_PRIMS. */
bool pan_sim_plist_add_draw(struct pan_sim_plist *l,
                            const struct pan_sim_draw_rec *d);
bool pan_sim_plist_add_prim(struct pan_sim_plist *l,
                            const struct pan_sim_prim *p);

/* ---- triangle setup and coverage ---- */

/* Vertices snapped to 1/256 pixel; edge functions in exact integers. */
#define PAN_SIM_SUBPIXEL_BITS 8

struct pan_sim_tri {
   int64_t x[3], y[3]; /* snapped */
   int64_t area2;      /* twice the area, > 0 */
   int64_t sign;       /* 1: counter-clockwise (y up), -1: clockwise */
   float z[3], inv_w[3];
   int minx, miny, maxx, maxy; /* pixel bounding box, inclusive */
};

/* Set the triangle up; false for a degenerate one or one the simulator
 * cannot rasterise (a vertex at or behind the eye, coordinates beyond the
 * guard band).  *ccw: positive area in the (x, row) frame, that is
 * counter-clockwise with y up (clockwise as the hardware counts). */
bool pan_sim_tri_setup(const struct pan_sim_prim *p, struct pan_sim_tri *t,
                       bool *ccw);

/* Whether the centre of pixel (x, y) is covered (top-left fill rule).
 * The screen-space barycentrics go to b either way (outside the triangle
 * they extrapolate its plane, what helper lanes interpolate). */
bool pan_sim_tri_covers(const struct pan_sim_tri *t, int x, int y, double b[3]);

/* The same at the point (sx, sy) of pixel (x, y), in 1/256 pixel from
 * its top-left corner (a sample position; 128, 128 is the centre). */
bool pan_sim_tri_covers_at(const struct pan_sim_tri *t, int x, int y,
                           unsigned sx, unsigned sy, double b[3]);

/* Points: the square of side `size` around (px, py), left and top edges
 * included; pixel bounding box in *x0..*y1 (inclusive). */
void pan_sim_point_box(float px, float py, float size, int *x0, int *y0,
                       int *x1, int *y1);
bool pan_sim_point_covers(float px, float py, float size, int x, int y);
/* At the point (sx, sy) of the pixel, in 1/256 pixel. */
bool pan_sim_point_covers_at(float px, float py, float size, int x, int y,
                             unsigned sx, unsigned sy);

/* ---- polygon offset (depth bias) ---- */

/* A draw's depth bias, as its descriptors give it. */
struct pan_sim_bias {
   float units;  /* in steps of the depth format */
   float factor; /* times the primitive's largest depth slope */
   float clamp;  /* > 0: upper bound, < 0: lower bound, 0: none */
};

/* The offset added to primitive p's depths: factor times the larger of
 * |dz/dx| and |dz/dy| of a triangle (lines and points have no slope) plus
 * units times the depth format's step, 2^-z_bits for unorm depth and
 * 2^(e - 23) for float depth, e the exponent of the primitive's largest
 * |z| (24-bit steps without a depth buffer); then clamped. */
double pan_sim_depth_bias(const struct pan_sim_bias *b,
                          const struct pan_sim_prim *p, unsigned z_bits,
                          bool z_float);

/* ---- fixed-function blending ---- */

struct pan_sim_blend_fn {
   unsigned a, b, c; /* blend_operand_a/b/c enum values */
   bool negate_a, negate_b, invert_c;
};

/* One channel: src/dst in [0, 1] (unorm targets), src_a/dst_a the
 * alphas, k the constant. */
float pan_sim_blend_channel(const struct pan_sim_blend_fn *fn, float src,
                            float dst, float src_a, float dst_a, float k);

/* ---- the tile buffer of a frame with draws (pan_sim_tilebuf.c) ---- */

#define PAN_SIM_MAX_RTS 8
#define PAN_SIM_WRITTEN_DEPTH (1u << 15)
#define PAN_SIM_WRITTEN_STENCIL (1u << 14)

/* A colour target in the tile buffer: the tile-buffer word of every pixel
 * (unorm channels of int_bits, frac_bits below them, as the clear words),
 * four words a pixel. */
struct pan_sim_tb_rt {
   bool present;
   bool raw; /* the words hold the memory bytes of the pixel */
   uint8_t int_bits[4], frac_bits[4];
   uint32_t *words;
};

/* Samples a pixel at most (the largest sample pattern the framebuffer
 * descriptor names is 16x). */
#define PAN_SIM_MAX_SAMPLES 16

/* Every array holds `samples` consecutive entries a pixel: colour words,
 * depth, stencil and the written flags are per sample, as in the
 * hardware's multisampled tile buffer. */
struct pan_sim_tilebuf {
   int x0, y0;    /* the frame's first pixel */
   unsigned w, h; /* pixels */
   unsigned samples;
   /* Sample positions in 1/256 pixel from the pixel's top-left corner
    * (the framebuffer's sample location table). */
   uint16_t sample_x[PAN_SIM_MAX_SAMPLES], sample_y[PAN_SIM_MAX_SAMPLES];
   struct pan_sim_tb_rt rt[PAN_SIM_MAX_RTS];
   /* The depth buffer's format, for the polygon offset's step (bits 0:
    * none). */
   uint8_t z_bits;
   bool z_float;
   float *depth;      /* per sample */
   uint8_t *stencil;  /* per sample */
   uint16_t *written; /* bit n: colour target n changed; DEPTH: depth */
};

/* Allocate for w x h pixels of `samples` samples each, at the pixel
 * centre until the caller sets the positions; the colour targets are
 * added by the caller (pan_sim_tilebuf_add_rt).  False when out of
 * memory or for more than PAN_SIM_MAX_SAMPLES samples. */
bool pan_sim_tilebuf_init(struct pan_sim_tilebuf *tb, int x0, int y0,
                          unsigned w, unsigned h, unsigned samples,
                          float z_clear, uint8_t s_clear);
bool pan_sim_tilebuf_add_rt(struct pan_sim_tilebuf *tb, unsigned rt,
                            const uint8_t int_bits[4],
                            const uint8_t frac_bits[4],
                            const uint32_t clear[4]);
void pan_sim_tilebuf_fini(struct pan_sim_tilebuf *tb);

/* Start colour target fill->rt from the image in memory over rect (after
 * pan_sim_fill_check): the functional effect of a pre-frame shader that
 * loads the tile buffer.  False after a fault. */
struct pan_sim_ctx;
struct pan_sim_fill;
struct pan_sim_rect;
bool pan_sim_tilebuf_load_rt(struct pan_sim_ctx *ctx,
                             struct pan_sim_tilebuf *tb,
                             const struct pan_sim_fill *fill,
                             const struct pan_sim_rect *rect);

/* Index of sample 0 of pixel (x, y); its other samples follow. */
static inline unsigned
pan_sim_tilebuf_at(const struct pan_sim_tilebuf *tb, int x, int y)
{
   return ((unsigned)(y - tb->y0) * tb->w + (unsigned)(x - tb->x0)) *
          tb->samples;
}

/* Tile-buffer word <-> RGBA in [0, 1]. */
void pan_sim_tib_decode(const struct pan_sim_tb_rt *rt, const uint32_t *w,
                        float rgba[4]);
void pan_sim_tib_encode(const struct pan_sim_tb_rt *rt, const float rgba[4],
                        unsigned mask, uint32_t *w);

#ifdef __cplusplus
}
#endif

#endif
