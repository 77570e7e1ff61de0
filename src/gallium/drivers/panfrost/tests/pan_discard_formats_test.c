/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Vertex formats under rasterizer discard, where the vertex shader runs as
 * a compute variant that fetches its attributes itself (pan_xfb_fetch.c).
 * The shader stores attribute 1 of each (vertex, instance) as four raw
 * words in a storage buffer; for each format the screen takes for vertex
 * buffers (normalized and integer 8- and 16-bit channels, half floats,
 * normalized and scaled 10_10_10_2, BGRA order, three channels, a
 * per-instance attribute, a user array) the words must be the values the
 * GL fetch gives, the missing channels (0, 0, 0, 1).
 */

#include <math.h>
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

#define NV 2 /* vertices per draw */
#define NI 2 /* instances of the instanced draw */

static struct pipe_screen *screen;
static struct pipe_context *ctx;
static struct pipe_resource *out;

/* gl_Position = attribute 0; words (instance * NV + vertex) * 4 of storage
 * slot 0 = attribute 1.
 */
static void *
store_vs(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_VERTEX, "formats_vs");
   nir_variable *pos = pan_test_io_var(b.shader, nir_var_shader_in,
                                       VERT_ATTRIB_GENERIC0, 0, "pos");
   nir_variable *data = pan_test_io_var(b.shader, nir_var_shader_in,
                                        VERT_ATTRIB_GENERIC1, 1, "data");
   nir_variable *opos = pan_test_io_var(b.shader, nir_var_shader_out,
                                        VARYING_SLOT_POS, 0, "gl_Position");
   nir_store_var(&b, opos, nir_load_var(&b, pos), 0xf);
   nir_ssa_def *slot =
      nir_iadd(&b, nir_imul_imm(&b, nir_load_instance_id(&b), NV),
               nir_load_vertex_id(&b));
   nir_store_ssbo(&b, nir_load_var(&b, data), nir_imm_int(&b, 0),
                  nir_imul_imm(&b, slot, 16), .write_mask = 0xf,
                  .align_mul = 16);
   b.shader->info.num_ssbos = 1;
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_vs_state(ctx, &cso);
}

/* A format, its elements for vertices 0 and 1 (or instances 0 and 1) and
 * the words they must read as: floats, or integers when integer is set.
 */
struct format_case {
   enum pipe_format format;
   uint8_t elem[NV][8];
   unsigned size_B;
   bool integer;
   float f[NV][4];
   int32_t i[NV][4];
};

static const struct format_case cases[] = {
   { PIPE_FORMAT_R8G8B8A8_UNORM,
     { { 0, 255, 51, 204 }, { 255, 0, 102, 0 } },
     4,
     false,
     { { 0, 1, 0.2f, 0.8f }, { 1, 0, 0.4f, 0 } } },
   { PIPE_FORMAT_B8G8R8A8_UNORM,
     { { 255, 0, 0, 255 }, { 0, 51, 255, 0 } },
     4,
     false,
     { { 0, 0, 1, 1 }, { 1, 0.2f, 0, 0 } } },
   { PIPE_FORMAT_R8G8B8A8_SNORM,
     { { 127, 0x81, 0, 0x81 }, { 0, 127, 0x81, 127 } },
     4,
     false,
     { { 1, -1, 0, -1 }, { 0, 1, -1, 1 } } },
   { PIPE_FORMAT_R8G8B8_UNORM,
     { { 255, 0, 51 }, { 0, 102, 255 } },
     3,
     false,
     { { 1, 0, 0.2f, 1 }, { 0, 0.4f, 1, 1 } } },
   /* r 1023, g 0, b 511, a 1; then r 0, g 1023, b 0, a 3 */
   { PIPE_FORMAT_R10G10B10A2_USCALED,
     { { 0xff, 0x03, 0xf0, 0x5f }, { 0x00, 0xfc, 0x0f, 0xc0 } },
     4,
     false,
     { { 1023, 0, 511, 1 }, { 0, 1023, 0, 3 } } },
   /* -3, 7 and 1000, -1000 */
   { PIPE_FORMAT_R16G16_SINT,
     { { 0xfd, 0xff, 7, 0 }, { 0xe8, 0x03, 0x18, 0xfc } },
     4,
     true,
     .i = { { -3, 7, 0, 1 }, { 1000, -1000, 0, 1 } } },
   { PIPE_FORMAT_R16_UNORM,
     { { 0xff, 0xff }, { 0, 0x80 } },
     2,
     false,
     { { 1, 0, 0, 1 }, { 32768 / 65535.0f, 0, 0, 1 } } },
   /* 1.5, -2, 0.25, 3 and 0, 0.5, -0.5, 65504 */
   { PIPE_FORMAT_R16G16B16A16_FLOAT,
     { { 0x00, 0x3e, 0x00, 0xc0, 0x00, 0x34, 0x00, 0x42 },
       { 0x00, 0x00, 0x00, 0x38, 0x00, 0xb8, 0xff, 0x7b } },
     8,
     false,
     { { 1.5f, -2, 0.25f, 3 }, { 0, 0.5f, -0.5f, 65504 } } },
   /* r 1023, g 0, b 511, a 1; then r 0, g 1023, b 0, a 3 */
   { PIPE_FORMAT_R10G10B10A2_UNORM,
     { { 0xff, 0x03, 0xf0, 0x5f }, { 0x00, 0xfc, 0x0f, 0xc0 } },
     4,
     false,
     { { 1, 0, 511 / 1023.0f, 1 / 3.0f }, { 0, 1, 0, 1 } } },
   { PIPE_FORMAT_R8G8B8A8_UINT,
     { { 1, 2, 3, 255 }, { 200, 0, 9, 4 } },
     4,
     true,
     .i = { { 1, 2, 3, 255 }, { 200, 0, 9, 4 } } },
};

static bool
words_match(const struct format_case *c, unsigned e, const uint32_t *got)
{
   for (unsigned k = 0; k < 4; ++k) {
      if (c->integer) {
         if ((int32_t)got[k] != c->i[e][k])
            return false;
      } else {
         float g;
         memcpy(&g, &got[k], 4);
         if (!(fabsf(g - c->f[e][k]) <= 1e-3f * MAX2(1.0f, fabsf(c->f[e][k]))))
            return false;
      }
   }
   return true;
}

static void
draw_points(unsigned instances)
{
   struct pipe_draw_info info = { .mode = PIPE_PRIM_POINTS,
                                  .instance_count = instances };
   struct pipe_draw_start_count_bias d = { .count = NV };
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
}

/* Draws the case with attribute 1 per vertex, per instance (divisor 1,
 * NI instances) or from a user array, and checks the words stored.
 */
static void
run_case(const struct format_case *c, bool per_instance, bool user,
         struct pipe_resource *pos)
{
   const char *name = util_format_short_name(c->format);
   const char *how = user           ? "user array"
                     : per_instance ? "per instance"
                                    : "per vertex";
   uint8_t data[NV * 8] = { 0 };
   for (unsigned e = 0; e < NV; ++e)
      memcpy(data + e * c->size_B, c->elem[e], c->size_B);

   struct pipe_vertex_element ve[2] = {
      { .src_format = PIPE_FORMAT_R32G32B32A32_FLOAT },
      { .src_format = c->format,
        .vertex_buffer_index = 1,
        .instance_divisor = per_instance },
   };
   void *velems = ctx->create_vertex_elements_state(ctx, 2, ve);
   ctx->bind_vertex_elements_state(ctx, velems);
   struct pipe_resource *buf = NULL;
   struct pipe_vertex_buffer vb[2] = {
      { .stride = 16, .buffer.resource = pos },
      { .stride = c->size_B },
   };
   if (user) {
      vb[1].is_user_buffer = true;
      vb[1].buffer.user = data;
   } else {
      buf = pipe_buffer_create(screen, PIPE_BIND_VERTEX_BUFFER,
                               PIPE_USAGE_DEFAULT, sizeof(data));
      pipe_buffer_write(ctx, buf, 0, sizeof(data), data);
      vb[1].buffer.resource = buf;
   }
   ctx->set_vertex_buffers(ctx, 0, 2, 0, false, vb);

   uint32_t words[NI * NV * 4];
   memset(words, 0xcc, sizeof(words));
   pipe_buffer_write(ctx, out, 0, sizeof(words), words);
   draw_points(per_instance ? NI : 1);
   pipe_buffer_read(ctx, out, 0, sizeof(words), words);

   unsigned bad = 0;
   for (unsigned i = 0; i < (per_instance ? NI : 1); ++i) {
      for (unsigned v = 0; v < NV; ++v) {
         const uint32_t *got = &words[(i * NV + v) * 4];
         if (!words_match(c, per_instance ? i : v, got) && !bad++)
            printf("%s %s: vertex %u instance %u reads 0x%08x 0x%08x "
                   "0x%08x 0x%08x\n",
                   name, how, v, i, got[0], got[1], got[2], got[3]);
      }
   }
   CHECK(!bad, "%s %s: %u vertices read wrong values", name, how, bad);

   ctx->set_vertex_buffers(ctx, 0, 0, 2, false, NULL);
   ctx->bind_vertex_elements_state(ctx, NULL);
   ctx->delete_vertex_elements_state(ctx, velems);
   pipe_resource_reference(&buf, NULL);
}

int
main(int argc, char **argv)
{
   struct pan_test_fullscreen f;

   if (!pan_test_open_fullscreen(&screen, &ctx, 8, 8, &f))
      return 1;

   static const float pos[NV * 4] = { -0.5f, 0, 0, 1, 0.5f, 0, 0, 1 };
   struct pipe_resource *pbuf = pipe_buffer_create(
      screen, PIPE_BIND_VERTEX_BUFFER, PIPE_USAGE_DEFAULT, sizeof(pos));
   pipe_buffer_write(ctx, pbuf, 0, sizeof(pos), pos);
   out = pan_test_storage_buffer(screen, ctx, NI * NV * 16, NULL);
   struct pipe_shader_buffer sb = { .buffer = out,
                                    .buffer_size = NI * NV * 16 };
   ctx->set_shader_buffers(ctx, PIPE_SHADER_VERTEX, 0, 1, &sb, 1);
   void *vs = store_vs();
   ctx->bind_vs_state(ctx, vs);
   struct pipe_rasterizer_state rs = {
      .half_pixel_center = 1,
      .depth_clip_near = 1,
      .depth_clip_far = 1,
      .point_size = 1,
      .rasterizer_discard = 1,
   };
   void *discard = ctx->create_rasterizer_state(ctx, &rs);
   ctx->bind_rasterizer_state(ctx, discard);

   for (unsigned i = 0; i < ARRAY_SIZE(cases); ++i) {
      const struct format_case *c = &cases[i];
      CHECK(screen->is_format_supported(screen, c->format, PIPE_BUFFER, 0, 0,
                                        PIPE_BIND_VERTEX_BUFFER),
            "%s is a vertex format", util_format_short_name(c->format));
      run_case(c, false, false, pbuf);
   }
   run_case(&cases[0], true, false, pbuf);
   run_case(&cases[5], true, false, pbuf);
   run_case(&cases[7], false, true, pbuf);

   ctx->bind_rasterizer_state(ctx, f.cso[1]);
   ctx->delete_rasterizer_state(ctx, discard);
   ctx->set_shader_buffers(ctx, PIPE_SHADER_VERTEX, 0, 1, NULL, 0);
   ctx->bind_vs_state(ctx, NULL);
   ctx->delete_vs_state(ctx, vs);
   pipe_resource_reference(&out, NULL);
   pipe_resource_reference(&pbuf, NULL);
   pan_test_fullscreen_teardown(ctx, &f);
   return pan_test_close(screen, ctx);
}
