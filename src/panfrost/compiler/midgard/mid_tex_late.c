/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Lookups moved down to their results' first use, for register pressure.
 * The front end emits texture lookups where NIR has them, usually all at
 * the top of a fragment shader, and their results (copied out of the
 * result register, r29 or r0) then hold work registers until the end:
 * the colour a shader multiplies in last is the usual case.  The
 * scheduler cannot reorder lookups, which all write the one result
 * register.  Here each lookup's group (the writes of its coordinates just
 * before it, the word, the readers of its result right after it) moves,
 * in one piece, down to just before the first instruction that depends on
 * what the group writes, as the stock compiler's bottom-up scheduler
 * places them.  Never into another group (where the result or input
 * register is still to be read), never past a store, nor past a write of
 * the input register when the group reads coordinates written before it.
 * Only in an extra round (mid_compile.c): it lengthens the chain at the
 * end, so it pays only when a thread is won.
 */

#include <string.h>

#include "util/bitset.h"
#include "util/ralloc.h"
#include "util/u_dynarray.h"

#include "mid_ir.h"

static bool
reads_hw(const struct mid_instr *I, unsigned r)
{
   return mid_hw_reads(I) & (1u << r);
}

static struct mid_instr *
next_of(struct mid_block *b, struct mid_instr *I)
{
   return I->link.next == &b->instrs
             ? NULL
             : list_entry(I->link.next, struct mid_instr, link);
}

static struct mid_instr *
prev_of(struct mid_block *b, struct mid_instr *I)
{
   return I->link.prev == &b->instrs
             ? NULL
             : list_entry(I->link.prev, struct mid_instr, link);
}

/* Whether register r holds a value still to be read at I (NULL: the
 * block's end; fixed registers never live across blocks). */
static bool
live_at(struct mid_block *b, struct mid_instr *I, unsigned r)
{
   for (; I; I = next_of(b, I)) {
      if (reads_hw(I, r))
         return true;
      if (mid_writes_hw(I, r))
         return false;
   }
   return false;
}

struct group {
   struct mid_instr *first, *last;
   BITSET_WORD *wr, *rd; /* variables written, read */
   bool writes_in;       /* writes the input (or LOD) register itself */
};

static bool
touches_vars(const struct mid_instr *I, const BITSET_WORD *set, bool reads)
{
   if (!I->store && I->dst.kind == MID_REF_VAR &&
       BITSET_TEST(set, I->dst.index))
      return true;
   for (unsigned i = 0; reads && i < I->nr_srcs; i++) {
      if (I->src[i].ref.kind == MID_REF_VAR &&
          BITSET_TEST(set, I->src[i].ref.index))
         return true;
   }
   return false;
}

/* The group of lookup T, or false when it has none we can move. */
static bool
make_group(struct mid_shader *s, struct mid_block *b, struct mid_instr *T,
           struct group *g)
{
   unsigned in = s->tex_in, lod = s->tex_in + 1, out = s->tex_out;
   if (T->dst.kind != MID_REF_HW || T->dst.index != out || T->pair_next)
      return false;
   g->first = g->last = T;
   g->writes_in = false;
   for (struct mid_instr *P = prev_of(b, T);
        P && (mid_writes_hw(P, in) || mid_writes_hw(P, lod)) && !P->pair_next &&
        P->kind == MID_ALU;
        P = prev_of(b, P)) {
      g->first = P;
      g->writes_in = true;
   }
   for (struct mid_instr *N = next_of(b, T);
        N && reads_hw(N, out) && !mid_writes_hw(N, out) && N->kind == MID_ALU &&
        !N->pair_next;
        N = next_of(b, N))
      g->last = N;
   /* Every reader of the result is in the group, and no one after it
    * reads the coordinates it writes. */
   struct mid_instr *after = next_of(b, g->last);
   if (live_at(b, after, out) ||
       (g->writes_in && (live_at(b, after, in) || live_at(b, after, lod))))
      return false;
   /* Something else (a csel feeder) paired with the group's start. */
   struct mid_instr *before = prev_of(b, g->first);
   if (before && before->pair_next)
      return false;
   for (struct mid_instr *I = g->first;; I = next_of(b, I)) {
      if (!I->store && I->dst.kind == MID_REF_VAR)
         BITSET_SET(g->wr, I->dst.index);
      for (unsigned i = 0; i < I->nr_srcs; i++) {
         if (I->src[i].ref.kind == MID_REF_VAR)
            BITSET_SET(g->rd, I->src[i].ref.index);
      }
      if (I == g->last)
         break;
   }
   return true;
}

/* Move T's group down; true when it moved. */
static bool
sink_lookup(struct mid_shader *s, struct mid_block *b, struct mid_instr *T,
            void *mem)
{
   unsigned n = s->nr_vars ? s->nr_vars : 1;
   struct group g = {
      .wr = rzalloc_array(mem, BITSET_WORD, BITSET_WORDS(n)),
      .rd = rzalloc_array(mem, BITSET_WORD, BITSET_WORDS(n)),
   };
   if (!make_group(s, b, T, &g))
      return false;
   unsigned in = s->tex_in, lod = s->tex_in + 1, out = s->tex_out;
   /* Coordinates (or a LOD) written before the group: the input
    * registers the word reads (on T860 the LOD's is the result's). */
   uint32_t ext_in =
      g.writes_in ? 0 : mid_hw_reads(T) & ((1u << in) | (1u << lod));
   uint32_t other_hw = 0;
   for (struct mid_instr *I = g.first;; I = next_of(b, I)) {
      other_hw |= mid_hw_reads(I);
      if (I == g.last)
         break;
   }
   other_hw &= ~((1u << in) | (1u << lod) | (1u << out));

   /* The first instruction the group must stay above. */
   struct mid_instr *stop = next_of(b, g.last);
   for (; stop; stop = next_of(b, stop)) {
      if (stop->kind == MID_BRANCH || stop->kind == MID_WRITEOUT ||
          stop->store || stop->pair_next)
         break;
      if (touches_vars(stop, g.wr, true) || touches_vars(stop, g.rd, false))
         break;
      if (!stop->store && stop->dst.kind == MID_REF_HW &&
          (ext_in & (1u << stop->dst.index)))
         break;
      if (!stop->store && stop->dst.kind == MID_REF_HW &&
          (other_hw & (1u << stop->dst.index)))
         break;
      /* Global loads keep their order against lookups. */
      if (stop->kind == MID_LDST && !strncmp(stop->op, "ld_global", 9))
         break;
   }
   /* Not inside another group: back up while its registers are live. */
   struct mid_instr *at = stop;
   while (true) {
      struct mid_instr *p =
         at ? prev_of(b, at)
            : list_last_entry(&b->instrs, struct mid_instr, link);
      if (p == g.last)
         return false;
      bool busy =
         live_at(b, at, out) ||
         (g.writes_in && (live_at(b, at, in) || live_at(b, at, lod))) ||
         (p && p->pair_next);
      if (!busy)
         break;
      at = p;
   }
   /* Move the group, in order, before `at` (at the end when NULL). */
   struct list_head *where = at ? &at->link : &b->instrs;
   for (struct mid_instr *I = g.first, *next; I; I = next) {
      next = I == g.last ? NULL : next_of(b, I);
      list_del(&I->link);
      list_addtail(&I->link, where);
   }
   return true;
}

bool
mid_tex_late(struct mid_shader *s)
{
   if (!s->nr_tex)
      return false;
   void *mem = ralloc_context(NULL);
   bool progress = false;
   mid_foreach_block(s, b)
   {
      struct util_dynarray lookups;
      util_dynarray_init(&lookups, mem);
      mid_foreach_instr(b, I)
      {
         if (I->kind == MID_TEX)
            util_dynarray_append(&lookups, struct mid_instr *, I);
      }
      /* The last first: the earlier ones then sink past them. */
      unsigned nr = util_dynarray_num_elements(&lookups, struct mid_instr *);
      for (unsigned i = nr; i-- > 0;) {
         struct mid_instr *T =
            *util_dynarray_element(&lookups, struct mid_instr *, i);
         progress |= sink_lookup(s, b, T, mem);
      }
   }
   ralloc_free(mem);
   return progress;
}
