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
 * A variable packing leaves whole takes a register of its own.  A packed
 * one takes as many lanes of a register as it writes (packing keeps them
 * all from its first write to its last read), so two of three lanes
 * never share a register, one of three leaves room for one of one lane,
 * and four lanes of two or one fill one.  On T860 a variable a copy out
 * of the texture result register writes may be kept in r28 (mid_ra.c)
 * and counts nothing.
 */

#include <string.h>

#include "util/ralloc.h"

#include "mid_ir.h"
#include "mid_pack.h"

struct bound {
   const uint8_t *size;
   const bool *skip;
   uint8_t *counted; /* per variable, its live lanes written before */
   /* Live variables left whole, and packed ones by their size. */
   unsigned nr_whole, nr_size[4];
};

static void
count_lanes(struct bound *c, unsigned v, uint8_t lanes, bool add)
{
   if (c->skip[v] || !lanes)
      return;
   uint8_t old = c->counted[v];
   uint8_t now = add ? old | lanes : old & ~lanes;
   if (!old == !now) {
      c->counted[v] = now;
      return;
   }
   int d = now ? 1 : -1;
   if (c->size[v] >= 4)
      c->nr_whole += d;
   else
      c->nr_size[c->size[v]] += d;
   c->counted[v] = now;
}

/* The registers of the live variables: each whole one, and the packed
 * ones as items of their size in bins of four lanes (a bin per item of
 * three, its free lane for one of one). */
static unsigned
registers(const struct bound *c)
{
   unsigned n1 = c->nr_size[1], n2 = c->nr_size[2], n3 = c->nr_size[3];
   return c->nr_whole + n3 + DIV_ROUND_UP(2 * n2 + (n1 > n3 ? n1 - n3 : 0), 4);
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
mid_reg_bound(struct mid_shader *s, const uint8_t *size,
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
      .size = size,
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
      c.nr_whole = 0;
      memset(c.nr_size, 0, sizeof(c.nr_size));
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
         most = MAX2(most, registers(&c));
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
