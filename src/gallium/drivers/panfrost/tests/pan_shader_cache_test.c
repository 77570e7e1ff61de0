/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Compiled shaders through the disk cache, on the drm-shim: the first
 * state object of a shader compiles it and stores the binary, a second
 * one (in a new screen, as a new process would be) is a hit and runs
 * the same; a different shader misses.  Every compile also sends its
 * shader-db line to the debug callback (SHADER_INFO), hit or miss.
 */

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pipe/p_context.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"
#include "util/disk_cache.h"
#include "util/u_inlines.h"

#include "pan_screen.h"
#include "pan_test_screen.h"

static struct pipe_screen *screen;
static struct pipe_context *ctx;

/* out[i] = i * k + 1, one invocation per word. */
static void *
create(unsigned k)
{
   const nir_shader_compiler_options *opts = screen->get_compiler_options(
      screen, PIPE_SHADER_IR_NIR, PIPE_SHADER_COMPUTE);
   nir_builder b =
      nir_builder_init_simple_shader(MESA_SHADER_COMPUTE, opts, "cache");
   b.shader->info.workgroup_size[0] = 16;
   b.shader->info.workgroup_size[1] = 1;
   b.shader->info.workgroup_size[2] = 1;
   nir_ssa_def *i = nir_channel(&b, nir_load_global_invocation_id(&b, 32), 0);
   nir_store_ssbo(&b, nir_iadd_imm(&b, nir_imul_imm(&b, i, k), 1),
                  nir_imm_int(&b, 0), nir_imul_imm(&b, i, 4), .write_mask = 1,
                  .align_mul = 4);
   struct pipe_compute_state cso = {
      .ir_type = PIPE_SHADER_IR_NIR,
      .prog = b.shader,
   };
   pan_test_shaderdb_msg[0] = 0;
   return ctx->create_compute_state(ctx, &cso);
}

/* Runs cso over 64 words and checks them against i * k + 1. */
static void
run(void *cso, unsigned k, const char *what)
{
   enum { N = 64 };
   uint32_t out[N];
   struct pipe_resource *buf =
      pan_test_storage_buffer(screen, ctx, sizeof(out), NULL);
   struct pipe_shader_buffer sb = { .buffer = buf, .buffer_size = sizeof(out) };
   struct pipe_grid_info info = {
      .work_dim = 1, .block = { 16, 1, 1 }, .grid = { N / 16, 1, 1 },
   };

   ctx->set_shader_buffers(ctx, PIPE_SHADER_COMPUTE, 0, 1, &sb, 0x1);
   ctx->bind_compute_state(ctx, cso);
   ctx->launch_grid(ctx, &info);
   pipe_buffer_read(ctx, buf, 0, sizeof(out), out);
   unsigned bad = 0;
   for (unsigned i = 0; i < N; ++i)
      bad += out[i] != i * k + 1;
   CHECK(!bad, "%s: %u of %u words wrong (out[1] = %u)", what, bad, N, out[1]);
   pipe_resource_reference(&buf, NULL);
}

static unsigned
hits(void)
{
   return ((struct panfrost_screen *)screen)->shader_cache_hits;
}

static void
reopen(void)
{
   struct disk_cache *cache = ((struct panfrost_screen *)screen)->disk_cache;
   /* Stores are written by a queue: let them land first. */
   if (cache)
      disk_cache_wait_for_idle(cache);
   pan_test_close(screen, ctx);
   if (!pan_test_open(&screen, &ctx))
      exit(1);
}

int
main(void)
{
   char dir[] = "/tmp/pan-shader-cache-XXXXXX";
   if (!mkdtemp(dir)) {
      printf("FAIL: no temporary folder\n");
      return 1;
   }
   setenv("MESA_SHADER_CACHE_DIR", dir, 1);
   setenv("MESA_SHADER_CACHE_DISABLE", "false", 1);
   if (!pan_test_open(&screen, &ctx))
      return 1;
   CHECK(((struct panfrost_screen *)screen)->disk_cache,
         "the screen has no disk cache");

   void *cso = create(3);
   CHECK(hits() == 0, "first compile: %u cache hits", hits());
   CHECK(strstr(pan_test_shaderdb_msg, "MESA_SHADER_COMPUTE shader: ") &&
            strstr(pan_test_shaderdb_msg, " inst, "),
         "no shader-db line through the debug callback: '%s'",
         pan_test_shaderdb_msg);
   char first_line[512];
   memcpy(first_line, pan_test_shaderdb_msg, sizeof(first_line));
   run(cso, 3, "compiled");
   ctx->delete_compute_state(ctx, cso);

   reopen();
   cso = create(3);
   CHECK(hits() == 1, "same shader in a new screen: %u cache hits", hits());
   CHECK(!strcmp(first_line, pan_test_shaderdb_msg),
         "the cached shader-db line differs: '%s' / '%s'", first_line,
         pan_test_shaderdb_msg);
   run(cso, 3, "cached");
   ctx->delete_compute_state(ctx, cso);

   cso = create(5);
   CHECK(hits() == 1, "a different shader hit the cache (%u hits)", hits());
   run(cso, 5, "other shader");
   ctx->delete_compute_state(ctx, cso);

   int status = pan_test_close(screen, ctx);
   /* The folder is ours alone: remove what the cache wrote. */
   char cmd[128];
   snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
   if (system(cmd) != 0)
      printf("note: could not remove %s\n", dir);
   return status;
}
