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
   expect("write map of a buffer the batch reads", s, 1);

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
