/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * A lower bound on the work registers of a schedule, known before lane
 * packing and allocation, so that a schedule that can only win with more
 * threads than its registers allow skips both (mid_compile.c).
 *
 * At a point of a block, two lanes that are live there and were written
 * earlier in the same block hold two values, in two lanes of registers:
 * allocation gives a variable written while another is live a register
 * of its own, lane packing only moves lanes, and neither joins two live
 * values.  Lanes live into the block count nothing (on some path they
 * may be undefined, and an undefined variable may share a register).
 * A variable packing leaves whole takes a register of its own; a packed
 * one a quarter of a register per lane.  On T860 a variable written from
 * the texture result register may be kept there (r28, mid_ra.c) and
 * counts nothing.
 */

#include <string.h>

#include "util/ralloc.h"

#include "mid_ir.h"
#include "mid_pack.h"

struct bound {
   const bool *whole;
   const bool *skip;
   uint8_t *counted; /* per variable, its live lanes written before */
   unsigned nr_whole, lanes;
};

static void
count_lanes(struct bound *c, unsigned v, uint8_t lanes, bool add)
{
   if (c->skip[v] || !lanes)
      return;
   uint8_t old = c->counted[v];
   uint8_t now = add ? old | lanes : old & ~lanes;
   if (c->whole[v])
      c->nr_whole += (now != 0) - (old != 0);
   else
      c->lanes += mid_lane_count(now) - mid_lane_count(old);
   c->counted[v] = now;
}

/* Per lane of each variable, its first write in b (instruction index),
 * ~0 when b does not write it. */
static void
first_writes(struct mid_block *b, unsigned n, unsigned *first)
{
   memset(first, 0xff, sizeof(unsigned) * 4 * n);
   unsigned i = 0;
   mid_foreach_instr(b, I)
   {
      if (I->dst.kind == MID_REF_VAR && !I->store) {
         unsigned *f = &first[4 * I->dst.index];
         u_foreach_bit (l, I->mask & 0xf) {
            if (f[l] == ~0u)
               f[l] = i;
         }
      }
      i++;
   }
}

/* The lanes of `lanes` that b writes before its instruction `i`. */
static uint8_t
written_before(const unsigned *first, unsigned v, uint8_t lanes, unsigned i)
{
   uint8_t m = 0;
   u_foreach_bit (l, lanes) {
      if (first[4 * v + l] < i)
         m |= 1u << l;
   }
   return m;
}

unsigned
mid_reg_bound(struct mid_shader *s, const bool *whole,
              const uint8_t *live_out_all)
{
   unsigned n = s->nr_vars;
   if (!n)
      return 0;
   void *mem = ralloc_context(NULL);
   bool *skip = rzalloc_array(mem, bool, n);
   if (s->tex_out >= 16) {
      mid_foreach_block(s, b)
      {
         mid_foreach_instr(b, I)
         {
            if (I->dst.kind == MID_REF_VAR && !I->store &&
                (mid_hw_reads(I) & (1u << s->tex_out)))
               skip[I->dst.index] = true;
         }
      }
   }
   uint8_t *live = ralloc_array(mem, uint8_t, n);
   unsigned *first = ralloc_array(mem, unsigned, 4 * n);
   struct bound c = {
      .whole = whole,
      .skip = skip,
      .counted = ralloc_array(mem, uint8_t, n),
   };
   unsigned most = 0;
   mid_foreach_block(s, b)
   {
      unsigned nr = 0;
      mid_foreach_instr(b, I) nr++;
      first_writes(b, n, first);
      memcpy(live, live_out_all + (size_t)b->index * n, n);
      memset(c.counted, 0, n);
      c.nr_whole = c.lanes = 0;
      for (unsigned v = 0; v < n; v++)
         count_lanes(&c, v, written_before(first, v, live[v], nr), true);
      /* Backwards: the count after each instruction, then its writes
       * killed and its reads made live. */
      unsigned i = nr;
      list_for_each_entry_rev(struct mid_instr, I, &b->instrs, link)
      {
         most = MAX2(most, c.nr_whole + DIV_ROUND_UP(c.lanes, 4));
         i--;
         if (I->dst.kind == MID_REF_VAR && !I->store) {
            unsigned v = I->dst.index;
            count_lanes(&c, v, live[v] & I->mask, false);
            live[v] &= ~I->mask;
         }
         for (unsigned k = 0; k < I->nr_srcs; k++) {
            const struct mid_src *src = &I->src[k];
            if (src->ref.kind != MID_REF_VAR)
               continue;
            unsigned v = src->ref.index;
            uint8_t fresh = mid_src_lanes(I, src) & ~live[v] & 0xf;
            live[v] |= fresh;
            count_lanes(&c, v, written_before(first, v, fresh, i), true);
         }
      }
   }
   ralloc_free(mem);
   return most;
}
