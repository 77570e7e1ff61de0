/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * A compiled clause's branch distance marked PC-relative.  Bifrost
 * branches go to an absolute code address; a compiler reaches a relative
 * one by putting the distance (bytes from the clause's start, 28 bits) in
 * the high word of a clause constant whose modifier M is 4, which makes
 * the hardware add the clause's address to that word as it is read.  M is
 * the layout's M field for the constant packed in the tuple words (the
 * layouts of 3 and 6 tuples), and (top(first) - top(second)) mod 16 of
 * the 4 top bits of a constant pair; the layouts of 5 and 8 tuples have no
 * M field, so a distance there moves into a pair.
 */

#include "pan_isa_bi_priv.h"

#include <string.h>

#define TOP_SHIFT 56 /* the 4 top bits of a 60-bit stored constant */

/* FAU index bits 4-6 of clause constant k, and the other way round. */
static const uint8_t const_slot[6] = {4, 5, 6, 7, 2, 3};

static int
slot_const(unsigned fau)
{
   static const int8_t k[8] = {-1, -1, 4, 5, 0, 1, 2, 3};
   return fau & 0x80 ? -1 : k[fau >> 4];
}

int
bi_branch_const(const struct bi_clause *c)
{
   if (c->nr_tuples < 1 || c->nr_tuples > 8)
      return -1;
   const struct bi_tuple *t = &c->tuples[c->nr_tuples - 1];
   int i = bi_identify(t->add, 1);
   if (i < 0)
      return -1;
   const struct bi_op *op = &bi_ops[i];
   if (strncmp(op->name, "branch", 6) && strcmp(op->name, "jump"))
      return -1;
   /* The target is the last source; fau_hi (5) is the constant's high
    * word. */
   unsigned sel = (t->add >> op->srcs[op->nr_srcs - 1]) & 7;
   int k = slot_const((unsigned)(t->regs & 0xff));
   return sel == 5 && k >= 0 && (unsigned)k < c->nr_consts ? k : -1;
}

/* Exchange constants a and b and every tuple's reads of them. */
static void
swap_consts(struct bi_clause *c, unsigned a, unsigned b)
{
   uint64_t v = c->consts[a];
   c->consts[a] = c->consts[b];
   c->consts[b] = v;
   for (unsigned i = 0; i < c->nr_tuples; i++) {
      unsigned fau = (unsigned)(c->tuples[i].regs & 0xff);
      int k = slot_const(fau);
      if (k != (int)a && k != (int)b)
         continue;
      unsigned to = k == (int)a ? b : a;
      c->tuples[i].regs = (c->tuples[i].regs & ~0xffull) |
                          (uint64_t)const_slot[to] << 4 | (fau & 0xf);
   }
}

bool
bi_mark_branch(struct bi_clause *c)
{
   int k = bi_branch_const(c);
   if (k < 0)
      return true;
   unsigned n = c->nr_tuples;
   bool packed = bi_ec0_packed(n);
   if (packed && k == 0) {
      if (n != 5 && n != 8) {
         c->m = (c->m & ~0xfu) | 4;
         return true;
      }
      /* No M field: the distance goes first in the first pair, with a
       * zero constant after it when it was the clause's only one (a
       * zero one stays packed in front). */
      if (c->nr_consts == 1) {
         if (bi_const_quads_max(n) < 1)
            return false;
         c->consts[1] = c->consts[2] = 0;
         c->nr_consts = 3;
      }
      swap_consts(c, 0, 1);
      k = 1;
   }
   unsigned first = (unsigned)k - (((unsigned)k - packed) & 1);
   if (first + 1 >= c->nr_consts)
      return false;
   if ((unsigned)k != first)
      swap_consts(c, first, (unsigned)k);
   /* The distance's top bits are free (it is 28 bits wide): M = 4. */
   uint64_t top = ((c->consts[first + 1] >> TOP_SHIFT) + 4) & 0xf;
   c->consts[first] =
      (c->consts[first] & ((1ull << TOP_SHIFT) - 1)) | top << TOP_SHIFT;
   return true;
}
