/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The simulator's job executors on an in-memory address space, for one architecture
 * (compiled with -DPAN_ARCH=N). Frames are packed with the genxml packers;
 * memory starts random, and after each run every byte of every region is
 * compared with a reference computed here: the expected pixels are known
 * answers written out by hand, placed with this file's own u-interleaved
 * formula. Malformed chains must fault without writing anything.
 */

#include <stdlib.h>
#include <string.h>

#include "pan_genxml.h"
#include "pan_sim.h"
#include "util/pan_test_util.h"

/* ---- the address space ---- */

enum { R_JOBS, R_DESC, R_BUF, R_COUNT };

static const uint64_t region_va[R_COUNT] = {0x10000000, 0x10100000,
                                            0x10200000};
static const uint64_t region_size[R_COUNT] = {64 << 10, 64 << 10, 2 << 20};

static struct pan_sim_region regions[R_COUNT];
static uint8_t *mem[R_COUNT];
static uint8_t *expect[R_COUNT];
static uint64_t used[R_COUNT];
static uint64_t rng = 0x5eed5eed1234ull;

static void
space_reset(void)
{
   for (unsigned i = 0; i < R_COUNT; ++i) {
      if (!mem[i]) {
         mem[i] = malloc(region_size[i]);
         expect[i] = malloc(region_size[i]);
      }
      regions[i].gpu_va = region_va[i];
      regions[i].size_B = region_size[i];
      regions[i].cpu = mem[i];
      regions[i].writable = true;
      pan_test_fill_random(&rng, mem[i], region_size[i]);
      used[i] = 0;
   }
}

static uint64_t
alloc(unsigned r, uint64_t size_B, unsigned align_B, void **cpu)
{
   uint64_t off = (used[r] + align_B - 1) & ~(uint64_t)(align_B - 1);

   if (off + size_B > region_size[r]) {
      fprintf(stderr, "test: region %u full\n", r);
      exit(2);
   }
   used[r] = off + size_B;
   if (cpu)
      *cpu = mem[r] + off;
   return region_va[r] + off;
}

static uint8_t *
cpu_of(uint64_t va)
{
   for (unsigned i = 0; i < R_COUNT; ++i) {
      if (va >= region_va[i] && va < region_va[i] + region_size[i])
         return mem[i] + (va - region_va[i]);
   }
   return NULL;
}

/* Snapshot after packing: the reference starts from here. */
static void
snapshot(void)
{
   for (unsigned i = 0; i < R_COUNT; ++i)
      memcpy(expect[i], mem[i], region_size[i]);
}

static uint8_t *
expect_of(uint64_t va)
{
   for (unsigned i = 0; i < R_COUNT; ++i) {
      if (va >= region_va[i] && va < region_va[i] + region_size[i])
         return expect[i] + (va - region_va[i]);
   }
   abort();
}

/* Compare every byte of the surfaces region; return the mismatch count. */
static unsigned
compare_buffers(const char *what)
{
   unsigned bad = 0;
   const uint8_t *got = mem[R_BUF];

   for (uint64_t i = 0; i < region_size[R_BUF]; ++i) {
      if (got[i] != expect[R_BUF][i] && bad++ < 4)
         fprintf(stderr, "  %s: byte 0x%llx: got %02x want %02x\n", what,
                 (unsigned long long)(region_va[R_BUF] + i), got[i],
                 expect[R_BUF][i]);
   }
   PAN_CHECK(bad == 0, "%s: %u bytes differ", what, bad);
   return bad;
}

static int
run(uint64_t jc, struct pan_sim_stats *st)
{
   struct pan_sim_space space = {regions, R_COUNT};
   return pan_sim_run_chain(PAN_ARCH, &space, jc, stdout, st);
}

static unsigned
job_status(uint64_t job_va)
{
   pan_unpack(cpu_of(job_va), job_header, h);
   return h.exception_status;
}

/* ---- the reference model ---- */

/* Index of (x, y) inside a 16x16 tile: bit pairs, from the least
 * significant, (x0 ^ y0, y0), (x1 ^ y1, y1), ...
 */
static unsigned
uil_index(unsigned x, unsigned y)
{
   unsigned i = 0;
   for (unsigned b = 0; b < 4; ++b) {
      i |= (((x >> b) ^ (y >> b)) & 1) << (2 * b);
      i |= ((y >> b) & 1) << (2 * b + 1);
   }
   return i;
}

struct ref_image {
   uint64_t va;
   bool tiled;
   uint32_t stride_B;
   unsigned el_B;
};

static uint64_t
ref_offset(const struct ref_image *im, unsigned x, unsigned y)
{
   if (!im->tiled)
      return (uint64_t)y * im->stride_B + (uint64_t)x * im->el_B;
   return (uint64_t)(y / 16) * im->stride_B + (x / 16) * 256 * im->el_B +
          uil_index(x % 16, y % 16) * im->el_B;
}

/* Expected bytes over [x0, x1] x [y0, y1]; mask bit set = written. */
static void
ref_fill(const struct ref_image *im, unsigned x0, unsigned y0, unsigned x1,
         unsigned y1, const uint8_t *bytes, const uint8_t *mask)
{
   for (unsigned y = y0; y <= y1; ++y) {
      for (unsigned x = x0; x <= x1; ++x) {
         uint8_t *p = expect_of(im->va + ref_offset(im, x, y));
         for (unsigned i = 0; i < im->el_B; ++i) {
            uint8_t m = mask ? mask[i] : 0xff;
            p[i] = (uint8_t)((p[i] & ~m) | (bytes[i] & m));
         }
      }
   }
}

/* An image of w x h pixels with some slack around rows and tiles, so
 * that stores outside the rectangle would be seen.
 */
static struct ref_image
new_image(unsigned w, unsigned h, unsigned el_B, bool tiled)
{
   struct ref_image im = {.tiled = tiled, .el_B = el_B};
   uint64_t size_B;

   if (tiled) {
      im.stride_B = ((w + 15) / 16 + 1) * 256 * el_B; /* one spare tile */
      size_B = (uint64_t)((h + 15) / 16) * im.stride_B;
   } else {
      im.stride_B = w * el_B + 24;
      size_B = (uint64_t)h * im.stride_B;
   }
   im.va = alloc(R_BUF, size_B + 64, 64, NULL);
   return im;
}

/* ---- packing ---- */

static void
header(void *job, unsigned type, unsigned index, uint64_t next)
{
   pan_pack(job, job_header, cfg) {
#if PAN_ARCH <= 7
      cfg.is_64b = true;
#endif
      cfg.type = type;
      cfg.index = index;
      cfg.next = next;
   }
}

static uint64_t
emit_fragment(uint64_t fbd, unsigned tx0, unsigned ty0, unsigned tx1,
              unsigned ty1, uint64_t next)
{
   void *job;
   uint64_t va = alloc(R_JOBS, pan_size(fragment_job),
                       pan_alignment(fragment_job), &job);
   header(job, MALI_JOB_TYPE_FRAGMENT, 1, next);
   pan_section_pack(job, fragment_job, payload, cfg) {
      cfg.bound_min_x = tx0;
      cfg.bound_min_y = ty0;
      cfg.bound_max_x = tx1;
      cfg.bound_max_y = ty1;
      cfg.framebuffer = fbd;
   }
   return va;
}

/* One colour target case: formats, clear words, known answer. */
struct rt_case {
   const char *name;
   unsigned tib, wb, swizzle;
   uint32_t clear[4];
   unsigned el_B;
   uint8_t want[16];
};

#define SWZ(a, b, c, d) ((a) | (b) << 3 | (c) << 6 | (d) << 9)
#define ID SWZ(0, 1, 2, 3)
#define TIB(x) MALI_COLOR_BUFFER_INTERNAL_FORMAT_##x
#define WB(x) MALI_COLOR_FORMAT_##x

#if PAN_ARCH == 4
#define RAW_TIB(n)  TIB(RAW_VALUE)
#define RAW32_WB    WB(1_32B_CHANNEL)
#define RAW64_WB    WB(2_32B_CHANNELS)
#define RAW128_WB   WB(4_32B_CHANNELS)
#else
#define RAW_TIB(n)  TIB(RAW##n)
#define RAW32_WB    WB(RAW32)
#define RAW64_WB    WB(RAW64)
#define RAW128_WB   WB(RAW128)
#endif

static const struct rt_case rt_cases[] = {
   {"rgba8", TIB(R8G8B8A8), WB(R8G8B8A8), ID, {0xff336699}, 4,
    {0x99, 0x66, 0x33, 0xff}},
   {"bgra8", TIB(R8G8B8A8), WB(R8G8B8A8), SWZ(2, 1, 0, 3), {0xff336699}, 4,
    {0x33, 0x66, 0x99, 0xff}},
   {"rgbx8 (one, zero)", TIB(R8G8B8A8), WB(R8G8B8A8), SWZ(0, 4, 2, 5),
    {0x00336699}, 4, {0x99, 0x00, 0x33, 0xff}},
   /* R 26.21, G 43.9, B 7.31, A 0.3 (fractions are dither bits) */
   {"rgb565 dithered", TIB(R5G6B5A0), WB(R5G6B5), SWZ(0, 1, 2, 4),
    {0xcffae755}, 2, {0x7a, 0x3d}},
   /* R 0xa.5, G 0x3.f, B 0xc.0, A 0x7.1 */
   {"rgba4", TIB(R4G4B4A4), WB(R4G4B4A4), ID, {0x71c03fa5}, 2, {0x3a, 0x7c}},
   /* R 0x3ff, G 0x155, B 0x0aa, A 2 */
   {"rgb10a2", TIB(R10G10B10A2), WB(R10G10B10A2), ID,
    {0x3ff | 0x155 << 10 | 0x0aa << 20 | 2u << 30}, 4,
    {0xff, 0x57, 0xa5, 0x8a}},
   /* R 0x11.3, G 0x0a.7, B 0x1f.0, A 1.1 -> 0x11 | 0x0a << 5 | 0x1f << 10 |
    * 1 << 15
    */
   {"rgb5a1", TIB(R5G5B5A1), WB(R5G5B5A1), ID,
    {(0x11 << 5 | 3) | (0x0a << 5 | 7) << 10 | (0x1f << 5) << 20 |
     (2u | 1) << 30}, 2, {0x51, 0xfd}},
   /* 8.2 internal, 3-byte memory (u-interleaved 3-byte pixels) */
   {"rgb8 from 8.2", TIB(R8G8B8A2), WB(R8G8B8), ID,
    {(0x12 << 2 | 1) | (0x34 << 2 | 2) << 10 | (0x56 << 2 | 3) << 20}, 3,
    {0x12, 0x34, 0x56}},
   {"r8 takes alpha", TIB(R8G8B8A8), WB(R8), SWZ(3, 4, 4, 4), {0x7f000000}, 1,
    {0x7f}},
   /* Depth changes round to nearest: 0x99 -> 19, 0x66 -> 25, 0x33 -> 6
    * (truncating would give 18 for red).
    */
   {"rgba8 to rgb565", TIB(R8G8B8A8), WB(R5G6B5), ID, {0xff336699}, 2,
    {0x33, 0x33}},
   /* 26 -> 214, 43 -> 174, 7 -> 58; no alpha in the tile buffer -> one */
   {"rgb565 to rgba8", TIB(R5G6B5A0), WB(R8G8B8A8), ID, {0xcffae755}, 4,
    {0xd6, 0xae, 0x3a, 0xff}},
   {"raw32", RAW_TIB(32), RAW32_WB, ID, {0x12345678}, 4,
    {0x78, 0x56, 0x34, 0x12}},
   {"raw64", RAW_TIB(64), RAW64_WB, ID, {0x03020100, 0x07060504}, 8,
    {0, 1, 2, 3, 4, 5, 6, 7}},
   {"raw128", RAW_TIB(128), RAW128_WB, ID,
    {0xa3a2a1a0, 0xb3b2b1b0, 0xc3c2c1c0, 0xd3d2d1d0}, 16,
    {0xa0, 0xa1, 0xa2, 0xa3, 0xb0, 0xb1, 0xb2, 0xb3, 0xc0, 0xc1, 0xc2, 0xc3,
     0xd0, 0xd1, 0xd2, 0xd3}},
};
#define RT_CASES (sizeof(rt_cases) / sizeof(rt_cases[0]))

struct zs_case {
   const char *name;
   unsigned zs_format, s_format; /* s_format 0: no separate buffer */
   bool z_write, s_write;
   float z;
   uint8_t s;
   unsigned zs_el_B;
   uint8_t zs_want[8], zs_mask[8];
   uint8_t s_want[1];
   uint8_t pad_;
};

static const struct zs_case zs_cases[] = {
   /* 0.5 * 0xffffff = 0x7fffff.8 -> 0x800000 */
   {"d24s8", MALI_ZS_FORMAT_D24S8, 0, true, true, 0.5f, 0x5a, 4,
    {0x00, 0x00, 0x80, 0x5a}, {0xff, 0xff, 0xff, 0xff}},
#if PAN_ARCH >= 5
   /* Stencil only: the depth bits keep their contents. */
   {"d24s8 stencil only", MALI_ZS_FORMAT_D24S8, 0, false, true, 0.5f, 0xa5, 4,
    {0, 0, 0, 0xa5}, {0, 0, 0, 0xff}},
   /* 0.25 * 65535 = 16383.75 -> 0x4000 */
   {"d16", MALI_ZS_FORMAT_D16, 0, true, false, 0.25f, 0, 2, {0x00, 0x40},
    {0xff, 0xff}},
   {"d32f", MALI_ZS_FORMAT_D32, 0, true, false, 0.75f, 0, 4,
    {0x00, 0x00, 0x40, 0x3f}, {0xff, 0xff, 0xff, 0xff}},
   /* Depth clamped to 1; stencil to its own S8 buffer. */
   {"d24x8 + s8", MALI_ZS_FORMAT_D24X8, MALI_S_FORMAT_S8, true, true, 1.5f,
    0x3c, 4, {0xff, 0xff, 0xff, 0x00}, {0xff, 0xff, 0xff, 0xff}, {0x3c}},
#else
   /* v4: stencil to its own S8 buffer next to a D24X8 depth buffer. */
   {"d24x8 + s8", MALI_ZS_FORMAT_D24X8, MALI_S_FORMAT_S8, true, true, 1.5f,
    0x3c, 4, {0xff, 0xff, 0xff, 0x00}, {0xff, 0xff, 0xff, 0xff}, {0x3c}},
#endif
};
#define ZS_CASES (sizeof(zs_cases) / sizeof(zs_cases[0]))

/* What a test frame contains. */
struct frame_desc {
   unsigned w, h;                  /* images; bound_max = w-1, h-1 */
   unsigned bound_w, bound_h;      /* other framebuffer bounds if set */
   unsigned min_x, min_y;          /* framebuffer bound_min */
   unsigned tx0, ty0, tx1, ty1;    /* fragment job tiles */
   const struct rt_case *rts[8];
   bool rt_tiled[8];
   unsigned rt_count;
   const struct zs_case *zs;
   bool zs_tiled;
};

static unsigned
bound_w(const struct frame_desc *d)
{
   return d->bound_w ? d->bound_w : d->w;
}

static unsigned
bound_h(const struct frame_desc *d)
{
   return d->bound_h ? d->bound_h : d->h;
}

struct frame_out {
   uint64_t fbd;               /* tagged pointer */
   uint8_t *fb_cpu;            /* for the malformed variants */
   struct ref_image rt[8], zs, s;
};

#if PAN_ARCH == 4
static void
emit_frame(const struct frame_desc *d, struct frame_out *o)
{
   const struct rt_case *c = d->rts[0];
   const struct zs_case *z = d->zs;
   void *p;
   uint64_t va = alloc(R_DESC, pan_size(framebuffer),
                       pan_alignment(framebuffer), &p);

   o->rt[0] = new_image(d->w, d->h, c->el_B, d->rt_tiled[0]);
   if (z) {
      o->zs = new_image(d->w, d->h, z->zs_el_B, d->zs_tiled);
      if (z->s_format)
         o->s = new_image(d->w, d->h, 1, false);
   }
   pan_section_pack(p, framebuffer, local_storage, cfg) {}
   pan_section_pack(p, framebuffer, parameters, cfg) {
      cfg.internal_format = c->tib;
      cfg.color_writeback_format = c->wb;
      cfg.swizzle = c->swizzle;
      cfg.sample_count = 1;
      cfg.color_write_enable = true;
      cfg.color_block_format = d->rt_tiled[0]
                                  ? MALI_BLOCK_FORMAT_TILED_U_INTERLEAVED
                                  : MALI_BLOCK_FORMAT_LINEAR;
      cfg.bound_min_x = d->min_x;
      cfg.bound_min_y = d->min_y;
      cfg.bound_max_x = bound_w(d) - 1;
      cfg.bound_max_y = bound_h(d) - 1;
      cfg.color_writeback.base = o->rt[0].va;
      cfg.color_writeback.row_stride_B = o->rt[0].stride_B;
      cfg.color_clear.color_0 = c->clear[0];
      cfg.color_clear.color_1 = c->clear[1];
      cfg.color_clear.color_2 = c->clear[2];
      cfg.color_clear.color_3 = c->clear[3];
      if (z) {
         cfg.zs_format = z->zs_format;
         cfg.zs_write_enable = z->z_write;
         cfg.zs_block_format = d->zs_tiled
                                  ? MALI_BLOCK_FORMAT_TILED_U_INTERLEAVED
                                  : MALI_BLOCK_FORMAT_LINEAR;
         cfg.zs_writeback.base = o->zs.va;
         cfg.zs_writeback.row_stride_B = o->zs.stride_B;
         cfg.z_clear.value = z->z;
         cfg.s_clear = z->s;
         if (z->s_format) {
            cfg.s_format = z->s_format;
            cfg.s_write_enable = z->s_write;
            cfg.s_block_format = MALI_BLOCK_FORMAT_LINEAR;
            cfg.s_writeback.base = o->s.va;
            cfg.s_writeback.row_stride_B = o->s.stride_B;
         }
      }
   }
   o->fb_cpu = p;
   o->fbd = va;
}
#else
static void
emit_frame(const struct frame_desc *d, struct frame_out *o)
{
   const struct zs_case *z = d->zs;
   uint8_t *p;
   unsigned size_B = pan_size(framebuffer) +
                     (z ? pan_size(zs_crc_extension) : 0) +
                     d->rt_count * pan_size(render_target);
   uint64_t va = alloc(R_DESC, size_B, 64, (void **)&p);
   uint8_t *next = p + pan_size(framebuffer);

   pan_section_pack(p, framebuffer, parameters, cfg) {
      cfg.width = bound_w(d);
      cfg.height = bound_h(d);
      cfg.bound_min_x = d->min_x;
      cfg.bound_min_y = d->min_y;
      cfg.bound_max_x = bound_w(d) - 1;
      cfg.bound_max_y = bound_h(d) - 1;
      cfg.sample_count = 1;
      cfg.effective_tile_size = 256;
      cfg.color_buffer_allocation = 1024;
      cfg.render_target_count = d->rt_count;
      cfg.has_zs_crc_extension = z != NULL;
      if (z) {
         cfg.z_write_enable = z->z_write;
         cfg.s_write_enable = z->s_write;
         cfg.z_clear = z->z;
         cfg.s_clear = z->s;
      }
   }
   if (z) {
      o->zs = new_image(d->w, d->h, z->zs_el_B, d->zs_tiled);
      if (z->s_format)
         o->s = new_image(d->w, d->h, 1, false);
      unsigned zblock = d->zs_tiled ? MALI_BLOCK_FORMAT_TILED_U_INTERLEAVED
                                    : MALI_BLOCK_FORMAT_LINEAR;
      pan_pack(next, zs_crc_extension, cfg) {
         cfg.zs_write_format = z->zs_format;
         cfg.zs_block_format = zblock;
#if PAN_ARCH >= 9
         cfg.zs_writeback_base = o->zs.va;
         cfg.zs_writeback_row_stride = o->zs.stride_B;
#else
         cfg.linear.zs_writeback_base = o->zs.va;
         cfg.linear.zs_writeback_row_stride = o->zs.stride_B;
#endif
         if (z->s_format) {
            cfg.s_write_format = z->s_format;
            cfg.s_block_format = MALI_BLOCK_FORMAT_LINEAR;
#if PAN_ARCH >= 9
            cfg.s_writeback_base = o->s.va;
            cfg.s_writeback_row_stride = o->s.stride_B;
#else
            cfg.linear.s_writeback_base = o->s.va;
            cfg.linear.s_writeback_row_stride = o->s.stride_B;
#endif
         }
      }
      next += pan_size(zs_crc_extension);
   }
   for (unsigned i = 0; i < d->rt_count; ++i) {
      const struct rt_case *c = d->rts[i];

      o->rt[i] = new_image(d->w, d->h, c->el_B, d->rt_tiled[i]);
      pan_pack(next, render_target, cfg) {
         cfg.internal_format = c->tib;
         cfg.write_enable = true;
         cfg.writeback_format = c->wb;
         cfg.writeback_block_format =
            d->rt_tiled[i] ? MALI_BLOCK_FORMAT_TILED_U_INTERLEAVED
                           : MALI_BLOCK_FORMAT_LINEAR;
         cfg.swizzle = c->swizzle;
         cfg.rgb.base = o->rt[i].va;
         cfg.rgb.row_stride_B = o->rt[i].stride_B;
#if PAN_ARCH == 5
         cfg.cleared.clear.color_0 = c->clear[0];
         cfg.cleared.clear.color_1 = c->clear[1];
         cfg.cleared.clear.color_2 = c->clear[2];
         cfg.cleared.clear.color_3 = c->clear[3];
#else
         cfg.clear.color_0 = c->clear[0];
         cfg.clear.color_1 = c->clear[1];
         cfg.clear.color_2 = c->clear[2];
         cfg.clear.color_3 = c->clear[3];
#endif
      }
      next += pan_size(render_target);
   }
   o->fb_cpu = p;
   o->fbd = va | MALI_FBD_TAG_IS_MFBD | (z ? MALI_FBD_TAG_HAS_ZS_RT : 0);
}
#endif

/* Expected memory after the frame ran. */
static void
expect_frame(const struct frame_desc *d, const struct frame_out *o)
{
   unsigned x0 = d->tx0 * 16 > d->min_x ? d->tx0 * 16 : d->min_x;
   unsigned y0 = d->ty0 * 16 > d->min_y ? d->ty0 * 16 : d->min_y;
   unsigned x1 = d->tx1 * 16 + 15 < d->w - 1 ? d->tx1 * 16 + 15 : d->w - 1;
   unsigned y1 = d->ty1 * 16 + 15 < d->h - 1 ? d->ty1 * 16 + 15 : d->h - 1;

   if (x0 > x1 || y0 > y1)
      return;
   for (unsigned i = 0; i < d->rt_count; ++i)
      ref_fill(&o->rt[i], x0, y0, x1, y1, d->rts[i]->want, NULL);
   if (d->zs) {
      ref_fill(&o->zs, x0, y0, x1, y1, d->zs->zs_want, d->zs->zs_mask);
      if (d->zs->s_format)
         ref_fill(&o->s, x0, y0, x1, y1, d->zs->s_want, NULL);
   }
}

/* Pack, run, compare. */
static void
check_frame(const char *name, const struct frame_desc *d)
{
   struct frame_out o = {0};
   struct pan_sim_stats st;

   space_reset();
   emit_frame(d, &o);
   uint64_t job = emit_fragment(o.fbd, d->tx0, d->ty0, d->tx1, d->ty1, 0);
   snapshot();
   expect_frame(d, &o);

   int ret = run(job, &st);
   PAN_CHECK(ret == 0, "%s: run returned %d", name, ret);
   PAN_CHECK(st.jobs_run == 1 && !st.faulted, "%s: stats", name);
   PAN_CHECK(job_status(job) == PAN_SIM_STATUS_DONE, "%s: status 0x%x", name,
             job_status(job));
   compare_buffers(name);
}

static void
test_clears(void)
{
   /* 40x24: the right and bottom tiles are partial. */
   struct frame_desc base = {.w = 40, .h = 24, .tx1 = 2, .ty1 = 1};
   unsigned per_frame = PAN_ARCH == 4 ? 1 : 6;

   for (unsigned first = 0; first < RT_CASES; first += per_frame) {
      for (unsigned tiled = 0; tiled < 2; ++tiled) {
         struct frame_desc d = base;
         char name[96];

         for (unsigned i = first; i < RT_CASES && i < first + per_frame; ++i) {
            d.rts[d.rt_count] = &rt_cases[i];
            /* Alternate layouts inside a frame too. */
            d.rt_tiled[d.rt_count] = (tiled + i) % 2;
            d.rt_count++;
         }
         snprintf(name, sizeof(name), "%s.. x%u (%s first)",
                  rt_cases[first].name, d.rt_count,
                  tiled ? "tiled" : "linear");
         check_frame(name, &d);
      }
   }

   for (unsigned z = 0; z < ZS_CASES; ++z) {
      for (unsigned tiled = 0; tiled < 2; ++tiled) {
         struct frame_desc d = base;
         d.rts[0] = &rt_cases[0];
         d.rt_count = 1;
         d.zs = &zs_cases[z];
         d.zs_tiled = tiled;
         check_frame(zs_cases[z].name, &d);
      }
   }

   /* A fragment job covering one tile of the middle, and framebuffer
    * bounds that do not start at 0.
    */
   struct frame_desc part = base;
   part.w = 70;
   part.h = 50;
   part.tx0 = part.tx1 = 1;
   part.ty0 = part.ty1 = 1;
   part.rts[0] = &rt_cases[1];
   part.rt_tiled[0] = true;
   part.rt_count = 1;
   part.zs = &zs_cases[0];
   check_frame("one tile", &part);

   part.tx0 = 0;
   part.tx1 = 4;
   part.ty0 = 0;
   part.ty1 = 3;
   part.min_x = 5;
   part.min_y = 19;
   part.rt_tiled[0] = false;
   check_frame("bound_min", &part);

   /* Tiles entirely outside the framebuffer: nothing to write. */
   part.min_x = part.min_y = 0;
   part.tx0 = part.tx1 = 7;
   check_frame("outside", &part);
}

/* ---- write-value and chains ---- */

static uint64_t
emit_write_value(unsigned type, uint64_t target, uint64_t imm, unsigned index,
                 uint64_t next, void **cpu)
{
   void *job;
   uint64_t va = alloc(R_JOBS, pan_size(write_value_job),
                       pan_alignment(write_value_job), &job);
   header(job, MALI_JOB_TYPE_WRITE_VALUE, index, next);
   pan_section_pack(job, write_value_job, payload, cfg) {
      cfg.address = target;
      cfg.type = type;
#if PAN_ARCH >= 6
      cfg.immediate_value = imm;
#endif
   }
   (void)imm;
   if (cpu)
      *cpu = job;
   return va;
}

static uint64_t
emit_plain_job(unsigned type, unsigned index, uint64_t next)
{
   void *job;
   /* Large enough for any payload. */
   uint64_t va = alloc(R_JOBS, 512, 128, &job);
   header(job, type, index, next);
   return va;
}

static void
test_write_value(void)
{
   struct pan_sim_stats st;
   uint8_t *t;

   space_reset();
   uint64_t zero = alloc(R_BUF, 8, 8, NULL);
   uint64_t ts0 = alloc(R_BUF, 8, 8, NULL);
   uint64_t ts1 = alloc(R_BUF, 8, 8, NULL);
   uint64_t imm = alloc(R_BUF, 32, 8, (void **)&t);
   (void)imm;

   /* Chain: null -> zero -> cache flush -> tiler (not executed) ->
    * timestamp -> timestamp [-> immediates].
    */
   uint64_t next = 0;
#if PAN_ARCH >= 6
   next = emit_write_value(MALI_WRITE_VALUE_TYPE_IMMEDIATE_64, imm + 16,
                           0x0123456789abcdefull, 10, next, NULL);
   next = emit_write_value(MALI_WRITE_VALUE_TYPE_IMMEDIATE_32, imm + 8,
                           0xfedcba98deadbeefull, 9, next, NULL);
   next = emit_write_value(MALI_WRITE_VALUE_TYPE_IMMEDIATE_16, imm + 2,
                           0x1234567, 8, next, NULL);
   next = emit_write_value(MALI_WRITE_VALUE_TYPE_IMMEDIATE_8, imm + 1,
                           0x1ff, 7, next, NULL);
#endif
   next = emit_write_value(MALI_WRITE_VALUE_TYPE_SYSTEM_TIMESTAMP, ts1, 0, 6,
                           next, NULL);
   next = emit_write_value(MALI_WRITE_VALUE_TYPE_CYCLE_COUNTER, ts0, 0, 5,
                           next, NULL);
#if PAN_ARCH == 6 || PAN_ARCH == 7
   /* Tiler jobs run there: a type that is still skipped. */
   next = emit_plain_job(MALI_JOB_TYPE_GEOMETRY, 4, next);
#else
   next = emit_plain_job(MALI_JOB_TYPE_TILER, 4, next);
#endif
   uint64_t compute = next;
   next = emit_plain_job(MALI_JOB_TYPE_CACHE_FLUSH, 3, next);
   next = emit_write_value(MALI_WRITE_VALUE_TYPE_ZERO, zero, 0, 2, next, NULL);
   uint64_t first = emit_plain_job(MALI_JOB_TYPE_NULL, 1, next);

   snapshot();
   memset(expect_of(zero), 0, 8);
   memcpy(expect_of(ts0), cpu_of(ts0), 8); /* checked apart */
   memcpy(expect_of(ts1), cpu_of(ts1), 8);
#if PAN_ARCH >= 6
   static const uint8_t want_imm[24] = {
      0,    0xff, 0x67, 0x45, 0,    0,    0,    0,    0xef, 0xbe, 0xad, 0xde,
      0,    0,    0,    0,    0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01};
   for (unsigned i = 0; i < 24; ++i) {
      /* Bytes 0 and 4-7 of the first word are not targets. */
      if (i == 0 || (i >= 4 && i < 8) || (i >= 12 && i < 16))
         continue;
      expect_of(imm)[i] = want_imm[i];
   }
#endif

   int ret = run(first, &st);
   PAN_CHECK(ret == 0 && !st.faulted, "write-value chain: ret %d", ret);
   PAN_CHECK(st.jobs_skipped == 1, "one job skipped, got %u",
             st.jobs_skipped);
   PAN_CHECK(st.jobs_run == (PAN_ARCH >= 6 ? 9u : 5u), "jobs run: %u",
             st.jobs_run);
   PAN_CHECK(job_status(first) == PAN_SIM_STATUS_DONE, "null job status");
   PAN_CHECK(job_status(compute) == PAN_SIM_STATUS_DONE,
             "skipped jobs complete");

   uint64_t a, b;
   memcpy(&a, cpu_of(ts0), 8);
   memcpy(&b, cpu_of(ts1), 8);
   PAN_CHECK(a != 0 && b >= a, "timestamps %llu then %llu",
             (unsigned long long)a, (unsigned long long)b);
   memcpy(expect_of(ts0), cpu_of(ts0), 8);
   memcpy(expect_of(ts1), cpu_of(ts1), 8);
   compare_buffers("write-value");
}

/* ---- malformed input ---- */

static void
expect_fault(const char *name, uint64_t jc, uint32_t status, uint64_t job)
{
   struct pan_sim_stats st;

   snapshot();
   printf("  expecting a fault (%s):\n", name);
   int ret = run(jc, &st);
   PAN_CHECK(ret == -1 && st.faulted, "%s: ret %d", name, ret);
   PAN_CHECK(st.fault_status == status, "%s: status 0x%x, want 0x%x", name,
             st.fault_status, status);
   if (job) {
      PAN_CHECK(job_status(job) == status, "%s: header status 0x%x", name,
                job_status(job));
      PAN_CHECK(st.fault_job_va == job, "%s: fault job", name);
   }
   compare_buffers(name);
}

static void
test_malformed(void)
{
   struct frame_desc d = {.w = 40, .h = 24, .tx1 = 2, .ty1 = 1};
   struct frame_out o = {0};

   d.rts[0] = &rt_cases[0];
   d.rt_count = 1;

   /* Framebuffer pointer into nothing. */
   space_reset();
   uint64_t job = emit_fragment(0xdead0000ull | (PAN_ARCH >= 5 ? 1 : 0), 0, 0,
                                2, 1, 0);
   expect_fault("wild framebuffer", job, PAN_SIM_READ_FAULT, job);

   /* Huge bounds over small images: nothing may be written, not even
    * the part that fits.
    */
   space_reset();
   d.bound_w = d.bound_h = 65536;
   d.zs = &zs_cases[0];
   emit_frame(&d, &o);
   job = emit_fragment(o.fbd, 0, 0, 4095, 4095, 0);
   expect_fault("huge bounds", job, PAN_SIM_WRITE_FAULT, job);
   d.bound_w = d.bound_h = 0;
   d.zs = NULL;

#if PAN_ARCH >= 5
   /* Render targets running past the end of the descriptor buffer: put
    * the framebuffer at the end of its region with one more target
    * declared than fits.
    */
   space_reset();
   d.rt_count = 2;
   d.rts[1] = &rt_cases[1];
   used[R_DESC] = region_size[R_DESC] - pan_size(framebuffer) -
                  2 * pan_size(render_target);
   emit_frame(&d, &o);
   pan_section_pack(o.fb_cpu, framebuffer, parameters, cfg) {
      cfg.width = d.w;
      cfg.height = d.h;
      cfg.bound_max_x = d.w - 1;
      cfg.bound_max_y = d.h - 1;
      cfg.sample_count = 1;
      cfg.effective_tile_size = 256;
      cfg.render_target_count = 3;
   }
   job = emit_fragment(o.fbd, 0, 0, 2, 1, 0);
   expect_fault("truncated render target", job, PAN_SIM_READ_FAULT,
                job);

   /* Extension flag without the pointer tag. */
   space_reset();
   d.rt_count = 1;
   d.zs = &zs_cases[0];
   emit_frame(&d, &o);
   job = emit_fragment(o.fbd & ~(uint64_t)MALI_FBD_TAG_HAS_ZS_RT, 0, 0, 2, 1,
                       0);
   expect_fault("untagged extension", job, PAN_SIM_CONFIG_FAULT, job);
   d.zs = NULL;
#endif

   /* A chain that loops: each job runs once, then the walk stops. */
   space_reset();
   void *a_cpu;
   uint64_t target = alloc(R_BUF, 16, 8, NULL);
   uint64_t b = emit_write_value(MALI_WRITE_VALUE_TYPE_ZERO, target + 8, 0, 2,
                                 0, NULL);
   uint64_t a = emit_write_value(MALI_WRITE_VALUE_TYPE_ZERO, target, 0, 1, b,
                                 &a_cpu);
   pan_pack(cpu_of(b), job_header, cfg) {
#if PAN_ARCH <= 7
      cfg.is_64b = true;
#endif
      cfg.type = MALI_JOB_TYPE_WRITE_VALUE;
      cfg.index = 2;
      cfg.next = a;
   }
   snapshot();
   memset(expect_of(target), 0, 16);
   {
      struct pan_sim_stats st;
      printf("  expecting a fault (cycle):\n");
      int ret = run(a, &st);
      PAN_CHECK(ret == -1 && st.fault_status == PAN_SIM_CONFIG_FAULT,
                "cycle: ret %d", ret);
      PAN_CHECK(st.jobs_run == 2, "cycle: %u jobs ran", st.jobs_run);
      PAN_CHECK(job_status(a) == PAN_SIM_STATUS_DONE &&
                   job_status(b) == PAN_SIM_STATUS_DONE,
                "cycle: statuses");
      compare_buffers("cycle");
   }

   /* Undefined job type, unaligned write-value target, misaligned job. */
   space_reset();
   job = emit_plain_job(15, 1, 0);
   expect_fault("job type 15", job, PAN_SIM_CONFIG_FAULT, job);

   space_reset();
   target = alloc(R_BUF, 16, 8, NULL);
   job = emit_write_value(MALI_WRITE_VALUE_TYPE_ZERO, target + 4, 0, 1, 0,
                          NULL);
   expect_fault("unaligned write-value", job, PAN_SIM_CONFIG_FAULT,
                job);

   space_reset();
   job = emit_write_value(MALI_WRITE_VALUE_TYPE_ZERO, 0x40, 0, 1, 0, NULL);
   expect_fault("write-value into nothing", job, PAN_SIM_WRITE_FAULT,
                job);

   space_reset();
   expect_fault("chain into nothing", 0x7000000, PAN_SIM_READ_FAULT, 0);
   expect_fault("misaligned job", region_va[R_JOBS] + 8,
                PAN_SIM_CONFIG_FAULT, 0);

}

int
main(void)
{
   PAN_CHECK(pan_sim_supports_arch(PAN_ARCH), "arch built in");
   PAN_CHECK(!pan_sim_supports_arch(8), "no v8");

   test_clears();
   test_write_value();
   test_malformed();

   for (unsigned i = 0; i < R_COUNT; ++i) {
      free(mem[i]);
      free(expect[i]);
   }
   return pan_test_summary("pan_sim_exec_" PAN_ARCH_NAME);
}
