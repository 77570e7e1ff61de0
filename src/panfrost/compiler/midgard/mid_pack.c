/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Lane packing, after scheduling and before register allocation.  The
 * allocator gives every variable a whole vec4 register, so a shader full
 * of scalars and vec2s burns four lanes per value and loses threads
 * (Midgard runs 4 threads up to 4 work registers, 2 up to 8).  Here
 * variables of one to three lanes that only ALU instructions touch are
 * gathered into the lanes of shared variables: a value takes free lanes
 * of a group whose other lanes are live at its definition, so values
 * live together share one register.  Lane occupancy is judged on live
 * intervals over the bundle order (a write at its unit's slot, a read at
 * the end of its bundle, whole blocks where the value is live in or out),
 * which are conservative hulls.  The allocator tracks liveness per lane,
 * so a group's idle lanes cost nothing.  A scalar first written by a copy
 * of a scalar whose life ends in that copy takes the same lane, so the
 * copy becomes a no-op.  A dot product's result counts as one lane (only
 * lane 0 is read): it writes one lane and keeps reading its sources by
 * position (mid_emit.c encodes the whole swizzle for it).
 */

#include <string.h>

#include "isa/pan_isa_mid.h"
#include "util/ralloc.h"
#include "util/u_math.h"

#include "mid_ir.h"
#include "mid_pack.h"

struct pk_var {
   uint8_t wmask;
   bool bad;        /* touched by something other than an ALU word */
   bool dot, other; /* written by a dot product / by anything else */
   uint8_t rmask;   /* lanes read */
   uint8_t written; /* lanes its writers write */
   unsigned nr_writers;
   int lo, hi;      /* live interval in slot positions */
   int group;       /* assignment: leader variable, -1 none */
   uint8_t map[4];  /* its lane l goes to lane map[l] of the group */
   struct mid_instr *first; /* its earliest writer */
};

struct pk_group {
   unsigned var;
   int end[4];  /* last slot each lane is busy, -1: free */
   int max_end; /* the latest of end[] (set_end) */
};

static void
set_end(struct pk_group *g, unsigned l, int end)
{
   g->end[l] = end;
   g->max_end = MAX2(MAX2(g->end[0], g->end[1]), MAX2(g->end[2], g->end[3]));
}

static void
widen(struct pk_var *v, int pos)
{
   v->lo = MIN2(v->lo, pos);
   v->hi = MAX2(v->hi, pos);
}

static struct mid_bundle *
bundle_at(struct mid_shader *s, unsigned i)
{
   return util_dynarray_element(&s->bundles, struct mid_bundle, i);
}

static bool
is_dot(const struct mid_instr *I)
{
   return I->kind == MID_ALU && !strncmp(I->op, "fdot", 4);
}

static bool
is_csel_v(const struct mid_instr *I)
{
   return I->kind == MID_ALU && strstr(I->op, "csel_v");
}

/* Move lanes `mask` of an ALU writer's sources to lanes map[l] (with
 * their constant slots), for a destination that moves so. */
static void
move_src_lanes(struct mid_bundle *b, unsigned u, struct mid_instr *I,
               unsigned mask, const uint8_t *map)
{
   for (unsigned k = 0; k < I->nr_srcs; k++) {
      struct mid_src *src = &I->src[k], old = *src;
      uint8_t slots[4];
      memcpy(slots, b->cslot[u][k], 4);
      u_foreach_bit (from, mask) {
         unsigned to = map[from];
         src->swz[to] = old.swz[from];
         src->imm[to] = old.imm[from];
         b->cslot[u][k][to] = slots[from];
      }
   }
}

static bool
candidate(const struct pk_var *v)
{
   return !v->bad && v->wmask && mid_lane_count(v->wmask) < 4;
}

/* Which variables may move, and the lanes they occupy. */
static void
classify(struct mid_shader *s, struct pk_var *vars)
{
   mid_foreach_block(s, b)
   {
      struct mid_instr *feeder = NULL; /* the last r31 write */
      mid_foreach_instr(b, I)
      {
         bool alu = I->kind == MID_ALU;
         if (I->dst.kind == MID_REF_HW && I->dst.index == 31)
            feeder = I;
         if (I->dst.kind == MID_REF_VAR && !I->store) {
            struct pk_var *v = &vars[I->dst.index];
            /* Only lane 0 of a dot product's variable is read. */
            bool dot = is_dot(I);
            v->wmask |= dot ? 1 : I->mask;
            /* A per-lane select reads lane l of r31 for its lane l: its
             * lanes move only with those of its feeder (rewrite). */
            v->bad |=
               !alu || (is_csel_v(I) && (!feeder || feeder->mask != I->mask));
            v->dot |= dot;
            v->other |= !dot;
            v->written |= I->mask;
            v->nr_writers++;
         }
         for (unsigned i = 0; i < I->nr_srcs; i++) {
            const struct mid_src *src = &I->src[i];
            if (src->ref.kind != MID_REF_VAR)
               continue;
            struct pk_var *v = &vars[src->ref.index];
            v->bad |= !alu;
            if (alu)
               v->rmask |= mid_src_lanes(I, src);
         }
      }
   }
   for (unsigned i = 0; i < s->nr_vars; i++) {
      if (vars[i].dot && (vars[i].other || (vars[i].rmask & ~1u)))
         vars[i].bad = true;
   }
}


/* Live intervals of the candidates over slot positions: bundle i holds
 * slots 8i (vmul) to 8i + 7 (its end). */
static void
intervals(struct mid_shader *s, struct pk_var *vars, const uint8_t *live_in,
          const uint8_t *live_out_all, void *mem)
{
   unsigned n = s->nr_vars, nb = s->nr_blocks;
   unsigned nr = util_dynarray_num_elements(&s->bundles, struct mid_bundle);
   int *start = ralloc_array(mem, int, nb), *end = ralloc_array(mem, int, nb);
   for (unsigned i = 0; i < nb; i++)
      start[i] = end[i] = -1;
   int cur = -1;
   for (unsigned i = 0; i < nr; i++) {
      struct mid_bundle *b = bundle_at(s, i);
      if (b->block) {
         cur = b->block->index;
         start[cur] = 8 * i;
      }
      if (cur >= 0)
         end[cur] = 8 * i + 7;
      for (unsigned u = 0;
           u < 5 && (b->kind == MID_B_ALU || b->kind == MID_B_WRITEOUT); u++) {
         struct mid_instr *I = b->unit[u];
         if (!I)
            continue;
         if (I->dst.kind == MID_REF_VAR) {
            struct pk_var *v = &vars[I->dst.index];
            if (8 * (int)i + (int)u < v->lo)
               v->first = I;
            widen(v, 8 * i + u);
         }
         for (unsigned k = 0; k < I->nr_srcs; k++) {
            if (I->src[k].ref.kind == MID_REF_VAR)
               widen(&vars[I->src[k].ref.index], 8 * i + 7);
         }
      }
   }

   mid_foreach_block(s, b)
   {
      if (start[b->index] < 0)
         continue;
      const uint8_t *in = live_in + (size_t)b->index * n;
      const uint8_t *live_out = live_out_all + (size_t)b->index * n;
      for (unsigned v = 0; v < n; v++) {
         if (!candidate(&vars[v]))
            continue;
         if (in[v])
            widen(&vars[v], start[b->index]);
         if (live_out[v])
            widen(&vars[v], end[b->index]);
      }
   }
}

/* The copy's source, when c's first write copies a scalar whose life
 * ends in that copy's bundle and whose lane is still its own. */
static int
copied_lane(const struct pk_var *vars, const struct pk_group *groups,
            const struct pk_var *c)
{
   const struct mid_instr *I = c->first;
   if (!I || !mid_is_plain_move(I) || I->src[1].ref.kind != MID_REF_VAR ||
       mid_lane_count(c->wmask) != 1)
      return -1;
   const struct pk_var *p = &vars[I->src[1].ref.index];
   if (p->group < 0 || mid_lane_count(p->wmask) != 1 ||
       p->hi != (c->lo | 7) ||
       groups[p->group].end[p->map[ffs(p->wmask) - 1]] != p->hi)
      return -1;
   return I->src[1].ref.index;
}

static void
assign(struct mid_shader *s, struct pk_var *vars, void *mem)
{
   unsigned n = s->nr_vars, nc = 0;
   unsigned *order = ralloc_array(mem, unsigned, n);
   for (unsigned v = 0; v < n; v++) {
      vars[v].group = -1;
      if (candidate(&vars[v]) && vars[v].lo <= vars[v].hi)
         order[nc++] = v;
   }
   /* By interval start (insertion sort: the lists are short). */
   for (unsigned i = 1; i < nc; i++) {
      unsigned x = order[i], j = i;
      for (; j > 0 && vars[order[j - 1]].lo > vars[x].lo; j--)
         order[j] = order[j - 1];
      order[j] = x;
   }

   struct pk_group *groups = ralloc_array(mem, struct pk_group, nc ? nc : 1);
   /* The groups still live, in index order: one idle at a value's start
    * stays idle for the later ones (they start no earlier) unless a copy
    * takes a lane of it again. */
   unsigned *live = ralloc_array(mem, unsigned, nc ? nc : 1);
   bool *listed = rzalloc_array(mem, bool, nc ? nc : 1);
   unsigned ng = 0, nr_live = 0;
   for (unsigned i = 0; i < nc; i++) {
      struct pk_var *c = &vars[order[i]];
      int src = copied_lane(vars, groups, c);
      unsigned k = mid_lane_count(c->wmask);
      if (src >= 0) {
         const struct pk_var *p = &vars[src];
         unsigned l = p->map[ffs(p->wmask) - 1];
         c->group = p->group;
         c->map[ffs(c->wmask) - 1] = l;
         set_end(&groups[c->group], l, c->hi);
         if (!listed[c->group]) {
            unsigned j = nr_live++;
            for (; j > 0 && live[j - 1] > (unsigned)c->group; j--)
               live[j] = live[j - 1];
            live[j] = c->group;
            listed[c->group] = true;
         }
         continue;
      }
      /* A group live here with a free lane, the one living longest;
       * else a new group (a group idle here would add interferences
       * without saving a register). */
      int best = -1, best_end = -1;
      unsigned kept = 0;
      for (unsigned gi = 0; gi < nr_live; gi++) {
         unsigned g = live[gi];
         int max_end = groups[g].max_end;
         if (max_end <= c->lo) {
            listed[g] = false;
            continue;
         }
         live[kept++] = g;
         /* Lanes counted only for a group that would win. */
         if (max_end <= best_end)
            continue;
         unsigned nr_free = 0;
         for (unsigned l = 0; l < 4; l++)
            nr_free += groups[g].end[l] < c->lo;
         if (nr_free >= k) {
            best = g;
            best_end = max_end;
         }
      }
      nr_live = kept;
      if (best < 0) {
         best = ng++;
         groups[best].var = order[i];
         for (unsigned l = 0; l < 4; l++)
            set_end(&groups[best], l, -1);
         live[nr_live++] = best;
         listed[best] = true;
      }
      /* Its lanes in order onto the group's free ones, lowest first. */
      unsigned l = 0;
      u_foreach_bit(from, c->wmask) {
         while (groups[best].end[l] >= c->lo)
            l++;
         c->map[from] = l;
         set_end(&groups[best], l, c->hi);
      }
      c->group = best;
   }
   /* From group index to the leader variable. */
   for (unsigned v = 0; v < n; v++) {
      if (vars[v].group >= 0)
         vars[v].group = groups[vars[v].group].var;
   }
}

static void
rewrite(struct mid_shader *s, const struct pk_var *vars)
{
   unsigned nr = util_dynarray_num_elements(&s->bundles, struct mid_bundle);
   for (unsigned i = 0; i < nr; i++) {
      struct mid_bundle *b = bundle_at(s, i);
      for (unsigned u = 0;
           u < 5 && (b->kind == MID_B_ALU || b->kind == MID_B_WRITEOUT); u++) {
         struct mid_instr *I = b->unit[u];
         if (!I)
            continue;
         if (I->dst.kind == MID_REF_VAR && vars[I->dst.index].group >= 0) {
            const struct pk_var *v = &vars[I->dst.index];
            /* A dot product's sources are read by position: the result
             * moves to another lane, the reads stay. */
            unsigned mask = is_dot(I) ? 1 : I->mask, to_mask = 0;
            if (!is_dot(I))
               move_src_lanes(b, u, I, mask, v->map);
            u_foreach_bit(from, mask)
               to_mask |= 1u << v->map[from];
            /* A per-lane select on vadd reads its condition lane by lane:
             * that moves along, from its feeder on a first-stage unit
             * (a scalar unit's select reads lane x whatever its lane). */
            for (unsigned f = 0; f < u && u == PAN_MID_VADD && is_csel_v(I);
                 f++) {
               struct mid_instr *F = b->unit[f];
               if (F && F->dst.kind == MID_REF_HW && F->dst.index == 31) {
                  move_src_lanes(b, f, F, mask, v->map);
                  F->mask = to_mask;
               }
            }
            I->dst.index = v->group;
            I->mask = to_mask;
         }
         for (unsigned k = 0; k < I->nr_srcs; k++) {
            struct mid_src *src = &I->src[k];
            if (src->ref.kind != MID_REF_VAR || vars[src->ref.index].group < 0)
               continue;
            const struct pk_var *v = &vars[src->ref.index];
            /* Lanes it never writes (undefined reads) go anywhere of its. */
            unsigned any = v->map[ffs(v->wmask) - 1];
            for (unsigned l = 0; l < 4; l++) {
               src->swz[l] = (v->wmask & (1u << src->swz[l]))
                                ? v->map[src->swz[l]]
                                : any;
            }
            src->ref.index = v->group;
         }
      }
   }
}

uint8_t *
mid_pack_weights(struct mid_shader *s, void *mem)
{
   unsigned n = s->nr_vars ? s->nr_vars : 1;
   struct pk_var *vars = rzalloc_array(NULL, struct pk_var, n);
   uint8_t *w = ralloc_array(mem, uint8_t, n);
   classify(s, vars);
   for (unsigned v = 0; v < n; v++)
      w[v] = candidate(&vars[v]) ? mid_lane_count(vars[v].wmask) : 4;
   ralloc_free(vars);
   return w;
}

bool
mid_pack_scalars(struct mid_shader *s, const uint8_t *live_in,
                 const uint8_t *live_out, unsigned min_regs)
{
   if (!s->nr_vars)
      return true;
   void *mem = ralloc_context(NULL);
   struct pk_var *vars = rzalloc_array(mem, struct pk_var, s->nr_vars);
   for (unsigned v = 0; v < s->nr_vars; v++) {
      vars[v].lo = INT32_MAX;
      vars[v].hi = -1;
   }
   classify(s, vars);
   if (min_regs) {
      /* What packing will leave whole: the bound on the registers (the
       * results kept in r28 below count nothing in it). */
      uint8_t *size = ralloc_array(mem, uint8_t, s->nr_vars);
      for (unsigned v = 0; v < s->nr_vars; v++) {
         size[v] =
            candidate(&vars[v]) ? mid_lane_count(vars[v].wmask) : 4;
      }
      if (mid_reg_bound(s, size, live_out) >= min_regs) {
         ralloc_free(mem);
         return false;
      }
   }
   /* The texture results allocation keeps in the second result register
    * (mid_ra.c), which nothing else may write, stay whole. */
   if (s->keep_tex_copies) {
      struct util_dynarray kept;
      util_dynarray_init(&kept, mem);
      mid_ra_kept_tex_copies(s, &kept);
      util_dynarray_foreach(&kept, unsigned, v) vars[*v].bad = true;
   }
   intervals(s, vars, live_in, live_out, mem);
   assign(s, vars, mem);
   rewrite(s, vars);
   ralloc_free(mem);
   return true;
}
