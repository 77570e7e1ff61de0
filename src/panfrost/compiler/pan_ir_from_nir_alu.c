/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * NIR -> IR: ALU instructions (scalar after nir_lower_alu_to_scalar, except
 * the vecN that build store data).  Booleans are 32-bit 0 / 1.  fneg and
 * fabs fold into the float sources that read them; the instructions
 * themselves are still translated and die in DCE when unused.
 */

#include "util/u_math.h"
#include "pan_ir_from_nir_priv.h"

#define NEG_ZERO 0x80000000u

/* Source s as a scalar (or a 64-bit pair when the op reads 64 bits). */
static pan_ir_index
src(struct pan_ir_from_nir *ctx, nir_alu_instr *alu, unsigned s)
{
   pan_ir_index v = pan_ir_from_nir_src(ctx, alu->src[s].src);
   unsigned bits = nir_src_bit_size(alu->src[s].src);
   unsigned c = alu->src[s].swizzle[0];

   if (bits == 64) {
      v.comp += 2 * c;
      v.comps = 2;
      return v;
   }
   return pan_ir_word(v, c);
}

/* A float source with the fneg/fabs that produced it folded in. */
static pan_ir_index
fsrc(struct pan_ir_from_nir *ctx, nir_alu_instr *alu, unsigned s)
{
   bool neg = false, abs = false;
   nir_alu_instr *cur = alu;
   unsigned cs = s;

   /* Walk up through fneg/fabs: signs above the first fabs count, those
    * below it do not. */
   for (;;) {
      nir_src *ns = &cur->src[cs].src;
      if (!ns->is_ssa || ns->ssa->parent_instr->type != nir_instr_type_alu)
         break;
      nir_alu_instr *p = nir_instr_as_alu(ns->ssa->parent_instr);
      if (p->op == nir_op_fneg)
         neg ^= !abs;
      else if (p->op == nir_op_fabs)
         abs = true;
      else
         break;
      cur = p, cs = 0;
   }
   pan_ir_index v = src(ctx, cur, cs);
   v.abs = abs;
   v.neg = neg;
   return v;
}

static pan_ir_index
emit_shift(struct pan_ir_from_nir *ctx, nir_alu_instr *alu)
{
   pan_ir_builder *b = &ctx->b;
   pan_ir_index a = src(ctx, alu, 0), s = src(ctx, alu, 1);

   /* NIR shifts by the amount modulo 32. */
   if (s.kind == PAN_IR_IMM)
      s.value &= 31;
   else
      s = pan_ir_lshift_and(b, s, pan_ir_imm(0), pan_ir_imm(31));

   if (alu->op == nir_op_ishl)
      return pan_ir_lshift_or(b, a, s, pan_ir_imm(0));
   return pan_ir_rshift_or(
      b, alu->op == nir_op_ishr ? PAN_IR_TYPE_S32 : PAN_IR_TYPE_U32, a, s,
      pan_ir_imm(0));
}

static bool
cmp_of(nir_op op, enum pan_ir_type *t, enum pan_ir_cmp *c)
{
   switch (op) {
   case nir_op_ieq:
      *t = PAN_IR_TYPE_U32, *c = PAN_IR_CMP_EQ;
      return true;
   case nir_op_ine:
      *t = PAN_IR_TYPE_U32, *c = PAN_IR_CMP_NE;
      return true;
   case nir_op_ilt:
      *t = PAN_IR_TYPE_S32, *c = PAN_IR_CMP_LT;
      return true;
   case nir_op_ige:
      *t = PAN_IR_TYPE_S32, *c = PAN_IR_CMP_GE;
      return true;
   case nir_op_ult:
      *t = PAN_IR_TYPE_U32, *c = PAN_IR_CMP_LT;
      return true;
   case nir_op_uge:
      *t = PAN_IR_TYPE_U32, *c = PAN_IR_CMP_GE;
      return true;
   case nir_op_feq:
      *t = PAN_IR_TYPE_F32, *c = PAN_IR_CMP_EQ;
      return true;
   case nir_op_fneu:
      *t = PAN_IR_TYPE_F32, *c = PAN_IR_CMP_NE;
      return true;
   case nir_op_flt:
      *t = PAN_IR_TYPE_F32, *c = PAN_IR_CMP_LT;
      return true;
   case nir_op_fge:
      *t = PAN_IR_TYPE_F32, *c = PAN_IR_CMP_GE;
      return true;
   default:
      return false;
   }
}

/* Integer min/max as a select on a comparison of the same operands. */
/* A derivative from the quad's lanes: lane 0 is the top-left pixel, lane
 * 1 its right neighbour and lane 2 the one below (axis 1 or 2).  Every
 * pixel of the quad takes the difference of its top-left pair, a coarse
 * derivative, which GL allows for fine ones too; the two lane reads are
 * table constants, where a per-lane (fine) pair would cost the lane id
 * arithmetic. */
static pan_ir_index
derivative(pan_ir_builder *b, pan_ir_index x, unsigned axis)
{
   pan_ir_index far = pan_ir_clper_quad(b, x, pan_ir_imm(axis));
   pan_ir_index near = pan_ir_clper_quad(b, x, pan_ir_imm(0));
   return pan_ir_fadd(b, far, pan_ir_fneg(near));
}

static pan_ir_index
emit_minmax(struct pan_ir_from_nir *ctx, nir_alu_instr *alu)
{
   bool is_min = alu->op == nir_op_imin || alu->op == nir_op_umin;
   bool is_signed = alu->op == nir_op_imin || alu->op == nir_op_imax;
   pan_ir_index a = src(ctx, alu, 0), c = src(ctx, alu, 1);
   return pan_ir_csel(&ctx->b, is_signed ? PAN_IR_TYPE_S32 : PAN_IR_TYPE_U32,
                      is_min ? PAN_IR_CMP_LT : PAN_IR_CMP_GT, a, c, a, c);
}

/* Ops whose result is one word wide or a 64-bit pair. */
static pan_ir_index
emit_alu_value(struct pan_ir_from_nir *ctx, nir_alu_instr *alu)
{
   pan_ir_builder *b = &ctx->b;
   unsigned bits = alu->dest.dest.ssa.bit_size;
   enum pan_ir_type t;
   enum pan_ir_cmp c;

   if (cmp_of(alu->op, &t, &c)) {
      if (nir_src_bit_size(alu->src[0].src) == 64)
         return pan_ir_null();
      if (t == PAN_IR_TYPE_F32)
         return pan_ir_fcmp(b, c, fsrc(ctx, alu, 0), fsrc(ctx, alu, 1));
      return pan_ir_icmp(b, t, c, src(ctx, alu, 0), src(ctx, alu, 1));
   }

   switch (alu->op) {
   case nir_op_mov:
      return bits == 64 ? src(ctx, alu, 0) : pan_ir_mov(b, src(ctx, alu, 0));
   case nir_op_iadd:
      if (bits == 64)
         return pan_ir_iadd64(b, src(ctx, alu, 0), src(ctx, alu, 1));
      return pan_ir_iadd(b, src(ctx, alu, 0), src(ctx, alu, 1));
   case nir_op_isub:
      return pan_ir_isub(b, src(ctx, alu, 0), src(ctx, alu, 1));
   case nir_op_ineg:
      return pan_ir_isub(b, pan_ir_imm(0), src(ctx, alu, 0));
   case nir_op_imul: {
      /* By a power of two (array strides): one shift, no constant to load. */
      for (unsigned i = 0; i < 2; ++i) {
         pan_ir_index k = src(ctx, alu, i);
         if (k.kind == PAN_IR_IMM && util_is_power_of_two_nonzero(k.value))
            return pan_ir_lshift_or(b, src(ctx, alu, 1 - i),
                                    pan_ir_imm(util_logbase2(k.value)),
                                    pan_ir_imm(0));
      }
      return pan_ir_imul(b, src(ctx, alu, 0), src(ctx, alu, 1));
   }
   case nir_op_ishl:
   case nir_op_ishr:
   case nir_op_ushr:
      return emit_shift(ctx, alu);
   case nir_op_iand:
      return pan_ir_lshift_and(b, src(ctx, alu, 0), pan_ir_imm(0),
                               src(ctx, alu, 1));
   case nir_op_ior:
      return pan_ir_lshift_or(b, src(ctx, alu, 0), pan_ir_imm(0),
                              src(ctx, alu, 1));
   case nir_op_ixor:
      return pan_ir_lshift_xor(b, src(ctx, alu, 0), pan_ir_imm(0),
                               src(ctx, alu, 1));
   case nir_op_inot:
      /* A 1-bit boolean is 0 / 1: flip bit 0 only. */
      return pan_ir_lshift_xor(b, src(ctx, alu, 0), pan_ir_imm(0),
                               pan_ir_imm(bits == 1 ? 1 : 0xffffffffu));
   case nir_op_imin:
   case nir_op_imax:
   case nir_op_umin:
   case nir_op_umax:
      return emit_minmax(ctx, alu);
   case nir_op_bcsel:
      return pan_ir_csel(b, PAN_IR_TYPE_U32, PAN_IR_CMP_NE, src(ctx, alu, 0),
                         pan_ir_imm(0), src(ctx, alu, 1), src(ctx, alu, 2));
   case nir_op_b2i32:
      return pan_ir_mov(b, src(ctx, alu, 0));
   case nir_op_b2b1:
   case nir_op_i2b1: /* a bool of a uniform block, read as an integer */
      /* A 32-bit boolean (a bool uniform, 0 / ~0) to our 0 / 1 form. */
      return pan_ir_icmp(b, PAN_IR_TYPE_U32, PAN_IR_CMP_NE, src(ctx, alu, 0),
                         pan_ir_imm(0));
   case nir_op_b2b32:
      /* 0 / 1 to the 0 / ~0 that GL stores for true. */
      return pan_ir_isub(b, pan_ir_imm(0), src(ctx, alu, 0));
   case nir_op_f2b1:
      /* GLSL's bool(x): x != 0.0, so -0.0 is false and NaN true (as fneu). */
      return pan_ir_fcmp(b, PAN_IR_CMP_NE, fsrc(ctx, alu, 0), pan_ir_imm(0));
   case nir_op_b2f32:
      return pan_ir_csel(b, PAN_IR_TYPE_U32, PAN_IR_CMP_NE, src(ctx, alu, 0),
                         pan_ir_imm(0), pan_ir_imm(0x3f800000), pan_ir_imm(0));
   case nir_op_fadd:
      return pan_ir_fadd(b, fsrc(ctx, alu, 0), fsrc(ctx, alu, 1));
   case nir_op_fmul:
      /* a * b + -0 is a * b for every a, b (zero signs included). */
      return pan_ir_fma(b, fsrc(ctx, alu, 0), fsrc(ctx, alu, 1),
                        pan_ir_imm(NEG_ZERO));
   case nir_op_ffma:
      return pan_ir_fma(b, fsrc(ctx, alu, 0), fsrc(ctx, alu, 1),
                        fsrc(ctx, alu, 2));
   case nir_op_fsub:
      return pan_ir_fadd(b, fsrc(ctx, alu, 0), pan_ir_fneg(fsrc(ctx, alu, 1)));
   case nir_op_frcp:
      return pan_ir_frcp(b, fsrc(ctx, alu, 0));
   case nir_op_frsq:
      return pan_ir_frsq(b, fsrc(ctx, alu, 0));
   case nir_op_ffloor:
      return pan_ir_ffloor(b, fsrc(ctx, alu, 0));
   case nir_op_fceil:
      return pan_ir_fceil(b, fsrc(ctx, alu, 0));
   case nir_op_ftrunc:
      return pan_ir_ftrunc(b, fsrc(ctx, alu, 0));
   case nir_op_fround_even:
      return pan_ir_fround_even(b, fsrc(ctx, alu, 0));
   case nir_op_flog2:
   case nir_op_fexp2:
   case nir_op_fsin:
   case nir_op_fcos:
      return pan_ir_from_nir_sfu(b, alu->op, fsrc(ctx, alu, 0));
   case nir_op_fmin:
      return pan_ir_fmin(b, fsrc(ctx, alu, 0), fsrc(ctx, alu, 1));
   case nir_op_fmax:
      return pan_ir_fmax(b, fsrc(ctx, alu, 0), fsrc(ctx, alu, 1));
   case nir_op_fneg:
   case nir_op_fabs: {
      /* Standalone: x + -0 with the modifier is exact.  fsrc folds the
       * signs below this instruction; its own goes on top. */
      pan_ir_index x = fsrc(ctx, alu, 0);
      if (alu->op == nir_op_fabs)
         x.abs = true, x.neg = false;
      else
         x.neg = !x.neg;
      return pan_ir_fadd(b, x, pan_ir_imm(NEG_ZERO));
   }
   case nir_op_fddx:
   case nir_op_fddx_coarse:
   case nir_op_fddx_fine:
      return derivative(b, src(ctx, alu, 0), 1);
   case nir_op_fddy:
   case nir_op_fddy_coarse:
   case nir_op_fddy_fine:
      return derivative(b, src(ctx, alu, 0), 2);
   case nir_op_f2i32:
      return pan_ir_f2s32(b, fsrc(ctx, alu, 0));
   case nir_op_f2u32:
      return pan_ir_f2u32(b, fsrc(ctx, alu, 0));
   case nir_op_i2f32:
      return pan_ir_s2f32(b, src(ctx, alu, 0));
   case nir_op_u2f32:
      return pan_ir_u2f32(b, src(ctx, alu, 0));
   case nir_op_pack_64_2x32_split:
      return pan_ir_collect(
         b, 2, (pan_ir_index[]){ src(ctx, alu, 0), src(ctx, alu, 1) });
   case nir_op_unpack_64_2x32_split_x:
      return pan_ir_mov(b, pan_ir_word(src(ctx, alu, 0), 0));
   case nir_op_unpack_64_2x32_split_y:
      return pan_ir_mov(b, pan_ir_word(src(ctx, alu, 0), 1));
   case nir_op_u2u64:
      return pan_ir_collect(
         b, 2, (pan_ir_index[]){ src(ctx, alu, 0), pan_ir_imm(0) });
   case nir_op_i2i64: {
      pan_ir_index x = src(ctx, alu, 0);
      pan_ir_index hi =
         pan_ir_rshift_or(b, PAN_IR_TYPE_S32, x, pan_ir_imm(31), pan_ir_imm(0));
      return pan_ir_collect(b, 2, (pan_ir_index[]){ x, hi });
   }
   case nir_op_u2u32:
   case nir_op_i2i32:
      if (nir_src_bit_size(alu->src[0].src) != 64)
         return pan_ir_mov(b, src(ctx, alu, 0));
      return pan_ir_mov(b, pan_ir_word(src(ctx, alu, 0), 0));
   default:
      return pan_ir_null();
   }
}

/* The ops that read or write 64-bit values (as word pairs). */
static bool
handles_64bit(nir_op op)
{
   switch (op) {
   case nir_op_mov:
   case nir_op_iadd:
   case nir_op_pack_64_2x32_split:
   case nir_op_unpack_64_2x32_split_x:
   case nir_op_unpack_64_2x32_split_y:
   case nir_op_u2u64:
   case nir_op_i2i64:
   case nir_op_u2u32:
   case nir_op_i2i32:
      return true;
   default:
      return false;
   }
}

void
pan_ir_from_nir_alu(struct pan_ir_from_nir *ctx, nir_alu_instr *alu)
{
   nir_ssa_def *def = &alu->dest.dest.ssa;
   unsigned words;

   if (!pan_ir_from_nir_def_words(ctx, def, &words))
      return;

   if (nir_op_is_vec(alu->op)) {
      pan_ir_index w[4];
      /* mov swizzles one source; vecN takes one word of each. */
      bool mov = alu->op == nir_op_mov;
      for (unsigned i = 0; i < def->num_components; ++i) {
         unsigned s = mov ? 0 : i;
         if (nir_src_bit_size(alu->src[s].src) != 32) {
            pan_ir_from_nir_error(ctx, "%s of %u-bit values is unsupported",
                                  nir_op_infos[alu->op].name,
                                  nir_src_bit_size(alu->src[s].src));
            return;
         }
         w[i] = mov ? pan_ir_word(pan_ir_from_nir_src(ctx, alu->src[0].src),
                                  alu->src[0].swizzle[i])
                    : src(ctx, alu, i);
      }
      ctx->values[def->index] = pan_ir_collect(&ctx->b, def->num_components, w);
      return;
   }
   if (def->num_components != 1) {
      pan_ir_from_nir_error(ctx, "vector %s: run nir_lower_alu_to_scalar",
                            nir_op_infos[alu->op].name);
      return;
   }
   bool wide = def->bit_size == 64;
   for (unsigned i = 0; i < nir_op_infos[alu->op].num_inputs; ++i)
      wide |= nir_src_bit_size(alu->src[i].src) == 64;

   pan_ir_index v = wide && !handles_64bit(alu->op) ? pan_ir_null()
                                                    : emit_alu_value(ctx, alu);
   if (v.kind == PAN_IR_NULL) {
      pan_ir_from_nir_error(ctx, "unsupported NIR ALU op %s (%u-bit)",
                            nir_op_infos[alu->op].name, def->bit_size);
      return;
   }
   if (ctx->failed)
      return;
   ctx->values[def->index] = v;
}
