/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The graphics I/O of the IR (written for the v9 interface) rewritten for
 * the interface the stock driver gives Bifrost shaders on G52:
 *
 * - vertex shaders are preloaded with the vertex id in r61 and the
 *   instance id in r62 (r60/r61 on v9), and the address of the vertex's
 *   position in r58:r59 (IDVS position shaders);
 * - gl_Position is one ST_CVT to r58:r59 with a fixed conversion word
 *   (binary32 registers, the position format);
 * - varying slot n is written with LEA_ATTR_IMM index n (address and
 *   conversion word from the varying descriptor) then ST_CVT;
 * - fragment varyings are LD_VAR_IMM / LD_VAR_FLAT_IMM by slot index
 *   instead of byte offset up to slot 23, LD_VAR / LD_VAR_FLAT with the
 *   slot in a register from 24 on (the immediate forms' encodings with
 *   the index's top two bits set are the register forms').
 * - 2D float textures with a computed (fragment) or zero LOD, texture and
 *   sampler below 8, no array, shadow or offset: TEXS_2D.f32 of the x and
 *   y coordinates; other textures, fetches and gathers TEXC (lower_texc).
 * - on v6 (G72) derivatives take CLPER_OLD: G72 lacks CLPER's full form.
 * Attribute loads keep their shape (LD_ATTR_IMM index n of the vertex and
 * instance ids).
 */

#include "pan_bi.h"
#include "pan_ir_builder.h"

/* ST_CVT word of the position: register format f32 in bits 24-27, the
 * snap-to-1/16 position format in bits 12-19, and on v6 the identity
 * swizzle the format needs there. */
#define BI_POSITION_CVT_V7 0x0105e000u
#define BI_POSITION_CVT_V6 0x0105e688u

static bool
refuse(char *err, size_t err_size, const char *what, unsigned v)
{
   snprintf(err, err_size, what, v);
   return false;
}

/* The constant word 0 of the image operand of a texture instruction
 * (texture and sampler), from the collect before it that built it. */
static bool
image_word(pan_ir_block *blk, pan_ir_instr *I, uint32_t *w)
{
   pan_ir_index img = I->src[1];
   bool found = false;
   pan_ir_foreach_instr(blk, P)
   {
      if (P == I)
         break;
      if (P->op == PAN_IR_OP_COLLECT && P->dest.kind == PAN_IR_SSA &&
          P->dest.value == img.value && img.kind == PAN_IR_SSA) {
         found = P->src[img.comp].kind == PAN_IR_IMM;
         *w = P->src[img.comp].value;
      }
   }
   return found;
}

/*
 * Any other texture: TEXC with a texture operation descriptor of
 * immediate indices (sampler bits 0-3, texture 4-10, bit 11), the
 * operation (12-14: 7 sample, 6 fetch or gather), offsets present (15),
 * shadow (16), array (17), the dimension (18-19: cube 0, 1D 1, 2D 2, 3D
 * 3), the LOD mode (20-22: 4 explicit, 5 bias, 6 zero, 7 computed; a
 * fetch 1, one texel, a gather 4-7, the component), the result format
 * (24-27: 4 f32, 14 u32, 15 s32) and the component mask (28-31).
 * The IR's staging words (coordinates, array layer, shadow reference,
 * offset word, LOD) become x and y sources and Bifrost's staging order: z,
 * LOD (8.8 fixed point; a fetch's or gather's level in bits 8-15, always
 * present), shadow reference, array layer, offsets (s8 x, y, z).
 */
static bool
lower_texc(pan_ir_shader *s, pan_ir_block *blk, pan_ir_instr *I,
           uint32_t w, char *err, size_t err_size)
{
   unsigned dim = PAN_IR_TEX_DIM(I->imm), lod = PAN_IR_TEX_LOD(I->imm);
   unsigned texture = (w >> 16) & 0x7ff, sampler = w & 0x7ff;
   bool fetch = I->op == PAN_IR_OP_TEX_FETCH;
   bool gather = I->op == PAN_IR_OP_TEX_GATHER;
   if (texture > 127 || sampler > 15)
      return refuse(err, err_size,
                    "texture index %u or sampler index beyond TEXC's "
                    "immediates on Bifrost",
                    texture);
   pan_ir_builder b = pan_ir_builder_before(s, blk, I);
   pan_ir_index sr = I->src[0], coord[3], layer = pan_ir_null(),
                ref = pan_ir_null(), lodw = pan_ir_null(),
                offw = pan_ir_null();
   unsigned k = 0, nr_coords = dim == 3 ? 2 : dim + 1;
   for (unsigned c = 0; c < nr_coords; ++c)
      coord[c] = pan_ir_word(sr, k++);
   /* A 1D array's IR staging keeps Valhall's unused Y word before the
    * layer: TEXC has no use for it. */
   if ((I->imm & PAN_IR_TEX_ARRAY) && dim == 0)
      k++;
   if (I->imm & PAN_IR_TEX_ARRAY)
      layer = pan_ir_word(sr, k++);
   if (I->imm & PAN_IR_TEX_SHADOW)
      ref = pan_ir_word(sr, k++);
   if (I->imm & PAN_IR_TEX_OFFSET) {
      /* The IR's offset word: offsets in bytes 0-2, a fetch's level in
       * byte 3, which Bifrost takes in bits 8-15 of the LOD word. */
      pan_ir_index ow = pan_ir_word(sr, k++);
      if (ow.kind == PAN_IR_IMM) {
         uint32_t off = ow.value & 0xffffff;
         /* Bifrost takes a multisampled fetch's sample in byte 3. */
         if (I->imm & PAN_IR_TEX_MS)
            off = (off & 0xffff) | (off >> 16) << 24;
         if (off)
            offw = pan_ir_imm(off);
         if (fetch)
            lodw = pan_ir_imm((ow.value >> 24) << 8);
      } else {
         if (I->imm & PAN_IR_TEX_MS)
            offw = pan_ir_lshift_or(
               &b,
               pan_ir_lshift_and(&b, ow, pan_ir_imm(8),
                                 pan_ir_imm(0xff000000u)),
               pan_ir_imm(0),
               pan_ir_lshift_and(&b, ow, pan_ir_imm(0), pan_ir_imm(0xffff)));
         else
            offw = pan_ir_lshift_and(&b, ow, pan_ir_imm(0),
                                     pan_ir_imm(0xffffff));
         if (fetch)
            lodw = pan_ir_lshift_or(
               &b, pan_ir_rshift_or(&b, PAN_IR_TYPE_U32, ow, pan_ir_imm(24),
                                    pan_ir_imm(0)),
               pan_ir_imm(8), pan_ir_imm(0));
      }
   }
   if ((fetch || gather) && lodw.kind == PAN_IR_NULL)
      lodw = pan_ir_imm(0);
   else if (!fetch && !gather &&
            (lod == PAN_IR_TEX_LOD_EXPLICIT || lod == PAN_IR_TEX_LOD_BIAS))
      lodw = pan_ir_word(sr, k++);

   static const unsigned lod_modes[] = {
      [PAN_IR_TEX_LOD_ZERO] = 6, [PAN_IR_TEX_LOD_COMPUTED] = 7,
      [PAN_IR_TEX_LOD_EXPLICIT] = 4, [PAN_IR_TEX_LOD_BIAS] = 5,
   };
   unsigned format = I->type == PAN_IR_TYPE_U32   ? 14
                     : I->type == PAN_IR_TYPE_S32 ? 15
                                                  : 4;
   unsigned mode = fetch    ? 1u
                   : gather ? 4u + PAN_IR_TEX_GATHER_COMP(I->imm)
                            : lod_modes[lod];
   uint32_t desc = sampler | texture << 4 | 1u << 11 |
                   (fetch || gather ? 6u : 7u) << 12 |
                   (offw.kind != PAN_IR_NULL) << 15 |
                   !!(I->imm & PAN_IR_TEX_SHADOW) << 16 |
                   !!(I->imm & PAN_IR_TEX_ARRAY) << 17 | ((dim + 1) & 3) << 18 |
                   mode << 20 | format << 24 | 0xfu << 28;

   pan_ir_index st[5];
   unsigned n = 0;
   if (dim == 2)
      st[n++] = coord[2];
   if (lodw.kind != PAN_IR_NULL)
      st[n++] = lodw;
   if (ref.kind != PAN_IR_NULL)
      st[n++] = ref;
   if (layer.kind != PAN_IR_NULL)
      st[n++] = layer;
   if (offw.kind != PAN_IR_NULL)
      st[n++] = offw;
   if (n > 4)
      return refuse(err, err_size,
                    "TEXC of %u staging words (4 at most on Bifrost)", n);

   pan_ir_instr *T = pan_ir_build(&b, PAN_IR_OP_TEXC, 2 + n);
   T->src[0] = coord[0];
   T->src[1] = nr_coords > 1 ? coord[1] : pan_ir_imm(0);
   for (unsigned i = 0; i < n; ++i)
      T->src[2 + i] = st[i];
   T->imm = desc;
   T->dest = I->dest;
   pan_ir_instr_remove(I);
   return true;
}

static bool
lower_tex(pan_ir_shader *s, pan_ir_block *blk, pan_ir_instr *I, bool fragment,
          char *err, size_t err_size)
{
   unsigned lod = PAN_IR_TEX_LOD(I->imm);
   uint32_t w = 0;
   if (!image_word(blk, I, &w))
      return refuse(err, err_size,
                    "texture indices from registers are unsupported on "
                    "Bifrost%.0u",
                    0);
   /* The table bits (11-15 of each half) have no Bifrost meaning here. */
   unsigned texture = (w >> 16) & 0x7ff, sampler = w & 0x7ff;
   if (I->op != PAN_IR_OP_TEX || PAN_IR_TEX_DIM(I->imm) != 1 ||
       (I->imm & (PAN_IR_TEX_ARRAY | PAN_IR_TEX_SHADOW | PAN_IR_TEX_OFFSET)) ||
       I->type != PAN_IR_TYPE_F32 ||
       !(lod == PAN_IR_TEX_LOD_ZERO ||
         (lod == PAN_IR_TEX_LOD_COMPUTED && fragment)) ||
       texture > 7 || sampler > 7)
      return lower_texc(s, blk, I, w, err, err_size);
   pan_ir_builder b = pan_ir_builder_before(s, blk, I);
   pan_ir_index x = pan_ir_word(I->src[0], 0), y = pan_ir_word(I->src[0], 1);
   pan_ir_index r = pan_ir_texs_2d(
      &b, texture | sampler << 8 | (lod == PAN_IR_TEX_LOD_ZERO) << 16, x, y);
   /* The result keeps its value number: a move of the vector. */
   pan_ir_instr *C = pan_ir_build(&b, PAN_IR_OP_COLLECT, 4);
   for (unsigned k = 0; k < 4; ++k)
      C->src[k] = pan_ir_word(r, k);
   C->dest = I->dest;
   pan_ir_instr_remove(I);
   return true;
}

bool
pan_bi_lower_tex(pan_ir_shader *s, char *err, size_t err_size)
{
   pan_ir_foreach_block(s, blk)
   {
      pan_ir_foreach_instr_safe(blk, I)
      {
         if ((I->op == PAN_IR_OP_TEX || I->op == PAN_IR_OP_TEX_FETCH ||
              I->op == PAN_IR_OP_TEX_GATHER) &&
             !lower_tex(s, blk, I, false, err, err_size))
            return false;
      }
   }
   return true;
}

bool
pan_bi_lower_gfx(pan_ir_shader *s, bool vertex, unsigned arch, char *err,
                 size_t err_size)
{
   pan_ir_foreach_block(s, blk)
   {
      pan_ir_foreach_instr_safe(blk, I)
      {
         pan_ir_builder b = pan_ir_builder_before(s, blk, I);
         switch (I->op) {
         case PAN_IR_OP_PRELOAD:
            /* v9 vertex id r60, instance id r61 -> r61, r62 */
            if (vertex && (I->imm == 60 || I->imm == 61))
               I->imm++;
            break;
         case PAN_IR_OP_STORE_POS: {
            pan_ir_index addr[2] = { pan_ir_preload(&b, 58),
                                     pan_ir_preload(&b, 59) };
            pan_ir_st_cvt(&b, I->src[0], pan_ir_collect(&b, 2, addr),
                          pan_ir_imm(arch == 6 ? BI_POSITION_CVT_V6
                                               : BI_POSITION_CVT_V7));
            pan_ir_instr_remove(I);
            break;
         }
         case PAN_IR_OP_STORE_PSIZ: {
            /* Its own record and buffer, which the tiler reads as the
             * point size array; the lea_vary address goes dead. */
            pan_ir_index lea = pan_ir_lea_attr_far(
               &b, PAN_IR_TYPE_F32, pan_ir_preload(&b, 61),
               pan_ir_preload(&b, 62),
               pan_ir_mov(&b, pan_ir_imm(PAN_BI_POINT_SIZE_RECORD)));
            pan_ir_st_cvt(&b, I->src[0], lea, pan_ir_word(lea, 2));
            pan_ir_instr_remove(I);
            break;
         }
         case PAN_IR_OP_STORE_VARY: {
            unsigned slot = I->imm / 16;
            if (I->imm % 16)
               return refuse(err, err_size,
                             "a varying write from component %u is "
                             "unsupported on Bifrost",
                             (I->imm % 16) / 4);
            pan_ir_index vid = pan_ir_preload(&b, 61);
            pan_ir_index iid = pan_ir_preload(&b, 62);
            /* Integer data goes unconverted into the integer record the
             * driver gives the slot (pan_bi_binary.int_varyings). */
            enum pan_ir_type t =
               I->type == PAN_IR_TYPE_U32 ? PAN_IR_TYPE_U32 : PAN_IR_TYPE_F32;
            /* LEA_ATTR_IMM has four bits of slot; LEA_ATTR reads it. */
            pan_ir_index lea =
               slot > 15
                  ? pan_ir_lea_attr_far(&b, t, vid, iid,
                                        pan_ir_mov(&b, pan_ir_imm(slot)))
                  : pan_ir_lea_attr(&b, t, slot, vid, iid);
            pan_ir_st_cvt(&b, I->src[0], lea, pan_ir_word(lea, 2));
            pan_ir_instr_remove(I);
            break;
         }
         case PAN_IR_OP_LD_VAR_FAR:
         case PAN_IR_OP_LD_VAR_FLAT_FAR: {
            /* LD_VAR_IMM and LD_VAR_FLAT_IMM with both top bits of the
             * index set are the encodings of the register forms: slots
             * from 24 on (and the fixed-function ones past 31) are
             * LD_VAR / LD_VAR_FLAT with the slot in a register. */
            if (I->imm / 16 >= 24) {
               I->imm /= 16;
               I->src[1] = pan_ir_mov(&b, pan_ir_imm(I->imm));
               break;
            }
            /* Slots 16-23: the immediate forms, the offset is moot. */
            pan_ir_instr *L = pan_ir_build(
               &b,
               I->op == PAN_IR_OP_LD_VAR_FAR ? PAN_IR_OP_LD_VAR
                                             : PAN_IR_OP_LD_VAR_FLAT,
               1);
            L->src[0] = I->src[0];
            L->imm = I->imm;
            L->dest = I->dest;
            pan_ir_instr_remove(I);
            I = L;
         }
            FALLTHROUGH;
         case PAN_IR_OP_LD_VAR:
         case PAN_IR_OP_LD_VAR_FLAT:
            /* pan_ir_from_nir_gfx.c makes slots past 15 far loads. */
            assert(I->imm / 16 < 24);
            I->imm /= 16;
            break;
         case PAN_IR_OP_TEX:
         case PAN_IR_OP_TEX_FETCH:
         case PAN_IR_OP_TEX_GATHER:
            if (!lower_tex(s, blk, I, !vertex, err, err_size))
               return false;
            break;
         case PAN_IR_OP_LD_VAR_SPECIAL:
            /* Fragment 1/w and z only; sampled at the centre, clobber. */
            if (I->imm != 2 && I->imm != 3)
               return refuse(err, err_size,
                             "special varying %u is unsupported on Bifrost",
                             I->imm);
            I->imm |= 10 << 8;
            break;
         case PAN_IR_OP_LD_VAR_POINT:
            /* gl_PointCoord: the point varying (0), at the centre. */
            I->imm = 10 << 8;
            break;
         case PAN_IR_OP_ZS_EMIT:
         case PAN_IR_OP_ZS_EMIT_S:
         case PAN_IR_OP_ZS_EMIT_ZS:
            /* d9: bit 1 z, bit 0 stencil */
            I->imm = I->op == PAN_IR_OP_ZS_EMIT ? 2
                     : I->op == PAN_IR_OP_ZS_EMIT_S ? 1 : 3;
            break;
         case PAN_IR_OP_CLPER_QUAD:
            /* v6 has the fixed-function CLPER only (derivatives). */
            if (arch == 6)
               I->op = PAN_IR_OP_CLPER_OLD;
            break;
         case PAN_IR_OP_LD_ATTR:
            if (I->imm > 15)
               return refuse(err, err_size,
                             "attribute %u is beyond LD_ATTR_IMM", I->imm);
            break;
         default:
            break;
         }
      }
   }
   return true;
}
