/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * FAU folding: a push-constant uniform, special value or constant of the
 * hardware table read through "mov" is read by its users directly, and
 * the mov goes.  A Valhall instruction reads at most one FAU value (a
 * 64-bit uniform pair or one special), so a source is folded only when
 * the instruction reads no other; table constants are free.  Staging and
 * 64-bit sources stay in registers.
 */

#include "isa/pan_isa_va_encode.h"
#include "pan_va.h"

/* FAU value a source reads, or -1 (registers and table constants). */
int
pan_va_fau_slot(pan_ir_index i)
{
   if (i.kind == PAN_IR_UNIFORM)
      return (int)(i.value >> 1);
   if (i.kind == PAN_IR_SPECIAL)
      return 0x1000 + (int)i.value;
   return -1;
}

/* Whether source i of I is an encoded source (not staging, not wide). */
bool
pan_va_foldable_src(const pan_ir_instr *I, unsigned i)
{
   if (I->src[i].comps != 1)
      return false;
   if (I->op == PAN_IR_OP_COLLECT)
      return true;
   const struct pan_ir_va_form *f = pan_ir_op_infos[I->op].va_form;
   for (unsigned a = 0; f && a < f->nr_args; ++a) {
      if (f->args[a].kind == PAN_IR_VA_S0 + i)
         return true;
   }
   return false;
}

static bool
fau_compatible(const pan_ir_instr *I, pan_ir_index v)
{
   /* A collect writes each word with its own move. */
   if (I->op == PAN_IR_OP_COLLECT)
      return true;
   int slot = pan_va_fau_slot(v);
   for (unsigned i = 0; slot >= 0 && i < I->nr_srcs; ++i) {
      int other = pan_va_fau_slot(I->src[i]);
      if (other >= 0 && other != slot)
         return false;
   }
   return true;
}

/* The FAU or table operand a value is a plain copy of, if any. */
static const pan_ir_index *
fau_copy(pan_ir_instr **def, uint32_t value)
{
   pan_ir_instr *D = def[value];
   if (!D || D == (pan_ir_instr *)def || D->op != PAN_IR_OP_MOV)
      return NULL;
   const pan_ir_index *src = &D->src[0];
   if (src->neg || src->abs)
      return NULL;
   if (src->kind == PAN_IR_UNIFORM || src->kind == PAN_IR_SPECIAL)
      return src;
   if (src->kind == PAN_IR_IMM && pan_va_lut_index(src->value) >= 0)
      return src;
   return NULL;
}

unsigned
pan_va_fold_fau(pan_ir_shader *s)
{
   /* Single definition of each value; def itself marks "several". */
   pan_ir_instr **def = calloc(s->ssa_alloc + 1, sizeof(*def));
   unsigned folded = 0;
   if (!def)
      return 0;

   pan_ir_foreach_instr_global(s, b, I)
   {
      if (I->dest.kind == PAN_IR_SSA)
         def[I->dest.value] = def[I->dest.value] ? (pan_ir_instr *)def : I;
   }
   pan_ir_foreach_instr_global(s, b, I)
   {
      for (unsigned i = 0; i < I->nr_srcs; ++i) {
         pan_ir_index *src = &I->src[i];
         if (src->kind != PAN_IR_SSA || src->comp || !pan_va_foldable_src(I, i))
            continue;
         const pan_ir_index *c = fau_copy(def, src->value);
         if (!c || !fau_compatible(I, *c))
            continue;
         pan_ir_index f = *c;
         f.neg = src->neg;
         f.abs = src->abs;
         *src = f;
         folded++;
      }
   }

   free(def);
   return folded;
}
