/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * End to end: nir_builder compute shaders, compiled by our compiler to
 * Valhall words, run on the Valhall interpreter over memory filled with
 * random inputs; every output word is compared with a C reference.
 *
 * Push constants of every shader: u0:u1 input buffer address, u2:u3
 * output buffer address, u4.. parameters.  Lane l runs global
 * invocation id (l, 0, 0) (register r60, the compute ABI).
 */

#include <math.h>
#include <string.h>

#include "compiler/nir/nir_builder.h"
#include "isa/pan_isa_va.h"
#include "pan_compile.h"
#include "pan_sim_va.h"
#include "pan_sim_texture.h"
#include "util/pan_test_util.h"

#define PAN_VA_TEST_MEM_SIZE 2048
#include "pan_compile_test_util.h"

static uint64_t seed = 0x5eedc0de;

/* Options of the next compile, and the size of the last program. */
static struct pan_va_compile_options compile_opts;
static unsigned last_nr_words;

/* Compile b's shader, run one warp with the given inputs and parameters;
 * out receives the output buffer.  Frees the shader. */
/* The texture unit of the runs (test_gather: a recording one). */
static const struct pan_sim_tex_ops *run_tex;

static bool
run(nir_builder *b, const uint32_t *in, unsigned in_words,
    const uint32_t *params, unsigned nr_params, uint32_t *out,
    unsigned out_words)
{
   char err[256];
   struct pan_va_binary bin;
   bool ok = false;
   void *ctx = ralloc_context(NULL);

   if (!pan_va_compile_opts(b->shader, ctx, &compile_opts, &bin, NULL, err,
                            sizeof(err))) {
      pan_test_fail("%s: %s", b->shader->info.name, err);
      goto done;
   }

   last_nr_words = bin.nr_words;
   uint32_t u[16];
   struct mem *m = io_setup(in, in_words, params, nr_params, u);
   struct pan_sim_va_config cfg = sim_config(&bin, m, u, 16);
   cfg.tex = run_tex;
   struct pan_sim_va_warp w;
   compute_warp_init(&w);
   if (pan_sim_va_run(&w, &cfg) != PAN_SIM_VA_DONE) {
      pan_test_fail("%s: fault: %s", b->shader->info.name, w.fault);
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

/* Integer ALU over a buffer indexed by the invocation id. */
static uint32_t
int_ref(uint32_t x, uint32_t y, uint32_t p, uint32_t q)
{
   uint32_t a = x * 3 + p;
   uint32_t sh = (a << (y & 31)) ^ ((uint32_t)((int32_t)x >> 3)) ^ (y >> 5);
   int32_t mn = (int32_t)x < (int32_t)y ? (int32_t)x : (int32_t)y;
   uint32_t mx = x > q ? x : q;
   uint32_t c = ((int32_t)x < (int32_t)y) ? (a - y) : (~x | (y & 0xf0f0));
   return sh + (uint32_t)mn - mx + c + (x == y) + (x >= q ? 7 : 0);
}

static void
test_int_alu(void)
{
   for (unsigned rep = 0; rep < 4; ++rep) {
      nir_builder b = begin("int_alu");
      nir_ssa_def *i = id_x(&b);
      nir_ssa_def *v = load_in(&b, i, 2);
      nir_ssa_def *x = nir_channel(&b, v, 0), *y = nir_channel(&b, v, 1);
      nir_ssa_def *p = param(&b, 4), *q = param(&b, 5);
      nir_ssa_def *a = nir_iadd(&b, nir_imul(&b, x, nir_imm_int(&b, 3)), p);
      nir_ssa_def *sh =
         nir_ixor(&b, nir_ixor(&b, nir_ishl(&b, a, y), nir_ishr_imm(&b, x, 3)),
                  nir_ushr_imm(&b, y, 5));
      nir_ssa_def *c =
         nir_bcsel(&b, nir_ilt(&b, x, y), nir_isub(&b, a, y),
                   nir_ior(&b, nir_inot(&b, x), nir_iand_imm(&b, y, 0xf0f0)));
      nir_ssa_def *r = nir_iadd(&b, sh, nir_imin(&b, x, y));
      r = nir_isub(&b, r, nir_umax(&b, x, q));
      r = nir_iadd(&b, r, c);
      r = nir_iadd(&b, r, nir_b2i32(&b, nir_ieq(&b, x, y)));
      r = nir_iadd(&b, r,
                   nir_bcsel(&b, nir_uge(&b, x, q), nir_imm_int(&b, 7),
                             nir_imm_int(&b, 0)));
      store_out(&b, i, r);

      uint32_t in[2 * LANES], out[LANES], prm[2];
      random_words(in, 2 * LANES);
      random_words(prm, 2);
      in[2] = in[3]; /* lane 1: x == y */
      if (!run(&b, in, 2 * LANES, prm, 2, out, LANES))
         return;
      for (unsigned l = 0; l < LANES; ++l)
         PAN_CHECK(out[l] == int_ref(in[2 * l], in[2 * l + 1], prm[0], prm[1]),
                   "lane %u: 0x%08x, expected 0x%08x", l, out[l],
                   int_ref(in[2 * l], in[2 * l + 1], prm[0], prm[1]));
   }
}

/* Float math, conversions, float compares; a vec4 store. */
static void
test_float(void)
{
   nir_builder b = begin("float");
   nir_ssa_def *i = id_x(&b);
   nir_ssa_def *v = load_in(&b, i, 2);
   nir_ssa_def *x = nir_channel(&b, v, 0), *y = nir_channel(&b, v, 1);
   nir_ssa_def *s = param(&b, 4);
   nir_ssa_def *f0 = nir_fadd(&b, nir_fmul(&b, x, s), nir_fneg(&b, y));
   nir_ssa_def *f1 = nir_fmax(&b, nir_fabs(&b, x), nir_fmin(&b, y, s));
   nir_ssa_def *f2 =
      nir_ffma(&b, nir_fneg(&b, nir_fabs(&b, y)), x, nir_i2f32(&b, i));
   nir_ssa_def *k = nir_iadd(&b, nir_f2i32(&b, nir_fmul_imm(&b, x, 100.0)),
                             nir_b2i32(&b, nir_flt(&b, x, y)));
   k = nir_iadd(&b, k, nir_ishl_imm(&b, nir_b2i32(&b, nir_fge(&b, y, s)), 4));
   k = nir_iadd(&b, k, nir_f2u32(&b, nir_fabs(&b, y)));
   k = nir_iadd(&b, k, nir_ishl_imm(&b, nir_b2i32(&b, nir_feq(&b, x, y)), 8));
   nir_ssa_def *f3 = nir_u2f32(&b, nir_imul(&b, i, nir_imm_int(&b, 1000003)));
   store_out(&b, i,
             nir_vec4(&b, f0, f1, f2, nir_fadd(&b, nir_i2f32(&b, k), f3)));

   uint32_t in[2 * LANES], out[4 * LANES];
   for (unsigned l = 0; l < 2 * LANES; ++l)
      in[l] =
         pan_test_u32(((int)(pan_test_rng64(&seed) % 20001) - 10000) / 97.0f);
   in[6] = in[7]; /* lane 3: x == y */
   float sp = 3.25f;
   uint32_t prm = pan_test_u32(sp);
   if (!run(&b, in, 2 * LANES, &prm, 1, out, 4 * LANES))
      return;
   for (unsigned l = 0; l < LANES; ++l) {
      float x0 = pan_test_f32(in[2 * l]), y0 = pan_test_f32(in[2 * l + 1]);
      volatile float prod = x0 * sp;
      float e[4];
      e[0] = prod + -y0;
      e[1] = fmaxf(fabsf(x0), fminf(y0, sp));
      e[2] = fmaf(-fabsf(y0), x0, (float)l);
      volatile float x100 = x0 * 100.0f;
      int32_t kk = (int32_t)x100 + (x0 < y0) + ((y0 >= sp) << 4) +
                   (int32_t)(uint32_t)fabsf(y0) + ((x0 == y0) << 8);
      e[3] = (float)kk + (float)(uint32_t)(l * 1000003u);
      for (unsigned c = 0; c < 4; ++c)
         PAN_CHECK(out[4 * l + c] == pan_test_u32(e[c]),
                   "lane %u word %u: %g (0x%08x), expected %g", l, c,
                   pan_test_f32(out[4 * l + c]), out[4 * l + c], e[c]);
   }
}

/* if/else on the lane parity, with values merging after. */
static void
test_if_else(void)
{
   nir_builder b = begin("if_else");
   nir_ssa_def *i = id_x(&b);
   nir_ssa_def *x = load_in(&b, i, 1);
   nir_push_if(&b, nir_ieq_imm(&b, nir_iand_imm(&b, i, 1), 0));
   nir_ssa_def *t = nir_imul_imm(&b, x, 5);
   nir_push_else(&b, NULL);
   nir_ssa_def *e = nir_iadd(&b, x, param(&b, 4));
   nir_push_if(&b, nir_ult(&b, x, nir_imm_int(&b, 0x80000000u)));
   nir_ssa_def *e2 = nir_ushr_imm(&b, e, 1);
   nir_pop_if(&b, NULL);
   e = nir_if_phi(&b, e2, e);
   nir_pop_if(&b, NULL);
   nir_ssa_def *r = nir_if_phi(&b, t, e);
   store_out(&b, i, nir_iadd_imm(&b, r, 11));

   uint32_t in[LANES], out[LANES], prm = 0x1234567;
   random_words(in, LANES);
   if (!run(&b, in, LANES, &prm, 1, out, LANES))
      return;
   for (unsigned l = 0; l < LANES; ++l) {
      uint32_t x0 = in[l], ref;
      if (!(l & 1))
         ref = x0 * 5;
      else
         ref = x0 < 0x80000000u ? (x0 + prm) >> 1 : x0 + prm;
      PAN_CHECK(out[l] == ref + 11, "lane %u: 0x%08x, expected 0x%08x", l,
                out[l], ref + 11);
   }
}

/* A loop with a per-lane trip count, a continue and a break. */
static void
test_loop(void)
{
   nir_builder b = begin("loop");
   nir_ssa_def *i = id_x(&b);
   nir_ssa_def *n = nir_iand_imm(&b, load_in(&b, i, 1), 31);
   nir_variable *acc =
      nir_local_variable_create(b.impl, glsl_uint_type(), "acc");
   nir_variable *k = nir_local_variable_create(b.impl, glsl_uint_type(), "k");
   nir_store_var(&b, acc, nir_imm_int(&b, 1), 1);
   nir_store_var(&b, k, nir_imm_int(&b, 0), 1);
   nir_push_loop(&b);
   {
      nir_ssa_def *kv = nir_load_var(&b, k);
      nir_push_if(&b, nir_uge(&b, kv, n));
      nir_jump(&b, nir_jump_break);
      nir_pop_if(&b, NULL);
      nir_store_var(&b, k, nir_iadd_imm(&b, kv, 1), 1);
      nir_push_if(&b, nir_ieq_imm(&b, nir_iand_imm(&b, kv, 3), 2));
      nir_jump(&b, nir_jump_continue);
      nir_pop_if(&b, NULL);
      nir_ssa_def *a = nir_load_var(&b, acc);
      nir_store_var(&b, acc, nir_iadd(&b, nir_imul_imm(&b, a, 3), kv), 1);
   }
   nir_pop_loop(&b, NULL);
   store_out(&b, i, nir_vec2(&b, nir_load_var(&b, acc), nir_load_var(&b, k)));

   uint32_t in[LANES], out[2 * LANES];
   random_words(in, LANES);
   in[0] = 0; /* a lane that never iterates */
   if (!run(&b, in, LANES, NULL, 0, out, 2 * LANES))
      return;
   for (unsigned l = 0; l < LANES; ++l) {
      uint32_t a = 1, kk = 0, nn = in[l] & 31;
      for (;;) {
         if (kk >= nn)
            break;
         uint32_t kv = kk++;
         if ((kv & 3) == 2)
            continue;
         a = a * 3 + kv;
      }
      PAN_CHECK(out[2 * l] == a && out[2 * l + 1] == kk,
                "lane %u: acc 0x%x k %u, expected 0x%x %u", l, out[2 * l],
                out[2 * l + 1], a, kk);
   }
}

/* Integer division and modulo (lowered by NIR to a float reciprocal
 * and multiplies) and the 32-bit boolean conversions of bool uniforms. */
static uint32_t
div_ref(uint32_t x, uint32_t y)
{
   int32_t sx = (int32_t)x, sy = (int32_t)y;
   uint32_t r = x / y + x % y * 3;
   r += (uint32_t)(sx / sy) * 5 + (uint32_t)(sx % sy) * 7;
   uint32_t b1 = x & 1 ? 0 : 0xffffffffu; /* a GL bool: 0 / ~0 */
   r += (b1 != 0) * 11;
   r += ((x & 6) != 0) * 13; /* i2b1, a bool of a uniform block */
   r ^= (x < y) ? 0xffffffffu : 0;
   return r;
}

static void
test_div_bool(void)
{
   nir_builder b = begin("div_bool");
   nir_ssa_def *i = id_x(&b);
   nir_ssa_def *v = load_in(&b, i, 2);
   nir_ssa_def *x = nir_channel(&b, v, 0), *y = nir_channel(&b, v, 1);
   nir_ssa_def *r = nir_iadd(&b, nir_udiv(&b, x, y),
                             nir_imul_imm(&b, nir_umod(&b, x, y), 3));
   r = nir_iadd(&b, r, nir_imul_imm(&b, nir_idiv(&b, x, y), 5));
   r = nir_iadd(&b, r, nir_imul_imm(&b, nir_irem(&b, x, y), 7));
   nir_ssa_def *b32 = nir_bcsel(&b, nir_i2b(&b, nir_iand_imm(&b, x, 1)),
                                nir_imm_int(&b, 0), nir_imm_int(&b, ~0));
   r = nir_iadd(&b, r, nir_imul_imm(&b, nir_b2i32(&b, nir_b2b1(&b, b32)), 11));
   nir_ssa_def *ib = nir_i2b1(&b, nir_iand_imm(&b, x, 6));
   r = nir_iadd(&b, r, nir_imul_imm(&b, nir_b2i32(&b, ib), 13));
   r = nir_ixor(&b, r, nir_b2b32(&b, nir_ult(&b, x, y)));
   store_out(&b, i, r);

   uint32_t in[2 * LANES], out[LANES];
   random_words(in, 2 * LANES);
   for (unsigned l = 0; l < LANES; ++l) {
      /* Small and large operands, both signs; no zero divisor. */
      if (l & 1)
         in[2 * l] %= 1000 * (l + 1);
      if (l & 2)
         in[2 * l + 1] %= 37;
      if (l & 4)
         in[2 * l] = -in[2 * l];
      if (in[2 * l + 1] == 0)
         in[2 * l + 1] = 1;
      if (in[2 * l] == 0x80000000u) /* INT_MIN / -1 overflows */
         in[2 * l] = 0;
   }
   if (!run(&b, in, 2 * LANES, NULL, 0, out, LANES))
      return;
   for (unsigned l = 0; l < LANES; ++l) {
      uint32_t want = div_ref(in[2 * l], in[2 * l + 1]);
      PAN_CHECK(out[l] == want, "lane %u: %u, %u: 0x%08x, expected 0x%08x", l,
                in[2 * l], in[2 * l + 1], out[l], want);
   }
}

/* x % 8 + (x / 16) * 3 + x % 4096, with the divisors constants or
 * parameters. */
static nir_builder
div_pow2_shader(bool constant)
{
   nir_builder b = begin(constant ? "div_pow2" : "div_param");
   nir_ssa_def *i = id_x(&b);
   nir_ssa_def *x = load_in(&b, i, 1);
   nir_ssa_def *d[3];
   for (unsigned k = 0; k < 3; ++k)
      d[k] = constant ? nir_imm_int(&b, (const unsigned[]){ 8, 16, 4096 }[k])
                      : param(&b, 4 + k);
   nir_ssa_def *r = nir_iadd(&b, nir_umod(&b, x, d[0]),
                             nir_imul_imm(&b, nir_udiv(&b, x, d[1]), 3));
   store_out(&b, i, nir_iadd(&b, r, nir_umod(&b, x, d[2])));
   return b;
}

/* Constant divisors are known before division is lowered: a power of
 * two is a shift or a mask, not the reciprocal sequence of a divisor
 * known at run time. */
static void
test_div_pow2(void)
{
   const uint32_t prm[3] = { 8, 16, 4096 };
   uint32_t in[LANES], out[LANES];
   unsigned words[2] = { 0, 0 };

   random_words(in, LANES);
   for (unsigned constant = 0; constant < 2; ++constant) {
      nir_builder b = div_pow2_shader(constant);
      if (!run(&b, in, LANES, prm, 3, out, LANES))
         return;
      words[constant] = last_nr_words;
      for (unsigned l = 0; l < LANES; ++l) {
         uint32_t x = in[l], want = x % 8 + (x / 16) * 3 + x % 4096;
         PAN_CHECK(out[l] == want, "%s lane %u: 0x%x, expected 0x%x",
                   constant ? "constant" : "param", l, out[l], want);
      }
   }
   printf("div: %u words with parameters, %u with powers of two\n", words[0],
          words[1]);
   PAN_CHECK(words[1] * 3 <= words[0],
             "powers of two not much shorter: %u words against %u", words[1],
             words[0]);
}

/* GLSL's bool(float), f2b1: x != 0.0, so -0.0 is false and NaN true. */
static void
test_f2b(void)
{
   static const uint32_t special[] = {
      0x00000000, 0x80000000, 0x3f800000, 0xc0200000, /* 0, -0, 1, -2.5 */
      0x7fc00000, 0x7f800000, 0xff800000, 0x3a83126f, /* NaN, +-inf, 0.001 */
   };
   nir_builder b = begin("f2b");
   nir_ssa_def *i = id_x(&b);
   nir_ssa_def *x = load_in(&b, i, 1);
   store_out(&b, i, nir_b2i32(&b, nir_f2b1(&b, x)));

   uint32_t in[LANES], out[LANES];
   for (unsigned l = 0; l < LANES; ++l) {
      in[l] = l < ARRAY_SIZE(special)
                 ? special[l]
                 : pan_test_u32((float)(int)(pan_test_rng64(&seed) % 2001) -
                                1000.0f);
   }
   if (!run(&b, in, LANES, NULL, 0, out, LANES))
      return;
   for (unsigned l = 0; l < LANES; ++l) {
      uint32_t want = pan_test_f32(in[l]) != 0.0f;
      PAN_CHECK(out[l] == want, "f2b lane %u: bool(0x%08x) = %u, expected %u",
                l, in[l], out[l], want);
   }
}

/* What the slice does not cover fails to compile with a message. */
/* Push constants used by ALU instructions, float and integer. */
static nir_builder
fau_shader(void)
{
   nir_builder b = begin("fau");
   nir_ssa_def *i = id_x(&b);
   nir_ssa_def *x = load_in(&b, i, 1);
   nir_ssa_def *p = param(&b, 4), *q = param(&b, 5), *r = param(&b, 6);
   nir_ssa_def *v = nir_iadd(&b, nir_imul(&b, x, p), q);
   v = nir_ixor(&b, v, r);
   nir_ssa_def *f = nir_fadd(&b, nir_u2f32(&b, x), nir_fneg(&b, p));
   v = nir_iadd(&b, v, nir_f2u32(&b, nir_fmax(&b, f, nir_imm_float(&b, 0))));
   store_out(&b, i, v);
   return b;
}

static uint32_t
fau_ref(uint32_t x, uint32_t p, uint32_t q, uint32_t r)
{
   uint32_t v = ((x * p) + q) ^ r;
   float pf, f = (float)x;
   memcpy(&pf, &p, 4);
   f = f + -pf;
   f = f > 0 ? f : 0;
   return v + (f >= 4294967296.0f ? 0xffffffffu : (uint32_t)f);
}

/* Folding uniforms into sources removes the movs, same results. */
static void
test_fau_fold(void)
{
   uint32_t in[LANES], out[LANES];
   float pf = 3.5f;
   uint32_t params[3] = { 0, 0x01234567, 0x00ff00ff };
   unsigned words[2];

   memcpy(&params[0], &pf, 4);
   random_words(in, LANES);
   for (unsigned l = 0; l < LANES; ++l)
      in[l] &= 0xffff; /* exact in float */
   for (unsigned fold = 0; fold < 2; ++fold) {
      compile_opts.no_fau_fold = !fold;
      nir_builder b = fau_shader();
      memset(out, 0, sizeof(out));
      bool ran = run(&b, in, LANES, params, 3, out, LANES);
      PAN_CHECK(ran, "fau shader (fold %u) did not run", fold);
      words[fold] = last_nr_words;
      for (unsigned l = 0; ran && l < LANES; ++l) {
         uint32_t want = fau_ref(in[l], params[0], params[1], params[2]);
         PAN_CHECK(out[l] == want, "fold %u lane %u: 0x%x, want 0x%x", fold, l,
                   out[l], want);
      }
   }
   compile_opts.no_fau_fold = false;
   printf("fau: %u words without folding, %u with\n", words[0], words[1]);
   PAN_CHECK(words[1] < words[0], "folding did not shorten: %u -> %u", words[0],
             words[1]);
}

/* exp2(x * y), the shape of pow. */
static nir_builder
exp2_product_shader(void)
{
   nir_builder b = begin("exp2_product");
   nir_ssa_def *i = id_x(&b);
   nir_ssa_def *v = load_in(&b, i, 2);
   store_out(&b, i,
             nir_fexp2(&b, nir_fmul(&b, nir_channel(&b, v, 0),
                                    nir_channel(&b, v, 1))));
   return b;
}

/* The product is exp2's fma_rscale operands (pan_va_fuse_rscale.c): no
 * multiply of its own, and the results stay those of exp2f(x * y). */
static void
test_exp2_product(void)
{
   char err[256];
   struct pan_va_binary bin;
   void *ctx = ralloc_context(NULL);
   nir_builder b = exp2_product_shader();
   if (!pan_va_compile_opts(b.shader, ctx, NULL, &bin, NULL, err,
                            sizeof(err))) {
      pan_test_fail("exp2_product: %s", err);
   } else {
      char *text = NULL;
      size_t size = 0;
      FILE *fp = open_memstream(&text, &size);
      pan_va_disassemble(bin.words, bin.nr_words * 8, fp, false, NULL, 0);
      fclose(fp);
      PAN_EXPECT_STR_HAS(text, "fma_rscale.f32");
      PAN_CHECK(!strstr(text, "\nfma.f32") && strncmp(text, "fma.f32", 7),
                "a multiply of its own:\n%s", text);
      free(text);
   }
   ralloc_free(ctx);
   ralloc_free(b.shader);

   uint32_t in[2 * LANES], out[LANES];
   for (unsigned k = 0; k < 2 * LANES; ++k)
      in[k] = pan_test_u32(((int)(pan_test_rng64(&seed) % 801) - 400) / 100.0f);
   b = exp2_product_shader();
   if (!run(&b, in, 2 * LANES, NULL, 0, out, LANES))
      return;
   for (unsigned l = 0; l < LANES; ++l) {
      float want = exp2f(pan_test_f32(in[2 * l]) * pan_test_f32(in[2 * l + 1]));
      float got = pan_test_f32(out[l]);
      PAN_CHECK(fabsf(got - want) <= want * 1e-5f, "lane %u: %g, expected %g",
                l, got, want);
   }
}

/* x & 0xffff is a zero extension of the low half (u16_to_u32). */
static void
test_low_half(void)
{
   nir_builder b = begin("low_half");
   nir_ssa_def *i = id_x(&b);
   store_out(&b, i, nir_iand_imm(&b, load_in(&b, i, 1), 0xffff));
   uint32_t in[LANES], out[LANES];
   random_words(in, LANES);
   if (!run(&b, in, LANES, NULL, 0, out, LANES))
      return;
   for (unsigned l = 0; l < LANES; ++l)
      PAN_CHECK(out[l] == (in[l] & 0xffff), "lane %u: 0x%x, expected 0x%x", l,
                out[l], in[l] & 0xffff);
}

static void
test_unsupported(void)
{
   char err[256] = "";
   struct pan_va_binary bin;

   nir_builder b = begin("unsupported");
   nir_ssa_def *i = id_x(&b);
   store_out(&b, i, nir_bitfield_reverse(&b, i));
   PAN_EXPECT(!pan_va_compile(b.shader, NULL, &bin, NULL, err, sizeof(err)));
   PAN_EXPECT_STR_HAS(err, "unsupported NIR ALU op bitfield_reverse");
   PAN_EXPECT(bin.words == NULL);
   ralloc_free(b.shader);

   b = begin("unsupported_intrinsic");
   i = id_x(&b);
   store_out(&b, i, nir_load_num_workgroups(&b, 32));
   PAN_EXPECT(!pan_va_compile(b.shader, NULL, &bin, NULL, err, sizeof(err)));
   PAN_EXPECT_STR_HAS(err, "unsupported NIR intrinsic load_num_workgroups");
   ralloc_free(b.shader);

   b = nir_builder_init_simple_shader(MESA_SHADER_TESS_CTRL,
                                      &pan_va_nir_options, "tcs");
   PAN_EXPECT(!pan_va_compile(b.shader, NULL, &bin, NULL, err, sizeof(err)));
   PAN_EXPECT_STR_HAS(err, "tessellation control shaders are unsupported");
   ralloc_free(b.shader);
}

/* A recording texture unit: the last request, and results that name
 * the word and the lane's x offset: word c is c + 10 * (offset x + 8). */
static struct pan_sim_tex_req tex_seen;

static bool
cb_tex(void *user, struct pan_sim_tex_req *req, char *err)
{
   tex_seen = *req;
   for (unsigned i = 0; i < 4; ++i) {
      for (unsigned c = 0; c < 4; ++c)
         req->out[i][c] =
            pan_test_u32((float)c + 10.0f * (req->offsets[i][0] + 8));
   }
   return true;
}

/* textureGatherOffset(tex 3, (0.5, 0.25), (in[lane], 3), component 3)
 * with the lane's x offset from memory (-8 to 7): one TEX_GATHER whose
 * offset word the shader packs, and GL's x, y, z, w from the hardware's
 * words 2, 3, 1, 0. */
static void
test_gather(void)
{
   nir_builder b = begin("gather");
   nir_ssa_def *i = id_x(&b);
   nir_ssa_def *dx = load_in(&b, i, 1);
   nir_tex_instr *t = nir_tex_instr_create(b.shader, 2);
   t->op = nir_texop_tg4;
   t->sampler_dim = GLSL_SAMPLER_DIM_2D;
   t->texture_index = 3;
   t->sampler_index = 1;
   t->coord_components = 2;
   t->component = 3;
   t->dest_type = nir_type_float32;
   t->src[0].src_type = nir_tex_src_coord;
   t->src[0].src = nir_src_for_ssa(nir_imm_vec2(&b, 0.5f, 0.25f));
   t->src[1].src_type = nir_tex_src_offset;
   t->src[1].src = nir_src_for_ssa(nir_vec2(&b, dx, nir_imm_int(&b, 3)));
   nir_ssa_dest_init(&t->instr, &t->dest, 4, 32, NULL);
   nir_builder_instr_insert(&b, &t->instr);
   store_out(&b, i, &t->dest.ssa);

   uint32_t in[LANES], out[4 * LANES];
   for (unsigned l = 0; l < LANES; ++l)
      in[l] = (uint32_t)((int)l - 8);
   static const struct pan_sim_tex_ops tex = { NULL, cb_tex };
   run_tex = &tex;
   bool ok = run(&b, in, LANES, NULL, 0, out, 4 * LANES);
   run_tex = NULL;
   if (!ok)
      return;
   PAN_EXPECT_EQ(tex_seen.op, PAN_SIM_TEX_GATHER);
   PAN_EXPECT_EQ(tex_seen.gather_comp, 3);
   PAN_EXPECT(tex_seen.offset && tex_seen.offsets[3][1] == 3);
   PAN_EXPECT_EQ(tex_seen.texture, 3 | 4u << 11);
   PAN_EXPECT_EQ(tex_seen.sampler, 1 | 3u << 11);
   static const unsigned gl_order[4] = { 2, 3, 1, 0 };
   for (unsigned l = 0; l < LANES; ++l) {
      for (unsigned c = 0; c < 4; ++c) {
         float want = (float)gl_order[c] + 10.0f * l;
         float got = pan_test_f32(out[4 * l + c]);
         PAN_CHECK(got == want, "lane %u word %u: %g, want %g", l, c, got,
                   want);
      }
   }
}

int
main(void)
{
   glsl_type_singleton_init_or_ref();
   PAN_RUN_CASE(test_int_alu);
   PAN_RUN_CASE(test_float);
   PAN_RUN_CASE(test_if_else);
   PAN_RUN_CASE(test_loop);
   PAN_RUN_CASE(test_fau_fold);
   PAN_RUN_CASE(test_div_bool);
   PAN_RUN_CASE(test_div_pow2);
   PAN_RUN_CASE(test_f2b);
   PAN_RUN_CASE(test_exp2_product);
   PAN_RUN_CASE(test_low_half);
   PAN_RUN_CASE(test_unsupported);
   PAN_RUN_CASE(test_gather);
   glsl_type_singleton_decref();
   return pan_test_summary("pan_va_compile");
}
