/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Global stores with a partial write mask (what a std430 storage buffer
 * write such as v.xzw = ... or v.y = ... becomes): each lane loads a vec4
 * and stores it twice with the masks xzw and y, compiled for Valhall, G52
 * and G72 and run on the interpreters.  The written words must hold the
 * loaded ones and every other word its fill pattern.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/nir/nir_builder.h"
#include "pan_compile.h"
#include "pan_sim_bi.h"
#include "pan_sim_va.h"
#include "util/pan_test_util.h"

#define PAN_VA_TEST_MEM_SIZE 2048
#include "pan_compile_test_util.h"
#include "pan_bi_test_sim.h"

#define FILL 0xa5a5a5a5u
#define MASK_A 0xd /* x, z, w: two runs, the second at an offset */
#define MASK_B 0x2 /* y alone */

static uint64_t seed = 0x6a57012e;

/* PAN_GLOBAL_STORE_TEST_PRINT=1: the IR after each pass. */
static FILE *
print(void)
{
   return getenv("PAN_GLOBAL_STORE_TEST_PRINT") ? stderr : NULL;
}

/* out[l] (vec4 elements) = in[l] under MASK_A; out[n + l] under MASK_B. */
static nir_shader *
build(unsigned n)
{
   nir_builder b = begin("global_store_mask");
   nir_ssa_def *l = id_x(&b);
   nir_ssa_def *v = load_in(&b, l, 4);
   nir_store_global(&b, elem_addr(&b, 2, l, 16), 4, v, MASK_A);
   nir_store_global(&b, elem_addr(&b, 2, nir_iadd_imm(&b, l, n), 16), 4, v,
                    MASK_B);
   return b.shader;
}

static void
check(const char *what, const struct mem *m, const uint32_t *in, unsigned n)
{
   for (unsigned e = 0; e < 2 * n; ++e) {
      unsigned mask = e < n ? MASK_A : MASK_B;
      for (unsigned c = 0; c < 4; ++c) {
         uint32_t got, want = mask & (1u << c) ? in[(e % n) * 4 + c] : FILL;
         memcpy(&got, m->bytes + OUT_OFF + (e * 4 + c) * 4, 4);
         PAN_CHECK(got == want, "%s: element %u word %u: 0x%08x, expected "
                   "0x%08x", what, e, c, got, want);
      }
   }
}

static struct mem *
setup(uint32_t *in, unsigned n, uint32_t u[16])
{
   pan_test_fill_random(&seed, (uint8_t *)in, n * 16);
   struct mem *m = io_setup(in, n * 4, NULL, 0, u);
   memset(m->bytes + OUT_OFF, 0xa5, 2 * n * 16);
   return m;
}

static void
test_valhall(void)
{
   const unsigned n = PAN_SIM_VA_LANES;
   uint32_t in[PAN_SIM_VA_LANES * 4], u[16];
   nir_shader *s = build(n);
   void *ctx = ralloc_context(NULL);
   struct pan_va_binary bin;
   char err[256];

   if (!pan_va_compile(s, ctx, &bin, print(), err, sizeof(err))) {
      pan_test_fail("valhall: %s", err);
      goto done;
   }
   struct mem *m = setup(in, n, u);
   struct pan_sim_va_config cfg = sim_config(&bin, m, u, 16);
   struct pan_sim_va_warp w;
   compute_warp_init(&w);
   if (pan_sim_va_run(&w, &cfg) != PAN_SIM_VA_DONE) {
      pan_test_fail("valhall: fault: %s", w.fault);
      goto done;
   }
   check("valhall", m, in, n);
done:
   ralloc_free(ctx);
   ralloc_free(s);
}

static void
test_bifrost(unsigned arch, unsigned n)
{
   uint32_t in[8 * 4], u[16];
   char what[16];
   snprintf(what, sizeof(what), "bifrost v%u", arch);
   nir_shader *s = build(n);
   void *ctx = ralloc_context(NULL);
   struct pan_bi_compile_options opts = { .arch = arch };
   struct pan_bi_binary bin;
   char err[256];

   if (!pan_bi_compile(s, ctx, &opts, &bin, print(), err, sizeof(err))) {
      pan_test_fail("%s: %s", what, err);
      goto done;
   }
   struct mem *m = setup(in, n, u);
   struct pan_sim_bi_config cfg;
   struct pan_sim_bi_warp w;
   bi_test_setup(&cfg, &w, &bin, u, m, n);
   if (pan_sim_bi_run(&w, &cfg) != PAN_SIM_BI_DONE) {
      pan_test_fail("%s: fault: %s", what, w.fault);
      goto done;
   }
   check(what, m, in, n);
done:
   ralloc_free(ctx);
   ralloc_free(s);
}

static void
test_bifrost_g52(void)
{
   test_bifrost(7, 8);
}

static void
test_bifrost_g72(void)
{
   test_bifrost(6, 4);
}

int
main(void)
{
   PAN_RUN_CASE(test_valhall);
   PAN_RUN_CASE(test_bifrost_g52);
   PAN_RUN_CASE(test_bifrost_g72);
   return pan_test_summary("pan_global_store");
}
