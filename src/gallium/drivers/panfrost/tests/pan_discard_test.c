/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Draws with rasterizer discard at the Gallium level on the drm-shim whose
 * simulator runs the jobs (G57: IDVS, G52: vertex and tiler jobs).  The
 * vertex shader counts its runs per (vertex, instance) in a storage
 * buffer: under discard each distinct vertex of the draw's whole
 * primitives must run once per instance (a strip, an indexed strip with a
 * restart and an incomplete first part, instanced points), the render
 * target must keep what an earlier draw of the pass coloured, and a
 * shader writing no memory must leave the buffers alone.  A draw without
 * discard afterwards colours the target and counts its vertices once.
 * The first discarded draws follow a visible one in the same pass: their
 * dispatches make the driver submit the pass, which must not lose what
 * the dispatches put in the batch before.
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

#include "pan_test_screen.h"

#define W 8
#define H 8
#define NV 8 /* vertices in the vertex buffer */
#define NI 4 /* instances the counters have room for */
#define WORDS (1 + NV * NI)

static struct pipe_screen *screen;
static struct pipe_context *ctx;

/* gl_Position = attribute 0; word 0 += 1 and word 1 + instance * NV +
 * vertex += 1 of storage slot 0.
 */
static void *
counting_vs(bool count)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_VERTEX, "discard_vs");
   nir_variable *pos = pan_test_io_var(b.shader, nir_var_shader_in,
                                       VERT_ATTRIB_GENERIC0, 0, "pos");
   nir_variable *opos = pan_test_io_var(b.shader, nir_var_shader_out,
                                        VARYING_SLOT_POS, 0, "gl_Position");
   nir_store_var(&b, opos, nir_load_var(&b, pos), 0xf);
   if (count) {
      nir_ssa_def *slot =
         nir_iadd(&b, nir_imul_imm(&b, nir_load_instance_id(&b), NV),
                  nir_load_vertex_id(&b));
      nir_ssbo_atomic_add(&b, 32, nir_imm_int(&b, 0), nir_imm_int(&b, 0),
                          nir_imm_int(&b, 1));
      nir_ssbo_atomic_add(&b, 32, nir_imm_int(&b, 0),
                          nir_imul_imm(&b, nir_iadd_imm(&b, slot, 1), 4),
                          nir_imm_int(&b, 1));
      b.shader->info.num_ssbos = 1;
   }
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_vs_state(ctx, &cso);
}

static void *
constant_fs(float r, float g)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_FRAGMENT, "constant");
   nir_variable *out = pan_test_io_var(b.shader, nir_var_shader_out,
                                       FRAG_RESULT_DATA0, 0, "colour");
   nir_store_var(&b, out, nir_imm_vec4(&b, r, g, 0, 1), 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

static void
draw(enum pipe_prim_type mode, unsigned start, unsigned count,
     unsigned instances, const uint16_t *indices)
{
   struct pipe_draw_info info = {
      .mode = mode,
      .instance_count = instances,
      .index_size = indices ? 2 : 0,
      .has_user_indices = indices != NULL,
      .primitive_restart = indices != NULL,
      .restart_index = 0xffff,
      .index.user = indices,
   };
   struct pipe_draw_start_count_bias d = { .start = start, .count = count };
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
}

/* The counters must be want (word 0 their sum). */
static void
check_counts(const char *what, struct pipe_resource *buf, const uint32_t *want)
{
   uint32_t got[WORDS], total = 0;
   unsigned bad = 0;

   pipe_buffer_read(ctx, buf, 0, sizeof(got), got);
   for (unsigned i = 1; i < WORDS; ++i)
      total += want[i];
   CHECK(got[0] == total, "%s: %u vertex shader runs, want %u", what, got[0],
         total);
   for (unsigned i = 1; i < WORDS; ++i) {
      if (got[i] != want[i] && bad++ < 4)
         CHECK(false, "%s: vertex %u of instance %u ran %u times, want %u",
               what, (i - 1) % NV, (i - 1) / NV, got[i], want[i]);
   }
   CHECK(!bad, "%s: %u counters differ", what, bad);
}

static bool
rgba8_differs(const uint8_t *p, const void *want, char *msg, size_t size)
{
   uint32_t got, w = *(const uint32_t *)want;
   memcpy(&got, p, 4);
   snprintf(msg, size, "is 0x%08x, want 0x%08x", got, w);
   return got != w;
}

/* Every pixel must be want. */
static void
check_pixels(const char *what, struct pipe_resource *tex, uint32_t want)
{
   pan_test_check_pixels(ctx, what, tex, W, H, rgba8_differs, &want);
}

int
main(int argc, char **argv)
{
   struct pan_test_fullscreen f;

   if (!pan_test_open_fullscreen(&screen, &ctx, W, H, &f))
      return 1;

   /* Vertex i at x = i / NV: any position does, nothing is rasterised. */
   float pos[NV * 4];
   for (unsigned i = 0; i < NV; ++i) {
      pos[i * 4 + 0] = -1.0f + 2.0f * i / NV;
      pos[i * 4 + 1] = (i & 1) ? 1.0f : -1.0f;
      pos[i * 4 + 2] = 0.0f;
      pos[i * 4 + 3] = 1.0f;
   }
   struct pipe_resource *vbuf = pipe_buffer_create(
      screen, PIPE_BIND_VERTEX_BUFFER, PIPE_USAGE_DEFAULT, sizeof(pos));
   pipe_buffer_write(ctx, vbuf, 0, sizeof(pos), pos);
   struct pipe_vertex_buffer vb = { .stride = 16, .buffer.resource = vbuf };
   ctx->set_vertex_buffers(ctx, 0, 1, 0, false, &vb);

   uint32_t zero[WORDS] = { 0 }, want[WORDS] = { 0 };
   struct pipe_resource *counts =
      pan_test_storage_buffer(screen, ctx, sizeof(zero), zero);
   struct pipe_shader_buffer sb = { .buffer = counts,
                                    .buffer_size = sizeof(zero) };
   ctx->set_shader_buffers(ctx, PIPE_SHADER_VERTEX, 0, 1, &sb, 1);
   void *vs = counting_vs(true), *quiet_vs = counting_vs(false);
   void *green = constant_fs(0, 1), *red = constant_fs(1, 0);
   struct pipe_rasterizer_state rs = {
      .half_pixel_center = 1,
      .depth_clip_near = 1,
      .depth_clip_far = 1,
      .rasterizer_discard = 1,
   };
   void *discard = ctx->create_rasterizer_state(ctx, &rs);
   union pipe_color_union blue = { .f = { 0, 0, 1, 1 } };
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &blue, 0, 0);
   /* A visible draw first, of the whole target in green. */
   vb.buffer.resource = f.vbuf;
   ctx->set_vertex_buffers(ctx, 0, 1, 0, false, &vb);
   ctx->bind_vs_state(ctx, quiet_vs);
   ctx->bind_fs_state(ctx, green);
   draw(PIPE_PRIM_TRIANGLES, 0, 3, 1, NULL);

   vb.buffer.resource = vbuf;
   ctx->set_vertex_buffers(ctx, 0, 1, 0, false, &vb);
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, red);
   ctx->bind_rasterizer_state(ctx, discard);
   /* A strip of vertices 1 to 4: each once.  Then an indexed strip: two
    * vertices before the restart make no triangle; 5, 6, 7 one, whose
    * vertex 6 is named twice. */
   static const uint16_t indices[] = { 0, 2, 0xffff, 5, 6, 7, 6 };
   draw(PIPE_PRIM_TRIANGLE_STRIP, 1, 4, 1, NULL);
   draw(PIPE_PRIM_TRIANGLE_STRIP, 0, ARRAY_SIZE(indices), 1, indices);
   for (unsigned v = 1; v <= 7; ++v)
      want[1 + v]++;
   check_counts("strips after a visible draw", counts, want);

   /* Points 2 and 3 in three instances. */
   draw(PIPE_PRIM_POINTS, 2, 2, 3, NULL);
   for (unsigned i = 0; i < 3; ++i) {
      want[1 + i * NV + 2]++;
      want[1 + i * NV + 3]++;
   }
   check_counts("instanced points", counts, want);

   /* Under the render condition of a visible draw's predicate, waited
    * for: the draw is made, and so are its writes. */
   struct pipe_query *q =
      ctx->create_query(ctx, PIPE_QUERY_OCCLUSION_PREDICATE, 0);
   vb.buffer.resource = f.vbuf;
   ctx->set_vertex_buffers(ctx, 0, 1, 0, false, &vb);
   ctx->bind_vs_state(ctx, quiet_vs);
   ctx->bind_fs_state(ctx, green);
   ctx->bind_rasterizer_state(ctx, f.cso[1]);
   ctx->begin_query(ctx, q);
   draw(PIPE_PRIM_TRIANGLES, 0, 3, 1, NULL);
   ctx->end_query(ctx, q);
   ctx->render_condition(ctx, q, false, PIPE_RENDER_COND_WAIT);
   vb.buffer.resource = vbuf;
   ctx->set_vertex_buffers(ctx, 0, 1, 0, false, &vb);
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, red);
   ctx->bind_rasterizer_state(ctx, discard);
   draw(PIPE_PRIM_POINTS, 0, 1, 1, NULL);
   draw(PIPE_PRIM_POINTS, 7, 1, 1, NULL);
   ctx->render_condition(ctx, NULL, false, 0);
   ctx->destroy_query(ctx, q);
   want[1 + 0]++;
   want[1 + 7]++;
   check_counts("under a render condition", counts, want);

   /* A shader writing no memory: nothing to run. */
   ctx->bind_vs_state(ctx, quiet_vs);
   draw(PIPE_PRIM_TRIANGLES, 0, 3, 1, NULL);
   check_counts("shader without writes", counts, want);
   check_pixels("under rasterizer discard", f.tex, 0xff00ff00u);

   /* Without discard: drawn, each vertex counted once. */
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_rasterizer_state(ctx, f.cso[1]);
   vb.buffer.resource = f.vbuf;
   ctx->set_vertex_buffers(ctx, 0, 1, 0, false, &vb);
   draw(PIPE_PRIM_TRIANGLES, 0, 3, 1, NULL);
   for (unsigned v = 0; v < 3; ++v)
      want[1 + v]++;
   check_counts("draw without discard", counts, want);
   check_pixels("draw without discard", f.tex, 0xff0000ffu);

   ctx->set_shader_buffers(ctx, PIPE_SHADER_VERTEX, 0, 1, NULL, 0);
   ctx->bind_fs_state(ctx, NULL);
   ctx->delete_fs_state(ctx, green);
   ctx->delete_fs_state(ctx, red);
   ctx->bind_vs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, vs);
   ctx->delete_vs_state(ctx, quiet_vs);
   ctx->delete_rasterizer_state(ctx, discard);
   pipe_resource_reference(&counts, NULL);
   pipe_resource_reference(&vbuf, NULL);
   pan_test_fullscreen_teardown(ctx, &f);
   return pan_test_close(screen, ctx);
}
