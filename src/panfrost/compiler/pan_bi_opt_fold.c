/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Results folded into the instruction computing them, where Bifrost's
 * FMA unit has a modifier for it:
 *
 * - clamps: NIR lowers saturation to fmin(fmax(x, 0), 1) (or
 *   fmax(fmin(x, 1), 0)), and max(x, 0) is common on its own.  When x is
 *   the only use of an fma or fadd result, that instruction clamps its
 *   own result (fma_sat, fadd_sat, fma_pos, fadd_pos) and the min/max go;
 *   otherwise a saturation is one fadd_sat(x, 0) instead of two.
 * - float booleans: b2f of a comparison read once, csel(b, 1.0, 0.0), is
 *   the comparison with its 1.0 / 0.0 result type (fcmp_f1); any other
 *   select on such a comparison compares by itself (CSEL.f32).
 *
 * Runs on SSA, before phi lowering.
 */

#include "pan_bi.h"
#include "pan_ir_builder.h"

#define F32_ONE 0x3f800000u

struct fold_ctx {
   pan_ir_instr **def;
   unsigned *uses;
};

static bool
is_imm(pan_ir_index i, uint32_t v)
{
   return i.kind == PAN_IR_IMM && i.value == v && !i.neg && !i.abs;
}

/* The other source of a two-source I when one is the immediate v, or a
 * null index. */
static pan_ir_index
other_than(const pan_ir_instr *I, uint32_t v)
{
   if (is_imm(I->src[1], v))
      return I->src[0];
   if (is_imm(I->src[0], v))
      return I->src[1];
   return (pan_ir_index){ .kind = PAN_IR_NULL };
}

/* The instruction defining a plain scalar value read only once, or NULL. */
static pan_ir_instr *
single_use_def(const struct fold_ctx *c, pan_ir_index x)
{
   if (x.kind != PAN_IR_SSA || x.neg || x.abs || x.comps != 1 || x.comp ||
       c->uses[x.value] != 1)
      return NULL;
   pan_ir_instr *D = c->def[x.value];
   return D && D->dest.comps == 1 ? D : NULL;
}

/* If O (an fmin/fmax) saturates a value, that value; *inner the min/max
 * O reads. */
static pan_ir_index
saturated(const struct fold_ctx *c, const pan_ir_instr *O, pan_ir_instr **inner)
{
   bool min = O->op == PAN_IR_OP_FMIN;
   *inner = single_use_def(c, other_than(O, min ? F32_ONE : 0));
   if (!*inner || (*inner)->op != (min ? PAN_IR_OP_FMAX : PAN_IR_OP_FMIN))
      return (pan_ir_index){ .kind = PAN_IR_NULL };
   return other_than(*inner, min ? 0 : F32_ONE);
}

/* D takes the clamp: its op for a clamp to [0, 1] (sat) or [0, +inf). */
static enum pan_ir_op
clamped_op(enum pan_ir_op op, bool sat)
{
   switch (op) {
   case PAN_IR_OP_FMA:
      return sat ? PAN_IR_OP_FMA_SAT : PAN_IR_OP_FMA_POS;
   case PAN_IR_OP_FADD:
      return sat ? PAN_IR_OP_FADD_SAT : PAN_IR_OP_FADD_POS;
   case PAN_IR_OP_FMA_POS:
      return sat ? PAN_IR_OP_FMA_SAT : op;
   case PAN_IR_OP_FADD_POS:
      return sat ? PAN_IR_OP_FADD_SAT : op;
   case PAN_IR_OP_FMA_SAT:
   case PAN_IR_OP_FADD_SAT:
      return op; /* a clamp of [0, 1] to either range changes nothing */
   default:
      return PAN_IR_NR_OPS;
   }
}

/* Clamp O's source x at its definition when that is its only use; the
 * min/max instructions from O down to x's use go. */
static bool
fold_into_def(struct fold_ctx *c, pan_ir_instr *O, pan_ir_index x, bool sat)
{
   pan_ir_instr *D = single_use_def(c, x);
   enum pan_ir_op op = D ? clamped_op(D->op, sat) : PAN_IR_NR_OPS;
   if (op == PAN_IR_NR_OPS)
      return false;
   D->op = op;
   D->dest = O->dest;
   c->def[O->dest.value] = D;
   return true;
}

/* fmin(fmax(x, 0), 1) or fmax(fmin(x, 1), 0): one instruction. */
static bool
fold_sat(struct fold_ctx *c, pan_ir_instr *O)
{
   pan_ir_instr *inner;
   pan_ir_index x = saturated(c, O, &inner);
   if (x.kind == PAN_IR_NULL)
      return false;
   if (fold_into_def(c, O, x, true)) {
      pan_ir_instr_remove(O);
   } else {
      O->op = PAN_IR_OP_FADD_SAT;
      O->src[0] = x;
      O->src[1] = pan_ir_imm(0);
   }
   pan_ir_instr_remove(inner);
   return true;
}

/* fmax(x, 0) of an fma/fadd result read once: that result clamped. */
static bool
fold_max0(struct fold_ctx *c, pan_ir_instr *O)
{
   pan_ir_index x =
      O->op == PAN_IR_OP_FMAX ? other_than(O, 0) : (pan_ir_index){ 0 };
   if (x.kind == PAN_IR_NULL || !fold_into_def(c, O, x, false))
      return false;
   pan_ir_instr_remove(O);
   return true;
}

/* csel(b != 0, 1.0, 0.0) of an fcmp read once: the fcmp gives 1.0 / 0.0. */
static bool
fold_b2f(struct fold_ctx *c, pan_ir_instr *O)
{
   if (O->op != PAN_IR_OP_CSEL || O->cmp != PAN_IR_CMP_NE ||
       !is_imm(O->src[1], 0) || !is_imm(O->src[2], F32_ONE) ||
       !is_imm(O->src[3], 0) || O->dest.kind != PAN_IR_SSA ||
       O->dest.comps != 1)
      return false;
   pan_ir_instr *D = single_use_def(c, O->src[0]);
   if (!D || D->op != PAN_IR_OP_FCMP)
      return false;
   D->op = PAN_IR_OP_FCMP_F1;
   D->dest = O->dest;
   c->def[O->dest.value] = D;
   pan_ir_instr_remove(O);
   return true;
}

/* csel(b != 0, x, y) of an fcmp of plain sources read once: the csel
 * compares those itself (its float form has no source modifiers). */
static bool
fold_csel_cmp(struct fold_ctx *c, pan_ir_instr *O)
{
   if (O->op != PAN_IR_OP_CSEL || O->cmp != PAN_IR_CMP_NE ||
       !is_imm(O->src[1], 0))
      return false;
   pan_ir_instr *D = single_use_def(c, O->src[0]);
   if (!D || D->op != PAN_IR_OP_FCMP)
      return false;
   for (unsigned i = 0; i < 2; ++i) {
      if (D->src[i].neg || D->src[i].abs || D->src[i].comps != 1)
         return false;
   }
   O->type = PAN_IR_TYPE_F32;
   O->cmp = D->cmp;
   O->src[0] = D->src[0];
   O->src[1] = D->src[1];
   pan_ir_instr_remove(D);
   return true;
}

bool
pan_bi_opt_fold(pan_ir_shader *s)
{
   void *mem = ralloc_context(NULL);
   struct fold_ctx c = {
      .def = rzalloc_array(mem, pan_ir_instr *, s->ssa_alloc + 1),
      .uses = rzalloc_array(mem, unsigned, s->ssa_alloc + 1),
   };
   bool progress = false;
   pan_ir_foreach_instr_global(s, b, I)
   {
      if (I->dest.kind == PAN_IR_SSA)
         c.def[I->dest.value] = I;
      for (unsigned i = 0; i < I->nr_srcs; ++i) {
         if (I->src[i].kind == PAN_IR_SSA)
            c.uses[I->src[i].value]++;
      }
   }
   /* Saturations first, so that their max(x, 0) halves stay whole. */
   for (unsigned pass = 0; pass < 2; ++pass) {
      pan_ir_foreach_block(s, blk)
      {
         pan_ir_foreach_instr_safe(blk, O)
         {
            if (!pass && (fold_b2f(&c, O) || fold_csel_cmp(&c, O))) {
               progress = true;
               continue;
            }
            if ((O->op != PAN_IR_OP_FMIN && O->op != PAN_IR_OP_FMAX) ||
                O->dest.kind != PAN_IR_SSA || O->dest.comps != 1)
               continue;
            progress |= pass ? fold_max0(&c, O) : fold_sat(&c, O);
         }
      }
   }
   ralloc_free(mem);
   return progress;
}
