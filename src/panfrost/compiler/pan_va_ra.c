/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Linear-scan register allocation over the 64 Valhall registers.
 *
 * Instructions are numbered in layout order.  Block liveness (a backward
 * data-flow over the CFG, so loops are handled) gives every value one
 * segment per block it is live in: from the block's start (live in) or
 * its first definition there, to the block's end (live out) or its last
 * use there.  The hull of the segments orders the scan; the segments
 * decide interference, so a value defined in both arms of an if/else (a
 * phi carrier) leaves its registers free over the stretches where it is
 * dead (its lifetime holes).  Values are taken by increasing start and
 * given the lowest run of registers no live value overlapping them holds
 * (aligned to 2 for vectors, which 64-bit sources and staging vectors
 * want).  Segments include their last use, so a destination never shares
 * a register with a source of its instruction.
 *
 * Two kinds of values get no registers of their own, so that no move
 * copies them: a preload is the register the hardware preloaded (those are
 * reserved), and a scalar defined once that a collect puts in word k of
 * its vector is allocated as that word (a member of the collect's group).
 * A group is one interval, the hull of its vector's and its members', so
 * each member is in place from its definition on and the collect moves
 * only the words that are not (pan_va_emit.c skips the others).
 *
 * When a value does not fit, allocation runs again with only the members
 * the collect reads last (a member read later holds the whole vector),
 * and if that fails too a live vector with words read alone is split
 * (pan_va_split.c) or, when none is left, the live value ending last is
 * spilled to thread-local storage (pan_va_spill.c), and everything
 * starts over.
 */

#include <string.h>

#include "pan_va.h"
#include "util/bitset.h"

struct ra_block {
   unsigned first, last; /* instruction numbers */
   BITSET_WORD *live_in, *live_out, *use, *def;
};

/* Where a value is live within one block, both ends included. */
struct ra_segment {
   unsigned start, end;
};

struct ra_ctx {
   pan_ir_shader *s;
   unsigned words; /* BITSET words per set */
   unsigned *start, *end;
   uint8_t *comps;
   unsigned *defs;              /* definitions of each value */
   int *preload;                /* register of a preload, else -1 */
   unsigned *leader;            /* a member's collect vector, else ~0 */
   uint8_t *word;               /* a member's word in it */
   uint8_t *no_spill;           /* fills, and values already spilled */
   struct util_dynarray blends; /* instruction numbers of blends */
   /* Preloaded registers read, and their last read. */
   uint64_t low_preloaded;
   unsigned low_end[PAN_VA_NR_REGS];
   /* Per value: its segments (struct ra_segment), and the first and last
    * instruction of the block being scanned that touch it. */
   struct util_dynarray *segs;
   unsigned *blk_first, *blk_last;
};

/* Where I's destination starts: a texture message reads its sources when
 * it issues and writes its result when the data returns, so the result
 * may take registers of sources read there for the last time (the stock
 * compiler's texture results overlap their coordinates too).  The next
 * instruction in the block, unless I is the last. */
static unsigned
dest_start(const pan_ir_block *b, const pan_ir_instr *I, unsigned ip)
{
   return I->op == PAN_IR_OP_TEX && I->link.next != &b->instrs ? ip + 1 : ip;
}

static void
compute_sets(struct ra_ctx *c)
{
   unsigned ip = 0;
   pan_ir_foreach_block(c->s, b)
   {
      struct ra_block *rb = rzalloc(b, struct ra_block);
      rb->live_in = rzalloc_array(rb, BITSET_WORD, c->words);
      rb->live_out = rzalloc_array(rb, BITSET_WORD, c->words);
      rb->use = rzalloc_array(rb, BITSET_WORD, c->words);
      rb->def = rzalloc_array(rb, BITSET_WORD, c->words);
      b->pass_data = rb;
      rb->first = ip;
      pan_ir_foreach_instr(b, I)
      {
         for (unsigned i = 0; i < I->nr_srcs; ++i) {
            unsigned v = I->src[i].value;
            if (I->src[i].kind != PAN_IR_SSA)
               continue;
            if (I->op == PAN_IR_OP_TLS_STORE)
               c->no_spill[v] = 1;
            if (!BITSET_TEST(rb->def, v))
               BITSET_SET(rb->use, v);
            c->end[v] = MAX2(c->end[v], ip);
            c->start[v] = MIN2(c->start[v], ip);
         }
         if (I->op == PAN_IR_OP_BLEND)
            util_dynarray_append(&c->blends, unsigned, ip);
         if (I->dest.kind == PAN_IR_SSA) {
            unsigned v = I->dest.value;
            c->defs[v]++;
            if (I->op == PAN_IR_OP_PRELOAD)
               c->preload[v] = (int)I->imm;
            /* Spill stores and fills move 4 words at most (a Bifrost
             * dual texture's result has 8). */
            if (I->op == PAN_IR_OP_TLS_LOAD || I->dest.comps > 4)
               c->no_spill[v] = 1;
            BITSET_SET(rb->def, v);
            c->start[v] = MIN2(c->start[v], dest_start(b, I, ip));
            c->end[v] = MAX2(c->end[v], dest_start(b, I, ip));
            c->comps[v] = I->dest.comps;
         }
         ip++;
      }
      rb->last = ip; /* one past: live-out values survive the block */
   }
}

/* live_out = union of successors' live_in; live_in = use | (out - def). */
static void
solve_liveness(struct ra_ctx *c)
{
   bool progress;
   do {
      progress = false;
      list_for_each_entry_rev(pan_ir_block, b, &c->s->blocks, link)
      {
         struct ra_block *rb = b->pass_data;
         for (unsigned k = 0; k < 2; ++k) {
            if (!b->succ[k])
               continue;
            struct ra_block *sb = b->succ[k]->pass_data;
            for (unsigned w = 0; w < c->words; ++w)
               rb->live_out[w] |= sb->live_in[w];
         }
         for (unsigned w = 0; w < c->words; ++w) {
            BITSET_WORD in = rb->use[w] | (rb->live_out[w] & ~rb->def[w]);
            progress |= in != rb->live_in[w];
            rb->live_in[w] = in;
         }
      }
   } while (progress);

   pan_ir_foreach_block(c->s, b)
   {
      struct ra_block *rb = b->pass_data;
      unsigned v;
      BITSET_FOREACH_SET(v, rb->live_in, c->s->ssa_alloc)
      c->start[v] = MIN2(c->start[v], rb->first);
      BITSET_FOREACH_SET(v, rb->live_out, c->s->ssa_alloc)
      c->end[v] = MAX2(c->end[v], rb->last);
   }
}

static void
touch(struct ra_ctx *c, unsigned v, unsigned ip)
{
   c->blk_first[v] = MIN2(c->blk_first[v], ip);
   c->blk_last[v] = MAX2(c->blk_last[v], ip);
}

/* One segment per block for each value live in it or touched by it. */
static void
compute_segments(struct ra_ctx *c)
{
   unsigned n = c->s->ssa_alloc, ip = 0;
   memset(c->blk_first, 0xff, n * sizeof(unsigned));
   memset(c->blk_last, 0, n * sizeof(unsigned));
   pan_ir_foreach_block(c->s, b)
   {
      struct ra_block *rb = b->pass_data;
      BITSET_WORD *seen = rzalloc_array(rb, BITSET_WORD, c->words);
      pan_ir_foreach_instr(b, I)
      {
         for (unsigned i = 0; i < I->nr_srcs; ++i) {
            if (I->src[i].kind == PAN_IR_SSA) {
               touch(c, I->src[i].value, ip);
               BITSET_SET(seen, I->src[i].value);
            }
         }
         if (I->dest.kind == PAN_IR_SSA) {
            touch(c, I->dest.value, dest_start(b, I, ip));
            BITSET_SET(seen, I->dest.value);
         }
         ip++;
      }
      /* Nothing can interfere within an empty block. */
      if (rb->first == rb->last)
         continue;
      for (unsigned w = 0; w < c->words; ++w)
         seen[w] |= rb->live_in[w] | rb->live_out[w];
      unsigned v;
      BITSET_FOREACH_SET(v, seen, n)
      {
         /* Live out: up to the block's last instruction (the next block's
          * first is another block's segment). */
         struct ra_segment seg = {
            BITSET_TEST(rb->live_in, v) ? rb->first : c->blk_first[v],
            BITSET_TEST(rb->live_out, v) ? rb->last - 1 : c->blk_last[v],
         };
         util_dynarray_append(&c->segs[v], struct ra_segment, seg);
         c->blk_first[v] = ~0u;
         c->blk_last[v] = 0;
      }
   }
}

static bool
segments_overlap(const struct ra_ctx *c, unsigned u, unsigned v)
{
   util_dynarray_foreach(&c->segs[u], struct ra_segment, a)
   {
      util_dynarray_foreach(&c->segs[v], struct ra_segment, b)
      {
         if (a->start <= b->end && b->start <= a->end)
            return true;
      }
   }
   return false;
}

/* Members of collect groups: scalars defined once by an allocated value,
 * each in one group, one word each, never a vector that is a group.  When
 * strict, only scalars the collect reads last join: a member read later
 * stretches the whole vector over its life, which saves the move but
 * costs registers. */
static void
find_groups(struct ra_ctx *c, bool strict)
{
   unsigned ip = 0;
   pan_ir_foreach_instr_global(c->s, b, I)
   {
      unsigned here = ip++;
      if (I->op != PAN_IR_OP_COLLECT || I->dest.kind != PAN_IR_SSA)
         continue;
      unsigned v = I->dest.value;
      if (c->leader[v] != ~0u || c->defs[v] != 1)
         continue;
      for (unsigned k = 0; k < I->nr_srcs; ++k) {
         pan_ir_index src = I->src[k];
         if (src.kind != PAN_IR_SSA || src.comp || src.neg || src.abs)
            continue;
         unsigned m = src.value;
         if (m == v || c->comps[m] != 1 || c->defs[m] != 1 ||
             c->preload[m] >= 0 || c->leader[m] != ~0u)
            continue;
         if (strict && c->end[m] > here)
            continue;
         c->leader[m] = v;
         c->word[m] = k;
      }
   }
   /* Hulls: the leader's interval covers its members'. */
   for (unsigned m = 0; m < c->s->ssa_alloc; ++m) {
      unsigned v = c->leader[m];
      if (v == ~0u)
         continue;
      c->start[v] = MIN2(c->start[v], c->start[m]);
      c->end[v] = MAX2(c->end[v], c->end[m]);
      util_dynarray_foreach(&c->segs[m], struct ra_segment, seg)
         util_dynarray_append(&c->segs[v], struct ra_segment, *seg);
   }
}

/* First fit, or with pairs_first a scalar takes the free half of a
 * pair before breaking a whole pair, keeping those for the vectors
 * (which need aligned runs): each packs some programs tighter. */
static int
find_regs(uint64_t used, unsigned n, bool pairs_first)
{
   if (n == 1 && pairs_first) {
      for (unsigned r = 0; r < PAN_VA_NR_REGS; ++r) {
         if (!(used & BITFIELD64_BIT(r)) && (used & BITFIELD64_BIT(r ^ 1)))
            return r;
      }
   }
   unsigned align = n > 1 ? 2 : 1;
   for (unsigned r = 0; r + n <= PAN_VA_NR_REGS; r += align) {
      uint64_t mask = ((1ull << n) - 1) << r;
      if (!(used & mask))
         return r;
   }
   return -1;
}

/* A blend shader may overwrite r0-r15 (and r48, reserved throughout):
 * a value live across a blend keeps out of them. */
static uint64_t
blend_clobbers(const struct ra_ctx *c, unsigned v)
{
   util_dynarray_foreach(&c->blends, unsigned, ip)
   {
      if (c->start[v] < *ip && c->end[v] > *ip)
         return BITFIELD64_MASK(16);
   }
   return 0;
}

/* A collect of consecutive preloaded registers below the reserved ones (a
 * blend shader's colour, a v7 message preload's result) is those
 * registers: the vector is a preload too, and they stay out of other
 * values' reach until its last read (the Bifrost scheduler reads such a
 * vector in place, pan_bi_schedule.c). */
static void
fuse_low_preloads(struct ra_ctx *c)
{
   pan_ir_foreach_instr_global(c->s, b, I)
   {
      if (I->op != PAN_IR_OP_COLLECT || I->dest.kind != PAN_IR_SSA ||
          c->defs[I->dest.value] != 1 || !I->nr_srcs)
         continue;
      int first = -1;
      for (unsigned k = 0; k < I->nr_srcs; ++k) {
         pan_ir_index src = I->src[k];
         int r = src.kind == PAN_IR_SSA && src.comps == 1 && !src.comp &&
                       !src.neg && !src.abs && c->defs[src.value] == 1
                    ? c->preload[src.value]
                    : -1;
         if (r < 0 || r >= PAN_VA_FIRST_RESERVED ||
             (k && r != first + (int)k)) {
            first = -1;
            break;
         }
         if (!k)
            first = r;
      }
      if (first >= 0)
         c->preload[I->dest.value] = first;
   }
}

/* Registers that the hardware preloaded (a blend shader's colour in r0-r3,
 * the ids in r55-r62) hold their value from the start until its last read:
 * a value starting before then keeps out of them. */
static uint64_t
low_preloads(const struct ra_ctx *c, unsigned v)
{
   uint64_t mask = 0;
   u_foreach_bit64 (r, c->low_preloaded) {
      if (c->start[v] <= c->low_end[r])
         mask |= BITFIELD64_BIT(r);
   }
   return mask;
}

static const struct ra_ctx *sort_ctx;

static int
cmp_start(const void *a, const void *b)
{
   unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
   if (sort_ctx->start[x] != sort_ctx->start[y])
      return sort_ctx->start[x] < sort_ctx->start[y] ? -1 : 1;
   return x < y ? -1 : x > y;
}

static int
cmp_end_desc(const void *a, const void *b)
{
   unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
   if (sort_ctx->end[x] != sort_ctx->end[y])
      return sort_ctx->end[x] > sort_ctx->end[y] ? -1 : 1;
   return x < y ? -1 : x > y;
}

/* What a failed allocation leaves: the value to spill (the live one,
 * spillable, that ends last; ~0 when none can be) and the live vectors,
 * latest end first, as candidates for splitting before that. */
struct ra_failure {
   unsigned victim;
   unsigned *vectors, nr_vectors; /* ralloc'd on the failure's mem_ctx */
};

/*
 * One allocation.  On failure returns NULL, fills *fail (its arrays on
 * mem_ctx) and writes the message to err.
 */
static uint8_t *
try_alloc(pan_ir_shader *s, bool strict, bool pairs_first, uint64_t file,
          struct ra_failure *fail, void *mem_ctx, char *err, size_t err_size)
{
   unsigned n = s->ssa_alloc;
   struct ra_ctx c = { .s = s, .words = BITSET_WORDS(n + 1) };
   void *tmp = ralloc_context(NULL);
   c.start = ralloc_array(tmp, unsigned, n + 1);
   c.end = rzalloc_array(tmp, unsigned, n + 1);
   c.comps = rzalloc_array(tmp, uint8_t, n + 1);
   c.defs = rzalloc_array(tmp, unsigned, n + 1);
   c.preload = ralloc_array(tmp, int, n + 1);
   c.leader = ralloc_array(tmp, unsigned, n + 1);
   c.word = rzalloc_array(tmp, uint8_t, n + 1);
   c.no_spill = rzalloc_array(tmp, uint8_t, n + 1);
   memset(c.start, 0xff, (n + 1) * sizeof(unsigned));
   memset(c.preload, 0xff, (n + 1) * sizeof(int));
   memset(c.leader, 0xff, (n + 1) * sizeof(unsigned));
   util_dynarray_init(&c.blends, tmp);
   c.segs = ralloc_array(tmp, struct util_dynarray, n + 1);
   for (unsigned v = 0; v <= n; ++v)
      util_dynarray_init(&c.segs[v], tmp);
   c.blk_first = ralloc_array(tmp, unsigned, n + 1);
   c.blk_last = ralloc_array(tmp, unsigned, n + 1);

   compute_sets(&c);
   fuse_low_preloads(&c);
   solve_liveness(&c);
   /* After liveness: a preload read in a loop is live to its end. */
   for (unsigned v = 0; v < n; ++v) {
      int first = c.preload[v];
      for (int r = first;
           r >= 0 && r < first + MAX2(c.comps[v], 1) && r < PAN_VA_NR_REGS;
           ++r) {
         c.low_end[r] = c.low_preloaded & BITFIELD64_BIT(r)
                           ? MAX2(c.low_end[r], c.end[v])
                           : c.end[v];
         c.low_preloaded |= BITFIELD64_BIT(r);
      }
   }
   compute_segments(&c);
   find_groups(&c, strict);

   unsigned *order = ralloc_array(tmp, unsigned, n + 1), count = 0;
   for (unsigned v = 0; v < n; ++v) {
      if (c.comps[v] && c.preload[v] < 0 && c.leader[v] == ~0u)
         order[count++] = v;
   }
   sort_ctx = &c;
   qsort(order, count, sizeof(unsigned), cmp_start);

   uint8_t *regs = rzalloc_array(s, uint8_t, n + 1);
   unsigned *active = ralloc_array(tmp, unsigned, n + 1), nr_active = 0;
   /* The hardware preloads (r55-r62) are free after their last read, like
    * the low ones: the half file has few registers above r47.  r48 takes
    * the return address of the blend shaders a BLEND calls; a blend
    * shader's own return reads it, but blend shaders keep to r0-r15. */
   uint64_t reserved = 0;
   if (util_dynarray_num_elements(&c.blends, unsigned))
      reserved |= BITFIELD64_BIT(PAN_VA_BLEND_LINK_REG);
   reserved |= ~file;

   for (unsigned i = 0; i < count; ++i) {
      unsigned v = order[i];
      /* Expire the hulls that ended before this one starts; of the
       * others, only values live at the same time as v hold registers. */
      uint64_t used = reserved;
      for (unsigned a = 0; a < nr_active;) {
         unsigned u = active[a];
         if (c.end[u] < c.start[v]) {
            active[a] = active[--nr_active];
            continue;
         }
         if (segments_overlap(&c, u, v))
            used |= BITFIELD64_MASK(c.comps[u]) << regs[u];
         a++;
      }
      int r = find_regs(used | blend_clobbers(&c, v) | low_preloads(&c, v),
                        c.comps[v], pairs_first);
      if (r < 0) {
         unsigned *victim = &fail->victim;
         *victim = c.no_spill[v] ? ~0u : v;
         fail->vectors = ralloc_array(mem_ctx, unsigned, nr_active + 1);
         fail->nr_vectors = 0;
         active[nr_active] = v;
         for (unsigned a = 0; a <= nr_active; ++a) {
            unsigned u = active[a];
            if (a < nr_active && !c.no_spill[u] &&
                (*victim == ~0u || c.end[u] > c.end[*victim]))
               *victim = u;
            if (c.comps[u] > 1)
               fail->vectors[fail->nr_vectors++] = u;
         }
         qsort(fail->vectors, fail->nr_vectors, sizeof(unsigned), cmp_end_desc);
         snprintf(err, err_size,
                  "register allocation failed: %%%u (%u words) does not fit "
                  "with %u values live and nothing left to spill",
                  v, c.comps[v], nr_active);
         ralloc_free(regs);
         ralloc_free(tmp);
         return NULL;
      }
      regs[v] = r;
      active[nr_active++] = v;
   }
   for (unsigned v = 0; v < n; ++v) {
      if (c.preload[v] >= 0)
         regs[v] = (uint8_t)c.preload[v];
      else if (c.leader[v] != ~0u)
         regs[v] = regs[c.leader[v]] + c.word[v];
   }
   ralloc_free(tmp);
   return regs;
}

/* Remove the copies splitting made (the values from base on), reading
 * the vector words they copied again. */
static void
undo_splits(pan_ir_shader *s, unsigned base)
{
   unsigned n = s->ssa_alloc - base;
   if (!n)
      return;
   pan_ir_index *orig = calloc(n, sizeof(pan_ir_index));
   pan_ir_foreach_instr_global(s, b, I)
   {
      if (I->op == PAN_IR_OP_MOV && I->dest.kind == PAN_IR_SSA &&
          I->dest.value >= base)
         orig[I->dest.value - base] = I->src[0];
   }
   pan_ir_foreach_block(s, b)
   {
      pan_ir_foreach_instr_safe(b, I)
      {
         if (I->op == PAN_IR_OP_MOV && I->dest.kind == PAN_IR_SSA &&
             I->dest.value >= base) {
            pan_ir_instr_remove(I);
            continue;
         }
         for (unsigned i = 0; i < I->nr_srcs; ++i) {
            pan_ir_index *src = &I->src[i];
            if (src->kind != PAN_IR_SSA || src->value < base)
               continue;
            pan_ir_index w = orig[src->value - base];
            if (src->abs) {
               w.abs = true;
               w.neg = false;
            }
            w.neg ^= src->neg;
            *src = w;
         }
      }
   }
   free(orig);
}

/*
 * One allocation within max_regs, coalescing every collect member first
 * (fewest moves), then only the members that end at their collect (fewer
 * registers); each with first fit, then with scalars in half-used pairs.
 * On failure, splits a live vector if one can be (a move per word read
 * alone frees the others), else gives the value to spill
 * (~0 when none can be).
 */
static uint8_t *
alloc_or_split(pan_ir_shader *s, uint64_t file, bool may_split, bool *split,
               unsigned *victim, char *err, size_t err_size)
{
   /* Filled by every failed try; "no victim" if none ran. */
   struct ra_failure fail = { .victim = ~0u };
   void *tmp = ralloc_context(NULL);
   uint8_t *regs = NULL;
   for (unsigned i = 0; i < 4 && !regs; ++i) {
      regs = try_alloc(s, i >= 2, i & 1, file, &fail, tmp, err, err_size);
   }
   *split = false;
   if (!regs && may_split) {
      for (unsigned i = 0; i < fail.nr_vectors && !*split; ++i)
         *split = pan_va_split_vector(s, fail.vectors[i]);
      *victim = fail.victim;
   }
   ralloc_free(tmp);
   return regs;
}

/* The instructions of every block in order (moves within blocks only
 * happen between save and restore). */
static void
save_order(pan_ir_shader *s, struct util_dynarray *order)
{
   util_dynarray_init(order, NULL);
   pan_ir_foreach_instr_global(s, b, I)
      util_dynarray_append(order, pan_ir_instr *, I);
}

static void
restore_order(pan_ir_shader *s, struct util_dynarray *order)
{
   pan_ir_instr **next = util_dynarray_begin(order);
   pan_ir_foreach_block(s, b)
   {
      unsigned n = list_length(&b->instrs);
      list_inithead(&b->instrs);
      for (unsigned i = 0; i < n; ++i)
         list_addtail(&(*next++)->link, &b->instrs);
   }
}

/* Enough for any program the corpus has; a bound so that a bad choice
 * cannot loop. */
#define MAX_SPILLED_VALUES 1024

/* The registers max_regs allows (pan_va_ra). */
static uint64_t
register_file(unsigned max_regs)
{
   if (max_regs == PAN_VA_HALF_REGS)
      return ~BITFIELD64_RANGE(PAN_VA_HALF_GAP_FIRST, PAN_VA_HALF_GAP_COUNT);
   if (!max_regs || max_regs >= PAN_VA_NR_REGS)
      return ~0ull;
   return BITFIELD64_MASK(max_regs);
}

static uint8_t *
allocate(pan_ir_shader *s, unsigned max_regs, bool half_file, bool sink,
         struct pan_va_spill_stats *stats, char *err, size_t err_size)
{
   /* v6 has no half mode: its first try keeps values in r0-r31 all the
    * same, which packs them as before the half file existed. */
   uint64_t first = half_file ? register_file(PAN_VA_HALF_REGS)
                              : BITFIELD64_MASK(PAN_VA_HALF_REGS);
   *stats = (struct pan_va_spill_stats){ 0 };
   /* Spill slots go after the scratch arrays, on a line of their own. */
   stats->tls_size = ALIGN_POT(s->scratch_size, 16);
   /* Up to 32 registers a core runs twice as many threads: try that
    * first, splitting live vectors to get there but never spilling; when
    * even that fails the splits are undone. */
   unsigned victim;
   bool split;
   if (!max_regs || max_regs > PAN_VA_HALF_REGS) {
      /* Input loads moved to their readers' block first: that costs
       * nothing, a split costs moves. */
      uint8_t *regs =
         alloc_or_split(s, first, false, &split, &victim, err, err_size);
      if (regs)
         return regs;
      pan_va_sink_inputs(s);
      /* Then three orders, each from the same start: outputs stored with
       * their whole computations as soon as these are complete, and
       * everything else moved next to its first reader (level 2, which
       * fits the most programs with the fewest splits); only the moves
       * that lengthen no source (level 0); the wide move with only the
       * stores and their collects hoisted (level 1).  Each packs some
       * program that the others do not. */
      struct util_dynarray order;
      save_order(s, &order);
      static const unsigned levels[] = { 2, 0, 1 };
      for (unsigned i = 0; i < (sink ? ARRAY_SIZE(levels) : 1); ++i) {
         unsigned wide = sink ? levels[i] : 0;
         if (i)
            restore_order(s, &order);
         if (wide)
            pan_va_hoist_stores(s, wide == 2);
         if (sink)
            pan_va_sink_pressure(s, wide);
         unsigned base = s->ssa_alloc;
         for (unsigned tries = 0; tries < 16; ++tries) {
            regs =
               alloc_or_split(s, first, true, &split, &victim, err, err_size);
            if (regs)
               break;
            if (!split)
               break;
         }
         if (regs) {
            util_dynarray_fini(&order);
            return regs;
         }
         undo_splits(s, base);
      }
      /* The whole file takes the first move's order, as it fits best. */
      if (sink) {
         restore_order(s, &order);
         pan_va_sink_pressure(s, false);
      }
      util_dynarray_fini(&order);
   }
   /* Each vector is split at most once (a split one has no word read
    * alone left), so this ends. */
   for (unsigned spilled = 0; spilled <= MAX_SPILLED_VALUES;) {
      uint8_t *regs = alloc_or_split(s, register_file(max_regs), true, &split,
                                     &victim, err, err_size);
      if (regs)
         return regs;
      if (split)
         continue;
      if (victim == ~0u)
         return NULL;

      spilled++;

      unsigned comps = 0;
      pan_ir_foreach_instr_global(s, b, I)
      {
         if (I->dest.kind == PAN_IR_SSA && I->dest.value == victim)
            comps = I->dest.comps;
      }
      unsigned offset = pan_va_spill_slot(&stats->tls_size, comps);
      pan_va_spill(s, victim, comps, offset, stats);
   }
   snprintf(err, err_size,
            "register allocation failed after spilling %u "
            "values",
            MAX_SPILLED_VALUES);
   return NULL;
}

uint8_t *
pan_va_ra(pan_ir_shader *s, unsigned max_regs, bool half_file,
          struct pan_va_spill_stats *stats, char *err, size_t err_size)
{
   return allocate(s, max_regs, half_file, false, stats, err, err_size);
}

uint8_t *
pan_va_ra_pressure(pan_ir_shader *s, unsigned max_regs,
                   struct pan_va_spill_stats *stats, char *err, size_t err_size)
{
   return allocate(s, max_regs, true, true, stats, err, err_size);
}
