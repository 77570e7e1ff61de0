/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Bifrost codec tests:
 *  - known answers worked out by hand from bifrost_isa.py (an FMA word,
 *    clause quadword layouts);
 *  - every encoding x every value of every modifier field, other bits
 *    random: word -> text -> word and text -> word -> text;
 *  - random clauses of 1..8 tuples with every legal constant count:
 *    pack -> unpack gives the same clause, disassemble -> assemble gives
 *    the same bytes;
 *  - random byte streams disassemble and reassemble to the same bytes;
 *  - register blocks: every decodable block encodes back to its bits and
 *    its text parses back to it; a hand-assembled clause with decoded
 *    operands gives the register blocks worked out from the port rules.
 */

#define _POSIX_C_SOURCE 200809L

#include "pan_isa_bi.h"
#include "pan_isa_bi_priv.h"
#include "util/pan_test_util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint64_t
rng(void)
{
   return pan_test_rng64(&rng_state);
}

static void
check_instr(uint32_t word, unsigned unit)
{
   char text[256], text2[256], err[256];
   uint32_t back = 0;

   pan_bi_print_instr(word, unit, text, sizeof(text));
   if (pan_bi_assemble_instr(text, unit, &back, err, sizeof(err))) {
      pan_test_fail("'%s' does not assemble: %s (%" PRIx32 ")", text, err,
                    word);
      return;
   }
   pan_bi_print_instr(back, unit, text2, sizeof(text2));
   PAN_CHECK(back == word && !strcmp(text, text2),
             "'%s' -> '%s' (%" PRIx32 ")", text, text2, word);
}

static void
instr_round_trip(void)
{
   for (unsigned i = 0; i < bi_nr_ops; i++) {
      const struct bi_op *op = &bi_ops[i];
      uint32_t width = op->unit ? 0xfffff : 0x7fffff;
      for (unsigned m = 0; m < op->nr_mods; m++) {
         const struct bi_mod *mod = &op->mods[m];
         for (uint32_t v = 0; v < (1u << mod->size); v++) {
            for (unsigned rep = 0; rep < 4; rep++) {
               uint32_t w = ((uint32_t)rng() & width & ~op->mask) | op->exact;
               uint32_t fm = ((1u << mod->size) - 1) << mod->start;
               check_instr((w & ~fm) | v << mod->start, op->unit);
            }
         }
      }
      for (unsigned rep = 0; rep < 16; rep++)
         check_instr(((uint32_t)rng() & width & ~op->mask) | op->exact,
                     op->unit);
   }
   for (unsigned rep = 0; rep < 100000; rep++) {
      check_instr((uint32_t)rng() & 0x7fffff, 0);
      check_instr((uint32_t)rng() & 0xfffff, 1);
   }
}

static bool
disasm_reasm(const uint8_t *bytes, size_t size_B, bool must_be_clean)
{
   char *text = NULL, err[256];
   size_t len = 0;
   FILE *fp = open_memstream(&text, &len);
   struct pan_isa_bytes out = {0};
   bool ok;

   ok = !pan_bi_disassemble(bytes, size_B, fp, false, err, sizeof(err));
   fclose(fp);
   ok = ok && !pan_bi_assemble(text, len, &out, err, sizeof(err));
   ok = ok && out.size_B == size_B && !memcmp(out.data, bytes, size_B);
   if (ok && must_be_clean && strstr(text, ".quad"))
      ok = false;
   if (!ok && pan_test_failures < PAN_TEST_REPORTED_FAILURES)
      printf("%s\n(%s)\n", text, err);
   free(text);
   pan_isa_bytes_free(&out);
   return ok;
}

static void
clause_round_trip(void)
{
   for (unsigned rep = 0; rep < 20000; rep++) {
      struct bi_clause c = {.verbatim = true}, d;
      uint64_t words[2 * 16];
      c.nr_tuples = 1 + rep % 8;
      for (unsigned i = 0; i < c.nr_tuples; i++) {
         c.tuples[i].regs = rng() & ((1ull << 35) - 1);
         c.tuples[i].fma = (uint32_t)rng() & 0x7fffff;
         c.tuples[i].add = (uint32_t)rng() & 0xfffff;
      }
      c.header = rng() & ((1ull << 45) - 1);
      bool packed = bi_ec0_packed(c.nr_tuples);
      unsigned quads = (unsigned)(rng() % (bi_const_quads_max(c.nr_tuples) + 1));
      c.nr_consts = packed + 2 * quads;
      for (unsigned i = 0; i < c.nr_consts; i++)
         c.consts[i] = rng() & ((1ull << 60) - 1);
      /* Layouts without an M field cannot carry one. */
      c.m = (unsigned)rng() & 0x7fff;

      int n = bi_pack_clause(&c, words, 16);
      if (n <= 0 || bi_unpack_clause(words, (unsigned)n, &d) != (unsigned)n) {
         pan_test_fail("clause of %u tuples does not unpack", c.nr_tuples);
         continue;
      }
      uint8_t bytes[256];
      for (int w = 0; w < 2 * n; w++) {
         for (unsigned b = 0; b < 8; b++)
            bytes[8 * w + b] = (uint8_t)(words[w] >> (8 * b));
      }
      PAN_CHECK(disasm_reasm(bytes, (size_t)n * 16, true),
                "clause text round trip, %u tuples", c.nr_tuples);
   }
}

static void
random_streams(void)
{
   for (unsigned rep = 0; rep < 2000; rep++) {
      uint8_t bytes[16 * 12];
      size_t n = 16 * (1 + rng() % 12);
      for (size_t i = 0; i < n; i++)
         bytes[i] = (uint8_t)rng();
      PAN_CHECK(disasm_reasm(bytes, n, false), "random stream of %zu bytes",
                n);
   }
}

static void
known_answers(void)
{
   uint32_t w;
   char err[256];

   /* ARSHIFT_DOUBLE.i32: fixed 0x33e000, sources at 0/3/6 (port1 = 1,
    * port2 = 2, fau_lo = 4), bytes2 flag at bit 9. */
   PAN_CHECK(!pan_bi_assemble_instr("arshift_double.i32.bytes2 port1, port2, "
                                    "fau_lo",
                                    0, &w, err, sizeof(err)) &&
                w == 0x33e311,
             "arshift_double: %s %" PRIx32, err, w);

   /* One tuple, no constants: format f0z.  The top three bits of the
    * tuple (ADD bit 19) go to tag_a, literal 1 to tag_b, Z=1 in bit 6. */
   static const uint8_t one[16] = {0x4c};
   struct pan_isa_bytes out = {0};
   const char *t1 = "clause\n    .word 0x0 | .word 0x80000 | regs\n";
   PAN_CHECK(!pan_bi_assemble(t1, strlen(t1), &out, err, sizeof(err)) &&
                out.size_B == 16 && !memcmp(out.data, one, 16),
             "single tuple clause: %s, %zu bytes", err, out.size_B);
   pan_isa_bytes_free(&out);

   /* flow=nbtb is 3 at header bits 11..13: header 0x1800 lands in field U
    * (bits 83..112, hi word bit 19 up); reg0=1 is tuple bit 20, which
    * field S places at bit 28. */
   const char *t2 = "clause flow=nbtb\n    .word 0x0 | .word 0x0 | regs "
                    "reg0=1\n";
   PAN_CHECK(!pan_bi_assemble(t2, strlen(t2), &out, err, sizeof(err)) &&
                out.size_B == 16 && out.data[0] == 0x48 &&
                out.data[3] == 0x10 &&
                ((uint64_t)out.data[10] | (uint64_t)out.data[11] << 8 |
                 (uint64_t)out.data[12] << 16) == (0x1800ull << 3),
             "header clause: %s, %zu bytes", err, out.size_B);
   pan_isa_bytes_free(&out);

   /* Three tuples need an odd number of constants (one rides in f3z). */
   const char *t3 = "clause\n    .word 0x0 | .word 0x0 | regs\n"
                    "    .word 0x0 | .word 0x0 | regs\n"
                    "    .word 0x0 | .word 0x0 | regs\n";
   PAN_CHECK(pan_bi_assemble(t3, strlen(t3), &out, err, sizeof(err)),
             "3-tuple clause without constant accepted");
   pan_isa_bytes_free(&out);

   PAN_CHECK(pan_bi_disassemble(one, 15, stdout, false, err, sizeof(err)),
             "truncated input accepted");
}

static void
regblock_round_trip(void)
{
   unsigned decoded = 0, total = 0;

   for (unsigned rep = 0; rep < 400000; rep++) {
      uint64_t bits = rng() & ((1ull << 35) - 1), again;
      bool first = rep & 1;
      struct bi_regblock b, p;
      char text[256], err[256];
      struct pan_isa_str s;

      total++;
      if (!bi_regs_decode(bits, first, &b))
         continue;
      decoded++;
      if (bi_regs_encode(&b, first, &again, err, sizeof(err)) ||
          again != bits) {
         pan_test_fail("block %" PRIx64 " does not encode back: %s", bits,
                       err);
         continue;
      }
      pan_isa_str_init(&s, text, sizeof(text));
      bi_print_regblock(&s, &b, first, bits);
      p = b;
      if (bi_parse_regblock(text, &p, err, sizeof(err))) {
         pan_test_fail("block text '%s' does not parse: %s %" PRIx64, text,
                       err, bits);
         continue;
      }
      /* The writes are not part of the block text. */
      p.fma = b.fma;
      p.add = b.add;
      PAN_CHECK(!bi_regs_encode(&p, first, &again, err, sizeof(err)) &&
                   again == bits,
                "block text '%s' -> %" PRIx64, text, again);
   }
   /* Reserved control encodings are a small minority. */
   PAN_CHECK(decoded >= total / 2, "only %u of %u random blocks decode",
             decoded, total);
}

static int
assemble_clause(const char *text, struct bi_clause *c, char *err,
                size_t err_size)
{
   struct pan_isa_bytes out = {0};
   uint64_t words[2 * 16];
   int r = -1;

   if (!pan_bi_assemble(text, strlen(text), &out, err, err_size) &&
       out.size_B <= sizeof(words)) {
      memcpy(words, out.data, out.size_B);
      r = bi_unpack_clause(words, (unsigned)(out.size_B / 16), c) ? 0 : -1;
   }
   pan_isa_bytes_free(&out);
   return r;
}

static void
operand_known_answers(void)
{
   struct bi_clause c;
   char err[256] = "";

   /*
    * Tuple 0 reads r0 on port 0 alone and u1 through the FAU; tuple 1
    * reads r2/r3.  Tuple 0's FMA result goes to r4 and tuple 1's ADD
    * result to the high half of r5.
    *
    * Block 1 (not first) writes tuple 0's FMA result, port 2 idle: mode
    * 17, ctrl 1, reg2 = reg3 = 4; ports 0/1 r2/r3 in reg0/reg1:
    *   4 << 8 | 4 << 14 | 2 << 20 | 3 << 25 | 1 << 31 = 0x086210400.
    * Block 0 (first) writes the last tuple's ADD result high half, port 2
    * idle: mode 23, first-tuple ctrl (23 & 7) | 8 = 15; port 1 off so
    * ctrl field 0 and reg1 = 15 << 2; the idle port 2 repeats r5; FAU
    * 0x80 | 1:
    *   0x81 | 5 << 8 | 5 << 14 | 60 << 25 = 0x078014581.
    * FMA fadd.f32 r0 (port 0 = 0), u1.w0 (fau_lo = 4): 0x2c0000 | 4 << 3.
    */
   const char *t1 = "clause\n"
                    "    fadd.f32 r4, r0, u1.w0 | nop t1 | p0=r0 fau=u1\n"
                    "    nop t0 | fadd.f32 r5.h1, r2, t | p0=r2 p1=r3\n";
   PAN_CHECK(!assemble_clause(t1, &c, err, sizeof(err)) &&
                c.nr_tuples == 2 && c.tuples[0].regs == 0x078014581ull &&
                c.tuples[1].regs == 0x086210400ull &&
                c.tuples[0].fma == 0x2c0020,
             "decoded operands clause: %s %" PRIx64, err, c.tuples[0].regs);

   /*
    * Registers above r31 with port 1 on: r40/r50 are stored as 63 - r,
    * reg0 = 23, reg1 = 13.  Port 2 reads r7 while the last tuple's FMA
    * writes the low half of r9 through port 3: mode 1 (first tuple: ctrl
    * 1).
    * A clause constant read through the FAU: index 0x43 is constant 0
    * (the one in the tuple quadwords of a 3-tuple clause) plus 3, so the
    * high word is 0x12345678 and the low word 0x9abcdef3.
    *   0x43 | 9 << 8 | 7 << 14 | 23 << 20 | 13 << 25 | 1 << 31
    */
   const char *t2 = "clause\n"
                    "    fma.f32 t0, r40, r50, r7 | fadd.f32 t1, "
                    "#0x12345678, #0x9abcdef3 | p0=r40 p1=r50 p2=r7 "
                    "fau=c0+3\n"
                    "    fadd.f32 t0, t0, t1 | nop t1\n"
                    "    nop r9.h0 | nop t1\n"
                    "    const 0x123456789abcdef0\n";
   uint64_t want = 0x43 | 9ull << 8 | 7ull << 14 | 23ull << 20 |
                   13ull << 25 | 1ull << 31;
   PAN_CHECK(!assemble_clause(t2, &c, err, sizeof(err)) &&
                c.nr_tuples == 3 && c.tuples[0].regs == want &&
                (c.tuples[0].add & 0x3f) == (5 | 4 << 3),
             "high registers and constants: %s %" PRIx64, err,
             c.tuples[0].regs);

   /* The first tuple cannot carry two full writes of the last tuple. */
   const char *t3 = "clause\n    fadd.f32 r1, r0, r0 | fadd.f32 r2, t, t "
                    "| p0=r0\n";
   PAN_CHECK(assemble_clause(t3, &c, err, sizeof(err)) &&
                strstr(err, "line 2"),
             "two writes into the first block accepted: %s", err);

   /* Destinations that contradict a raw register block are refused. */
   const char *t4 = "clause\n    nop r3 | nop t1 | regs reg1=32\n";
   PAN_CHECK(assemble_clause(t4, &c, err, sizeof(err)),
             "destination against raw block accepted");
}

int
main(void)
{
   known_answers();
   operand_known_answers();
   regblock_round_trip();
   instr_round_trip();
   clause_round_trip();
   random_streams();
   printf("bifrost: %u encodings\n", bi_nr_ops);
   return pan_test_summary("pan_isa_bi");
}
