/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Bundle scheduling and emission.  Instructions are packed in program
 * order into ALU bundles: an instruction joins the open bundle when one of
 * the units that can run it is free, it neither reads nor writes a
 * register the bundle writes nor writes one the bundle reads (our rule:
 * units of a bundle only communicate through r31), and its constants fit
 * the bundle's four embedded words (or the 16-bit inline immediate).
 * Single-lane work prefers the scalar units, leaving the vector ones free.
 * A block starts a bundle (branch targets) and its branch ends one; loads
 * and stores pair up two to a load/store bundle.  Branch offsets are
 * resolved after layout, the extended form used only when the compact
 * one's 7-bit offset does not reach.  Words are built with the ISA
 * tables (pan_mid_instr_init/set) and packed by pan_mid_encode_bundle.
 */

#include <string.h>

#include "isa/pan_isa_mid.h"
#include "util/half_float.h"
#include "util/ralloc.h"
#include "util/u_math.h"
#include "util/u_dynarray.h"

#include "mid_ir.h"

enum bkind { B_ALU, B_LDST, B_WRITEOUT, B_TEX };

struct bundle {
   enum bkind kind;
   struct mid_block *block;   /* first bundle of this block, else NULL */
   struct mid_instr *unit[5]; /* by enum pan_mid_slot */
   struct mid_instr *branch;
   struct mid_instr *ls[2];
   uint32_t consts[4];
   unsigned nr_consts;
   uint32_t reads, writes; /* register bit masks */
   bool extended;          /* branch needs the extended form */
   bool writeout_last;     /* second writeout bundle: loops onto itself */
   unsigned qw, size_qw, tag;
   /* Per unit: constant slot of each lane of each source; inline imm. */
   uint8_t cslot[5][2][4];
   bool imm[5];
   uint16_t imm16[5];
};

struct emit {
   struct mid_shader *s;
   struct util_dynarray bundles; /* struct bundle */
   struct bundle *cur;
   struct mid_block *pending_block;
};

static int
reg_of(struct mid_shader *s, struct mid_ref r)
{
   switch (r.kind) {
   case MID_REF_VAR:
      return s->reg_of[r.index];
   case MID_REF_HW:
      return r.index;
   case MID_REF_UNIFORM:
      return 23 - r.index;
   default:
      return -1;
   }
}

static bool
op_is_int(const char *op)
{
   return op[0] == 'i' || op[0] == 'u';
}

static unsigned
lane_of(unsigned mask)
{
   return ffs(mask) - 1;
}

static struct bundle *
new_bundle(struct emit *e, enum bkind kind)
{
   struct bundle *b = util_dynarray_grow(&e->bundles, struct bundle, 1);
   memset(b, 0, sizeof(*b));
   b->kind = kind;
   b->block = e->pending_block;
   e->pending_block = NULL;
   e->cur = b;
   return b;
}

/* Registers an instruction reads (constants through r26 are not reads). */
static uint32_t
instr_reads(struct mid_shader *s, const struct mid_instr *I)
{
   uint32_t m = 0;
   for (unsigned i = 0; i < I->nr_srcs; i++) {
      int r = reg_of(s, I->src[i].ref);
      if (r >= 0)
         m |= 1u << r;
   }
   if (I->kind == MID_LDST) {
      /* Address and index operands, store data. */
      if (I->ls.areg < 2 && strncmp(I->op, "ld_ubo", 6))
         m |= 1u << (26 + I->ls.areg);
      if (I->ls.ireg < 2)
         m |= 1u << (26 + I->ls.ireg);
      if (I->store)
         m |= 1u << 27;
   }
   if (I->kind == MID_BRANCH && I->cond != MID_COND_ALWAYS)
      m |= 1u << 31;
   if (I->kind == MID_TEX)
      m |= (1u << 28) | (I->tex.lodreg ? 1u << 29 : 0);
   return m;
}

static uint32_t
instr_writes(struct mid_shader *s, const struct mid_instr *I)
{
   int r = I->store ? -1 : reg_of(s, I->dst);
   return r >= 0 ? 1u << r : 0;
}

/* Values lane l of a source needs from the constant words. */
static bool
is_const(const struct mid_src *src)
{
   return src->ref.kind == MID_REF_CONST;
}

/* The 16-bit inline immediate for the second source, if it can be one. */
static bool
inline_imm(const struct mid_instr *I, unsigned mask, uint16_t *out)
{
   const struct mid_src *b = &I->src[1];
   if (!is_const(b))
      return false;
   uint32_t v = b->imm[lane_of(mask)];
   for (unsigned l = 0; l < 4; l++) {
      if ((mask & (1u << l)) && b->imm[l] != v)
         return false;
   }
   if (op_is_int(I->op)) {
      int32_t x = (int32_t)v;
      if (x < -32768 || x > 32767)
         return false;
      *out = (uint16_t)x;
      return true;
   }
   uint16_t h = _mesa_float_to_half(uif(v));
   if (fui(_mesa_half_to_float(h)) != v)
      return false;
   *out = h;
   return true;
}

/* Fold float source modifiers of constants into the values. */
static void
fold_const_mods(struct mid_instr *I)
{
   for (unsigned i = 0; i < I->nr_srcs; i++) {
      struct mid_src *src = &I->src[i];
      if (!is_const(src) || op_is_int(I->op))
         continue;
      for (unsigned l = 0; l < 4; l++) {
         if (src->abs)
            src->imm[l] &= 0x7fffffff;
         if (src->neg)
            src->imm[l] ^= 0x80000000;
      }
      src->abs = src->neg = false;
   }
}

/* Put the instruction's constants into the bundle; false if no room. */
static bool
place_consts(struct bundle *b, unsigned unit, struct mid_instr *I, bool commit)
{
   uint32_t words[4];
   unsigned n = b->nr_consts;
   memcpy(words, b->consts, sizeof(words));
   uint16_t imm = 0;
   bool use_imm = inline_imm(I, I->mask, &imm);

   for (unsigned i = 0; i < I->nr_srcs; i++) {
      if (!is_const(&I->src[i]) || (i == 1 && use_imm))
         continue;
      for (unsigned l = 0; l < 4; l++) {
         if (!(I->mask & (1u << l)))
            continue;
         uint32_t v = I->src[i].imm[l];
         unsigned k;
         for (k = 0; k < n && words[k] != v; k++)
            ;
         if (k == n) {
            if (n == 4)
               return false;
            words[n++] = v;
         }
         if (commit)
            b->cslot[unit][i][l] = k;
      }
   }
   if (commit) {
      memcpy(b->consts, words, sizeof(words));
      b->nr_consts = n;
      b->imm[unit] = use_imm;
      b->imm16[unit] = imm;
   }
   return true;
}

static unsigned
units_for(const struct mid_instr *I)
{
   unsigned units = pan_mid_alu_op_units(I->op);
   bool single = util_bitcount(I->mask) == 1;
   if (!single)
      units &=
         (1u << PAN_MID_VMUL) | (1u << PAN_MID_VADD) | (1u << PAN_MID_LUT);
   return units;
}

static const enum pan_mid_slot scalar_first[] = {
   PAN_MID_SADD, PAN_MID_SMUL, PAN_MID_VMUL, PAN_MID_VADD, PAN_MID_LUT,
};
static const enum pan_mid_slot vector_first[] = {
   PAN_MID_VMUL, PAN_MID_VADD, PAN_MID_LUT, PAN_MID_SADD, PAN_MID_SMUL,
};

/* A unit after `after` (-1: any) that is free and runs I, or -1. */
static int
pick_unit(struct bundle *b, struct mid_instr *I, int after, int before)
{
   unsigned units = units_for(I);
   const enum pan_mid_slot *order =
      util_bitcount(I->mask) == 1 ? scalar_first : vector_first;
   for (unsigned k = 0; k < 5; k++) {
      int u = order[k];
      if (!(units & (1u << u)) || b->unit[u] || u <= after || u >= before)
         continue;
      if (place_consts(b, u, I, false))
         return u;
   }
   return -1;
}

static bool
hazard(struct emit *e, struct bundle *b, struct mid_instr *I)
{
   uint32_t r = instr_reads(e->s, I), w = instr_writes(e->s, I);
   return (r & b->writes) || (w & (b->writes | b->reads));
}

static void
add_to(struct emit *e, struct bundle *b, unsigned u, struct mid_instr *I)
{
   place_consts(b, u, I, true);
   b->unit[u] = I;
   b->reads |= instr_reads(e->s, I);
   b->writes |= instr_writes(e->s, I);
}

/* Place an ALU instruction, or a pair whose first feeds r31 to the
 * second (a csel or a conditional branch), into bundle b; b is unchanged
 * when it does not fit. */
static bool
try_alu(struct emit *e, struct bundle *b, struct mid_instr *I,
        struct mid_instr *next)
{
   struct bundle saved = *b;
   if (hazard(e, b, I))
      return false;
   if (!next) {
      int u = pick_unit(b, I, -1, 5);
      if (u < 0)
         return false;
      add_to(e, b, u, I);
      return true;
   }
   if (next->kind == MID_BRANCH) {
      int u = b->branch ? -1 : pick_unit(b, I, -1, 5);
      if (u < 0)
         return false;
      add_to(e, b, u, I);
      b->branch = next;
      return true;
   }
   if (hazard(e, b, next))
      return false;
   for (int uf = 0; uf < 5; uf++) {
      if (b->unit[uf] || !(units_for(I) & (1u << uf)) ||
          !place_consts(b, uf, I, false))
         continue;
      add_to(e, b, uf, I);
      b->writes &= ~(1u << 31); /* forwarded to the select */
      int us = pick_unit(b, next, uf, 5);
      if (us >= 0 && !hazard(e, b, next)) {
         add_to(e, b, us, next);
         b->writes |= 1u << 31;
         return true;
      }
      *b = saved;
   }
   return false;
}

/*
 * List scheduling of one block.  Instructions (an r31 feeder with its
 * consumer as one group) form a dependence graph over the registers they
 * read and write (after allocation) and over memory (stores stay ordered
 * against loads and stores; texture words count as loads).  Bundle after
 * bundle, the ready group of highest priority (longest path to the end
 * of the block, then program order) chooses the bundle kind and every
 * other ready group that fits joins it.  A group is ready once all its
 * predecessors are in closed bundles: units of one bundle do not see each
 * other's results (except r31 within a pair).  Branches and the writeout
 * come last.
 */
struct grp {
   struct mid_instr *I, *next;
   uint32_t reads, writes;
   unsigned prio;
   int bundle; /* index of the bundle it went to, -1: not yet */
   bool store, load;
   struct util_dynarray preds; /* unsigned */
};

static bool
grp_ready(struct grp *g, const struct grp *gs, int cur)
{
   if (g->bundle >= 0)
      return false;
   util_dynarray_foreach(&g->preds, unsigned, p)
   {
      if (gs[*p].bundle < 0 || gs[*p].bundle >= cur)
         return false;
   }
   return true;
}

static int
nr_bundles(struct emit *e)
{
   return util_dynarray_num_elements(&e->bundles, struct bundle);
}

static struct bundle *
bundle_at(struct emit *e, int i)
{
   return util_dynarray_element(&e->bundles, struct bundle, i);
}

static bool
schedule_block(struct emit *e, struct mid_block *blk)
{
   e->pending_block = blk;
   e->cur = NULL;
   unsigned n = 0;
   mid_foreach_instr(blk, I) n++;
   struct grp *gs = rzalloc_array(NULL, struct grp, n ? n : 1);
   struct mid_instr *term = NULL, *term_feed = NULL;
   unsigned ng = 0;
   bool ok = true;

   for (struct list_head *l = blk->instrs.next; l != &blk->instrs;) {
      struct mid_instr *I = list_entry(l, struct mid_instr, link);
      l = l->next;
      struct mid_instr *next =
         l != &blk->instrs ? list_entry(l, struct mid_instr, link) : NULL;
      if (I->kind == MID_ALU)
         fold_const_mods(I);
      if (I->pair_next) {
         if (!next) {
            ok = mid_error(e->s, "unpaired r31 write");
            goto out;
         }
         l = l->next;
         if (next->kind == MID_BRANCH) {
            term = next;
            term_feed = I;
            continue;
         }
         fold_const_mods(next);
      } else {
         next = NULL;
      }
      if (I->kind == MID_BRANCH || I->kind == MID_WRITEOUT) {
         term = I;
         continue;
      }
      struct grp *g = &gs[ng++];
      g->I = I;
      g->next = next;
      g->bundle = -1;
      g->reads = instr_reads(e->s, I) |
                 (next ? instr_reads(e->s, next) & ~(1u << 31) : 0);
      g->writes = instr_writes(e->s, I) | (next ? instr_writes(e->s, next) : 0);
      g->store = I->kind == MID_LDST && I->store;
      g->load = (I->kind == MID_LDST && !I->store) || I->kind == MID_TEX;
      util_dynarray_init(&g->preds, gs);
      for (unsigned j = 0; j + 1 < ng; j++) {
         struct grp *p = &gs[j];
         if ((p->writes & g->reads) || (p->reads & g->writes) ||
             (p->writes & g->writes) || (p->store && (g->load || g->store)) ||
             (g->store && p->load))
            util_dynarray_append(&g->preds, unsigned, j);
      }
   }
   /* Priorities: longest path to the end of the block. */
   for (int i = ng - 1; i >= 0; i--) {
      gs[i].prio = MAX2(gs[i].prio, 1);
      util_dynarray_foreach(&gs[i].preds, unsigned, p) gs[*p].prio =
         MAX2(gs[*p].prio, gs[i].prio + 1);
   }

   unsigned *order = ralloc_array(gs, unsigned, ng ? ng : 1);
   for (unsigned placed = 0; placed < ng;) {
      int cur = nr_bundles(e); /* index of the bundle we open */
      unsigned nr = 0;
      for (unsigned i = 0; i < ng; i++) {
         if (grp_ready(&gs[i], gs, cur))
            order[nr++] = i;
      }
      /* Highest priority first, then program order (insertion sort). */
      for (unsigned i = 1; i < nr; i++) {
         unsigned x = order[i], j = i;
         for (; j > 0 && gs[order[j - 1]].prio < gs[x].prio; j--)
            order[j] = order[j - 1];
         order[j] = x;
      }
      if (!nr) {
         ok = mid_error(e->s, "scheduler: nothing ready");
         goto out;
      }
      enum mid_kind kind = gs[order[0]].I->kind;
      struct bundle *b = new_bundle(e, kind == MID_ALU   ? B_ALU
                                       : kind == MID_TEX ? B_TEX
                                                         : B_LDST);
      unsigned took = 0;
      for (unsigned k = 0; k < nr; k++) {
         struct grp *g = &gs[order[k]];
         if (g->I->kind != kind)
            continue;
         bool fits;
         if (kind == MID_ALU)
            fits = try_alu(e, b, g->I, g->next);
         else if (kind == MID_TEX)
            fits = !took && (b->ls[0] = g->I);
         else if ((fits = took < 2))
            b->ls[took] = g->I;
         if (!fits)
            continue;
         took++;
         g->bundle = cur;
         placed++;
      }
      if (!took) {
         ok = mid_error(e->s, "cannot schedule %s", gs[order[0]].I->op);
         goto out;
      }
   }

   if (term && term->kind == MID_WRITEOUT) {
      for (unsigned k = 0; k < 2; k++) {
         struct bundle *b = new_bundle(e, B_WRITEOUT);
         b->branch = term;
         b->writeout_last = k == 1;
      }
   } else if (term) {
      /* Into the block's last ALU bundle when free, else a new one. */
      int last = nr_bundles(e) - 1;
      struct bundle *b = ng && last >= 0 ? bundle_at(e, last) : NULL;
      bool placed = false;
      if (b && b->kind == B_ALU && !b->branch) {
         bool feed_ready = true;
         if (term_feed) {
            uint32_t r = instr_reads(e->s, term_feed);
            for (unsigned i = 0; i < ng; i++) {
               if (gs[i].bundle == last && (gs[i].writes & r))
                  feed_ready = false;
            }
         }
         if (!term_feed)
            placed = (b->branch = term) != NULL;
         else if (feed_ready)
            placed = try_alu(e, b, term_feed, term);
      }
      if (!placed) {
         b = new_bundle(e, B_ALU);
         if (!term_feed)
            b->branch = term;
         else if (!try_alu(e, b, term_feed, term))
            ok = mid_error(e->s, "cannot schedule the branch condition");
      }
   }
out:
   ralloc_free(gs);
   /* An empty block still needs a place to branch to: the next bundle
    * (or a final empty one, added by the caller). */
   return ok && !e->s->failed;
}

/* --- Encoding ------------------------------------------------------------ */

static bool
set(struct mid_shader *s, struct pan_mid_instr *P, const char *f, uint64_t v)
{
   if (!pan_mid_instr_set(P, f, v))
      return mid_error(s, "encoding: %s=%llu does not fit", f,
                       (unsigned long long)v);
   return true;
}

static unsigned
fmod_of(const struct mid_src *src)
{
   return (src->abs ? 1 : 0) | (src->neg ? 2 : 0);
}

static bool
encode_alu(struct mid_shader *s, struct bundle *b, unsigned u,
           struct pan_mid_instr *P)
{
   struct mid_instr *I = b->unit[u];
   if (!pan_mid_instr_init(P, u, I->op))
      return mid_error(s, "no ISA opcode %s", I->op);
   bool scalar = u == PAN_MID_SADD || u == PAN_MID_SMUL;
   bool is_int = op_is_int(I->op);
   unsigned dl = lane_of(I->mask);
   bool ok = true;

   ok &= set(s, P, "d", reg_of(s, I->dst));
   for (unsigned i = 0; i < 2; i++) {
      const struct mid_src *src = &I->src[i];
      const char *rf = i ? "b" : "a";
      char name[8];
      if (i == 1 && b->imm[u]) {
         unsigned imm = b->imm16[u];
         ok &= set(s, P, "bimm", 1);
         ok &= set(s, P, "b", imm >> 11);
         if (scalar) {
            ok &= set(s, P, "bmod", (imm >> 9) & 3);
            ok &= set(s, P, "bfull", (imm >> 8) & 1);
            ok &= set(s, P, "bcomp", (imm >> 5) & 7);
            ok &= set(s, P, "bhi", imm & 31);
         } else {
            ok &= set(s, P, "bexp", (imm >> 8) & 7);
            ok &= set(s, P, "bswz", imm & 0xff);
         }
         continue;
      }
      int reg = is_const(src) ? 26 : reg_of(s, src->ref);
      if (reg < 0)
         reg = 24; /* unused operand */
      ok &= set(s, P, rf, reg);
      if (!is_int && src->ref.kind != MID_REF_NONE) {
         snprintf(name, sizeof(name), "%smod", rf);
         ok &= set(s, P, name, fmod_of(src));
      }
      uint8_t swz[4];
      for (unsigned l = 0; l < 4; l++) {
         unsigned from = (I->mask & (1u << l)) ? l : dl;
         swz[l] = is_const(src) ? b->cslot[u][i][from] : src->swz[from];
      }
      if (scalar) {
         snprintf(name, sizeof(name), "%sfull", rf);
         ok &= set(s, P, name, 1);
         snprintf(name, sizeof(name), "%scomp", rf);
         ok &= set(s, P, name, 2 * swz[dl]);
      } else {
         snprintf(name, sizeof(name), "%sswz", rf);
         ok &=
            set(s, P, name, swz[0] | swz[1] << 2 | swz[2] << 4 | swz[3] << 6);
      }
   }
   unsigned omod = I->int_result ? 2 : I->omod;
   ok &= set(s, P, "omod", omod);
   if (scalar) {
      ok &= set(s, P, "dfull", 1);
      ok &= set(s, P, "dcomp", 2 * dl);
   } else {
      unsigned m = 0;
      for (unsigned l = 0; l < 4; l++) {
         if (I->mask & (1u << l))
            m |= 3u << (2 * l);
      }
      ok &= set(s, P, "mask", m);
   }
   return ok;
}

static bool
encode_ls(struct mid_shader *s, const struct mid_instr *I,
          struct pan_mid_instr *P)
{
   if (!I) {
      pan_mid_instr_init(P, PAN_MID_LDST, "nop");
      return true;
   }
   if (!pan_mid_instr_init(P, PAN_MID_LDST, I->op))
      return mid_error(s, "no load/store opcode %s", I->op);
   bool ok = set(s, P, "reg", I->store ? 1 : reg_of(s, I->dst));
   ok &= set(s, P, "mask", I->mask);
   ok &= set(s, P, "swz", I->ls.swz);
   ok &= set(s, P, "acomp", I->ls.acomp);
   ok &= set(s, P, "areg", I->ls.areg);
   ok &= set(s, P, "wide", I->ls.wide);
   ok &= set(s, P, "ifmt", I->ls.ifmt);
   ok &= set(s, P, "icomp", I->ls.icomp);
   ok &= set(s, P, "ireg", I->ls.ireg);
   ok &= set(s, P, "ishift", I->ls.ishift);
   ok &= set(s, P, "offset", (uint64_t)(int64_t)I->ls.offset);
   return ok;
}

static bool
encode_tex(struct mid_shader *s, const struct mid_instr *I,
           struct pan_mid_instr *P)
{
   if (!pan_mid_instr_init(P, PAN_MID_TEX, I->op))
      return mid_error(s, "no texture opcode %s", I->op);
   const struct mid_tex *t = &I->tex;
   bool ok = set(s, P, "mode", t->mode);
   /* Helper invocations run every texture word to the end (the stock
    * compiler may let them skip or stop; always correct, slower). */
   ok &= set(s, P, "exec", 3);
   ok &= set(s, P, "dim", t->dim);
   ok &= set(s, P, "infull", 1);
   ok &= set(s, P, "outfull", 1);
   ok &= set(s, P, "stype", t->stype);
   ok &= set(s, P, "mask", I->mask);
   ok &= set(s, P, "texture", t->texture);
   ok &= set(s, P, "sampler", t->sampler);
   if (t->lodreg) {
      /* Register select: 32-bit, r29, component x. */
      ok &= set(s, P, "lodreg", 1);
      ok &= set(s, P, "bias", 0x3);
   } else {
      ok &= set(s, P, "bias", t->bias);
      ok &= set(s, P, "biasi", (uint64_t)(int64_t)(int8_t)t->biasi);
   }
   return ok;
}

/* Tag of the bundle at index i (the one after the last: break). */
static unsigned
tag_at(struct emit *e, unsigned i)
{
   unsigned n = util_dynarray_num_elements(&e->bundles, struct bundle);
   if (i >= n)
      return 1; /* break */
   return util_dynarray_element(&e->bundles, struct bundle, i)->tag;
}

static unsigned
bundle_index_of_block(struct emit *e, struct mid_block *blk)
{
   unsigned i = 0;
   util_dynarray_foreach(&e->bundles, struct bundle, b)
   {
      if (b->block && b->block->index >= blk->index)
         return i;
      i++;
   }
   return i;
}

/* Encode bundle i into out (64 bytes); 0 on failure. */
static size_t
encode_bundle(struct emit *e, unsigned i, uint8_t *out)
{
   struct mid_shader *s = e->s;
   struct bundle *b = util_dynarray_element(&e->bundles, struct bundle, i);
   struct pan_mid_bundle pb = { 0 };
   pb.next_tag = tag_at(e, i + 1);

   if (b->kind == B_LDST) {
      pb.tag = 5;
      pb.nr_instrs = 2;
      if (!encode_ls(s, b->ls[0], &pb.instrs[0]) ||
          !encode_ls(s, b->ls[1], &pb.instrs[1]))
         return 0;
      return pan_mid_encode_bundle(&pb, out);
   }

   if (b->kind == B_TEX) {
      pb.tag = b->ls[0]->tex.vertex ? 2 : 3;
      pb.nr_instrs = 1;
      if (!encode_tex(s, b->ls[0], &pb.instrs[0]))
         return 0;
      return pan_mid_encode_bundle(&pb, out);
   }

   if (b->kind == B_WRITEOUT) {
      /* Colour to r0, r1.w from r31 (what the stock code sets up for the
       * blend unit), then the writeout branch. */
      struct pan_mid_instr *P = &pb.instrs[pb.nr_instrs++];
      pan_mid_instr_init(P, PAN_MID_VMUL, "imov");
      int creg = reg_of(s, b->branch->src[0].ref);
      bool ok = set(s, P, "a", 24) && set(s, P, "b", creg) &&
                set(s, P, "aswz", 0) && set(s, P, "omod", 2);
      P = &pb.instrs[pb.nr_instrs++];
      pan_mid_instr_init(P, PAN_MID_VADD, "iadd");
      ok &= set(s, P, "a", 31) && set(s, P, "d", 1) && set(s, P, "bimm", 1) &&
            set(s, P, "aswz", 0) && set(s, P, "bswz", 0) &&
            set(s, P, "omod", 2) && set(s, P, "mask", 0xc0);
      P = &pb.instrs[pb.nr_instrs++];
      pan_mid_instr_init(P, PAN_MID_BRX, "writeout");
      unsigned self_tag = b->tag, next = tag_at(e, i + 1);
      ok &= set(s, P, "target", b->writeout_last ? self_tag : next) &&
            set(s, P, "offset",
                b->writeout_last ? (uint64_t) - (int64_t)b->size_qw : 0) &&
            set(s, P, "lut", 0xffff);
      if (!ok)
         return 0;
   } else {
      for (unsigned u = 0; u < 5; u++) {
         if (!b->unit[u])
            continue;
         if (!encode_alu(s, b, u, &pb.instrs[pb.nr_instrs++]))
            return 0;
      }
      if (b->branch) {
         struct mid_instr *B = b->branch;
         unsigned ti = bundle_index_of_block(e, B->target);
         struct bundle *t =
            ti < util_dynarray_num_elements(&e->bundles, struct bundle)
               ? util_dynarray_element(&e->bundles, struct bundle, ti)
               : NULL;
         int64_t off = (int64_t)(t ? t->qw : 0) - (b->qw + b->size_qw);
         unsigned cond = B->cond == MID_COND_ALWAYS ? 3
                         : B->cond == MID_COND_TRUE ? 2
                                                    : 1;
         struct pan_mid_instr *P = &pb.instrs[pb.nr_instrs++];
         bool ok;
         if (b->extended) {
            pan_mid_instr_init(P, PAN_MID_BRX,
                               B->cond == MID_COND_ALWAYS ? "uncond" : "cond");
            /* One condition: its 2-bit code repeated over the table. */
            unsigned lut = 0;
            for (unsigned k = 0; k < 8; k++)
               lut |= cond << (2 * k);
            ok = set(s, P, "target", tag_at(e, ti)) &&
                 set(s, P, "offset", (uint64_t)off) && set(s, P, "lut", lut);
         } else if (B->cond == MID_COND_ALWAYS) {
            pan_mid_instr_init(P, PAN_MID_BR, "uncond");
            ok = set(s, P, "target", tag_at(e, ti));
            if (off < -64 || off > 63)
               b->extended = true;
            else
               ok &= set(s, P, "offset", (uint64_t)off);
         } else {
            pan_mid_instr_init(P, PAN_MID_BR, "cond");
            ok = set(s, P, "target", tag_at(e, ti)) && set(s, P, "cond", cond);
            if (off < -64 || off > 63)
               b->extended = true;
            else
               ok &= set(s, P, "offset", (uint64_t)off);
         }
         if (!ok)
            return 0;
      }
   }
   if (b->nr_consts) {
      pb.has_consts = true;
      memcpy(pb.consts, b->consts, sizeof(pb.consts));
   }
   /* The smallest ALU tag the words fit (writeout tags from 12). */
   unsigned base = b->kind == B_WRITEOUT ? 12 : 8;
   for (unsigned t = base; t < base + 4; t++) {
      pb.tag = t;
      size_t n = pan_mid_encode_bundle(&pb, out);
      if (n)
         return n;
   }
   mid_error(s, "bundle does not encode");
   return 0;
}

bool
mid_emit(struct mid_shader *s, struct mid_binary *out)
{
   struct emit e = { .s = s };
   util_dynarray_init(&e.bundles, NULL);
   bool ok = true;

   mid_foreach_block(s, blk)
   {
      if (!schedule_block(&e, blk)) {
         ok = false;
         goto done;
      }
   }
   /* Branches to an empty last block land on a final empty bundle. */
   if (e.pending_block ||
       !util_dynarray_num_elements(&e.bundles, struct bundle))
      new_bundle(&e, B_ALU);

   unsigned n = util_dynarray_num_elements(&e.bundles, struct bundle);
   uint8_t tmp[64];
   /* Lay out until the sizes (compact or extended branches) settle. */
   for (unsigned iter = 0; iter < 8; iter++) {
      bool changed = false;
      unsigned qw = 0;
      for (unsigned i = 0; i < n; i++) {
         struct bundle *b = util_dynarray_element(&e.bundles, struct bundle, i);
         b->qw = qw;
         bool was_ext = b->extended;
         size_t size = encode_bundle(&e, i, tmp);
         if (!size) {
            ok = mid_error(s, "bundle %u does not encode", i);
            goto done;
         }
         if (b->extended != was_ext)
            size = encode_bundle(&e, i, tmp);
         changed |= b->size_qw != size / 16 || b->tag != (tmp[0] & 0xf) ||
                    b->extended != was_ext;
         b->size_qw = size / 16;
         b->tag = tmp[0] & 0xf;
         qw += b->size_qw;
      }
      if (!changed)
         break;
   }

   unsigned qw_total = 0;
   util_dynarray_foreach(&e.bundles, struct bundle, b) qw_total += b->size_qw;
   out->size_B = (qw_total + 1) * 16;
   out->code = rzalloc_array(s->mem, uint8_t, out->size_B);
   out->nr_instrs = 0;
   out->nr_bundles = n;
   for (unsigned i = 0; i < n; i++) {
      struct bundle *b = util_dynarray_element(&e.bundles, struct bundle, i);
      size_t size = encode_bundle(&e, i, out->code + b->qw * 16);
      if (size != b->size_qw * 16) {
         ok = mid_error(s, "bundle %u changed size", i);
         goto done;
      }
      for (unsigned u = 0; u < 5; u++)
         out->nr_instrs += b->unit[u] != NULL;
      out->nr_instrs += (b->branch != NULL) + (b->ls[0] != NULL) +
                        (b->ls[1] != NULL) + (b->kind == B_WRITEOUT ? 2 : 0);
   }
done:
   util_dynarray_fini(&e.bundles);
   return ok && !s->failed;
}
