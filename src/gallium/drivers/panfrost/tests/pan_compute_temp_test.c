/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Temporary arrays indexed at run time in compute shaders: the compiler
 * keeps them in thread storage, which compute jobs get from the batch
 * (panfrost_batch_compute_storage), so the compute stage advertises
 * PIPE_SHADER_CAP_INDIRECT_TEMP_ADDR and the state tracker hands such
 * arrays over instead of lowering them to chains of selects.  Each
 * invocation x writes x * 100 + k to element in[4x + k] % N of an array of
 * N uints (and of N vec4s, one channel of two of the writes), then stores
 * element in[4x] times 3 plus element in[4x + 2]; two workgroups of 32,
 * compared with the same computation in C.
 */

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
#include "panfrost/util/pan_test_temp_array.h"

#define MAX_N 512
#define WRITES PAN_TEST_TEMP_WRITES
#define GROUP 32
#define GROUPS 2
#define THREADS (GROUP * GROUPS)

static struct pipe_screen *screen;
static struct pipe_context *ctx;

static nir_ssa_def *
load_in(nir_builder *b, nir_ssa_def *i)
{
   return nir_load_ssbo(b, 1, 32, nir_imm_int(b, 0), nir_imul_imm(b, i, 4),
                        .align_mul = 4);
}

/* The store's index: in[word] % n. */
static nir_ssa_def *
temp_index(nir_builder *b, nir_ssa_def *word, unsigned n)
{
   return nir_umod(b, load_in(b, word), nir_imm_int(b, n));
}

static void *
temp_array_shader(unsigned N, bool vec)
{
   const nir_shader_compiler_options *opts = screen->get_compiler_options(
      screen, PIPE_SHADER_IR_NIR, PIPE_SHADER_COMPUTE);
   nir_builder b =
      nir_builder_init_simple_shader(MESA_SHADER_COMPUTE, opts, "temp-array");
   b.shader->info.workgroup_size[0] = GROUP;
   b.shader->info.workgroup_size[1] = 1;
   b.shader->info.workgroup_size[2] = 1;
   const struct glsl_type *elem = vec ? glsl_vec4_type() : glsl_uint_type();
   nir_variable *arr = nir_local_variable_create(
      b.impl, glsl_array_type(elem, N, vec ? 16 : 4), "arr");
   nir_ssa_def *x = nir_channel(&b, nir_load_global_invocation_id(&b, 32), 0);
   nir_ssa_def *res = pan_test_temp_array_body(&b, arr, vec, x, temp_index, N);
   nir_store_ssbo(&b, res, nir_imm_int(&b, 1), nir_imul_imm(&b, x, 4),
                  .write_mask = 1, .align_mul = 4);

   struct pipe_compute_state cso = {
      .ir_type = PIPE_SHADER_IR_NIR,
      .prog = b.shader,
   };
   return ctx->create_compute_state(ctx, &cso);
}

static uint32_t
temp_array_ref(const uint32_t *in, unsigned x, unsigned N)
{
   uint32_t arr[MAX_N] = { 0 };

   for (unsigned k = 0; k < WRITES; ++k)
      arr[in[x * WRITES + k] % N] = x * 100 + k;
   return arr[in[x * WRITES] % N] * 3 + arr[in[x * WRITES + 2] % N];
}

static void
test_temp_array(unsigned N, bool vec)
{
   static uint32_t in[THREADS * WRITES];
   uint32_t out[THREADS];

   /* Indices that collide within an invocation now and then. */
   for (unsigned i = 0; i < THREADS * WRITES; ++i)
      in[i] = (i * 2654435761u) >> 7;
   struct pipe_resource *bufs[2] = {
      pan_test_storage_buffer(screen, ctx, sizeof(in), in),
      pan_test_storage_buffer(screen, ctx, sizeof(out), NULL),
   };
   void *cso = temp_array_shader(N, vec);
   CHECK(cso && bufs[0] && bufs[1], "%s[%u] temp array shader and buffers",
         vec ? "vec4" : "uint", N);
   if (!cso || !bufs[0] || !bufs[1])
      goto done;

   struct pipe_shader_buffer sb[2] = {
      { .buffer = bufs[0], .buffer_size = sizeof(in) },
      { .buffer = bufs[1], .buffer_size = sizeof(out) },
   };
   ctx->set_shader_buffers(ctx, PIPE_SHADER_COMPUTE, 0, 2, sb, 0x2);
   ctx->bind_compute_state(ctx, cso);
   struct pipe_grid_info info = {
      .work_dim = 1,
      .block = { GROUP, 1, 1 },
      .grid = { GROUPS, 1, 1 },
   };
   ctx->launch_grid(ctx, &info);
   pipe_buffer_read(ctx, bufs[1], 0, sizeof(out), out);

   unsigned wrong = 0;
   for (unsigned x = 0; x < THREADS; ++x) {
      uint32_t want = temp_array_ref(in, x, N);
      if (out[x] != want && !wrong++)
         printf("%s[%u]: invocation %u gives %u, want %u\n",
                vec ? "vec4" : "uint", N, x, out[x], want);
   }
   CHECK(!wrong, "%s[%u] temp array indexed at run time: %u of %u wrong",
         vec ? "vec4" : "uint", N, wrong, THREADS);
   ctx->set_shader_buffers(ctx, PIPE_SHADER_COMPUTE, 0, 2, NULL, 0);
   ctx->bind_compute_state(ctx, NULL);
done:
   if (cso)
      ctx->delete_compute_state(ctx, cso);
   pipe_resource_reference(&bufs[0], NULL);
   pipe_resource_reference(&bufs[1], NULL);
}

int
main(int argc, char **argv)
{
   if (!pan_test_open(&screen, &ctx))
      return 1;
   CHECK(screen->get_shader_param(screen, PIPE_SHADER_COMPUTE,
                                  PIPE_SHADER_CAP_INDIRECT_TEMP_ADDR),
         "compute shaders take temporary arrays indexed at run time");
   /* Small arrays stay in registers, large ones go to thread storage. */
   for (unsigned n = 64; n <= MAX_N; n *= 8) {
      test_temp_array(n, false);
      test_temp_array(n, true);
   }
   return pan_test_close(screen, ctx);
}
