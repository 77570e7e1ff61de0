/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Register pressure on Valhall: pan_va_sink_pressure moves a texture and
 * the computation only it reads down to the texture's first reader (and
 * nothing past a side effect or a source read no later), and the
 * allocator lets a texture's result take the registers of sources it
 * reads for the last time; a texture moves past BLEND and ATEST to its
 * own BLEND (a tile read does not), also when its scalars and
 * coordinates are more words than its result; pan_va_hoist_stores
 * stores outputs as soon as they are complete, which the allocator's
 * wide try needs to fit eight computed slots in the half file, and when
 * whole brings their computations along; the third level takes a
 * texture's first reader along to its next one.
 */

#include <string.h>

#include "pan_ir_builder.h"
#include "pan_va.h"
#include "pan_ir_test_expect.h"
#include "util/pan_test_util.h"

/* The start both programs below share: a shader whose one block samples a
 * texture at coordinates (x, x + u1) computed from the preload p, x = p +
 * u0; the builder is left after the texture. */
static pan_ir_index
texture_at(pan_ir_shader *s, pan_ir_builder *b, pan_ir_index *p,
           pan_ir_index *x)
{
   *b = pan_ir_builder_at_end(s, pan_ir_block_create(s));
   *p = pan_ir_preload(b, 60);
   *x = pan_ir_fadd(b, *p, pan_ir_uniform(0));
   pan_ir_index y = pan_ir_fadd(b, *x, pan_ir_uniform(1));
   pan_ir_index c = pan_ir_collect(b, 2, (pan_ir_index[]){ *x, y });
   pan_ir_index h = pan_ir_collect(
      b, 2, (pan_ir_index[]){ pan_ir_uniform(2), pan_ir_uniform(3) });
   return pan_ir_tex(b, PAN_IR_TYPE_F32, 0x11, c, h);
}

/* A texture at coordinates computed from %0, then two unrelated adds,
 * then the texture's reader; `between` is a store after the texture, and
 * `late` reads the coordinates' source %1 after the reader. */
static pan_ir_shader *
build(bool between, bool late)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_builder b;
   pan_ir_index p, x;
   pan_ir_index t = texture_at(s, &b, &p, &x);
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
   PAN_EXPECT(pan_va_sink_pressure(s, false));
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
   pan_va_sink_pressure(s, false);
   char *got = pan_ir_shader_to_string(s, s);
   const char *tex = strstr(got, "tex.f32");
   const char *store = strstr(got, "store_global");
   PAN_CHECK(tex && store && tex < store, "texture moved past a store:\n%s",
             got);
   ralloc_free(s);

   /* %1 read again after the reader: the coordinates would keep it no
    * longer, so they move; its computation reads %0 (a preload). */
   s = build(false, true);
   PAN_EXPECT(pan_va_sink_pressure(s, false));
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

/* Two textures at the same three-word coordinates, each written to a
 * render target: the second texture (and its handle) moves past the
 * first BLEND and the ATEST to its own BLEND, its coordinates living
 * longer (3 words) and its result shorter (4); with tile_read the
 * second colour is a tile read, which stays above the first BLEND. */
static pan_ir_shader *
build_blends(bool tile_read)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_builder b = pan_ir_builder_at_end(s, pan_ir_block_create(s));
   pan_ir_index p = pan_ir_preload(&b, 60);
   pan_ir_index x = pan_ir_fadd(&b, p, pan_ir_uniform(0));
   pan_ir_index c = pan_ir_collect(&b, 3, (pan_ir_index[]){ x, x, x });
   pan_ir_index t0 = pan_ir_tex(&b, PAN_IR_TYPE_F32, 0x11, c, p);
   pan_ir_index t1 = tile_read
                        ? pan_ir_ld_tile(&b, PAN_IR_TYPE_F32, p, p, p)
                        : pan_ir_tex(&b, PAN_IR_TYPE_F32, 0x12, c, p);
   pan_ir_index cov = pan_ir_atest(&b, p, pan_ir_word(t0, 3), p);
   pan_ir_blend(&b, PAN_IR_TYPE_F32, 0, t0, p, cov, t0);
   pan_ir_blend(&b, PAN_IR_TYPE_F32, 0x101, t1, p, cov, t1);
   return s;
}

static void
test_sink_past_blend(void)
{
   pan_ir_shader *s = build_blends(false);
   PAN_EXPECT(pan_va_sink_pressure(s, true));
   expect_ir(s,
             "block0:\n"
             "   %0 = preload imm:0x3c\n"
             "   %1 = fadd %0, u0\n"
             "   %2:3 = collect %1, %1, %1\n"
             "   %3:4 = tex.f32 %2:3, %0, imm:0x11\n"
             "   %5 = atest %0, %3.3, %0\n"
             "   blend.f32 %3:4, %0, %5, %3:4, imm:0x0\n"
             "   %4:4 = tex.f32 %2:3, %0, imm:0x12\n"
             "   blend.f32 %4:4, %0, %5, %4:4, imm:0x101\n",
             "second texture moved to its BLEND");
   ralloc_free(s);

   /* Not wide: nothing crosses the BLEND. */
   s = build_blends(false);
   pan_va_sink_pressure(s, false);
   char *narrow = pan_ir_shader_to_string(s, s);
   const char *second = strstr(narrow, "imm:0x12");
   const char *first_blend = strstr(narrow, "blend.f32");
   PAN_CHECK(second && first_blend && second < first_blend,
             "texture moved past a BLEND without wide:\n%s", narrow);
   ralloc_free(s);

   s = build_blends(true);
   pan_va_sink_pressure(s, true);
   char *got = pan_ir_shader_to_string(s, s);
   const char *tile = strstr(got, "ld_tile");
   const char *blend = strstr(got, "blend.f32");
   PAN_CHECK(tile && blend && tile < blend, "tile read moved past a BLEND:\n%s",
             got);
   ralloc_free(s);
}

/* Two textures at the same coordinates, each scaled by the same two
 * computed scalars into a colour (tesseract/497's shape): the second
 * colour's group lengthens the coordinates and both scalars (5 words)
 * for its 4-word result, which still moves past the first BLEND: across
 * it the result would keep out of r0-r15. */
static void
test_sink_scaled_past_blend(void)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_builder b = pan_ir_builder_at_end(s, pan_ir_block_create(s));
   pan_ir_index p = pan_ir_preload(&b, 60);
   pan_ir_index x = pan_ir_fadd(&b, p, pan_ir_uniform(0));
   pan_ir_index m = pan_ir_fadd(&b, p, pan_ir_uniform(1));
   pan_ir_index k = pan_ir_fadd(&b, p, pan_ir_uniform(2));
   pan_ir_index c = pan_ir_collect(&b, 3, (pan_ir_index[]){ x, x, x });
   pan_ir_index col[2];
   for (unsigned t = 0; t < 2; ++t) {
      pan_ir_index r = pan_ir_tex(&b, PAN_IR_TYPE_F32, 0x11 + t, c, p);
      pan_ir_index w[4];
      for (unsigned i = 0; i < 4; ++i)
         w[i] = pan_ir_fma(&b, pan_ir_word(r, i), m, k);
      col[t] = pan_ir_collect(&b, 4, w);
   }
   pan_ir_index cov = pan_ir_atest(&b, p, pan_ir_word(col[0], 3), p);
   pan_ir_blend(&b, PAN_IR_TYPE_F32, 0, col[0], p, cov, col[0]);
   pan_ir_blend(&b, PAN_IR_TYPE_F32, 0x101, col[1], p, cov, col[1]);
   PAN_EXPECT(pan_va_sink_pressure(s, true));
   char *got = pan_ir_shader_to_string(s, s);
   const char *second = strstr(got, "imm:0x12");
   const char *first_blend = strstr(got, "blend.f32");
   PAN_CHECK(second && first_blend && second > first_blend,
             "second scaled texture left above the first BLEND:\n%s", got);
   ralloc_free(s);
}

/* A texture whose alpha is scaled right after it and read only at the
 * end, and whose colour is read after two unrelated adds. */
static pan_ir_shader *
build_alpha(void)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_builder b;
   pan_ir_index p, x;
   pan_ir_index t = texture_at(s, &b, &p, &x);
   pan_ir_index a = pan_ir_fadd(&b, pan_ir_word(t, 3), pan_ir_uniform(4));
   pan_ir_index f = pan_ir_fadd(&b, p, pan_ir_uniform(5));
   pan_ir_index g = pan_ir_fadd(&b, f, pan_ir_uniform(6));
   pan_ir_index r = pan_ir_fadd(&b, pan_ir_word(t, 0), g);
   pan_ir_index r2 = pan_ir_fadd(&b, r, a);
   pan_ir_store_global(&b, 0, p, r2);
   return s;
}

/* Level 2 takes the alpha's scaling along with the texture down to the
 * colour's reader; the narrower levels leave the texture above the adds
 * (moving the scaling alone would hold the four words longer). */
static void
test_sink_carries_reader(void)
{
   pan_ir_shader *s = build_alpha();
   PAN_EXPECT(pan_va_sink_pressure(s, 2));
   expect_ir(s,
             "block0:\n"
             "   %0 = preload imm:0x3c\n"
             "   %7 = fadd %0, u5\n"
             "   %8 = fadd %7, u6\n"
             "   %1 = fadd %0, u0\n"
             "   %2 = fadd %1, u1\n"
             "   %3:2 = collect %1, %2\n"
             "   %4:2 = collect u2, u3\n"
             "   %5:4 = tex.f32 %3:2, %4:2, imm:0x11\n"
             "   %6 = fadd %5.3, u4\n"
             "   %9 = fadd %5, %8\n"
             "   %10 = fadd %9, %6\n"
             "   store_global %0, %10, imm:0x0\n",
             "reader carried");
   ralloc_free(s);

   for (unsigned level = 0; level < 2; ++level) {
      s = build_alpha();
      pan_va_sink_pressure(s, level);
      char *got = pan_ir_shader_to_string(s, s);
      const char *tex = strstr(got, "tex.f32");
      const char *add = strstr(got, "fadd %0, u5");
      PAN_CHECK(tex && add && tex < add, "level %u moved the texture:\n%s",
                level, got);
      ralloc_free(s);
   }
}

/* A vertex shader computing two output slots and storing both at the end
 * (the address last, as NIR leaves it): each store and its collect move
 * up to just below their last source, the address to just above the
 * first store. */
static void
test_hoist_stores(void)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_builder b = pan_ir_builder_at_end(s, pan_ir_block_create(s));
   pan_ir_index p = pan_ir_preload(&b, 60);
   pan_ir_index a = pan_ir_fadd(&b, p, pan_ir_uniform(0));
   pan_ir_index a2 = pan_ir_fadd(&b, a, pan_ir_uniform(1));
   pan_ir_index d = pan_ir_fadd(&b, p, pan_ir_uniform(2));
   pan_ir_index d2 = pan_ir_fadd(&b, d, pan_ir_uniform(3));
   pan_ir_index v0 = pan_ir_collect(&b, 2, (pan_ir_index[]){ a, a2 });
   pan_ir_index v1 = pan_ir_collect(&b, 2, (pan_ir_index[]){ d, d2 });
   pan_ir_index id = pan_ir_preload(&b, 59);
   pan_ir_index addr = pan_ir_lea_vary(&b, id);
   pan_ir_store_vary(&b, 0x0, v0, addr);
   pan_ir_store_vary(&b, 0x10, v1, addr);
   /* A store to the first one's bytes stays below it (it passes the
    * second, to other bytes). */
   pan_ir_store_vary(&b, 0x4, d, addr);

   PAN_EXPECT(pan_va_hoist_stores(s, false));
   PAN_EXPECT(pan_va_sink_pressure(s, true));
   expect_ir(s,
             "block0:\n"
             "   %7 = preload imm:0x3b\n"
             "   %0 = preload imm:0x3c\n"
             "   %1 = fadd %0, u0\n"
             "   %2 = fadd %1, u1\n"
             "   %5:2 = collect %1, %2\n"
             "   %8:2 = lea_vary %7\n"
             "   store_vary %5:2, %8:2, imm:0x0\n"
             "   %3 = fadd %0, u2\n"
             "   store_vary %3, %8:2, imm:0x4\n"
             "   %4 = fadd %3, u3\n"
             "   %6:2 = collect %3, %4\n"
             "   store_vary %6:2, %8:2, imm:0x10\n",
             "stores hoisted");
   ralloc_free(s);
}

/* A slot computed last from a value only it reads (%1), after another
 * slot: whole, its computation moves up with its store to just below
 * that value, which then dies before the other slot is computed; the
 * plain hoist moves only the store and its collect. */
static pan_ir_shader *
build_late_slot(void)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_builder b = pan_ir_builder_at_end(s, pan_ir_block_create(s));
   pan_ir_index p = pan_ir_preload(&b, 60);
   pan_ir_index x = pan_ir_fadd(&b, p, pan_ir_uniform(0));
   pan_ir_index y = pan_ir_fadd(&b, p, pan_ir_uniform(1));
   pan_ir_index y2 = pan_ir_fadd(&b, y, pan_ir_uniform(2));
   pan_ir_index v0 = pan_ir_collect(&b, 2, (pan_ir_index[]){ y, y2 });
   pan_ir_index z = pan_ir_fadd(&b, x, pan_ir_uniform(3));
   pan_ir_index v1 = pan_ir_collect(&b, 2, (pan_ir_index[]){ z, x });
   pan_ir_index w = pan_ir_fadd(&b, y2, pan_ir_uniform(4));
   pan_ir_index addr = pan_ir_lea_vary(&b, pan_ir_preload(&b, 59));
   pan_ir_store_vary(&b, 0x0, v0, addr);
   pan_ir_store_vary(&b, 0x10, v1, addr);
   pan_ir_store_vary(&b, 0x20, w, addr);
   return s;
}

static void
test_hoist_whole_outputs(void)
{
   pan_ir_shader *s = build_late_slot();
   PAN_EXPECT(pan_va_hoist_stores(s, true));
   PAN_EXPECT(pan_va_sink_pressure(s, true));
   /* The third store's add reads %3, which the first slot reads too: it
    * comes up to just below it, above the first slot's collect. */
   expect_ir(s,
             "block0:\n"
             "   %8 = preload imm:0x3b\n"
             "   %0 = preload imm:0x3c\n"
             "   %1 = fadd %0, u0\n"
             "   %5 = fadd %1, u3\n"
             "   %6:2 = collect %5, %1\n"
             "   %9:2 = lea_vary %8\n"
             "   store_vary %6:2, %9:2, imm:0x10\n"
             "   %2 = fadd %0, u1\n"
             "   %3 = fadd %2, u2\n"
             "   %7 = fadd %3, u4\n"
             "   store_vary %7, %9:2, imm:0x20\n"
             "   %4:2 = collect %2, %3\n"
             "   store_vary %4:2, %9:2, imm:0x0\n",
             "whole outputs hoisted");
   ralloc_free(s);

   /* Without whole, the second slot's add stays below the first slot. */
   s = build_late_slot();
   PAN_EXPECT(pan_va_hoist_stores(s, false));
   char *got = pan_ir_shader_to_string(s, s);
   const char *add = strstr(got, "%5 = fadd");
   const char *first = strstr(got, "%4:2 = collect");
   PAN_CHECK(add && first && add > first, "plain hoist moved %%5 up:\n%s", got);
   ralloc_free(s);
}

/* Eight output slots, each four words computed from an attribute, all
 * stored at the end (as NIR leaves them): only with the stores hoisted
 * (the wide try) do they fit the half file, r0-r15 + r48-r63. */
static void
test_outputs_fit_half_file(void)
{
   pan_ir_shader *s = pan_ir_shader_create(NULL);
   pan_ir_builder b = pan_ir_builder_at_end(s, pan_ir_block_create(s));
   pan_ir_index vid = pan_ir_preload(&b, 61);
   pan_ir_index iid = pan_ir_preload(&b, 60);
   pan_ir_index slot[8];
   for (unsigned i = 0; i < 8; ++i) {
      pan_ir_index a = pan_ir_ld_attr(&b, 4, PAN_IR_TYPE_F32, i, vid, iid);
      pan_ir_index w[4];
      for (unsigned k = 0; k < 4; ++k)
         w[k] = pan_ir_fma(&b, pan_ir_word(a, k), pan_ir_uniform(k),
                           pan_ir_word(a, 3 - k));
      slot[i] = pan_ir_collect(&b, 4, w);
   }
   pan_ir_index addr = pan_ir_lea_vary(&b, pan_ir_preload(&b, 59));
   for (unsigned i = 0; i < 8; ++i)
      pan_ir_store_vary(&b, 16 * i, slot[i], addr);

   struct pan_va_spill_stats st;
   char err[128] = "";
   uint8_t *regs = pan_va_ra_pressure(s, 0, &st, err, sizeof(err));
   PAN_CHECK(regs, "allocation failed: %s", err);
   if (regs) {
      for (unsigned v = 0; v < s->ssa_alloc; ++v)
         PAN_CHECK(regs[v] < 16 || regs[v] >= 48, "%%%u in r%u", v, regs[v]);
   }
   PAN_CHECK(!st.spills, "%u spills", st.spills);
   ralloc_free(s);
}

int
main(void)
{
   PAN_RUN_CASE(test_sink_chain);
   PAN_RUN_CASE(test_sink_stops);
   PAN_RUN_CASE(test_tex_overlap);
   PAN_RUN_CASE(test_sink_past_blend);
   PAN_RUN_CASE(test_sink_scaled_past_blend);
   PAN_RUN_CASE(test_sink_carries_reader);
   PAN_RUN_CASE(test_hoist_stores);
   PAN_RUN_CASE(test_hoist_whole_outputs);
   PAN_RUN_CASE(test_outputs_fit_half_file);
   return pan_test_summary("pan_va_pressure");
}
