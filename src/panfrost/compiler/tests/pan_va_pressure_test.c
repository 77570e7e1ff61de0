/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Register pressure on Valhall: pan_va_sink_pressure moves a texture and
 * the computation only it reads down to the texture's first reader (and
 * nothing past a side effect or a source read no later), and the
 * allocator lets a texture's result take the registers of sources it
 * reads for the last time.
 */

#include <string.h>

#include "pan_ir_builder.h"
#include "pan_va.h"
#include "util/pan_test_util.h"

static void
expect_ir(pan_ir_shader *s, const char *expected, const char *what)
{
   char *got = pan_ir_shader_to_string(s, s);
   PAN_CHECK(!strcmp(got, expected), "%s:\n--- got\n%s--- expected\n%s", what,
             got, expected);
}

/* A texture at coordinates computed from %0, then two unrelated adds,
 * then the texture's reader; `between` is a store after the texture, and
 * `late` reads the coordinates' source %1 after the reader. */
static pan_ir_shader *
build(bool between, bool late)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_builder b = pan_ir_builder_at_end(s, pan_ir_block_create(s));
   pan_ir_index p = pan_ir_preload(&b, 60);
   pan_ir_index x = pan_ir_fadd(&b, p, pan_ir_uniform(0));
   pan_ir_index y = pan_ir_fadd(&b, x, pan_ir_uniform(1));
   pan_ir_index c = pan_ir_collect(&b, 2, (pan_ir_index[]){ x, y });
   pan_ir_index h = pan_ir_collect(
      &b, 2, (pan_ir_index[]){ pan_ir_uniform(2), pan_ir_uniform(3) });
   pan_ir_index t = pan_ir_tex(&b, PAN_IR_TYPE_F32, 0x11, c, h);
   if (between)
      pan_ir_store_global(&b, 0, p, p);
   pan_ir_index f = pan_ir_fadd(&b, p, pan_ir_uniform(4));
   pan_ir_index g = pan_ir_fadd(&b, f, pan_ir_uniform(5));
   pan_ir_index r = pan_ir_fadd(&b, pan_ir_word(t, 1), g);
   if (late)
      r = pan_ir_fadd(&b, r, x);
   pan_ir_store_global(&b, 0, p, r);
   return s;
}

static void
test_sink_chain(void)
{
   pan_ir_shader *s = build(false, false);
   PAN_EXPECT(pan_va_sink_pressure(s));
   /* The texture, its coordinates and what only they read, in order. */
   expect_ir(s,
             "block0:\n"
             "   %0 = preload imm:0x3c\n"
             "   %6 = fadd %0, u4\n"
             "   %7 = fadd %6, u5\n"
             "   %1 = fadd %0, u0\n"
             "   %2 = fadd %1, u1\n"
             "   %3:2 = collect %1, %2\n"
             "   %4:2 = collect u2, u3\n"
             "   %5:4 = tex.f32 %3:2, %4:2, imm:0x11\n"
             "   %8 = fadd %5.1, %7\n"
             "   store_global %0, %8, imm:0x0\n",
             "texture chain sunk");
   ralloc_free(s);
}

static void
test_sink_stops(void)
{
   /* A store between the texture and its reader: nothing crosses it,
    * the adds after it only move down to their reader. */
   pan_ir_shader *s = build(true, false);
   pan_va_sink_pressure(s);
   char *got = pan_ir_shader_to_string(s, s);
   const char *tex = strstr(got, "tex.f32");
   const char *store = strstr(got, "store_global");
   PAN_CHECK(tex && store && tex < store, "texture moved past a store:\n%s",
             got);
   ralloc_free(s);

   /* %1 read again after the reader: the coordinates would keep it no
    * longer, so they move; its computation reads %0 (a preload). */
   s = build(false, true);
   PAN_EXPECT(pan_va_sink_pressure(s));
   got = pan_ir_shader_to_string(s, s);
   const char *x = strstr(got, "%1 = fadd");
   const char *f = strstr(got, "%6 = fadd");
   PAN_CHECK(x && f && f < x, "%%1 stayed above the unrelated adds:\n%s", got);
   ralloc_free(s);
}

/* With the texture's coordinates read there last, its result takes their
 * registers (first fit gives both r0). */
static void
test_tex_overlap(void)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_builder b = pan_ir_builder_at_end(s, pan_ir_block_create(s));
   pan_ir_index p = pan_ir_preload(&b, 60);
   pan_ir_index x = pan_ir_fadd(&b, p, pan_ir_uniform(0));
   pan_ir_index y = pan_ir_fadd(&b, p, pan_ir_uniform(1));
   pan_ir_index c = pan_ir_collect(&b, 2, (pan_ir_index[]){ x, y });
   pan_ir_index t = pan_ir_tex(&b, PAN_IR_TYPE_F32, 0x11, c, p);
   pan_ir_store_global(&b, 0, p, pan_ir_word(t, 3));

   struct pan_va_spill_stats st;
   char err[128] = "";
   uint8_t *regs = pan_va_ra(s, 0, true, &st, err, sizeof(err));
   PAN_CHECK(regs, "allocation failed: %s", err);
   if (regs) {
      PAN_CHECK(regs[t.value] == regs[c.value],
                "texture result r%u, coordinates r%u", regs[t.value],
                regs[c.value]);
   }
   ralloc_free(s);
}

int
main(void)
{
   PAN_RUN_CASE(test_sink_chain);
   PAN_RUN_CASE(test_sink_stops);
   PAN_RUN_CASE(test_tex_overlap);
   return pan_test_summary("pan_va_pressure");
}
