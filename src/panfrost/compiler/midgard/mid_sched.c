/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Bundle scheduling, before register allocation.  Each block is list
 * scheduled over a dependence graph of its instructions (an r31 feeder
 * with its select as one group) built on variables, per lane, and fixed
 * registers, so only true conflicts order instructions: allocating first
 * would add false ones between unrelated values sharing a register.
 * Stores stay ordered against loads, stores and texture words.
 *
 * Bundle after bundle, the ready group of highest priority (longest path
 * to the end of the block, then program order) chooses the bundle kind and
 * every other ready group that fits joins: an ALU instruction needs a free
 * unit that runs it (single-lane work prefers the scalar units) and room
 * for its constants in the four embedded words or the 16-bit inline
 * immediate of its second source; up to two loads/stores share a bundle.
 * A group is ready once its predecessors are in closed bundles, or in the
 * first stage (vmul, sadd) of the open bundle when it takes a unit of the
 * second (vadd, smul, lut), which sees the first stage's writes.  Such a
 * value read by that instruction only goes through r24 or r25 instead of
 * a work register.
 *
 * Higher levels (s->level) bound register pressure: past a budget of live
 * variables, groups that free registers go first and new values wait;
 * the last levels also only consider the first few unscheduled groups in
 * program order.  The caller retries with them when allocation runs out
 * of registers or costs threads.  The blocks' instruction lists are rewritten
 * in bundle order for register allocation.
 */

#include <string.h>

#include "isa/pan_isa_mid.h"
#include "util/half_float.h"
#include "util/ralloc.h"
#include "util/u_math.h"

#include "mid_ir.h"
#include "mid_pack.h"

static unsigned
lane_of(unsigned mask)
{
   return ffs(mask) - 1;
}

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
   if (mid_op_is_int(I->op)) {
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
      if (!is_const(src) || mid_op_is_int(I->op))
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
place_consts(struct mid_bundle *b, unsigned unit, struct mid_instr *I,
             bool commit)
{
   uint32_t words[4];
   unsigned n = b->nr_consts;
   memcpy(words, b->consts, sizeof(words));
   uint16_t imm = 0;
   /* Cross-lane ops read constant lanes their mask leaves out. */
   unsigned read = mid_read_positions(I);
   bool use_imm = inline_imm(I, read, &imm);

   for (unsigned i = 0; i < I->nr_srcs; i++) {
      if (!is_const(&I->src[i]) || (i == 1 && use_imm))
         continue;
      for (unsigned l = 0; l < 4; l++) {
         if (!(read & (1u << l)))
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
   if (mid_lane_count(I->mask) != 1)
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

/* A free unit in (after, before) that runs I and has room for its
 * constants, or -1. */
static int
pick_unit(struct mid_bundle *b, struct mid_instr *I, int after, int before)
{
   unsigned units = units_for(I);
   const enum pan_mid_slot *order =
      mid_lane_count(I->mask) == 1 ? scalar_first : vector_first;
   for (unsigned k = 0; k < 5; k++) {
      int u = order[k];
      if (!(units & (1u << u)) || b->unit[u] || u <= after || u >= before)
         continue;
      if (place_consts(b, u, I, false))
         return u;
   }
   return -1;
}

static void
add_to(struct mid_bundle *b, unsigned u, struct mid_instr *I)
{
   place_consts(b, u, I, true);
   b->unit[u] = I;
}

/* Place an ALU instruction, or a pair whose first feeds r31 to the second
 * (a select or a conditional branch), on units after `after`; b is
 * unchanged when it does not fit. */
static bool
try_alu(struct mid_bundle *b, struct mid_instr *I, struct mid_instr *next,
        int after)
{
   if (!next) {
      int u = pick_unit(b, I, after, 5);
      if (u < 0)
         return false;
      add_to(b, u, I);
      return true;
   }
   if (next->kind == MID_BRANCH) {
      int u = b->branch ? -1 : pick_unit(b, I, after, 5);
      if (u < 0)
         return false;
      add_to(b, u, I);
      b->branch = next;
      return true;
   }
   struct mid_bundle saved = *b;
   for (int uf = after + 1; uf < 5; uf++) {
      if (b->unit[uf] || !(units_for(I) & (1u << uf)) ||
          !place_consts(b, uf, I, false))
         continue;
      add_to(b, uf, I);
      int us = pick_unit(b, next, uf, 5);
      if (us >= 0) {
         add_to(b, us, next);
         return true;
      }
      *b = saved;
   }
   return false;
}

/* --- Dependences ---------------------------------------------------------- */

struct use {
   unsigned var;
   uint8_t lanes;
};

struct grp {
   struct mid_instr *I, *next;
   struct use rd[4], wr[2];
   unsigned nr_rd, nr_wr;
   uint32_t hw_rd, hw_wr;
   uint8_t hw_lanes; /* lanes of the fixed registers written (ALU) */
   uint8_t rd27;     /* lanes of r27 read */
   unsigned prio;
   int bundle; /* index of the bundle it went to, -1: not yet */
   int unit;
   bool store, load;
   const unsigned *preds; /* indices of the groups it depends on */
   unsigned nr_preds;
   const unsigned *succs; /* and of those depending on it */
   unsigned nr_succs;
   unsigned npend; /* predecessors not in a bundle yet */
   int last;       /* the latest bundle of a placed predecessor */
   /* The unplaced groups in program order, a ring through the entry
    * after the last group: the window skips the placed ones. */
   unsigned prv, nxt;
};

/* Lanes of r27 I reads: only its index lane for a load taking nothing
 * else from r27 (indirect UBO indices go to lanes in turn, so two such
 * loads may share a bundle), else all four. */
static uint8_t
r27_lanes(const struct mid_instr *I)
{
   if (!(mid_hw_reads(I) & (1u << 27)))
      return 0;
   if (I->kind == MID_LDST && !I->store && I->ls.ireg == 1 &&
       (I->ls.areg != 1 || !strncmp(I->op, "ld_ubo", 6)))
      return 1u << I->ls.icomp;
   return 0xf;
}

static void
add_instr_uses(struct grp *g, const struct mid_instr *I)
{
   for (unsigned i = 0; i < I->nr_srcs; i++) {
      const struct mid_src *src = &I->src[i];
      if (src->ref.kind != MID_REF_VAR)
         continue;
      g->rd[g->nr_rd++] = (struct use){ src->ref.index, mid_src_lanes(I, src) };
   }
   g->hw_rd |= mid_hw_reads(I);
   g->rd27 |= r27_lanes(I);
   if (I->store)
      return;
   if (I->dst.kind == MID_REF_VAR)
      g->wr[g->nr_wr++] = (struct use){ I->dst.index, I->mask };
   else if (I->dst.kind == MID_REF_HW) {
      g->hw_wr |= 1u << I->dst.index;
      g->hw_lanes |= I->kind == MID_ALU ? I->mask : 0xf;
   }
}

static bool
overlap(const struct use *a, unsigned na, const struct use *b, unsigned nb)
{
   for (unsigned i = 0; i < na; i++) {
      for (unsigned j = 0; j < nb; j++) {
         if (a[i].var == b[j].var && (a[i].lanes & b[j].lanes))
            return true;
      }
   }
   return false;
}

/* With lanes, ALU writes of other lanes of a fixed register do not order
 * each other (a store's data assembled lane by lane, or in one bundle);
 * the reads between them still do.  The ordered levels keep them in
 * order: in some shaders the freedom costs the register that keeps four
 * threads. */
/* Whether r reads a fixed register w writes (r27 by lanes). */
static bool
reads_fixed(const struct grp *w, const struct grp *r)
{
   uint32_t common = w->hw_wr & r->hw_rd;
   if (common == (1u << 27))
      return (w->hw_lanes & r->rd27) != 0;
   return common != 0;
}

static bool
depends_on_fixed(const struct grp *p, const struct grp *g, bool lanes)
{
   return reads_fixed(p, g) || reads_fixed(g, p) ||
          ((p->hw_wr & g->hw_wr) && (!lanes || (p->hw_lanes & g->hw_lanes))) ||
          (p->store && (g->load || g->store)) || (g->store && p->load);
}

static bool
depends_on_vars(const struct grp *p, const struct grp *g)
{
   return overlap(p->wr, p->nr_wr, g->rd, g->nr_rd) ||
          overlap(p->rd, p->nr_rd, g->wr, g->nr_wr) ||
          overlap(p->wr, p->nr_wr, g->wr, g->nr_wr);
}

static bool
depends(const struct grp *p, const struct grp *g, bool lanes)
{
   return depends_on_vars(p, g) || depends_on_fixed(p, g, lanes);
}

/* One bit per variable (v % 64) of what g reads and writes: groups whose
 * bits do not meet share no variable (most pairs of a block). */
static void
var_bits(const struct grp *g, uint64_t *rd, uint64_t *wr)
{
   *rd = *wr = 0;
   for (unsigned i = 0; i < g->nr_rd; i++)
      *rd |= 1ull << (g->rd[i].var % 64);
   for (unsigned i = 0; i < g->nr_wr; i++)
      *wr |= 1ull << (g->wr[i].var % 64);
}

/* --- Pipeline registers --------------------------------------------------- */

/* What scheduling derives from the IR alone, the same for every level:
 * made by the first schedule of an IR, shared by the clones of it
 * (struct mid_shader::sched_cache). */
struct block_deps {
   unsigned ng;
   unsigned *off;   /* group i depends on preds[off[i]..off[i + 1]) */
   unsigned *preds;
   unsigned *soff;  /* succs[soff[i]..soff[i + 1]) depend on group i */
   unsigned *succs;
   unsigned *prio;
};

struct mid_sched_cache {
   bool ready;
   unsigned *readers, *writers;
   uint8_t *live_in, *live_out, *weight, *full;
   unsigned nr_blocks;
   struct block_deps *blk;
};

struct mid_sched_cache *
mid_sched_cache_create(void *mem)
{
   return rzalloc(mem, struct mid_sched_cache);
}

const uint8_t *
mid_sched_cache_live(const struct mid_sched_cache *c, bool out)
{
   return c && c->ready ? (out ? c->live_out : c->live_in) : NULL;
}

struct sched {
   struct mid_shader *s;
   struct mid_sched_cache *cache;
   struct block_deps *deps; /* of the block being scheduled */
   uint8_t *live_in;  /* per block and variable (mid_live_in) */
   uint8_t *live_out; /* of the block being scheduled, per variable */
   unsigned *readers; /* per variable: sources reading it */
   unsigned *writers; /* per variable: instructions writing it */
   uint8_t *weight;   /* per variable: quarter registers (mid_pack_weights) */
   uint8_t *full;     /* 4 for every variable */
   /* Per writeout (program order): the move of a constant or uniform
    * colour it writes to r0 itself (cheap_colours), or NULL. */
   struct mid_instr *wo_mov[MID_MAX_RTS];
   /* Bundles of the finished blocks that no later pass removes
    * (may_vanish), against s->sched_cutoff. */
   unsigned stay;
};

/* A scalar multiply the scalar-first order put on smul moves to a free
 * vmul so its value can be forwarded to the second stage. */
static bool
to_first_stage(struct mid_bundle *b, struct grp *p)
{
   if (p->unit != PAN_MID_SMUL)
      return true;
   if (b->unit[PAN_MID_VMUL] || !(units_for(p->I) & (1u << PAN_MID_VMUL)))
      return false;
   b->unit[PAN_MID_SMUL] = NULL;
   b->imm[PAN_MID_SMUL] = false;
   if (!place_consts(b, PAN_MID_VMUL, p->I, false)) {
      b->unit[PAN_MID_SMUL] = p->I;
      return false;
   }
   add_to(b, PAN_MID_VMUL, p->I);
   p->unit = PAN_MID_VMUL;
   return true;
}

static bool
reads_from_bundle(const struct grp *g, const struct grp *gs, int cur)
{
   for (unsigned k = 0; k < g->nr_preds; k++) {
      if (gs[g->preds[k]].bundle == cur)
         return true;
   }
   return false;
}

/*
 * Can g join bundle b (index cur) on a second-stage unit, reading what its
 * pending predecessors (lone ALU instructions of this bundle's first
 * stage) write?  The second stage sees the first stage's writes; nothing
 * but g reading p's value may tie them.  A value g alone reads, from its
 * only writer, with every lane g reads, goes through r24/r25 while they
 * are free (no work register); the others keep their register, if `work`
 * (register pressure allows it).
 */
static bool
try_forward(struct sched *sc, struct mid_bundle *b, struct grp *gs,
            struct grp *g, int cur, bool work)
{
   if (g->next || g->I->kind != MID_ALU)
      return false;
   unsigned fwd[4], nr = 0;
   bool pipe[4];
   unsigned nr_pipe = 0;
   for (unsigned k = 0; k < g->nr_preds; k++) {
      const unsigned *pi = &g->preds[k];
      struct grp *p = &gs[*pi];
      if (p->bundle >= 0 && p->bundle < cur)
         continue;
      if (p->bundle != cur || p->next || p->nr_wr != 1 || p->hw_wr ||
          (p->unit != PAN_MID_VMUL && p->unit != PAN_MID_SADD &&
           p->unit != PAN_MID_SMUL) ||
          nr == ARRAY_SIZE(fwd))
         return false;
      unsigned v = p->wr[0].var;
      if (v == ~0u)
         return false;
      /* A second-stage p that reads a value of this bundle cannot move to
       * the first stage, whose units all read the bundle's inputs. */
      if (p->unit == PAN_MID_SMUL && reads_from_bundle(p, gs, cur))
         return false;
      /* The only tie must be g reading p's value. */
      bool read = false, all = true;
      for (unsigned i = 0; i < g->nr_rd; i++) {
         if (g->rd[i].var == v) {
            all &= !(g->rd[i].lanes & ~p->wr[0].lanes);
            read = true;
         }
      }
      if (!read || overlap(p->rd, p->nr_rd, g->wr, g->nr_wr) ||
          overlap(p->wr, p->nr_wr, g->wr, g->nr_wr) || (p->hw_wr & g->hw_rd) ||
          (p->hw_rd & g->hw_wr))
         return false;
      pipe[nr] = all && sc->readers[v] == 1 && sc->writers[v] == 1 &&
                 mid_lane_count(b->pipe_used) + nr_pipe < 2;
      if (!work && !pipe[nr])
         return false;
      nr_pipe += pipe[nr];
      fwd[nr++] = *pi;
   }
   if (!nr)
      return false;
   struct mid_bundle saved = *b;
   int units[ARRAY_SIZE(fwd)];
   bool ok = true;
   for (unsigned k = 0; k < nr; k++)
      units[k] = gs[fwd[k]].unit;
   for (unsigned k = 0; k < nr && ok; k++)
      ok = to_first_stage(b, &gs[fwd[k]]);
   int u = ok ? pick_unit(b, g->I, PAN_MID_SADD, 5) : -1;
   if (u < 0) {
      *b = saved;
      for (unsigned k = 0; k < nr; k++)
         gs[fwd[k]].unit = units[k];
      return false;
   }
   add_to(b, u, g->I);
   g->unit = u;
   for (unsigned k = 0; k < nr; k++) {
      struct grp *p = &gs[fwd[k]];
      if (!pipe[k])
         continue;
      unsigned r = (b->pipe_used & 1) ? 25 : 24;
      b->pipe_used |= 1u << (r - 24);
      unsigned v = p->wr[0].var;
      p->I->dst = mid_hw(r);
      for (unsigned i = 0; i < g->I->nr_srcs; i++) {
         if (g->I->src[i].ref.kind == MID_REF_VAR &&
             g->I->src[i].ref.index == v)
            g->I->src[i].ref = mid_hw(r);
      }
      p->wr[0].var = ~0u; /* no longer a variable */
   }
   return true;
}

/* --- List scheduling ------------------------------------------------------ */

/* Add g's successors to the candidates cand[from..*nr), kept in program
 * order (successors come after g, so after the candidate being tried). */
static void
add_candidates(const struct grp *gs, const struct grp *g, unsigned *cand,
               unsigned *nr, unsigned from, bool *marked)
{
   for (unsigned k = 0; k < g->nr_succs; k++) {
      unsigned x = g->succs[k];
      if (marked[x] || gs[x].bundle >= 0)
         continue;
      marked[x] = true;
      unsigned j = (*nr)++;
      for (; j > from && cand[j - 1] > x; j--)
         cand[j] = cand[j - 1];
      cand[j] = x;
   }
}

/* Every predecessor in a closed bundle. */
static bool
grp_ready(const struct grp *g, int cur)
{
   return g->bundle < 0 && !g->npend && g->last < cur;
}

static void
place(struct grp *gs, struct grp *g, int cur)
{
   g->bundle = cur;
   gs[g->prv].nxt = g->nxt;
   gs[g->nxt].prv = g->prv;
   for (unsigned k = 0; k < g->nr_succs; k++) {
      struct grp *n = &gs[g->succs[k]];
      n->npend--;
      n->last = MAX2(n->last, cur);
   }
}

static int
nr_bundles(struct mid_shader *s)
{
   return util_dynarray_num_elements(&s->bundles, struct mid_bundle);
}

static struct mid_bundle *
new_bundle(struct mid_shader *s, enum mid_bkind kind, struct mid_block **blk)
{
   struct mid_bundle *b = util_dynarray_grow(&s->bundles, struct mid_bundle, 1);
   if (!b) {
      /* Out of memory: the compile fails, the caller fills a scratch. */
      mid_error(s, "out of memory for bundles");
      b = &s->scratch;
   }
   memset(b, 0, sizeof(*b));
   b->kind = kind;
   b->block = *blk;
   *blk = NULL;
   return b;
}

static struct mid_bundle *
bundle_at(struct mid_shader *s, int i)
{
   return util_dynarray_element(&s->bundles, struct mid_bundle, i);
}

/* Per level: how many unscheduled groups it considers, in program order
 * (~0: all), the quarter registers the block may keep live before new
 * values wait (0: any), and whether a bundle's last reads free registers
 * only when it closes (strict: as allocation sees them when a later unit
 * writes) or at once (tighter bundles, sometimes a register more).  The
 * non-strict levels count packable values by their lanes, an optimistic
 * count, so they get some slack over the 16, 8 and 4 registers of one,
 * two and four threads (tuned on shader-db).
 *
 * Past the first six, the levels look at a window of the next groups:
 * the priority (longest path) alone starts every long chain at once, and
 * a budget then serialises what is left, where a window keeps the order
 * close to the program's and still fills bundles from nearby work.  On
 * shader-db each window below wins somewhere; the last one (3, without
 * move elimination) always fits.  Writes of other lanes of a fixed
 * register (store data) do not order each other but at the last four
 * levels, copies of the four-thread ones where that freedom can cost the
 * register that keeps four threads. */
#define W(win, quarters, strict_frees, ordered)                                \
   {                                                                           \
      win, quarters, strict_frees, ordered                                     \
   }
static const struct {
   unsigned window, budget;
   bool strict;
   bool ordered; /* writes of a fixed register keep their order (depends) */
} levels[MID_SCHED_LEVELS] = {
   W(~0u, 0, false, false),  W(~0u, 56, false, false),
   W(~0u, 40, false, false), W(~0u, 32, true, false),
   W(~0u, 22, false, false), W(~0u, 16, true, false),
   W(16, 0, false, false),   W(8, 0, false, false),
   W(32, 56, false, false),  W(32, 40, false, false),
   W(32, 22, false, false),  W(16, 56, false, false),
   W(16, 22, false, false),  W(10, 56, false, false),
   W(10, 22, false, false),  W(6, 56, false, false),
   W(6, 22, false, false),   W(4, 40, false, false),
   W(4, 22, false, false),   W(16, 32, true, false),
   W(16, 16, true, false),   W(6, 16, true, false),
   W(~0u, 16, true, true),   W(16, 16, true, true),
   W(6, 16, true, true),     W(3, 16, true, true),
};
#undef W

unsigned
mid_sched_window(unsigned level)
{
   return levels[MIN2(level, MID_SCHED_LEVELS - 1)].window;
}

bool
mid_sched_strict(unsigned level)
{
   return levels[MIN2(level, MID_SCHED_LEVELS - 1)].strict;
}

bool
mid_sched_ordered(unsigned level)
{
   return levels[MIN2(level, MID_SCHED_LEVELS - 1)].ordered;
}

unsigned
mid_sched_limit(const struct mid_shader *s, unsigned level)
{
   unsigned limit = levels[MIN2(level, MID_SCHED_LEVELS - 1)].budget;
   /* A texture result in a work register (small cores) is a value the
    * budget does not see: leave it one register. */
   if (limit && s->tex_out < 16 && s->nr_tex)
      limit -= 4;
   return limit;
}

/* Register pressure as the block's schedule grows: values live into the
 * block are live from its start, values live out of it from their write
 * to its end, the others from their write to their last reader here. */
struct pressure {
   unsigned *remaining; /* per variable: unplaced readers in the block */
   const uint8_t *out;  /* per variable: lanes live out of the block */
   const uint8_t *weight; /* per variable: quarter registers it takes */
   bool *live;
   unsigned nr_live; /* in quarter registers */
   /* The smallest budget that would never have held a group back: above
    * nr_live at each bundle's start (where a budget reached reorders),
    * at least nr_live + cost of each group taken. */
   unsigned peak;
};

static void
note_peak(struct pressure *pr, int n)
{
   pr->peak = MAX2(pr->peak, (unsigned)MAX2(n, 0));
}

static bool
dies(const struct pressure *pr, unsigned v)
{
   return pr->remaining[v] == 1 && !pr->out[v];
}

/* Live variables placing g adds (its new values less its last uses);
 * with only_new, its new values. */
static int
cost(const struct pressure *pr, const struct grp *g, bool only_new)
{
   int c = 0;
   for (unsigned i = 0; i < g->nr_wr; i++) {
      unsigned v = g->wr[i].var;
      if (v != ~0u && !pr->live[v] && (pr->remaining[v] || pr->out[v]))
         c += pr->weight[v];
   }
   for (unsigned i = 0; i < g->nr_rd && !only_new; i++) {
      unsigned v = g->rd[i].var;
      if (pr->live[v] && dies(pr, v))
         c -= pr->weight[v];
   }
   return c;
}

/* Last reads free their variables only when the bundle closes: a later
 * unit's write may not take the register an earlier unit's value still
 * holds for a later reader (allocation counts units in pipeline order). */
static void
account_reads(struct pressure *pr, const struct grp *g)
{
   for (unsigned i = 0; i < g->nr_rd; i++) {
      unsigned v = g->rd[i].var;
      bool again = false;
      for (unsigned j = 0; j < i; j++)
         again |= g->rd[j].var == v;
      if (again || !pr->remaining[v])
         continue;
      if (--pr->remaining[v] == 0 && pr->live[v] && !pr->out[v]) {
         pr->live[v] = false;
         pr->nr_live -= pr->weight[v];
      }
   }
}

static void
account_writes(struct pressure *pr, const struct grp *g)
{
   for (unsigned i = 0; i < g->nr_wr; i++) {
      unsigned v = g->wr[i].var;
      if (v != ~0u && !pr->live[v] && (pr->remaining[v] || pr->out[v])) {
         pr->live[v] = true;
         pr->nr_live += pr->weight[v];
      }
   }
}

/* A group joins the open bundle: both counts take its writes, the
 * non-strict one its last reads too (the strict one when the bundle
 * closes).  The peaks cover every check a budget would have made. */
static void
account_group(struct pressure *prs, const struct grp *g)
{
   for (unsigned k = 0; k < 2; k++) {
      note_peak(&prs[k], (int)prs[k].nr_live + cost(&prs[k], g, k));
      if (!k)
         account_reads(&prs[k], g);
      account_writes(&prs[k], g);
   }
}

/*
 * The writeout bundles of the render targets, then their retry loops
 * (struct mid_bundle::writeout_last), each but the last with a return to
 * the writeout of the next target.
 */
static void
add_writeouts(struct mid_shader *s, struct mid_instr **wos, unsigned n,
              struct mid_block **pending)
{
   int first = nr_bundles(s);
   for (unsigned k = 0; k < n; k++)
      new_bundle(s, MID_B_WRITEOUT, pending)->branch = wos[k];
   for (unsigned k = 0; k < n; k++) {
      int retry = nr_bundles(s);
      struct mid_bundle *b = new_bundle(s, MID_B_WRITEOUT, pending);
      b->branch = wos[k];
      b->writeout_last = true;
      bundle_at(s, first + k)->wo_delta = retry - (first + k);
      if (k + 1 < n) {
         b = new_bundle(s, MID_B_WRITEOUT, pending);
         b->wo_return = true;
         b->wo_delta = first + k + 1 - (retry + 1);
      }
   }
}

/*
 * The writeout bundle may compute the colour itself instead of copying it
 * (as the stock code does): it must write all of r0; vadd sets r1.w for
 * the blend unit.  When the block's last bundle holds only writers of the
 * colour, they move into the writeout bundle writing r0: a lone writer
 * on vmul (sadd for one lane), or, for target 0 without depth, all of
 * them on any unit but vadd (smul and lut too, as the stock code puts
 * them).  A move copies the lanes they do not write from the colour's
 * variable (written earlier).  Their bundle goes; the writeout bundles,
 * just created, move down over it.
 */
static bool
place_colour(struct mid_bundle *wo, struct mid_instr *P, int pref,
             unsigned allowed)
{
   unsigned units = units_for(P) & allowed;
   for (int k = -1; k < 5; k++) {
      int u = k < 0 ? pref : k;
      if (u >= 0 && (units & (1u << u)) && !wo->unit[u] &&
          place_consts(wo, u, P, false)) {
         add_to(wo, u, P);
         return true;
      }
   }
   return false;
}

static void
colour_into_writeout(struct sched *sc, int first, struct mid_block *blk,
                     struct mid_instr *W, unsigned nr_wo)
{
   struct mid_shader *s = sc->s;
   unsigned nr_wb = 3 * nr_wo - 1; /* add_writeouts */
   int last = nr_bundles(s) - 1 - nr_wb; /* before the writeout bundles */

   if (W->src[0].ref.kind != MID_REF_VAR || last < first)
      return;
   unsigned c = W->src[0].ref.index;
   struct mid_bundle *b = bundle_at(s, last);
   if (sc->readers[c] != 1 || b->kind != MID_B_ALU || b->branch ||
       b->pipe_used)
      return;
   struct mid_instr *ps[5];
   int pref[5];
   unsigned nr = 0, wrote = 0;
   for (unsigned u = 0; u < 5; u++) {
      struct mid_instr *P = b->unit[u];
      if (!P)
         continue;
      if (P->dst.kind != MID_REF_VAR || P->dst.index != c)
         return;
      pref[nr] = u;
      ps[nr++] = P;
      wrote |= P->mask;
   }
   for (unsigned i = 0; i < 4; i++) {
      if (W->src[0].swz[i] != i)
         return;
   }
   unsigned rest = 0xf & ~wrote;
   if (!nr || (rest && sc->writers[c] <= nr))
      return;
   /* Second-stage units read after vadd wrote r1.w (and sadd r1.z, smul
    * r1.x past target 0 or with the depth): keep those cases to a lone
    * writer on the first stage. */
   unsigned allowed, allowed_m;
   if (!W->rt && W->nr_srcs < 2) {
      allowed = allowed_m = BITFIELD_MASK(5) & ~(1u << PAN_MID_VADD);
      /* What the first stage writes to r0 (a texture result there on
       * the small cores) the second stage would read. */
      for (unsigned k = 0; k < nr; k++) {
         for (unsigned i = 0; i < ps[k]->nr_srcs; i++) {
            if (ps[k]->src[i].ref.kind == MID_REF_HW &&
                ps[k]->src[i].ref.index < 2)
               allowed = (1u << PAN_MID_VMUL) | (1u << PAN_MID_SADD);
         }
      }
   } else {
      struct mid_instr *P = ps[0];
      if (nr != 1)
         return;
      if (mid_lane_count(rest) <= 1 && (units_for(P) & (1u << PAN_MID_VMUL)))
         allowed = 1u << PAN_MID_VMUL, allowed_m = 1u << PAN_MID_SADD;
      else if (mid_lane_count(P->mask) == 1 &&
               (units_for(P) & (1u << PAN_MID_SADD)))
         allowed = 1u << PAN_MID_SADD, allowed_m = 1u << PAN_MID_VMUL;
      else
         return;
      /* Past render target 0, sadd sets r1.z. */
      if (W->rt && (allowed != (1u << PAN_MID_VMUL) || rest))
         return;
   }

   struct mid_instr *M = NULL;
   if (rest) {
      M = mid_instr_create(s, blk, MID_ALU, "imov");
      list_del(&M->link);
      M->dst = mid_hw(0);
      M->mask = rest;
      M->nr_srcs = 2;
      M->src[1] = mid_src_ref(mid_var(c));
   }
   struct mid_bundle trial = *bundle_at(s, last + 1);
   for (unsigned k = 0; k < nr; k++) {
      if (!place_colour(&trial, ps[k], pref[k], allowed))
         return;
   }
   if (M && !place_colour(&trial, M, -1, allowed_m))
      return;
   bool second = false;
   for (unsigned u = PAN_MID_SMUL; u <= PAN_MID_LUT; u++)
      second |= trial.unit[u] != NULL;

   if (b->block)
      trial.block = b->block;
   memmove(b, b + 1, nr_wb * sizeof(*b));
   s->bundles.size -= sizeof(*b);
   *b = trial;
   for (unsigned k = 0; k < nr; k++)
      ps[k]->dst = mid_hw(0);
   if (second) {
      /* Not emitted from here (mid_emit.c writes the r1.w set-up of
       * every writeout bundle), but allocation must see that the
       * second stage reads after it: nothing it reads may live in r1. */
      struct mid_instr *D = mid_instr_create(s, blk, MID_ALU, "iadd");
      list_del(&D->link);
      D->dst = mid_hw(1);
      D->mask = 0x8;
      D->nr_srcs = 2;
      D->src[0] = mid_src_ref(mid_hw(31));
      b->unit[PAN_MID_VADD] = D;
   }
   W->src[0].ref = mid_hw(0);
}

/* Whether a later pass may remove bundle b: mid_drop_self_moves drops
 * ALU bundles without a branch whose every instruction turned out a copy
 * onto its own register.  Lane packing and allocation change the sources
 * and swizzles of copies, never an instruction's kind or destination, so
 * any plain move into a variable may become one. */
static bool
may_vanish(const struct mid_bundle *b)
{
   if (b->kind != MID_B_ALU || b->branch)
      return false;
   bool any = false;
   for (unsigned u = 0; u < 5; u++) {
      const struct mid_instr *I = b->unit[u];
      if (!I)
         continue;
      if (I->store || I->dst.kind != MID_REF_VAR || !mid_is_plain_move(I))
         return false;
      any = true;
   }
   return any;
}

/* Whether the bundles that stay are counted: a cutoff needs them. */
static bool
counts_stay(const struct mid_shader *s)
{
   return s->sched_cutoff || s->sched_cut_regs[0] || s->sched_cut_regs[1];
}

static unsigned
staying(struct mid_shader *s, int from, int to)
{
   unsigned n = 0;
   for (int i = from; i < to; i++)
      n += !may_vanish(bundle_at(s, i));
   return n;
}

/* Whether the schedule may stop before its end: at least `bound` more
 * bundles stay and reach the cutoff, and the caller needs no facts of
 * the whole schedule (struct mid_shader::sched_notes), or the budget has
 * held a group back already, which the caller's notes leave out. */
static bool
stop_early(const struct sched *sc, const struct pressure *prs, bool strict,
           unsigned limit, unsigned bound)
{
   const struct mid_shader *s = sc->s;
   if (sc->stay + bound < s->sched_cutoff)
      return false;
   return !s->sched_notes ||
          (limit && MAX2(s->sched_peak[strict], prs[strict].peak) > limit);
}

static bool
schedule_block(struct sched *sc, struct mid_block *blk)
{
   struct mid_shader *s = sc->s;
   struct mid_block *pending = blk;
   int first_bundle = nr_bundles(s);
   unsigned n = 0;
   mid_foreach_instr(blk, I) n++;
   struct grp *gs = rzalloc_array(NULL, struct grp, n + 1);
   struct mid_instr *term = NULL, *term_feed = NULL;
   struct mid_instr *wos[MID_MAX_RTS];
   unsigned nr_wo = 0;
   unsigned ng = 0;
   /* Texture words and loads/stores not placed yet: one and two per
    * bundle, which stays. */
   unsigned nr_tex = 0, nr_ldst = 0;
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
            ok = mid_error(s, "unpaired r31 write");
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
      if (I->kind == MID_WRITEOUT && nr_wo < MID_MAX_RTS) {
         wos[nr_wo++] = I;
         continue;
      }
      if (I->kind == MID_BRANCH) {
         term = I;
         continue;
      }
      struct grp *g = &gs[ng++];
      g->I = I;
      g->next = next;
      g->bundle = -1;
      g->unit = -1;
      add_instr_uses(g, I);
      if (next) {
         add_instr_uses(g, next);
         g->hw_rd &= ~(1u << 31); /* from its own feeder */
      }
      /* Varying stores and loads of read-only data (uniform buffers,
       * attributes, varyings, textures) order against memory only. */
      bool ro = I->kind == MID_LDST && (!strncmp(I->op, "ld_ubo", 6) ||
                                        !strncmp(I->op, "ld_attr", 7) ||
                                        !strncmp(I->op, "ld_vary", 7));
      g->store = I->kind == MID_LDST && I->store &&
                 strncmp(I->op, "st_vary", 7);
      g->load = (I->kind == MID_LDST && !I->store && !ro) || I->kind == MID_TEX;
      nr_tex += I->kind == MID_TEX;
      nr_ldst += I->kind == MID_LDST;
   }
   struct block_deps *d = sc->deps;
   if (!d->prio || d->ng != ng) {
      void *mem = sc->cache;
      unsigned *off = ralloc_array(mem, unsigned, ng + 1);
      struct util_dynarray flat;
      util_dynarray_init(&flat, mem);
      bool lanes = !mid_sched_ordered(s->level);
      uint64_t *rdv = ralloc_array(gs, uint64_t, 2 * (ng ? ng : 1));
      uint64_t *wrv = rdv + ng;
      for (unsigned i = 0; i < ng; i++)
         var_bits(&gs[i], &rdv[i], &wrv[i]);
      for (unsigned i = 0; i < ng; i++) {
         off[i] = util_dynarray_num_elements(&flat, unsigned);
         for (unsigned j = 0; j < i; j++) {
            /* depends(), the variables compared only when they may meet. */
            bool vars = ((wrv[j] & (rdv[i] | wrv[i])) || (rdv[j] & wrv[i])) &&
                        depends_on_vars(&gs[j], &gs[i]);
            if (vars || depends_on_fixed(&gs[j], &gs[i], lanes))
               util_dynarray_append(&flat, unsigned, j);
         }
      }
      off[ng] = util_dynarray_num_elements(&flat, unsigned);
      const unsigned *preds = flat.data;
      for (unsigned i = 0; i < ng; i++) {
         gs[i].preds = preds + off[i];
         gs[i].nr_preds = off[i + 1] - off[i];
      }
      /* Priorities: longest path to the end of the block. */
      for (int i = ng - 1; i >= 0; i--) {
         gs[i].prio = MAX2(gs[i].prio, 1);
         for (unsigned k = 0; k < gs[i].nr_preds; k++) {
            unsigned p = gs[i].preds[k];
            gs[p].prio = MAX2(gs[p].prio, gs[i].prio + 1);
         }
      }
      /* Successor lists, by counting. */
      unsigned *soff = rzalloc_array(mem, unsigned, ng + 2);
      for (unsigned i = 0; i < off[ng]; i++)
         soff[preds[i] + 2]++;
      for (unsigned i = 0; i < ng; i++)
         soff[i + 2] += soff[i + 1];
      unsigned *succs = ralloc_array(mem, unsigned, MAX2(off[ng], 1));
      for (unsigned i = 0; i < ng; i++) {
         for (unsigned k = 0; k < gs[i].nr_preds; k++)
            succs[soff[gs[i].preds[k] + 1]++] = i;
      }
      d->ng = ng;
      d->off = off;
      d->preds = flat.data;
      d->soff = soff;
      d->succs = succs;
      d->prio = ralloc_array(mem, unsigned, ng ? ng : 1);
      for (unsigned i = 0; i < ng; i++)
         d->prio[i] = gs[i].prio;
   }
   for (unsigned i = 0; i < ng; i++) {
      gs[i].preds = d->preds + d->off[i];
      gs[i].nr_preds = d->off[i + 1] - d->off[i];
      gs[i].succs = d->succs + d->soff[i];
      gs[i].nr_succs = d->soff[i + 1] - d->soff[i];
      gs[i].prio = d->prio[i];
      gs[i].npend = gs[i].nr_preds;
      gs[i].last = -1;
      gs[i].prv = i ? i - 1 : ng;
      gs[i].nxt = i + 1;
   }
   gs[ng].prv = ng ? ng - 1 : ng;
   gs[ng].nxt = ng ? 0 : ng;

   unsigned win = mid_sched_window(s->level);
   unsigned limit = mid_sched_limit(s, s->level);
   bool strict_frees = mid_sched_strict(s->level);
   /* Both counts are kept whatever the level uses (prs[0]: lanes of
    * packable values, frees at the last read; prs[1]: whole registers,
    * frees when the bundle closes), and their peaks noted: a level whose
    * budget stays above the peak of the unbounded schedule of the same
    * window would repeat that schedule (mid_compile.c skips it). */
   struct pressure prs[2];
   const uint8_t *in = sc->live_in + (size_t)blk->index * s->nr_vars;
   for (unsigned k = 0; k < 2; k++) {
      prs[k] = (struct pressure){
         .remaining = rzalloc_array(gs, unsigned, s->nr_vars + 1),
         .out = sc->live_out,
         .weight = k ? sc->full : sc->weight,
         .live = rzalloc_array(gs, bool, s->nr_vars + 1),
      };
      for (unsigned v = 0; v < s->nr_vars; v++) {
         /* Eight variables not live in at once (per block and level). */
         uint64_t eight = 1;
         if (!(v & 7) && v + 8 <= s->nr_vars)
            memcpy(&eight, in + v, sizeof(eight));
         if (!eight) {
            v += 7;
            continue;
         }
         if (in[v]) {
            prs[k].live[v] = true;
            prs[k].nr_live += prs[k].weight[v];
         }
      }
      for (unsigned i = 0; i < ng; i++) {
         for (unsigned r = 0; r < gs[i].nr_rd; r++) {
            unsigned v = gs[i].rd[r].var;
            bool again = false;
            for (unsigned j = 0; j < r; j++)
               again |= gs[i].rd[j].var == v;
            if (!again)
               prs[k].remaining[v]++;
         }
      }
      /* The writeouts read the colour at the block's end: never placed
       * here, a reader that keeps it live from its first write. */
      for (unsigned w = 0; w < nr_wo; w++) {
         for (unsigned r = 0; r < wos[w]->nr_srcs; r++) {
            if (wos[w]->src[r].ref.kind == MID_REF_VAR)
               prs[k].remaining[wos[w]->src[r].ref.index]++;
         }
      }
   }
   struct pressure *pr = &prs[strict_frees];
   unsigned *order = ralloc_array(gs, unsigned, ng ? ng : 1);
   struct grp **inb = ralloc_array(gs, struct grp *, ng ? ng : 1);
   unsigned *cand = ralloc_array(gs, unsigned, ng ? ng : 1);
   int *costs = ralloc_array(gs, int, ng ? ng : 1);
   bool *marked = rzalloc_array(gs, bool, ng ? ng : 1);
   /* This block's closed bundles counted, and those that stay; its
    * writeout bundles stay, less the one colour_into_writeout may
    * remove. */
   int counted = first_bundle;
   unsigned stay = nr_wo ? 3 * nr_wo - 2 : 0;
   for (unsigned placed = 0; placed < ng;) {
      int cur = nr_bundles(s);
      if (s->sched_cutoff) {
         stay += staying(s, counted, cur);
         counted = cur;
         if (stop_early(sc, prs, strict_frees, limit,
                        stay + nr_tex + DIV_ROUND_UP(nr_ldst, 2))) {
            s->sched_cut = s->sched_partial = true;
            ok = false;
            goto out;
         }
      }
      unsigned nr = 0, seen = 0, i;
      for (i = gs[ng].nxt; i < ng && seen < win; i = gs[i].nxt) {
         seen++;
         if (grp_ready(&gs[i], cur)) {
            order[nr++] = i;
            /* A window this wide would have seen the same ready groups. */
            s->sched_reach = MAX2(s->sched_reach, seen);
         }
      }
      /* The first ready group the window hides: a window narrower than
       * its rank would have seen the same ones too. */
      for (; i < ng && seen < s->sched_hidden; i = gs[i].nxt) {
         seen++;
         if (grp_ready(&gs[i], cur))
            s->sched_hidden = seen;
      }
      /* Highest priority first, then program order (insertion sort);
       * under pressure, what frees registers first. */
      bool tight = limit && pr->nr_live >= limit;
      for (unsigned k = 0; k < 2; k++)
         note_peak(&prs[k], prs[k].nr_live + 1);
      /* The counts do not change while sorting: each cost once. */
      for (unsigned i = 0; i < nr; i++)
         costs[order[i]] = tight ? cost(pr, &gs[order[i]], false) : 0;
      for (unsigned i = 1; i < nr; i++) {
         unsigned x = order[i], j = i;
         for (; j > 0; j--) {
            const struct grp *a = &gs[order[j - 1]], *c = &gs[x];
            int ca = costs[order[j - 1]], cc = costs[x];
            if (ca < cc || (ca == cc && a->prio >= c->prio))
               break;
            order[j] = order[j - 1];
         }
         order[j] = x;
      }
      if (!nr) {
         ok = mid_error(s, "scheduler: nothing ready");
         goto out;
      }
      enum mid_kind kind = gs[order[0]].I->kind;
      struct mid_bundle *b = new_bundle(s,
                                        kind == MID_ALU   ? MID_B_ALU
                                        : kind == MID_TEX ? MID_B_TEX
                                                          : MID_B_LDST,
                                        &pending);
      unsigned took = 0, nr_inb = 0;
      for (unsigned k = 0; k < nr; k++) {
         struct grp *g = &gs[order[k]];
         if (g->I->kind != kind)
            continue;
         /* Past the budget, only what frees registers joins (the cost
          * asked only then: a count over the group's values). */
         if (took && limit) {
            int c = cost(pr, g, strict_frees);
            if (c > 0 && pr->nr_live + c > limit)
               continue;
         }
         bool fits;
         if (kind == MID_ALU)
            fits = try_alu(b, g->I, g->next, -1);
         else if (kind == MID_TEX)
            fits = !took && (b->ls[0] = g->I);
         else if ((fits = took < 2))
            b->ls[took] = g->I;
         if (!fits)
            continue;
         took++;
         nr_tex -= kind == MID_TEX;
         nr_ldst -= kind == MID_LDST;
         place(gs, g, cur);
         placed++;
         account_group(prs, g);
         inb[nr_inb++] = g;
         for (unsigned u = 0; u < 5 && kind == MID_ALU; u++) {
            if (b->unit[u] == g->I)
               g->unit = u;
         }
      }
      if (!took) {
         ok = mid_error(s, "cannot schedule %s", gs[order[0]].I->op);
         goto out;
      }
      /* Consumers of this bundle's first stage, through r24/r25, in
       * program order: only successors of the bundle's groups (all their
       * predecessors placed, some in this bundle) can join it. */
      unsigned nr_cand = 0;
      for (unsigned k = 0; k < nr_inb && kind == MID_ALU; k++)
         add_candidates(gs, inb[k], cand, &nr_cand, 0, marked);
      for (unsigned ci = 0; ci < nr_cand; ci++) {
         struct grp *g = &gs[cand[ci]];
         if (g->bundle >= 0 || g->npend || g->last != cur)
            continue;
         int c = limit ? cost(pr, g, strict_frees) : 0;
         if (try_forward(sc, b, gs, g, cur, c <= 0 || pr->nr_live + c <= limit)) {
            place(gs, g, cur);
            placed++;
            account_group(prs, g);
            inb[nr_inb++] = g;
            add_candidates(gs, g, cand, &nr_cand, ci + 1, marked);
         }
      }
      for (unsigned ci = 0; ci < nr_cand; ci++)
         marked[cand[ci]] = false;
      for (unsigned k = 0; k < nr_inb; k++)
         account_reads(&prs[1], inb[k]);
   }
   for (unsigned k = 0; k < 2; k++)
      s->sched_peak[k] = MAX2(s->sched_peak[k], prs[k].peak);

   if (nr_wo) {
      add_writeouts(s, wos, nr_wo, &pending);
      int wb = nr_bundles(s) - (3 * nr_wo - 1);
      for (unsigned k = 0; k < nr_wo; k++) {
         struct mid_instr *M = sc->wo_mov[k];
         if (M && !place_colour(bundle_at(s, wb + k), M, PAN_MID_VMUL,
                                1u << PAN_MID_VMUL)) {
            ok = mid_error(s, "cannot place a colour move in its writeout");
            goto out;
         }
      }
      colour_into_writeout(sc, first_bundle, blk, wos[0], nr_wo);
   } else if (term) {
      /* Into the block's last ALU bundle when free, else a new one. */
      int last = nr_bundles(s) - 1;
      struct mid_bundle *b = ng && last >= 0 ? bundle_at(s, last) : NULL;
      bool placed = false;
      if (b && b->kind == MID_B_ALU && !b->branch) {
         bool feed_ready = true;
         if (term_feed) {
            struct grp f = { 0 };
            add_instr_uses(&f, term_feed);
            for (unsigned i = 0; i < ng; i++) {
               if (gs[i].bundle == last &&
                   (depends(&gs[i], &f, false) || (gs[i].hw_wr & (1u << 31))))
                  feed_ready = false;
            }
         }
         if (!term_feed)
            placed = (b->branch = term) != NULL;
         else if (feed_ready)
            placed = try_alu(b, term_feed, term, -1);
      }
      if (!placed) {
         b = new_bundle(s, MID_B_ALU, &pending);
         if (!term_feed)
            b->branch = term;
         else if (!try_alu(b, term_feed, term, -1))
            ok = mid_error(s, "cannot schedule the branch condition");
      }
   }
   /* An empty block still needs a place to branch to: the next bundle
    * (or a final empty one). */
   if (pending && blk->link.next == &s->blocks)
      new_bundle(s, MID_B_ALU, &pending);
   if (counts_stay(s))
      sc->stay += staying(s, first_bundle, nr_bundles(s));
out:
   ralloc_free(gs);
   return ok && !s->failed;
}

/* Rewrite the block's instruction list in bundle order (units in
 * pipeline order), for liveness. */
static void
relink(struct mid_shader *s, struct mid_block *blk, unsigned from)
{
   list_inithead(&blk->instrs);
   for (unsigned i = from; i < (unsigned)nr_bundles(s); i++) {
      struct mid_bundle *b = bundle_at(s, i);
      if (b->kind == MID_B_WRITEOUT) {
         for (unsigned u = 0; u < 5; u++) {
            if (b->unit[u])
               list_addtail(&b->unit[u]->link, &blk->instrs);
         }
         if (!b->writeout_last && b->branch)
            list_addtail(&b->branch->link, &blk->instrs);
         continue;
      }
      for (unsigned u = 0; u < 5; u++) {
         if (b->unit[u])
            list_addtail(&b->unit[u]->link, &blk->instrs);
      }
      for (unsigned k = 0; k < 2; k++) {
         if (b->ls[k])
            list_addtail(&b->ls[k]->link, &blk->instrs);
      }
      if (b->branch)
         list_addtail(&b->branch->link, &blk->instrs);
   }
}

/* Lanes of the colour the shader never writes are 0, as the stock code
 * has them (the blend unit reads all four): left alone they would show
 * whatever the register last held, which packing makes a different
 * value from one schedule to the next. */
static void
define_colour(struct mid_shader *s, struct mid_block *last, struct mid_instr *W)
{
   if (W->src[0].ref.kind != MID_REF_VAR)
      return;
   unsigned c = W->src[0].ref.index, written = 0;
   mid_foreach_block(s, b)
   {
      mid_foreach_instr(b, I)
      {
         if (I->dst.kind == MID_REF_VAR && I->dst.index == c && !I->store)
            written |= I->mask;
      }
   }
   if (!written || written == 0xf)
      return;
   struct mid_instr *M = mid_instr_create(s, last, MID_ALU, "imov");
   list_del(&M->link);
   list_addtail(&M->link, &W->link); /* just before the writeout */
   M->dst = mid_var(c);
   M->mask = 0xf & ~written;
   M->nr_srcs = 2;
   M->src[1] = (struct mid_src){ .ref = { MID_REF_CONST, 0 },
                                 .swz = { 0, 1, 2, 3 } };
}

/*
 * A colour that is a constant or a pushed uniform costs nothing to read
 * again: its move goes into the writeout bundle (vmul writing r0)
 * instead of holding a register until then.  A later target's colour
 * would otherwise live across the earlier writeouts, out of r0-r3 (a
 * blend shader may use them), often one register past four threads.
 */
static struct mid_instr *
cheap_colour(struct mid_shader *s, struct mid_instr *W)
{
   if (W->src[0].ref.kind != MID_REF_VAR)
      return NULL;
   for (unsigned i = 0; i < 4; i++) {
      if (W->src[0].swz[i] != i || W->src[0].abs || W->src[0].neg)
         return NULL;
   }
   unsigned c = W->src[0].ref.index;
   struct mid_instr *M = NULL;
   mid_foreach_block(s, b)
   {
      mid_foreach_instr(b, I)
      {
         for (unsigned i = 0; i < I->nr_srcs; i++) {
            if (I != W && I->src[i].ref.kind == MID_REF_VAR &&
                I->src[i].ref.index == c)
               return NULL;
         }
         if (I->dst.kind != MID_REF_VAR || I->dst.index != c || I->store)
            continue;
         if (M)
            return NULL;
         M = I;
      }
   }
   if (!M || M->kind != MID_ALU || M->mask != 0xf || M->pair_next ||
       (strcmp(M->op, "imov") && strcmp(M->op, "fmov")) ||
       M->src[0].ref.kind != MID_REF_NONE ||
       (M->src[1].ref.kind != MID_REF_CONST &&
        M->src[1].ref.kind != MID_REF_UNIFORM))
      return NULL;
   return M;
}

bool
mid_schedule(struct mid_shader *s)
{
   struct mid_instr *wo_mov[MID_MAX_RTS] = { NULL };
   if (!list_is_empty(&s->blocks)) {
      struct mid_block *last =
         list_last_entry(&s->blocks, struct mid_block, link);
      unsigned k = 0;
      mid_foreach_instr(last, I) {
         if (I->kind != MID_WRITEOUT)
            continue;
         define_colour(s, last, I);
         struct mid_instr *M = k < MID_MAX_RTS ? cheap_colour(s, I) : NULL;
         if (M) {
            list_del(&M->link);
            M->dst = mid_hw(0);
            I->src[0].ref = mid_hw(0);
            wo_mov[k] = M;
         }
         k++;
      }
   }
   s->sched_peak[0] = s->sched_peak[1] = 0;
   s->sched_reach = 0;
   s->sched_hidden = ~0u;
   struct sched sc = { .s = s };
   memcpy(sc.wo_mov, wo_mov, sizeof(wo_mov));
   unsigned n = s->nr_vars ? s->nr_vars : 1;
   void *tmp = ralloc_context(NULL);
   struct mid_sched_cache *cache = s->sched_cache;
   if (!cache) {
      /* Not shared: made here for this schedule alone. */
      cache = mid_sched_cache_create(tmp);
   }
   if (!cache->ready) {
      cache->readers = rzalloc_array(cache, unsigned, n);
      cache->writers = rzalloc_array(cache, unsigned, n);
      mid_foreach_block(s, b)
      {
         mid_foreach_instr(b, I)
         {
            if (I->dst.kind == MID_REF_VAR && !I->store)
               cache->writers[I->dst.index]++;
            for (unsigned i = 0; i < I->nr_srcs; i++) {
               if (I->src[i].ref.kind == MID_REF_VAR)
                  cache->readers[I->src[i].ref.index]++;
            }
         }
      }
      cache->live_in = mid_live_in(s, cache);
      cache->weight = mid_pack_weights(s, cache);
      cache->full = ralloc_array(cache, uint8_t, n);
      memset(cache->full, 4, n);
      cache->nr_blocks = 0;
      mid_foreach_block(s, b)
         cache->nr_blocks = MAX2(cache->nr_blocks, b->index + 1);
      cache->live_out =
         ralloc_array(cache, uint8_t, (size_t)cache->nr_blocks * n);
      /* Per block: the dependences of most levels, then those of the
       * ordered ones (depends). */
      cache->blk = rzalloc_array(cache, struct block_deps,
                                 2 * MAX2(cache->nr_blocks, 1));
      mid_foreach_block(s, b)
         mid_live_out(s, cache->live_in, b,
                      cache->live_out + (size_t)b->index * n);
      cache->ready = true;
   }
   sc.cache = cache;
   sc.readers = cache->readers;
   sc.writers = cache->writers;
   sc.live_in = cache->live_in;
   sc.weight = cache->weight;
   sc.full = cache->full;
   util_dynarray_init(&s->bundles, s->mem);
   bool ok = true;
   mid_foreach_block(s, blk)
   {
      unsigned from = nr_bundles(s);
      if (blk->index >= cache->nr_blocks) {
         ok = mid_error(s, "scheduler: block %u unnumbered", blk->index);
         break;
      }
      sc.live_out = cache->live_out + (size_t)blk->index * n;
      sc.deps = &cache->blk[2 * blk->index + mid_sched_ordered(s->level)];
      if (!schedule_block(&sc, blk)) {
         ok = false;
         break;
      }
      relink(s, blk, from);
   }
   /* A whole schedule that cannot win goes without packing. */
   if (ok && s->sched_cutoff && sc.stay >= s->sched_cutoff) {
      s->sched_cut = true;
      ok = false;
   }
   /* Scheduling keeps the order of each lane's reads and writes within
    * a block, so what is live into and out of each block has not
    * changed (a value forwarded through r24/r25 was live in none). */
   /* Past a count of bundles where only fewer registers can win, the
    * bound on registers may show that it cannot either. */
   unsigned min_regs = 0;
   if (s->sched_cut_regs[0] && sc.stay >= s->sched_cut_regs[0])
      min_regs = 5;
   else if (s->sched_cut_regs[1] && sc.stay >= s->sched_cut_regs[1])
      min_regs = 9;
   if (ok && !mid_pack_scalars(s, cache->live_in, cache->live_out, min_regs)) {
      s->sched_cut = true;
      ok = false;
   }
   ralloc_free(tmp);
   return ok;
}
