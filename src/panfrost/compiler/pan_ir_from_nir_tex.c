/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * NIR -> IR: texture instructions, in the form the v9 driver expects
 * (docs/drivers/panfrost/compiler.rst, "Textures").
 *
 * TEX_SINGLE (tex, txb, txl), TEX_FETCH (txf) and TEX_GATHER (tg4) read
 * a staging vector of 32-bit words, present ones only, in this order: x,
 * y, z (3D), the array layer, the shadow reference, the offset word (s8
 * texel offsets x, y, z in bytes 0-2, a fetch's level in byte 3; txf_ms
 * puts its sample in byte 2, PAN_IR_TEX_MS), the LOD
 * or bias of a sample (8.8 fixed point in bits 0-15).  A cube map's x and y are the face's S (face in the top
 * bits) and T (cube_coords).  The image operand is a 64-bit pair whose word 0
 * names the sampler (bits 0-15) and texture (bits 16-31), each as an index in
 * bits 0-10 of its half and a resource table above: samplers in table 3,
 * textures in table 4.  Word 1 is zero.
 *
 * textureSize() at LOD 0, which the lowering of explicit gradients (txd
 * to txl) needs, reads words the driver pushes (PAN_VA_PUSH_TEXTURE_SIZE);
 * other LODs are minified from it in NIR (lower_txs_lod).  A texture
 * buffer (samplerBuffer) is a 1D texture of one level to the hardware:
 * texelFetch is a 1D fetch and textureSize its pushed texel count.
 *
 * A gather returns the footprint's texels in raster order, (i0, j0), (i1,
 * j0), (i0, j1), (i1, j1); GL numbers them (i0, j1), (i1, j1), (i1, j0),
 * (i0, j0), so component c of the result is hardware word gl_order[c].
 */

#include "pan_ir_from_nir_priv.h"

#define PAN_IR_SAMPLER_TABLE 3
#define PAN_IR_TEXTURE_TABLE 4

static uint32_t
image_word(unsigned texture, unsigned sampler)
{
   return (PAN_IR_SAMPLER_TABLE << 11 | sampler) |
          (PAN_IR_TEXTURE_TABLE << 11 | texture) << 16;
}

/* A LOD or bias in 8.8 fixed point, clamped to +-16 (the largest LOD). */
static pan_ir_index
lod_88(struct pan_ir_from_nir *ctx, nir_src src)
{
   if (nir_src_is_const(src)) {
      float x = CLAMP(nir_src_as_float(src), -16.0f, 16.0f);
      return pan_ir_imm((uint32_t)(int32_t)(x * 256.0f) & 0xffff);
   }
   pan_ir_builder *b = &ctx->b;
   pan_ir_index lod = pan_ir_word(pan_ir_from_nir_src(ctx, src), 0);
   pan_ir_index c = pan_ir_fmax(b, pan_ir_fmin(b, lod, pan_ir_imm(0x41800000)),
                                pan_ir_imm(0xc1800000));
   pan_ir_index fx = pan_ir_f2s32(
      b, pan_ir_fma(b, c, pan_ir_imm(0x43800000), pan_ir_imm(0x80000000)));
   return pan_ir_lshift_and(b, fx, pan_ir_imm(0), pan_ir_imm(0xffff));
}

/*
 * The first two staging words of a cube map from the direction (x, y, z):
 * the face's S and T, each numerator / (2 * major axis) + 0.5 clamped to
 * [0, 1], with the face (pre-shifted to bits 29-31 by CUBEFACE2) in the
 * top 3 bits of the S word: S is in [0, 1], so its bits 29-31 carry
 * nothing the hardware needs.
 */
static void
cube_coords(pan_ir_builder *b, pan_ir_index coord, pan_ir_index *s,
            pan_ir_index *t)
{
   pan_ir_index x = pan_ir_word(coord, 0), y = pan_ir_word(coord, 1),
                z = pan_ir_word(coord, 2);
   pan_ir_index major = pan_ir_cubeface1(b, x, y, z);
   pan_ir_index face = pan_ir_cubeface2(b, x, y, z);
   pan_ir_index sn = pan_ir_cube_ssel(b, z, x, face);
   pan_ir_index tn = pan_ir_cube_tsel(b, y, z, face);
   /* 0.5 / major: the rcp scaled by the 0.5 both fmas then share. */
   pan_ir_index scale = pan_ir_fma(
      b, pan_ir_frcp(b, major), pan_ir_imm(0x3f000000), pan_ir_imm(0x80000000));
   pan_ir_index sf = pan_ir_fma_sat(b, sn, scale, pan_ir_imm(0x3f000000));
   *t = pan_ir_fma_sat(b, tn, scale, pan_ir_imm(0x3f000000));
   *s = pan_ir_mux_bit(b, sf, face, pan_ir_imm(BITFIELD_MASK(29)));
}

/* Absent, or a constant zero in every component (offsets are vectors). */
static bool
is_zero(nir_tex_instr *tex, int i)
{
   if (i < 0)
      return true;
   nir_src src = tex->src[i].src;
   if (!nir_src_is_const(src))
      return false;
   for (unsigned c = 0; c < nir_src_num_components(src); ++c) {
      if (nir_src_comp_as_uint(src, c))
         return false;
   }
   return true;
}

/* textureSize() at LOD 0 (what the lowering of gradients asks): words
 * the driver pushes. */
static void
texture_size(struct pan_ir_from_nir *ctx, nir_tex_instr *tex)
{
   int lod = nir_tex_instr_src_index(tex, nir_tex_src_lod);
   if (ctx->stage == MESA_SHADER_COMPUTE || tex->num_srcs != (lod >= 0) ||
       !is_zero(tex, lod) || tex->texture_index > 255) {
      pan_ir_from_nir_error(ctx, "texture size of texture %u at a LOD other "
                                 "than 0 or in a compute shader",
                            tex->texture_index);
      return;
   }
   pan_ir_index v = pan_ir_from_nir_pushed_vec(
      ctx, PAN_VA_PUSH_TEXTURE_SIZE, tex->texture_index, 0,
      nir_dest_num_components(tex->dest));
   if (v.kind != PAN_IR_NULL)
      ctx->values[tex->dest.ssa.index] = v;
}

/* textureQueryLevels(): the view's level count, which the driver pushes
 * as the fourth word of the texture's size. */
static void
texture_levels(struct pan_ir_from_nir *ctx, nir_tex_instr *tex)
{
   if (ctx->stage == MESA_SHADER_COMPUTE ||
       nir_tex_instr_src_index(tex, nir_tex_src_texture_offset) >= 0 ||
       nir_tex_instr_src_index(tex, nir_tex_src_texture_handle) >= 0 ||
       tex->texture_index > 255) {
      pan_ir_from_nir_error(ctx, "level count of texture %u with a run-time "
                                 "index or in a compute shader",
                            tex->texture_index);
      return;
   }
   pan_ir_index v = pan_ir_from_nir_pushed_vec(ctx, PAN_VA_PUSH_TEXTURE_SIZE,
                                               tex->texture_index, 12, 1);
   if (v.kind != PAN_IR_NULL)
      ctx->values[tex->dest.ssa.index] = v;
}

/* The offset word: s8 texel offsets in bytes 0-2 (byte 2 the sample of a
 * multisampled fetch instead) and a fetch's level in byte 3; constant
 * parts fold into one immediate.  Null when all zero. */
static pan_ir_index
offset_word(struct pan_ir_from_nir *ctx, nir_tex_instr *tex, int offset,
            int level, int sample)
{
   pan_ir_builder *b = &ctx->b;
   pan_ir_index parts[4];
   unsigned n = 0;
   uint32_t k = 0;

   if (offset >= 0) {
      nir_src src = tex->src[offset].src;
      unsigned comps = MIN2(nir_src_num_components(src), 3);
      if (nir_src_is_const(src)) {
         for (unsigned c = 0; c < comps; ++c)
            k |= (nir_src_comp_as_uint(src, c) & 0xff) << (8 * c);
      } else {
         pan_ir_index v = pan_ir_from_nir_src(ctx, src);
         for (unsigned c = 0; c < comps; ++c)
            parts[n++] = pan_ir_lshift_and(b, pan_ir_word(v, c),
                                           pan_ir_imm(8 * c),
                                           pan_ir_imm(0xffu << (8 * c)));
      }
   }
   if (sample >= 0) {
      nir_src src = tex->src[sample].src;
      if (nir_src_is_const(src))
         k |= (nir_src_as_uint(src) & 0xff) << 16;
      else
         parts[n++] = pan_ir_lshift_and(
            b, pan_ir_word(pan_ir_from_nir_src(ctx, src), 0), pan_ir_imm(16),
            pan_ir_imm(0xffu << 16));
   }
   if (level >= 0) {
      nir_src src = tex->src[level].src;
      if (nir_src_is_const(src))
         k |= nir_src_as_uint(src) << 24;
      else
         parts[n++] =
            pan_ir_lshift_or(b, pan_ir_word(pan_ir_from_nir_src(ctx, src), 0),
                             pan_ir_imm(24), pan_ir_imm(0));
   }
   if (!n)
      return k ? pan_ir_imm(k) : pan_ir_null();
   pan_ir_index w = parts[0];
   for (unsigned i = 1; i < n; ++i)
      w = pan_ir_lshift_or(b, parts[i], pan_ir_imm(0), w);
   return k ? pan_ir_lshift_or(b, w, pan_ir_imm(0), pan_ir_imm(k)) : w;
}

static bool
supported_dim(nir_tex_instr *tex)
{
   switch (tex->sampler_dim) {
   case GLSL_SAMPLER_DIM_2D:
   case GLSL_SAMPLER_DIM_RECT:
   case GLSL_SAMPLER_DIM_EXTERNAL:
   case GLSL_SAMPLER_DIM_CUBE:
      return true;
   case GLSL_SAMPLER_DIM_1D:
   case GLSL_SAMPLER_DIM_3D:
      return tex->op != nir_texop_tg4;
   case GLSL_SAMPLER_DIM_MS:
      return tex->op == nir_texop_txf_ms || tex->op == nir_texop_txs;
   /* Texture buffers are 1D textures of one level: only fetched. */
   case GLSL_SAMPLER_DIM_BUF:
      return tex->op == nir_texop_txf;
   default:
      return false;
   }
}

/* What the sources ask, before the staging vector is packed. */
struct tex_srcs {
   pan_ir_index coord, shadow, lod;
   unsigned nr_coords, lod_mode;
   int offset, level, sample; /* source indices, -1 when absent or zero */
};

static bool
read_srcs(struct pan_ir_from_nir *ctx, nir_tex_instr *tex, struct tex_srcs *t)
{
   bool fetch = tex->op == nir_texop_txf || tex->op == nir_texop_txf_ms;
   bool gather = tex->op == nir_texop_tg4;

   *t = (struct tex_srcs){
      .coord = pan_ir_null(),
      .shadow = pan_ir_null(),
      .lod = pan_ir_null(),
      .lod_mode = ctx->stage == MESA_SHADER_FRAGMENT && !fetch && !gather
                     ? PAN_IR_TEX_LOD_COMPUTED
                     : PAN_IR_TEX_LOD_ZERO,
      .offset = -1,
      .level = -1,
      .sample = -1,
   };
   for (unsigned i = 0; i < tex->num_srcs; ++i) {
      nir_src src = tex->src[i].src;
      switch (tex->src[i].src_type) {
      case nir_tex_src_coord:
         t->coord = pan_ir_from_nir_src(ctx, src);
         t->nr_coords = nir_src_num_components(src);
         break;
      case nir_tex_src_comparator:
         t->shadow = pan_ir_word(pan_ir_from_nir_src(ctx, src), 0);
         break;
      case nir_tex_src_bias:
         t->lod = lod_88(ctx, src);
         t->lod_mode = PAN_IR_TEX_LOD_BIAS;
         break;
      case nir_tex_src_lod:
         if (is_zero(tex, (int)i)) {
            t->lod_mode = PAN_IR_TEX_LOD_ZERO;
         } else if (fetch) {
            t->level = (int)i;
         } else if (gather) {
            pan_ir_from_nir_error(ctx, "gather at a LOD other than 0");
            return false;
         } else {
            t->lod = lod_88(ctx, src);
            t->lod_mode = PAN_IR_TEX_LOD_EXPLICIT;
         }
         break;
      case nir_tex_src_offset:
         if (!is_zero(tex, (int)i))
            t->offset = (int)i;
         break;
      case nir_tex_src_ms_index:
         if (!is_zero(tex, (int)i))
            t->sample = (int)i;
         break;
      default:
         pan_ir_from_nir_error(ctx, "texture source %u is unsupported",
                               tex->src[i].src_type);
         return false;
      }
   }
   if (t->coord.kind == PAN_IR_NULL) {
      pan_ir_from_nir_error(ctx, "texture without coordinates");
      return false;
   }
   if (gather && nir_tex_instr_has_explicit_tg4_offsets(tex)) {
      pan_ir_from_nir_error(ctx, "gather with four offsets");
      return false;
   }
   return true;
}

/* The hardware word of GL's gather component c (see the head). */
static const unsigned gl_order[4] = { 2, 3, 1, 0 };

void
pan_ir_from_nir_tex(struct pan_ir_from_nir *ctx, nir_tex_instr *tex)
{
   pan_ir_builder *b = &ctx->b;
   bool ms = tex->op == nir_texop_txf_ms;
   bool fetch = tex->op == nir_texop_txf || ms;
   bool gather = tex->op == nir_texop_tg4;

   if (tex->op == nir_texop_txs) {
      texture_size(ctx, tex);
      return;
   }
   if (tex->op == nir_texop_query_levels) {
      texture_levels(ctx, tex);
      return;
   }

   if (tex->op != nir_texop_tex && tex->op != nir_texop_txb &&
       tex->op != nir_texop_txl && !fetch && !gather) {
      pan_ir_from_nir_error(ctx, "unsupported NIR texture op %u", tex->op);
      return;
   }
   if (nir_dest_bit_size(tex->dest) != 32) {
      pan_ir_from_nir_error(ctx, "texture result of %u bits",
                            nir_dest_bit_size(tex->dest));
      return;
   }
   if (!supported_dim(tex)) {
      pan_ir_from_nir_error(ctx, "subpass textures, samples of multisample "
                                 "or buffer textures and 1D or 3D gathers "
                                 "are unsupported");
      return;
   }
   if (tex->texture_index > 2047 || tex->sampler_index > 2047) {
      pan_ir_from_nir_error(ctx, "texture index %u beyond the table",
                            tex->texture_index);
      return;
   }

   struct tex_srcs t;
   if (!read_srcs(ctx, tex, &t))
      return;
   pan_ir_index coord = t.coord;
   unsigned nr_coords = t.nr_coords;

   /* The staging words, present ones only. */
   pan_ir_index sr[8];
   unsigned n = 0, spatial = nr_coords - (tex->is_array ? 1 : 0);
   bool cube = tex->sampler_dim == GLSL_SAMPLER_DIM_CUBE;
   if (cube && fetch) {
      pan_ir_from_nir_error(ctx, "texel fetch from a cube map");
      return;
   }
   if (cube) {
      cube_coords(b, coord, &sr[0], &sr[1]);
      n = 2;
   } else {
      for (unsigned c = 0; c < spatial; ++c)
         sr[n++] = pan_ir_word(coord, c);
      /* A 1D array still has its Y word (ignored) before the layer. */
      if (tex->is_array && spatial == 1)
         sr[n++] = sr[0];
   }
   if (tex->is_array) {
      /* The layer register is an integer: a float layer rounds to the
       * nearest even one (the descriptor clamps it to the layers). */
      pan_ir_index layer = pan_ir_word(coord, nr_coords - 1);
      sr[n++] = fetch ? layer
                      : pan_ir_f2u32(b, pan_ir_fround_even(b, layer));
   }
   if (t.shadow.kind != PAN_IR_NULL)
      sr[n++] = t.shadow;
   pan_ir_index offsets = offset_word(ctx, tex, t.offset, t.level, t.sample);
   if (offsets.kind != PAN_IR_NULL)
      sr[n++] = offsets;
   if (t.lod.kind != PAN_IR_NULL)
      sr[n++] = t.lod;
   /* Valhall reads up to 8 staging words (a shadow 1D array lookup with
    * a bias takes 5: x, the unused y, layer, reference, bias); Bifrost's
    * TEXC reorders them into 4 at most (pan_bi_lower_gfx.c). */
   if (n > ARRAY_SIZE(sr)) {
      pan_ir_from_nir_error(ctx, "texture of %u staging words (%u at most)", n,
                            (unsigned)ARRAY_SIZE(sr));
      return;
   }

   static const unsigned dims[] = {
      [GLSL_SAMPLER_DIM_1D] = 0,       [GLSL_SAMPLER_DIM_2D] = 1,
      [GLSL_SAMPLER_DIM_3D] = 2,       [GLSL_SAMPLER_DIM_RECT] = 1,
      [GLSL_SAMPLER_DIM_EXTERNAL] = 1, [GLSL_SAMPLER_DIM_CUBE] = 3,
      [GLSL_SAMPLER_DIM_MS] = 1,       [GLSL_SAMPLER_DIM_BUF] = 0,
   };
   uint32_t imm = dims[tex->sampler_dim] | t.lod_mode << 2;
   if (tex->is_array)
      imm |= PAN_IR_TEX_ARRAY;
   if (t.shadow.kind != PAN_IR_NULL)
      imm |= PAN_IR_TEX_SHADOW;
   if (offsets.kind != PAN_IR_NULL)
      imm |= PAN_IR_TEX_OFFSET;
   if (gather)
      imm |= (tex->component & 3) << PAN_IR_TEX_GATHER_SHIFT;
   if (ms)
      imm |= PAN_IR_TEX_MS;

   enum pan_ir_type type = PAN_IR_TYPE_F32;
   if (nir_alu_type_get_base_type(tex->dest_type) == nir_type_int)
      type = PAN_IR_TYPE_S32;
   else if (nir_alu_type_get_base_type(tex->dest_type) == nir_type_uint)
      type = PAN_IR_TYPE_U32;

   unsigned sampler = nir_tex_instr_need_sampler(tex) ? tex->sampler_index : 0;
   pan_ir_index image[2] = {
      pan_ir_imm(image_word(tex->texture_index, sampler)),
      pan_ir_imm(0),
   };
   pan_ir_index staging = n == 1 ? sr[0] : pan_ir_collect(b, n, sr);
   if (n == 1 && staging.kind != PAN_IR_SSA)
      staging = pan_ir_mov(b, staging);
   pan_ir_index img = pan_ir_collect(b, 2, image);
   pan_ir_index v = fetch    ? pan_ir_tex_fetch(b, type, imm, staging, img)
                    : gather ? pan_ir_tex_gather(b, type, imm, staging, img)
                             : pan_ir_tex(b, type, imm, staging, img);

   /* A shadow lookup returns its result in word 0, a gather its texels in
    * the hardware's order. */
   unsigned comps = nir_dest_num_components(tex->dest);
   if (comps == 4 && !gather) {
      ctx->values[tex->dest.ssa.index] = v;
   } else {
      pan_ir_index w[4];
      for (unsigned c = 0; c < comps; ++c)
         w[c] = pan_ir_word(v, gather ? gl_order[c] : c);
      ctx->values[tex->dest.ssa.index] =
         comps == 1 ? pan_ir_mov(b, w[0]) : pan_ir_collect(b, comps, w);
   }
}
