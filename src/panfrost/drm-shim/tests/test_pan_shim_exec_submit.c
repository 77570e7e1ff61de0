/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * A clear-only frame submitted through the preloaded drm-shim with plain
 * ioctls (compiled per PAN_ARCH; PAN_GPU_ID must name a GPU of that
 * architecture). Usage: test_pan_shim_exec_submit on|off
 *    on   the 64x32 RGBA8 linear target must hold the clear colour, the
 *         job header must read DONE, the write-value target must be 0
 *    off  (PAN_SHIM_EXEC=0) memory must be left as the test wrote it
 */

#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>

#include "drm-uapi/panfrost_drm.h"
#include "pan_genxml.h"
#include "util/pan_test_util.h"

#define W 64
#define H 32

struct bo {
   uint32_t handle;
   uint64_t va;
   uint8_t *cpu;
   uint32_t size_B;
};

static int fd = -1;

static bool
bo_new(struct bo *bo, uint32_t size_B)
{
   struct drm_panfrost_create_bo c = {.size = size_B};
   struct drm_panfrost_mmap_bo m = {0};

   if (drmIoctl(fd, DRM_IOCTL_PANFROST_CREATE_BO, &c))
      return false;
   m.handle = c.handle;
   if (drmIoctl(fd, DRM_IOCTL_PANFROST_MMAP_BO, &m))
      return false;
   bo->cpu = mmap(NULL, size_B, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                  m.offset);
   if (bo->cpu == MAP_FAILED)
      return false;
   bo->handle = c.handle;
   bo->va = c.offset;
   bo->size_B = size_B;
   return true;
}

static void
header(void *job, unsigned type, uint64_t next)
{
   pan_pack(job, job_header, cfg) {
#if PAN_ARCH <= 7
      cfg.is_64b = true;
#endif
      cfg.type = type;
      cfg.index = 1;
      cfg.next = next;
   }
}

/* Framebuffer with one linear RGBA8 target at color; returns the tagged
 * pointer.
 */
static uint64_t
emit_fb(uint8_t *cpu, uint64_t va, uint64_t color)
{
#if PAN_ARCH == 4
   pan_section_pack(cpu, framebuffer, parameters, cfg) {
      cfg.internal_format = MALI_COLOR_BUFFER_INTERNAL_FORMAT_R8G8B8A8;
      cfg.color_writeback_format = MALI_COLOR_FORMAT_R8G8B8A8;
      cfg.swizzle = 0x688;
      cfg.sample_count = 1;
      cfg.color_write_enable = true;
      cfg.color_block_format = MALI_BLOCK_FORMAT_LINEAR;
      cfg.bound_max_x = W - 1;
      cfg.bound_max_y = H - 1;
      cfg.color_writeback.base = color;
      cfg.color_writeback.row_stride_B = W * 4;
      cfg.color_clear.color_0 = 0x80402010;
   }
   return va;
#else
   pan_section_pack(cpu, framebuffer, parameters, cfg) {
      cfg.width = W;
      cfg.height = H;
      cfg.bound_max_x = W - 1;
      cfg.bound_max_y = H - 1;
      cfg.sample_count = 1;
      cfg.effective_tile_size = 256;
      cfg.color_buffer_allocation = 1024;
      cfg.render_target_count = 1;
   }
   pan_pack(cpu + pan_size(framebuffer), render_target, cfg) {
      cfg.internal_format = MALI_COLOR_BUFFER_INTERNAL_FORMAT_R8G8B8A8;
      cfg.write_enable = true;
      cfg.writeback_format = MALI_COLOR_FORMAT_R8G8B8A8;
      cfg.writeback_block_format = MALI_BLOCK_FORMAT_LINEAR;
      cfg.swizzle = 0x688;
      cfg.rgb.base = color;
      cfg.rgb.row_stride_B = W * 4;
#if PAN_ARCH == 5
      cfg.cleared.clear.color_0 = 0x80402010;
#else
      cfg.clear.color_0 = 0x80402010;
#endif
   }
   return va | MALI_FBD_TAG_IS_MFBD;
#endif
}

int
main(int argc, char **argv)
{
   bool exec = argc < 2 || strcmp(argv[1], "off") != 0;
   struct bo jobs, desc, color;

   fd = open("/dev/dri/renderD128", O_RDWR);
   if (fd < 0) {
      fprintf(stderr, "cannot open the shim's render node: is the drm-shim "
                      "preloaded?\n");
      return 1;
   }
   if (!bo_new(&jobs, 4096) || !bo_new(&desc, 4096) ||
       !bo_new(&color, W * H * 4 + 64)) {
      fprintf(stderr, "cannot create BOs\n");
      return 1;
   }

   /* Chain: write-value (zero) -> fragment. */
   memset(color.cpu, 0xcd, color.size_B);
   memset(desc.cpu, 0, desc.size_B);
   memset(jobs.cpu, 0, jobs.size_B);
   uint64_t target = color.va + W * H * 4;
   uint64_t fbd = emit_fb(desc.cpu, desc.va, color.va);
   uint8_t *frag = jobs.cpu + 256;
   header(frag, MALI_JOB_TYPE_FRAGMENT, 0);
   pan_section_pack(frag, fragment_job, payload, cfg) {
      cfg.bound_max_x = (W - 1) / 16;
      cfg.bound_max_y = (H - 1) / 16;
      cfg.framebuffer = fbd;
   }
   header(jobs.cpu, MALI_JOB_TYPE_WRITE_VALUE, jobs.va + 256);
   pan_section_pack(jobs.cpu, write_value_job, payload, cfg) {
      cfg.address = target;
      cfg.type = MALI_WRITE_VALUE_TYPE_ZERO;
   }

   uint32_t handles[] = {jobs.handle, desc.handle, color.handle};
   struct drm_panfrost_submit submit = {
      .jc = jobs.va,
      .bo_handles = (uintptr_t)handles,
      .bo_handle_count = 3,
   };
   int ret = drmIoctl(fd, DRM_IOCTL_PANFROST_SUBMIT, &submit);
   PAN_CHECK(ret == 0, "submit: %d", ret);

   unsigned bad = 0;
   for (unsigned i = 0; i < W * H; ++i) {
      static const uint8_t want[4] = {0x10, 0x20, 0x40, 0x80};
      for (unsigned c = 0; c < 4; ++c)
         bad += color.cpu[4 * i + c] != (exec ? want[c] : 0xcd);
   }
   PAN_CHECK(bad == 0, "%u colour bytes wrong (execution %s)", bad,
             exec ? "on" : "off");
   for (unsigned i = 0; i < 8; ++i)
      bad += color.cpu[W * H * 4 + i] != (exec ? 0 : 0xcd);
   PAN_CHECK(bad == 0, "write-value target (execution %s)",
             exec ? "on" : "off");

   pan_unpack(jobs.cpu, job_header, h0);
   pan_unpack(frag, job_header, h1);
   unsigned want_status = exec ? 1 : 0;
   PAN_CHECK(h0.exception_status == want_status &&
                h1.exception_status == want_status,
             "job status %u/%u, want %u", h0.exception_status,
             h1.exception_status, want_status);

   close(fd);
   return pan_test_summary("pan_shim_exec_submit_" PAN_ARCH_NAME);
}
