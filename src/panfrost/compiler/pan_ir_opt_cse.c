/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Common subexpressions (SSA only).  NIR's CSE runs before us; this one
 * catches what the lowering to our IR creates: the same uniform word
 * moved again, the same colour vector collected for several render
 * targets, the same address or constant product computed in two places
 * (opt_collect folds a constant vector's lanes into each reader).
 *
 * An instruction is replaced by an identical one whose block dominates its
 * own (earlier in the block when it is the same block), so the kept value
 * is defined on every path to each of the replaced one's readers.  Only
 * pure operations are merged, those whose result depends on nothing but
 * their operands: no memory, no side effect, nothing that reads another
 * lane (a cross-lane read sees different active lanes in another block,
 * so it is merged within its block only).  So is a value of constants
 * and uniforms alone (cse_scope).
 */

#include <string.h>

#include "pan_ir.h"

enum cse_scope {
   CSE_NEVER,
   CSE_BLOCK,     /* identical only within one block */
   CSE_DOMINATED, /* identical wherever the first dominates */
};

/* A value of constants and uniforms alone is merged within its block
 * only: computing it again costs one instruction, holding it from a
 * dominating block a register over everything between (tesseract's
 * fragment shaders lost a thread to that). */
static enum cse_scope
cse_scope(const pan_ir_instr *I)
{
   if (I->op == PAN_IR_OP_CLPER_QUAD)
      return CSE_BLOCK;
   if (!pan_ir_op_is_pure(I->op))
      return CSE_NEVER;
   for (unsigned i = 0; i < I->nr_srcs; ++i) {
      if (I->src[i].kind == PAN_IR_SSA)
         return CSE_DOMINATED;
   }
   return CSE_BLOCK;
}

static bool
same_index(pan_ir_index a, pan_ir_index b)
{
   return a.kind == b.kind && a.value == b.value && a.comps == b.comps &&
          a.comp == b.comp && a.neg == b.neg && a.abs == b.abs;
}

static bool
same_instr(const pan_ir_instr *A, const pan_ir_instr *B)
{
   if (A->op != B->op || A->nr_srcs != B->nr_srcs ||
       A->dest.comps != B->dest.comps || A->type != B->type ||
       A->cmp != B->cmp || A->imm != B->imm)
      return false;
   for (unsigned i = 0; i < A->nr_srcs; ++i) {
      if (!same_index(A->src[i], B->src[i]))
         return false;
   }
   return true;
}

static uint32_t
mix(uint32_t h, uint32_t v)
{
   h ^= v + 0x9e3779b9u + (h << 6) + (h >> 2);
   return h;
}

static uint32_t
hash_instr(const pan_ir_instr *I)
{
   uint32_t h = mix(I->op, I->nr_srcs);
   h = mix(h, I->dest.comps | I->type << 8 | I->cmp << 16);
   h = mix(h, I->imm);
   for (unsigned i = 0; i < I->nr_srcs; ++i) {
      const pan_ir_index *s = &I->src[i];
      h = mix(h, s->value);
      h = mix(h, s->kind | s->comps << 8 | s->comp << 16 | s->neg << 24 |
                    s->abs << 25);
   }
   return h;
}

/* Blocks in reverse postorder of a depth-first walk from the entry; returns
 * how many are reachable.  order[k] is a block, rpo[index] its position. */
static unsigned
reverse_postorder(pan_ir_shader *s, pan_ir_block **order, unsigned *rpo)
{
   unsigned n = s->nr_blocks, top = 0, post = n;
   pan_ir_block **stack = malloc(n * sizeof(*stack));
   uint8_t *next = calloc(n, 1); /* successor to visit next, 3 = done */
   if (!stack || !next) {
      free(stack);
      free(next);
      return 0;
   }
   for (unsigned i = 0; i < n; ++i)
      rpo[i] = ~0u;
   stack[top++] = pan_ir_entry_block(s);
   next[stack[0]->index] = 1;
   while (top) {
      pan_ir_block *b = stack[top - 1];
      unsigned k = next[b->index] - 1;
      if (k < 2) {
         next[b->index]++;
         pan_ir_block *t = b->succ[k];
         if (t && !next[t->index]) {
            next[t->index] = 1;
            stack[top++] = t;
         }
         continue;
      }
      top--;
      order[--post] = b;
   }
   /* Reachable blocks occupy order[post..n-1]; move them down. */
   unsigned reached = n - post;
   memmove(order, order + post, reached * sizeof(*order));
   for (unsigned i = 0; i < reached; ++i)
      rpo[order[i]->index] = i;
   free(stack);
   free(next);
   return reached;
}

/* Immediate dominators as positions in reverse postorder (Cooper, Harvey
 * and Kennedy's iteration); idom[0] = 0 for the entry. */
static void
dominators(pan_ir_block **order, const unsigned *rpo, unsigned n,
           unsigned *idom)
{
   for (unsigned i = 0; i < n; ++i)
      idom[i] = ~0u;
   idom[0] = 0;
   bool changed = true;
   while (changed) {
      changed = false;
      for (unsigned i = 1; i < n; ++i) {
         unsigned d = ~0u;
         pan_ir_foreach_pred(order[i], p)
         {
            unsigned q = rpo[(*p)->index];
            if (q == ~0u || idom[q] == ~0u)
               continue;
            if (d == ~0u) {
               d = q;
               continue;
            }
            unsigned a = d, b = q;
            while (a != b) {
               while (a > b)
                  a = idom[a];
               while (b > a)
                  b = idom[b];
            }
            d = a;
         }
         if (d != idom[i]) {
            idom[i] = d;
            changed = true;
         }
      }
   }
}

static bool
dominates(const unsigned *idom, unsigned a, unsigned b)
{
   while (b > a)
      b = idom[b];
   return a == b;
}

#define CSE_BUCKETS 1024

struct cse_entry {
   pan_ir_instr *I;
   unsigned block; /* position in reverse postorder */
   struct cse_entry *next;
};

bool
pan_ir_opt_cse(pan_ir_shader *s)
{
   if (s->out_of_ssa || list_is_empty(&s->blocks))
      return false;

   unsigned n = s->nr_blocks;
   uint32_t *repl = malloc((s->ssa_alloc + 1) * sizeof(uint32_t));
   pan_ir_block **order = malloc(n * sizeof(*order));
   unsigned *rpo = malloc(n * sizeof(unsigned));
   unsigned *idom = malloc(n * sizeof(unsigned));
   struct cse_entry **buckets = calloc(CSE_BUCKETS, sizeof(*buckets));
   void *mem = ralloc_context(NULL);
   bool progress = false;
   if (!repl || !order || !rpo || !idom || !buckets || !mem)
      goto out;

   for (unsigned v = 0; v <= s->ssa_alloc; ++v)
      repl[v] = v;
   unsigned reached = reverse_postorder(s, order, rpo);
   dominators(order, rpo, reached, idom);

   /* Dominators come first in reverse postorder, so every candidate that
    * may replace I is in the table when I is visited. */
   for (unsigned k = 0; k < reached; ++k) {
      pan_ir_block *b = order[k];
      pan_ir_foreach_instr_safe(b, I)
      {
         for (unsigned i = 0; i < I->nr_srcs; ++i) {
            if (I->src[i].kind == PAN_IR_SSA)
               I->src[i].value = repl[I->src[i].value];
         }
         enum cse_scope scope = cse_scope(I);
         if (scope == CSE_NEVER || I->dest.kind != PAN_IR_SSA)
            continue;
         uint32_t h = hash_instr(I) % CSE_BUCKETS;
         struct cse_entry *e = buckets[h];
         for (; e; e = e->next) {
            bool ok = scope == CSE_BLOCK ? e->block == k
                                         : dominates(idom, e->block, k);
            if (ok && same_instr(e->I, I))
               break;
         }
         if (e) {
            repl[I->dest.value] = e->I->dest.value;
            pan_ir_instr_remove(I);
            progress = true;
            continue;
         }
         e = ralloc(mem, struct cse_entry);
         *e = (struct cse_entry){ .I = I, .block = k, .next = buckets[h] };
         buckets[h] = e;
      }
   }
   /* Phis read values of blocks visited later (loop back edges). */
   if (progress) {
      pan_ir_foreach_instr_global(s, b, I)
      {
         for (unsigned i = 0; i < I->nr_srcs; ++i) {
            if (I->src[i].kind == PAN_IR_SSA)
               I->src[i].value = repl[I->src[i].value];
         }
      }
   }

out:
   ralloc_free(mem);
   free(repl);
   free(order);
   free(rpo);
   free(idom);
   free(buckets);
   return progress;
}
