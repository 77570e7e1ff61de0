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
 *
 * Whole (the allocator's first order, with sink level 2) moves the whole
 * computation only the store reads along with it, up to just below the
 * last definition of a value it reads from elsewhere: a slot computed
 * late from an attribute nothing else reads then frees the attribute
 * early.  NIR orders the outputs as the source assigns them, and a slot
 * whose data are ready early (anholt/3's tangent from one attribute and
 * a matrix) may come last.
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
   case PAN_IR_OP_IMAGE_LOAD_IDX:
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

/* Per value: SSA reads, definitions (2: several); the group moving with
 * a store (its members, reads of each value by them), the store first. */
struct hoist_ctx {
   unsigned *reads, *member_reads;
   uint8_t *defs;
   pan_ir_instr **group;
   unsigned nr_group;
};

static void
join(struct hoist_ctx *c, pan_ir_instr *I)
{
   c->group[c->nr_group++] = I;
   for (unsigned i = 0; i < I->nr_srcs; ++i) {
      if (I->src[i].kind == PAN_IR_SSA)
         c->member_reads[I->src[i].value]++;
   }
}

static void
leave_all(struct hoist_ctx *c)
{
   for (unsigned g = 0; g < c->nr_group; ++g) {
      pan_ir_instr *I = c->group[g];
      for (unsigned i = 0; i < I->nr_srcs; ++i) {
         if (I->src[i].kind == PAN_IR_SSA)
            c->member_reads[I->src[i].value] = 0;
      }
   }
   c->nr_group = 0;
}

/* Whether J, above the group of store S, moves with it: defined once and
 * read by the group only; the collect of the data, or when whole any
 * instruction the store may pass that is not itself a store. */
static bool
joins(const struct hoist_ctx *c, const pan_ir_instr *S, const pan_ir_instr *J,
      bool whole)
{
   if (J->dest.kind != PAN_IR_SSA || c->defs[J->dest.value] != 1 ||
       c->reads[J->dest.value] != c->member_reads[J->dest.value])
      return false;
   if (whole)
      return !is_output_store(J) && crosses(S, J);
   return J->op == PAN_IR_OP_COLLECT && S->src[0].kind == PAN_IR_SSA &&
          J->dest.value == S->src[0].value && c->reads[J->dest.value] == 1;
}

/* Whether the group already follows `at` in order (topmost last in it). */
static bool
in_place(const struct hoist_ctx *c, const struct list_head *at)
{
   const struct list_head *n = at->next;
   for (unsigned g = c->nr_group; g-- > 0; n = n->next) {
      if (n != &c->group[g]->link)
         return false;
   }
   return true;
}

bool
pan_va_hoist_stores(pan_ir_shader *s, bool whole)
{
   unsigned nr = s->ssa_alloc + 1;
   struct hoist_ctx c = {
      .reads = calloc(nr, sizeof(unsigned)),
      .member_reads = calloc(nr, sizeof(unsigned)),
      .defs = calloc(nr, 1),
      .group = malloc(nr * sizeof(pan_ir_instr *)),
   };
   pan_ir_instr **def = calloc(nr, sizeof(*def));
   pan_ir_block **def_blk = calloc(nr, sizeof(*def_blk));
   bool progress = false;
   if (!c.reads || !c.member_reads || !c.defs || !c.group || !def || !def_blk)
      goto out;

   pan_ir_foreach_instr_global(s, b, I)
   {
      for (unsigned i = 0; i < I->nr_srcs; ++i) {
         if (I->src[i].kind == PAN_IR_SSA)
            c.reads[I->src[i].value]++;
      }
      if (I->dest.kind == PAN_IR_SSA) {
         c.defs[I->dest.value] = MIN2(c.defs[I->dest.value] + 1, 2);
         def[I->dest.value] = c.defs[I->dest.value] == 1 ? I : NULL;
         def_blk[I->dest.value] = b;
      }
   }

   /* The output address reads a preload only: computed first, it stops
    * no store (pan_va_sink_pressure then moves it down to the first). */
   pan_ir_block *entry = pan_ir_entry_block(s);
   pan_ir_foreach_instr_safe(entry, L)
   {
      if (L->op != PAN_IR_OP_LEA_VARY || L->src[0].kind != PAN_IR_SSA ||
          !def[L->src[0].value] ||
          def[L->src[0].value]->op != PAN_IR_OP_PRELOAD)
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
         /* Going up: the first instruction the group stays below, which
          * defines a source of a member or is one the store cannot pass
          * (the members pass the same ones: they have no side effects and
          * read no memory). */
         join(&c, S);
         pan_ir_instr *above = NULL;
         for (struct list_head *n = S->link.prev; n != &b->instrs;
              n = n->prev) {
            pan_ir_instr *J = list_entry(n, pan_ir_instr, link);
            if (joins(&c, S, J, whole)) {
               join(&c, J);
               continue;
            }
            if ((J->dest.kind == PAN_IR_SSA && c.member_reads[J->dest.value]) ||
                !crosses(S, J)) {
               above = J;
               break;
            }
         }
         struct list_head *at = above ? &above->link : &b->instrs;
         if (!in_place(&c, at)) {
            /* Topmost first, each below the last: the group keeps its
             * order. */
            for (unsigned g = c.nr_group; g-- > 0;) {
               list_del(&c.group[g]->link);
               list_add(&c.group[g]->link, at);
               at = &c.group[g]->link;
            }
            progress = true;
         }
         leave_all(&c);
      }
   }

out:
   free(c.reads);
   free(c.member_reads);
   free(c.defs);
   free(c.group);
   free(def);
   free(def_blk);
   return progress;
}
