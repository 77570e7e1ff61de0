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

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/nir/nir_builder.h"
#include "isa/pan_isa_bi.h"
#include "pan_compile.h"
#include "pan_sim_bi.h"
#include "util/pan_test_util.h"

#define PAN_VA_TEST_MEM_SIZE 2048
#include "pan_va_test_sim.h"

#define BI_LANES PAN_SIM_BI_LANES_G52
#define IN_OFF 0
#define OUT_OFF 1024

static uint64_t seed = 0xb1f205;

static nir_builder
begin(const char *name)
{
   return nir_builder_init_simple_shader(MESA_SHADER_COMPUTE,
                                         &pan_va_nir_options, "%s", name);
}

static nir_ssa_def *
push_word(nir_builder *b, unsigned w, unsigned bits)
{
   return nir_load_push_constant(b, 1, bits, nir_imm_int(b, 0), .base = w * 4,
                                 .range = 64);
}

/* Element `index` (comps words) of the buffer whose address is at w. */
static nir_ssa_def *
addr_of(nir_builder *b, unsigned w, nir_ssa_def *index, unsigned comps)
{
   return nir_iadd(b, push_word(b, w, 64),
                   nir_u2u64(b, nir_imul_imm(b, index, 4 * comps)));
}

static nir_ssa_def *
lane(nir_builder *b)
{
   return nir_channel(b, nir_load_global_invocation_id(b, 32), 0);
}

static nir_ssa_def *
input(nir_builder *b, unsigned comps)
{
   return nir_load_global(b, addr_of(b, 0, lane(b), comps), 4, comps, 32);
}

static void
output(nir_builder *b, nir_ssa_def *v)
{
   nir_store_global(b, addr_of(b, 2, lane(b), v->num_components), 4, v,
                    nir_component_mask(v->num_components));
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

/* Compile, run one warp over in[] with parameters prm[], read out[]. */
static bool
run(nir_builder *b, const uint32_t *in, unsigned in_words,
    const uint32_t *prm, unsigned nr_prm, uint32_t *out, unsigned out_words)
{
   char err[256];
   struct pan_bi_binary bin;
   void *ctx = ralloc_context(NULL);
   const char *name = b->shader->info.name;
   bool ok = false;

   /* PAN_BI_TEST_PRINT=1: the IR after each pass and the disassembly. */
   FILE *print = getenv("PAN_BI_TEST_PRINT") ? stderr : NULL;
   if (!pan_bi_compile(b->shader, ctx, NULL, &bin, print, err, sizeof(err))) {
      pan_test_fail("%s: %s", name, err);
      goto done;
   }
   check_encoding(&bin, name);

   static struct mem m;
   memset(&m, 0, sizeof(m));
   memcpy(m.bytes + IN_OFF, in, in_words * 4);
   uint32_t u[16] = { (uint32_t)(MEM_BASE + IN_OFF), 0,
                      (uint32_t)(MEM_BASE + OUT_OFF), 0 };
   memcpy(u + 4, prm, nr_prm * 4);
   struct pan_sim_bi_config cfg = {
      .program = bin.words,
      .program_quads = bin.nr_words / 2,
      .program_va = 0x800000,
      .uniforms = u,
      .uniform_words = 16,
      .mem = { &m, mem_read, mem_write },
      .lanes = BI_LANES,
   };
   struct pan_sim_bi_warp w;
   pan_sim_bi_warp_init(&w, (1u << BI_LANES) - 1);
   for (unsigned l = 0; l < BI_LANES; ++l)
      w.r[l][60] = l;
   if (pan_sim_bi_run(&w, &cfg) != PAN_SIM_BI_DONE) {
      pan_test_fail("%s: fault: %s", name, w.fault);
      goto done;
   }
   memcpy(out, m.bytes + OUT_OFF, out_words * 4);
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
      nir_ssa_def *p = push_word(&b, 4, 32);
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
   nir_ssa_def *s = push_word(&b, 4, 32);
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

/* Control flow: if/else on lane parity, a loop with a per-lane trip
 * count, break out of it. */
static void
test_flow(void)
{
   nir_builder b = begin("bi_flow");
   nir_ssa_def *v = input(&b, 1);
   nir_ssa_def *i = lane(&b);
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
   PAN_RUN_CASE(test_flow);
   PAN_RUN_CASE(test_refused);
   glsl_type_singleton_decref();
   return pan_test_summary("pan_bi_compile");
}
