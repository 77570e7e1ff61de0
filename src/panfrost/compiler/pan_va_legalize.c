/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Valhall sources can name a register, a uniform or an entry of the
 * hardware constant table, not any 32-bit constant: other immediates are
 * pushed FAU words (graphics stages, pan_va_push_constants.c) or
 * materialized by "iadd_imm #0, constant:v" just before their use.
 */

#include <string.h>

#include "isa/pan_isa_va_encode.h"
#include "util/half_float.h"
#include "util/u_math.h"
#include "pan_ir_builder.h"
#include "pan_va.h"

bool
pan_va_imm_needs_word(pan_ir_instr *I, unsigned i)
{
   pan_ir_index *src = &I->src[i];
   if (src->kind != PAN_IR_IMM || pan_va_lut_index(src->value) >= 0 ||
       (src->value < 32 && pan_va_src_is_byte(I, i)))
      return false;
   unsigned entry, half;
   bool neg;
   if (pan_va_src_widens_half(I, i) &&
       pan_va_lut_half(src->value, &entry, &half, &neg))
      return false;
   /* A float -0 is the table's 0 negated. */
   if (src->value == 0x80000000u && pan_ir_op_infos[I->op].float_srcs &&
       !src->abs) {
      src->value = 0;
      src->neg = !src->neg;
      return false;
   }
   return true;
}

void
pan_va_legalize(pan_ir_shader *s, bool fold_fau, struct pan_va_binary *push)
{
   pan_va_fuse_rscale(s);
   /* The movs that folding leaves unread go with the other dead code. */
   if (fold_fau && pan_va_fold_fau(s))
      pan_ir_opt_dce(s);
   /* x + k with k outside the table: iadd_imm carries k itself. */
   pan_ir_foreach_instr_global(s, blk, I)
   {
      if (I->op != PAN_IR_OP_IADD)
         continue;
      for (unsigned i = 0; i < 2; ++i) {
         pan_ir_index k = I->src[i], x = I->src[1 - i];
         if (k.kind == PAN_IR_IMM && pan_va_lut_index(k.value) < 0 &&
             x.kind != PAN_IR_IMM) {
            I->op = PAN_IR_OP_IADD_IMM;
            I->imm = k.value;
            I->src[0] = x;
            I->nr_srcs = 1;
            break;
         }
      }
   }
   /* x & 0xffff (the 8.8 LOD of explicit gradients) is a zero extension
    * of the low half: a CVT-unit instruction instead of the SFU's shift,
    * which bounds the shaders texturing with gradients. */
   pan_ir_foreach_instr_global(s, blk, I)
   {
      if (I->op == PAN_IR_OP_LSHIFT_AND && I->src[1].kind == PAN_IR_IMM &&
          I->src[1].value == 0 && I->src[2].kind == PAN_IR_IMM &&
          I->src[2].value == 0xffff && I->src[0].kind == PAN_IR_SSA) {
         I->op = PAN_IR_OP_U16LO_TO_U32;
         I->nr_srcs = 1;
      }
   }
   if (push && fold_fau)
      pan_va_push_constants(s, push);
   pan_ir_foreach_block(s, blk)
   {
      pan_ir_foreach_instr(blk, I)
      {
         for (unsigned i = 0; i < I->nr_srcs; ++i) {
            pan_ir_index *src = &I->src[i];
            pan_ir_builder b = pan_ir_builder_before(s, blk, I);
            /* Staging sources are register ranges: a constant or uniform
             * that copy propagation put there goes back into a register. */
            if (i == 0 && (src->kind == PAN_IR_IMM ||
                           src->kind == PAN_IR_UNIFORM) &&
                src->comps == 1 && pan_va_src_is_staging(I)) {
               *src = src->kind == PAN_IR_IMM
                         ? pan_ir_iadd_imm(&b, src->value, pan_ir_imm(0))
                         : pan_ir_iadd_imm(&b, 0, *src);
               continue;
            }
            if (!pan_va_imm_needs_word(I, i))
               continue;
            pan_ir_index v = pan_ir_iadd_imm(&b, src->value, pan_ir_imm(0));
            v.neg = src->neg;
            v.abs = src->abs;
            *src = v;
         }
      }
   }
}

bool
pan_va_src_is_staging(const pan_ir_instr *I)
{
   const struct pan_ir_va_form *f = pan_ir_op_infos[I->op].va_form;
   for (unsigned a = 0; f && a < f->nr_args; ++a) {
      if (f->args[a].kind == PAN_IR_VA_SSR0)
         return true;
   }
   return false;
}

bool
pan_va_src_is_byte(const pan_ir_instr *I, unsigned s)
{
   const struct pan_ir_va_form *f = pan_ir_op_infos[I->op].va_form;
   for (unsigned a = 0; f && a < f->nr_args; ++a) {
      if (f->args[a].kind == PAN_IR_VA_S0 + s && f->args[a].field &&
          !strcmp(f->args[a].field, "swz") && !strcmp(f->args[a].mod, "b00"))
         return true;
   }
   return false;
}

bool
pan_va_src_widens_half(const pan_ir_instr *I, unsigned s)
{
   switch (I->op) {
   case PAN_IR_OP_FADD:
   case PAN_IR_OP_FMA:
   case PAN_IR_OP_FMIN:
   case PAN_IR_OP_FMAX:
   case PAN_IR_OP_FCMP:
   case PAN_IR_OP_DISCARD:
      return s < I->nr_srcs;
   default:
      return false;
   }
}

bool
pan_va_lut_half(uint32_t v, unsigned *entry, unsigned *half, bool *neg)
{
   for (unsigned i = 0; i < 32; ++i) {
      for (unsigned h = 0; h < 2; ++h) {
         uint16_t bits = (uint16_t)(pan_va_lut_value(i) >> (16 * h));
         /* NaNs never match; zero is the plain table word anyway. */
         if ((bits & 0x7c00) == 0x7c00 || !(bits & 0x7fff))
            continue;
         uint32_t f = fui(_mesa_half_to_float(bits));
         if (f == v || f == (v ^ 0x80000000u)) {
            *entry = i;
            *half = h;
            *neg = f != v;
            return true;
         }
      }
   }
   return false;
}
