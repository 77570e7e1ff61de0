/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Scratch arrays end to end: compute shaders writing and reading a large
 * temporary array at indices loaded from memory are compiled for the G57,
 * G52 and G72 and run on the interpreters against C references.  The
 * arrays must live in thread storage (tls_size covers them, nothing is
 * spilled) and each lane must see its own array: two warps run, the
 * second numbered after the first, with different indices per lane.  The
 * 2 KiB arrays are glsl-fs-giant-temp-array's size: as selects it took
 * minutes and gigabytes to compile.
 */

#include <string.h>

#include "compiler/nir/nir_builder.h"
#include "isa/pan_isa_va_encode.h"
#include "pan_compile.h"
#include "pan_sim_bi.h"
#include "pan_sim_va.h"
#include "pan_test_tls_mem.h"
#include "pan_va.h"
#include "util/pan_test_temp_array.h"
#include "util/pan_test_util.h"

#define LANES 16 /* a Valhall warp; the Bifrost runs use their own */
#define WRITES PAN_TEST_TEMP_WRITES
#define MAX_SLOT_B 4096

static uint64_t seed = 0x5c7a7c4;

/* The runs' output and thread storage: two warps of each. */
static uint32_t out[2 * LANES];
static uint8_t tls[2 * LANES * MAX_SLOT_B];

static struct pan_test_tls_mem
scratch_mem(const uint32_t *in, unsigned in_B)
{
   return (struct pan_test_tls_mem){
      .in = in,
      .in_B = in_B,
      .out = out,
      .out_B = sizeof(out),
      .tls = tls,
      .tls_B = sizeof(tls),
   };
}

static nir_ssa_def *
load_in(nir_builder *b, nir_ssa_def *word)
{
   nir_ssa_def *a = pan_test_buf_addr(b, 0, word, 4);
   return nir_load_global(b, a, 4, 1, 32);
}

/* The store's index: in[word] % n, n a power of two. */
static nir_ssa_def *
scratch_index(nir_builder *b, nir_ssa_def *word, unsigned n)
{
   return nir_iand_imm(b, load_in(b, word), n - 1);
}

/*
 * Lane x (its invocation id plus `first`, a push word) writes x * 100 + k
 * to element in[x * WRITES + k] % n of an array of n uints (vec4s when
 * vec), k < WRITES, then returns element in[...0] times 3 plus element
 * in[...2] (their .y words for vec4s, the only words written there: the
 * others are stored with a partial write mask).
 */
static nir_shader *
scratch_shader(unsigned n, bool vec)
{
   nir_builder b = nir_builder_init_simple_shader(
      MESA_SHADER_COMPUTE, &pan_va_nir_options, "scratch");
   const struct glsl_type *elem = vec ? glsl_vec4_type() : glsl_uint_type();
   nir_variable *arr = nir_local_variable_create(
      b.impl, glsl_array_type(elem, n, vec ? 16 : 4), "arr");
   nir_ssa_def *first = nir_load_push_constant(&b, 1, 32, nir_imm_int(&b, 0),
                                               .base = 16, .range = 4);
   nir_ssa_def *x = nir_iadd(
      &b, nir_channel(&b, nir_load_global_invocation_id(&b, 32), 0), first);
   nir_ssa_def *res =
      pan_test_temp_array_body(&b, arr, vec, x, scratch_index, n);
   nir_ssa_def *a = pan_test_buf_addr(&b, 2, x, 4);
   nir_store_global(&b, a, 4, res, 1);
   return b.shader;
}

static uint32_t
scratch_ref(const uint32_t *in, unsigned x, unsigned n)
{
   uint32_t arr[512];
   for (unsigned k = 0; k < WRITES; ++k)
      arr[in[x * WRITES + k] % n] = x * 100 + k;
   return arr[in[x * WRITES] % n] * 3 + arr[in[x * WRITES + 2] % n];
}

static void
check_binary_tls(unsigned tls_size, unsigned spills, unsigned n, bool vec)
{
   PAN_EXPECT(tls_size >= n * (vec ? 16 : 4));
   PAN_EXPECT_EQ(spills, 0);
}

/* Compiles scratch_shader(n, vec) for arch (9: Valhall) and runs it as
 * two warps of one workgroup. */
static void
run(unsigned arch, unsigned n, bool vec)
{
   char err[256];
   struct pan_va_binary vbin;
   struct pan_bi_binary bbin;
   struct pan_bi_compile_options opts = { .arch = arch };
   void *ctx = ralloc_context(NULL);
   nir_shader *nir = scratch_shader(n, vec);
   unsigned lanes = arch >= 9   ? LANES
                    : arch == 7 ? PAN_SIM_BI_LANES_G52
                                : PAN_SIM_BI_LANES_G72;
   uint32_t in[WRITES * 2 * LANES];
   pan_test_fill_random(&seed, (uint8_t *)in, sizeof(in));
   struct pan_test_tls_mem m = scratch_mem(in, sizeof(in));

   if (arch >= 9
          ? !pan_va_compile(nir, ctx, &vbin, NULL, err, sizeof(err))
          : !pan_bi_compile(nir, ctx, &opts, &bbin, NULL, err, sizeof(err))) {
      pan_test_fail("v%u scratch (%u %s): %s", arch, n, vec ? "vec4" : "uint",
                    err);
      goto done;
   }
   unsigned tls_size = arch >= 9 ? vbin.tls_size : bbin.tls_size;
   check_binary_tls(tls_size, arch >= 9 ? vbin.spills : bbin.spills, n, vec);
   unsigned slot_B = pan_test_tls_slot_B(tls_size);
   PAN_EXPECT(slot_B <= MAX_SLOT_B);
   if (slot_B > MAX_SLOT_B)
      goto done;

   for (unsigned warp = 0; warp < 2; ++warp) {
      uint32_t u[16] = { (uint32_t)PAN_TEST_IN_BASE, 0,
                         (uint32_t)PAN_TEST_OUT_BASE, 0, warp * lanes };
      pan_test_tls_mem_clear(&m);
      m.slot_B = slot_B;
      const char *fault =
         arch >= 9 ? pan_test_tls_run_va(&vbin, &m, u, 8, BITFIELD_MASK(LANES),
                                         warp * LANES)
                   : pan_test_tls_run_bi(&bbin, &m, u, 16, lanes, warp * lanes);
      if (fault) {
         pan_test_fail("v%u scratch warp %u: fault: %s", arch, warp, fault);
         break;
      }
      for (unsigned l = 0; l < lanes; ++l)
         PAN_EXPECT_EQ(out[warp * lanes + l],
                       scratch_ref(in, warp * lanes + l, n));
      PAN_EXPECT(m.tls_high > 0 && m.tls_high <= tls_size);
   }
done:
   ralloc_free(ctx);
   ralloc_free(nir);
}

static void
test_scratch_words(void)
{
   run(9, 512, false);
   run(7, 512, false);
   run(6, 512, false);
}

/* vec4 elements, some written with a partial mask. */
static void
test_scratch_vectors(void)
{
   run(9, 128, true);
   run(7, 128, true);
   run(6, 128, true);
}

int
main(void)
{
   glsl_type_singleton_init_or_ref();
   PAN_RUN_CASE(test_scratch_words);
   PAN_RUN_CASE(test_scratch_vectors);
   glsl_type_singleton_decref();
   return pan_test_summary("pan_scratch");
}
