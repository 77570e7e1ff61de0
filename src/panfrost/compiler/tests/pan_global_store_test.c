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
#include "pan_compute_test_run.h"

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

/* n lanes: PAN_SIM_VA_LANES on Valhall (arch 9), the G52's or G72's on
 * Bifrost (7, 6). */
static void
run(const char *what, unsigned arch, unsigned n)
{
   uint32_t in[PAN_SIM_VA_LANES * 4], u[16];
   nir_shader *s = build(n);
   struct mem *m = setup(in, n, u);
   struct compute_run r = { .arch = arch, .lanes = n, .print = print() };
   char err[256];

   if (!compute_run(&r, s, m, u, err, sizeof(err)))
      pan_test_fail("%s: %s", what, err);
   else
      check(what, m, in, n);
   ralloc_free(s);
}

static void
test_valhall(void)
{
   run("valhall", 9, PAN_SIM_VA_LANES);
}

static void
test_bifrost_g52(void)
{
   run("bifrost v7", 7, 8);
}

static void
test_bifrost_g72(void)
{
   run("bifrost v6", 6, 4);
}

int
main(void)
{
   PAN_RUN_CASE(test_valhall);
   PAN_RUN_CASE(test_bifrost_g52);
   PAN_RUN_CASE(test_bifrost_g72);
   return pan_test_summary("pan_global_store");
}
