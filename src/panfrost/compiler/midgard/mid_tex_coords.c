/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Texture coordinates loaded into the texture input register.  The front
 * end moves each lookup's coordinates into the input register (r28, r26
 * on the small cores) just before its texture word, so a varying holding
 * the coordinates of several lookups (two 2D coordinates in one vec4, the
 * usual lightmap layout) stays in a work register until the last of
 * them.  The texture word has a swizzle of its own on that register: when
 * every reader of a varying load is such a move, the load writes the
 * input register itself (moved down to just before the first move), the
 * moves go, and each texture word picks its lanes through its swizzle.
 * Only when nothing else touches the input register from there to the
 * last lookup (other lookups' moves, loads into it, readers).  The
 * lookups may be in later blocks that only the load's block leads to
 * (past an alpha test's discard): the register keeps its value there.
 * The same goes for an ALU word computing the coordinates of several
 * lookups (a blur's offsets, xy and zw of one add), as the stock code
 * computes them into the input register: it moves down too, when nothing
 * on the way writes a variable it reads.
 */

#include <string.h>

#include "util/ralloc.h"
#include "util/u_dynarray.h"

#include "mid_ir.h"

/* A move of v into the texture input register (only its coordinates)
 * followed by a plain lookup reading them. */
static struct mid_instr *
coord_move_lookup(const struct mid_shader *s, const struct mid_block *b,
                  const struct mid_instr *M, unsigned v)
{
   if (!mid_is_plain_move(M) || M->dst.kind != MID_REF_HW ||
       M->dst.index != s->tex_in || M->src[1].ref.kind != MID_REF_VAR ||
       M->src[1].ref.index != v || M->link.next == &b->instrs)
      return NULL;
   struct mid_instr *T = list_entry(M->link.next, struct mid_instr, link);
   if (T->kind != MID_TEX || T->tex.in_reg != s->tex_in || T->tex.mode != 1 ||
       T->tex.dim == 0 || T->tex.swizzled)
      return NULL;
   if (strcmp(T->op, "normal") && strcmp(T->op, "gradient") &&
       strcmp(T->op, "fetch"))
      return NULL;
   return T;
}

static void
set_swizzle(struct mid_instr *T, const struct mid_instr *M)
{
   unsigned first = ffs(M->mask) - 1;
   for (unsigned l = 0; l < 4; l++) {
      T->tex.inswz[l] = M->src[1].swz[(M->mask & (1u << l)) ? l : first];
   }
   T->tex.swizzled = true;
}

static bool
reads_var(const struct mid_instr *I, unsigned v)
{
   for (unsigned i = 0; i < I->nr_srcs; i++) {
      if (I->src[i].ref.kind == MID_REF_VAR && I->src[i].ref.index == v)
         return true;
   }
   return false;
}

static bool
reads_any_var(const struct mid_instr *I)
{
   for (unsigned i = 0; i < I->nr_srcs; i++) {
      if (I->src[i].ref.kind == MID_REF_VAR)
         return true;
   }
   return false;
}

static bool
writes_tex_in(const struct mid_shader *s, const struct mid_instr *I)
{
   return !I->store && I->dst.kind == MID_REF_HW && I->dst.index == s->tex_in;
}

/* The block after b when control only reaches it from b (falling
 * through, or past a discard): the input register still holds what b
 * left there.  NULL otherwise. */
static struct mid_block *
linear_next(struct mid_shader *s, struct mid_block *b, const bool *target)
{
   if (b->link.next == &s->blocks)
      return NULL;
   struct mid_block *n = list_entry(b->link.next, struct mid_block, link);
   if (target[n->index])
      return NULL;
   if (!list_is_empty(&b->instrs)) {
      struct mid_instr *last =
         list_last_entry(&b->instrs, struct mid_instr, link);
      if (last->kind == MID_WRITEOUT ||
          (last->kind == MID_BRANCH && !last->discard &&
           last->cond == MID_COND_ALWAYS))
         return NULL;
   }
   return n;
}

/* Try L (a varying load or an ALU word writing v, v's only write, read
 * nreads times), its readers in its block or in the blocks only it leads
 * to. */
static bool
try_load(struct mid_shader *s, struct mid_block *b, struct mid_instr *L,
         unsigned nreads, const bool *target, void *mem)
{
   unsigned v = L->dst.index;
   struct mid_instr **moves = ralloc_array(mem, struct mid_instr *, nreads);
   struct mid_instr **lookups = ralloc_array(mem, struct mid_instr *, nreads);
   unsigned nm = 0;
   /* Lookups after the last move that read its coordinates (their own
    * repeated move was dropped), with the move they share. */
   struct util_dynarray shared;
   util_dynarray_init(&shared, mem);
   struct mid_instr *last = NULL;
   for (struct list_head *l = L->link.next;; l = l->next) {
      if (l == &b->instrs) {
         b = linear_next(s, b, target);
         if (!b)
            break;
         l = &b->instrs;
         continue;
      }
      struct mid_instr *I = list_entry(l, struct mid_instr, link);
      if (reads_var(I, v)) {
         struct mid_instr *T = coord_move_lookup(s, b, I, v);
         if (!T || nm == nreads)
            return false;
         moves[nm] = I;
         lookups[nm++] = T;
         last = I;
         l = &T->link;
         continue;
      }
      if (!last) {
         /* L moves down past it: not past a write of what it reads. */
         if (I->dst.kind == MID_REF_VAR && !I->store &&
             reads_var(L, I->dst.index))
            return false;
         continue;
      }
      if (writes_tex_in(s, I)) {
         if (nm == nreads)
            break; /* a later lookup's coordinates */
         return false;
      }
      if (mid_hw_reads(I) & (1u << s->tex_in)) {
         /* A lookup at the same coordinates (its move dropped). */
         if (I->kind != MID_TEX || I->tex.in_reg != s->tex_in ||
             I->tex.mode != 1 || I->tex.dim != lookups[nm - 1]->tex.dim ||
             I->tex.swizzled)
            return false;
         util_dynarray_append(&shared, struct mid_instr *, I);
         util_dynarray_append(&shared, struct mid_instr *, last);
      }
   }
   if (nm != nreads || !nm)
      return false;

   list_del(&L->link);
   list_addtail(&L->link, &moves[0]->link);
   L->dst = mid_hw(s->tex_in);
   for (unsigned i = 0; i < nm; i++) {
      set_swizzle(lookups[i], moves[i]);
      list_del(&moves[i]->link);
   }
   for (unsigned i = 0; i + 1 < util_dynarray_num_elements(&shared, void *);
        i += 2) {
      struct mid_instr **p =
         util_dynarray_element(&shared, struct mid_instr *, i);
      set_swizzle(p[0], p[1]);
   }
   return true;
}

bool
mid_tex_coords(struct mid_shader *s)
{
   if (!s->nr_tex)
      return false;
   void *mem = ralloc_context(NULL);
   unsigned n = s->nr_vars ? s->nr_vars : 1;
   unsigned *writes = rzalloc_array(mem, unsigned, n);
   unsigned *reads = rzalloc_array(mem, unsigned, n);
   struct mid_block **block_of = rzalloc_array(mem, struct mid_block *, n);
   bool *target = rzalloc_array(mem, bool, s->nr_blocks + 1);
   mid_foreach_block(s, b)
   {
      mid_foreach_instr(b, I)
      {
         if (I->kind == MID_BRANCH && !I->discard && I->target)
            target[I->target->index] = true;
         if (I->dst.kind == MID_REF_VAR && !I->store) {
            writes[I->dst.index]++;
            block_of[I->dst.index] = b;
         }
         for (unsigned i = 0; i < I->nr_srcs; i++) {
            if (I->src[i].ref.kind == MID_REF_VAR)
               reads[I->src[i].ref.index]++;
         }
      }
   }
   /* The candidates first: a load that goes moves down its block. */
   struct util_dynarray loads;
   util_dynarray_init(&loads, mem);
   mid_foreach_block(s, b)
   {
      struct mid_instr *prev = NULL;
      mid_foreach_instr(b, L)
      {
         bool paired = prev && prev->pair_next;
         prev = L;
         if (L->dst.kind != MID_REF_VAR || L->store || mid_hw_reads(L) ||
             writes[L->dst.index] != 1 || block_of[L->dst.index] != b)
            continue;
         bool load = L->kind == MID_LDST && !strncmp(L->op, "ld_vary", 7) &&
                     !reads_any_var(L);
         bool alu = L->kind == MID_ALU && !L->pair_next && !paired;
         if (load || alu)
            util_dynarray_append(&loads, struct mid_instr *, L);
      }
   }
   bool progress = false;
   util_dynarray_foreach(&loads, struct mid_instr *, p)
   {
      struct mid_instr *L = *p;
      struct mid_block *b = block_of[L->dst.index];
      progress |= try_load(s, b, L, reads[L->dst.index], target, mem);
   }
   ralloc_free(mem);
   return progress;
}
