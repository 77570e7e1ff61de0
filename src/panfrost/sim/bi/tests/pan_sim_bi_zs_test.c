/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * ZS_EMIT of the Bifrost interpreter against a stand-in executor: d9 says
 * what the shader writes (1 stencil, 2 depth, 3 both), the callback sees
 * each lane's depth and stencil byte, and the coverage it leaves lands in
 * the staging register; without a callback it faults.
 */

#include "pan_sim_bi_gfx.h"
#include "pan_sim_bi_test_run.h"
#include "sim/tests/pan_sim_zs_fake.h"

static void
run(unsigned d9)
{
   struct bi_test_prog p;
   struct pan_sim_bi_warp w;
   struct zs_seen seen = { 0 };
   const struct pan_sim_bi_gfx gfx = { .user = &seen,
                                       .zs_emit = fake_zs_emit };
   char text[160];

   snprintf(text, sizeof(text),
            "clause sr=8\n"
            "    nop t0 | zs_emit.d9=%u t1, r0, r1, r2 | p0=r0 p1=r1 p2=r2\n",
            d9);
   if (!bi_test_assemble(&p, text))
      return;
   p.cfg.gfx = &gfx;
   pan_sim_bi_warp_init(&w, 0xff);
   for (unsigned l = 0; l < 8; ++l) {
      w.r[l][0] = pan_test_u32(l / 8.0f);
      w.r[l][1] = 0x100 | (40 + l); /* only the low byte is the stencil */
      w.r[l][2] = 0x3;
   }
   PAN_CHECK(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_DONE, "fault: %s",
             w.fault);
   PAN_EXPECT_EQ(seen.calls, 8u);
   PAN_EXPECT(seen.z == ((d9 & 2) != 0) && seen.s == ((d9 & 1) != 0));
   for (unsigned l = 0; l < 8; ++l) {
      PAN_EXPECT(seen.depth[l] == l / 8.0f);
      PAN_EXPECT_EQ(seen.ref[l], 40 + l);
      PAN_EXPECT_EQ(w.r[l][8], l < 4 ? 0x3u : 0x2u);
   }
}

static void
emit_forms(void)
{
   run(1);
   run(2);
   run(3);
}

/* Outside a fragment job nothing can take the output: a fault. */
static void
no_executor(void)
{
   struct bi_test_prog p;
   struct pan_sim_bi_warp w;
   static const struct pan_sim_bi_gfx none = { 0 };

   if (!bi_test_assemble(&p, "clause sr=8\n"
                             "    nop t0 | zs_emit.d9=2 t1, r0, r1, r2 | "
                             "p0=r0 p1=r1 p2=r2\n"))
      return;
   p.cfg.gfx = &none;
   pan_sim_bi_warp_init(&w, 0x1);
   PAN_EXPECT_EQ(pan_sim_bi_run(&w, &p.cfg), PAN_SIM_BI_FAULT);
   PAN_EXPECT_STR_HAS(w.fault, "depth/stencil output");
}

int
main(void)
{
   PAN_RUN_CASE(emit_forms);
   PAN_RUN_CASE(no_executor);
   return pan_test_summary("pan_sim_bi_zs");
}
