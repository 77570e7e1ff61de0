/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Spilling on Bifrost end to end: compute shaders keeping more values
 * live than the registers (all of them, or a max_regs limit) hold are
 * compiled for the G52 and the G72, then run on the Bifrost interpreter
 * against C references.  The interpreter gives each lane its own slot of
 * thread storage behind the tl segment, as the hardware does; two warps
 * run, the second one's threads numbered after the first's, so that a
 * spill addressed outside its thread's slot would show.
 */

#include <string.h>

#include "compiler/nir/nir_builder.h"
#include "pan_compile.h"
#include "pan_sim_bi.h"
#include "pan_test_tls_mem.h"
#include "util/pan_test_util.h"

#define LANES PAN_SIM_BI_LANES_G52
#define VALUES 80
#define MAX_SLOT_B 1024

static uint64_t seed = 0xb1f5b111;

/* The runs' output and thread storage: one warp's output, two warps'
 * storage. */
static uint32_t out[LANES];
static uint8_t tls[2 * LANES * MAX_SLOT_B];

/* VALUES / comps loads of comps words, all live until a chain reads one
 * word of each back in reverse order.  With comps > 1 every word is read
 * so the vectors cannot be split down to one word each. */
static nir_shader *
pressure_shader(unsigned comps)
{
   nir_builder b = nir_builder_init_simple_shader(
      MESA_SHADER_COMPUTE, &pan_va_nir_options, "bi_pressure");
   nir_ssa_def *x = nir_channel(&b, nir_load_global_invocation_id(&b, 32), 0);
   nir_ssa_def *v[VALUES];
   for (unsigned k = 0; k < VALUES / comps; ++k) {
      nir_ssa_def *i = nir_iadd_imm(&b, x, k * LANES);
      nir_ssa_def *a = pan_test_buf_addr(&b, 0, i, 4 * comps);
      v[k] = nir_load_global(&b, a, 4 * comps, comps, 32);
   }
   nir_ssa_def *acc = nir_imm_int(&b, 0);
   for (unsigned k = VALUES / comps; k-- > 0;) {
      for (unsigned c = 0; c < comps; ++c) {
         acc = nir_iadd(&b, nir_imul_imm(&b, acc, 3),
                        nir_ixor(&b, nir_channel(&b, v[k], c), x));
      }
   }
   nir_ssa_def *a = pan_test_buf_addr(&b, 2, x, 4);
   nir_store_global(&b, a, 4, acc, 1);
   return b.shader;
}

static uint32_t
pressure_ref(const uint32_t *in, unsigned x, unsigned comps)
{
   uint32_t acc = 0;
   for (unsigned k = VALUES / comps; k-- > 0;) {
      for (unsigned c = 0; c < comps; ++c)
         acc = acc * 3 + (in[(k * LANES + x) * comps + c] ^ x);
   }
   return acc;
}

/* Compiles pressure_shader(comps) for arch with max_regs and runs it as
 * warp 0 and as warp 1 (threads LANES on) of one workgroup. */
static void
run_pressure(unsigned arch, unsigned comps, unsigned max_regs)
{
   char err[256];
   struct pan_bi_binary bin;
   struct pan_bi_compile_options opts = { .arch = arch, .max_regs = max_regs };
   void *ctx = ralloc_context(NULL);
   nir_shader *nir = pressure_shader(comps);

   if (!pan_bi_compile(nir, ctx, &opts, &bin, NULL, err, sizeof(err))) {
      pan_test_fail("v%u pressure (%u words, max_regs %u): %s", arch, comps,
                    max_regs, err);
      goto done;
   }
   PAN_EXPECT(bin.spills > 0 && bin.fills > 0 && bin.tls_size > 0);
   /* Up to 16 registers stay in r0..max_regs-1; more need the half file
    * (32) or the full one. */
   PAN_EXPECT(bin.work_regs <= (max_regs && max_regs <= 16 ? max_regs : 64));

   unsigned slot_B = pan_test_tls_slot_B(bin.tls_size);
   PAN_EXPECT(slot_B <= MAX_SLOT_B);

   uint32_t in[VALUES * LANES];
   pan_test_fill_random(&seed, (uint8_t *)in, sizeof(in));
   struct pan_test_tls_mem m = {
      .in = in,
      .in_B = sizeof(in),
      .out = out,
      .out_B = sizeof(out),
      .tls = tls,
      .tls_B = sizeof(tls),
   };
   static const uint32_t u[16] = { (uint32_t)PAN_TEST_IN_BASE, 0,
                                   (uint32_t)PAN_TEST_OUT_BASE, 0 };

   for (unsigned warp = 0; warp < 2; ++warp) {
      pan_test_tls_mem_clear(&m);
      m.slot_B = slot_B;
      const char *fault =
         pan_test_tls_run_bi(&bin, &m, u, 16, LANES, warp * LANES);
      if (fault) {
         pan_test_fail("v%u pressure warp %u: fault: %s", arch, warp, fault);
         break;
      }
      for (unsigned l = 0; l < LANES; ++l)
         PAN_EXPECT_EQ(out[l], pressure_ref(in, l, comps));
      /* Storage within what the driver is told to provide. */
      PAN_EXPECT(m.tls_high > 0 && m.tls_high <= bin.tls_size);
   }
done:
   ralloc_free(ctx);
   ralloc_free(nir);
}

static void
test_spill_full_file(void)
{
   run_pressure(7, 1, 0);
   run_pressure(6, 1, 0);
}

static void
test_spill_small_file(void)
{
   run_pressure(7, 1, 12);
   run_pressure(6, 1, 16);
}

static void
test_spill_vectors(void)
{
   run_pressure(7, 4, 0);
   run_pressure(6, 2, 20);
}

int
main(void)
{
   glsl_type_singleton_init_or_ref();
   PAN_RUN_CASE(test_spill_full_file);
   PAN_RUN_CASE(test_spill_small_file);
   PAN_RUN_CASE(test_spill_vectors);
   glsl_type_singleton_decref();
   return pan_test_summary("pan_bi_spill");
}
