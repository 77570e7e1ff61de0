/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Bifrost blend shaders end to end on the interpreter: a fragment shader
 * writing two render targets records where its BLENDs have their colours
 * and the clause each returns to; the blend shader of target 0 (MIN with
 * the tile buffer, compiled for those registers) is called by the first
 * BLEND through a shader-mode descriptor, reads the destination with
 * LD_TILE, stores through its opaque descriptor and returns through r48,
 * after which the fragment shader blends target 1.  A blend shader called
 * by the last BLEND has no return.
 */

#include <string.h>

#include "compiler/nir/nir_builder.h"
#include "compiler/nir/nir_lower_blend.h"
#include "isa/pan_isa_bi.h"
#include "pan_bi.h"
#include "pan_compile.h"
#include "pan_sim_bi.h"
#include "pan_sim_bi_gfx.h"
#include "util/pan_test_util.h"

#define LANES     8
#define FS_VA     0x800000ull
#define CALLEE_VA 0x810000ull
/* Opaque descriptors of the fake executor: mode 1, target in bits 16-19
 * (the layout of the internal blend descriptor). */
#define OPAQUE(rt) (0x1ull | (uint64_t)(rt) << 16)
/* The destination LD_TILE gives every lane. */
static const float tile[4] = { 0.5f, 0.25f, 1.0f, 0.0f };

struct run {
   const struct pan_bi_binary *callee;
   uint32_t colour[2][LANES][4];
   unsigned stores[2], calls, tiles;
   uint32_t tile_pixel, tile_conversion;
};

static bool
fake_blend(void *user, unsigned lane, uint64_t d, uint32_t cov,
           const uint32_t in[4], struct pan_sim_bi_blend_call *call,
           char *err)
{
   struct run *r = user;
   (void)cov;
   if ((d & 3) == 0) {
      *call = (struct pan_sim_bi_blend_call){ true, (uint32_t)(d >> 32),
                                              (uint32_t)d & ~7u };
      r->calls++;
      return true;
   }
   unsigned rt = (d >> 16) & 0xf;
   if (rt > 1) {
      snprintf(err, PAN_SIM_BI_GFX_ERR_LEN, "store to target %u", rt);
      return false;
   }
   memcpy(r->colour[rt][lane], in, 16);
   r->stores[rt]++;
   return true;
}

static bool
fake_ld_tile(void *user, unsigned lane, uint32_t pixel, uint32_t conversion,
             unsigned comps, enum pan_sim_regfmt *regfmt, uint32_t out[4],
             char *err)
{
   struct run *r = user;
   (void)lane, (void)comps, (void)err;
   r->tile_pixel = pixel;
   r->tile_conversion = conversion;
   *regfmt = PAN_SIM_REG_F32;
   memcpy(out, tile, 16);
   r->tiles++;
   return true;
}

static const uint64_t *
code_at(void *user, uint64_t va, unsigned *quads)
{
   struct run *r = user;
   if (va != CALLEE_VA)
      return NULL;
   *quads = r->callee->nr_words / 2;
   return r->callee->words;
}

static nir_variable *
out_var(nir_shader *s, unsigned rt)
{
   nir_variable *v = nir_variable_create(s, nir_var_shader_out,
                                         glsl_vec4_type(), rt ? "c1" : "c0");
   v->data.location = FRAG_RESULT_DATA0 + rt;
   v->data.driver_location = rt;
   return v;
}

/* Constant colours to targets 0 .. nr_rts - 1. */
static nir_shader *
build_fs(unsigned nr_rts)
{
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_FRAGMENT,
                                                  &pan_va_nir_options, "fs");
   nir_store_var(&b, out_var(b.shader, 0),
                 nir_imm_vec4(&b, 0.25f, 0.5f, 0.75f, 1.0f), 0xf);
   if (nr_rts > 1)
      nir_store_var(&b, out_var(b.shader, 1),
                    nir_imm_vec4(&b, 1.0f, 0.0f, 0.125f, 1.0f), 0xf);
   return b.shader;
}

/* MIN of the colour and the destination on every channel. */
static nir_shader *
build_min(void)
{
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_FRAGMENT,
                                                  &pan_va_nir_options, "blend");
   nir_variable *out = out_var(b.shader, 0);
   nir_ssa_def *src = nir_load_input(
      &b, 4, 32, nir_imm_int(&b, 0), .dest_type = nir_type_float32,
      .io_semantics =
         (nir_io_semantics){ .location = VARYING_SLOT_VAR0, .num_slots = 1 });
   nir_store_var(&b, out, src, 0xf);
   nir_lower_blend_options o = { 0 };
   nir_lower_blend_channel ch = { BLEND_FUNC_MIN, BLEND_FACTOR_ZERO, true,
                                  BLEND_FACTOR_ZERO, true };
   o.format[0] = PIPE_FORMAT_R8G8B8A8_UNORM;
   o.rt[0].rgb = ch;
   o.rt[0].alpha = ch;
   o.rt[0].colormask = 0xf;
   nir_lower_blend(b.shader, &o);
   return b.shader;
}

static bool
compile(nir_shader *s, const struct pan_va_blend_options *blend, void *ctx,
        struct pan_bi_binary *bin)
{
   struct pan_bi_compile_options o = { .arch = 7, .blend = blend };
   char err[256];
   bool ok = pan_bi_compile(s, ctx, &o, bin, NULL, err, sizeof(err));
   if (!ok)
      pan_test_fail("%s: %s", blend ? "blend shader" : "fragment shader", err);
   ralloc_free(s);
   return ok;
}

static void
run_case(unsigned nr_rts)
{
   void *ctx = ralloc_context(NULL);
   struct pan_bi_binary fs, bs;
   if (!compile(build_fs(nr_rts), NULL, ctx, &fs))
      goto out;
   bool last = nr_rts == 1;
   PAN_CHECK(fs.blend_regs[0].colour != 0xff &&
                fs.blend_regs[0].coverage != 0xff,
             "no BLEND registers recorded");
   PAN_EXPECT(last ? fs.blend_return[0] == 0 : fs.blend_return[0] != 0);
   PAN_EXPECT_EQ(fs.blend_return[1], 0u);
   const struct pan_va_blend_options opts = {
      .rt = 0,
      .conversion = 0x12345670,
      .store = OPAQUE(0),
      .colour_reg = fs.blend_regs[0].colour,
      .colour1_reg = fs.blend_regs[0].colour1,
      .coverage_reg = fs.blend_regs[0].coverage,
      .last = last,
   };
   if (!compile(build_min(), &opts, ctx, &bs))
      goto out;

   PAN_EXPECT(last || bs.work_regs <= 16);
   PAN_EXPECT_EQ(bs.nr_push, 0u);

   static struct run r;
   memset(&r, 0, sizeof(r));
   r.callee = &bs;
   struct pan_sim_bi_gfx g = { .user = &r,
                               .blend = fake_blend,
                               .ld_tile = fake_ld_tile };
   struct pan_sim_bi_config cfg = {
      .program = fs.words,
      .program_quads = fs.nr_words / 2,
      .program_va = FS_VA,
      .lanes = LANES,
      .gfx = &g,
      .code_at = code_at,
      .code_user = &r,
   };
   /* Shader mode: the return value in the low word, the callee's
    * address in the high one. */
   cfg.special[8] = (uint32_t)(FS_VA + fs.blend_return[0]) *
                       (fs.blend_return[0] != 0) |
                    (CALLEE_VA & 0xffffffffull) << 32;
   cfg.special[9] = OPAQUE(1);
   struct pan_sim_bi_warp w;
   pan_sim_bi_warp_init(&w, (1u << LANES) - 1);
   for (unsigned l = 0; l < LANES; ++l)
      w.r[l][60] = w.r[l][61] = 1; /* coverage */
   PAN_CHECK(pan_sim_bi_run(&w, &cfg) == PAN_SIM_BI_DONE, "fault: %s",
             w.fault);
   PAN_EXPECT_EQ(r.calls, LANES);
   PAN_EXPECT_EQ(r.tiles, LANES);
   PAN_EXPECT_EQ(r.stores[0], LANES);
   PAN_EXPECT_EQ(r.stores[1], last ? 0u : LANES);
   /* Sample 0 of target 0 at the thread's own pixel. */
   PAN_EXPECT_EQ(r.tile_pixel, 0xffff0000u);
   PAN_EXPECT_EQ(r.tile_conversion, 0x12345670u);
   static const float src0[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
   static const float src1[4] = { 1.0f, 0.0f, 0.125f, 1.0f };
   for (unsigned l = 0; l < LANES; ++l) {
      for (unsigned c = 0; c < 4; ++c) {
         float want = src0[c] < tile[c] ? src0[c] : tile[c];
         PAN_CHECK(pan_test_f32(r.colour[0][l][c]) == want,
                   "lane %u channel %u: %g, expected %g", l, c,
                   pan_test_f32(r.colour[0][l][c]), want);
         if (!last)
            PAN_CHECK(pan_test_f32(r.colour[1][l][c]) == src1[c],
                      "target 1 lane %u channel %u: %g", l, c,
                      pan_test_f32(r.colour[1][l][c]));
      }
   }
out:
   ralloc_free(ctx);
}

static void
test_call_and_return(void)
{
   run_case(2);
}

static void
test_last(void)
{
   run_case(1);
}

/* What a blend shader cannot hold is refused with a message. */
static void
test_refusal(void)
{
   void *ctx = ralloc_context(NULL);
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_FRAGMENT,
                                                  &pan_va_nir_options, "bad");
   nir_store_var(&b, out_var(b.shader, 0),
                 nir_load_frag_coord(&b), 0xf);
   const struct pan_va_blend_options opts = { .store = OPAQUE(0) };
   struct pan_bi_compile_options o = { .arch = 7, .blend = &opts };
   struct pan_bi_binary bin;
   char err[256] = "";
   PAN_EXPECT(!pan_bi_compile(b.shader, ctx, &o, &bin, NULL, err,
                              sizeof(err)));
   PAN_EXPECT_STR_HAS(err, "in a blend shader");
   ralloc_free(b.shader);
   ralloc_free(ctx);
}

/* The return offsets come from the packed clauses: the clause after a
 * BLEND through blend_descriptor_N (none after the last clause); a BLEND
 * whose descriptor is in registers is refused. */
static void
test_returns(void)
{
   static const char *const progs[] = {
      "clause sr=0 flow=nbtb msg=blend\n"
      "    nop t0 | blend r48, r8, blend_descriptor_1.w0, "
      "blend_descriptor_1.w1 | p0=r8 fau=blend_descriptor_1\n"
      "clause sr=4 msg=blend\n"
      "    nop t0 | blend r48, r8, blend_descriptor_2.w0, "
      "blend_descriptor_2.w1 | p0=r8 fau=blend_descriptor_2\n",
      "clause sr=0 msg=blend\n"
      "    nop t0 | blend r48, r8, r0, r1 | p0=r0 p1=r1 p2=r8\n",
   };
   for (unsigned i = 0; i < ARRAY_SIZE(progs); ++i) {
      struct pan_isa_bytes bytes = { 0 };
      char err[256] = "";
      uint32_t ret[8];
      if (pan_bi_assemble(progs[i], strlen(progs[i]), &bytes, err,
                          sizeof(err))) {
         pan_test_fail("cannot assemble: %s", err);
         continue;
      }
      bool ok = pan_bi_blend_returns((const uint64_t *)bytes.data,
                                     bytes.size_B / 8, ret);
      PAN_EXPECT(ok == (i == 0));
      if (i == 0) {
         PAN_EXPECT_EQ(ret[1], 16u);
         PAN_EXPECT_EQ(ret[2], 0u); /* the program's last clause */
         PAN_EXPECT_EQ(ret[0], 0u);
      }
      pan_isa_bytes_free(&bytes);
   }
}

int
main(void)
{
   glsl_type_singleton_init_or_ref();
   PAN_RUN_CASE(test_call_and_return);
   PAN_RUN_CASE(test_last);
   PAN_RUN_CASE(test_refusal);
   PAN_RUN_CASE(test_returns);
   glsl_type_singleton_decref();
   return pan_test_summary("pan_bi_blend");
}
