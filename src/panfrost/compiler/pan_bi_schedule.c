/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Bifrost emission: IR instructions become FMA/ADD words (their forms in
 * pan_ir_opcodes.py, with the other unit's encoding when it has the same
 * operation), list-scheduled per block into tuples (pan_bi_sched_list.c),
 * grouped into clauses and packed by the isa library (bi_pack_clause).
 *
 * Clauses: a block a branch targets starts one, a branch and the
 * tilebuffer messages (ATEST, BLEND, ZS_EMIT) end theirs; a clause sends
 * one message at most, and what follows it in the clause leaves its
 * staging registers alone; a clause holds at most 8 tuples and the
 * constants its layout has room for (2 to 7 by its tuple count, 5 for
 * 8 tuples).  A tuple's register block reads its ports before writing the
 * previous tuple's result, so a source the previous tuple of the clause
 * computes is read as t0/t1 instead of its register; the last tuple's
 * result is written when the clause ends.  When a program sends messages,
 * every clause waits on slot 0 (conservative: no scoreboarding yet).
 *
 * Constants (immediates, branch distances) are 64-bit clause constants
 * whose low 4 bits come from the FAU index of the tuple reading them: a
 * 32-bit immediate is the low word (index bits = its low 4 bits) or the
 * high word of one.  A branch distance is the high word of a constant of
 * its own, patched once clause addresses are known.
 */

#include <stdlib.h>
#include <string.h>

#include "isa/pan_isa_bi_priv.h"
#include "pan_bi_sched_priv.h"
#include "pan_va.h"

bool
bi_sched_fail(struct bi_sched_ctx *c, const char *fmt, const char *what)
{
   snprintf(c->err, c->err_size, fmt, what);
   return false;
}

/* ---- clause building ---- */

static void
clause_reset(struct bi_sched_clause *cl)
{
   memset(cl, 0, sizeof(*cl));
   cl->branch_const = -1;
   cl->staging = -1;
   cl->msg = "none";
}

static bool place_nop(struct bi_sched_ctx *c);
static bool two_dests(const struct bi_sched_tuple *t);
static bool swap_last(struct bi_sched_ctx *c);

void
bi_sched_close_clause(struct bi_sched_ctx *c)
{
   if (!c->cur.nr_tuples)
      return;
   /* The first block can write one result of the last tuple only: the
    * tuple before goes last if nothing orders the two, else a NOP. */
   if (two_dests(&c->cur.t[c->cur.nr_tuples - 1]) && !swap_last(c))
      place_nop(c);
   util_dynarray_append(&c->clauses, struct bi_sched_clause, c->cur);
   clause_reset(&c->cur);
}

/* Constants a clause can hold at most: the FAU indices name six
 * (const_fau); how many a clause of n tuples holds is const_capacity(n). */
#define CLAUSE_CONSTS 6

static unsigned const_capacity(unsigned n);

/* FAU index of clause constant k (bits 4-6 name the slot). */
static unsigned
const_fau(unsigned k)
{
   static const uint8_t hi[6] = { 4, 5, 6, 7, 2, 3 };
   return hi[k] << 4;
}

/*
 * Find or add the constant(s) of an instruction: sel[i] gets fau_lo (4)
 * or fau_hi (5) for each of the n values; *fau the index.  False when the
 * clause has no room.
 */
static bool
place_consts(struct bi_sched_clause *cl, const uint32_t *v, unsigned n,
             bool branch, unsigned *sel, uint8_t *fau)
{
   if (!branch) {
      for (unsigned k = 0; k < cl->nr_consts; ++k) {
         if ((int)k == cl->branch_const)
            continue;
         uint64_t c = cl->consts[k];
         uint32_t hi = c >> 32, lo_top = (uint32_t)c & ~0xfu;
         /* v[0] low, v[1] high, either way round. */
         for (unsigned o = 0; o < (n == 2 ? 2 : 1); ++o) {
            uint32_t a = v[o], b = n == 2 ? v[1 - o] : 0;
            if (n == 1 && hi == a) {
               sel[0] = 5;
               *fau = const_fau(k);
               return true;
            }
            if (lo_top == (a & ~0xfu) && (n == 1 || hi == b)) {
               sel[o] = 4;
               if (n == 2)
                  sel[1 - o] = 5;
               *fau = const_fau(k) | (a & 0xf);
               return true;
            }
         }
      }
   }
   if (cl->nr_consts >= CLAUSE_CONSTS)
      return false;
   unsigned k = cl->nr_consts++;
   if (branch) {
      cl->consts[k] = 0;
      cl->branch_const = (int)k;
      sel[0] = 5;
      *fau = const_fau(k);
      return true;
   }
   cl->consts[k] = (n == 2 ? (uint64_t)v[1] << 32 : 0) | (v[0] & ~0xfu);
   sel[0] = 4;
   if (n == 2)
      sel[1] = 5;
   *fau = const_fau(k) | (v[0] & 0xf);
   return true;
}

/* The previous tuple of the clause, if any. */
static const struct bi_sched_tuple *
prev_tuple(const struct bi_sched_ctx *c)
{
   return c->cur.nr_tuples ? &c->cur.t[c->cur.nr_tuples - 1] : NULL;
}

/* The unit of t whose result is register r (read as t0/t1 by the next
 * tuple), or -1. */
static int
forwarded(const struct bi_sched_tuple *t, uint32_t r)
{
   for (unsigned k = 0; t && k < 2; ++k) {
      if (t->used[k] && t->u[k].dest == (int)r)
         return (int)k;
   }
   return -1;
}

static bool
two_dests(const struct bi_sched_tuple *t)
{
   return t && t->used[0] && t->used[1] && t->u[0].dest >= 0 &&
          t->u[1].dest >= 0;
}

bool
bi_sched_is_msg(const struct bi_sched_item *it)
{
   return it->msg && strcmp(it->msg, "none");
}

static bool
reads_fau(const struct bi_sched_item *it)
{
   for (unsigned i = 0; i < it->nr_srcs; ++i) {
      if (it->srcs[i].kind != OPND_REG && it->srcs[i].kind != OPND_ZERO &&
          it->srcs[i].kind != OPND_T)
         return true;
   }
   return it->fau_only >= 0;
}

/* The FAU index of it and its FAU source selectors; false (clause
 * untouched) when its constants do not fit. */
static bool
place_fau(struct bi_sched_clause *cl, const struct bi_sched_item *it,
          struct bi_sched_tuple *t, unsigned *sel)
{
   uint32_t cv[2];
   unsigned nc = 0;
   if (it->fau_only >= 0)
      t->fau = (uint8_t)it->fau_only;
   for (unsigned i = 0; i < it->nr_srcs; ++i) {
      const struct bi_sched_opnd *o = &it->srcs[i];
      if (o->kind == OPND_UNIFORM) {
         t->fau = 0x80 | (o->value / 2);
         sel[i] = 4 + (o->value & 1);
      } else if (o->kind == OPND_SPECIAL) {
         t->fau = (uint8_t)(o->value / 2);
         sel[i] = 4 + (o->value & 1);
      } else if (o->kind == OPND_ZERO || o->kind == OPND_T) {
         sel[i] = 3;
      } else if (o->kind == OPND_BRANCH) {
         if (!place_consts(cl, NULL, 0, true, &sel[i], &t->fau))
            return false;
         cl->target = it->target;
      } else if (o->kind == OPND_CONST) {
         bool dup = false;
         for (unsigned k = 0; k < nc; ++k)
            dup |= cv[k] == o->value;
         if (!dup)
            cv[nc++] = o->value;
      }
   }
   if (!nc)
      return true;
   unsigned s[2];
   if (!place_consts(cl, cv, nc, false, s, &t->fau))
      return false;
   for (unsigned i = 0; i < it->nr_srcs; ++i) {
      for (unsigned k = 0; k < nc; ++k) {
         if (it->srcs[i].kind == OPND_CONST && it->srcs[i].value == cv[k])
            sel[i] = s[k];
      }
   }
   return true;
}

/* Registers the items read through ports (not forwarded from prev),
 * sorted; returns how many (up to 4 are counted). */
static unsigned
port_regs(const struct bi_sched_tuple *prev,
          const struct bi_sched_item *const *items, unsigned n, int *regs)
{
   unsigned nr = 0;
   for (unsigned j = 0; j < n; ++j) {
      for (unsigned i = 0; i < items[j]->nr_srcs; ++i) {
         const struct bi_sched_opnd *o = &items[j]->srcs[i];
         if (o->kind != OPND_REG || forwarded(prev, o->value) >= 0)
            continue;
         bool seen = false;
         for (unsigned k = 0; k < nr; ++k)
            seen |= regs[k] == (int)o->value;
         if (!seen && nr < 4)
            regs[nr++] = (int)o->value;
      }
   }
   for (unsigned a = 0; a < nr; ++a) {
      for (unsigned b = a + 1; b < nr; ++b) {
         if (regs[b] < regs[a]) {
            int tmp = regs[a];
            regs[a] = regs[b];
            regs[b] = tmp;
         }
      }
   }
   return nr;
}

/*
 * A tuple of n items (different units, at most one reading FAU values)
 * after the current clause's last tuple: ports 0/1 take the two lowest
 * registers read (port 0 the lower), port 2 a third unless the block
 * also writes both results of the previous tuple.  False when it does
 * not fit (ports, constants; clause constants are then as before).
 */
static bool
build_tuple(struct bi_sched_ctx *c, const struct bi_sched_item *const *items,
            unsigned n, struct bi_sched_tuple *t)
{
   const struct bi_sched_tuple *prev = prev_tuple(c);
   struct bi_sched_clause saved = c->cur;
   int regs[4];
   unsigned nr = port_regs(prev, items, n, regs);
   if (nr > (two_dests(prev) ? 2u : 3u))
      return false;
   /* A register some source cannot take from port 0 or 1 goes last. */
   for (unsigned k = 0; nr == 3 && k < 2; ++k) {
      if (regs[k] == c->port2_reg) {
         memmove(&regs[k], &regs[k + 1], (2 - k) * sizeof(regs[0]));
         regs[2] = c->port2_reg;
      }
   }
   *t = (struct bi_sched_tuple){ .read = { -1, -1, -1 } };
   for (unsigned k = 0; k < nr; ++k)
      t->read[k] = (int8_t)regs[k];
   int fau = -1; /* the units share the tuple's one FAU index */
   for (unsigned j = 0; j < n; ++j) {
      const struct bi_sched_item *it = items[j];
      unsigned sel[4] = { 0 };
      if (!place_fau(&c->cur, it, t, sel) ||
          (reads_fau(it) && fau >= 0 && fau != t->fau)) {
         c->cur = saved;
         return false;
      }
      if (reads_fau(it))
         fau = t->fau;
      for (unsigned i = 0; i < it->nr_srcs; ++i) {
         const struct bi_sched_opnd *o = &it->srcs[i];
         int f = o->kind == OPND_REG ? forwarded(prev, o->value) : -1;
         if (f >= 0)
            sel[i] = 6 + f;
         for (unsigned k = 0; f < 0 && o->kind == OPND_REG && k < nr; ++k) {
            if (regs[k] == (int)o->value)
               sel[i] = k;
         }
      }
      t->u[it->unit] = *it;
      t->used[it->unit] = true;
      for (unsigned i = 0; i < it->nr_srcs; ++i)
         t->u[it->unit].word =
            pan_bi_set_src(t->u[it->unit].word, it->op, i, sel[i]);
   }
   /* The constants must fit the layout of the clause up to this tuple
    * (fewer fit 7 or 8 tuples than 6), and of one tuple more when this
    * one writes two results (the NOP after it if the clause ends). */
   unsigned after = c->cur.nr_tuples + 1;
   if (c->cur.nr_consts > const_capacity(after) ||
       (two_dests(t) && after < 8 &&
        c->cur.nr_consts > const_capacity(after + 1))) {
      c->cur = saved;
      return false;
   }
   return true;
}

void
bi_sched_note_msg(struct bi_sched_ctx *c, const struct bi_sched_item *it)
{
   if (bi_sched_is_msg(it)) {
      c->cur.msg = it->msg;
      c->cur.staging = it->staging;
      c->cur.staging_count = it->staging_count;
      c->any_msg = true;
   }
}

static bool
in_staging(const struct bi_sched_clause *cl, int r)
{
   return cl->staging >= 0 && r >= cl->staging &&
          r < cl->staging + cl->staging_count;
}

/* Whether it may follow the clause's message in the same clause: the
 * message reads and writes its staging registers asynchronously (a later
 * clause waits on its slot for them), so nothing after it in the clause
 * may touch them, and a clause sends one message at most. */
bool
bi_sched_after_msg_ok(const struct bi_sched_clause *cl,
                      const struct bi_sched_item *it)
{
   if (!strcmp(cl->msg, "none"))
      return true;
   if (bi_sched_is_msg(it) || in_staging(cl, it->dest))
      return false;
   for (unsigned i = 0; i < it->nr_srcs; ++i) {
      if (it->srcs[i].kind == OPND_REG && in_staging(cl, it->srcs[i].value))
         return false;
   }
   return true;
}

/* Messages after which the clause ends: the tilebuffer ones (their
 * coverage and blend hand-offs are ordered with the clause). */
bool
bi_sched_msg_ends_clause(const struct bi_sched_item *it)
{
   return bi_sched_is_msg(it) &&
          (!strcmp(it->msg, "blend") || !strcmp(it->msg, "atest") ||
           !strcmp(it->msg, "z_stencil"));
}

/* Place it as the next tuple of the current clause; false when it does
 * not fit there. */
static bool
try_place(struct bi_sched_ctx *c, const struct bi_sched_item *it)
{
   struct bi_sched_tuple t;
   if (c->cur.nr_tuples >= 8 || !build_tuple(c, &it, 1, &t))
      return false;
   bi_sched_note_msg(c, it);
   c->cur.t[c->cur.nr_tuples++] = t;
   return true;
}

/* it on its other unit. */
static struct bi_sched_item
swapped(const struct bi_sched_item *it)
{
   struct bi_sched_item o = *it;
   o.unit = !it->unit;
   o.word = it->alt_word;
   o.op = it->alt_op;
   o.alt_word = it->word;
   o.alt_op = it->op;
   return o;
}

/* Put it into the free unit of the clause's last tuple when nothing
 * orders them: the other is no branch and no message (it may be either;
 * a branch then ends the clause), it reads the other's result only as an
 * ADD instruction reading the FMA one through `t` (the units read their
 * registers at the start of the tuple), both read one FAU index if any,
 * and the clause keeps room for the NOP that a last tuple writing two
 * results needs (an 8th tuple may not write two). */
bool
bi_sched_try_pair(struct bi_sched_ctx *c, const struct bi_sched_item *in)
{
   unsigned n = c->cur.nr_tuples;
   if (!n || in->fau_only >= 0)
      return false;
   struct bi_sched_tuple *last = &c->cur.t[n - 1];
   if (last->used[0] == last->used[1])
      return false;
   unsigned free_unit = last->used[0];
   struct bi_sched_item moved = *in, other = last->u[!free_unit];
   const struct bi_sched_item *a = &other, *it = &moved;
   if (bi_sched_is_msg(a) || a->target || a->word == pan_bi_nop(a->unit) ||
       (a->dest >= 0 && a->dest == it->dest))
      return false;
   bool reads_a = false;
   for (unsigned i = 0; i < it->nr_srcs; ++i) {
      reads_a |= it->srcs[i].kind == OPND_REG &&
                 (int)it->srcs[i].value == a->dest;
   }
   /* An operation both units run goes to the one left free, or leaves
    * its own to the other instruction when that one runs on both: the
    * reader of the other's result must be the ADD one. */
   unsigned want = reads_a ? 1 : free_unit;
   if (it->unit != want && it->has_alt)
      moved = swapped(in);
   if (it->unit == a->unit) {
      if (!a->has_alt)
         return false;
      other = swapped(&last->u[!free_unit]);
   }
   /* An ADD instruction reads the FMA result of its tuple through t. */
   struct bi_sched_item fwd = *it;
   for (unsigned i = 0; i < it->nr_srcs; ++i) {
      if (it->srcs[i].kind != OPND_REG || (int)it->srcs[i].value != a->dest)
         continue;
      if (it->unit != 1)
         return false;
      fwd.srcs[i] = (struct bi_sched_opnd){ OPND_T, 0 };
   }
   it = &fwd;
   /* A message joins the last FMA instruction when its staging registers
    * are not that one's result (it lands a tuple later). */
   if (bi_sched_is_msg(it) && it->staging >= 0 && a->dest >= it->staging &&
       a->dest < it->staging + it->staging_count)
      return false;
   /* An FMA result that only it reads (through t) is not written: the
    * tuple then writes one result, and the next one keeps port 2. */
   if (reads_a && a->dest >= 0 && a->dest < 64 &&
       (in->last_reads >> a->dest) & 1)
      other.dest = NO_REG;
   /* Rebuild the last tuple with both, after the one before it. */
   struct bi_sched_tuple saved = *last, t;
   const struct bi_sched_item *items[2] = { a, it };
   c->cur.nr_tuples--;
   bool ok = build_tuple(c, items, 2, &t) && (n < 8 || !two_dests(&t));
   c->cur.t[c->cur.nr_tuples++] = ok ? t : saved;
   return ok;
}

/* Whether a and b may be placed in either order: plain arithmetic, and
 * neither reads or writes what the other writes. */
static bool
unordered(const struct bi_sched_item *a, const struct bi_sched_item *b)
{
   if (bi_sched_is_msg(a) || bi_sched_is_msg(b) || a->target || b->target ||
       a->side || b->side || a->staging_count || b->staging_count ||
       (a->dest >= 0 && a->dest == b->dest))
      return false;
   for (unsigned i = 0; i < b->nr_srcs; ++i) {
      if (b->srcs[i].kind == OPND_REG && (int)b->srcs[i].value == a->dest)
         return false;
   }
   for (unsigned i = 0; i < a->nr_srcs; ++i) {
      if (a->srcs[i].kind == OPND_REG && (int)a->srcs[i].value == b->dest)
         return false;
   }
   return true;
}

/* Exchange the clause's last two tuples when nothing orders their
 * instructions and the one going last writes one result at most; false
 * (clause unchanged) otherwise. */
static bool
swap_last(struct bi_sched_ctx *c)
{
   unsigned n = c->cur.nr_tuples;
   if (n < 2)
      return false;
   struct bi_sched_tuple a = c->cur.t[n - 2], b = c->cur.t[n - 1];
   if (two_dests(&a))
      return false;
   const struct bi_sched_item *ia[2], *ib[2];
   unsigned na = 0, nb = 0;
   for (unsigned i = 0; i < 2; ++i) {
      for (unsigned j = 0; j < 2; ++j) {
         if (a.used[i] && b.used[j] && !unordered(&a.u[i], &b.u[j]))
            return false;
      }
      if (a.used[i])
         ia[na++] = &a.u[i];
      if (b.used[i])
         ib[nb++] = &b.u[i];
   }
   struct bi_sched_clause saved = c->cur;
   struct bi_sched_tuple t;
   c->cur.nr_tuples = n - 2;
   for (unsigned k = 0; k < 2; ++k) {
      if (!build_tuple(c, k ? ia : ib, k ? na : nb, &t)) {
         c->cur = saved;
         return false;
      }
      c->cur.t[c->cur.nr_tuples++] = t;
   }
   return true;
}

/* Place it as a tuple of its own before the clause's last tuple (which
 * writes two results, so that it would need a NOP after that one) when
 * nothing orders it with that tuple's instructions; false (clause
 * unchanged) otherwise.  The clause must keep room for the NOP that its
 * last tuple may then need. */
static bool
place_before_last(struct bi_sched_ctx *c, const struct bi_sched_item *it)
{
   unsigned n = c->cur.nr_tuples;
   struct bi_sched_tuple last = c->cur.t[n - 1], t;
   const struct bi_sched_item *items[2];
   unsigned nr = 0;
   for (unsigned k = 0; k < 2; ++k) {
      if (last.used[k] && !unordered(it, &last.u[k]))
         return false;
      if (last.used[k])
         items[nr++] = &last.u[k];
   }
   struct bi_sched_clause saved = c->cur;
   c->cur.nr_tuples = n - 1;
   if (!build_tuple(c, &it, 1, &t)) {
      c->cur = saved;
      return false;
   }
   c->cur.t[c->cur.nr_tuples++] = t;
   if (!build_tuple(c, items, nr, &t)) {
      c->cur = saved;
      return false;
   }
   c->cur.t[c->cur.nr_tuples++] = t;
   return true;
}

static struct bi_sched_item
nop_item(unsigned unit)
{
   return (struct bi_sched_item){ .unit = unit,
                                  .word = pan_bi_nop(unit),
                                  .op = 0,
                                  .dest = NO_REG,
                                  .fau_only = -1 };
}

static bool
place_nop(struct bi_sched_ctx *c)
{
   struct bi_sched_item nop = nop_item(1);
   return try_place(c, &nop);
}

/* Whether it needs a NOP tuple between it and the clause's last tuple. */
bool
bi_sched_needs_gap(const struct bi_sched_ctx *c, const struct bi_sched_item *it)
{
   /* After a tuple writing two results, port 2 is taken.  (A message
    * reads its staging registers after the tuple's register block wrote
    * the previous tuple's results: no gap for those.) */
   const struct bi_sched_tuple *prev = prev_tuple(c);
   int regs[4];
   return (two_dests(prev) && port_regs(prev, &it, 1, regs) > 2);
}

bool
bi_sched_place(struct bi_sched_ctx *c, const struct bi_sched_item *it)
{
   if (c->cur.nr_tuples >= 8 || !bi_sched_after_msg_ok(&c->cur, it))
      bi_sched_close_clause(c);
   if (bi_sched_try_pair(c, it)) {
      bi_sched_note_msg(c, it);
      if (bi_sched_msg_ends_clause(it) || it->target)
         bi_sched_close_clause(c);
      return true;
   }
   if (bi_sched_needs_gap(c, it)) {
      if (c->cur.nr_tuples < 7 && place_before_last(c, it))
         return true;
      if (c->cur.nr_tuples >= 7)
         bi_sched_close_clause(c);
      else if (!place_nop(c))
         return false;
   }
   if (!try_place(c, it)) {
      bi_sched_close_clause(c);
      if (!try_place(c, it)) {
         int regs[4];
         const struct bi_sched_item *one = it;
         if (port_regs(NULL, &one, 1, regs) > 3)
            return bi_sched_fail(c,
                                 "%s reads four registers (unsupported on "
                                 "Bifrost)",
                                 bi_ops[it->op].name);
         return bi_sched_fail(c, "%s: constants do not fit",
                              bi_ops[it->op].name);
      }
   }
   if (bi_sched_msg_ends_clause(it) || it->target)
      bi_sched_close_clause(c);
   return true;
}

/* ---- IR to items ---- */

static bool
opnd_of(struct bi_sched_ctx *c, pan_ir_index i, unsigned word,
        struct bi_sched_opnd *o)
{
   switch (i.kind) {
   case PAN_IR_SSA:
      *o = (struct bi_sched_opnd){ OPND_REG, c->regs[i.value] + i.comp + word };
      return true;
   case PAN_IR_IMM:
      *o = (struct bi_sched_opnd){ OPND_CONST, i.value };
      return true;
   case PAN_IR_UNIFORM:
      if (i.value + word > 255)
         return bi_sched_fail(c, "uniform beyond u127.w1%s", "");
      *o = (struct bi_sched_opnd){ OPND_UNIFORM, i.value + word };
      return true;
   case PAN_IR_SPECIAL:
      if (pan_bi_special_fau(i.value) < 0)
         return bi_sched_fail(c,
                              "special FAU value %s is unsupported on Bifrost",
                              pan_ir_special_names[i.value]);
      *o = (struct bi_sched_opnd){ OPND_SPECIAL,
                                   2 * pan_bi_special_fau(i.value) + word };
      return true;
   default:
      return bi_sched_fail(c, "no operand%s", "");
   }
}

static bool
mov_item(struct bi_sched_ctx *c, int dest, pan_ir_index src, unsigned word)
{
   struct bi_sched_item it = {
      .unit = 1, .dest = dest, .nr_srcs = 1, .fau_only = -1
   };
   const char *const none[1][2] = { { NULL, NULL } };
   if (!pan_bi_encode_form("mov.i32", 1, none, 0, &it.word, &it.op, c->err,
                           c->err_size) ||
       !opnd_of(c, src, word, &it.srcs[0]))
      return false;
   if (src.neg || src.abs)
      return bi_sched_fail(c, "a negated move is unsupported on Bifrost%s", "");
   it.has_alt = it.srcs[0].kind != OPND_T &&
                pan_bi_encode_form("mov.i32", 0, none, 0, &it.alt_word,
                                   &it.alt_op, c->err, c->err_size);
   return bi_sched_queue(c, &it);
}

static const char *
bits_name(unsigned comps)
{
   static const char *const n[] = { "i32", "i64", "i96", "i128" };
   return n[comps - 1];
}

/* Fill in the form's name and modifiers ({bits}, {cmp}, {eq}). */
static bool
encode(struct bi_sched_ctx *c, const pan_ir_instr *I,
       const struct pan_ir_bi_form *f, struct bi_sched_item *it)
{
   char name[64];
   const char *p = strstr(f->name, "{bits}");
   if (p) {
      unsigned comps = f->staging == 1 ? I->dest.comps : I->src[0].comps;
      snprintf(name, sizeof(name), "%.*s%s", (int)(p - f->name), f->name,
               bits_name(comps));
   } else {
      snprintf(name, sizeof(name), "%s", f->name);
   }
   static const char *const vecsizes[] = { "none", "v2", "v3", "v4" };
   static const char *const regfmts[] = { "u32", "u32", "s32", "f32" };
   unsigned staged = f->staging == 1 ? I->dest.comps : I->src[0].comps;
   const char *mods[4][2];
   for (unsigned m = 0; m < f->nr_mods; ++m) {
      mods[m][0] = f->mods[m][0];
      mods[m][1] = f->mods[m][1];
      if (!strcmp(mods[m][1], "{cmp}"))
         mods[m][1] = pan_ir_cmp_names[I->cmp];
      else if (!strcmp(mods[m][1], "{eq}"))
         mods[m][1] = I->on_zero ? "eq" : "ne";
      else if (!strcmp(mods[m][1], "{vecsize}"))
         mods[m][1] = vecsizes[(staged - 1) & 3];
      else if (!strcmp(mods[m][1], "{regfmt}"))
         mods[m][1] = regfmts[I->type];
      else if (!strcmp(mods[m][1], "{atom}"))
         mods[m][1] = I->imm < PAN_IR_NR_ATOMICS ? pan_ir_atomic_names[I->imm]
                                                 : "?";
      else if (!strcmp(mods[m][1], "{lod}"))
         mods[m][1] = (I->imm >> 16) & 1 ? "zero_lod" : "computed_lod";
   }
   it->unit = f->unit;
   return pan_bi_encode_form(name, f->unit, (const char *const(*)[2])mods,
                             f->nr_mods, &it->word, &it->op, c->err,
                             c->err_size);
}

/* Source modifiers: neg/abs toggle the fields of the selector's slot. */
static bool
source_mods(struct bi_sched_ctx *c, const struct pan_ir_bi_form *f, unsigned a,
            pan_ir_index src, struct bi_sched_item *it)
{
   char field[16];
   if (src.abs) {
      snprintf(field, sizeof(field), "abs%u", a);
      if (!pan_bi_toggle(&it->word, it->op, field))
         return bi_sched_fail(c,
                              "%s: no absolute value of this source on Bifrost",
                              bi_ops[it->op].name);
   }
   if (src.neg) {
      snprintf(field, sizeof(field), "neg%u", a);
      if (!pan_bi_toggle(&it->word, it->op,
                         f->args[a].neg ? f->args[a].neg : field))
         return bi_sched_fail(c, "%s: no negation of this source on Bifrost",
                              bi_ops[it->op].name);
   }
   return true;
}

/* "name" (all of imm) or "name:shift,..." (a byte of imm each). */
static bool
set_imm_fields(struct bi_sched_item *it, const char *spec, uint32_t imm)
{
   if (!strchr(spec, ':'))
      return pan_bi_set_imm(&it->word, it->op, spec, imm);
   char buf[64];
   snprintf(buf, sizeof(buf), "%s", spec);
   for (char *save, *f = strtok_r(buf, ",", &save); f;
        f = strtok_r(NULL, ",", &save)) {
      char *colon = strchr(f, ':');
      *colon = '\0';
      if (!pan_bi_set_imm(&it->word, it->op, f,
                          (imm >> atoi(colon + 1)) & 0xff))
         return false;
   }
   return true;
}

/* -0.0 (a multiply's addend) as the FMA unit's zero negated, which
 * reads no clause constant: true when the source's negate field exists
 * (then toggled). */
static bool
negated_zero(const struct pan_ir_bi_form *f, unsigned a, pan_ir_index src,
             struct bi_sched_item *it)
{
   char field[16];
   if (src.kind != PAN_IR_IMM || src.value != 0x80000000u || src.neg || src.abs)
      return false;
   snprintf(field, sizeof(field), "neg%u", a);
   return pan_bi_toggle(&it->word, it->op,
                        f->args[a].neg ? f->args[a].neg : field);
}

/* The word of form f on unit (its own or the other), with its immediate
 * fields and source modifiers. */
static bool
form_word(struct bi_sched_ctx *c, const pan_ir_instr *I,
          const struct pan_ir_bi_form *f, unsigned unit,
          struct bi_sched_item *it)
{
   struct pan_ir_bi_form on = *f;
   on.unit = (uint8_t)unit;
   if (!encode(c, I, &on, it))
      return false;
   if (f->imm_field && !set_imm_fields(it, f->imm_field, I->imm))
      return bi_sched_fail(c, "%s: immediate out of range",
                           bi_ops[it->op].name);
   for (unsigned a = 0; a < f->nr_args; ++a) {
      if (f->args[a].kind == PAN_IR_BI_SRC &&
          !source_mods(c, f, a, I->src[f->args[a].src], it))
         return false;
   }
   return true;
}

/* The same operation on the other unit, when it has one and no operand
 * needs its own unit's selectors (zero, t); err is left as it was. */
static void
find_alt(struct bi_sched_ctx *c, const pan_ir_instr *I,
         const struct pan_ir_bi_form *f, struct bi_sched_item *it)
{
   if (bi_sched_is_msg(it) || it->fau_only >= 0 || it->target ||
       strchr(f->name, '#'))
      return;
   for (unsigned i = 0; i < it->nr_srcs; ++i) {
      if (it->srcs[i].kind == OPND_ZERO || it->srcs[i].kind == OPND_T)
         return;
   }
   struct bi_sched_item alt = *it;
   char saved = c->err[0];
   if (form_word(c, I, f, !f->unit, &alt)) {
      it->has_alt = true;
      it->alt_word = alt.word;
      it->alt_op = alt.op;
   }
   c->err[0] = saved;
}

/* The item of I's Bifrost form (not queued). */
static bool
form_item(struct bi_sched_ctx *c, const pan_ir_instr *I,
          const struct pan_ir_bi_form *f, struct bi_sched_item *out)
{
   struct bi_sched_item it = {
      .dest = NO_REG, .msg = f->msg, .staging = -1, .fau_only = -1
   };
   if (!form_word(c, I, f, f->unit, &it))
      return false;
   if (f->fau_src != 0xff) {
      pan_ir_index src = I->src[f->fau_src];
      it.fau_only =
         src.kind == PAN_IR_SPECIAL ? pan_bi_special_fau(src.value) : -1;
      if (it.fau_only < 0)
         return bi_sched_fail(c, "%s reads a FAU value that is not there",
                              bi_ops[it.op].name);
   }
   it.nr_srcs = f->nr_args;
   for (unsigned a = 0; a < f->nr_args; ++a) {
      struct bi_sched_opnd *o = &it.srcs[a];
      switch (f->args[a].kind) {
      case PAN_IR_BI_SRC: {
         pan_ir_index src = I->src[f->args[a].src];
         if (f->unit == 0 && src.kind == PAN_IR_IMM && src.value == 0 &&
             !src.neg && !src.abs)
            *o = (struct bi_sched_opnd){ OPND_ZERO, 0 };
         else if (f->unit == 0 && negated_zero(f, a, src, &it))
            *o = (struct bi_sched_opnd){ OPND_ZERO, 0 };
         else if (!opnd_of(c, src, f->args[a].word, o))
            return false;
         break;
      }
      case PAN_IR_BI_ZERO:
         *o = (struct bi_sched_opnd){ OPND_ZERO, 0 };
         break;
      case PAN_IR_BI_IMM:
         *o = (struct bi_sched_opnd){ OPND_CONST, I->imm };
         break;
      case PAN_IR_BI_OFFSET:
         *o = (struct bi_sched_opnd){ OPND_BRANCH, 0 };
         it.target = I->target;
         break;
      case PAN_IR_BI_REG_IMM:
         *o = (struct bi_sched_opnd){ OPND_REG, I->imm };
         break;
      }
   }
   if (f->staging == 1) {
      it.staging = c->regs[I->dest.value];
      it.staging_count = I->dest.comps;
   } else if (f->staging == 2) {
      if (I->src[0].kind != PAN_IR_SSA)
         return bi_sched_fail(c, "staging source is not a register%s", "");
      it.staging = c->regs[I->src[0].value] + I->src[0].comp;
      it.staging_count = I->src[0].comps;
   } else if (I->dest.kind == PAN_IR_SSA) {
      it.dest = c->regs[I->dest.value];
   }
   *out = it;
   return true;
}

static bool
emit_form(struct bi_sched_ctx *c, const pan_ir_instr *I)
{
   const struct pan_ir_bi_form *f = pan_bi_form(I);
   struct bi_sched_item it;
   if (!f) /* spilling, for one */
      return bi_sched_fail(c, "%s is unsupported on Bifrost",
                           pan_ir_op_infos[I->op].name);
   if (!form_item(c, I, f, &it))
      return false;
   /* A fragment shader's BLEND writes a blend shader's return value to
    * r48 (pan_bi_blend.c). */
   if (I->op == PAN_IR_OP_BLEND && !(I->imm & 0x200))
      it.dest = PAN_VA_BLEND_LINK_REG;
   find_alt(c, I, f, &it);
   return bi_sched_queue(c, &it);
}

/* A cubeface2: *CUBEFACE1 of its coordinates (result left unwritten) and
 * +CUBEFACE2 of that through t, one tuple. */
static bool
emit_cubeface2(struct bi_sched_ctx *c, const pan_ir_instr *I)
{
   struct bi_sched_item f = {
      .unit = 0, .dest = NO_REG, .nr_srcs = 3, .staging = -1, .fau_only = -1
   };
   struct bi_sched_item a = { .unit = 1,
                              .dest = c->regs[I->dest.value],
                              .nr_srcs = 1,
                              .staging = -1,
                              .fau_only = -1 };
   if (!pan_bi_encode_form("cubeface1", 0, NULL, 0, &f.word, &f.op, c->err,
                           c->err_size) ||
       !pan_bi_encode_form("cubeface2", 1, NULL, 0, &a.word, &a.op, c->err,
                           c->err_size))
      return false;
   for (unsigned k = 0; k < 3; ++k) {
      if (I->src[k].neg || I->src[k].abs)
         return bi_sched_fail(c, "cubeface of a negated source%s", "");
      if (!opnd_of(c, I->src[k], 0, &f.srcs[k]))
         return false;
   }
   a.srcs[0] = (struct bi_sched_opnd){ OPND_T, 0 };
   if (!bi_sched_flush(c))
      return false;
   const struct bi_sched_item *items[2] = { &f, &a };
   struct bi_sched_tuple t;
   if (c->cur.nr_tuples >= 8 || !bi_sched_after_msg_ok(&c->cur, &f) ||
       !bi_sched_after_msg_ok(&c->cur, &a) || !build_tuple(c, items, 2, &t)) {
      bi_sched_close_clause(c);
      if (!build_tuple(c, items, 2, &t))
         return bi_sched_fail(c, "cubeface does not fit a tuple%s", "");
   }
   c->cur.t[c->cur.nr_tuples++] = t;
   return true;
}

/* Sources first..first+n-1 of I into the words of its destination, which
 * the message reads and overwrites (TEXC, the atomics): those registers
 * are free before it, as the allocator keeps a result off its
 * instruction's sources and off every value live across it. */
static bool
stage_srcs(struct bi_sched_ctx *c, const pan_ir_instr *I, unsigned first,
           unsigned n)
{
   for (unsigned k = 0; k < n; ++k) {
      pan_ir_index src = I->src[first + k];
      int r = c->regs[I->dest.value] + k;
      if (!(src.kind == PAN_IR_SSA && !src.neg && !src.abs &&
            c->regs[src.value] + src.comp == r) &&
          !mov_item(c, r, src, 0))
         return false;
   }
   return true;
}

/*
 * An atomic (atomic, atom_c_return): *ATOM_C[_RETURN].i32 of the address
 * and the operand, in the first staging register, beside the message
 * +ATOM_CX of the staging register and the address, in the last tuple of
 * a clause.  ATOM_C takes the address from port 0/1 (or the FAU, or
 * forwarded), so the staging register gets port 2 when three are read.
 */
static bool
emit_atom_c(struct bi_sched_ctx *c, const pan_ir_instr *I)
{
   bool ret = I->op == PAN_IR_OP_ATOM_C_RETURN;
   struct bi_sched_item f, a = { .unit = 1, .dest = NO_REG, .nr_srcs = 3,
                                 .msg = "atomic", .fau_only = -1 };
   if (I->imm == PAN_IR_ATOMIC_XCHG)
      return bi_sched_fail(c, "an exchange without its result%s", "");
   if ((ret && !stage_srcs(c, I, 0, 1)) || !form_item(c, I, pan_bi_form(I), &f))
      return false;
   a.staging = f.staging;
   a.staging_count = ret ? 2 : 1;
   if (ret)
      f.srcs[f.nr_srcs++] = (struct bi_sched_opnd){ OPND_REG, a.staging };
   f.msg = "none";
   f.staging = -1;
   a.srcs[0] = f.srcs[2];
   a.srcs[1] = f.srcs[0];
   a.srcs[2] = f.srcs[1];
   if (!pan_bi_encode_form("atom_cx", 1, NULL, 0, &a.word, &a.op, c->err,
                           c->err_size) ||
       !bi_sched_flush(c))
      return false;
   const struct bi_sched_item *items[2] = { &f, &a };
   struct bi_sched_tuple t;
   bool ok;
   c->port2_reg = a.staging;
   if (c->cur.nr_tuples >= 8 || !bi_sched_after_msg_ok(&c->cur, &a) ||
       !build_tuple(c, items, 2, &t)) {
      bi_sched_close_clause(c);
      ok = build_tuple(c, items, 2, &t);
   } else {
      ok = true;
   }
   c->port2_reg = NO_REG;
   if (!ok)
      return bi_sched_fail(c, "atomic does not fit a tuple%s", "");
   c->cur.t[c->cur.nr_tuples++] = t;
   bi_sched_note_msg(c, &a);
   bi_sched_close_clause(c);
   return true;
}

/*
 * An image address (image_lea): +LEA_ATTR_TEX reads the secondary
 * attribute table unless the FMA half of its tuple selects another, so a
 * *DTSEL_IMM.attribute_1 of the image index goes beside it and the
 * message reads the index through t.  The message ends its clause.
 */
static bool
emit_image_lea(struct bi_sched_ctx *c, const pan_ir_instr *I)
{
   static const char *const table[][2] = { { "table", "attribute_1" } };
   struct bi_sched_item f = {
      .unit = 0, .dest = NO_REG, .nr_srcs = 1, .staging = -1, .fau_only = -1
   };
   struct bi_sched_item a;
   if (!form_item(c, I, pan_bi_form(I), &a) ||
       !pan_bi_encode_form("dtsel_imm", 0, table, 1, &f.word, &f.op, c->err,
                           c->err_size))
      return false;
   /* The units share the tuple's FAU index: a constant coordinate goes
    * through the result's registers, free before the message, and the
    * index is DTSEL's constant alone. */
   for (unsigned k = 0; k < 2; ++k) {
      if (a.srcs[k].kind == OPND_REG)
         continue;
      int r = c->regs[I->dest.value] + k;
      /* A run-time image index may sit in those registers. */
      if (a.srcs[2].kind == OPND_REG && a.srcs[2].value == (unsigned)r)
         return bi_sched_fail(c, "image index in the address's registers%s",
                              "");
      if (!mov_item(c, r, I->src[k], 0))
         return false;
      a.srcs[k] = (struct bi_sched_opnd){ OPND_REG, (unsigned)r };
   }
   if (!bi_sched_flush(c))
      return false;
   f.srcs[0] = a.srcs[2];
   a.srcs[2] = (struct bi_sched_opnd){ OPND_T, 0 };
   const struct bi_sched_item *items[2] = { &f, &a };
   struct bi_sched_tuple t;
   if (c->cur.nr_tuples >= 8 || !bi_sched_after_msg_ok(&c->cur, &a) ||
       !build_tuple(c, items, 2, &t)) {
      bi_sched_close_clause(c);
      if (!build_tuple(c, items, 2, &t))
         return bi_sched_fail(c, "image address does not fit a tuple%s", "");
   }
   c->cur.t[c->cur.nr_tuples++] = t;
   bi_sched_note_msg(c, &a);
   bi_sched_close_clause(c);
   return true;
}

static bool
in_place(const struct bi_sched_ctx *c, const pan_ir_instr *I, unsigned k)
{
   pan_ir_index src = I->src[k];
   return src.kind == PAN_IR_SSA && !src.neg && !src.abs &&
          c->regs[src.value] + src.comp == c->regs[I->dest.value] + k;
}

static bool
emit_instr(struct bi_sched_ctx *c, const pan_ir_instr *I)
{
   switch (I->op) {
   case PAN_IR_OP_COLLECT:
      for (unsigned k = 0; k < I->nr_srcs; ++k) {
         if (!in_place(c, I, k) &&
             !mov_item(c, c->regs[I->dest.value] + k, I->src[k], 0))
            return false;
      }
      return true;
   case PAN_IR_OP_MOV:
      return in_place(c, I, 0) ||
             mov_item(c, c->regs[I->dest.value], I->src[0], 0);
   case PAN_IR_OP_CUBEFACE2:
      return emit_cubeface2(c, I);
   case PAN_IR_OP_IMAGE_LEA:
   case PAN_IR_OP_IMAGE_LEA_IDX:
      return emit_image_lea(c, I);
   case PAN_IR_OP_TEXC:
      /* TEXC reads its staging words from the registers it writes. */
      return stage_srcs(c, I, 2, I->nr_srcs - 2) && emit_form(c, I);
   case PAN_IR_OP_TEXC_DUAL: {
      /* The descriptor names the second result's registers: the four
       * after the first's (one 8-word value). */
      pan_ir_instr dual = *I;
      dual.imm |= (unsigned)(c->regs[I->dest.value] + 4) << 12;
      return emit_form(c, &dual);
   }
   case PAN_IR_OP_ATOMIC:
   case PAN_IR_OP_ATOM_C_RETURN:
      return emit_atom_c(c, I);
   case PAN_IR_OP_AXCHG:
      return stage_srcs(c, I, 0, 1) && emit_form(c, I);
   case PAN_IR_OP_ACMPXCHG:
      return stage_srcs(c, I, 0, 2) && emit_form(c, I);
   case PAN_IR_OP_PRELOAD:
      if (c->regs[I->dest.value] == I->imm)
         return true;
      return emit_form(c, I);
   case PAN_IR_OP_PHI:
      return bi_sched_fail(c, "phi reached Bifrost emission%s", "");
   default:
      return emit_form(c, I);
   }
}

/* ---- packing ---- */

static void
header_set(uint64_t *h, const char *field, unsigned value)
{
   for (unsigned k = 0; k < bi_nr_header_fields; ++k) {
      const struct bi_header_field *f = &bi_header_fields[k];
      if (strcmp(f->name, field))
         continue;
      uint64_t mask = ((1ull << f->size) - 1) << f->start;
      *h = (*h & ~mask) | (((uint64_t)value << f->start) & mask);
   }
}

static unsigned
header_value(const char *field, const char *name)
{
   for (unsigned k = 0; k < bi_nr_header_fields; ++k) {
      const struct bi_header_field *f = &bi_header_fields[k];
      for (unsigned v = 0; !strcmp(f->name, field) && v < f->nr_values; ++v) {
         if (f->values[v] && !strcmp(f->values[v], name))
            return v;
      }
   }
   unreachable("no such header value");
}

/* Constants a clause of n tuples can hold (the layout's quadwords). */
static unsigned
const_capacity(unsigned n)
{
   return MIN2(bi_ec0_packed(n) + 2 * bi_const_quads_max(n), CLAUSE_CONSTS);
}

/* FAU index fau with clause constants a and b exchanged. */
static uint8_t
swap_const_fau(uint8_t fau, unsigned a, unsigned b)
{
   unsigned slot = fau & 0xf0;
   if (slot == const_fau(a))
      return (uint8_t)(const_fau(b) | (fau & 0xf));
   if (slot == const_fau(b))
      return (uint8_t)(const_fau(a) | (fau & 0xf));
   return fau;
}

/*
 * A constant quadword's two constants also encode a modifier in their top
 * 4 stored bits: (top(first) - top(second)) mod 16 from 1 to 7 makes the
 * hardware add the clause address to them (3 is reserved), 0 or 8-15
 * leaves them alone.  A pair landing in 1-7 is exchanged (the difference
 * becomes 9-15) along with the tuples' FAU indices; a padding second
 * constant (index real and up) takes the first's top bits instead.
 */
static void
order_const_pairs(struct bi_clause *bc, struct bi_sched_tuple *t, unsigned real)
{
   for (unsigned k = bi_ec0_packed(bc->nr_tuples); k + 1 < bc->nr_consts;
        k += 2) {
      uint64_t *c = &bc->consts[k];
      unsigned m = (unsigned)((c[0] >> 56) - (c[1] >> 56)) & 0xf;
      if (m == 0 || m >= 8)
         continue;
      if (k + 1 >= real) {
         c[1] = (c[1] & BITFIELD64_MASK(56)) | (c[0] & ~BITFIELD64_MASK(56));
         continue;
      }
      uint64_t tmp = c[0];
      c[0] = c[1];
      c[1] = tmp;
      for (unsigned i = 0; i < bc->nr_tuples; ++i)
         t[i].fau = swap_const_fau(t[i].fau, k, k + 1);
   }
}

/* The packer's clause: NOP tuples in front while the constants need a
 * longer layout, a zero constant to fill the layout's pairs. */
static bool
to_bi_clause(struct bi_sched_ctx *c, const struct bi_sched_clause *sc,
             bool last, const char *next_msg, struct bi_clause *bc)
{
   struct bi_sched_tuple t[8];
   unsigned pad = 0;
   while (sc->nr_consts > const_capacity(sc->nr_tuples + pad))
      pad++;
   unsigned n = sc->nr_tuples + pad;
   if (n > 8)
      return bi_sched_fail(c, "clause constants do not fit%s", "");
   for (unsigned i = 0; i < pad; ++i)
      t[i] = (struct bi_sched_tuple){ .read = { -1, -1, -1 } };
   memcpy(t + pad, sc->t, sc->nr_tuples * sizeof(t[0]));

   memset(bc, 0, sizeof(*bc));
   bc->nr_tuples = n;
   bc->nr_consts = sc->nr_consts;
   for (unsigned k = 0; k < sc->nr_consts; ++k)
      bc->consts[k] = sc->consts[k] >> 4;
   if (bi_ec0_packed(n) ? !(bc->nr_consts & 1) : (bc->nr_consts & 1))
      bc->consts[bc->nr_consts++] = 0;
   order_const_pairs(bc, t, sc->nr_consts);
   for (unsigned i = 0; i < n; ++i) {
      /* Block i writes the result of tuple i - 1 (the first block: the
       * last tuple's, at the end of the clause). */
      const struct bi_sched_tuple *w = &t[(i + n - 1) % n];
      struct bi_regblock rb = {
         .read = { t[i].read[0], t[i].read[1], t[i].read[2] },
         .fau = t[i].fau,
         .fma = { -1, BI_HALF_FULL },
         .add = { -1, BI_HALF_FULL },
         .spare = -1,
         .idle2 = -1,
         .idle3 = -1,
      };
      if (w->used[0] && w->u[0].dest >= 0)
         rb.fma.reg = (int8_t)w->u[0].dest;
      if (w->used[1] && w->u[1].dest >= 0)
         rb.add.reg = (int8_t)w->u[1].dest;
      if (bi_regs_encode(&rb, i == 0, &bc->tuples[i].regs, c->err, c->err_size))
         return false;
      bc->tuples[i].fma = t[i].used[0] ? t[i].u[0].word : pan_bi_nop(0);
      bc->tuples[i].add = t[i].used[1] ? t[i].u[1].word : pan_bi_nop(1);
   }
   uint64_t h = 0;
   header_set(&h, "flow", header_value("flow", last ? "end" : "nbtb"));
   header_set(&h, "msg", header_value("msg", sc->msg));
   header_set(&h, "next_msg", header_value("next_msg", next_msg));
   if (sc->staging >= 0)
      header_set(&h, "sr", (unsigned)sc->staging);
   /* A barrier goes on slot 7, which the next clause waits on; the clause
    * before it waited on slot 0, where every other message goes. */
   bool barrier = !strcmp(sc->msg, "barrier");
   if (barrier)
      header_set(&h, "slot", 7);
   if (c->any_msg)
      header_set(&h, "wait", barrier ? 0x81 : 1);
   bc->header = h;
   return true;
}

static bool
pack_all(struct bi_sched_ctx *c, uint64_t *out, unsigned max_quads,
         unsigned *quads, unsigned *addr)
{
   unsigned n = util_dynarray_num_elements(&c->clauses, struct bi_sched_clause);
   struct bi_sched_clause *cls = util_dynarray_begin(&c->clauses);
   unsigned q = 0;
   for (unsigned i = 0; i < n; ++i) {
      struct bi_clause bc;
      if (addr)
         addr[i] = q * 16;
      if (!to_bi_clause(c, &cls[i], i == n - 1,
                        i + 1 < n ? cls[i + 1].msg : "none", &bc))
         return false;
      uint64_t scratch[2 * 16];
      int got = out ? bi_pack_clause(&bc, out + 2 * q, max_quads - q)
                    : bi_pack_clause(&bc, scratch, 16);
      if (got < 0)
         return bi_sched_fail(c, "clause %s does not pack", "");
      q += (unsigned)got;
   }
   *quads = q;
   return true;
}

/*
 * A vector of consecutive preloaded registers (the position store's
 * address, r58-r59) is read where the hardware put it instead of being
 * copied: the allocator never hands out the preload registers, so they
 * hold their values throughout.
 */
static const uint8_t *
fuse_preloads(pan_ir_shader *s, const uint8_t *regs, void *mem_ctx)
{
   unsigned n = s->ssa_alloc;
   uint8_t *out = ralloc_array(mem_ctx, uint8_t, n + 1);
   int *reg = ralloc_array(mem_ctx, int, n + 1);
   uint8_t *defs = rzalloc_array(mem_ctx, uint8_t, n + 1);
   memcpy(out, regs, n + 1);
   memset(reg, 0xff, (n + 1) * sizeof(int));
   pan_ir_foreach_instr_global(s, b, I)
   {
      if (I->dest.kind != PAN_IR_SSA)
         continue;
      defs[I->dest.value] = MIN2(defs[I->dest.value] + 1, 2);
      if (I->op == PAN_IR_OP_PRELOAD && regs[I->dest.value] == I->imm)
         reg[I->dest.value] = (int)I->imm;
   }
   pan_ir_foreach_instr_global(s, b, I)
   {
      if (I->op != PAN_IR_OP_COLLECT || I->dest.kind != PAN_IR_SSA ||
          defs[I->dest.value] != 1)
         continue;
      int first = -1;
      for (unsigned k = 0; k < I->nr_srcs; ++k) {
         pan_ir_index src = I->src[k];
         int r = src.kind == PAN_IR_SSA && defs[src.value] == 1 && !src.neg &&
                       !src.abs && reg[src.value] >= 0
                    ? reg[src.value] + (int)src.comp
                    : -1;
         if (r < 0 || (k && r != first + (int)k)) {
            first = -1;
            break;
         }
         if (!k)
            first = r;
      }
      if (first >= 0)
         out[I->dest.value] = (uint8_t)first;
   }
   return out;
}

bool
pan_bi_emit(pan_ir_shader *s, const uint8_t *regs, void *mem_ctx,
            uint64_t **words, unsigned *nr_words, struct pan_bi_stats *stats,
            char *err, size_t err_size)
{
   void *tmp = ralloc_context(NULL);
   struct bi_sched_ctx c = {
      .regs = regs, .err = err, .err_size = err_size, .port2_reg = NO_REG
   };
   bool ok = false;
   err[0] = '\0';
   util_dynarray_init(&c.clauses, tmp);
   util_dynarray_init(&c.pending, tmp);
   clause_reset(&c.cur);
   c.block_clause = ralloc_array(tmp, int, s->nr_blocks);
   c.regs = fuse_preloads(s, regs, tmp);

   /* A block no branch reaches continues the clause it falls through
    * from; branch targets start clauses. */
   bool *targeted = rzalloc_array(tmp, bool, s->nr_blocks);
   pan_ir_foreach_block(s, b)
   {
      pan_ir_foreach_instr(b, I)
      {
         if (I->target)
            targeted[I->target->index] = true;
      }
   }
   pan_ir_foreach_block(s, b)
   {
      if (targeted[b->index])
         bi_sched_close_clause(&c);
      c.block_clause[b->index] =
         util_dynarray_num_elements(&c.clauses, struct bi_sched_clause);
      pan_ir_foreach_instr(b, I)
      {
         if (!emit_instr(&c, I))
            goto done;
      }
      if (!bi_sched_flush(&c))
         goto done;
   }
   bi_sched_close_clause(&c);
   unsigned n = util_dynarray_num_elements(&c.clauses, struct bi_sched_clause);
   /* Something must end the program, and be there for branches to the
    * end. */
   bool to_end = n == 0;
   util_dynarray_foreach(&c.clauses, struct bi_sched_clause, cl) to_end |=
      cl->target && c.block_clause[cl->target->index] == (int)n;
   if (to_end) {
      if (!place_nop(&c))
         goto done;
      bi_sched_close_clause(&c);
      n++;
   }

   /* Sizes do not depend on the branch distances: measure, patch, pack. */
   unsigned quads, *addr = ralloc_array(tmp, unsigned, n);
   if (!pack_all(&c, NULL, 0, &quads, addr))
      goto done;
   struct bi_sched_clause *cls = util_dynarray_begin(&c.clauses);
   for (unsigned i = 0; i < n; ++i) {
      if (cls[i].branch_const < 0)
         continue;
      int32_t d =
         (int32_t)addr[c.block_clause[cls[i].target->index]] - (int32_t)addr[i];
      cls[i].consts[cls[i].branch_const] = (uint64_t)(uint32_t)d << 32;
   }
   *words = ralloc_array(mem_ctx, uint64_t, 2 * quads);
   if (!pack_all(&c, *words, quads, &quads, NULL)) {
      ralloc_free(*words);
      *words = NULL;
      goto done;
   }
   *nr_words = 2 * quads;

   *stats = (struct pan_bi_stats){ .clauses = n, .quads = quads };
   for (unsigned i = 0; i < n; ++i) {
      stats->tuples += cls[i].nr_tuples;
      const char *m = cls[i].msg;
      if (strcmp(m, "none")) {
         stats->msg_tuples++;
         if (!strcmp(m, "tex") || !strcmp(m, "vartex"))
            stats->msg_tex++;
         else if (!strcmp(m, "varying"))
            stats->msg_vary++;
         else if (!strcmp(m, "load") || !strcmp(m, "store") ||
                  !strcmp(m, "attribute") || !strcmp(m, "atomic"))
            stats->msg_ldst++;
         /* Our varyings are f32: two halves a word.  A VAR_TEX
          * interpolates two f32 coordinates. */
         if (!strcmp(m, "varying"))
            stats->vary_halves += 2 * cls[i].staging_count;
         else if (!strcmp(m, "vartex"))
            stats->vary_halves += 4;
      }
      for (unsigned k = 0; k < cls[i].nr_tuples; ++k) {
         const struct bi_sched_tuple *tp = &cls[i].t[k];
         bool nop[2];
         for (unsigned u = 0; u < 2; ++u) {
            nop[u] = !tp->used[u] || tp->u[u].word == pan_bi_nop(u);
            stats->instrs += !nop[u];
            stats->nops += nop[u];
         }
         for (unsigned u = 0; u < 2; ++u) {
            if (tp->used[u] && bi_sched_is_msg(&tp->u[u]) && !nop[!u])
               stats->msg_arith_tuples++;
         }
      }
   }
   ok = true;
done:
   ralloc_free(tmp);
   return ok;
}
