/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The submit hook end to end, on the fake kernel (a v7 GPU): pack a
 * write-value + cache-flush chain in real pan_bo buffers, submit it with
 * PAN_MESA_DEBUG=dump,trace, then read the dump back and decode it.
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
#include "pan_submit_debug.h"

static int failures;

#define CHECK(cond)                                                            \
   do {                                                                        \
      if (!(cond)) {                                                           \
         printf("FAIL line %d: %s\n", __LINE__, #cond);                        \
         failures++;                                                           \
      }                                                                        \
   } while (0)

static int
find_dump(const char *dir, char *path, size_t size)
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

int
main(void)
{
   char dir[] = "/tmp/pan-submit-debug-XXXXXX", err[256], path[512];
   struct fake_kernel fk;
   struct pan_device dev;

   CHECK(pan_submit_debug_parse("foo,dump") == PAN_SUBMIT_DEBUG_DUMP);
   CHECK(pan_submit_debug_parse("trace,dump") ==
         (PAN_SUBMIT_DEBUG_TRACE | PAN_SUBMIT_DEBUG_DUMP));
   CHECK(pan_submit_debug_parse("tracex") == 0);
   CHECK(pan_submit_debug_parse(NULL) == 0);

   if (!mkdtemp(dir)) {
      printf("FAIL: mkdtemp\n");
      return 1;
   }
   setenv("PAN_MESA_DEBUG", "dump,trace", 1);
   setenv("PAN_DUMP_DIR", dir, 1);

   fake_kernel_init(&fk);
   if (pan_device_open_kmod(&dev, 3, &fake_kmod_ops, &fk, 0, err,
                            sizeof(err))) {
      printf("FAIL: device open: %s\n", err);
      return 1;
   }
   CHECK(dev.arch == 7);

   struct pan_bo *jobs = pan_bo_create(&dev, 4096, 0, "jobs");
   struct pan_bo *target = pan_bo_create(&dev, 4096, 0, "target");
   struct pan_bo *heap = pan_bo_create(
      &dev, 1 << 16, PAN_BO_GROWABLE | PAN_BO_INVISIBLE, "heap");
   CHECK(jobs && target && heap && jobs->cpu && !heap->cpu);
   if (!jobs || !target || !heap)
      return 1;

   uint8_t *wv = jobs->cpu, *cf = wv + 128;
   pan_section_pack(wv, write_value_job, header, cfg) {
      cfg.is_64b = true;
      cfg.type = MALI_JOB_TYPE_WRITE_VALUE;
      cfg.index = 1;
      cfg.next = jobs->gpu_va + 128;
   }
   pan_section_pack(wv, write_value_job, payload, cfg) {
      cfg.address = target->gpu_va;
      cfg.type = MALI_WRITE_VALUE_TYPE_IMMEDIATE_32;
   }
   pan_section_pack(cf, cache_flush_job, header, cfg) {
      cfg.is_64b = true;
      cfg.type = MALI_JOB_TYPE_CACHE_FLUSH;
      cfg.index = 2;
      cfg.dependency_1 = 1;
   }
   pan_section_pack(cf, cache_flush_job, payload, cfg) { cfg.l2_clean = true; }

   struct pan_bo *bos[] = {jobs, target, heap};
   CHECK(pan_submit_jc(&dev, jobs->gpu_va, bos, 3, 0, 0,
                       pan_submit_debug_parse(getenv("PAN_MESA_DEBUG"))) ==
         0);
   CHECK(fk.submits == 1);

   CHECK(find_dump(dir, path, sizeof(path)) == 1);
   struct pan_dump dump;
   CHECK(pan_dump_read_file(path, &dump, err, sizeof(err)) == 0);
   CHECK(dump.arch == 7 && dump.gpu_id == 0x7212);
   CHECK(dump.chain_count == 1 && dump.chains[0] == jobs->gpu_va);
   CHECK(dump.map_count == 3 && dump.maps[2].cpu == NULL);

   struct pan_decode_space space = pan_dump_space(&dump);
   struct pan_decode_stats stats;
   FILE *null = fopen("/dev/null", "w");
   CHECK(pan_decode_chain(null, 7, &space, dump.chains[0], NULL, &stats) ==
         0);
   CHECK(stats.jobs == 2);
   fclose(null);
   pan_dump_fini(&dump);
   unlink(path);
   rmdir(dir);

   pan_bo_unref(heap);
   pan_bo_unref(target);
   pan_bo_unref(jobs);
   pan_device_close(&dev);
   fake_kernel_fini(&fk);

   printf("%d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
   return failures ? 1 : 0;
}
