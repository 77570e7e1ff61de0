/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * exp2 scales its operand by 2^24 with fma_rscale(x, 1.0, -0, 24)
 * (pan_ir_from_nir_sfu.c), and pow is exp2(log2(a) * b): the product is
 * an fma(p, q, -0) read only there.  FMA_RSCALE multiplies its first two
 * sources itself, so it takes p and q and the multiply goes, one FMA-unit
 * instruction fewer per pow (the unit that bounds lighting shaders).
 *
 * Runs after phi lowering, so the product must be in the same block with
 * nothing between redefining p or q (a phi's carrier may be).
 */

#include <stdlib.h>

#include "pan_va.h"

#define F32_ONE 0x3f800000u

static bool
is_imm(pan_ir_index i, uint32_t v, bool neg)
{
   return i.kind == PAN_IR_IMM && !i.abs && i.value == v && i.neg == neg;
}

/* -0 as from_nir writes it, or as legalisation rewrites it (0 negated). */
static bool
is_neg_zero(pan_ir_index i)
{
   return is_imm(i, 0x80000000u, false) || is_imm(i, 0, true);
}

/* Whether an instruction strictly between D and I (one block, D first)
 * writes a value D reads. */
static bool
sources_redefined(const pan_ir_instr *D, const pan_ir_instr *I)
{
   for (const struct list_head *n = D->link.next; n != &I->link;
        n = n->next) {
      const pan_ir_instr *J = list_entry(n, pan_ir_instr, link);
      for (unsigned i = 0; J->dest.kind == PAN_IR_SSA && i < D->nr_srcs; ++i) {
         if (D->src[i].kind == PAN_IR_SSA &&
             D->src[i].value == J->dest.value)
            return true;
      }
   }
   return false;
}

bool
pan_va_fuse_rscale(pan_ir_shader *s)
{
   unsigned n = s->ssa_alloc + 1;
   unsigned *uses = calloc(n, sizeof(unsigned));
   pan_ir_instr **def = calloc(n, sizeof(*def));
   pan_ir_block **def_blk = calloc(n, sizeof(*def_blk));
   bool progress = false;
   if (!uses || !def || !def_blk)
      goto out;

   pan_ir_foreach_instr_global(s, b, I)
   {
      for (unsigned i = 0; i < I->nr_srcs; ++i) {
         if (I->src[i].kind == PAN_IR_SSA)
            uses[I->src[i].value]++;
      }
      if (I->dest.kind == PAN_IR_SSA) {
         /* Several definitions (a phi's carrier): never fused. */
         uses[I->dest.value] += def[I->dest.value] ? 2 : 0;
         def[I->dest.value] = I;
         def_blk[I->dest.value] = b;
      }
   }

   pan_ir_foreach_instr_global(s, b, I)
   {
      pan_ir_index x = I->src[0];
      if (I->op != PAN_IR_OP_FMA_RSCALE || !is_imm(I->src[1], F32_ONE, false) ||
          !is_neg_zero(I->src[2]) || x.kind != PAN_IR_SSA || x.abs ||
          x.comps != 1 || x.comp || uses[x.value] != 1 ||
          def_blk[x.value] != b)
         continue;
      pan_ir_instr *D = def[x.value];
      if (D->op != PAN_IR_OP_FMA || D->dest.comps != 1 ||
          !is_neg_zero(D->src[2]) || sources_redefined(D, I))
         continue;
      I->src[0] = D->src[0];
      I->src[0].neg ^= x.neg;
      I->src[1] = D->src[1];
      pan_ir_instr_remove(D);
      progress = true;
   }

out:
   free(uses);
   free(def);
   free(def_blk);
   return progress;
}
