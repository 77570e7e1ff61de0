/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Shader storage buffers in draws, at the Gallium level on the drm-shim
 * whose simulator runs the jobs (G57: IDVS, G52 and G72: vertex and tiler
 * jobs).  Shaders built with nir_builder read, write and size storage
 * buffers bound with set_shader_buffers to the vertex and fragment
 * stages; every word of the buffers is compared with what the shaders
 * must have written, read back through a map right after the draw (the
 * map must wait for the pass), and by a dispatch right after it (which
 * must run after the pass).
 *
 * Most draws are one triangle over the whole target, whose size is even,
 * so that no quad has helper lanes; the atomic counter is drawn as two
 * triangles, whose quads along the diagonal have some, which must not
 * count.
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

#define W 16
#define H 8
#define FILL 0xcdcdcdcdu
/* Where the fragment shader's buffer is bound in its resource. */
#define FS_OFFSET_B 64

static struct pipe_screen *screen;
static struct pipe_context *ctx;

/* What the fragment shader stores for pixel (x, y). */
static uint32_t
pixel_word(unsigned x, unsigned y)
{
   return x | y << 8 | 0x5a000000u;
}

static struct pipe_resource *
buffer(unsigned size_B, const void *data)
{
   struct pipe_resource *r = pipe_buffer_create(
      screen, PIPE_BIND_SHADER_BUFFER, PIPE_USAGE_DEFAULT, size_B);
   uint32_t fill[256];

   if (!data) {
      for (unsigned i = 0; i < ARRAY_SIZE(fill); ++i)
         fill[i] = FILL;
      data = fill;
   }
   pipe_buffer_write(ctx, r, 0, size_B, data);
   return r;
}

static void
bind(enum pipe_shader_type stage, unsigned slot, struct pipe_resource *r,
     unsigned offset_B, unsigned size_B, bool writable)
{
   struct pipe_shader_buffer sb = {
      .buffer = r,
      .buffer_offset = offset_B,
      .buffer_size = size_B,
   };
   ctx->set_shader_buffers(ctx, stage, slot, 1, &sb, writable);
}

static nir_ssa_def *
ssbo_load(nir_builder *b, unsigned slot, nir_ssa_def *offset)
{
   return nir_load_ssbo(b, 1, 32, nir_imm_int(b, slot), offset,
                        .align_mul = 4);
}

static void
ssbo_store(nir_builder *b, unsigned slot, nir_ssa_def *offset,
           nir_ssa_def *value)
{
   nir_store_ssbo(b, value, nir_imm_int(b, slot), offset, .write_mask = 1,
                  .align_mul = 4);
}

/* Position from attribute 0; with store, also buffer slot 0 word
 * vertex id = 1000 + vertex id, and word 15 counts the runs.
 */
static void *
vertex_shader(bool store)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_VERTEX, "ssbo_vs");
   nir_variable *pos = pan_test_io_var(b.shader, nir_var_shader_in,
                                       VERT_ATTRIB_GENERIC0, 0, "pos");
   nir_variable *opos = pan_test_io_var(b.shader, nir_var_shader_out,
                                        VARYING_SLOT_POS, 0, "gl_Position");
   nir_store_var(&b, opos, nir_load_var(&b, pos), 0xf);
   if (store) {
      nir_ssa_def *vid = nir_load_vertex_id(&b);
      ssbo_store(&b, 0, nir_imul_imm(&b, vid, 4), nir_iadd_imm(&b, vid, 1000));
      /* A counter of the vertex shader's runs: word 15.  With a varying
       * written, v9 runs the varying program as well.
       */
      nir_ssbo_atomic_add(&b, 32, nir_imm_int(&b, 0), nir_imm_int(&b, 60),
                          nir_imm_int(&b, 1));
      nir_variable *v0 = pan_test_io_var(b.shader, nir_var_shader_out,
                                         VARYING_SLOT_VAR0, 1, "v0");
      nir_store_var(&b, v0, nir_vec4(&b, nir_u2f32(&b, vid),
                                     nir_imm_float(&b, 0),
                                     nir_imm_float(&b, 0),
                                     nir_imm_float(&b, 1)),
                    0xf);
      b.shader->info.num_ssbos = 1;
   }
   return pan_test_create_shader(ctx, &b);
}

/* colour = (slot 0 word 0, size of slot 1 / 1024, 0, 1); slot 1 word
 * y * W + x = pixel_word(x, y).
 */
static void *
fragment_shader(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_FRAGMENT, "ssbo_fs");
   nir_variable *out = pan_test_io_var(b.shader, nir_var_shader_out,
                                       FRAG_RESULT_DATA0, 0, "colour");
   nir_ssa_def *fc = nir_f2u32(&b, nir_load_frag_coord(&b));
   nir_ssa_def *x = nir_channel(&b, fc, 0), *y = nir_channel(&b, fc, 1);
   nir_ssa_def *word =
      nir_ior(&b, nir_ior(&b, x, nir_ishl_imm(&b, y, 8)),
              nir_imm_int(&b, 0x5a000000));
   nir_ssa_def *at = nir_imul_imm(&b, nir_iadd(&b, nir_imul_imm(&b, y, W), x),
                                  4);
   ssbo_store(&b, 1, at, word);

   nir_ssa_def *size = nir_get_ssbo_size(&b, nir_imm_int(&b, 1));
   nir_ssa_def *c[4] = {
      ssbo_load(&b, 0, nir_imm_int(&b, 0)),
      nir_fmul_imm(&b, nir_u2f32(&b, size), 1.0 / 1024.0),
      nir_imm_float(&b, 0.0f),
      nir_imm_float(&b, 1.0f),
   };
   nir_store_var(&b, out, nir_vec(&b, c, 4), 0xf);
   b.shader->info.num_ssbos = 2;
   return pan_test_create_shader(ctx, &b);
}

/* out[i] = in[i] + 1 for W * H words (slots 0 and 1), one per thread. */
static void *
increment_cs(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_COMPUTE, "inc");
   b.shader->info.workgroup_size[0] = W;
   b.shader->info.workgroup_size[1] = 1;
   b.shader->info.workgroup_size[2] = 1;
   b.shader->info.num_ssbos = 2;
   nir_ssa_def *i = nir_channel(&b, nir_load_global_invocation_id(&b, 32), 0);
   nir_ssa_def *at = nir_imul_imm(&b, i, 4);
   ssbo_store(&b, 1, at, nir_iadd_imm(&b, ssbo_load(&b, 0, at), 1));
   struct pipe_compute_state cso = { .ir_type = PIPE_SHADER_IR_NIR,
                                     .prog = b.shader };
   return ctx->create_compute_state(ctx, &cso);
}

static void
setup(struct pan_test_fullscreen *f)
{
   pan_test_fullscreen_setup(screen, ctx, W, H, f);
}

static void
teardown(struct pan_test_fullscreen *f)
{
   pan_test_fullscreen_teardown(ctx, f);
}

static void
draw_triangle(void)
{
   struct pipe_draw_info info = { .mode = PIPE_PRIM_TRIANGLES,
                                  .instance_count = 1 };
   struct pipe_draw_start_count_bias d = { .count = 3 };
   union pipe_color_union c = { .f = { 0, 0, 1, 1 } };
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &c, 0, 0);
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
}

/* Every pixel must be the fragment shader's colour. */
static void
check_pixels(struct pan_test_fullscreen *f, const uint8_t want[4])
{
   struct pipe_transfer *xfer;
   const uint8_t *map =
      pipe_texture_map(ctx, f->tex, 0, 0, PIPE_MAP_READ, 0, 0, W, H, &xfer);
   unsigned bad = 0;

   CHECK(map, "render target map failed");
   for (unsigned y = 0; map && y < H; ++y) {
      for (unsigned x = 0; x < W; ++x) {
         const uint8_t *p = map + y * xfer->stride + x * 4;
         if (memcmp(p, want, 4) && bad++ < 4)
            CHECK(false, "pixel (%u, %u) is %u %u %u %u, want %u %u %u %u", x,
                  y, p[0], p[1], p[2], p[3], want[0], want[1], want[2],
                  want[3]);
      }
   }
   CHECK(map && !bad, "%u pixels differ", bad);
   if (map)
      pipe_texture_unmap(ctx, xfer);
}

/* The fragment shader's buffer: the pixel words inside the bound range,
 * plus add, and the fill around it.
 */
static void
check_pixel_words(const char *what, struct pipe_resource *r, unsigned first,
                  uint32_t add)
{
   uint32_t got[256];
   unsigned n = r->width0 / 4, bad = 0;

   pipe_buffer_read(ctx, r, 0, r->width0, got);
   for (unsigned i = 0; i < n; ++i) {
      unsigned p = i - first;
      uint32_t want =
         i >= first && p < W * H ? pixel_word(p % W, p / W) + add : FILL;
      if (got[i] != want && bad++ < 4)
         CHECK(false, "%s: word %u is 0x%08x, want 0x%08x", what, i, got[i],
               want);
   }
   CHECK(!bad, "%s: %u of %u words differ", what, bad, n);
}

/* A fragment shader reading one buffer, sizing and writing another bound
 * at an offset; read back by a map with no flush, then a dispatch reads
 * it right after a second draw.
 */
static void
test_fragment(struct pan_test_fullscreen *f)
{
   const float red = 0.25f;
   struct pipe_resource *in = buffer(16, (uint32_t[4]){ 0 });
   struct pipe_resource *out = buffer(FS_OFFSET_B + W * H * 4 + 64, NULL);
   void *vs = vertex_shader(false), *fs = fragment_shader();

   pipe_buffer_write(ctx, in, 0, 4, &red);
   CHECK(screen->get_shader_param(screen, PIPE_SHADER_FRAGMENT,
                                  PIPE_SHADER_CAP_MAX_SHADER_BUFFERS) == 16,
         "16 fragment storage buffers");
   CHECK(screen->get_param(screen, PIPE_CAP_SHADER_BUFFER_OFFSET_ALIGNMENT) ==
            4,
         "storage buffers at any word");
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);
   bind(PIPE_SHADER_FRAGMENT, 0, in, 0, 16, false);
   bind(PIPE_SHADER_FRAGMENT, 1, out, FS_OFFSET_B, W * H * 4, true);
   draw_triangle();
   /* No flush: the map must wait for the fragment job. */
   check_pixel_words("fragment stores", out, FS_OFFSET_B / 4, 0);
   /* r = the word read, g = 512 bytes bound / 1024 */
   check_pixels(f, (const uint8_t[4]){ 64, 128, 0, 255 });

   /* Draw again over a fresh fill, then a dispatch adding 1 to each word
    * into a third buffer: it must see the pass's stores.
    */
   struct pipe_resource *sum = buffer(W * H * 4, NULL);
   pipe_buffer_write(ctx, out, 0, out->width0,
                     (uint32_t[(FS_OFFSET_B + W * H * 4 + 64) / 4]){ 0 });
   draw_triangle();
   void *cs = increment_cs();
   struct pipe_shader_buffer sb[2] = {
      { .buffer = out, .buffer_offset = FS_OFFSET_B, .buffer_size = W * H * 4 },
      { .buffer = sum, .buffer_size = W * H * 4 },
   };
   ctx->set_shader_buffers(ctx, PIPE_SHADER_COMPUTE, 0, 2, sb, 0x2);
   ctx->bind_compute_state(ctx, cs);
   struct pipe_grid_info grid = { .work_dim = 1,
                                  .block = { W, 1, 1 },
                                  .grid = { H, 1, 1 } };
   ctx->launch_grid(ctx, &grid);
   check_pixel_words("dispatch after the draw", sum, 0, 1);

   ctx->set_shader_buffers(ctx, PIPE_SHADER_COMPUTE, 0, 2, NULL, 0);
   ctx->set_shader_buffers(ctx, PIPE_SHADER_FRAGMENT, 0, 2, NULL, 0);
   ctx->bind_compute_state(ctx, NULL);
   ctx->delete_compute_state(ctx, cs);
   pan_test_delete_shaders(ctx, vs, fs);
   pipe_resource_reference(&in, NULL);
   pipe_resource_reference(&out, NULL);
   pipe_resource_reference(&sum, NULL);
}

/* A vertex shader storing one word per vertex. */
static void
test_vertex(struct pan_test_fullscreen *f)
{
   uint32_t init[16];
   for (unsigned i = 0; i < 16; ++i)
      init[i] = i == 15 ? 0 : FILL;
   struct pipe_resource *r = buffer(64, init);
   void *vs = vertex_shader(true);
   void *fs = fragment_shader();
   struct pipe_resource *in = buffer(16, (uint32_t[4]){ 0 });
   struct pipe_resource *out = buffer(W * H * 4, NULL);
   uint32_t got[16];

   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);
   bind(PIPE_SHADER_VERTEX, 0, r, 0, 64, true);
   bind(PIPE_SHADER_FRAGMENT, 0, in, 0, 16, false);
   bind(PIPE_SHADER_FRAGMENT, 1, out, 0, W * H * 4, true);
   draw_triangle();
   pipe_buffer_read(ctx, r, 0, sizeof(got), got);
   for (unsigned i = 0; i < 16; ++i) {
      /* One run per vertex, also on v9's two IDVS programs. */
      uint32_t want = i < 3 ? 1000 + i : i == 15 ? 3 : FILL;
      CHECK(got[i] == want, "vertex stores: word %u is 0x%08x, want 0x%08x",
            i, got[i], want);
   }
   /* Both stages' buffers in one draw. */
   check_pixel_words("fragment stores beside vertex ones", out, 0, 0);

   ctx->set_shader_buffers(ctx, PIPE_SHADER_VERTEX, 0, 1, NULL, 0);
   ctx->set_shader_buffers(ctx, PIPE_SHADER_FRAGMENT, 0, 2, NULL, 0);
   pan_test_delete_shaders(ctx, vs, fs);
   pipe_resource_reference(&r, NULL);
   pipe_resource_reference(&in, NULL);
   pipe_resource_reference(&out, NULL);
}

/* old = atomicAdd(slot 0 word 0, 1); slot 1 word y * W + x = old. */
static void *
counter_fs(void)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_FRAGMENT, "counter");
   nir_variable *out = pan_test_io_var(b.shader, nir_var_shader_out,
                                       FRAG_RESULT_DATA0, 0, "colour");
   nir_ssa_def *fc = nir_f2u32(&b, nir_load_frag_coord(&b));
   nir_ssa_def *x = nir_channel(&b, fc, 0), *y = nir_channel(&b, fc, 1);
   nir_ssa_def *old =
      nir_ssbo_atomic_add(&b, 32, nir_imm_int(&b, 0), nir_imm_int(&b, 0),
                          nir_imm_int(&b, 1));
   nir_ssa_def *at = nir_imul_imm(&b, nir_iadd(&b, nir_imul_imm(&b, y, W), x),
                                  4);
   ssbo_store(&b, 1, at, old);
   nir_store_var(&b, out, nir_imm_vec4(&b, 0, 1, 0, 1), 0xf);
   b.shader->info.num_ssbos = 2;
   return pan_test_create_shader(ctx, &b);
}

/* A counter every fragment increments, drawn as two triangles sharing a
 * diagonal, whose quads have helper lanes: the count must be the pixel
 * count, each pixel must have got a different old value (0 to W * H - 1),
 * and no helper lane may have stored one.
 */
static void
test_atomics(struct pan_test_fullscreen *f)
{
   static const float quad[] = { -1, -1, 0, 1, 1, -1, 0, 1, -1, 1, 0, 1,
                                 1,  -1, 0, 1, 1, 1,  0, 1, -1, 1, 0, 1 };
   struct pipe_resource *vbuf = pipe_buffer_create(
      screen, PIPE_BIND_VERTEX_BUFFER, PIPE_USAGE_DEFAULT, sizeof(quad));
   struct pipe_resource *counter = buffer(16, (uint32_t[4]){ 0 });
   struct pipe_resource *olds = buffer(W * H * 4, NULL);
   void *vs = vertex_shader(false), *fs = counter_fs();
   uint32_t got[W * H], count;
   uint8_t seen[W * H] = { 0 };

   pipe_buffer_write(ctx, vbuf, 0, sizeof(quad), quad);
   struct pipe_vertex_buffer vb = { .stride = 16, .buffer.resource = vbuf };
   ctx->set_vertex_buffers(ctx, 0, 1, 0, false, &vb);
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);
   bind(PIPE_SHADER_FRAGMENT, 0, counter, 0, 16, true);
   bind(PIPE_SHADER_FRAGMENT, 1, olds, 0, W * H * 4, true);
   struct pipe_draw_info info = { .mode = PIPE_PRIM_TRIANGLES,
                                  .instance_count = 1 };
   struct pipe_draw_start_count_bias d = { .count = 6 };
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);

   pipe_buffer_read(ctx, counter, 0, 4, &count);
   pipe_buffer_read(ctx, olds, 0, sizeof(got), got);
   CHECK(count == W * H, "atomic counter: %u increments, want %u", count,
         W * H);
   unsigned bad = 0;
   for (unsigned i = 0; i < W * H; ++i) {
      if (got[i] >= W * H || seen[got[i]]++) {
         if (bad++ < 4)
            CHECK(false, "pixel %u got old value 0x%08x (out of range or "
                         "seen before)",
                  i, got[i]);
      }
   }
   CHECK(!bad, "atomic counter: %u pixels with a wrong old value", bad);
   check_pixels(f, (const uint8_t[4]){ 0, 255, 0, 255 });

   vb.buffer.resource = f->vbuf;
   ctx->set_vertex_buffers(ctx, 0, 1, 0, false, &vb);
   ctx->set_shader_buffers(ctx, PIPE_SHADER_FRAGMENT, 0, 2, NULL, 0);
   pan_test_delete_shaders(ctx, vs, fs);
   pipe_resource_reference(&vbuf, NULL);
   pipe_resource_reference(&counter, NULL);
   pipe_resource_reference(&olds, NULL);
}

/* A draw whose shader reads a slot nothing is bound to at offsets known
 * only at run time (which may reach past the driver's sink) is dropped
 * with a message naming the slot, and the buffers keep their contents.
 */
static void
test_unbound(struct pan_test_fullscreen *f)
{
   void *vs = vertex_shader(false), *fs = fragment_shader();
   struct pipe_resource *out = buffer(W * H * 4, NULL);
   uint32_t got[W * H];

   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);
   bind(PIPE_SHADER_FRAGMENT, 1, out, 0, W * H * 4, true);
   pan_test_debug_msg[0] = 0;
   draw_triangle();
   pipe_buffer_read(ctx, out, 0, sizeof(got), got);
   unsigned kept = 0;
   for (unsigned i = 0; i < W * H; ++i)
      kept += got[i] == FILL;
   CHECK(kept == W * H, "unbound slot: %u of %u words kept", kept, W * H);
   CHECK(strstr(pan_test_debug_msg, "fragment shader storage slot 0 is not "
                                    "bound"),
         "unbound slot message: \"%s\"", pan_test_debug_msg);

   ctx->set_shader_buffers(ctx, PIPE_SHADER_FRAGMENT, 0, 2, NULL, 0);
   pan_test_delete_shaders(ctx, vs, fs);
   pipe_resource_reference(&out, NULL);
}

/* Like a GLSL array of blocks a[2] with a[1] unbound: the vertex shader
 * counts its runs in slot 0 word 15 and stores to slot 1, its indices
 * sums of constants as the state tracker gives them.  The draw must run:
 * the slot 1 store goes to the driver's sink, and slot 0 counts 3 runs.
 */
static void
test_unbound_array(struct pan_test_fullscreen *f)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_VERTEX, "array_vs");
   nir_variable *pos = pan_test_io_var(b.shader, nir_var_shader_in,
                                       VERT_ATTRIB_GENERIC0, 0, "pos");
   nir_variable *opos, *v0;
   pan_test_vs_outputs(b.shader, &opos, &v0);
   nir_store_var(&b, opos, nir_load_var(&b, pos), 0xf);
   nir_ssa_def *base = nir_imm_int(&b, 0);
   nir_ssbo_atomic_add(&b, 32, nir_iadd(&b, base, nir_imm_int(&b, 0)),
                       nir_imm_int(&b, 60), nir_imm_int(&b, 1));
   nir_store_ssbo(&b, nir_imm_int(&b, 7), nir_iadd(&b, base, nir_imm_int(&b, 1)),
                  nir_imm_int(&b, 4), .write_mask = 1, .align_mul = 4);
   nir_store_var(&b, v0, nir_imm_vec4(&b, 0, 0, 0, 1), 0xf);
   b.shader->info.num_ssbos = 2;
   void *vs = pan_test_create_shader(ctx, &b);
   void *fs = pan_test_colour_fs(screen, ctx, "array_fs", false);
   uint32_t init[16];
   for (unsigned i = 0; i < 16; ++i)
      init[i] = i == 15 ? 0 : FILL;
   struct pipe_resource *r = buffer(64, init);
   uint32_t got[16];

   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);
   bind(PIPE_SHADER_VERTEX, 0, r, 0, 64, true);
   pan_test_debug_msg[0] = 0;
   draw_triangle();
   pipe_buffer_read(ctx, r, 0, sizeof(got), got);
   for (unsigned i = 0; i < 16; ++i) {
      uint32_t want = i == 15 ? 3 : FILL;
      CHECK(got[i] == want, "unbound a[1]: word %u is 0x%08x, want 0x%08x "
            "(\"%s\")", i, got[i], want, pan_test_debug_msg);
   }

   ctx->set_shader_buffers(ctx, PIPE_SHADER_VERTEX, 0, 1, NULL, 0);
   pan_test_delete_shaders(ctx, vs, fs);
   pipe_resource_reference(&r, NULL);
}

int
main(int argc, char **argv)
{
   struct pan_test_fullscreen f;

   if (!pan_test_open(&screen, &ctx))
      return 1;
   setup(&f);
   test_fragment(&f);
   test_vertex(&f);
   test_atomics(&f);
   test_unbound(&f);
   test_unbound_array(&f);
   teardown(&f);
   return pan_test_close(screen, ctx);
}
