/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Move elimination on the IR before scheduling.  Out of SSA, NIR's vectors
 * and the values collected for stores become plain moves; each one costs
 * a unit and usually a bundle.  Two rewrites remove most of them:
 *
 *  - copy propagation: ALU readers of a move's destination read its source
 *    instead (swizzles composed);
 *  - texture results: ALU readers of a copy of the result register (r28;
 *    r0 on the small cores) read it while nothing else has touched it or
 *    the texture inputs;
 *  - sinking: a move whose source nobody else reads has the source's
 *    producers write its destination directly, lanes remapped: a fixed
 *    register (store data r27, texture inputs r28/r29 or r26) or a vector
 *    variable assembled from pieces.
 *
 * Both need values that never change once written: a variable qualifies
 * when each of its lanes is written at most once in the whole shader
 * ("lane-SSA"; NIR SSA values and their vec-to-mov pieces are, out-of-SSA
 * registers usually are not).  A reader of such a lane is dominated by its
 * only write, so the value it sees is the one the move copied.
 */

#include <string.h>

#include "isa/pan_isa_mid.h"
#include "util/ralloc.h"
#include "util/u_math.h"

#include "mid_ir.h"

struct opt {
   struct mid_shader *s;
   uint8_t *written; /* lanes written so far */
   bool *multi;      /* some lane written twice */
   unsigned *readers;
};

static bool
second_of_pair(struct mid_block *b, struct mid_instr *I)
{
   return I->link.prev != &b->instrs &&
          list_entry(I->link.prev, struct mid_instr, link)->pair_next;
}

static void
count(struct opt *o)
{
   unsigned n = o->s->nr_vars;
   memset(o->written, 0, n);
   memset(o->multi, 0, n * sizeof(bool));
   memset(o->readers, 0, n * sizeof(unsigned));
   mid_foreach_block(o->s, b)
   {
      mid_foreach_instr(b, I)
      {
         if (I->dst.kind == MID_REF_VAR && !I->store) {
            unsigned v = I->dst.index;
            o->multi[v] |= (o->written[v] & I->mask) != 0;
            o->written[v] |= I->mask;
         }
         for (unsigned i = 0; i < I->nr_srcs; i++) {
            if (I->src[i].ref.kind == MID_REF_VAR)
               o->readers[I->src[i].ref.index]++;
         }
      }
   }
}

/* Whether move M wrote every lane I reads through src. */
static bool
covers(const struct mid_instr *M, const struct mid_instr *I,
       const struct mid_src *src)
{
   return !(mid_src_lanes(I, src) & ~M->mask);
}

/* Rewrite ALU readers of M's destination to read M's source. */
static bool
propagate(struct opt *o, struct mid_instr *M)
{
   unsigned d = M->dst.index;
   const struct mid_src *from = &M->src[1];
   bool progress = false;
   mid_foreach_block(o->s, b)
   {
      mid_foreach_instr(b, I)
      {
         if (I->kind != MID_ALU || I == M)
            continue;
         for (unsigned i = 0; i < I->nr_srcs; i++) {
            struct mid_src *src = &I->src[i];
            if (src->ref.kind != MID_REF_VAR || src->ref.index != d)
               continue;
            if (!covers(M, I, src))
               continue;
            if (from->ref.kind == MID_REF_CONST) {
               /* One constant source per instruction, none in pairs. */
               if (I->nr_srcs == 2 &&
                   I->src[1 - i].ref.kind == MID_REF_CONST)
                  continue;
               if (I->pair_next || second_of_pair(b, I))
                  continue;
               uint32_t imm[4];
               for (unsigned l = 0; l < 4; l++)
                  imm[l] = from->imm[src->swz[l]];
               memcpy(src->imm, imm, sizeof(imm));
            }
            for (unsigned l = 0; l < 4; l++)
               src->swz[l] = from->swz[src->swz[l]];
            src->ref = from->ref;
            /* Keep the counts true for sinking later in this round. */
            o->readers[d]--;
            if (from->ref.kind == MID_REF_VAR)
               o->readers[from->ref.index]++;
            progress = true;
         }
      }
   }
   return progress;
}

/* ALU readers of a texture result's copy (M: v = r28) that come before
 * anything but loads into variables touches the texture registers in M's
 * block read r28 itself.  The scheduler orders them before the next texture word or
 * input write through its fixed-register dependences; register allocation
 * keeps variables out of a result register in r0 while it is live.  M
 * stays for the rest. */
static bool
propagate_tex(struct mid_shader *s, struct mid_block *b, struct mid_instr *M)
{
   unsigned d = M->dst.index;
   bool progress = false;
   for (struct list_head *l = M->link.next; l != &b->instrs; l = l->next) {
      struct mid_instr *I = list_entry(l, struct mid_instr, link);
      /* Loads that leave the texture registers alone do not end it
       * (unless the result is in a work register, r0 on the small cores:
       * held longer, it costs more than the copy). */
      uint32_t tex_regs = (1u << s->tex_out) | (1u << s->tex_in) |
                          (2u << s->tex_in);
      if (I->kind == MID_LDST && !I->store && I->dst.kind == MID_REF_VAR &&
          !(mid_hw_reads(I) & tex_regs) && s->tex_out >= 16)
         continue;
      if (I->kind != MID_ALU)
         break;
      for (unsigned i = 0; i < I->nr_srcs; i++) {
         struct mid_src *src = &I->src[i];
         if (src->ref.kind != MID_REF_VAR || src->ref.index != d)
            continue;
         if (!covers(M, I, src))
            continue;
         src->ref = M->src[1].ref;
         progress = true;
      }
      if (I->dst.kind == MID_REF_HW &&
          (I->dst.index == s->tex_out || I->dst.index == s->tex_in ||
           I->dst.index == s->tex_in + 1))
         break;
      if (I->dst.kind == MID_REF_VAR && I->dst.index == d)
         break;
   }
   return progress;
}

static bool
touches(const struct mid_instr *I, struct mid_ref r)
{
   if (I->dst.kind == r.kind && I->dst.index == r.index)
      return true;
   for (unsigned i = 0; i < I->nr_srcs; i++) {
      if (I->src[i].ref.kind == r.kind && I->src[i].ref.index == r.index)
         return true;
   }
   return false;
}

/* Lane l of producer P moves to lane `to` of the move's destination:
 * the sources follow (swizzles and constant lanes).  A dot product reads
 * its sources by position and writes its one sum to every lane of its
 * mask: only the mask moves. */
static void
retarget(struct mid_instr *P, struct mid_ref dst, const int *to)
{
   struct mid_instr old = *P;
   bool dot = !strncmp(P->op, "fdot", 4);
   unsigned mask = 0;
   for (unsigned l = 0; l < 4; l++) {
      if (!(old.mask & (1u << l)))
         continue;
      mask |= 1u << to[l];
      for (unsigned i = 0; i < P->nr_srcs && !dot; i++) {
         P->src[i].swz[to[l]] = old.src[i].swz[l];
         P->src[i].imm[to[l]] = old.src[i].imm[l];
      }
   }
   P->dst = dst;
   P->mask = mask;
}

/* A varying store right after M reading r27 (M's destination) and nothing
 * else: it may move up to the producers with its data. */
static struct mid_instr *
varying_store_of(struct mid_block *b, struct mid_instr *M)
{
   if (M->dst.kind != MID_REF_HW ||
       (M->dst.index != 27 && M->dst.index != 26) ||
       M->link.next == &b->instrs)
      return NULL;
   struct mid_instr *S = list_entry(M->link.next, struct mid_instr, link);
   if (S->kind != MID_LDST || !S->store || strncmp(S->op, "st_vary", 7) ||
       mid_hw_reads(S) != 1u << M->dst.index)
      return NULL;
   return S;
}

/* The lanes of r27 a varying store reads. */
static unsigned
store_lanes(const struct mid_instr *S)
{
   unsigned lanes = 0;
   for (unsigned c = 0; c < 4; c++)
      lanes |= 1u << ((S->ls.swz >> (2 * c)) & 3);
   return lanes;
}

/* r27 = v.xyzz; st  ->  r27.xyz = v.xyz; st (gathering .xyzz): the
 * store's swizzle repeats lanes instead of M, so M's lanes map one to
 * one and its producers can write r27 themselves. */
static void
fold_store_swizzle(struct mid_instr *M, struct mid_instr *S)
{
   unsigned swz = 0, mask = 0;
   for (unsigned c = 0; c < 4; c++) {
      unsigned l = (S->ls.swz >> (2 * c)) & 3;
      if (!(M->mask & (1u << l)))
         return;
      unsigned f = M->src[1].swz[l];
      swz |= f << (2 * c);
      mask |= 1u << f;
   }
   for (unsigned l = 0; l < 4; l++)
      M->src[1].swz[l] = l;
   M->mask = mask;
   S->ls.swz = swz;
}

/* Walking back: the lanes of r that are read before being written again,
 * updated across I (its write comes after its reads).  Reads count as
 * whole registers.  Returns whether I touches r. */
static bool
live_hw_before(const struct mid_instr *I, unsigned r, uint8_t *live)
{
   bool rd = mid_hw_reads(I) & (1u << r);
   bool wr = !I->store && I->dst.kind == MID_REF_HW && I->dst.index == r;
   if (wr)
      *live &= ~I->mask;
   if (rd)
      *live = 0xf;
   return rd || wr;
}

/* Whether producer P can take a clamping move's output modifier: a float
 * ALU result not clamped already. */
static bool
takes_omod(const struct mid_instr *P)
{
   return P->kind == MID_ALU && !P->int_result && !P->omod;
}

/* A move that clamps (fmov with an output modifier, from fsat or
 * max(x, 0)) of an unmodified variable: sunk like a plain move, its
 * producers taking the modifier. */
static bool
is_clamp_move(const struct mid_instr *M)
{
   return M->kind == MID_ALU && !strcmp(M->op, "fmov") && M->omod &&
          !M->pair_next && M->nr_srcs == 2 &&
          M->src[0].ref.kind == MID_REF_NONE &&
          M->src[1].ref.kind == MID_REF_VAR && !M->src[1].abs &&
          !M->src[1].neg;
}

/* A load of memory no store of the shader writes (attributes, varyings,
 * uniform buffers), reading no register: it can move down freely. */
static bool
movable_load(const struct mid_instr *L)
{
   if (L->kind != MID_LDST || L->store || mid_hw_reads(L) ||
       (strncmp(L->op, "ld_attr", 7) && strncmp(L->op, "ld_vary", 7) &&
        strncmp(L->op, "ld_ubo", 6)))
      return false;
   for (unsigned i = 0; i < L->nr_srcs; i++) {
      if (L->src[i].ref.kind == MID_REF_VAR)
         return false;
   }
   return true;
}

/*
 * Sinking: the producers of v (read by M alone) write M's destination
 * directly, lanes moved as M's swizzle says: a fixed register (store
 * data, texture coordinates) or a variable built lane by lane (out of
 * SSA, vectors are moves into one).  False when the destination is
 * touched between the first producer and M, or the lanes do not map one
 * to one.  Varying stores of r27 are the exception: all of them come at
 * the end, each after its move, so the store moves up to just after the
 * last producer when M writes all it reads and r27 is free from the first
 * producer to there (nothing after the last producer reads a lane of r27
 * before writing it).
 */
static bool
sink(struct opt *o, struct mid_block *b, struct mid_instr *M)
{
   unsigned v = M->src[1].ref.index;
   bool hw = M->dst.kind == MID_REF_HW;
   struct mid_instr *S = varying_store_of(b, M);
   if (hw && !S && M->dst.index != 27 && M->dst.index != o->s->tex_in &&
       M->dst.index != o->s->tex_in + 1)
      return false;
   if (S)
      fold_store_swizzle(M, S);
   /* to[l]: the destination lane of v's lane l. */
   int to[4] = { -1, -1, -1, -1 };
   unsigned from = 0;
   for (unsigned l = 0; l < 4; l++) {
      if (!(M->mask & (1u << l)))
         continue;
      unsigned f = M->src[1].swz[l];
      if (to[f] >= 0 || (hw && f != l))
         return false;
      to[f] = l;
      from |= 1u << f;
   }
   /* Into a fixed register lanes map to themselves: lanes of v that M
    * does not copy have no reader and their writes may go. */
   unsigned extra = o->written[v] & ~from;
   if ((o->written[v] & from) != from || (extra && !hw))
      return false;
   if (S && (!o->s->hoist_stores || (store_lanes(S) & ~M->mask)))
      S = NULL;
   /* The lanes of r27 live before the first producer met walking back. */
   uint8_t live27 = 0;
   bool blocked = false;
   bool store_reg = hw && (M->dst.index == 26 || M->dst.index == 27);
   struct mid_instr *last_def = NULL;
   /* Walk back from M to the producers, collecting them. */
   struct mid_instr *defs[4];
   unsigned nr_defs = 0, found = 0;
   for (struct list_head *l = M->link.prev; l != &b->instrs; l = l->prev) {
      struct mid_instr *I = list_entry(l, struct mid_instr, link);
      if (I->dst.kind == MID_REF_VAR && I->dst.index == v && !I->store) {
         if (!(I->mask & from))
            continue; /* unread lanes only: left to dead code removal */
         /* A load may write a fixed register too (texture coordinates
          * straight from a varying, as the stock code loads them). */
         bool load = hw && I->kind == MID_LDST;
         if ((I->kind != MID_ALU && !load) || I->pair_next ||
             (M->omod && !takes_omod(I)) ||
             second_of_pair(b, I) || nr_defs == 4 || touches(I, M->dst))
            return false;
         if (!nr_defs)
            last_def = I;
         defs[nr_defs++] = I;
         found |= I->mask;
         if ((found & from) == from)
            break;
         continue;
      }
      if (S && !nr_defs) {
         live_hw_before(I, M->dst.index, &live27);
         continue;
      }
      /* The destination must be free from the first producer on. */
      if (touches(I, M->dst))
         blocked = true;
      if (hw && (I->kind == MID_TEX || I->kind == MID_LDST ||
                 I->kind == MID_BRANCH) &&
          (I->kind == MID_BRANCH || (mid_hw_reads(I) & (1u << M->dst.index))))
         blocked = true; /* they read r26-r29 implicitly */
   }
   if ((found & from) != from)
      return false;
   if (blocked || live27) {
      /* Store data loaded from memory nothing writes: the load moves
       * down to M and writes the store register there, as the stock
       * code loads an attribute copied to a varying. */
      if (!store_reg || nr_defs != 1 || !movable_load(defs[0]))
         return false;
      list_del(&defs[0]->link);
      list_addtail(&defs[0]->link, &M->link);
      S = NULL;
   }
   for (unsigned k = 0; k < nr_defs; k++) {
      defs[k]->mask &= from;
      retarget(defs[k], M->dst, to);
      if (M->omod)
         defs[k]->omod = M->omod;
   }
   list_del(&M->link);
   if (S) {
      list_del(&S->link);
      list_add(&S->link, &last_def->link);
   }
   return true;
}

/* Lanes of v that instructions other than M read. */
static unsigned
lanes_read_by_others(struct opt *o, unsigned v, const struct mid_instr *M)
{
   unsigned lanes = 0;
   mid_foreach_block(o->s, b)
   {
      mid_foreach_instr(b, I)
      {
         if (I == M)
            continue;
         for (unsigned i = 0; i < I->nr_srcs; i++) {
            const struct mid_src *src = &I->src[i];
            if (src->ref.kind != MID_REF_VAR || src->ref.index != v)
               continue;
            lanes |= mid_src_lanes(I, src);
         }
      }
   }
   return lanes;
}

/*
 * Partial sinking into store data: r27 = v where other instructions read
 * some lanes of v too (the position's 1/w in its own w lane, read by the
 * perspective multiply).  The producers of the lanes nobody else reads
 * write r27 themselves and M keeps the other lanes; it can then share the
 * last producer's bundle (a smul or sadd move beside it, as the stock code
 * writes the position).  Producers are taken walking back from M until
 * something else touches r27.
 */
static bool
sink_partial(struct opt *o, struct mid_block *b, struct mid_instr *M)
{
   if (M->dst.kind != MID_REF_HW ||
       (M->dst.index != 27 && M->dst.index != 26))
      return false;
   struct mid_instr *S = varying_store_of(b, M);
   if (S)
      fold_store_swizzle(M, S);
   unsigned v = M->src[1].ref.index;
   /* Lanes of v M copies to the same lane of r27, and only there. */
   unsigned read = 0, same = 0;
   for (unsigned f = 0; f < 4; f++) {
      unsigned n = 0, at = 0;
      for (unsigned l = 0; l < 4; l++) {
         if ((M->mask & (1u << l)) && M->src[1].swz[l] == f)
            n++, at = l;
      }
      read |= (n > 0) << f;
      same |= (n == 1 && at == f) << f;
   }
   unsigned others = lanes_read_by_others(o, v, M);
   struct mid_instr *defs[4];
   unsigned nr_defs = 0, found = 0, sunk = 0;
   for (struct list_head *l = M->link.prev; l != &b->instrs; l = l->prev) {
      struct mid_instr *I = list_entry(l, struct mid_instr, link);
      if (I->dst.kind == MID_REF_VAR && I->dst.index == v && !I->store) {
         unsigned lanes = I->mask & read;
         found |= I->mask;
         if (lanes && I->kind == MID_ALU && !I->pair_next &&
             !second_of_pair(b, I) && strncmp(I->op, "fdot", 4) &&
             !(I->mask & others) && (lanes & ~same) == 0 &&
             !touches(I, M->dst) && nr_defs < 4) {
            defs[nr_defs++] = I;
            sunk |= lanes;
         }
         if ((found & read) == read)
            break;
         continue;
      }
      if (touches(I, M->dst) ||
          ((I->kind == MID_TEX || I->kind == MID_LDST ||
            I->kind == MID_BRANCH) &&
           (I->kind == MID_BRANCH || (mid_hw_reads(I) & (1u << M->dst.index)))))
         break;
   }
   if (!nr_defs)
      return false;
   const int to[4] = { 0, 1, 2, 3 };
   for (unsigned k = 0; k < nr_defs; k++) {
      defs[k]->mask &= read;
      retarget(defs[k], M->dst, to);
   }
   M->mask &= ~sunk;
   if (!M->mask)
      list_del(&M->link);
   return true;
}

/*
 * An r31 feeder F (r31 = imov v, paired with its csel or branch) whose v
 * has one producer P and no other reader computes P itself: F takes P's
 * operation and sources, lanes remapped by F's swizzle, and P goes.  P's
 * sources must read the same values at F (variables written once,
 * constants, uniforms) and P must run on a first-stage unit.
 */
static bool
fold_feeder(struct opt *o, struct mid_block *b, struct mid_instr *F)
{
   if (F->kind != MID_ALU || !F->pair_next || F->dst.kind != MID_REF_HW ||
       F->dst.index != 31 || strcmp(F->op, "imov") || F->nr_srcs != 2 ||
       F->src[0].ref.kind != MID_REF_NONE || F->src[1].ref.kind != MID_REF_VAR ||
       F->src[1].abs || F->src[1].neg || F->omod)
      return false;
   unsigned v = F->src[1].ref.index, need = 0;
   if (o->multi[v] || o->readers[v] != 1)
      return false;
   for (unsigned l = 0; l < 4; l++) {
      if (F->mask & (1u << l))
         need |= 1u << F->src[1].swz[l];
   }
   struct mid_instr *P = NULL;
   for (struct list_head *l = F->link.prev; l != &b->instrs; l = l->prev) {
      struct mid_instr *I = list_entry(l, struct mid_instr, link);
      if (I->dst.kind == MID_REF_VAR && I->dst.index == v && !I->store) {
         P = I;
         break;
      }
   }
   if (!P || P->kind != MID_ALU || (P->mask & need) != need ||
       P->pair_next || second_of_pair(b, P) || !strncmp(P->op, "fdot", 4))
      return false;
   unsigned first = util_bitcount(F->mask) > 1
                       ? 1u << PAN_MID_VMUL
                       : (1u << PAN_MID_VMUL) | (1u << PAN_MID_SADD);
   if (!(pan_mid_alu_op_units(P->op) & first))
      return false;
   for (unsigned i = 0; i < P->nr_srcs; i++) {
      struct mid_ref r = P->src[i].ref;
      if (r.kind == MID_REF_HW || (r.kind == MID_REF_VAR && o->multi[r.index]))
         return false;
   }
   struct mid_src src[2];
   memcpy(src, P->src, sizeof(src));
   for (unsigned i = 0; i < P->nr_srcs; i++) {
      for (unsigned l = 0; l < 4; l++) {
         unsigned from = F->src[1].swz[l];
         src[i].swz[l] = P->src[i].swz[from];
         src[i].imm[l] = P->src[i].imm[from];
      }
   }
   memcpy(F->src, src, sizeof(src));
   F->op = P->op;
   F->nr_srcs = P->nr_srcs;
   F->omod = P->omod;
   F->int_result = P->int_result;
   list_del(&P->link);
   return true;
}

/* Whether move B copies nothing A did not already copy into the same
 * fixed register: same unchanging variable, same lanes. */
static bool
repeats(const struct opt *o, const struct mid_instr *A,
        const struct mid_instr *B)
{
   if (B->src[1].ref.kind != MID_REF_VAR ||
       A->src[1].ref.kind != MID_REF_VAR ||
       A->src[1].ref.index != B->src[1].ref.index ||
       o->multi[B->src[1].ref.index] || (B->mask & ~A->mask))
      return false;
   for (unsigned l = 0; l < 4; l++) {
      if ((B->mask & (1u << l)) && A->src[1].swz[l] != B->src[1].swz[l])
         return false;
   }
   return true;
}

/* Texture words write their result elsewhere (r29 on T860), so the
 * coordinates stay in the input register: a move into it that repeats
 * the last write there does nothing (lookups of several textures at the
 * same coordinates). */
static bool
drop_repeated_tex_moves(struct opt *o)
{
   unsigned r = o->s->tex_in;
   bool progress = false;
   mid_foreach_block(o->s, b)
   {
      struct mid_instr *last = NULL;
      list_for_each_entry_safe (struct mid_instr, I, &b->instrs, link) {
         if (I->store || I->dst.kind != MID_REF_HW || I->dst.index != r)
            continue;
         bool move = mid_is_plain_move(I) && !second_of_pair(b, I);
         if (move && last && repeats(o, last, I)) {
            list_del(&I->link);
            progress = true;
            continue;
         }
         last = move ? I : NULL;
      }
   }
   return progress;
}

void
mid_opt_moves(struct mid_shader *s)
{
   unsigned n = s->nr_vars ? s->nr_vars : 1;
   struct opt o = { .s = s };
   void *mem = ralloc_context(NULL);
   o.written = ralloc_array(mem, uint8_t, n);
   o.multi = ralloc_array(mem, bool, n);
   o.readers = ralloc_array(mem, unsigned, n);

   bool progress = true;
   while (progress) {
      progress = false;
      count(&o);
      if (s->tex_out != s->tex_in && drop_repeated_tex_moves(&o)) {
         progress = true;
         count(&o);
      }
      mid_foreach_block(s, b)
      {
         list_for_each_entry_safe (struct mid_instr, M, &b->instrs, link) {
            if (mid_is_plain_move(M) && M->src[1].ref.kind == MID_REF_HW &&
                M->src[1].ref.index == s->tex_out &&
                M->dst.kind == MID_REF_VAR &&
                !o.multi[M->dst.index] && !second_of_pair(b, M) &&
                M->src[1].swz[0] == 0 && M->src[1].swz[1] == 1 &&
                M->src[1].swz[2] == 2 && M->src[1].swz[3] == 3) {
               progress |= propagate_tex(s, b, M);
               continue;
            }
            if (fold_feeder(&o, b, M)) {
               progress = true;
               break; /* counts changed */
            }
            if (is_clamp_move(M) && !second_of_pair(b, M) &&
                M->dst.kind == MID_REF_VAR &&
                !o.multi[M->src[1].ref.index] &&
                o.readers[M->src[1].ref.index] == 1 &&
                M->dst.index != M->src[1].ref.index && sink(&o, b, M)) {
               progress = true;
               break; /* counts changed */
            }
            if (!mid_is_plain_move(M) || second_of_pair(b, M))
               continue;
            /* Constants and uniforms never change: readers take them. */
            if ((M->src[1].ref.kind == MID_REF_CONST ||
                 M->src[1].ref.kind == MID_REF_UNIFORM) &&
                M->dst.kind == MID_REF_VAR && !o.multi[M->dst.index]) {
               progress |= propagate(&o, M);
               continue;
            }
            if (M->src[1].ref.kind != MID_REF_VAR)
               continue;
            unsigned v = M->src[1].ref.index;
            if (o.multi[v])
               continue;
            if (M->dst.kind == MID_REF_VAR && !o.multi[M->dst.index] &&
                M->dst.index != v && propagate(&o, M)) {
               progress = true;
            } else if (o.readers[v] == 1 &&
                       !(M->dst.kind == MID_REF_VAR && M->dst.index == v) &&
                       sink(&o, b, M)) {
               progress = true;
               break; /* counts changed */
            } else if (s->hoist_stores && sink_partial(&o, b, M)) {
               progress = true;
               break;
            }
         }
      }
      mid_dce(s);
   }
   ralloc_free(mem);
}
