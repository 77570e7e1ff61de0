/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * GL's invalid image accesses in compute on the drm-shim (G57, G52,
 * G72): loads and atomics outside the image or of an unbound image unit
 * return zero, stores there change nothing, and the dispatch runs (it is
 * not dropped, and the simulator does not fault).  One dispatch of 8 x 4
 * invocations over a 4 x 4 image (half of them outside it) and an
 * unbound unit; every word it writes and every texel is checked.
 */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "compiler/glsl_types.h"
#include "compiler/nir/nir.h"
#include "compiler/nir/nir_builder.h"
#include "pipe/p_context.h"
#include "pipe/p_defines.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"
#include "util/u_inlines.h"

#include "pan_test_screen.h"

/* The grid and the bound image, which covers its left half. */
#define W 8
#define H 4
#define IMG 4
#define FILL 0xdeadbeefu

static struct pipe_screen *screen;
static struct pipe_context *ctx;

static nir_ssa_def *
coord(nir_builder *b, nir_ssa_def *x, nir_ssa_def *y)
{
   nir_ssa_def *zero = nir_imm_int(b, 0);
   return nir_vec4(b, x, y, zero, zero);
}

/*
 * Invocation (x, y), i = y * W + x:
 *   ssbo[i]          = imageLoad(image 0, (x, y)).x  (0 outside)
 *   image 0 (x, y)   = 1000 + i                       (dropped outside)
 *   ssbo[32 + i]     = imageLoad(image 1, (x, y)).x  (unbound: 0)
 *   image 1 (x, y)   = i                              (unbound: dropped)
 *   ssbo[64 + i]     = imageAtomicAdd(image 1, (x, y), 5) (unbound: 0)
 *   ssbo[96 + i], ssbo[128 + i]  = the .w of both loads: 1 everywhere,
 *                      as R32_UINT fills alpha, for a zero texel too
 */
static void *
build(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_COMPUTE, "bounds");
   b.shader->info.workgroup_size[0] = W;
   b.shader->info.workgroup_size[1] = 1;
   b.shader->info.workgroup_size[2] = 1;
   b.shader->info.num_ssbos = 1;
   b.shader->info.num_images = 2;
   nir_ssa_def *gid = nir_load_global_invocation_id(&b, 32);
   nir_ssa_def *x = nir_channel(&b, gid, 0), *y = nir_channel(&b, gid, 1);
   nir_ssa_def *i = nir_iadd(&b, nir_imul_imm(&b, y, W), x);
   nir_ssa_def *zero = nir_imm_int(&b, 0);
   nir_ssa_def *at = nir_imul_imm(&b, i, 4);

   for (unsigned k = 0; k < 2; ++k) {
      nir_ssa_def *img = nir_imm_int(&b, k);
      nir_ssa_def *v = nir_image_load(&b, 4, 32, img, coord(&b, x, y), zero,
                                      zero, .image_dim = GLSL_SAMPLER_DIM_2D,
                                      .format = PIPE_FORMAT_R32_UINT,
                                      .dest_type = nir_type_uint32);
      nir_store_ssbo(&b, nir_channel(&b, v, 0), zero,
                     nir_iadd_imm(&b, at, 128 * k), .write_mask = 1,
                     .align_mul = 4);
      nir_store_ssbo(&b, nir_channel(&b, v, 3), zero,
                     nir_iadd_imm(&b, at, 384 + 128 * k), .write_mask = 1,
                     .align_mul = 4);
      nir_ssa_def *nv = k ? i : nir_iadd_imm(&b, i, 1000);
      nir_image_store(
         &b, img, coord(&b, x, y), zero, nir_vec4(&b, nv, zero, zero, zero),
         zero, .image_dim = GLSL_SAMPLER_DIM_2D, .format = PIPE_FORMAT_R32_UINT,
         .src_type = nir_type_uint32);
   }
   nir_ssa_def *old = nir_image_atomic_add(
      &b, 32, nir_imm_int(&b, 1), coord(&b, x, y), zero, nir_imm_int(&b, 5),
      .image_dim = GLSL_SAMPLER_DIM_2D, .format = PIPE_FORMAT_R32_UINT);
   nir_store_ssbo(&b, old, zero, nir_iadd_imm(&b, at, 256), .write_mask = 1,
                  .align_mul = 4);

   struct pipe_compute_state cso = { .ir_type = PIPE_SHADER_IR_NIR,
                                     .prog = b.shader };
   return ctx->create_compute_state(ctx, &cso);
}

static uint32_t
texel0(unsigned x, unsigned y)
{
   return 7 * (y * IMG + x) + 3;
}

static void
test_bounds(void)
{
   uint32_t data[IMG * IMG], fill[5 * W * H];
   for (unsigned y = 0; y < IMG; ++y)
      for (unsigned x = 0; x < IMG; ++x)
         data[y * IMG + x] = texel0(x, y);
   for (unsigned k = 0; k < ARRAY_SIZE(fill); ++k)
      fill[k] = FILL;

   struct pipe_resource templ = {
      .target = PIPE_TEXTURE_2D,
      .format = PIPE_FORMAT_R32_UINT,
      .width0 = IMG,
      .height0 = IMG,
      .depth0 = 1,
      .array_size = 1,
      .bind = PIPE_BIND_SHADER_IMAGE | PIPE_BIND_SAMPLER_VIEW,
   };
   struct pipe_resource *img = screen->resource_create(screen, &templ);
   struct pipe_resource *out =
      pan_test_storage_buffer(screen, ctx, sizeof(fill), fill);
   CHECK(img && out, "resource creation failed");
   if (!img || !out)
      return;
   struct pipe_box box = { 0, 0, 0, IMG, IMG, 1 };
   ctx->texture_subdata(ctx, img, 0, 0, &box, data, IMG * 4, sizeof(data));

   struct pipe_image_view v = {
      .resource = img,
      .format = PIPE_FORMAT_R32_UINT,
      .access = PIPE_IMAGE_ACCESS_READ_WRITE,
      .shader_access = PIPE_IMAGE_ACCESS_READ_WRITE,
   };
   ctx->set_shader_images(ctx, PIPE_SHADER_COMPUTE, 0, 1, 1, &v);
   struct pipe_shader_buffer sb = { .buffer = out,
                                    .buffer_size = sizeof(fill) };
   ctx->set_shader_buffers(ctx, PIPE_SHADER_COMPUTE, 0, 1, &sb, 0x1);
   void *cs = build();
   ctx->bind_compute_state(ctx, cs);
   struct pipe_grid_info grid = { .work_dim = 2,
                                  .block = { W, 1, 1 },
                                  .grid = { 1, H, 1 } };
   ctx->launch_grid(ctx, &grid);

   uint32_t got[5 * W * H];
   pipe_buffer_read(ctx, out, 0, sizeof(got), got);
   unsigned bad[4] = { 0 };
   for (unsigned y = 0; y < H; ++y) {
      for (unsigned x = 0; x < W; ++x) {
         unsigned i = y * W + x;
         uint32_t want = x < IMG ? texel0(x, y) : 0;
         bad[0] += got[i] != want;
         bad[1] += got[32 + i] != 0;
         bad[2] += got[64 + i] != 0;
         bad[3] += (got[96 + i] != 1) + (got[128 + i] != 1);
      }
   }
   CHECK(!bad[0],
         "loads inside and outside the image: %u of %u wrong "
         "(word 4: 0x%x, want 0)",
         bad[0], W * H, got[4]);
   CHECK(!bad[1], "loads of the unbound unit: %u of %u not 0 (0x%x)", bad[1],
         W * H, got[32]);
   CHECK(!bad[2], "atomics on the unbound unit: %u of %u not 0 (0x%x)", bad[2],
         W * H, got[64]);
   CHECK(!bad[3],
         "alpha of the loads: %u of %u not 1 (outside: 0x%x, unbound: "
         "0x%x)",
         bad[3], 2 * W * H, got[96 + 4], got[128]);

   struct pipe_transfer *xfer;
   const uint8_t *map =
      ctx->texture_map(ctx, img, 0, PIPE_MAP_READ, &box, &xfer);
   CHECK(map, "map of the image failed");
   if (map) {
      unsigned wrong = 0;
      for (unsigned y = 0; y < IMG; ++y) {
         const uint32_t *row = (const uint32_t *)(map + y * xfer->stride);
         for (unsigned x = 0; x < IMG; ++x)
            wrong += row[x] != 1000 + y * W + x;
      }
      CHECK(!wrong, "stores inside the image: %u of %u texels wrong", wrong,
            IMG * IMG);
      ctx->texture_unmap(ctx, xfer);
   }

   ctx->set_shader_images(ctx, PIPE_SHADER_COMPUTE, 0, 0, 2, NULL);
   ctx->set_shader_buffers(ctx, PIPE_SHADER_COMPUTE, 0, 1, NULL, 0);
   ctx->delete_compute_state(ctx, cs);
   pipe_resource_reference(&img, NULL);
   pipe_resource_reference(&out, NULL);
}

int
main(int argc, char **argv)
{
   if (!pan_test_open(&screen, &ctx))
      return 1;
   test_bounds();
   return pan_test_close(screen, ctx);
}
