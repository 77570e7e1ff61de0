/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Pushed uniform words in the pairs instructions read them together.
 *
 * A Bifrost tuple reads one 64-bit FAU slot: an instruction reading two
 * pushed words of different slots needs one of them moved into a
 * register first (pan_bi_legalize.c), a move and often a tuple of its
 * own.  The push table is ours to order (the driver fills each word from
 * its entry), so the words instructions read together are put into the
 * same slot, the most frequent pairings first (words of neighbouring
 * instructions, which may share a tuple, weigh less); every other word
 * keeps its relative order.
 */

#include <string.h>

#include "pan_bi.h"

/* The pushed word a source reads: directly, or through the only
 * definition of its value, a plain mov of the word.  -1 otherwise. */
static int
word_of(pan_ir_index src, const int *mov_word, const uint8_t *defs)
{
   if (src.kind == PAN_IR_UNIFORM)
      return (int)src.value;
   if (src.kind == PAN_IR_SSA && src.comps == 1 && defs[src.value] == 1)
      return mov_word[src.value];
   return -1;
}

/* Weight of two words one instruction reads against two words of
 * neighbouring instructions. */
#define BI_SAME_INSTR 8

typedef uint16_t bi_push_row[PAN_VA_MAX_PUSH_WORDS];

static void
add_pair(bi_push_row *weight, int x, int y, unsigned by)
{
   if (x == y)
      return;
   unsigned a = MIN2(x, y), b = MAX2(x, y);
   weight[a][b] = MIN2(weight[a][b] + by, UINT16_MAX);
}

void
pan_bi_pair_push(pan_ir_shader *s, struct pan_va_push_word *push,
                 unsigned nr_push)
{
   if (nr_push < 3)
      return;
   void *mem = ralloc_context(NULL);
   int *mov_word = ralloc_array(mem, int, s->ssa_alloc + 1);
   uint8_t *defs = rzalloc_array(mem, uint8_t, s->ssa_alloc + 1);
   bi_push_row *weight = rzalloc_array(mem, bi_push_row, nr_push);
   for (unsigned v = 0; v <= s->ssa_alloc; ++v)
      mov_word[v] = -1;

   pan_ir_foreach_instr_global(s, b, I)
   {
      for (unsigned i = 0; i < I->nr_srcs; ++i) {
         /* A word read as part of a wider value, or one outside the
          * table, pins the layout. */
         if (I->src[i].kind == PAN_IR_UNIFORM &&
             (I->src[i].comps != 1 || I->src[i].value >= nr_push))
            goto done;
      }
      if (I->dest.kind != PAN_IR_SSA)
         continue;
      unsigned d = I->dest.value;
      defs[d] = MIN2(defs[d] + 1, 2);
      if (I->op == PAN_IR_OP_MOV && I->src[0].kind == PAN_IR_UNIFORM &&
          !I->src[0].neg && !I->src[0].abs)
         mov_word[d] = (int)I->src[0].value;
   }

   /* Words of one instruction weigh most; a word of the next
    * instruction of the block counts too, as the two may share a tuple
    * (both units read the tuple's one slot). */
   pan_ir_foreach_block(s, blk)
   {
      int prev[8];
      unsigned nr_prev = 0;
      pan_ir_foreach_instr(blk, I)
      {
         if (I->op == PAN_IR_OP_MOV || I->op == PAN_IR_OP_COLLECT ||
             I->op == PAN_IR_OP_PHI)
            continue;
         int w[8];
         unsigned n = 0;
         for (unsigned i = 0; i < I->nr_srcs && n < ARRAY_SIZE(w); ++i) {
            int x = word_of(I->src[i], mov_word, defs);
            bool seen = x < 0;
            for (unsigned k = 0; k < n && !seen; ++k)
               seen = w[k] == x;
            if (!seen)
               w[n++] = x;
         }
         for (unsigned i = 0; i < n; ++i) {
            for (unsigned j = i + 1; j < n; ++j)
               add_pair(weight, w[i], w[j], BI_SAME_INSTR);
            for (unsigned j = 0; j < nr_prev; ++j)
               add_pair(weight, w[i], prev[j], 1);
         }
         memcpy(prev, w, n * sizeof(w[0]));
         nr_prev = n;
      }
   }

   /* Greedy matching, heaviest pairing first (ties: lowest words). */
   int slot_of[PAN_VA_MAX_PUSH_WORDS];
   unsigned order[PAN_VA_MAX_PUSH_WORDS], nr = 0;
   for (unsigned i = 0; i < nr_push; ++i)
      slot_of[i] = -1;
   for (;;) {
      unsigned best = 0, ba = 0, bb = 0;
      for (unsigned a = 0; a < nr_push; ++a) {
         if (slot_of[a] >= 0)
            continue;
         for (unsigned c = a + 1; c < nr_push; ++c) {
            if (slot_of[c] < 0 && weight[a][c] > best) {
               best = weight[a][c];
               ba = a;
               bb = c;
            }
         }
      }
      if (!best)
         break;
      slot_of[ba] = nr;
      order[nr++] = ba;
      slot_of[bb] = nr;
      order[nr++] = bb;
   }
   /* Words already in their pairs keep them; the rest follow in order. */
   for (unsigned a = 0; a < nr_push; a += 2) {
      if (a + 1 < nr_push && slot_of[a] < 0 && slot_of[a + 1] < 0) {
         slot_of[a] = nr;
         order[nr++] = a;
         slot_of[a + 1] = nr;
         order[nr++] = a + 1;
      }
   }
   for (unsigned a = 0; a < nr_push; ++a) {
      if (slot_of[a] < 0) {
         slot_of[a] = nr;
         order[nr++] = a;
      }
   }

   struct pan_va_push_word old[PAN_VA_MAX_PUSH_WORDS];
   memcpy(old, push, nr_push * sizeof(*push));
   for (unsigned i = 0; i < nr_push; ++i)
      push[i] = old[order[i]];
   pan_ir_foreach_instr_global(s, b, I)
   {
      for (unsigned i = 0; i < I->nr_srcs; ++i) {
         if (I->src[i].kind == PAN_IR_UNIFORM)
            I->src[i].value = slot_of[I->src[i].value];
      }
   }
done:
   ralloc_free(mem);
}
