/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * FRAGMENT jobs of one architecture (compiled once per PAN_ARCH).
 *
 * No primitive is rasterised yet: every tile of the job starts from the
 * clear values and is written back, which is exactly what a frame without
 * draws produces. The framebuffer descriptor is read into a list of image
 * fills (one per written colour target, depth/stencil and stencil buffer);
 * all of them are checked against the job's memory before the first pixel
 * is stored, so a faulting job leaves memory as it was.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pan_genxml.h"
#include "pan_sim_arch.h"
#include "pan_sim_draw.h"
#include "pan_sim_vX_gfx.h"
#include "pan_sim_vX_preframe.h"

#define TILE_PX 16

/* Colour targets of one framebuffer, plus depth/stencil and stencil. */
#define MAX_FILLS 18

struct frame {
   struct pan_sim_rect rect;
   bool empty;
   unsigned samples;
   unsigned count;
   struct pan_sim_fill fills[MAX_FILLS];
   char names[MAX_FILLS][32];
   /* The tiler context whose primitives the frame draws (0: none) and the
    * depth the tile buffer starts from. */
   uint64_t tiler;
   float z_clear;
   uint8_t s_clear;
   /* The frame shader draws when pre-frame ones are shaded (0: none),
    * which of them run (bit 0 colour, bit 1 depth/stencil), and whether
    * one runs in frames without primitives. */
   uint64_t preframe_dcds;
   unsigned preframe_mask;
   bool preframe_always;
   unsigned width, height; /* the framebuffer's, in pixels */
   uint64_t sample_locations; /* the sample position table */
};

/* ---- formats: hardware enums -> neutral descriptions ---- */

static const struct pan_sim_tib_format tib_formats[] = {
   [MALI_COLOR_BUFFER_INTERNAL_FORMAT_RAW_VALUE] = {.raw = true},
   [MALI_COLOR_BUFFER_INTERNAL_FORMAT_R8G8B8A8] = {.int_bits = {8, 8, 8, 8}},
   [MALI_COLOR_BUFFER_INTERNAL_FORMAT_R10G10B10A2] =
      {.int_bits = {10, 10, 10, 2}},
   [MALI_COLOR_BUFFER_INTERNAL_FORMAT_R8G8B8A2] =
      {.int_bits = {8, 8, 8, 2}, .frac_bits = {2, 2, 2, 0}},
   [MALI_COLOR_BUFFER_INTERNAL_FORMAT_R4G4B4A4] =
      {.int_bits = {4, 4, 4, 4}, .frac_bits = {4, 4, 4, 4}},
   [MALI_COLOR_BUFFER_INTERNAL_FORMAT_R5G6B5A0] =
      {.int_bits = {5, 6, 5, 0}, .frac_bits = {5, 4, 5, 2}},
   [MALI_COLOR_BUFFER_INTERNAL_FORMAT_R5G5B5A1] =
      {.int_bits = {5, 5, 5, 1}, .frac_bits = {5, 5, 5, 1}},
#if PAN_ARCH >= 5
   [MALI_COLOR_BUFFER_INTERNAL_FORMAT_RAW8] = {.raw = true, .raw_B = 1},
   [MALI_COLOR_BUFFER_INTERNAL_FORMAT_RAW16] = {.raw = true, .raw_B = 2},
   [MALI_COLOR_BUFFER_INTERNAL_FORMAT_RAW32] = {.raw = true, .raw_B = 4},
   [MALI_COLOR_BUFFER_INTERNAL_FORMAT_RAW64] = {.raw = true, .raw_B = 8},
   [MALI_COLOR_BUFFER_INTERNAL_FORMAT_RAW128] = {.raw = true, .raw_B = 16},
#endif
};

#define RAW(n) {.raw = true, .size_B = (n)}
#define COMPS(size, n, a, b, c, d)                                             \
   {.size_B = (size), .comps = (n), .bits = {a, b, c, d}}

static const struct pan_sim_wb_format wb_formats[32] = {
#if PAN_ARCH >= 5
   [MALI_COLOR_FORMAT_RAW8] = RAW(1),
   [MALI_COLOR_FORMAT_RAW16] = RAW(2),
   [MALI_COLOR_FORMAT_RAW24] = RAW(3),
   [MALI_COLOR_FORMAT_RAW32] = RAW(4),
   [MALI_COLOR_FORMAT_RAW48] = RAW(6),
   [MALI_COLOR_FORMAT_RAW64] = RAW(8),
   [MALI_COLOR_FORMAT_RAW96] = RAW(12),
   [MALI_COLOR_FORMAT_RAW128] = RAW(16),
   [MALI_COLOR_FORMAT_RAW192] = RAW(24),
   [MALI_COLOR_FORMAT_RAW256] = RAW(32),
   [MALI_COLOR_FORMAT_RAW384] = RAW(48),
   [MALI_COLOR_FORMAT_RAW512] = RAW(64),
   [MALI_COLOR_FORMAT_RAW768] = RAW(96),
   [MALI_COLOR_FORMAT_RAW1024] = RAW(128),
   [MALI_COLOR_FORMAT_RAW1536] = RAW(192),
   [MALI_COLOR_FORMAT_RAW2048] = RAW(256),
   [MALI_COLOR_FORMAT_NATIVE] = {.native = true},
#else
   /* v4 names its raw formats by channels. */
   [MALI_COLOR_FORMAT_4_32B_CHANNELS] = RAW(16),
   [MALI_COLOR_FORMAT_3_32B_CHANNELS] = RAW(12),
   [MALI_COLOR_FORMAT_2_32B_CHANNELS] = RAW(8),
   [MALI_COLOR_FORMAT_1_32B_CHANNEL] = RAW(4),
   [MALI_COLOR_FORMAT_4_16B_CHANNELS] = RAW(8),
   [MALI_COLOR_FORMAT_3_16B_CHANNELS] = RAW(6),
   [MALI_COLOR_FORMAT_2_16B_CHANNELS] = RAW(4),
   [MALI_COLOR_FORMAT_1_16B_CHANNEL] = RAW(2),
#endif
   [MALI_COLOR_FORMAT_R8] = COMPS(1, 1, 8, 0, 0, 0),
   [MALI_COLOR_FORMAT_R8G8] = COMPS(2, 2, 8, 8, 0, 0),
   [MALI_COLOR_FORMAT_R8G8B8] = COMPS(3, 3, 8, 8, 8, 0),
   [MALI_COLOR_FORMAT_R8G8B8A8] = COMPS(4, 4, 8, 8, 8, 8),
   [MALI_COLOR_FORMAT_R4G4B4A4] = COMPS(2, 4, 4, 4, 4, 4),
   [MALI_COLOR_FORMAT_R5G6B5] = COMPS(2, 3, 5, 6, 5, 0),
   [MALI_COLOR_FORMAT_R8G8B8_FROM_R8G8B8A2] = COMPS(3, 3, 8, 8, 8, 0),
   [MALI_COLOR_FORMAT_R10G10B10A2] = COMPS(4, 4, 10, 10, 10, 2),
   [MALI_COLOR_FORMAT_A2B10G10R10] = COMPS(4, 4, 2, 10, 10, 10),
   [MALI_COLOR_FORMAT_R5G5B5A1] = COMPS(2, 4, 5, 5, 5, 1),
   [MALI_COLOR_FORMAT_A1B5G5R5] = COMPS(2, 4, 1, 5, 5, 5),
};

static bool
lookup_tib(struct pan_sim_ctx *ctx, const char *what, unsigned v,
           struct pan_sim_tib_format *out)
{
   const char *name = PAN_GENX(color_buffer_internal_format_name)(v);

   if (!name || v >= sizeof(tib_formats) / sizeof(tib_formats[0]))
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, 0,
                          "%s: tile-buffer format %u is not defined on v%u",
                          what, v, PAN_ARCH);
   *out = tib_formats[v];
   out->name = name;
   return true;
}

static bool
lookup_wb(struct pan_sim_ctx *ctx, const char *what, unsigned v,
          struct pan_sim_wb_format *out)
{
   const char *name = PAN_GENX(color_format_name)(v);

   if (!name)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, 0,
                          "%s: write-back format %u is not defined on v%u",
                          what, v, PAN_ARCH);
   *out = wb_formats[v];
   out->name = name;
   return true;
}

#define ZS(size, db, dn, fl, sb, sn)                                           \
   (struct pan_sim_zs_format)                                                   \
   {                                                                           \
      .size_B = (size), .depth_bit = (db), .depth_bits = (dn),                 \
      .depth_float = (fl), .stencil_bit = (sb), .stencil_bits = (sn)           \
   }

static bool
lookup_zs(struct pan_sim_ctx *ctx, unsigned v, struct pan_sim_zs_format *out)
{
   switch (v) {
   case MALI_ZS_FORMAT_D16: *out = ZS(2, 0, 16, false, 0, 0); break;
   case MALI_ZS_FORMAT_D24X8: *out = ZS(4, 0, 24, false, 0, 0); break;
   case MALI_ZS_FORMAT_D24S8: *out = ZS(4, 0, 24, false, 24, 8); break;
   case MALI_ZS_FORMAT_D32: *out = ZS(4, 0, 32, true, 0, 0); break;
#if PAN_ARCH <= 7
   case MALI_ZS_FORMAT_X8D24: *out = ZS(4, 8, 24, false, 0, 0); break;
   case MALI_ZS_FORMAT_S8D24: *out = ZS(4, 8, 24, false, 0, 8); break;
   case MALI_ZS_FORMAT_D32_S8X24: *out = ZS(8, 0, 32, true, 32, 8); break;
#endif
#if PAN_ARCH == 6 || PAN_ARCH == 7
   case MALI_ZS_FORMAT_D32_X8X24: *out = ZS(8, 0, 32, true, 0, 0); break;
#endif
   default: {
      const char *name = PAN_GENX(zs_format_name)(v);
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, 0,
                          "depth/stencil write-back format %s (%u) is not "
                          "supported",
                          name ? name : "?", v);
   }
   }
   out->name = PAN_GENX(zs_format_name)(v);
   return true;
}

static bool
lookup_s(struct pan_sim_ctx *ctx, unsigned v, struct pan_sim_zs_format *out)
{
   switch (v) {
   case MALI_S_FORMAT_S8: *out = ZS(1, 0, 0, false, 0, 8); break;
   case MALI_S_FORMAT_X24S8: *out = ZS(4, 0, 0, false, 24, 8); break;
#if PAN_ARCH <= 7
   case MALI_S_FORMAT_S8X8: *out = ZS(2, 0, 0, false, 0, 8); break;
   case MALI_S_FORMAT_S8X24: *out = ZS(4, 0, 0, false, 0, 8); break;
#endif
#if PAN_ARCH >= 5 && PAN_ARCH <= 7
   case MALI_S_FORMAT_X8S8: *out = ZS(2, 0, 0, false, 8, 8); break;
   case MALI_S_FORMAT_X32_S8X24: *out = ZS(8, 0, 0, false, 32, 8); break;
#endif
   default:
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, 0,
                          "stencil write-back format %u is not supported", v);
   }
   out->name = PAN_GENX(s_format_name)(v);
   return true;
}

/* Block format -> layout; *skip when the hardware writes nothing. */
static bool
lookup_block(struct pan_sim_ctx *ctx, const char *what, unsigned v,
             enum pan_sim_layout *out, bool *skip)
{
   *skip = false;
   switch (v) {
   case MALI_BLOCK_FORMAT_LINEAR: *out = PAN_SIM_LINEAR; return true;
   case MALI_BLOCK_FORMAT_TILED_U_INTERLEAVED:
      *out = PAN_SIM_U_INTERLEAVED;
      return true;
#if PAN_ARCH >= 7
   case MALI_BLOCK_FORMAT_NO_WRITE: *skip = true; return true;
   case MALI_BLOCK_FORMAT_AFBC_TILED: *out = PAN_SIM_AFBC; return true;
#endif
#if PAN_ARCH >= 6
   /* v6 names AFBC with its 2-bit block format (3), headers in rows. */
   case MALI_BLOCK_FORMAT_AFBC: *out = PAN_SIM_AFBC; return true;
#endif
   default: {
      const char *name = PAN_GENX(block_format_name)(v);
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, 0,
                          "%s: %s block format (%u) is not executed yet",
                          what, name ? name : "undefined", v);
   }
   }
}

#if PAN_ARCH >= 6
/* Whether a block format is AFBC (v7 and v9 also have tiled headers). */
static bool
is_afbc_block(unsigned v)
{
#if PAN_ARCH >= 7
   if (v == MALI_BLOCK_FORMAT_AFBC_TILED)
      return true;
#endif
   return v == MALI_BLOCK_FORMAT_AFBC;
}
#endif

/* Samples stored per pixel position: the clear is the same for every
 * sample, so a resolved write-back equals a single-sampled one.
 */
static bool
msaa_layers(struct pan_sim_ctx *ctx, const char *what, unsigned msaa,
            unsigned samples, unsigned *layers)
{
   switch (msaa) {
   case MALI_MSAA_SINGLE:
   case MALI_MSAA_AVERAGE: *layers = 1; return true;
   case MALI_MSAA_LAYERED: *layers = samples; return true;
   default:
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, 0,
                          "%s: multisampled write-back mode %u is not "
                          "executed yet",
                          what, msaa);
   }
}

/* ---- fills ---- */

static struct pan_sim_fill *
new_fill(struct frame *f, const char *fmt, unsigned i)
{
   struct pan_sim_fill *fill = &f->fills[f->count];

   snprintf(f->names[f->count], sizeof(f->names[0]), fmt, i);
   memset(fill, 0, sizeof(*fill));
   fill->what = f->names[f->count];
   return fill;
}

struct color_desc {
   bool preload; /* loaded by a pre-frame shader, not cleared */
   unsigned tib, wb, block, msaa, swizzle;
   uint32_t clear[4];
   uint64_t base;
   uint32_t row_stride_B, surface_stride_B;
   /* AFBC: row stride (see set_afbc), 32x8 superblocks, body - base. */
   uint32_t afbc_row_stride;
   bool afbc_wide;
   uint64_t afbc_body_off;
};

/* The AFBC surface of a fill (block format already looked up).  The row
 * stride counts superblocks up to v7, header bytes from v9. */
static void
set_afbc(struct pan_sim_fill *fill, unsigned block, uint32_t row_stride,
         bool wide, uint64_t body_off)
{
   if (fill->layout != PAN_SIM_AFBC)
      return;
   fill->afbc.wide = wide;
#if PAN_ARCH >= 7
   fill->afbc.tiled = block == MALI_BLOCK_FORMAT_AFBC_TILED;
#else
   (void)block;
#endif
   fill->afbc.sb_per_row = PAN_ARCH >= 9 ? pan_sim_afbc_sb_per_row(
                                              &fill->afbc, row_stride)
                                        : row_stride;
   fill->afbc.el_B = fill->px.size_B;
   fill->afbc_body_off = body_off;
}

static bool
add_color(struct pan_sim_ctx *ctx, struct frame *f, unsigned index,
          const struct color_desc *d)
{
   struct pan_sim_fill *fill = new_fill(f, "render target %u", index);
   struct pan_sim_tib_format tib;
   struct pan_sim_wb_format wb;
   bool skip;

   if (!lookup_block(ctx, fill->what, d->block, &fill->layout, &skip))
      return false;
   if (skip)
      return true;
   if (!lookup_tib(ctx, fill->what, d->tib, &tib) ||
       !lookup_wb(ctx, fill->what, d->wb, &wb) ||
       !msaa_layers(ctx, fill->what, d->msaa, f->samples, &fill->layers) ||
       !pan_sim_color_pixel(ctx, fill->what, &tib, &wb, d->swizzle, d->clear,
                           &fill->px))
      return false;
   fill->average = d->msaa == MALI_MSAA_AVERAGE;

   fill->base = d->base;
   fill->row_stride_B = d->row_stride_B;
   fill->layer_stride_B = d->surface_stride_B;
   fill->rt = (int)index;
   fill->preload = d->preload;
   fill->tib = tib;
   fill->wb = wb;
   fill->swizzle = d->swizzle;
   memcpy(fill->clear, d->clear, sizeof(fill->clear));
   set_afbc(fill, d->block, d->afbc_row_stride, d->afbc_wide,
            d->afbc_body_off);
   f->count++;
   return true;
}

struct zs_desc {
   /* What the frame writes: depth and stencil bits of the depth/stencil
    * buffer, and the separate stencil buffer.
    */
   bool write_z, write_s_in_zs, write_s_sep;
   float z_clear;
   uint8_t s_clear;
   unsigned zs_format, zs_block, zs_msaa;
   uint64_t zs_base;
   uint32_t zs_row_stride_B, zs_surface_stride_B;
   unsigned s_format, s_block, s_msaa;
   uint64_t s_base;
   uint32_t s_row_stride_B, s_surface_stride_B;
   /* AFBC buffers: body - base (the row strides count superblocks). */
   uint64_t zs_afbc_body_off, s_afbc_body_off;
};

static bool
add_zs_buffer(struct pan_sim_ctx *ctx, struct frame *f, const char *what,
              const struct pan_sim_zs_format *fmt, bool write_z, bool write_s,
              const struct zs_desc *d, unsigned block, unsigned msaa,
              uint64_t base, uint32_t row_stride_B, uint32_t surface_stride_B,
              uint64_t afbc_body_off)
{
   struct pan_sim_fill *fill = new_fill(f, what, 0);
   bool skip;

   if (!lookup_block(ctx, fill->what, block, &fill->layout, &skip))
      return false;
   if (skip)
      return true;
   if (!msaa_layers(ctx, fill->what, msaa, f->samples, &fill->layers))
      return false;
   fill->average = msaa == MALI_MSAA_AVERAGE;
   pan_sim_zs_pixel(fmt, write_z, d->z_clear, write_s, d->s_clear, &fill->px);
   fill->rt = -1;
   fill->zs = *fmt;
   fill->write_z = write_z;
   fill->write_s = write_s;
   fill->s_clear = d->s_clear;
   fill->base = base;
   fill->row_stride_B = row_stride_B;
   fill->layer_stride_B = surface_stride_B;
   set_afbc(fill, block, row_stride_B, false, afbc_body_off);
   f->count++;
   return true;
}

static bool
add_depth_stencil(struct pan_sim_ctx *ctx, struct frame *f,
                  struct zs_desc *d)
{
   if (d->write_z || d->write_s_in_zs) {
      struct pan_sim_zs_format zs;

      if (!lookup_zs(ctx, d->zs_format, &zs))
         return false;
      if (!add_zs_buffer(ctx, f, "depth/stencil buffer", &zs, d->write_z,
                         d->write_s_in_zs, d, d->zs_block, d->zs_msaa,
                         d->zs_base, d->zs_row_stride_B,
                         d->zs_surface_stride_B, d->zs_afbc_body_off))
         return false;
   }
   if (d->write_s_sep) {
      struct pan_sim_zs_format s;

      if (!d->s_format)
         return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, 0,
                             "stencil write enabled, but neither the "
                             "depth/stencil nor a stencil format holds "
                             "stencil");
      if (!lookup_s(ctx, d->s_format, &s) ||
          !add_zs_buffer(ctx, f, "stencil buffer", &s, false, true, d,
                         d->s_block, d->s_msaa, d->s_base, d->s_row_stride_B,
                         d->s_surface_stride_B, d->s_afbc_body_off))
         return false;
   }
   return true;
}

/* Rectangle of the job (tiles) clipped to the framebuffer bounds. */
static void
clip(struct frame *f, unsigned min_x, unsigned min_y, unsigned max_x,
     unsigned max_y)
{
   struct pan_sim_rect *r = &f->rect;

   r->x0 = r->x0 > min_x ? r->x0 : min_x;
   r->y0 = r->y0 > min_y ? r->y0 : min_y;
   r->x1 = r->x1 < max_x ? r->x1 : max_x;
   r->y1 = r->y1 < max_y ? r->y1 : max_y;
   f->empty = r->x0 > r->x1 || r->y0 > r->y1;
}

/* ---- framebuffer descriptors ---- */

#if PAN_ARCH == 4
static bool
read_framebuffer(struct pan_sim_ctx *ctx, uint64_t fbd, struct frame *f)
{
   if (fbd & (pan_alignment(framebuffer) - 1))
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, fbd,
                          "framebuffer 0x%" PRIx64 " is not %u-byte aligned",
                          fbd, pan_alignment(framebuffer));
   const void *p =
      pan_sim_ctx_read(ctx, fbd, pan_size(framebuffer), "framebuffer");
   if (!p)
      return false;
   pan_section_unpack(p, framebuffer, parameters, fb);

   clip(f, fb.bound_min_x, fb.bound_min_y, fb.bound_max_x, fb.bound_max_y);
   f->samples = fb.sample_count;
   if (fb.big_endian)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, fbd,
                          "big-endian write-back is not executed yet");

   /* A preloaded buffer is stored back unchanged: leave it alone. */
   if (fb.color_write_enable && !fb.color_preload_enable) {
      struct color_desc c = {
         .tib = fb.internal_format,
         .wb = fb.color_writeback_format,
         .block = fb.color_block_format,
         .msaa = fb.msaa,
         .swizzle = fb.swizzle,
         .clear = {fb.color_clear.color_0, fb.color_clear.color_1,
                   fb.color_clear.color_2, fb.color_clear.color_3},
         .base = fb.color_writeback.base,
         .row_stride_B = fb.color_writeback.row_stride_B,
         .surface_stride_B = fb.color_writeback.surface_stride_B,
      };
      if (!add_color(ctx, f, 0, &c))
         return false;
   }

   /* v4 writes the whole depth/stencil pixel (stencil bits of combined
    * formats included) under zs_write_enable; s_write_enable is for the
    * separate stencil buffer.
    */
   bool zs_write = fb.zs_write_enable && !fb.zs_preload_enable;
   struct zs_desc d = {
      .write_z = zs_write,
      .write_s_in_zs = zs_write,
      .write_s_sep = fb.s_write_enable,
      .z_clear = fb.z_clear.value,
      .s_clear = fb.s_clear,
      .zs_format = fb.zs_format,
      .zs_block = fb.zs_block_format,
      .zs_msaa = fb.msaa,
      .zs_base = fb.zs_writeback.base,
      .zs_row_stride_B = fb.zs_writeback.row_stride_B,
      .zs_surface_stride_B = fb.zs_writeback.surface_stride_B,
      .s_format = fb.s_format,
      .s_block = fb.s_block_format,
      .s_msaa = fb.msaa,
      .s_base = fb.s_writeback.base,
      .s_row_stride_B = fb.s_writeback.row_stride_B,
      .s_surface_stride_B = fb.s_writeback.surface_stride_B,
   };
   return add_depth_stencil(ctx, f, &d);
}

#else /* v5+: framebuffer, optional ZS/CRC extension, render targets */

static bool
read_render_target(struct pan_sim_ctx *ctx, struct frame *f, uint64_t va,
                   unsigned i, bool preloaded_by_shader)
{
   char what[48];

   snprintf(what, sizeof(what), "render target %u descriptor", i);
   const void *p = pan_sim_ctx_read(ctx, va, pan_size(render_target), what);
   if (!p)
      return false;
   pan_unpack(p, render_target, rt);

   if (!rt.write_enable)
      return true;
   if (rt.yuv_enable)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, va,
                          "render target %u: YUV write-back is not executed "
                          "yet",
                          i);
#if PAN_ARCH <= 6
   if (rt.writeback_endianness != MALI_RT_ENDIANNESS_LITTLE_ENDIAN)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, va,
                          "render target %u: big-endian write-back is not "
                          "executed yet",
                          i);
#endif
#if PAN_ARCH == 5
   if (rt.preload_enable)
      return true; /* stored back unchanged */
   const struct PAN_GENX(rt_clear) *clear = &rt.cleared.clear;
#else
   const struct PAN_GENX(rt_clear) *clear = &rt.clear;
#endif
   struct color_desc c = {
      .preload = preloaded_by_shader,
      .tib = rt.internal_format,
      .wb = rt.writeback_format,
      .block = rt.writeback_block_format,
      .msaa = rt.writeback_msaa,
      .swizzle = rt.swizzle,
      .clear = {clear->color_0, clear->color_1, clear->color_2,
                clear->color_3},
      .base = rt.rgb.base,
      .row_stride_B = rt.rgb.row_stride_B,
      .surface_stride_B = rt.rgb.surface_stride_B,
   };
#if PAN_ARCH >= 6
   if (is_afbc_block(rt.writeback_block_format)) {
      c.base = rt.afbc.header;
      c.afbc_row_stride = rt.afbc.row_stride_B;
#if PAN_ARCH >= 9
      c.afbc_wide = rt.afbc.wide_block;
      c.afbc_body_off = rt.afbc.body_offset;
#else
      c.afbc_wide = rt.afbc.afbc_wide_block_enable;
      if (rt.afbc.body < rt.afbc.header)
         return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, va,
                              "render target %u: AFBC body 0x%" PRIx64
                              " below its headers 0x%" PRIx64,
                              i, rt.afbc.body, rt.afbc.header);
      c.afbc_body_off = rt.afbc.body - rt.afbc.header;
#endif
   }
#endif
   return add_color(ctx, f, i, &c);
}

static bool
read_zs_extension(struct pan_sim_ctx *ctx, struct frame *f, uint64_t va,
                  struct zs_desc *d)
{
   const void *p = pan_sim_ctx_read(ctx, va, pan_size(zs_crc_extension),
                              "ZS/CRC extension");
   if (!p)
      return false;
   pan_unpack(p, zs_crc_extension, ext);

#if PAN_ARCH <= 6
   if (ext.zs_big_endian)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, va,
                          "big-endian depth/stencil is not executed yet");
#endif
   d->zs_format = ext.zs_write_format;
   d->zs_block = ext.zs_block_format;
   d->zs_msaa = ext.zs_msaa;
   d->s_format = ext.s_write_format;
   d->s_block = ext.s_block_format;
   d->s_msaa = ext.s_msaa;
#if PAN_ARCH >= 9
   d->zs_base = ext.zs_writeback_base;
   d->zs_row_stride_B = ext.zs_writeback_row_stride;
   d->zs_surface_stride_B = ext.zs_linear.surface_stride_B;
   d->s_base = ext.s_writeback_base;
   d->s_row_stride_B = ext.s_writeback_row_stride;
   d->s_surface_stride_B = ext.s_linear.surface_stride_B;
   d->zs_afbc_body_off = ext.zs_afbc.body_offset_B;
   d->s_afbc_body_off = ext.s_afbc.body_offset_B;
#else
   d->zs_base = ext.linear.zs_writeback_base;
   d->zs_row_stride_B = ext.linear.zs_writeback_row_stride;
   d->zs_surface_stride_B = ext.linear.zs_writeback_surface_stride;
   d->s_base = ext.linear.s_writeback_base;
   d->s_row_stride_B = ext.linear.s_writeback_row_stride;
   d->s_surface_stride_B = ext.linear.s_writeback_surface_stride;
#if PAN_ARCH >= 6
   if (is_afbc_block(d->zs_block)) {
      d->zs_base = ext.afbc.zs_afbc_header;
      d->zs_row_stride_B = ext.afbc.zs_afbc_row_stride;
      if (ext.afbc.zs_afbc_body < ext.afbc.zs_afbc_header)
         return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, va,
                              "depth/stencil AFBC body below its headers");
      d->zs_afbc_body_off = ext.afbc.zs_afbc_body - ext.afbc.zs_afbc_header;
   }
#endif
#endif

   /* Stencil lives in the depth/stencil buffer when its format has a
    * stencil field, in the stencil buffer otherwise.
    */
   bool zs_has_stencil = false;
   if (d->write_z || (d->write_s_sep && d->zs_format)) {
      struct pan_sim_zs_format zs;
      if (!lookup_zs(ctx, d->zs_format, &zs))
         return false;
      zs_has_stencil = zs.stencil_bits != 0;
   }
   if (zs_has_stencil) {
      d->write_s_in_zs = d->write_s_sep;
      d->write_s_sep = false;
   }
   return add_depth_stencil(ctx, f, d);
}

#if PAN_ARCH == 6 || PAN_ARCH == 7
/* The targets the pre-frame draw at dcds writes: those of the first count
 * whose blend descriptor is enabled and not OFF. */
static bool
preframe_blend_mask(struct pan_sim_ctx *ctx, uint64_t dcds, unsigned count,
                    unsigned *mask)
{
   const void *d =
      pan_sim_ctx_read(ctx, dcds, pan_size(draw), "pre-frame draw descriptor");
   if (!d)
      return false;
   pan_unpack(d, draw, draw);
   *mask = 0;
   for (unsigned i = 0; i < count; ++i) {
      uint64_t va = draw.state + pan_size(renderer_state) +
                    i * (uint64_t)pan_size(blend);
      /* Outside the submission (a replayed dump): taken as written. */
      const void *b =
         pan_sim_read(ctx->space, va, pan_size(blend), 0, "blend", NULL);
      if (!b) {
         *mask |= 1u << i;
         continue;
      }
      pan_unpack(b, blend, bd);
      if (bd.enable && bd.internal.mode != MALI_BLEND_MODE_OFF)
         *mask |= 1u << i;
   }
   return true;
}
#endif

static bool
read_framebuffer(struct pan_sim_ctx *ctx, uint64_t tagged, struct frame *f)
{
   uint64_t fbd = tagged & ~(uint64_t)MALI_FBD_TAG_MASK;
   bool tag_zs = tagged & MALI_FBD_TAG_HAS_ZS_RT;

#if PAN_ARCH == 5
   if (!(tagged & MALI_FBD_TAG_IS_MFBD))
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, fbd,
                          "framebuffer pointer lacks the MFBD tag (the "
                          "single-target descriptor is not executed on v5)");
#endif
   const void *p =
      pan_sim_ctx_read(ctx, fbd, pan_size(framebuffer), "framebuffer");
   if (!p)
      return false;
   pan_section_unpack(p, framebuffer, parameters, fb);

   if (fb.has_zs_crc_extension != tag_zs)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, fbd,
                          "the framebuffer %s a ZS/CRC extension but its "
                          "pointer is %stagged for one",
                          fb.has_zs_crc_extension ? "has" : "has no",
                          tag_zs ? "" : "not ");
   clip(f, fb.bound_min_x, fb.bound_min_y, fb.bound_max_x, fb.bound_max_y);
   f->samples = fb.sample_count;
   f->z_clear = fb.z_clear;
   f->s_clear = fb.s_clear;
#if PAN_ARCH >= 6
   f->tiler = fb.tiler;
   f->sample_locations = fb.sample_locations;
#endif

   bool color_preloaded = false;
   unsigned preload_mask = ~0u; /* targets the pre-frame draw writes */
#if PAN_ARCH >= 6
   /* Frame shaders load (pre) or post-process the tile buffer.  The
    * pre-frame shaders (0 colour, 1 depth/stencil) are shaded before the
    * frame's draws (pan_sim_vX_preframe.c) when nothing they need is
    * missing; otherwise none is run and a pre-frame shader is taken to
    * load the render targets as they are in memory (what drivers use it
    * for).  Only the pixels shaded are stored: a frame without primitives
    * leaves the targets alone unless a pre-frame shader runs always
    * ("always" or "early ZS always").
    */
   f->width = fb.width;
   f->height = fb.height;
   const unsigned modes[2] = { fb.pre_frame_0, fb.pre_frame_1 };
   unsigned wanted = 0;
   bool usable = fb.post_frame == MALI_PRE_POST_FRAME_SHADER_MODE_NEVER;
   for (unsigned i = 0; i < 2; ++i) {
      if (modes[i] == MALI_PRE_POST_FRAME_SHADER_MODE_NEVER)
         continue;
      wanted |= 1u << i;
      usable = usable &&
               PAN_GENX(sim_preframe_usable)(ctx, fb.frame_shader_dcds, i);
      if (modes[i] == MALI_PRE_POST_FRAME_SHADER_MODE_ALWAYS ||
          modes[i] == MALI_PRE_POST_FRAME_SHADER_MODE_EARLY_ZS_ALWAYS)
         f->preframe_always = true;
   }
   if (!usable || !wanted)
      f->preframe_always = false;
   if (wanted && usable) {
      f->preframe_dcds = fb.frame_shader_dcds;
      f->preframe_mask = wanted;
   }
   if ((f->preframe_mask & 1) != 0) {
      color_preloaded = true;
#if PAN_ARCH >= 9
      /* A target the draw does not write starts from its clear. */
      const void *dcd = pan_sim_ctx_read(ctx, fb.frame_shader_dcds,
                                         pan_size(draw),
                                         "pre-frame draw descriptor");
      if (!dcd)
         return false;
      pan_unpack(dcd, draw, pre);
      preload_mask = pre.render_target_mask;
#else
      /* v6/v7: a target whose blend descriptor (after the pre-frame
       * renderer state) is disabled or OFF is not written either. */
      if (!preframe_blend_mask(ctx, fb.frame_shader_dcds,
                               fb.render_target_count, &preload_mask))
         return false;
#endif
   } else if (!f->preframe_dcds && wanted) {
      pan_sim_warn_once(ctx, PAN_SIM_ONCE_FRAME_SHADERS,
                       "frame shaders are not executed: a pre-frame shader "
                       "is taken to load the render targets from memory");
      color_preloaded = true;
   } else if (fb.post_frame != MALI_PRE_POST_FRAME_SHADER_MODE_NEVER) {
      pan_sim_warn_once(ctx, PAN_SIM_ONCE_FRAME_SHADERS,
                       "frame shaders are not executed yet: post-frame "
                       "shaders are skipped");
   }
#endif

   uint64_t next = fbd + pan_size(framebuffer);
   if (fb.has_zs_crc_extension) {
      struct zs_desc d = {
         .write_z = fb.z_write_enable && !fb.z_preload_enable,
         .write_s_sep = fb.s_write_enable && !fb.s_preload_enable,
         .z_clear = fb.z_clear,
         .s_clear = fb.s_clear,
      };
      if (!read_zs_extension(ctx, f, next, &d))
         return false;
      next += pan_size(zs_crc_extension);
   }
   for (unsigned i = 0; i < fb.render_target_count; ++i) {
      if (!read_render_target(ctx, f, next + i * pan_size(render_target), i,
                              color_preloaded && ((preload_mask >> i) & 1)))
         return false;
   }
   return true;
}
#endif

/* The tile-buffer word of a colour target to store for pixel `at`:
 * sample `s`, or the mean of the samples (unorm tile-buffer formats, the
 * mean rounded to the stored precision) when the target resolves. */
static bool
color_word(struct pan_sim_ctx *ctx, const struct pan_sim_fill *fill,
           const struct pan_sim_tilebuf *tb, unsigned at, unsigned s,
           uint32_t out[4])
{
   const struct pan_sim_tb_rt *t = &tb->rt[fill->rt];

   memcpy(out, &t->words[4 * (at + s)], 16);
   if (!fill->average || tb->samples == 1)
      return true;
   if (t->raw)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, fill->base,
                           "%s: resolving tile-buffer format %s is not "
                           "modelled",
                           fill->what, fill->tib.name);
   float sum[4] = { 0 };
   for (unsigned i = 0; i < tb->samples; ++i) {
      float rgba[4];
      pan_sim_tib_decode(t, &t->words[4 * (at + i)], rgba);
      for (unsigned c = 0; c < 4; ++c)
         sum[c] += rgba[c];
   }
   for (unsigned c = 0; c < 4; ++c)
      sum[c] /= (float)tb->samples;
   pan_sim_tib_encode(t, sum, 0xf, out);
   return true;
}

/* Store the pixels of one image the draws changed: every sample into its
 * layer for a multisampled image, else one value a pixel (the mean when
 * resolving colour, sample 0 otherwise). */
static bool
store_drawn(struct pan_sim_ctx *ctx, const struct pan_sim_fill *fill,
            const struct frame *f, const struct pan_sim_tilebuf *tb)
{
   bool per_sample = tb->samples > 1 && fill->layers == tb->samples;
   unsigned n = per_sample ? tb->samples : 1;

   for (unsigned y = f->rect.y0; y <= f->rect.y1; ++y) {
      for (unsigned x = f->rect.x0; x <= f->rect.x1; ++x) {
         unsigned at = pan_sim_tilebuf_at(tb, (int)x, (int)y);
         uint16_t any = 0;
         for (unsigned s = 0; s < tb->samples; ++s)
            any |= tb->written[at + s];
         for (unsigned s = 0; s < n; ++s) {
            struct pan_sim_pixel px;
            uint16_t w = per_sample ? tb->written[at + s] : any;
            if (fill->rt >= 0) {
               uint32_t word[4];
               if (!(w & (1u << fill->rt)))
                  continue;
               if (!color_word(ctx, fill, tb, at, s, word))
                  return false;
               /* Formats were checked by the clear conversion. */
               pan_sim_color_pixel(ctx, fill->what, &fill->tib, &fill->wb,
                                   fill->swizzle, word, &px);
            } else {
               bool z = fill->write_z && (w & PAN_SIM_WRITTEN_DEPTH);
               bool st = fill->write_s && (w & PAN_SIM_WRITTEN_STENCIL);
               if (!z && !st)
                  continue;
               pan_sim_zs_pixel(&fill->zs, z, tb->depth[at + s], st,
                                tb->stencil[at + s], &px);
            }
            bool ok = per_sample
                         ? pan_sim_fill_put_layer(ctx, fill, x, y, s, &px)
                         : pan_sim_fill_put(ctx, fill, x, y, &px);
            if (!ok)
               return false;
         }
      }
   }
   return true;
}

/* Clear every image, then store the pixels the draws changed (tb NULL:
 * clears only). */
static bool
run_fills(struct pan_sim_ctx *ctx, const struct frame *f,
          const struct pan_sim_tilebuf *tb)
{
   for (unsigned i = 0; i < f->count; ++i) {
      const struct pan_sim_fill *fill = &f->fills[i];
      if (!fill->preload && fill->layout == PAN_SIM_AFBC) {
         if (!pan_sim_afbc_fill_run(ctx, fill, &f->rect))
            return false;
      } else if (!fill->preload) {
         pan_sim_fill_run(fill, &f->rect);
      }
      if (tb && !store_drawn(ctx, fill, f, tb))
         return false;
   }
   return true;
}

#if PAN_ARCH >= 6
/* The positions of a multisampled frame's samples: the framebuffer's
 * table holds, for sample i, x and y as 16-bit values in 1/256 pixel from
 * the pixel's top-left corner (4 bytes a sample). */
static bool
read_sample_positions(struct pan_sim_ctx *ctx, const struct frame *f,
                      struct pan_sim_tilebuf *tb)
{
   const uint16_t *p = pan_sim_ctx_read(
      ctx, f->sample_locations, 4ull * f->samples, "sample position table");
   if (!p)
      return false;
   for (unsigned s = 0; s < f->samples; ++s) {
      if (p[2 * s] > 256 || p[2 * s + 1] > 256)
         return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, f->sample_locations,
                              "sample %u lies outside its pixel (%u, %u)", s,
                              p[2 * s], p[2 * s + 1]);
      tb->sample_x[s] = p[2 * s];
      tb->sample_y[s] = p[2 * s + 1];
   }
   return true;
}

static bool
draw_frame(struct pan_sim_ctx *ctx, struct frame *f, struct pan_sim_plist *l)
{
   struct pan_sim_tilebuf tb;
   if (f->samples > PAN_SIM_MAX_SAMPLES)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, 0,
                           "%u samples a pixel are not executed", f->samples);
   bool ok = pan_sim_tilebuf_init(
      &tb, (int)f->rect.x0, (int)f->rect.y0, f->rect.x1 - f->rect.x0 + 1,
      f->rect.y1 - f->rect.y0 + 1, f->samples, f->z_clear, f->s_clear);
   if (ok && f->samples > 1 && !read_sample_positions(ctx, f, &tb)) {
      pan_sim_tilebuf_fini(&tb);
      return false;
   }

   for (unsigned i = 0; ok && i < f->count; ++i) {
      const struct pan_sim_fill *fill = &f->fills[i];
      if (fill->rt < 0 && fill->zs.depth_bits) {
         /* The polygon offset's step. */
         tb.z_bits = fill->zs.depth_bits;
         tb.z_float = fill->zs.depth_float;
      }
      if (fill->rt < 0)
         continue;
      if (fill->rt >= PAN_SIM_MAX_RTS) {
         pan_sim_tilebuf_fini(&tb);
         return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, fill->base,
                              "%s: drawing into tile-buffer format %s is not "
                              "executed yet",
                              fill->what, fill->tib.name);
      }
      ok = pan_sim_tilebuf_add_rt(&tb, (unsigned)fill->rt, fill->tib.int_bits,
                                  fill->tib.frac_bits, fill->clear);
      tb.rt[fill->rt].raw = fill->tib.raw;
      if (ok && fill->preload && !f->preframe_dcds)
         ok = pan_sim_tilebuf_load_rt(ctx, &tb, fill, &f->rect);
   }
   if (!ok) {
      pan_sim_tilebuf_fini(&tb);
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, 0, "out of memory");
   }
#if PAN_ARCH >= 6
   for (unsigned i = 0; i < 2; ++i) {
      if (((f->preframe_mask >> i) & 1) &&
          !PAN_GENX(sim_preframe_run)(ctx, f->preframe_dcds, i, f->width,
                                      f->height, &tb)) {
         pan_sim_tilebuf_fini(&tb);
         return false;
      }
   }
#endif
   if (l)
      ok = PAN_GENX(sim_shade_list)(ctx, l, &tb);
   if (ok)
      ok = run_fills(ctx, f, &tb);
   pan_sim_tilebuf_fini(&tb);
   return ok;
}
#else
static bool
draw_frame(struct pan_sim_ctx *ctx, struct frame *f, struct pan_sim_plist *l)
{
   (void)f;
   return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, l->key,
                        "%u primitives to draw: drawing is not executed on "
                        "v%u yet",
                        l->nr_prims, PAN_ARCH);
}
#endif

bool
PAN_GENX(sim_exec_fragment)(struct pan_sim_ctx *ctx, uint64_t job_va)
{
   const void *job = pan_sim_ctx_read(ctx, job_va, pan_size(fragment_job),
                                "fragment job descriptor");
   struct frame f = {0};

   if (!job)
      return false;
   pan_section_unpack(job, fragment_job, payload, fp);

#if PAN_ARCH >= 5
   if (fp.has_tile_enable_map)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, job_va,
                          "tile enable maps are not executed yet");
#endif
   f.rect.x0 = fp.bound_min_x * TILE_PX;
   f.rect.y0 = fp.bound_min_y * TILE_PX;
   f.rect.x1 = fp.bound_max_x * TILE_PX + TILE_PX - 1;
   f.rect.y1 = fp.bound_max_y * TILE_PX + TILE_PX - 1;

   if (!read_framebuffer(ctx, fp.framebuffer, &f))
      return false;

   /* The primitives of the frame, taken whatever happens next so that a
    * later frame at the same tiler context starts empty. */
   struct pan_sim_plist *list = f.tiler ? pan_sim_plist_take(f.tiler) : NULL;
   bool ok = true;
   if (f.empty) {
      pan_sim_plist_free(list);
      return true;
   }
   for (unsigned i = 0; ok && i < f.count; ++i)
      ok = f.fills[i].layout == PAN_SIM_AFBC
              ? pan_sim_afbc_fill_check(ctx, &f.fills[i], &f.rect)
              : pan_sim_fill_check(ctx, &f.fills[i], &f.rect);
   if (ok && list && list->nr_prims)
      ok = draw_frame(ctx, &f, list);
   else if (ok && f.preframe_always)
      ok = draw_frame(ctx, &f, NULL);
   else if (ok)
      ok = run_fills(ctx, &f, NULL);
   pan_sim_plist_free(list);
   if (ok)
      pan_sim_report_images(ctx, job_va, &f.rect, f.fills, f.count);
   return ok;
}
