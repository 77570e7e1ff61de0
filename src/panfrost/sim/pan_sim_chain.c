/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The arch-neutral job-chain walker: one loop for the decoder and the
 * simulator. The per-arch header layouts are in pan_sim_vX_chain.c.
 */

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pan_sim_chain.h"

const struct pan_sim_header_layout *
pan_sim_header_layout(unsigned arch)
{
   switch (arch) {
#ifdef PAN_SIM_HAVE_V4
   case 4:
      return &pan_v4_sim_header_layout;
#endif
#ifdef PAN_SIM_HAVE_V5
   case 5:
      return &pan_v5_sim_header_layout;
#endif
#ifdef PAN_SIM_HAVE_V6
   case 6:
      return &pan_v6_sim_header_layout;
#endif
#ifdef PAN_SIM_HAVE_V7
   case 7:
      return &pan_v7_sim_header_layout;
#endif
#ifdef PAN_SIM_HAVE_V9
   case 9:
      return &pan_v9_sim_header_layout;
#endif
   default:
      return NULL;
   }
}

bool
pan_sim_chain_supports_arch(unsigned arch)
{
   return pan_sim_header_layout(arch) != NULL;
}

/* ---- job addresses walked so far: an open-addressing set ---- */

struct va_set {
   uint64_t *slots; /* 0 = empty; job addresses are never 0 */
   unsigned cap, count;
};

static unsigned
va_hash(uint64_t va, unsigned cap)
{
   /* Headers are at least 64-byte aligned: drop the zero bits. */
   return (unsigned)((va >> 6) * 2654435761u) & (cap - 1);
}

static bool
va_set_grow(struct va_set *s)
{
   unsigned cap = s->cap ? 2 * s->cap : 64;
   uint64_t *slots = calloc(cap, sizeof(*slots));

   if (!slots)
      return false;
   for (unsigned i = 0; i < s->cap; ++i) {
      if (!s->slots[i])
         continue;
      unsigned h = va_hash(s->slots[i], cap);
      while (slots[h])
         h = (h + 1) & (cap - 1);
      slots[h] = s->slots[i];
   }
   free(s->slots);
   s->slots = slots;
   s->cap = cap;
   return true;
}

/* False when va is already in the set. Without memory the set stops
 * growing and loops go unnoticed: the job bound still ends the walk. */
static bool
va_set_insert(struct va_set *s, uint64_t va)
{
   if (2 * (s->count + 1) > s->cap && !va_set_grow(s))
      return true;
   unsigned h = va_hash(va, s->cap);
   while (s->slots[h]) {
      if (s->slots[h] == va)
         return false;
      h = (h + 1) & (s->cap - 1);
   }
   s->slots[h] = va;
   s->count++;
   return true;
}

/* ---- the walk ---- */

struct walk {
   const struct pan_sim_chain_ops *ops;
   struct pan_sim_chain_result res;
   struct va_set seen;
   /* Job indices are 16-bit: one bit per index seen so far. */
   uint8_t index_seen[65536 / 8];
};

static bool
index_seen(const struct walk *w, unsigned index)
{
   return w->index_seen[(index & 0xffff) / 8] & (1u << (index % 8));
}

/* Report a problem; returns whether the walk may go on. */
static bool report(struct walk *w, struct pan_sim_chain_report *r,
                   enum pan_sim_chain_problem problem, const char *fmt, ...)
   __attribute__((format(printf, 4, 5)));

static bool
report(struct walk *w, struct pan_sim_chain_report *r,
       enum pan_sim_chain_problem problem, const char *fmt, ...)
{
   va_list ap;

   r->problem = problem;
   va_start(ap, fmt);
   vsnprintf(r->message, sizeof(r->message), fmt, ap);
   va_end(ap);
   w->res.problems++;

   bool go_on = !w->ops->problem || w->ops->problem(w->ops->data, r);
   return go_on && problem > PAN_SIM_CHAIN_TOO_LONG;
}

/* The index and dependency checks of one job; false to stop. */
static bool
check_indices(struct walk *w, const struct pan_sim_job *job)
{
   struct pan_sim_chain_report r = { .job_va = job->va, .job = job };
   const unsigned deps[2] = { job->dep1, job->dep2 };

   if (job->index == 0 &&
       !report(w, &r, PAN_SIM_CHAIN_INDEX_ZERO,
               "job index 0 is reserved for \"no dependency\""))
      return false;
   if (job->index != 0 && index_seen(w, job->index) &&
       !report(w, &r, PAN_SIM_CHAIN_INDEX_REUSED, "job index %u is used twice",
               job->index))
      return false;
   for (unsigned i = 0; i < 2; ++i) {
      if (deps[i] != 0 && !index_seen(w, deps[i]) &&
          !report(w, &r, PAN_SIM_CHAIN_DEP_UNKNOWN,
                  "dependency_%u = %u names no earlier job", i + 1, deps[i]))
         return false;
   }
   return true;
}

/* One job at va; false when the walk ends here. */
static bool
walk_job(struct walk *w, const struct pan_sim_header_layout *layout,
         const struct pan_sim_space *space, uint64_t va, unsigned max_jobs,
         struct pan_sim_job *job)
{
   struct pan_sim_chain_report r = { .job_va = va };
   const void *cpu = pan_sim_read(space, va, layout->size_B, layout->align_B,
                                  "job header", &r.access);

   if (!cpu)
      return report(w, &r, PAN_SIM_CHAIN_BAD_HEADER, "%s", r.access.message);
   if (!va_set_insert(&w->seen, va)) {
      return report(w, &r, PAN_SIM_CHAIN_LOOP,
                    "job chain loops back to 0x%" PRIx64, va);
   }
   if (w->res.jobs >= max_jobs) {
      return report(w, &r, PAN_SIM_CHAIN_TOO_LONG,
                    "more than %u jobs, stopping", max_jobs);
   }

   memset(job, 0, sizeof(*job));
   layout->unpack(cpu, job);
   job->va = va;
   job->header = cpu;
   if (!check_indices(w, job))
      return false;
   w->index_seen[(job->index & 0xffff) / 8] |= 1u << (job->index % 8);
   w->res.jobs++;
   return w->ops->job(w->ops->data, job);
}

int
pan_sim_walk_chain(unsigned arch, const struct pan_sim_space *space,
                   uint64_t jc_va, unsigned max_jobs,
                   const struct pan_sim_chain_ops *ops,
                   struct pan_sim_chain_result *result)
{
   const struct pan_sim_header_layout *layout = pan_sim_header_layout(arch);
   struct pan_sim_job job;

   if (result)
      memset(result, 0, sizeof(*result));
   if (!layout)
      return -1;
   if (max_jobs == 0 || max_jobs > PAN_SIM_CHAIN_MAX_JOBS)
      max_jobs = PAN_SIM_CHAIN_MAX_JOBS;

   /* About 8 KiB of index bits: on the heap, not the caller's stack. */
   struct walk *w = calloc(1, sizeof(*w));
   if (!w)
      return -1;
   w->ops = ops;

   for (uint64_t va = jc_va; va; va = job.next) {
      if (!walk_job(w, layout, space, va, max_jobs, &job)) {
         w->res.stopped = true;
         break;
      }
   }

   if (result)
      *result = w->res;
   free(w->seen.slots);
   free(w);
   return 0;
}
