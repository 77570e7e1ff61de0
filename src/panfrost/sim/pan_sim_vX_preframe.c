/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Pre-frame shaders of a Bifrost (v6/v7) or Valhall (v9) framebuffer: the
 * draw at frame_shader_dcds (0: colour, 1: depth/stencil, 2: post-frame)
 * is shaded into the tile buffer before the frame's primitives.  The draw
 * has no tiler job: on v6/v7 its position buffer holds four window-space
 * vertices, read as a triangle strip (the stock driver's full-frame
 * rectangle), and its varyings are indexed by those four vertices like
 * any draw's.
 */

#include <inttypes.h>
#include <string.h>

#include "pan_sim_priv.h"
#include "pan_sim_vX_gfx.h"
#include "pan_sim_vX_preframe.h"

#if PAN_ARCH >= 6
/* The draw descriptor at va, NULL (reported once) when the submission
 * does not hold it. */
static const void *
draw_at(struct pan_sim_ctx *ctx, uint64_t va)
{
   const void *d = pan_sim_read(ctx->space, va, pan_size(draw), 0, "draw",
                                NULL);
   if (!d)
      pan_sim_warn_once(ctx, PAN_SIM_ONCE_FRAME_SHADERS,
                        "frame shaders are not executed: the pre-frame draw "
                        "descriptor 0x%" PRIx64 " is not in the submission; "
                        "a pre-frame shader is taken to load the render "
                        "targets from memory",
                        va);
   return d;
}

/* Reports that the draw needs what at va, outside the submission. */
static bool
outside(struct pan_sim_ctx *ctx, const char *what, uint64_t va)
{
   pan_sim_warn_once(ctx, PAN_SIM_ONCE_FRAME_SHADERS,
                     "frame shaders are not executed: the pre-frame "
                     "draw reads its %s at 0x%" PRIx64 ", outside the "
                     "submission; a pre-frame shader is taken to load "
                     "the render targets from memory",
                     what, va);
   return false;
}

/* Shade the draw at va over the strip v[0..3] (two triangles, both wound
 * the same way) into tb. */
static bool
shade_strip(struct pan_sim_ctx *ctx, uint64_t va, const struct pan_sim_vtx v[4],
            struct pan_sim_tilebuf *tb)
{
   /* v9: the fragment path takes the scissor from the record. */
   struct pan_sim_draw_rec rec = {
      .scissor = { 0, 0, UINT16_MAX, UINT16_MAX },
   };
   const void *d = pan_sim_ctx_read(ctx, va, pan_size(draw),
                                    "pre-frame draw descriptor");
   if (!d)
      return false;
   _Static_assert(pan_size(draw) <= PAN_SIM_DRAW_B, "draw record size");
   memcpy(rec.draw, d, pan_size(draw));
   struct pan_sim_prim prims[2] = {
      { .v = { v[0], v[1], v[2] }, .front = true },
      { .v = { v[2], v[1], v[3] }, .front = true },
   };
   struct pan_sim_plist l = {
      .key = va,
      .draws = &rec,
      .nr_draws = 1,
      .cap_draws = 1,
      .prims = prims,
      .nr_prims = 2,
      .cap_prims = 2,
   };
   return PAN_GENX(sim_shade_list)(ctx, &l, tb);
}
#endif

#if PAN_ARCH >= 6 && PAN_ARCH <= 7

/* The stock driver keeps its preload descriptors in buffers it never
 * lists in a submission. The drm-shim maps them (every buffer of the
 * file, as the kernel does), but a replayed dump may lack them: check what
 * the draw needs first, so that such a frame falls back to loading memory
 * instead of faulting. */
bool
PAN_GENX(sim_preframe_usable)(struct pan_sim_ctx *ctx, uint64_t dcds,
                              unsigned which)
{
   const void *d = draw_at(ctx, dcds + which * (uint64_t)pan_size(draw));
   if (!d)
      return false;
   pan_unpack(d, draw, draw);
   const struct {
      uint64_t va, size_B;
      const char *what;
   } need[] = {
      { draw.position, 4 * 16, "positions" },
      { draw.state, pan_size(renderer_state), "renderer state" },
      { draw.viewport, pan_size(viewport), "viewport" },
      { draw.varyings, draw.varyings ? pan_size(attribute) : 0, "varyings" },
      { draw.varying_buffers, draw.varyings ? pan_size(attribute_buffer) : 0,
        "varying buffers" },
      { draw.textures, draw.textures ? 8 : 0, "textures" },
      { draw.samplers, draw.samplers ? pan_size(sampler) : 0, "samplers" },
   };
   for (unsigned i = 0; i < sizeof(need) / sizeof(need[0]); ++i) {
      if (need[i].size_B && !pan_sim_probe(ctx->space, need[i].va,
                                           need[i].size_B, need[i].what,
                                           NULL))
         return outside(ctx, need[i].what, need[i].va);
   }
   return true;
}

bool
PAN_GENX(sim_preframe_run)(struct pan_sim_ctx *ctx, uint64_t dcds,
                           unsigned which, unsigned width, unsigned height,
                           struct pan_sim_tilebuf *tb)
{
   (void)width, (void)height; /* the draw has its positions */
   uint64_t va = dcds + which * (uint64_t)pan_size(draw);
   const void *d = pan_sim_ctx_read(ctx, va, pan_size(draw),
                                    "pre-frame draw descriptor");
   if (!d)
      return false;
   pan_unpack(d, draw, draw);
   const float *p = pan_sim_ctx_read(ctx, draw.position, 4 * 16,
                                     "pre-frame draw positions");
   if (!p)
      return false;
   struct pan_sim_vtx v[4];
   for (unsigned i = 0; i < 4; ++i) {
      v[i] = (struct pan_sim_vtx){ p[4 * i], p[4 * i + 1], p[4 * i + 2],
                                   p[4 * i + 3], i };
   }
   return shade_strip(ctx, va, v, tb);
}

#endif

#if PAN_ARCH >= 9
/* v9: the draw has no position pointer, its shader environment names the
 * program and a resource table (the stock driver's shader reads its
 * texel coordinates as table varying 0 over the same four vertices).  The
 * frame is covered by the rectangle (0, 0)-(width, height) as a strip,
 * the one the stock driver gives its varyings, so that they interpolate
 * to the pixel centres. */
bool
PAN_GENX(sim_preframe_usable)(struct pan_sim_ctx *ctx, uint64_t dcds,
                              unsigned which)
{
   const void *d = draw_at(ctx, dcds + which * (uint64_t)pan_size(draw));
   if (!d)
      return false;
   pan_unpack(d, draw, draw);
   if (!draw.shader.shader ||
       !pan_sim_probe(ctx->space, draw.shader.shader,
                      pan_size(shader_program), "shader program", NULL))
      return outside(ctx, "shader", draw.shader.shader);
   return true;
}

bool
PAN_GENX(sim_preframe_run)(struct pan_sim_ctx *ctx, uint64_t dcds,
                           unsigned which, unsigned width, unsigned height,
                           struct pan_sim_tilebuf *tb)
{
   const float x[4] = { 0, (float)width, 0, (float)width };
   const float y[4] = { 0, 0, (float)height, (float)height };
   struct pan_sim_vtx v[4];
   for (unsigned i = 0; i < 4; ++i)
      v[i] = (struct pan_sim_vtx){ x[i], y[i], 0, 1, i };
   return shade_strip(ctx, dcds + which * (uint64_t)pan_size(draw), v, tb);
}
#endif
