/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Valhall codec tests:
 *  - known answers: encodings worked out by hand from the bit layout in
 *    valhall_isa.py, checked in both directions;
 *  - round trip over the whole description: for every instruction, every
 *    value of every modifier field (instruction and source level) with the
 *    other bits random, and the full modifier product where it is small;
 *    word -> text -> word and text -> word -> text must both be identities;
 *  - random words (known or not) and rejected inputs.
 */

#include "pan_isa_va.h"
#include "pan_isa_va_priv.h"
#include "util/pan_test_util.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t
rng(void)
{
   return pan_test_rng64(&rng_state);
}

static void
check_word(uint64_t word)
{
   char text[512], text2[512], err[256];
   uint64_t back = 0;

   pan_va_print(word, text, sizeof(text));
   if (pan_va_assemble_line(text, &back, err, sizeof(err)) != 1) {
      PAN_CHECK(false, "%016" PRIx64 " -> '%s' does not assemble: %s", word,
                text, err);
      return;
   }
   pan_va_print(back, text2, sizeof(text2));
   PAN_CHECK(back == word && !strcmp(text, text2),
             "%016" PRIx64 " -> '%s' -> %016" PRIx64 " -> '%s'", word, text,
             back, text2);
}

static void
known_answer(const char *text, uint64_t word)
{
   char printed[512], err[256];
   uint64_t got = 0;

   PAN_CHECK(pan_va_assemble_line(text, &got, err, sizeof(err)) == 1 &&
                got == word,
             "'%s' assembles to %016" PRIx64 " (%s), expected %016" PRIx64,
             text, got, err, word);
   pan_va_print(word, printed, sizeof(printed));
   PAN_CHECK(!strcmp(printed, text),
             "%016" PRIx64 " prints '%s', expected '%s'", word, printed, text);
}

static void
known_answers(void)
{
   /* src0 r1 at [7:0], src1 r2 at [15:8], r0 with full write mask (0xC0)
    * at [47:40], primary opcode 0x0A4 at [56:48]. */
   known_answer("fadd.f32 r0, r1, r2", 0x00a4c00000000201ull);
   /* + neg (bit 36) and abs (bit 37) of source 1, clamp 2 at [33:32]. */
   known_answer("fadd.f32.clamp_m1_1 r0, r1, r2.neg.abs",
                0x00a4c03200000201ull);
   /* Uniform 10: kind 2 (0x80) | 10; MOV.i32 is opcode 0x091. */
   known_answer("mov.i32 r1, u10", 0x0091c1000000008aull);
   /* Uniform 70 lives on page 1: selector 0x86, page bits [58:57] = 1. */
   known_answer("mov.i32 r1, u70", 0x0291c10000000086ull);
   /* lane_id is special entry 1 of page 3: selector 0xC0 | (32 + 2). */
   known_answer("mov.i32 r1, lane_id.w0", 0x0691c100000000e2ull);
   /* Discarded r1 (0x41), 27-bit offset 3 at bit 8, flow 10 at [62:59]. */
   known_answer("branchz.reconverge ^r1, offset:3", 0x501fc00000000341ull);
   known_answer("branchz ^r1, offset:-1", 0x001fc007ffffff41ull);
   /* No destination: the byte keeps the full-mask convention 0xC0. */
   known_answer("nop.end", 0x7800c00000000000ull);
   /* STORE.i128: sub-opcode 7 at [29:27], staging r4 with read flag 0x40
    * at [47:40], 4 registers at [35:33], slot 0, flow end. */
   known_answer("store.i128.slot0.end {r4:4}, ^r0, offset:0",
                0x7861440838000040ull);
   /* Float immediate 1.0 is entry 16 of the table: selector 0xD0. */
   known_answer("fadd.f32 r0, r1, #0x3f800000", 0x00a4c0000000d001ull);
   /* Entry 21 repeats entry 0 (zero), so it prints by index. */
   known_answer("fadd.f32 r0, r1, #lut21", 0x00a4c0000000d501ull);
   /* Bit 63 is reserved: it survives as an extra operand. */
   known_answer("fadd.f32 r0, r1, r2, extra:0x8000000000000000",
                0x80a4c00000000201ull);
}

/* Every modifier field of an instruction, instruction and source level. */
struct mod_ref {
   const struct va_mod *mod;
};

static unsigned
collect_mods(const struct va_op *op, struct mod_ref *out)
{
   unsigned n = 0;

   for (unsigned i = 0; i < op->nr_mods; i++)
      out[n++].mod = &op->mods[i];
   for (unsigned k = 0; k < op->nr_operands; k++) {
      for (unsigned i = 0; i < op->operands[k].nr_mods; i++)
         out[n++].mod = &op->operands[k].mods[i];
   }
   return n;
}

static uint64_t
random_word(const struct va_op *op)
{
   return (rng() & ~op->match_mask) | op->match_value;
}

static uint64_t
with_field(uint64_t w, const struct va_mod *m, uint64_t v)
{
   uint64_t mask = ((1ull << m->size) - 1) << m->start;
   return (w & ~mask) | (v << m->start);
}

static void
round_trip_all(unsigned *nr_words)
{
   unsigned before = pan_test_checks;

   for (unsigned i = 0; i < va_nr_ops; i++) {
      const struct va_op *op = &va_ops[i];
      struct mod_ref mods[64];
      unsigned n = collect_mods(op, mods);
      uint64_t product = 1;

      for (unsigned m = 0; m < n; m++) {
         for (uint64_t v = 0; v < (1ull << mods[m].mod->size); v++) {
            for (unsigned rep = 0; rep < 4; rep++)
               check_word(with_field(random_word(op), mods[m].mod, v));
         }
         if (product < (1ull << 20))
            product <<= mods[m].mod->size;
      }

      /* The full product of modifier values when it is small enough. */
      if (product <= 4096) {
         for (uint64_t p = 0; p < product; p++) {
            uint64_t w = random_word(op), rest = p;
            for (unsigned m = 0; m < n; m++) {
               w = with_field(w, mods[m].mod,
                              rest & ((1ull << mods[m].mod->size) - 1));
               rest >>= mods[m].mod->size;
            }
            check_word(w);
         }
      }

      /* Clean words: no extra bits, registers only. */
      for (unsigned rep = 0; rep < 64; rep++) {
         uint64_t w = random_word(op) & op->covered;
         check_word(w | op->default_value);
      }
   }
   *nr_words = pan_test_checks - before;
}

static void
reject(const char *text)
{
   uint64_t w;
   char err[256] = "";

   PAN_CHECK(pan_va_assemble_line(text, &w, err, sizeof(err)) == -1 && err[0],
             "'%s' was accepted", text);
}

static void
rejects(void)
{
   reject("fadd.f32 r0, r1");                 /* operand count */
   reject("fadd.f32 r0, r1, r64");            /* register range */
   reject("fadd.f32 r0, r1, #0x12345678");    /* not in the table */
   reject("fadd.f32.clamp_0_1.clamp_0_1 r0, r1, r2");
   reject("fadd.f32 r0, r1, u3, u70");        /* two FAU pages */
   reject("frobnicate r0");
   reject("load.i32.slot0 {r0:9}, r2, offset:0");
   reject("branchz r1, offset:67108864");     /* 27-bit signed range */
   reject("mov.i32 r1, lane_id");             /* needs .w0/.w1 */
   reject("fadd.f32 r0, r1, r2, extra:0x1");  /* overlaps a field */
   reject("fadd.f32 r0, r1, r2.bogus");
}

int
main(void)
{
   unsigned nr_words = 0;

   known_answers();
   rejects();
   round_trip_all(&nr_words);
   for (unsigned i = 0; i < 200000; i++)
      check_word(rng());

   printf("valhall: %u instructions, %u round-trip words\n", va_nr_ops,
          nr_words);
   return pan_test_summary("pan_isa_va");
}
