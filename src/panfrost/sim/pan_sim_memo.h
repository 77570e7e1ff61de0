/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * What the interpreters looked up by name in one decoded instruction
 * (modifiers, immediates, values derived from them), remembered for the
 * next lane and the next execution of the cached instruction.  Entries are
 * keyed by the addresses of the name and argument strings, so both must
 * be string literals (storage that never changes).
 */

#ifndef PAN_SIM_MEMO_H
#define PAN_SIM_MEMO_H

#include <stdbool.h>
#include <stdint.h>

#define PAN_SIM_MEMO_LEN 32 /* a power of two: an open-addressed table */

struct pan_sim_memo {
   unsigned nr;
   int8_t group; /* family group that claimed the instruction, -1 unknown */
   struct {
      const char *name, *arg; /* name NULL: free */
      int64_t val;
      uint8_t kind;
   } e[PAN_SIM_MEMO_LEN];
};

/* The slot of (kind, name, arg): its entry, or the free one where it goes
 * (pan_sim_memo_put always leaves one free). */
static inline unsigned
pan_sim_memo_slot(const struct pan_sim_memo *m, unsigned kind,
                  const char *name, const char *arg)
{
   unsigned h = ((uintptr_t)name >> 1 ^ (uintptr_t)arg >> 3 ^ kind * 7) &
                (PAN_SIM_MEMO_LEN - 1);
   for (;; h = (h + 1) & (PAN_SIM_MEMO_LEN - 1)) {
      if (!m->e[h].name || (m->e[h].name == name && m->e[h].arg == arg &&
                            m->e[h].kind == kind))
         return h;
   }
}

static inline bool
pan_sim_memo_get(const struct pan_sim_memo *m, unsigned kind,
                 const char *name, const char *arg, int64_t *v)
{
   if (!m)
      return false;
   unsigned h = pan_sim_memo_slot(m, kind, name, arg);
   *v = m->e[h].val;
   return m->e[h].name != NULL;
}

static inline void
pan_sim_memo_put(struct pan_sim_memo *m, unsigned kind, const char *name,
                 const char *arg, int64_t v)
{
   if (!m || m->nr + 1 >= PAN_SIM_MEMO_LEN)
      return;
   unsigned h = pan_sim_memo_slot(m, kind, name, arg);
   if (m->e[h].name)
      return;
   m->nr++;
   m->e[h].name = name;
   m->e[h].arg = arg;
   m->e[h].kind = (uint8_t)kind;
   m->e[h].val = v;
}

#endif
