/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The trace/dump submit hook end to end, on the fake kernel (a v7 GPU):
 * pack a write-value + cache-flush chain in real pan_bo buffers, install
 * the hook, submit through lib/'s pan_submit_jc(), then read the dump back
 * and decode it.
 */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pan_bo.h"
#include "pan_decode.h"
#include "pan_device.h"
#include "pan_dump.h"
#include "pan_fake_kmod.h"
#include "pan_genxml.h"
#include "pan_submit.h"
#include "pan_submit_debug.h"
#include "util/pan_test_util.h"

struct fixture {
   struct fake_kernel fk;
   struct pan_device dev;
   struct pan_bo *jobs, *target, *heap;
   char dir[64];
};

/* Number of dumps in dir; path receives the last one's. */
static int
find_dumps(const char *dir, char *path, size_t size)
{
   DIR *d = opendir(dir);
   struct dirent *e;
   int found = 0;

   while (d && (e = readdir(d))) {
      if (strstr(e->d_name, ".pandump")) {
         snprintf(path, size, "%s/%s", dir, e->d_name);
         found++;
      }
   }
   if (d)
      closedir(d);
   return found;
}

static void
pack_chain(struct fixture *f)
{
   uint8_t *wv = f->jobs->cpu, *cf = wv + 128;

   pan_section_pack(wv, write_value_job, header, cfg) {
      cfg.is_64b = true;
      cfg.type = MALI_JOB_TYPE_WRITE_VALUE;
      cfg.index = 1;
      cfg.next = f->jobs->gpu_va + 128;
   }
   pan_section_pack(wv, write_value_job, payload, cfg) {
      cfg.address = f->target->gpu_va;
      cfg.type = MALI_WRITE_VALUE_TYPE_IMMEDIATE_32;
   }
   pan_section_pack(cf, cache_flush_job, header, cfg) {
      cfg.is_64b = true;
      cfg.type = MALI_JOB_TYPE_CACHE_FLUSH;
      cfg.index = 2;
      cfg.dependency_1 = 1;
   }
   pan_section_pack(cf, cache_flush_job, payload, cfg) {
      cfg.l2_clean = true;
   }
}

static bool
setup(struct fixture *f)
{
   char err[256];

   memset(f, 0, sizeof(*f));
   snprintf(f->dir, sizeof(f->dir), "/tmp/pan-submit-debug-XXXXXX");
   if (!mkdtemp(f->dir)) {
      PAN_CHECK(false, "mkdtemp failed");
      return false;
   }
   setenv("PAN_DUMP_DIR", f->dir, 1);

   fake_kernel_init(&f->fk);
   int ret = pan_device_open_kmod(&f->dev, 3, &fake_kmod_ops, &f->fk, 0, err,
                                  sizeof(err));
   PAN_CHECK(ret == 0, "device open: %s", err);
   if (ret) {
      fake_kernel_fini(&f->fk);
      rmdir(f->dir);
      return false;
   }
   PAN_EXPECT_EQ(f->dev.arch, 7);

   f->jobs = pan_bo_create(&f->dev, 4096, 0, "jobs");
   f->target = pan_bo_create(&f->dev, 4096, 0, "target");
   f->heap = pan_bo_create(&f->dev, 1 << 16, PAN_BO_GROWABLE | PAN_BO_INVISIBLE,
                           "heap");
   PAN_EXPECT(f->jobs && f->target && f->heap);
   if (!f->jobs || !f->target || !f->heap)
      return false;
   PAN_EXPECT(f->jobs->cpu && !f->heap->cpu);
   pack_chain(f);
   return true;
}

static void
teardown(struct fixture *f)
{
   char path[512];

   while (find_dumps(f->dir, path, sizeof(path)))
      unlink(path);
   rmdir(f->dir);
   pan_bo_unref(f->heap);
   pan_bo_unref(f->target);
   pan_bo_unref(f->jobs);
   pan_device_close(&f->dev);
   fake_kernel_fini(&f->fk);
}

static int
submit(struct fixture *f)
{
   struct pan_bo *bos[] = { f->jobs, f->target, f->heap };
   struct pan_submit s = {
      .jc_gpu_va = f->jobs->gpu_va,
      .bos = bos,
      .bo_count = 3,
   };

   return pan_submit_jc(&f->dev, &s);
}

/* dump,trace: one dump per submit, holding the chain and every BO. */
static void
test_dump_decodes(void)
{
   struct fixture f;
   char path[512], err[256];

   if (!setup(&f))
      return;

   pan_submit_debug_install(&f.dev,
                            PAN_SUBMIT_DEBUG_DUMP | PAN_SUBMIT_DEBUG_TRACE);
   PAN_EXPECT(f.dev.submit_hook != NULL);
   PAN_EXPECT_EQ(submit(&f), 0);
   PAN_EXPECT_EQ(f.fk.submits, 1);

   PAN_EXPECT_EQ(find_dumps(f.dir, path, sizeof(path)), 1);
   struct pan_dump dump;
   int ret = pan_dump_read_file(path, &dump, err, sizeof(err));
   PAN_CHECK(ret == 0, "reading the dump: %s", err);
   if (!ret) {
      PAN_EXPECT_EQ(dump.arch, 7);
      PAN_EXPECT_EQ(dump.gpu_id, 0x7212);
      PAN_EXPECT_EQ(dump.chain_count, 1);
      PAN_EXPECT_EQ(dump.chains[0], f.jobs->gpu_va);
      PAN_EXPECT_EQ(dump.map_count, 3);
      PAN_EXPECT(dump.map_count == 3 && dump.maps[2].cpu == NULL);

      struct pan_decode_space space = pan_dump_space(&dump);
      struct pan_decode_stats stats;
      FILE *null = fopen("/dev/null", "w");

      PAN_EXPECT(null != NULL);
      if (null) {
         PAN_EXPECT_EQ(
            pan_decode_chain(null, 7, &space, dump.chains[0], NULL, &stats), 0);
         PAN_EXPECT_EQ(stats.jobs, 2);
         fclose(null);
      }
      pan_dump_fini(&dump);
   }
   teardown(&f);
}

/* Flags without trace or dump remove the hook: nothing is written. */
static void
test_install_none_removes_hook(void)
{
   struct fixture f;
   char path[512];

   if (!setup(&f))
      return;

   pan_submit_debug_install(&f.dev, PAN_SUBMIT_DEBUG_DUMP);
   pan_submit_debug_install(&f.dev, 0);
   PAN_EXPECT(f.dev.submit_hook == NULL);
   PAN_EXPECT_EQ(submit(&f), 0);
   PAN_EXPECT_EQ(f.fk.submits, 1);
   PAN_EXPECT_EQ(find_dumps(f.dir, path, sizeof(path)), 0);
   teardown(&f);
}

/* A dump that cannot be written is reported; the submit still goes on. */
static void
test_dump_failure_keeps_submit(void)
{
   struct fixture f;

   if (!setup(&f))
      return;

   struct pan_bo *bos[] = { f.jobs };
   struct pan_submit s = {
      .jc_gpu_va = f.jobs->gpu_va,
      .bos = bos,
      .bo_count = 1,
   };

   setenv("PAN_DUMP_DIR", "/nonexistent/pan-submit-debug", 1);
   PAN_EXPECT_EQ(pan_submit_debug(&f.dev, &s, PAN_SUBMIT_DEBUG_DUMP), -1);
   PAN_EXPECT_EQ(pan_submit_debug(&f.dev, &s, 0), 0);

   pan_submit_debug_install(&f.dev, PAN_SUBMIT_DEBUG_DUMP);
   PAN_EXPECT_EQ(submit(&f), 0);
   PAN_EXPECT_EQ(f.fk.submits, 1);
   teardown(&f);
}

int
main(void)
{
   PAN_RUN_CASE(test_dump_decodes);
   PAN_RUN_CASE(test_install_none_removes_hook);
   PAN_RUN_CASE(test_dump_failure_keeps_submit);
   return pan_test_summary("pan_submit_debug_test");
}
