/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Decoded-clause cache of the Bifrost interpreter.  Identifying an
 * instruction word scans the generated tables and every modifier is
 * looked up by name; a shader runs the same clauses for every warp, so
 * both are done once per clause and remembered (pan_sim_memo.h).
 *
 * The cache is direct-mapped on the clause address and compares the
 * clause's bytes on every hit: no invalidation is needed when the driver
 * rewrites shader memory, and two programs at the same address cannot be
 * confused.  It is per thread, so concurrent simulations share nothing.
 */

#include <stdlib.h>
#include <string.h>

#include "pan_sim_bi_cache.h"

#define BI_SIM_CACHE_SLOTS 256

struct bi_sim_cache {
   struct bi_sim_clause slot[BI_SIM_CACHE_SLOTS];
};

static __thread struct bi_sim_cache *cache;
static __thread unsigned depth;

void
pan_sim_bi_cache_enter(void)
{
   depth++;
}

void
pan_sim_bi_cache_leave(void)
{
   depth--;
}

bool
pan_sim_bi_identify(uint32_t word, unsigned unit, struct pan_sim_bi_ins *ins)
{
   int idx = bi_identify(word, unit);
   if (idx < 0 || bi_instr_problem(word, unit))
      return false;
   *ins = (struct pan_sim_bi_ins){ .word = word,
                                   .unit = unit,
                                   .index = (unsigned)idx,
                                   .op = &bi_ops[idx],
                                   .sem = &bi_sems[idx] };
   return true;
}

static bool
decode_tuple(const struct bi_tuple *t, bool first, struct bi_sim_tuple *d)
{
   const uint32_t words[2] = { t->fma, t->add };
   if (!bi_regs_decode(t->regs, first, &d->blk))
      return false;
   for (unsigned u = 0; u < 2; u++) {
      struct pan_sim_bi_ins *ins = &d->ins[u];
      if (!pan_sim_bi_identify(words[u], u, ins))
         return false;
      /* A source selecting a port that reads nothing faults. */
      for (unsigned s = 0; s < ins->op->nr_srcs; s++) {
         unsigned sel = (words[u] >> ins->op->srcs[s]) & 7;
         if (sel < 3 && d->blk.read[sel] < 0)
            return false;
      }
      d->memo[u] = (struct pan_sim_memo){ .group = -1 };
      ins->memo = &d->memo[u];
   }
   return true;
}

struct bi_sim_clause *
pan_sim_bi_cache_get(const struct pan_sim_bi_config *cfg, uint64_t pc)
{
   if (depth > 1)
      return NULL;
   if (!cache) {
      cache = calloc(1, sizeof(*cache));
      if (!cache)
         return NULL;
   }
   const uint64_t *words = cfg->program + pc / 8;
   unsigned avail = cfg->program_quads - (unsigned)(pc / 16);
   uint64_t va = cfg->program_va + pc;
   struct bi_sim_clause *e = &cache->slot[(va / 16) % BI_SIM_CACHE_SLOTS];

   if (e->quads && e->va == va && e->quads <= avail &&
       !memcmp(e->bytes, words, e->quads * 16))
      return e;

   e->quads = 0;
   unsigned quads = bi_unpack_clause(words, avail, &e->clause);
   if (!quads || quads > BI_SIM_CACHE_QUADS)
      return NULL;
   for (unsigned i = 0; i < e->clause.nr_tuples; i++)
      e->t[i].ok = decode_tuple(&e->clause.tuples[i], i == 0, &e->t[i]);
   bi_regs_decode(e->clause.tuples[0].regs, true, &e->first);
   memcpy(e->bytes, words, quads * 16);
   e->va = va;
   e->quads = quads;
   return e;
}
