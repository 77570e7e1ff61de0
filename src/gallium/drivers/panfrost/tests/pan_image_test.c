/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * GLSL images at the Gallium level on the drm-shim: a compute shader
 * built with nir_builder loads, stores, runs atomics on and asks the size
 * of images bound with set_shader_images, the simulator runs it, and the
 * textures are mapped and compared with C references.
 *
 *    pan_image_test            the GPU has images in compute (v6 and
 *                              later: texture descriptors on v9,
 *                              attribute records on v6/v7), cube map
 *                              arrays, single cube faces and a buffer
 *                              image among them
 *    pan_image_test --refused  it has none: the cap is 0 and a dispatch
 *                              using an image is dropped with a message,
 *                              its memory left alone
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/nir/nir.h"
#include "compiler/nir/nir_builder.h"
#include "pipe/p_context.h"
#include "pipe/p_defines.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"
#include "util/u_inlines.h"

#include "pan_test_screen.h"

static struct pipe_screen *screen;
static struct pipe_context *ctx;

/* The grid: 16 x 8 invocations, workgroups of 4 x 4. */
#define W 16
#define H 8

static struct pipe_resource *
texture(enum pipe_texture_target target, enum pipe_format format, unsigned w,
        unsigned h, unsigned depth, unsigned layers, const void *data,
        unsigned texel_B)
{
   struct pipe_resource templ = {
      .target = target,
      .format = format,
      .width0 = w,
      .height0 = h,
      .depth0 = depth,
      .array_size = layers,
      .bind = PIPE_BIND_SHADER_IMAGE | PIPE_BIND_SAMPLER_VIEW,
   };
   struct pipe_resource *r = screen->resource_create(screen, &templ);
   if (r && data) {
      unsigned z = depth * layers;
      struct pipe_box box = { 0, 0, 0, w, h, z };
      ctx->texture_subdata(ctx, r, 0, 0, &box, data, w * texel_B,
                           w * h * texel_B);
   }
   return r;
}

/* Texels of one layer (or 3D slice) z of r, rows packed, into out. */
static void
read_layer(struct pipe_resource *r, unsigned z, unsigned texel_B, void *out)
{
   struct pipe_transfer *xfer;
   struct pipe_box box = { 0, 0, z, r->width0, r->height0, 1 };
   const uint8_t *map = ctx->texture_map(ctx, r, 0, PIPE_MAP_READ, &box, &xfer);
   CHECK(map, "map of layer %u failed", z);
   if (!map)
      return;
   for (unsigned y = 0; y < r->height0; ++y)
      memcpy((uint8_t *)out + y * r->width0 * texel_B, map + y * xfer->stride,
             r->width0 * texel_B);
   ctx->texture_unmap(ctx, xfer);
}

static void
bind_image(unsigned slot, struct pipe_resource *r, enum pipe_format format,
           unsigned first_layer, unsigned last_layer)
{
   struct pipe_image_view v = {
      .resource = r,
      .format = format,
      .access = PIPE_IMAGE_ACCESS_READ_WRITE,
      .shader_access = PIPE_IMAGE_ACCESS_READ_WRITE,
      .u.tex = { first_layer, last_layer, 0 },
   };
   ctx->set_shader_images(ctx, PIPE_SHADER_COMPUTE, slot, 1, 0, &v);
}

static void *
compile(nir_shader *s)
{
   struct pipe_compute_state cso = {
      .ir_type = PIPE_SHADER_IR_NIR,
      .prog = s,
   };
   return ctx->create_compute_state(ctx, &cso);
}

static void
dispatch(void *cso)
{
   struct pipe_grid_info info = {
      .work_dim = 2,
      .block = { 4, 4, 1 },
      .grid = { W / 4, H / 4, 1 },
   };
   ctx->bind_compute_state(ctx, cso);
   ctx->launch_grid(ctx, &info);
}

/* A compute shader of 4x4 workgroups, as every test here dispatches. */
static nir_builder
compute_builder(const char *name)
{
   const nir_shader_compiler_options *opts = screen->get_compiler_options(
      screen, PIPE_SHADER_IR_NIR, PIPE_SHADER_COMPUTE);
   nir_builder b =
      nir_builder_init_simple_shader(MESA_SHADER_COMPUTE, opts, "%s", name);
   b.shader->info.workgroup_size[0] = 4;
   b.shader->info.workgroup_size[1] = 4;
   b.shader->info.workgroup_size[2] = 1;
   return b;
}

static nir_ssa_def *
coord(nir_builder *b, nir_ssa_def *x, nir_ssa_def *y, nir_ssa_def *z)
{
   nir_ssa_def *zero = nir_imm_int(b, 0);
   return nir_vec4(b, x, y, z ? z : zero, zero);
}

/*
 * Invocation (x, y), i = y * 16 + x:
 *   image 0, 2D R32_UINT 16x8: texel = texel * 3 + i
 *   image 1, 2D array RGBA8_UNORM 16x8, layers 1-2 of 3 bound: layer 1
 *            of the view (texture layer 2) = (x / 15, y / 7, 0.25, 1)
 *   image 2, 3D R32_FLOAT 4x4x4: ssbo[i] = texel (x & 3, y & 3, x >> 2)
 *   image 3, 2D R32_UINT 1x1: atomicAdd(texel, i + 1)
 *   ssbo[128..130] = imageSize(image 1), ssbo[131..133] of image 2
 */
static nir_shader *
build(void)
{
   nir_builder b = compute_builder("images");
   nir_ssa_def *gid = nir_load_global_invocation_id(&b, 32);
   nir_ssa_def *x = nir_channel(&b, gid, 0), *y = nir_channel(&b, gid, 1);
   nir_ssa_def *i = nir_iadd(&b, nir_imul_imm(&b, y, W), x);
   nir_ssa_def *zero = nir_imm_int(&b, 0);
   nir_ssa_def *img[4];
   for (unsigned k = 0; k < 4; ++k)
      img[k] = nir_imm_int(&b, k);

   nir_ssa_def *v = nir_image_load(&b, 4, 32, img[0], coord(&b, x, y, NULL),
                                   zero, zero, .image_dim = GLSL_SAMPLER_DIM_2D,
                                   .format = PIPE_FORMAT_R32_UINT,
                                   .dest_type = nir_type_uint32);
   nir_ssa_def *nv =
      nir_iadd(&b, nir_imul_imm(&b, nir_channel(&b, v, 0), 3), i);
   nir_image_store(&b, img[0], coord(&b, x, y, NULL), zero,
                   nir_vec4(&b, nv, zero, zero, zero), zero,
                   .image_dim = GLSL_SAMPLER_DIM_2D,
                   .format = PIPE_FORMAT_R32_UINT, .src_type = nir_type_uint32);

   nir_ssa_def *colour =
      nir_vec4(&b, nir_fdiv(&b, nir_u2f32(&b, x), nir_imm_float(&b, 15.0f)),
               nir_fdiv(&b, nir_u2f32(&b, y), nir_imm_float(&b, 7.0f)),
               nir_imm_float(&b, 0.25f), nir_imm_float(&b, 1.0f));
   nir_image_store(&b, img[1], coord(&b, x, y, nir_imm_int(&b, 1)), zero,
                   colour, zero, .image_dim = GLSL_SAMPLER_DIM_2D,
                   .image_array = true, .format = PIPE_FORMAT_R8G8B8A8_UNORM,
                   .src_type = nir_type_float32);

   nir_ssa_def *f = nir_image_load(
      &b, 4, 32, img[2],
      coord(&b, nir_iand_imm(&b, x, 3), nir_iand_imm(&b, y, 3),
            nir_ushr_imm(&b, x, 2)),
      zero, zero, .image_dim = GLSL_SAMPLER_DIM_3D,
      .format = PIPE_FORMAT_R32_FLOAT, .dest_type = nir_type_float32);
   nir_store_ssbo(&b, nir_channel(&b, f, 0), zero, nir_imul_imm(&b, i, 4),
                  .write_mask = 1, .align_mul = 4);

   nir_image_atomic_add(
      &b, 32, img[3], coord(&b, zero, zero, NULL), zero, nir_iadd_imm(&b, i, 1),
      .image_dim = GLSL_SAMPLER_DIM_2D, .format = PIPE_FORMAT_R32_UINT);

   nir_ssa_def *s1 =
      nir_image_size(&b, 3, 32, img[1], zero, .image_dim = GLSL_SAMPLER_DIM_2D,
                     .image_array = true);
   nir_ssa_def *s2 =
      nir_image_size(&b, 3, 32, img[2], zero, .image_dim = GLSL_SAMPLER_DIM_3D);
   nir_store_ssbo(&b, s1, zero, nir_imm_int(&b, 128 * 4), .write_mask = 7,
                  .align_mul = 4);
   nir_store_ssbo(&b, s2, zero, nir_imm_int(&b, 131 * 4), .write_mask = 7,
                  .align_mul = 4);
   return b.shader;
}

static uint8_t
unorm8(float f)
{
   return (uint8_t)(f * 255.0f + 0.5f);
}

static void
test_images(void)
{
   uint32_t a[W * H], a_out[W * H], counter = 5, counter_out;
   float vol[64];
   uint8_t rgba[3][W * H * 4], layer_out[W * H * 4];
   for (unsigned k = 0; k < W * H; ++k)
      a[k] = k * 7 + 3;
   for (unsigned k = 0; k < 64; ++k)
      vol[k] = (float)k * 0.5f - 3.0f;
   memset(rgba, 0x5a, sizeof(rgba));

   struct pipe_resource *ra =
      texture(PIPE_TEXTURE_2D, PIPE_FORMAT_R32_UINT, W, H, 1, 1, a, 4);
   struct pipe_resource *rb = texture(
      PIPE_TEXTURE_2D_ARRAY, PIPE_FORMAT_R8G8B8A8_UNORM, W, H, 1, 3, rgba, 4);
   struct pipe_resource *rc =
      texture(PIPE_TEXTURE_3D, PIPE_FORMAT_R32_FLOAT, 4, 4, 4, 1, vol, 4);
   struct pipe_resource *rd =
      texture(PIPE_TEXTURE_2D, PIPE_FORMAT_R32_UINT, 1, 1, 1, 1, &counter, 4);
   struct pipe_resource *out =
      pan_test_storage_buffer(screen, ctx, 136 * 4, NULL);
   CHECK(ra && rb && rc && rd && out, "resource creation failed");
   if (!ra || !rb || !rc || !rd || !out)
      return;

   bind_image(0, ra, PIPE_FORMAT_R32_UINT, 0, 0);
   bind_image(1, rb, PIPE_FORMAT_R8G8B8A8_UNORM, 1, 2);
   bind_image(2, rc, PIPE_FORMAT_R32_FLOAT, 0, 3);
   bind_image(3, rd, PIPE_FORMAT_R32_UINT, 0, 0);
   struct pipe_shader_buffer sb = { .buffer = out, .buffer_size = 136 * 4 };
   ctx->set_shader_buffers(ctx, PIPE_SHADER_COMPUTE, 0, 1, &sb, 1);

   pan_test_debug_msg[0] = 0;
   void *cso = compile(build());
   CHECK(cso && !strstr(pan_test_debug_msg, "refused"),
         "the image shader was refused: %s", pan_test_debug_msg);
   dispatch(cso);
   ctx->memory_barrier(ctx, PIPE_BARRIER_IMAGE | PIPE_BARRIER_TEXTURE |
                               PIPE_BARRIER_MAPPED_BUFFER);

   uint32_t words[136];
   pipe_buffer_read(ctx, out, 0, sizeof(words), words);
   read_layer(ra, 0, 4, a_out);
   read_layer(rd, 0, 4, &counter_out);
   unsigned bad = 0;
   for (unsigned y = 0; y < H; ++y) {
      for (unsigned x = 0; x < W; ++x) {
         unsigned k = y * W + x;
         uint32_t want = a[k] * 3 + k;
         float f = vol[((x >> 2) * 4 + (y & 3)) * 4 + (x & 3)];
         uint32_t fw;
         memcpy(&fw, &f, 4);
         if (a_out[k] != want || words[k] != fw) {
            if (bad++ < 4)
               CHECK(false,
                     "(%u, %u): image 0 %u (want %u), 3D load 0x%08x "
                     "(want 0x%08x)",
                     x, y, a_out[k], want, words[k], fw);
         }
      }
   }
   CHECK(!bad, "%u invocations wrong", bad);
   CHECK(counter_out == 5 + W * H * (W * H + 1) / 2,
         "atomic counter %u, want %u", counter_out,
         5 + W * H * (W * H + 1) / 2);
   CHECK(words[128] == W && words[129] == H && words[130] == 2,
         "imageSize of the array view: %u %u %u", words[128], words[129],
         words[130]);
   CHECK(words[131] == 4 && words[132] == 4 && words[133] == 4,
         "imageSize of the 3D image: %u %u %u", words[131], words[132],
         words[133]);

   for (unsigned z = 0; z < 3; ++z) {
      read_layer(rb, z, 4, layer_out);
      bad = 0;
      for (unsigned k = 0; k < W * H; ++k) {
         unsigned x = k % W, y = k / W;
         uint8_t want[4] = { unorm8(x / 15.0f), unorm8(y / 7.0f), 64, 255 };
         const uint8_t *w = z == 2 ? want : &rgba[z][k * 4];
         if (memcmp(&layer_out[k * 4], w, 4) && bad++ < 4)
            CHECK(false,
                  "layer %u (%u, %u): %02x%02x%02x%02x, want "
                  "%02x%02x%02x%02x",
                  z, x, y, layer_out[k * 4], layer_out[k * 4 + 1],
                  layer_out[k * 4 + 2], layer_out[k * 4 + 3], w[0], w[1], w[2],
                  w[3]);
      }
      CHECK(!bad, "layer %u of the array: %u texels wrong", z, bad);
   }

   ctx->delete_compute_state(ctx, cso);
   ctx->set_shader_images(ctx, PIPE_SHADER_COMPUTE, 0, 0, 4, NULL);
   pipe_resource_reference(&ra, NULL);
   pipe_resource_reference(&rb, NULL);
   pipe_resource_reference(&rc, NULL);
   pipe_resource_reference(&rd, NULL);
   pipe_resource_reference(&out, NULL);
}

/*
 * Cube map images, invocation (x, y) of the 16 x 8 grid, i = y * 16 + x:
 *   image 0, a cube map array of two 4x4 R32_UINT cubes bound whole:
 *            texel (x & 3, y & 3) of layer-face z = x / 4 + 4 * (y / 4)
 *            (cube z / 6, face z % 6) = i + 1000
 *   image 1, face 3 of a 4x4 R32_UINT cube map bound alone (GL's
 *            non-layered binding, a 2D image): texel (x, y) += 100 for
 *            x, y < 4
 *   ssbo[0..2] = imageSize(image 0): 4, 4 and 2 cubes
 */
static nir_shader *
build_cubes(void)
{
   nir_builder b = compute_builder("cubes");
   nir_ssa_def *gid = nir_load_global_invocation_id(&b, 32);
   nir_ssa_def *x = nir_channel(&b, gid, 0), *y = nir_channel(&b, gid, 1);
   nir_ssa_def *i = nir_iadd(&b, nir_imul_imm(&b, y, W), x);
   nir_ssa_def *zero = nir_imm_int(&b, 0), *one = nir_imm_int(&b, 1);
   nir_ssa_def *z = nir_iadd(&b, nir_ushr_imm(&b, x, 2),
                             nir_imul_imm(&b, nir_ushr_imm(&b, y, 2), 4));
   nir_ssa_def *value = nir_iadd_imm(&b, i, 1000);
   nir_image_store(&b, zero,
                   coord(&b, nir_iand_imm(&b, x, 3), nir_iand_imm(&b, y, 3), z),
                   zero, nir_vec4(&b, value, zero, zero, zero), zero,
                   .image_dim = GLSL_SAMPLER_DIM_CUBE, .image_array = true,
                   .format = PIPE_FORMAT_R32_UINT, .src_type = nir_type_uint32);

   nir_push_if(&b, nir_iand(&b, nir_ult(&b, x, nir_imm_int(&b, 4)),
                            nir_ult(&b, y, nir_imm_int(&b, 4))));
   nir_ssa_def *v = nir_image_load(&b, 4, 32, one, coord(&b, x, y, NULL), zero,
                                   zero, .image_dim = GLSL_SAMPLER_DIM_2D,
                                   .format = PIPE_FORMAT_R32_UINT,
                                   .dest_type = nir_type_uint32);
   nir_image_store(&b, one, coord(&b, x, y, NULL), zero,
                   nir_vec4(&b, nir_iadd_imm(&b, nir_channel(&b, v, 0), 100),
                            zero, zero, zero),
                   zero, .image_dim = GLSL_SAMPLER_DIM_2D,
                   .format = PIPE_FORMAT_R32_UINT, .src_type = nir_type_uint32);
   nir_pop_if(&b, NULL);

   nir_ssa_def *size =
      nir_image_size(&b, 3, 32, zero, zero, .image_dim = GLSL_SAMPLER_DIM_CUBE,
                     .image_array = true);
   nir_store_ssbo(&b, size, zero, zero, .write_mask = 7, .align_mul = 4);
   return b.shader;
}

static void
test_cube_images(void)
{
   uint32_t arr[12][16], cube[6][16], out_layer[16];
   for (unsigned l = 0; l < 12; ++l)
      for (unsigned k = 0; k < 16; ++k)
         arr[l][k] = l * 16 + k;
   for (unsigned l = 0; l < 6; ++l)
      for (unsigned k = 0; k < 16; ++k)
         cube[l][k] = 500 + l * 16 + k;

   struct pipe_resource *ra =
      texture(PIPE_TEXTURE_CUBE_ARRAY, PIPE_FORMAT_R32_UINT, 4, 4, 1, 12, arr,
              4);
   struct pipe_resource *rb =
      texture(PIPE_TEXTURE_CUBE, PIPE_FORMAT_R32_UINT, 4, 4, 1, 6, cube, 4);
   struct pipe_resource *out = pan_test_storage_buffer(screen, ctx, 16, NULL);
   CHECK(ra && rb && out, "cube resource creation failed");
   if (!ra || !rb || !out)
      return;
   bind_image(0, ra, PIPE_FORMAT_R32_UINT, 0, 11);
   bind_image(1, rb, PIPE_FORMAT_R32_UINT, 3, 3);
   struct pipe_shader_buffer sb = { .buffer = out, .buffer_size = 16 };
   ctx->set_shader_buffers(ctx, PIPE_SHADER_COMPUTE, 0, 1, &sb, 1);

   pan_test_debug_msg[0] = 0;
   void *cso = compile(build_cubes());
   CHECK(cso && !strstr(pan_test_debug_msg, "refused"),
         "the cube image shader was refused: %s", pan_test_debug_msg);
   dispatch(cso);
   CHECK(!pan_test_debug_msg[0], "cube image dispatch: %s", pan_test_debug_msg);
   ctx->memory_barrier(ctx, PIPE_BARRIER_IMAGE | PIPE_BARRIER_TEXTURE |
                               PIPE_BARRIER_MAPPED_BUFFER);

   uint32_t size[4];
   pipe_buffer_read(ctx, out, 0, sizeof(size), size);
   CHECK(size[0] == 4 && size[1] == 4 && size[2] == 2,
         "imageSize of the cube map array: %u %u %u", size[0], size[1],
         size[2]);
   for (unsigned l = 0; l < 12; ++l) {
      unsigned bad = 0;
      read_layer(ra, l, 4, out_layer);
      for (unsigned k = 0; k < 16; ++k) {
         /* Layer-face l holds grid cell (l % 4, l / 4) of 4x4 texels. */
         unsigned gx = (l % 4) * 4 + k % 4, gy = (l / 4) * 4 + k / 4;
         uint32_t want = l < 8 ? gy * W + gx + 1000 : arr[l][k];
         if (out_layer[k] != want && bad++ < 2)
            CHECK(false, "cube %u face %u texel %u: %u, want %u", l / 6, l % 6,
                  k, out_layer[k], want);
      }
      CHECK(!bad, "cube %u face %u of the array: %u texels wrong", l / 6,
            l % 6, bad);
   }
   for (unsigned f = 0; f < 6; ++f) {
      unsigned bad = 0;
      read_layer(rb, f, 4, out_layer);
      for (unsigned k = 0; k < 16; ++k) {
         uint32_t want = cube[f][k] + (f == 3 ? 100 : 0);
         if (out_layer[k] != want && bad++ < 2)
            CHECK(false, "face %u texel %u: %u, want %u", f, k, out_layer[k],
                  want);
      }
      CHECK(!bad, "face %u of the cube map: %u texels wrong", f, bad);
   }

   ctx->delete_compute_state(ctx, cso);
   ctx->set_shader_images(ctx, PIPE_SHADER_COMPUTE, 0, 0, 2, NULL);
   pipe_resource_reference(&ra, NULL);
   pipe_resource_reference(&rb, NULL);
   pipe_resource_reference(&out, NULL);
}

/*
 * A buffer image: R32_UINT texels 16 to 47 of a 64-word buffer (offset 64
 * bytes, 32 texels), invocation i: texel i = texel i * 2 + i, which the
 * bounds test drops for i >= 32 (imageSize 32); ssbo[0] = imageSize.
 */
static void
test_buffer_image(void)
{
   uint32_t words[64], got[64], size = 0;
   for (unsigned k = 0; k < 64; ++k)
      words[k] = k * 5 + 1;
   struct pipe_resource *rb =
      pipe_buffer_create(screen, PIPE_BIND_SHADER_IMAGE, PIPE_USAGE_DEFAULT,
                         sizeof(words));
   struct pipe_resource *out = pan_test_storage_buffer(screen, ctx, 16, NULL);
   CHECK(rb && out, "buffer image creation failed");
   if (!rb || !out)
      return;
   CHECK(screen->is_format_supported(screen, PIPE_FORMAT_R32_UINT, PIPE_BUFFER,
                                     0, 0, PIPE_BIND_SHADER_IMAGE),
         "R32_UINT buffer images are not offered");
   pipe_buffer_write(ctx, rb, 0, sizeof(words), words);
   struct pipe_image_view v = {
      .resource = rb,
      .format = PIPE_FORMAT_R32_UINT,
      .access = PIPE_IMAGE_ACCESS_READ_WRITE,
      .shader_access = PIPE_IMAGE_ACCESS_READ_WRITE,
      .u.buf = { .offset = 64, .size = 32 * 4 },
   };
   ctx->set_shader_images(ctx, PIPE_SHADER_COMPUTE, 0, 1, 0, &v);
   struct pipe_shader_buffer sb = { .buffer = out, .buffer_size = 16 };
   ctx->set_shader_buffers(ctx, PIPE_SHADER_COMPUTE, 0, 1, &sb, 1);

   nir_builder b = compute_builder("buffer");
   nir_ssa_def *gid = nir_load_global_invocation_id(&b, 32);
   nir_ssa_def *i = nir_iadd(&b, nir_imul_imm(&b, nir_channel(&b, gid, 1), W),
                             nir_channel(&b, gid, 0));
   nir_ssa_def *zero = nir_imm_int(&b, 0);
   nir_ssa_def *t = nir_image_load(&b, 4, 32, zero, coord(&b, i, zero, NULL),
                                   zero, zero, .image_dim = GLSL_SAMPLER_DIM_BUF,
                                   .format = PIPE_FORMAT_R32_UINT,
                                   .dest_type = nir_type_uint32);
   nir_ssa_def *nv = nir_iadd(&b, nir_imul_imm(&b, nir_channel(&b, t, 0), 2), i);
   nir_image_store(&b, zero, coord(&b, i, zero, NULL), zero,
                   nir_vec4(&b, nv, zero, zero, zero), zero,
                   .image_dim = GLSL_SAMPLER_DIM_BUF,
                   .format = PIPE_FORMAT_R32_UINT, .src_type = nir_type_uint32);
   nir_ssa_def *n = nir_image_size(&b, 1, 32, zero, zero,
                                   .image_dim = GLSL_SAMPLER_DIM_BUF);
   nir_store_ssbo(&b, n, zero, zero, .write_mask = 1, .align_mul = 4);

   pan_test_debug_msg[0] = 0;
   void *cso = compile(b.shader);
   CHECK(cso && !strstr(pan_test_debug_msg, "refused"),
         "the buffer image shader was refused: %s", pan_test_debug_msg);
   dispatch(cso);
   CHECK(!pan_test_debug_msg[0], "buffer image dispatch: %s",
         pan_test_debug_msg);
   ctx->memory_barrier(ctx, PIPE_BARRIER_IMAGE | PIPE_BARRIER_MAPPED_BUFFER);
   pipe_buffer_read(ctx, out, 0, 4, &size);
   pipe_buffer_read(ctx, rb, 0, sizeof(got), got);
   CHECK(size == 32, "imageSize of the buffer image: %u, want 32", size);
   unsigned bad = 0;
   for (unsigned k = 0; k < 64; ++k) {
      bool in = k >= 16 && k < 48;
      uint32_t want = in ? words[k] * 2 + (k - 16) : words[k];
      if (got[k] != want && bad++ < 4)
         CHECK(false, "buffer word %u: %u, want %u", k, got[k], want);
   }
   CHECK(!bad, "buffer image: %u words wrong", bad);

   ctx->delete_compute_state(ctx, cso);
   ctx->set_shader_images(ctx, PIPE_SHADER_COMPUTE, 0, 0, 1, NULL);
   pipe_resource_reference(&rb, NULL);
   pipe_resource_reference(&out, NULL);
}

/* Where images are missing the dispatch is dropped with a message and the
 * image keeps its texels. */
static void
test_refused(void)
{
   uint32_t a[W * H], a_out[W * H];
   for (unsigned k = 0; k < W * H; ++k)
      a[k] = k;
   struct pipe_resource *ra =
      texture(PIPE_TEXTURE_2D, PIPE_FORMAT_R32_UINT, W, H, 1, 1, a, 4);
   CHECK(ra, "texture creation failed");
   if (!ra)
      return;
   bind_image(0, ra, PIPE_FORMAT_R32_UINT, 0, 0);

   nir_builder b = compute_builder("refused");
   nir_ssa_def *gid = nir_load_global_invocation_id(&b, 32);
   nir_ssa_def *zero = nir_imm_int(&b, 0);
   nir_image_store(
      &b, zero,
      coord(&b, nir_channel(&b, gid, 0), nir_channel(&b, gid, 1), NULL), zero,
      nir_imm_ivec4(&b, 7, 7, 7, 7), zero, .image_dim = GLSL_SAMPLER_DIM_2D,
      .format = PIPE_FORMAT_R32_UINT, .src_type = nir_type_uint32);
   pan_test_debug_msg[0] = 0;
   void *cso = compile(b.shader);
   dispatch(cso);
   CHECK(strstr(pan_test_debug_msg, "image"), "no message about images: '%s'",
         pan_test_debug_msg);
   read_layer(ra, 0, 4, a_out);
   CHECK(!memcmp(a, a_out, sizeof(a)), "a dropped dispatch changed the image");
   ctx->delete_compute_state(ctx, cso);
   ctx->set_shader_images(ctx, PIPE_SHADER_COMPUTE, 0, 0, 1, NULL);
   pipe_resource_reference(&ra, NULL);
}

int
main(int argc, char **argv)
{
   bool expect = !(argc > 1 && !strcmp(argv[1], "--refused"));

   if (!pan_test_open(&screen, &ctx))
      return 1;
   int n = screen->get_shader_param(screen, PIPE_SHADER_COMPUTE,
                                    PIPE_SHADER_CAP_MAX_SHADER_IMAGES);
   CHECK(n == (expect ? 8 : 0), "MAX_SHADER_IMAGES is %d on %s", n,
         screen->get_name(screen));
   if (expect) {
      test_images();
      test_cube_images();
      test_buffer_image();
   }
   else if (screen->get_param(screen, PIPE_CAP_COMPUTE))
      test_refused();
   return pan_test_close(screen, ctx);
}
