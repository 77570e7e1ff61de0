/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Our Midgard compiler end to end: NIR programs built with nir_builder are
 * compiled for T860 and T720, run on the Midgard interpreter
 * (src/panfrost/sim/mid) and their stores compared with the same
 * computation in C.  Inputs come from pushed uniforms (UBO 0), another
 * UBO and global memory; refusals must be clear errors.
 */

#include <math.h>
#include <string.h>

#include "compiler/nir/nir_builder.h"
#include "isa/pan_isa_mid.h"
#include "mid_compile.h"
#include "sim/mid/pan_sim_mid.h"
#include "util/pan_test_util.h"
#include "util/ralloc.h"

#define MEM_BASE 0x10000u
#define MEM_SIZE 0x1000u
#define UBO0_VA (MEM_BASE + 0x800)
#define UBO1_VA (MEM_BASE + 0xc00)

struct env {
   uint8_t mem[MEM_SIZE];
   uint32_t ubo0[64]; /* UBO 0: uniforms */
   uint32_t ubo1[64];
   struct pan_sim_mid_thread t;
   struct mid_binary bin;
   /* The last binary's bundles, kept after run() frees its compile */
   uint8_t code[16384];
   char err[256];
   const struct pan_sim_mid_gfx *gfx; /* texture words, when set */
};

static bool
mem_read(void *user, uint64_t addr, void *data, unsigned size)
{
   struct env *e = user;
   if (addr < MEM_BASE || addr + size > MEM_BASE + MEM_SIZE)
      return false;
   memcpy(data, e->mem + (addr - MEM_BASE), size);
   return true;
}

static bool
mem_write(void *user, uint64_t addr, const void *data, unsigned size)
{
   struct env *e = user;
   if (addr < MEM_BASE || addr + size > MEM_BASE + MEM_SIZE)
      return false;
   memcpy(e->mem + (addr - MEM_BASE), data, size);
   return true;
}

static uint32_t
out_word(struct env *e, unsigned i)
{
   uint32_t v;
   memcpy(&v, e->mem + 4 * i, 4);
   return v;
}

static nir_builder
begin(gl_shader_stage stage)
{
   return nir_builder_init_simple_shader(stage, &mid_nir_options, "test");
}

/* Uniform vec4 i of UBO 0 (components from comp). */
static nir_ssa_def *
uniform(nir_builder *b, unsigned i, unsigned comps)
{
   return nir_load_ubo(b, comps, 32, nir_imm_int(b, 0), nir_imm_int(b, 16 * i),
                       .align_mul = 16, .range = ~0);
}

static void
store(nir_builder *b, unsigned word, nir_ssa_def *v)
{
   nir_store_global(b, nir_imm_int(b, MEM_BASE + 4 * word), 4, v,
                    (1u << v->num_components) - 1);
}

/* n words of UBO 0 from word i (within one vec4). */
static nir_ssa_def *
word(nir_builder *b, unsigned i, unsigned n)
{
   return nir_load_ubo(b, n, 32, nir_imm_int(b, 0), nir_imm_int(b, 4 * i),
                       .align_mul = 16, .align_offset = 4 * (i % 4),
                       .range = ~0);
}

/* Compile for gpu and run; false (after a failed check) if either fails. */
static bool
run(struct env *e, nir_shader *nir, unsigned gpu)
{
   void *mem = ralloc_context(NULL);
   nir_shader *clone = nir_shader_clone(mem, nir);
   bool ok =
      mid_compile(clone, gpu, mem, &e->bin, NULL, e->err, sizeof(e->err));
   PAN_CHECK(ok, "compile for 0x%x failed: %s", gpu, e->err);
   if (!ok) {
      ralloc_free(mem);
      return false;
   }
   /* The binary must be a valid program for the codec. */
   PAN_EXPECT_EQ(pan_mid_validate(e->bin.code, e->bin.size_B - 16, NULL, NULL),
                 0);

   uint32_t uniforms[MID_MAX_PUSH][4];
   for (unsigned i = 0; i < e->bin.nr_push; i++) {
      const uint32_t *ubo = e->bin.push_ubo[i] ? e->ubo1 : e->ubo0;
      memcpy(uniforms[i], &ubo[4 * e->bin.push[i]], 16);
   }
   memcpy(e->mem + 0x800, e->ubo0, sizeof(e->ubo0));
   memcpy(e->mem + 0xc00, e->ubo1, sizeof(e->ubo1));
   struct pan_sim_mid_config cfg = {
      .program = e->bin.code,
      .program_size = e->bin.size_B,
      .uniforms = (const uint32_t(*)[4])uniforms,
      .nr_uniforms = e->bin.nr_push,
      .ubos = { { UBO0_VA, sizeof(e->ubo0) }, { UBO1_VA, sizeof(e->ubo1) } },
      .nr_ubos = 2,
      .mem = { e, mem_read, mem_write },
      .gfx = e->gfx,
      .tex_aliasing = gpu == 0x720,
   };
   pan_sim_mid_thread_init(&e->t);
   enum pan_sim_mid_status st = pan_sim_mid_run(&e->t, &cfg);
   PAN_CHECK(st == PAN_SIM_MID_DONE, "run on 0x%x faulted: %s", gpu,
             e->t.fault);
   /* Callers inspect the binary afterwards: keep a copy of it. */
   unsigned kept_B = MIN2(e->bin.size_B, sizeof(e->code));
   memcpy(e->code, e->bin.code, kept_B);
   e->bin.code = e->code;
   e->bin.size_B = kept_B;
   ralloc_free(mem);
   return st == PAN_SIM_MID_DONE;
}

static const unsigned gpus[] = { 0x860, 0x720 };

static void
test_float_vec4(void)
{
   nir_builder b = begin(MESA_SHADER_COMPUTE);
   nir_ssa_def *u0 = uniform(&b, 0, 4), *u1 = uniform(&b, 1, 4);
   nir_ssa_def *k = nir_imm_vec4(&b, 1.5f, -2.0f, 0.25f, 1000.0f);
   nir_ssa_def *r0 = nir_fadd(&b, nir_fmul(&b, u0, u1), k);
   nir_ssa_def *r1 = nir_fmax(&b, nir_fmin(&b, u0, u1), nir_fneg(&b, k));
   nir_ssa_def *r2 = nir_fabs(
      &b, nir_fsub(&b, nir_swizzle(&b, u0, (unsigned[]){ 3, 2, 1, 0 }, 4), u1));
   store(&b, 0, r0);
   store(&b, 4, r1);
   store(&b, 8, r2);
   store(&b, 12, nir_channel(&b, nir_fmul(&b, u0, u0), 2));

   for (unsigned g = 0; g < 2; g++) {
      struct env *e = calloc(1, sizeof(*e));
      float a[4] = { 1.0f, -3.5f, 7.25f, 0.1f },
            c[4] = { 2.0f, 4.0f, -1.0f, 3.3f };
      float kk[4] = { 1.5f, -2.0f, 0.25f, 1000.0f };
      for (unsigned i = 0; i < 4; i++) {
         e->ubo0[i] = pan_test_u32(a[i]);
         e->ubo0[4 + i] = pan_test_u32(c[i]);
      }
      if (run(e, b.shader, gpus[g])) {
         for (unsigned i = 0; i < 4; i++) {
            PAN_EXPECT_EQ(out_word(e, i), pan_test_u32(a[i] * c[i] + kk[i]));
            PAN_EXPECT_EQ(out_word(e, 4 + i),
                          pan_test_u32(fmaxf(fminf(a[i], c[i]), -kk[i])));
            PAN_EXPECT_EQ(out_word(e, 8 + i),
                          pan_test_u32(fabsf(a[3 - i] - c[i])));
         }
         PAN_EXPECT_EQ(out_word(e, 12), pan_test_u32(a[2] * a[2]));
         /* No varying stores: the hoisting round goes; of the others,
          * the levels whose budget the free schedule stays under repeat
          * it (6 of 41 tries remain). */
         PAN_EXPECT(e->bin.nr_schedules <= 8);
         /* The first schedule runs four threads; the later ones stop
          * once they cannot end in fewer bundles (mid_compile.c,
          * cutoff), and the binary above is still the one kept. */
         PAN_EXPECT(e->bin.nr_cut > 0 && e->bin.nr_cut < e->bin.nr_schedules);
      }
      free(e);
   }
   ralloc_free(b.shader);
}

/* fdot3/fdot4 on vmul: swizzled sources, a negated source, saturation,
 * and dot products gathered into one vector. */
static void
test_dot(void)
{
   nir_builder b = begin(MESA_SHADER_COMPUTE);
   nir_ssa_def *u0 = uniform(&b, 0, 4), *u1 = uniform(&b, 1, 4);
   nir_ssa_def *d3 =
      nir_fdot3(&b, nir_swizzle(&b, u0, (unsigned[]){ 2, 1, 0 }, 3),
                nir_channels(&b, u1, 0x7));
   nir_ssa_def *d4 = nir_fdot4(&b, u0, nir_fneg(&b, u1));
   store(&b, 0, d3);
   store(&b, 1, d4);
   store(&b, 2, nir_fsat(&b, nir_fdot4(&b, u0, u0)));
   store(&b, 4, nir_vec4(&b, d4, d3, nir_fdot4(&b, u1, u1), d3));

   for (unsigned g = 0; g < 2; g++) {
      struct env *e = calloc(1, sizeof(*e));
      float a[4] = { 1.0f, -3.5f, 7.25f, 0.5f },
            c[4] = { 2.0f, 4.0f, -1.0f, 3.0f };
      for (unsigned i = 0; i < 4; i++) {
         e->ubo0[i] = pan_test_u32(a[i]);
         e->ubo0[4 + i] = pan_test_u32(c[i]);
      }
      float w3 = a[2] * c[0] + a[1] * c[1] + a[0] * c[2];
      float w4 = -(a[0] * c[0] + a[1] * c[1] + a[2] * c[2] + a[3] * c[3]);
      float cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2] + c[3] * c[3];
      if (run(e, b.shader, gpus[g])) {
         PAN_EXPECT_EQ(out_word(e, 0), pan_test_u32(w3));
         PAN_EXPECT_EQ(out_word(e, 1), pan_test_u32(w4));
         PAN_EXPECT_EQ(out_word(e, 2), pan_test_u32(1.0f));
         PAN_EXPECT_EQ(out_word(e, 4), pan_test_u32(w4));
         PAN_EXPECT_EQ(out_word(e, 5), pan_test_u32(w3));
         PAN_EXPECT_EQ(out_word(e, 6), pan_test_u32(cc));
         PAN_EXPECT_EQ(out_word(e, 7), pan_test_u32(w3));
      }
      free(e);
   }
   ralloc_free(b.shader);
}

static void
test_int(void)
{
   nir_builder b = begin(MESA_SHADER_COMPUTE);
   nir_ssa_def *u0 = uniform(&b, 0, 4), *u1 = uniform(&b, 1, 4);
   store(&b, 0, nir_iadd(&b, nir_imul(&b, u0, u1), nir_imm_int(&b, 100000)));
   store(&b, 4,
         nir_ixor(&b, nir_ishl(&b, u0, nir_imm_int(&b, 3)),
                  nir_iand(&b, u1, nir_inot(&b, u0))));
   store(&b, 8,
         nir_bcsel(&b, nir_ilt(&b, u0, u1), nir_ineg(&b, u0),
                   nir_ushr(&b, u1, nir_imm_int(&b, 1))));
   store(&b, 12, nir_imin(&b, nir_isub(&b, u0, u1), nir_imm_int(&b, 5)));

   uint64_t rng = 0x1234567;
   for (unsigned g = 0; g < 2; g++) {
      for (unsigned rep = 0; rep < 8; rep++) {
         struct env *e = calloc(1, sizeof(*e));
         int32_t a[4], c[4];
         for (unsigned i = 0; i < 4; i++) {
            a[i] = (int32_t)pan_test_rng64(&rng) >> (rep * 3);
            c[i] = (int32_t)pan_test_rng64(&rng) >> (rep * 3);
            e->ubo0[i] = a[i];
            e->ubo0[4 + i] = c[i];
         }
         if (run(e, b.shader, gpus[g])) {
            for (unsigned i = 0; i < 4; i++) {
               uint32_t ua = a[i], uc = c[i];
               PAN_EXPECT_EQ(out_word(e, i), ua * uc + 100000u);
               PAN_EXPECT_EQ(out_word(e, 4 + i), (ua << 3) ^ (uc & ~ua));
               PAN_EXPECT_EQ(out_word(e, 8 + i),
                             a[i] < c[i] ? 0u - ua : uc >> 1);
               int32_t d = (int32_t)(ua - uc);
               PAN_EXPECT_EQ(out_word(e, 12 + i), (uint32_t)(d < 5 ? d : 5));
            }
         }
         free(e);
      }
   }
   ralloc_free(b.shader);
}

/* if/else and a counted loop over a uniform bound. */
static void
test_control_flow(void)
{
   nir_builder b = begin(MESA_SHADER_COMPUTE);
   nir_ssa_def *u0 = uniform(&b, 0, 4);
   nir_variable *acc =
      nir_local_variable_create(b.impl, glsl_int_type(), "acc");
   nir_variable *i = nir_local_variable_create(b.impl, glsl_int_type(), "i");
   nir_store_var(&b, acc, nir_imm_int(&b, 0), 1);
   nir_store_var(&b, i, nir_imm_int(&b, 0), 1);
   nir_push_loop(&b);
   {
      nir_ssa_def *iv = nir_load_var(&b, i);
      nir_push_if(&b, nir_ige(&b, iv, nir_channel(&b, u0, 0)));
      nir_jump(&b, nir_jump_break);
      nir_pop_if(&b, NULL);
      nir_ssa_def *sq = nir_imul(&b, iv, iv);
      nir_push_if(&b, nir_ieq(&b, nir_iand(&b, iv, nir_imm_int(&b, 1)),
                              nir_imm_int(&b, 0)));
      nir_store_var(&b, acc, nir_iadd(&b, nir_load_var(&b, acc), sq), 1);
      nir_push_else(&b, NULL);
      nir_store_var(&b, acc, nir_isub(&b, nir_load_var(&b, acc), iv), 1);
      nir_pop_if(&b, NULL);
      nir_store_var(&b, i, nir_iadd_imm(&b, iv, 1), 1);
   }
   nir_pop_loop(&b, NULL);
   store(&b, 0, nir_load_var(&b, acc));

   for (unsigned g = 0; g < 2; g++) {
      for (int n = 0; n < 40; n += 7) {
         struct env *e = calloc(1, sizeof(*e));
         e->ubo0[0] = n;
         if (run(e, b.shader, gpus[g])) {
            int32_t ref = 0;
            for (int k = 0; k < n; k++)
               ref = (k & 1) ? ref - k : ref + k * k;
            PAN_EXPECT_EQ(out_word(e, 0), (uint32_t)ref);
            PAN_EXPECT_EQ(e->bin.loops, 1);
         }
         free(e);
      }
   }
   ralloc_free(b.shader);
}

/* Pushed uniforms as phi sources: nir_convert_from_ssa gives such a load
 * the phi's register as its destination, which must then be written
 * (glamor/7 read its gradient stops from a never written register). The
 * stores in both arms keep the if from becoming a select. */
static void
test_uniform_into_phi(void)
{
   nir_builder b = begin(MESA_SHADER_COMPUTE);
   nir_ssa_def *u0 = uniform(&b, 0, 4);
   /* Scalar and vec2 loads, as of separate uniforms: no swizzling move
    * between them and the phis. */
   nir_ssa_def *stop = word(&b, 6, 1);
   nir_ssa_def *pair = word(&b, 4, 2);
   nir_push_if(&b, nir_flt(&b, nir_channel(&b, u0, 0), stop));
   store(&b, 1, nir_imm_int(&b, 7));
   nir_push_else(&b, NULL);
   nir_ssa_def *other_z = word(&b, 10, 1);
   nir_ssa_def *other = word(&b, 9, 2);
   store(&b, 2, nir_imm_int(&b, 9));
   nir_pop_if(&b, NULL);
   nir_ssa_def *x = nir_if_phi(&b, stop, other_z);
   nir_ssa_def *v = nir_if_phi(&b, pair, other);
   store(&b, 0, nir_fadd(&b, x, nir_channel(&b, u0, 1)));
   store(&b, 4, v);

   for (unsigned g = 0; g < 2; g++) {
      for (unsigned taken = 0; taken < 2; taken++) {
         struct env *e = calloc(1, sizeof(*e));
         float w[4] = { taken ? 1.0f : 5.0f, 0.25f, 0, 0 };
         for (unsigned k = 0; k < 4; k++) {
            e->ubo0[k] = pan_test_u32(w[k]);
            e->ubo0[4 + k] = pan_test_u32(2.0f + k);
            e->ubo0[8 + k] = pan_test_u32(10.0f + k);
         }
         if (run(e, b.shader, gpus[g])) {
            float x_ref = taken ? 4.0f : 12.0f;
            PAN_EXPECT_EQ(out_word(e, 0), pan_test_u32(x_ref + 0.25f));
            PAN_EXPECT_EQ(out_word(e, 4), pan_test_u32(taken ? 2.0f : 11.0f));
            PAN_EXPECT_EQ(out_word(e, 5), pan_test_u32(taken ? 3.0f : 12.0f));
            PAN_EXPECT_EQ(out_word(e, taken ? 1 : 2), taken ? 7u : 9u);
         }
         free(e);
      }
   }
   ralloc_free(b.shader);
}

static unsigned collect(const struct mid_binary *bin, enum pan_mid_slot slot,
                        const char *op, struct pan_mid_instr *out,
                        unsigned max);
static uint64_t field(const struct pan_mid_instr *I, const char *name);

/* Global loads, a second UBO with constant and register offsets,
 * conversions and the special functions. */
static void
test_memory_and_conversions(void)
{
   nir_builder b = begin(MESA_SHADER_COMPUTE);
   nir_ssa_def *u0 = uniform(&b, 0, 4);
   nir_ssa_def *v =
      nir_load_global(&b, nir_imm_int(&b, MEM_BASE + 0x400), 16, 4, 32);
   nir_ssa_def *idx = nir_imul_imm(&b, nir_channel(&b, u0, 0), 16);
   nir_ssa_def *w = nir_load_ubo(&b, 4, 32, nir_imm_int(&b, 1), idx,
                                 .align_mul = 16, .range = ~0);
   nir_ssa_def *c =
      nir_load_ubo(&b, 2, 32, nir_imm_int(&b, 1), nir_imm_int(&b, 8),
                   .align_mul = 8, .range = ~0);
   store(&b, 0, nir_fadd(&b, v, w));
   store(&b, 4, nir_f2i32(&b, nir_fmul(&b, v, nir_imm_float(&b, 3.0f))));
   store(&b, 8, nir_i2f32(&b, c));
   store(&b, 10, nir_frcp(&b, nir_channels(&b, v, 0x3)));
   store(&b, 12, nir_fsqrt(&b, nir_fabs(&b, w)));
   /* (i << 4) + 16: the load's own index shift and offset. */
   nir_ssa_def *arr = nir_iadd_imm(
      &b, nir_ishl_imm(&b, nir_channel(&b, u0, 0), 4), 16);
   store(&b, 16, nir_load_ubo(&b, 4, 32, nir_imm_int(&b, 1), arr,
                              .align_mul = 16, .range = ~0));

   for (unsigned g = 0; g < 2; g++) {
      struct env *e = calloc(1, sizeof(*e));
      float vf[4] = { 1.25f, -7.5f, 100.0f, 3.0f };
      for (unsigned k = 0; k < 4; k++)
         memcpy(e->mem + 0x400 + 4 * k, &vf[k], 4);
      for (unsigned k = 0; k < 64; k++)
         e->ubo1[k] = pan_test_u32(0.5f * k + 0.125f);
      e->ubo1[2] = (uint32_t)-77;
      e->ubo1[3] = 12345;
      e->ubo0[0] = 3;
      if (run(e, b.shader, gpus[g])) {
         for (unsigned k = 0; k < 4; k++) {
            float wk = pan_test_f32(e->ubo1[12 + k]);
            PAN_EXPECT_EQ(out_word(e, k), pan_test_u32(vf[k] + wk));
            PAN_EXPECT_EQ(out_word(e, 4 + k),
                          (uint32_t)(int32_t)(vf[k] * 3.0f));
            PAN_EXPECT_EQ(out_word(e, 12 + k), pan_test_u32(sqrtf(fabsf(wk))));
         }
         PAN_EXPECT_EQ(out_word(e, 8), pan_test_u32(-77.0f));
         PAN_EXPECT_EQ(out_word(e, 9), pan_test_u32(12345.0f));
         PAN_EXPECT_EQ(out_word(e, 10), pan_test_u32(1.0f / vf[0]));
         PAN_EXPECT_EQ(out_word(e, 11), pan_test_u32(1.0f / vf[1]));
         for (unsigned k = 0; k < 4; k++)
            PAN_EXPECT_EQ(out_word(e, 16 + k), e->ubo1[16 + k]);
         struct pan_mid_instr words[8];
         unsigned n = collect(&e->bin, PAN_MID_LDST, "ld_ubo_128", words, 8);
         unsigned shifted = 0;
         for (unsigned i = 0; i < n; i++) {
            uint64_t sh = 0;
            pan_mid_instr_field(&words[i], "ishift", &sh);
            shifted += sh == 4;
         }
         /* Both register offsets: NIR turns the multiply by 16 into a
          * shift too. */
         PAN_EXPECT_EQ(shifted, 2);
      }
      free(e);
   }
   ralloc_free(b.shader);
}

/* A lut opcode whose lanes all read one operand is one instruction that
 * broadcasts (frsqrt of a dot product, as normalize gives it); lanes
 * reading different operands take one instruction each. */
static void
test_lut_broadcast(void)
{
   nir_builder b = begin(MESA_SHADER_COMPUTE);
   nir_ssa_def *u0 = uniform(&b, 0, 4);
   nir_ssa_def *d = nir_fdot4(&b, u0, u0);
   store(&b, 0, nir_frsq(&b, nir_vec4(&b, d, d, d, d)));
   store(&b, 4, nir_frsq(&b, uniform(&b, 1, 2)));
   for (unsigned g = 0; g < 2; g++) {
      struct env *e = calloc(1, sizeof(*e));
      float c[6] = { 1.0f, 1.0f, 1.0f, 1.0f, 4.0f, 0.25f };
      for (unsigned k = 0; k < 6; k++)
         e->ubo0[k] = pan_test_u32(c[k]);
      if (run(e, b.shader, gpus[g])) {
         struct pan_mid_instr words[8];
         PAN_EXPECT_EQ(collect(&e->bin, PAN_MID_LUT, "frsqrt", words, 8), 3);
         for (unsigned k = 0; k < 4; k++)
            PAN_EXPECT_EQ(out_word(e, k), pan_test_u32(0.5f));
         PAN_EXPECT_EQ(out_word(e, 4), pan_test_u32(0.5f));
         PAN_EXPECT_EQ(out_word(e, 5), pan_test_u32(2.0f));
      }
      free(e);
   }
   ralloc_free(b.shader);
}

/* How many ALU instructions of op the binary holds, on any unit. */
static unsigned
count_alu(const struct mid_binary *bin, const char *op)
{
   struct pan_mid_instr w[16];
   unsigned n = 0;
   for (unsigned u = PAN_MID_VMUL; u <= PAN_MID_LUT; u++)
      n += collect(bin, u, op, w, 16);
   return n;
}

/* A select between x and -x (or |x|) is the float select with a source
 * modifier, as the stock compiler emits it: no move computes the negated
 * or absolute operand (the integer select applies no float modifier). */
static void
test_select_modifiers(void)
{
   nir_builder b = begin(MESA_SHADER_COMPUTE);
   nir_ssa_def *u0 = uniform(&b, 0, 4), *u1 = uniform(&b, 1, 4);
   nir_ssa_def *x = nir_fmul(&b, u0, u1);
   nir_ssa_def *c = nir_flt(&b, u1, nir_imm_float(&b, 0.0f));
   store(&b, 0, nir_bcsel(&b, c, nir_fneg(&b, x), x));
   nir_ssa_def *y = nir_fadd(&b, u0, u1);
   store(&b, 4, nir_bcsel(&b, c, y, nir_fabs(&b, x)));
   for (unsigned g = 0; g < 2; g++) {
      struct env *e = calloc(1, sizeof(*e));
      float p[4] = { 1.5f, -2.0f, 3.0f, -0.25f };
      float q[4] = { -1.0f, 4.0f, -0.5f, 2.0f };
      for (unsigned k = 0; k < 4; k++) {
         e->ubo0[k] = pan_test_u32(p[k]);
         e->ubo0[4 + k] = pan_test_u32(q[k]);
      }
      if (run(e, b.shader, gpus[g])) {
         for (unsigned k = 0; k < 4; k++) {
            float xk = p[k] * q[k];
            PAN_EXPECT_EQ(out_word(e, k), pan_test_u32(q[k] < 0 ? -xk : xk));
            PAN_EXPECT_EQ(out_word(e, 4 + k),
                          pan_test_u32(q[k] < 0 ? p[k] + q[k] : fabsf(xk)));
         }
         PAN_EXPECT_EQ(count_alu(&e->bin, "fmov"), 0);
         PAN_EXPECT_EQ(count_alu(&e->bin, "fcsel_v"), 2);
      }
      free(e);
   }
   ralloc_free(b.shader);
}

/* Two rows loaded with one register index (a skinned vertex shader's bone
 * matrix: (i << 4) and (i << 4) + 16) read one lane of r27: one move of
 * the index, which its producer then writes itself. */
static void
test_shared_ubo_index(void)
{
   nir_builder b = begin(MESA_SHADER_COMPUTE);
   nir_ssa_def *i = nir_f2i32(&b, nir_channel(&b, uniform(&b, 0, 4), 0));
   nir_ssa_def *row = nir_ishl_imm(&b, i, 4);
   nir_ssa_def *r0 = nir_load_ubo(&b, 4, 32, nir_imm_int(&b, 1), row,
                                  .align_mul = 16, .range = ~0);
   nir_ssa_def *r1 =
      nir_load_ubo(&b, 4, 32, nir_imm_int(&b, 1), nir_iadd_imm(&b, row, 16),
                   .align_mul = 16, .range = ~0);
   store(&b, 0, nir_iadd(&b, r0, r1));
   for (unsigned g = 0; g < 2; g++) {
      struct env *e = calloc(1, sizeof(*e));
      for (unsigned k = 0; k < 64; k++)
         e->ubo1[k] = 1000 + k;
      e->ubo0[0] = pan_test_u32(3.0f);
      if (run(e, b.shader, gpus[g])) {
         for (unsigned k = 0; k < 4; k++)
            PAN_EXPECT_EQ(out_word(e, k), 2 * (1000 + 12 + k) + 4);
         struct pan_mid_instr w[4];
         PAN_EXPECT_EQ(collect(&e->bin, PAN_MID_LDST, "ld_ubo_128", w, 4), 2);
         PAN_EXPECT_EQ(field(&w[0], "icomp"), field(&w[1], "icomp"));
         /* The conversion writes the index lane itself: the only move
          * left is the store's address into r26. */
         PAN_EXPECT_EQ(count_alu(&e->bin, "imov"), 1);
      }
      free(e);
   }
   ralloc_free(b.shader);
}

/* Many values live at once: more registers, fewer threads; too many is a
 * clear refusal.  The values cross an if, so no schedule can compute them
 * next to their uses. */
static void
test_register_pressure(void)
{
   for (unsigned n = 2; n <= 24; n += 11) {
      nir_builder b = begin(MESA_SHADER_COMPUTE);
      nir_ssa_def *vals[24];
      nir_ssa_def *src =
         nir_load_global(&b, nir_imm_int(&b, MEM_BASE + 0x400), 16, 4, 32);
      for (unsigned k = 0; k < n; k++)
         vals[k] = nir_fmul(&b, src, nir_imm_float(&b, (float)(k + 2)));
      nir_push_if(&b,
                  nir_flt(&b, nir_channel(&b, src, 3), nir_imm_float(&b, 0)));
      store(&b, 8, src);
      nir_pop_if(&b, NULL);
      nir_ssa_def *sum = vals[n - 1];
      for (int k = n - 2; k >= 0; k--)
         sum = nir_fadd(&b, nir_fmul(&b, sum, vals[k]), vals[k]);
      store(&b, 0, sum);

      struct env *e = calloc(1, sizeof(*e));
      float vf[4] = { 0.5f, 0.25f, -0.125f, 1.0f };
      for (unsigned k = 0; k < 4; k++)
         memcpy(e->mem + 0x400 + 4 * k, &vf[k], 4);
      void *mem = ralloc_context(NULL);
      bool ok = mid_compile(nir_shader_clone(mem, b.shader), 0x860, mem,
                            &e->bin, NULL, e->err, sizeof(e->err));
      ralloc_free(mem);
      if (n > 16) {
         PAN_CHECK(!ok, "%u live vec4s compiled", n);
         PAN_EXPECT_STR_HAS(e->err, "work registers");
      } else if (run(e, b.shader, 0x860)) {
         PAN_EXPECT(e->bin.work_regs >= (n > 4 ? 5 : 1));
         PAN_EXPECT_EQ(e->bin.threads, e->bin.work_regs <= 4   ? 4
                                       : e->bin.work_regs <= 8 ? 2
                                                               : 1);
         /* Budgets the free schedule exceeds are still tried. */
         if (n > 4)
            PAN_EXPECT(e->bin.nr_schedules > 2);
         for (unsigned c = 0; c < 4; c++) {
            float v[24], s;
            for (unsigned k = 0; k < n; k++)
               v[k] = vf[c] * (float)(k + 2);
            s = v[n - 1];
            for (int k = n - 2; k >= 0; k--)
               s = s * v[k] + v[k];
            PAN_EXPECT_EQ(out_word(e, c), pan_test_u32(s));
         }
      }
      free(e);
      ralloc_free(b.shader);
   }
}

/* Uniform vec4s pushed beside values that need more than the eight work
 * registers sixteen pushed uniforms leave: the compiler pushes fewer and
 * loads the others, and the result is still right. */
static void
test_push_under_pressure(void)
{
   const unsigned n = 12;
   nir_builder b = begin(MESA_SHADER_COMPUTE);
   nir_ssa_def *src =
      nir_load_global(&b, nir_imm_int(&b, MEM_BASE + 0x400), 16, 4, 32);
   nir_ssa_def *vals[12];
   for (unsigned k = 0; k < n; k++)
      vals[k] = nir_fmul(&b, src, uniform(&b, k, 4));
   nir_push_if(&b, nir_flt(&b, nir_channel(&b, src, 3), nir_imm_float(&b, 0)));
   store(&b, 8, src);
   nir_pop_if(&b, NULL);
   nir_ssa_def *sum = uniform(&b, 15, 4);
   for (unsigned k = 0; k < n; k++)
      sum = nir_fadd(&b, nir_fmul(&b, sum, vals[k]), uniform(&b, 12 + k % 3, 4));

   store(&b, 0, sum);
   float vf[4] = { 0.5f, 0.25f, -0.125f, 1.0f };
   struct env *e = calloc(1, sizeof(*e));
   for (unsigned k = 0; k < 4; k++)
      memcpy(e->mem + 0x400 + 4 * k, &vf[k], 4);
   for (unsigned i = 0; i < 64; i++)
      e->ubo0[i] = pan_test_u32(0.125f * (float)(i % 7) - 0.25f);
   if (run(e, b.shader, 0x860)) {
      PAN_EXPECT(e->bin.work_regs > 8);
      PAN_EXPECT(e->bin.nr_push <= 8);
      for (unsigned c = 0; c < 4; c++) {
         float u[16], s;
         for (unsigned k = 0; k < 16; k++)
            u[k] = 0.125f * (float)((4 * k + c) % 7) - 0.25f;
         s = u[15];
         for (unsigned k = 0; k < n; k++)
            s = s * (vf[c] * u[k]) + u[12 + k % 3];
         PAN_EXPECT_EQ(out_word(e, c), pan_test_u32(s));
      }
   }
   free(e);
   ralloc_free(b.shader);
}

/* Eleven pushed uniforms leave r0-r12, where nine values live to the end
 * beside independent terms fit only in a tight schedule of one thread;
 * with eight pushed the same thread has 16 registers and a freer schedule
 * in fewer bundles, so the compiler tries that too and keeps it. */
static void
test_push_for_one_thread(void)
{
   const unsigned n = 9;
   nir_builder b = begin(MESA_SHADER_COMPUTE);
   nir_ssa_def *src =
      nir_load_global(&b, nir_imm_int(&b, MEM_BASE + 0x400), 16, 4, 32);
   nir_ssa_def *vals[9];
   for (unsigned k = 0; k < n; k++)
      vals[k] = nir_fmul(&b, src, uniform(&b, k, 4));
   nir_push_if(&b, nir_flt(&b, nir_channel(&b, src, 3), nir_imm_float(&b, 0)));
   store(&b, 8, src);
   nir_pop_if(&b, NULL);
   /* Independent terms: a free schedule interleaves them. */
   nir_ssa_def *sum = uniform(&b, 10, 4);
   for (unsigned k = 0; k < n; k++) {
      nir_ssa_def *t =
         nir_fadd(&b, nir_fmul(&b, vals[k], vals[(k + 1) % n]),
                  nir_fmul(&b, vals[(k + 2) % n], uniform(&b, 9, 4)));
      sum = nir_fadd(&b, sum, nir_fmul(&b, t, t));
   }
   /* ...and the values again, so that they all stay live. */
   for (unsigned k = 0; k < n; k++)
      sum = nir_fadd(&b, nir_fmul(&b, sum, vals[k]), uniform(&b, k, 4));
   store(&b, 0, sum);
   float vf[4] = { 0.5f, 0.25f, -0.125f, 1.0f };
   struct env *e = calloc(1, sizeof(*e));
   for (unsigned k = 0; k < 4; k++)
      memcpy(e->mem + 0x400 + 4 * k, &vf[k], 4);
   for (unsigned i = 0; i < 64; i++)
      e->ubo0[i] = pan_test_u32(0.125f * (float)(i % 7) - 0.25f);
   if (run(e, b.shader, 0x860)) {
      PAN_EXPECT_EQ(e->bin.threads, 1);
      PAN_EXPECT(e->bin.nr_push <= 8);
      for (unsigned c = 0; c < 4; c++) {
         float u[11], v[9], s;
         for (unsigned k = 0; k < 11; k++)
            u[k] = 0.125f * (float)((4 * k + c) % 7) - 0.25f;
         for (unsigned k = 0; k < n; k++)
            v[k] = vf[c] * u[k];
         s = u[10];
         for (unsigned k = 0; k < n; k++) {
            float t = v[k] * v[(k + 1) % n] + v[(k + 2) % n] * u[9];
            s = s + t * t;
         }
         for (unsigned k = 0; k < n; k++)
            s = s * v[k] + u[k];
         PAN_EXPECT_EQ(out_word(e, c), pan_test_u32(s));
      }
   }
   free(e);
   ralloc_free(b.shader);
}

static void
test_fragment_writeout(void)
{
   nir_builder b = begin(MESA_SHADER_FRAGMENT);
   nir_ssa_def *u0 = uniform(&b, 0, 4);
   nir_store_output(&b, nir_fmul_imm(&b, u0, 2.0f), nir_imm_int(&b, 0),
                    .base = 0, .write_mask = 0xf, .src_type = nir_type_float32,
                    .io_semantics.location = FRAG_RESULT_DATA0,
                    .io_semantics.num_slots = 1);
   for (unsigned g = 0; g < 2; g++) {
      struct env *e = calloc(1, sizeof(*e));
      float c[4] = { 0.25f, 0.5f, -1.0f, 8.0f };
      for (unsigned k = 0; k < 4; k++)
         e->ubo0[k] = pan_test_u32(c[k]);
      if (run(e, b.shader, gpus[g])) {
         PAN_EXPECT(e->t.writeouts >= 1);
         /* The multiply runs in the first writeout bundle, into r0. */
         PAN_EXPECT_EQ(e->bin.nr_bundles, 2);
         /* Upper ALU tags for writeout, but not on the T720. */
         PAN_EXPECT_EQ((e->bin.code[0] & 0xf) >= 12, gpus[g] != 0x720);
         for (unsigned k = 0; k < 4; k++)
            PAN_EXPECT_EQ(e->t.colour[k], pan_test_u32(2.0f * c[k]));
      }
      free(e);
   }
   ralloc_free(b.shader);
}

/* A colour written by two instructions of one bundle, one of them on a
 * second-stage unit (lut, the only one that runs frcp): both run in the
 * writeout bundle, into r0, as the stock code writes them. */
static void
test_colour_writers_in_writeout(void)
{
   nir_builder b = begin(MESA_SHADER_FRAGMENT);
   nir_ssa_def *u0 = uniform(&b, 0, 4);
   nir_ssa_def *u1 = uniform(&b, 1, 4);
   nir_ssa_def *xyz = nir_fmul(&b, nir_channels(&b, u0, 0x7),
                               nir_channels(&b, u1, 0x7));
   nir_ssa_def *w = nir_frcp(&b, nir_channel(&b, u0, 3));
   nir_ssa_def *v = nir_vec4(&b, nir_channel(&b, xyz, 0),
                             nir_channel(&b, xyz, 1), nir_channel(&b, xyz, 2),
                             w);
   nir_store_output(&b, v, nir_imm_int(&b, 0), .base = 0, .write_mask = 0xf,
                    .src_type = nir_type_float32,
                    .io_semantics.location = FRAG_RESULT_DATA0,
                    .io_semantics.num_slots = 1);
   for (unsigned g = 0; g < 2; g++) {
      struct env *e = calloc(1, sizeof(*e));
      float c[8] = { 0.25f, 0.5f, -1.0f, 8.0f, 3.0f, -2.0f, 0.5f, 1.0f };
      for (unsigned k = 0; k < 8; k++)
         e->ubo0[k] = pan_test_u32(c[k]);
      if (run(e, b.shader, gpus[g])) {
         PAN_EXPECT(e->t.writeouts >= 1);
         PAN_EXPECT_EQ(e->bin.nr_bundles, 2);
         for (unsigned k = 0; k < 3; k++)
            PAN_EXPECT_EQ(e->t.colour[k], pan_test_u32(c[k] * c[4 + k]));
         PAN_EXPECT_EQ(e->t.colour[3], pan_test_u32(1.0f / c[3]));
      }
      free(e);
   }
   ralloc_free(b.shader);
}

/* gl_FragDepth: r1.x, written in the writeout bundles, carries the depth
 * out beside the colour in r0. */
static void
test_depth_writeout(void)
{
   nir_builder b = begin(MESA_SHADER_FRAGMENT);
   nir_ssa_def *u0 = uniform(&b, 0, 4);
   nir_ssa_def *col = nir_fmul_imm(&b, u0, 2.0f);
   nir_store_output(&b, col, nir_imm_int(&b, 0), .base = 0,
                    .write_mask = 0xf, .src_type = nir_type_float32,
                    .io_semantics.location = FRAG_RESULT_DATA0,
                    .io_semantics.num_slots = 1);
   nir_store_output(&b, nir_fadd_imm(&b, nir_channel(&b, u0, 2), 0.5f),
                    nir_imm_int(&b, 0), .base = 1, .write_mask = 0x1,
                    .src_type = nir_type_float32,
                    .io_semantics.location = FRAG_RESULT_DEPTH,
                    .io_semantics.num_slots = 1);
   for (unsigned g = 0; g < 2; g++) {
      struct env *e = calloc(1, sizeof(*e));
      float c[4] = { 0.25f, 0.5f, 0.125f, 8.0f };
      for (unsigned k = 0; k < 4; k++)
         e->ubo0[k] = pan_test_u32(c[k]);
      if (run(e, b.shader, gpus[g])) {
         PAN_EXPECT(e->bin.writes_depth);
         PAN_EXPECT(e->t.writeouts >= 1);
         PAN_EXPECT_EQ(e->t.r[1][0], pan_test_u32(c[2] + 0.5f));
         for (unsigned k = 0; k < 4; k++)
            PAN_EXPECT_EQ(e->t.colour[k], pan_test_u32(2.0f * c[k]));
      }
      free(e);
   }
   ralloc_free(b.shader);
}

static void expect_refusal(nir_shader *nir, unsigned gpu, const char *why);

static void
store_colour(nir_builder *b, nir_ssa_def *v, unsigned loc, unsigned offset)
{
   nir_store_output(b, v, nir_imm_int(b, offset), .base = 0,
                    .write_mask = (1u << v->num_components) - 1,
                    .src_type = nir_type_float32,
                    .io_semantics.location = loc,
                    .io_semantics.num_slots = 1);
}

/* Several render targets: one writeout each, r1.z naming the target past
 * the first (and a gl_FragData element at a constant offset reaching
 * location + offset); the colours of the later targets live across the
 * earlier writeouts.  The depth goes out with the first. */
static void
test_mrt_writeout(void)
{
   nir_builder b = begin(MESA_SHADER_FRAGMENT);
   nir_ssa_def *u0 = uniform(&b, 0, 4);
   nir_ssa_def *u1 = uniform(&b, 1, 4);
   store_colour(&b, nir_fmul_imm(&b, u0, 2.0f), FRAG_RESULT_DATA0, 0);
   store_colour(&b, nir_fadd(&b, u0, u1), FRAG_RESULT_DATA1, 1);
   store_colour(&b, nir_swizzle(&b, u1, (unsigned[]){ 3, 2, 1, 0 }, 4),
                FRAG_RESULT_DATA5, 0);
   nir_store_output(&b, nir_channel(&b, u1, 1), nir_imm_int(&b, 0), .base = 1,
                    .write_mask = 0x1, .src_type = nir_type_float32,
                    .io_semantics.location = FRAG_RESULT_DEPTH,
                    .io_semantics.num_slots = 1);
   for (unsigned g = 0; g < 2; g++) {
      struct env *e = calloc(1, sizeof(*e));
      float c[8] = { 0.25f, 0.5f, -1.0f, 8.0f, 3.0f, -0.75f, 1.5f, 2.0f };
      for (unsigned k = 0; k < 8; k++)
         e->ubo0[k] = pan_test_u32(c[k]);
      if (run(e, b.shader, gpus[g])) {
         PAN_EXPECT_EQ(e->bin.rts_written, 0x25);
         PAN_EXPECT_EQ(e->t.rt_written, 0x25);
         PAN_EXPECT_EQ(e->t.r[1][0], pan_test_u32(c[5]));
         for (unsigned k = 0; k < 4; k++) {
            PAN_EXPECT_EQ(e->t.rt_colour[0][k], pan_test_u32(2.0f * c[k]));
            PAN_EXPECT_EQ(e->t.rt_colour[2][k], pan_test_u32(c[k] + c[4 + k]));
            PAN_EXPECT_EQ(e->t.rt_colour[5][k], pan_test_u32(c[7 - k]));
         }
      }
      free(e);
   }

   /* Past the eighth target. */
   nir_builder r = begin(MESA_SHADER_FRAGMENT);
   store_colour(&r, uniform(&r, 0, 4), FRAG_RESULT_DATA6, 2);
   expect_refusal(r.shader, 0x860, "render target 8");
   ralloc_free(b.shader);
}

/* Words of a compiled binary with opcode op in slot, decoded through the
 * ISA tables (the interpreter does not run attributes, varying stores or
 * textures yet, so these shaders are checked word by word). */
static unsigned
collect(const struct mid_binary *bin, enum pan_mid_slot slot, const char *op,
        struct pan_mid_instr *out, unsigned max)
{
   unsigned n = 0;
   for (size_t at = 0; at + 16 < bin->size_B;) {
      struct pan_mid_bundle b;
      size_t sz = pan_mid_decode_bundle(bin->code + at, bin->size_B - at, &b);
      if (!sz)
         break;
      for (unsigned i = 0; i < b.nr_instrs; i++) {
         unsigned value;
         bool is_int;
         const char *name = pan_mid_instr_op(&b.instrs[i], &value, &is_int);
         if (b.instrs[i].slot == slot && name && !strcmp(name, op) && n < max)
            out[n++] = b.instrs[i];
      }
      at += sz;
   }
   return n;
}

static uint64_t
field(const struct pan_mid_instr *I, const char *name)
{
   uint64_t v = ~0ull;
   PAN_CHECK(pan_mid_instr_field(I, name, &v), "no field %s", name);
   return v;
}

static bool
compile_only(nir_shader *nir, unsigned gpu, void *mem, struct mid_binary *bin)
{
   char err[256] = "";
   bool ok = mid_compile(nir_shader_clone(mem, nir), gpu, mem, bin, NULL, err,
                         sizeof(err));
   PAN_CHECK(ok, "compile for 0x%x failed: %s", gpu, err);
   if (ok)
      PAN_EXPECT_EQ(pan_mid_validate(bin->code, bin->size_B - 16, NULL, NULL),
                    0);
   return ok;
}

/* Attributes by driver location, one st_vary per output slot (32-bit,
 * secondary table, data registers alternating), the viewport from the
 * system-value UBO. */
static void
test_vertex(void)
{
   nir_builder b = begin(MESA_SHADER_VERTEX);
   nir_ssa_def *pos = nir_load_input(&b, 4, 32, nir_imm_int(&b, 0), .base = 0,
                                     .dest_type = nir_type_float32);
   nir_ssa_def *tc = nir_load_input(&b, 2, 32, nir_imm_int(&b, 0), .base = 1,
                                    .dest_type = nir_type_uint32);
   nir_store_output(&b, pos, nir_imm_int(&b, 0), .base = 0, .write_mask = 0xf,
                    .src_type = nir_type_float32,
                    .io_semantics.location = VARYING_SLOT_POS,
                    .io_semantics.num_slots = 1);
   nir_store_output(&b, tc, nir_imm_int(&b, 0), .base = 1, .write_mask = 0x3,
                    .src_type = nir_type_float32,
                    .io_semantics.location = VARYING_SLOT_VAR0,
                    .io_semantics.num_slots = 1);
   b.shader->info.num_ubos = 2;
   for (unsigned g = 0; g < 2; g++) {
      void *mem = ralloc_context(NULL);
      struct mid_binary bin;
      if (compile_only(b.shader, gpus[g], mem, &bin)) {
         struct pan_mid_instr w[4];
         PAN_EXPECT_EQ(collect(&bin, PAN_MID_LDST, "ld_attr_32", w, 4), 1);
         PAN_EXPECT_EQ(field(&w[0], "offset"), 0);
         PAN_EXPECT_EQ(field(&w[0], "mask"), 0xf);
         PAN_EXPECT_EQ(collect(&bin, PAN_MID_LDST, "ld_attr_32u", w, 4), 1);
         PAN_EXPECT_EQ(field(&w[0], "offset"), 1 << 9);
         PAN_EXPECT_EQ(field(&w[0], "mask"), 0x3);
         PAN_EXPECT_EQ(collect(&bin, PAN_MID_LDST, "st_vary_32", w, 4), 2);
         PAN_EXPECT_EQ(field(&w[0], "offset") + field(&w[1], "offset"), 1 << 9);
         /* Data from r26 for one, r27 for the other (reg 0 and 1). */
         PAN_EXPECT_EQ(field(&w[0], "reg") + field(&w[1], "reg"), 1);
         PAN_EXPECT_EQ(field(&w[0], "ifmt"), 3);
         PAN_EXPECT_EQ(field(&w[0], "areg"), 7);
         PAN_EXPECT_EQ(bin.sysval_ubo, 2);
         PAN_EXPECT_EQ(bin.nr_push, 2);
         for (unsigned i = 0; i < MIN2(bin.nr_push, 2); i++) {
            PAN_EXPECT_EQ(bin.push_ubo[i], 2);
            PAN_EXPECT_EQ(bin.push[i], i);
         }
         PAN_EXPECT_EQ(collect(&bin, PAN_MID_LUT, "frcp", w, 4) +
                          collect(&bin, PAN_MID_SADD, "frcp", w, 4) +
                          collect(&bin, PAN_MID_SMUL, "frcp", w, 4),
                       1);
      }
      ralloc_free(mem);
   }
   ralloc_free(b.shader);
}

static nir_ssa_def *
tex(nir_builder *b, nir_texop op, nir_ssa_def *coord, bool array,
    nir_ssa_def *cmp, nir_ssa_def *lod, unsigned index)
{
   nir_tex_instr *t = nir_tex_instr_create(b->shader, 1 + !!cmp + !!lod);
   t->op = op;
   t->sampler_dim = GLSL_SAMPLER_DIM_2D;
   t->dest_type = nir_type_float32;
   t->coord_components = coord->num_components;
   t->is_array = array;
   t->is_shadow = cmp != NULL;
   t->is_new_style_shadow = cmp != NULL;
   t->texture_index = t->sampler_index = index;
   unsigned i = 0;
   t->src[i].src_type = nir_tex_src_coord;
   t->src[i++].src = nir_src_for_ssa(coord);
   if (cmp) {
      t->src[i].src_type = nir_tex_src_comparator;
      t->src[i++].src = nir_src_for_ssa(cmp);
   }
   if (lod) {
      t->src[i].src_type =
         op == nir_texop_txb ? nir_tex_src_bias : nir_tex_src_lod;
      t->src[i++].src = nir_src_for_ssa(lod);
   }
   nir_ssa_dest_init(&t->instr, &t->dest, cmp ? 1 : 4, 32, NULL);
   nir_builder_instr_insert(b, &t->instr);
   return &t->dest.ssa;
}

/* Texture words: explicit constant LOD (8.8 fixed point), shadow array
 * lookups, a register bias from r29.x. */
static void
test_textures(void)
{
   nir_builder b = begin(MESA_SHADER_FRAGMENT);
   nir_ssa_def *u0 = uniform(&b, 0, 4);
   nir_ssa_def *a = tex(&b, nir_texop_txl, nir_channels(&b, u0, 0x3), false,
                        NULL, nir_imm_float(&b, 1.5f), 3);
   nir_ssa_def *s = tex(&b, nir_texop_tex, nir_channels(&b, u0, 0x7), true,
                        nir_channel(&b, u0, 3), NULL, 1);
   nir_ssa_def *c = tex(&b, nir_texop_txb, nir_channels(&b, u0, 0x3), false,
                        NULL, nir_channel(&b, u0, 2), 0);
   nir_store_output(&b, nir_fadd(&b, nir_fmul(&b, a, s), c), nir_imm_int(&b, 0),
                    .base = 0, .write_mask = 0xf, .src_type = nir_type_float32,
                    .io_semantics.location = FRAG_RESULT_DATA0,
                    .io_semantics.num_slots = 1);
   for (unsigned g = 0; g < 2; g++) {
      void *mem = ralloc_context(NULL);
      struct mid_binary bin;
      if (compile_only(b.shader, gpus[g], mem, &bin)) {
         struct pan_mid_instr w[4];
         PAN_EXPECT_EQ(bin.nr_tex, 3);
         PAN_EXPECT_EQ(collect(&bin, PAN_MID_TEX, "gradient", w, 4), 1);
         PAN_EXPECT_EQ(field(&w[0], "dim"), 2);
         PAN_EXPECT_EQ(field(&w[0], "texture"), 3);
         PAN_EXPECT_EQ(field(&w[0], "sampler"), 3);
         PAN_EXPECT_EQ(field(&w[0], "biasi"), 1);
         PAN_EXPECT_EQ(field(&w[0], "bias"), 0x80);
         PAN_EXPECT_EQ(field(&w[0], "lodreg"), 0);
         PAN_EXPECT_EQ(field(&w[0], "mode"), 1);
         PAN_EXPECT_EQ(collect(&bin, PAN_MID_TEX, "normal", w, 4), 2);
         unsigned shadow = field(&w[0], "mode") == 5 ? 0 : 1;
         PAN_EXPECT_EQ(field(&w[shadow], "mode"), 5);
         PAN_EXPECT_EQ(field(&w[shadow], "texture"), 1);
         PAN_EXPECT_EQ(field(&w[1 - shadow], "lodreg"), 1);
         PAN_EXPECT_EQ(field(&w[1 - shadow], "bias"), 0x3);
         PAN_EXPECT_EQ(field(&w[1 - shadow], "stype"), 1);
      }
      ralloc_free(mem);
   }
   ralloc_free(b.shader);
}

static void
expect_refusal(nir_shader *nir, unsigned gpu, const char *why)
{
   char err[256] = "";
   struct mid_binary bin;
   void *mem = ralloc_context(NULL);
   bool ok = mid_compile(nir, gpu, mem, &bin, NULL, err, sizeof(err));
   PAN_CHECK(!ok, "compiled although %s", why);
   PAN_EXPECT_STR_HAS(err, why);
   ralloc_free(mem);
   ralloc_free(nir);
}

/* A first-stage result read only by a second-stage unit of the same
 * bundle goes through r24/r25: the binary forwards and still computes
 * a * b + c on the interpreter. */
static void
test_pipeline_registers(void)
{
   nir_builder b = begin(MESA_SHADER_COMPUTE);
   nir_ssa_def *u0 = uniform(&b, 0, 4), *u1 = uniform(&b, 1, 4),
               *u2 = uniform(&b, 2, 4);
   store(&b, 0, nir_fadd(&b, nir_fmul(&b, u0, u1), u2));
   store(&b, 4,
         nir_fadd(&b,
                  nir_fmul(&b, nir_channel(&b, u0, 1), nir_channel(&b, u1, 2)),
                  nir_channel(&b, u2, 3)));
   float x[12];
   for (unsigned i = 0; i < 12; i++)
      x[i] = 0.75f * (float)i - 2.5f;

   for (unsigned g = 0; g < 2; g++) {
      struct env *e = calloc(1, sizeof(*e));
      for (unsigned i = 0; i < 12; i++)
         e->ubo0[i] = pan_test_u32(x[i]);
      if (run(e, b.shader, gpus[g])) {
         for (unsigned i = 0; i < 4; i++)
            PAN_EXPECT_EQ(out_word(e, i),
                          pan_test_u32(x[i] * x[4 + i] + x[8 + i]));
         PAN_EXPECT_EQ(out_word(e, 4), pan_test_u32(x[1] * x[6] + x[11]));

         /* run() frees its binary: decode a fresh one. */
         void *mem = ralloc_context(NULL);
         struct mid_binary bin;
         unsigned forwarded = 0;
         if (!compile_only(b.shader, gpus[g], mem, &bin))
            bin.size_B = 0;
         for (size_t at = 0; at + 16 < bin.size_B;) {
            struct pan_mid_bundle bu;
            size_t sz =
               pan_mid_decode_bundle(bin.code + at, bin.size_B - at, &bu);
            if (!sz)
               break;
            at += sz;
            uint32_t written = 0;
            for (unsigned i = 0; i < bu.nr_instrs; i++) {
               const struct pan_mid_instr *I = &bu.instrs[i];
               if (I->slot == PAN_MID_VMUL || I->slot == PAN_MID_SADD) {
                  uint64_t d = field(I, "d");
                  if (d == 24 || d == 25)
                     written |= 1u << d;
               } else if (I->slot == PAN_MID_VADD || I->slot == PAN_MID_SMUL ||
                          I->slot == PAN_MID_LUT) {
                  uint64_t a = field(I, "a"), bb = 0;
                  pan_mid_instr_field(I, "b", &bb);
                  forwarded += (a < 32 && (written & (1u << a))) ||
                               (bb < 32 && (written & (1u << bb)));
               }
            }
         }
         PAN_EXPECT(forwarded >= 1);
         ralloc_free(mem);
      }
      free(e);
   }
   ralloc_free(b.shader);
}

static void
colour_out(nir_builder *b, nir_ssa_def *v)
{
   nir_store_output(b, v, nir_imm_int(b, 0), .base = 0, .write_mask = 0xf,
                    .src_type = nir_type_float32,
                    .io_semantics.location = FRAG_RESULT_DATA0,
                    .io_semantics.num_slots = 1);
}

/* discard_if ends the thread when its condition holds; the code after it
 * (here an if/else, whose branches must still find their targets) runs
 * otherwise.  An unconditional discard always ends it. */
static void
test_discard(void)
{
   nir_builder b = begin(MESA_SHADER_FRAGMENT);
   nir_ssa_def *u0 = uniform(&b, 0, 4);
   nir_discard_if(&b, nir_flt(&b, nir_channel(&b, u0, 0), nir_imm_float(&b, 0)));
   nir_push_if(&b, nir_flt(&b, nir_imm_float(&b, 0), nir_channel(&b, u0, 1)));
   colour_out(&b, nir_fmul_imm(&b, u0, 2.0f));
   nir_push_else(&b, NULL);
   colour_out(&b, nir_fmul_imm(&b, u0, 3.0f));
   nir_pop_if(&b, NULL);
   static const float in[3][4] = {
      { -1.0f, 1.0f, 0.5f, 0.25f },
      { 1.0f, 1.0f, 0.5f, 0.25f },
      { 1.0f, -1.0f, 0.5f, 0.25f },
   };
   for (unsigned g = 0; g < 2; g++) {
      for (unsigned i = 0; i < 3; i++) {
         struct env *e = calloc(1, sizeof(*e));
         for (unsigned k = 0; k < 4; k++)
            e->ubo0[k] = pan_test_u32(in[i][k]);
         if (run(e, b.shader, gpus[g])) {
            PAN_EXPECT_EQ(e->t.discarded, i == 0);
            float f = in[i][1] > 0 ? 2.0f : 3.0f;
            for (unsigned k = 0; i && k < 4; k++)
               PAN_EXPECT_EQ(e->t.colour[k], pan_test_u32(f * in[i][k]));
         }
         free(e);
      }
   }
   ralloc_free(b.shader);

   b = begin(MESA_SHADER_FRAGMENT);
   colour_out(&b, uniform(&b, 0, 4));
   nir_discard(&b);
   struct env *e = calloc(1, sizeof(*e));
   if (run(e, b.shader, 0x860)) {
      PAN_EXPECT(e->t.discarded);
      PAN_EXPECT_EQ(e->t.writeouts, 0);
   }
   free(e);
   ralloc_free(b.shader);
}

/* A fragment shader with no effect is an empty program (as the stock
 * compiler emits it); one that has work but no colour is refused. */
static void
test_empty_fragment(void)
{
   nir_builder b = begin(MESA_SHADER_FRAGMENT);
   void *mem = ralloc_context(NULL);
   struct mid_binary bin;
   char err[256] = "";
   bool ok = mid_compile(b.shader, 0x860, mem, &bin, NULL, err, sizeof(err));
   PAN_CHECK(ok, "empty fragment shader refused: %s", err);
   if (ok) {
      PAN_EXPECT_EQ(bin.nr_bundles, 0);
      PAN_EXPECT_EQ(bin.nr_instrs, 0);
      PAN_EXPECT_EQ(bin.size_B, 16);
   }
   ralloc_free(mem);
   ralloc_free(b.shader);

   b = begin(MESA_SHADER_FRAGMENT);
   store(&b, 0, uniform(&b, 0, 4));
   expect_refusal(b.shader, 0x860, "without a colour output");
}

/* Derivatives are texture deriv words on two lanes each (mode 0 for x, 1
 * for y; the interpreter does not run them, so the words are checked);
 * texture sizes read the system-value UBO and run. */
static void
test_derivatives_and_sizes(void)
{
   nir_builder b = begin(MESA_SHADER_FRAGMENT);
   nir_ssa_def *u0 = uniform(&b, 0, 4);
   nir_ssa_def *dy = nir_fddy(&b, nir_channels(&b, u0, 0x3));
   colour_out(&b, nir_fadd(&b, nir_fddx(&b, u0),
                           nir_vec4(&b, nir_channel(&b, dy, 0),
                                    nir_channel(&b, dy, 1),
                                    nir_imm_float(&b, 0),
                                    nir_imm_float(&b, 0))));
   for (unsigned g = 0; g < 2; g++) {
      void *mem = ralloc_context(NULL);
      struct mid_binary bin;
      if (compile_only(b.shader, gpus[g], mem, &bin)) {
         struct pan_mid_instr w[4];
         PAN_EXPECT_EQ(collect(&bin, PAN_MID_TEX, "deriv", w, 4), 3);
         unsigned modes = 0;
         for (unsigned i = 0; i < 3; i++) {
            modes += field(&w[i], "mode");
            PAN_EXPECT_EQ(field(&w[i], "mask"), 0x3);
            PAN_EXPECT_EQ(field(&w[i], "dim"), 2);
            PAN_EXPECT_EQ(field(&w[i], "stype"), 1);
         }
         PAN_EXPECT_EQ(modes, 1); /* two for x, one for y */
      }
      ralloc_free(mem);
   }
   ralloc_free(b.shader);

   b = begin(MESA_SHADER_VERTEX);
   store(&b, 0, nir_fddx(&b, uniform(&b, 0, 4)));
   expect_refusal(b.shader, 0x860, "derivatives outside a fragment shader");

   /* textureSize(t2, 1): (64, 20) at LOD 0 halves. */
   b = begin(MESA_SHADER_COMPUTE);
   b.shader->info.num_ubos = 1; /* the system values are UBO 1 */
   nir_tex_instr *t = nir_tex_instr_create(b.shader, 1);
   t->op = nir_texop_txs;
   t->sampler_dim = GLSL_SAMPLER_DIM_2D;
   t->dest_type = nir_type_int32;
   t->texture_index = t->sampler_index = 2;
   t->src[0].src_type = nir_tex_src_lod;
   t->src[0].src = nir_src_for_ssa(nir_imm_int(&b, 1));
   nir_ssa_dest_init(&t->instr, &t->dest, 2, 32, NULL);
   nir_builder_instr_insert(&b, &t->instr);
   store(&b, 0, &t->dest.ssa);
   for (unsigned g = 0; g < 2; g++) {
      struct env *e = calloc(1, sizeof(*e));
      e->ubo1[4 * (MID_SYSVAL_TEX_SIZE + 2) + 0] = 64;
      e->ubo1[4 * (MID_SYSVAL_TEX_SIZE + 2) + 1] = 20;
      if (run(e, b.shader, gpus[g])) {
         PAN_EXPECT_EQ(e->bin.sysval_ubo, 1);
         PAN_EXPECT_EQ(out_word(e, 0), 32);
         PAN_EXPECT_EQ(out_word(e, 1), 10);
      }
      free(e);
   }
   ralloc_free(b.shader);
}

/* A cube map lookup: the direction to r26, ld_cubemap_coords (32-bit,
 * from r26) writing r28.xy, then a texture word of dimension 0.  Vertex
 * IDs: ld_attr_32i from attributes 16 and 17, the first vertex added from
 * the system-value UBO.  Neither runs on the interpreter: words checked. */
/* A texture unit whose texel at (s, t) is (s + t, 2s, 3t, lod). */
static bool
fake_tex(void *user, const struct pan_sim_mid_tex *req, uint32_t out[4],
         char *err)
{
   float s = pan_test_f32(req->coords[0]), t = pan_test_f32(req->coords[1]);
   out[0] = pan_test_u32(s + t);
   out[1] = pan_test_u32(2 * s);
   out[2] = pan_test_u32(3 * t);
   out[3] = pan_test_u32(req->lod);
   return true;
}

/* Texture words run: on T720 they read r26/r27 and write r0, so values
 * live across them (here four vec4s, more than r0 alone) must stay out of
 * r0 and the bias goes through r27.  Two lookups, the second's coordinates
 * computed from the first's result. */
static void
test_texture_runs(void)
{
   nir_builder b = begin(MESA_SHADER_FRAGMENT); /* implicit LODs */
   nir_ssa_def *u0 = uniform(&b, 0, 4), *u1 = uniform(&b, 1, 4);
   nir_ssa_def *k[4];
   for (unsigned i = 0; i < 4; i++)
      k[i] = nir_fmul(&b, u0, nir_imm_float(&b, (float)(i + 2)));
   nir_ssa_def *a = tex(&b, nir_texop_txb, nir_channels(&b, u1, 0x3), false,
                        NULL, nir_channel(&b, u1, 2), 0);
   nir_ssa_def *c = tex(&b, nir_texop_txb, nir_channels(&b, a, 0x6), false,
                        NULL, nir_channel(&b, u0, 3), 1);
   for (unsigned i = 0; i < 4; i++)
      store(&b, 4 * i, nir_fadd(&b, k[i], a));
   store(&b, 16, c);
   colour_out(&b, a);

   static const struct pan_sim_mid_gfx gfx = { .tex = fake_tex };
   for (unsigned g = 0; g < 2; g++) {
      struct env *e = calloc(1, sizeof(*e));
      float x[4] = { 0.5f, 1.25f, -2.0f, 4.0f }, y[4] = { 3.0f, 0.25f, 2.0f };
      for (unsigned i = 0; i < 4; i++) {
         e->ubo0[i] = pan_test_u32(x[i]);
         e->ubo0[4 + i] = pan_test_u32(y[i]);
      }
      e->gfx = &gfx;
      float ta[4] = { y[0] + y[1], 2 * y[0], 3 * y[1], y[2] };
      float tc[4] = { ta[1] + ta[2], 2 * ta[1], 3 * ta[2], x[3] };
      if (run(e, b.shader, gpus[g])) {
         for (unsigned i = 0; i < 4; i++) {
            for (unsigned l = 0; l < 4; l++)
               PAN_CHECK(out_word(e, 4 * i + l) ==
                            pan_test_u32(x[l] * (float)(i + 2) + ta[l]),
                         "0x%x: k%u + a lane %u", gpus[g], i, l);
            PAN_EXPECT_EQ(out_word(e, 16 + i), pan_test_u32(tc[i]));
            PAN_EXPECT_EQ(e->t.colour[i], pan_test_u32(ta[i]));
         }
      }
      free(e);
   }
   ralloc_free(b.shader);
}

static void
test_cube_and_vertex_ids(void)
{
   nir_builder b = begin(MESA_SHADER_FRAGMENT);
   nir_tex_instr *t = nir_tex_instr_create(b.shader, 1);
   t->op = nir_texop_tex;
   t->sampler_dim = GLSL_SAMPLER_DIM_CUBE;
   t->dest_type = nir_type_float32;
   t->coord_components = 3;
   t->texture_index = t->sampler_index = 1;
   t->src[0].src_type = nir_tex_src_coord;
   t->src[0].src = nir_src_for_ssa(nir_channels(&b, uniform(&b, 0, 4), 0x7));
   nir_ssa_dest_init(&t->instr, &t->dest, 4, 32, NULL);
   nir_builder_instr_insert(&b, &t->instr);
   colour_out(&b, &t->dest.ssa);
   for (unsigned g = 0; g < 2; g++) {
      void *mem = ralloc_context(NULL);
      struct mid_binary bin;
      if (compile_only(b.shader, gpus[g], mem, &bin)) {
         struct pan_mid_instr w[2];
         PAN_EXPECT_EQ(collect(&bin, PAN_MID_LDST, "ld_cubemap_coords", w, 2),
                       1);
         /* T720 has no texture registers: the inputs are r26/r27. */
         PAN_EXPECT_EQ(field(&w[0], "reg"), gpus[g] == 0x720 ? 26 : 28);
         PAN_EXPECT_EQ(field(&w[0], "mask"), 0x3);
         PAN_EXPECT_EQ(field(&w[0], "wide"), 1);
         PAN_EXPECT_EQ(field(&w[0], "areg"), 0);
         PAN_EXPECT_EQ(collect(&bin, PAN_MID_TEX, "normal", w, 2), 1);
         PAN_EXPECT_EQ(field(&w[0], "dim"), 0);
         PAN_EXPECT_EQ(field(&w[0], "texture"), 1);
      }
      ralloc_free(mem);
   }
   ralloc_free(b.shader);

   b = begin(MESA_SHADER_VERTEX);
   nir_ssa_def *id = nir_iadd(&b, nir_load_vertex_id_zero_base(&b),
                              nir_load_first_vertex(&b));
   store(&b, 0, nir_iadd(&b, id, nir_load_instance_id(&b)));
   for (unsigned g = 0; g < 2; g++) {
      void *mem = ralloc_context(NULL);
      struct mid_binary bin;
      if (compile_only(b.shader, gpus[g], mem, &bin)) {
         struct pan_mid_instr w[4];
         PAN_EXPECT_EQ(collect(&bin, PAN_MID_LDST, "ld_attr_32i", w, 4), 2);
         unsigned idx = (field(&w[0], "offset") >> 9) +
                        (field(&w[1], "offset") >> 9);
         PAN_EXPECT_EQ(idx, MID_ATTR_VERTEX_ID + MID_ATTR_INSTANCE_ID);
         bool pushed = false;
         for (unsigned i = 0; i < bin.nr_push; i++)
            pushed |= bin.push_ubo[i] == bin.sysval_ubo &&
                      bin.push[i] == MID_SYSVAL_DRAW;
         PAN_EXPECT(pushed);
      }
      ralloc_free(mem);
   }
   ralloc_free(b.shader);
}

static void
test_refusals(void)
{
   nir_builder b = begin(MESA_SHADER_COMPUTE);
   store(&b, 0,
         nir_u2u32(&b, nir_iadd(&b, nir_u2u64(&b, uniform(&b, 0, 1)),
                                nir_imm_int64(&b, 1ll << 40))));
   expect_refusal(b.shader, 0x860, "64-bit");

   b = begin(MESA_SHADER_COMPUTE);
   store(&b, 0, nir_load_local_invocation_index(&b));
   expect_refusal(b.shader, 0x860, "load_local_invocation_index");

   b = begin(MESA_SHADER_TESS_CTRL);
   expect_refusal(b.shader, 0x860, "not supported");

   b = begin(MESA_SHADER_COMPUTE);
   store(&b, 0, uniform(&b, 0, 1));
   expect_refusal(b.shader, 0x6221, "Midgard");

   /* texelFetch(samplerBuffer): Midgard has no buffer views. */
   b = begin(MESA_SHADER_VERTEX);
   nir_ssa_def *texel =
      tex(&b, nir_texop_txf, nir_channel(&b, uniform(&b, 0, 1), 0), false,
          NULL, NULL, 0);
   nir_instr_as_tex(texel->parent_instr)->sampler_dim = GLSL_SAMPLER_DIM_BUF;
   store(&b, 0, nir_channel(&b, texel, 0));
   expect_refusal(b.shader, 0x860, "texture buffers");
}

int
main(void)
{
   glsl_type_singleton_init_or_ref();
   PAN_RUN_CASE(test_float_vec4);
   PAN_RUN_CASE(test_dot);
   PAN_RUN_CASE(test_int);
   PAN_RUN_CASE(test_control_flow);
   PAN_RUN_CASE(test_uniform_into_phi);
   PAN_RUN_CASE(test_memory_and_conversions);
   PAN_RUN_CASE(test_register_pressure);
   PAN_RUN_CASE(test_fragment_writeout);
   PAN_RUN_CASE(test_colour_writers_in_writeout);
   PAN_RUN_CASE(test_depth_writeout);
   PAN_RUN_CASE(test_mrt_writeout);
   PAN_RUN_CASE(test_lut_broadcast);
   PAN_RUN_CASE(test_select_modifiers);
   PAN_RUN_CASE(test_shared_ubo_index);
   PAN_RUN_CASE(test_vertex);
   PAN_RUN_CASE(test_textures);
   PAN_RUN_CASE(test_pipeline_registers);
   PAN_RUN_CASE(test_push_under_pressure);
   PAN_RUN_CASE(test_push_for_one_thread);
   PAN_RUN_CASE(test_discard);
   PAN_RUN_CASE(test_empty_fragment);
   PAN_RUN_CASE(test_derivatives_and_sizes);
   PAN_RUN_CASE(test_texture_runs);
   PAN_RUN_CASE(test_cube_and_vertex_ids);
   PAN_RUN_CASE(test_refusals);
   glsl_type_singleton_decref();
   return pan_test_summary("pan_mid_compile");
}
