/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Job-chain submission, syncobjs and job status on the fake kernel (a v7
 * GPU): what reaches the kernel, the debug hook, the BO bound, fences,
 * hangs, faults read back through the genxml unpacker, kernel errors.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drm-uapi/panfrost_drm.h"
#include "pan_bo.h"
#include "pan_device.h"
#include "pan_fake_kmod.h"
#include "pan_genxml.h"
#include "pan_job.h"
#include "pan_submit.h"
#include "util/pan_test_util.h"

struct fixture {
   struct fake_kernel fk;
   struct pan_device dev;
   struct pan_bo *jobs, *target;
   char log[512];
};

static void
capture_log(void *data, const char *msg)
{
   struct fixture *f = data;

   snprintf(f->log, sizeof(f->log), "%s", msg);
}

/* A fragment job at the start of the jobs BO, as the driver packs it. */
static void
pack_fragment_job(struct fixture *f)
{
   pan_section_pack(f->jobs->cpu, fragment_job, header, cfg)
   {
      cfg.type = MALI_JOB_TYPE_FRAGMENT;
      cfg.index = 1;
   }
}

static void
teardown(struct fixture *f)
{
   pan_bo_unref(f->target);
   pan_bo_unref(f->jobs);
   pan_device_close(&f->dev);
   /* Every syncobj a test made, it destroyed. */
   PAN_EXPECT_EQ(fake_kernel_live_syncobjs(&f->fk), 0);
   fake_kernel_fini(&f->fk);
   free(f);
}

static struct fixture *
setup(void)
{
   struct fixture *f = calloc(1, sizeof(*f));
   char err[256];

   PAN_EXPECT(f != NULL);
   if (!f)
      return NULL;

   fake_kernel_init(&f->fk);
   int ret = pan_device_open_kmod(&f->dev, 3, &fake_kmod_ops, &f->fk, 0, err,
                                  sizeof(err));
   PAN_CHECK(ret == 0, "device open: %s", err);
   if (ret) {
      fake_kernel_fini(&f->fk);
      free(f);
      return NULL;
   }
   pan_device_set_log(&f->dev, capture_log, f);
   f->jobs = pan_bo_create(&f->dev, 4096, 0, "jobs");
   f->target = pan_bo_create(&f->dev, 4096, 0, "target");
   PAN_EXPECT(f->jobs && f->target && f->jobs->cpu);
   if (!f->jobs || !f->target || !f->jobs->cpu) {
      teardown(f);
      return NULL;
   }
   pack_fragment_job(f);
   return f;
}

static struct pan_submit
chain(struct fixture *f, struct pan_bo **bos, uint32_t out_sync)
{
   bos[0] = f->jobs;
   bos[1] = f->target;
   return (struct pan_submit){
      .jc_gpu_va = f->jobs->gpu_va,
      .bos = bos,
      .bo_count = 2,
      .requirements = PANFROST_JD_REQ_FS,
      .out_sync = out_sync,
   };
}

static void
test_submit_reaches_kernel(void)
{
   struct fixture *f = setup();
   struct pan_bo *bos[2];
   uint32_t sync;

   if (!f)
      return;
   PAN_EXPECT_EQ(pan_syncobj_create(&f->dev, false, &sync), 0);
   struct pan_submit s = chain(f, bos, sync);

   PAN_EXPECT_EQ(pan_submit_jc(&f->dev, &s), 0);
   PAN_EXPECT_EQ(f->fk.submits, 1);
   PAN_EXPECT_EQ(f->fk.last_jc, f->jobs->gpu_va);
   PAN_EXPECT_EQ(f->fk.last_requirements, PANFROST_JD_REQ_FS);
   PAN_EXPECT_EQ(f->fk.last_out_sync, sync);
   PAN_EXPECT_EQ(f->fk.last_bo_count, 2);
   PAN_EXPECT_EQ(f->fk.last_bo_handles[0], f->jobs->handle);
   PAN_EXPECT_EQ(f->fk.last_bo_handles[1], f->target->handle);
   PAN_EXPECT(f->jobs->handle != f->target->handle);
   PAN_EXPECT_EQ(pan_syncobj_destroy(&f->dev, sync), 0);
   teardown(f);
}

struct hook_record {
   unsigned calls;
   unsigned kernel_submits_before; /* fake's count when the hook ran */
   struct fake_kernel *fk;
   struct pan_device *dev;
   uint64_t jc;
   unsigned bo_count;
   struct pan_bo *first_bo;
};

static void
record_hook(void *data, struct pan_device *dev, const struct pan_submit *s)
{
   struct hook_record *r = data;

   r->calls++;
   r->kernel_submits_before = r->fk->submits;
   r->dev = dev;
   r->jc = s->jc_gpu_va;
   r->bo_count = s->bo_count;
   r->first_bo = s->bo_count ? s->bos[0] : NULL;
}

static void
test_hook_sees_chain_first(void)
{
   struct fixture *f = setup();
   struct pan_bo *bos[2];
   struct hook_record r = { 0 };

   if (!f)
      return;
   r.fk = &f->fk;
   struct pan_submit s = chain(f, bos, 0);

   pan_device_set_submit_hook(&f->dev, record_hook, &r);
   PAN_EXPECT_EQ(pan_submit_jc(&f->dev, &s), 0);
   PAN_EXPECT_EQ(r.calls, 1);
   PAN_EXPECT_EQ(r.kernel_submits_before, 0); /* before the kernel */
   PAN_EXPECT(r.dev == &f->dev);
   PAN_EXPECT_EQ(r.jc, f->jobs->gpu_va);
   PAN_EXPECT_EQ(r.bo_count, 2);
   PAN_EXPECT(r.first_bo == f->jobs);

   pan_device_set_submit_hook(&f->dev, NULL, &r);
   PAN_EXPECT(f->dev.submit_hook_data == NULL);
   PAN_EXPECT_EQ(pan_submit_jc(&f->dev, &s), 0);
   PAN_EXPECT_EQ(r.calls, 1);
   PAN_EXPECT_EQ(f->fk.submits, 2);
   teardown(f);
}

/* The handle list is bounded: one over is refused whole, before the hook
 * and the kernel; the bound itself goes through.
 */
static void
test_bo_bound(void)
{
   struct fixture *f = setup();
   struct pan_bo **bos = calloc(PAN_SUBMIT_MAX_BOS + 1, sizeof(*bos));
   struct hook_record r = { 0 };

   if (!f || !bos) {
      PAN_EXPECT(bos != NULL);
      free(bos);
      if (f)
         teardown(f);
      return;
   }
   r.fk = &f->fk;
   for (unsigned i = 0; i <= PAN_SUBMIT_MAX_BOS; ++i)
      bos[i] = (i & 1) ? f->target : f->jobs;

   struct pan_submit s = {
      .jc_gpu_va = f->jobs->gpu_va,
      .bos = bos,
      .bo_count = PAN_SUBMIT_MAX_BOS + 1,
   };
   pan_device_set_submit_hook(&f->dev, record_hook, &r);
   PAN_EXPECT_EQ(pan_submit_jc(&f->dev, &s), -E2BIG);
   PAN_EXPECT_EQ(f->fk.submits, 0);
   PAN_EXPECT_EQ(r.calls, 0);
   PAN_EXPECT_STR_HAS(f->log, "more than the 512 allowed");

   s.bo_count = PAN_SUBMIT_MAX_BOS;
   PAN_EXPECT_EQ(pan_submit_jc(&f->dev, &s), 0);
   PAN_EXPECT_EQ(f->fk.last_bo_count, PAN_SUBMIT_MAX_BOS);
   PAN_EXPECT_EQ(f->fk.last_bo_handles[PAN_SUBMIT_MAX_BOS - 1],
                 f->target->handle);
   PAN_EXPECT_EQ(r.calls, 1);
   free(bos);
   teardown(f);
}

static void
test_malformed_submits(void)
{
   struct fixture *f = setup();
   struct pan_bo *bos[2];

   if (!f)
      return;
   struct pan_submit s = chain(f, bos, 0);

   s.jc_gpu_va = 0;
   PAN_EXPECT_EQ(pan_submit_jc(&f->dev, &s), -EINVAL);
   PAN_EXPECT_STR_HAS(f->log, "malformed submit");

   s = chain(f, bos, 0);
   bos[1] = NULL;
   PAN_EXPECT_EQ(pan_submit_jc(&f->dev, &s), -EINVAL);
   PAN_EXPECT_STR_HAS(f->log, "BO 1 of 2 is NULL");
   PAN_EXPECT_EQ(f->fk.submits, 0);
   teardown(f);
}

static void
test_fences_signal(void)
{
   struct fixture *f = setup();
   struct pan_bo *bos[2];
   uint32_t sync, done;
   int fd = -1;

   if (!f)
      return;
   PAN_EXPECT_EQ(pan_syncobj_create(&f->dev, false, &sync), 0);
   PAN_EXPECT_EQ(pan_syncobj_create(&f->dev, true, &done), 0);
   PAN_EXPECT(sync != done);
   PAN_EXPECT_EQ(pan_syncobj_wait(&f->dev, &done, 1, 0), 0);
   /* No fence yet: the kernel refuses to wait on it. */
   PAN_EXPECT_EQ(pan_syncobj_wait(&f->dev, &sync, 1, 0), -EINVAL);
   PAN_EXPECT_EQ(pan_syncobj_export_sync_file(&f->dev, sync, &fd), -EINVAL);

   struct pan_submit s = chain(f, bos, sync);
   PAN_EXPECT_EQ(pan_submit_jc(&f->dev, &s), 0);
   PAN_EXPECT_EQ(fake_kernel_syncobj_state(&f->fk, sync),
                 FAKE_SYNCOBJ_SIGNALED);

   uint32_t both[] = { sync, done };
   PAN_EXPECT_EQ(pan_syncobj_wait(&f->dev, both, 2, PAN_KMOD_TIMEOUT_INFINITE),
                 0);
   PAN_EXPECT_EQ(pan_syncobj_export_sync_file(&f->dev, sync, &fd), 0);
   PAN_EXPECT(fd >= 0);
   if (fd >= 0)
      close(fd);

   /* A signalled syncobj waits on the next submit that names it. */
   uint32_t in[] = { done };
   s.in_syncs = in;
   s.in_sync_count = 1;
   PAN_EXPECT_EQ(pan_submit_jc(&f->dev, &s), 0);
   PAN_EXPECT_EQ(f->fk.last_in_sync_count, 1);

   PAN_EXPECT_EQ(pan_syncobj_destroy(&f->dev, sync), 0);
   PAN_EXPECT_EQ(pan_syncobj_destroy(&f->dev, sync), -EINVAL);
   PAN_EXPECT_EQ(pan_syncobj_destroy(&f->dev, done), 0);
   PAN_EXPECT_EQ(pan_syncobj_wait(&f->dev, &sync, 1, 0), -ENOENT);
   teardown(f);
}

static void
test_hung_submit_times_out(void)
{
   struct fixture *f = setup();
   struct pan_bo *bos[2];
   uint32_t sync, done;

   if (!f)
      return;
   PAN_EXPECT_EQ(pan_syncobj_create(&f->dev, false, &sync), 0);
   PAN_EXPECT_EQ(pan_syncobj_create(&f->dev, true, &done), 0);
   struct pan_submit s = chain(f, bos, sync);

   fake_kernel_hang_next_submit(&f->fk);
   PAN_EXPECT_EQ(pan_submit_jc(&f->dev, &s), 0);
   PAN_EXPECT_EQ(pan_syncobj_wait(&f->dev, &sync, 1, 1000000), -ETIMEDOUT);
   PAN_EXPECT_EQ(pan_syncobj_wait(&f->dev, &sync, 1, 0), -ETIMEDOUT);

   /* Wait-all: one signalled syncobj does not end the wait. */
   uint32_t both[] = { done, sync };
   PAN_EXPECT_EQ(pan_syncobj_wait(&f->dev, both, 2, 1000000), -ETIMEDOUT);

   /* The GPU never got to the job. */
   struct pan_job_status st;
   PAN_EXPECT(pan_job_read_status(f->dev.arch, f->jobs->cpu, &st));
   PAN_EXPECT_EQ(st.exception_status, 0);

   /* Only that submit hangs. */
   PAN_EXPECT_EQ(pan_submit_jc(&f->dev, &s), 0);
   PAN_EXPECT_EQ(pan_syncobj_wait(&f->dev, both, 2, 0), 0);
   PAN_EXPECT_EQ(pan_syncobj_destroy(&f->dev, sync), 0);
   PAN_EXPECT_EQ(pan_syncobj_destroy(&f->dev, done), 0);
   teardown(f);
}

/* A read fault at a known address, written by the fake through the
 * packer, read back through the unpacker with the driver's fields intact.
 */
static void
test_fault_read_back(void)
{
   struct fixture *f = setup();
   struct pan_bo *bos[2];
   struct pan_job_status st;
   uint32_t sync;

   if (!f)
      return;
   PAN_EXPECT_EQ(pan_syncobj_create(&f->dev, false, &sync), 0);
   struct pan_submit s = chain(f, bos, sync);

   /* A normal run first: DONE, not a failure. */
   PAN_EXPECT_EQ(pan_submit_jc(&f->dev, &s), 0);
   PAN_EXPECT(pan_job_read_status(f->dev.arch, f->jobs->cpu, &st));
   PAN_EXPECT_EQ(st.exception_status, PAN_JOB_EXCEPTION(DONE));
   PAN_EXPECT(!pan_job_status_failed(st.exception_status));

   uint64_t bad_va = f->target->gpu_va + 0x10000000ull;
   fake_kernel_fault_next_submit(&f->fk, PAN_JOB_EXCEPTION(JOB_READ_FAULT),
                                 bad_va);
   PAN_EXPECT_EQ(pan_submit_jc(&f->dev, &s), 0);
   /* A faulted job still completes its fence. */
   PAN_EXPECT_EQ(pan_syncobj_wait(&f->dev, &sync, 1, 0), 0);

   PAN_EXPECT(pan_job_read_status(f->dev.arch, f->jobs->cpu, &st));
   PAN_EXPECT_EQ(st.exception_status, PAN_JOB_EXCEPTION(JOB_READ_FAULT));
   PAN_EXPECT_EQ(st.fault_va, bad_va);
   PAN_EXPECT_EQ(st.type, MALI_JOB_TYPE_FRAGMENT);
   PAN_EXPECT_EQ(st.index, 1);
   PAN_EXPECT(pan_job_status_failed(st.exception_status));
   PAN_EXPECT_STR_HAS(pan_job_exception_name(st.exception_status),
                      "job_read_fault");

   /* The generated unpacker agrees. */
   pan_section_unpack(f->jobs->cpu, fragment_job, header, h);
   PAN_EXPECT_EQ(h.exception_status, PAN_JOB_EXCEPTION(JOB_READ_FAULT));
   PAN_EXPECT_EQ(h.fault_pointer, bad_va);
   PAN_EXPECT_EQ(pan_syncobj_destroy(&f->dev, sync), 0);
   teardown(f);
}

static void
test_kernel_errors_propagate(void)
{
   struct fixture *f = setup();
   struct pan_bo *bos[2];
   uint32_t sync;

   if (!f)
      return;
   PAN_EXPECT_EQ(pan_syncobj_create(&f->dev, false, &sync), 0);
   struct pan_submit s = chain(f, bos, sync);

   fake_kernel_fail_next_submit(&f->fk, -EIO);
   PAN_EXPECT_EQ(pan_submit_jc(&f->dev, &s), -EIO);
   fake_kernel_fail_next_submit(&f->fk, -ENOMEM);
   PAN_EXPECT_EQ(pan_submit_jc(&f->dev, &s), -ENOMEM);
   PAN_EXPECT_EQ(f->fk.submits, 0);
   /* Nothing was attached to the syncobj. */
   PAN_EXPECT_EQ(fake_kernel_syncobj_state(&f->fk, sync), FAKE_SYNCOBJ_EMPTY);

   /* The kernel's own checks: an unknown syncobj. */
   uint32_t bogus = 200;
   s.in_syncs = &bogus;
   s.in_sync_count = 1;
   PAN_EXPECT_EQ(pan_submit_jc(&f->dev, &s), -ENOENT);
   s.in_sync_count = 0;
   s.out_sync = bogus;
   PAN_EXPECT_EQ(pan_submit_jc(&f->dev, &s), -ENOENT);

   /* The failure was for one submit only. */
   s.out_sync = sync;
   PAN_EXPECT_EQ(pan_submit_jc(&f->dev, &s), 0);
   PAN_EXPECT_EQ(f->fk.submits, 1);
   PAN_EXPECT_EQ(pan_syncobj_destroy(&f->dev, sync), 0);
   teardown(f);
}

/* Every architecture built in: what is written through the packer reads
 * back through the unpacker; an unknown one is refused.
 */
static void
test_job_status_every_arch(void)
{
   static const unsigned archs[] = { 4, 5, 6, 7, 9 };
   unsigned built = 0;

   for (unsigned i = 0; i < sizeof(archs) / sizeof(archs[0]); ++i) {
      uint8_t header[256] = { 0 };
      struct pan_job_status st;
      unsigned size_B = pan_job_header_size_B(archs[i]);

      if (!size_B)
         continue;
      built++;
      PAN_EXPECT(size_B <= sizeof(header));
      PAN_EXPECT(pan_job_write_status(
         archs[i], header, 0x300 | PAN_JOB_EXCEPTION(TILE_RANGE_FAULT),
         0xdead0000ull));
      PAN_EXPECT(pan_job_read_status(archs[i], header, &st));
      PAN_CHECK(st.exception_status ==
                   (0x300 | PAN_JOB_EXCEPTION(TILE_RANGE_FAULT)),
                "v%u: status 0x%x", archs[i], st.exception_status);
      PAN_CHECK(st.fault_va == 0xdead0000ull, "v%u: fault 0x%llx", archs[i],
                (unsigned long long)st.fault_va);
      PAN_EXPECT_STR_HAS(pan_job_exception_name(st.exception_status),
                         "tile_range_fault");
   }
   PAN_EXPECT(built >= 1);

   struct pan_job_status st;
   uint8_t header[64] = { 0 };
   PAN_EXPECT(!pan_job_read_status(8, header, &st));
   PAN_EXPECT(!pan_job_write_status(8, header, 1, 0));
   PAN_EXPECT_EQ(pan_job_header_size_B(8), 0);
   PAN_EXPECT(pan_job_exception_name(0x3e) == NULL);
   PAN_EXPECT(!pan_job_status_failed(PAN_JOB_EXCEPTION(NOT_STARTED)));
}

int
main(void)
{
   PAN_RUN_CASE(test_submit_reaches_kernel);
   PAN_RUN_CASE(test_hook_sees_chain_first);
   PAN_RUN_CASE(test_bo_bound);
   PAN_RUN_CASE(test_malformed_submits);
   PAN_RUN_CASE(test_fences_signal);
   PAN_RUN_CASE(test_hung_submit_times_out);
   PAN_RUN_CASE(test_fault_read_back);
   PAN_RUN_CASE(test_kernel_errors_propagate);
   PAN_RUN_CASE(test_job_status_every_arch);
   return pan_test_summary("test_pan_submit");
}
