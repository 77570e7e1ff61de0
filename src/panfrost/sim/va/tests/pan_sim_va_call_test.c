/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Calls out of the program (v9 blend shaders): an absolute branch to code
 * the executor gives runs it with the lanes' registers, which come back
 * with what it wrote; a branch back out returns, ending there ends.
 */

#include <stdio.h>

#include "pan_sim_va_test_run.h"

#define CALLEE_VA 0x900000ull

static struct test_prog callee;

static const uint64_t *
code_at(void *user, uint64_t va, unsigned *words)
{
   (void)user;
   if (va != CALLEE_VA)
      return NULL;
   *words = callee.cfg.program_words;
   return callee.cfg.program;
}

/* The caller: r0 = lane, call CALLEE_VA (u0), then r2 = r1 + 5. */
static const char caller_text[] = "mov.i32 r0, lane_id.w0\n"
                                  "branchzi.eq.absolute #0x0, u0\n"
                                  "iadd_imm.i32.end r2, r1, constant:5\n";

/* The callee: r1 = r0 + 100, back to r48 unless it is 0, else end. */
static const char callee_text[] = "iadd_imm.i32 r1, r0, constant:100\n"
                                  "branchzi.absolute r48, r48\n"
                                  "nop.end\n";

static void
test_call_return(void)
{
   static const uint32_t u[] = { (uint32_t)CALLEE_VA };
   struct test_prog p;
   struct pan_sim_va_warp w;

   if (!test_assemble(&p, caller_text) || !test_assemble(&callee, callee_text))
      return;
   p.cfg.uniforms = u;
   p.cfg.uniform_words = 1;
   p.cfg.code_at = code_at;
   pan_sim_va_warp_init(&w, 0xffff);
   /* Lanes 0-7 return after the call, 8-15 end in the callee. */
   for (unsigned l = 0; l < 16; ++l)
      w.r[l][48] = l < 8 ? (uint32_t)(p.cfg.program_va + 2 * 8) : 0;
   if (test_run(&p, &w) == PAN_SIM_VA_DONE) {
      for (unsigned l = 0; l < 16; ++l) {
         PAN_EXPECT_EQ(w.r[l][1], l + 100);
         PAN_EXPECT_EQ(w.r[l][2], l < 8 ? l + 105 : 0);
      }
      PAN_EXPECT_EQ(w.live, 0);
   }

   /* Without code there, or returning outside the caller: faults. */
   p.cfg.code_at = NULL;
   pan_sim_va_warp_init(&w, 0xffff);
   PAN_EXPECT_EQ(pan_sim_va_run(&w, &p.cfg), PAN_SIM_VA_FAULT);
   PAN_EXPECT_STR_HAS(w.fault, "outside the program");
   p.cfg.code_at = code_at;
   pan_sim_va_warp_init(&w, 0x1);
   w.r[0][48] = 0x700000;
   PAN_EXPECT_EQ(pan_sim_va_run(&w, &p.cfg), PAN_SIM_VA_FAULT);
   PAN_EXPECT_STR_HAS(w.fault, "return to 0x700000 outside the program");
   test_prog_free(&p);
   test_prog_free(&callee);
}

int
main(void)
{
   PAN_RUN_CASE(test_call_return);
   return pan_test_summary("pan_sim_va_call");
}
