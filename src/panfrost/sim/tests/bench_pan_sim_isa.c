/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Benchmark (meson benchmark, not a test): instructions per second of the
 * Bifrost (v7) and Valhall (v9) interpreters on small assembled programs,
 * an ALU-heavy block, a counted loop and texture sampling (the texture
 * unit is a stub here: the figure is the interpreter's message path).  An
 * instruction is a Bifrost tuple slot (FMA or ADD, nops included) or a
 * Valhall instruction.  See docs/drivers/panfrost/simulator-oracle.rst,
 * "Performance".
 */

#include <stdio.h>

#include "bi/tests/pan_sim_bi_test_run.h"
#include "va/tests/pan_sim_va_test_run.h"
#include "pan_sim_bench.h"
#include "pan_sim_texture.h"

/* A texture unit answering every request at once. */
static bool
tex_stub(void *user, struct pan_sim_tex_req *req, char *err)
{
   (void)user, (void)err;
   for (unsigned i = 0; i < 4; ++i)
      for (unsigned c = 0; c < 4; ++c)
         req->out[i][c] = req->coord[i][0] + c;
   return true;
}

static struct pan_sim_tex_ops tex_ops = { NULL, tex_stub };

/* r0..r2 of lane l floats, or register trip_reg the loop's trip count. */
static void
seed_lane(uint32_t *r, unsigned l, unsigned trip_reg, uint32_t trip)
{
   r[0] = pan_test_u32(0.5f + l);
   r[1] = pan_test_u32(1.25f);
   r[2] = pan_test_u32(-3.0f);
   if (trip)
      r[trip_reg] = trip;
}

/* One warp of a program: false on a fault (reported), else adds the
 * instructions it executed. */
typedef bool (*warp_fn)(void *prog, const char *what, uint32_t trip,
                        uint64_t *instrs);

/* Warps of fn for half a second at least, then the rate. */
static void
timed(const char *isa, const char *what, warp_fn fn, void *prog,
      uint32_t trip)
{
   uint64_t instrs = 0;
   double t0 = pan_sim_bench_now(), t;
   do {
      for (unsigned i = 0; i < 256; ++i) {
         if (!fn(prog, what, trip, &instrs))
            return;
      }
      t = pan_sim_bench_now() - t0;
   } while (t < 0.5);
   printf("%-8s %-6s %8.2f M instructions/s\n", isa, what,
          instrs / t * 1e-6);
}

/* Bifrost: 8 lanes, r0 and r1 floats, r0 of the loop a trip count. */
static const char bi_alu[] =
   "clause\n"
   "    fma.f32 r4, r0, r1, r0 | fadd.f32 r5, r0, r1 | p0=r0 p1=r1\n"
   "    fma.f32 r6, r0, r1, r0 | fadd.f32 r7, r0, r1 | p0=r0 p1=r1\n"
   "    fma.f32 r8, r0, r1, r0 | fadd.f32 r9, r0, r1 | p0=r0 p1=r1\n"
   "    fma.f32 r10, r0, r1, r0 | fadd.f32 t1, r0, r1 | p0=r0 p1=r1\n"
   "clause\n"
   "    fma.f32 r4, r0, r1, r0 | fadd.f32 r5, r0, r1 | p0=r0 p1=r1\n"
   "    fma.f32 r6, r0, r1, r0 | fadd.f32 r7, r0, r1 | p0=r0 p1=r1\n"
   "    fma.f32 r8, r0, r1, r0 | fadd.f32 r9, r0, r1 | p0=r0 p1=r1\n"
   "    fma.f32 r10, r0, r1, r0 | fadd.f32 t1, r0, r1 | p0=r0 p1=r1\n";

static const char bi_loop[] =
   "clause flow=nbtb\n"
   "    nop t0 | isub.s32 r0, r0, u0.w0 | p0=r0 fau=u0\n"
   "    nop t0 | branchz.i32.cmpf=ne t1, t1, u0.w1 | fau=u0\n"
   "clause\n"
   "    nop t0 | iadd.s32 r1, r1, u0.w0 | p0=r1 fau=u0\n";

static const char bi_tex[] =
   "clause sr=8 msg=tex\n"
   "    nop t0 | texs_2d.f32.computed_lod t1, r0, r1, texture_index:0, "
   "sampler_index:0 | p0=r0 p1=r1\n";

static bool
bi_warp(void *prog, const char *what, uint32_t trip, uint64_t *instrs)
{
   struct bi_test_prog *p = prog;
   struct pan_sim_bi_warp w;
   pan_sim_bi_warp_init(&w, 0xff);
   for (unsigned l = 0; l < 8; ++l)
      seed_lane(w.r[l], l, 0, trip);
   enum pan_sim_bi_status st = pan_sim_bi_run(&w, &p->cfg);
   PAN_CHECK(st == PAN_SIM_BI_DONE, "bifrost %s: %s", what, w.fault);
   *instrs += 2 * w.tuples;
   return st == PAN_SIM_BI_DONE;
}

static void
bench_bi(const char *what, const char *text, uint32_t trip)
{
   static struct bi_test_prog p;
   if (!bi_test_assemble(&p, text))
      return;
   p.uniforms[0] = 1; /* the loop's decrement */
   p.uniforms[1] = 0; /* branch offset: the loop clause itself */
   p.cfg.tex = &tex_ops;
   timed("bifrost", what, bi_warp, &p, trip);
}

/* Valhall: 16 lanes, r0..r2 floats, r1 of the loop a trip count. */
static const char va_alu[] =
   "fma.f32 r4, r0, r1, r2\n"
   "fadd.f32 r5, r0, r1\n"
   "fma.f32 r6, r4, r1, r5\n"
   "fadd.f32 r7, r6, r0\n"
   "fma.f32 r8, r0, r1, r2\n"
   "fadd.f32 r9, r0, r1\n"
   "fma.f32 r10, r8, r1, r9\n"
   "fadd.f32 r11, r10, r0\n"
   "fma.f32 r4, r0, r1, r2\n"
   "fadd.f32 r5, r0, r1\n"
   "fma.f32 r6, r4, r1, r5\n"
   "fadd.f32 r7, r6, r0\n"
   "fma.f32 r8, r0, r1, r2\n"
   "fadd.f32 r9, r0, r1\n"
   "fma.f32 r10, r8, r1, r9\n"
   "fadd.f32.end r11, r10, r0\n";

static const char va_loop[] =
   "iadd_imm.i32 r2, r2, constant:3\n"
   "iadd_imm.i32 r1, r1, constant:0xffffffff\n"
   "branchz.eq.reconverge r1, offset:1\n"
   "branchz.reconverge #0xffffffff, offset:-4\n"
   "nop.end\n";

static const char va_tex[] =
   "tex_single.slot0.f.r32.2d.explicit {r8:4}, {r0:3}, u0\n"
   "nop.end\n";

static bool
va_warp(void *prog, const char *what, uint32_t trip, uint64_t *instrs)
{
   struct test_prog *p = prog;
   struct pan_sim_va_warp w;
   pan_sim_va_warp_init(&w, 0xffff);
   for (unsigned l = 0; l < 16; ++l)
      seed_lane(w.r[l], l, 1, trip);
   enum pan_sim_va_status st = pan_sim_va_run(&w, &p->cfg);
   PAN_CHECK(st == PAN_SIM_VA_DONE, "valhall %s: %s", what, w.fault);
   *instrs += w.executed;
   return st == PAN_SIM_VA_DONE;
}

static void
bench_va(const char *what, const char *text, uint32_t trip)
{
   struct test_prog p;
   uint32_t uniforms[2] = { 0, 0 };
   if (!test_assemble(&p, text))
      return;
   p.cfg.uniforms = uniforms;
   p.cfg.uniform_words = 2;
   p.cfg.tex = &tex_ops;
   timed("valhall", what, va_warp, &p, trip);
   test_prog_free(&p);
}

int
main(void)
{
   bench_bi("alu", bi_alu, 0);
   bench_bi("loop", bi_loop, 64);
   bench_bi("tex", bi_tex, 0);
   bench_va("alu", va_alu, 0);
   bench_va("loop", va_loop, 64);
   bench_va("tex", va_tex, 0);
   return pan_test_summary("bench_pan_sim_isa");
}
