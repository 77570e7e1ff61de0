/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Vertex shader atomics whose results reach a varying, at the Gallium
 * level on the drm-shim whose simulator runs the jobs.  On the G57 the
 * vertex shader is an IDVS pair: the atomic must be made once per vertex
 * (by the position program) and its result read by the varying program
 * (pan_ssbo.h); on the G52 and G72 the vertex job runs it once anyway.
 *
 * Each vertex is a one-pixel point at (vertex id, instance id) whose red
 * channel is the value atomicAdd(counter, 1) returned to it: after a draw
 * of n vertex invocations the counter must be n and the points' values
 * 0 to n - 1, each once.  Drawn without indices from a first vertex, and
 * with indices and an index bias, each in two instances.
 */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "compiler/nir/nir.h"
#include "compiler/nir/nir_builder.h"
#include "pipe/p_context.h"
#include "pipe/p_defines.h"
#include "pipe/p_screen.h"
#include "pipe/p_state.h"
#include "util/u_inlines.h"

#include "pan_test_check.h"
#include "pan_test_screen.h"

#define W 8
#define H 4
#define INSTANCES 2
/* Vertex ids 2 to 5 in both draws. */
#define FIRST 2
#define COUNT 4
#define CLEAR 0xff

static struct pipe_screen *screen;
static struct pipe_context *ctx;

/* before = slot 0 word 0; old = atomicAdd(slot 0 word 0, 1); the point
 * at pixel (vertex id, instance id); VAR0 = (old / 255, old >= before, 0,
 * 1): a load must see what it saw before the vertex's atomic, not the
 * count after every vertex's.
 */
static void *
vertex_shader(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_VERTEX, "atomic_vs");
   nir_variable *pos = pan_test_io_var(b.shader, nir_var_shader_out,
                                       VARYING_SLOT_POS, 0, "gl_Position");
   nir_variable *v0 =
      pan_test_io_var(b.shader, nir_var_shader_out, VARYING_SLOT_VAR0, 1, "v0");
   nir_ssa_def *before = nir_load_ssbo(&b, 1, 32, nir_imm_int(&b, 0),
                                       nir_imm_int(&b, 0), .align_mul = 4);
   nir_ssa_def *old = nir_ssbo_atomic_add(
      &b, 32, nir_imm_int(&b, 0), nir_imm_int(&b, 0), nir_imm_int(&b, 1));
   /* gl_VertexID as GL gives it: from the first vertex or the bias. */
   nir_ssa_def *x = nir_u2f32(&b, nir_iadd(&b, nir_load_vertex_id_zero_base(&b),
                                           nir_load_first_vertex(&b)));
   nir_ssa_def *y = nir_u2f32(&b, nir_load_instance_id(&b));
   /* Pixel centre p: (p + 0.5) * 2 / size - 1. */
   x = nir_fadd_imm(&b, nir_fmul_imm(&b, nir_fadd_imm(&b, x, 0.5), 2.0 / W),
                    -1.0);
   y = nir_fadd_imm(&b, nir_fmul_imm(&b, nir_fadd_imm(&b, y, 0.5), 2.0 / H),
                    -1.0);
   nir_store_var(&b, pos,
                 nir_vec4(&b, x, y, nir_imm_float(&b, 0), nir_imm_float(&b, 1)),
                 0xf);
   nir_store_var(&b, v0,
                 nir_vec4(&b, nir_fmul_imm(&b, nir_u2f32(&b, old), 1.0 / 255),
                          nir_b2f32(&b, nir_uge(&b, old, before)),
                          nir_imm_float(&b, 0), nir_imm_float(&b, 1)),
                 0xf);
   b.shader->info.num_ssbos = 1;
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_vs_state(ctx, &cso);
}

/* Clears, draws the points (indexed with an index bias, or from FIRST)
 * and checks the counter and the pixels.
 */
static void
draw_and_check(struct pipe_resource *tex, struct pipe_resource *counter,
               bool indexed)
{
   const char *what = indexed ? "indexed" : "arrays";
   /* Vertex ids FIRST to FIRST + COUNT - 1, out of order. */
   static const uint16_t indices[COUNT] = { 3, 0, 2, 1 };
   struct pipe_draw_info info = {
      .mode = PIPE_PRIM_POINTS,
      .instance_count = INSTANCES,
      .index_size = indexed ? 2 : 0,
      .has_user_indices = indexed,
      .index.user = indexed ? indices : NULL,
   };
   struct pipe_draw_start_count_bias d = {
      .start = indexed ? 0 : FIRST,
      .count = COUNT,
      .index_bias = indexed ? FIRST : 0,
   };
   union pipe_color_union c = { .f = { 1, 1, 1, 1 } };
   uint32_t zero = 0, count = 0;

   pipe_buffer_write(ctx, counter, 0, 4, &zero);
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &c, 0, 0);
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
   pipe_buffer_read(ctx, counter, 0, 4, &count);
   CHECK(count == COUNT * INSTANCES,
         "%s: the counter is %u, want %u (one atomic per vertex)", what, count,
         COUNT * INSTANCES);

   struct pipe_transfer *xfer;
   const uint8_t *map =
      pipe_texture_map(ctx, tex, 0, 0, PIPE_MAP_READ, 0, 0, W, H, &xfer);
   CHECK(map, "%s: render target map failed", what);
   if (!map)
      return;
   unsigned seen = 0, bad = 0, stale = 0;
   for (unsigned y = 0; y < H; ++y) {
      for (unsigned x = 0; x < W; ++x) {
         unsigned red = map[y * xfer->stride + x * 4];
         bool point = y < INSTANCES && x >= FIRST && x < FIRST + COUNT;
         /* Green: the load before the atomic saw no later count. */
         if (point && map[y * xfer->stride + x * 4 + 1] != 0xff)
            stale++;
         bool ok = point
                      ? red < COUNT * INSTANCES && !(seen & BITFIELD_BIT(red))
                      : red == CLEAR;
         if (point && ok)
            seen |= BITFIELD_BIT(red);
         if (!ok && bad++ < 4)
            CHECK(false, "%s: pixel (%u, %u) is %u, want %s", what, x, y, red,
                  point ? "an atomic's result not seen before"
                        : "the clear colour");
      }
   }
   CHECK(!bad, "%s: %u pixels are wrong", what, bad);
   CHECK(!stale,
         "%s: %u points loaded a count above their atomic's result (the "
         "varying program's load saw later vertices' atomics)",
         what, stale);
   CHECK(seen == BITFIELD_MASK(COUNT * INSTANCES),
         "%s: the points' results are 0x%x, want each of 0 to %u once", what,
         seen, COUNT * INSTANCES - 1);
   pipe_texture_unmap(ctx, xfer);
}

int
main(int argc, char **argv)
{
   struct pan_test_fullscreen f;

   if (!pan_test_open_fullscreen(&screen, &ctx, W, H, &f))
      return 1;
   struct pipe_rasterizer_state rs =
      pan_test_rasterizer(PIPE_POLYGON_MODE_FILL);
   void *rast = ctx->create_rasterizer_state(ctx, &rs);
   ctx->bind_rasterizer_state(ctx, rast);
   void *vs = vertex_shader();
   void *fs = pan_test_colour_fs(screen, ctx, "atomic_fs", true);
   struct pipe_resource *counter =
      pan_test_storage_buffer(screen, ctx, 16, NULL);
   CHECK(counter, "storage buffer creation failed");
   if (counter) {
      struct pipe_shader_buffer sb = { .buffer = counter, .buffer_size = 16 };
      ctx->bind_vs_state(ctx, vs);
      ctx->bind_fs_state(ctx, fs);
      ctx->set_shader_buffers(ctx, PIPE_SHADER_VERTEX, 0, 1, &sb, 1);
      draw_and_check(f.tex, counter, false);
      draw_and_check(f.tex, counter, true);
      ctx->set_shader_buffers(ctx, PIPE_SHADER_VERTEX, 0, 1, NULL, 0);
   }
   pan_test_delete_shaders(ctx, vs, fs);
   ctx->bind_rasterizer_state(ctx, f.cso[1]);
   ctx->delete_rasterizer_state(ctx, rast);
   pipe_resource_reference(&counter, NULL);
   pan_test_fullscreen_teardown(ctx, &f);
   return pan_test_close(screen, ctx);
}
