/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The register file a shader declares: with 32 registers it has r0-r15
 * and r48-r63 only, a blend shader r0-r15 and the r48 link; touching any
 * other register faults naming it (simulator-valhall.rst).
 */

#include <stdio.h>

#include "pan_sim_va_test_run.h"

/* Runs text on one lane with work_regs; returns the status. */
static enum pan_sim_va_status
run_declared(const char *text, unsigned work_regs, struct pan_sim_va_warp *w)
{
   struct test_prog p;
   if (!test_assemble(&p, text))
      return PAN_SIM_VA_FAULT;
   p.cfg.work_regs = work_regs;
   pan_sim_va_warp_init(w, 0x1);
   enum pan_sim_va_status st = pan_sim_va_run(w, &p.cfg);
   test_prog_free(&p);
   return st;
}

static void
test_half_file(void)
{
   struct pan_sim_va_warp w;
   static const char high[] = "iadd_imm.i32 r50, r15, constant:3\n"
                              "iadd_imm.i32.end r63, r50, constant:1\n";
   static const char mid_dest[] = "iadd_imm.i32.end r16, r0, constant:1\n";
   static const char mid_src[] = "iadd_imm.i32.end r0, r47, constant:1\n";

   PAN_EXPECT_EQ(run_declared(high, 32, &w), PAN_SIM_VA_DONE);
   PAN_EXPECT_EQ(w.r[0][63], 4);
   PAN_EXPECT_EQ(run_declared(mid_dest, 32, &w), PAN_SIM_VA_FAULT);
   PAN_EXPECT_STR_HAS(w.fault, "destination r16 does not exist in a shader "
                               "declaring 32 registers");
   PAN_EXPECT_EQ(run_declared(mid_src, 32, &w), PAN_SIM_VA_FAULT);
   PAN_EXPECT_STR_HAS(w.fault, "source r47 does not exist");
   /* 64 registers (and 0, no declaration): all of them. */
   PAN_EXPECT_EQ(run_declared(mid_dest, 64, &w), PAN_SIM_VA_DONE);
   PAN_EXPECT_EQ(run_declared(mid_src, 0, &w), PAN_SIM_VA_DONE);
}

static void
test_blend_file(void)
{
   struct pan_sim_va_warp w;
   PAN_EXPECT_EQ(
      run_declared("iadd_imm.i32.end r15, r48, constant:1\n", 16, &w),
      PAN_SIM_VA_DONE);
   PAN_EXPECT_EQ(run_declared("iadd_imm.i32.end r49, r0, constant:1\n", 16, &w),
                 PAN_SIM_VA_FAULT);
   PAN_EXPECT_STR_HAS(w.fault, "destination r49 does not exist");
}

int
main(void)
{
   PAN_RUN_CASE(test_half_file);
   PAN_RUN_CASE(test_blend_file);
   return pan_test_summary("pan_sim_va_regs");
}
