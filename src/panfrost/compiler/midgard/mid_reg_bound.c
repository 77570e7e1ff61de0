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
 * one a quarter of a register per lane.  On T860 a variable a copy out
 * of the texture result register writes may be kept in r28 (mid_ra.c)
 * and counts nothing.
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

/* The lanes of each variable its block writes: per lane its first write
 * (instruction index), ~0 for none, valid where mark[v] is the block's
 * stamp; the variables written, listed. */
struct writes {
   unsigned *first, *mark, *list;
   unsigned stamp, nr;
};

static void
first_writes(struct mid_block *b, struct writes *w)
{
   w->stamp++;
   w->nr = 0;
   unsigned i = 0;
   mid_foreach_instr(b, I)
   {
      if (I->dst.kind == MID_REF_VAR && !I->store) {
         unsigned v = I->dst.index;
         unsigned *f = &w->first[4 * v];
         if (w->mark[v] != w->stamp) {
            w->mark[v] = w->stamp;
            w->list[w->nr++] = v;
            f[0] = f[1] = f[2] = f[3] = ~0u;
         }
         u_foreach_bit (l, I->mask & 0xf) {
            if (f[l] == ~0u)
               f[l] = i;
         }
      }
      i++;
   }
}

/* The lanes of `lanes` that the block writes before its instruction i. */
static uint8_t
written_before(const struct writes *w, unsigned v, uint8_t lanes, unsigned i)
{
   if (w->mark[v] != w->stamp)
      return 0;
   uint8_t m = 0;
   u_foreach_bit (l, lanes) {
      if (w->first[4 * v + l] < i)
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
   if (s->tex_out >= 16 && s->nr_tex) {
      mid_foreach_block(s, b)
      {
         mid_foreach_instr(b, I)
         {
            if (I->dst.kind != MID_REF_VAR || I->store)
               continue;
            for (unsigned k = 0; k < I->nr_srcs; k++) {
               if (I->src[k].ref.kind == MID_REF_HW &&
                   I->src[k].ref.index == s->tex_out)
                  skip[I->dst.index] = true;
            }
         }
      }
   }
   uint8_t *live = ralloc_array(mem, uint8_t, n);
   struct writes w = {
      .first = ralloc_array(mem, unsigned, 4 * n),
      .mark = rzalloc_array(mem, unsigned, n),
      .list = ralloc_array(mem, unsigned, n),
   };
   struct bound c = {
      .whole = whole,
      .skip = skip,
      .counted = rzalloc_array(mem, uint8_t, n),
   };
   unsigned most = 0;
   mid_foreach_block(s, b)
   {
      unsigned nr = 0;
      mid_foreach_instr(b, I) nr++;
      first_writes(b, &w);
      memcpy(live, live_out_all + (size_t)b->index * n, n);
      c.nr_whole = c.lanes = 0;
      /* Only variables the block writes count (counted is zero
       * elsewhere, and again after the block). */
      for (unsigned k = 0; k < w.nr; k++) {
         unsigned v = w.list[k];
         count_lanes(&c, v, written_before(&w, v, live[v], nr), true);
      }
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
            count_lanes(&c, v, written_before(&w, v, fresh, i), true);
         }
      }
      for (unsigned k = 0; k < w.nr; k++)
         c.counted[w.list[k]] = 0;
   }
   ralloc_free(mem);
   return most;
}
