/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Decoded-instruction cache of the Valhall interpreter.  Decoding
 * identifies the word in the generated tables and checks every modifier;
 * a shader runs the same instructions for every warp, so each word is
 * decoded once and its lookups by name remembered (pan_sim_memo.h).
 *
 * Direct-mapped on the instruction's GPU address; a hit needs the same
 * word (so rewritten shader memory is decoded again) and the same uniform
 * count (decoding checks uniform sources against it).  Per thread; a run
 * nested in another does not use it, so the outer run's entries stay
 * valid.
 */

#include <stdlib.h>

#include "pan_sim_va_cache.h"

#define VA_SIM_CACHE_SLOTS 2048

struct va_sim_cached {
   uint64_t va, word;
   unsigned uniform_words;
   bool valid;
   struct pan_sim_va_ins ins;
   struct pan_sim_memo memo;
};

static __thread struct va_sim_cached *cache;
static __thread unsigned depth;

void
pan_sim_va_cache_enter(void)
{
   depth++;
}

void
pan_sim_va_cache_leave(void)
{
   depth--;
}

enum va_sim_result
pan_sim_va_fetch(struct pan_sim_va_ctx *c, unsigned pc,
                 struct pan_sim_va_ins *scratch,
                 const struct pan_sim_va_ins **ins)
{
   uint64_t word = c->cfg->program[pc];
   if (depth == 1 && !cache)
      cache = calloc(VA_SIM_CACHE_SLOTS, sizeof(*cache));
   if (depth != 1 || !cache) {
      *ins = scratch;
      return pan_sim_va_decode(c, word, scratch);
   }

   uint64_t va = c->cfg->program_va + (uint64_t)pc * 8;
   struct va_sim_cached *e = &cache[(va / 8) % VA_SIM_CACHE_SLOTS];
   *ins = &e->ins;
   if (e->valid && e->va == va && e->word == word &&
       e->uniform_words == c->cfg->uniform_words)
      return VA_SIM_OK;

   e->valid = false;
   enum va_sim_result r = pan_sim_va_decode(c, word, &e->ins);
   if (r != VA_SIM_OK)
      return r;
   e->va = va;
   e->word = word;
   e->uniform_words = c->cfg->uniform_words;
   e->memo = (struct pan_sim_memo){ .group = -1 };
   e->ins.memo = &e->memo;
   e->valid = true;
   return VA_SIM_OK;
}
