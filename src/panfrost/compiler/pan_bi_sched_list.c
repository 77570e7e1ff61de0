/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * List scheduling of a Bifrost block: the block's items are queued, then
 * placed into tuples and clauses in an order their register and side
 * effect dependencies allow (pan_bi_sched_priv.h).
 */

#include <stdlib.h>
#include <string.h>

#include "isa/pan_isa_bi_priv.h"
#include "pan_bi_sched_priv.h"

/* Registers 0-63 as bits. */
static uint64_t
reg_bits(int r, unsigned n)
{
   uint64_t m = 0;
   for (unsigned k = 0; r >= 0 && k < n; ++k) {
      if (r + k < 64)
         m |= 1ull << (r + k);
   }
   return m;
}

static void
item_regs(const struct bi_sched_item *it, uint64_t *rd, uint64_t *wr)
{
   *rd = 0;
   *wr = reg_bits(it->dest, 1);
   for (unsigned i = 0; i < it->nr_srcs; ++i) {
      if (it->srcs[i].kind == OPND_REG)
         *rd |= reg_bits((int)it->srcs[i].value, 1);
   }
   /* Staging registers count as read and written (TEXC does both). */
   uint64_t st = reg_bits(it->staging, it->staging_count);
   *rd |= st;
   *wr |= st;
}

bool
bi_sched_queue(struct bi_sched_ctx *c, const struct bi_sched_item *it)
{
   struct bi_sched_item q = *it;
   bool load = bi_sched_is_msg(it) &&
               (!strcmp(it->msg, "load") || !strcmp(it->msg, "tex") ||
                !strcmp(it->msg, "varying") || !strcmp(it->msg, "attribute"));
   if (load)
      q.side = SIDE_LOAD;
   else if (bi_sched_is_msg(it) || it->target ||
            !strncmp(bi_ops[it->op].name, "discard", 7) ||
            !strcmp(bi_ops[it->op].name, "jump"))
      q.side = SIDE_EFFECT; /* a jump to a register: blend shaders' return */
   util_dynarray_append(&c->pending, struct bi_sched_item, q);
   return true;
}

/* How far the search for a value's other readers looks. */
#define LAST_READ_REACH 256

/*
 * Mark in each item the registers it reads whose value (written by an
 * earlier item of the block, not as staging) no other item reads before
 * a later item of the block writes them again.  Values the block leaves
 * in registers are never marked: a later block may read them.
 */
static void
mark_last_reads(struct bi_sched_item *its, const uint64_t *rd,
                const uint64_t *wr, unsigned n)
{
   for (unsigned k = 0; k < n; ++k) {
      uint64_t staged = reg_bits(its[k].staging, its[k].staging_count);
      for (unsigned i = 0; i < its[k].nr_srcs; ++i) {
         const struct bi_sched_opnd *o = &its[k].srcs[i];
         if (o->kind != OPND_REG || o->value >= 64 ||
             (staged >> o->value) & 1)
            continue;
         uint64_t bit = 1ull << o->value;
         int j = (int)k - 1;
         while (j >= 0 && (int)k - j <= LAST_READ_REACH && !(wr[j] & bit) &&
                !(rd[j] & bit))
            j--;
         if (j < 0 || !(wr[j] & bit) || its[j].dest != (int)o->value)
            continue;
         unsigned m = k + 1;
         while (m < n && m - k <= LAST_READ_REACH && !(wr[m] & bit) &&
                !(rd[m] & bit))
            m++;
         if (m < n && m - k <= LAST_READ_REACH && !(rd[m] & bit))
            its[k].last_reads |= bit;
      }
   }
}

/* How far past the oldest unscheduled item the scheduler looks. */
#define WINDOW 128

/* How far the search for an item's successors looks. */
#define LEVEL_REACH 256

/* Whether item m (after j in the block) must stay after item j: it
 * reads or writes what j writes, writes what j reads, or their side
 * effects are ordered (a branch goes after everything). */
static bool
orders(const struct bi_sched_item *its, const uint64_t *rd, const uint64_t *wr,
       unsigned j, unsigned m)
{
   return (wr[m] & (rd[j] | wr[j])) || (rd[m] & wr[j]) ||
          (its[m].side == SIDE_EFFECT && its[j].side) ||
          (its[m].side == SIDE_LOAD && its[j].side == SIDE_EFFECT) ||
          its[m].target;
}

/*
 * The level of each item: how many clauses at least follow its own to the
 * end of the block, counting one for each message on the longest chain of
 * items that must stay after it (what waits on a message, or is a message
 * itself, goes to a later clause).  Placing the highest levels first
 * schedules work as late as its chain allows, so that the ALU work of
 * each message lands in or next to the clause of that message instead of
 * all ahead of the first.
 */
static void
mark_levels(const struct bi_sched_item *its, const uint64_t *rd,
            const uint64_t *wr, unsigned n, unsigned *level)
{
   for (unsigned j = n; j-- > 0;) {
      unsigned add = bi_sched_is_msg(&its[j]);
      level[j] = 0;
      for (unsigned m = j + 1; m < n && m - j <= LEVEL_REACH; ++m) {
         if (level[m] + add > level[j] && orders(its, rd, wr, j, m))
            level[j] = level[m] + add;
      }
   }
}

/* Whether ready item a goes before b: higher level first, then other
 * work before a message (the message can still take the clause's end),
 * then block order. */
static bool
ranks_before(const struct bi_sched_item *its, const unsigned *level, unsigned a,
             unsigned b)
{
   if (level[a] != level[b])
      return level[a] > level[b];
   bool ma = bi_sched_is_msg(&its[a]), mb = bi_sched_is_msg(&its[b]);
   if (ma != mb)
      return mb;
   return a < b;
}

static void
sort_ready(const struct bi_sched_item *its, const unsigned *level,
           unsigned *ready, unsigned nr)
{
   for (unsigned k = 1; k < nr; ++k) {
      unsigned r = ready[k], i = k;
      for (; i && ranks_before(its, level, r, ready[i - 1]); --i)
         ready[i] = ready[i - 1];
      ready[i] = r;
   }
}

/* A clause without a message at its last tuple: the ready messages go
 * first, as a clause sends one at most and the ALU work fits any. */
static void
messages_first(const struct bi_sched_item *its, unsigned *ready, unsigned nr)
{
   unsigned out[WINDOW], no = 0;
   for (unsigned pass = 0; pass < 2; ++pass) {
      for (unsigned k = 0; k < nr; ++k) {
         if (bi_sched_is_msg(&its[ready[k]]) == !pass)
            out[no++] = ready[k];
      }
   }
   memcpy(ready, out, nr * sizeof(*ready));
}

/*
 * Schedule the pending items: an item is ready when no earlier unplaced
 * one reads what it writes or writes what it reads or writes, and side
 * effects keep their order (a branch goes last).  Ready items rank by
 * level (mark_levels), then other work before messages, then block
 * order.  Each step fills the free unit
 * of the clause's last tuple with the first ready item that fits there,
 * else starts a tuple with the first ready item, preferring one that
 * does not end the clause (one after its message); when none may follow
 * the clause's message, the clause ends and the next one chooses.  In a
 * clause without a message, the message waits while other work fits
 * before it, and takes the clause's last tuple when ready.
 */
bool
bi_sched_flush(struct bi_sched_ctx *c)
{
   unsigned n = util_dynarray_num_elements(&c->pending, struct bi_sched_item);
   struct bi_sched_item *its = util_dynarray_begin(&c->pending);
   if (!n)
      return true;
   uint64_t *rd = malloc(n * sizeof(*rd)), *wr = malloc(n * sizeof(*wr));
   bool *done = calloc(n, sizeof(*done));
   unsigned *ready = malloc(n * sizeof(*ready));
   unsigned *level = malloc(n * sizeof(*level));
   bool ok = rd && wr && done && ready && level;
   if (!ok)
      bi_sched_fail(c, "out of memory%s", "");
   for (unsigned j = 0; ok && j < n; ++j)
      item_regs(&its[j], &rd[j], &wr[j]);
   if (ok) {
      mark_last_reads(its, rd, wr, n);
      mark_levels(its, rd, wr, n, level);
   }
   unsigned first = 0;
   for (unsigned left = n; ok && left;) {
      while (done[first])
         first++;
      uint64_t ar = 0, aw = 0;
      uint8_t aside = 0; /* bit per enum bi_sched_side before */
      unsigned nr = 0;
      for (unsigned j = first; j < n && j < first + WINDOW; ++j) {
         if (done[j])
            continue;
         if (!(wr[j] & (ar | aw)) && !(rd[j] & aw) &&
             !(its[j].side == SIDE_EFFECT && aside) &&
             !(its[j].side == SIDE_LOAD && (aside & (1 << SIDE_EFFECT))) &&
             (!its[j].target || j == first))
            ready[nr++] = j;
         ar |= rd[j];
         aw |= wr[j];
         aside |= its[j].side ? 1 << its[j].side : 0;
      }
      sort_ready(its, level, ready, nr);
      if (!strcmp(c->cur.msg, "none") && c->cur.nr_tuples >= 7)
         messages_first(its, ready, nr);
      int pick = -1;
      for (unsigned k = 0; k < nr && pick < 0; ++k) {
         const struct bi_sched_item *it = &its[ready[k]];
         if (!bi_sched_after_msg_ok(&c->cur, it))
            continue;
         if (bi_sched_try_pair(c, it)) {
            bi_sched_note_msg(c, it);
            if (bi_sched_msg_ends_clause(it) || it->target)
               bi_sched_close_clause(c);
            pick = (int)ready[k];
         }
      }
      if (pick < 0) {
         /* Best: an item fitting right after the last tuple; then one
          * that keeps the clause open; then the oldest. */
         int fits = -1, open = -1;
         /* A clause without a message sends it last: what precedes the
          * message may read anything, what follows it only what does not
          * wait on it, so the message waits while other work fits. */
         bool hold = !strcmp(c->cur.msg, "none") && c->cur.nr_tuples < 7;
         bool any_ok = false;
         for (unsigned k = 0; k < nr && fits < 0; ++k) {
            const struct bi_sched_item *it = &its[ready[k]];
            any_ok |= bi_sched_after_msg_ok(&c->cur, it);
            if (!bi_sched_after_msg_ok(&c->cur, it) ||
                (hold && bi_sched_is_msg(it)))
               continue;
            if (open < 0)
               open = (int)ready[k];
            if (!bi_sched_needs_gap(c, it))
               fits = (int)ready[k];
         }
         /* Nothing ready may follow the clause's message: the choice is
          * the next clause's, made for it (its hold, its pairs). */
         if (!any_ok && c->cur.nr_tuples) {
            bi_sched_close_clause(c);
            continue;
         }
         pick = fits >= 0 ? fits : open >= 0 ? open : (int)ready[0];
         ok = bi_sched_place(c, &its[pick]);
      }
      done[pick] = true;
      left--;
   }
   free(rd);
   free(wr);
   free(done);
   free(ready);
   free(level);
   util_dynarray_clear(&c->pending);
   return ok;
}
