/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The register count a shader's descriptor declares (compiler.rst,
 * register allocation): a small shader fits the half file and is
 * declared with 32 registers per thread (twice the threads), one keeping
 * 48 values live needs r16-r47 and is declared with 64.  Read back from
 * the packed descriptors after a draw: the v7 renderer states of the
 * batch (vertex and fragment), the v9 shader program descriptors.  The
 * draws must also run on the simulator, whose interpreters fault on a
 * register outside the declared file, and colour every pixel.
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

#include "pan_bo.h"
#include "pan_context.h"
#include "pan_screen.h"
#include "pan_test_screen.h"
#include "pan_v7_pack.h"
#include "pan_v9_pack.h"

#define W 8
#define H 8
/* Scalars the big shader keeps live at once. */
#define LIVE 48

static struct pipe_screen *screen;
static struct pipe_context *ctx;

/* Small: a constant colour.  Big: LIVE sines of the pixel's x, all
 * computed before their product consumes them, last first, so all are
 * live at once; the colour is green either way (the product is scaled
 * to nothing). */
static void *
colour_fs(bool big)
{
   nir_builder b = pan_test_shader(screen, MESA_SHADER_FRAGMENT, "regs_fs");
   nir_variable *out = pan_test_io_var(b.shader, nir_var_shader_out,
                                       FRAG_RESULT_DATA0, 0, "colour");
   nir_ssa_def *red = nir_imm_float(&b, 0.0f);
   if (big) {
      nir_variable *fc = pan_test_io_var(b.shader, nir_var_shader_in,
                                         VARYING_SLOT_POS, 0, "coord");
      nir_ssa_def *x = nir_channel(&b, nir_load_var(&b, fc), 0);
      nir_ssa_def *v[LIVE];
      for (unsigned i = 0; i < LIVE; ++i)
         v[i] = nir_fsin(
            &b, nir_fadd_imm(&b, nir_fmul_imm(&b, x, i + 1.5f), i * 0.25f));
      nir_ssa_def *p = v[LIVE - 1];
      for (unsigned i = LIVE - 1; i-- > 0;)
         p = nir_fadd_imm(&b, nir_fmul(&b, p, v[i]), 1.0f / (i + 3));
      /* |p| < LIVE: times 2^-40 it is zero in an 8-bit channel. */
      red = nir_fmul_imm(&b, nir_fabs(&b, p), ldexpf(1.0f, -40));
   }
   nir_store_var(&b, out,
                 nir_vec4(&b, red, nir_imm_float(&b, 1.0f),
                          nir_imm_float(&b, 0.0f), nir_imm_float(&b, 1.0f)),
                 0xf);
   struct pipe_shader_state cso = { .type = PIPE_SHADER_IR_NIR,
                                    .ir.nir = b.shader };
   return ctx->create_fs_state(ctx, &cso);
}

/* The CPU copy of size_B bytes at va in the batch's pool or bo; false
 * when neither holds them. */
static bool
read_gpu(uint64_t va, void *out, unsigned size_B, struct pan_bo *bo)
{
   const struct pan_pool *pool = &panfrost_context(ctx)->batch.pool;
   unsigned n = pan_pool_bo_count(pool);
   for (unsigned i = 0; i <= n; ++i) {
      struct pan_bo *b = i < n ? pan_pool_bos(pool)[i] : bo;
      if (!b || va < b->gpu_va || va + size_B > b->gpu_va + b->size_B)
         continue;
      uint8_t *cpu = pan_bo_mmap(b);
      if (!cpu)
         return false;
      memcpy(out, cpu + (va - b->gpu_va), size_B);
      return true;
   }
   return false;
}

/* The registers the descriptors of the bound shaders declare: [0] the
 * vertex shader's (v9: its position program), [1] the fragment shader's;
 * 0 when not found. */
static void
declared(unsigned arch, struct panfrost_shader *vs, struct panfrost_shader *fs,
         unsigned out[2])
{
   out[0] = out[1] = 0;
   if (arch == 7) {
      const struct panfrost_draw_cache *c =
         &panfrost_context(ctx)->batch.draw_cache;
      for (unsigned i = 0; i < 2; ++i) {
         uint8_t rsd[PAN_V7_RENDERER_STATE_SIZE_B];
         if (!read_gpu(c->jm_states[i], rsd, sizeof(rsd), NULL))
            continue;
         struct pan_v7_renderer_state rs;
         pan_v7_renderer_state_unpack(rsd, &rs);
         out[i] = rs.properties.shader_register_allocation ==
                        PAN_V7_SHADER_REGISTER_ALLOCATION_32_PER_THREAD
                     ? 32
                     : 64;
      }
   } else if (arch == 9) {
      struct panfrost_shader *so[2] = { vs, fs };
      for (unsigned i = 0; i < 2; ++i) {
         uint8_t d[PAN_V9_SHADER_PROGRAM_SIZE_B];
         if (!read_gpu(so[i]->progs[0].desc, d, sizeof(d), so[i]->bo))
            continue;
         struct pan_v9_shader_program sp;
         pan_v9_shader_program_unpack(d, &sp);
         out[i] = sp.register_allocation ==
                        PAN_V9_SHADER_REGISTER_ALLOCATION_32_PER_THREAD
                     ? 32
                     : 64;
      }
   }
}

static void
check_green(struct pan_test_fullscreen *f, const char *what)
{
   struct pipe_transfer *xfer;
   const uint8_t *map =
      pipe_texture_map(ctx, f->tex, 0, 0, PIPE_MAP_READ, 0, 0, W, H, &xfer);
   unsigned bad = 0;

   CHECK(map, "%s: render target map failed", what);
   for (unsigned y = 0; map && y < H; ++y) {
      for (unsigned x = 0; x < W; ++x) {
         const uint8_t *p = map + y * xfer->stride + x * 4;
         bad += !(p[0] == 0 && p[1] == 255 && p[2] == 0 && p[3] == 255);
      }
   }
   CHECK(map && !bad, "%s: %u pixels not green", what, bad);
   if (map)
      pipe_texture_unmap(ctx, xfer);
}

static void
test_shader(struct pan_test_fullscreen *f, unsigned arch, bool big)
{
   const char *what = big ? "48 live values" : "constant colour";
   void *vs = pan_test_position_vs(screen, ctx, "regs_vs"),
        *fs = colour_fs(big);
   ctx->bind_vs_state(ctx, vs);
   ctx->bind_fs_state(ctx, fs);

   struct pipe_draw_info info = { .mode = PIPE_PRIM_TRIANGLES,
                                  .instance_count = 1 };
   struct pipe_draw_start_count_bias d = { .count = 3 };
   union pipe_color_union c = { .f = { 0, 0, 1, 1 } };
   ctx->clear(ctx, PIPE_CLEAR_COLOR0, NULL, &c, 0, 0);
   pan_test_debug_msg[0] = 0;
   ctx->draw_vbo(ctx, &info, 0, NULL, &d, 1);
   CHECK(!pan_test_debug_msg[0], "%s: driver said \"%s\"", what,
         pan_test_debug_msg);

   struct panfrost_shader *so = fs;
   unsigned want = big ? 64 : 32;
   CHECK(big ? so->progs[0].work_regs > 32 : so->progs[0].work_regs <= 32,
         "%s: the compiler reports %u registers", what, so->progs[0].work_regs);
   if (arch == 7 || arch == 9) {
      unsigned got[2];
      declared(arch, vs, fs, got);
      CHECK(got[0] == 32, "%s: the vertex shader declares %u registers", what,
            got[0]);
      CHECK(got[1] == want,
            "%s: the fragment shader declares %u registers, "
            "want %u",
            what, got[1], want);
   }
   check_green(f, what);

   pan_test_delete_shaders(ctx, vs, fs);
}

int
main(void)
{
   struct pan_test_fullscreen f;

   if (!pan_test_open(&screen, &ctx))
      return 1;
   unsigned arch = panfrost_screen(screen)->dev.arch;
   printf("arch v%u\n", arch);
   pan_test_fullscreen_setup(screen, ctx, W, H, &f);
   test_shader(&f, arch, false);
   test_shader(&f, arch, true);
   pan_test_fullscreen_teardown(ctx, &f);
   return pan_test_close(screen, ctx);
}
