/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Register allocation: each variable gets a whole 128-bit work register.
 * Liveness is tracked per 32-bit lane (partial writes from vector moves
 * kill only their lanes), variables interfere when one is written while
 * the other has a live lane, and a greedy colouring in definition order
 * takes the lowest free register.  Fewer registers mean more threads
 * (4 up to r3, 2 up to r7, else 1), so the lowest register always wins.
 * Work registers stop below the pushed uniforms (r23 - i) and at r15;
 * there is no spilling: a shader needing more is refused.
 *
 * Copies between variables (moves out of SSA, loop values) bias the
 * colouring: a variable takes the register of a coloured copy partner
 * when it is free, so the copy becomes a no-op that mid_coalesce.c drops.
 * The partner's register is already counted, so threads never suffer.
 *
 * On the small cores texture words write their result to work register r0
 * (mid_tex_aliasing), which the moves after it read as a fixed register:
 * variables live across that write, or written while the result is still
 * to be read, stay out of r0.  A result only its copy reads is written to
 * the copy's variable instead, in r0 or r1 (the word's result select),
 * when that costs no register.  On T860 a result needed past the next
 * lookup stays in the second result register, r28, one at a time.
 */

#include <assert.h>
#include <string.h>

#include "util/ralloc.h"
#include "util/u_dynarray.h"

#include "mid_ir.h"

/* The variables with a live lane, listed (interference visits them
 * only, not every variable); pos[v] is v's place in list or ~0. */
struct live_set {
   unsigned *list, *pos;
   unsigned nr;
};

struct ra {
   struct mid_shader *s;
   unsigned n;
   struct live_set *set; /* while interferences are collected */
   uint8_t *colour_mask; /* lanes ever written, per variable */
   /* Interferences as they are found: pairs (v, w), one per write of v
    * while w is live (repeats included); then, per variable v, its
    * neighbours adj[adj_off[v]] to adj[adj_off[v + 1] - 1]. */
   struct util_dynarray edges;
   unsigned *adj_off, *adj;
   struct util_dynarray *partners; /* copy partners, per variable */
   uint32_t *avoid;                /* registers refused, per variable */
   bool interfered;                /* collected by the liveness pass already */
};

/* Work registers an instruction reads as fixed registers. */
static uint32_t
hw_work_reads(const struct mid_instr *I)
{
   uint32_t m = 0;
   for (unsigned i = 0; i < I->nr_srcs; i++) {
      if (I->src[i].ref.kind == MID_REF_HW && I->src[i].ref.index < 16)
         m |= 1u << I->src[i].ref.index;
   }
   return m;
}

/* Lanes of a variable an instruction reads, by source. */
static void
add_uses(struct ra *ra, const struct mid_instr *I, uint8_t *live)
{
   for (unsigned i = 0; i < I->nr_srcs; i++) {
      const struct mid_src *src = &I->src[i];
      if (src->ref.kind != MID_REF_VAR)
         continue;
      unsigned lanes = 0;
      if (I->kind == MID_WRITEOUT) {
         lanes = ra->colour_mask[src->ref.index];
      } else {
         lanes = mid_src_lanes(I, src);
      }
      unsigned v = src->ref.index;
      live[v] |= lanes;
      if (ra->set && live[v] && ra->set->pos[v] == ~0u) {
         ra->set->pos[v] = ra->set->nr;
         ra->set->list[ra->set->nr++] = v;
      }
   }
}

static void
set_drop(struct live_set *set, unsigned v)
{
   unsigned k = set->pos[v];
   if (k == ~0u)
      return;
   unsigned last = set->list[--set->nr];
   set->list[k] = last;
   set->pos[last] = k;
   set->pos[v] = ~0u;
}

static struct mid_instr *
last_instr(struct mid_block *b)
{
   return list_is_empty(&b->instrs)
             ? NULL
             : list_last_entry(&b->instrs, struct mid_instr, link);
}

/* Successors from the branches at the end of each block. */
static void
compute_succs(struct mid_shader *s)
{
   mid_foreach_block(s, b)
   {
      struct mid_instr *last = last_instr(b);
      struct mid_block *next =
         b->link.next != &s->blocks
            ? list_entry(b->link.next, struct mid_block, link)
            : NULL;
      b->succ[0] = b->succ[1] = NULL;
      if (last && last->kind == MID_BRANCH) {
         b->succ[0] = last->target;
         if (last->cond != MID_COND_ALWAYS)
            b->succ[1] = next;
      } else {
         b->succ[0] = next;
      }
   }
}

static void
transfer(struct ra *ra, struct mid_block *b, uint8_t *live, bool interfere)
{
   /* Fixed work registers live after I (never across blocks: a texture
    * result is moved out in its block). */
   uint32_t hw_live = 0;
   struct live_set *set = interfere ? ra->set : NULL;
   if (set) {
      for (unsigned w = 0; w < ra->n; w++) {
         /* Eight dead variables at once (this runs per block and
          * allocation). */
         uint64_t eight = 1;
         if (!(w & 7) && w + 8 <= ra->n)
            memcpy(&eight, live + w, sizeof(eight));
         if (!eight) {
            w += 7;
            continue;
         }
         if (live[w]) {
            set->pos[w] = set->nr;
            set->list[set->nr++] = w;
         }
      }
   }
   list_for_each_entry_rev(struct mid_instr, I, &b->instrs, link)
   {
      if (interfere && I->dst.kind == MID_REF_HW && I->dst.index < 16) {
         for (unsigned k = 0; k < set->nr; k++)
            ra->avoid[set->list[k]] |= 1u << I->dst.index;
         hw_live &= ~(1u << I->dst.index);
      }
      if (interfere && I->dst.kind == MID_REF_VAR && !I->store)
         ra->avoid[I->dst.index] |= hw_live;
      hw_live |= hw_work_reads(I);
      /* A csel shares its bundle with the r31 feeder before it: the
       * feeder's sources must survive the csel's write. */
      if (I->link.prev != &b->instrs) {
         struct mid_instr *P = list_entry(I->link.prev, struct mid_instr, link);
         if (P->pair_next)
            add_uses(ra, P, live);
      }
      if (I->dst.kind == MID_REF_VAR && !I->store) {
         unsigned v = I->dst.index;
         unsigned *e =
            interfere ? util_dynarray_grow(&ra->edges, unsigned, 2 * set->nr)
                      : NULL;
         if (e) {
            unsigned ne = 0;
            for (unsigned k = 0; k < set->nr; k++) {
               unsigned w = set->list[k];
               if (w != v) {
                  e[ne++] = v;
                  e[ne++] = w;
               }
            }
            ra->edges.size -= (2 * set->nr - ne) * sizeof(unsigned);
         }
         live[v] &= ~I->mask;
         if (set && !live[v])
            set_drop(set, v);
      }
      add_uses(ra, I, live);
   }
   /* Empty the set for the next block. */
   while (set && set->nr)
      set_drop(set, set->list[set->nr - 1]);
}

/* The neighbour lists from the pairs, by counting (each pair is an
 * edge both ways). */
static void
build_adjacency(struct ra *ra, void *mem)
{
   const unsigned *e = ra->edges.data;
   unsigned ne = util_dynarray_num_elements(&ra->edges, unsigned);
   unsigned *off = rzalloc_array(mem, unsigned, ra->n + 2);
   for (unsigned i = 0; i < ne; i++)
      off[e[i] + 2]++;
   for (unsigned v = 0; v < ra->n; v++)
      off[v + 2] += off[v + 1];
   unsigned *adj = ralloc_array(mem, unsigned, MAX2(ne, 1));
   for (unsigned i = 0; i < ne; i += 2) {
      adj[off[e[i] + 1]++] = e[i + 1];
      adj[off[e[i + 1] + 1]++] = e[i];
   }
   ra->adj_off = off;
   ra->adj = adj;
}

static void
colour_masks(struct mid_shader *s, uint8_t *mask)
{
   mid_foreach_block(s, b)
   {
      mid_foreach_instr(b, I)
      {
         if (I->dst.kind == MID_REF_VAR && !I->store)
            mask[I->dst.index] |= I->mask;
      }
   }
}

static void
copy_partners(struct ra *ra)
{
   mid_foreach_block(ra->s, b)
   {
      mid_foreach_instr(b, I)
      {
         if (!mid_is_var_copy(I) || I->dst.index == I->src[1].ref.index)
            continue;
         unsigned d = I->dst.index, v = I->src[1].ref.index;
         util_dynarray_append(&ra->partners[d], unsigned, v);
         util_dynarray_append(&ra->partners[v], unsigned, d);
      }
   }
}

void
mid_live_out(const struct mid_shader *s, const uint8_t *live_in,
             const struct mid_block *b, uint8_t *live)
{
   unsigned n = s->nr_vars;
   memset(live, 0, n);
   for (unsigned k = 0; k < 2; k++) {
      if (!b->succ[k])
         continue;
      const uint8_t *in = live_in + (size_t)b->succ[k]->index * n;
      /* Eight variables at a time: this runs per block and pass. */
      unsigned v = 0;
      for (; v + 8 <= n; v += 8) {
         uint64_t a, c;
         memcpy(&a, live + v, 8);
         memcpy(&c, in + v, 8);
         a |= c;
         memcpy(live + v, &a, 8);
      }
      for (; v < n; v++)
         live[v] |= in[v];
   }
}

/* Whether every branch goes forward (or falls through): then one pass
 * from the last block reaches the fixed point, each block's successors
 * being final before it. */
static bool
forward_only(struct mid_block **blocks, unsigned nb)
{
   for (unsigned bi = 0; bi < nb; bi++) {
      for (unsigned k = 0; k < 2; k++) {
         if (blocks[bi]->succ[k] && blocks[bi]->succ[k]->index <= bi)
            return false;
      }
   }
   return true;
}

/* Backward dataflow to a fixed point over per-lane live-in sets, in the
 * blocks' current instruction order.  With ra->set (allocation) and no
 * back edge, the one pass also collects the interferences (the sets it
 * sees are final) and notes it in ra->interfered. */
static uint8_t *
live_ins(struct ra *ra, void *mem)
{
   struct mid_shader *s = ra->s;
   unsigned n = ra->n, nb = s->nr_blocks;
   struct mid_block **blocks = ralloc_array(mem, struct mid_block *, nb);
   mid_foreach_block(s, b)
   {
      blocks[b->index] = b;
   }
   compute_succs(s);
   bool once = forward_only(blocks, nb);
   struct live_set *set = ra->set;
   ra->interfered = once && set;
   ra->set = ra->interfered ? set : NULL;

   uint8_t *live_in = rzalloc_array(mem, uint8_t, (size_t)n * nb);
   uint8_t *live = ralloc_array(mem, uint8_t, n);
   bool progress = true;
   while (progress) {
      progress = false;
      for (int bi = nb - 1; bi >= 0; bi--) {
         struct mid_block *b = blocks[bi];
         mid_live_out(s, live_in, b, live);
         transfer(ra, b, live, ra->interfered);
         uint8_t *in = live_in + (size_t)bi * n;
         if (memcmp(in, live, n)) {
            memcpy(in, live, n);
            progress = true;
         }
      }
      progress &= !once;
   }
   ra->set = set;
   return live_in;
}

uint8_t *
mid_live_in(struct mid_shader *s, void *mem)
{
   struct ra ra = { .s = s, .n = s->nr_vars };
   ra.colour_mask = rzalloc_array(mem, uint8_t, ra.n ? ra.n : 1);
   colour_masks(s, ra.colour_mask);
   return live_ins(&ra, mem);
}

/* A texture word of the small cores and the copy that alone reads its
 * result (r0): the word may write the copy's variable itself, in r0 or
 * r1 (its result select), the copy becoming a no-op. */
struct tex_merge {
   struct mid_instr *T, *M;
   uint8_t mask;
};

static bool
identity_copy_of(const struct mid_instr *M, unsigned r)
{
   if (!mid_is_plain_move(M) || M->store || M->dst.kind != MID_REF_VAR ||
       M->src[1].ref.kind != MID_REF_HW || M->src[1].ref.index != r)
      return false;
   for (unsigned l = 0; l < 4; l++) {
      if ((M->mask & (1u << l)) && M->src[1].swz[l] != l)
         return false;
   }
   return true;
}

/* In bundle order: the copy must be the first instruction after the
 * word to touch r0, and the only one to read it before r0 is written
 * again or the block ends. */
static unsigned
find_tex_merges(struct mid_shader *s, struct tex_merge *out, unsigned max)
{
   unsigned r = s->tex_out, n = 0;
   mid_foreach_block(s, b)
   {
      mid_foreach_instr(b, T)
      {
         if (T->kind != MID_TEX || T->dst.kind != MID_REF_HW ||
             T->dst.index != r || n == max)
            continue;
         struct mid_instr *M = NULL;
         bool ok = true;
         for (struct list_head *l = T->link.next; l != &b->instrs && ok;
              l = l->next) {
            struct mid_instr *I = list_entry(l, struct mid_instr, link);
            bool reads = hw_work_reads(I) & (1u << r);
            bool writes =
               !I->store && I->dst.kind == MID_REF_HW && I->dst.index == r;
            if (!M) {
               if (reads && identity_copy_of(I, r) && !writes)
                  M = I;
               else if (reads || writes || I->kind == MID_WRITEOUT)
                  ok = false;
               continue;
            }
            if (reads)
               ok = false;
            if (writes || I->kind == MID_WRITEOUT)
               break;
         }
         if (ok && M)
            out[n++] = (struct tex_merge){ T, M, T->mask };
      }
   }
   return n;
}

static void
apply_tex_merges(struct mid_shader *s, struct tex_merge *m, unsigned n, bool on)
{
   for (unsigned i = 0; i < n; i++) {
      if (on) {
         m[i].T->dst = m[i].M->dst;
         m[i].T->mask = m[i].M->mask;
         m[i].M->src[1].ref = m[i].M->dst;
      } else {
         m[i].T->dst = mid_hw(s->tex_out);
         m[i].T->mask = m[i].mask;
         m[i].M->src[1].ref = mid_hw(s->tex_out);
      }
   }
}

/* One allocation; with merges, their variables are coloured first, in
 * r0 or r1 only (false when one finds neither free). */
static bool
ra_once(struct mid_shader *s, const struct tex_merge *merges, unsigned nm,
        const struct util_dynarray *fixed, bool *merge_failed)
{
   void *mem = ralloc_context(NULL);
   struct ra ra = { .s = s, .n = s->nr_vars };
   unsigned n = ra.n, nb = s->nr_blocks;
   ra.colour_mask = rzalloc_array(mem, uint8_t, n);
   util_dynarray_init(&ra.edges, mem);
   ra.partners = rzalloc_array(mem, struct util_dynarray, n);
   ra.avoid = rzalloc_array(mem, uint32_t, n ? n : 1);
   for (unsigned i = 0; i < n; i++)
      util_dynarray_init(&ra.partners[i], mem);
   colour_masks(s, ra.colour_mask);
   copy_partners(&ra);

   struct mid_block **blocks = ralloc_array(mem, struct mid_block *, nb);
   mid_foreach_block(s, b)
   {
      blocks[b->index] = b;
   }
   struct live_set set = {
      .list = ralloc_array(mem, unsigned, n ? n : 1),
      .pos = ralloc_array(mem, unsigned, n ? n : 1),
   };
   memset(set.pos, 0xff, (n ? n : 1) * sizeof(unsigned));
   ra.set = &set;
   uint8_t *live_in = live_ins(&ra, mem);
   uint8_t *live = ralloc_array(mem, uint8_t, n ? n : 1);

   /* With loops, the interferences once the live-ins are final. */
   for (unsigned bi = 0; bi < nb && !ra.interfered; bi++) {
      struct mid_block *b = blocks[bi];
      mid_live_out(s, live_in, b, live);
      transfer(&ra, b, live, true);
   }
   build_adjacency(&ra, mem);

   unsigned limit = MIN2(16, 24 - s->nr_push);
   s->reg_of = ralloc_array(s->mem, int, n);
   for (unsigned v = 0; v < n; v++)
      s->reg_of[v] = -1;
   s->work_regs = 0;
   /* Results kept in the second texture result register (r28). */
   if (fixed) {
      util_dynarray_foreach(fixed, unsigned, v) s->reg_of[*v] = s->tex_out - 1;
   }

   /* The writeout bundles write r1.w for the blend unit (and r1.x with
    * the depth) before the second copy of the colour and depth: neither
    * may live in r1.  The depth is read by smul, after vmul wrote the
    * colour to r0: it may not live in r0 either.  The colours of the
    * later render targets live across the earlier writeouts, which set
    * r0 and r1 and may run a blend shader that uses r0-r3. */
   uint32_t *avoid = ra.avoid;
   bool later = false;
   mid_foreach_block(s, b)
   {
      mid_foreach_instr(b, I)
      {
         if (I->kind != MID_WRITEOUT)
            continue;
         for (unsigned i = 0; i < I->nr_srcs; i++) {
            if (I->src[i].ref.kind == MID_REF_VAR)
               avoid[I->src[i].ref.index] |= later ? 0xf : i ? 0x3 : 0x2;
         }
         later = true;
      }
   }

   bool ok = true;
   for (unsigned i = 0; i < nm; i++) {
      unsigned v = merges[i].M->dst.index;
      if (s->reg_of[v] >= 0)
         continue;
      uint32_t used = avoid[v];
      for (unsigned k = ra.adj_off[v]; k < ra.adj_off[v + 1]; k++) {
         if (s->reg_of[ra.adj[k]] >= 0)
            used |= 1u << s->reg_of[ra.adj[k]];
      }
      if ((used & 0x3) == 0x3) {
         *merge_failed = true;
         goto out;
      }
      s->reg_of[v] = ffs(~used) - 1;
      s->work_regs = MAX2(s->work_regs, s->reg_of[v] + 1);
   }
   mid_foreach_block(s, b)
   {
      mid_foreach_instr(b, I)
      {
         if (I->dst.kind != MID_REF_VAR || I->store ||
             s->reg_of[I->dst.index] >= 0)
            continue;
         unsigned v = I->dst.index;
         uint32_t used = avoid[v];
         for (unsigned k = ra.adj_off[v]; k < ra.adj_off[v + 1]; k++) {
            if (s->reg_of[ra.adj[k]] >= 0)
               used |= 1u << s->reg_of[ra.adj[k]];
         }
         unsigned r = ffs(~used) - 1;
         util_dynarray_foreach(&ra.partners[v], unsigned, p)
         {
            /* Not a partner kept in r28: no work register (the
             * allocation failed as out of registers). */
            int pr = s->reg_of[*p];
            if (pr >= 0 && pr < (int)limit && !(used & (1u << pr))) {
               r = pr;
               break;
            }
         }
         if (r >= limit) {
            s->ra_failed = true;
            ok = mid_error(s,
                           "needs more than %u work registers (spilling is "
                           "not supported)",
                           limit);
            goto out;
         }
         s->reg_of[v] = r;
         s->work_regs = MAX2(s->work_regs, r + 1);
      }
   }

   /* A variable read but never written (undefined) gets any register. */
   mid_foreach_block(s, b)
   {
      mid_foreach_instr(b, I)
      {
         for (unsigned i = 0; i < I->nr_srcs; i++) {
            if (I->src[i].ref.kind == MID_REF_VAR &&
                s->reg_of[I->src[i].ref.index] < 0)
               s->reg_of[I->src[i].ref.index] = 0;
         }
      }
   }
out:
   ralloc_free(mem);
   return ok;
}

/* T860 has two texture result registers, r28 and r29 (the word's result
 * select), apart from the input pair that ALU and load words write under
 * the same numbers.  Our words write r29, so a result needed past the next
 * lookup is copied out to a work register.  Instead one such result at a
 * time may stay where its word writes it, in r28, which nothing else
 * writes: the word writes the copy's variable, coloured r28 (its copy a
 * no-op), and its readers, the result's direct ones included, read r28,
 * as the stock code keeps two results live in r28 and r29.  Each span
 * runs from the word to the last reader; spans are taken by their end,
 * so the most fit. */
struct tex_keep {
   struct mid_instr *T, *M;
   /* Instruction positions in the block: the word, the copy, the last
    * reader. */
   unsigned start, copy, end;
   /* A lane group (nr > 0, T and M unused): up to four words, each
    * copying one component of its result (comp) into lane `lane` of one
    * variable, as shadow lookups gathered into a vector. */
   unsigned nr, gain;
   struct mid_instr *Ts[4], *Ms[4];
   uint8_t lane[4], comp[4];
};

/* The next texture result in r29 is read by ALU words alone up to the
 * next write of r29, within its block unless no other block reads r29. */
static bool
tex_keep_span(struct mid_shader *s, struct mid_block *b, struct mid_instr *T,
              unsigned pos, const unsigned *writers, const int *read_block,
              bool r29_elsewhere, struct tex_keep *out)
{
   const unsigned r = s->tex_out;
   struct mid_instr *M = NULL;
   unsigned end = pos, i = pos, copy = pos;
   bool closed = false;
   list_for_each_entry_from(struct mid_instr, I, T->link.next, &b->instrs, link)
   {
      /* Past the next write of r29 only the copy's readers matter. */
      if (closed && !M)
         return false;
      i++;
      if (closed || !(mid_hw_reads(I) & (1u << r))) {
         if (mid_writes_hw(I, r))
            closed = true;
         if (M) {
            for (unsigned k = 0; k < I->nr_srcs; k++) {
               if (I->src[k].ref.kind == MID_REF_VAR &&
                   I->src[k].ref.index == M->dst.index) {
                  if (I->kind != MID_ALU)
                     return false;
                  end = i;
               }
            }
         }
         continue;
      }
      if (I->kind != MID_ALU || mid_writes_hw(I, r))
         return false;
      if (!M && identity_copy_of(I, r) && writers[I->dst.index] == 1 &&
          read_block[I->dst.index] == (int)b->index) {
         M = I;
         copy = i;
      }
      end = i;
   }
   if (!closed && r29_elsewhere)
      return false;
   if (!M)
      return false;
   /* A reader of the copy before it would read another iteration's. */
   list_for_each_entry(struct mid_instr, I, &b->instrs, link)
   {
      if (I == M)
         break;
      for (unsigned k = 0; k < I->nr_srcs; k++) {
         if (I->src[k].ref.kind == MID_REF_VAR &&
             I->src[k].ref.index == M->dst.index)
            return false;
      }
   }
   *out = (struct tex_keep){ T, M, pos, copy, end };
   return true;
}

/* A plain move of one component of result register r into one lane of a
 * variable: its lane, and the component in *comp. */
static int
lane_copy_of(const struct mid_instr *M, unsigned r, unsigned *comp)
{
   if (!mid_is_plain_move(M) || M->store || M->dst.kind != MID_REF_VAR ||
       M->src[1].ref.kind != MID_REF_HW || M->src[1].ref.index != r ||
       util_bitcount(M->mask) != 1)
      return -1;
   int l = ffs(M->mask) - 1;
   *comp = M->src[1].swz[l];
   return l;
}

/* Lane groups of block b: a variable whose every write is a lane copy out
 * of r29, each of a different word's result, none of whose other readers
 * (up to the next write of r29) reads another component.  The words then
 * write their component straight into the variable's lane, the variable
 * in r28 (the stock code gathers four shadow lookups in TA0.x-w). */
static unsigned
tex_lane_groups(struct mid_shader *s, struct mid_block *b,
                const unsigned *writers, const int *read_block,
                bool r29_elsewhere, struct tex_keep *out, void *mem)
{
   const unsigned r = s->tex_out;
   unsigned nr = 0;
   mid_foreach_instr(b, I) nr++;
   struct mid_instr **at = ralloc_array(mem, struct mid_instr *, nr + 1);
   unsigned i = 0;
   mid_foreach_instr(b, I) at[i++] = I;
   unsigned n = 0;
   for (unsigned w = 0; w < nr; w++) {
      struct mid_instr *T = at[w];
      if (T->kind != MID_TEX || !mid_writes_hw(T, r))
         continue;
      /* The word's readers up to the next write of r29: one lane copy,
       * everything else ALU reading the copied component. */
      struct mid_instr *M = NULL;
      unsigned comp = 0, mpos = 0, k = w + 1;
      bool ok = true, closed = false;
      for (; k < nr && ok && !closed; k++) {
         struct mid_instr *I = at[k];
         if (mid_hw_reads(I) & (1u << r)) {
            unsigned c = 0;
            int l = lane_copy_of(I, r, &c);
            if (I->kind != MID_ALU || mid_writes_hw(I, r))
               ok = false;
            else if (l >= 0 && !M && I->dst.kind == MID_REF_VAR) {
               M = I;
               comp = c;
               mpos = k;
            }
         }
         if (mid_writes_hw(I, r))
            closed = true;
      }
      if (!ok || !M || (!closed && r29_elsewhere))
         continue;
      /* Every reader takes the copied component only. */
      for (unsigned q = w + 1; q < k && ok; q++) {
         struct mid_instr *I = at[q];
         for (unsigned j = 0; j < I->nr_srcs; j++) {
            const struct mid_src *src = &I->src[j];
            if (src->ref.kind != MID_REF_HW || src->ref.index != r)
               continue;
            for (unsigned ln = 0; ln < 4; ln++) {
               if ((mid_src_lanes(I, src) & (1u << ln)) && src->swz[ln] != comp)
                  ok = false;
            }
         }
      }
      if (!ok)
         continue;
      unsigned v = M->dst.index;
      if (read_block[v] != (int)b->index || writers[v] > 4)
         continue;
      /* Join the group of v, or start one. */
      struct tex_keep *g = NULL;
      for (unsigned j = 0; j < n; j++) {
         if (out[j].Ms[0]->dst.index == v)
            g = &out[j];
      }
      if (!g) {
         g = &out[n++];
         *g = (struct tex_keep){ .start = w, .copy = mpos };
      }
      if (g->nr > 4)
         continue;
      unsigned l = ffs(M->mask) - 1;
      bool taken = false;
      for (unsigned j = 0; j < g->nr; j++)
         taken |= g->lane[j] == l;
      if (taken || g->nr == 4) {
         g->nr = 5; /* not a group */
         continue;
      }
      g->Ts[g->nr] = T;
      g->Ms[g->nr] = M;
      g->lane[g->nr] = l;
      g->comp[g->nr] = comp;
      g->nr++;
   }
   /* Keep the groups that hold every write of their variable, read by
    * ALU words alone, none before the group's first copy. */
   unsigned kept = 0;
   for (unsigned j = 0; j < n; j++) {
      struct tex_keep *g = &out[j];
      unsigned v = g->Ms[0]->dst.index;
      if (g->nr > 4 || writers[v] != g->nr)
         continue;
      bool ok = true;
      unsigned end = g->copy, first_copy = nr;
      for (unsigned k = 0; k < nr; k++) {
         for (unsigned q = 0; q < g->nr; q++) {
            if (at[k] == g->Ms[q])
               first_copy = MIN2(first_copy, k);
         }
      }
      for (unsigned k = 0; k < nr && ok; k++) {
         struct mid_instr *I = at[k];
         for (unsigned q = 0; q < I->nr_srcs; q++) {
            if (I->src[q].ref.kind != MID_REF_VAR || I->src[q].ref.index != v)
               continue;
            if (I->kind != MID_ALU || k < first_copy)
               ok = false;
            end = MAX2(end, k);
         }
      }
      if (!ok)
         continue;
      g->end = end;
      g->copy = first_copy;
      g->gain = 0;
      for (unsigned q = 0; q < g->nr; q++)
         g->gain += end - first_copy + 1;
      out[kept++] = *g;
   }
   return kept;
}

/* Word q of lane group t writes its component into its lane of the
 * group's variable (in r28); its readers up to the next write of r29 read
 * that lane, its copy becomes a move of the lane onto itself. */
static void
keep_tex_lane(struct mid_shader *s, struct mid_block *b, struct tex_keep *t,
              unsigned q)
{
   const unsigned r = s->tex_out;
   struct mid_instr *T = t->Ts[q];
   unsigned l = t->lane[q], c = t->comp[q];
   list_for_each_entry_from(struct mid_instr, I, T->link.next, &b->instrs, link)
   {
      if (mid_writes_hw(I, r))
         break;
      for (unsigned j = 0; j < I->nr_srcs; j++) {
         struct mid_src *src = &I->src[j];
         if (src->ref.kind != MID_REF_HW || src->ref.index != r)
            continue;
         src->ref = t->Ms[q]->dst;
         for (unsigned ln = 0; ln < 4; ln++)
            src->swz[ln] = l;
      }
   }
   T->dst = t->Ms[q]->dst;
   T->mask = 1u << l;
   T->tex.outswz_set = true;
   for (unsigned ln = 0; ln < 4; ln++)
      T->tex.outswz[ln] = ln == l ? c : ln;
}

/* Whether some instruction reads r28 as a source (the result register:
 * only the kept results). */
static bool
reads_src(const struct mid_instr *I, unsigned r)
{
   for (unsigned k = 0; k < I->nr_srcs; k++) {
      if (I->src[k].ref.kind == MID_REF_HW && I->src[k].ref.index == r)
         return true;
   }
   return false;
}

/* The variables of the results kept in r28 (fixed); with apply, their
 * words and readers rewritten. */
static void
keep_tex_results(struct mid_shader *s, struct util_dynarray *fixed, bool apply)
{
   const unsigned r = s->tex_out, n = s->nr_vars;
   unsigned *writers = rzalloc_array(NULL, unsigned, n ? n : 1);
   int *read_block = ralloc_array(writers, int, n ? n : 1);
   for (unsigned v = 0; v < n; v++)
      read_block[v] = -1;
   /* Blocks whose ALU or load/store words read r29 before a texture word
    * of their own writes it: a result live into them from another block. */
   bool *r29_in = rzalloc_array(writers, bool, s->nr_blocks + 1);
   unsigned r29_blocks = 0;
   mid_foreach_block(s, b)
   {
      bool r29 = false, r29_written = false;
      mid_foreach_instr(b, I)
      {
         if (I->dst.kind == MID_REF_VAR && !I->store)
            writers[I->dst.index]++;
         for (unsigned k = 0; k < I->nr_srcs; k++) {
            if (I->src[k].ref.kind != MID_REF_VAR)
               continue;
            int *rb = &read_block[I->src[k].ref.index];
            *rb = *rb == -1 || *rb == (int)b->index ? (int)b->index : -2;
         }
         r29 |=
            !r29_written && I->kind != MID_TEX && (mid_hw_reads(I) & (1u << r));
         r29_written |= I->kind == MID_TEX && mid_writes_hw(I, r);
      }
      r29_in[b->index] = r29;
      r29_blocks += r29;
   }
   mid_foreach_block(s, b)
   {
      unsigned nr = 0, pos = 0;
      mid_foreach_instr(b, I) nr++;
      struct tex_keep *c = ralloc_array(writers, struct tex_keep, 2 * nr + 1);
      unsigned nc = 0;
      bool r28_read = false;
      mid_foreach_instr(b, I)
      {
         r28_read |= reads_src(I, r - 1);
         if (I->kind == MID_TEX && mid_writes_hw(I, r) &&
             tex_keep_span(s, b, I, pos, writers, read_block,
                           r29_blocks > r29_in[b->index], &c[nc])) {
            c[nc].nr = 0;
            c[nc].gain = c[nc].end - c[nc].copy;
            nc++;
         }
         pos++;
      }
      if (r28_read)
         continue;
      nc += tex_lane_groups(s, b, writers, read_block,
                            r29_blocks > r29_in[b->index], &c[nc], writers);
      /* The spans that save the most: the longest copies in all, spans
       * apart (weighted interval scheduling over the spans by end). */
      for (unsigned i = 1; i < nc; i++) {
         struct tex_keep x = c[i];
         unsigned j = i;
         for (; j > 0 && c[j - 1].end > x.end; j--)
            c[j] = c[j - 1];
         c[j] = x;
      }
      unsigned *gain = rzalloc_array(writers, unsigned, nc + 1);
      int *prev = ralloc_array(writers, int, nc + 1);
      for (unsigned k = 0; k < nc; k++) {
         int p = (int)k - 1;
         while (p >= 0 && c[p].end >= c[k].start)
            p--;
         prev[k] = p;
         unsigned with = c[k].gain + (p >= 0 ? gain[p + 1] : 0);
         gain[k + 1] = MAX2(gain[k], with);
      }
      for (int k = (int)nc - 1; k >= 0;) {
         unsigned with = c[k].gain + (prev[k] >= 0 ? gain[prev[k] + 1] : 0);
         if (gain[k + 1] != with || (k && gain[k] == with)) {
            k--;
            continue;
         }
         struct tex_keep *t = &c[k];
         if (t->nr) {
            if (apply) {
               for (unsigned q = 0; q < t->nr; q++)
                  keep_tex_lane(s, b, t, q);
            }
            util_dynarray_append(fixed, unsigned, t->Ms[0]->dst.index);
            k = prev[k];
            continue;
         }
         /* The result's readers up to the next write of r29 read v. */
         list_for_each_entry_from(struct mid_instr, I, t->T->link.next,
                                  &b->instrs, link)
         {
            if (!apply || mid_writes_hw(I, r))
               break;
            for (unsigned j = 0; j < I->nr_srcs; j++) {
               if (I->src[j].ref.kind == MID_REF_HW && I->src[j].ref.index == r)
                  I->src[j].ref = t->M->dst;
            }
         }
         if (apply)
            t->T->dst = t->M->dst;
         util_dynarray_append(fixed, unsigned, t->M->dst.index);
         k = prev[k];
      }
   }
   ralloc_free(writers);
}

/* A result copied out whose other ALU readers after the copy read it in
 * r29: they read the copy instead (its lanes widened), so that the
 * scheduler need not place them before the next lookup (a colour's alpha
 * taken from the first result, read at the writeout: the copy, kept in
 * r28, costs no register, where a value computed early holds one). */
static void
read_copies(struct mid_shader *s, struct mid_block *b, struct mid_instr *T,
            const unsigned *writers)
{
   const unsigned r = s->tex_out;
   struct mid_instr *M = NULL;
   list_for_each_entry_from(struct mid_instr, I, T->link.next, &b->instrs, link)
   {
      if (mid_writes_hw(I, r))
         break;
      if (!(mid_hw_reads(I) & (1u << r)))
         continue;
      if (I->kind != MID_ALU)
         return;
      if (!M) {
         if (identity_copy_of(I, r) && writers[I->dst.index] == 1)
            M = I;
         continue;
      }
      for (unsigned k = 0; k < I->nr_srcs; k++) {
         struct mid_src *src = &I->src[k];
         if (src->ref.kind != MID_REF_HW || src->ref.index != r)
            continue;
         unsigned lanes = mid_src_lanes(I, src);
         u_foreach_bit (l, lanes & ~M->mask)
            M->src[1].swz[l] = l;
         M->mask |= lanes;
         src->ref = M->dst;
      }
   }
}

bool
mid_ra_keep_tex_copies(struct mid_shader *s)
{
   if (s->tex_out < 16)
      return false;
   unsigned *writers = rzalloc_array(NULL, unsigned, MAX2(s->nr_vars, 1));
   mid_foreach_block(s, b)
   {
      mid_foreach_instr(b, I)
      {
         if (I->dst.kind == MID_REF_VAR && !I->store)
            writers[I->dst.index]++;
      }
   }
   mid_foreach_block(s, b)
   {
      mid_foreach_instr(b, I)
      {
         if (identity_copy_of(I, s->tex_out))
            s->keep_tex_copies = true;
         if (I->kind == MID_TEX && mid_writes_hw(I, s->tex_out))
            read_copies(s, b, I, writers);
      }
   }
   ralloc_free(writers);
   return s->keep_tex_copies;
}

void
mid_ra_kept_tex_copies(struct mid_shader *s, struct util_dynarray *vars)
{
   if (s->tex_out >= 16 && s->nr_tex)
      keep_tex_results(s, vars, false);
}

/* On the small cores a texture result copied out of r0 would rather be
 * written where its copy goes, r0 or r1, as the stock code does: fewer
 * copies, and two results can be live at once.  Colouring those
 * variables first may cost registers elsewhere, so the merges are taken
 * one by one, each kept when the allocation still needs no more work
 * registers than without any. */
bool
mid_ra(struct mid_shader *s)
{
   bool merge_failed = false;
   if (s->tex_out >= 16 && s->nr_tex) {
      struct util_dynarray fixed;
      util_dynarray_init(&fixed, NULL);
      keep_tex_results(s, &fixed, true);
      bool ok = ra_once(s, NULL, 0, &fixed, &merge_failed);
      util_dynarray_fini(&fixed);
      return ok;
   }
   if (s->tex_out >= 16 || !s->nr_tex)
      return ra_once(s, NULL, 0, NULL, &merge_failed);
   unsigned max = 0;
   mid_foreach_block(s, b)
   {
      mid_foreach_instr(b, I) max += I->kind == MID_TEX;
   }
   struct tex_merge *m = ralloc_array(NULL, struct tex_merge, MAX2(max, 1));
   unsigned nm = find_tex_merges(s, m, max);
   bool ok = ra_once(s, NULL, 0, NULL, &merge_failed);
   if (!ok || !nm) {
      ralloc_free(m);
      return ok;
   }
   unsigned plain_regs = s->work_regs;
   unsigned kept = 0;
   /* The allocation of the merges kept so far (each reg_of is a new
    * array): allocating them again at the end would give it back. */
   int *kept_reg_of = s->reg_of;
   unsigned kept_regs = s->work_regs;
   for (unsigned i = 0; i < nm; i++) {
      struct tex_merge t = m[i];
      m[i] = m[kept];
      m[kept] = t;
      apply_tex_merges(s, &m[kept], 1, true);
      merge_failed = false;
      if (ra_once(s, m, kept + 1, NULL, &merge_failed) && !merge_failed &&
          s->work_regs <= plain_regs) {
         kept++;
         kept_reg_of = s->reg_of;
         kept_regs = s->work_regs;
         continue;
      }
      s->failed = s->ra_failed = false;
      apply_tex_merges(s, &m[kept], 1, false);
   }
   s->reg_of = kept_reg_of;
   s->work_regs = kept_regs;
   ralloc_free(m);
   return true;
}
