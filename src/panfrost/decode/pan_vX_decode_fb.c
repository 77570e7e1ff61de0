/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Framebuffer descriptors, render targets and tiler contexts of one
 * architecture (compiled once per PAN_ARCH). */

#include "pan_decode_arch.h"

#if PAN_ARCH >= 5
static void
decode_render_targets(struct pan_decode_ctx *ctx, uint64_t va, unsigned count)
{
   for (unsigned i = 0; i < count; ++i) {
      char label[32];
      snprintf(label, sizeof(label), "render target %u", i);
      DECODE(ctx, render_target, rt, va + i * pan_size(render_target), label)
      {
#if PAN_ARCH <= 7
         bool afbc = rt.writeback_block_format == MALI_BLOCK_FORMAT_AFBC;
         if (rt.write_enable && !rt.yuv_enable && !afbc)
            pan_decode_check_range(ctx, rt.rgb.base, 1, label);
#else
         if (rt.write_enable && !rt.yuv_enable)
            pan_decode_check_range(ctx, rt.rgb.base, 1, label);
#endif
      }
   }
}
#endif

#if PAN_ARCH >= 6
void
PAN_GENX(decode_tiler_context)(struct pan_decode_ctx *ctx, uint64_t va)
{
   if (!pan_decode_push(ctx, "tiler context"))
      return;
   DECODE(ctx, tiler_context, t, va, "tiler context")
   {
      /* From v6 the tiler allocates the polygon list from the heap; a
       * driver may leave this word zero (ours does). */
      if (t.polygon_list)
         pan_decode_check_range(ctx, t.polygon_list, 1, "polygon list");
      if (pan_decode_push(ctx, "tiler heap")) {
         DECODE(ctx, tiler_heap, h, t.heap, "tiler heap")
         {
            if (h.top < h.bottom || h.bottom < h.base)
               pan_decode_error(ctx, "tiler heap: need base <= bottom <= top");
            else
               pan_decode_check_range(ctx, h.base, h.top - h.base,
                                      "tiler heap memory");
         }
         pan_decode_pop(ctx);
      }
   }
   pan_decode_pop(ctx);
}
#endif

void
PAN_GENX(decode_framebuffer)(struct pan_decode_ctx *ctx, uint64_t tagged)
{
   /* From v5 the low bits of the pointer are tags. */
   uint64_t va = PAN_ARCH >= 5 ? tagged & ~(uint64_t)63 : tagged;
   if (!pan_decode_push(ctx, "framebuffer"))
      return;
   const void *p = pan_decode_fetch(ctx, va, pan_size(framebuffer),
                                    pan_alignment(framebuffer), "framebuffer");
   if (!p) {
      pan_decode_pop(ctx);
      return;
   }
   pan_decode_log(ctx, "framebuffer @ 0x%" PRIx64 ":", va);
   PRINT_DESCRIPTOR(ctx, framebuffer, p);

   pan_section_unpack(p, framebuffer, parameters, params);
#if PAN_ARCH == 4
   pan_section_unpack(p, framebuffer, tiler, tiler);
   pan_decode_check_range(ctx, tiler.polygon_list, 1, "polygon list");
   if (tiler.heap_end < tiler.heap_start)
      pan_decode_error(ctx, "tiler heap ends before it starts");
   (void)params;
#else
#if PAN_ARCH == 5
   pan_section_unpack(p, framebuffer, tiler, tiler);
   pan_decode_check_range(ctx, tiler.polygon_list, 1, "polygon list");
   if (!(tagged & MALI_FBD_TAG_IS_MFBD))
      pan_decode_error(ctx, "framebuffer pointer lacks the MFBD tag");
#else
   /* A pass without geometry (only clears) has no tiler context. */
   if (params.tiler)
      PAN_GENX(decode_tiler_context)(ctx, params.tiler);
   else
      pan_decode_log(ctx, "no tiler context: the pass has no geometry");
   if (params.sample_locations)
      pan_decode_check_range(ctx, params.sample_locations, 4,
                             "sample locations");
#endif
   uint64_t next = va + pan_size(framebuffer);
   if (params.has_zs_crc_extension) {
      if (!(tagged & MALI_FBD_TAG_HAS_ZS_RT))
         pan_decode_error(ctx, "ZS/CRC extension present but untagged");
      DECODE(ctx, zs_crc_extension, zs, next, "ZS/CRC extension") {}
      next += pan_size(zs_crc_extension);
   }
   ctx->rt_count = params.render_target_count;
   decode_render_targets(ctx, next, params.render_target_count);
#endif
   pan_decode_pop(ctx);
}
