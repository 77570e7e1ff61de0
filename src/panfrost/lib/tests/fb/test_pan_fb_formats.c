/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * What the format table advertises, the emitter of one architecture writes
 * (this file is compiled once per PAN_ARCH).  For every format the table
 * offers for rendering or as a depth/stencil attachment on this
 * architecture, emit a framebuffer using it, read the descriptor back with
 * the generated unpackers and check that the format fields, the buffer
 * addresses, the write enables and the clear values all made it in; then
 * let the decoder read the pass.  Also checks that the emitter's
 * depth/stencil support is exactly the table's.
 */

#include <stdlib.h>
#include <string.h>

#include "pan_decode.h"
#include "pan_fb.h"
#include "pan_genxml.h"
#include "pipe/p_state.h"
#include "util/format/u_format.h"
#include "util/pan_test_util.h"

#define VA_BASE 0x10000000ull
#define MEM_B (64 * 1024)
#define FBD_VA (VA_BASE + 0x1000)
#define JOB_VA (VA_BASE + 0x3000)
#define LIST_VA (VA_BASE + 0x4000)
#define RT_VA (VA_BASE + 0x8000)
#define ZS_VA (VA_BASE + 0xc000)
#define W 32
#define H 16

static uint8_t mem[MEM_B] __attribute__((aligned(4096)));

static void *
cpu_of(uint64_t va)
{
   return mem + (va - VA_BASE);
}

/* The generated names the descriptors must hold for each depth/stencil
 * layout, in the depth/stencil and the stencil format fields (NULL: field
 * unused).
 */
static const struct {
   const char *zs, *s;
} zs_names[PAN_ZS_LAYOUT_COUNT] = {
   [PAN_ZS_D16] = { "d16", NULL },
   [PAN_ZS_D24S8] = { "d24s8", NULL },
   [PAN_ZS_D24X8] = { "d24x8", NULL },
   [PAN_ZS_D32F] = { "d32", NULL },
   [PAN_ZS_D32F_S8X24] = { "d32_s8x24", NULL },
   [PAN_ZS_S8] = { NULL, "s8" },
   [PAN_ZS_D32F_S8] = { "d32", "s8" },
};

static const char *
str(const char *s)
{
   return s ? s : "(none)";
}

static bool
name_is(const char *got, const char *want)
{
   if (!want)
      return true; /* field not used by the layout: checked separately */
   return got && !strcmp(got, want);
}

/* Emits fb plus its fragment job; returns the tagged descriptor pointer. */
static uint64_t
emit(struct pan_fb *fb)
{
   memset(mem, 0, sizeof(mem));
   fb->width_px = W;
   fb->height_px = H;
   fb->tile_budget_B = 8192;
#if PAN_ARCH >= 6
   fb->sample_positions = VA_BASE;
   pan_fb_write_sample_positions(cpu_of(VA_BASE));
#else
   fb->polygon_list = LIST_VA;
   pan_fb_init_empty_polygon_list(fb, cpu_of(LIST_VA));
#endif
   uint64_t ptr = pan_fb_emit(PAN_ARCH, fb, cpu_of(FBD_VA), FBD_VA);
   pan_fb_emit_fragment_job(PAN_ARCH, fb, ptr, cpu_of(JOB_VA));
   return ptr;
}

static void
check_decodes(const char *name)
{
   struct pan_decode_mapping map = { VA_BASE, MEM_B, mem, "test" };
   struct pan_decode_space space = { &map, 1 };
   char *text = NULL;
   size_t len = 0;
   FILE *fp = open_memstream(&text, &len);
   int errors = pan_decode_chain(fp, PAN_ARCH, &space, JOB_VA, NULL, NULL);
   fclose(fp);
   PAN_CHECK(errors == 0, "%s: decoder found %d errors:\n%s", name, errors,
             text);
   free(text);
}

#if PAN_ARCH == 4
/* v4 names raw write-back formats by channel size and count. */
static const char *
v4_raw_name(unsigned mem_B)
{
   switch (mem_B) {
   case 2:
      return "1_16b_channel";
   case 4:
      return "1_32b_channel";
   case 6:
      return "3_16b_channels";
   case 8:
      return "2_32b_channels";
   case 12:
      return "3_32b_channels";
   case 16:
      return "4_32b_channels";
   default:
      return NULL;
   }
}
#endif

static void
check_color(enum pipe_format format)
{
   const char *name = util_format_short_name(format);
   union pipe_color_union c = { .f = { 0.25f, 0.5f, 0.75f, 1.0f } };
   struct pan_fb fb = { .rt_count = PAN_ARCH >= 5 ? 2 : 1 };

   /* On v5+ the format goes in the second slot behind an RGBA8 target, so
    * the tile-buffer offset is exercised too.
    */
   unsigned slot = fb.rt_count - 1;
   struct pan_fb_color *rt = &fb.rts[slot];

   PAN_CHECK(pan_rt_format_lookup(format, &rt->format), "%s: no layout", name);
   PAN_CHECK(pan_fb_color_supported(PAN_ARCH, &rt->format),
             "%s: advertised, but the emitter refuses it", name);
   if (slot) {
      PAN_EXPECT(
         pan_rt_format_lookup(PIPE_FORMAT_R8G8B8A8_UNORM, &fb.rts[0].format));
      fb.rts[0].enabled = true;
      fb.rts[0].base = RT_VA + 0x2000;
      fb.rts[0].row_stride_B = W * 4;
   }
   rt->enabled = rt->clear = rt->write = true;
   rt->base = RT_VA;
   rt->row_stride_B = W * rt->format.mem_B;
   rt->surface_stride_B = rt->row_stride_B * H;
   pan_rt_pack_clear(format, &rt->format, &c, rt->clear_words);

   uint64_t ptr = emit(&fb);
   const uint8_t *fbd = cpu_of(FBD_VA);
   pan_section_unpack(fbd, framebuffer, parameters, p);

#if PAN_ARCH == 4
   (void)ptr;
   const char *tib =
      PAN_GENX(color_buffer_internal_format_name)(p.internal_format);
   const char *wb = PAN_GENX(color_format_name)(p.color_writeback_format);
   if (rt->format.raw) {
      PAN_CHECK(name_is(tib, "raw_value"), "%s: tile-buffer format %s", name,
                str(tib));
      PAN_CHECK(name_is(wb, v4_raw_name(rt->format.mem_B)) &&
                   v4_raw_name(rt->format.mem_B),
                "%s: write-back format %s", name, str(wb));
   } else {
      PAN_CHECK(p.internal_format == rt->format.tib && tib,
                "%s: tile-buffer format %u", name, p.internal_format);
      PAN_CHECK(p.color_writeback_format == rt->format.writeback && wb,
                "%s: write-back format %u", name, p.color_writeback_format);
   }
   PAN_CHECK(p.swizzle == rt->format.swizzle && p.srgb == rt->format.srgb &&
                p.color_write_enable && p.color_writeback.base == RT_VA &&
                p.color_writeback.row_stride_B == rt->row_stride_B &&
                p.color_writeback.surface_stride_B == rt->surface_stride_B &&
                p.color_clear.color_0 == rt->clear_words[0] &&
                p.color_clear.color_1 == rt->clear_words[1] &&
                p.color_clear.color_2 == rt->clear_words[2] &&
                p.color_clear.color_3 == rt->clear_words[3],
             "%s: colour buffer fields", name);
#else
   unsigned tile_px, cbuf_B;
   pan_fb_tile_size(&fb, &tile_px, &cbuf_B);
   PAN_CHECK(((ptr >> 2) & 7) == fb.rt_count - 1 &&
                p.render_target_count == fb.rt_count,
             "%s: render target count", name);
   const uint8_t *rtd =
      fbd + pan_size(framebuffer) + slot * pan_size(render_target);
   pan_unpack(rtd, render_target, r);
#if PAN_ARCH == 5
   const struct PAN_GENX(rt_clear) *clear = &r.cleared.clear;
#else
   const struct PAN_GENX(rt_clear) *clear = &r.clear;
#endif
   PAN_CHECK(r.internal_format == rt->format.tib &&
                PAN_GENX(color_buffer_internal_format_name)(r.internal_format),
             "%s: tile-buffer format %u", name, r.internal_format);
   PAN_CHECK(r.writeback_format == rt->format.writeback &&
                PAN_GENX(color_format_name)(r.writeback_format),
             "%s: write-back format %u", name, r.writeback_format);
   PAN_CHECK(r.internal_buffer_offset == 4 * tile_px &&
                r.swizzle == rt->format.swizzle && r.srgb == rt->format.srgb &&
                r.write_enable && r.rgb.base == RT_VA &&
                r.rgb.row_stride_B == rt->row_stride_B &&
                r.rgb.surface_stride_B == rt->surface_stride_B &&
                clear->color_0 == rt->clear_words[0] &&
                clear->color_1 == rt->clear_words[1] &&
                clear->color_2 == rt->clear_words[2] &&
                clear->color_3 == rt->clear_words[3],
             "%s: render target fields", name);
#endif
   check_decodes(name);
}

static void
check_zs(enum pipe_format format)
{
   const char *name = util_format_short_name(format);
   const struct pan_format_info *info = pan_format_info(format);
   enum pan_zs_layout l = info->zs;
   const struct pan_zs_layout_info *li = pan_zs_layout_info(l);
   bool depth = pan_zs_layout_has_depth(l);
   bool stencil = pan_zs_layout_has_stencil(l);
   struct pan_fb fb = { .rt_count = 1 };

   PAN_CHECK(pan_fb_zs_supported(PAN_ARCH, l),
             "%s: advertised, but the emitter refuses it", name);
   PAN_EXPECT(
      pan_rt_format_lookup(PIPE_FORMAT_R8G8B8A8_UNORM, &fb.rts[0].format));
   fb.rts[0].enabled = true;
   fb.rts[0].base = RT_VA;
   fb.rts[0].row_stride_B = W * 4;
   fb.zs = (struct pan_fb_zs){
      .format = l,
      .base = ZS_VA,
      .row_stride_B = W * li->bytes,
      .surface_stride_B = W * H * li->bytes,
      .write_z = depth,
      .write_s = stencil,
      .z_clear = 0.375f,
      .s_clear = 0x5a,
   };

   uint64_t ptr = emit(&fb);
   PAN_CHECK(pan_fb_size_B(PAN_ARCH, &fb) <= JOB_VA - FBD_VA,
             "%s: descriptor too large", name);
   const uint8_t *fbd = cpu_of(FBD_VA);
   pan_section_unpack(fbd, framebuffer, parameters, p);

   /* Which buffer each aspect lands in. */
   bool zs_buf = zs_names[l].zs != NULL, s_buf = zs_names[l].s != NULL;

#if PAN_ARCH == 4
   (void)ptr;
   const char *zs_name = PAN_GENX(zs_format_name)(p.zs_format);
   const char *s_name = PAN_GENX(s_format_name)(p.s_format);
   PAN_CHECK(name_is(zs_name, zs_names[l].zs) && name_is(s_name, zs_names[l].s),
             "%s: formats %s / %s", name, str(zs_name), str(s_name));
   PAN_CHECK(p.zs_write_enable == zs_buf &&
                (!zs_buf || (p.zs_writeback.base == ZS_VA &&
                             p.zs_writeback.row_stride_B == W * li->bytes)),
             "%s: depth/stencil buffer fields", name);
   PAN_CHECK(p.s_write_enable == s_buf && (s_buf || !p.s_format) &&
                (!s_buf || (p.s_writeback.base == ZS_VA &&
                            p.s_writeback.row_stride_B == W * li->bytes)),
             "%s: stencil buffer fields", name);
   PAN_CHECK(p.z_clear.value == 0.375f && p.s_clear == 0x5a, "%s: clear values",
             name);
#else
   PAN_CHECK((ptr & MALI_FBD_TAG_HAS_ZS_RT) && p.has_zs_crc_extension,
             "%s: no ZS/CRC extension", name);
   PAN_CHECK(p.z_write_enable == depth && p.s_write_enable == stencil,
             "%s: write enables z %u s %u", name, p.z_write_enable,
             p.s_write_enable);
   PAN_CHECK(p.z_clear == 0.375f && p.s_clear == 0x5a, "%s: clear values",
             name);
   pan_unpack(fbd + pan_size(framebuffer), zs_crc_extension, e);
   const char *zs_name = PAN_GENX(zs_format_name)(e.zs_write_format);
   const char *s_name = PAN_GENX(s_format_name)(e.s_write_format);
   PAN_CHECK(name_is(zs_name, zs_names[l].zs) && name_is(s_name, zs_names[l].s),
             "%s: formats %s / %s", name, str(zs_name), str(s_name));
   PAN_CHECK((zs_buf || !e.zs_write_format) && (s_buf || !e.s_write_format),
             "%s: a format in a buffer the layout does not use", name);
#if PAN_ARCH >= 9
   uint64_t zs_base = e.zs_writeback_base, s_base = e.s_writeback_base;
   uint32_t zs_stride = e.zs_writeback_row_stride;
   uint32_t s_stride = e.s_writeback_row_stride;
#else
   uint64_t zs_base = e.linear.zs_writeback_base;
   uint64_t s_base = e.linear.s_writeback_base;
   uint32_t zs_stride = e.linear.zs_writeback_row_stride;
   uint32_t s_stride = e.linear.s_writeback_row_stride;
#endif
   PAN_CHECK(!zs_buf || (zs_base == ZS_VA && zs_stride == W * li->bytes),
             "%s: depth/stencil buffer 0x%llx stride %u", name,
             (unsigned long long)zs_base, zs_stride);
   /* Stencil, interleaved or not, is addressed through the stencil
    * buffer fields too.
    */
   PAN_CHECK(!stencil || (s_base == ZS_VA && s_stride == W * li->bytes),
             "%s: stencil buffer 0x%llx stride %u", name,
             (unsigned long long)s_base, s_stride);
#endif
   check_decodes(name);
}

int
main(void)
{
   unsigned colour = 0, zs = 0;

   for (unsigned i = 1; i < PIPE_FORMAT_COUNT; ++i) {
      if (pan_format_supports(PAN_ARCH, i, PAN_USE_RENDER)) {
         check_color(i);
         colour++;
      }
      if (pan_format_supports(PAN_ARCH, i, PAN_USE_DEPTH)) {
         check_zs(i);
         zs++;
      }
   }
   PAN_CHECK(colour >= 20 && zs >= 5, "only %u colour and %u ZS formats",
             colour, zs);

   /* The emitter names exactly the layouts the table lets through. */
   for (unsigned l = 0; l <= PAN_ZS_LAYOUT_COUNT; ++l) {
      PAN_CHECK(pan_fb_zs_supported(PAN_ARCH, l) ==
                   pan_zs_layout_supported(PAN_ARCH, l),
                "layout %u: emitter %u, table %u", l,
                pan_fb_zs_supported(PAN_ARCH, l),
                pan_zs_layout_supported(PAN_ARCH, l));
   }

   /* The two formats that used to be advertised and dropped. */
   PAN_CHECK(pan_format_supports(PAN_ARCH, PIPE_FORMAT_S8_UINT, PAN_USE_DEPTH),
             "S8 not advertised");
   PAN_CHECK(pan_format_supports(PAN_ARCH, PIPE_FORMAT_Z32_FLOAT_S8X24_UINT,
                                 PAN_USE_DEPTH) ==
                (PAN_ARCH >= 5 && PAN_ARCH <= 7),
             "Z32F_S8X24 advertised where the descriptors lack it or the "
             "reverse");

   printf("%u colour and %u depth/stencil formats emitted\n", colour, zs);
   return pan_test_summary("pan_fb_formats_" PAN_ARCH_NAME);
}
