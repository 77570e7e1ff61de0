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
 *
 * Wide (the allocator's second try, when that was not enough) goes
 * further, in ways that pack some programs tighter and others worse:
 * things move past BLEND and ATEST too, which write only the tile buffer
 * and the coverage (a value of its own): a value live across a BLEND
 * must keep out of r0-r15, which the blend shader may overwrite, so the
 * colour of the second render target is better computed after the
 * first's BLEND (the stock compiler does so too); a tile read stays
 * above the BLENDs.  Sources read for the last time may live longer when
 * they have fewer words than the result (the three coordinate words of
 * a texture instead of its four-word result; up to twice as many past a
 * BLEND), and an instruction already
 * next to its reader still brings what only it reads (a colour's collect
 * its multiplies and their texture).
 *
 * Level 2 (the allocator's first order) also takes a first reader along
 * when it reads nothing else that dies before the next reader and
 * nothing reads it before then: nexuiz/46 scales a texture's alpha right
 * after the texture and reads it only at the end, which held the
 * four-word result over the whole block.
 */

#include <stdlib.h>

#include "pan_va.h"

/* Whether anything may move down past J: no side effect, or when wide
 * BLEND and ATEST. */
static bool
crossable(const pan_ir_instr *J, bool wide)
{
   const struct pan_ir_op_info *info = &pan_ir_op_infos[J->op];
   if (info->terminator)
      return false;
   return (wide && (J->op == PAN_IR_OP_BLEND || J->op == PAN_IR_OP_ATEST)) ||
          !info->side_effects;
}

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
   uint8_t *defs, *preload, *member, *def_here, *comps, *longer;
   unsigned *read_blk, *nr_reads, *member_reads;
   pan_ir_instr **group; /* the instructions moving, I first */
   unsigned nr_group;
   bool wide;
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
 * the gathered ones read (up to the first side effect nothing crosses; a
 * tile read not past a BLEND, blend_between telling whether one lies
 * between I and user); true when moving them all in front of user keeps
 * every other source they read live no longer than now. */
static bool
gather(struct sink_ctx *c, pan_ir_instr *I, pan_ir_instr *user,
       bool blend_between)
{
   join(c, I);
   for (struct list_head *n = I->link.prev; n != &c->b->instrs; n = n->prev) {
      pan_ir_instr *J = list_entry(n, pan_ir_instr, link);
      if (!crossable(J, c->wide))
         break;
      blend_between |= J->op == PAN_IR_OP_BLEND;
      unsigned v = J->dest.value;
      if (movable(J, c->defs, c->def_here) && c->read_blk[v] == c->b->index &&
          c->member_reads[v] == c->nr_reads[v] &&
          !(blend_between && J->op == PAN_IR_OP_LD_TILE))
         join(c, J);
   }
   /* Sources read last by the group live longer: fewer words than the
    * result, which then lives shorter, or it is no gain. */
   unsigned longer = 0;
   for (unsigned g = 0; g < c->nr_group; ++g) {
      pan_ir_instr *K = c->group[g];
      for (unsigned i = 0; i < K->nr_srcs; ++i) {
         unsigned v = K->src[i].value;
         if (K->src[i].kind != PAN_IR_SSA || c->member[v] || c->preload[v] ||
             c->read_blk[v] != c->b->index || c->longer[v] ||
             read_from(c->b, user, v))
            continue;
         c->longer[v] = 1;
         longer += MAX2(c->comps[v], 1);
      }
   }
   for (unsigned g = 0; g < c->nr_group; ++g) {
      pan_ir_instr *K = c->group[g];
      for (unsigned i = 0; i < K->nr_srcs; ++i) {
         if (K->src[i].kind == PAN_IR_SSA)
            c->longer[K->src[i].value] = 0;
      }
   }
   /* Across a BLEND the result would keep out of r0-r15 and hold an
    * aligned run of the few registers left above: sources up to twice its
    * words are still a gain there (the last colour's coordinates and
    * scalars, which every earlier colour reads anyway). */
   unsigned limit = blend_between ? 2 * I->dest.comps : I->dest.comps;
   return longer == 0 || (c->wide && longer < limit);
}

/* Whether the group already sits right above user, in order. */
static bool
in_place(const struct sink_ctx *c, const pan_ir_instr *user)
{
   const struct list_head *n = user->link.prev;
   for (unsigned g = 0; g < c->nr_group; ++g, n = n->prev) {
      if (n != &c->group[g]->link)
         return false;
   }
   return true;
}

/* When I's first reader U is movable, reads nothing else that dies
 * before I's next reader (other than preloads), and its result is first
 * read after that: that next reader, with nothing between it and I that
 * cannot be crossed; U can then follow I there (a texture's alpha read
 * at the end no longer holds the texture's four words above its colour
 * readers). */
static pan_ir_instr *
carry_to(struct sink_ctx *c, pan_ir_instr *I, pan_ir_instr *U,
         bool *blend_between)
{
   if (!movable(U, c->defs, c->def_here) ||
       c->read_blk[U->dest.value] != c->b->index)
      return NULL;
   bool blend = *blend_between;
   pan_ir_instr *next = NULL;
   for (struct list_head *n = U->link.next; n != &c->b->instrs; n = n->next) {
      pan_ir_instr *J = list_entry(n, pan_ir_instr, link);
      if (pan_ir_reads(J, U->dest.value))
         return NULL;
      if (pan_ir_reads(J, I->dest.value)) {
         next = J;
         break;
      }
      if (!crossable(J, c->wide))
         return NULL;
      blend |= J->op == PAN_IR_OP_BLEND;
   }
   if (!next ||
       (blend && (I->op == PAN_IR_OP_LD_TILE || U->op == PAN_IR_OP_LD_TILE)))
      return NULL;
   for (unsigned i = 0; i < U->nr_srcs; ++i) {
      unsigned v = U->src[i].value;
      if (U->src[i].kind == PAN_IR_SSA && v != I->dest.value &&
          !c->preload[v] && !read_from(c->b, next, v))
         return NULL;
   }
   *blend_between = blend;
   return next;
}

bool
pan_va_sink_pressure(pan_ir_shader *s, unsigned level)
{
   bool wide = level >= 1, carry = level >= 2;
   unsigned nr = s->ssa_alloc + 1;
   /* Per value: definitions (2: several), the block reading it (~0u
    * none, ~1u several), how many sources read it, whether a preload
    * defines it; and the group being gathered. */
   struct sink_ctx c = {
      .defs = calloc(nr, 1),
      .preload = calloc(nr, 1),
      .member = calloc(nr, 1),
      .def_here = calloc(nr, 1),
      .comps = calloc(nr, 1),
      .longer = calloc(nr, 1),
      .read_blk = malloc(nr * sizeof(unsigned)),
      .nr_reads = calloc(nr, sizeof(unsigned)),
      .member_reads = calloc(nr, sizeof(unsigned)),
      .group = malloc(nr * sizeof(pan_ir_instr *)),
      .wide = wide,
   };
   bool progress = false;
   if (!c.defs || !c.preload || !c.member || !c.def_here || !c.comps ||
       !c.longer || !c.read_blk ||
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
         c.comps[I->dest.value] = I->dest.comps;
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
         /* The first reader, if nothing I cannot cross comes first. */
         pan_ir_instr *user = NULL;
         bool blend_between = false;
         for (struct list_head *n = I->link.next; n != &b->instrs;
              n = n->next) {
            pan_ir_instr *J = list_entry(n, pan_ir_instr, link);
            if (pan_ir_reads(J, I->dest.value)) {
               user = J;
               break;
            }
            if (!crossable(J, wide) ||
                (J->op == PAN_IR_OP_BLEND && I->op == PAN_IR_OP_LD_TILE))
               break;
            blend_between |= J->op == PAN_IR_OP_BLEND;
         }
         /* A reader only of I and of values live there anyway may come
          * along, behind I, to I's next reader. */
         pan_ir_instr *carried = NULL;
         if (user && carry) {
            pan_ir_instr *next = carry_to(&c, I, user, &blend_between);
            if (next) {
               carried = user;
               user = next;
            }
         }
         /* Next to its reader, I may still bring what only it reads. */
         if (user && (wide || I->link.next != &user->link) &&
             gather(&c, I, user, blend_between) && !in_place(&c, user)) {
            /* Next, the first instruction above I that stays. */
            while (&prev->link != &b->instrs && prev->dest.kind == PAN_IR_SSA &&
                   c.member[prev->dest.value])
               prev = list_entry(prev->link.prev, pan_ir_instr, link);
            /* Topmost first: the group keeps its order. */
            for (unsigned g = c.nr_group; g-- > 0;) {
               list_del(&c.group[g]->link);
               list_addtail(&c.group[g]->link, &user->link);
            }
            if (carried) {
               list_del(&carried->link);
               list_addtail(&carried->link, &user->link);
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
   free(c.comps);
   free(c.longer);
   free(c.read_blk);
   free(c.nr_reads);
   free(c.member_reads);
   free(c.group);
   return progress;
}
