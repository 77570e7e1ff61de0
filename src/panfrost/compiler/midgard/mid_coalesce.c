/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * After register allocation: copies whose two variables got the same
 * register (the allocator biases towards that) write each lane with the
 * value it already holds.  They leave their bundle, and an ALU bundle left
 * with nothing to do leaves the program.  Its constants stay: the other
 * units' slots point into them.  The same holds for the copy of a texture
 * result in r0 (small cores) into a variable that got r0.
 */

#include "mid_ir.h"

static bool
self_move(const struct mid_shader *s, const struct mid_instr *I)
{
   if (!I || !mid_is_plain_move(I) || I->store || I->dst.kind != MID_REF_VAR)
      return false;
   const struct mid_src *src = &I->src[1];
   int r = src->ref.kind == MID_REF_VAR ? s->reg_of[src->ref.index]
           : src->ref.kind == MID_REF_HW && src->ref.index < 16
              ? (int)src->ref.index
              : -1;
   for (unsigned l = 0; l < 4; l++) {
      if ((I->mask & (1u << l)) && src->swz[l] != l)
         return false;
   }
   return r >= 0 && s->reg_of[I->dst.index] == r;
}

static bool
bundle_empty(const struct mid_bundle *b)
{
   if (b->kind != MID_B_ALU || b->branch)
      return false;
   for (unsigned u = 0; u < 5; u++) {
      if (b->unit[u])
         return false;
   }
   return true;
}

void
mid_drop_self_moves(struct mid_shader *s)
{
   unsigned n = util_dynarray_num_elements(&s->bundles, struct mid_bundle);
   struct mid_bundle *bundles = s->bundles.data;
   unsigned out = 0;
   for (unsigned i = 0; i < n; i++) {
      struct mid_bundle *b = &bundles[i];
      bool dropped = false;
      for (unsigned u = 0; u < 5 && b->kind == MID_B_ALU; u++) {
         if (self_move(s, b->unit[u])) {
            list_del(&b->unit[u]->link);
            b->unit[u] = NULL;
            dropped = true;
         }
      }
      /* An empty bundle goes unless it starts a block that has more
       * bundles (its start moves to the next one) or it is the last:
       * branches to an empty block land on the next block's start, so an
       * emptied one-bundle block may go too, but not at the very end. */
      if (dropped && bundle_empty(b) && i + 1 < n) {
         struct mid_bundle *next = &bundles[i + 1];
         if (b->block && !next->block)
            next->block = b->block;
         continue;
      }
      if (out != i)
         bundles[out] = *b;
      out++;
   }
   s->bundles.size = out * sizeof(struct mid_bundle);
}
