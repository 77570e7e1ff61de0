/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * pan-shader-stats' model on hand-assembled programs whose counts are
 * known line by line, and its refusal of bytes that are no program.
 */

#include <stdio.h>
#include <string.h>

#include "pan_isa_bi.h"
#include "pan_isa_va.h"
#include "pan_shader_stats.h"

static unsigned failures;

#define CHECK_EQ(what, got, want)                                              \
   do {                                                                        \
      if ((got) != (want)) {                                                   \
         fprintf(stderr, "%s: %s is %u, expected %u\n", what, #got,            \
                 (unsigned)(got), (unsigned)(want));                           \
         failures++;                                                           \
      }                                                                        \
   } while (0)

/* Five clauses, costs by line:
 *   1: 2 arithmetic tuples, fadd + fma (r40 written: one thread on v7)
 *   2: a texture message and 2 arithmetic tuples, 4 instructions; the
 *      message's tuple has an FMA too, which the stock estimate counts
 *      as arithmetic (3)
 *   3: a jump back to a negative distance (a loop), 1 arithmetic tuple
 *   4: a store to thread-local storage (a spill), a load/store message
 *   5: an attribute load, a load/store message (r61/r62: preloads) */
static const char bi_program[] =
   "clause flow=nbtb_uncond next_msg=tex\n"
   "    nop t0 | fadd.f32.round=none r2, r2, r7 | p0=r2 p1=r7\n"
   "    fma.f32.neg r40, r3, #0x3f000000, #0 | nop t1 | p0=r3 fau=c0\n"
   "    const 0x3f00000000000000\n"
   "    const 0x3000000000000000\n"
   "clause flow=nbtb prefetch sr=7 wait=1 msg=tex\n"
   "    nop t0 | s32_to_f32.none r7, r6 | p0=r6\n"
   "    fma.f32.neg t0, r0, t1, #0 | nop t1 | p0=r0\n"
   "    fma.f32.neg t0, r1, r7, #0 | texs_2d.f32.skip.computed_lod t1, t0, "
   "t, texture_index:0, sampler_index:0 | p0=r1 p1=r7\n"
   "    const 0x0000000000000000\n"
   "clause flow=nbtb_uncond\n"
   "    nop t0 | jump t1, #0x4fffff80 | fau=c0\n"
   "    const 0x4fffff8000000000\n"
   "    const 0x0000000000000000\n"
   "clause flow=nbtb sr=4 wait=1 msg=store\n"
   "    nop t0 | store.i32.tl t1, r0, r1 | p0=r0 p1=r1\n"
   "clause wait=1 msg=attribute\n"
   "    nop t0 | ld_attr_imm.v4.f32 t1, r61, r62, attribute_index:0 | "
   "p0=r61 p1=r62\n";

/* One instruction per unit class, a loop, a spill and a fill; r48 (the
 * blend return register) is not a work register. */
static const char va_program[] =
   "ld_var_buf_imm.f32.slot0.v2.src_f32.center.store.wait0 {r0:2}, r61, "
   "index:0\n"              /* V, writes r0-r1 */
   "fadd.f32 r%u, r0, r1\n" /* FMA */
   "mov.i32 r2, #0x0\n"     /* CVT */
   "frcp.f32 r3, r2\n"      /* SFU */
   "tex_single.slot0.f.r32.2d.computed.wait0 {r12:4}, {r8:2}, r10\n" /* T */
   "branchz.reconverge #0xffffffff, offset:-3\n" /* CVT, backward */
   "store.i32.slot0.force {r2:1}, thread_local_pointer.w0, offset:4\n"
   "load.i32.slot0.force.wait0 {r5:1}, thread_local_pointer.w0, offset:4\n"
   "iadd_imm.i32 r48, #0x0, constant:0\n" /* CVT */
   "nop.end\n";                           /* CVT */

/* Assemble text into out and measure it into st. */
static void
assemble(unsigned arch, const char *text, struct pan_isa_bytes *out,
         struct pan_shader_stats *st)
{
   char err[256];
   int r = arch == 9
              ? pan_va_assemble(text, strlen(text), out, err, sizeof(err))
              : pan_bi_assemble(text, strlen(text), out, err, sizeof(err));
   if (r) {
      fprintf(stderr, "assembling v%u: %s\n", arch, err);
      failures++;
   }
   if (!pan_shader_stats(arch, out->data, out->size_B, st, err, sizeof(err))) {
      fprintf(stderr, "measuring v%u: %s\n", arch, err);
      failures++;
   }
}

static void
test_bifrost(void)
{
   struct pan_isa_bytes bin = { 0 };
   struct pan_shader_stats st;
   char err[256];
   assemble(7, bi_program, &bin, &st);
   CHECK_EQ("bifrost", st.instrs, 9);
   CHECK_EQ("bifrost", st.tuples, 8);
   CHECK_EQ("bifrost", st.clauses, 5);
   CHECK_EQ("bifrost", st.quads, 10); /* 3 + 3 + 2 + 1 + 1 */
   CHECK_EQ("bifrost", st.arith_tuples, 6);
   CHECK_EQ("bifrost", st.vary_halves, 0);
   CHECK_EQ("bifrost", st.tex, 1);
   CHECK_EQ("bifrost", st.vary, 0);
   CHECK_EQ("bifrost", st.ldst, 2);
   CHECK_EQ("bifrost", st.loops, 1);
   CHECK_EQ("bifrost", st.spills, 1);
   CHECK_EQ("bifrost", st.fills, 0);
   CHECK_EQ("bifrost", st.max_reg, 41);

   /* Zero quadwords after the program are padding. */
   uint8_t zeros[32] = { 0 };
   pan_isa_bytes_append(&bin, zeros, sizeof(zeros));
   pan_shader_stats(7, bin.data, bin.size_B, &st, err, sizeof(err));
   CHECK_EQ("bifrost padded", st.quads, 10);
   CHECK_EQ("bifrost padded", st.clauses, 5);

   /* A partial quadword, and a quadword of garbage, are refused. */
   bool ok =
      pan_shader_stats(7, bin.data, bin.size_B - 1, &st, err, sizeof(err));
   CHECK_EQ("bifrost truncated", ok, false);
   memset(bin.data + bin.size_B - 16, 0xa5, 16);
   ok = pan_shader_stats(6, bin.data, bin.size_B, &st, err, sizeof(err));
   CHECK_EQ("bifrost garbage", ok, false);
   if (!strstr(err, "byte 0xb0")) {
      fprintf(stderr, "bifrost garbage: message '%s'\n", err);
      failures++;
   }
   pan_isa_bytes_free(&bin);
}

static void
test_valhall(unsigned dest, unsigned max_reg)
{
   char text[sizeof(va_program) + 8];
   snprintf(text, sizeof(text), va_program, dest);
   struct pan_isa_bytes bin = { 0 };
   struct pan_shader_stats st;
   char err[256];
   assemble(9, text, &bin, &st);
   CHECK_EQ("valhall", st.instrs, 10);
   CHECK_EQ("valhall", st.quads, 5);
   CHECK_EQ("valhall", st.fma, 1);
   CHECK_EQ("valhall", st.cvt, 4);
   CHECK_EQ("valhall", st.sfu, 1);
   CHECK_EQ("valhall", st.v, 1);
   CHECK_EQ("valhall", st.t, 1);
   CHECK_EQ("valhall", st.ls, 2);
   CHECK_EQ("valhall", st.loops, 1);
   CHECK_EQ("valhall", st.spills, 1);
   CHECK_EQ("valhall", st.fills, 1);
   CHECK_EQ("valhall", st.max_reg, max_reg);

   /* The printed line: cycles are the busiest unit (2 load/stores). */
   char line[512];
   FILE *fp = fmemopen(line, sizeof(line), "w");
   pan_shader_stats_print(fp, "MESA_SHADER_FRAGMENT", &st);
   fclose(fp);
   char want[64];
   snprintf(want, sizeof(want), "%u threads", max_reg <= 32 ? 2 : 1);
   if (!strstr(line, "SHADER-DB: MESA_SHADER_FRAGMENT shader: 10 inst, "
                     "2.000000 cycles, 0.015625 fma, 0.062500 cvt") ||
       !strstr(line, want) || !strstr(line, "1:1 spills:fills")) {
      fprintf(stderr, "valhall line: %s", line);
      failures++;
   }

   /* An unknown word and a partial word are refused. */
   uint64_t bad = ~0ull;
   bool ok = pan_shader_stats(9, &bad, sizeof(bad), &st, err, sizeof(err));
   CHECK_EQ("valhall unknown", ok, false);
   ok = pan_shader_stats(9, bin.data, bin.size_B - 3, &st, err, sizeof(err));
   CHECK_EQ("valhall truncated", ok, false);
   ok = pan_shader_stats(5, bin.data, bin.size_B, &st, err, sizeof(err));
   CHECK_EQ("midgard", ok, false);
   pan_isa_bytes_free(&bin);
}

int
main(void)
{
   test_bifrost();
   test_valhall(40, 41); /* r40: beyond r31, one thread */
   test_valhall(20, 21); /* r20 the highest: two threads */
   if (failures)
      fprintf(stderr, "%u failures\n", failures);
   return failures ? 1 : 0;
}
