/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Control flow, faults, memory messages and the implemented-or-refused
 * enumeration of the Valhall interpreter.
 */

#include <stdio.h>

#include "isa/pan_isa_va_priv.h"
#include "pan_sim_va_test_run.h"

static uint64_t seed = 0xf10f10ull;

static void
init_uniforms(struct test_prog *p, const uint32_t *u, unsigned n)
{
   p->cfg.uniforms = u;
   p->cfg.uniform_words = n;
}

/* if (lane < 8) r2 = lane + 100; else r2 = lane + 200; r3 = r2 + 1 */
static void
test_if_else(void)
{
   static const uint32_t u[] = { 8 };
   struct test_prog p;
   struct pan_sim_va_warp w;

   if (!test_assemble(&p, "mov.i32 r0, lane_id.w0\n"
                          "icmp_or.u32.lt.i1 r1, r0, u0, #0x0\n"
                          "branchz.eq.reconverge r1, offset:2\n"
                          "iadd_imm.i32 r2, r0, constant:100\n"
                          "branchz.reconverge #0xffffffff, offset:1\n"
                          "iadd_imm.i32 r2, r0, constant:200\n"
                          "iadd_imm.i32.end r3, r2, constant:1\n"))
      return;
   init_uniforms(&p, u, 1);
   pan_sim_va_warp_init(&w, 0xffff);
   if (test_run(&p, &w) == PAN_SIM_VA_DONE) {
      for (unsigned l = 0; l < 16; ++l)
         PAN_EXPECT_EQ(w.r[l][3], l + (l < 8 ? 100 : 200) + 1);
      /* Both arms issued once each, plus the shared instructions. */
      PAN_EXPECT_EQ(w.executed, 7);
   }
   /* A partial exec mask: inactive lanes keep their registers. */
   pan_sim_va_warp_init(&w, 0x00f0);
   w.r[0][3] = 0xdead;
   if (test_run(&p, &w) == PAN_SIM_VA_DONE) {
      PAN_EXPECT_EQ(w.r[0][3], 0xdead);
      PAN_EXPECT_EQ(w.r[5][3], 106);
      PAN_EXPECT_EQ(w.executed, 6); /* the else arm never issues */
   }
   test_prog_free(&p);
}

/* for (n = lane; n; n--) acc += 3: per-lane trip counts */
static void
test_loop(void)
{
   struct test_prog p;
   struct pan_sim_va_warp w;

   if (!test_assemble(&p, "mov.i32 r1, lane_id.w0\n"
                          "mov.i32 r2, #0x0\n"
                          "branchz.eq.reconverge r1, offset:3\n"
                          "iadd_imm.i32 r2, r2, constant:3\n"
                          "iadd_imm.i32 r1, r1, constant:0xffffffff\n"
                          "branchz.reconverge #0xffffffff, offset:-4\n"
                          "iadd_imm.i32.end r3, r2, constant:7\n"))
      return;
   pan_sim_va_warp_init(&w, 0xffff);
   if (test_run(&p, &w) == PAN_SIM_VA_DONE) {
      for (unsigned l = 0; l < 16; ++l) {
         PAN_EXPECT_EQ(w.r[l][2], 3 * l);
         PAN_EXPECT_EQ(w.r[l][3], 3 * l + 7);
      }
      /* 15 iterations of 4 instructions, the exit test, 3 outside. */
      PAN_EXPECT_EQ(w.executed, 2 + 15 * 4 + 1 + 1);
   }
   test_prog_free(&p);
}

/* A barrier stops the warp just past it; running again resumes there,
 * twice, then the warp ends. */
static void
test_barrier(void)
{
   struct test_prog p;
   struct pan_sim_va_warp w;

   if (!test_assemble(&p, "iadd_imm.i32 r1, r1, constant:5\n"
                          "barrier.slot7.wait\n"
                          "iadd_imm.i32 r1, r1, constant:1\n"
                          "barrier.slot7.wait\n"
                          "iadd_imm.i32.end r1, r1, constant:10\n"))
      return;
   pan_sim_va_warp_init(&w, 0x0ff0);
   PAN_EXPECT_EQ(pan_sim_va_run(&w, &p.cfg), PAN_SIM_VA_BARRIER);
   PAN_EXPECT_EQ(w.pc[4], 2);
   PAN_EXPECT_EQ(w.r[4][1], 5);
   PAN_EXPECT_EQ(pan_sim_va_run(&w, &p.cfg), PAN_SIM_VA_BARRIER);
   PAN_EXPECT_EQ(w.r[11][1], 6);
   PAN_EXPECT_EQ(w.live, 0x0ff0);
   PAN_EXPECT_EQ(pan_sim_va_run(&w, &p.cfg), PAN_SIM_VA_DONE);
   PAN_EXPECT_EQ(w.r[7][1], 16);
   PAN_EXPECT_EQ(w.r[0][1], 0);
   PAN_EXPECT_EQ(w.executed, 5);
   PAN_EXPECT_EQ(w.live, 0);
   test_prog_free(&p);

   /* Lanes 0-7 branch over the barrier: undefined on the hardware. */
   static const uint32_t u[] = { 8 };
   if (!test_assemble(&p, "mov.i32 r0, lane_id.w0\n"
                          "icmp_or.u32.lt.i1 r1, r0, u0, #0x0\n"
                          "branchz.reconverge r1, offset:1\n"
                          "barrier.slot7.wait\n"
                          "nop.end\n"))
      return;
   init_uniforms(&p, u, 1);
   pan_sim_va_warp_init(&w, 0xffff);
   PAN_EXPECT_EQ(pan_sim_va_run(&w, &p.cfg), PAN_SIM_VA_FAULT);
   PAN_EXPECT_STR_HAS(w.fault,
                      "barrier reached by lanes 0xff00 of the live 0xffff");
   test_prog_free(&p);
}

static void
test_discard(void)
{
   struct test_prog p;
   struct pan_sim_va_warp w;

   if (!test_assemble(&p, "u32_to_f32 r0, lane_id.w0\n"
                          "discard.f32.lt r0, u0\n"
                          "mov.i32.end r4, #0x3f800000\n"))
      return;
   static const uint32_t u[] = { 0x40a00000 }; /* 5.0 */
   init_uniforms(&p, u, 1);
   pan_sim_va_warp_init(&w, 0xffff);
   if (test_run(&p, &w) == PAN_SIM_VA_DONE) {
      PAN_EXPECT_EQ(w.discarded, 0x001f);
      PAN_EXPECT_EQ(w.r[3][4], 0);
      PAN_EXPECT_EQ(w.r[9][4], 0x3f800000);
   }
   test_prog_free(&p);
}

static void
expect_fault(const char *text, const char *msg, uint64_t budget)
{
   struct test_prog p;
   struct pan_sim_va_warp w;

   if (!test_assemble(&p, text))
      return;
   p.cfg.budget = budget;
   pan_sim_va_warp_init(&w, 0xffff);
   PAN_EXPECT_EQ(pan_sim_va_run(&w, &p.cfg), PAN_SIM_VA_FAULT);
   PAN_EXPECT_STR_HAS(w.fault, msg);
   test_prog_free(&p);
}

static void
test_faults(void)
{
   expect_fault("branchz #0xffffffff, offset:-1\n",
                "instruction budget "
                "exceeded",
                1000);
   expect_fault("nop\nbranchz #0xffffffff, offset:-1\n", "budget", 0);
   expect_fault("branchz #0xffffffff, offset:5\n", "outside the program", 0);
   expect_fault("nop\nnop\n", "pc 2: outside the program", 0);
   expect_fault("branchz #0xffffffff, offset:-2\n", "outside the program", 0);
   expect_fault("mov.i32.end r0, u3\n", "uniform u3 beyond", 0);
   expect_fault("fadd.f32.end r0, r1, r2, extra:0x8000000000000000\n",
                "fadd.f32: undefined bits", 0);
   expect_fault(".word 0x01ff000000000000\n", "unknown instruction word", 0);
   expect_fault("load.i32.slot0.end {r4:1}, r0, offset:0\n",
                "load.i32: read of 4 bytes at 0x0 failed", 0);
}

/* Random words: every one runs or faults with a message, never crashes. */
static void
test_malformed(void)
{
   uint64_t words[4];
   struct pan_sim_va_config cfg = { .program = words,
                                    .program_words = 4,
                                    .budget = 64 };
   struct pan_sim_va_warp w;
   unsigned faults = 0;

   for (unsigned i = 0; i < 20000; ++i) {
      for (unsigned k = 0; k < 4; ++k)
         words[k] = pan_test_rng64(&seed);
      pan_sim_va_warp_init(&w, (uint16_t)pan_test_rng64(&seed) | 1);
      for (unsigned l = 0; l < 16; ++l)
         pan_test_fill_random(&seed, (uint8_t *)w.r[l], sizeof(w.r[l]));
      if (pan_sim_va_run(&w, &cfg) == PAN_SIM_VA_FAULT) {
         faults++;
         if (!w.fault[0])
            pan_test_fail("fault without a message");
      }
   }
   PAN_CHECK(faults > 10000, "only %u of 20000 random programs faulted",
             faults);
}

static void
test_memory(void)
{
   struct test_mem mem = { { 0 } };
   struct test_prog p;
   struct pan_sim_va_warp w;

   if (!test_assemble(&p, "load.i32.slot0.wait0 {r4:1}, r0, offset:0\n"
                          "iadd_imm.i32 r4, r4, constant:5\n"
                          "store.i32.slot0 {r4:1}, r0, offset:4\n"
                          "load.i8.slot0.wait0 {r10:1}, r0, offset:3\n"
                          "load.i8.unsigned.w0.slot0.wait0 {r11:1}, r0, "
                          "offset:3\n"
                          "atom_return.i32.aadd.slot0.wait0 {r6:1}, {r5:1}, "
                          "r8, offset:0\n"
                          "atom1_return.i32.ainc.slot0.end {r7:1}, r8, "
                          "offset:4\n"))
      return;
   p.cfg.mem = (struct pan_sim_va_mem){ &mem, test_mem_read, test_mem_write };
   pan_sim_va_warp_init(&w, 0xffff);
   for (unsigned l = 0; l < 16; ++l) {
      uint64_t a = TEST_MEM_BASE + 64 + l * 8;
      uint32_t v = 0x80000000u | l * 1000;
      memcpy(mem.bytes + 64 + l * 8, &v, 4);
      w.r[l][0] = a, w.r[l][1] = a >> 32;
      w.r[l][5] = l + 1;
      w.r[l][8] = TEST_MEM_BASE, w.r[l][9] = 0;
      w.r[l][10] = 0x12345678;
   }
   if (test_run(&p, &w) == PAN_SIM_VA_DONE) {
      uint32_t sum = 0, cnt;
      for (unsigned l = 0; l < 16; ++l) {
         uint32_t stored;
         memcpy(&stored, mem.bytes + 64 + l * 8 + 4, 4);
         PAN_EXPECT_EQ(stored, (0x80000000u | l * 1000) + 5);
         PAN_EXPECT_EQ(w.r[l][10], 0x12345680); /* byte 3 into b0 */
         PAN_EXPECT_EQ(w.r[l][11], 0x80);
         PAN_EXPECT_EQ(w.r[l][6], sum); /* lanes in order */
         PAN_EXPECT_EQ(w.r[l][7], l);
         sum += l + 1;
      }
      memcpy(&sum, mem.bytes, 4);
      memcpy(&cnt, mem.bytes + 4, 4);
      PAN_EXPECT_EQ(sum, 136);
      PAN_EXPECT_EQ(cnt, 16);
   }
   test_prog_free(&p);
}

/* Compare-and-swap (atom_return.axchg.compare): the staging vector read
 * holds the new value, then the comparand.  Lanes go in lane order: on the
 * first word each lane expects what the lane before it wrote (all swap),
 * on the second every lane expects 0 (only lane 0 swaps). */
static void
test_compare_swap(void)
{
   struct test_mem mem = { { 0 } };
   struct test_prog p;
   struct pan_sim_va_warp w;

   if (!test_assemble(&p, "atom_return.i32.axchg.compare.slot0.wait0 "
                          "{r6:1}, {r4:2}, r8, offset:0\n"
                          "atom_return.i32.axchg.compare.slot0.end "
                          "{r7:1}, {r10:2}, r8, offset:4\n"))
      return;
   p.cfg.mem = (struct pan_sim_va_mem){ &mem, test_mem_read, test_mem_write };
   pan_sim_va_warp_init(&w, 0xffff);
   for (unsigned l = 0; l < 16; ++l) {
      w.r[l][4] = 100 + l + 1, w.r[l][5] = 100 + l;
      w.r[l][10] = 0xabc00 + l, w.r[l][11] = 0;
      w.r[l][8] = TEST_MEM_BASE, w.r[l][9] = 0;
   }
   uint32_t start = 100, got;
   memcpy(mem.bytes, &start, 4);
   if (test_run(&p, &w) == PAN_SIM_VA_DONE) {
      for (unsigned l = 0; l < 16; ++l) {
         PAN_EXPECT_EQ(w.r[l][6], 100 + l);
         PAN_EXPECT_EQ(w.r[l][7], l ? 0xabc00u : 0u);
      }
      memcpy(&got, mem.bytes, 4);
      PAN_EXPECT_EQ(got, 116);
      memcpy(&got, mem.bytes + 4, 4);
      PAN_EXPECT_EQ(got, 0xabc00u);
   }
   test_prog_free(&p);
}

static uint64_t
set_field(uint64_t word, unsigned start, unsigned size, uint64_t v)
{
   uint64_t m = (size >= 64 ? ~0ull : (1ull << size) - 1) << start;
   return (word & ~m) | ((v << start) & m);
}

/* Reserved enum encodings at zero get the first named value. */
static uint64_t
valid_mods(uint64_t word, const struct va_mod *mods, unsigned n)
{
   for (unsigned i = 0; i < n; ++i) {
      if (mods[i].implied) {
         /* Staging lengths: four registers, enough for every access. */
         word = set_field(word, mods[i].start, mods[i].size, 4);
         continue;
      }
      if (mods[i].enum_id < 0)
         continue;
      const struct va_enum *e = &va_enums[mods[i].enum_id];
      for (unsigned v = 0; v < e->count; ++v) {
         if (e->values[v]) {
            word = set_field(word, mods[i].start, mods[i].size, v);
            break;
         }
      }
   }
   return word;
}

static void
test_every_op(void)
{
   struct test_mem mem = { { 0 } };
   static const uint32_t u[256];
   unsigned implemented = 0, refused = 0;

   for (unsigned i = 0; i < va_nr_ops; ++i) {
      const struct va_op *op = &va_ops[i];
      uint64_t word = op->match_value | op->default_value;
      word = valid_mods(word, op->mods, op->nr_mods);
      for (unsigned k = 0; k < op->nr_operands; ++k)
         word = valid_mods(word, op->operands[k].mods, op->operands[k].nr_mods);
      /* r8:r9 as address of every source, .end flow. */
      for (unsigned k = 0; k < op->nr_operands; ++k) {
         if (op->operands[k].kind == VA_OPERAND_SRC)
            word = set_field(word, op->operands[k].start, 8, 8);
      }
      word = set_field(word, 59, 4, 15);

      struct pan_sim_va_config cfg = { .program = &word,
                                       .program_words = 1,
                                       .uniforms = u,
                                       .uniform_words = 256,
                                       .mem = { &mem, test_mem_read,
                                                test_mem_write } };
      struct pan_sim_va_warp w;
      pan_sim_va_warp_init(&w, 1);
      w.r[0][8] = TEST_MEM_BASE;
      enum pan_sim_va_status st = pan_sim_va_run(&w, &cfg);
      if (st == PAN_SIM_VA_BARRIER) /* barrier: resumes, then ends */
         st = pan_sim_va_run(&w, &cfg);
      if (st == PAN_SIM_VA_DONE) {
         implemented++;
         continue;
      }
      PAN_CHECK(strstr(w.fault, op->name) != NULL,
                "fault of %s does not name it: %s", op->name, w.fault);
      if (strstr(w.fault, "not implemented"))
         refused++;
      else
         pan_test_fail("%s faulted without refusing: %s", op->name, w.fault);
   }
   PAN_EXPECT_EQ(implemented + refused, va_nr_ops);
   printf("pan_sim_va: %u of %u instructions implemented, %u refused\n",
          implemented, va_nr_ops, refused);
   PAN_CHECK(implemented > va_nr_ops / 2, "only %u implemented", implemented);
}

int
main(void)
{
   PAN_RUN_CASE(test_if_else);
   PAN_RUN_CASE(test_loop);
   PAN_RUN_CASE(test_discard);
   PAN_RUN_CASE(test_barrier);
   PAN_RUN_CASE(test_faults);
   PAN_RUN_CASE(test_malformed);
   PAN_RUN_CASE(test_memory);
   PAN_RUN_CASE(test_compare_swap);
   PAN_RUN_CASE(test_every_op);
   return pan_test_summary("pan_sim_va_flow");
}
