/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Framebuffer descriptors and fragment jobs of one architecture: compiled
 * once per PAN_ARCH (hence the vX in the name), picked by pan_fb.c.  The
 * formats come from pan_format_table.h; what differs per architecture is
 * which of them the descriptors can name, and how.
 */

#include <assert.h>

#include "pan_fb_arch.h"
#include "pan_genxml.h"
#include "pan_image_layout.h"
#include "pan_tiler_sizing.h"
#include "pan_vX_afbc.h"

static unsigned
fb_samples(const struct pan_fb *fb)
{
   return fb->nr_samples > 1 ? fb->nr_samples : 1;
}

static unsigned
block_format(enum pan_fb_block block)
{
   switch (block) {
   case PAN_FB_BLOCK_LINEAR: return MALI_BLOCK_FORMAT_LINEAR;
#if PAN_ARCH >= 6
   /* Rows of headers (v7's AFBC_TILED would be 8x8-superblock header
    * tiles; v6 has no tiled headers).
    */
   case PAN_FB_BLOCK_AFBC: return MALI_BLOCK_FORMAT_AFBC;
#endif
   default: return MALI_BLOCK_FORMAT_TILED_U_INTERLEAVED;
   }
}

/* How this architecture names each depth/stencil layout: as the format of
 * the depth/stencil buffer, or of the separate stencil buffer.  A layout
 * with neither cannot be written back here (pan_format_table.c says which
 * and why; tests/formats checks the two agree).
 */
static const struct {
   uint8_t zs, s;
} zs_encodings[PAN_ZS_LAYOUT_COUNT] = {
   [PAN_ZS_D16] = {MALI_ZS_FORMAT_D16, 0},
   [PAN_ZS_D24S8] = {MALI_ZS_FORMAT_D24S8, 0},
   [PAN_ZS_D24X8] = {MALI_ZS_FORMAT_D24X8, 0},
   [PAN_ZS_D32F] = {MALI_ZS_FORMAT_D32, 0},
#if PAN_ARCH <= 7
   [PAN_ZS_D32F_S8X24] = {MALI_ZS_FORMAT_D32_S8X24, 0},
#endif
   [PAN_ZS_S8] = {0, MALI_S_FORMAT_S8},
   [PAN_ZS_D32F_S8] = {MALI_ZS_FORMAT_D32, MALI_S_FORMAT_S8},
};

static bool
zs_supported(enum pan_zs_layout l)
{
   return l > PAN_ZS_NONE && l < PAN_ZS_LAYOUT_COUNT &&
          (zs_encodings[l].zs || zs_encodings[l].s);
}

/* What the pass writes back: the depth/stencil buffer (depth bits, and the
 * stencil bits when the layout interleaves them) and the separate stencil
 * buffer.
 */
static bool
zs_in_zs_buffer(const struct pan_fb_zs *zs)
{
   return zs->format != PAN_ZS_NONE && zs_encodings[zs->format].zs;
}

static bool
zs_in_s_buffer(const struct pan_fb_zs *zs)
{
   return zs->format != PAN_ZS_NONE && zs_encodings[zs->format].s;
}

/* Where the separate stencil buffer is: a plane of its own for a two-plane
 * layout, else the attachment's one buffer.
 */
struct zs_plane {
   uint64_t base;
   uint32_t row_stride_B, surface_stride_B;
};

static struct zs_plane
zs_stencil_plane(const struct pan_fb_zs *zs)
{
   if (zs->format == PAN_ZS_D32F_S8)
      return (struct zs_plane){zs->s_base, zs->s_row_stride_B,
                               zs->s_surface_stride_B};
   return (struct zs_plane){zs->base, zs->row_stride_B, zs->surface_stride_B};
}

static bool
zs_write_depth(const struct pan_fb_zs *zs)
{
   return zs->write_z && pan_zs_layout_has_depth(zs->format);
}

static bool
zs_write_stencil(const struct pan_fb_zs *zs)
{
   return zs->write_s && pan_zs_layout_has_stencil(zs->format);
}

#if PAN_ARCH == 4
/* The single-target descriptor names raw write-back formats by channels. */
static int
v4_writeback_format(const struct pan_rt_format *f)
{
   if (!f->raw)
      return f->writeback;
   switch (f->mem_B) {
   case 2: return MALI_COLOR_FORMAT_1_16B_CHANNEL;
   case 4: return MALI_COLOR_FORMAT_1_32B_CHANNEL;
   case 6: return MALI_COLOR_FORMAT_3_16B_CHANNELS;
   case 8: return MALI_COLOR_FORMAT_2_32B_CHANNELS;
   case 12: return MALI_COLOR_FORMAT_3_32B_CHANNELS;
   case 16: return MALI_COLOR_FORMAT_4_32B_CHANNELS;
   default: return -1;
   }
}
#endif

static bool
color_supported(const struct pan_rt_format *f)
{
#if PAN_ARCH == 4
   return v4_writeback_format(f) >= 0;
#else
   (void)f;
   return true;
#endif
}

#if PAN_IS_MIDGARD
static void
emit_midgard_tiler(const struct pan_fb *fb, void *out)
{
   bool hierarchy = !fb->no_hierarchical_tiling;
   unsigned header_B = PAN_MIDGARD_MIN_HEADER_B;

   /* No geometry: a minimal polygon list that disables binning, with the
    * heap reduced to nothing.
    */
   pan_pack(out, tiler_context, cfg) {
      cfg.hierarchy_mask =
         hierarchy ? PAN_MIDGARD_TILER_DISABLED : PAN_MIDGARD_TILER_USER;
      cfg.polygon_list_size = header_B + (hierarchy ? 0 : 4);
      cfg.polygon_list = fb->polygon_list;
      cfg.polygon_list_body = fb->polygon_list + header_B;
      cfg.heap_start = fb->polygon_list;
      cfg.heap_end = fb->polygon_list;
   }
}
#endif

#if PAN_ARCH == 4
static uint64_t
emit_sfbd(const struct pan_fb *fb, void *cpu, uint64_t gpu_va)
{
   const struct pan_fb_color *rt = &fb->rts[0];
   const struct pan_fb_zs *zs = &fb->zs;

   pan_section_pack(cpu, framebuffer, local_storage, cfg) {}
   pan_section_pack(cpu, framebuffer, parameters, cfg) {
      cfg.sample_count = 1;
      cfg.bound_max_x = fb->width_px - 1;
      cfg.bound_max_y = fb->height_px - 1;
      cfg.tie_break_rule = MALI_TIE_BREAK_RULE_MINUS_180_IN_0_OUT;
      if (rt->enabled) {
         cfg.internal_format = rt->format.raw
                                 ? MALI_COLOR_BUFFER_INTERNAL_FORMAT_RAW_VALUE
                                              : rt->format.tib;
         cfg.color_writeback_format = v4_writeback_format(&rt->format);
         cfg.swizzle = rt->format.swizzle;
         cfg.srgb = rt->format.srgb;
         cfg.color_block_format = block_format(rt->block);
         cfg.color_write_enable = rt->write;
         cfg.color_writeback.base = rt->base;
         cfg.color_writeback.row_stride_B = rt->row_stride_B;
         cfg.color_writeback.surface_stride_B = rt->surface_stride_B;
         cfg.color_clear.color_0 = rt->clear_words[0];
         cfg.color_clear.color_1 = rt->clear_words[1];
         cfg.color_clear.color_2 = rt->clear_words[2];
         cfg.color_clear.color_3 = rt->clear_words[3];
      }
      /* The depth/stencil buffer is written whole (stencil bits of an
       * interleaved layout included); stencil-only goes to the separate
       * stencil buffer.
       */
      if (zs_in_zs_buffer(zs)) {
         cfg.zs_format = zs_encodings[zs->format].zs;
         cfg.zs_block_format = block_format(zs->block);
         cfg.zs_write_enable =
            zs_write_depth(zs) ||
            (zs_write_stencil(zs) && !zs_in_s_buffer(zs));
         cfg.zs_writeback.base = zs->base;
         cfg.zs_writeback.row_stride_B = zs->row_stride_B;
         cfg.zs_writeback.surface_stride_B = zs->surface_stride_B;
      }
      if (zs_in_s_buffer(zs)) {
         cfg.s_format = zs_encodings[zs->format].s;
         cfg.s_block_format = block_format(zs->block);
         cfg.s_write_enable = zs_write_stencil(zs);
         struct zs_plane sp = zs_stencil_plane(zs);
         cfg.s_writeback.base = sp.base;
         cfg.s_writeback.row_stride_B = sp.row_stride_B;
         cfg.s_writeback.surface_stride_B = sp.surface_stride_B;
      }
      cfg.z_clear.value = zs->z_clear;
      cfg.s_clear = zs->s_clear;
   }
   emit_midgard_tiler(fb, pan_section_ptr(cpu, framebuffer, tiler));
   return gpu_va;
}

#else /* v5+ multi-target */

static void
emit_zs_crc_ext(const struct pan_fb *fb, void *out)
{
   const struct pan_fb_zs *zs = &fb->zs;
   bool zs_buf = zs_in_zs_buffer(zs);

   /* An interleaved layout's stencil shares the depth/stencil buffer; the
    * stencil buffer fields then point at it too, as the public drivers do.
    */
   bool s_buf = zs_in_s_buffer(zs) || pan_zs_layout_has_stencil(zs->format);
   struct zs_plane sp = zs_stencil_plane(zs);

   /* A multisampled pass keeps depth/stencil one surface per sample. */
   unsigned msaa = fb_samples(fb) > 1 ? MALI_MSAA_LAYERED : MALI_MSAA_SINGLE;

   pan_pack(out, zs_crc_extension, cfg) {
      cfg.zs_msaa = msaa;
      cfg.s_msaa = msaa;
      if (zs_buf) {
         cfg.zs_write_format = zs_encodings[zs->format].zs;
         cfg.zs_block_format = block_format(zs->block);
      }
      if (zs_in_s_buffer(zs)) {
         cfg.s_write_format = zs_encodings[zs->format].s;
         cfg.s_block_format = block_format(zs->block);
      }
#if PAN_ARCH >= 9
      if (zs_buf && zs->block == PAN_FB_BLOCK_AFBC) {
         /* Valhall counts the header row in bytes. */
         cfg.zs_writeback_base = zs->base;
         cfg.zs_writeback_row_stride = zs->row_stride_B;
         cfg.zs_afbc.body_offset_B = zs->afbc_body_offset_B;
      } else if (zs_buf) {
         cfg.zs_writeback_base = zs->base;
         cfg.zs_writeback_row_stride = zs->row_stride_B;
         cfg.zs_linear.surface_stride_B = zs->surface_stride_B;
      }
      /* An AFBC buffer holds its own stencil: no stencil buffer. */
      if (s_buf && zs->block != PAN_FB_BLOCK_AFBC) {
         cfg.s_writeback_base = sp.base;
         cfg.s_writeback_row_stride = sp.row_stride_B;
         cfg.s_linear.surface_stride_B = sp.surface_stride_B;
      }
#else
#if PAN_ARCH >= 6
      if (zs_buf && zs->block == PAN_FB_BLOCK_AFBC) {
         /* The AFBC words overlap the linear stencil buffer's, which an
          * AFBC depth/stencil buffer does not use (its stencil is its
          * own); the row counts superblocks (16 header bytes each).
          */
         cfg.afbc.zs_afbc_header = zs->base;
         cfg.afbc.zs_afbc_row_stride = zs->row_stride_B / 16;
         cfg.afbc.zs_afbc_body = zs->base + zs->afbc_body_offset_B;
         zs_buf = s_buf = false;
      }
#endif
      if (zs_buf) {
         cfg.linear.zs_writeback_base = zs->base;
         cfg.linear.zs_writeback_row_stride = zs->row_stride_B;
         cfg.linear.zs_writeback_surface_stride = zs->surface_stride_B;
      }
      if (s_buf) {
         cfg.linear.s_writeback_base = sp.base;
         cfg.linear.s_writeback_row_stride = sp.row_stride_B;
         cfg.linear.s_writeback_surface_stride = sp.surface_stride_B;
      }
#endif
   }
}

static void
emit_rt(const struct pan_fb_color *rt, unsigned samples, unsigned cbuf_offset_B,
        void *out)
{
   if (!rt->enabled) {
      /* A slot without a surface still needs a valid format. */
      pan_pack(out, render_target, cfg) {
         cfg.internal_buffer_offset = cbuf_offset_B;
         cfg.internal_format = MALI_COLOR_BUFFER_INTERNAL_FORMAT_R8G8B8A8;
         cfg.writeback_format = MALI_COLOR_FORMAT_R8G8B8A8;
      }
      return;
   }

   pan_pack(out, render_target, cfg) {
      cfg.internal_buffer_offset = cbuf_offset_B;
      cfg.internal_format = rt->format.tib;
      cfg.writeback_format = rt->format.writeback;
      cfg.writeback_block_format = block_format(rt->block);
      cfg.swizzle = rt->format.swizzle;
      cfg.srgb = rt->format.srgb;
      cfg.write_enable = rt->write;
      if (samples > 1)
         cfg.writeback_msaa = rt->resolve ? MALI_MSAA_AVERAGE
                                          : MALI_MSAA_LAYERED;
#if PAN_ARCH >= 6
      if (rt->block == PAN_FB_BLOCK_AFBC) {
         /* The layout's cases share words: only the AFBC one is packed. */
         cfg.afbc.header = rt->base;
#if PAN_ARCH >= 9
         cfg.afbc.row_stride_B = rt->row_stride_B;
         cfg.afbc.body_offset = rt->afbc_body_offset_B;
         cfg.afbc.compression_mode = pan_afbc_compression_mode(rt->afbc_mode);
#else
         /* Bifrost (v6 as v7) counts the row in superblocks (16 header
          * bytes each).
          */
         cfg.afbc.row_stride_B = rt->row_stride_B / 16;
         cfg.afbc.body = rt->base + rt->afbc_body_offset_B;
#endif
      } else
#endif
      {
         cfg.rgb.base = rt->base;
         cfg.rgb.row_stride_B = rt->row_stride_B;
         cfg.rgb.surface_stride_B = rt->surface_stride_B;
      }
#if PAN_ARCH == 5
      cfg.cleared.clear.color_0 = rt->clear_words[0];
      cfg.cleared.clear.color_1 = rt->clear_words[1];
      cfg.cleared.clear.color_2 = rt->clear_words[2];
      cfg.cleared.clear.color_3 = rt->clear_words[3];
#else
      cfg.clear.color_0 = rt->clear_words[0];
      cfg.clear.color_1 = rt->clear_words[1];
      cfg.clear.color_2 = rt->clear_words[2];
      cfg.clear.color_3 = rt->clear_words[3];
#endif
   }
}

/* Depth precision in the tile buffer; a stencil-only pass keeps the
 * default.
 */
static unsigned
z_internal_format(enum pan_zs_layout l)
{
   switch (l) {
   case PAN_ZS_D16: return MALI_Z_INTERNAL_FORMAT_D16;
   case PAN_ZS_D32F:
   case PAN_ZS_D32F_S8:
   case PAN_ZS_D32F_S8X24: return MALI_Z_INTERNAL_FORMAT_D32;
   default: return MALI_Z_INTERNAL_FORMAT_D24;
   }
}

static uint64_t
emit_mfbd(const struct pan_fb *fb, void *cpu, uint64_t gpu_va)
{
   const struct pan_fb_zs *zs = &fb->zs;
   bool has_zs = zs->format != PAN_ZS_NONE;
   unsigned tile_px, cbuf_B;

   pan_fb_tile_size(fb, &tile_px, &cbuf_B);

#if PAN_ARCH == 5
   pan_section_pack(cpu, framebuffer, local_storage, cfg) {}
#endif
   pan_section_pack(cpu, framebuffer, parameters, cfg) {
#if PAN_ARCH >= 6
      cfg.sample_locations =
         fb->sample_positions +
         (fb_samples(fb) > 1 ? PAN_SAMPLE_POSITIONS_4X_B : 0);
      cfg.tiler = fb->tiler;
      cfg.frame_shader_dcds = fb->frame_shaders;
      cfg.pre_frame_0 = fb->preload_color
                           ? MALI_PRE_POST_FRAME_SHADER_MODE_ALWAYS
                           : MALI_PRE_POST_FRAME_SHADER_MODE_NEVER;
      /* v7+ can load depth/stencil tiles ahead of the draws. */
      cfg.pre_frame_1 = !fb->preload_zs ? MALI_PRE_POST_FRAME_SHADER_MODE_NEVER
                        : PAN_ARCH >= 7
                           ? MALI_PRE_POST_FRAME_SHADER_MODE_EARLY_ZS_ALWAYS
                           : MALI_PRE_POST_FRAME_SHADER_MODE_ALWAYS;
#endif
      cfg.width = fb->width_px;
      cfg.height = fb->height_px;
      cfg.bound_max_x = fb->width_px - 1;
      cfg.bound_max_y = fb->height_px - 1;
      cfg.sample_count = fb_samples(fb);
      cfg.sample_pattern = fb_samples(fb) > 1
                              ? MALI_SAMPLE_PATTERN_ROTATED_4X_GRID
                              : MALI_SAMPLE_PATTERN_SINGLE_SAMPLED;
      cfg.tie_break_rule = MALI_TIE_BREAK_RULE_MINUS_180_IN_0_OUT;
#if PAN_ARCH >= 9
      /* gl_PointCoord's y grows down the point (GL's default upper-left
       * sprite origin); the descriptor's default is the other way. */
      cfg.point_sprite_coord_origin_max_y = false;
#endif
      cfg.effective_tile_size = tile_px;
      cfg.render_target_count = fb->rt_count;
      cfg.color_buffer_allocation = cbuf_B;
      cfg.z_internal_format = z_internal_format(zs->format);
      cfg.z_clear = zs->z_clear;
      cfg.s_clear = zs->s_clear;
      cfg.z_write_enable = zs_write_depth(zs);
      cfg.s_write_enable = zs_write_stencil(zs);
      cfg.has_zs_crc_extension = has_zs;
   }
#if PAN_ARCH == 5
   emit_midgard_tiler(fb, pan_section_ptr(cpu, framebuffer, tiler));
#endif

   uint8_t *next = (uint8_t *)cpu + pan_size(framebuffer);
   uint64_t tag = MALI_FBD_TAG_IS_MFBD | (uint64_t)(fb->rt_count - 1) << 2;
   if (has_zs) {
      emit_zs_crc_ext(fb, next);
      next += pan_size(zs_crc_extension);
      tag |= MALI_FBD_TAG_HAS_ZS_RT;
   }

   unsigned cbuf_offset_B = 0;
   for (unsigned i = 0; i < fb->rt_count; ++i) {
      emit_rt(&fb->rts[i], fb_samples(fb), cbuf_offset_B, next);
      next += pan_size(render_target);
      if (fb->rts[i].enabled)
         cbuf_offset_B += fb->rts[i].format.tib_B * fb_samples(fb) * tile_px;
   }
   return gpu_va | tag;
}
#endif

static unsigned
fb_size_B(const struct pan_fb *fb)
{
#if PAN_ARCH == 4
   (void)fb;
   return pan_size(framebuffer);
#else
   return pan_size(framebuffer) +
          (fb->zs.format != PAN_ZS_NONE ? pan_size(zs_crc_extension) : 0) +
          fb->rt_count * pan_size(render_target);
#endif
}

static uint64_t
fb_emit(const struct pan_fb *fb, void *cpu, uint64_t gpu_va)
{
   assert(fb->rt_count >= 1 && fb->rt_count <= PAN_FB_MAX_RTS);
   assert(fb->zs.format == PAN_ZS_NONE || zs_supported(fb->zs.format));
#if PAN_ARCH == 4
   return emit_sfbd(fb, cpu, gpu_va);
#else
   return emit_mfbd(fb, cpu, gpu_va);
#endif
}

static unsigned
fragment_job_size_B(void)
{
   return pan_size(fragment_job);
}

static void
emit_fragment_job(const struct pan_fb *fb, uint64_t fbd_ptr, void *cpu)
{
   pan_section_pack(cpu, fragment_job, header, cfg) {
      cfg.type = MALI_JOB_TYPE_FRAGMENT;
      cfg.index = 1;
   }
   pan_section_pack(cpu, fragment_job, payload, cfg) {
      cfg.bound_max_x = (fb->width_px - 1) / PAN_TILE_PX;
      cfg.bound_max_y = (fb->height_px - 1) / PAN_TILE_PX;
      cfg.framebuffer = fbd_ptr;
   }
}

const struct pan_fb_arch PAN_GENX(fb_arch) = {
   .color_supported = color_supported,
   .zs_supported = zs_supported,
   .size_B = fb_size_B,
   .emit = fb_emit,
   .fragment_job_size_B = fragment_job_size_B,
   .emit_fragment_job = emit_fragment_job,
};
