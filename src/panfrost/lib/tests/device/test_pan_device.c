/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Device open against the fake kernel: parameters in, fields out. */

#include <errno.h>

#include "drm-uapi/panfrost_drm.h"
#include "pan_device.h"
#include "util/pan_test_util.h"
#include "pan_fake_kmod.h"

static struct fake_kernel fk;
static struct pan_device dev;
static char err[256];

static int
open_fake(uint32_t flags)
{
   err[0] = '\0';
   return pan_device_open_kmod(&dev, 42, &fake_kmod_ops, &fk, flags, err,
                               sizeof(err));
}

static void
test_g52_fields(void)
{
   fake_kernel_init(&fk);
   fake_kernel_set_param(&fk, DRM_PANFROST_PARAM_SHADER_PRESENT, 0x5);

   PAN_EXPECT_EQ(open_fake(0), 0);
   PAN_EXPECT_EQ(err[0], 0);
   PAN_EXPECT_EQ(dev.fd, 42);
   PAN_EXPECT_EQ(dev.gpu_id, 0x7212);
   PAN_EXPECT_EQ(dev.gpu_revision, 0x0010);
   PAN_EXPECT_EQ(dev.arch, 7);
   PAN_EXPECT(dev.model && strcmp(dev.model->name, "Mali-G52") == 0);
   /* Cores 0 and 2: two cores, ids up to 2. */
   PAN_EXPECT_EQ(dev.shader_present, 0x5);
   PAN_EXPECT_EQ(dev.core_count, 2);
   PAN_EXPECT_EQ(dev.core_id_range, 3);
   PAN_EXPECT_EQ(dev.max_threads, 768);
   PAN_EXPECT_EQ(dev.max_workgroup_size, 384);
   PAN_EXPECT_EQ(dev.max_barrier_size, 384);
   PAN_EXPECT_EQ(dev.thread_tls_alloc, 384);
   PAN_EXPECT_EQ(dev.thread_features, 0x4000400);
   PAN_EXPECT_EQ(dev.texture_features[0], 0xfe001e);
   PAN_EXPECT_EQ(dev.texture_features[1], 0x11);
   PAN_EXPECT_EQ(dev.texture_features[2], 0x22);
   PAN_EXPECT_EQ(dev.texture_features[3], 0x33);
   PAN_EXPECT_EQ(dev.js_present, 0x7);
   PAN_EXPECT_EQ(dev.js_features[0], 0x20e);
   PAN_EXPECT_EQ(dev.js_features[1], 0x1fe);
   PAN_EXPECT_EQ(dev.js_features[2], 0x7e);
   PAN_EXPECT_EQ(dev.js_features[3], 0);
   PAN_EXPECT_EQ(dev.as_present, 0xff);
   PAN_EXPECT_EQ(dev.l2_features, 0x07110206);
   PAN_EXPECT_EQ(dev.mmu_features, 0x2830);
   PAN_EXPECT_EQ(dev.l2_slices, 2);
   PAN_EXPECT_EQ(dev.tiler_bin_size_B, 512);
   PAN_EXPECT_EQ(dev.tiler_max_levels, 8);
   PAN_EXPECT(dev.has_afbc);
   PAN_EXPECT_EQ(dev.tile_buffer_size_B, 16384);
   PAN_EXPECT_EQ(dev.optimal_tib_size_B, 8192);
   PAN_EXPECT_EQ(dev.params_defaulted, 0);
   /* ETC2 RGB8 (1) and ASTC 2D LDR (22) are in 0xfe001e, BC1 (7) not. */
   PAN_EXPECT(pan_device_supports_compressed_format(&dev, 1));
   PAN_EXPECT(pan_device_supports_compressed_format(&dev, 22));
   PAN_EXPECT(!pan_device_supports_compressed_format(&dev, 7));
   PAN_EXPECT(!pan_device_supports_compressed_format(&dev, 40));

   pan_device_close(&dev);
   PAN_EXPECT_EQ(fk.device_closes, 0); /* the fd stays the caller's */
   fake_kernel_fini(&fk);
}

static void
test_owns_fd(void)
{
   fake_kernel_init(&fk);
   PAN_EXPECT_EQ(open_fake(PAN_DEVICE_OWNS_FD), 0);
   pan_device_close(&dev);
   PAN_EXPECT_EQ(fk.device_closes, 1);
   /* Closing twice is harmless. */
   pan_device_close(&dev);
   PAN_EXPECT_EQ(fk.device_closes, 1);
   fake_kernel_fini(&fk);
}

/* An old kernel knows none of the optional parameters. */
static void
test_optional_defaults(void)
{
   fake_kernel_init(&fk);
   for (uint32_t p = DRM_PANFROST_PARAM_SHADER_PRESENT;
        p <= DRM_PANFROST_PARAM_AFBC_FEATURES; p++)
      fake_kernel_fail_param(&fk, p, -EINVAL);

   PAN_EXPECT_EQ(open_fake(0), 0);
   PAN_EXPECT_EQ(dev.gpu_id, 0x7212);
   /* Worst-case 16 cores. */
   PAN_EXPECT_EQ(dev.shader_present, 0xffff);
   PAN_EXPECT_EQ(dev.core_count, 16);
   PAN_EXPECT_EQ(dev.core_id_range, 16);
   PAN_EXPECT_EQ(dev.max_threads, 768); /* v7 architectural maximum */
   PAN_EXPECT_EQ(dev.max_workgroup_size, 256);
   PAN_EXPECT_EQ(dev.max_barrier_size, 256);
   PAN_EXPECT_EQ(dev.thread_tls_alloc, 768);
   /* ETC2 + ASTC baseline: bits 1-4 and 17-23. */
   PAN_EXPECT_EQ(dev.texture_features[0], 0x00fe001e);
   PAN_EXPECT_EQ(dev.tiler_bin_size_B, 512);
   PAN_EXPECT_EQ(dev.tiler_max_levels, 8);
   PAN_EXPECT_EQ(dev.l2_slices, 1);
   PAN_EXPECT_EQ(dev.js_present, 0x7);
   PAN_EXPECT_EQ(dev.nr_core_groups, 1);
   PAN_EXPECT(dev.has_afbc); /* v7, AFBC_FEATURES unknown -> 0 */

   /* Every optional parameter is recorded as defaulted; the identity
    * ones are not. JS_FEATURES are only asked for present slots (0-2).
    */
   uint64_t expect = 0;
   for (uint32_t p = DRM_PANFROST_PARAM_SHADER_PRESENT;
        p <= DRM_PANFROST_PARAM_AFBC_FEATURES; p++) {
      if (p >= DRM_PANFROST_PARAM_JS_FEATURES3 &&
          p <= DRM_PANFROST_PARAM_JS_FEATURES15)
         continue;
      expect |= 1ull << p;
   }
   PAN_EXPECT_EQ(dev.params_defaulted, expect);

   pan_device_close(&dev);
   fake_kernel_fini(&fk);
}

static void
test_single_optional_missing(void)
{
   fake_kernel_init(&fk);
   fake_kernel_fail_param(&fk, DRM_PANFROST_PARAM_THREAD_TLS_ALLOC, -EINVAL);
   fake_kernel_fail_param(&fk, DRM_PANFROST_PARAM_AFBC_FEATURES, -EINVAL);

   PAN_EXPECT_EQ(open_fake(0), 0);
   PAN_EXPECT_EQ(dev.thread_tls_alloc, 768); /* falls back to max_threads */
   PAN_EXPECT_EQ(dev.max_threads, 768);
   PAN_EXPECT(dev.has_afbc);
   PAN_EXPECT_EQ(dev.params_defaulted,
                 (1ull << DRM_PANFROST_PARAM_THREAD_TLS_ALLOC) |
               (1ull << DRM_PANFROST_PARAM_AFBC_FEATURES));
   pan_device_close(&dev);
   fake_kernel_fini(&fk);
}

static void
test_required_missing(void)
{
   const uint32_t required[] = { DRM_PANFROST_PARAM_GPU_PROD_ID,
                                 DRM_PANFROST_PARAM_GPU_REVISION };

   for (unsigned i = 0; i < 2; i++) {
      fake_kernel_init(&fk);
      fake_kernel_fail_param(&fk, required[i], -EINVAL);
      PAN_EXPECT_EQ(open_fake(PAN_DEVICE_OWNS_FD), -EINVAL);
      PAN_EXPECT_STR_HAS(err, "required");
      PAN_EXPECT(dev.model == NULL);
      /* A failed open leaves nothing to close, and does not take the fd. */
      pan_device_close(&dev);
      PAN_EXPECT_EQ(fk.device_closes, 0);
      fake_kernel_fini(&fk);
   }
}

/* An optional parameter failing for another reason than "unknown" is a
 * real error.
 */
static void
test_optional_hard_error(void)
{
   fake_kernel_init(&fk);
   fake_kernel_fail_param(&fk, DRM_PANFROST_PARAM_TEXTURE_FEATURES2, -EIO);
   PAN_EXPECT_EQ(open_fake(0), -EIO);
   char want[32];
   snprintf(want, sizeof(want), "parameter %u",
            DRM_PANFROST_PARAM_TEXTURE_FEATURES2);
   PAN_EXPECT_STR_HAS(err, want);
   fake_kernel_fini(&fk);
}

static void
test_wrong_driver(void)
{
   fake_kernel_init(&fk);
   snprintf(fk.driver_name, sizeof(fk.driver_name), "msm");
   PAN_EXPECT_EQ(open_fake(0), -ENODEV);
   PAN_EXPECT_STR_HAS(err, "\"msm\"");
   PAN_EXPECT_STR_HAS(err, "panfrost");
   fake_kernel_fini(&fk);

   fake_kernel_init(&fk);
   fk.version_error = -EBADF;
   PAN_EXPECT_EQ(open_fake(0), -EBADF);
   PAN_EXPECT_STR_HAS(err, "kernel driver");
   fake_kernel_fini(&fk);
}

static void
test_unknown_and_unsupported_gpu(void)
{
   fake_kernel_init(&fk);
   fake_kernel_set_param(&fk, DRM_PANFROST_PARAM_GPU_PROD_ID, 0xb123);
   PAN_EXPECT_EQ(open_fake(0), -ENODEV);
   PAN_EXPECT_STR_HAS(err, "0xb123");
   fake_kernel_fini(&fk);

   fake_kernel_init(&fk);
   fake_kernel_set_param(&fk, DRM_PANFROST_PARAM_GPU_PROD_ID, 0xa867);
   PAN_EXPECT_EQ(open_fake(0), -ENOTSUP);
   PAN_EXPECT_STR_HAS(err, "Mali-G610");
   PAN_EXPECT_STR_HAS(err, "0xa867");
   fake_kernel_fini(&fk);

   fake_kernel_init(&fk);
   fake_kernel_set_param(&fk, DRM_PANFROST_PARAM_GPU_PROD_ID, 0xac74);
   PAN_EXPECT_EQ(open_fake(0), -ENOTSUP);
   PAN_EXPECT_STR_HAS(err, "Mali-G310");
   fake_kernel_fini(&fk);
}

static void
test_no_cores(void)
{
   fake_kernel_init(&fk);
   fake_kernel_set_param(&fk, DRM_PANFROST_PARAM_SHADER_PRESENT, 0);
   PAN_EXPECT_EQ(open_fake(0), -ENODEV);
   PAN_EXPECT_STR_HAS(err, "no shader cores");
   fake_kernel_fini(&fk);
}

/* Midgard: no AFBC before v5; a nonzero AFBC_FEATURES means absent. */
static void
test_afbc(void)
{
   const struct {
      uint32_t id;
      uint32_t afbc_features;
      bool has_afbc;
   } cases[] = {
      { 0x720, 0, false }, { 0x620, 0, false },  { 0x750, 0, true },
      { 0x860, 0, true },  { 0x7212, 1, false }, { 0x7093, 0, true },
   };

   for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      fake_kernel_init(&fk);
      fake_kernel_set_param(&fk, DRM_PANFROST_PARAM_GPU_PROD_ID, cases[i].id);
      fake_kernel_set_param(&fk, DRM_PANFROST_PARAM_AFBC_FEATURES,
                            cases[i].afbc_features);
      PAN_EXPECT_EQ(open_fake(0), 0);
      PAN_EXPECT_EQ(dev.has_afbc, cases[i].has_afbc);
      pan_device_close(&dev);
      fake_kernel_fini(&fk);
   }
}

static void
test_midgard_defaults(void)
{
   fake_kernel_init(&fk);
   fake_kernel_set_param(&fk, DRM_PANFROST_PARAM_GPU_PROD_ID, 0x820);
   fake_kernel_fail_param(&fk, DRM_PANFROST_PARAM_MAX_THREADS, -EINVAL);
   fake_kernel_set_param(&fk, DRM_PANFROST_PARAM_THREAD_MAX_WORKGROUP_SZ, 0);
   fake_kernel_set_param(&fk, DRM_PANFROST_PARAM_THREAD_MAX_BARRIER_SZ, 0);
   fake_kernel_set_param(&fk, DRM_PANFROST_PARAM_THREAD_TLS_ALLOC, 0);
   PAN_EXPECT_EQ(open_fake(0), 0);
   PAN_EXPECT_EQ(dev.arch, 5);
   PAN_EXPECT(strcmp(dev.model->name, "Mali-T820") == 0);
   PAN_EXPECT(pan_model_has_quirk(dev.model, PAN_QUIRK_NO_HIERARCHICAL_TILING));
   PAN_EXPECT_EQ(dev.max_threads, 256);
   PAN_EXPECT_EQ(dev.max_workgroup_size, 256);
   PAN_EXPECT_EQ(dev.thread_tls_alloc, 256);
   PAN_EXPECT_EQ(dev.tile_buffer_size_B, 8192);
   pan_device_close(&dev);
   fake_kernel_fini(&fk);
}

static char logged[512];

static void
capture_log(void *data, const char *msg)
{
   (*(unsigned *)data)++;
   snprintf(logged, sizeof(logged), "%s", msg);
}

static void
test_log_callback(void)
{
   unsigned calls = 0;

   fake_kernel_init(&fk);
   PAN_EXPECT_EQ(open_fake(0), 0);
   pan_device_set_log(&dev, capture_log, &calls);
   pan_device_log_error(&dev, "value %d", 7);
   PAN_EXPECT_EQ(calls, 1);
   PAN_EXPECT(strcmp(logged, "value 7") == 0);
   pan_device_close(&dev);
   fake_kernel_fini(&fk);
}

int
main(void)
{
   PAN_RUN_CASE(test_g52_fields);
   PAN_RUN_CASE(test_owns_fd);
   PAN_RUN_CASE(test_optional_defaults);
   PAN_RUN_CASE(test_single_optional_missing);
   PAN_RUN_CASE(test_required_missing);
   PAN_RUN_CASE(test_optional_hard_error);
   PAN_RUN_CASE(test_wrong_driver);
   PAN_RUN_CASE(test_unknown_and_unsupported_gpu);
   PAN_RUN_CASE(test_no_cores);
   PAN_RUN_CASE(test_afbc);
   PAN_RUN_CASE(test_midgard_defaults);
   PAN_RUN_CASE(test_log_callback);
   return pan_test_summary("pan_device");
}
