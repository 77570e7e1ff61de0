/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * What Bifrost lacks, rewritten before register allocation:
 *
 * - comparisons: integer compares and selects exist for eq/ne (eq only
 *   for csel) and gt/ge; lt/le swap their operands, a csel on ne swaps
 *   its results.  discard has eq/ne/lt/le, so gt/ge swap.
 * - 64-bit adds (addresses): two 32-bit adds and the carry from an
 *   unsigned compare.
 * - FAU: a value moved from a uniform, special or immediate is read
 *   directly by its users; then a tuple sees one FAU value, a uniform pair or one 64-bit clause
 *   constant (two 32-bit immediates).  Further uniforms or immediates of
 *   an instruction are moved into registers first.  Staging vectors are
 *   registers, never FAU.
 */

#include "pan_bi.h"
#include "pan_ir_builder.h"

const struct pan_ir_bi_form *
pan_bi_form(const pan_ir_instr *I)
{
   const struct pan_ir_op_info *info = &pan_ir_op_infos[I->op];
   for (unsigned i = 0; i < info->nr_bi_forms; ++i) {
      const struct pan_ir_bi_form *f = &info->bi_forms[i];
      if ((!f->types || (f->types & (1u << I->type))) &&
          (!f->cmps || (f->cmps & (1u << I->cmp))))
         return f;
   }
   return NULL;
}

static void
swap(pan_ir_index *a, pan_ir_index *b)
{
   pan_ir_index t = *a;
   *a = *b;
   *b = t;
}

static enum pan_ir_cmp
mirror(enum pan_ir_cmp c)
{
   switch (c) {
   case PAN_IR_CMP_LT:
      return PAN_IR_CMP_GT;
   case PAN_IR_CMP_LE:
      return PAN_IR_CMP_GE;
   case PAN_IR_CMP_GT:
      return PAN_IR_CMP_LT;
   case PAN_IR_CMP_GE:
      return PAN_IR_CMP_LE;
   default:
      return c;
   }
}

static void
canonical_cmp(pan_ir_instr *I)
{
   bool less = I->cmp == PAN_IR_CMP_LT || I->cmp == PAN_IR_CMP_LE;
   bool greater = I->cmp == PAN_IR_CMP_GT || I->cmp == PAN_IR_CMP_GE;
   switch (I->op) {
   case PAN_IR_OP_ICMP:
   case PAN_IR_OP_CSEL:
      if (less) {
         swap(&I->src[0], &I->src[1]);
         I->cmp = mirror(I->cmp);
      }
      if (I->op == PAN_IR_OP_CSEL && I->cmp == PAN_IR_CMP_NE) {
         swap(&I->src[2], &I->src[3]);
         I->cmp = PAN_IR_CMP_EQ;
      }
      break;
   case PAN_IR_OP_DISCARD:
      if (greater) {
         swap(&I->src[0], &I->src[1]);
         I->cmp = mirror(I->cmp);
      }
      break;
   default:
      break;
   }
}

/* dest = a + b on 64 bits: the high word adds the carry of the low one
 * (lo < a.lo unsigned, written as a.lo > lo). */
static void
lower_iadd64(pan_ir_shader *s, pan_ir_block *blk, pan_ir_instr *I)
{
   pan_ir_builder b = pan_ir_builder_before(s, blk, I);
   pan_ir_index a0 = pan_ir_word(I->src[0], 0), a1 = pan_ir_word(I->src[0], 1);
   pan_ir_index b0 = pan_ir_word(I->src[1], 0), b1 = pan_ir_word(I->src[1], 1);
   pan_ir_index lo = pan_ir_iadd(&b, a0, b0);
   pan_ir_index carry =
      pan_ir_icmp(&b, PAN_IR_TYPE_U32, PAN_IR_CMP_GT, a0, lo);
   pan_ir_index hi = pan_ir_iadd(&b, pan_ir_iadd(&b, a1, b1), carry);
   pan_ir_instr *C = pan_ir_build(&b, PAN_IR_OP_COLLECT, 2);
   C->src[0] = lo;
   C->src[1] = hi;
   C->dest = I->dest;
   pan_ir_instr_remove(I);
}

static bool
is_fau(pan_ir_index i)
{
   return i.kind == PAN_IR_UNIFORM || i.kind == PAN_IR_IMM ||
          i.kind == PAN_IR_SPECIAL;
}

/* FAU values moved into registers earlier in the current block: a later
 * instruction needing the same value in a register reads that move's
 * result instead of moving it again. */
#define BI_FAU_CACHE 32
struct fau_cache {
   unsigned n;
   pan_ir_index fau[BI_FAU_CACHE], reg[BI_FAU_CACHE];
};

static bool
same_fau(pan_ir_index a, pan_ir_index b)
{
   return a.kind == b.kind && a.value == b.value;
}

static int
cached(const struct fau_cache *c, pan_ir_index src)
{
   for (unsigned k = 0; k < c->n; ++k) {
      if (same_fau(c->fau[k], src))
         return (int)k;
   }
   return -1;
}

/* Move source i of I into a register just before I (or reuse a move of
 * the same value in this block). */
static void
to_reg(pan_ir_shader *s, pan_ir_block *blk, pan_ir_instr *I, unsigned i,
       struct fau_cache *c)
{
   pan_ir_index src = I->src[i], plain = src, v;
   plain.neg = plain.abs = false;
   int k = c ? cached(c, plain) : -1;
   if (k >= 0) {
      v = c->reg[k];
   } else {
      pan_ir_builder b = pan_ir_builder_before(s, blk, I);
      v = pan_ir_mov(&b, plain);
      if (c && c->n < BI_FAU_CACHE && is_fau(plain)) {
         c->fau[c->n] = plain;
         c->reg[c->n++] = v;
      }
   }
   v.neg = src.neg;
   v.abs = src.abs;
   I->src[i] = v;
}

/* Whether source i of f's instruction is read as FMA zero: 0, or -0.0
 * (a multiply's addend) where the encoding can negate that source. */
static bool
zero_selector(const struct pan_ir_bi_form *f, pan_ir_index src, unsigned i)
{
   if (f->unit != 0 || src.kind != PAN_IR_IMM || src.neg || src.abs)
      return false;
   if (src.value == 0)
      return true;
   if (src.value != 0x80000000u)
      return false;
   for (unsigned a = 0; a < f->nr_args; ++a) {
      if (f->args[a].kind != PAN_IR_BI_SRC || f->args[a].src != i ||
          f->args[a].word)
         continue;
      char field[8];
      snprintf(field, sizeof(field), "neg%u", a);
      return pan_bi_all_have_field(f->name, 0,
                                   f->args[a].neg ? f->args[a].neg : field);
   }
   return false;
}

/* Whether source i of I reads a value c has in a register already. */
static bool
in_cache(const struct fau_cache *c, const pan_ir_instr *I, unsigned i)
{
   pan_ir_index plain = I->src[i];
   plain.neg = plain.abs = false;
   return cached(c, plain) >= 0;
}

/* Keep the FAU reads of I within one value: the first uniform pair or
 * special seen, or at most two immediates (the immediate field and a
 * branch distance count as one each).  Values c has in registers are
 * seen last, so that they are the ones read from a register. */
static void
limit_fau(pan_ir_shader *s, pan_ir_block *blk, pan_ir_instr *I,
          const struct pan_ir_bi_form *f, struct fau_cache *c)
{
   unsigned nr_consts = 0;
   uint32_t consts[2];
   int uniform_pair = -1, special = -1;
   /* A source read through the FAU index alone claims it first. */
   if (f->fau_src != 0xff && I->src[f->fau_src].kind == PAN_IR_SPECIAL)
      special = (int)I->src[f->fau_src].value;
   for (unsigned a = 0; a < f->nr_args; ++a) {
      if (f->args[a].kind == PAN_IR_BI_IMM)
         consts[nr_consts++] = I->imm;
      else if (f->args[a].kind == PAN_IR_BI_OFFSET)
         nr_consts = 2; /* a 64-bit constant of its own */
   }
   for (unsigned n = 0; n < 2 * I->nr_srcs; ++n) {
      unsigned i = n % I->nr_srcs;
      pan_ir_index src = I->src[i];
      bool staging = f->staging == 2 && i == 0;
      if (!is_fau(src) || (!staging && zero_selector(f, src, i)) ||
          in_cache(c, I, i) != (n >= I->nr_srcs))
         continue;
      bool fits = false;
      if (staging) {
         fits = false;
      } else if (src.kind == PAN_IR_UNIFORM) {
         if (uniform_pair < 0 && special < 0 && !nr_consts)
            uniform_pair = (int)(src.value / 2);
         fits = uniform_pair == (int)(src.value / 2);
      } else if (src.kind == PAN_IR_SPECIAL) {
         if (uniform_pair < 0 && special < 0 && !nr_consts)
            special = (int)src.value;
         fits = special == (int)src.value;
      } else if (uniform_pair < 0 && special < 0) {
         for (unsigned k = 0; k < nr_consts; ++k)
            fits |= consts[k] == src.value;
         if (!fits && nr_consts < 2) {
            consts[nr_consts++] = src.value;
            fits = true;
         }
      }
      /* Staging registers stay the message's own. */
      if (!fits)
         to_reg(s, blk, I, i, staging ? NULL : c);
   }
}

/* Users read FAU values through movs defined once: read them directly
 * (limit_fau moves back what a tuple cannot have; the movs left unread
 * go with the dead code).  Movs too: a phi carrier starting as a uniform
 * is then one move of it instead of a copy of a copy. */
static void
fold_fau_movs(pan_ir_shader *s)
{
   unsigned n = s->ssa_alloc;
   pan_ir_index *fau = rzalloc_array(NULL, pan_ir_index, n + 1);
   uint8_t *defs = rzalloc_array(fau, uint8_t, n + 1);
   pan_ir_foreach_instr_global(s, b, I)
   {
      if (I->dest.kind != PAN_IR_SSA)
         continue;
      defs[I->dest.value] = MIN2(defs[I->dest.value] + 1, 2);
      if (I->op == PAN_IR_OP_MOV && is_fau(I->src[0]) && !I->src[0].neg &&
          !I->src[0].abs)
         fau[I->dest.value] = I->src[0];
   }
   pan_ir_foreach_instr_global(s, b, I)
   {
      if (I->op == PAN_IR_OP_PHI || I->op == PAN_IR_OP_COLLECT)
         continue;
      const struct pan_ir_bi_form *f = pan_bi_form(I);
      for (unsigned i = 0; f && i < I->nr_srcs; ++i) {
         pan_ir_index src = I->src[i];
         if (src.kind != PAN_IR_SSA || defs[src.value] != 1 ||
             fau[src.value].kind == PAN_IR_NULL || src.comps != 1 ||
             (f->staging == 2 && i == 0))
            continue;
         pan_ir_index v = fau[src.value];
         v.neg = src.neg;
         v.abs = src.abs;
         I->src[i] = v;
      }
   }
   ralloc_free(fau);
}

bool
pan_bi_legalize(pan_ir_shader *s, char *err, size_t err_size)
{
   pan_ir_foreach_block(s, blk)
   {
      pan_ir_foreach_instr_safe(blk, I)
      {
         if (I->op == PAN_IR_OP_IADD64) {
            lower_iadd64(s, blk, I);
            continue;
         }
         canonical_cmp(I);
         /* The exponent of |x| is x's: Bifrost's frexpe has no abs. */
         if (I->op == PAN_IR_OP_FREXPE_LOG)
            I->src[0].abs = I->src[0].neg = false;
         /* flogd has no source modifiers: x + -0.0 applies them. */
         if (I->op == PAN_IR_OP_FLOGD && (I->src[0].abs || I->src[0].neg)) {
            pan_ir_builder b = pan_ir_builder_before(s, blk, I);
            I->src[0] = pan_ir_fadd(&b, I->src[0], pan_ir_imm(0x80000000u));
         }
      }
   }
   fold_fau_movs(s);
   pan_ir_opt_dce(s);
   pan_ir_foreach_block(s, blk)
   {
      struct fau_cache cache = { 0 };
      pan_ir_foreach_instr(blk, I)
      {
         if (I->op == PAN_IR_OP_COLLECT || I->op == PAN_IR_OP_PHI)
            continue;
         const struct pan_ir_bi_form *f = pan_bi_form(I);
         if (!f) {
            snprintf(err, err_size, "%s is unsupported on Bifrost",
                     pan_ir_op_infos[I->op].name);
            return false;
         }
         if ((I->op == PAN_IR_OP_LOAD_GLOBAL ||
              I->op == PAN_IR_OP_STORE_GLOBAL) &&
             I->imm) {
            snprintf(err, err_size, "%s with an offset is unsupported on "
                     "Bifrost", pan_ir_op_infos[I->op].name);
            return false;
         }
         /* arshift has no logic operand to combine. */
         if (I->op == PAN_IR_OP_RSHIFT_OR && I->type == PAN_IR_TYPE_S32 &&
             !(I->src[2].kind == PAN_IR_IMM && I->src[2].value == 0)) {
            snprintf(err, err_size, "signed rshift_or with a logic operand "
                     "is unsupported on Bifrost");
            return false;
         }
         limit_fau(s, blk, I, f, &cache);
      }
   }
   return true;
}
