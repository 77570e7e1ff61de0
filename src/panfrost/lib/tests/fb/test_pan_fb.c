/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The framebuffer emitter of one architecture (this file is compiled once
 * per PAN_ARCH): describe passes, emit them into a fake address space,
 * read the descriptors back with the generated unpackers and check every
 * field the description set, then let the decoder walk the chain and
 * require that it finds nothing wrong.
 */

#include <stdlib.h>
#include <string.h>

#include "pan_decode.h"
#include "pan_fb.h"
#include "pan_genxml.h"
#include "pipe/p_state.h"
#include "util/pan_test_util.h"

#define VA_BASE 0x10000000ull
#define MEM_B (64 * 1024)

static uint8_t mem[MEM_B] __attribute__((aligned(4096)));

static void *
cpu_of(uint64_t va)
{
   return mem + (va - VA_BASE);
}

static void
color(struct pan_fb_color *rt, enum pipe_format format, uint64_t base,
      uint32_t stride, float r)
{
   union pipe_color_union c = {.f = {r, 0.5f, 0.25f, 1.0f}};

   rt->enabled = true;
   PAN_CHECK(pan_rt_format_lookup(format, &rt->format), "format %d", format);
   rt->block = PAN_FB_BLOCK_LINEAR;
   rt->base = base;
   rt->row_stride_B = stride;
   rt->surface_stride_B = stride * 16;
   rt->clear = rt->write = true;
   pan_rt_pack_clear(format, &rt->format, &c, rt->clear_words);
}

/* Emits fb at fixed addresses, checks it, returns the decoder's verdict. */
static void
check_pass(const char *name, struct pan_fb *fb)
{
   const uint64_t fbd_va = VA_BASE + 0x1000, job_va = VA_BASE + 0x3000;
#if PAN_ARCH <= 5
   const uint64_t list_va = VA_BASE + 0x4000;
#endif

   memset(mem, 0, sizeof(mem));
   fb->tile_budget_B = 8192;
#if PAN_ARCH >= 6
   fb->sample_positions = VA_BASE;
   pan_fb_write_sample_positions(cpu_of(VA_BASE));
   const uint16_t *pos = cpu_of(VA_BASE);
   PAN_CHECK(pos[0] == 128 && pos[1] == 128 && pos[64] == 128,
             "%s: sample positions", name);
#else
   fb->polygon_list = list_va;
   pan_fb_init_empty_polygon_list(fb, cpu_of(list_va));
#endif

   unsigned size_B = pan_fb_size_B(PAN_ARCH, fb);
   PAN_CHECK(size_B <= 0x2000, "%s: descriptor of %u bytes", name, size_B);
   uint64_t ptr = pan_fb_emit(PAN_ARCH, fb, cpu_of(fbd_va), fbd_va);
   pan_fb_emit_fragment_job(PAN_ARCH, fb, ptr, cpu_of(job_va));
   PAN_CHECK(pan_fragment_job_size_B(PAN_ARCH) == pan_size(fragment_job),
             "%s: job size", name);

   /* The job. */
   pan_section_unpack(cpu_of(job_va), fragment_job, header, h);
   pan_section_unpack(cpu_of(job_va), fragment_job, payload, p);
   PAN_CHECK(h.type == MALI_JOB_TYPE_FRAGMENT && h.index == 1 && !h.next,
             "%s: job header", name);
   PAN_CHECK(p.bound_min_x == 0 && p.bound_min_y == 0 &&
                p.bound_max_x == (fb->width_px - 1) / 16 &&
                p.bound_max_y == (fb->height_px - 1) / 16,
             "%s: job bounds %u,%u", name, p.bound_max_x, p.bound_max_y);
   PAN_CHECK(p.framebuffer == ptr, "%s: job framebuffer pointer", name);

   const uint8_t *fbd = cpu_of(fbd_va);
   pan_section_unpack(fbd, framebuffer, parameters, params);
#if PAN_ARCH == 4
   const struct pan_fb_color *rt0 = &fb->rts[0];
   PAN_CHECK(ptr == fbd_va, "%s: SFBD pointer is tagged", name);
   PAN_CHECK(params.bound_max_x == fb->width_px - 1 &&
                params.bound_max_y == fb->height_px - 1,
             "%s: bounds", name);
   PAN_CHECK(params.color_write_enable == rt0->write &&
                params.color_writeback.base == rt0->base &&
                params.color_writeback.row_stride_B == rt0->row_stride_B &&
                params.color_clear.color_0 == rt0->clear_words[0] &&
                params.color_clear.color_3 == rt0->clear_words[3] &&
                params.swizzle == rt0->format.swizzle,
             "%s: colour buffer", name);
   PAN_CHECK(params.zs_write_enable == (fb->zs.write_z || fb->zs.write_s) &&
                (fb->zs.format == PAN_ZS_NONE ||
                 params.zs_writeback.base == fb->zs.base) &&
                params.z_clear.value == fb->zs.z_clear,
             "%s: depth buffer", name);
   pan_section_unpack(fbd, framebuffer, tiler, t);
#else
   bool has_zs = fb->zs.format != PAN_ZS_NONE;
   unsigned tile_px, cbuf_B;
   pan_fb_tile_size(fb, &tile_px, &cbuf_B);
   PAN_CHECK((ptr & ~63ull) == fbd_va && (ptr & MALI_FBD_TAG_IS_MFBD) &&
                !!(ptr & MALI_FBD_TAG_HAS_ZS_RT) == has_zs &&
                ((ptr >> 2) & 7) == fb->rt_count - 1,
             "%s: tag bits 0x%x", name, (unsigned)(ptr & 63));
   PAN_CHECK(params.width == fb->width_px && params.height == fb->height_px &&
                params.bound_max_x == fb->width_px - 1 &&
                params.render_target_count == fb->rt_count &&
                params.effective_tile_size == tile_px &&
                params.color_buffer_allocation == cbuf_B &&
                params.has_zs_crc_extension == has_zs &&
                params.z_write_enable == (has_zs && fb->zs.write_z) &&
                params.s_write_enable ==
                   (fb->zs.write_s &&
                    pan_zs_layout_has_stencil(fb->zs.format)) &&
                params.z_clear == fb->zs.z_clear &&
                params.s_clear == fb->zs.s_clear,
             "%s: parameters", name);
#if PAN_ARCH >= 6
   PAN_CHECK(params.sample_locations == VA_BASE && params.tiler == 0,
             "%s: sample locations / tiler", name);
#endif
   const uint8_t *next = fbd + pan_size(framebuffer);
   if (has_zs) {
      pan_unpack(next, zs_crc_extension, zs);
#if PAN_ARCH >= 9
      uint64_t zs_base = zs.zs_writeback_base;
#else
      uint64_t zs_base = zs.linear.zs_writeback_base;
#endif
      PAN_CHECK(zs_base == fb->zs.base &&
                   zs.zs_block_format == MALI_BLOCK_FORMAT_LINEAR,
                "%s: ZS extension", name);
      next += pan_size(zs_crc_extension);
   }
   unsigned offset_B = 0;
   for (unsigned i = 0; i < fb->rt_count; ++i, next += pan_size(render_target)) {
      const struct pan_fb_color *rt = &fb->rts[i];
      pan_unpack(next, render_target, r);
      PAN_CHECK(r.internal_buffer_offset == offset_B,
                "%s: RT %u tile-buffer offset %u, want %u", name, i,
                r.internal_buffer_offset, offset_B);
      if (!rt->enabled) {
         PAN_CHECK(!r.write_enable, "%s: disabled RT %u writes", name, i);
         continue;
      }
      offset_B += rt->format.tib_B * tile_px;
#if PAN_ARCH == 5
      uint32_t c0 = r.cleared.clear.color_0, c3 = r.cleared.clear.color_3;
#else
      uint32_t c0 = r.clear.color_0, c3 = r.clear.color_3;
#endif
      PAN_CHECK(r.write_enable == rt->write && r.rgb.base == rt->base &&
                   r.rgb.row_stride_B == rt->row_stride_B &&
                   r.internal_format == rt->format.tib &&
                   r.writeback_format == rt->format.writeback &&
                   r.swizzle == rt->format.swizzle &&
                   c0 == rt->clear_words[0] && c3 == rt->clear_words[3],
                "%s: RT %u", name, i);
   }
#if PAN_ARCH == 5
   pan_section_unpack(fbd, framebuffer, tiler, t);
#endif
#endif
#if PAN_ARCH <= 5
   /* No geometry: binning off, the heap empty. */
   PAN_CHECK(t.polygon_list == list_va && t.heap_start == list_va &&
                t.heap_end == list_va &&
                t.hierarchy_mask == (fb->no_hierarchical_tiling ? 0xfff
                                                                : 0x1000),
             "%s: Midgard tiler", name);
   if (fb->no_hierarchical_tiling) {
      uint32_t word;
      memcpy(&word, (uint8_t *)cpu_of(list_va) + 512, 4);
      PAN_CHECK(word == 0xa0000000u, "%s: flat list terminator", name);
   }
#endif

   /* The decoder reads the same chain without complaint. */
   struct pan_decode_mapping map = {VA_BASE, MEM_B, mem, "test"};
   struct pan_decode_space space = {&map, 1};
   char *text = NULL;
   size_t len = 0;
   FILE *fp = open_memstream(&text, &len);
   int errors = pan_decode_chain(fp, PAN_ARCH, &space, job_va, NULL, NULL);
   fclose(fp);
   PAN_CHECK(errors == 0, "%s: decoder found %d errors:\n%s", name, errors,
             text);
   free(text);
}

int
main(void)
{
   const uint64_t color_va = VA_BASE + 0x8000, zs_va = VA_BASE + 0xc000;

   /* One RGBA8 target, no depth. */
   struct pan_fb fb = {.width_px = 64, .height_px = 32, .rt_count = 1};
   color(&fb.rts[0], PIPE_FORMAT_R8G8B8A8_UNORM, color_va, 256, 0.2f);
   check_pass("rgba8", &fb);

   /* Odd size (partial last tile), BGRA, depth/stencil, T720-style tiler
    * on Midgard.
    */
   fb = (struct pan_fb){.width_px = 33, .height_px = 17, .rt_count = 1,
                        .no_hierarchical_tiling = true};
   color(&fb.rts[0], PIPE_FORMAT_B8G8R8A8_UNORM, color_va, 33 * 4, 1.0f);
   fb.zs = (struct pan_fb_zs){.format = PAN_ZS_D24S8,
                              .base = zs_va,
                              .row_stride_B = 33 * 4,
                              .write_z = true,
                              .write_s = true,
                              .z_clear = 0.25f,
                              .s_clear = 7};
   check_pass("bgra8+d24s8", &fb);

   /* Depth only, colour attachment present but not written. */
   fb = (struct pan_fb){.width_px = 16, .height_px = 16, .rt_count = 1};
   color(&fb.rts[0], PIPE_FORMAT_R8G8B8A8_UNORM, color_va, 64, 0.0f);
   fb.rts[0].clear = fb.rts[0].write = false;
   fb.zs = (struct pan_fb_zs){.format = PAN_ZS_D32F, .base = zs_va,
                              .row_stride_B = 64, .write_z = true,
                              .z_clear = 1.0f};
   check_pass("d32f only", &fb);

#if PAN_ARCH >= 5
   /* Multiple targets, one slot empty, a raw 16-byte format that shrinks
    * the tile: 4 + 16 bytes per pixel -> 32 per pixel -> 256-pixel tile
    * at an 8 KiB budget.
    */
   fb = (struct pan_fb){.width_px = 100, .height_px = 50, .rt_count = 3};
   color(&fb.rts[0], PIPE_FORMAT_R8G8B8A8_UNORM, color_va, 400, 0.5f);
   color(&fb.rts[2], PIPE_FORMAT_R32G32B32A32_FLOAT, color_va + 0x100, 1600,
         0.75f);
   check_pass("mrt", &fb);
#endif

   /* Tile sizing: the budget over bytes per pixel, clamped to 16x16, the
    * colour buffer in whole KiB.
    */
   unsigned tile_px, cbuf_B;
   fb = (struct pan_fb){.rt_count = 2, .tile_budget_B = 8192};
   color(&fb.rts[0], PIPE_FORMAT_R32G32B32A32_FLOAT, 0, 16, 0);
   color(&fb.rts[1], PIPE_FORMAT_R32G32B32A32_FLOAT, 0, 16, 0);
   pan_fb_tile_size(&fb, &tile_px, &cbuf_B);
   PAN_CHECK(tile_px == 256 && cbuf_B == 8192, "2x rgba32f: %u px, %u B",
             tile_px, cbuf_B);
   fb.tile_budget_B = 2048;
   pan_fb_tile_size(&fb, &tile_px, &cbuf_B);
   PAN_CHECK(tile_px == 64 && cbuf_B == 2048, "small budget: %u px, %u B",
             tile_px, cbuf_B);
   fb.rt_count = 1;
   fb.rts[0].format.tib_B = 4;
   fb.tile_budget_B = 8192;
   pan_fb_tile_size(&fb, &tile_px, &cbuf_B);
   PAN_CHECK(tile_px == 256 && cbuf_B == 1024, "rgba8: %u px, %u B", tile_px,
             cbuf_B);

   /* v4 writes back one target and only whole 16/32-bit channels raw. */
   struct pan_rt_format f;
   pan_rt_format_lookup(PIPE_FORMAT_R8_UINT, &f);
   PAN_CHECK(pan_fb_color_supported(PAN_ARCH, &f) == (PAN_ARCH >= 5),
             "r8ui support");
   pan_rt_format_lookup(PIPE_FORMAT_R16G16B16A16_FLOAT, &f);
   PAN_CHECK(pan_fb_color_supported(PAN_ARCH, &f), "rgba16f support");

   return pan_test_summary("pan_fb_" PAN_ARCH_NAME);
}
