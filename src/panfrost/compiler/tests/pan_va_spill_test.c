/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Spilling end to end: compute shaders that keep more values live than
 * the registers hold are compiled, then run on the Valhall interpreter
 * against C references, with the thread_local_pointer special value
 * pointing at a storage buffer.
 *
 * The hardware gives every thread its own storage behind that pointer
 * (memaccess=force); the interpreter models that with a slot per thread
 * (pan_sim_va_config.tls_thread_B).  Each shader runs once a lane at a
 * time (one thread's view) and once as a whole warp that is not the
 * first, where lanes sharing a slot would overwrite each other's spilled
 * values.  The disassembly is checked for the thread-local form of every
 * spill store and fill.
 */

#include <string.h>

#include "compiler/nir/nir_builder.h"
#include "isa/pan_isa_va.h"
#include "isa/pan_isa_va_encode.h"
#include "pan_compile.h"
#include "pan_ir_builder.h"
#include "pan_va.h"
#include "pan_sim_va.h"
#include "pan_test_tls_mem.h"
#include "util/pan_test_util.h"

#define LANES PAN_SIM_VA_LANES
#define VALUES 80

static uint64_t seed = 0x5b111ed;

/* The runs' output and thread storage: one warp's output, two warps'
 * slots of up to 1 KiB. */
static uint32_t out[LANES];
static uint8_t tls[2 * LANES * 1024];

/* The memory of a run over in: Valhall's thread-local accesses must not
 * cross a 16-byte line. */
static struct pan_test_tls_mem
spill_mem(const uint32_t *in, unsigned in_B)
{
   struct pan_test_tls_mem m = {
      .in = in,
      .in_B = in_B,
      .out = out,
      .out_B = sizeof(out),
      .tls = tls,
      .tls_B = sizeof(tls),
      .tls_lines = true,
   };
   pan_test_tls_mem_clear(&m);
   return m;
}

/* VALUES / comps loads of comps words (in[(k * LANES + x) * comps] on),
 * then a chain that reads back the last word of each in reverse order.
 * Scalars: all VALUES words are live at once.  Vec4s: the whole vectors
 * do not fit, their last words do, so the allocator splits them
 * (pan_va_split.c) and spills nothing. */
static nir_shader *
pressure_shader(unsigned comps)
{
   nir_builder b = nir_builder_init_simple_shader(
      MESA_SHADER_COMPUTE, &pan_va_nir_options, "pressure");
   nir_ssa_def *x = nir_channel(&b, nir_load_global_invocation_id(&b, 32), 0);
   nir_ssa_def *v[VALUES];
   for (unsigned k = 0; k < VALUES / comps; ++k) {
      nir_ssa_def *i = nir_iadd_imm(&b, x, k * LANES);
      nir_ssa_def *a = pan_test_buf_addr(&b, 0, i, 4 * comps);
      v[k] = nir_load_global(&b, a, 4 * comps, comps, 32);
   }
   nir_ssa_def *acc = nir_imm_int(&b, 0);
   for (unsigned k = VALUES / comps; k-- > 0;) {
      nir_ssa_def *last = nir_channel(&b, v[k], comps - 1);
      acc = nir_iadd(&b, nir_imul_imm(&b, acc, 3), nir_ixor(&b, last, x));
   }
   nir_ssa_def *a = pan_test_buf_addr(&b, 2, x, 4);
   nir_store_global(&b, a, 4, acc, 1);
   return b.shader;
}

static uint32_t
pressure_ref(const uint32_t *in, unsigned x, unsigned comps)
{
   uint32_t acc = 0;
   for (unsigned k = VALUES / comps; k-- > 0;)
      acc = acc * 3 + (in[(k * LANES + x) * comps + comps - 1] ^ x);
   return acc;
}

/* PHIS words loaded, then rewritten differently on the two sides of an
 * if/else on lane parity, each result a phi, and all of them folded in a
 * chain.  Each phi's carrier is written at the end of both sides: its
 * lifetime has a hole over the else side, where the words and their new
 * values need the registers. */
#define PHIS 20

static nir_shader *
phis_shader(void)
{
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_COMPUTE,
                                                  &pan_va_nir_options, "phis");
   nir_ssa_def *x = nir_channel(&b, nir_load_global_invocation_id(&b, 32), 0);
   nir_ssa_def *w[PHIS], *t[PHIS], *e[PHIS];
   for (unsigned k = 0; k < PHIS; ++k) {
      nir_ssa_def *i = nir_iadd_imm(&b, x, k * LANES);
      w[k] = nir_load_global(&b, pan_test_buf_addr(&b, 0, i, 4), 4, 1, 32);
   }
   nir_push_if(&b, nir_ieq_imm(&b, nir_iand_imm(&b, x, 1), 0));
   for (unsigned k = 0; k < PHIS; ++k)
      t[k] = nir_iadd_imm(&b, nir_imul_imm(&b, w[k], 3), k);
   nir_push_else(&b, NULL);
   for (unsigned k = 0; k < PHIS; ++k)
      e[k] = nir_ixor(&b, w[k], nir_imm_int(&b, 0x55 * k + 1));
   nir_pop_if(&b, NULL);
   for (unsigned k = 0; k < PHIS; ++k)
      t[k] = nir_if_phi(&b, t[k], e[k]);
   nir_ssa_def *acc = nir_imm_int(&b, 0);
   for (unsigned k = 0; k < PHIS; ++k)
      acc = nir_iadd(&b, nir_imul_imm(&b, acc, 5), t[k]);
   nir_store_global(&b, pan_test_buf_addr(&b, 2, x, 4), 4, acc, 1);
   return b.shader;
}

static uint32_t
phis_ref(const uint32_t *in, unsigned x)
{
   uint32_t acc = 0;
   for (unsigned k = 0; k < PHIS; ++k) {
      uint32_t w = in[k * LANES + x];
      acc = acc * 5 + (x & 1 ? w ^ (0x55 * k + 1) : w * 3 + k);
   }
   return acc;
}

/* Every spill store and fill is the thread-local form. */
static void
check_forms(const struct pan_va_binary *bin)
{
   char *text = NULL;
   size_t size = 0;
   FILE *fp = open_memstream(&text, &size);
   pan_va_disassemble(bin->words, bin->nr_words * 8, fp, false, NULL, 0);
   fclose(fp);
   unsigned stores = 0, loads = 0;
   for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
      if (!strstr(line, "thread_local_pointer"))
         continue;
      PAN_EXPECT_STR_HAS(line, ".force");
      stores += !strncmp(line, "store.", 6);
      loads += !strncmp(line, "load.", 5);
   }
   PAN_EXPECT_EQ(stores, bin->spills);
   PAN_EXPECT_EQ(loads, bin->fills);
   free(text);
}

/* Compiles pressure_shader(comps), expecting spills or none, and runs it
 * on every lane against pressure_ref. */
static void
run_pressure(unsigned comps, unsigned max_regs, bool spills)
{
   char err[256];
   struct pan_va_binary bin;
   struct pan_va_compile_options opts = { .max_regs = max_regs };
   void *ctx = ralloc_context(NULL);
   nir_shader *nir = pressure_shader(comps);

   if (!pan_va_compile_opts(nir, ctx, &opts, &bin, NULL, err, sizeof(err))) {
      pan_test_fail("pressure (max_regs %u): %s", max_regs, err);
      goto done;
   }
   if (spills)
      PAN_EXPECT(bin.spills > 0 && bin.fills > 0 && bin.tls_size > 0);
   else
      PAN_EXPECT(bin.spills == 0 && bin.fills == 0 && bin.tls_size == 0);
   /* Up to 16 registers stay in r0..max_regs-1; more need the half file
    * (32) or the full one. */
   PAN_EXPECT(bin.work_regs <= (max_regs && max_regs <= 16 ? max_regs : 64));
   check_forms(&bin);

   uint32_t in[VALUES * LANES];
   pan_test_fill_random(&seed, (uint8_t *)in, sizeof(in));
   struct pan_test_tls_mem m = spill_mem(in, sizeof(in));

   static const uint32_t u[4] = { (uint32_t)PAN_TEST_IN_BASE, 0,
                                  (uint32_t)PAN_TEST_OUT_BASE, 0 };
   unsigned slot_B = pan_test_tls_slot_B(bin.tls_size);
   PAN_EXPECT(slot_B <= 1024);

   /* Run r: lane r alone, then (r == LANES) the whole second warp. */
   for (unsigned r = 0; r <= LANES; ++r) {
      uint16_t lanes = r < LANES ? 1u << r : BITFIELD_MASK(LANES);
      pan_test_tls_mem_clear(&m);
      m.slot_B = slot_B;
      const char *fault =
         pan_test_tls_run_va(&bin, &m, u, 4, lanes, r < LANES ? 0 : LANES);
      if (fault) {
         pan_test_fail("pressure run %u: fault: %s", r, fault);
         break;
      }
      u_foreach_bit(l, lanes)
         PAN_EXPECT_EQ(out[l], pressure_ref(in, l, comps));
      /* Storage within what the driver is told to provide. */
      PAN_EXPECT(m.tls_high <= bin.tls_size && (m.tls_high > 0) == spills);
   }
done:
   ralloc_free(ctx);
   ralloc_free(nir);
}

static void
test_spill_full_file(void)
{
   run_pressure(1, 0, true);
}

static void
test_spill_small_file(void)
{
   run_pressure(1, 12, true);
}

static void
test_split_instead_of_spill(void)
{
   run_pressure(4, 0, false);
}

/* The phis need PHIS registers and 8 more where the allocator sees
 * the carriers' holes; without them they need twice as many and spill. */
static void
test_lifetime_holes(void)
{
   char err[256];
   struct pan_va_binary bin;
   struct pan_va_compile_options opts = { .max_regs = PHIS + 8 };
   void *ctx = ralloc_context(NULL);
   nir_shader *nir = phis_shader();

   if (!pan_va_compile_opts(nir, ctx, &opts, &bin, NULL, err, sizeof(err))) {
      pan_test_fail("phis: %s", err);
      goto done;
   }
   PAN_EXPECT_EQ(bin.spills, 0);
   /* r16-r27 hold values: only the full file has them. */
   PAN_EXPECT_EQ(bin.work_regs, 64);

   uint32_t in[PHIS * LANES];
   pan_test_fill_random(&seed, (uint8_t *)in, sizeof(in));
   struct pan_test_tls_mem m = spill_mem(in, sizeof(in));
   static const uint32_t u[4] = { (uint32_t)PAN_TEST_IN_BASE, 0,
                                  (uint32_t)PAN_TEST_OUT_BASE, 0 };
   const char *fault =
      pan_test_tls_run_va(&bin, &m, u, 4, BITFIELD_MASK(LANES), 0);
   if (fault) {
      pan_test_fail("phis: fault: %s", fault);
      goto done;
   }
   for (unsigned l = 0; l < LANES; ++l)
      PAN_EXPECT_EQ(out[l], phis_ref(in, l));
done:
   ralloc_free(ctx);
   ralloc_free(nir);
}

/* Before splitting, the allocator moves input loads to the one later
 * block reading them: the load read after the loop goes there, the one
 * read in the loop and the one read in two blocks stay. */
static void
test_sink_inputs(void)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_block *b0 = pan_ir_block_create(s), *b1 = pan_ir_block_create(s),
                *b2 = pan_ir_block_create(s);
   pan_ir_block_add_succ(b0, b1);
   pan_ir_block_add_succ(b1, b1);
   pan_ir_block_add_succ(b1, b2);
   pan_ir_builder b = pan_ir_builder_at_end(s, b0);
   pan_ir_index vid = pan_ir_preload(&b, 60);
   pan_ir_index iid = pan_ir_preload(&b, 61);
   pan_ir_index after = pan_ir_ld_attr(&b, 4, PAN_IR_TYPE_F32, 0, vid, iid);
   pan_ir_index in_loop = pan_ir_ld_attr(&b, 1, PAN_IR_TYPE_F32, 1, vid, iid);
   pan_ir_index both = pan_ir_ld_attr(&b, 1, PAN_IR_TYPE_F32, 2, vid, iid);
   pan_ir_index x = pan_ir_fadd(&b, both, both);
   b = pan_ir_builder_at_end(s, b1);
   pan_ir_index c = pan_ir_fadd(&b, in_loop, x);
   pan_ir_branchz(&b, false, b1, c);
   b = pan_ir_builder_at_end(s, b2);
   pan_ir_index y = pan_ir_fadd(&b, pan_ir_word(after, 3), both);
   pan_ir_store_global(&b, 0, y,
                       pan_ir_collect(&b, 2, (pan_ir_index[]){ y, y }));

   PAN_EXPECT(pan_va_sink_inputs(s));
   char *got = pan_ir_shader_to_string(s, s);
   PAN_EXPECT_STR_HAS(got, "block0 -> block1:\n"
                           "   %0 = preload imm:0x3c\n"
                           "   %1 = preload imm:0x3d\n"
                           "   %3 = ld_attr.f32 %0, %1, imm:0x1\n"
                           "   %4 = ld_attr.f32 %0, %1, imm:0x2\n");
   PAN_EXPECT_STR_HAS(got, "block2 (preds block1):\n"
                           "   %2:4 = ld_attr.f32 %0, %1, imm:0x0\n"
                           "   %7 = fadd %2.3, %4\n");
   PAN_EXPECT(!pan_va_sink_inputs(s));
   ralloc_free(s);
}

/* Splitting copies only the words other instructions read alone; a word
 * that only a move reads (a phi's copy, say) keeps reading the vector. */
static void
test_split_keeps_moved_words(void)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_block *b0 = pan_ir_block_create(s);
   pan_ir_builder b = pan_ir_builder_at_end(s, b0);
   pan_ir_index vid = pan_ir_preload(&b, 60);
   pan_ir_index iid = pan_ir_preload(&b, 61);
   pan_ir_index v = pan_ir_ld_attr(&b, 4, PAN_IR_TYPE_F32, 0, vid, iid);
   pan_ir_index x = pan_ir_fadd(&b, pan_ir_word(v, 1), pan_ir_word(v, 1));
   pan_ir_index m = pan_ir_mov(&b, pan_ir_word(v, 2));
   pan_ir_index y = pan_ir_fadd(&b, x, m);
   pan_ir_store_global(&b, 0, y,
                       pan_ir_collect(&b, 2, (pan_ir_index[]){ y, y }));

   PAN_EXPECT(pan_va_split_vector(s, v.value));
   char *got = pan_ir_shader_to_string(s, s);
   PAN_EXPECT_STR_HAS(got, "   %2:4 = ld_attr.f32 %0, %1, imm:0x0\n"
                           "   %7 = mov %2.1\n"
                           "   %3 = fadd %7, %7\n"
                           "   %4 = mov %2.2\n");
   char err[256];
   PAN_EXPECT(pan_ir_validate(s, err, sizeof(err)));
   ralloc_free(s);
}

/* A register file too small for one instruction's operands: a message,
 * not a loop or a crash. */
static void
test_spill_impossible(void)
{
   char err[256];
   struct pan_va_binary bin;
   struct pan_va_compile_options opts = { .max_regs = 1 };
   nir_shader *nir = pressure_shader(1);
   PAN_EXPECT(
      !pan_va_compile_opts(nir, NULL, &opts, &bin, NULL, err, sizeof(err)));
   PAN_EXPECT_STR_HAS(err, "register allocation failed");
   ralloc_free(nir);
}

int
main(void)
{
   glsl_type_singleton_init_or_ref();
   PAN_RUN_CASE(test_spill_full_file);
   PAN_RUN_CASE(test_spill_small_file);
   PAN_RUN_CASE(test_spill_impossible);
   PAN_RUN_CASE(test_split_instead_of_spill);
   PAN_RUN_CASE(test_lifetime_holes);
   PAN_RUN_CASE(test_sink_inputs);
   PAN_RUN_CASE(test_split_keeps_moved_words);
   glsl_type_singleton_decref();
   return pan_test_summary("pan_va_spill");
}
