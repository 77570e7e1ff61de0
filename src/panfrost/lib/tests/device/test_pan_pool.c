/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The transient pool on the fake kernel: alignment, zeroing of recycled
 * memory, chunk sharing, big requests, release, allocation failure.
 */

#include <string.h>

#include "pan_bo.h"
#include "pan_bo_cache.h"
#include "pan_device.h"
#include "pan_fake_kmod.h"
#include "pan_pool.h"
#include "util/pan_test_util.h"

int
main(void)
{
   struct fake_kernel fk;
   struct pan_device dev;
   struct pan_pool pool;
   char err[256];

   fake_kernel_init(&fk);
   if (pan_device_open_kmod(&dev, 3, &fake_kmod_ops, &fk, 0, err,
                            sizeof(err))) {
      printf("FAIL: open: %s\n", err);
      return 1;
   }

   pan_pool_init(&pool, &dev, 0, 16384, "test pool");

   /* Small requests share one chunk, at the alignment asked for, and the
    * CPU and GPU views are the same bytes.
    */
   uint64_t prev_end = 0;
   for (unsigned i = 0; i < 20; ++i) {
      unsigned align = 1u << (i % 8);
      struct pan_ptr p = pan_pool_alloc(&pool, 100 + i, align);
      PAN_CHECK(p.cpu && p.gpu, "alloc %u failed", i);
      PAN_CHECK(p.gpu % align == 0, "alloc %u misaligned (%u)", i, align);
      PAN_CHECK(p.gpu >= prev_end, "alloc %u overlaps the previous one", i);
      prev_end = p.gpu + 100 + i;
      const uint8_t *bytes = p.cpu;
      bool zero = true;
      for (unsigned j = 0; j < 100 + i; ++j)
         zero &= bytes[j] == 0;
      PAN_CHECK(zero, "alloc %u not zeroed", i);
      memset(p.cpu, 0xab, 100 + i);
   }
   PAN_CHECK(pan_pool_bo_count(&pool) == 1, "%u BOs for 2 KiB",
             pan_pool_bo_count(&pool));
   struct pan_bo *first = pan_pool_bos(&pool)[0];
   PAN_CHECK(prev_end <= first->gpu_va + first->size_B,
             "allocations leave their BO");

   /* A request larger than half a chunk gets its own BO and the chunk
    * keeps serving small ones.
    */
   struct pan_ptr big = pan_pool_alloc(&pool, 40000, 64);
   PAN_CHECK(big.cpu && pan_pool_bo_count(&pool) == 2, "big alloc");
   struct pan_ptr small = pan_pool_alloc(&pool, 16, 16);
   PAN_CHECK(small.gpu >= first->gpu_va &&
                small.gpu + 16 <= first->gpu_va + first->size_B,
             "small alloc after a big one left the chunk");

   /* Filling the chunk starts a new one. */
   for (unsigned i = 0; i < 8; ++i)
      PAN_CHECK(pan_pool_alloc(&pool, 4096, 4096).cpu, "fill %u", i);
   PAN_CHECK(pan_pool_bo_count(&pool) >= 3, "no new chunk");

   /* Release: every BO goes back (to the cache), and memory handed out
    * again is zeroed even though it held 0xab.
    */
   pan_pool_finish(&pool);
   PAN_CHECK(pan_pool_bo_count(&pool) == 0, "BOs left after finish");
   struct pan_ptr again = pan_pool_alloc(&pool, 2048, 64);
   bool zero = again.cpu != NULL;
   for (unsigned j = 0; again.cpu && j < 2048; ++j)
      zero &= ((uint8_t *)again.cpu)[j] == 0;
   PAN_CHECK(zero, "recycled memory not zeroed");
   pan_pool_finish(&pool);

   /* Allocation failure gives { NULL, 0 } and leaves the pool usable. */
   /* Two failures: pan_bo_create retries once after purging the cache. */
   pan_bo_cache_evict_all(&dev);
   fk.fail_creates = 2;
   struct pan_ptr none = pan_pool_alloc(&pool, 64, 64);
   PAN_CHECK(!none.cpu && !none.gpu, "failed alloc returned memory");
   PAN_CHECK(pan_pool_bo_count(&pool) == 0, "failed alloc kept a BO");
   PAN_CHECK(pan_pool_alloc(&pool, 64, 64).cpu, "pool unusable after failure");
   pan_pool_finish(&pool);

   pan_device_close(&dev);
   PAN_CHECK(fake_kernel_live_bos(&fk) == 0, "%u BOs leaked",
             fake_kernel_live_bos(&fk));
   fake_kernel_fini(&fk);
   return pan_test_summary("pan_pool");
}
