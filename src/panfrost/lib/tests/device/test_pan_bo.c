/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Buffer objects and the BO cache against the fake kernel. */

#include <errno.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pan_bo.h"
#include "pan_bo_cache.h"
#include "pan_device.h"
#include "util/pan_test_util.h"
#include "pan_fake_kmod.h"

#define KiB 1024ull
#define MiB (1024ull * 1024)
#define NS_PER_MS 1000000ull

static struct fake_kernel fk;
static struct pan_device dev;
static uint64_t fake_now_ns;
static unsigned log_count;
static char last_log[512];

static uint64_t
fake_clock(void *data)
{
   return *(uint64_t *)data;
}

static void
capture_log(void *data, const char *msg)
{
   (void)data;
   log_count++;
   snprintf(last_log, sizeof(last_log), "%s", msg);
}

static void
setup(void)
{
   char err[256];

   fake_kernel_init(&fk);
   PAN_EXPECT_EQ(
      pan_device_open_kmod(&dev, 3, &fake_kmod_ops, &fk, 0, err, sizeof(err)),
      0);
   pan_device_set_log(&dev, capture_log, NULL);
   fake_now_ns = 1000 * NS_PER_MS;
   dev.bo_cache.now_ns = fake_clock;
   dev.bo_cache.now_data = &fake_now_ns;
   log_count = 0;
   last_log[0] = '\0';
}

/* Tear down and check nothing leaked in the kernel. */
static void
teardown(void)
{
   pan_device_close(&dev);
   PAN_EXPECT_EQ(fake_kernel_live_bos(&fk), 0);
   PAN_EXPECT_EQ(fk.creates + fk.imports, fk.closes);
   fake_kernel_fini(&fk);
}

/* Reference: floor(log2(size)) clamped to [12, 22], minus 12. */
static unsigned
ref_bucket(uint64_t size_B)
{
   unsigned l = 0;

   while ((2ull << l) <= size_B)
      l++;
   return l < 12 ? 0 : l > 22 ? 10 : l - 12;
}

static void
test_bucket_selection(void)
{
   PAN_EXPECT_EQ(PAN_BO_CACHE_BUCKET_COUNT, 11);
   PAN_EXPECT_EQ(pan_bo_cache_bucket(1), 0);
   PAN_EXPECT_EQ(pan_bo_cache_bucket(4 * KiB), 0);
   PAN_EXPECT_EQ(pan_bo_cache_bucket(8 * KiB - 1), 0);
   PAN_EXPECT_EQ(pan_bo_cache_bucket(8 * KiB), 1);
   PAN_EXPECT_EQ(pan_bo_cache_bucket(64 * KiB), 4);
   PAN_EXPECT_EQ(pan_bo_cache_bucket(4 * MiB - 1), 9);
   PAN_EXPECT_EQ(pan_bo_cache_bucket(4 * MiB), 10);
   PAN_EXPECT_EQ(pan_bo_cache_bucket(512 * MiB), 10);

   /* Every page multiple up to 16 MiB, and both sides of each power. */
   for (uint64_t s = 4 * KiB; s <= 16 * MiB; s += 4 * KiB)
      PAN_EXPECT_EQ(pan_bo_cache_bucket(s), ref_bucket(s));
   for (unsigned l = 0; l < 40; l++) {
      PAN_EXPECT_EQ(pan_bo_cache_bucket(1ull << l), ref_bucket(1ull << l));
      PAN_EXPECT_EQ(pan_bo_cache_bucket((1ull << l) + 1),
                    ref_bucket((1ull << l) + 1));
      PAN_EXPECT_EQ(pan_bo_cache_bucket((2ull << l) - 1),
                    ref_bucket((2ull << l) - 1));
   }
}

static void
test_create_flags(void)
{
   setup();

   struct pan_bo *plain = pan_bo_create(&dev, 100, 0, "plain");
   PAN_EXPECT(plain != NULL);
   PAN_EXPECT_EQ(fk.last_create_kflags, PAN_KMOD_BO_NOEXEC);
   PAN_EXPECT_EQ(plain->size_B, 4 * KiB); /* whole pages */
   PAN_EXPECT(plain->cpu != NULL);        /* mapped at creation */
   PAN_EXPECT(plain->gpu_va != 0);
   PAN_EXPECT_EQ(plain->gpu_va, fake_kernel_bo(&fk, plain->handle)->gpu_va);
   PAN_EXPECT_EQ(plain->refcnt, 1);
   PAN_EXPECT(strcmp(plain->label, "plain") == 0);
   memset(plain->cpu, 0xab, plain->size_B);
   PAN_EXPECT_EQ(((uint8_t *)fake_kernel_bo(&fk, plain->handle)->mem)[4095],
                 0xab);

   struct pan_bo *exec = pan_bo_create(&dev, 8 * KiB, PAN_BO_EXECUTE, "code");
   PAN_EXPECT(exec != NULL);
   PAN_EXPECT_EQ(fk.last_create_kflags, 0);

   struct pan_bo *heap =
      pan_bo_create(&dev, 3 * MiB, PAN_BO_GROWABLE | PAN_BO_INVISIBLE, "heap");
   PAN_EXPECT(heap != NULL);
   PAN_EXPECT_EQ(fk.last_create_kflags, PAN_KMOD_BO_HEAP | PAN_KMOD_BO_NOEXEC);
   PAN_EXPECT_EQ(heap->size_B, 4 * MiB); /* 2 MiB granules */
   PAN_EXPECT(heap->cpu == NULL);
   PAN_EXPECT(pan_bo_mmap(heap) == NULL); /* refused, not a crash */
   PAN_EXPECT_STR_HAS(last_log, "invisible");

   unsigned mmaps = fk.mmaps;
   struct pan_bo *invisible =
      pan_bo_create(&dev, 4 * KiB, PAN_BO_INVISIBLE, "inv");
   struct pan_bo *delayed =
      pan_bo_create(&dev, 4 * KiB, PAN_BO_DELAY_MMAP, "delayed");
   PAN_EXPECT(invisible && !invisible->cpu);
   PAN_EXPECT(delayed && !delayed->cpu);
   PAN_EXPECT_EQ(fk.mmaps, mmaps);
   PAN_EXPECT(pan_bo_mmap(delayed) != NULL);
   PAN_EXPECT(pan_bo_mmap(delayed) == delayed->cpu); /* mapped once */
   PAN_EXPECT_EQ(fk.mmaps, mmaps + 1);

   pan_bo_unref(plain);
   pan_bo_unref(exec);
   pan_bo_unref(heap);
   pan_bo_unref(invisible);
   pan_bo_unref(delayed);
   pan_bo_unref(NULL);
   teardown();
}

static void
test_invalid_requests(void)
{
   setup();
   const struct {
      uint64_t size;
      uint32_t flags;
      const char *why;
   } bad[] = {
      { 0, 0, "zero" },
      { 4096, PAN_BO_GROWABLE, "INVISIBLE" },
      { 4096, PAN_BO_GROWABLE | PAN_BO_INVISIBLE | PAN_BO_EXECUTE,
        "executable" },
      { 4096, 1u << 20, "flags" },
      { 1ull << 32, 0, "32-bit" },
   };

   for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
      log_count = 0;
      PAN_EXPECT(pan_bo_create(&dev, bad[i].size, bad[i].flags, "bad") == NULL);
      PAN_EXPECT_EQ(log_count, 1);
      PAN_EXPECT_STR_HAS(last_log, bad[i].why);
      PAN_EXPECT_STR_HAS(last_log, "\"bad\"");
   }
   PAN_EXPECT_EQ(fk.creates, 0);
   teardown();
}

static void
test_reuse_idle(void)
{
   setup();

   struct pan_bo *a = pan_bo_create(&dev, 64 * KiB, 0, "a");
   uint32_t handle = a->handle;
   uint64_t va = a->gpu_va;
   pan_bo_unref(a);

   /* Cached, not freed, and marked DONTNEED. */
   PAN_EXPECT_EQ(fk.closes, 0);
   PAN_EXPECT_EQ(dev.bo_cache.count, 1);
   PAN_EXPECT_EQ(dev.bo_cache.size_B, 64 * KiB);
   PAN_EXPECT(fake_kernel_bo(&fk, handle)->dontneed);

   struct pan_bo *b = pan_bo_create(&dev, 64 * KiB, 0, "b");
   PAN_EXPECT_EQ(b->handle, handle);
   PAN_EXPECT_EQ(b->gpu_va, va);
   PAN_EXPECT_EQ(fk.creates, 1);
   PAN_EXPECT_EQ(b->refcnt, 1);
   PAN_EXPECT(strcmp(b->label, "b") == 0);
   PAN_EXPECT(!fake_kernel_bo(&fk, handle)->dontneed); /* WILLNEED again */
   PAN_EXPECT_EQ(dev.bo_cache.count, 0);
   PAN_EXPECT_EQ(dev.bo_cache.hits, 1);

   /* A smaller request in the same size class is served too: 96 KiB for
    * 70 KiB, and (next bucket) 64 KiB for 60 KiB.
    */
   struct pan_bo *c = pan_bo_create(&dev, 96 * KiB, 0, "c");
   uint32_t c_handle = c->handle;
   pan_bo_unref(c);
   c = pan_bo_create(&dev, 70 * KiB, 0, "c2");
   PAN_EXPECT_EQ(c->handle, c_handle);
   PAN_EXPECT_EQ(c->size_B, 96 * KiB);

   pan_bo_unref(b);
   b = pan_bo_create(&dev, 60 * KiB, 0, "b2");
   PAN_EXPECT_EQ(b->handle, handle);

   PAN_EXPECT_EQ(fk.creates, 2);
   pan_bo_unref(b);
   pan_bo_unref(c);
   teardown();
}

static void
test_no_reuse_mismatch(void)
{
   setup();

   /* Too big: a 1000 KiB BO (searched bucket) would waste more than half
    * for 300 KiB, and so would a 64 MiB one (last bucket) for 8 MiB.
    */
   struct pan_bo *big = pan_bo_create(&dev, 1000 * KiB, 0, "big");
   struct pan_bo *huge = pan_bo_create(&dev, 64 * MiB, 0, "huge");
   pan_bo_unref(big);
   pan_bo_unref(huge);
   struct pan_bo *small = pan_bo_create(&dev, 300 * KiB, 0, "small");
   struct pan_bo *large = pan_bo_create(&dev, 8 * MiB, 0, "large");
   PAN_EXPECT_EQ(fk.creates, 4);
   PAN_EXPECT_EQ(dev.bo_cache.count, 2);
   pan_bo_unref(large);

   /* Different kernel flags: executable vs not. */
   struct pan_bo *code = pan_bo_create(&dev, 16 * KiB, PAN_BO_EXECUTE, "x");
   pan_bo_unref(code);
   struct pan_bo *data = pan_bo_create(&dev, 16 * KiB, 0, "d");
   PAN_EXPECT_EQ(fk.creates, 6);
   PAN_EXPECT_EQ(fk.last_create_kflags, PAN_KMOD_BO_NOEXEC);

   /* DELAY_MMAP alone does not matter. */
   pan_bo_unref(data);
   data = pan_bo_create(&dev, 16 * KiB, PAN_BO_DELAY_MMAP, "d2");
   PAN_EXPECT_EQ(fk.creates, 6);
   PAN_EXPECT(data->cpu != NULL); /* mapping kept from before */

   pan_bo_unref(data);
   pan_bo_unref(small);
   teardown();
}

static void
test_busy_not_reused(void)
{
   setup();

   struct pan_bo *a = pan_bo_create(&dev, 32 * KiB, 0, "a");
   uint32_t handle = a->handle;
   fake_kernel_set_busy(&fk, handle, true);
   pan_bo_unref(a);
   PAN_EXPECT_EQ(dev.bo_cache.count, 1);

   unsigned waits = fk.waits;
   struct pan_bo *b = pan_bo_create(&dev, 32 * KiB, 0, "b");
   PAN_EXPECT(b->handle != handle);
   PAN_EXPECT_EQ(fk.creates, 2);
   PAN_EXPECT(fk.waits > waits); /* the cache polled the kernel */
   PAN_EXPECT_EQ(dev.bo_cache.count, 1);

   /* Once idle, it is reused. */
   fake_kernel_set_busy(&fk, handle, false);
   struct pan_bo *c = pan_bo_create(&dev, 32 * KiB, 0, "c");
   PAN_EXPECT_EQ(c->handle, handle);
   PAN_EXPECT_EQ(fk.creates, 2);

   pan_bo_unref(b);
   pan_bo_unref(c);
   teardown();
}

static void
test_purged_freed(void)
{
   setup();

   struct pan_bo *a = pan_bo_create(&dev, 128 * KiB, 0, "a");
   uint32_t handle = a->handle;
   pan_bo_unref(a);
   fake_kernel_reclaim(&fk);

   struct pan_bo *b = pan_bo_create(&dev, 128 * KiB, 0, "b");
   /* The purged BO was closed and a fresh one made. Handles get recycled
    * by the fake just as by a kernel, so count instead of comparing.
    */
   PAN_EXPECT_EQ(fk.closes, 1);
   PAN_EXPECT_EQ(fk.creates, 2);
   PAN_EXPECT_EQ(dev.bo_cache.purged_by_kernel, 1);
   PAN_EXPECT_EQ(dev.bo_cache.count, 0);
   PAN_EXPECT(!fake_kernel_bo(&fk, b->handle)->purged);
   (void)handle;

   pan_bo_unref(b);
   teardown();
}

static void
test_eviction_by_age(void)
{
   setup();
   PAN_EXPECT_EQ(dev.bo_cache.max_age_ns, 1000 * NS_PER_MS);

   struct pan_bo *a = pan_bo_create(&dev, 4 * KiB, 0, "a");
   struct pan_bo *b = pan_bo_create(&dev, 8 * KiB, 0, "b");
   struct pan_bo *c = pan_bo_create(&dev, 16 * KiB, 0, "c");
   uint32_t ha = a->handle, hb = b->handle;

   pan_bo_unref(a); /* cached at t = 1.0 s */
   fake_now_ns += 500 * NS_PER_MS;
   pan_bo_unref(b); /* t = 1.5 s: a is 0.5 s old, kept */
   PAN_EXPECT_EQ(dev.bo_cache.count, 2);
   PAN_EXPECT_EQ(fk.closes, 0);

   fake_now_ns += 700 * NS_PER_MS;
   pan_bo_unref(c); /* t = 2.2 s: a (1.2 s) goes, b stays */
   PAN_EXPECT_EQ(dev.bo_cache.count, 2);
   PAN_EXPECT_EQ(fk.closes, 1);
   PAN_EXPECT(!fake_kernel_bo(&fk, ha)->live);
   PAN_EXPECT(fake_kernel_bo(&fk, hb)->live);

   /* Exactly max age is still young; one nanosecond more is not. */
   fake_now_ns += 300 * NS_PER_MS; /* b is 1.0 s old */
   pan_bo_cache_evict_stale(&dev);
   PAN_EXPECT_EQ(dev.bo_cache.count, 2);
   fake_now_ns += 1;
   pan_bo_cache_evict_stale(&dev);
   PAN_EXPECT_EQ(dev.bo_cache.count, 1);
   PAN_EXPECT(!fake_kernel_bo(&fk, hb)->live);

   pan_bo_cache_evict_all(&dev);
   PAN_EXPECT_EQ(dev.bo_cache.count, 0);
   PAN_EXPECT_EQ(dev.bo_cache.size_B, 0);
   teardown();
}

static void
test_purge_on_alloc_failure(void)
{
   setup();

   struct pan_bo *bos[4];
   for (unsigned i = 0; i < 4; i++)
      bos[i] = pan_bo_create(&dev, (4 * KiB) << i, 0, "filler");
   for (unsigned i = 0; i < 4; i++)
      pan_bo_unref(bos[i]);
   PAN_EXPECT_EQ(dev.bo_cache.count, 4);

   /* First attempt fails, the cache is emptied, the retry works. */
   fk.fail_creates = 1;
   struct pan_bo *big = pan_bo_create(&dev, 2 * MiB, 0, "big");
   PAN_EXPECT(big != NULL);
   PAN_EXPECT_EQ(dev.bo_cache.count, 0);
   PAN_EXPECT_EQ(fk.closes, 4);
   PAN_EXPECT_EQ(log_count, 0);

   /* Failing twice gives NULL and one message naming the BO. */
   fk.fail_creates = 2;
   PAN_EXPECT(pan_bo_create(&dev, 2 * MiB, 0, "doomed") == NULL);
   PAN_EXPECT_EQ(log_count, 1);
   PAN_EXPECT_STR_HAS(last_log, "\"doomed\"");
   PAN_EXPECT_STR_HAS(last_log, strerror(ENOMEM));
   PAN_EXPECT_EQ(fk.fail_creates, 0);

   pan_bo_unref(big);
   teardown();
}

static void
test_cache_disabled(void)
{
   setup();
   dev.bo_cache.disabled = true;
   struct pan_bo *a = pan_bo_create(&dev, 4 * KiB, 0, "a");
   pan_bo_unref(a);
   PAN_EXPECT_EQ(fk.closes, 1);
   PAN_EXPECT_EQ(dev.bo_cache.count, 0);
   teardown();
}

static void
test_refcount(void)
{
   setup();
   struct pan_bo *a = pan_bo_create(&dev, 4 * KiB, 0, "a");
   PAN_EXPECT(pan_bo_ref(a) == a);
   PAN_EXPECT(pan_bo_ref(NULL) == NULL);
   PAN_EXPECT_EQ(a->refcnt, 2);
   pan_bo_unref(a);
   PAN_EXPECT_EQ(a->refcnt, 1);
   PAN_EXPECT_EQ(dev.bo_cache.count, 0);
   pan_bo_unref(a);
   PAN_EXPECT_EQ(dev.bo_cache.count, 1);
   teardown();
}

static void
test_wait(void)
{
   setup();
   struct pan_bo *a = pan_bo_create(&dev, 4 * KiB, 0, "a");
   unsigned waits = fk.waits;

   /* Nothing pending: no kernel call. */
   PAN_EXPECT(pan_bo_wait(a, 0, true));
   PAN_EXPECT_EQ(fk.waits, waits);

   /* Pending GPU reads do not block CPU readers. */
   fake_kernel_set_busy(&fk, a->handle, true);
   pan_bo_mark_gpu_access(a, PAN_BO_ACCESS_READ);
   PAN_EXPECT(pan_bo_wait(a, 0, false));
   PAN_EXPECT_EQ(fk.waits, waits);
   /* ... but do block writers. */
   PAN_EXPECT(!pan_bo_wait(a, 0, true));
   PAN_EXPECT(!pan_bo_wait(a, 1000, true));
   PAN_EXPECT_EQ(fk.waits, waits + 2);
   PAN_EXPECT_EQ(log_count, 0); /* busy is not an error */

   pan_bo_mark_gpu_access(a, PAN_BO_ACCESS_WRITE);
   PAN_EXPECT(!pan_bo_wait(a, 0, false));

   fake_kernel_set_busy(&fk, a->handle, false);
   PAN_EXPECT(pan_bo_wait(a, PAN_KMOD_TIMEOUT_INFINITE, false));
   PAN_EXPECT_EQ(a->gpu_access, 0); /* forgotten once idle */

   pan_bo_unref(a);
   teardown();
}

static void
test_export_import(void)
{
   setup();
   struct pan_bo *a = pan_bo_create(&dev, 20 * KiB, 0, "scanout");

   int fd = pan_bo_export(a);
   PAN_EXPECT(fd >= 0);
   PAN_EXPECT(a->flags & PAN_BO_SHARED);

   /* Importing our own export gives the same BO. */
   struct pan_bo *again = pan_bo_import(&dev, fd);
   PAN_EXPECT(again == a);
   PAN_EXPECT_EQ(a->refcnt, 2);

   /* A second export hands out another fd to the same buffer. */
   int fd2 = pan_bo_export(a);
   PAN_EXPECT(fd2 >= 0 && fd2 != fd);
   PAN_EXPECT(pan_bo_import(&dev, fd2) == a);
   PAN_EXPECT_EQ(a->refcnt, 3);
   close(fd2);

   pan_bo_unref(again);
   pan_bo_unref(a);
   PAN_EXPECT_EQ(a->refcnt, 1);
   /* Shared BOs skip the cache: the last unref closes. */
   pan_bo_unref(a);
   PAN_EXPECT_EQ(dev.bo_cache.count, 0);
   PAN_EXPECT_EQ(fk.closes, 1);
   close(fd);

   /* A foreign dma-buf: a new BO sized like the buffer; importing it
    * twice gives the same BO.
    */
   int foreign = memfd_create("foreign", MFD_CLOEXEC);
   PAN_EXPECT(foreign >= 0 && ftruncate(foreign, 12 * KiB) == 0);
   struct pan_bo *f1 = pan_bo_import(&dev, foreign);
   struct pan_bo *f2 = pan_bo_import(&dev, foreign);
   PAN_EXPECT(f1 != NULL && f1 == f2);
   PAN_EXPECT_EQ(f1->size_B, 12 * KiB);
   PAN_EXPECT(f1->gpu_va != 0);
   PAN_EXPECT_EQ(f1->flags, PAN_BO_SHARED | PAN_BO_DELAY_MMAP);
   PAN_EXPECT(f1->cpu == NULL);
   PAN_EXPECT(pan_bo_mmap(f1) != NULL);
   pan_bo_unref(f2);
   pan_bo_unref(f1);
   close(foreign);

   /* A bad fd is an error, not a crash. */
   PAN_EXPECT(pan_bo_import(&dev, -1) == NULL);
   PAN_EXPECT_STR_HAS(last_log, "fd -1");
   teardown();
}

/* A BO created for sharing skips the cache both ways, and its export
 * imports back as itself.
 */
static void
test_created_shared(void)
{
   setup();

   struct pan_bo *cached = pan_bo_create(&dev, 8 * KiB, 0, "cached");
   pan_bo_unref(cached);
   PAN_EXPECT_EQ(dev.bo_cache.count, 1);

   struct pan_bo *s = pan_bo_create(&dev, 8 * KiB, PAN_BO_SHARED, "shared");
   PAN_EXPECT(s != NULL);
   PAN_EXPECT_EQ(fk.creates, 2); /* not served from the cache */
   PAN_EXPECT_EQ(dev.bo_cache.count, 1);
   PAN_EXPECT(s->cpu != NULL);

   int fd = pan_bo_export(s);
   PAN_EXPECT(fd >= 0);
   PAN_EXPECT(pan_bo_import(&dev, fd) == s);
   PAN_EXPECT_EQ(s->refcnt, 2);
   pan_bo_unref(s);
   pan_bo_unref(s);
   PAN_EXPECT_EQ(dev.bo_cache.count, 1); /* closed, not cached */
   PAN_EXPECT_EQ(fk.closes, 1);
   close(fd);

   /* Never exported: still closed rather than cached. */
   s = pan_bo_create(&dev, 8 * KiB, PAN_BO_SHARED, "shared2");
   pan_bo_unref(s);
   PAN_EXPECT_EQ(dev.bo_cache.count, 1);
   PAN_EXPECT_EQ(fk.closes, 2);
   teardown();
}

/* Several threads allocating, sharing and releasing: ASan/UBSan and the
 * final leak check catch mistakes in the locking.
 */
static void *
churn(void *data)
{
   (void)data;
   for (unsigned i = 0; i < 2000; i++) {
      uint64_t size = (4 * KiB) << (i % 6);
      struct pan_bo *bo =
         pan_bo_create(&dev, size, i % 3 ? 0 : PAN_BO_INVISIBLE, "churn");
      if (!bo)
         return (void *)1;
      pan_bo_ref(bo);
      pan_bo_unref(bo);
      if (i % 5 == 0)
         pan_bo_cache_evict_all(&dev);
      pan_bo_unref(bo);
   }
   return NULL;
}

static void
test_threads(void)
{
   setup();
   dev.bo_cache.now_ns = pan_clock_monotonic_ns;
   dev.bo_cache.now_data = NULL;

   pthread_t t[4];
   for (unsigned i = 0; i < 4; i++)
      pthread_create(&t[i], NULL, churn, NULL);
   for (unsigned i = 0; i < 4; i++) {
      void *ret;
      pthread_join(t[i], &ret);
      PAN_EXPECT(ret == NULL);
   }
   PAN_EXPECT(dev.bo_cache.hits > 0);
   PAN_EXPECT_EQ(log_count, 0);
   teardown();
}

int
main(void)
{
   PAN_RUN_CASE(test_bucket_selection);
   PAN_RUN_CASE(test_create_flags);
   PAN_RUN_CASE(test_invalid_requests);
   PAN_RUN_CASE(test_reuse_idle);
   PAN_RUN_CASE(test_no_reuse_mismatch);
   PAN_RUN_CASE(test_busy_not_reused);
   PAN_RUN_CASE(test_purged_freed);
   PAN_RUN_CASE(test_eviction_by_age);
   PAN_RUN_CASE(test_purge_on_alloc_failure);
   PAN_RUN_CASE(test_cache_disabled);
   PAN_RUN_CASE(test_refcount);
   PAN_RUN_CASE(test_wait);
   PAN_RUN_CASE(test_export_import);
   PAN_RUN_CASE(test_created_shared);
   PAN_RUN_CASE(test_threads);
   return pan_test_summary("pan_bo");
}
