/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Shared memory and barriers through both back ends: a nir_builder
 * compute shader with `shared` variables (laid out by the compiler), a
 * workgroup barrier, and reads of what other invocations wrote, compiled
 * for Valhall (16-lane warp), G52 (8 lanes) and G72 (4 lanes) and run on
 * the interpreters.  The workgroup is the one warp; its shared memory is
 * a window of the test memory at SHARED_OFF (Valhall: the
 * workgroup_local_pointer special value; Bifrost: the wls segment's
 * base).  The run must stop at the barrier once, and every output word
 * must equal the C reference.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/glsl_types.h"
#include "compiler/nir/nir_builder.h"
#include "isa/pan_isa_va.h"
#include "isa/pan_isa_va_encode.h"
#include "pan_compile.h"
#include "pan_sim_bi.h"
#include "pan_sim_va.h"
#include "util/pan_test_util.h"

#define PAN_VA_TEST_MEM_SIZE 2048
#include "pan_compile_test_util.h"
#include "pan_bi_test_sim.h"
#include "pan_compute_test_run.h"

#define SHARED_OFF 1536
#define SHARED_B 512

static uint64_t seed = 0x5a4ed;

/*
 * With n lanes: a[l] = in[l], b[l].y = 3 * in[l] (a partial write of a
 * uvec2), b[l].x = l; barrier; out[l] = a[n - 1 - l] + b[(l + 1) % n].y
 * + a[0] (a constant offset) + b[l ^ 1].x.
 */
static nir_shader *
build(unsigned n)
{
   nir_builder b = begin("shared-reverse");
   nir_shader *s = b.shader;
   s->info.workgroup_size[0] = n;
   nir_variable *a = nir_variable_create(
      s, nir_var_mem_shared, glsl_array_type(glsl_uint_type(), n, 0), "a");
   nir_variable *bv = nir_variable_create(
      s, nir_var_mem_shared, glsl_array_type(glsl_vector_type(GLSL_TYPE_UINT, 2), n, 0), "b");
   nir_ssa_def *l = id_x(&b);
   nir_ssa_def *x = load_in(&b, l, 1);
   nir_deref_instr *da = nir_build_deref_var(&b, a);
   nir_deref_instr *db = nir_build_deref_var(&b, bv);

   nir_store_deref(&b, nir_build_deref_array(&b, da, l), x, 1);
   nir_store_deref(&b, nir_build_deref_array(&b, db, l),
                   nir_vec2(&b, l, nir_imul_imm(&b, x, 3)), 0x3);
   nir_store_deref(&b, nir_build_deref_array(&b, db, l),
                   nir_vec2(&b, nir_imm_int(&b, 0), nir_imul_imm(&b, x, 3)),
                   0x2);
   nir_scoped_barrier(&b, .execution_scope = NIR_SCOPE_WORKGROUP,
                      .memory_scope = NIR_SCOPE_WORKGROUP,
                      .memory_semantics = NIR_MEMORY_ACQ_REL,
                      .memory_modes = nir_var_mem_shared);

   nir_ssa_def *rev = nir_isub(&b, nir_imm_int(&b, n - 1), l);
   nir_ssa_def *next = nir_umod(&b, nir_iadd_imm(&b, l, 1), nir_imm_int(&b, n));
   nir_ssa_def *r = nir_load_deref(&b, nir_build_deref_array(&b, da, rev));
   nir_ssa_def *by = nir_channel(
      &b, nir_load_deref(&b, nir_build_deref_array(&b, db, next)), 1);
   nir_ssa_def *a0 =
      nir_load_deref(&b, nir_build_deref_array_imm(&b, da, 0));
   nir_ssa_def *bx = nir_channel(
      &b,
      nir_load_deref(&b, nir_build_deref_array(&b, db, nir_ixor(&b, l,
                                               nir_imm_int(&b, 1)))),
      0);
   store_out(&b, l, nir_iadd(&b, nir_iadd(&b, r, by), nir_iadd(&b, a0, bx)));
   return s;
}

/* PAN_SHARED_TEST_PRINT=1: the IR after each pass and the disassembly. */
static FILE *
print(void)
{
   return getenv("PAN_SHARED_TEST_PRINT") ? stderr : NULL;
}

static uint32_t
reference(const uint32_t *in, unsigned n, unsigned l)
{
   return in[n - 1 - l] + 3 * in[(l + 1) % n] + in[0] + (l ^ 1);
}

static void
check(const char *what, const uint32_t *in, const uint32_t *out, unsigned n,
      unsigned barriers)
{
   PAN_CHECK(barriers == 1, "%s: the run stopped at %u barriers, not 1",
             what, barriers);
   for (unsigned l = 0; l < n; ++l)
      PAN_CHECK(out[l] == reference(in, n, l),
                "%s: lane %u: 0x%08x, expected 0x%08x", what, l, out[l],
                reference(in, n, l));
}

/* The layout the compiler gave: both arrays, a then b. */
static void
check_size(const char *what, const nir_shader *s, unsigned n)
{
   PAN_CHECK(s->info.shared_size == n * 4 + n * 8,
             "%s: shared_size %u, expected %u", what, s->info.shared_size,
             n * 12);
}

/* The memory of a run over in[n], its shared window filled with a
 * pattern, and the push words u. */
static struct mem *
shared_setup(const uint32_t *in, unsigned n, uint32_t u[16])
{
   struct mem *m = io_setup(in, n, NULL, 0, u);
   memset(m->bytes + SHARED_OFF, 0xa5, SHARED_B);
   return m;
}

/* n lanes: PAN_SIM_VA_LANES on Valhall (arch 9), the G52's or G72's on
 * Bifrost (7, 6). */
static void
run(const char *what, unsigned arch, unsigned n)
{
   uint32_t in[PAN_SIM_VA_LANES], out[PAN_SIM_VA_LANES], u[16];
   pan_test_fill_random(&seed, (uint8_t *)in, n * 4);
   nir_shader *s = build(n);
   struct mem *m = shared_setup(in, n, u);
   struct compute_run r = { .arch = arch,
                            .lanes = n,
                            .print = print(),
                            .shared_off = SHARED_OFF,
                            .shared_B = SHARED_B };
   char err[256];

   if (!compute_run(&r, s, m, u, err, sizeof(err))) {
      pan_test_fail("%s: %s", what, err);
   } else {
      check_size(what, s, n);
      memcpy(out, m->bytes + OUT_OFF, n * 4);
      check(what, in, out, n, r.barriers);
   }
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
   run("bifrost v7", 7, PAN_SIM_BI_LANES_G52);
}

static void
test_bifrost_g72(void)
{
   run("bifrost v6", 6, PAN_SIM_BI_LANES_G72);
}

/*
 * Shared atomics with n lanes on uint c[4], zeroed by every lane, then a
 * barrier: c[0] += in[l] (result unused), old = c[1]++, cs =
 * compSwap(c[2], 0, l + 1), x = exchange(c[3], l); barrier; words 4l..4l+3
 * of the output: old, cs, c[0], c[2]; word 64 + l: x; word 80 + l: c[3].
 * Checked without assuming an order between lanes.
 */
static nir_shader *
build_atomics(unsigned n)
{
   nir_builder b = begin("shared-atomics");
   nir_shader *s = b.shader;
   s->info.workgroup_size[0] = n;
   nir_variable *c = nir_variable_create(
      s, nir_var_mem_shared, glsl_array_type(glsl_uint_type(), 4, 0), "c");
   nir_ssa_def *l = id_x(&b);
   nir_deref_instr *dc = nir_build_deref_var(&b, c);
   nir_deref_instr *e[4];
   for (unsigned i = 0; i < 4; ++i)
      e[i] = nir_build_deref_array_imm(&b, dc, i);
   nir_store_deref(&b, nir_build_deref_array(&b, dc, nir_iand_imm(&b, l, 3)),
                   nir_imm_int(&b, 0), 1);
   nir_control_barrier(&b);
   nir_deref_atomic_add(&b, 32, &e[0]->dest.ssa, load_in(&b, l, 1));
   nir_ssa_def *old =
      nir_deref_atomic_add(&b, 32, &e[1]->dest.ssa, nir_imm_int(&b, 1));
   nir_ssa_def *cs = nir_deref_atomic_comp_swap(
      &b, 32, &e[2]->dest.ssa, nir_imm_int(&b, 0), nir_iadd_imm(&b, l, 1));
   nir_ssa_def *x = nir_deref_atomic_exchange(&b, 32, &e[3]->dest.ssa, l);
   nir_control_barrier(&b);
   store_out(&b, l,
             nir_vec4(&b, old, cs, nir_load_deref(&b, e[0]),
                      nir_load_deref(&b, e[2])));
   store_out(&b, nir_iadd_imm(&b, l, 64), x);
   store_out(&b, nir_iadd_imm(&b, l, 80), nir_load_deref(&b, e[3]));
   return s;
}

static void
check_atomics(const char *what, const uint32_t *in, const uint32_t *out,
              unsigned n)
{
   uint32_t sum = 0, seen = 0, xs = 0;
   unsigned winners = 0, w = 0;
   for (unsigned l = 0; l < n; ++l) {
      sum += in[l];
      if (out[4 * l] < n)
         seen |= 1u << out[4 * l];
      if (out[4 * l + 1] == 0) {
         winners++;
         w = l;
      }
   }
   PAN_CHECK(seen == (1u << n) - 1, "%s: counter results 0x%x, not a "
             "permutation of 0..%u", what, seen, n - 1);
   PAN_CHECK(winners == 1, "%s: %u lanes won the compare-and-swap", what,
             winners);
   for (unsigned l = 0; l < n; ++l) {
      PAN_CHECK(out[4 * l + 2] == sum, "%s: lane %u reads sum 0x%x, not 0x%x",
                what, l, out[4 * l + 2], sum);
      PAN_CHECK(out[4 * l + 3] == w + 1 && (l == w || out[4 * l + 1] == w + 1),
                "%s: lane %u: swap result 0x%x, final 0x%x (winner %u)",
                what, l, out[4 * l + 1], out[4 * l + 3], w);
      PAN_CHECK(out[80 + l] == out[80], "%s: lanes read c[3] differently",
                what);
      xs ^= out[64 + l];
   }
   /* The exchanges form one chain from 0 to the final value: every lane
    * id is given once and received once, except the last one. */
   uint32_t ids = 0;
   for (unsigned l = 0; l < n; ++l)
      ids ^= l;
   PAN_CHECK((xs ^ out[80]) == ids, "%s: exchanged values do not chain "
             "(0x%x ^ 0x%x != 0x%x)", what, xs, out[80], ids);
}

static void
run_atomics(const char *what, unsigned arch, unsigned n)
{
   uint32_t in[PAN_SIM_VA_LANES], out[96], u[16];
   pan_test_fill_random(&seed, (uint8_t *)in, n * 4);
   nir_shader *s = build_atomics(n);
   struct mem *m = shared_setup(in, n, u);
   struct compute_run r = { .arch = arch,
                            .lanes = n,
                            .print = print(),
                            .shared_off = SHARED_OFF,
                            .shared_B = SHARED_B };
   char err[256];

   if (!compute_run(&r, s, m, u, err, sizeof(err))) {
      pan_test_fail("%s: %s", what, err);
   } else {
      memcpy(out, m->bytes + OUT_OFF, sizeof(out));
      check_atomics(what, in, out, n);
   }
   ralloc_free(s);
}

static void
test_atomics_valhall(void)
{
   run_atomics("valhall atomics", 9, PAN_SIM_VA_LANES);
}

static void
test_atomics_bifrost(void)
{
   run_atomics("bifrost atomics", 7, PAN_SIM_BI_LANES_G52);
}

/* A barrier outside compute is refused with a message. */
static void
test_refusal(void)
{
   nir_builder b = nir_builder_init_simple_shader(
      MESA_SHADER_FRAGMENT, &pan_va_nir_options, "fragment-barrier");
   nir_control_barrier(&b);
   expect_va_refusal(b.shader, "barrier", "a fragment shader barrier");
}

int
main(void)
{
   glsl_type_singleton_init_or_ref();
   PAN_RUN_CASE(test_valhall);
   PAN_RUN_CASE(test_bifrost_g52);
   PAN_RUN_CASE(test_bifrost_g72);
   PAN_RUN_CASE(test_atomics_valhall);
   PAN_RUN_CASE(test_atomics_bifrost);
   PAN_RUN_CASE(test_refusal);
   glsl_type_singleton_decref();
   return pan_test_summary("pan_shared");
}
