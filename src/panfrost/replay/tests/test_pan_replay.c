/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The replay library on a hand-built dump (v7, compiled with -DPAN_ARCH=7):
 * a clear-only fragment job over two colour targets (linear RGBA8, and
 * u-interleaved with a BGRA swizzle) and a D24S8 buffer, serialized, parsed back, replayed;
 * the PNGs are decoded here and every pixel checked, as is the buffer file.
 * A two-job chain replayed with max_jobs 1 must stop after the first job.
 * Malformed binary and text dumps must give errors (and, under ASan, leak
 * nothing).
 */

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "pan_genxml.h"
#include "pan_replay.h"
#include "util/pan_test_util.h"

#define W 32
#define H 16
#define REGION_B (64 << 10)

enum { R_JOBS, R_DESC, R_BUF, R_COUNT };
static const uint64_t region_va[R_COUNT] = { 0x10000000, 0x10100000,
                                             0x10200000 };
static uint8_t *mem[R_COUNT];
static uint64_t used[R_COUNT];

static uint64_t
alloc(unsigned r, uint64_t size_B, void **cpu)
{
   uint64_t off = (used[r] + 63) & ~63ull;
   used[r] = off + size_B;
   *cpu = mem[r] + off;
   return region_va[r] + off;
}

static void
header(void *job, unsigned type, unsigned index, uint64_t next)
{
   pan_pack(job, job_header, cfg) {
      cfg.is_64b = true;
      cfg.type = type;
      cfg.index = index;
      cfg.next = next;
   }
}

/* Two targets cleared to R 0x99, G 0x66, B 0x33, A 0xff and a D24S8
 * buffer to depth 1.0, stencil 0x55; returns the
 * fragment job (after a write-value job when two_jobs). */
static uint64_t
build_frame(bool two_jobs)
{
   void *p, *fb, *job;
   uint64_t buf0 = alloc(R_BUF, W * H * 4, &p);
   uint64_t buf1 = alloc(R_BUF, 2 * 256 * 4 * 2, &p);
   uint64_t zs = alloc(R_BUF, W * H * 4, &p);
   uint64_t fbd = alloc(R_DESC,
                        pan_size(framebuffer) + pan_size(zs_crc_extension) +
                           2 * pan_size(render_target),
                        &fb);

   pan_section_pack(fb, framebuffer, parameters, cfg) {
      cfg.width = W;
      cfg.height = H;
      cfg.bound_max_x = W - 1;
      cfg.bound_max_y = H - 1;
      cfg.sample_count = 1;
      cfg.effective_tile_size = 256;
      cfg.color_buffer_allocation = 1024;
      cfg.render_target_count = 2;
      cfg.has_zs_crc_extension = true;
      cfg.z_write_enable = true;
      cfg.s_write_enable = true;
      cfg.z_clear = 1.0f;
      cfg.s_clear = 0x55;
   }
   uint8_t *ext = (uint8_t *)fb + pan_size(framebuffer);
   pan_pack(ext, zs_crc_extension, cfg) {
      cfg.zs_write_format = MALI_ZS_FORMAT_D24S8;
      cfg.zs_block_format = MALI_BLOCK_FORMAT_LINEAR;
      cfg.linear.zs_writeback_base = zs;
      cfg.linear.zs_writeback_row_stride = W * 4;
   }
   uint8_t *rt = ext + pan_size(zs_crc_extension);
   for (unsigned i = 0; i < 2; ++i, rt += pan_size(render_target)) {
      pan_pack(rt, render_target, cfg) {
         cfg.internal_format = MALI_COLOR_BUFFER_INTERNAL_FORMAT_R8G8B8A8;
         cfg.write_enable = true;
         cfg.writeback_format = MALI_COLOR_FORMAT_R8G8B8A8;
         cfg.writeback_block_format = i ? MALI_BLOCK_FORMAT_TILED_U_INTERLEAVED
                                        : MALI_BLOCK_FORMAT_LINEAR;
         cfg.swizzle =
            i ? (2 | 1 << 3 | 0 << 6 | 3 << 9) : (0 | 1 << 3 | 2 << 6 | 3 << 9);
         cfg.rgb.base = i ? buf1 : buf0;
         cfg.rgb.row_stride_B = i ? 2 * 256 * 4 : W * 4;
         cfg.clear.color_0 = 0xff336699;
      }
   }

   uint64_t frag = alloc(R_JOBS, pan_size(fragment_job), &job);
   header(job, MALI_JOB_TYPE_FRAGMENT, two_jobs ? 2 : 1, 0);
   pan_section_pack(job, fragment_job, payload, cfg) {
      cfg.bound_max_x = (W - 1) / 16;
      cfg.bound_max_y = (H - 1) / 16;
      cfg.framebuffer = fbd | MALI_FBD_TAG_IS_MFBD | MALI_FBD_TAG_HAS_ZS_RT;
   }
   if (!two_jobs)
      return frag;

   uint64_t target = alloc(R_BUF, 8, &p);
   uint64_t wv = alloc(R_JOBS, pan_size(write_value_job), &job);
   header(job, MALI_JOB_TYPE_WRITE_VALUE, 1, frag);
   pan_section_pack(job, write_value_job, payload, cfg) {
      cfg.address = target;
      cfg.type = MALI_WRITE_VALUE_TYPE_IMMEDIATE_32;
      cfg.immediate_value = 0x1234;
   }
   return wv;
}

/* The dump of a fresh space holding the frame, through the file format. */
static bool
make_dump(bool two_jobs, struct pan_dump *out)
{
   struct pan_sim_region regions[R_COUNT];
   for (unsigned i = 0; i < R_COUNT; ++i) {
      memset(mem[i], 0, REGION_B);
      used[i] = 0;
      regions[i] = (struct pan_sim_region){ .gpu_va = region_va[i],
                                            .size_B = REGION_B,
                                            .cpu = mem[i],
                                            .name = "test" };
   }
   struct pan_dump d = { .gpu_id = 0x7212,
                         .arch = 7,
                         .chain_count = 1,
                         .chains = { build_frame(two_jobs) },
                         .maps = regions,
                         .map_count = R_COUNT,
                         .zero_fill = true };
   size_t size_B;
   uint8_t *bytes = pan_dump_serialize(&d, &size_B);
   char err[256];
   int ret = bytes ? pan_dump_parse(bytes, size_B, out, err, sizeof(err)) : -1;
   PAN_CHECK(ret == 0, "parse of a serialized dump: %s", bytes ? err : "");

   /* Truncated anywhere, the same bytes must be refused. */
   for (size_t cut = 0; bytes && cut < size_B; cut += size_B / 7 + 1) {
      struct pan_dump bad;
      PAN_CHECK(pan_dump_parse(bytes, cut, &bad, err, sizeof(err)) != 0,
                "a dump cut to %zu of %zu bytes parsed", cut, size_B);
   }
   free(bytes);
   return ret == 0;
}

static uint8_t *
read_all(const char *path, size_t *size_B)
{
   char err[256];
   return pan_dump_slurp(path, size_B, err, sizeof(err));
}

/* Decode our own PNGs (RGBA8, filter 0) and check every pixel. */
static void
check_png(const char *path, const uint8_t want[4])
{
   size_t size_B;
   uint8_t *png = read_all(path, &size_B);
   PAN_CHECK(png != NULL, "%s was not written", path);
   if (!png)
      return;
   PAN_CHECK(size_B > 33 && !memcmp(png + 1, "PNG", 3) &&
                !memcmp(png + 12, "IHDR", 4),
             "%s: not a PNG", path);
   unsigned w = png[16] << 24 | png[17] << 16 | png[18] << 8 | png[19];
   unsigned h = png[20] << 24 | png[21] << 16 | png[22] << 8 | png[23];
   PAN_CHECK(w == W && h == H && png[24] == 8 && png[25] == 6,
             "%s: %ux%u, depth %u, colour type %u", path, w, h, png[24],
             png[25]);
   size_t idat_len =
      (size_t)png[33] << 24 | png[34] << 16 | png[35] << 8 | png[36];
   uLongf raw_B = (uLongf)H * (1 + 4 * W);
   uint8_t *raw = malloc(raw_B);
   bool ok = !memcmp(png + 37, "IDAT", 4) && 41 + idat_len <= size_B &&
             uncompress(raw, &raw_B, png + 41, idat_len) == Z_OK &&
             raw_B == (uLongf)H * (1 + 4 * W);
   PAN_CHECK(ok, "%s: the image data does not inflate", path);
   unsigned bad = 0;
   for (unsigned y = 0; ok && y < H; ++y) {
      const uint8_t *row = raw + y * (1 + 4 * W);
      bad += row[0] != 0;
      for (unsigned x = 0; x < W; ++x)
         bad += memcmp(row + 1 + 4 * x, want, 4) != 0;
   }
   PAN_CHECK(bad == 0, "%s: %u pixels differ", path, bad);
   free(raw);
   free(png);
}

static void
test_replay(const char *dir)
{
   static const uint8_t rgba[4] = { 0x99, 0x66, 0x33, 0xff };
   struct pan_dump d;
   char *report = NULL;
   size_t report_B = 0;

   if (!make_dump(false, &d))
      return;
   FILE *rep = open_memstream(&report, &report_B);
   const struct pan_replay_opts o = {
      .dir = dir, .prefix = "clear", .report = rep, .log = stdout
   };
   struct pan_replay_result r;
   int ret = pan_replay_dump(&d, &o, &r);
   fclose(rep);
   PAN_CHECK(ret == 0 && !r.faulted && r.jobs == 1,
             "replay: ret %d, faulted %d, %u jobs: %s", ret, r.faulted, r.jobs,
             r.err);
   /* Two PNGs, the depth/stencil texels and the changed buffer pages
    * (of the surfaces and of the jobs: the job header's status). */
   PAN_CHECK(r.files == 5, "replay wrote %u files:\n%s", r.files, report);
   PAN_CHECK(report && strstr(report, "job 1 fragment @ 0x10000") &&
                strstr(report, "-frag0-rt1.png"),
             "report:\n%s", report);

   char path[512];
   for (unsigned i = 0; i < 2; ++i) {
      snprintf(path, sizeof(path), "%s/clear-frag0-rt%u.png", dir, i);
      check_png(path, rgba);
      unlink(path);
   }
   snprintf(path, sizeof(path), "%s/clear-frag0-zs.bin", dir);
   size_t size_B;
   uint8_t *buf = read_all(path, &size_B);
   unsigned bad = 0;
   for (size_t i = 0; buf && size_B == W * H * 4 && i < size_B; i += 4) {
      static const uint8_t zs[4] = {0xff, 0xff, 0xff, 0x55};
      bad += memcmp(buf + i, zs, 4) != 0;
   }
   PAN_CHECK(buf && size_B == W * H * 4 && !bad,
             "%s: %zu bytes, %u texels differ", path, buf ? size_B : 0, bad);
   free(buf);
   unlink(path);

   snprintf(path, sizeof(path), "%s/clear-buf-%016llx.bin", dir,
            (unsigned long long)region_va[R_BUF]);
   buf = read_all(path, &size_B);
   /* The changed pages only (the images lie in the first two); RT0 is
    * linear, so its first texel starts them. */
   PAN_CHECK(buf && size_B == 2 * 4096 && !memcmp(buf, rgba, 4),
             "%s: the cleared buffer (%zu bytes)", path, buf ? size_B : 0);
   free(buf);
   unlink(path);
   snprintf(path, sizeof(path), "%s/clear-buf-%016llx.bin", dir,
            (unsigned long long)region_va[R_JOBS]);
   unlink(path);
   free(report);
   pan_dump_fini(&d);

   /* Stopping after the first job: the fragment job never runs. */
   if (!make_dump(true, &d))
      return;
   const struct pan_replay_opts o1 = {
      .dir = dir, .prefix = "stop", .log = stdout, .max_jobs = 1
   };
   ret = pan_replay_dump(&d, &o1, &r);
   PAN_CHECK(ret == 0 && r.jobs == 1, "max_jobs 1: ret %d, %u jobs", ret,
             r.jobs);
   snprintf(path, sizeof(path), "%s/stop-frag0-rt0.png", dir);
   PAN_CHECK(access(path, F_OK) != 0, "%s written after the stop", path);
   for (unsigned i = 0; i < R_COUNT; ++i) {
      snprintf(path, sizeof(path), "%s/stop-buf-%016llx.bin", dir,
               (unsigned long long)region_va[i]);
      unlink(path);
   }
   pan_dump_fini(&d);
}

static void
expect_text_error(const char *text, const char *want)
{
   struct pan_dump *dumps = (struct pan_dump *)1;
   unsigned count = 1;
   char err[256] = "";
   int ret = pan_dump_text_parse(text, strlen(text), "t.dump", 0x7212, 7,
                                 &dumps, &count, err, sizeof(err));
   PAN_CHECK(ret == -1 && !dumps && !count && strstr(err, want),
             "text dump \"%.40s...\": ret %d, error \"%s\", wanted \"%s\"",
             text, ret, err, want);
}

#define HDR "Job Header (10000040):\n  trace\n"
#define BUF "Buffer: memory_10000000 gpu 10000000\n\n"

static void
test_text(void)
{
   /* A good one: two submits, zero runs, a short last line. */
   const char *good =
      HDR BUF "000000  01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 10 \n"
              "000010  *\n"
              "000040  AA BB \n\n"
              "Buffer: x y gpu 10002000\n\n000000  *\n\n"
              "Job Header (10000080):\n" BUF "000000  FF \n\n";
   struct pan_dump *dumps;
   unsigned count;
   char err[256];
   int ret = pan_dump_text_parse(good, strlen(good), "good", 0x7212, 7, &dumps,
                                 &count, err, sizeof(err));
   PAN_CHECK(ret == 0 && count == 2, "good text dump: %d, %u: %s", ret, count,
             ret ? err : "");
   if (!ret && count == 2) {
      const struct pan_dump *d = &dumps[0];
      const uint8_t *m = d->maps[0].cpu;
      PAN_CHECK(d->chains[0] == 0x10000040 && dumps[1].chains[0] == 0x10000080,
                "chain addresses");
      PAN_CHECK(d->maps[0].gpu_va == 0x10000000 && d->maps[0].size_B == 4096 &&
                   m[0] == 1 && m[15] == 0x10 && m[16] == 0 &&
                   m[0x40] == 0xaa && m[0x41] == 0xbb && m[0x42] == 0,
                "the first buffer's bytes");
      PAN_CHECK(!strcmp(d->maps[1].name, "x y") &&
                   d->maps[1].gpu_va == 0x10002000,
                "a name with spaces");
      /* The gap between the buffers is backed with zeros. */
      struct pan_sim_space s = pan_dump_space(d);
      PAN_CHECK(pan_sim_read(&s, 0x10001000, 16, 0, "gap", NULL) != NULL,
                "the gap is not mapped");
   }
   pan_dump_free_array(dumps, ret ? 0 : count);

   expect_text_error("", "t.dump:1: no job chain trace");
   expect_text_error("hello\nworld\n", "t.dump:3: no job chain trace");
   expect_text_error(BUF "000000  00 \n", "t.dump:1: buffer dump before");
   expect_text_error("Job Header (zz):\n", "t.dump:1: expected \"Job Header");
   expect_text_error(HDR "Buffer: nogpu 1000\n",
                     "t.dump:3: expected \"Buffer:");
   expect_text_error(HDR BUF "000000  0G \n", "t.dump:5: malformed byte");
   expect_text_error(HDR BUF "000000  00 11\n000010  22 \n",
                     "t.dump:6: hexdump line after a short line");
   expect_text_error(HDR BUF "000000  00 01 02 03 04 05 06 07 08 09 0A 0B 0C "
                             "0D 0E 0F \n000020  00 \n",
                     "t.dump:6: hexdump offset 0x20 where 0x10");
   expect_text_error(HDR BUF "garbage line\n", "t.dump:5: expected a hexdump");
   expect_text_error(HDR BUF "000000  00 \n\n" BUF "000000  00 \n", "overlaps");
   expect_text_error(HDR "  trace only\n", "has no buffer dump");
   expect_text_error(HDR BUF "000000  *\nFFFFFFFFFF0  00 \n", "too large");
   expect_text_error(HDR BUF "\n\n", "has no bytes");
   const char nul[] = HDR "a\0b\n";
   struct pan_dump *d2;
   PAN_CHECK(pan_dump_text_parse(nul, sizeof(nul) - 1, "n", 0x7212, 7, &d2,
                                 &count, err, sizeof(err)) == -1 &&
                strstr(err, "n:3: NUL byte"),
             "NUL bytes: %s", err);
}

int
main(void)
{
   char dir[] = "/tmp/pan-replay-test.XXXXXX";

   for (unsigned i = 0; i < R_COUNT; ++i)
      mem[i] = malloc(REGION_B);
   if (!mkdtemp(dir)) {
      perror("mkdtemp");
      return 2;
   }
   test_replay(dir);
   test_text();
   rmdir(dir);
   for (unsigned i = 0; i < R_COUNT; ++i)
      free(mem[i]);
   return pan_test_summary("pan_replay");
}
