/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Instructions moved down to their first reader, the allocator's step
 * when a program does not fit in the 32 registers of two threads.
 *
 * NIR orders a block as the source did: a texture whose result is read
 * forty instructions later holds its four registers over all of them.
 * Moving an instruction to just before the first instruction of its
 * block that reads it shortens its result's life and lengthens no
 * source's as long as every source is read again there or later (or
 * outside the block, or is a preload, which the hardware keeps anyway),
 * or is read only by instructions moving along with it (the coordinates
 * and LOD of a texture follow the texture, the whole computation at
 * once): live registers never grow anywhere.  Bottom up, so that what
 * moved may carry more further up.  Nothing moves past an instruction
 * with side effects (stores, discards, blends, barriers), so cross-lane
 * reads and memory loads keep their order with them.
 */

#include <stdlib.h>

#include "pan_va.h"

/* Defined once, no side effect, and reading no value defined several
 * times in this block (a phi's carrier may be written again before the
 * new place). */
static bool
movable(const pan_ir_instr *I, const uint8_t *defs, const uint8_t *def_here)
{
   const struct pan_ir_op_info *info = &pan_ir_op_infos[I->op];
   if (I->dest.kind != PAN_IR_SSA || defs[I->dest.value] != 1 ||
       info->side_effects || info->terminator || I->op == PAN_IR_OP_PRELOAD ||
       I->op == PAN_IR_OP_PHI)
      return false;
   for (unsigned i = 0; i < I->nr_srcs; ++i) {
      unsigned v = I->src[i].value;
      if (I->src[i].kind == PAN_IR_SSA && defs[v] > 1 && def_here[v])
         return false;
   }
   return true;
}

/* Whether v is read by `from` or an instruction after it in its block. */
static bool
read_from(pan_ir_block *b, pan_ir_instr *from, unsigned v)
{
   for (struct list_head *n = &from->link; n != &b->instrs; n = n->next) {
      if (pan_ir_reads(list_entry(n, pan_ir_instr, link), v))
         return true;
   }
   return false;
}

struct sink_ctx {
   pan_ir_block *b;
   uint8_t *defs, *preload, *member, *def_here;
   unsigned *read_blk, *nr_reads, *member_reads;
   pan_ir_instr **group; /* the instructions moving, I first */
   unsigned nr_group;
};

static void
join(struct sink_ctx *c, pan_ir_instr *I)
{
   c->group[c->nr_group++] = I;
   c->member[I->dest.value] = 1;
   for (unsigned i = 0; i < I->nr_srcs; ++i) {
      if (I->src[i].kind == PAN_IR_SSA)
         c->member_reads[I->src[i].value]++;
   }
}

static void
leave_all(struct sink_ctx *c)
{
   for (unsigned g = 0; g < c->nr_group; ++g) {
      pan_ir_instr *I = c->group[g];
      c->member[I->dest.value] = 0;
      for (unsigned i = 0; i < I->nr_srcs; ++i) {
         if (I->src[i].kind == PAN_IR_SSA)
            c->member_reads[I->src[i].value] = 0;
      }
   }
   c->nr_group = 0;
}

/* Gather I and, going up from it, every instruction whose result only
 * the gathered ones read (up to the first side effect); true when moving
 * them all in front of user keeps every other source they read live no
 * longer than now. */
static bool
gather(struct sink_ctx *c, pan_ir_instr *I, pan_ir_instr *user)
{
   join(c, I);
   for (struct list_head *n = I->link.prev; n != &c->b->instrs; n = n->prev) {
      pan_ir_instr *J = list_entry(n, pan_ir_instr, link);
      const struct pan_ir_op_info *info = &pan_ir_op_infos[J->op];
      if (info->side_effects || info->terminator)
         break;
      unsigned v = J->dest.value;
      if (movable(J, c->defs, c->def_here) && c->read_blk[v] == c->b->index &&
          c->member_reads[v] == c->nr_reads[v])
         join(c, J);
   }
   for (unsigned g = 0; g < c->nr_group; ++g) {
      pan_ir_instr *K = c->group[g];
      for (unsigned i = 0; i < K->nr_srcs; ++i) {
         unsigned v = K->src[i].value;
         if (K->src[i].kind != PAN_IR_SSA || c->member[v] || c->preload[v] ||
             c->read_blk[v] != c->b->index)
            continue;
         if (!read_from(c->b, user, v))
            return false;
      }
   }
   return true;
}

bool
pan_va_sink_pressure(pan_ir_shader *s)
{
   unsigned nr = s->ssa_alloc + 1;
   /* Per value: definitions (2: several), the block reading it (~0u
    * none, ~1u several), how many sources read it, whether a preload
    * defines it; and the group being gathered. */
   struct sink_ctx c = {
      .defs = calloc(nr, 1),
      .preload = calloc(nr, 1),
      .member = calloc(nr, 1),
      .def_here = calloc(nr, 1),
      .read_blk = malloc(nr * sizeof(unsigned)),
      .nr_reads = calloc(nr, sizeof(unsigned)),
      .member_reads = calloc(nr, sizeof(unsigned)),
      .group = malloc(nr * sizeof(pan_ir_instr *)),
   };
   bool progress = false;
   if (!c.defs || !c.preload || !c.member || !c.def_here || !c.read_blk ||
       !c.nr_reads || !c.member_reads || !c.group)
      goto out;

   for (unsigned v = 0; v < nr; ++v)
      c.read_blk[v] = ~0u;
   pan_ir_foreach_instr_global(s, b, I)
   {
      for (unsigned i = 0; i < I->nr_srcs; ++i) {
         unsigned v = I->src[i].value;
         if (I->src[i].kind != PAN_IR_SSA)
            continue;
         c.read_blk[v] =
            c.read_blk[v] == ~0u || c.read_blk[v] == b->index ? b->index : ~1u;
         c.nr_reads[v]++;
      }
      if (I->dest.kind == PAN_IR_SSA) {
         c.defs[I->dest.value] = MIN2(c.defs[I->dest.value] + 1, 2);
         c.preload[I->dest.value] = I->op == PAN_IR_OP_PRELOAD;
      }
   }

   pan_ir_foreach_block(s, b)
   {
      c.b = b;
      pan_ir_foreach_instr(b, I)
      {
         if (I->dest.kind == PAN_IR_SSA)
            c.def_here[I->dest.value] = 1;
      }
      pan_ir_instr *I = list_last_entry(&b->instrs, pan_ir_instr, link);
      while (&I->link != &b->instrs) {
         pan_ir_instr *prev = list_entry(I->link.prev, pan_ir_instr, link);
         if (!movable(I, c.defs, c.def_here) ||
             c.read_blk[I->dest.value] != b->index) {
            I = prev;
            continue;
         }
         /* The first reader, if no side effect comes before it. */
         pan_ir_instr *user = NULL;
         for (struct list_head *n = I->link.next; n != &b->instrs;
              n = n->next) {
            pan_ir_instr *J = list_entry(n, pan_ir_instr, link);
            if (pan_ir_reads(J, I->dest.value)) {
               user = J;
               break;
            }
            if (pan_ir_op_infos[J->op].side_effects ||
                pan_ir_op_infos[J->op].terminator)
               break;
         }
         if (user && I->link.next != &user->link && gather(&c, I, user)) {
            /* Next, the first instruction above I that stays. */
            while (&prev->link != &b->instrs && prev->dest.kind == PAN_IR_SSA &&
                   c.member[prev->dest.value])
               prev = list_entry(prev->link.prev, pan_ir_instr, link);
            /* Topmost first: the group keeps its order. */
            for (unsigned g = c.nr_group; g-- > 0;) {
               list_del(&c.group[g]->link);
               list_addtail(&c.group[g]->link, &user->link);
            }
            progress = true;
         }
         leave_all(&c);
         I = prev;
      }
      pan_ir_foreach_instr(b, I)
      {
         if (I->dest.kind == PAN_IR_SSA)
            c.def_here[I->dest.value] = 0;
      }
   }

out:
   free(c.defs);
   free(c.preload);
   free(c.member);
   free(c.def_here);
   free(c.read_blk);
   free(c.nr_reads);
   free(c.member_reads);
   free(c.group);
   return progress;
}
