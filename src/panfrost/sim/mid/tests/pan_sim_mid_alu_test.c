/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Known-answer tests of the Midgard interpreter: programs assembled with
 * pan_mid_assemble, results checked against C computations.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/pan_isa_mid.h"
#include "util/pan_test_util.h"
#include "pan_sim_mid.h"

#define MEM_VA 0x10000ull
#define MEM_B 4096

struct prog {
   struct pan_isa_bytes code;
   uint8_t mem[MEM_B];
   uint32_t uniforms[16][4];
   struct pan_sim_mid_config cfg;
   struct pan_sim_mid_thread t;
};

static bool
mem_read(void *user, uint64_t addr, void *data, unsigned size)
{
   struct prog *p = user;
   if (addr < MEM_VA || addr > MEM_VA + MEM_B - size)
      return false;
   memcpy(data, p->mem + (addr - MEM_VA), size);
   return true;
}

static bool
mem_write(void *user, uint64_t addr, const void *data, unsigned size)
{
   struct prog *p = user;
   if (addr < MEM_VA || addr > MEM_VA + MEM_B - size)
      return false;
   memcpy(p->mem + (addr - MEM_VA), data, size);
   return true;
}

/* Assemble and run; returns the status, -1 when assembly fails. */
static int
run(struct prog *p, const char *text)
{
   char err[256];
   pan_isa_bytes_free(&p->code);
   memset(&p->code, 0, sizeof(p->code));
   if (pan_mid_assemble(text, strlen(text), &p->code, err, sizeof(err))) {
      PAN_CHECK(false, "assembly failed: %s", err);
      return -1;
   }
   p->cfg.program = p->code.data;
   p->cfg.program_size = p->code.size_B;
   p->cfg.uniforms = (const uint32_t(*)[4])p->uniforms;
   p->cfg.nr_uniforms = 16;
   p->cfg.mem = (struct pan_sim_mid_mem){ p, mem_read, mem_write };
   pan_sim_mid_thread_init(&p->t);
   return pan_sim_mid_run(&p->t, &p->cfg);
}

static struct prog P;

static const uint32_t specials[] = {
   0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000,
   0x7fc00000, 0x00000001, 0x807fffff, 0x7f7fffff, 0x3effffff, 0x4b800001,
};

static uint32_t
pick(uint64_t *rng, unsigned i)
{
   if (i < 12)
      return specials[i];
   return (uint32_t)(pan_test_rng64(rng) >> 32);
}

/* Canonical NaN compare: any NaN matches the interpreter's NaN. */
static void
expect_f32(uint32_t got, float want, const char *what, uint32_t a, uint32_t b)
{
   uint32_t w = pan_test_u32(want);
   if (isnan(want))
      w = 0x7fc00000;
   PAN_CHECK(got == w, "%s(0x%08x, 0x%08x) = 0x%08x, want 0x%08x", what, a, b,
             got, w);
}

/* Binary fp32 ops on the vadd/vmul units, 4 lanes at a time. */
static void
test_fp32_binary(void)
{
   static const char *const ops[] = { "vadd.fadd", "vmul.fmul", "vadd.fmin_nan",
                                      "vadd.fmax_nan" };
   uint64_t rng = 0x1234567;
   char text[256];
   for (unsigned o = 0; o < 4; o++) {
      snprintf(text, sizeof(text), "alu next=break\n\t%s a=r23 b=r22\n",
               ops[o]);
      for (unsigned k = 0; k < 100; k++) {
         for (unsigned c = 0; c < 4; c++) {
            P.uniforms[0][c] = pick(&rng, (4 * k + c) % 12 + (k >= 3) * 12);
            P.uniforms[1][c] = pick(&rng, (4 * k + c + 5) % 12 + (k >= 3) * 12);
         }
         if (run(&P, text) != PAN_SIM_MID_DONE) {
            PAN_CHECK(false, "%s faulted: %s", ops[o], P.t.fault);
            return;
         }
         for (unsigned c = 0; c < 4; c++) {
            float a = pan_test_f32(P.uniforms[0][c]);
            float b = pan_test_f32(P.uniforms[1][c]);
            float w = o == 0                 ? a + b
                      : o == 1               ? a * b
                      : isnan(a) || isnan(b) ? NAN
                      : o == 2               ? fminf(a, b)
                                             : fmaxf(a, b);
            if (o >= 2 && a == 0 && b == 0)
               continue; /* sign of zero: checked separately */
            expect_f32(P.t.r[0][c], w, ops[o], P.uniforms[0][c],
                       P.uniforms[1][c]);
         }
      }
   }
}

/* Directed rounding: fadd_rtz/rtn/rtp against fenv-free references. */
static void
test_fp32_rounding(void)
{
   /* 1 + 2^-30 is between 1 and its successor 1 + 2^-23. */
   P.uniforms[0][0] = 0x3f800000;
   P.uniforms[1][0] = 0x30800000;
   P.uniforms[0][1] = 0xbf800000;
   P.uniforms[1][1] = 0xb0800000;
   const char *ops[] = { "fadd", "fadd_rtz", "fadd_rtn", "fadd_rtp" };
   const uint32_t want[4][2] = { { 0x3f800000, 0xbf800000 },
                                 { 0x3f800000, 0xbf800000 },
                                 { 0x3f800000, 0xbf800001 },
                                 { 0x3f800001, 0xbf800000 } };
   char text[128];
   for (unsigned i = 0; i < 4; i++) {
      snprintf(text, sizeof(text), "alu next=break\n\tvadd.%s a=r23 b=r22\n",
               ops[i]);
      PAN_EXPECT_EQ(run(&P, text), PAN_SIM_MID_DONE);
      PAN_EXPECT_EQ(P.t.r[0][0], want[i][0]);
      PAN_EXPECT_EQ(P.t.r[0][1], want[i][1]);
   }
}

static void
test_lut(void)
{
   uint64_t rng = 99;
   for (unsigned k = 0; k < 200; k++) {
      for (unsigned c = 0; c < 4; c++)
         P.uniforms[0][c] = pick(&rng, k < 3 ? (4 * k + c) % 12 : 12);
      PAN_EXPECT_EQ(run(&P, "alu next=break\n\tlut.frcp a=r23 d=r0\n"),
                    PAN_SIM_MID_DONE);
      for (unsigned c = 0; c < 4; c++) {
         float a = pan_test_f32(P.uniforms[0][c]);
         expect_f32(P.t.r[0][c], 1.0f / a, "frcp", P.uniforms[0][c], 0);
      }
      PAN_EXPECT_EQ(run(&P, "alu next=break\n\tlut.fsqrt a=r23 d=r0\n"),
                    PAN_SIM_MID_DONE);
      for (unsigned c = 0; c < 4; c++) {
         float a = pan_test_f32(P.uniforms[0][c]);
         expect_f32(P.t.r[0][c], sqrtf(a), "fsqrt", P.uniforms[0][c], 0);
      }
   }
}

static void
test_integer(void)
{
   uint64_t rng = 7;
   for (unsigned k = 0; k < 200; k++) {
      for (unsigned c = 0; c < 4; c++) {
         P.uniforms[0][c] = pan_test_rng64(&rng);
         P.uniforms[1][c] = k < 4 ? 0x80000000u + c : pan_test_rng64(&rng);
      }
      const uint32_t *a = P.uniforms[0], *b = P.uniforms[1];
      PAN_EXPECT_EQ(run(&P, "alu next=break\n"
                            "\tvmul.imul a=r23 b=r22 d=r1 omod=keephi\n"
                            "\tvadd.iadd a=r23 b=r22 d=r0 omod=keeplo\n"
                            "\tlut.ilt a=r23 b=r22 d=r2 omod=keeplo\n"),
                    PAN_SIM_MID_DONE);
      for (unsigned c = 0; c < 4; c++) {
         PAN_EXPECT_EQ(P.t.r[0][c], a[c] + b[c]);
         PAN_EXPECT_EQ(
            P.t.r[1][c],
            (uint32_t)(((int64_t)(int32_t)a[c] * (int32_t)b[c]) >> 32));
         PAN_EXPECT_EQ(P.t.r[2][c],
                       (int32_t)a[c] < (int32_t)b[c] ? 0xffffffffu : 0);
      }
      /* Default omod of integers is ssat: a saturating add. */
      PAN_EXPECT_EQ(run(&P, "alu next=break\n\tvadd.iadd a=r23 b=r22\n"),
                    PAN_SIM_MID_DONE);
      for (unsigned c = 0; c < 4; c++) {
         int64_t s = (int64_t)(int32_t)a[c] + (int32_t)b[c];
         s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
         PAN_EXPECT_EQ(P.t.r[0][c], (uint32_t)s);
      }
   }
}

static void
test_convert(void)
{
   static const float vals[] = { 1.5f,  -2.5f, 2.5f,        3e9f,
                                 -3e9f, NAN,   0.49999997f, -0.0f };
   for (unsigned k = 0; k < 2; k++) {
      for (unsigned c = 0; c < 4; c++)
         P.uniforms[0][c] = pan_test_u32(vals[4 * k + c]);
      PAN_EXPECT_EQ(run(&P, "alu next=break\n"
                            "\tvadd.f2i_rtz a=r23 omod=keeplo\n"),
                    PAN_SIM_MID_DONE);
      for (unsigned c = 0; c < 4; c++) {
         float v = vals[4 * k + c];
         int32_t w = isnan(v)     ? 0
                     : v >= 2e9f  ? INT32_MAX
                     : v <= -3e9f ? INT32_MIN
                                  : (int32_t)v;
         PAN_EXPECT_EQ(P.t.r[0][c], (uint32_t)w);
      }
   }
   uint64_t rng = 3;
   for (unsigned k = 0; k < 100; k++) {
      for (unsigned c = 0; c < 4; c++)
         P.uniforms[0][c] = pan_test_rng64(&rng);
      PAN_EXPECT_EQ(run(&P, "alu next=break\n\tvadd.i2f a=r23\n"),
                    PAN_SIM_MID_DONE);
      for (unsigned c = 0; c < 4; c++)
         PAN_EXPECT_EQ(P.t.r[0][c],
                       pan_test_u32((float)(int32_t)P.uniforms[0][c]));
   }
}

/* Swizzles, masks, scalar units, immediates and constants. */
static void
test_operands(void)
{
   for (unsigned c = 0; c < 4; c++)
      P.uniforms[0][c] = pan_test_u32(1.0f + c);
   PAN_EXPECT_EQ(run(&P, "alu next=break\n"
                         "\tvadd.fmov b=r23 d=r0 bswz=wzyx mask=0x3c\n"
                         "\tsmul.fmul a=r23 b=r23 d=r1 afull acomp=6 bfull "
                         "bcomp=4 dfull dcomp=2\n"),
                 PAN_SIM_MID_DONE);
   PAN_EXPECT_EQ(P.t.r[0][0], 0);
   PAN_EXPECT_EQ(P.t.r[0][1], pan_test_u32(3.0f));
   PAN_EXPECT_EQ(P.t.r[0][2], pan_test_u32(2.0f));
   PAN_EXPECT_EQ(P.t.r[0][3], 0);
   PAN_EXPECT_EQ(P.t.r[1][1], pan_test_u32(12.0f));

   /* Immediate 0x3c00 (1.0 in half) and embedded constants, abs/neg. */
   PAN_EXPECT_EQ(run(&P,
                     "alu next=break\n"
                     "\tvadd.fadd a=r26 b=r7 bimm bexp=4 bswz=xxxx aswz=yyyy "
                     "amod=neg\n"
                     "\tconsts 0x40000000 0x40400000 0 0\n"),
                 PAN_SIM_MID_DONE);
   for (unsigned c = 0; c < 4; c++)
      PAN_EXPECT_EQ(P.t.r[0][c], pan_test_u32(-3.0f + 1.0f));

   /* Output clamp and 16-bit shrink of a 32-bit result into the upper
    * half. */
   P.uniforms[0][0] = pan_test_u32(1.75f);
   P.uniforms[0][1] = pan_test_u32(-0.5f);
   P.uniforms[0][2] = pan_test_u32(0.25f);
   P.uniforms[0][3] = pan_test_u32(65536.0f);
   PAN_EXPECT_EQ(run(&P, "alu next=break\n"
                         "\tvadd.fmov b=r23 omod=sat shrink=hi\n"),
                 PAN_SIM_MID_DONE);
   PAN_EXPECT_EQ(P.t.r[0][0], 0);
   PAN_EXPECT_EQ(P.t.r[0][1], 0);
   PAN_EXPECT_EQ(P.t.r[0][2], 0x00003c00u); /* 1.0, 0.0 */
   PAN_EXPECT_EQ(P.t.r[0][3], 0x3c003400u); /* 0.25, 1.0 */
}

/* 16-bit lanes: a half-float add, and the two halves of the swizzle. */
static void
test_fp16(void)
{
   P.uniforms[0][0] = 0x40003c00; /* 1.0, 2.0 */
   P.uniforms[0][1] = 0x44004200; /* 3.0, 4.0 */
   P.uniforms[0][2] = 0x45004400; /* 4.0, 5.0 */
   P.uniforms[0][3] = 0x3c003c00;
   PAN_EXPECT_EQ(run(&P, "alu next=break\n"
                         "\tvadd.fadd a=r23 b=r23 mode=m16 bswz=yxwz\n"),
                 PAN_SIM_MID_DONE);
   /* lanes 0-3 add swizzled lanes 1,0,3,2; lanes 4-7 lanes 5,4,7,6 */
   PAN_EXPECT_EQ(P.t.r[0][0], 0x42004200u); /* 3, 3 */
   PAN_EXPECT_EQ(P.t.r[0][1], 0x47004700u); /* 7, 7 */
   PAN_EXPECT_EQ(P.t.r[0][2], 0x48804880u); /* 9, 9 */
   PAN_EXPECT_EQ(P.t.r[0][3], 0x40004000u); /* 2, 2 */
}

/* The two stages of an ALU bundle: vmul/sadd read the registers as the
 * bundle started; vadd/smul/lut see what the first stage wrote (work or
 * pipeline registers) but not each other's writes. */
static void
test_stages(void)
{
   for (unsigned c = 0; c < 4; c++)
      P.uniforms[0][c] = pan_test_u32(2.0f);
   PAN_EXPECT_EQ(run(&P, "alu next=alu8\n"
                         "\tvadd.fmov b=r23 d=r0\n"
                         "alu next=break\n"
                         "\tvmul.fmul a=r0 b=r0 d=r24\n"
                         "\tsadd.fadd a=r0 b=r0 afull bfull dfull d=r0\n"
                         "\tvadd.fadd a=r24 b=r0 d=r1\n"),
                 PAN_SIM_MID_DONE);
   /* vadd saw r24 = 4 and r0.x = 4 from the first stage, r0.y = 2. */
   PAN_EXPECT_EQ(P.t.r[1][0], pan_test_u32(8.0f));
   PAN_EXPECT_EQ(P.t.r[1][1], pan_test_u32(6.0f));
   PAN_EXPECT_EQ(P.t.r[0][0], pan_test_u32(4.0f));
   PAN_EXPECT_EQ(P.t.bundles, 2);

   /* Through a work register, and units of one stage in parallel. */
   PAN_EXPECT_EQ(run(&P, "alu next=alu12\n"
                         "\tvadd.fmov b=r23 d=r0\n"
                         "alu next=break\n"
                         "\tvmul.fmul a=r0 b=r0 d=r2\n"
                         "\tsadd.fadd a=r2 b=r0 afull bfull dfull d=r3\n"
                         "\tvadd.fadd a=r2 b=r0 d=r1\n"
                         "\tsmul.fmul a=r1 b=r0 afull bfull dfull d=r4\n"
                         "\tlut.frcp a=r1 d=r5\n"),
                 PAN_SIM_MID_DONE);
   PAN_EXPECT_EQ(P.t.r[2][0], pan_test_u32(4.0f));
   PAN_EXPECT_EQ(P.t.r[3][0], pan_test_u32(2.0f)); /* r2 as it was: 0 */
   PAN_EXPECT_EQ(P.t.r[1][2], pan_test_u32(6.0f)); /* vmul's r2 = 4 */
   PAN_EXPECT_EQ(P.t.r[4][0], 0);                  /* vadd's r1 unseen */
   PAN_EXPECT_EQ(P.t.r[5][0], pan_test_u32(INFINITY)); /* 1 / 0 */
}

/* r28/r29 as ALU and load/store destinations are the texture unit's
 * inputs; as ALU sources they are its results, which they leave alone. */
static void
test_texture_pairs(void)
{
   for (unsigned c = 0; c < 4; c++)
      P.uniforms[0][c] = pan_test_u32(3.0f);
   PAN_EXPECT_EQ(run(&P, "alu next=alu4\n"
                         "\tvadd.fmov b=r23 d=r28\n"
                         "alu next=break\n"
                         "\tvadd.fadd a=r28 b=r23 d=r0\n"),
                 PAN_SIM_MID_DONE);
   PAN_EXPECT_EQ(P.t.tex_in[0][1], pan_test_u32(3.0f));
   PAN_EXPECT_EQ(P.t.r[28][1], 0);
   PAN_EXPECT_EQ(P.t.r[0][1], pan_test_u32(3.0f)); /* 0 + 3 */

   /* A load into r29 feeds the texture unit too. */
   for (unsigned i = 0; i < 16; i++)
      P.mem[i] = i + 1;
   P.uniforms[0][0] = MEM_VA;
   PAN_EXPECT_EQ(run(&P, "alu next=ldst\n"
                         "\tvadd.imov b=r23 d=r26 omod=keeplo\n"
                         "ldst next=break\n"
                         "\tls.ld_32 reg=r29 mask=0x1 swz=xxxx areg=0 "
                         "ireg=7\n"
                         "\tls.nop swz=xxxx\n"),
                 PAN_SIM_MID_DONE);
   PAN_EXPECT_EQ(P.t.tex_in[1][0], 0x04030201u);
   PAN_EXPECT_EQ(P.t.r[29][0], 0);
}

/* Memory: ld_128 from global memory, st_32 of r26, ld_ubo_32. */
static void
test_memory(void)
{
   for (unsigned i = 0; i < 16; i++)
      P.mem[i] = i * 3;
   P.cfg.ubos[0] = (struct pan_sim_mid_ubo){ MEM_VA + 64, 32 };
   P.cfg.nr_ubos = 1;
   P.mem[64 + 20] = 0x77;
   P.uniforms[0][0] = MEM_VA; /* r23.x: base address */
   int s =
      run(&P, "alu next=ldst\n"
              "\tvadd.imov b=r23 d=r26 omod=keeplo\n"
              "ldst next=ldst\n"
              "\tls.ld_128 reg=r2 mask=0xf swz=wzyx areg=0 ireg=7\n"
              "\tls.nop swz=xxxx\n"
              "ldst next=break\n"
              "\tls.st_32 reg=r0 mask=0x1 swz=xxxx areg=0 ireg=7 offset=256\n"
              "\tls.ld_ubo_32 reg=r3 mask=0x1 ireg=7 "
              "offset=81\n");
   PAN_CHECK(s == PAN_SIM_MID_DONE, "memory: %s", P.t.fault);
   uint32_t w[4];
   memcpy(w, P.mem, 16);
   PAN_EXPECT_EQ(P.t.r[2][0], w[3]);
   PAN_EXPECT_EQ(P.t.r[2][3], w[0]);
   uint32_t st;
   memcpy(&st, P.mem + 256, 4);
   PAN_EXPECT_EQ(st, (uint32_t)MEM_VA);
   PAN_EXPECT_EQ(P.t.r[3][0], 0x77);
   P.cfg.nr_ubos = 0;
   memset(P.mem, 0, sizeof(P.mem));
}

/* A counted loop: r31.w is the branch condition. */
static void
test_branch(void)
{
   P.uniforms[0][0] = 0;
   int s = run(&P, "alu next=alu8\n"
                   "\tvadd.imov b=r23 d=r0 omod=keeplo\n"
                   "alu next=break\n"
                   "\tvadd.iadd a=r0 b=r0 bimm d=r0 omod=keeplo bswz=yxxx "
                   "mask=0x3\n"
                   "\tsmul.ilt a=r0 b=r0 bimm afull bhi=10 d=r31 dfull "
                   "dcomp=6 omod=keeplo\n"
                   "\tbr.cond target=alu8 offset=-2 cond=true\n");
   PAN_CHECK(s == PAN_SIM_MID_DONE, "loop: %s", P.t.fault);
   /* The condition was computed from r0 before this bundle's add. */
   PAN_EXPECT_EQ(P.t.r[0][0], 11);
   PAN_EXPECT_EQ(P.t.bundles, 12);
}

static void
test_faults(void)
{
   PAN_EXPECT_EQ(run(&P, "alu next=break\n\tlut.ffma a=r0 b=r1\n"),
                 PAN_SIM_MID_FAULT);
   PAN_EXPECT_STR_HAS(P.t.fault, "ffma is refused");
   PAN_EXPECT_EQ(run(&P, "tex next=break\n\ttx.normal\n"), PAN_SIM_MID_FAULT);
   PAN_EXPECT_STR_HAS(P.t.fault, "texture normal: mode 0");
   PAN_EXPECT_EQ(run(&P, "ldst next=break\n\tls.ld_vary_32\n\tls.nop\n"),
                 PAN_SIM_MID_FAULT);
   PAN_EXPECT_STR_HAS(P.t.fault, "ld_vary_32: register-indexed");
   PAN_EXPECT_EQ(run(&P, "alu next=alu4\n\tbr.uncond target=alu4 "
                         "offset=-1\n"),
                 PAN_SIM_MID_FAULT);
   PAN_EXPECT_STR_HAS(P.t.fault, "budget");
   PAN_EXPECT_EQ(run(&P, "alu next=alu4\n\tvadd.fadd\n"), PAN_SIM_MID_FAULT);
   PAN_EXPECT_STR_HAS(P.t.fault, "end of the program");
   PAN_EXPECT_EQ(run(&P, "alu next=ldst\n\tvadd.fadd\nalu next=break\n"
                         "\tvadd.fadd\n"),
                 PAN_SIM_MID_FAULT);
   PAN_EXPECT_STR_HAS(P.t.fault, "lookahead");
   PAN_EXPECT_EQ(run(&P, "alu next=break\n\tvadd.fadd a=r26\n"),
                 PAN_SIM_MID_FAULT);
   PAN_EXPECT_STR_HAS(P.t.fault, "without constants");
   PAN_EXPECT_EQ(run(&P, "ldst next=break\n\tls.ld_32 offset=-4\n"
                         "\tls.nop\n"),
                 PAN_SIM_MID_FAULT);
   PAN_EXPECT_STR_HAS(P.t.fault, "read of 4 bytes");

   /* Random bytes never crash: they run, fault or end. */
   uint64_t rng = 42;
   uint8_t junk[64];
   for (unsigned k = 0; k < 2000; k++) {
      pan_test_fill_random(&rng, junk, sizeof(junk));
      struct pan_sim_mid_config cfg = { .program = junk,
                                        .program_size = sizeof(junk),
                                        .budget = 64 };
      struct pan_sim_mid_thread t;
      pan_sim_mid_thread_init(&t);
      int r = pan_sim_mid_run(&t, &cfg);
      PAN_EXPECT(r == PAN_SIM_MID_DONE || r == PAN_SIM_MID_FAULT);
   }
   struct pan_sim_mid_config cfg = { .program = junk, .program_size = 8 };
   struct pan_sim_mid_thread t;
   pan_sim_mid_thread_init(&t);
   PAN_EXPECT_EQ(pan_sim_mid_run(&t, &cfg), PAN_SIM_MID_FAULT);
}

int
main(void)
{
   P.cfg.budget = 1000;
   PAN_RUN_CASE(test_fp32_binary);
   PAN_RUN_CASE(test_fp32_rounding);
   PAN_RUN_CASE(test_lut);
   PAN_RUN_CASE(test_integer);
   PAN_RUN_CASE(test_convert);
   PAN_RUN_CASE(test_operands);
   PAN_RUN_CASE(test_fp16);
   PAN_RUN_CASE(test_stages);
   PAN_RUN_CASE(test_texture_pairs);
   PAN_RUN_CASE(test_memory);
   PAN_RUN_CASE(test_branch);
   PAN_RUN_CASE(test_faults);
   pan_isa_bytes_free(&P.code);
   return pan_test_summary("pan_sim_mid_alu");
}
