/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * v9 blend shaders (pan_va_blend_options): the colour and the coverage
 * are read where the caller's BLEND has them, the destination through LD_TILE
 * with the conversion given, the result stored through the store descriptor
 * held in registers (nothing is pushed), then the return through r48; r0-r15
 * only.  Refusals for what a blend shader cannot do.
 */

#include <stdio.h>
#include <string.h>

#include "compiler/nir/nir_builder.h"
#include "compiler/nir/nir_lower_blend.h"
#include "isa/pan_isa_va.h"
#include "pan_compile.h"
#include "util/pan_test_util.h"

/* A blend shader of target 0 in an RGBA8 target: func on every channel
 * with factors sf and df (inverted when the flags say). */
static nir_shader *
build_factors(enum blend_func func, enum blend_factor sf, bool si,
              enum blend_factor df, bool di)
{
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_FRAGMENT,
                                                  &pan_va_nir_options, "blend");
   nir_variable *out = nir_variable_create(b.shader, nir_var_shader_out,
                                           glsl_vec4_type(), "colour");
   out->data.location = FRAG_RESULT_DATA0;
   nir_ssa_def *src = nir_load_input(
      &b, 4, 32, nir_imm_int(&b, 0), .dest_type = nir_type_float32,
      .io_semantics =
         (nir_io_semantics){ .location = VARYING_SLOT_VAR0, .num_slots = 1 });
   nir_store_var(&b, out, src, 0xf);

   nir_lower_blend_options o = { 0 };
   nir_lower_blend_channel ch = { func, sf, si, df, di };
   o.format[0] = PIPE_FORMAT_R8G8B8A8_UNORM;
   o.rt[0].rgb = ch;
   o.rt[0].alpha = ch;
   o.rt[0].colormask = 0xf;
   nir_lower_blend(b.shader, &o);
   return b.shader;
}

static nir_shader *
build(enum blend_func func)
{
   return build_factors(func, BLEND_FACTOR_ZERO, true, BLEND_FACTOR_ZERO, true);
}

static const struct pan_va_blend_options blend_opts = {
   .rt = 2,
   .conversion = 0x12345678,
   .store = 0x9abcdef000000002ull,
   .colour_reg = 20,
   .coverage_reg = 24,
};

static char **
compile_lines(nir_shader *s, void *ctx, struct pan_va_binary *bin, unsigned *nr)
{
   struct pan_va_compile_options opts = { .blend = &blend_opts };
   char err[256];
   if (!pan_va_compile_opts(s, ctx, &opts, bin, NULL, err, sizeof(err))) {
      pan_test_fail("%s", err);
      return NULL;
   }
   char **lines = ralloc_array(ctx, char *, bin->nr_words);
   for (unsigned i = 0; i < bin->nr_words; ++i) {
      char buf[256];
      pan_va_print(bin->words[i], buf, sizeof(buf));
      lines[i] = ralloc_strdup(ctx, buf);
   }
   *nr = bin->nr_words;
   return lines;
}

static bool
any_line(char **l, unsigned nr, const char *needle)
{
   for (unsigned i = 0; i < nr; ++i) {
      if (strstr(l[i], needle))
         return true;
   }
   return false;
}

static void
test_min(void)
{
   void *ctx = ralloc_context(NULL);
   nir_shader *s = build(BLEND_FUNC_MIN);
   struct pan_va_binary bin;
   unsigned nr = 0;
   char **l = compile_lines(s, ctx, &bin, &nr);

   PAN_EXPECT(l && nr >= 4);
   if (l && nr >= 4) {
      /* fmin of the colour registers and the tile. */
      /* The colour and the coverage where the caller has them. */
      PAN_EXPECT(any_line(l, nr, ", r20, #0x0"));
      PAN_EXPECT(any_line(l, nr, ", r23, #0x0"));
      PAN_EXPECT(any_line(l, nr, "ld_tile.v4.f32.slot0.wait0 {"));
      PAN_EXPECT(any_line(l, nr, ", r24, r"));
      PAN_EXPECT(any_line(l, nr, "fmin.f32"));
      PAN_EXPECT(any_line(l, nr, "constant:512"));        /* rt 2, sample 0 */
      PAN_EXPECT(any_line(l, nr, "constant:305419896"));  /* conversion */
      PAN_EXPECT(any_line(l, nr, "constant:2596069104")); /* store, high */
      PAN_EXPECT_STR_HAS(l[nr - 3], "blend.");
      PAN_EXPECT(!strstr(l[nr - 3], ".end"));
      PAN_EXPECT_STR_HAS(l[nr - 3], "target:0");
      PAN_EXPECT_STR_HAS(l[nr - 2], "branchzi.absolute r48, r48");
      PAN_EXPECT_STR_HAS(l[nr - 1], "nop.end");
      PAN_EXPECT(!any_line(l, nr, " u0"));
   }
   PAN_EXPECT_EQ(bin.nr_push, 0);
   PAN_EXPECT(bin.work_regs <= 16);
   ralloc_free(ctx);
   ralloc_free(s);
}

/* On a 4x target the sample LD_TILE reads is the coverage's one bit
 * (the draw shaded once a sample): its index bits are tests of the
 * coverage against 0xaaaa and 0xcccc, ORed into the pixel indices. */
static void
test_min_4x(void)
{
   void *ctx = ralloc_context(NULL);
   nir_shader *s = build(BLEND_FUNC_MIN);
   struct pan_va_blend_options o = blend_opts;
   o.nr_samples = 4;
   struct pan_va_compile_options opts = { .blend = &o };
   struct pan_va_binary bin;
   char err[256];
   bool ok = pan_va_compile_opts(s, ctx, &opts, &bin, NULL, err, sizeof(err));
   PAN_EXPECT(ok);
   bool aaaa = false, cccc = false, ld_tile = false;
   for (unsigned i = 0; ok && i < bin.nr_words; ++i) {
      char buf[256];
      pan_va_print(bin.words[i], buf, sizeof(buf));
      aaaa |= strstr(buf, "0xaaaa") || strstr(buf, "43690");
      cccc |= strstr(buf, "0xcccc") || strstr(buf, "52428");
      ld_tile |= strstr(buf, "ld_tile.v4.f32") != NULL;
   }
   PAN_EXPECT(aaaa && cccc && ld_tile);
   PAN_EXPECT(bin.work_regs <= 16);
   ralloc_free(ctx);
   ralloc_free(s);
}

/* The longest equations fit in r0-r15 with the colour in r0-r3 (the
 * constants are immediates, nir_lower_blend reads them through an
 * intrinsic the compiler refuses: the driver inlines them first). */
static void
test_fits(void)
{
   static const enum blend_factor f[] = {
      BLEND_FACTOR_SRC_ALPHA_SATURATE,
      BLEND_FACTOR_DST_COLOR,
      BLEND_FACTOR_SRC_COLOR,
      BLEND_FACTOR_DST_ALPHA,
   };
   struct pan_va_blend_options o = blend_opts;
   o.colour_reg = 0;
   o.coverage_reg = 60;
   for (unsigned i = 0; i < ARRAY_SIZE(f); ++i) {
      for (unsigned j = 0; j < ARRAY_SIZE(f); ++j) {
         void *ctx = ralloc_context(NULL);
         nir_shader *s =
            build_factors(BLEND_FUNC_ADD, f[i], i & 1, f[j], !(j & 1));
         struct pan_va_compile_options opts = { .blend = &o };
         struct pan_va_binary bin;
         char err[256] = "";
         PAN_EXPECT(
            pan_va_compile_opts(s, ctx, &opts, &bin, NULL, err, sizeof(err)));
         if (err[0])
            pan_test_fail("factors %u/%u: %s", f[i], f[j], err);
         ralloc_free(ctx);
         ralloc_free(s);
      }
   }
}

/* Anything but the colour, the destination and the store is refused. */
static void
test_refusals(void)
{
   void *ctx = ralloc_context(NULL);
   nir_builder b = nir_builder_init_simple_shader(
      MESA_SHADER_FRAGMENT, &pan_va_nir_options, "blend_bad");
   nir_variable *out = nir_variable_create(b.shader, nir_var_shader_out,
                                           glsl_vec4_type(), "colour");
   out->data.location = FRAG_RESULT_DATA0;
   nir_store_var(&b, out, nir_load_frag_coord(&b), 0xf);
   struct pan_va_binary bin;
   struct pan_va_compile_options opts = { .blend = &blend_opts };
   char err[256] = "";
   PAN_EXPECT(
      !pan_va_compile_opts(b.shader, ctx, &opts, &bin, NULL, err, sizeof(err)));
   PAN_EXPECT_STR_HAS(err, "in a blend shader");
   ralloc_free(b.shader);

   b = nir_builder_init_simple_shader(MESA_SHADER_VERTEX, &pan_va_nir_options,
                                      "blend_vs");
   PAN_EXPECT(
      !pan_va_compile_opts(b.shader, ctx, &opts, &bin, NULL, err, sizeof(err)));
   PAN_EXPECT_STR_HAS(err, "fragment shader");
   ralloc_free(b.shader);
   ralloc_free(ctx);
}

int
main(void)
{
   glsl_type_singleton_init_or_ref();
   PAN_RUN_CASE(test_min);
   PAN_RUN_CASE(test_min_4x);
   PAN_RUN_CASE(test_fits);
   PAN_RUN_CASE(test_refusals);
   glsl_type_singleton_decref();
   return pan_test_summary("pan_va_blend");
}
