/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The simulator's texture unit, shared by every architecture and both
 * shader interpreters (pan_sim_texture.c).
 *
 * Layering, as for the other executors: the per-arch file
 * (pan_sim_vX_texture.c) unpacks texture, surface/plane and sampler
 * descriptors with genxml into the neutral descriptions below; the
 * neutral code decodes texels, addresses linear and u-interleaved
 * surfaces, wraps, filters, selects mip levels and compares.  The
 * interpreters decode their message instructions into a pan_sim_tex_req
 * (one 2x2 quad at a time, so that derivatives exist) and hand it to the
 * executor through a pan_sim_tex_ops callback.
 *
 * This header holds only types and inline helpers so that the
 * interpreters' libraries can include it without linking the sampler.
 */

#ifndef PAN_SIM_TEXTURE_H
#define PAN_SIM_TEXTURE_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PAN_SIM_TEX_ERR_LEN 160

/* ---- requests from the interpreters ---- */

enum pan_sim_tex_op {
   PAN_SIM_TEX_SAMPLE, /* filtered, LOD as lod_mode says */
   PAN_SIM_TEX_FETCH,  /* integer texel coordinates, no filtering */
   PAN_SIM_TEX_GATHER, /* the 2x2 footprint's component gather_comp */
};

enum pan_sim_tex_lod {
   PAN_SIM_TEX_LOD_COMPUTE,  /* from the quad's derivatives */
   PAN_SIM_TEX_LOD_ZERO,     /* level 0 */
   PAN_SIM_TEX_LOD_EXPLICIT, /* lod[] */
   PAN_SIM_TEX_LOD_BIAS,     /* computed + lod[], clamped below lod_min[] */
};

/* Dimensions, numbered as the descriptors' texture_dimension. */
enum pan_sim_tex_dim {
   PAN_SIM_TEX_CUBE = 0,
   PAN_SIM_TEX_1D = 1,
   PAN_SIM_TEX_2D = 2,
   PAN_SIM_TEX_3D = 3,
};

/* Result register formats (the interpreters' register_format numbering,
 * see pan_sim_draw.h) and the clamp of float results. */
enum pan_sim_tex_clamp {
   PAN_SIM_TEX_CLAMP_NONE,
   PAN_SIM_TEX_CLAMP_POS, /* [0, inf) */
   PAN_SIM_TEX_CLAMP_PM1, /* [-1, 1] */
   PAN_SIM_TEX_CLAMP_01,  /* [0, 1] */
};

#define PAN_SIM_TEX_QUAD 4

/* One texture instruction for the four lanes of a quad (lane i of the
 * quad: pixel (i & 1, i >> 1) of it).  Lanes outside `lanes` take part
 * in derivatives only. */
struct pan_sim_tex_req {
   uint32_t texture, sampler; /* table indices */
   enum pan_sim_tex_op op;
   unsigned gather_comp; /* 0..3 */
   enum pan_sim_tex_dim dim;
   bool array, shadow, offset;
   enum pan_sim_tex_lod lod_mode;
   unsigned regfmt; /* 0 f16, 1 f32, 2 s32, 3 u32, 4 s16, 5 u16 */
   enum pan_sim_tex_clamp clamp;
   unsigned mask; /* components written, bit c for component c */
   unsigned lanes;

   /* Per lane: coordinates (binary32 for SAMPLE/GATHER, integers for
    * FETCH; cube maps: s, t in [0, 1] of the face), cube face 0..5, array
    * layer, explicit LOD or bias (and lower clamp) in LOD units, fetch
    * level, shadow reference, texel offsets. */
   uint32_t coord[PAN_SIM_TEX_QUAD][3];
   unsigned face[PAN_SIM_TEX_QUAD];
   uint32_t layer[PAN_SIM_TEX_QUAD];
   float lod[PAN_SIM_TEX_QUAD], lod_min[PAN_SIM_TEX_QUAD];
   uint32_t level[PAN_SIM_TEX_QUAD];
   float ref[PAN_SIM_TEX_QUAD];
   int8_t offsets[PAN_SIM_TEX_QUAD][3];
   /* FETCH from a multisampled texture: the sample read. */
   uint8_t sample[PAN_SIM_TEX_QUAD];

   /* Results: registers as regfmt packs them (16-bit formats two
    * components a word). */
   uint32_t out[PAN_SIM_TEX_QUAD][4];
};

/* The executor's side: descriptors of the job. */
struct pan_sim_tex_ops {
   void *user;
   bool (*run)(void *user, struct pan_sim_tex_req *req, char *err);
};

/* ---- neutral descriptions, filled by the per-arch unpack ---- */

enum pan_sim_tex_kind {
   PAN_SIM_TEXEL_UNORM,
   PAN_SIM_TEXEL_SNORM,
   PAN_SIM_TEXEL_UINT,
   PAN_SIM_TEXEL_SINT,
   PAN_SIM_TEXEL_FLOAT,
};

/* How an element in memory becomes up to four values. */
enum pan_sim_texel_packing {
   PAN_SIM_PACK_FIELDS, /* bit fields from bit 0, bits[] wide */
   PAN_SIM_PACK_R11G11B10F,
   PAN_SIM_PACK_RGB9E5,
   /* 4x4 blocks of pan_sim_etc.h; size_B is a block's */
   PAN_SIM_PACK_ETC2_RGB8,
   PAN_SIM_PACK_ETC2_RGB8A1,
   PAN_SIM_PACK_ETC2_RGBA8,
   PAN_SIM_PACK_EAC_R11,
   PAN_SIM_PACK_EAC_RG11,
   /* 16-byte ASTC blocks (pan_sim_astc.h) of the surface's footprint;
    * 8-bit results, or 16-bit floats for the wide decode
    */
   PAN_SIM_PACK_ASTC,
   PAN_SIM_PACK_ASTC_WIDE,
};

struct pan_sim_texel_format {
   const char *name;
   enum pan_sim_texel_packing packing;
   enum pan_sim_tex_kind kind;
   uint8_t comps;
   uint8_t bits[4];
   uint8_t size_B;
   uint8_t block_px; /* 4 for the compressed (4x4 block) formats, else 1;
                      * ASTC's footprint is the surface's */
   bool srgb;
   uint8_t srgb_fields; /* fields that sRGB decodes (colour, not alpha) */
   /* Output channel c takes field src[c] (0..3), or the constant 0 (4) or
    * 1 (5): the component order and then the texture's swizzle. */
   uint8_t src[4];
};

enum pan_sim_tex_layout_kind {
   PAN_SIM_TEX_LINEAR,
   PAN_SIM_TEX_U_INTERLEAVED,
   PAN_SIM_TEX_AFBC, /* v6/v7; on v9 the plane says (pan_sim_surface.afbc) */
};

struct pan_sim_surface {
   uint64_t base;          /* AFBC: the first header */
   int64_t row_stride_B;   /* linear: a row; u-interleaved: a row of tiles;
                            * AFBC: headers of a row of superblocks (of
                            * header tiles when tiled) */
   int64_t slice_stride_B; /* 3D: between depth slices */
   bool afbc, afbc_wide, afbc_tiled; /* see pan_sim_afbc.h */
   /* ASTC block footprint (v6/v7: the address's low bits, v9: the ASTC
    * plane); 0 for the format's square block_px.
    */
   uint8_t block_w_px, block_h_px;
};

struct pan_sim_texture;

/* Surface of (level, layer, face, sample) for the sampler; false with err
 * set. */
typedef bool (*pan_sim_surface_fn)(const struct pan_sim_texture *t,
                                   unsigned level, unsigned layer,
                                   unsigned face, unsigned sample,
                                   struct pan_sim_surface *s, char *err);

struct pan_sim_texture {
   enum pan_sim_tex_dim dim;
   unsigned width, height, depth; /* of level 0 */
   unsigned levels, layers;
   unsigned samples;
   enum pan_sim_tex_layout_kind layout;
   struct pan_sim_texel_format fmt;
   pan_sim_surface_fn surface; /* the per-arch file's */
   uint64_t surfaces;          /* address of the surface descriptors */
   const struct pan_sim_space *space;
};

enum pan_sim_wrap {
   PAN_SIM_WRAP_REPEAT,
   PAN_SIM_WRAP_CLAMP_TO_EDGE,
   PAN_SIM_WRAP_CLAMP_TO_BORDER,
   PAN_SIM_WRAP_MIRRORED_REPEAT,
   PAN_SIM_WRAP_MIRRORED_CLAMP_TO_EDGE,
   PAN_SIM_WRAP_MIRRORED_CLAMP_TO_BORDER,
};

enum pan_sim_mip {
   PAN_SIM_MIP_NONE,    /* the base level only */
   PAN_SIM_MIP_NEAREST, /* nearest level */
   PAN_SIM_MIP_LINEAR,  /* between the two nearest levels */
};

/* Compare functions as the descriptors number them (GL order). */
enum pan_sim_cmp {
   PAN_SIM_CMP_NEVER,
   PAN_SIM_CMP_LESS,
   PAN_SIM_CMP_EQUAL,
   PAN_SIM_CMP_LEQUAL,
   PAN_SIM_CMP_GREATER,
   PAN_SIM_CMP_NOTEQUAL,
   PAN_SIM_CMP_GEQUAL,
   PAN_SIM_CMP_ALWAYS,
};

struct pan_sim_sampler {
   enum pan_sim_wrap wrap[3]; /* s, t, r */
   bool mag_nearest, min_nearest;
   enum pan_sim_mip mip;
   bool normalized;
   /* Cube maps: linear filtering reaches across face edges (the wrap
    * modes then do not apply); otherwise each face is a 2D image.
    */
   bool seamless_cube;
   float min_lod, max_lod, lod_bias;
   enum pan_sim_cmp compare; /* used by shadow requests */
   uint32_t border[4];       /* as the result format reads them */
};

/* Where a job's shaders find their descriptors: the draw's (or compute
 * job's) texture and sampler tables up to v7, the resource table on v9. */
#define PAN_SIM_TEX_UNBOUNDED (~0u) /* a count not known: memory bounds */

struct pan_sim_tex_env {
   const struct pan_sim_space *space;
   uint64_t textures, samplers;
   unsigned texture_count, sampler_count;
   uint64_t resources; /* v9 */
   unsigned resource_count;

   /* The last texture and sampler unpacked (pan_sim_vX_texture.c), reused
    * while their descriptor bytes stay the same; zero-initialised. */
   struct pan_sim_tex_seen {
      bool valid;
      uint64_t va;
      uint32_t raw[8];
   } tex_seen, smp_seen;
   struct pan_sim_texture tex;
   struct pan_sim_sampler smp;
};

/* ---- the sampler (pan_sim_texture.c) ---- */

/* Element format of a genxml format name ("rgba8_unorm", "r11f_g11f_b10f",
 * "z24x8_unorm"...); false when the simulator does not decode it. */
bool pan_sim_texel_format_parse(const char *name,
                                struct pan_sim_texel_format *f);

/* Output channels from a component order named by the channels of the
 * memory fields ("bgra", "rgb1", "1rgb", "rrr1"...), then a swizzle of
 * four selectors (0..3 channels, 4 zero, 5 one); false on an unknown
 * order. */
bool pan_sim_texel_format_order(struct pan_sim_texel_format *f,
                                const char *order, const uint8_t swizzle[4]);

/* Element at `src` -> four values: floats for normalised and float
 * formats (sRGB converted), integers (as uint32 bits) for integer ones. */
void pan_sim_texel_decode(const struct pan_sim_texel_format *f, const void *src,
                          uint32_t out[4]);

/* Run one request against a texture and a sampler (sampler NULL for a
 * fetch); false with err set on a fault. */
/* Texel (x, y) of a size x size cube face, one texel outside it across
 * one edge, as the texel of the adjacent face it stands for
 * (pan_sim_cube.c).  Both coordinates outside (a corner of the cube) has
 * no such texel.
 */
void pan_sim_cube_neighbour(unsigned face, int x, int y, unsigned size,
                            unsigned *out_face, int *out_x, int *out_y);

/* Face coordinates (s, t) in [0, 1] of face `from` as the direction they
 * stand for meets the plane of face `onto` (its s and t extended past
 * [0, 1]); false when the direction points away from that face.  The
 * LOD of a quad whose lanes picked different faces is taken on each
 * lane's own face (pan_sim_texture.c).
 */
bool pan_sim_cube_project(unsigned from, double s, double t, unsigned onto,
                          double *os, double *ot);

bool pan_sim_tex_sample(const struct pan_sim_texture *t,
                        const struct pan_sim_sampler *s,
                        struct pan_sim_tex_req *req, char *err);

/* Address of texel coord of level 0 of an image (image messages): x, y,
 * and z a depth slice of a 3D image or else a layer (a cube's faces count
 * as layers, face z % 6); false with err set when outside the image. */
bool pan_sim_image_texel(const struct pan_sim_texture *t,
                         const uint32_t coord[3], uint64_t *va, char *err);

/* Components [0, comps) of texel coord of an image in register format
 * regfmt (the sampler's numbering; above 5: the format's own 32-bit
 * one); false with err set on a fault. */
bool pan_sim_image_load(const struct pan_sim_texture *t,
                        const uint32_t coord[3], unsigned regfmt,
                        unsigned comps, uint32_t out[4], char *err);

#ifdef __cplusplus
}
#endif

#endif
