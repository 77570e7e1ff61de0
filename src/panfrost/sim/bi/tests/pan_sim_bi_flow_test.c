/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Bifrost interpreter control flow and faults: a loop with per-lane trip
 * counts (lanes reconverge after it), loads/stores, the budget, a bad
 * program counter, a malformed clause, and every instruction of the
 * tables either executed or refused with a fault naming it.
 */

#include <stdio.h>

#include "pan_sim_bi_gfx.h"
#include "pan_sim_bi_priv.h"
#include "pan_sim_bi_test_run.h"

static uint64_t seed = 0xb1f0571234ull;

/* Loop: r0 counts down to zero (branch back while non-zero); the exit
 * clause then adds u0.w0 (1) to r1 once per lane. */
static const char loop_prog[] =
   "clause flow=nbtb\n"
   "    nop t0 | isub.s32 r0, r0, u0.w0 | p0=r0 fau=u0\n"
   "    nop t0 | branchz.i32.cmpf=ne t1, t1, u0.w1 | fau=u0\n"
   "clause\n"
   "    nop t0 | iadd.s32 r1, r1, u0.w0 | p0=r1 fau=u0\n";

static void
divergent_loop(void)
{
   struct bi_test_prog p;
   if (!bi_test_assemble(&p, loop_prog))
      return;
   p.uniforms[0] = 1, p.uniforms[1] = BI_TEST_CODE_VA; /* the loop clause */
   for (unsigned rep = 0; rep < 50; rep++) {
      struct pan_sim_bi_warp w;
      pan_sim_bi_warp_init(&w, 0xff);
      unsigned max = 0;
      uint32_t trips[8];
      for (unsigned l = 0; l < 8; l++) {
         trips[l] = 1 + (uint32_t)(pan_test_rng64(&seed) % 9);
         w.r[l][0] = trips[l];
         w.r[l][1] = l * 10;
         max = trips[l] > max ? trips[l] : max;
      }
      PAN_CHECK(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_DONE, "fault %s",
                w.fault);
      for (unsigned l = 0; l < 8; l++)
         PAN_CHECK(w.r[l][0] == 0 && w.r[l][1] == l * 10 + 1,
                   "lane %u: r0 %u r1 %u", l, w.r[l][0], w.r[l][1]);
      /* Reconvergence: the exit clause is issued once for all lanes. */
      PAN_CHECK(w.clauses == max + 1, "%llu clauses for %u trips",
                (unsigned long long)w.clauses, max);
   }
}

/* branchz.i16 looks only at the half its widen0 names: the loop counts
 * that half of r0 down (u0.w0 is 1 or 0x10000) while the other half is
 * random; then a forward .eq branch over one clause. */
static void
branch_half(void)
{
   static const char *const loop[2] = {
      "clause flow=nbtb\n"
      "    nop t0 | isub.s32 r0, r0, u0.w0 | p0=r0 fau=u0\n"
      "    nop t0 | branchz.i16.widen0=h0.cmpf=ne t1, t1, u0.w1 | fau=u0\n"
      "clause\n"
      "    nop t0 | iadd.s32 r1, r1, u0.w0 | p0=r1 fau=u0\n",
      "clause flow=nbtb\n"
      "    nop t0 | isub.s32 r0, r0, u0.w0 | p0=r0 fau=u0\n"
      "    nop t0 | branchz.i16.widen0=h1.cmpf=ne t1, t1, u0.w1 | fau=u0\n"
      "clause\n"
      "    nop t0 | iadd.s32 r1, r1, u0.w0 | p0=r1 fau=u0\n",
   };
   for (unsigned h = 0; h < 2; h++) {
      struct bi_test_prog p;
      if (!bi_test_assemble(&p, loop[h]))
         return;
      uint32_t step = h ? 0x10000 : 1;
      p.uniforms[0] = step, p.uniforms[1] = BI_TEST_CODE_VA;
      struct pan_sim_bi_warp w;
      pan_sim_bi_warp_init(&w, 0xff);
      uint32_t other[8];
      for (unsigned l = 0; l < 8; l++) {
         uint32_t trips = 1 + (uint32_t)(pan_test_rng64(&seed) % 9);
         other[l] = (uint32_t)pan_test_rng64(&seed) & (h ? 0xffff : 0xffff0000);
         w.r[l][0] = trips * step | other[l];
      }
      PAN_CHECK(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_DONE, "fault %s",
                w.fault);
      for (unsigned l = 0; l < 8; l++)
         PAN_CHECK(w.r[l][0] == other[l] && w.r[l][1] == step,
                   "h%u lane %u: r0 %08x r1 %08x", h, l, w.r[l][0], w.r[l][1]);
   }

   struct bi_test_prog p;
   if (!bi_test_assemble(&p, "clause flow=nbtb\n"
                             "    nop t0 | branchz.i16.widen0=h0.cmpf=eq t1, "
                             "r0, u0.w1 | p0=r0 fau=u0\n"
                             "clause flow=nbtb\n"
                             "    nop t0 | iadd.s32 r1, r1, u0.w0 | p0=r1 "
                             "fau=u0\n"
                             "clause\n"
                             "    nop t0 | iadd.s32 r2, r2, u0.w0 | p0=r2 "
                             "fau=u0\n"))
      return;
   PAN_EXPECT_EQ(p.quads, 3);
   p.uniforms[0] = 1, p.uniforms[1] = BI_TEST_CODE_VA + 32; /* over one */
   struct pan_sim_bi_warp w;
   pan_sim_bi_warp_init(&w, 0xff);
   for (unsigned l = 0; l < 8; l++)
      w.r[l][0] = (l & 1 ? 0x10000u * l : 0x7fff0000u) | (l & 2 ? l : 0);
   PAN_CHECK(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_DONE, "fault %s",
             w.fault);
   for (unsigned l = 0; l < 8; l++) {
      bool taken = (w.r[l][0] & 0xffff) == 0;
      PAN_CHECK(w.r[l][1] == !taken && w.r[l][2] == 1,
                "eq lane %u (r0 %08x): r1 %u r2 %u", l, w.r[l][0], w.r[l][1],
                w.r[l][2]);
   }
}

/* Run the three-clause program of jump_marked with the constants of its
 * two jumps; false when it faults (the fault is left in w). */
static bool
run_jumps(struct pan_sim_bi_warp *w, const char *fwd, const char *back)
{
   char text[1024];
   snprintf(text, sizeof(text),
            "clause flow=nbtb\n"
            "    nop t0 | jump t1, #0x%.8s | fau=c0\n"
            "    const 0x%s\n"
            "    const 0x0\n"
            "clause\n"
            "    nop t0 | iadd.s32 r1, r1, u0.w0 | p0=r1 fau=u0\n"
            "clause flow=nbtb\n"
            "    nop t0 | iadd.s32 r2, r2, u0.w0 | p0=r2 fau=u0\n"
            "    nop t0 | jump t1, #0x%.8s | fau=c0\n"
            "    const 0x%s\n"
            "    const 0x0\n",
            fwd, fwd, back, back);
   struct bi_test_prog p;
   if (!bi_test_assemble(&p, text))
      return false;
   /* clauses of 2 (a constant quadword), 1 and 3 quadwords: at 0, 0x20
    * and 0x30 */
   PAN_EXPECT_EQ(p.quads, 6);
   p.uniforms[0] = 1;
   pan_sim_bi_warp_init(w, 0xf);
   if (pan_sim_bi_run(w, &p.cfg) != PAN_SIM_BI_DONE)
      return false;
   /* forward over the second clause, back to it, which ends the program */
   for (unsigned l = 0; l < 4; l++)
      PAN_CHECK(w->r[l][1] == 1 && w->r[l][2] == 1, "lane %u: r1 %u r2 %u", l,
                w->r[l][1], w->r[l][2]);
   PAN_EXPECT_EQ(w->clauses, 3);
   return true;
}

/* A jump through the high word of a clause constant.  Marked as compilers
 * do (top bits 4 above the pair's second: M = 4) the word is the distance
 * from the clause (+0x30, -0x10), which the hardware adds the clause
 * address to; unmarked it is the address itself, so a bare distance
 * lands below the program. */
static void
jump_marked(void)
{
   struct pan_sim_bi_warp w;
   PAN_CHECK(run_jumps(&w, "4000003000000000", "4ffffff000000000"),
             "marked: %s", w.fault);
   char fwd[17], back[17];
   snprintf(fwd, sizeof(fwd), "%08x00000000", BI_TEST_CODE_VA + 0x30);
   snprintf(back, sizeof(back), "%08x00000000", BI_TEST_CODE_VA + 0x20);
   PAN_CHECK(run_jumps(&w, fwd, back), "absolute: %s", w.fault);
   PAN_CHECK(!run_jumps(&w, "0000003000000000", "0000002000000000") &&
                strstr(w.fault, "branch target 0x30 before the program"),
             "unmarked distance: %s", w.fault);

   /* The constant packed in the tuple words is marked by the clause's M
    * field: the 3-tuple clause jumps over the next one (+0x40). */
   for (unsigned m = 0; m < 2; m++) {
      char text[512];
      snprintf(text, sizeof(text),
               "clause flow=nbtb m=%u\n"
               "    nop t0 | nop t1\n"
               "    nop t0 | nop t1\n"
               "    nop t0 | jump t1, #0x00000040 | fau=c0\n"
               "    const 0x4000000000\n"
               "clause flow=nbtb\n"
               "    nop t0 | iadd.s32 r1, r1, u0.w0 | p0=r1 fau=u0\n"
               "clause\n"
               "    nop t0 | iadd.s32 r2, r2, u0.w0 | p0=r2 fau=u0\n",
               m ? 4 : 0);
      struct bi_test_prog p;
      if (!bi_test_assemble(&p, text))
         return;
      PAN_EXPECT_EQ(p.quads, 5);
      p.uniforms[0] = 1;
      pan_sim_bi_warp_init(&w, 0xf);
      enum pan_sim_bi_status st = pan_sim_bi_run(&w, &p.cfg);
      if (!m) {
         PAN_CHECK(st == PAN_SIM_BI_FAULT &&
                      strstr(w.fault, "branch target 0x40 before"),
                   "m=0: %s", w.fault);
         continue;
      }
      PAN_CHECK(st == PAN_SIM_BI_DONE, "m=4: %s", w.fault);
      PAN_CHECK(w.r[0][1] == 0 && w.r[0][2] == 1, "m=4: r1 %u r2 %u", w.r[0][1],
                w.r[0][2]);
   }

   /* M = 3 is reserved: reading the pair faults. */
   struct bi_test_prog p;
   if (!bi_test_assemble(&p,
                         "clause\n"
                         "    nop t0 | iadd.s32 r1, r1, #0x30000000 | p0=r1 "
                         "fau=c0\n"
                         "    const 0x3000000000000000\n"
                         "    const 0x0\n"))
      return;
   pan_sim_bi_warp_init(&w, 1);
   PAN_CHECK(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_FAULT &&
                strstr(w.fault, "M=3 is reserved"),
             "M=3: %s", w.fault);
}

/* Word of the first encoding named name in unit (0 FMA, 1 ADD). */
static uint32_t
exact_word(const char *name, unsigned unit)
{
   for (unsigned i = 0; i < bi_nr_ops; i++) {
      if (bi_ops[i].unit == unit && !strcmp(bi_ops[i].name, name))
         return bi_ops[i].exact;
   }
   pan_test_fail("no %s", name);
   return 0;
}

/* As a compiler leaves it to the packer: a 5-tuple clause whose only
 * constant is its jump's distance (unmarked, packed in the tuple words,
 * where the layout has no M field).  The packer moves the distance into
 * a constant pair marked M = 4 behind a zero packed constant, and the
 * jump lands over the next clause. */
static void
packed_distance(void)
{
   struct bi_clause c = { .nr_tuples = 5, .nr_consts = 1 };
   for (unsigned i = 0; i < 5; i++) {
      struct bi_regblock b = { .read = { -1, -1, -1 },
                               .fau = i == 4 ? 0x40 : 0, /* c0 */
                               .fma = { -1, 0 },
                               .add = { -1, 0 },
                               .spare = -1,
                               .idle2 = -1,
                               .idle3 = -1 };
      bi_regs_encode(&b, i == 0, &c.tuples[i].regs, NULL, 0);
      c.tuples[i].fma = exact_word("nop", 0);
      c.tuples[i].add = exact_word("nop", 1);
   }
   c.tuples[4].add = exact_word("jump", 1) | 5 << 6; /* fau_hi */
   /* 4 tuple quadwords and a constant one: the next clauses at 0x50 and
    * 0x60 */
   c.consts[0] = (0x60ull << 32) >> 4;
   c.header = 3ull << 11; /* flow nbtb */

   struct bi_test_prog p;
   if (!bi_test_assemble(&p, "clause flow=nbtb\n"
                             "    nop t0 | iadd.s32 r1, r1, u0.w0 | p0=r1 "
                             "fau=u0\n"
                             "clause\n"
                             "    nop t0 | iadd.s32 r2, r2, u0.w0 | p0=r2 "
                             "fau=u0\n"))
      return;
   uint64_t code[2 * 8];
   PAN_EXPECT_EQ(bi_pack_clause(&c, code, 6), 5);
   memmove(p.words + 2 * 5, p.words, 2 * p.quads * sizeof(uint64_t));
   memcpy(p.words, code, 2 * 5 * sizeof(uint64_t));
   p.cfg.program_quads = p.quads += 5;

   struct bi_clause d;
   PAN_EXPECT_EQ(bi_unpack_clause(p.words, p.quads, &d), 5);
   PAN_EXPECT_EQ(d.nr_consts, 3);
   PAN_EXPECT_EQ(d.consts[0], 0);
   PAN_EXPECT_EQ(d.consts[1] >> 56, (d.consts[2] >> 56) + 4);
   PAN_EXPECT_EQ(d.tuples[4].regs & 0xff, 0x50); /* c1 */
   PAN_EXPECT_EQ(bi_branch_const(&d), 1);

   p.uniforms[0] = 1;
   struct pan_sim_bi_warp w;
   pan_sim_bi_warp_init(&w, 0xf);
   PAN_CHECK(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_DONE, "fault %s",
             w.fault);
   PAN_CHECK(w.r[0][1] == 0 && w.r[0][2] == 1, "r1 %u r2 %u", w.r[0][1],
             w.r[0][2]);
}

static void
load_store(void)
{
   struct bi_test_prog p;
   const char *t = "clause flow=nbtb sr=8\n"
                   "    nop t0 | load.i64 t1, r0, r1 | p0=r0 p1=r1\n"
                   "clause sr=8\n"
                   "    nop t0 | store.i64 t1, r2, r1 | p0=r1 p1=r2\n";
   if (!bi_test_assemble(&p, t))
      return;
   for (unsigned i = 0; i < BI_TEST_MEM_B; i++)
      p.mem[i] = (uint8_t)pan_test_rng64(&seed);
   struct pan_sim_bi_warp w;
   pan_sim_bi_warp_init(&w, 0xff);
   for (unsigned l = 0; l < 8; l++) {
      w.r[l][0] = (uint32_t)BI_TEST_MEM_VA + 8 * l;
      w.r[l][1] = 0;
      w.r[l][2] = (uint32_t)BI_TEST_MEM_VA + 2048 + 8 * l;
   }
   PAN_CHECK(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_DONE, "fault %s",
             w.fault);
   for (unsigned l = 0; l < 8; l++) {
      uint32_t want[2];
      memcpy(want, p.mem + 8 * l, 8);
      PAN_CHECK(w.r[l][8] == want[0] && w.r[l][9] == want[1],
                "lane %u load %08x %08x", l, w.r[l][8], w.r[l][9]);
      PAN_EXPECT(!memcmp(p.mem + 2048 + 8 * l, p.mem + 8 * l, 8));
   }
   /* Unmapped address: a fault naming the instruction. */
   pan_sim_bi_warp_init(&w, 1);
   PAN_CHECK(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_FAULT &&
                strstr(w.fault, "load.i64"),
             "unmapped load: %s", w.fault);
}

/* A clause with BARRIER stops the warp after the clause; running again
 * resumes at the next clause.  Lanes branching around it fault. */
static void
barrier(void)
{
   struct bi_test_prog p;
   struct pan_sim_bi_warp w;
   if (!bi_test_assemble(&p, "clause flow=nbtb\n"
                             "    nop t0 | iadd.s32 r1, r1, u0.w0 | p0=r1 "
                             "fau=u0\n"
                             "    nop t0 | barrier t1\n"
                             "clause\n"
                             "    nop t0 | iadd.s32 r1, r1, u0.w1 | p0=r1 "
                             "fau=u0\n"))
      return;
   p.uniforms[0] = 5, p.uniforms[1] = 100;
   pan_sim_bi_warp_init(&w, 0x3c);
   PAN_EXPECT_EQ(pan_sim_bi_run(&w, &p.cfg), PAN_SIM_BI_BARRIER);
   PAN_EXPECT_EQ(w.r[2][1], 5);
   PAN_EXPECT_EQ(w.pc[3], 32); /* two tuples: two quadwords */
   PAN_EXPECT_EQ(w.live, 0x3c);
   PAN_EXPECT_EQ(pan_sim_bi_run(&w, &p.cfg), PAN_SIM_BI_DONE);
   PAN_EXPECT_EQ(w.r[5][1], 105);
   PAN_EXPECT_EQ(w.r[0][1], 0);
   PAN_EXPECT_EQ(w.clauses, 2);

   /* Lanes with r0 != 0 branch over the barrier clause. */
   if (!bi_test_assemble(&p, "clause flow=nbtb\n"
                             "    nop t0 | branchz.i32.cmpf=ne r0, r0, "
                             "u0.w0 | p0=r0 fau=u0\n"
                             "clause flow=nbtb\n"
                             "    nop t0 | barrier t1\n"
                             "clause\n"
                             "    nop t0 | iadd.s32 r1, r1, u0.w1 | p0=r1 "
                             "fau=u0\n"))
      return;
   p.uniforms[0] = BI_TEST_CODE_VA + 32, p.uniforms[1] = 1; /* the last */
   pan_sim_bi_warp_init(&w, 0xff);
   for (unsigned l = 4; l < 8; l++)
      w.r[l][0] = 1;
   PAN_EXPECT_EQ(pan_sim_bi_run(&w, &p.cfg), PAN_SIM_BI_FAULT);
   PAN_EXPECT_STR_HAS(w.fault, "barrier reached by lanes 0xf while lanes "
                               "0xf0 are elsewhere");
}

/* A store from r8 at address pair r0:r1, then a load at r2:r3 into the
 * staging registers from load_sr. */
static bool
store_then_load(struct bi_test_prog *p, const char *store, unsigned load_sr,
                const char *load)
{
   char text[256];
   snprintf(text, sizeof(text),
            "clause flow=nbtb sr=8\n"
            "    nop t0 | %s t1, r0, r1 | p0=r0 p1=r1\n"
            "clause sr=%u\n"
            "    nop t0 | %s t1, r2, r3 | p0=r2 p1=r3\n",
            store, load_sr, load);
   return bi_test_assemble(p, text);
}

/* The wls segment: offsets into the caller's workgroup-local storage,
 * bounds-checked. */
static void
wls_segment(void)
{
   struct bi_test_prog p;
   struct pan_sim_bi_warp w;
   if (!store_then_load(&p, "store.i32.seg=wls", 9, "load.i32.seg=wls"))
      return;
   p.cfg.wls_base = BI_TEST_MEM_VA + 1024;
   p.cfg.wls_size = 64;
   pan_sim_bi_warp_init(&w, 0xff);
   for (unsigned l = 0; l < 8; l++) {
      w.r[l][0] = 4 * l;
      w.r[l][2] = 4 * (7 - l);
      w.r[l][8] = 0x100 + l;
   }
   PAN_EXPECT_EQ(pan_sim_bi_run(&w, &p.cfg), PAN_SIM_BI_DONE);
   for (unsigned l = 0; l < 8; l++) {
      uint32_t v;
      memcpy(&v, p.mem + 1024 + 4 * l, 4);
      PAN_EXPECT_EQ(v, 0x100 + l);
      PAN_EXPECT_EQ(w.r[l][9], 0x100 + 7 - l);
   }
   /* The last word fits, one past it faults. */
   pan_sim_bi_warp_init(&w, 0x3);
   w.r[0][0] = 60, w.r[1][0] = 61;
   PAN_EXPECT_EQ(pan_sim_bi_run(&w, &p.cfg), PAN_SIM_BI_FAULT);
   PAN_EXPECT_STR_HAS(w.fault, "lane 1: 4 bytes at offset 0x3d beyond the "
                               "64 bytes of workgroup-local storage");
}

/* The tl segment: the same offset in every lane, each thread its own slot
 * (base + thread index * per-thread size); the slot is bounds-checked. */
static void
tl_segment(void)
{
   struct bi_test_prog p;
   struct pan_sim_bi_warp w;
   if (!store_then_load(&p, "store.i64.seg=tl", 10, "load.i32.seg=tl"))
      return;
   p.cfg.tls_base = BI_TEST_MEM_VA + 512;
   p.cfg.tls_thread_B = 32;
   p.cfg.tls_thread = 2;
   pan_sim_bi_warp_init(&w, 0xff);
   for (unsigned l = 0; l < 8; l++) {
      w.r[l][0] = 8;
      w.r[l][2] = 12;
      w.r[l][8] = 0x100 + l;
      w.r[l][9] = 0x200 + l;
   }
   PAN_EXPECT_EQ(pan_sim_bi_run(&w, &p.cfg), PAN_SIM_BI_DONE);
   for (unsigned l = 0; l < 8; l++) {
      uint32_t v[2];
      memcpy(v, p.mem + 512 + 32 * (2 + l) + 8, 8);
      PAN_EXPECT_EQ(v[0], 0x100 + l);
      PAN_EXPECT_EQ(v[1], 0x200 + l);
      PAN_EXPECT_EQ(w.r[l][10], 0x200 + l);
   }
   /* Nothing before thread 2's slot was written. */
   for (unsigned i = 0; i < 64; i++)
      PAN_EXPECT_EQ(p.mem[512 + i], 0);
   /* The slot's last doubleword fits, one byte further faults. */
   pan_sim_bi_warp_init(&w, 0x3);
   w.r[0][0] = 24, w.r[1][0] = 25;
   PAN_EXPECT_EQ(pan_sim_bi_run(&w, &p.cfg), PAN_SIM_BI_FAULT);
   PAN_EXPECT_STR_HAS(w.fault, "lane 1: 8 bytes at offset 0x19 beyond the "
                               "32 bytes of thread-local (per thread) "
                               "storage");
   /* Without thread storage the segment faults. */
   p.cfg.tls_thread_B = 0;
   pan_sim_bi_warp_init(&w, 0x1);
   w.r[0][0] = 0;
   PAN_EXPECT_EQ(pan_sim_bi_run(&w, &p.cfg), PAN_SIM_BI_FAULT);
   PAN_EXPECT_STR_HAS(w.fault, "beyond the 0 bytes of thread-local");
}

/* LD_VAR_SPECIAL against a fragment-like gfx: lane l's point coordinate
 * is (l / 4, 1 / 2), its 1/w is 1 / (l + 1) and its z 3/8. */
static bool
special_var(void *user, unsigned lane, unsigned which, float out[2],
            char *err)
{
   (void)user, (void)err;
   out[0] = which == 0 ? lane / 4.0f : which == 2 ? 1.0f / (lane + 1) : 0.375f;
   out[1] = 0.5f;
   return true;
}

static void
ld_var_special(void)
{
   static const struct pan_sim_bi_gfx gfx = { .ld_var_special = special_var };
   struct bi_test_prog p;
   struct pan_sim_bi_warp w;
   /* d3 names the varying (0 point, 2 1/w, 3 z); d10 = 10 is the centre,
    * clobbering form the compiler emits. */
   if (!bi_test_assemble(&p, "clause flow=nbtb sr=8\n"
                             "    nop t0 | ld_var_special.f32.d3=0.d10=10 t1, "
                             "r0 | p0=r0\n"
                             "clause flow=nbtb sr=10\n"
                             "    nop t0 | ld_var_special.f32.d3=2.d10=10 t1, "
                             "r0 | p0=r0\n"
                             "clause flow=nbtb sr=11\n"
                             "    nop t0 | ld_var_special.f32.d3=3.d10=10 t1, "
                             "r0 | p0=r0\n"
                             "clause sr=12\n"
                             "    nop t0 | ld_var_special.f16.d3=0.d10=10 t1, "
                             "r0 | p0=r0\n"))
      return;
   p.cfg.gfx = &gfx;
   pan_sim_bi_warp_init(&w, 0xff);
   PAN_CHECK(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_DONE, "fault: %s",
             w.fault);
   for (unsigned l = 0; l < 8; l++) {
      PAN_EXPECT_EQ(w.r[l][8], pan_test_u32(l / 4.0f));
      PAN_EXPECT_EQ(w.r[l][9], 0x3f000000u);
      PAN_EXPECT_EQ(w.r[l][10], pan_test_u32(1.0f / (l + 1)));
      PAN_EXPECT_EQ(w.r[l][11], 0x3ec00000u);
   }
   /* binary16 pairs: (0.25, 0.5) in lane 1, (0.5, 0.5) in lane 2, 1/3 of
    * lane 3 rounded to nearest even (0x3555) only for 1/w, so the point
    * (0.75, 0.5) there. */
   PAN_EXPECT_EQ(w.r[1][12], 0x38003400u);
   PAN_EXPECT_EQ(w.r[2][12], 0x38003800u);
   PAN_EXPECT_EQ(w.r[3][12], 0x38003a00u);

   /* Explicit sample positions (d10 = 13) are refused. */
   if (!bi_test_assemble(&p, "clause sr=8\n"
                             "    nop t0 | ld_var_special.f32.d3=2.d10=13 t1, "
                             "r0 | p0=r0\n"))
      return;
   p.cfg.gfx = &gfx;
   pan_sim_bi_warp_init(&w, 0xff);
   PAN_EXPECT_EQ(pan_sim_bi_run(&w, &p.cfg), PAN_SIM_BI_FAULT);
   PAN_EXPECT_STR_HAS(w.fault, "not modelled");
}

/* ATOM_C1_RETURN + ATOM_CX, then ATOM_POST: lanes increment one word in
 * lane order (no coalescing), each getting the old value back. */
static void
atomic_inc(void)
{
   struct bi_test_prog p;
   struct pan_sim_bi_warp w;
   if (!bi_test_assemble(&p, "clause flow=nbtb sr=8\n"
                             "    atom_c1_return.i32.atom_opc=ainc t0, r0, r1 "
                             "| atom_cx t1, r0, r1, r1 | p0=r0 p1=r1\n"
                             "clause\n"
                             "    atom_post.i32.atom_opc=aadd r10, r8, r9 | "
                             "nop t1 | p0=r8 p1=r9\n"))
      return;
   uint32_t start = 0xfffffffe;
   memcpy(p.mem + 64, &start, 4);
   pan_sim_bi_warp_init(&w, 0xff);
   for (unsigned l = 0; l < 8; l++) {
      w.r[l][0] = (uint32_t)(BI_TEST_MEM_VA + 64);
      w.r[l][1] = (uint32_t)((BI_TEST_MEM_VA + 64) >> 32);
   }
   PAN_CHECK(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_DONE, "fault: %s",
             w.fault);
   uint32_t end;
   memcpy(&end, p.mem + 64, 4);
   PAN_EXPECT_EQ(end, 6); /* wrapped past zero */
   for (unsigned l = 0; l < 8; l++)
      PAN_EXPECT_EQ(w.r[l][10], start + l);
}

static void
faults(void)
{
   struct bi_test_prog p;
   struct pan_sim_bi_warp w;
   if (!bi_test_assemble(&p, loop_prog))
      return;
   /* Condition never zero: the budget stops the loop. */
   p.uniforms[0] = 0, p.uniforms[1] = BI_TEST_CODE_VA;
   p.cfg.budget = 1000;
   pan_sim_bi_warp_init(&w, 0xff);
   w.r[0][0] = 1;
   PAN_CHECK(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_FAULT &&
                strstr(w.fault, "budget"),
             "budget: %s", w.fault);
   /* Branch beyond the program's end, and before its start. */
   static const struct {
      uint32_t target;
      const char *fault;
   } bad[2] = {
      { BI_TEST_CODE_VA + 0x1000, "outside" },
      { 0x1000, "branch target 0x1000 before the program" },
   };
   for (unsigned i = 0; i < 2; i++) {
      p.uniforms[0] = 1, p.uniforms[1] = bad[i].target;
      pan_sim_bi_warp_init(&w, 0xff);
      for (unsigned l = 0; l < 8; l++)
         w.r[l][0] = 5;
      PAN_CHECK(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_FAULT &&
                   strstr(w.fault, bad[i].fault),
                "bad pc 0x%x: %s", bad[i].target, w.fault);
   }
   /* Bytes that are no clause. */
   p.words[0] = ~0ull, p.words[1] = ~0ull;
   pan_sim_bi_warp_init(&w, 0xff);
   PAN_CHECK(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_FAULT &&
                strstr(w.fault, "malformed"),
             "malformed: %s", w.fault);
}

/* One single-tuple clause per encoding; the other unit runs a nop. */
static void
every_instruction(void)
{
   unsigned refused = 0, run = 0;
   int nop[2] = { -1, -1 };
   for (unsigned i = 0; i < bi_nr_ops; i++) {
      if (!strcmp(bi_ops[i].name, "nop"))
         nop[bi_ops[i].unit] = (int)i;
   }
   for (unsigned i = 0; i < bi_nr_ops; i++) {
      const struct bi_op *op = &bi_ops[i];
      struct bi_clause c = { .nr_tuples = 1 };
      struct bi_regblock b = { .read = { 0, 1, 2 },
                               .fau = 0x80,
                               .fma = { -1, 0 },
                               .add = { -1, 0 },
                               .spare = -1,
                               .idle2 = -1,
                               .idle3 = -1 };
      uint64_t q[4];
      struct pan_sim_bi_config cfg = { 0 };
      struct pan_sim_bi_warp w;
      uint32_t uni[2] = { 0, 0 };
      bi_regs_encode(&b, true, &c.tuples[0].regs, NULL, 0);
      c.tuples[0].fma = op->unit ? bi_ops[nop[0]].exact : op->exact;
      c.tuples[0].add = op->unit ? op->exact : bi_ops[nop[1]].exact;
      int n = bi_pack_clause(&c, q, 2);
      if (n != 1) {
         pan_test_fail("%s: cannot pack", op->name);
         continue;
      }
      cfg.program = q, cfg.program_quads = 1;
      cfg.uniforms = uni, cfg.uniform_words = 2, cfg.budget = 64;
      pan_sim_bi_warp_init(&w, 1);
      enum pan_sim_bi_status st = pan_sim_bi_run(&w, &cfg);
      if (st == PAN_SIM_BI_BARRIER) /* barrier: resumes, then ends */
         st = pan_sim_bi_run(&w, &cfg);
      const char *name = pan_bi_instr_name(op->exact, op->unit);
      bool refuses = pan_sim_bi_refusal(i) != NULL;
      refused += refuses;
      run += !refuses;
      /* A jump to itself ends on the budget. */
      PAN_CHECK(st == PAN_SIM_BI_DONE || (name && strstr(w.fault, name)) ||
                   strstr(w.fault, "budget"),
                "%s (%u): fault without its name: %s", op->name, i, w.fault);
      if (refuses && bi_identify(op->exact, op->unit) == (int)i)
         PAN_CHECK(st == PAN_SIM_BI_FAULT, "%s refused but ran", op->name);
   }
   printf("bifrost interpreter: %u encodings executed, %u refused\n", run,
          refused);
   PAN_CHECK(run >= 100, "only %u encodings executed", run);
}

int
main(void)
{
   PAN_RUN_CASE(divergent_loop);
   PAN_RUN_CASE(branch_half);
   PAN_RUN_CASE(jump_marked);
   PAN_RUN_CASE(packed_distance);
   PAN_RUN_CASE(load_store);
   PAN_RUN_CASE(barrier);
   PAN_RUN_CASE(wls_segment);
   PAN_RUN_CASE(tl_segment);
   PAN_RUN_CASE(ld_var_special);
   PAN_RUN_CASE(atomic_inc);
   PAN_RUN_CASE(faults);
   PAN_RUN_CASE(every_instruction);
   return pan_test_summary("pan_sim_bi_flow");
}
