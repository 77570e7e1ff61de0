/*
 * Copyright 2025 the panfrost-ng authors
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
 *  - random byte streams disassemble and reassemble to the same bytes.
 */

#define _POSIX_C_SOURCE 200809L

#include "pan_isa_bi.h"
#include "pan_isa_bi_priv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned failures, checks;
static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint64_t
rng(void)
{
   rng_state ^= rng_state >> 12;
   rng_state ^= rng_state << 25;
   rng_state ^= rng_state >> 27;
   return rng_state * 0x2545f4914f6cdd1dull;
}

static void
fail(const char *fmt, const char *a, const char *b, uint64_t x)
{
   if (failures++ < 20) {
      printf("FAIL: ");
      printf(fmt, a, b, x);
      printf("\n");
   }
}

static void
check_instr(uint32_t word, unsigned unit)
{
   char text[256], text2[256], err[256];
   uint32_t back = 0;

   checks++;
   pan_bi_print_instr(word, unit, text, sizeof(text));
   if (pan_bi_assemble_instr(text, unit, &back, err, sizeof(err))) {
      fail("'%s' does not assemble: %s (%" PRIx64 ")", text, err, word);
      return;
   }
   pan_bi_print_instr(back, unit, text2, sizeof(text2));
   if (back != word || strcmp(text, text2))
      fail("'%s' -> '%s' (%" PRIx64 ")", text, text2, word);
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
   if (!ok && failures < 20)
      printf("%s\n(%s)\n", text, err);
   free(text);
   pan_isa_bytes_free(&out);
   return ok;
}

static void
clause_round_trip(void)
{
   for (unsigned rep = 0; rep < 20000; rep++) {
      struct bi_clause c = {0}, d;
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

      checks++;
      int n = bi_pack_clause(&c, words, 16);
      if (n <= 0 || bi_unpack_clause(words, (unsigned)n, &d) != (unsigned)n) {
         fail("clause of %s tuples does not unpack%s %" PRIx64, "", "",
              c.nr_tuples);
         continue;
      }
      uint8_t bytes[256];
      for (int w = 0; w < 2 * n; w++) {
         for (unsigned b = 0; b < 8; b++)
            bytes[8 * w + b] = (uint8_t)(words[w] >> (8 * b));
      }
      checks++;
      if (!disasm_reasm(bytes, (size_t)n * 16, true))
         fail("clause text round trip%s%s %" PRIx64, "", "", c.nr_tuples);
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
      checks++;
      if (!disasm_reasm(bytes, n, false))
         fail("random stream%s%s %" PRIx64, "", "", n);
   }
}

static void
known_answers(void)
{
   uint32_t w;
   char err[256];

   /* ARSHIFT_DOUBLE.i32: fixed 0x33e000, sources at 0/3/6 (port1 = 1,
    * port2 = 2, fau_lo = 4), bytes2 flag at bit 9. */
   checks++;
   if (pan_bi_assemble_instr("arshift_double.i32.bytes2 port1, port2, fau_lo",
                             0, &w, err, sizeof(err)) || w != 0x33e311)
      fail("arshift_double: %s%s %" PRIx64, err, "", w);

   /* One tuple, no constants: format f0z.  The top three bits of the
    * tuple (ADD bit 19) go to tag_a, literal 1 to tag_b, Z=1 in bit 6. */
   static const uint8_t one[16] = {0x4c};
   checks++;
   struct pan_isa_bytes out = {0};
   const char *t1 = "clause\n    .word 0x0 | .word 0x80000 | regs\n";
   if (pan_bi_assemble(t1, strlen(t1), &out, err, sizeof(err)) ||
       out.size_B != 16 || memcmp(out.data, one, 16))
      fail("single tuple clause%s%s %" PRIx64, err, "", out.size_B);
   pan_isa_bytes_free(&out);

   /* flow=nbtb is 3 at header bits 11..13: header 0x1800 lands in field U
    * (bits 83..112, hi word bit 19 up); reg0=1 is tuple bit 20, which
    * field S places at bit 28. */
   const char *t2 = "clause flow=nbtb\n    .word 0x0 | .word 0x0 | regs "
                    "reg0=1\n";
   checks++;
   if (pan_bi_assemble(t2, strlen(t2), &out, err, sizeof(err)) ||
       out.size_B != 16 || out.data[0] != 0x48 || out.data[3] != 0x10 ||
       ((uint64_t)out.data[10] | (uint64_t)out.data[11] << 8 |
        (uint64_t)out.data[12] << 16) != (0x1800ull << 3))
      fail("header clause%s%s %" PRIx64, err, "", out.size_B);
   pan_isa_bytes_free(&out);

   /* Three tuples need an odd number of constants (one rides in f3z). */
   const char *t3 = "clause\n    .word 0x0 | .word 0x0 | regs\n"
                    "    .word 0x0 | .word 0x0 | regs\n"
                    "    .word 0x0 | .word 0x0 | regs\n";
   checks++;
   if (!pan_bi_assemble(t3, strlen(t3), &out, err, sizeof(err)))
      fail("3-tuple clause without constant accepted%s%s %" PRIx64, "", "",
           0);
   pan_isa_bytes_free(&out);

   checks++;
   if (!pan_bi_disassemble(one, 15, stdout, false, err, sizeof(err)))
      fail("truncated input accepted%s%s %" PRIx64, "", "", 15);
}

int
main(void)
{
   known_answers();
   instr_round_trip();
   clause_round_trip();
   random_streams();
   printf("bifrost: %u encodings, %u checks, %u failures\n", bi_nr_ops,
          checks, failures);
   return failures ? 1 : 0;
}
