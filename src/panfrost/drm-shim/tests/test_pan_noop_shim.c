/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Runs the device layer on the noop drm-shim (LD_PRELOAD'ed by the test
 * harness): real ioctls through pan_kmod_drm, against the shim's mocked
 * GPU. Usage:
 *   test_pan_noop_shim [expected-hex-id expected-name]
 *   test_pan_noop_shim unsupported expected-name  (known, not supported)
 *   test_pan_noop_shim refused                    (PAN_GPU_ID unknown)
 */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <xf86drm.h>

#include "drm-uapi/panfrost_drm.h"
#include "pan_bo.h"
#include "pan_device.h"
#include "util/pan_test_util.h"

static struct pan_device dev;
static int fd = -1;
static const char *want_id = "7212";
static const char *want_name = "Mali-G52";

static void
test_open(void)
{
   char err[256] = "";
   int ret = pan_device_open(&dev, fd, err, sizeof(err));

   if (ret)
      fprintf(stderr, "  open failed: %s\n", err);
   PAN_EXPECT_EQ(ret, 0);
   if (ret)
      return;

   PAN_EXPECT_EQ(dev.gpu_id, strtoul(want_id, NULL, 16));
   PAN_EXPECT(strcmp(dev.model->name, want_name) == 0);
   PAN_EXPECT(dev.core_count >= 1);
   PAN_EXPECT(dev.max_threads >= 256);
   PAN_EXPECT(dev.max_workgroup_size >= 256);
   /* The shim answers every parameter. */
   PAN_EXPECT_EQ(dev.params_defaulted, 0);
   PAN_EXPECT(pan_device_supports_compressed_format(&dev, 1)); /* ETC2 RGB8 */
   PAN_EXPECT_EQ(dev.has_afbc, dev.arch >= 5);
}

static void
test_bos(void)
{
   struct pan_bo *a = pan_bo_create(&dev, 10000, 0, "data");
   struct pan_bo *code = pan_bo_create(&dev, 4096, PAN_BO_EXECUTE, "code");
   struct pan_bo *heap =
      pan_bo_create(&dev, 64 << 20, PAN_BO_GROWABLE | PAN_BO_INVISIBLE, "heap");

   PAN_EXPECT(a && code && heap);
   if (!a || !code || !heap)
      return;

   /* GPU addresses inside the kernel's window, page aligned, disjoint;
    * big BOs 2 MiB aligned.
    */
   PAN_EXPECT(a->gpu_va >= (32ull << 20) && a->gpu_va < (4ull << 30));
   PAN_EXPECT_EQ(a->gpu_va & 4095, 0);
   PAN_EXPECT_EQ(heap->gpu_va & ((2 << 20) - 1), 0);
   PAN_EXPECT(a->gpu_va + a->size_B <= code->gpu_va ||
              code->gpu_va + code->size_B <= a->gpu_va);

   /* CPU mappings are real memory. */
   memset(a->cpu, 0x5a, a->size_B);
   PAN_EXPECT_EQ(((uint8_t *)a->cpu)[a->size_B - 1], 0x5a);

   pan_bo_mark_gpu_access(a, PAN_BO_ACCESS_WRITE);
   PAN_EXPECT(pan_bo_wait(a, 0, true)); /* nothing runs: idle at once */

   uint64_t va = 0;
   PAN_EXPECT_EQ(dev.kmod.ops->bo_get_gpu_va(&dev.kmod, code->handle, &va), 0);
   PAN_EXPECT_EQ(va, code->gpu_va);

   /* A job naming real BOs is accepted; an unknown BO is refused. */
   uint32_t handles[2] = { a->handle, code->handle };
   struct pan_kmod_submit s = {
      .jc_gpu_va = code->gpu_va,
      .bo_handles = handles,
      .bo_handle_count = 2,
   };
   PAN_EXPECT_EQ(dev.kmod.ops->submit(&dev.kmod, &s), 0);
   s.requirements = PANFROST_JD_REQ_FS;
   PAN_EXPECT_EQ(dev.kmod.ops->submit(&dev.kmod, &s), 0);
   handles[1] = 9999;
   PAN_EXPECT_EQ(dev.kmod.ops->submit(&dev.kmod, &s), -ENOENT);
   s.jc_gpu_va = 0;
   PAN_EXPECT_EQ(dev.kmod.ops->submit(&dev.kmod, &s), -EINVAL);

   /* Through the cache: released then reused (madvise round trip). */
   uint32_t handle = a->handle;
   pan_bo_unref(a);
   PAN_EXPECT_EQ(dev.bo_cache.count, 1);
   a = pan_bo_create(&dev, 10000, 0, "again");
   PAN_EXPECT(a && a->handle == handle);

   pan_bo_unref(a);
   pan_bo_unref(code);
   pan_bo_unref(heap);
}

static void
test_raw_ioctls(void)
{
   struct drm_panfrost_get_param gp = { .param = 1000 };
   PAN_EXPECT(drmIoctl(fd, DRM_IOCTL_PANFROST_GET_PARAM, &gp) != 0);

   struct drm_panfrost_create_bo bad = { .size = 4096,
                                         .flags = PANFROST_BO_HEAP };
   PAN_EXPECT(drmIoctl(fd, DRM_IOCTL_PANFROST_CREATE_BO, &bad) != 0);

   struct drm_panfrost_create_bo heap = {
      .size = 4096, .flags = PANFROST_BO_HEAP | PANFROST_BO_NOEXEC
   };
   PAN_EXPECT_EQ(drmIoctl(fd, DRM_IOCTL_PANFROST_CREATE_BO, &heap), 0);
   struct drm_panfrost_mmap_bo mm = { .handle = heap.handle };
   PAN_EXPECT(drmIoctl(fd, DRM_IOCTL_PANFROST_MMAP_BO, &mm) != 0);

   struct drm_panfrost_madvise madv = { .handle = heap.handle,
                                        .madv = PANFROST_MADV_DONTNEED };
   PAN_EXPECT_EQ(drmIoctl(fd, DRM_IOCTL_PANFROST_MADVISE, &madv), 0);
   PAN_EXPECT_EQ(madv.retained, 1);

   struct drm_gem_close gc = { .handle = heap.handle };
   PAN_EXPECT_EQ(drmIoctl(fd, DRM_IOCTL_GEM_CLOSE, &gc), 0);

   struct drm_panfrost_perfcnt_enable pe = { .enable = 1 };
   PAN_EXPECT(drmIoctl(fd, DRM_IOCTL_PANFROST_PERFCNT_ENABLE, &pe) != 0);
}

static void
test_unsupported(void)
{
   char err[256] = "";

   PAN_EXPECT_EQ(pan_device_open(&dev, fd, err, sizeof(err)), -ENOTSUP);
   PAN_EXPECT_STR_HAS(err, want_name);
}

static void
test_refused(void)
{
   char err[256] = "";

   PAN_EXPECT(pan_device_open(&dev, fd, err, sizeof(err)) < 0);
   PAN_EXPECT_STR_HAS(err, "required");
}

int
main(int argc, char **argv)
{
   if (argc > 1)
      want_id = argv[1];
   if (argc > 2)
      want_name = argv[2];

   fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
   if (fd < 0) {
      fprintf(stderr, "cannot open the shim's render node: is "
                      "libpanfrost_noop_drm_shim.so preloaded?\n");
      return 1;
   }

   if (strcmp(want_id, "refused") == 0) {
      PAN_RUN_CASE(test_refused);
   } else if (strcmp(want_id, "unsupported") == 0) {
      PAN_RUN_CASE(test_unsupported);
   } else {
      PAN_RUN_CASE(test_open);
      if (dev.model) {
         PAN_RUN_CASE(test_bos);
         PAN_RUN_CASE(test_raw_ioctls);
         pan_device_close(&dev);
      }
   }

   close(fd);
   return pan_test_summary("pan_noop_shim");
}
