/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * ZS_EMIT of the Valhall interpreter against a stand-in executor: the
 * callback sees the depth and stencil of each lane with the z and stencil
 * modifiers as encoded, and the coverage it leaves is what the staging
 * register receives; without a callback (a compute job) it faults.
 */

#include "pan_sim_va_gfx.h"
#include "pan_sim_va_test_run.h"
#include "sim/tests/pan_sim_zs_fake.h"

static void
run(const char *text, bool want_z, bool want_s)
{
   struct test_prog p;
   struct pan_sim_va_warp w;
   struct zs_seen seen = { 0 };
   const struct pan_sim_va_gfx gfx = { .user = &seen,
                                       .zs_emit = fake_zs_emit };

   if (!test_assemble(&p, text))
      return;
   p.cfg.gfx = &gfx;
   pan_sim_va_warp_init(&w, 0xffff);
   for (unsigned l = 0; l < PAN_SIM_VA_LANES; ++l) {
      float d = l / 16.0f;
      memcpy(&w.r[l][0], &d, 4);
      w.r[l][1] = 0x100 | (40 + l); /* only the low byte is the stencil */
      w.r[l][2] = 0x3;
   }
   if (test_run(&p, &w) == PAN_SIM_VA_DONE) {
      PAN_EXPECT(seen.calls == PAN_SIM_VA_LANES);
      PAN_EXPECT(seen.z == want_z && seen.s == want_s);
      for (unsigned l = 0; l < PAN_SIM_VA_LANES; ++l) {
         PAN_EXPECT(seen.depth[l] == l / 16.0f);
         PAN_EXPECT(seen.ref[l] == 40 + l);
         PAN_EXPECT(w.r[l][4] == (l < 8 ? 0x3u : 0x2u));
      }
   }
   test_prog_free(&p);
}

static void
emit_forms(void)
{
   run("zs_emit.z.slot0 {r4:1}, r0, r1, r2\nnop.end\n", true, false);
   run("zs_emit.stencil.slot0 {r4:1}, r0, r1, r2\nnop.end\n", false, true);
   run("zs_emit.z.stencil.slot0 {r4:1}, r0, r1, r2\nnop.end\n", true, true);
}

/* Outside a fragment shader nothing can take the output: a fault. */
static void
no_executor(void)
{
   struct test_prog p;
   struct pan_sim_va_warp w;

   if (!test_assemble(&p, "zs_emit.z.slot0 {r4:1}, r0, r1, r2\nnop.end\n"))
      return;
   pan_sim_va_warp_init(&w, 0x1);
   PAN_EXPECT(pan_sim_va_run(&w, &p.cfg) != PAN_SIM_VA_DONE);
   PAN_EXPECT(strstr(w.fault, "depth/stencil output") != NULL);
   test_prog_free(&p);
}

int
main(void)
{
   PAN_RUN_CASE(emit_forms);
   PAN_RUN_CASE(no_executor);
   return pan_test_summary("pan_sim_va_zs");
}
