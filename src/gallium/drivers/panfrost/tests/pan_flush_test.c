/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Flushes at the Gallium level: how many batches each typical sequence
 * submits (the context's submit counter, which counts batches with work).
 * A CPU access, a query result or a render condition must submit the
 * pending batch exactly when that batch touches what it asks for: writers
 * before a read, readers and writers before a write, the draws adding to
 * an occlusion query before its result is read.  Each sequence starts with
 * a pending draw of a full-screen triangle.
 */

#include <stdio.h>
#include <string.h>

#include "compiler/nir/nir_builder.h"
#include "pipe/p_context.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"
#include "util/u_inlines.h"

#include "../pan_context.h"
#include "../pan_resource.h"
#include "pan_test_screen.h"

#define SIZE 16

static struct pipe_screen *screen;
static struct pipe_context *ctx;
static struct pan_test_fullscreen f;

static unsigned
submits(void)
{
   return panfrost_context(ctx)->batch.submits;
}

/* DATA0 = opaque green, and with store, word 0 of storage slot 0 = 1. */
static void *
green_fs(bool store)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_FRAGMENT,
                                   store ? "store-fs" : "flush-fs");
   nir_variable *out = pan_test_io_var(b.shader, nir_var_shader_out,
                                       FRAG_RESULT_DATA0, 0, "colour");
   nir_store_var(&b, out, nir_imm_vec4(&b, 0, 1, 0, 1), 0xf);
   if (store) {
      nir_store_ssbo(&b, nir_imm_int(&b, 1), nir_imm_int(&b, 0),
                     nir_imm_int(&b, 0), .write_mask = 1, .align_mul = 4);
      b.shader->info.num_ssbos = 1;
   }
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

static void
draw(void)
{
   struct pipe_draw_info info = { .mode = PIPE_PRIM_TRIANGLES,
                                  .instance_count = 1 };
   struct pipe_draw_start_count_bias d = { .count = 3 };
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
}

/* Starts a sequence from an empty batch with one pending draw. */
static unsigned
begin(void)
{
   ctx->flush(ctx, NULL, 0);
   draw();
   return submits();
}

static void
expect(const char *what, unsigned before, unsigned want)
{
   unsigned n = submits() - before;
   CHECK(n == want, "%s: %u submits, want %u", what, n, want);
}

static void
test_cpu_access(void)
{
   struct pipe_resource *tex = pan_test_texture(
      screen, PIPE_FORMAT_R8G8B8A8_UNORM, SIZE, 0, PIPE_BIND_SAMPLER_VIEW);
   struct pipe_resource *a = pipe_buffer_create(screen, PIPE_BIND_VERTEX_BUFFER,
                                                PIPE_USAGE_DEFAULT, 64);
   struct pipe_resource *b = pipe_buffer_create(screen, PIPE_BIND_VERTEX_BUFFER,
                                                PIPE_USAGE_DEFAULT, 64);
   static uint32_t texels[SIZE * SIZE];
   struct pipe_transfer *xfer;

   /* An upload to a texture no batch uses, between two draws. */
   unsigned s = begin();
   struct pipe_box box;
   u_box_2d(0, 0, SIZE, SIZE, &box);
   ctx->texture_subdata(ctx, tex, 0, PIPE_MAP_WRITE, &box, texels, SIZE * 4, 0);
   draw();
   expect("texture upload between draws", s, 0);

   /* Buffer copies and uploads that no pending draw reads. */
   s = begin();
   pipe_buffer_write(ctx, a, 0, 64, texels);
   struct pipe_box range;
   u_box_1d(0, 64, &range);
   ctx->resource_copy_region(ctx, b, 0, 0, 0, 0, a, 0, &range);
   expect("copy between buffers no batch uses", s, 0);

   /* The vertex buffer the pending draw reads: mapped for reading, then
    * for writing. */
   s = begin();
   void *map = pipe_buffer_map(ctx, f.vbuf, PIPE_MAP_READ, &xfer);
   CHECK(map, "vertex buffer mapped for reading");
   if (map)
      pipe_buffer_unmap(ctx, xfer);
   expect("read map of a buffer the batch reads", s, 0);
   map = pipe_buffer_map(ctx, f.vbuf, PIPE_MAP_WRITE, &xfer);
   CHECK(map, "vertex buffer mapped for writing");
   if (map)
      pipe_buffer_unmap(ctx, xfer);
   expect("write map of a buffer the batch reads (new storage)", s, 0);

   /* The render target the pending draw writes: one submit (and the
    * blit of its conversion the first time, when it is AFBC), then the
    * pixels are the draw's. */
   bool afbc = panfrost_resource_is_afbc(panfrost_resource(f.tex));
   s = begin();
   const uint8_t *px =
      pipe_texture_map(ctx, f.tex, 0, 0, PIPE_MAP_READ, 0, 0, 1, 1, &xfer);
   CHECK(px && px[0] == 0 && px[1] == 255, "the render target is green");
   if (px)
      pipe_texture_unmap(ctx, xfer);
   expect("first read back of the render target", s, 1 + afbc);
   s = begin();
   px = pipe_texture_map(ctx, f.tex, 0, 0, PIPE_MAP_READ, 0, 0, 1, 1, &xfer);
   if (px)
      pipe_texture_unmap(ctx, xfer);
   expect("read back of the render target", s, 1);
   px = pipe_texture_map(ctx, f.tex, 0, 0, PIPE_MAP_READ, 0, 0, 1, 1, &xfer);
   if (px)
      pipe_texture_unmap(ctx, xfer);
   expect("second read back with nothing pending", s, 1);

   /* An upload into the render target the pending draw writes still
    * submits it first. */
   s = begin();
   ctx->texture_subdata(ctx, f.tex, 0, PIPE_MAP_WRITE, &box, texels, SIZE * 4,
                        0);
   expect("upload into the target the batch renders", s, 1);

   /* A shared buffer's flush for another party. */
   s = begin();
   ctx->flush_resource(ctx, tex);
   expect("flush_resource of an unused texture", s, 0);
   ctx->flush_resource(ctx, f.tex);
   expect("flush_resource of the render target", s, 1);

   /* A fence asked for with nothing pending is the last submit's. */
   s = begin();
   struct pipe_fence_handle *fence = NULL;
   ctx->flush(ctx, &fence, 0);
   ctx->flush(ctx, &fence, 0);
   expect("two flushes with one draw pending", s, 1);
   CHECK(fence &&
            screen->fence_finish(screen, ctx, fence, PIPE_TIMEOUT_INFINITE),
         "the fence signals");
   screen->fence_reference(screen, &fence, NULL);

   pipe_resource_reference(&tex, NULL);
   pipe_resource_reference(&a, NULL);
   pipe_resource_reference(&b, NULL);
}

/* Clip-space triangles covering the pixel columns 0-4 (left) and 11-15
 * (right) of every row, never column 8: symmetric in y, so that the
 * checks do not depend on which row is the top.
 */
static const float left_right[2][3][4] = {
   { { -1, -3, 0, 1 }, { -1, 3, 0, 1 }, { 0, 0, 0, 1 } },
   { { 1, -3, 0, 1 }, { 1, 3, 0, 1 }, { 0, 0, 0, 1 } },
};

static void
draw_range(unsigned start, unsigned index_size, struct pipe_resource *ib)
{
   struct pipe_draw_info info = { .mode = PIPE_PRIM_TRIANGLES,
                                  .instance_count = 1,
                                  .index_size = index_size,
                                  .index.resource = ib };
   struct pipe_draw_start_count_bias d = { .start = start, .count = 3 };
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
}

/* Empties the batch and clears the target to red. */
static unsigned
begin_cleared(void)
{
   union pipe_color_union red = { .f = { 1, 0, 0, 1 } };

   ctx->flush(ctx, NULL, 0);
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &red, 0, 0);
   return submits();
}

/* Reads the target back and checks the left triangle's pixels are
 * left[], the right one's right[] and the column between red.
 */
static void
expect_pixels(const char *what, const uint8_t left[4], const uint8_t right[4])
{
   static const uint8_t red[4] = { 255, 0, 0, 255 };
   struct pipe_transfer *xfer;
   const uint8_t *px = pipe_texture_map(ctx, f.tex, 0, 0, PIPE_MAP_READ, 0, 0,
                                        SIZE, SIZE, &xfer);

   CHECK(px, "%s: target mapped", what);
   if (!px)
      return;
   static const unsigned rows[] = { 0, SIZE - 1 };
   for (unsigned r = 0; r < 2; ++r) {
      const uint8_t *row = px + rows[r] * xfer->stride;
      const uint8_t *got[3] = { row, row + 4 * (SIZE - 1), row + 4 * 8 };
      const uint8_t *want[3] = { left, right, red };
      static const char *const names[3] = { "left", "right", "middle" };
      for (unsigned i = 0; i < 3; ++i) {
         CHECK(!memcmp(got[i], want[i], 4),
               "%s: %s pixel of row %u is %u %u %u %u, want %u %u %u %u", what,
               names[i], rows[r], got[i][0], got[i][1], got[i][2], got[i][3],
               want[i][0], want[i][1], want[i][2], want[i][3]);
      }
   }
   pipe_texture_unmap(ctx, xfer);
}

static const uint8_t green8[4] = { 0, 255, 0, 255 };

/* A draw reads a vertex buffer, the CPU rewrites the buffer, a second
 * draw reads it: no submit (the write goes to new storage), and each draw
 * sees the contents the API order gives it.  The buffer holds the left
 * triangle, then a marker; the write gives it the right triangle, by
 * a write map of the triangle (a copy of the rest), by an upload of the
 * triangle alone (the range discarded, the rest copied), and by an upload
 * of the whole buffer (new storage, nothing copied).
 */
static void
test_vertex_buffer_rewrite(void)
{
   enum { TRI_B = sizeof(left_right[0]), MARK_B = 16 };
   static const char *const ways[] = { "write map", "partial upload",
                                       "whole upload" };
   uint8_t data[TRI_B + MARK_B];
   memset(data + TRI_B, 0xa5, MARK_B);

   for (unsigned way = 0; way < 3; ++way) {
      unsigned size_B = way == 2 ? TRI_B : TRI_B + MARK_B;
      struct pipe_resource *vb = pipe_buffer_create(
         screen, PIPE_BIND_VERTEX_BUFFER, PIPE_USAGE_DEFAULT, size_B);
      memcpy(data, left_right[0], TRI_B);
      pipe_buffer_write(ctx, vb, 0, size_B, data);
      struct pipe_vertex_buffer b = { .stride = 16, .buffer.resource = vb };
      ctx->set_vertex_buffers(ctx, 0, 1, 0, false, &b);

      unsigned s = begin_cleared();
      draw_range(0, 0, NULL);
      if (way == 0) {
         struct pipe_transfer *xfer;
         void *map =
            pipe_buffer_map_range(ctx, vb, 0, TRI_B, PIPE_MAP_WRITE, &xfer);
         CHECK(map, "%s: vertex buffer mapped", ways[way]);
         if (map) {
            memcpy(map, left_right[1], TRI_B);
            pipe_buffer_unmap(ctx, xfer);
         }
      } else {
         pipe_buffer_write(ctx, vb, 0, TRI_B, left_right[1]);
      }
      draw_range(0, 0, NULL);
      char what[64];
      snprintf(what, sizeof(what), "%s of the vertex buffer a draw reads",
               ways[way]);
      expect(what, s, 0);
      expect_pixels(what, green8, green8);
      if (size_B > TRI_B) {
         uint8_t mark[MARK_B];
         pipe_buffer_read(ctx, vb, TRI_B, MARK_B, mark);
         CHECK(!memcmp(mark, data + TRI_B, MARK_B),
               "%s: the bytes after the triangle are kept", ways[way]);
      }
      pan_test_fullscreen_restore(ctx, &f, &vb);
   }
}

/* An indexed draw of the left triangle, its index buffer rewritten to
 * name the right one, a second draw: no submit, both triangles drawn (the
 * index range the first draw cached is forgotten with the write).
 */
static void
test_index_buffer_rewrite(void)
{
   struct pipe_resource *vb = pipe_buffer_create(
      screen, PIPE_BIND_VERTEX_BUFFER, PIPE_USAGE_DEFAULT, sizeof(left_right));
   struct pipe_resource *ib = pipe_buffer_create(screen, PIPE_BIND_INDEX_BUFFER,
                                                 PIPE_USAGE_DEFAULT, 64);
   static const uint16_t first[32] = { 0, 1, 2 }, second[3] = { 3, 4, 5 };

   pipe_buffer_write(ctx, vb, 0, sizeof(left_right), left_right);
   pipe_buffer_write(ctx, ib, 0, sizeof(first), first);
   struct pipe_vertex_buffer b = { .stride = 16, .buffer.resource = vb };
   ctx->set_vertex_buffers(ctx, 0, 1, 0, false, &b);

   unsigned s = begin_cleared();
   draw_range(0, 2, ib);
   struct pipe_transfer *xfer;
   void *map =
      pipe_buffer_map_range(ctx, ib, 0, sizeof(second), PIPE_MAP_WRITE, &xfer);
   CHECK(map, "index buffer mapped");
   if (map) {
      memcpy(map, second, sizeof(second));
      pipe_buffer_unmap(ctx, xfer);
   }
   draw_range(0, 2, ib);
   expect("write map of the index buffer a draw reads", s, 0);
   expect_pixels("rewritten index buffer", green8, green8);

   pipe_resource_reference(&ib, NULL);
   pan_test_fullscreen_restore(ctx, &f, &vb);
}

/* DATA0 = texelFetch(texture 0, 0): texel (0, 0) of a 2D texture, or
 * element 0 of a buffer view.
 */
static void *
fetch_fs(bool buffer)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_FRAGMENT, "fetch-fs");
   nir_tex_instr *t = nir_tex_instr_create(b.shader, 2);
   t->op = nir_texop_txf;
   t->sampler_dim = buffer ? GLSL_SAMPLER_DIM_BUF : GLSL_SAMPLER_DIM_2D;
   t->coord_components = buffer ? 1 : 2;
   t->dest_type = nir_type_float32;
   t->src[0].src_type = nir_tex_src_coord;
   t->src[0].src =
      nir_src_for_ssa(buffer ? nir_imm_int(&b, 0) : nir_imm_ivec2(&b, 0, 0));
   t->src[1].src_type = nir_tex_src_lod;
   t->src[1].src = nir_src_for_ssa(nir_imm_int(&b, 0));
   nir_ssa_dest_init(&t->instr, &t->dest, 4, 32, NULL);
   nir_builder_instr_insert(&b, &t->instr);
   BITSET_SET(b.shader->info.textures_used, 0);
   nir_store_var(&b,
                 pan_test_io_var(b.shader, nir_var_shader_out,
                                 FRAG_RESULT_DATA0, 0, "colour"),
                 &t->dest.ssa, 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

/* The left triangle draws texel 0 of a texture, the texture is rewritten,
 * the right one draws it again: no submit, the left triangle has the old
 * texel, the right one the new.  A 2D texture takes an upload of texel
 * (0, 0) (the rest copied), then one of every texel (nothing copied); a
 * buffer view an upload of its first texel.
 */
static void
test_texture_rewrite(void *fs)
{
   static const uint8_t blue8[4] = { 0, 0, 255, 255 };
   static const uint8_t white8[4] = { 255, 255, 255, 255 };
   static uint32_t texels[SIZE * SIZE];
   struct pipe_resource *vb = pipe_buffer_create(
      screen, PIPE_BIND_VERTEX_BUFFER, PIPE_USAGE_DEFAULT, sizeof(left_right));
   struct pipe_resource *tex = pan_test_texture(
      screen, PIPE_FORMAT_R8G8B8A8_UNORM, SIZE, 0, PIPE_BIND_SAMPLER_VIEW);
   struct pipe_resource *tbo = pipe_buffer_create(
      screen, PIPE_BIND_SAMPLER_VIEW, PIPE_USAGE_DEFAULT, 64);
   struct pipe_sampler_view vt = { .format = PIPE_FORMAT_R8G8B8A8_UNORM,
                                   .target = PIPE_TEXTURE_2D,
                                   PAN_TEST_IDENTITY_SWIZZLE };
   struct pipe_sampler_view bt = { .format = PIPE_FORMAT_R8G8B8A8_UNORM,
                                   .target = PIPE_BUFFER,
                                   PAN_TEST_IDENTITY_SWIZZLE,
                                   .u.buf = { .offset = 0, .size = 64 } };
   struct pipe_sampler_view *views[2] = {
      ctx->create_sampler_view(ctx, tex, &vt),
      ctx->create_sampler_view(ctx, tbo, &bt),
   };
   struct pipe_sampler_state ss = {
      .min_img_filter = PIPE_TEX_FILTER_NEAREST,
      .mag_img_filter = PIPE_TEX_FILTER_NEAREST,
      .min_mip_filter = PIPE_TEX_MIPFILTER_NONE,
   };
   void *sampler = ctx->create_sampler_state(ctx, &ss);
   void *fetch[2] = { fetch_fs(false), fetch_fs(true) };
   struct pipe_box all, one;
   u_box_2d(0, 0, SIZE, SIZE, &all);
   u_box_2d(0, 0, 1, 1, &one);

   pipe_buffer_write(ctx, vb, 0, sizeof(left_right), left_right);
   struct pipe_vertex_buffer b = { .stride = 16, .buffer.resource = vb };
   ctx->set_vertex_buffers(ctx, 0, 1, 0, false, &b);
   ctx->bind_sampler_states(ctx, PIPE_SHADER_FRAGMENT, 0, 1, &sampler);
   for (unsigned i = 0; i < SIZE * SIZE; ++i)
      memcpy(&texels[i], green8, 4);
   ctx->texture_subdata(ctx, tex, 0, PIPE_MAP_WRITE, &all, texels, SIZE * 4, 0);
   pipe_buffer_write(ctx, tbo, 0, 64, texels);

   for (unsigned step = 0; step < 3; ++step) {
      bool buffer = step == 2;
      ctx->bind_fs_state(ctx, fetch[buffer]);
      ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 1, 0, false,
                             &views[buffer]);
      const uint8_t *before = step == 1 ? blue8 : green8;
      const uint8_t *after = step == 1 ? white8 : blue8;
      for (unsigned i = 0; i < SIZE * SIZE; ++i)
         memcpy(&texels[i], after, 4);

      unsigned s = begin_cleared();
      draw_range(0, 0, NULL);
      if (buffer)
         pipe_buffer_write(ctx, tbo, 0, 4, texels);
      else
         ctx->texture_subdata(ctx, tex, 0, PIPE_MAP_WRITE, step ? &all : &one,
                              texels, SIZE * 4, 0);
      draw_range(3, 0, NULL);
      static const char *const names[] = {
         "upload of a texel of a texture a draw samples",
         "upload of every texel of a texture a draw samples",
         "upload of a texel of a buffer view a draw samples",
      };
      expect(names[step], s, 0);
      expect_pixels(names[step], before, after);
   }

   ctx->bind_fs_state(ctx, fs);
   ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 0, 1, false, NULL);
   void *none = NULL;
   ctx->bind_sampler_states(ctx, PIPE_SHADER_FRAGMENT, 0, 1, &none);
   ctx->delete_sampler_state(ctx, sampler);
   for (unsigned i = 0; i < 2; ++i) {
      pipe_sampler_view_reference(&views[i], NULL);
      ctx->delete_fs_state(ctx, fetch[i]);
   }
   pipe_resource_reference(&tex, NULL);
   pipe_resource_reference(&tbo, NULL);
   pan_test_fullscreen_restore(ctx, &f, &vb);
}

/* Writes that keep the storage: an unsynchronized map (the caller takes
 * care of the GPU), and, submitting the pending draw first, an upload
 * into a buffer mapped meanwhile and one into a shared texture the draw
 * samples.
 */
static void
test_storage_kept(void *fs)
{
   struct pipe_resource *tex =
      pan_test_texture(screen, PIPE_FORMAT_R8G8B8A8_UNORM, SIZE, 0,
                       PIPE_BIND_SAMPLER_VIEW | PIPE_BIND_SHARED);
   struct pipe_sampler_view vt = { .format = PIPE_FORMAT_R8G8B8A8_UNORM,
                                   .target = PIPE_TEXTURE_2D,
                                   PAN_TEST_IDENTITY_SWIZZLE };
   struct pipe_sampler_view *view = ctx->create_sampler_view(ctx, tex, &vt);
   void *fetch = fetch_fs(false);
   static uint32_t texels[SIZE * SIZE];
   struct pipe_transfer *xfer;
   struct pipe_box one;
   u_box_2d(0, 0, 1, 1, &one);

   unsigned s = begin();
   const struct pan_bo *bo = panfrost_resource(f.vbuf)->bo;
   void *map = pipe_buffer_map(ctx, f.vbuf,
                               PIPE_MAP_WRITE | PIPE_MAP_UNSYNCHRONIZED, &xfer);
   if (map)
      pipe_buffer_unmap(ctx, xfer);
   CHECK(map && panfrost_resource(f.vbuf)->bo == bo,
         "an unsynchronized map keeps the vertex buffer's storage");
   expect("unsynchronized write map of a buffer the batch reads", s, 0);

   /* While a map of it is open, its pointer must stay valid. */
   s = begin();
   struct pipe_transfer *open;
   const void *words = pipe_buffer_map(ctx, f.vbuf, PIPE_MAP_READ, &open);
   uint8_t first[16];
   if (words) {
      memcpy(first, words, sizeof(first));
      pipe_buffer_write(ctx, f.vbuf, 0, sizeof(first), first);
      pipe_buffer_unmap(ctx, open);
   }
   CHECK(words && panfrost_resource(f.vbuf)->bo == bo,
         "an upload into a mapped buffer keeps its storage");
   expect("upload into a mapped buffer the batch reads", s, 1);

   ctx->bind_fs_state(ctx, fetch);
   ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 1, 0, false, &view);
   s = begin();
   bo = panfrost_resource(tex)->bo;
   ctx->texture_subdata(ctx, tex, 0, PIPE_MAP_WRITE, &one, texels, SIZE * 4, 0);
   CHECK(panfrost_resource(tex)->bo == bo, "a shared texture keeps its BO");
   expect("upload into a shared texture the batch samples", s, 1);

   ctx->bind_fs_state(ctx, fs);
   ctx->delete_fs_state(ctx, fetch);
   ctx->set_sampler_views(ctx, PIPE_SHADER_FRAGMENT, 0, 0, 1, false, NULL);
   pipe_sampler_view_reference(&view, NULL);
   pipe_resource_reference(&tex, NULL);
}

/* DATA0 = the first vec4 of constant buffer 1, read at an offset the
 * compiler cannot know (0 on a 16-pixel target), so from memory rather
 * than pushed.
 */
static void *
ubo_fs(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_FRAGMENT, "ubo-fs");
   nir_ssa_def *x = nir_channel(&b, nir_load_frag_coord(&b), 0);
   nir_ssa_def *at = nir_bcsel(&b, nir_flt(&b, nir_imm_float(&b, 1000), x),
                               nir_imm_int(&b, 16), nir_imm_int(&b, 0));
   nir_ssa_def *c = nir_load_ubo(&b, 4, 32, nir_imm_int(&b, 1), at,
                                 .align_mul = 16, .range = ~0);
   nir_store_var(&b,
                 pan_test_io_var(b.shader, nir_var_shader_out,
                                 FRAG_RESULT_DATA0, 0, "colour"),
                 c, 0xf);
   b.shader->info.num_ubos = 2;
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

/* The left triangle draws a colour from a constant buffer, an upload
 * rewrites it (part of the buffer), the right one draws it again: no
 * submit, each triangle in its colour.
 */
static void
test_constant_buffer_rewrite(void *fs)
{
   static const float colours[2][4] = { { 1, 1, 0, 1 }, { 0, 1, 1, 1 } };
   static const uint8_t yellow8[4] = { 255, 255, 0, 255 };
   static const uint8_t cyan8[4] = { 0, 255, 255, 255 };
   struct pipe_resource *vb = pipe_buffer_create(
      screen, PIPE_BIND_VERTEX_BUFFER, PIPE_USAGE_DEFAULT, sizeof(left_right));
   struct pipe_resource *ub = pipe_buffer_create(
      screen, PIPE_BIND_CONSTANT_BUFFER, PIPE_USAGE_DEFAULT, sizeof(colours));
   void *ubo = ubo_fs();

   pipe_buffer_write(ctx, vb, 0, sizeof(left_right), left_right);
   pipe_buffer_write(ctx, ub, 0, sizeof(colours), colours);
   struct pipe_vertex_buffer b = { .stride = 16, .buffer.resource = vb };
   ctx->set_vertex_buffers(ctx, 0, 1, 0, false, &b);
   struct pipe_constant_buffer cb = { .buffer = ub,
                                      .buffer_size = sizeof(colours) };
   ctx->set_constant_buffer(ctx, PIPE_SHADER_FRAGMENT, 1, false, &cb);
   ctx->bind_fs_state(ctx, ubo);

   unsigned s = begin_cleared();
   draw_range(0, 0, NULL);
   pipe_buffer_write(ctx, ub, 0, sizeof(colours[1]), colours[1]);
   draw_range(3, 0, NULL);
   expect("upload into the constant buffer a draw reads", s, 0);
   expect_pixels("rewritten constant buffer", yellow8, cyan8);

   ctx->bind_fs_state(ctx, fs);
   ctx->set_constant_buffer(ctx, PIPE_SHADER_FRAGMENT, 1, false, NULL);
   ctx->delete_fs_state(ctx, ubo);
   pipe_resource_reference(&ub, NULL);
   pan_test_fullscreen_restore(ctx, &f, &vb);
}

static void
test_queries(void)
{
   struct pipe_query *q =
      ctx->create_query(ctx, PIPE_QUERY_OCCLUSION_COUNTER, 0);
   union pipe_query_result r = { 0 };

   CHECK(q, "occlusion counter created");
   if (!q)
      return;

   /* The query's draws in the pending batch: one submit for its result. */
   unsigned s = begin();
   ctx->begin_query(ctx, q);
   draw();
   ctx->end_query(ctx, q);
   CHECK(ctx->get_query_result(ctx, q, true, &r) && r.u64 == SIZE * SIZE,
         "the counter counts %llu samples, want %u", (unsigned long long)r.u64,
         SIZE * SIZE);
   expect("query result with its draws pending", s, 1);

   /* Its draws in a submitted batch, another draw pending: none. */
   s = begin();
   r.u64 = 0;
   CHECK(ctx->get_query_result(ctx, q, true, &r) && r.u64 == SIZE * SIZE,
         "the counter still counts %llu samples", (unsigned long long)r.u64);
   CHECK(ctx->get_query_result(ctx, q, false, &r),
         "the result is ready without a wait");
   expect("query result of a submitted batch", s, 0);

   /* A render condition on it, either mode: no submit, the draw made. */
   ctx->render_condition(ctx, q, false, PIPE_RENDER_COND_WAIT);
   draw();
   ctx->render_condition(ctx, q, false, PIPE_RENDER_COND_NO_WAIT);
   draw();
   ctx->render_condition(ctx, NULL, false, 0);
   expect("render conditions on a submitted query", s, 0);

   /* On a query whose draws are pending: the no-wait mode draws without
    * a submit, the wait mode submits once. */
   s = begin();
   ctx->begin_query(ctx, q);
   draw();
   ctx->end_query(ctx, q);
   ctx->render_condition(ctx, q, false, PIPE_RENDER_COND_NO_WAIT);
   draw();
   expect("no-wait render condition on pending draws", s, 0);
   ctx->render_condition(ctx, q, false, PIPE_RENDER_COND_WAIT);
   draw();
   draw();
   ctx->render_condition(ctx, NULL, false, 0);
   expect("waited render condition on pending draws", s, 1);

   ctx->flush(ctx, NULL, 0);
   ctx->destroy_query(ctx, q);
}

/* Word i of storage slot 0 = i + 1, for a workgroup of 4. */
static void *
ids_cs(void)
{
   const nir_shader_compiler_options *opts = screen->get_compiler_options(
      screen, PIPE_SHADER_IR_NIR, PIPE_SHADER_COMPUTE);
   nir_builder b =
      nir_builder_init_simple_shader(MESA_SHADER_COMPUTE, opts, "flush-cs");
   b.shader->info.workgroup_size[0] = 4;
   b.shader->info.workgroup_size[1] = 1;
   b.shader->info.workgroup_size[2] = 1;
   nir_ssa_def *x = nir_channel(&b, nir_load_global_invocation_id(&b, 32), 0);
   nir_store_ssbo(&b, nir_iadd_imm(&b, x, 1), nir_imm_int(&b, 0),
                  nir_imul_imm(&b, x, 4), .write_mask = 1, .align_mul = 4);
   struct pipe_compute_state cso = {
      .ir_type = PIPE_SHADER_IR_NIR,
      .prog = b.shader,
   };
   return ctx->create_compute_state(ctx, &cso);
}

/* A dispatch, then a draw into another framebuffer: the dispatch needs
 * no framebuffer and goes with the draw's pass, one submit for both when
 * the first framebuffer comes back.  The same for a dispatch and a clear
 * of a surface that is not bound.
 */
static void
test_dispatch_then_framebuffer(void)
{
   struct pipe_resource *buf = pan_test_storage_buffer(screen, ctx, 16, NULL);
   struct pipe_resource *other = pan_test_texture(
      screen, PIPE_FORMAT_R8G8B8A8_UNORM, SIZE, 0, PIPE_BIND_RENDER_TARGET);
   void *cs = ids_cs();

   CHECK(buf && other && cs, "buffer, target and compute shader made");
   if (!buf || !other || !cs)
      goto done;
   struct pipe_surface tmpl = { .format = other->format };
   struct pipe_surface *surf = ctx->create_surface(ctx, other, &tmpl);
   struct pipe_framebuffer_state fb_other = {
      .width = SIZE,
      .height = SIZE,
      .layers = 1,
      .nr_cbufs = 1,
      .cbufs = { surf },
   };
   struct pipe_framebuffer_state fb_main = fb_other;
   fb_main.cbufs[0] = f.surf;
   struct pipe_shader_buffer sb = { .buffer = buf, .buffer_size = 16 };
   struct pipe_grid_info grid = { .work_dim = 1,
                                  .block = { 4, 1, 1 },
                                  .grid = { 1, 1, 1 } };

   ctx->flush(ctx, NULL, 0);
   unsigned s = submits();
   ctx->set_shader_buffers(ctx, PIPE_SHADER_COMPUTE, 0, 1, &sb, 1);
   ctx->bind_compute_state(ctx, cs);
   ctx->launch_grid(ctx, &grid);
   ctx->set_framebuffer_state(ctx, &fb_other);
   draw();
   ctx->set_framebuffer_state(ctx, &fb_main);
   expect("a dispatch, then a draw into another framebuffer", s, 1);

   /* A dispatch, then a clear of a surface that is not bound: one submit
    * for both. */
   s = submits();
   ctx->launch_grid(ctx, &grid);
   union pipe_color_union cyan = { .f = { 0, 1, 1, 1 } };
   ctx->clear_render_target(ctx, surf, &cyan, 0, 0, SIZE, SIZE, false);
   expect("a dispatch, then a clear of another surface", s, 1);

   uint32_t words[4];
   pipe_buffer_read(ctx, buf, 0, sizeof(words), words);
   CHECK(words[0] == 1 && words[1] == 2 && words[2] == 3 && words[3] == 4,
         "the dispatch wrote %u %u %u %u", words[0], words[1], words[2],
         words[3]);
   struct pipe_transfer *xfer;
   const uint8_t *px =
      pipe_texture_map(ctx, other, 0, 0, PIPE_MAP_READ, 0, 0, 1, 1, &xfer);
   CHECK(px && px[0] == 0 && px[1] == 255 && px[2] == 255,
         "the other target is cleared to cyan");
   if (px)
      pipe_texture_unmap(ctx, xfer);
   ctx->set_shader_buffers(ctx, PIPE_SHADER_COMPUTE, 0, 1, NULL, 0);
   ctx->bind_compute_state(ctx, NULL);
   pipe_surface_reference(&surf, NULL);
done:
   if (cs)
      ctx->delete_compute_state(ctx, cs);
   pipe_resource_reference(&buf, NULL);
   pipe_resource_reference(&other, NULL);
}

/* After a draw writing a storage buffer, a barrier for readers on the CPU
 * (indirect arguments, uploads) submits nothing: they submit a batch
 * writing what they read themselves.  One for shader readers submits.
 */
static void
test_barriers(void *fs)
{
   struct pipe_resource *buf = pan_test_storage_buffer(screen, ctx, 16, NULL);
   void *store = green_fs(true);

   CHECK(buf && store, "storage buffer and storing shader made");
   if (!buf || !store)
      goto done;
   struct pipe_shader_buffer sb = { .buffer = buf, .buffer_size = 16 };
   ctx->set_shader_buffers(ctx, PIPE_SHADER_FRAGMENT, 0, 1, &sb, 1);
   ctx->bind_fs_state(ctx, store);
   unsigned s = begin();
   ctx->memory_barrier(ctx, PIPE_BARRIER_INDIRECT_BUFFER | PIPE_BARRIER_UPDATE);
   expect("barrier for CPU readers after a storing draw", s, 0);
   ctx->memory_barrier(ctx, PIPE_BARRIER_SHADER_BUFFER);
   expect("barrier for shader readers after a storing draw", s, 1);
   ctx->memory_barrier(ctx, PIPE_BARRIER_ALL & ~PIPE_BARRIER_MAPPED_BUFFER);
   expect("barrier with nothing pending", s, 1);

   /* The CPU still reads what the draw stored. */
   s = begin();
   ctx->memory_barrier(ctx, PIPE_BARRIER_UPDATE_BUFFER);
   uint32_t word = 0;
   pipe_buffer_read(ctx, buf, 0, 4, &word);
   CHECK(word == 1, "the draw stored %u, want 1", word);
   expect("read back of a stored buffer after the barrier", s, 1);

   ctx->bind_fs_state(ctx, fs);
   ctx->set_shader_buffers(ctx, PIPE_SHADER_FRAGMENT, 0, 1, NULL, 0);
done:
   if (store)
      ctx->delete_fs_state(ctx, store);
   pipe_resource_reference(&buf, NULL);
}

int
main(int argc, char **argv)
{
   if (!pan_test_open_fullscreen(&screen, &ctx, SIZE, SIZE, &f))
      return 1;
   void *vs = pan_test_position_vs(screen, ctx, "flush-vs");
   void *fs = green_fs(false);
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);

   test_cpu_access();
   test_vertex_buffer_rewrite();
   test_index_buffer_rewrite();
   test_texture_rewrite(fs);
   test_constant_buffer_rewrite(fs);
   test_storage_kept(fs);
   test_queries();
   if (screen->get_param(screen, PIPE_CAP_COMPUTE))
      test_dispatch_then_framebuffer();
   if (screen->get_shader_param(screen, PIPE_SHADER_FRAGMENT,
                                PIPE_SHADER_CAP_MAX_SHADER_BUFFERS))
      test_barriers(fs);

   ctx->bind_vs_state(ctx, NULL);
   ctx->bind_fs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, vs);
   ctx->delete_fs_state(ctx, fs);
   pan_test_fullscreen_teardown(ctx, &f);
   return pan_test_close(screen, ctx);
}
