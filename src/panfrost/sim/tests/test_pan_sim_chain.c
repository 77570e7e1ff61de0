/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The shared GPU address-space view and job-chain walker, for one
 * architecture (compiled with -DPAN_ARCH=N): checked accesses at and across
 * region bounds, header unpacking against the genxml packer, loops, the
 * job bound, indices and dependencies, and the status write-back.
 */

#include <stdlib.h>
#include <string.h>

#include "pan_genxml.h"
#include "pan_sim_chain.h"
#include "util/pan_test_util.h"

/* ---- a small address space: jobs, a read-only copy, an uncaptured heap */

#define JOBS_VA 0x100000ull
#define JOBS_B (256u << 10)
#define RO_VA 0x200000ull
#define HEAP_VA 0x300000ull

static uint8_t jobs_mem[JOBS_B] __attribute__((aligned(64)));
static const uint8_t ro_mem[256] = { 1, 2, 3 };

static const struct pan_sim_region regions[] = {
   { JOBS_VA, JOBS_B, jobs_mem, "jobs", true },
   { RO_VA, sizeof(ro_mem), ro_mem, "copy" },
   { HEAP_VA, 4096, NULL, "heap" },
};
static const struct pan_sim_space space = { regions, 3 };

/* Job k sits at slot k (every slot is big enough for a header). */
#define SLOT_B 128

static uint64_t
slot_va(unsigned k)
{
   return JOBS_VA + (uint64_t)k * SLOT_B;
}

static void
put_job(unsigned k, unsigned type, unsigned index, unsigned dep1, unsigned dep2,
        uint64_t next)
{
   pan_pack(jobs_mem + (size_t)k * SLOT_B, job_header, cfg) {
#if PAN_ARCH <= 7
      cfg.is_64b = true;
#endif
      cfg.type = type;
      cfg.index = index;
      cfg.dependency_1 = dep1;
      cfg.dependency_2 = dep2;
      cfg.next = next;
   }
}

/* A chain of n NULL jobs in slots 0..n-1, indices 1..n, each depending on
 * the one before. */
static void
put_line(unsigned n)
{
   for (unsigned k = 0; k < n; ++k) {
      put_job(k, MALI_JOB_TYPE_NULL, k + 1, k, 0,
              k + 1 < n ? slot_va(k + 1) : 0);
   }
}

/* ---- what the walker reports ---- */

#define MAX_SEEN 64

struct seen {
   unsigned jobs, problems;
   struct pan_sim_job job[MAX_SEEN];
   enum pan_sim_chain_problem problem[MAX_SEEN];
   enum pan_sim_access_status access[MAX_SEEN];
   char message[MAX_SEEN][PAN_SIM_CHAIN_MESSAGE_B];
   bool stop_on_problem;
   unsigned stop_after_jobs; /* 0: never */
};

static bool
on_problem(void *data, const struct pan_sim_chain_report *r)
{
   struct seen *s = data;
   if (s->problems < MAX_SEEN) {
      s->problem[s->problems] = r->problem;
      s->access[s->problems] = r->access.status;
      memcpy(s->message[s->problems], r->message, sizeof(r->message));
   }
   s->problems++;
   return !s->stop_on_problem;
}

static bool
on_job(void *data, const struct pan_sim_job *job)
{
   struct seen *s = data;
   if (s->jobs < MAX_SEEN)
      s->job[s->jobs] = *job;
   s->jobs++;
   return s->stop_after_jobs == 0 || s->jobs < s->stop_after_jobs;
}

static struct pan_sim_chain_result
walk(uint64_t jc, unsigned max_jobs, struct seen *s)
{
   struct pan_sim_chain_ops ops = { on_problem, on_job, s };
   struct pan_sim_chain_result res;
   int ret = pan_sim_walk_chain(PAN_ARCH, &space, jc, max_jobs, &ops, &res);
   PAN_EXPECT_EQ(ret, 0);
   PAN_EXPECT_EQ(res.jobs, s->jobs);
   PAN_EXPECT_EQ(res.problems, s->problems);
   return res;
}

/* ---- cases ---- */

static void
test_space(void)
{
   struct pan_sim_access acc;

   PAN_EXPECT(pan_sim_space_find(&space, JOBS_VA) == &regions[0]);
   PAN_EXPECT(pan_sim_space_find(&space, JOBS_VA + JOBS_B - 1) == &regions[0]);
   PAN_EXPECT(pan_sim_space_find(&space, JOBS_VA + JOBS_B) == NULL);
   PAN_EXPECT(pan_sim_space_find(&space, JOBS_VA - 1) == NULL);
   PAN_EXPECT_EQ(pan_sim_space_avail(&space, RO_VA + 16), sizeof(ro_mem) - 16);
   PAN_EXPECT_EQ(pan_sim_space_avail(&space, HEAP_VA), 0);

   /* The last bytes of a region, then one byte too many. */
   PAN_EXPECT(pan_sim_read(&space, JOBS_VA + JOBS_B - 8, 8, 8, "x", &acc) ==
              jobs_mem + JOBS_B - 8);
   PAN_EXPECT(!pan_sim_read(&space, JOBS_VA + JOBS_B - 8, 9, 0, "tail", &acc));
   PAN_EXPECT_EQ(acc.status, PAN_SIM_ACCESS_PAST_END);
   PAN_EXPECT(acc.region == &regions[0]);
   PAN_EXPECT_STR_HAS(acc.message, "tail: ");
   PAN_EXPECT_STR_HAS(acc.message, "runs past the end of \"jobs\"");

   /* A huge size must not wrap around. */
   PAN_EXPECT(!pan_sim_read(&space, JOBS_VA + 64, UINT64_MAX, 0, "huge", &acc));
   PAN_EXPECT_EQ(acc.status, PAN_SIM_ACCESS_PAST_END);

   PAN_EXPECT(!pan_sim_read(&space, 0, 4, 0, "ptr", &acc));
   PAN_EXPECT_EQ(acc.status, PAN_SIM_ACCESS_NULL);
   PAN_EXPECT_STR_HAS(acc.message, "ptr: NULL pointer");

   PAN_EXPECT(!pan_sim_read(&space, 0x7000000, 4, 0, "wild", &acc));
   PAN_EXPECT_EQ(acc.status, PAN_SIM_ACCESS_UNMAPPED);
   PAN_EXPECT_STR_HAS(acc.message, "wild: address 0x7000000 is not mapped");

   PAN_EXPECT(!pan_sim_read(&space, JOBS_VA + 4, 8, 8, "odd", &acc));
   PAN_EXPECT_EQ(acc.status, PAN_SIM_ACCESS_MISALIGNED);
   PAN_EXPECT_STR_HAS(acc.message, "is not 8-byte aligned");

   PAN_EXPECT(!pan_sim_read(&space, HEAP_VA, 4, 0, "heap word", &acc));
   PAN_EXPECT_EQ(acc.status, PAN_SIM_ACCESS_NOT_CAPTURED);
   PAN_EXPECT_STR_HAS(acc.message, "contents of \"heap\" were not captured");
   /* A probe only needs the range. */
   PAN_EXPECT(pan_sim_probe(&space, HEAP_VA, 4096, "heap", &acc));
   PAN_EXPECT(!pan_sim_probe(&space, HEAP_VA, 4097, "heap", &acc));
   PAN_EXPECT(!pan_sim_probe(&space, 0, 1, "zero", NULL));

   /* Reads of a read-only region work, writes do not. */
   const uint8_t *ro = pan_sim_read(&space, RO_VA, 3, 0, "copy", &acc);
   PAN_EXPECT(ro == ro_mem && acc.status == PAN_SIM_ACCESS_OK);
   PAN_EXPECT(!pan_sim_write(&space, RO_VA, 3, 0, "store", &acc));
   PAN_EXPECT_EQ(acc.status, PAN_SIM_ACCESS_READ_ONLY);
   PAN_EXPECT_STR_HAS(acc.message, "\"copy\" is read-only");
   PAN_EXPECT(!pan_sim_write(&space, HEAP_VA, 4, 0, "store", NULL));
   PAN_EXPECT(pan_sim_write(&space, JOBS_VA, 4, 4, "store", NULL) == jobs_mem);
}

static void
test_header_unpack(void)
{
   struct seen s = { 0 };

   memset(jobs_mem, 0, sizeof(jobs_mem));
   put_job(0, MALI_JOB_TYPE_WRITE_VALUE, 7, 0, 0, slot_va(1));
   put_job(1, MALI_JOB_TYPE_FRAGMENT, 9, 7, 0, 0);
   walk(slot_va(0), 0, &s);

   PAN_EXPECT_EQ(s.problems, 0);
   PAN_EXPECT_EQ(s.jobs, 2);
   PAN_EXPECT_EQ(s.job[0].va, slot_va(0));
   PAN_EXPECT(s.job[0].header == jobs_mem);
   PAN_EXPECT_EQ(s.job[0].type, MALI_JOB_TYPE_WRITE_VALUE);
   PAN_EXPECT_EQ(s.job[0].index, 7);
   PAN_EXPECT_EQ(s.job[0].next, slot_va(1));
   PAN_EXPECT(s.job[0].is_64b);
   PAN_EXPECT(s.job[0].type_name &&
              !strcmp(s.job[0].type_name,
                      PAN_GENX(job_type_name)(MALI_JOB_TYPE_WRITE_VALUE)));
   PAN_EXPECT_EQ(s.job[1].type, MALI_JOB_TYPE_FRAGMENT);
   PAN_EXPECT_EQ(s.job[1].dep1, 7);
   PAN_EXPECT_EQ(s.job[1].dep2, 0);
   PAN_EXPECT_EQ(s.job[1].next, 0);

   /* A type the architecture does not have has no name. */
   memset(&s, 0, sizeof(s));
   put_job(0, 15, 1, 0, 0, 0);
   walk(slot_va(0), 0, &s);
   PAN_EXPECT(s.jobs == 1 && s.job[0].type == 15 && !s.job[0].type_name);

#if PAN_ARCH <= 7
   /* 32-bit descriptors are reported as such, not rejected here. */
   memset(&s, 0, sizeof(s));
   pan_pack(jobs_mem, job_header, cfg) {
      cfg.is_64b = false;
      cfg.type = MALI_JOB_TYPE_NULL;
      cfg.index = 1;
   }
   walk(slot_va(0), 0, &s);
   PAN_EXPECT(s.jobs == 1 && !s.job[0].is_64b);
#endif

   /* An empty chain walks nothing. */
   memset(&s, 0, sizeof(s));
   struct pan_sim_chain_result res = walk(0, 0, &s);
   PAN_EXPECT(s.jobs == 0 && s.problems == 0 && !res.stopped);

   /* Unknown architectures are refused. */
   struct pan_sim_chain_ops ops = { on_problem, on_job, &s };
   PAN_EXPECT_EQ(pan_sim_walk_chain(8, &space, slot_va(0), 0, &ops, NULL), -1);
   PAN_EXPECT(!pan_sim_chain_supports_arch(8));
   PAN_EXPECT(pan_sim_chain_supports_arch(PAN_ARCH));
}

static void
test_bad_headers(void)
{
   struct seen s = { 0 };
   unsigned align = pan_sim_header_layout(PAN_ARCH)->align_B;

   /* Misaligned, unmapped, uncaptured, cut off by the end of a region. */
   const uint64_t bad[] = { slot_va(0) + align / 2, 0x7000000, HEAP_VA,
                            JOBS_VA + JOBS_B - align };
   const enum pan_sim_access_status want[] = { PAN_SIM_ACCESS_MISALIGNED,
                                               PAN_SIM_ACCESS_UNMAPPED,
                                               PAN_SIM_ACCESS_NOT_CAPTURED,
                                               PAN_SIM_ACCESS_PAST_END };

   for (unsigned i = 0; i < 4; ++i) {
      if (i == 3 && pan_sim_header_layout(PAN_ARCH)->size_B <= align)
         continue;
      memset(&s, 0, sizeof(s));
      put_job(0, MALI_JOB_TYPE_NULL, 1, 0, 0, bad[i]);
      struct pan_sim_chain_result res = walk(slot_va(0), 0, &s);
      PAN_CHECK(s.jobs == 1 && s.problems == 1 && res.stopped,
                "bad header %u: %u jobs, %u problems", i, s.jobs, s.problems);
      PAN_EXPECT_EQ(s.problem[0], PAN_SIM_CHAIN_BAD_HEADER);
      PAN_EXPECT_STR_HAS(s.message[0], "job header: ");
      /* The failed access is passed on for the caller to classify. */
      PAN_EXPECT_EQ(s.access[0], want[i]);
   }
}

static void
test_loops_and_bound(void)
{
   struct seen s = { 0 };

   /* 0 -> 1 -> 2 -> 1: three jobs, then the loop. */
   put_line(3);
   put_job(2, MALI_JOB_TYPE_NULL, 3, 2, 0, slot_va(1));
   struct pan_sim_chain_result res = walk(slot_va(0), 0, &s);
   PAN_EXPECT_EQ(s.jobs, 3);
   PAN_EXPECT(s.problems == 1 && s.problem[0] == PAN_SIM_CHAIN_LOOP);
   PAN_EXPECT_STR_HAS(s.message[0], "loops back to 0x");
   PAN_EXPECT(res.stopped);

   /* A job pointing at itself. */
   memset(&s, 0, sizeof(s));
   put_job(0, MALI_JOB_TYPE_NULL, 1, 0, 0, slot_va(0));
   walk(slot_va(0), 0, &s);
   PAN_EXPECT(s.jobs == 1 && s.problem[0] == PAN_SIM_CHAIN_LOOP);

   /* A loop stops the walk even when the callback would go on. */
   PAN_EXPECT(!s.stop_on_problem && s.problems == 1);

   /* The bound: exactly max_jobs jobs are walked, not one more. */
   memset(&s, 0, sizeof(s));
   put_line(20);
   res = walk(slot_va(0), 20, &s);
   PAN_EXPECT(s.jobs == 20 && s.problems == 0 && !res.stopped);
   memset(&s, 0, sizeof(s));
   res = walk(slot_va(0), 19, &s);
   PAN_EXPECT(s.jobs == 19 && res.stopped);
   PAN_EXPECT(s.problems == 1 && s.problem[0] == PAN_SIM_CHAIN_TOO_LONG);
   PAN_EXPECT_STR_HAS(s.message[0], "more than 19 jobs");

   /* A long chain without loops is walked to the end under the default
    * bound (2048 slots fill the jobs region). */
   memset(&s, 0, sizeof(s));
   unsigned n = JOBS_B / SLOT_B;
   for (unsigned k = 0; k < n; ++k) {
      put_job(k, MALI_JOB_TYPE_NULL, (k % 65535) + 1, 0, 0,
              k + 1 < n ? slot_va(k + 1) : 0);
   }
   res = walk(slot_va(0), 0, &s);
   PAN_EXPECT(s.jobs == n && s.problems == 0 && !res.stopped);

   /* The job callback can stop the walk. */
   memset(&s, 0, sizeof(s));
   s.stop_after_jobs = 5;
   res = walk(slot_va(0), 0, &s);
   PAN_EXPECT(s.jobs == 5 && res.stopped);
}

static void
test_dependencies(void)
{
   struct seen s = { 0 };

   /* Dependencies on earlier jobs, either slot. */
   put_job(0, MALI_JOB_TYPE_NULL, 1, 0, 0, slot_va(1));
   put_job(1, MALI_JOB_TYPE_NULL, 2, 0, 0, slot_va(2));
   put_job(2, MALI_JOB_TYPE_NULL, 3, 2, 1, 0);
   walk(slot_va(0), 0, &s);
   PAN_EXPECT(s.jobs == 3 && s.problems == 0);

   /* A dependency on a later job, index 0, an index used twice. */
   memset(&s, 0, sizeof(s));
   put_job(0, MALI_JOB_TYPE_NULL, 1, 0, 2, slot_va(1));
   put_job(1, MALI_JOB_TYPE_NULL, 0, 0, 0, slot_va(2));
   put_job(2, MALI_JOB_TYPE_NULL, 1, 1, 0, 0);
   walk(slot_va(0), 0, &s);
   PAN_EXPECT_EQ(s.jobs, 3);
   PAN_EXPECT_EQ(s.problems, 3);
   PAN_EXPECT_EQ(s.problem[0], PAN_SIM_CHAIN_DEP_UNKNOWN);
   PAN_EXPECT_STR_HAS(s.message[0], "dependency_2 = 2 names no earlier job");
   PAN_EXPECT_EQ(s.problem[1], PAN_SIM_CHAIN_INDEX_ZERO);
   PAN_EXPECT_EQ(s.problem[2], PAN_SIM_CHAIN_INDEX_REUSED);
   PAN_EXPECT_STR_HAS(s.message[2], "job index 1 is used twice");

   /* Index 0 does not satisfy a dependency: 0 is "none". */
   memset(&s, 0, sizeof(s));
   put_job(0, MALI_JOB_TYPE_NULL, 0, 0, 0, slot_va(1));
   put_job(1, MALI_JOB_TYPE_NULL, 2, 0, 0, 0);
   walk(slot_va(0), 0, &s);
   PAN_EXPECT(s.jobs == 2 && s.problems == 1);

   /* A caller that refuses a non-fatal problem stops before the job. */
   memset(&s, 0, sizeof(s));
   s.stop_on_problem = true;
   put_job(0, MALI_JOB_TYPE_NULL, 1, 0, 0, slot_va(1));
   put_job(1, MALI_JOB_TYPE_NULL, 2, 5, 0, slot_va(2));
   put_job(2, MALI_JOB_TYPE_NULL, 3, 0, 0, 0);
   struct pan_sim_chain_result res = walk(slot_va(0), 0, &s);
   PAN_EXPECT(s.jobs == 1 && s.problems == 1 && res.stopped);
}

static void
test_write_status(void)
{
   const struct pan_sim_header_layout *l = pan_sim_header_layout(PAN_ARCH);
   uint8_t hdr[256], before[256];
   uint64_t rng = 0x1234abcdull;

   PAN_EXPECT(l && l->size_B == pan_size(job_header) &&
              l->align_B == pan_alignment(job_header));

   /* Completion: only the status word changes. */
   pan_test_fill_random(&rng, hdr, sizeof(hdr));
   memcpy(before, hdr, sizeof(hdr));
   l->write_status(hdr, 0x01, NULL);
   pan_unpack(hdr, job_header, done);
   PAN_EXPECT_EQ(done.exception_status, 0x01);
   PAN_EXPECT(!memcmp(hdr + 4, before + 4, sizeof(hdr) - 4));

   /* A fault also records the faulting address. */
   l->write_status(hdr, 0x42, &(uint64_t){ 0xdead000 });
   pan_unpack(hdr, job_header, fault);
   PAN_EXPECT_EQ(fault.exception_status, 0x42);
   PAN_EXPECT_EQ(fault.fault_pointer, 0xdead000);
   PAN_EXPECT(!memcmp(hdr + 4, before + 4, 4));
   PAN_EXPECT(!memcmp(hdr + 16, before + 16, sizeof(hdr) - 16));

   /* And the walker reads the status back. */
   struct seen s = { 0 };
   put_job(0, MALI_JOB_TYPE_NULL, 1, 0, 0, 0);
   l->write_status(jobs_mem, 0x40, &(uint64_t){ slot_va(0) });
   walk(slot_va(0), 0, &s);
   PAN_EXPECT(s.jobs == 1 && s.job[0].exception_status == 0x40);
}

int
main(void)
{
   PAN_RUN_CASE(test_space);
   PAN_RUN_CASE(test_header_unpack);
   PAN_RUN_CASE(test_bad_headers);
   PAN_RUN_CASE(test_loops_and_bound);
   PAN_RUN_CASE(test_dependencies);
   PAN_RUN_CASE(test_write_status);
   return pan_test_summary("pan_sim_chain_" PAN_ARCH_NAME);
}
