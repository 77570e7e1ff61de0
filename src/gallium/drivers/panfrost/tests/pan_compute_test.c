/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The compute path end to end, at the Gallium level: our pipe_screen on
 * the render node (the drm-shim with a mocked GPU), compute shaders built
 * with nir_builder, compiled by the driver with our compiler, dispatched
 * with launch_grid, run by the shim's simulator, and the buffers read back
 * with buffer_map and compared with C references.
 *
 *    pan_compute_test            the GPU must run compute (v9)
 *    pan_compute_test --refused  the GPU has no compute yet: the cap is off
 *                                and shaders are refused with a message
 */

#include <stdio.h>
#include <stdlib.h>
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

static struct pipe_screen *screen;
static struct pipe_context *ctx;

static nir_builder
shader(const char *name, unsigned x, unsigned y, unsigned z)
{
   const nir_shader_compiler_options *opts = screen->get_compiler_options(
      screen, PIPE_SHADER_IR_NIR, PIPE_SHADER_COMPUTE);
   nir_builder b =
      nir_builder_init_simple_shader(MESA_SHADER_COMPUTE, opts, "%s", name);
   b.shader->info.workgroup_size[0] = x;
   b.shader->info.workgroup_size[1] = y;
   b.shader->info.workgroup_size[2] = z;
   return b;
}

static void *
compile(nir_builder *b)
{
   struct pipe_compute_state cso = {
      .ir_type = PIPE_SHADER_IR_NIR,
      .prog = b->shader,
   };
   return ctx->create_compute_state(ctx, &cso);
}

static struct pipe_resource *
buffer(unsigned size_B, const void *data)
{
   return pan_test_storage_buffer(screen, ctx, size_B, data);
}

static void
bind_ssbos(struct pipe_resource **bufs, unsigned count, unsigned writable)
{
   struct pipe_shader_buffer sb[4] = { 0 };
   for (unsigned i = 0; i < count; ++i) {
      sb[i].buffer = bufs[i];
      sb[i].buffer_size = bufs[i]->width0;
   }
   ctx->set_shader_buffers(ctx, PIPE_SHADER_COMPUTE, 0, count, sb, writable);
}

static void
dispatch(void *cso, unsigned bx, unsigned by, unsigned gx, unsigned gy)
{
   struct pipe_grid_info info = {
      .work_dim = 2,
      .block = { bx, by, 1 },
      .grid = { gx, gy, 1 },
   };
   ctx->bind_compute_state(ctx, cso);
   ctx->launch_grid(ctx, &info);
}

/* Reads back a buffer (the map submits and waits). */
static void
read_back(struct pipe_resource *r, void *out)
{
   pipe_buffer_read(ctx, r, 0, r->width0, out);
}

static nir_ssa_def *
ssbo_load(nir_builder *b, unsigned slot, nir_ssa_def *index)
{
   return nir_load_ssbo(b, 1, 32, nir_imm_int(b, slot),
                        nir_imul_imm(b, index, 4), .align_mul = 4);
}

static void
ssbo_store(nir_builder *b, unsigned slot, nir_ssa_def *index,
           nir_ssa_def *value)
{
   nir_store_ssbo(b, value, nir_imm_int(b, slot), nir_imul_imm(b, index, 4),
                  .write_mask = 1, .align_mul = 4);
}

/* The linear index of a 2D global id: y * width + x. */
static nir_ssa_def *
linear_id(nir_builder *b, unsigned width)
{
   nir_ssa_def *gid = nir_load_global_invocation_id(b, 32);
   return nir_iadd(b, nir_imul_imm(b, nir_channel(b, gid, 1), width),
                   nir_channel(b, gid, 0));
}

/* int and float arithmetic over a 2D grid: out_i[i] = in[i] * 3 - i,
 * out_f[i] = float(in[i]) * 0.5 + 1.
 */
static void
test_arith(void)
{
   enum { W = 32, H = 6, N = W * H };
   int32_t in[N], out_i[N], out_f_bits[N];
   for (unsigned i = 0; i < N; ++i)
      in[i] = (int32_t)(i * 2654435761u) >> 8;

   nir_builder b = shader("arith", 8, 2, 1);
   nir_ssa_def *i = linear_id(&b, W);
   nir_ssa_def *v = ssbo_load(&b, 0, i);
   ssbo_store(&b, 1, i, nir_isub(&b, nir_imul_imm(&b, v, 3), i));
   ssbo_store(&b, 2, i,
              nir_ffma(&b, nir_i2f32(&b, v), nir_imm_float(&b, 0.5f),
                       nir_imm_float(&b, 1.0f)));
   void *cso = compile(&b);

   struct pipe_resource *bufs[3] = { buffer(sizeof(in), in),
                                     buffer(sizeof(out_i), NULL),
                                     buffer(sizeof(out_f_bits), NULL) };
   bind_ssbos(bufs, 3, 0x6);
   dispatch(cso, 8, 2, W / 8, H / 2);
   read_back(bufs[1], out_i);
   read_back(bufs[2], out_f_bits);

   unsigned bad_i = 0, bad_f = 0;
   for (unsigned k = 0; k < N; ++k) {
      float ref = (float)in[k] * 0.5f + 1.0f, got;
      memcpy(&got, &out_f_bits[k], 4);
      bad_i += out_i[k] != (int32_t)((uint32_t)in[k] * 3u - k);
      bad_f += got != ref;
   }
   CHECK(!bad_i, "arith: %u of %u integer results wrong (out[1] = %d)", bad_i,
         N, out_i[1]);
   CHECK(!bad_f, "arith: %u of %u float results wrong", bad_f, N);

   ctx->delete_compute_state(ctx, cso);
   for (unsigned k = 0; k < 3; ++k)
      pipe_resource_reference(&bufs[k], NULL);
}

/* A loop with a per-invocation trip count and uniforms from constant
 * buffer 0: out[i] = sum over j < (i & 7) + u.n of (j * u.k ^ i), and odd
 * invocations negate their result (if/else).
 */
static uint32_t
loop_ref(uint32_t i, uint32_t n, uint32_t k)
{
   uint32_t s = 0;
   for (uint32_t j = 0; j < (i & 7) + n; ++j)
      s += (j * k) ^ i;
   return (i & 1) ? -s : s;
}

static void
test_loop_uniforms(void)
{
   enum { N = 96 };
   const uint32_t u[4] = { 3, 11, 0, 0 }; /* n, k */
   uint32_t out[N];

   nir_builder b = shader("loop", 16, 1, 1);
   nir_ssa_def *i = nir_channel(&b, nir_load_global_invocation_id(&b, 32), 0);
   nir_ssa_def *n =
      nir_load_ubo(&b, 1, 32, nir_imm_int(&b, 0), nir_imm_int(&b, 0),
                   .align_mul = 4, .range = 16);
   nir_ssa_def *k =
      nir_load_ubo(&b, 1, 32, nir_imm_int(&b, 0), nir_imm_int(&b, 4),
                   .align_mul = 4, .range = 16);
   nir_ssa_def *count = nir_iadd(&b, nir_iand_imm(&b, i, 7), n);
   nir_variable *j = nir_local_variable_create(b.impl, glsl_uint_type(), "j");
   nir_variable *s = nir_local_variable_create(b.impl, glsl_uint_type(), "s");
   nir_store_var(&b, j, nir_imm_int(&b, 0), 1);
   nir_store_var(&b, s, nir_imm_int(&b, 0), 1);
   nir_loop *loop = nir_push_loop(&b);
   {
      nir_ssa_def *jv = nir_load_var(&b, j);
      nir_push_if(&b, nir_uge(&b, jv, count));
      nir_jump(&b, nir_jump_break);
      nir_pop_if(&b, NULL);
      nir_store_var(&b, s,
                    nir_iadd(&b, nir_load_var(&b, s),
                             nir_ixor(&b, nir_imul(&b, jv, k), i)),
                    1);
      nir_store_var(&b, j, nir_iadd_imm(&b, jv, 1), 1);
   }
   nir_pop_loop(&b, loop);
   nir_push_if(&b, nir_i2b(&b, nir_iand_imm(&b, i, 1)));
   ssbo_store(&b, 0, i, nir_ineg(&b, nir_load_var(&b, s)));
   nir_push_else(&b, NULL);
   ssbo_store(&b, 0, i, nir_load_var(&b, s));
   nir_pop_if(&b, NULL);
   void *cso = compile(&b);

   struct pipe_resource *bufs[1] = { buffer(sizeof(out), NULL) };
   bind_ssbos(bufs, 1, 0x1);
   struct pipe_constant_buffer cb = { .user_buffer = u, .buffer_size = 16 };
   ctx->set_constant_buffer(ctx, PIPE_SHADER_COMPUTE, 0, false, &cb);
   dispatch(cso, 16, 1, N / 16, 1);
   read_back(bufs[0], out);

   unsigned bad = 0, first = N;
   for (unsigned k2 = 0; k2 < N; ++k2) {
      if (out[k2] != loop_ref(k2, u[0], u[1])) {
         bad++;
         first = first == N ? k2 : first;
      }
   }
   CHECK(!bad, "loop: %u of %u results wrong (first at %u: 0x%x, want 0x%x)",
         bad, N, first, first < N ? out[first] : 0,
         first < N ? loop_ref(first, u[0], u[1]) : 0);

   ctx->set_constant_buffer(ctx, PIPE_SHADER_COMPUTE, 0, false, NULL);
   ctx->delete_compute_state(ctx, cso);
   pipe_resource_reference(&bufs[0], NULL);
}

/* Ids and sizes: out[i] = workgroup id * 65536 + local id * 256 + number
 * of workgroups, then two dispatches in one batch, the second reading what
 * the first wrote (b[i] = a[i] + 1, then c[i] = b[i] * 2), and one more
 * dispatch whose size comes from a buffer (indirect).  The input of the
 * first is overwritten by the CPU while the dispatch is pending.
 */
static void
test_ids_chain_indirect(void)
{
   enum { N = 64 };
   uint32_t a[N], out[N];
   for (unsigned i = 0; i < N; ++i)
      a[i] = i * 7 + 1;

   nir_builder b = shader("ids", 8, 1, 1);
   nir_ssa_def *i = nir_channel(&b, nir_load_global_invocation_id(&b, 32), 0);
   nir_ssa_def *wg = nir_channel(&b, nir_load_workgroup_id(&b, 32), 0);
   nir_ssa_def *lid = nir_channel(&b, nir_load_local_invocation_id(&b), 0);
   nir_ssa_def *nwg = nir_channel(&b, nir_load_num_workgroups(&b, 32), 0);
   ssbo_store(
      &b, 0, i,
      nir_iadd(&b,
               nir_iadd(&b, nir_ishl_imm(&b, wg, 16), nir_ishl_imm(&b, lid, 8)),
               nwg));
   void *ids = compile(&b);

   b = shader("plus1", 16, 1, 1);
   i = nir_channel(&b, nir_load_global_invocation_id(&b, 32), 0);
   ssbo_store(&b, 1, i, nir_iadd_imm(&b, ssbo_load(&b, 0, i), 1));
   void *plus1 = compile(&b);

   b = shader("times2", 16, 1, 1);
   i = nir_channel(&b, nir_load_global_invocation_id(&b, 32), 0);
   ssbo_store(&b, 2, i, nir_imul_imm(&b, ssbo_load(&b, 1, i), 2));
   void *times2 = compile(&b);

   struct pipe_resource *bufs[3] = { buffer(sizeof(a), NULL),
                                     buffer(sizeof(a), NULL),
                                     buffer(sizeof(a), NULL) };
   bind_ssbos(bufs, 1, 0x1);
   dispatch(ids, 8, 1, N / 8, 1);
   read_back(bufs[0], out);
   unsigned bad = 0;
   for (unsigned k = 0; k < N; ++k)
      bad += out[k] != (k / 8) * 65536 + (k % 8) * 256 + N / 8;
   CHECK(!bad, "ids: %u of %u results wrong (out[9] = 0x%x)", bad, N, out[9]);

   pipe_buffer_write(ctx, bufs[0], 0, sizeof(a), a);
   bind_ssbos(bufs, 3, 0x6);
   dispatch(plus1, 16, 1, N / 16, 1);
   /* A CPU write to a buffer a pending dispatch reads submits that
    * dispatch first: plus1 must still see a.
    */
   uint32_t zeros[N] = { 0 };
   pipe_buffer_write(ctx, bufs[0], 0, sizeof(zeros), zeros);
   dispatch(times2, 16, 1, N / 16, 1);
   read_back(bufs[2], out);
   bad = 0;
   for (unsigned k = 0; k < N; ++k)
      bad += out[k] != (a[k] + 1) * 2;
   CHECK(!bad, "chain: %u of %u results wrong (out[3] = %u)", bad, N, out[3]);

   /* Half the grid from an indirect buffer: the upper half keeps 0. */
   const uint32_t grid[3] = { N / 16 / 2, 1, 1 };
   struct pipe_resource *ind = buffer(sizeof(grid), grid);
   memset(out, 0, sizeof(out));
   pipe_buffer_write(ctx, bufs[2], 0, sizeof(out), out);
   struct pipe_grid_info info = {
      .work_dim = 1,
      .block = { 16, 1, 1 },
      .indirect = ind,
   };
   ctx->bind_compute_state(ctx, times2);
   ctx->launch_grid(ctx, &info);
   read_back(bufs[2], out);
   bad = 0;
   for (unsigned k = 0; k < N; ++k)
      bad += out[k] != (k < N / 2 ? (a[k] + 1) * 2 : 0);
   CHECK(!bad, "indirect: %u of %u results wrong", bad, N);

   /* A quarter of the grid from a buffer a pending dispatch writes (plus1
    * turns 0, 0, 0 into 1, 1, 1): the indirect dispatch must wait for it.
    */
   uint32_t words[16] = { 0 };
   struct pipe_resource *ind_in = buffer(sizeof(words), words);
   struct pipe_resource *ind_gpu = buffer(sizeof(words), words);
   struct pipe_resource *grid_bufs[2] = { ind_in, ind_gpu };
   memset(out, 0, sizeof(out));
   pipe_buffer_write(ctx, bufs[2], 0, sizeof(out), out);
   bind_ssbos(grid_bufs, 2, 0x2);
   dispatch(plus1, 16, 1, 1, 1);
   bind_ssbos(bufs, 3, 0x6);
   info.indirect = ind_gpu;
   ctx->bind_compute_state(ctx, times2);
   ctx->launch_grid(ctx, &info);
   read_back(bufs[2], out);
   bad = 0;
   for (unsigned k = 0; k < N; ++k)
      bad += out[k] != (k < 16 ? (a[k] + 1) * 2 : 0);
   CHECK(!bad, "indirect from the GPU: %u of %u results wrong", bad, N);
   pipe_resource_reference(&ind_in, NULL);
   pipe_resource_reference(&ind_gpu, NULL);

   ctx->delete_compute_state(ctx, ids);
   ctx->delete_compute_state(ctx, plus1);
   ctx->delete_compute_state(ctx, times2);
   for (unsigned k = 0; k < 3; ++k)
      pipe_resource_reference(&bufs[k], NULL);
   pipe_resource_reference(&ind, NULL);
}

/* A constant buffer in a resource, read at a computed offset, and the
 * bound size of a storage buffer: out[i] = cb[i & 3] + size(out).
 */
static void
test_buffer_ubo_size(void)
{
   enum { N = 32 };
   const uint32_t words[4] = { 1000, 2000, 3000, 4000 };
   uint32_t out[N];

   nir_builder b = shader("ubo-size", 16, 1, 1);
   nir_ssa_def *i = nir_channel(&b, nir_load_global_invocation_id(&b, 32), 0);
   nir_ssa_def *w = nir_load_ubo(&b, 1, 32, nir_imm_int(&b, 0),
                                 nir_imul_imm(&b, nir_iand_imm(&b, i, 3), 4),
                                 .align_mul = 4, .range = 16);
   nir_ssa_def *size = nir_get_ssbo_size(&b, nir_imm_int(&b, 0));
   ssbo_store(&b, 0, i, nir_iadd(&b, w, size));
   void *cso = compile(&b);

   struct pipe_resource *ubo = buffer(sizeof(words), words);
   struct pipe_resource *bufs[1] = { buffer(sizeof(out), NULL) };
   bind_ssbos(bufs, 1, 0x1);
   struct pipe_constant_buffer cb = { .buffer = ubo, .buffer_size = 16 };
   ctx->set_constant_buffer(ctx, PIPE_SHADER_COMPUTE, 0, false, &cb);
   dispatch(cso, 16, 1, N / 16, 1);
   read_back(bufs[0], out);

   unsigned bad = 0;
   for (unsigned k = 0; k < N; ++k)
      bad += out[k] != words[k & 3] + sizeof(out);
   CHECK(!bad, "ubo/size: %u of %u results wrong (out[1] = %u)", bad, N,
         out[1]);

   ctx->set_constant_buffer(ctx, PIPE_SHADER_COMPUTE, 0, false, NULL);
   ctx->delete_compute_state(ctx, cso);
   pipe_resource_reference(&ubo, NULL);
   pipe_resource_reference(&bufs[0], NULL);
}

/* Uniform blocks chosen at run time (through the table of addresses):
 * out[i] = cb[4 + 4 * (i % 3)][(i / 3) % 4] + cb[0][0], buffers 4 and 12
 * user memory, 8 a resource bound at an offset.
 */
static void
test_ubo_dynamic_block(void)
{
   enum { N = 48 };
   uint32_t data[3][4], base = 7, out[N];

   for (unsigned k = 0; k < 3; ++k)
      for (unsigned w = 0; w < 4; ++w)
         data[k][w] = 1000 * (k + 1) + 10 * w;
   nir_builder b = shader("ubo-dynamic-block", 16, 1, 1);
   nir_ssa_def *i = nir_channel(&b, nir_load_global_invocation_id(&b, 32), 0);
   nir_ssa_def *third = nir_umod(&b, i, nir_imm_int(&b, 3));
   nir_ssa_def *blk = nir_iadd_imm(&b, nir_imul_imm(&b, third, 4), 4);
   nir_ssa_def *off = nir_imul_imm(
      &b, nir_iand_imm(&b, nir_udiv_imm(&b, i, 3), 3), 4);
   nir_ssa_def *w =
      nir_load_ubo(&b, 1, 32, blk, off, .align_mul = 4, .range = ~0);
   nir_ssa_def *c = nir_load_ubo(&b, 1, 32, nir_imm_int(&b, 0),
                                 nir_imm_int(&b, 0), .align_mul = 4, .range = 4);
   ssbo_store(&b, 0, i, nir_iadd(&b, w, c));
   pan_test_debug_msg[0] = 0;
   void *cso = compile(&b);
   CHECK(!pan_test_debug_msg[0], "dynamic block: refused: %s",
         pan_test_debug_msg);

   uint8_t padded[256 + sizeof(data[1])] = { 0 };
   memcpy(padded + 256, data[1], sizeof(data[1]));
   struct pipe_resource *ubo = buffer(sizeof(padded), padded);
   struct pipe_resource *bufs[1] = { buffer(sizeof(out), NULL) };
   bind_ssbos(bufs, 1, 0x1);
   struct pipe_constant_buffer cb[4] = {
      { .user_buffer = &base, .buffer_size = 4 },
      { .user_buffer = data[0], .buffer_size = 16 },
      { .buffer = ubo, .buffer_offset = 256, .buffer_size = 16 },
      { .user_buffer = data[2], .buffer_size = 16 },
   };
   for (unsigned k = 0; k < 4; ++k)
      ctx->set_constant_buffer(ctx, PIPE_SHADER_COMPUTE, 4 * k, false, &cb[k]);
   dispatch(cso, 16, 1, N / 16, 1);
   read_back(bufs[0], out);

   unsigned bad = 0;
   for (unsigned k = 0; k < N; ++k)
      bad += out[k] != data[k % 3][(k / 3) % 4] + base;
   CHECK(!bad, "dynamic block: %u of %u results wrong (out[2] = %u)", bad, N,
         out[2]);

   for (unsigned k = 0; k < 4; ++k)
      ctx->set_constant_buffer(ctx, PIPE_SHADER_COMPUTE, 4 * k, false, NULL);
   ctx->delete_compute_state(ctx, cso);
   pipe_resource_reference(&ubo, NULL);
   pipe_resource_reference(&bufs[0], NULL);
}

/* gl_LocalInvocationIndex over 4 x 2 x 2 workgroups: each invocation
 * writes its index at workgroup * 16 + its index, and the local id's
 * linear form next to it, so both must agree with C.
 */
static void
test_local_index(void)
{
   enum { WG = 16, GROUPS = 3, N = WG * GROUPS };
   uint32_t out[2 * N];

   nir_builder b = shader("local-index", 4, 2, 2);
   nir_ssa_def *l = nir_load_local_invocation_index(&b);
   nir_ssa_def *lid = nir_load_local_invocation_id(&b);
   nir_ssa_def *wg = nir_channel(&b, nir_load_workgroup_id(&b, 32), 0);
   nir_ssa_def *at = nir_iadd(&b, nir_imul_imm(&b, wg, WG), l);
   ssbo_store(&b, 0, at, l);
   nir_ssa_def *lin = nir_iadd(
      &b, nir_channel(&b, lid, 0),
      nir_iadd(&b, nir_imul_imm(&b, nir_channel(&b, lid, 1), 4),
               nir_imul_imm(&b, nir_channel(&b, lid, 2), 8)));
   ssbo_store(&b, 0, nir_iadd_imm(&b, at, N), nir_iadd_imm(&b, lin, 100));
   pan_test_debug_msg[0] = 0;
   void *cso = compile(&b);
   CHECK(!pan_test_debug_msg[0], "local index: refused: %s",
         pan_test_debug_msg);

   memset(out, 0xcd, sizeof(out));
   struct pipe_resource *bufs[1] = { buffer(sizeof(out), out) };
   bind_ssbos(bufs, 1, 0x1);
   struct pipe_grid_info info = {
      .work_dim = 3,
      .block = { 4, 2, 2 },
      .grid = { GROUPS, 1, 1 },
   };
   ctx->bind_compute_state(ctx, cso);
   ctx->launch_grid(ctx, &info);
   read_back(bufs[0], out);

   unsigned bad = 0;
   for (unsigned k = 0; k < N; ++k)
      bad += out[k] != k % WG || out[N + k] != k % WG + 100;
   CHECK(!bad, "local index: %u of %u results wrong (out[5] = %u, "
               "out[%u] = %u)",
         bad, N, out[5], N + 5, out[N + 5]);

   ctx->delete_compute_state(ctx, cso);
   pipe_resource_reference(&bufs[0], NULL);
}

/* Storage blocks chosen at run time (arrays of blocks, through the table
 * of slots): out[i] = in[1 + i % 3][(i / 3) % 4] + size(1 + i % 3), and
 * i * 7 stored into slot 4 + (i & 1) at word i / 2.  Slot 5 is bound at
 * an offset, slot 6 is unbound.
 */
static void
test_ssbo_dynamic_block(void)
{
   enum { N = 48 };
   uint32_t in[3][8], out[N], half[2][N / 2 + 16];

   for (unsigned k = 0; k < 3; ++k)
      for (unsigned w = 0; w < 8; ++w)
         in[k][w] = 1000 * (k + 1) + 10 * w;
   nir_builder b = shader("ssbo-dynamic-block", 16, 1, 1);
   nir_ssa_def *i = nir_channel(&b, nir_load_global_invocation_id(&b, 32), 0);
   nir_ssa_def *blk = nir_iadd_imm(&b, nir_umod(&b, i, nir_imm_int(&b, 3)), 1);
   nir_ssa_def *off = nir_imul_imm(
      &b, nir_iand_imm(&b, nir_udiv(&b, i, nir_imm_int(&b, 3)), 3), 4);
   nir_ssa_def *w = nir_load_ssbo(&b, 1, 32, blk, off, .align_mul = 4);
   nir_ssa_def *size = nir_get_ssbo_size(&b, blk);
   ssbo_store(&b, 0, i, nir_iadd(&b, w, size));
   nir_store_ssbo(&b, nir_imul_imm(&b, i, 7),
                  nir_iadd_imm(&b, nir_iand_imm(&b, i, 1), 4),
                  nir_imul_imm(&b, nir_ushr_imm(&b, i, 1), 4),
                  .write_mask = 1, .align_mul = 4);
   pan_test_debug_msg[0] = 0;
   void *cso = compile(&b);
   CHECK(!pan_test_debug_msg[0], "dynamic storage block: refused: %s",
         pan_test_debug_msg);

   /* Slot k + 1 holds 4 * (k + 1) words of in[k], so sizes differ. */
   struct pipe_resource *res[6];
   res[0] = buffer(sizeof(out), NULL);
   for (unsigned k = 0; k < 3; ++k)
      res[1 + k] = buffer(16 * (k + 1), in[k]);
   memset(half, 0xcd, sizeof(half));
   res[4] = buffer(sizeof(half[0]), half[0]);
   res[5] = buffer(sizeof(half[1]), half[1]);
   struct pipe_shader_buffer sb[7] = { 0 };
   for (unsigned k = 0; k < 6; ++k) {
      sb[k].buffer = res[k];
      sb[k].buffer_size = res[k]->width0;
   }
   sb[5].buffer_offset = 64;
   sb[5].buffer_size = N / 2 * 4;
   ctx->set_shader_buffers(ctx, PIPE_SHADER_COMPUTE, 0, 7, sb, 0x31);
   dispatch(cso, 16, 1, N / 16, 1);
   read_back(res[0], out);
   read_back(res[4], half[0]);
   read_back(res[5], half[1]);

   unsigned bad = 0;
   for (unsigned k = 0; k < N; ++k)
      bad += out[k] != in[k % 3][(k / 3) % 4] + 16 * (k % 3 + 1);
   CHECK(!bad, "dynamic storage block: %u of %u loads wrong (out[2] = %u)",
         bad, N, out[2]);
   /* Slot 4 from word 0, slot 5 from word 16 (its 64-byte offset). */
   bad = 0;
   for (unsigned k = 0; k < N / 2 + 16; ++k) {
      uint32_t want4 = k < N / 2 ? 2 * k * 7 : 0xcdcdcdcd;
      uint32_t want5 =
         k >= 16 ? (2 * (k - 16) + 1) * 7 : 0xcdcdcdcd;
      bad += half[0][k] != want4 || half[1][k] != want5;
   }
   CHECK(!bad, "dynamic storage block: %u of %u stored words wrong "
               "(slot 4 [1] = %u, slot 5 [16] = %u)",
         bad, N + 32, half[0][1], half[1][16]);

   ctx->set_shader_buffers(ctx, PIPE_SHADER_COMPUTE, 0, 7, NULL, 0);
   ctx->delete_compute_state(ctx, cso);
   for (unsigned k = 0; k < 6; ++k)
      pipe_resource_reference(&res[k], NULL);
}

/* Shared memory and barriers: workgroups of 64 invocations reverse their
 * part of the input through shared memory, then write again over what
 * the others still read (a barrier on each side of the write):
 *    s[l] = in[g]; barrier; r = s[63 - l]; barrier; s[l] = 3 * r + l;
 *    barrier; out[g] = s[l ^ 9] + r
 * Two dispatches in one batch (2 then 5 workgroups: the batch's shared
 * memory grows), each checked against C.
 */
static uint32_t
shared_ref(const uint32_t *in, unsigned g)
{
   unsigned base = g & ~63u, l = g & 63;
   uint32_t r = in[base + 63 - l], r9 = in[base + 63 - (l ^ 9)];
   return 3 * r9 + (l ^ 9) + r;
}

static void
test_shared_memory(void)
{
   enum { WG = 64, N = WG * 5 };
   uint32_t in[N], out[2][N];
   for (unsigned i = 0; i < N; ++i)
      in[i] = i * 2654435761u ^ 0x5bd1e995u;

   nir_builder b = shader("shared-reverse", WG, 1, 1);
   nir_variable *s = nir_variable_create(
      b.shader, nir_var_mem_shared, glsl_array_type(glsl_uint_type(), WG, 0),
      "s");
   nir_deref_instr *ds = nir_build_deref_var(&b, s);
   nir_ssa_def *g = nir_channel(&b, nir_load_global_invocation_id(&b, 32), 0);
   nir_ssa_def *l = nir_channel(&b, nir_load_local_invocation_id(&b), 0);
   nir_store_deref(&b, nir_build_deref_array(&b, ds, l), ssbo_load(&b, 0, g),
                   1);
   nir_control_barrier(&b);
   nir_ssa_def *r = nir_load_deref(
      &b, nir_build_deref_array(&b, ds, nir_isub(&b, nir_imm_int(&b, WG - 1),
                                                 l)));
   nir_scoped_barrier(&b, .execution_scope = NIR_SCOPE_WORKGROUP,
                      .memory_scope = NIR_SCOPE_WORKGROUP,
                      .memory_semantics = NIR_MEMORY_ACQ_REL,
                      .memory_modes = nir_var_mem_shared);
   nir_store_deref(&b, nir_build_deref_array(&b, ds, l),
                   nir_iadd(&b, nir_imul_imm(&b, r, 3), l), 1);
   nir_memory_barrier_shared(&b);
   nir_control_barrier(&b);
   nir_ssa_def *o = nir_load_deref(
      &b, nir_build_deref_array(&b, ds, nir_ixor(&b, l, nir_imm_int(&b, 9))));
   ssbo_store(&b, 1, g, nir_iadd(&b, o, r));
   pan_test_debug_msg[0] = 0;
   void *cso = compile(&b);
   CHECK(!pan_test_debug_msg[0], "shared: refused: %s", pan_test_debug_msg);

   struct pipe_resource *bufs[3] = { buffer(sizeof(in), in),
                                     buffer(sizeof(in), NULL),
                                     buffer(sizeof(in), NULL) };
   bind_ssbos(bufs, 2, 0x2);
   dispatch(cso, WG, 1, 2, 1);
   struct pipe_resource *second[2] = { bufs[0], bufs[2] };
   bind_ssbos(second, 2, 0x2);
   dispatch(cso, WG, 1, N / WG, 1);
   read_back(bufs[1], out[0]);
   read_back(bufs[2], out[1]);

   for (unsigned d = 0; d < 2; ++d) {
      unsigned n = d ? N : 2 * WG, bad = 0, first = n;
      for (unsigned k = 0; k < n; ++k) {
         if (out[d][k] != shared_ref(in, k)) {
            bad++;
            first = first == n ? k : first;
         }
      }
      CHECK(!bad,
            "shared dispatch %u: %u of %u results wrong (first at %u: 0x%x, "
            "want 0x%x)",
            d, bad, n, first, first < n ? out[d][first] : 0,
            first < n ? shared_ref(in, first) : 0);
   }

   ctx->delete_compute_state(ctx, cso);
   for (unsigned k = 0; k < 3; ++k)
      pipe_resource_reference(&bufs[k], NULL);
}

/* Atomic words of the atomics case (SSBO 1), in this order. */
enum { AT_COUNT, AT_SUM, AT_IMIN, AT_IMAX, AT_UMIN, AT_UMAX, AT_AND, AT_OR,
       AT_XOR, AT_XCHG, AT_CAS, AT_WORDS };

static uint32_t
at_fold(unsigned k, uint32_t a, uint32_t x)
{
   int32_t sa = (int32_t)a, sx = (int32_t)x;
   switch (k) {
   case AT_SUM:
      return a + x;
   case AT_IMIN:
      return (uint32_t)(sa < sx ? sa : sx);
   case AT_IMAX:
      return (uint32_t)(sa > sx ? sa : sx);
   case AT_UMIN:
      return a < x ? a : x;
   case AT_UMAX:
      return a > x ? a : x;
   case AT_AND:
      return a & x;
   case AT_OR:
      return a | x;
   default:
      return a ^ x;
   }
}

/* The value atomic k returned to an invocation lies between the start and
 * the end of the word, whatever the order the invocations ran in. */
static bool
at_between(unsigned k, uint32_t start, uint32_t end, uint32_t old)
{
   switch (k) {
   case AT_IMIN:
      return (int32_t)old <= (int32_t)start && (int32_t)old >= (int32_t)end;
   case AT_IMAX:
      return (int32_t)old >= (int32_t)start && (int32_t)old <= (int32_t)end;
   case AT_UMIN:
      return old <= start && old >= end;
   case AT_UMAX:
      return old >= start && old <= end;
   case AT_AND:
      return (old & start) == old && (old & end) == end;
   default: /* AT_OR */
      return (old & start) == start && (old & end) == old;
   }
}

/*
 * SSBO atomics from every invocation of two 64-wide workgroups (several
 * warps): slot = atomicAdd(count, 1) and out[slot] = i (each invocation
 * its own slot); atomicAdd of x with the result unused; the min, max, and,
 * or, xor and exchange of x, and atomicCompSwap(cas, 0, i + 1), their
 * results to out[N + 8 i + k].  Checked so that the order of the
 * invocations does not matter: the words end as the C fold of all the
 * operands, each value returned lies between the word's start and end,
 * the slots are a permutation, the exchange hands out every value once,
 * and exactly one compare-and-swap wins.
 */
static void
test_atomics(void)
{
   enum { N = 128, R = 8 };
   static const unsigned ret_words[R] = { AT_IMIN, AT_IMAX, AT_UMIN, AT_UMAX,
                                          AT_AND,  AT_OR,   AT_XOR,  AT_XCHG };
   uint32_t x[N], start[AT_WORDS], end[AT_WORDS];
   for (unsigned i = 0; i < N; ++i)
      x[i] = i * 2654435761u; /* distinct: an odd factor */
   for (unsigned k = 0; k < AT_WORDS; ++k)
      start[k] = 0x9e3779b9u * (k + 1);
   start[AT_COUNT] = start[AT_CAS] = 0;

   nir_builder b = shader("atomics", 64, 1, 1);
   nir_ssa_def *i = nir_channel(&b, nir_load_global_invocation_id(&b, 32), 0);
   nir_ssa_def *v = ssbo_load(&b, 0, i), *one = nir_imm_int(&b, 1);
   nir_ssa_def *slot = nir_ssbo_atomic_add(&b, 32, one, nir_imm_int(&b, 0), one);
   ssbo_store(&b, 2, slot, i);
   nir_ssbo_atomic_add(&b, 32, one, nir_imm_int(&b, 4 * AT_SUM), v);
   nir_ssa_def *r[R + 1] = {
      nir_ssbo_atomic_imin(&b, 32, one, nir_imm_int(&b, 4 * AT_IMIN), v),
      nir_ssbo_atomic_imax(&b, 32, one, nir_imm_int(&b, 4 * AT_IMAX), v),
      nir_ssbo_atomic_umin(&b, 32, one, nir_imm_int(&b, 4 * AT_UMIN), v),
      nir_ssbo_atomic_umax(&b, 32, one, nir_imm_int(&b, 4 * AT_UMAX), v),
      nir_ssbo_atomic_and(&b, 32, one, nir_imm_int(&b, 4 * AT_AND), v),
      nir_ssbo_atomic_or(&b, 32, one, nir_imm_int(&b, 4 * AT_OR), v),
      nir_ssbo_atomic_xor(&b, 32, one, nir_imm_int(&b, 4 * AT_XOR), v),
      nir_ssbo_atomic_exchange(&b, 32, one, nir_imm_int(&b, 4 * AT_XCHG), v),
      nir_ssbo_atomic_comp_swap(&b, 32, one, nir_imm_int(&b, 4 * AT_CAS),
                                nir_imm_int(&b, 0), nir_iadd_imm(&b, i, 1)),
   };
   nir_ssa_def *base = nir_iadd_imm(&b, nir_imul_imm(&b, i, R + 1), N);
   for (unsigned k = 0; k <= R; ++k)
      ssbo_store(&b, 2, nir_iadd_imm(&b, base, k), r[k]);
   void *cso = compile(&b);

   struct pipe_resource *bufs[3] = { buffer(sizeof(x), x),
                                     buffer(sizeof(start), start),
                                     buffer((N + (R + 1) * N) * 4, NULL) };
   uint32_t *res = calloc(N + (R + 1) * N, 4);
   bind_ssbos(bufs, 3, 0x6);
   dispatch(cso, 64, 1, N / 64, 1);
   read_back(bufs[1], end);
   read_back(bufs[2], res);

   uint32_t want[AT_WORDS];
   memcpy(want, start, sizeof(want));
   for (unsigned j = 0; j < N; ++j) {
      for (unsigned k = AT_SUM; k <= AT_XOR; ++k)
         want[k] = at_fold(k, want[k], x[j]);
   }
   CHECK(end[AT_COUNT] == N, "atomics: counter %u, expected %u",
         end[AT_COUNT], N);
   for (unsigned k = AT_SUM; k <= AT_XOR; ++k)
      CHECK(end[k] == want[k], "atomics: word %u ends 0x%08x, expected 0x%08x",
            k, end[k], want[k]);

   unsigned seen[N] = { 0 }, bad = 0, wins = 0, xchg_bad = 0;
   for (unsigned j = 0; j < N; ++j)
      seen[res[j] < N ? res[j] : 0] += res[j] < N ? 1 : 2;
   for (unsigned j = 0; j < N; ++j)
      bad += seen[j] != 1;
   CHECK(!bad, "atomics: %u slots not taken exactly once", bad);

   bad = 0;
   for (unsigned j = 0; j < N; ++j) {
      const uint32_t *got = res + N + (R + 1) * j;
      for (unsigned k = 0; k < R - 2; ++k) /* not xor, not xchg */
         bad += !at_between(ret_words[k], start[ret_words[k]],
                            end[ret_words[k]], got[k]);
      wins += got[R] == 0;
      bad += got[R] != 0 && got[R] != end[AT_CAS];
   }
   CHECK(!bad, "atomics: %u returned values outside their word's range",
         bad);
   CHECK(wins == 1 && end[AT_CAS] >= 1 && end[AT_CAS] <= N,
         "atomics: %u compare-and-swaps won, the word ends %u", wins,
         end[AT_CAS]);

   /* Exchange: what came back and the end value are the start value and
    * the operands, each once (x[] is distinct). */
   uint32_t pool[N + 1];
   bool taken[N + 1] = { false };
   memcpy(pool, x, sizeof(x));
   pool[N] = start[AT_XCHG];
   for (unsigned j = 0; j <= N; ++j) {
      uint32_t v = j < N ? res[N + (R + 1) * j + R - 1] : end[AT_XCHG];
      unsigned k = 0;
      while (k <= N && (taken[k] || pool[k] != v))
         k++;
      if (k > N)
         xchg_bad++;
      else
         taken[k] = true;
   }
   CHECK(!xchg_bad, "atomics: %u exchanged values unaccounted for", xchg_bad);

   free(res);
   ctx->delete_compute_state(ctx, cso);
   for (unsigned k = 0; k < 3; ++k)
      pipe_resource_reference(&bufs[k], NULL);
}

/* Shared atomics: each workgroup of 64 zeroes two counters, then every
 * invocation adds its input to the first and takes the unsigned maximum
 * into the second; after a barrier out[g] = sum ^ max of its workgroup.
 */
static void
test_shared_atomics(void)
{
   enum { WG = 64, N = WG * 3 };
   uint32_t in[N], out[N];
   for (unsigned i = 0; i < N; ++i)
      in[i] = (i * 2246822519u) >> 3;

   nir_builder b = shader("shared-atomics", WG, 1, 1);
   nir_variable *s = nir_variable_create(
      b.shader, nir_var_mem_shared, glsl_array_type(glsl_uint_type(), 2, 0),
      "c");
   nir_deref_instr *ds = nir_build_deref_var(&b, s);
   nir_deref_instr *c0 = nir_build_deref_array_imm(&b, ds, 0);
   nir_deref_instr *c1 = nir_build_deref_array_imm(&b, ds, 1);
   nir_ssa_def *g = nir_channel(&b, nir_load_global_invocation_id(&b, 32), 0);
   nir_ssa_def *l = nir_channel(&b, nir_load_local_invocation_id(&b), 0);
   nir_store_deref(&b, nir_build_deref_array(&b, ds, nir_iand_imm(&b, l, 1)),
                   nir_imm_int(&b, 0), 1);
   nir_control_barrier(&b);
   nir_ssa_def *v = ssbo_load(&b, 0, g);
   nir_deref_atomic_add(&b, 32, &c0->dest.ssa, v);
   nir_deref_atomic_umax(&b, 32, &c1->dest.ssa, v);
   nir_control_barrier(&b);
   ssbo_store(&b, 1, g,
              nir_ixor(&b, nir_load_deref(&b, c0), nir_load_deref(&b, c1)));
   pan_test_debug_msg[0] = 0;
   void *cso = compile(&b);
   CHECK(!pan_test_debug_msg[0], "shared atomics: refused: %s",
         pan_test_debug_msg);

   struct pipe_resource *bufs[2] = { buffer(sizeof(in), in),
                                     buffer(sizeof(out), NULL) };
   bind_ssbos(bufs, 2, 0x2);
   dispatch(cso, WG, 1, N / WG, 1);
   read_back(bufs[1], out);

   unsigned bad = 0;
   for (unsigned k = 0; k < N; ++k) {
      uint32_t sum = 0, max = 0;
      for (unsigned j = k & ~(WG - 1u); j < (k | (WG - 1u)) + 1; ++j) {
         sum += in[j];
         max = in[j] > max ? in[j] : max;
      }
      bad += out[k] != (sum ^ max);
   }
   CHECK(!bad, "shared atomics: %u of %u results wrong (out[0] = 0x%x)", bad,
         N, out[0]);

   ctx->delete_compute_state(ctx, cso);
   for (unsigned k = 0; k < 2; ++k)
      pipe_resource_reference(&bufs[k], NULL);
}

/* What the driver refuses comes back as a message, and the dispatch is
 * dropped: the buffer keeps its contents.
 */
static void
test_refusals(bool compute)
{
   uint32_t out[16], keep[16];
   for (unsigned i = 0; i < 16; ++i)
      keep[i] = 0xdead0000 + i;

   /* A kernel input read at a run-time offset. */
   nir_builder b = shader("dynamic-input", 16, 1, 1);
   nir_ssa_def *i = nir_channel(&b, nir_load_global_invocation_id(&b, 32), 0);
   nir_ssa_def *v = nir_load_kernel_input(&b, 1, 32, nir_imul_imm(&b, i, 4));
   ssbo_store(&b, 0, i, v);
   pan_test_debug_msg[0] = 0;
   void *cso = compile(&b);
   CHECK(cso, "a refused shader still gives a state object");
   const char *want =
      compute ? "kernel input at a non-constant offset" : "not supported on v";
   CHECK(strstr(pan_test_debug_msg, want), "refusal message '%s' lacks '%s'",
         pan_test_debug_msg, want);

   struct pipe_resource *bufs[1] = { buffer(sizeof(keep), keep) };
   bind_ssbos(bufs, 1, 0x1);
   dispatch(cso, 16, 1, 1, 1);
   read_back(bufs[0], out);
   CHECK(!memcmp(out, keep, sizeof(out)), "refused dispatch changed memory");
   ctx->delete_compute_state(ctx, cso);

   if (compute) {
      /* More shared memory than the screen offers. */
      b = shader("shared", 16, 1, 1);
      b.shader->info.shared_size = 64 << 10;
      pan_test_debug_msg[0] = 0;
      cso = compile(&b);
      CHECK(strstr(pan_test_debug_msg, "bytes of shared memory"),
            "shared memory refusal: '%s'", pan_test_debug_msg);
      ctx->delete_compute_state(ctx, cso);
   }
   pipe_resource_reference(&bufs[0], NULL);
}

int
main(int argc, char **argv)
{
   bool expect_compute = !(argc > 1 && !strcmp(argv[1], "--refused"));

   if (!pan_test_open(&screen, &ctx))
      return 1;

   bool has = screen->get_param(screen, PIPE_CAP_COMPUTE);
   CHECK(has == expect_compute, "PIPE_CAP_COMPUTE is %d on %s", has,
         screen->get_name(screen));
   if (has && expect_compute) {
      /* GLSL compute shaders read their uniforms as constant buffer 0. */
      const nir_shader_compiler_options *opts = screen->get_compiler_options(
         screen, PIPE_SHADER_IR_NIR, PIPE_SHADER_COMPUTE);
      CHECK(opts->lower_uniforms_to_ubo,
            "compute options leave GL uniforms as load_uniform");
      test_arith();
      test_loop_uniforms();
      test_ids_chain_indirect();
      test_buffer_ubo_size();
      test_ubo_dynamic_block();
      test_local_index();
      test_ssbo_dynamic_block();
      uint64_t local_B = 0;
      screen->get_compute_param(screen, PIPE_SHADER_IR_NIR,
                                PIPE_COMPUTE_CAP_MAX_LOCAL_SIZE, &local_B);
      CHECK(local_B == 32 << 10, "MAX_LOCAL_SIZE is %llu",
            (unsigned long long)local_B);
      test_shared_memory();
      test_shared_atomics();
      test_atomics();
   }
   test_refusals(has);
   return pan_test_close(screen, ctx);
}
