/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Memory atomics through both back ends: one nir_builder compute shader
 * doing every 32-bit global atomic on words of its input buffer, compiled
 * for Valhall (16-lane warp), G52 (8 lanes) and G72 (4 lanes) and run on
 * the interpreters, which serialise an atomic's lanes in lane order.  The
 * C reference applies each atomic lane by lane in that order; every value
 * returned and every memory word after the run must match it.  The
 * disassembly must hold the expected forms, and on Bifrost assemble back
 * to the same bytes.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/nir/nir_builder.h"
#include "isa/pan_isa_bi.h"
#include "isa/pan_isa_va.h"
#include "pan_compile.h"
#include "pan_sim_bi.h"
#include "pan_sim_va.h"
#include "util/pan_test_util.h"

#define PAN_VA_TEST_MEM_SIZE 2048
#include "pan_compile_test_util.h"
#include "pan_bi_test_sim.h"
#include "pan_compute_test_run.h"

/* Atomic words: input word n + k for atomic k (n lanes). */
enum { A_COUNTER, A_IMIN, A_IMAX, A_UMIN, A_UMAX, A_AND, A_OR, A_XOR,
       A_XCHG, A_DEC, A_UMAX1, A_SMAX1, A_OR1, A_CMPXCHG, A_SUM, NR_WORDS };
#define NR_RESULTS 13 /* A_IMIN..A_CMPXCHG */

static uint64_t seed = 0xa70111c5;

/* PAN_ATOMIC_TEST_PRINT=1: the IR after each pass and the disassembly. */
static FILE *
print(void)
{
   return getenv("PAN_ATOMIC_TEST_PRINT") ? stderr : NULL;
}

/*
 * Lane l with x = in[l]: old = atomicAdd(counter, 1), out[old] = x (each
 * lane its own slot); the two-operand atomics and the exchange of x on
 * their words, the implied-operand ones (add -1, unsigned and signed max
 * and or with 1), their results to out[n + 13 l + k]; a compare-and-swap
 * expecting l and writing l + 1 (every lane in order succeeds); an add of
 * x whose result nobody reads.
 */
static nir_shader *
build(unsigned n)
{
   nir_builder b = begin("atomics");
   nir_ssa_def *l = id_x(&b);
   nir_ssa_def *x = load_in(&b, l, 1);
   nir_ssa_def *w[NR_WORDS];
   for (unsigned k = 0; k < NR_WORDS; ++k)
      w[k] = elem_addr(&b, 0, nir_imm_int(&b, n + k), 4);

   nir_ssa_def *slot = nir_global_atomic_add(&b, 32, w[A_COUNTER],
                                             nir_imm_int(&b, 1));
   store_out(&b, slot, x);
   nir_ssa_def *r[NR_RESULTS] = {
      nir_global_atomic_imin(&b, 32, w[A_IMIN], x),
      nir_global_atomic_imax(&b, 32, w[A_IMAX], x),
      nir_global_atomic_umin(&b, 32, w[A_UMIN], x),
      nir_global_atomic_umax(&b, 32, w[A_UMAX], x),
      nir_global_atomic_and(&b, 32, w[A_AND], x),
      nir_global_atomic_or(&b, 32, w[A_OR], x),
      nir_global_atomic_xor(&b, 32, w[A_XOR], x),
      nir_global_atomic_exchange(&b, 32, w[A_XCHG], x),
      nir_global_atomic_add(&b, 32, w[A_DEC], nir_imm_int(&b, -1)),
      nir_global_atomic_umax(&b, 32, w[A_UMAX1], nir_imm_int(&b, 1)),
      nir_global_atomic_imax(&b, 32, w[A_SMAX1], nir_imm_int(&b, 1)),
      nir_global_atomic_or(&b, 32, w[A_OR1], nir_imm_int(&b, 1)),
      nir_global_atomic_comp_swap(&b, 32, w[A_CMPXCHG], l,
                                  nir_iadd_imm(&b, l, 1)),
   };
   nir_global_atomic_add(&b, 32, w[A_SUM], x);
   nir_ssa_def *base = nir_iadd_imm(&b, nir_imul_imm(&b, l, NR_RESULTS), n);
   for (unsigned k = 0; k < NR_RESULTS; ++k)
      store_out(&b, nir_iadd_imm(&b, base, k), r[k]);
   return b.shader;
}

/* Atomic k's new word from the old one and the operand. */
static uint32_t
apply(unsigned k, uint32_t old, uint32_t x)
{
   int32_t so = (int32_t)old, sx = (int32_t)x;
   switch (k) {
   case A_COUNTER:
   case A_SUM:
      return old + x;
   case A_IMIN:
      return (uint32_t)(so < sx ? so : sx);
   case A_IMAX:
      return (uint32_t)(so > sx ? so : sx);
   case A_UMIN:
      return old < x ? old : x;
   case A_UMAX:
      return old > x ? old : x;
   case A_AND:
      return old & x;
   case A_OR:
      return old | x;
   case A_XOR:
      return old ^ x;
   case A_DEC:
      return old - 1;
   case A_UMAX1:
      return old > 1 ? old : 1;
   case A_SMAX1:
      return (uint32_t)(so > 1 ? so : 1);
   case A_OR1:
      return old | 1;
   default: /* A_XCHG; A_CMPXCHG's operand is the swap's outcome */
      return x;
   }
}

/* The inputs: n lane values, then the atomic words' starting values. */
static void
inputs(uint32_t *in, unsigned n)
{
   pan_test_fill_random(&seed, (uint8_t *)in, (n + NR_WORDS) * 4);
   in[1] = 0x80000000u; /* the smallest signed value */
   in[2] = 0xffffffffu; /* the largest unsigned one */
   in[n + A_COUNTER] = 0;
   in[n + A_CMPXCHG] = 0;
   in[n + A_UMAX1] = 0;          /* becomes 1 */
   in[n + A_SMAX1] = 0xfffffff0; /* negative: becomes 1 */
}

/* Lanes in order, as the interpreters serialise them. */
static void
check(const char *what, const uint32_t *in, const struct mem *m, unsigned n)
{
   uint32_t word[NR_WORDS], out[256];
   memcpy(word, in + n, sizeof(word));
   memcpy(out, m->bytes + OUT_OFF, (n + NR_RESULTS * n) * 4);
   for (unsigned l = 0; l < n; ++l) {
      uint32_t x = in[l];
      PAN_CHECK(out[word[A_COUNTER]] == x, "%s: slot %u: 0x%08x, expected "
                "0x%08x", what, word[A_COUNTER], out[word[A_COUNTER]], x);
      word[A_COUNTER]++;
      for (unsigned k = A_IMIN; k <= A_CMPXCHG; ++k) {
         uint32_t got = out[n + NR_RESULTS * l + k - A_IMIN], old = word[k];
         PAN_CHECK(got == old, "%s: lane %u atomic %u returned 0x%08x, "
                   "expected 0x%08x", what, l, k, got, old);
         word[k] = k == A_CMPXCHG ? (old == l ? l + 1 : old)
                                  : apply(k, old, x);
      }
      word[A_SUM] = apply(A_SUM, word[A_SUM], x);
   }
   for (unsigned k = 0; k < NR_WORDS; ++k) {
      uint32_t got;
      memcpy(&got, m->bytes + IN_OFF + (n + k) * 4, 4);
      PAN_CHECK(got == word[k], "%s: word %u ends 0x%08x, expected 0x%08x",
                what, k, got, word[k]);
   }
}

/* Each of the needles occurs in text. */
static void
expect_forms(const char *what, const char *text, const char *const *needles)
{
   for (; *needles; ++needles)
      PAN_CHECK(strstr(text, *needles), "%s: no %s in\n%s", what, *needles,
                text);
}

static void
test_valhall(void)
{
   const unsigned n = PAN_SIM_VA_LANES;
   uint32_t in[PAN_SIM_VA_LANES + NR_WORDS], u[16];
   nir_shader *s = build(n);
   void *ctx = ralloc_context(NULL);
   struct pan_va_binary bin;
   char err[256], *text = NULL;
   size_t len = 0;

   if (!pan_va_compile(s, ctx, &bin, print(), err, sizeof(err))) {
      pan_test_fail("valhall: %s", err);
      goto done;
   }
   FILE *fp = open_memstream(&text, &len);
   pan_va_disassemble(bin.words, bin.nr_words * 8, fp, false, NULL, 0);
   fclose(fp);
   static const char *const forms[] = {
      "atom1_return.i32.slot0.ainc.wait0", "atom1_return.i32.slot0.adec",
      "atom1_return.i32.slot0.aumax1", "atom1_return.i32.slot0.asmax1",
      "atom1_return.i32.slot0.aor1", "atom_return.i32.slot0.asmin",
      "atom_return.i32.slot0.aumax", "atom_return.i32.slot0.axchg.wait0",
      "atom_return.i32.slot0.compare.axchg", "atom.i32.slot0.aadd {", NULL,
   };
   expect_forms("valhall", text, forms);

   inputs(in, n);
   struct mem *m = io_setup(in, n + NR_WORDS, NULL, 0, u);
   struct pan_sim_va_config cfg = sim_config(&bin, m, u, 16);
   struct pan_sim_va_warp w;
   compute_warp_init(&w);
   if (pan_sim_va_run(&w, &cfg) != PAN_SIM_VA_DONE) {
      pan_test_fail("valhall: fault: %s", w.fault);
      goto done;
   }
   check("valhall", in, m, n);
done:
   free(text);
   ralloc_free(ctx);
   ralloc_free(s);
}

static void
test_bifrost(unsigned arch, unsigned n)
{
   uint32_t in[8 + NR_WORDS], u[16];
   char what[16], err[256], *text = NULL;
   size_t len = 0;
   snprintf(what, sizeof(what), "bifrost v%u", arch);
   nir_shader *s = build(n);
   void *ctx = ralloc_context(NULL);
   struct pan_bi_compile_options opts = { .arch = arch };
   struct pan_bi_binary bin;
   struct pan_isa_bytes back = { 0 };

   if (!pan_bi_compile(s, ctx, &opts, &bin, print(), err, sizeof(err))) {
      pan_test_fail("%s: %s", what, err);
      goto done;
   }
   FILE *fp = open_memstream(&text, &len);
   pan_bi_disassemble(bin.words, bin.nr_words * 8, fp, false, NULL, 0);
   fclose(fp);
   static const char *const forms[] = {
      "atom_c_return.i32.aadd", "atom_cx", "atom_post.i32.asmin",
      "axchg.i32", "acmpxchg.i32", "atom_c.i32.aadd", "msg=atomic", NULL,
   };
   expect_forms(what, text, forms);
   PAN_CHECK(pan_bi_assemble(text, len, &back, err, sizeof(err)) == 0 &&
                back.size_B == bin.nr_words * 8 &&
                !memcmp(back.data, bin.words, back.size_B),
             "%s: the disassembly does not assemble back (%s)", what, err);
   PAN_CHECK(pan_bi_validate(bin.words, bin.nr_words * 8, NULL, NULL) == 0,
             "%s: the validator reports problems\n%s", what, text);

   inputs(in, n);
   struct mem *m = io_setup(in, n + NR_WORDS, NULL, 0, u);
   struct pan_sim_bi_config cfg;
   struct pan_sim_bi_warp w;
   bi_test_setup(&cfg, &w, &bin, u, m, n);
   if (pan_sim_bi_run(&w, &cfg) != PAN_SIM_BI_DONE) {
      pan_test_fail("%s: fault: %s", what, w.fault);
      goto done;
   }
   check(what, in, m, n);
done:
   pan_isa_bytes_free(&back);
   free(text);
   ralloc_free(ctx);
   ralloc_free(s);
}

static void
test_bifrost_g52(void)
{
   test_bifrost(7, PAN_SIM_BI_LANES_G52);
}

static void
test_bifrost_g72(void)
{
   test_bifrost(6, PAN_SIM_BI_LANES_G72);
}

/*
 * An exchange and a compare-and-swap whose results nobody reads still
 * write their staging registers: values live across them must survive.
 * Lane l exchanges word 0 with x and swaps word 1 from l to l + 1, then
 * stores x * 3 and l * 5, computed before the atomics.
 */
static void
test_unused_results(void)
{
   for (unsigned arch = 6; arch <= 9; arch += arch == 7 ? 2 : 1) {
      unsigned n = arch == 9 ? PAN_SIM_VA_LANES
                   : arch == 7 ? PAN_SIM_BI_LANES_G52
                               : PAN_SIM_BI_LANES_G72;
      nir_builder b = begin("unused-results");
      nir_ssa_def *l = id_x(&b);
      nir_ssa_def *x = load_in(&b, l, 1);
      nir_ssa_def *x3 = nir_imul_imm(&b, x, 3), *l5 = nir_imul_imm(&b, l, 5);
      nir_global_atomic_exchange(&b, 32,
                                 elem_addr(&b, 0, nir_imm_int(&b, n), 4), x);
      nir_global_atomic_comp_swap(&b, 32,
                                  elem_addr(&b, 0, nir_imm_int(&b, n + 1), 4),
                                  l, nir_iadd_imm(&b, l, 1));
      store_out(&b, nir_imul_imm(&b, l, 2), x3);
      store_out(&b, nir_iadd_imm(&b, nir_imul_imm(&b, l, 2), 1), l5);

      uint32_t in[PAN_SIM_VA_LANES + 2], u[16], out[2 * PAN_SIM_VA_LANES];
      pan_test_fill_random(&seed, (uint8_t *)in, sizeof(in));
      in[n + 1] = 0;
      struct mem *m = io_setup(in, n + 2, NULL, 0, u);
      char err[256], what[16];
      snprintf(what, sizeof(what), "v%u", arch);
      struct compute_run r = { .arch = arch, .lanes = n, .print = print() };
      bool ok = compute_run(&r, b.shader, m, u, err, sizeof(err));
      PAN_CHECK(ok, "%s: %s", what, err);
      if (ok) {
         uint32_t w0, w1;
         memcpy(out, m->bytes + OUT_OFF, 2 * n * 4);
         memcpy(&w0, m->bytes + IN_OFF + n * 4, 4);
         memcpy(&w1, m->bytes + IN_OFF + (n + 1) * 4, 4);
         for (unsigned k = 0; k < n; ++k) {
            PAN_CHECK(out[2 * k] == in[k] * 3 && out[2 * k + 1] == k * 5,
                      "%s: lane %u stored 0x%08x 0x%08x", what, k,
                      out[2 * k], out[2 * k + 1]);
         }
         PAN_CHECK(w0 == in[n - 1] && w1 == n, "%s: words end 0x%08x %u",
                   what, w0, w1);
      }
      ralloc_free(b.shader);
   }
}

/* 64-bit atomics are refused with a message naming the intrinsic. */
static void
test_refusal(void)
{
   nir_builder b = begin("atomic64");
   nir_ssa_def *addr = elem_addr(&b, 0, nir_imm_int(&b, 0), 8);
   nir_ssa_def *v = nir_global_atomic_add(&b, 64, addr, nir_imm_int64(&b, 1));
   nir_store_global(&b, addr, 8, v, 1);
   expect_va_refusal(b.shader, "global_atomic_add of 64-bit",
                     "a 64-bit atomic");
}

int
main(void)
{
   PAN_RUN_CASE(test_valhall);
   PAN_RUN_CASE(test_bifrost_g52);
   PAN_RUN_CASE(test_bifrost_g72);
   PAN_RUN_CASE(test_unused_results);
   PAN_RUN_CASE(test_refusal);
   return pan_test_summary("pan_atomic");
}
