/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The Bifrost back end end to end: nir_builder compute shaders compiled
 * by pan_bi_compile, run on the Bifrost interpreter (one 8-lane G52 warp,
 * lane l is global invocation (l, 0, 0) in r60) over random inputs, every
 * output word compared with C.  Each program also disassembles to text
 * that assembles back to the same bytes, with nothing the validator
 * reports.
 *
 * Push constants: u0:u1 input buffer, u2:u3 output buffer, u4.. values.
 */

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/nir/nir_builder.h"
#include "isa/pan_isa_bi.h"
#include "isa/pan_isa_bi_priv.h"
#include "pan_bi.h"
#include "pan_compile.h"
#include "pan_ir_builder.h"
#include "pan_sim_bi.h"
#include "pan_sim_bi_gfx.h"
#include "pan_sim_texture.h"
#include "util/pan_test_util.h"

#define PAN_VA_TEST_MEM_SIZE 2048
#include "pan_compile_test_util.h"
#include "pan_bi_test_sim.h"

#define BI_LANES PAN_SIM_BI_LANES_G52

static uint64_t seed = 0xb1f205;

/* The invocation's element of the input buffer, of comps words. */
static nir_ssa_def *
input(nir_builder *b, unsigned comps)
{
   return load_in(b, id_x(b), comps);
}

/* v to the invocation's element of the output buffer. */
static void
output(nir_builder *b, nir_ssa_def *v)
{
   store_out(b, id_x(b), v);
}

/* The words and disassembly round trip of a program. */
static void
check_encoding(const struct pan_bi_binary *bin, const char *name)
{
   char *text = NULL, err[256];
   size_t len = 0;
   FILE *fp = open_memstream(&text, &len);
   int r = pan_bi_disassemble(bin->words, bin->nr_words * 8, fp, false, err,
                              sizeof(err));
   fclose(fp);
   PAN_CHECK(r == 0, "%s: disassembly failed: %s", name, err);
   struct pan_isa_bytes out = { 0 };
   r = pan_bi_assemble(text, len, &out, err, sizeof(err));
   PAN_CHECK(r == 0, "%s: reassembly failed: %s\n%s", name, err, text);
   PAN_CHECK(r || (out.size_B == bin->nr_words * 8 &&
                   !memcmp(out.data, bin->words, out.size_B)),
             "%s: reassembled bytes differ\n%s", name, text);
   PAN_CHECK(pan_bi_validate(bin->words, bin->nr_words * 8, NULL, NULL) == 0,
             "%s: the validator reports problems\n%s", name, text);
   pan_isa_bytes_free(&out);
   free(text);
}

/* The disassembly of a binary (free it). */
static char *
disassembly(const struct pan_bi_binary *bin)
{
   char *text = NULL;
   size_t len = 0;
   FILE *fp = open_memstream(&text, &len);
   pan_bi_disassemble(bin->words, bin->nr_words * 8, fp, false, NULL, 0);
   fclose(fp);
   return text;
}

/* Compile (PAN_BI_TEST_PRINT=1: the IR after each pass and the
 * disassembly to stderr) and check the encoding; false after a failure. */
static bool
compile(nir_shader *s, const struct pan_bi_compile_options *opts, void *ctx,
        struct pan_bi_binary *bin)
{
   char err[256];
   FILE *print = getenv("PAN_BI_TEST_PRINT") ? stderr : NULL;
   if (!pan_bi_compile(s, ctx, opts, bin, print, err, sizeof(err))) {
      pan_test_fail("%s: %s", s->info.name, err);
      return false;
   }
   check_encoding(bin, s->info.name);
   return true;
}

/* Compile, run one warp over in[] with parameters prm[], read out[]. */
static bool
run(nir_builder *b, const uint32_t *in, unsigned in_words,
    const uint32_t *prm, unsigned nr_prm, uint32_t *out, unsigned out_words)
{
   struct pan_bi_binary bin;
   void *ctx = ralloc_context(NULL);
   const char *name = b->shader->info.name;
   bool ok = false;

   if (!compile(b->shader, NULL, ctx, &bin))
      goto done;

   uint32_t u[16];
   struct mem *m = io_setup(in, in_words, prm, nr_prm, u);
   struct pan_sim_bi_config cfg;
   struct pan_sim_bi_warp w;
   bi_test_setup(&cfg, &w, &bin, u, m, BI_LANES);
   if (pan_sim_bi_run(&w, &cfg) != PAN_SIM_BI_DONE) {
      pan_test_fail("%s: fault: %s", name, w.fault);
      goto done;
   }
   memcpy(out, m->bytes + OUT_OFF, out_words * 4);
   ok = true;
done:
   ralloc_free(ctx);
   ralloc_free(b->shader);
   return ok;
}

static void
random_words(uint32_t *w, unsigned n)
{
   pan_test_fill_random(&seed, (uint8_t *)w, n * 4);
}

/* Integer ALU: adds, shifts of both kinds, bitwise, compares, selects,
 * min/max, a multiply; constants and uniforms. */
static uint32_t
int_ref(uint32_t x, uint32_t y, uint32_t p)
{
   uint32_t r = (x * 7u + p) ^ (y << (x & 31));
   r += (uint32_t)((int32_t)y >> 5) | (x >> 9);
   r -= (int32_t)x > (int32_t)y ? x & 0xff00ff : y + 0x12345678;
   r += x < p ? 3 : 0;
   r += (x == y) + ((int32_t)y <= (int32_t)p ? 100 : 0);
   uint32_t mx = x > y ? x : y;
   int32_t mn = (int32_t)x < (int32_t)p ? (int32_t)x : (int32_t)p;
   return r + mx - (uint32_t)mn + ~(x & y);
}

static void
test_int(void)
{
   for (unsigned rep = 0; rep < 4; ++rep) {
      nir_builder b = begin("bi_int");
      nir_ssa_def *v = input(&b, 2);
      nir_ssa_def *x = nir_channel(&b, v, 0), *y = nir_channel(&b, v, 1);
      nir_ssa_def *p = param(&b, 4);
      nir_ssa_def *r = nir_ixor(&b, nir_iadd(&b, nir_imul_imm(&b, x, 7), p),
                                nir_ishl(&b, y, x));
      r = nir_iadd(&b, r,
                   nir_ior(&b, nir_ishr_imm(&b, y, 5), nir_ushr_imm(&b, x, 9)));
      r = nir_isub(&b, r,
                   nir_bcsel(&b, nir_ilt(&b, y, x),
                             nir_iand_imm(&b, x, 0xff00ff),
                             nir_iadd_imm(&b, y, 0x12345678)));
      r = nir_iadd(&b, r,
                   nir_bcsel(&b, nir_ult(&b, x, p), nir_imm_int(&b, 3),
                             nir_imm_int(&b, 0)));
      r = nir_iadd(&b, r, nir_b2i32(&b, nir_ieq(&b, x, y)));
      r = nir_iadd(&b, r,
                   nir_bcsel(&b, nir_ige(&b, p, y), nir_imm_int(&b, 100),
                             nir_imm_int(&b, 0)));
      r = nir_iadd(&b, r, nir_umax(&b, x, y));
      r = nir_isub(&b, r, nir_imin(&b, x, p));
      r = nir_iadd(&b, r, nir_inot(&b, nir_iand(&b, x, y)));
      output(&b, r);

      uint32_t in[2 * BI_LANES], out[BI_LANES], prm[1];
      random_words(in, 2 * BI_LANES);
      random_words(prm, 1);
      in[3] = in[2]; /* lane 1: x == y */
      if (!run(&b, in, 2 * BI_LANES, prm, 1, out, BI_LANES))
         return;
      for (unsigned l = 0; l < BI_LANES; ++l) {
         uint32_t want = int_ref(in[2 * l], in[2 * l + 1], prm[0]);
         PAN_CHECK(out[l] == want, "int lane %u: 0x%08x, expected 0x%08x", l,
                   out[l], want);
      }
   }
}

/* Float arithmetic, rounding, conversions and compares; a vec4 store. */
static void
test_float(void)
{
   nir_builder b = begin("bi_float");
   nir_ssa_def *v = input(&b, 2);
   nir_ssa_def *x = nir_channel(&b, v, 0), *y = nir_channel(&b, v, 1);
   nir_ssa_def *s = param(&b, 4);
   nir_ssa_def *f0 = nir_fsub(&b, nir_fmul(&b, x, s), nir_fabs(&b, y));
   nir_ssa_def *f1 = nir_fmin(&b, nir_fneg(&b, x), nir_fmax(&b, y, s));
   nir_ssa_def *f2 = nir_ffma(&b, nir_fneg(&b, y), x, nir_imm_float(&b, 1.5));
   nir_ssa_def *k = nir_f2i32(&b, nir_fmul_imm(&b, x, 10.0));
   k = nir_iadd(&b, k, nir_b2i32(&b, nir_flt(&b, x, y)));
   k = nir_iadd(&b, k, nir_f2u32(&b, nir_ffloor(&b, nir_fabs(&b, y))));
   k = nir_iadd(&b, k, nir_ishl_imm(&b, nir_b2i32(&b, nir_fge(&b, y, s)), 4));
   nir_ssa_def *f3 = nir_fadd(&b, nir_i2f32(&b, k),
                              nir_fadd(&b, nir_fceil(&b, x), nir_frcp(&b, s)));
   output(&b, nir_vec4(&b, f0, f1, f2, f3));

   uint32_t in[2 * BI_LANES], out[4 * BI_LANES], prm[1] = { pan_test_u32(-2.25f) };
   for (unsigned l = 0; l < 2 * BI_LANES; ++l)
      in[l] = pan_test_u32((float)((int)(pan_test_rng64(&seed) % 20001) - 10000) /
                  37.0f);
   if (!run(&b, in, 2 * BI_LANES, prm, 1, out, 4 * BI_LANES))
      return;
   float sc = pan_test_f32(prm[0]);
   for (unsigned l = 0; l < BI_LANES; ++l) {
      float fx = pan_test_f32(in[2 * l]), fy = pan_test_f32(in[2 * l + 1]);
      int32_t kk = (int32_t)(fx * 10.0f) + (fx < fy) +
                   (int32_t)(uint32_t)floorf(fabsf(fy)) + ((fy >= sc) << 4);
      uint32_t want[4] = {
         pan_test_u32(fx * sc - fabsf(fy)),
         pan_test_u32(fminf(-fx, fmaxf(fy, sc))),
         pan_test_u32(fmaf(-fy, fx, 1.5f)),
         pan_test_u32((float)kk + (ceilf(fx) + 1.0f / sc)),
      };
      for (unsigned c = 0; c < 4; ++c)
         PAN_CHECK(out[4 * l + c] == want[c],
                   "float lane %u word %u: 0x%08x, expected 0x%08x", l, c,
                   out[4 * l + c], want[c]);
   }
}

/* GLSL's bool(float), f2b1: x != 0.0, so -0.0 is false and NaN true. */
static void
test_f2b(void)
{
   static const uint32_t special[] = {
      0x00000000, 0x80000000, 0x3f800000, 0xc0200000, /* 0, -0, 1, -2.5 */
      0x7fc00000, 0x7f800000, 0xff800000, 0x3a83126f, /* NaN, +-inf, 0.001 */
   };
   nir_builder b = begin("bi_f2b");
   nir_ssa_def *i = id_x(&b);
   nir_ssa_def *x = load_in(&b, i, 1);
   store_out(&b, i, nir_b2i32(&b, nir_f2b1(&b, x)));

   uint32_t in[BI_LANES], out[BI_LANES];
   for (unsigned l = 0; l < BI_LANES; ++l) {
      in[l] = l < ARRAY_SIZE(special)
                 ? special[l]
                 : pan_test_u32((float)(int)(pan_test_rng64(&seed) % 2001) -
                                1000.0f);
   }
   if (!run(&b, in, BI_LANES, NULL, 0, out, BI_LANES))
      return;
   for (unsigned l = 0; l < BI_LANES; ++l) {
      uint32_t want = pan_test_f32(in[l]) != 0.0f;
      PAN_CHECK(out[l] == want, "f2b lane %u: bool(0x%08x) = %u, expected %u",
                l, in[l], out[l], want);
   }
}

/* Folds (pan_bi_opt_fold.c): a saturated fma and a max(fadd, 0) take
 * the clamp modifier, a saturated load is one clamped add, a max of a
 * value read twice stays; b2f of a comparison is the comparison. */
static void
test_clamp(void)
{
   nir_builder b = begin("bi_clamp");
   nir_ssa_def *v = input(&b, 2);
   nir_ssa_def *x = nir_channel(&b, v, 0), *y = nir_channel(&b, v, 1);
   nir_ssa_def *t = nir_fsub(&b, x, y);
   output(&b, nir_vec4(
                 &b, nir_fsat(&b, nir_ffma(&b, x, y, nir_imm_float(&b, 0.25))),
                 nir_fmax(&b, nir_fadd(&b, x, y), nir_imm_float(&b, 0)),
                 nir_fsat(&b, x),
                 nir_fadd(&b, nir_fmax(&b, t, nir_imm_float(&b, 0)),
                          nir_fadd(&b, t, nir_b2f32(&b, nir_fge(&b, x, y))))));

   /* The clamps are modifiers: no FMIN/FMAX is left; the comparison
    * gives 1.0 itself, no CSEL. */
   struct pan_bi_binary bin;
   void *ctx = ralloc_context(NULL);
   if (compile(nir_shader_clone(ctx, b.shader), NULL, ctx, &bin)) {
      char *text = disassembly(&bin);
      PAN_CHECK(strstr(text, "clamp_0_1") && strstr(text, "clamp_0_inf") &&
                   !strstr(text, "fmin") && !strstr(text, "csel"),
                "clamps not folded\n%s", text);
      free(text);
   }
   ralloc_free(ctx);

   uint32_t in[2 * BI_LANES], out[4 * BI_LANES];
   for (unsigned l = 0; l < 2 * BI_LANES; ++l)
      in[l] = pan_test_u32((float)((int)(pan_test_rng64(&seed) % 401) - 200) /
                           100.0f);
   if (!run(&b, in, 2 * BI_LANES, NULL, 0, out, 4 * BI_LANES))
      return;
   for (unsigned l = 0; l < BI_LANES; ++l) {
      float fx = pan_test_f32(in[2 * l]), fy = pan_test_f32(in[2 * l + 1]);
      float ft = fx - fy;
      float want[4] = { fminf(fmaxf(fmaf(fx, fy, 0.25f), 0), 1),
                        fmaxf(fx + fy, 0), fminf(fmaxf(fx, 0), 1),
                        fmaxf(ft, 0) + (ft + (fx >= fy)) };
      for (unsigned c = 0; c < 4; ++c)
         PAN_CHECK(pan_test_f32(out[4 * l + c]) == want[c],
                   "clamp lane %u word %u: %g, expected %g", l, c,
                   pan_test_f32(out[4 * l + c]), want[c]);
   }
}

/* A select on a float comparison read once compares by itself: CSEL.f32
 * of the comparison's sources, no FCMP. */
static void
test_csel_cmp(void)
{
   nir_builder b = begin("bi_csel_cmp");
   nir_ssa_def *v = input(&b, 2);
   nir_ssa_def *x = nir_channel(&b, v, 0), *y = nir_channel(&b, v, 1);
   output(&b, nir_bcsel(&b, nir_flt(&b, x, y), nir_fmul_imm(&b, x, 2.0), y));
   struct pan_bi_binary bin;
   void *ctx = ralloc_context(NULL);
   if (compile(nir_shader_clone(ctx, b.shader), NULL, ctx, &bin)) {
      char *text = disassembly(&bin);
      PAN_CHECK(strstr(text, "csel.f32") && !strstr(text, "fcmp"),
                "select not fused with its comparison\n%s", text);
      free(text);
   }
   ralloc_free(ctx);

   uint32_t in[2 * BI_LANES], out[BI_LANES];
   for (unsigned l = 0; l < 2 * BI_LANES; ++l)
      in[l] = pan_test_u32((float)((int)(pan_test_rng64(&seed) % 9) - 4));
   in[2] = in[3]; /* lane 1: x == y */
   if (!run(&b, in, 2 * BI_LANES, NULL, 0, out, BI_LANES))
      return;
   for (unsigned l = 0; l < BI_LANES; ++l) {
      float fx = pan_test_f32(in[2 * l]), fy = pan_test_f32(in[2 * l + 1]);
      float want = fx < fy ? fx * 2 : fy;
      PAN_CHECK(pan_test_f32(out[l]) == want, "csel lane %u: %g, expected %g",
                l, pan_test_f32(out[l]), want);
   }
}

/* Two uniforms of different pairs in one instruction: one is moved into
 * a register, once for both instructions that read the pair (a tuple
 * reads one FAU pair). */
static void
test_fau_reuse(void)
{
   nir_builder b = begin("bi_fau_reuse");
   nir_ssa_def *v = input(&b, 2);
   nir_ssa_def *p = param(&b, 4), *q = param(&b, 6);
   output(&b, nir_vec2(&b, nir_ffma(&b, nir_channel(&b, v, 0), p, q),
                       nir_ffma(&b, nir_channel(&b, v, 1), p, q)));
   struct pan_bi_binary bin;
   void *ctx = ralloc_context(NULL);
   if (compile(nir_shader_clone(ctx, b.shader), NULL, ctx, &bin)) {
      /* q (u3.w0) is the one moved: read once, by its move. */
      char *text = disassembly(&bin);
      unsigned reads = 0;
      for (const char *at = text; (at = strstr(at, "u3.w0")); at++)
         reads++;
      PAN_CHECK(reads == 1, "%u reads of u3.w0\n%s", reads, text);
      free(text);
   }
   ralloc_free(ctx);

   uint32_t in[2 * BI_LANES], out[2 * BI_LANES];
   uint32_t prm[3] = { pan_test_u32(1.5f), 0, pan_test_u32(-0.25f) };
   for (unsigned l = 0; l < 2 * BI_LANES; ++l)
      in[l] = pan_test_u32((float)l);
   if (!run(&b, in, 2 * BI_LANES, prm, 3, out, 2 * BI_LANES))
      return;
   for (unsigned l = 0; l < 2 * BI_LANES; ++l)
      PAN_CHECK(pan_test_f32(out[l]) == l * 1.5f - 0.25f,
                "fau lane %u word %u: %g", l / 2, l % 2, pan_test_f32(out[l]));
}

/* A loop-carried value starting as a uniform: the phi's carrier is moved
 * from the uniform itself, not from a register holding it (one move
 * fewer); the loop doubles it id + 1 times. */
static void
test_phi_uniform(void)
{
   nir_builder b = begin("bi_phi_uniform");
   nir_ssa_def *i = id_x(&b);
   nir_variable *acc =
      nir_local_variable_create(b.impl, glsl_float_type(), "acc");
   nir_variable *n = nir_local_variable_create(b.impl, glsl_uint_type(), "n");
   nir_store_var(&b, acc, param(&b, 4), 1);
   nir_store_var(&b, n, nir_imm_int(&b, 0), 1);
   nir_push_loop(&b);
   {
      nir_ssa_def *k = nir_load_var(&b, n);
      nir_push_if(&b, nir_ult(&b, i, k));
      nir_jump(&b, nir_jump_break);
      nir_pop_if(&b, NULL);
      nir_ssa_def *a = nir_load_var(&b, acc);
      nir_store_var(&b, acc, nir_fadd(&b, a, a), 1);
      nir_store_var(&b, n, nir_iadd_imm(&b, k, 1), 1);
   }
   nir_pop_loop(&b, NULL);
   output(&b, nir_load_var(&b, acc));
   struct pan_bi_binary bin;
   void *ctx = ralloc_context(NULL);
   if (compile(nir_shader_clone(ctx, b.shader), NULL, ctx, &bin)) {
      char *text = disassembly(&bin);
      /* The entry clause sets the carriers up: no move there copies
       * another's result (register or t). */
      char *entry = strstr(text, "clause");
      char *end = entry ? strstr(entry + 1, "clause") : NULL;
      if (end)
         *end = 0;
      unsigned copies = 0;
      for (const char *at = entry; at && (at = strstr(at, "mov.i32 r")); at++) {
         const char *src = strchr(at, ',');
         copies += src && src[1] == ' ' && (src[2] == 'r' || src[2] == 't');
      }
      if (end)
         *end = 'c';
      PAN_CHECK(copies == 0, "%u register copies\n%s", copies, text);
      free(text);
   }
   ralloc_free(ctx);

   uint32_t in[1] = { 0 }, out[BI_LANES];
   uint32_t prm[1] = { pan_test_u32(0.75f) };
   if (!run(&b, in, 1, prm, 1, out, BI_LANES))
      return;
   for (unsigned l = 0; l < BI_LANES; ++l) {
      float want = 0.75f * (float)(2u << l);
      PAN_CHECK(pan_test_f32(out[l]) == want, "lane %u: %g, expected %g", l,
                pan_test_f32(out[l]), want);
   }
}

/* Control flow: if/else on lane parity, a loop with a per-lane trip
 * count, break out of it. */
static void
test_flow(void)
{
   nir_builder b = begin("bi_flow");
   nir_ssa_def *v = input(&b, 1);
   nir_ssa_def *i = id_x(&b);
   nir_variable *acc =
      nir_local_variable_create(b.impl, glsl_uint_type(), "acc");
   nir_variable *n = nir_local_variable_create(b.impl, glsl_uint_type(), "n");
   nir_push_if(&b, nir_ieq_imm(&b, nir_iand_imm(&b, i, 1), 0));
   nir_store_var(&b, acc, nir_imul_imm(&b, v, 3), 1);
   nir_push_else(&b, NULL);
   nir_store_var(&b, acc, nir_ixor(&b, v, nir_imm_int(&b, 0x5a5a)), 1);
   nir_pop_if(&b, NULL);
   nir_store_var(&b, n, nir_imm_int(&b, 0), 1);
   nir_push_loop(&b);
   {
      nir_ssa_def *k = nir_load_var(&b, n);
      nir_push_if(&b, nir_uge(&b, k, nir_iadd_imm(&b, i, 2)));
      nir_jump(&b, nir_jump_break);
      nir_pop_if(&b, NULL);
      nir_ssa_def *a = nir_load_var(&b, acc);
      nir_store_var(&b, acc, nir_iadd(&b, nir_ishl_imm(&b, a, 1), k), 1);
      nir_store_var(&b, n, nir_iadd_imm(&b, k, 1), 1);
   }
   nir_pop_loop(&b, NULL);
   output(&b, nir_load_var(&b, acc));

   uint32_t in[BI_LANES], out[BI_LANES];
   random_words(in, BI_LANES);
   if (!run(&b, in, BI_LANES, NULL, 0, out, BI_LANES))
      return;
   for (unsigned l = 0; l < BI_LANES; ++l) {
      uint32_t a = (l & 1) ? in[l] ^ 0x5a5a : in[l] * 3;
      for (uint32_t k = 0; k < l + 2; ++k)
         a = (a << 1) + k;
      PAN_CHECK(out[l] == a, "flow lane %u: 0x%08x, expected 0x%08x", l,
                out[l], a);
   }
}

/* exp2, log2, sin and cos: the special-function sequences with their
 * Bifrost forms, within the bounds the Valhall tests use. */
static void
test_transcendental(void)
{
   nir_builder b = begin("bi_sfu");
   nir_ssa_def *x = input(&b, 1);
   output(&b, nir_vec4(&b, nir_fexp2(&b, x), nir_flog2(&b, nir_fabs(&b, x)),
                       nir_fsin(&b, x), nir_fcos(&b, x)));
   uint32_t in[BI_LANES], out[4 * BI_LANES];
   for (unsigned l = 0; l < BI_LANES; ++l)
      in[l] = pan_test_u32((float)((int)(pan_test_rng64(&seed) % 4001) - 2000) /
                           137.0f);
   if (!run(&b, in, BI_LANES, NULL, 0, out, 4 * BI_LANES))
      return;
   for (unsigned l = 0; l < BI_LANES; ++l) {
      double v = pan_test_f32(in[l]);
      double want[4] = { exp2(v), log2(fabs(v)), sin(v), cos(v) };
      for (unsigned c = 0; c < 4; ++c) {
         double got = pan_test_f32(out[4 * l + c]);
         double tol = c == 0 ? 4 * fabs(want[0]) * 0x1p-23
                      : c == 1 ? 4 * fabs(want[1]) * 0x1p-23 + 0x1p-22
                               : 3e-5;
         PAN_CHECK(fabs(got - want[c]) <= tol,
                   "sfu lane %u word %u of %g: %.9g, expected %.9g", l, c, v,
                   got, want[c]);
      }
   }
}

/* ---- graphics stages, run with the interpreter's message callbacks ---- */

struct gfx_record {
   uint32_t attr_reads;
   uint64_t addr[BI_LANES * 2];
   uint32_t cvt[BI_LANES * 2], data[BI_LANES * 2][4];
   unsigned nr_stores;
   uint32_t colour[BI_LANES][4];
   uint64_t blend_desc;
   /* ZS_EMIT: what each lane wrote, and the modifiers. */
   float depth[BI_LANES];
   uint8_t stencil[BI_LANES];
   bool z, s;
   bool flat_ok; /* flat varying loads answer too (cb_ld_var) */
};

/* Attribute `index` of a vertex: index * 100 + vertex * 10 + component,
 * w 2.0. */
static float
attr_value(unsigned index, uint32_t vertex, unsigned c)
{
   return c == 3 ? 2.0f : (float)(index * 100 + vertex * 10 + c);
}

static bool
cb_ld_attr(void *user, unsigned index, uint32_t vertex, uint32_t instance,
           enum pan_sim_regfmt regfmt, unsigned comps, uint32_t out[4],
           char *err)
{
   struct gfx_record *r = user;
   r->attr_reads++;
   for (unsigned c = 0; c < comps; ++c)
      out[c] = pan_test_u32(attr_value(index, vertex, c));
   return regfmt == PAN_SIM_REG_F32 && instance == 0;
}

/* Varying slot `index` of a vertex at 0x10000 + 0x100 * index + 16 *
 * vertex, its conversion word 0xc0de00 + index. */
static bool
cb_lea_attr(void *user, unsigned index, uint32_t vertex, uint32_t instance,
            enum pan_sim_regfmt regfmt, uint32_t out[3], char *err)
{
   out[0] = 0x10000 + 0x100 * index + 16 * vertex;
   out[1] = 0;
   out[2] = 0xc0de00 + index;
   return true;
}

static bool
cb_st_cvt(void *user, uint64_t addr, uint32_t conversion, unsigned comps,
          const uint32_t in[4], char *err)
{
   struct gfx_record *r = user;
   if (r->nr_stores >= ARRAY_SIZE(r->addr))
      return false;
   r->addr[r->nr_stores] = addr;
   r->cvt[r->nr_stores] = conversion;
   memcpy(r->data[r->nr_stores++], in, 4 * comps);
   return true;
}

/* Varying `index` at lane l: index + l / 8 + component / 4. */
static bool
cb_ld_var(void *user, unsigned lane, unsigned index, bool flat,
          enum pan_sim_regfmt regfmt, unsigned comps, uint32_t out[4],
          char *err)
{
   for (unsigned c = 0; c < comps; ++c)
      out[c] = pan_test_u32(index + lane / 8.0f + c / 4.0f);
   return !flat || ((struct gfx_record *)user)->flat_ok;
}

static bool
cb_blend(void *user, unsigned lane, uint64_t descriptor, uint32_t coverage,
         const uint32_t in[4], struct pan_sim_bi_blend_call *call, char *err)
{
   (void)call;
   struct gfx_record *r = user;
   memcpy(r->colour[lane], in, 16);
   r->blend_desc = descriptor;
   return coverage == 1;
}

static bool
cb_zs_emit(void *user, unsigned lane, bool z, float depth, bool stencil,
           uint8_t ref, uint32_t *coverage, char *err)
{
   struct gfx_record *r = user;
   r->z = z;
   r->s = stencil;
   r->depth[lane] = depth;
   r->stencil[lane] = ref;
   return *coverage == 1;
}

static const struct pan_sim_bi_gfx gfx_callbacks = {
   .ld_attr = cb_ld_attr,
   .lea_attr = cb_lea_attr,
   .st_cvt = cb_st_cvt,
   .ld_var = cb_ld_var,
   .blend = cb_blend,
   .zs_emit = cb_zs_emit,
};

/* Run a graphics program over one warp with the push words u; preload
 * sets the lane's registers. */
static bool
run_gfx_full(const struct pan_bi_binary *bin, const uint32_t *u,
             struct gfx_record *rec, void (*preload)(uint32_t *r, unsigned l),
             uint64_t special8, const struct pan_sim_tex_ops *tex);

static bool
run_gfx(const struct pan_bi_binary *bin, const uint32_t *u,
        struct gfx_record *rec, void (*preload)(uint32_t *r, unsigned l),
        uint64_t special8)
{
   return run_gfx_full(bin, u, rec, preload, special8, NULL);
}

static void fragment_preload(uint32_t *r, unsigned l);

/* A fragment shader with a texture unit. */
static bool
run_gfx_tex(const struct pan_bi_binary *bin, const uint32_t *u,
            struct gfx_record *rec, const struct pan_sim_tex_ops *tex)
{
   return run_gfx_full(bin, u, rec, fragment_preload, 0x100, tex);
}

static bool
run_gfx_full(const struct pan_bi_binary *bin, const uint32_t *u,
             struct gfx_record *rec, void (*preload)(uint32_t *r, unsigned l),
             uint64_t special8, const struct pan_sim_tex_ops *tex)
{
   struct pan_sim_bi_gfx g = gfx_callbacks;
   g.user = rec;
   struct pan_sim_bi_config cfg = {
      .program = bin->words,
      .program_quads = bin->nr_words / 2,
      .uniforms = u,
      .uniform_words = 16,
      .lanes = BI_LANES,
      .gfx = &g,
      .tex = tex,
   };
   cfg.special[8] = special8;
   struct pan_sim_bi_warp w;
   pan_sim_bi_warp_init(&w, (1u << BI_LANES) - 1);
   for (unsigned l = 0; l < BI_LANES; ++l)
      preload(w.r[l], l);
   /* The v7 message preloads, as the renderer state asks for them. */
   for (unsigned k = 0; k < 2; ++k) {
      const struct pan_bi_message_preload *m = &bin->messages[k];
      char err[128];
      if (m->texture &&
          !pan_sim_bi_var_tex_preload(&w, &cfg, (1u << BI_LANES) - 1,
                                      m->slot, m->texture_index, false,
                                      m->zero_lod, 4 * k, err, sizeof(err))) {
         pan_test_fail("VAR_TEX preload: %s", err);
         return false;
      }
      for (unsigned l = 0; !m->texture && m->comps && l < BI_LANES; ++l)
         cb_ld_var(rec, l, m->slot, false, PAN_SIM_REG_F32, m->comps,
                   &w.r[l][4 * k], NULL);
   }
   if (pan_sim_bi_run(&w, &cfg) != PAN_SIM_BI_DONE) {
      pan_test_fail("graphics fault: %s", w.fault);
      return false;
   }
   return true;
}

static void
vertex_preload(uint32_t *r, unsigned l)
{
   r[58] = 0x20000 + 16 * l; /* position address */
   r[59] = 0;
   r[61] = l; /* vertex id */
   r[62] = 0; /* instance id */
}

static nir_variable *
io_var(nir_shader *s, nir_variable_mode mode, unsigned location,
       unsigned driver_location, const char *name)
{
   nir_variable *v =
      nir_variable_create(s, mode, glsl_vec4_type(), name);
   v->data.location = location;
   v->data.driver_location = driver_location;
   return v;
}

/* gl_Position = attribute 0 (through the viewport transform), VAR1 =
 * attribute 2 * 2 + attribute 0; each IDVS variant stores its own. */
static void
test_vertex(void)
{
   /* Both variants on G52, then the position on G72 (v6), whose
    * conversion word differs. */
   for (unsigned pass = 0; pass < 3; ++pass) {
      unsigned variant =
         pass == 1 ? PAN_VA_VARIANT_VARYING : PAN_VA_VARIANT_POSITION;
      unsigned arch = pass == 2 ? 6 : 7;
      nir_builder b = nir_builder_init_simple_shader(
         MESA_SHADER_VERTEX, &pan_va_nir_options, "bi_vs");
      nir_variable *a0 =
         io_var(b.shader, nir_var_shader_in, VERT_ATTRIB_GENERIC0, 0, "a0");
      nir_variable *a2 =
         io_var(b.shader, nir_var_shader_in, VERT_ATTRIB_GENERIC2, 2, "a2");
      nir_variable *pos =
         io_var(b.shader, nir_var_shader_out, VARYING_SLOT_POS, 0, "pos");
      nir_variable *v1 =
         io_var(b.shader, nir_var_shader_out, VARYING_SLOT_VAR1, 1, "v1");
      nir_ssa_def *x0 = nir_load_var(&b, a0);
      nir_store_var(&b, pos, x0, 0xf);
      nir_store_var(&b, v1,
                    nir_fadd(&b, nir_fmul_imm(&b, nir_load_var(&b, a2), 2.0),
                             x0),
                    0xf);

      struct pan_bi_binary bin;
      void *ctx = ralloc_context(NULL);
      struct pan_bi_compile_options opts = { .arch = arch,
                                             .variant = variant };
      bool ok = compile(b.shader, &opts, ctx, &bin);
      static struct gfx_record rec;
      memset(&rec, 0, sizeof(rec));
      /* Push words: the viewport scale and offset components. */
      const float scale[3] = { 2.0f, 3.0f, 0.5f }, off[3] = { 10, 20, 0.25f };
      uint32_t u[16] = { 0 };
      for (unsigned i = 0; ok && i < bin.nr_push; ++i) {
         unsigned c = bin.push[i].offset_B / 4;
         u[i] = pan_test_u32(bin.push[i].source == PAN_VA_PUSH_VIEWPORT_SCALE
                                ? scale[c]
                                : off[c]);
      }
      ok = ok && run_gfx(&bin, u, &rec, vertex_preload, 0);
      PAN_CHECK(!ok || rec.nr_stores == BI_LANES,
                "variant %u: %u stores for %u vertices", variant,
                rec.nr_stores, BI_LANES);
      for (unsigned i = 0; ok && i < rec.nr_stores; ++i) {
         bool position = variant == PAN_VA_VARIANT_POSITION;
         unsigned l = position ? (unsigned)(rec.addr[i] - 0x20000) / 16
                               : (unsigned)(rec.addr[i] & 0xff) / 16;
         for (unsigned c = 0; c < 4; ++c) {
            float a = attr_value(0, l, c), got = pan_test_f32(rec.data[i][c]);
            float want = !position ? attr_value(2, l, c) * 2 + a
                         : c == 3  ? 0.5f
                                   : a * 0.5f * scale[c] + off[c];
            PAN_CHECK(fabsf(got - want) <= 1e-5f * fabsf(want),
                      "variant %u vertex %u word %u: %g, expected %g",
                      variant, l, c, got, want);
         }
         PAN_CHECK(position ? rec.cvt[i] == (arch == 6 ? 0x0105e688
                                                       : 0x0105e000)
                            : (rec.cvt[i] & ~0xffu) == 0xc0de00,
                   "variant %u: conversion word 0x%x", variant, rec.cvt[i]);
      }
      ralloc_free(ctx);
      ralloc_free(b.shader);
   }
}

static void
fragment_preload(uint32_t *r, unsigned l)
{
   r[60] = 1; /* coverage */
   r[61] = 1;
}

/* colour = VAR0 * 0.5 + VAR1.zyxw: LD_VAR, ATEST, BLEND with the
 * descriptor from the FAU. */
static void
test_fragment(void)
{
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_FRAGMENT,
                                                  &pan_va_nir_options, "bi_fs");
   nir_variable *v0 =
      io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
   nir_variable *v1 =
      io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR1, 1, "v1");
   nir_variable *col =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "c");
   nir_ssa_def *y = nir_load_var(&b, v1);
   nir_store_var(&b, col,
                 nir_fadd(&b, nir_fmul_imm(&b, nir_load_var(&b, v0), 0.5),
                          nir_swizzle(&b, y, (unsigned[]){ 2, 1, 0, 3 }, 4)),
                 0xf);
   struct pan_bi_binary bin;
   void *ctx = ralloc_context(NULL);
   static struct gfx_record rec;
   memset(&rec, 0, sizeof(rec));
   uint32_t u[16] = { 0 };
   bool ok = compile(b.shader, NULL, ctx, &bin) &&
             run_gfx(&bin, u, &rec, fragment_preload, 0x123456789abcdef0ull);
   PAN_CHECK(!ok || rec.blend_desc == 0x123456789abcdef0ull,
             "blend descriptor 0x%llx", (unsigned long long)rec.blend_desc);
   for (unsigned l = 0; ok && l < BI_LANES; ++l) {
      /* Which slots VAR0/VAR1 got is the interface's: read them back
       * from the values (slot + lane / 8 + component / 4). */
      for (unsigned c = 0; c < 4; ++c) {
         float got = pan_test_f32(rec.colour[l][c]);
         float s0 = 0, s1 = 1;
         float want = (s0 + l / 8.0f + c / 4.0f) * 0.5f +
                      (s1 + l / 8.0f + (c == 3 ? 3 : 2 - c) / 4.0f);
         PAN_CHECK(got == want, "fragment lane %u word %u: %g, expected %g",
                   l, c, got, want);
      }
   }
   ralloc_free(ctx);
   ralloc_free(b.shader);
}

/* colour = VAR0 * U[0..3] + U[8..11] (UBO 0 words, pushed): each FMA reads
 * two pushed words of different 64-bit slots in the table's first order,
 * so pan_bi_pair_push puts word c and word 8 + c into one slot and no
 * move is needed; the shader still computes with the right words. */
static void
test_push_pairs(void)
{
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_FRAGMENT,
                                                  &pan_va_nir_options, "bi_pp");
   nir_variable *v0 =
      io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
   nir_variable *col =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "c");
   nir_ssa_def *m = nir_load_ubo(&b, 4, 32, nir_imm_int(&b, 0),
                                 nir_imm_int(&b, 0), .align_mul = 4,
                                 .range = ~0);
   nir_ssa_def *a = nir_load_ubo(&b, 4, 32, nir_imm_int(&b, 0),
                                 nir_imm_int(&b, 32), .align_mul = 4,
                                 .range = ~0);
   nir_store_var(&b, col, nir_ffma(&b, nir_load_var(&b, v0), m, a), 0xf);
   struct pan_bi_binary bin;
   void *ctx = ralloc_context(NULL);
   static struct gfx_record rec;
   memset(&rec, 0, sizeof(rec));
   uint32_t u[16] = { 0 };
   bool ok = compile(b.shader, NULL, ctx, &bin);
   PAN_CHECK(!ok || bin.nr_push == 8, "%u pushed words", bin.nr_push);
   int at[12];
   for (unsigned w = 0; w < 12; ++w)
      at[w] = -1;
   for (unsigned i = 0; ok && i < bin.nr_push && i < 16; ++i) {
      unsigned w = bin.push[i].offset_B / 4;
      PAN_CHECK(bin.push[i].source == PAN_VA_PUSH_UBO && w < 12,
                "push word %u: source %u offset %u", i, bin.push[i].source,
                bin.push[i].offset_B);
      if (w < 12)
         at[w] = (int)i;
      /* Word w of UBO 0 holds 1 + w (U[0..3]) or w / 2 (U[8..11]). */
      u[i] = pan_test_u32(w < 4 ? 1.0f + w : w / 2.0f);
   }
   for (unsigned c = 0; ok && c < 4; ++c) {
      PAN_CHECK(at[c] >= 0 && at[8 + c] >= 0 && at[c] / 2 == at[8 + c] / 2,
                "words %u and %u in slots %d and %d", c, 8 + c, at[c] / 2,
                at[8 + c] / 2);
   }
   ok = ok && run_gfx(&bin, u, &rec, fragment_preload, 0);
   for (unsigned l = 0; ok && l < BI_LANES; ++l) {
      for (unsigned c = 0; c < 4; ++c) {
         /* VAR0 word c of lane l is l / 8 + c / 4 (test_fragment). */
         float want = (l / 8.0f + c / 4.0f) * (1.0f + c) + (8 + c) / 2.0f;
         float got = pan_test_f32(rec.colour[l][c]);
         PAN_CHECK(got == want, "lane %u word %u: %g, expected %g", l, c, got,
                   want);
      }
   }
   ralloc_free(ctx);
   ralloc_free(b.shader);
}

/* gl_FragDepth = VAR0.x and the stencil reference int(VAR0.y * 4): one
 * ZS_EMIT writing both (d9 3), run on the interpreter. */
static void
test_depth_stencil_output(void)
{
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_FRAGMENT,
                                                  &pan_va_nir_options, "bi_zs");
   nir_variable *v0 =
      io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
   nir_variable *z =
      nir_variable_create(b.shader, nir_var_shader_out, glsl_float_type(), "z");
   nir_variable *st =
      nir_variable_create(b.shader, nir_var_shader_out, glsl_int_type(), "s");
   z->data.location = FRAG_RESULT_DEPTH;
   st->data.location = FRAG_RESULT_STENCIL;
   nir_ssa_def *x = nir_load_var(&b, v0);
   nir_store_var(&b, z, nir_channel(&b, x, 0), 1);
   nir_store_var(&b, st, nir_f2i32(&b, nir_fmul_imm(&b, nir_channel(&b, x, 1), 4)),
                 1);
   struct pan_bi_binary bin;
   void *ctx = ralloc_context(NULL);
   static struct gfx_record rec;
   memset(&rec, 0, sizeof(rec));
   uint32_t u[16] = { 0 };
   bool ok = compile(b.shader, NULL, ctx, &bin) &&
             run_gfx(&bin, u, &rec, fragment_preload, 0);
   PAN_CHECK(!ok || (rec.z && rec.s), "ZS_EMIT z %d stencil %d", rec.z, rec.s);
   for (unsigned l = 0; ok && l < BI_LANES; ++l) {
      /* VAR0 word c of lane l is l / 8 + c / 4 (test_fragment). */
      PAN_CHECK(rec.depth[l] == l / 8.0f, "lane %u depth %g", l, rec.depth[l]);
      PAN_CHECK(rec.stencil[l] == (uint8_t)((l / 8.0f + 0.25f) * 4),
                "lane %u stencil %u", l, rec.stencil[l]);
   }
   ralloc_free(ctx);
   ralloc_free(b.shader);
}

/* VAR20 is slot 20, past LEA_ATTR_IMM's four bits: the vertex shader
 * takes its address from LEA_ATTR (the slot in a register), the fragment
 * shader reads it with LD_VAR_IMM index 20. */
static void
test_far_slot(void)
{
   for (unsigned stage = 0; stage < 2; ++stage) {
      bool vs = stage == 0;
      nir_builder b = nir_builder_init_simple_shader(
         vs ? MESA_SHADER_VERTEX : MESA_SHADER_FRAGMENT, &pan_va_nir_options,
         vs ? "bi_far_vs" : "bi_far_fs");
      nir_variable *v20 = io_var(b.shader,
                                 vs ? nir_var_shader_out : nir_var_shader_in,
                                 VARYING_SLOT_VAR20, 20, "v20");
      if (vs) {
         nir_variable *a0 =
            io_var(b.shader, nir_var_shader_in, VERT_ATTRIB_GENERIC0, 0, "a0");
         nir_store_var(&b, v20, nir_load_var(&b, a0), 0xf);
      } else {
         nir_variable *col =
            io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "c");
         nir_store_var(&b, col, nir_load_var(&b, v20), 0xf);
      }
      struct pan_bi_binary bin;
      void *ctx = ralloc_context(NULL);
      static struct gfx_record rec;
      memset(&rec, 0, sizeof(rec));
      uint32_t u[16] = { 0 };
      struct pan_bi_compile_options opts = {
         .arch = 7, .variant = PAN_VA_VARIANT_VARYING };
      bool ok = compile(b.shader, vs ? &opts : NULL, ctx, &bin) &&
                run_gfx(&bin, u, &rec, vs ? vertex_preload : fragment_preload,
                        0);
      PAN_CHECK(!ok || !vs || rec.nr_stores == BI_LANES, "%u stores",
                rec.nr_stores);
      for (unsigned i = 0; ok && vs && i < rec.nr_stores; ++i) {
         PAN_CHECK(rec.cvt[i] == 0xc0de00 + 20, "conversion word 0x%x",
                   rec.cvt[i]);
         unsigned l = (unsigned)(rec.addr[i] - 0x10000 - 0x100 * 20) / 16;
         PAN_CHECK(l < BI_LANES &&
                      pan_test_f32(rec.data[i][1]) == attr_value(0, l, 1),
                   "store %u at 0x%llx", i, (unsigned long long)rec.addr[i]);
      }
      for (unsigned l = 0; ok && !vs && l < BI_LANES; ++l) {
         float got = pan_test_f32(rec.colour[l][2]);
         PAN_CHECK(got == 20 + l / 8.0f + 2 / 4.0f, "lane %u: %g", l, got);
      }
      ralloc_free(ctx);
      ralloc_free(b.shader);
   }
}

/* colour = (VAR24.x, VAR31.y flat, VAR20.z, gl_Color.w): slots 24 and
 * later (gl_Color is 32) are read with LD_VAR / LD_VAR_FLAT, the slot in a
 * register, as the immediate forms with both top index bits set are the
 * register forms' encodings (the simulator faults on those). */
static void
test_high_slots(void)
{
   nir_builder b = nir_builder_init_simple_shader(
      MESA_SHADER_FRAGMENT, &pan_va_nir_options, "bi_high_slots");
   static const unsigned loc[4] = { VARYING_SLOT_VAR24, VARYING_SLOT_VAR31,
                                    VARYING_SLOT_VAR20, VARYING_SLOT_COL0 };
   static const unsigned slot[4] = { 24, 31, 20, 32 };
   nir_ssa_def *w[4];
   for (unsigned i = 0; i < 4; ++i) {
      nir_variable *v =
         io_var(b.shader, nir_var_shader_in, loc[i], i, "v");
      v->data.interpolation = i == 1 ? INTERP_MODE_FLAT : INTERP_MODE_SMOOTH;
      w[i] = nir_channel(&b, nir_load_var(&b, v), i);
   }
   nir_variable *col =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 4, "c");
   nir_store_var(&b, col, nir_vec(&b, w, 4), 0xf);
   struct pan_bi_binary bin;
   void *ctx = ralloc_context(NULL);
   static struct gfx_record rec;
   memset(&rec, 0, sizeof(rec));
   rec.flat_ok = true;
   uint32_t u[16] = { 0 };
   bool ok = compile(b.shader, NULL, ctx, &bin) &&
             run_gfx(&bin, u, &rec, fragment_preload, 0);
   PAN_CHECK(ok, "compiled and ran");
   for (unsigned l = 0; ok && l < BI_LANES; ++l) {
      for (unsigned c = 0; c < 4; ++c) {
         float got = pan_test_f32(rec.colour[l][c]);
         float want = slot[c] + l / 8.0f + c / 4.0f;
         PAN_CHECK(got == want, "lane %u word %u: %g, expected %g", l, c,
                   got, want);
      }
   }
   ralloc_free(ctx);
   ralloc_free(b.shader);
}

/* colour = dFdx(VAR0): on G52 run (VAR0 grows by 1/8 a lane, so by 1/8
 * across x in each quad); on G72 through CLPER_OLD, the one CLPER form
 * v6 has, never the v7 form. */
static void
test_derivative(void)
{
   for (unsigned arch = 6; arch <= 7; ++arch) {
      nir_builder b = nir_builder_init_simple_shader(
         MESA_SHADER_FRAGMENT, &pan_va_nir_options, "bi_ddx");
      nir_variable *v0 =
         io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
      nir_variable *col =
         io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "c");
      nir_store_var(&b, col, nir_fddx(&b, nir_load_var(&b, v0)), 0xf);
      struct pan_bi_binary bin;
      void *ctx = ralloc_context(NULL);
      struct pan_bi_compile_options opts = { .arch = arch };
      static struct gfx_record rec;
      memset(&rec, 0, sizeof(rec));
      uint32_t u[16] = { 0 };
      bool ok = compile(b.shader, &opts, ctx, &bin);
      char *text = ok ? disassembly(&bin) : NULL;
      PAN_CHECK(!ok || (strstr(text, "clper_old.i32") != NULL) == (arch == 6),
                "v%u: the CLPER form\n%s", arch, text);
      PAN_CHECK(!ok || (strstr(text, "clper.i32") != NULL) == (arch == 7),
                "v%u: the CLPER form\n%s", arch, text);
      free(text);
      ok = ok && arch == 7 && run_gfx(&bin, u, &rec, fragment_preload, 0x1234);
      for (unsigned l = 0; ok && l < BI_LANES; ++l) {
         for (unsigned c = 0; c < 4; ++c) {
            float got = pan_test_f32(rec.colour[l][c]);
            PAN_CHECK(got == 1.0f / 8, "lane %u word %u: dFdx %g, expected 1/8",
                      l, c, got);
         }
      }
      ralloc_free(ctx);
      ralloc_free(b.shader);
   }
}

/* ---- textures through TEXC, run with a recording texture unit ---- */

/* The request of the last texture message, and its result: the first
 * coordinate, the second, the layer and the LOD (explicit) or face
 * (cube), as binary32. */
static struct pan_sim_tex_req tex_seen;

static bool
cb_tex(void *user, struct pan_sim_tex_req *req, char *err)
{
   tex_seen = *req;
   for (unsigned i = 0; i < PAN_SIM_TEX_QUAD; ++i) {
      float v[4] = { pan_test_f32(req->coord[i][0]),
                     pan_test_f32(req->coord[i][1]), (float)req->layer[i],
                     req->dim == PAN_SIM_TEX_CUBE ? (float)req->face[i]
                                                  : req->lod[i] };
      for (unsigned c = 0; c < 4; ++c)
         req->out[i][c] = pan_test_u32(v[c]);
   }
   return req->regfmt == 1;
}

/* colour = texture(VAR0.xy, layer 2, LOD 1.5) from a 2D array, or a cube
 * map at direction (VAR0.x, VAR0.y, 4). */
static void
test_texture(void)
{
   for (unsigned cube = 0; cube < 2; ++cube) {
      nir_builder b = nir_builder_init_simple_shader(
         MESA_SHADER_FRAGMENT, &pan_va_nir_options, "bi_tex");
      nir_variable *v0 =
         io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
      nir_variable *col =
         io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "c");
      nir_ssa_def *v = nir_load_var(&b, v0);
      nir_ssa_def *coord =
         nir_vec3(&b, nir_channel(&b, v, 0), nir_channel(&b, v, 1),
                  nir_imm_float(&b, cube ? 4.0f : 2.0f));
      nir_tex_instr *t = nir_tex_instr_create(b.shader, cube ? 1 : 2);
      t->op = cube ? nir_texop_tex : nir_texop_txl;
      t->sampler_dim = cube ? GLSL_SAMPLER_DIM_CUBE : GLSL_SAMPLER_DIM_2D;
      t->is_array = !cube;
      t->texture_index = 9; /* beyond TEXS_2D's indices */
      t->sampler_index = 3;
      t->coord_components = 3;
      t->dest_type = nir_type_float32;
      t->src[0].src_type = nir_tex_src_coord;
      t->src[0].src = nir_src_for_ssa(coord);
      if (!cube) {
         t->src[1].src_type = nir_tex_src_lod;
         t->src[1].src = nir_src_for_ssa(nir_imm_float(&b, 1.5f));
      }
      nir_ssa_dest_init(&t->instr, &t->dest, 4, 32, NULL);
      nir_builder_instr_insert(&b, &t->instr);
      nir_store_var(&b, col, &t->dest.ssa, 0xf);

      struct pan_bi_binary bin;
      void *ctx = ralloc_context(NULL);
      static struct gfx_record rec;
      memset(&rec, 0, sizeof(rec));
      uint32_t u[16] = { 0 };
      const struct pan_sim_tex_ops tex = { NULL, cb_tex };
      bool ok = compile(b.shader, NULL, ctx, &bin) &&
                run_gfx_tex(&bin, u, &rec, &tex);
      PAN_CHECK(!ok || (tex_seen.texture == 9 && tex_seen.sampler == 3 &&
                        tex_seen.array == !cube),
                "cube %u: texture %u sampler %u array %u", cube,
                tex_seen.texture, tex_seen.sampler, tex_seen.array);
      for (unsigned l = 0; ok && l < BI_LANES; ++l) {
         /* VAR0 at lane l: (l / 8, l / 8 + 1 / 4) (cb_ld_var). */
         float x = l / 8.0f, y = l / 8.0f + 0.25f;
         /* +Z face (4): s = x / 8 + 0.5, t = -y / 8 + 0.5. */
         float want[4] = { cube ? x / 8 + 0.5f : x, cube ? -y / 8 + 0.5f : y,
                           cube ? 0 : 2, cube ? 4 : 1.5f };
         for (unsigned c = 0; c < 4; ++c) {
            float got = pan_test_f32(rec.colour[l][c]);
            PAN_CHECK(fabsf(got - want[c]) <= 1e-6f,
                      "cube %u lane %u word %u: %g, expected %g", cube, l, c,
                      got, want[c]);
         }
      }
      ralloc_free(ctx);
      ralloc_free(b.shader);
   }
}

/* pan_bi_message_preload on IR: a 2D lookup at words 0-1 of varying 3
 * becomes VAR_TEX preload 0 (its load, read by nothing else, goes), the
 * next varying load LD_VAR preload 1; a third load and a lookup whose
 * sampler is not its texture stay messages.  Then a lookup of a slot
 * beyond VAR_TEX's 3-bit record. */
static void
test_message_preload_ir(void)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_builder b = pan_ir_builder_at_end(s, pan_ir_block_create(s));
   pan_ir_index r61 = pan_ir_preload(&b, 61);
   pan_ir_index uv = pan_ir_ld_var(&b, 2, 3, r61);
   pan_ir_index xy = pan_ir_collect(
      &b, 2, (pan_ir_index[]){ pan_ir_word(uv, 0), pan_ir_word(uv, 1) });
   pan_ir_index t = pan_ir_texs_2d(&b, 1 | 1 << 8, pan_ir_word(xy, 0),
                                   pan_ir_word(xy, 1));
   pan_ir_index a = pan_ir_ld_var(&b, 3, 12, r61);
   pan_ir_index c = pan_ir_ld_var(&b, 1, 13, r61);
   pan_ir_index t2 = pan_ir_texs_2d(&b, 1 | 2 << 8, pan_ir_word(a, 0),
                                    pan_ir_word(a, 1));
   pan_ir_index sum = pan_ir_fadd(&b, pan_ir_word(t, 2), pan_ir_word(a, 2));
   sum = pan_ir_fadd(&b, sum, c);
   sum = pan_ir_fadd(&b, sum, pan_ir_word(t2, 0));
   pan_ir_store_global(
      &b, 0, sum,
      pan_ir_collect(&b, 2, (pan_ir_index[]){ pan_ir_imm(0), pan_ir_imm(0) }));

   struct pan_bi_message_preload m[2];
   PAN_CHECK(pan_bi_message_preload(s, m) == 2, "two preloads");
   PAN_CHECK(m[0].texture && m[0].varying == 3 && m[0].comps == 4 &&
                m[0].texture_index == 1 && !m[0].zero_lod,
             "VAR_TEX preload: texture %u varying %u comps %u index %u",
             m[0].texture, m[0].varying, m[0].comps, m[0].texture_index);
   PAN_CHECK(!m[1].texture && m[1].varying == 12 && m[1].comps == 3,
             "LD_VAR preload: texture %u varying %u comps %u", m[1].texture,
             m[1].varying, m[1].comps);
   char *got = pan_ir_shader_to_string(s, s);
   const char *want = "block0:\n"
                      "   %0 = preload imm:0x3d\n"
                      "   %11 = preload imm:0x0\n"
                      "   %12 = preload imm:0x1\n"
                      "   %13 = preload imm:0x2\n"
                      "   %14 = preload imm:0x3\n"
                      "   %3:4 = collect %11, %12, %13, %14\n"
                      "   %15 = preload imm:0x4\n"
                      "   %16 = preload imm:0x5\n"
                      "   %17 = preload imm:0x6\n"
                      "   %4:3 = collect %15, %16, %17\n"
                      "   %5 = ld_var %0, imm:0xd\n"
                      "   %6:4 = texs_2d %4, %4.1, imm:0x201\n"
                      "   %7 = fadd %3.2, %4.2\n"
                      "   %8 = fadd %7, %5\n"
                      "   %9 = fadd %8, %6\n"
                      "   %10:2 = collect #0x0, #0x0\n"
                      "   store_global %9, %10:2, imm:0x0\n";
   PAN_CHECK(!strcmp(got, want), "after message preload:\n%s", got);
   ralloc_free(s);

   /* A lookup at slot 9 goes through record 1, the first below 8 that no
    * load names (loads of 0 and 2 stay: only one lookup qualifies). */
   s = pan_ir_shader_create(NULL);
   b = pan_ir_builder_at_end(s, pan_ir_block_create(s));
   r61 = pan_ir_preload(&b, 61);
   uv = pan_ir_ld_var(&b, 2, 9, r61);
   t = pan_ir_texs_2d(&b, 0, pan_ir_word(uv, 0), pan_ir_word(uv, 1));
   a = pan_ir_ld_var_flat(&b, 1, 0, r61);
   c = pan_ir_ld_var(&b, 1, 2, r61);
   sum = pan_ir_fadd(&b, pan_ir_word(t, 0), a);
   sum = pan_ir_fadd(&b, sum, c);
   pan_ir_store_global(
      &b, 0, sum,
      pan_ir_collect(&b, 2, (pan_ir_index[]){ pan_ir_imm(0), pan_ir_imm(0) }));
   PAN_CHECK(pan_bi_message_preload(s, m) == 2, "two preloads");
   PAN_CHECK(m[0].texture && m[0].varying == 1 && m[0].slot == 9,
             "VAR_TEX of slot 9: record %u slot %u", m[0].varying, m[0].slot);
   PAN_CHECK(!m[1].texture && m[1].varying == 2 && m[1].slot == 2,
             "LD_VAR of slot 2: record %u slot %u", m[1].varying, m[1].slot);
   ralloc_free(s);
}

/* colour = texture(sampler 2, VAR0.xy) on G52: a VAR_TEX message preload
 * (no texture or varying message left in the program) whose result the
 * colour is, as the renderer state has the hardware compute it; also when
 * the front end marks the shader for sample shading (GLSL does when it
 * reads its outputs back): its input has no sample qualifier. */
static void
var_tex_preload(bool sample)
{
   nir_builder b = nir_builder_init_simple_shader(
      MESA_SHADER_FRAGMENT, &pan_va_nir_options, "bi_var_tex");
   b.shader->info.fs.uses_sample_shading = sample;
   nir_variable *v0 =
      io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
   nir_variable *col =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "c");
   nir_ssa_def *v = nir_load_var(&b, v0);
   nir_tex_instr *t = nir_tex_instr_create(b.shader, 1);
   t->op = nir_texop_tex;
   t->sampler_dim = GLSL_SAMPLER_DIM_2D;
   t->texture_index = 2;
   t->sampler_index = 2;
   t->coord_components = 2;
   t->dest_type = nir_type_float32;
   t->src[0].src_type = nir_tex_src_coord;
   t->src[0].src = nir_src_for_ssa(nir_channels(&b, v, 3));
   nir_ssa_dest_init(&t->instr, &t->dest, 4, 32, NULL);
   nir_builder_instr_insert(&b, &t->instr);
   nir_store_var(&b, col, &t->dest.ssa, 0xf);

   struct pan_bi_binary bin;
   void *ctx = ralloc_context(NULL);
   static struct gfx_record rec;
   memset(&rec, 0, sizeof(rec));
   uint32_t u[16] = { 0 };
   const struct pan_sim_tex_ops tex = { NULL, cb_tex };
   bool ok = compile(b.shader, NULL, ctx, &bin);
   PAN_CHECK(!ok || (bin.messages[0].texture && bin.messages[0].varying == 0 &&
                     bin.messages[0].texture_index == 2 &&
                     !bin.messages[1].comps),
             "sample %u: messages: texture %u varying %u index %u, second "
             "%u words",
             sample, bin.messages[0].texture, bin.messages[0].varying,
             bin.messages[0].texture_index, bin.messages[1].comps);
   PAN_CHECK(!ok || (!bin.stats.msg_tex && !bin.stats.msg_vary),
             "sample %u: %u texture and %u varying messages left", sample,
             bin.stats.msg_tex, bin.stats.msg_vary);
   ok = ok && run_gfx_tex(&bin, u, &rec, &tex);
   PAN_CHECK(!ok || (tex_seen.texture == 2 && tex_seen.sampler == 2),
             "texture %u sampler %u", tex_seen.texture, tex_seen.sampler);
   for (unsigned l = 0; ok && l < BI_LANES; ++l) {
      /* VAR0 at lane l: (l / 8, l / 8 + 1 / 4) (cb_ld_var). */
      float want[2] = { l / 8.0f, l / 8.0f + 0.25f };
      for (unsigned c = 0; c < 2; ++c) {
         float got = pan_test_f32(rec.colour[l][c]);
         PAN_CHECK(got == want[c], "lane %u word %u: %g, expected %g", l, c,
                   got, want[c]);
      }
   }
   ralloc_free(ctx);
   ralloc_free(b.shader);
}

static void
test_var_tex_preload(void)
{
   var_tex_preload(false);
   var_tex_preload(true);
}

/* A unit whose result tells which lookup it is: the coordinates, then
 * the texture and sampler indices. */
static bool
cb_tex_indices(void *user, struct pan_sim_tex_req *req, char *err)
{
   for (unsigned i = 0; i < PAN_SIM_TEX_QUAD; ++i) {
      float v[4] = { pan_test_f32(req->coord[i][0]),
                     pan_test_f32(req->coord[i][1]), (float)req->texture,
                     (float)req->sampler };
      for (unsigned c = 0; c < 4; ++c)
         req->out[i][c] = pan_test_u32(v[c]);
   }
   return req->regfmt == 1;
}

/* colour = 10 * texture(t1/s2, VAR0.xy) + texture(t3/s0, VAR0.xy) on G72
 * and G52: one dual TEXC message for both lookups (their samplers are not
 * their textures, so no v7 preload takes them), each result where the
 * shader reads it. */
static void
test_dual_tex(void)
{
   for (unsigned arch = 6; arch <= 7; ++arch) {
      nir_builder b = nir_builder_init_simple_shader(
         MESA_SHADER_FRAGMENT, &pan_va_nir_options, "bi_dual_tex");
      nir_variable *v0 =
         io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
      nir_variable *col =
         io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "c");
      nir_ssa_def *xy = nir_channels(&b, nir_load_var(&b, v0), 3);
      nir_ssa_def *r[2];
      for (unsigned k = 0; k < 2; ++k) {
         nir_tex_instr *t = nir_tex_instr_create(b.shader, 1);
         t->op = nir_texop_tex;
         t->sampler_dim = GLSL_SAMPLER_DIM_2D;
         t->texture_index = k ? 3 : 1;
         t->sampler_index = k ? 0 : 2;
         t->coord_components = 2;
         t->dest_type = nir_type_float32;
         t->src[0].src_type = nir_tex_src_coord;
         t->src[0].src = nir_src_for_ssa(xy);
         nir_ssa_dest_init(&t->instr, &t->dest, 4, 32, NULL);
         nir_builder_instr_insert(&b, &t->instr);
         r[k] = &t->dest.ssa;
      }
      nir_store_var(&b, col, nir_ffma(&b, r[0], nir_imm_float(&b, 10), r[1]),
                    0xf);

      struct pan_bi_binary bin;
      void *ctx = ralloc_context(NULL);
      static struct gfx_record rec;
      memset(&rec, 0, sizeof(rec));
      uint32_t u[16] = { 0 };
      struct pan_bi_compile_options opts = { .arch = arch };
      const struct pan_sim_tex_ops tex = { NULL, cb_tex_indices };
      bool ok = compile(b.shader, &opts, ctx, &bin);
      PAN_CHECK(!ok || bin.stats.msg_tex == 1,
                "v%u: %u texture messages, expected one", arch,
                bin.stats.msg_tex);
      ok = ok && arch == 7 && run_gfx_tex(&bin, u, &rec, &tex);
      for (unsigned l = 0; ok && l < BI_LANES; ++l) {
         /* VAR0 at lane l: (l / 8, l / 8 + 1 / 4) (cb_ld_var). */
         float x = l / 8.0f, y = l / 8.0f + 0.25f;
         float want[4] = { 11 * x, 11 * y, 10 * 1 + 3, 10 * 2 + 0 };
         for (unsigned c = 0; c < 4; ++c) {
            float got = pan_test_f32(rec.colour[l][c]);
            PAN_CHECK(fabsf(got - want[c]) <= 1e-5f,
                      "lane %u word %u: %g, expected %g", l, c, got,
                      want[c]);
         }
      }
      ralloc_free(ctx);
      ralloc_free(b.shader);
   }
}

/* colour = a + 10 b + 100 c, three lookups (textures = samplers 0, 1, 2)
 * at VAR0.xy on G52: the first is a VAR_TEX preload, the other two one
 * dual message, and the second preload is the coordinates' load (two
 * VAR_TEX preloads would leave a texture and a varying message). */
static void
test_preload_dual_tex(void)
{
   nir_builder b = nir_builder_init_simple_shader(
      MESA_SHADER_FRAGMENT, &pan_va_nir_options, "bi_preload_dual");
   nir_variable *v0 =
      io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
   nir_variable *col =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "c");
   nir_ssa_def *xy = nir_channels(&b, nir_load_var(&b, v0), 3);
   nir_ssa_def *sum = NULL;
   for (unsigned k = 0; k < 3; ++k) {
      nir_tex_instr *t = nir_tex_instr_create(b.shader, 1);
      t->op = nir_texop_tex;
      t->sampler_dim = GLSL_SAMPLER_DIM_2D;
      t->texture_index = k;
      t->sampler_index = k;
      t->coord_components = 2;
      t->dest_type = nir_type_float32;
      t->src[0].src_type = nir_tex_src_coord;
      t->src[0].src = nir_src_for_ssa(xy);
      nir_ssa_dest_init(&t->instr, &t->dest, 4, 32, NULL);
      nir_builder_instr_insert(&b, &t->instr);
      nir_ssa_def *w = nir_fmul_imm(&b, &t->dest.ssa, k == 0 ? 1 : k == 1 ? 10 : 100);
      sum = sum ? nir_fadd(&b, sum, w) : w;
   }
   nir_store_var(&b, col, sum, 0xf);

   struct pan_bi_binary bin;
   void *ctx = ralloc_context(NULL);
   static struct gfx_record rec;
   memset(&rec, 0, sizeof(rec));
   uint32_t u[16] = { 0 };
   const struct pan_sim_tex_ops tex = { NULL, cb_tex_indices };
   bool ok = compile(b.shader, NULL, ctx, &bin);
   PAN_CHECK(!ok || (bin.messages[0].texture && !bin.messages[1].texture &&
                     bin.messages[1].comps),
             "preloads: texture %u, then texture %u of %u words",
             bin.messages[0].texture, bin.messages[1].texture,
             bin.messages[1].comps);
   PAN_CHECK(!ok || (bin.stats.msg_tex == 1 && !bin.stats.msg_vary),
             "%u texture and %u varying messages, expected 1 and 0",
             bin.stats.msg_tex, bin.stats.msg_vary);
   ok = ok && run_gfx_tex(&bin, u, &rec, &tex);
   for (unsigned l = 0; ok && l < BI_LANES; ++l) {
      float x = l / 8.0f, y = l / 8.0f + 0.25f;
      float want[4] = { 111 * x, 111 * y, 210, 210 };
      for (unsigned c = 0; c < 4; ++c) {
         float got = pan_test_f32(rec.colour[l][c]);
         PAN_CHECK(fabsf(got - want[c]) <= 1e-4f,
                   "lane %u word %u: %g, expected %g", l, c, got, want[c]);
      }
   }
   ralloc_free(ctx);
   ralloc_free(b.shader);
}

/* Results of the recording unit for gathers and offsets: word c of a
 * gather is 10 + c (the hardware's raster order), of a fetch the lane's
 * x and y offsets, level and x coordinate. */
static bool
cb_tex_offsets(void *user, struct pan_sim_tex_req *req, char *err)
{
   tex_seen = *req;
   for (unsigned i = 0; i < PAN_SIM_TEX_QUAD; ++i) {
      float v[4] = { 10, 11, 12, 13 };
      if (req->op == PAN_SIM_TEX_FETCH) {
         v[0] = req->offset ? req->offsets[i][0] : 99;
         v[1] = req->offset ? req->offsets[i][1] : 99;
         v[2] = (float)req->level[i];
         v[3] = (float)req->coord[i][0];
      }
      for (unsigned c = 0; c < 4; ++c)
         req->out[i][c] = pan_test_u32(v[c]);
   }
   return req->regfmt == 1;
}

/* colour = textureGatherOffset(VAR0.xy, (-3, 5), component 2), and
 * texelFetchOffset((3, 1), level 1, offset (lane, -1)): TEXC gathers
 * through the fetch operation, the offsets in their own staging word
 * (the fetch's level moves to the LOD word), and the gather's words are
 * put in GL's order. */
static void
test_gather_offsets(void)
{
   for (unsigned fetch = 0; fetch < 2; ++fetch) {
      nir_builder b = nir_builder_init_simple_shader(
         MESA_SHADER_FRAGMENT, &pan_va_nir_options, "bi_tg4");
      nir_variable *v0 =
         io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
      nir_variable *col =
         io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "c");
      nir_ssa_def *v = nir_load_var(&b, v0);
      nir_tex_instr *t = nir_tex_instr_create(b.shader, 2 + fetch);
      t->op = fetch ? nir_texop_txf : nir_texop_tg4;
      t->sampler_dim = GLSL_SAMPLER_DIM_2D;
      t->texture_index = 5;
      t->sampler_index = 2;
      t->coord_components = 2;
      t->component = fetch ? 0 : 2;
      t->dest_type = nir_type_float32;
      t->src[0].src_type = nir_tex_src_coord;
      t->src[0].src = nir_src_for_ssa(fetch ? nir_imm_ivec2(&b, 3, 1)
                                            : nir_channels(&b, v, 3));
      t->src[1].src_type = nir_tex_src_offset;
      t->src[1].src = nir_src_for_ssa(
         fetch ? nir_vec2(&b,
                          nir_f2i32(&b, nir_fmul_imm(&b, nir_channel(&b, v, 0),
                                                     8.0)),
                          nir_imm_int(&b, -1))
               : nir_imm_ivec2(&b, -3, 5));
      if (fetch) {
         t->src[2].src_type = nir_tex_src_lod;
         t->src[2].src = nir_src_for_ssa(nir_imm_int(&b, 1));
      }
      nir_ssa_dest_init(&t->instr, &t->dest, 4, 32, NULL);
      nir_builder_instr_insert(&b, &t->instr);
      nir_store_var(&b, col, &t->dest.ssa, 0xf);

      struct pan_bi_binary bin;
      void *ctx = ralloc_context(NULL);
      static struct gfx_record rec;
      memset(&rec, 0, sizeof(rec));
      uint32_t u[16] = { 0 };
      const struct pan_sim_tex_ops tex = { NULL, cb_tex_offsets };
      bool ok = compile(b.shader, NULL, ctx, &bin) &&
                run_gfx_tex(&bin, u, &rec, &tex);
      PAN_CHECK(ok, "fetch %u: the program did not run", fetch);
      /* A fetch uses no sampler: index 0. */
      PAN_CHECK(!ok || (tex_seen.texture == 5 &&
                        tex_seen.sampler == (fetch ? 0 : 2) && tex_seen.offset),
                "fetch %u: texture %u sampler %u offsets %u", fetch,
                tex_seen.texture, tex_seen.sampler, tex_seen.offset);
      if (ok && !fetch) {
         PAN_EXPECT_EQ(tex_seen.op, PAN_SIM_TEX_GATHER);
         PAN_EXPECT_EQ(tex_seen.gather_comp, 2);
         PAN_EXPECT(tex_seen.offsets[0][0] == -3 &&
                    tex_seen.offsets[0][1] == 5);
      }
      for (unsigned l = 0; ok && l < BI_LANES; ++l) {
         /* GL's x, y, z, w are the hardware's words 2, 3, 1, 0. */
         float want[4] = { 12, 13, 11, 10 };
         if (fetch) {
            want[0] = (float)l;
            want[1] = -1;
            want[2] = 1;
            want[3] = 3;
         }
         for (unsigned c = 0; c < 4; ++c) {
            float got = pan_test_f32(rec.colour[l][c]);
            PAN_CHECK(got == want[c], "fetch %u lane %u word %u: %g, want %g",
                      fetch, l, c, got, want[c]);
         }
      }
      ralloc_free(ctx);
      ralloc_free(b.shader);
   }
}

/* The recording unit for buffer fetches: the lane's x coordinate, its
 * level, the dimension and 7. */
static bool
cb_tex_buffer(void *user, struct pan_sim_tex_req *req, char *err)
{
   tex_seen = *req;
   for (unsigned i = 0; i < PAN_SIM_TEX_QUAD; ++i) {
      float v[4] = { (float)req->coord[i][0], (float)req->level[i],
                     (float)req->dim, 7 };
      for (unsigned c = 0; c < 4; ++c)
         req->out[i][c] = pan_test_u32(v[c]);
   }
   return req->regfmt == 1;
}

/* colour = (texelFetch(samplerBuffer 6, int(VAR0.x * 8) + 65000).xyz,
 * textureSize(samplerBuffer 6)): a TEXC fetch of a 1D texture at level
 * 0, and the size the driver pushes for texture 6. */
static void
test_buffer_texture(void)
{
   nir_builder b = nir_builder_init_simple_shader(
      MESA_SHADER_FRAGMENT, &pan_va_nir_options, "bi_tbo");
   nir_variable *v0 =
      io_var(b.shader, nir_var_shader_in, VARYING_SLOT_VAR0, 0, "v0");
   nir_variable *col =
      io_var(b.shader, nir_var_shader_out, FRAG_RESULT_DATA0, 0, "c");
   nir_ssa_def *x = nir_iadd_imm(
      &b, nir_f2i32(&b, nir_fmul_imm(&b, nir_channel(&b, nir_load_var(&b, v0),
                                                     0),
                                     8.0)),
      65000);
   nir_tex_instr *t = nir_tex_instr_create(b.shader, 2);
   t->op = nir_texop_txf;
   t->sampler_dim = GLSL_SAMPLER_DIM_BUF;
   t->texture_index = 6;
   t->sampler_index = 6;
   t->coord_components = 1;
   t->dest_type = nir_type_float32;
   t->src[0].src_type = nir_tex_src_coord;
   t->src[0].src = nir_src_for_ssa(x);
   t->src[1].src_type = nir_tex_src_lod;
   t->src[1].src = nir_src_for_ssa(nir_imm_int(&b, 0));
   nir_ssa_dest_init(&t->instr, &t->dest, 4, 32, NULL);
   nir_builder_instr_insert(&b, &t->instr);
   nir_tex_instr *q = nir_tex_instr_create(b.shader, 1);
   q->op = nir_texop_txs;
   q->sampler_dim = GLSL_SAMPLER_DIM_BUF;
   q->texture_index = 6;
   q->dest_type = nir_type_int32;
   q->src[0].src_type = nir_tex_src_lod;
   q->src[0].src = nir_src_for_ssa(nir_imm_int(&b, 0));
   nir_ssa_dest_init(&q->instr, &q->dest, 1, 32, NULL);
   nir_builder_instr_insert(&b, &q->instr);
   nir_ssa_def *f = &t->dest.ssa;
   nir_store_var(&b, col,
                 nir_vec4(&b, nir_channel(&b, f, 0), nir_channel(&b, f, 1),
                          nir_channel(&b, f, 2),
                          nir_i2f32(&b, &q->dest.ssa)),
                 0xf);

   struct pan_bi_binary bin;
   void *ctx = ralloc_context(NULL);
   static struct gfx_record rec;
   memset(&rec, 0, sizeof(rec));
   uint32_t u[16] = { 0 };
   const struct pan_sim_tex_ops tex = { NULL, cb_tex_buffer };
   bool ok = compile(b.shader, NULL, ctx, &bin);
   unsigned sizes = 0;
   for (unsigned i = 0; ok && i < bin.nr_push && i < 16; ++i) {
      if (bin.push[i].source == PAN_VA_PUSH_TEXTURE_SIZE) {
         PAN_EXPECT(bin.push[i].ubo == 6 && bin.push[i].offset_B == 0);
         u[i] = 4321; /* the view's texels */
         sizes++;
      }
   }
   PAN_EXPECT_EQ(sizes, 1);
   ok = ok && run_gfx_tex(&bin, u, &rec, &tex);
   PAN_CHECK(ok, "the program did not run");
   PAN_CHECK(!ok || (tex_seen.op == PAN_SIM_TEX_FETCH &&
                     tex_seen.texture == 6 && tex_seen.sampler == 0 &&
                     !tex_seen.array && !tex_seen.offset),
             "op %u texture %u sampler %u array %u offsets %u", tex_seen.op,
             tex_seen.texture, tex_seen.sampler, tex_seen.array,
             tex_seen.offset);
   for (unsigned l = 0; ok && l < BI_LANES; ++l) {
      float want[4] = { 65000.0f + l, 0, PAN_SIM_TEX_1D, 4321 };
      for (unsigned c = 0; c < 4; ++c) {
         float got = pan_test_f32(rec.colour[l][c]);
         PAN_CHECK(got == want[c], "lane %u word %u: %g, want %g", l, c, got,
                   want[c]);
      }
   }
   ralloc_free(ctx);
   ralloc_free(b.shader);
}

/* out = x + q(p), where the chain q of a parameter does not need the
 * load of x: the scheduler keeps the load's clause open for it. */
static nir_builder
sched_shader(void)
{
   nir_builder b = begin("bi_sched");
   nir_ssa_def *x = input(&b, 1);
   nir_ssa_def *q = param(&b, 4);
   for (unsigned k = 0; k < 6; ++k)
      q = nir_ixor(&b, nir_imul_imm(&b, q, 2 * k + 3),
                   nir_ushr_imm(&b, q, k + 1));
   output(&b, nir_iadd(&b, x, q));
   return b;
}

static uint32_t
sched_ref(uint32_t x, uint32_t q)
{
   for (unsigned k = 0; k < 6; ++k)
      q = (q * (2 * k + 3)) ^ (q >> (k + 1));
   return x + q;
}

static void
test_schedule(void)
{
   nir_builder b = sched_shader();
   struct pan_bi_binary bin;
   void *ctx = ralloc_context(NULL);
   if (compile(b.shader, NULL, ctx, &bin)) {
      /* Some tuple follows the load in its clause. */
      char *text = disassembly(&bin);
      const char *cl = strstr(text, "msg=load");
      const char *ld = cl ? strstr(cl, "load.i32") : NULL;
      const char *next = ld ? strchr(ld, '\n') : NULL;
      PAN_CHECK(next && !strncmp(next + 1, "    ", 4) &&
                   strncmp(next + 1, "    const", 9),
                "the load ends its clause\n%s", text);
      free(text);
   }
   ralloc_free(ctx);
   ralloc_free(b.shader);

   b = sched_shader();
   uint32_t in[BI_LANES], out[BI_LANES], prm[1];
   random_words(in, BI_LANES);
   random_words(prm, 1);
   if (!run(&b, in, BI_LANES, prm, 1, out, BI_LANES))
      return;
   for (unsigned l = 0; l < BI_LANES; ++l) {
      uint32_t want = sched_ref(in[l], prm[0]);
      PAN_CHECK(out[l] == want, "sched lane %u: 0x%08x, expected 0x%08x", l,
                out[l], want);
   }
}

/* Constant pairs whose top bits differ: a pair of a constant quadword
 * must not read as modified (the top 4 stored bits of its two constants
 * differ by 1-7 mod 16: PC-relative, or reserved for 3), which the
 * scheduler ensures by ordering the pair.  The addends' top bits
 * alternate (0x4..., 0x3...), so that neighbouring clause constants
 * differ there whatever pairs the clause layout makes. */
static const float pair_k[8][2] = {
   { 3.0f, 100.0f },  { -7.5f, 0.375f }, { 1e6f, 40.0f },  { 0.5f, 0.0625f },
   { 1e-3f, 2.0f },   { 9.0f, 0.25f },   { -0.125f, 5.0f }, { 0.75f, 0.125f },
};

static float
pair_ref(float x)
{
   float r = 0;
   for (unsigned i = 0; i < 8; ++i)
      r += fmaf(x, pair_k[i][0], pair_k[i][1]);
   return r;
}

/* Number of constant pairs in bin with distinct nonzero top bits; fails
 * on a pair that would read as modified. */
static unsigned
check_const_pairs(const struct pan_bi_binary *bin)
{
   unsigned q = 0, nr_quads = bin->nr_words / 2, tested = 0;
   while (q < nr_quads) {
      struct bi_clause c;
      unsigned used = bi_unpack_clause(bin->words + 2 * q, nr_quads - q, &c);
      PAN_CHECK(used, "no clause at quadword %u", q);
      if (!used)
         break;
      for (unsigned k = bi_ec0_packed(c.nr_tuples); k + 1 < c.nr_consts;
           k += 2) {
         unsigned a = (c.consts[k] >> 56) & 0xf, b = c.consts[k + 1] >> 56;
         unsigned m = (a - b) & 0xf;
         PAN_CHECK(m == 0 || m >= 8,
                   "quadword %u: constants 0x%" PRIx64 " 0x%" PRIx64
                   " read as modified (M %u)",
                   q, c.consts[k], c.consts[k + 1], m);
         tested += a != b && a && b;
      }
      q += used;
   }
   return tested;
}

static void
test_const_pairs(void)
{
   nir_builder b = begin("bi_const_pairs");
   nir_ssa_def *x = input(&b, 1), *r = NULL;
   for (unsigned i = 0; i < 8; ++i) {
      nir_ssa_def *t = nir_ffma(&b, x, nir_imm_float(&b, pair_k[i][0]),
                                nir_imm_float(&b, pair_k[i][1]));
      r = r ? nir_fadd(&b, r, t) : t;
   }
   output(&b, r);
   struct pan_bi_binary bin;
   void *ctx = ralloc_context(NULL);
   if (compile(nir_shader_clone(ctx, b.shader), NULL, ctx, &bin)) {
      unsigned tested = check_const_pairs(&bin);
      PAN_CHECK(tested >= 1, "no pair of distinct top bits (%u)", tested);
   }
   ralloc_free(ctx);

   uint32_t in[BI_LANES], out[BI_LANES];
   for (unsigned l = 0; l < BI_LANES; ++l)
      in[l] = pan_test_u32((float)l - 3.5f);
   if (!run(&b, in, BI_LANES, NULL, 0, out, BI_LANES))
      return;
   for (unsigned l = 0; l < BI_LANES; ++l) {
      float want = pair_ref((float)l - 3.5f), got = pan_test_f32(out[l]);
      PAN_CHECK(fabsf(got - want) <= 1e-5f * fabsf(want) + 1e-3f,
                "const pairs lane %u: %g, expected %g", l, got, want);
   }
}

/* A chain of reciprocals of multiply-adds: each FMA result is read only
 * by the FRCP paired with it (through t) and its register is reused
 * after, so some tuple leaves the FMA result unwritten (t0 in the
 * disassembly); the chain still computes the right values. */
static void
test_dead_write(void)
{
   nir_builder b = begin("bi_dead_write");
   nir_ssa_def *v = input(&b, 1);
   for (unsigned k = 0; k < 4; ++k)
      v = nir_frcp(&b, nir_ffma(&b, v, nir_imm_float(&b, 0.5f + k),
                                nir_imm_float(&b, 2.0f)));
   output(&b, v);
   struct pan_bi_binary bin;
   void *ctx = ralloc_context(NULL);
   if (compile(nir_shader_clone(ctx, b.shader), NULL, ctx, &bin)) {
      char *text = disassembly(&bin);
      bool found = false;
      for (const char *at = text; !found && (at = strstr(at, "fma.f32 t0,"));
           at++) {
         const char *eol = strchr(at, '\n'), *bar = strchr(at, '|');
         found = bar && (!eol || bar < eol) && !strncmp(bar, "| frcp", 6);
      }
      PAN_CHECK(found, "no FMA result left unwritten\n%s", text);
      free(text);
   }
   ralloc_free(ctx);

   uint32_t in[BI_LANES], out[BI_LANES];
   for (unsigned l = 0; l < BI_LANES; ++l)
      in[l] = pan_test_u32(1.0f + 0.375f * (float)l);
   if (!run(&b, in, BI_LANES, NULL, 0, out, BI_LANES))
      return;
   for (unsigned l = 0; l < BI_LANES; ++l) {
      double want = pan_test_f32(in[l]);
      for (unsigned k = 0; k < 4; ++k)
         want = 1.0 / (want * (0.5 + k) + 2.0);
      double got = pan_test_f32(out[l]);
      PAN_CHECK(fabs(got - want) <= 16 * want * 0x1p-23,
                "dead write lane %u: %.9g, expected %.9g", l, got, want);
   }
}

/* What Bifrost refuses is an error message, not a crash. */
static void
test_refused(void)
{
   char err[256];
   struct pan_bi_binary bin;
   void *ctx = ralloc_context(NULL);

   nir_builder b = nir_builder_init_simple_shader(
      MESA_SHADER_GEOMETRY, &pan_va_nir_options, "bi_geometry");
   PAN_CHECK(!pan_bi_compile(b.shader, ctx, NULL, &bin, NULL, err,
                             sizeof(err)) &&
                strstr(err, "unsupported on Bifrost"),
             "a geometry shader: %s", err);
   ralloc_free(b.shader);

   ralloc_free(ctx);
}

int
main(void)
{
   glsl_type_singleton_init_or_ref();
   PAN_RUN_CASE(test_int);
   PAN_RUN_CASE(test_float);
   PAN_RUN_CASE(test_f2b);
   PAN_RUN_CASE(test_clamp);
   PAN_RUN_CASE(test_fau_reuse);
   PAN_RUN_CASE(test_csel_cmp);
   PAN_RUN_CASE(test_flow);
   PAN_RUN_CASE(test_phi_uniform);
   PAN_RUN_CASE(test_transcendental);
   PAN_RUN_CASE(test_vertex);
   PAN_RUN_CASE(test_fragment);
   PAN_RUN_CASE(test_push_pairs);
   PAN_RUN_CASE(test_message_preload_ir);
   PAN_RUN_CASE(test_var_tex_preload);
   PAN_RUN_CASE(test_dual_tex);
   PAN_RUN_CASE(test_preload_dual_tex);
   PAN_RUN_CASE(test_depth_stencil_output);
   PAN_RUN_CASE(test_far_slot);
   PAN_RUN_CASE(test_high_slots);
   PAN_RUN_CASE(test_derivative);
   PAN_RUN_CASE(test_texture);
   PAN_RUN_CASE(test_gather_offsets);
   PAN_RUN_CASE(test_buffer_texture);
   PAN_RUN_CASE(test_schedule);
   PAN_RUN_CASE(test_const_pairs);
   PAN_RUN_CASE(test_dead_write);
   PAN_RUN_CASE(test_refused);
   glsl_type_singleton_decref();
   return pan_test_summary("pan_bi_compile");
}
