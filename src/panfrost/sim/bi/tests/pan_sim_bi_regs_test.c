/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The register file a v7 shader declares: with 32 registers it has
 * r0-r15 and r48-r63 only; reading or writing another register through
 * the register block or as staging faults naming it
 * (simulator-bifrost.rst, "Declared registers").
 */

#include <stdio.h>

#include "pan_sim_bi_test_run.h"

/* Runs text on four lanes declaring work_regs; returns the status. */
static enum pan_sim_bi_status
run_declared(const char *text, unsigned work_regs, struct pan_sim_bi_warp *w)
{
   struct bi_test_prog p;
   if (!bi_test_assemble(&p, text))
      return PAN_SIM_BI_FAULT;
   p.cfg.work_regs = work_regs;
   p.uniforms[0] = 5;
   pan_sim_bi_warp_init(w, 0xf);
   for (unsigned l = 0; l < 4; l++) {
      w->r[l][0] = (uint32_t)BI_TEST_MEM_VA + 8 * l;
      w->r[l][1] = 0;
   }
   return pan_sim_bi_run(w, &p.cfg);
}

static void
half_file(void)
{
   struct pan_sim_bi_warp w;
   static const char high[] =
      "clause flow=nbtb\n"
      "    nop t0 | iadd.s32 r50, r15, u0.w0 | p0=r15 fau=u0\n"
      "clause\n"
      "    nop t0 | iadd.s32 r63, r50, u0.w0 | p0=r50 fau=u0\n";
   static const char write40[] =
      "clause\n"
      "    nop t0 | iadd.s32 r40, r0, u0.w0 | p0=r0 fau=u0\n";
   static const char read40[] =
      "clause\n"
      "    nop t0 | iadd.s32 r1, r40, u0.w0 | p0=r40 fau=u0\n";

   PAN_CHECK(run_declared(high, 32, &w) == PAN_SIM_BI_DONE, "fault %s",
             w.fault);
   PAN_EXPECT_EQ(w.r[0][63], 10);
   PAN_EXPECT_EQ(run_declared(write40, 32, &w), PAN_SIM_BI_FAULT);
   PAN_EXPECT_STR_HAS(w.fault, "destination r40 does not exist in a shader "
                               "declaring 32 registers");
   PAN_EXPECT_EQ(run_declared(read40, 32, &w), PAN_SIM_BI_FAULT);
   PAN_EXPECT_STR_HAS(w.fault, "source r40 does not exist");
   /* The edges of the gap: r16 and r47 are missing too. */
   static const char r16[] = "clause\n"
                             "    nop t0 | iadd.s32 r16, r0, u0.w0 | p0=r0 "
                             "fau=u0\n";
   PAN_EXPECT_EQ(run_declared(r16, 32, &w), PAN_SIM_BI_FAULT);
   PAN_EXPECT_STR_HAS(w.fault, "r16 does not exist");
   /* 64 registers, and 0 (nothing declared): every register. */
   PAN_CHECK(run_declared(write40, 64, &w) == PAN_SIM_BI_DONE, "fault %s",
             w.fault);
   PAN_EXPECT_EQ(w.r[0][40], (uint32_t)BI_TEST_MEM_VA + 5);
   PAN_CHECK(run_declared(read40, 0, &w) == PAN_SIM_BI_DONE, "fault %s",
             w.fault);
}

/* A load whose staging vector is r40-r41. */
static void
staging(void)
{
   struct pan_sim_bi_warp w;
   static const char low[] = "clause sr=8\n"
                             "    nop t0 | load.i64 t1, r0, r1 | p0=r0 p1=r1\n";
   static const char mid[] = "clause sr=40\n"
                             "    nop t0 | load.i64 t1, r0, r1 | p0=r0 p1=r1\n";
   PAN_CHECK(run_declared(low, 32, &w) == PAN_SIM_BI_DONE, "fault %s", w.fault);
   PAN_EXPECT_EQ(run_declared(mid, 32, &w), PAN_SIM_BI_FAULT);
   PAN_EXPECT_STR_HAS(w.fault, "staging r40 does not exist in a shader "
                               "declaring 32 registers");
   PAN_CHECK(run_declared(mid, 64, &w) == PAN_SIM_BI_DONE, "fault %s", w.fault);
}

int
main(void)
{
   PAN_RUN_CASE(half_file);
   PAN_RUN_CASE(staging);
   return pan_test_summary("pan_sim_bi_regs");
}
