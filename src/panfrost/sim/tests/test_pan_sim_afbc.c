/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * AFBC in the simulator (compiled with -DPAN_ARCH=6, 7 or 9): the header
 * and payload format of pan_sim_afbc.h against hand-built bytes, a
 * fragment job clearing an AFBC render target read back through
 * pan_sim_image (v6 names AFBC with its own block format value and has no
 * tiled headers), and malformed headers refused with a message.
 */

#include <stdlib.h>
#include <string.h>

#include "pan_genxml.h"
#include "pan_sim.h"
#include "pan_sim_afbc.h"
#include "util/pan_test_util.h"

/* The 6-bit size 1 ("uncompressed") in all sixteen subblocks: bytes 4-15
 * of a header. */
static const uint8_t all_ones[12] = {0x41, 0x10, 0x04, 0x41, 0x10, 0x04,
                                     0x41, 0x10, 0x04, 0x41, 0x10, 0x04};

static uint32_t
le32(const uint8_t *p)
{
   return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Positions: plain, tiled and wide superblocks. */
static void
test_positions(void)
{
   struct pan_sim_afbc a = {.sb_per_row = 16, .el_B = 4};
   struct pan_sim_afbc_pos p;

   pan_sim_afbc_pos(&a, 5, 6, &p);
   PAN_EXPECT_EQ(p.index, 0);
   PAN_EXPECT_EQ(p.sub, 5); /* row 1 of subblocks, column 1 */
   PAN_EXPECT_EQ(p.in, 9);  /* row 2, column 1 */
   pan_sim_afbc_pos(&a, 16 * 9 + 15, 16 * 2, &p);
   PAN_EXPECT_EQ(p.index, 2 * 16 + 9);
   PAN_EXPECT_EQ(p.sub, 3);
   PAN_EXPECT_EQ(p.in, 3);

   /* Tiled: 8x8-superblock header tiles, two per row of 16. */
   a.tiled = true;
   pan_sim_afbc_pos(&a, 16 * 9, 16 * 1, &p);
   PAN_EXPECT_EQ(p.index, 64 + 1 * 8 + 1);
   pan_sim_afbc_pos(&a, 16 * 2, 16 * 10, &p);
   PAN_EXPECT_EQ(p.index, 2 * 64 + 2 * 8 + 2);
   PAN_EXPECT_EQ(pan_sim_afbc_sb_per_row(&a, 2 * 64 * 16), 16);

   /* Wide 32x8: eight subblocks a row. */
   a.tiled = false;
   a.wide = true;
   pan_sim_afbc_pos(&a, 40, 7, &p);
   PAN_EXPECT_EQ(p.index, 1);
   PAN_EXPECT_EQ(p.sub, 8 + 2);
   PAN_EXPECT_EQ(p.in, 12);
   PAN_EXPECT_EQ(pan_sim_afbc_sb_per_row(&a, 16 * 16), 16);
}

/* A 32x16 RGBA8 surface: two 16x16 superblocks, headers then bodies. */
#define BODY_OFF 64
#define SURF_B (BODY_OFF + 2 * 1024)

/* Store every pixel of superblock 1 and read it back; the header and
 * payload bytes are the documented ones; superblock 0 (solid colour) is
 * untouched. */
static void
test_round_trip(void)
{
   static uint8_t buf[SURF_B];
   struct pan_sim_afbc a = {.sb_per_row = 2, .el_B = 4};
   struct pan_sim_afbc_buf b = {buf, SURF_B, BODY_OFF};
   const uint8_t mask[4] = {0xff, 0xff, 0xff, 0xff};
   char err[PAN_SIM_AFBC_ERR_LEN];

   memset(buf, 0, sizeof(buf));
   /* Superblock 0: solid colour 11 22 33 44. */
   buf[8] = 0x11, buf[9] = 0x22, buf[10] = 0x33, buf[11] = 0x44;
   for (unsigned y = 0; y < 16; ++y) {
      for (unsigned x = 16; x < 32; ++x) {
         uint8_t px[4] = {(uint8_t)x, (uint8_t)y, 0xa5, 0x5a};
         PAN_CHECK(pan_sim_afbc_store(&a, &b, x, y, px, mask, err), "%s", err);
      }
   }
   PAN_EXPECT_EQ(le32(buf + 16), BODY_OFF + 1024);
   PAN_CHECK(!memcmp(buf + 20, all_ones, 12), "subblock sizes");
   /* Pixel (21, 6): subblock 5, pixel 9. */
   const uint8_t *p = buf + BODY_OFF + 1024 + (5 * 16 + 9) * 4;
   PAN_CHECK(p[0] == 21 && p[1] == 6 && p[2] == 0xa5 && p[3] == 0x5a,
             "payload of (21, 6): %02x %02x", p[0], p[1]);
   for (unsigned y = 0; y < 16; ++y) {
      for (unsigned x = 0; x < 32; ++x) {
         const uint8_t *q = pan_sim_afbc_pixel(&a, &b, x, y, err);
         PAN_CHECK(q, "%s", err);
         if (!q)
            return;
         uint32_t want = x < 16 ? 0x44332211u
                                : (uint32_t)x | y << 8 | 0x5aa50000u;
         PAN_CHECK(le32(q) == want, "(%u, %u): %08x, want %08x", x, y,
                   le32(q), want);
      }
   }
   PAN_EXPECT_EQ(le32(buf), 0); /* superblock 0 still solid */

   /* One masked pixel into the solid superblock: it is rewritten
    * uncompressed, its other pixels keep the solid colour. */
   const uint8_t px[4] = {0xee, 0xee, 0xee, 0xee};
   const uint8_t half[4] = {0xff, 0, 0, 0};
   PAN_CHECK(pan_sim_afbc_store(&a, &b, 3, 2, px, half, err), "%s", err);
   PAN_EXPECT_EQ(le32(buf), BODY_OFF);
   PAN_EXPECT_EQ(le32(pan_sim_afbc_pixel(&a, &b, 3, 2, err)), 0x443322eeu);
   PAN_EXPECT_EQ(le32(pan_sim_afbc_pixel(&a, &b, 15, 15, err)), 0x44332211u);
}

/* Malformed headers: clear messages, no access outside the buffer. */
static void
test_malformed(void)
{
   uint8_t *buf = calloc(1, SURF_B);
   struct pan_sim_afbc a = {.sb_per_row = 2, .el_B = 4};
   struct pan_sim_afbc_buf b = {buf, SURF_B, BODY_OFF};
   const uint8_t mask[4] = {0xff, 0xff, 0xff, 0xff};
   char err[PAN_SIM_AFBC_ERR_LEN] = "";

   /* Payload past the end. */
   buf[0] = 0xf0, buf[1] = 0xff;
   memcpy(buf + 4, all_ones, 12);
   PAN_CHECK(!pan_sim_afbc_pixel(&a, &b, 0, 0, err), "offset past the end");
   PAN_CHECK(strstr(err, "outside the body"), "message: %s", err);
   /* Payload inside the headers. */
   buf[0] = 16, buf[1] = 0;
   PAN_CHECK(!pan_sim_afbc_pixel(&a, &b, 0, 0, err), "offset in headers");
   /* A compressed subblock. */
   buf[0] = BODY_OFF;
   buf[4] = 0x45; /* subblock 0: size 5 */
   PAN_CHECK(!pan_sim_afbc_pixel(&a, &b, 0, 0, err), "compressed");
   PAN_CHECK(strstr(err, "compressed"), "message: %s", err);
   /* A store into such a superblock fails before writing. */
   PAN_CHECK(!pan_sim_afbc_store(&a, &b, 1, 1, mask, mask, err), "store");
   PAN_EXPECT_EQ(buf[BODY_OFF], 0);
   /* A pixel whose header is past the buffer. */
   PAN_CHECK(!pan_sim_afbc_pixel(&a, &b, 0, 16 * 200, err), "header");
   PAN_CHECK(strstr(err, "outside"), "message: %s", err);
   /* Solid colour of a 16-byte format cannot be held. */
   struct pan_sim_afbc wide_px = {.sb_per_row = 2, .el_B = 16};
   memset(buf, 0, 16);
   PAN_CHECK(!pan_sim_afbc_pixel(&wide_px, &b, 0, 0, err), "solid 16B");
   free(buf);
}

/* ---- a fragment job clearing an AFBC render target ---- */

static uint8_t *mem;
#define MEM_VA 0x10000000ull
#define MEM_B (1u << 20)

struct seen {
   unsigned images;
   uint8_t rgba[64 * 48 * 4];
};

static void
on_image(void *data, const struct pan_sim_image *img)
{
   struct seen *s = data;
   if (img->kind == PAN_SIM_IMAGE_COLOR && img->w * img->h <= 64 * 48 &&
       pan_sim_image_rgba8(img, 0, s->rgba))
      s->images++;
}

/* 48x32 frame (3x2 superblocks, tiled headers on request), RGBA8 cleared
 * to 0x80402010; the surface starts as solid colours but for a garbage
 * superblock when `bad` is set. */
static int
run_clear(bool tiled, bool bad, struct seen *seen)
{
   uint64_t fb_va = MEM_VA, job_va = MEM_VA + 0x400, surf = MEM_VA + 0x1000;
   unsigned sb_per_row = tiled ? 8 : 3, rows = tiled ? 8 : 2;
   uint64_t body_off = (uint64_t)sb_per_row * rows * 16;
   uint8_t *p = mem;

   memset(mem, 0, MEM_B);
   if (bad) {
      mem[0x1000 + 16] = 0xff, mem[0x1000 + 17] = 0xff, mem[0x1000 + 18] = 0x7f;
      memcpy(mem + 0x1000 + 20, all_ones, 12);
   }
   pan_section_pack(p, framebuffer, parameters, cfg) {
      cfg.width = 48;
      cfg.height = 32;
      cfg.bound_max_x = 47;
      cfg.bound_max_y = 31;
      cfg.sample_count = 1;
      cfg.effective_tile_size = 256;
      cfg.color_buffer_allocation = 1024;
      cfg.render_target_count = 1;
   }
   pan_pack(p + pan_size(framebuffer), render_target, cfg) {
      cfg.internal_format = MALI_COLOR_BUFFER_INTERNAL_FORMAT_R8G8B8A8;
      cfg.write_enable = true;
      cfg.writeback_format = MALI_COLOR_FORMAT_R8G8B8A8;
#if PAN_ARCH >= 7
      cfg.writeback_block_format =
         tiled ? MALI_BLOCK_FORMAT_AFBC_TILED : MALI_BLOCK_FORMAT_AFBC;
#else
      cfg.writeback_block_format = MALI_BLOCK_FORMAT_AFBC;
#endif
      cfg.swizzle = 0 | 1 << 3 | 2 << 6 | 3 << 9;
      cfg.afbc.header = surf;
#if PAN_ARCH >= 9
      cfg.afbc.row_stride_B = tiled ? sb_per_row / 8 * 64 * 16 : sb_per_row * 16;
      cfg.afbc.body_offset = body_off;
#else
      cfg.afbc.row_stride_B = sb_per_row;
      cfg.afbc.body = surf + body_off;
#endif
      cfg.clear.color_0 = 0x80402010;
   }
   pan_pack(mem + 0x400, job_header, cfg) {
#if PAN_ARCH <= 7
      cfg.is_64b = true;
#endif
      cfg.type = MALI_JOB_TYPE_FRAGMENT;
      cfg.index = 1;
   }
   pan_section_pack(mem + 0x400, fragment_job, payload, cfg) {
      cfg.bound_max_x = 2;
      cfg.bound_max_y = 1;
      cfg.framebuffer = fb_va | MALI_FBD_TAG_IS_MFBD;
   }
   struct pan_sim_region r = {MEM_VA, MEM_B, mem, "test", true};
   struct pan_sim_space space = {&r, 1};
   struct pan_sim_run_opts opts = {.on_image = on_image, .data = seen};
   FILE *log = fopen("/dev/null", "w");
   opts.log = log;
   memset(seen, 0, sizeof(*seen));
   int rc = pan_sim_run_chain_opts(PAN_ARCH, &space, job_va, &opts, NULL);
   fclose(log);
   return rc;
}

static void
test_clear(void)
{
   static struct seen seen;

   mem = malloc(MEM_B);
   /* Tiled headers arrived with v7. */
   for (unsigned tiled = 0; tiled < (PAN_ARCH >= 7 ? 2 : 1); ++tiled) {
      PAN_EXPECT_EQ(run_clear(tiled, false, &seen), 0);
      PAN_EXPECT_EQ(seen.images, 1);
      unsigned bad = 0;
      for (unsigned i = 0; i < 48 * 32; ++i)
         bad += le32(seen.rgba + 4 * i) != 0x80402010u;
      PAN_CHECK(bad == 0, "tiled %u: %u pixels read back wrong", tiled, bad);
      /* Superblock (1, 1)'s header: tiled index 9, plain index 4. */
      unsigned idx = tiled ? 9 : 4;
      unsigned sb_per_row = tiled ? 8 : 3, rows = tiled ? 8 : 2;
      uint32_t body_off = sb_per_row * rows * 16;
      const uint8_t *h = mem + 0x1000 + idx * 16;
      PAN_EXPECT_EQ(le32(h), body_off + idx * 1024);
      PAN_CHECK(!memcmp(h + 4, all_ones, 12), "tiled %u: sizes", tiled);
      PAN_EXPECT_EQ(le32(mem + 0x1000 + body_off + idx * 1024 + 4 * 77),
                    0x80402010u);
   }
   /* A garbage header faults the job (the superblock cannot be kept). */
   PAN_CHECK(run_clear(false, true, &seen) != 0, "garbage header ran");
   free(mem);
}

int
main(void)
{
   PAN_RUN_CASE(test_positions);
   PAN_RUN_CASE(test_round_trip);
   PAN_RUN_CASE(test_malformed);
   PAN_RUN_CASE(test_clear);
   return pan_test_summary("pan_sim_afbc");
}
