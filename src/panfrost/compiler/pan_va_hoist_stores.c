/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Vertex output stores moved up to where their data is complete, the
 * allocator's step (with pan_va_sink_pressure) when a program does not
 * fit in the 32 registers of two threads.
 *
 * NIR stores the outputs at the end of a vertex shader, so every
 * attribute and result a packed varying slot gathers lives until then,
 * each slot's words as one aligned vector.  Stored as soon as the last of
 * its words is computed, a slot's vector lives from its collect to its
 * store, and the words that nothing else reads die there.  The collect
 * and the store move together, to just below the last instruction of the
 * block defining one of their sources: no source lives longer.
 *
 * A store moves up past instructions without side effects that read no
 * memory it could write (attribute, varying and uniform loads are other
 * buffers), and past other output stores to another stream or, through
 * the same address, to bytes it does not write.
 */

#include <stdlib.h>

#include "pan_va.h"

static bool
is_output_store(const pan_ir_instr *I)
{
   return I->op == PAN_IR_OP_STORE_VARY || I->op == PAN_IR_OP_STORE_POS ||
          I->op == PAN_IR_OP_STORE_PSIZ;
}

/* Bytes past the address a store may write: four a word of its data (a
 * 16-bit store writes fewer). */
static void
store_range(const pan_ir_instr *S, unsigned *lo, unsigned *hi)
{
   unsigned offset = S->op == PAN_IR_OP_STORE_PSIZ ? 0 : (unsigned)S->imm;
   *lo = offset;
   *hi = offset + 4 * MAX2(S->src[0].comps, 1);
}

/* Whether store S may be issued before J. */
static bool
crosses(const pan_ir_instr *S, const pan_ir_instr *J)
{
   const struct pan_ir_op_info *info = &pan_ir_op_infos[J->op];
   switch (J->op) {
   case PAN_IR_OP_PRELOAD:
   case PAN_IR_OP_PHI:
   case PAN_IR_OP_LOAD_GLOBAL:
   case PAN_IR_OP_LOAD_SHARED:
   case PAN_IR_OP_TLS_LOAD:
   case PAN_IR_OP_IMAGE_LOAD:
      return false;
   default:
      break;
   }
   if (!is_output_store(J))
      return !info->side_effects && !info->terminator;
   /* store_vary writes the varying stream, the others the position
    * stream. */
   if ((S->op == PAN_IR_OP_STORE_VARY) != (J->op == PAN_IR_OP_STORE_VARY))
      return true;
   if (S->op != J->op || S->src[1].kind != PAN_IR_SSA ||
       J->src[1].kind != PAN_IR_SSA || S->src[1].value != J->src[1].value ||
       S->src[1].comp != J->src[1].comp)
      return false;
   unsigned slo, shi, jlo, jhi;
   store_range(S, &slo, &shi);
   store_range(J, &jlo, &jhi);
   return shi <= jlo || jhi <= slo;
}

static bool
defines_src(const pan_ir_instr *J, const pan_ir_instr *I)
{
   if (J->dest.kind != PAN_IR_SSA)
      return false;
   for (unsigned i = 0; i < I->nr_srcs; ++i) {
      if (I->src[i].kind == PAN_IR_SSA && I->src[i].value == J->dest.value)
         return true;
   }
   return false;
}

bool
pan_va_hoist_stores(pan_ir_shader *s)
{
   unsigned nr = s->ssa_alloc + 1;
   unsigned *reads = calloc(nr, sizeof(unsigned));
   uint8_t *defs = calloc(nr, 1);
   pan_ir_instr **def = calloc(nr, sizeof(*def));
   pan_ir_block **def_blk = calloc(nr, sizeof(*def_blk));
   bool progress = false;
   if (!reads || !defs || !def || !def_blk)
      goto out;

   pan_ir_foreach_instr_global(s, b, I)
   {
      for (unsigned i = 0; i < I->nr_srcs; ++i) {
         if (I->src[i].kind == PAN_IR_SSA)
            reads[I->src[i].value]++;
      }
      if (I->dest.kind == PAN_IR_SSA) {
         defs[I->dest.value] = MIN2(defs[I->dest.value] + 1, 2);
         def[I->dest.value] = defs[I->dest.value] == 1 ? I : NULL;
         def_blk[I->dest.value] = b;
      }
   }

   /* The output address reads a preload only: computed first, it stops
    * no store (pan_va_sink_pressure then moves it down to the first). */
   pan_ir_block *entry = pan_ir_entry_block(s);
   pan_ir_foreach_instr_safe(entry, L)
   {
      if (L->op != PAN_IR_OP_LEA_VARY || L->src[0].kind != PAN_IR_SSA ||
          !def[L->src[0].value] || def[L->src[0].value]->op != PAN_IR_OP_PRELOAD)
         continue;
      pan_ir_instr *P = def[L->src[0].value];
      if (def_blk[L->src[0].value] != entry)
         continue;
      list_del(&P->link);
      list_add(&P->link, &entry->instrs);
      list_del(&L->link);
      list_add(&L->link, &P->link);
   }

   pan_ir_foreach_block(s, b)
   {
      pan_ir_foreach_instr_safe(b, S)
      {
         if (!is_output_store(S))
            continue;
         /* The collect of the data, when only the store reads it. */
         pan_ir_instr *C = NULL;
         pan_ir_index data = S->src[0];
         /* Going up: the first instruction the store stays below. */
         pan_ir_instr *above = NULL;
         for (struct list_head *n = S->link.prev; n != &b->instrs;
              n = n->prev) {
            pan_ir_instr *J = list_entry(n, pan_ir_instr, link);
            if (!C && J->op == PAN_IR_OP_COLLECT &&
                J->dest.kind == PAN_IR_SSA && data.kind == PAN_IR_SSA &&
                J->dest.value == data.value && defs[data.value] == 1 &&
                reads[data.value] == 1) {
               C = J;
               continue;
            }
            if (defines_src(J, S) || (C && defines_src(J, C)) ||
                !crosses(S, J)) {
               above = J;
               break;
            }
         }
         pan_ir_instr *first = C ? C : S;
         struct list_head *at = above ? &above->link : &b->instrs;
         /* Already there: nothing between the stop and the group. */
         if (at->next == &first->link &&
             (!C || C->link.next == &S->link))
            continue;
         if (at->next == &first->link && C) {
            list_del(&S->link);
            list_add(&S->link, &C->link);
            progress = true;
            continue;
         }
         if (C) {
            list_del(&C->link);
            list_add(&C->link, at);
         }
         list_del(&S->link);
         list_add(&S->link, C ? &C->link : at);
         progress = true;
      }
   }

out:
   free(reads);
   free(defs);
   free(def);
   free(def_blk);
   return progress;
}
