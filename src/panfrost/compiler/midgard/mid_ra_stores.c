/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Varying stores as soon as their data is complete, for register
 * pressure.  The front end stores every vertex output at the end of the
 * shader, each through its data register (r27, or r26 by turns), so the
 * values an output is assembled from stay live until the stores, and the
 * stores keep the order of the output slots: the scheduler cannot move a
 * store whose data is ready early past a store still waiting, since both
 * write the same fixed register.
 *
 * Here each store and the writes of its data register before it (a
 * "group": moves of variables, producers that write the register, a load)
 * move up, together, to just after the last write of any variable they
 * read.  Groups never interleave (each is kept contiguous) and never
 * cross another instruction touching their data register, so the writes
 * a store sees are the same; other instructions keep their order.  With
 * pull, a group's move of a variable nothing else reads takes that
 * variable's writes along (an output assembled piece by piece from
 * attributes then goes as soon as they are loaded).  In the tries that
 * take r26 and r27 by turns, the turns are dealt again in the new order.
 */

#include <string.h>

#include "util/ralloc.h"

#include "mid_ir.h"

static bool
is_vary_store(const struct mid_instr *I)
{
   return I->kind == MID_LDST && I->store && !strncmp(I->op, "st_vary", 7);
}

static unsigned
data_reg(const struct mid_instr *S)
{
   return S->ls.data26 ? 26 : 27;
}

/* Registers r26/r27 an instruction touches. */
static uint32_t
touches_ldst_regs(const struct mid_instr *I)
{
   uint32_t m = mid_hw_reads(I) & (3u << 26);
   if (!I->store && I->dst.kind == MID_REF_HW &&
       (I->dst.index == 26 || I->dst.index == 27))
      m |= 1u << I->dst.index;
   return m;
}

/* Whether I reads a fixed register other than the group's data register
 * (the r31 of a pair, a texture register): its block stays as it is. */
static bool
reads_other_hw(const struct mid_instr *I, unsigned r)
{
   return (mid_hw_reads(I) & ~(1u << r)) != 0 || I->pair_next;
}

/* Whether I reads a variable W writes. */
static bool
reads_write_of(const struct mid_instr *I, const struct mid_instr *W)
{
   if (W->store || W->dst.kind != MID_REF_VAR)
      return false;
   for (unsigned j = 0; j < I->nr_srcs; j++) {
      if (I->src[j].ref.kind == MID_REF_VAR &&
          I->src[j].ref.index == W->dst.index)
         return true;
   }
   return false;
}

/* Readers of each variable in the whole shader. */
static unsigned *
count_readers(struct mid_shader *s, void *mem)
{
   unsigned *nr = rzalloc_array(mem, unsigned, s->nr_vars ? s->nr_vars : 1);
   mid_foreach_block(s, b)
   {
      mid_foreach_instr(b, I)
      {
         for (unsigned i = 0; i < I->nr_srcs; i++) {
            if (I->src[i].ref.kind == MID_REF_VAR)
               nr[I->src[i].ref.index]++;
         }
      }
   }
   return nr;
}

/* A group's move of a variable that nothing else reads, assembled here
 * piece by piece (an output built from several values): its writes join
 * the group, which then waits only for what they read. */
static bool
pull_sources(struct mid_shader *s, struct mid_instr **ins, unsigned *grp,
             unsigned n, void *mem)
{
   unsigned *readers = count_readers(s, mem);
   bool pulled = false;
   for (unsigned i = 0; i < n; i++) {
      struct mid_instr *M = ins[i];
      if (grp[i] == ~0u || M->kind != MID_ALU || M->nr_srcs != 2 ||
          M->src[1].ref.kind != MID_REF_VAR ||
          M->src[0].ref.kind == MID_REF_VAR)
         continue;
      unsigned v = M->src[1].ref.index;
      if (readers[v] != 1)
         continue;
      /* Every write of v: an ALU instruction of this block before M that
       * reads no fixed register (nor v) and is not paired. */
      bool ok = true;
      unsigned nr_w = 0;
      for (unsigned k = 0; k < n && ok; k++) {
         struct mid_instr *W = ins[k];
         if (W->store || W->dst.kind != MID_REF_VAR || W->dst.index != v)
            continue;
         bool reads_v = false;
         for (unsigned j = 0; j < W->nr_srcs; j++)
            reads_v |=
               W->src[j].ref.kind == MID_REF_VAR && W->src[j].ref.index == v;
         ok = k < i && W->kind == MID_ALU && grp[k] == ~0u && !reads_v &&
              !mid_hw_reads(W) && !W->pair_next &&
              !(k && ins[k - 1]->pair_next);
         nr_w++;
      }
      if (!ok || !nr_w)
         continue;
      /* Written in another block too: leave it. */
      unsigned total = 0;
      mid_foreach_block(s, b)
      {
         mid_foreach_instr(b, W)
         {
            total +=
               !W->store && W->dst.kind == MID_REF_VAR && W->dst.index == v;
         }
      }
      if (total != nr_w)
         continue;
      for (unsigned k = 0; k < i; k++) {
         if (!ins[k]->store && ins[k]->dst.kind == MID_REF_VAR &&
             ins[k]->dst.index == v)
            grp[k] = grp[i];
      }
      pulled = true;
   }
   return pulled;
}

/* Whether W may join a group as the producer of something only the group
 * reads: an ALU instruction or a load writing a variable, reading no
 * fixed register and not half of an r31 pair. */
static bool
can_pull(struct mid_instr **ins, unsigned k)
{
   const struct mid_instr *W = ins[k];
   if (W->store || W->dst.kind != MID_REF_VAR || mid_hw_reads(W) ||
       W->pair_next || (k && ins[k - 1]->pair_next))
      return false;
   return W->kind == MID_ALU ||
          (W->kind == MID_LDST &&
           (!strncmp(W->op, "ld_attr", 7) || !strncmp(W->op, "ld_ubo", 6) ||
            !strncmp(W->op, "ld_vary", 7)));
}

/* Whole computations: every instruction of the block whose results only
 * one group reads, directly or through other such instructions, joins
 * that group (the position's transform goes with its store, right after
 * the attribute it reads, instead of holding it to the end).  Found as
 * the producers a group reaches backwards, less those with a reader (or
 * a write) outside, until none is left to drop. */
static bool
pull_slices(struct mid_shader *s, struct mid_instr **ins, unsigned *grp,
            unsigned n, unsigned nr_groups, void *mem)
{
   unsigned nr_vars = s->nr_vars ? s->nr_vars : 1;
   unsigned *readers = count_readers(s, mem);
   unsigned *writers = rzalloc_array(mem, unsigned, nr_vars);
   mid_foreach_block(s, b)
   {
      mid_foreach_instr(b, W)
      {
         if (!W->store && W->dst.kind == MID_REF_VAR)
            writers[W->dst.index]++;
      }
   }
   bool *in = ralloc_array(mem, bool, n);
   unsigned *nr_r = ralloc_array(mem, unsigned, nr_vars);
   unsigned *nr_w = ralloc_array(mem, unsigned, nr_vars);
   bool pulled = false;
   for (unsigned g = 0; g < nr_groups; g++) {
      for (unsigned i = n; i-- > 0;) {
         in[i] = grp[i] == g;
         if (grp[i] != ~0u || !can_pull(ins, i))
            continue;
         for (unsigned k = i + 1; k < n && !in[i]; k++)
            in[i] = in[k] && reads_write_of(ins[k], ins[i]);
      }
      for (bool dropped = true; dropped;) {
         dropped = false;
         memset(nr_r, 0, nr_vars * sizeof(*nr_r));
         memset(nr_w, 0, nr_vars * sizeof(*nr_w));
         for (unsigned i = 0; i < n; i++) {
            if (!in[i])
               continue;
            for (unsigned j = 0; j < ins[i]->nr_srcs; j++) {
               if (ins[i]->src[j].ref.kind == MID_REF_VAR)
                  nr_r[ins[i]->src[j].ref.index]++;
            }
            if (!ins[i]->store && ins[i]->dst.kind == MID_REF_VAR)
               nr_w[ins[i]->dst.index]++;
         }
         for (unsigned i = 0; i < n; i++) {
            if (!in[i] || grp[i] == g)
               continue;
            unsigned v = ins[i]->dst.index;
            if (nr_r[v] != readers[v] || nr_w[v] != writers[v]) {
               in[i] = false;
               dropped = true;
            }
         }
      }
      for (unsigned i = 0; i < n; i++) {
         if (in[i] && grp[i] != g) {
            grp[i] = g;
            pulled = true;
         }
      }
   }
   return pulled;
}

static bool
order_block(struct mid_shader *s, struct mid_block *b, bool pull, bool *pulled,
            void *mem)
{
   /* Instructions in order, and which group each belongs to (~0: none). */
   unsigned n = 0;
   mid_foreach_instr(b, I) n++;
   if (!n)
      return false;
   struct mid_instr **ins = ralloc_array(mem, struct mid_instr *, n);
   unsigned *grp = ralloc_array(mem, unsigned, n);
   unsigned nr_groups = 0, i = 0;
   mid_foreach_instr(b, I)
   {
      ins[i] = I;
      grp[i++] = ~0u;
   }

   /* Each store with the writes of its register since that register's
    * previous reader: the group.  Anything else touching r26/r27 in a
    * block with stores leaves the block alone. */
   uint32_t open = 0; /* registers written since their last reader */
   unsigned start[32];
   for (i = 0; i < n; i++) {
      struct mid_instr *I = ins[i];
      uint32_t t = touches_ldst_regs(I);
      if (is_vary_store(I)) {
         unsigned r = data_reg(I);
         if ((t & ~(1u << r)) || !(open & (1u << r)))
            return false;
         for (unsigned k = start[r]; k < i; k++) {
            if (mid_writes_hw(ins[k], r)) {
               if (reads_other_hw(ins[k], r))
                  return false;
               grp[k] = nr_groups;
            }
         }
         grp[i] = nr_groups++;
         open &= ~(1u << r);
         continue;
      }
      if (!t)
         continue;
      /* A write of r26/r27 for a later store, and nothing else. */
      if (t != (t & -t) || !mid_writes_hw(I, ffs(t) - 1) ||
          (mid_hw_reads(I) & t))
         return false;
      unsigned r = ffs(t) - 1;
      if (!(open & t))
         start[r] = i;
      open |= t;
   }
   if (!nr_groups || open)
      return false;
   if (pull && (pull_sources(s, ins, grp, n, mem) |
                pull_slices(s, ins, grp, n, nr_groups, mem)))
      *pulled = true;

   /* Where each group can go: after the last write (before it) of a
    * variable one of its instructions reads.  An instruction the group
    * moves down may not pass a write of what it reads. */
   int *after = ralloc_array(mem, int, nr_groups);
   for (unsigned g = 0; g < nr_groups; g++)
      after[g] = -1;
   for (i = 0; i < n; i++) {
      if (grp[i] == ~0u)
         continue;
      for (unsigned k = i; k-- > 0;) {
         if (grp[k] == ~0u && reads_write_of(ins[i], ins[k])) {
            after[grp[i]] = MAX2(after[grp[i]], (int)k);
            break;
         }
      }
   }
   /* Never between an r31 feeder and its reader. */
   for (unsigned g = 0; g < nr_groups; g++) {
      while (after[g] >= 0 && ins[after[g]]->pair_next)
         after[g]++;
   }
   for (i = 0; i < n; i++) {
      if (grp[i] == ~0u)
         continue;
      for (int k = i + 1; k <= after[grp[i]]; k++) {
         if (grp[k] == ~0u && reads_write_of(ins[i], ins[k]))
            return false;
      }
   }

   /* Rebuild: the other instructions in order, each group (in its
    * original order among groups) right after its place. */
   bool moved = false;
   list_inithead(&b->instrs);
   for (unsigned g = 0; g < nr_groups; g++) {
      if (after[g] < 0) {
         for (unsigned k = 0; k < n; k++) {
            if (grp[k] == g)
               list_addtail(&ins[k]->link, &b->instrs);
         }
      }
   }
   for (i = 0; i < n; i++) {
      if (grp[i] != ~0u)
         continue;
      list_addtail(&ins[i]->link, &b->instrs);
      for (unsigned g = 0; g < nr_groups; g++) {
         if (after[g] != (int)i)
            continue;
         for (unsigned k = 0; k < n; k++) {
            if (grp[k] == g)
               list_addtail(&ins[k]->link, &b->instrs);
         }
      }
   }
   unsigned k = 0;
   mid_foreach_instr(b, I) moved |= ins[k++] != I;
   /* The hoisting tries take r26 and r27 by turns, so that two stores
    * and their moves can share bundles: again in the new order. */
   if (s->hoist_stores) {
      unsigned turn = 0;
      mid_foreach_instr(b, I)
      {
         if (!is_vary_store(I))
            continue;
         bool r26 = turn++ & 1;
         if (I->ls.data26 == r26)
            continue;
         unsigned from = data_reg(I);
         for (struct list_head *l = I->link.prev; l != &b->instrs;
              l = l->prev) {
            struct mid_instr *W = list_entry(l, struct mid_instr, link);
            if (is_vary_store(W) && data_reg(W) == from)
               break;
            if (mid_writes_hw(W, from))
               W->dst.index = r26 ? 26 : 27;
         }
         I->ls.data26 = r26;
      }
   }
   return moved;
}

bool
mid_ra_early_stores(struct mid_shader *s, bool pull)
{
   void *mem = ralloc_context(NULL);
   bool moved = false, pulled = false;
   mid_foreach_block(s, b) { moved |= order_block(s, b, pull, &pulled, mem); }
   ralloc_free(mem);
   /* Pulling nothing repeats the IR without it. */
   return moved && (pulled || !pull);
}
