/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Blend-shader calls and LD_TILE of the Bifrost interpreter, against a
 * stand-in executor: a BLEND whose descriptor it calls a shader
 * descriptor (mode bits 0-1 zero here) writes the return value to its
 * destination and runs the blend shader after its clause; the blend
 * shader shares the registers, reads the tile buffer, stores through its
 * own descriptor and returns through r48 (0: the thread ends).
 */

#include "pan_sim_bi_gfx.h"
#include "pan_sim_bi_test_run.h"

/* Where the blend shader sits, in the caller's 4 GiB window. */
#define CALLEE_VA (BI_TEST_CODE_VA + 0x1000)

struct fake {
   uint64_t callee[2 * 32];
   unsigned callee_quads;
   unsigned stores, calls, tiles;
   uint32_t stored[8][4];
   uint32_t ret; /* return value the shader descriptor gives */
};

static bool
fake_blend(void *user, unsigned lane, uint64_t d, uint32_t cov,
           const uint32_t in[4], struct pan_sim_bi_blend_call *call,
           char *err)
{
   struct fake *f = user;
   (void)cov, (void)err;
   if ((d & 3) == 0) {
      call->call = true;
      call->pc = (uint32_t)(d >> 32);
      call->ret = f->ret;
      f->calls++;
      return true;
   }
   memcpy(f->stored[lane], in, 16);
   f->stores++;
   return true;
}

static bool
fake_ld_tile(void *user, unsigned lane, uint32_t pixel, uint32_t conversion,
             unsigned comps, enum pan_sim_regfmt *regfmt, uint32_t out[4],
             char *err)
{
   struct fake *f = user;
   (void)err;
   *regfmt = PAN_SIM_REG_U32;
   out[0] = pixel;
   out[1] = conversion;
   out[2] = lane;
   out[3] = comps;
   f->tiles++;
   return true;
}

static const uint64_t *
fake_code_at(void *user, uint64_t va, unsigned *quads)
{
   struct fake *f = user;
   if (va != CALLEE_VA)
      return NULL;
   *quads = f->callee_quads;
   return f->callee;
}

/* The caller: BLEND through blend_descriptor_0 (return value to r48),
 * then a clause counting in r9 that ends the program. */
static const char caller[] =
   "clause sr=0 flow=nbtb msg=blend\n"
   "    nop t0 | blend r48, r8, blend_descriptor_0.w0, "
   "blend_descriptor_0.w1 | p0=r8 fau=blend_descriptor_0\n"
   "clause\n"
   "    nop t0 | iadd.s32 r9, r9, u0.w0 | p0=r9 fau=u0\n";

/* The blend shader: the tile into r4-r7, r0 + r4 into r1, stored through
 * an opaque descriptor (a constant pair), then back through r48. */
static const char callee_text[] =
   "clause sr=4 flow=nbtb msg=tile\n"
   "    nop t0 | ld_tile.vecsize=v4 t1, #0xff000100, r8, #0x00001234 | p0=r8 "
   "fau=c0\n"
   "    const 0x00001234ff000100\n"
   "    const 0x0\n"
   "clause sr=0 flow=nbtb msg=blend\n"
   "    nop t0 | iadd.s32 r1, r0, r4 | p0=r0 p1=r4\n"
   "    nop t0 | blend t1, r8, #0x00000001, #0x00000000 | p0=r8 fau=c0+1\n"
   "    const 0x0\n"
   "    const 0x0\n"
   "clause\n"
   "    nop t0 | jump t1, r48 | p0=r48\n";

static bool
setup(struct bi_test_prog *p, struct fake *f, uint32_t ret)
{
   struct bi_test_prog callee;
   memset(f, 0, sizeof(*f));
   if (!bi_test_assemble(&callee, callee_text))
      return false;
   memcpy(f->callee, callee.words, callee.quads * 16);
   f->callee_quads = callee.quads;
   f->ret = ret;
   if (!bi_test_assemble(p, caller))
      return false;
   p->uniforms[0] = 1;
   /* Shader mode (bits 0-1 zero), the callee's low word. */
   p->cfg.special[8] = (uint64_t)CALLEE_VA << 32;
   p->cfg.code_at = fake_code_at;
   p->cfg.code_user = f;
   return true;
}

static struct pan_sim_bi_gfx
gfx_of(struct fake *f)
{
   return (struct pan_sim_bi_gfx){ .user = f,
                                   .blend = fake_blend,
                                   .ld_tile = fake_ld_tile };
}

/* Called with a return address: the blend shader runs, the registers it
 * wrote are the caller's, and the caller goes on at the return. */
static void
call_and_return(void)
{
   struct bi_test_prog p;
   struct pan_sim_bi_warp w;
   struct fake f;
   if (!setup(&p, &f, BI_TEST_CODE_VA + 0x10))
      return;
   struct pan_sim_bi_gfx g = gfx_of(&f);
   p.cfg.gfx = &g;
   pan_sim_bi_warp_init(&w, 0xff);
   for (unsigned l = 0; l < 8; ++l) {
      w.r[l][0] = 100 + l;
      w.r[l][8] = 0xf;
   }
   PAN_CHECK(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_DONE, "fault: %s",
             w.fault);
   PAN_EXPECT_EQ(f.calls, 8u);
   PAN_EXPECT_EQ(f.tiles, 8u);
   PAN_EXPECT_EQ(f.stores, 8u);
   for (unsigned l = 0; l < 8; ++l) {
      /* r4 had the pixel indices, r5 the conversion, r6 the lane. */
      PAN_EXPECT_EQ(w.r[l][4], 0xff000100u);
      PAN_EXPECT_EQ(w.r[l][5], 0x1234u);
      PAN_EXPECT_EQ(w.r[l][6], l);
      PAN_EXPECT_EQ(w.r[l][1], 100 + l + 0xff000100u);
      PAN_EXPECT_EQ(f.stored[l][1], 100 + l + 0xff000100u);
      PAN_EXPECT_EQ(w.r[l][48], BI_TEST_CODE_VA + 0x10);
      PAN_EXPECT_EQ(w.r[l][9], 1u); /* the caller's clause after BLEND */
   }
}

/* A return value of 0 (the caller's last BLEND): the thread ends in the
 * blend shader; only some lanes run. */
static void
call_last(void)
{
   struct bi_test_prog p;
   struct pan_sim_bi_warp w;
   struct fake f;
   if (!setup(&p, &f, 0))
      return;
   struct pan_sim_bi_gfx g = gfx_of(&f);
   p.cfg.gfx = &g;
   pan_sim_bi_warp_init(&w, 0x0f);
   PAN_CHECK(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_DONE, "fault: %s",
             w.fault);
   PAN_EXPECT_EQ(f.calls, 4u);
   PAN_EXPECT_EQ(f.stores, 4u);
   for (unsigned l = 0; l < 8; ++l)
      PAN_EXPECT_EQ(w.r[l][9], 0u);
}

/* No code to call, a return outside the caller, LD_TILE with no tile
 * buffer: faults naming them. */
static void
faults(void)
{
   struct bi_test_prog p;
   struct pan_sim_bi_warp w;
   struct fake f;

   if (!setup(&p, &f, BI_TEST_CODE_VA + 0x10))
      return;
   struct pan_sim_bi_gfx g = gfx_of(&f);
   p.cfg.gfx = &g;
   p.cfg.code_at = NULL;
   pan_sim_bi_warp_init(&w, 0x1);
   PAN_EXPECT_EQ(pan_sim_bi_run(&w, &p.cfg), PAN_SIM_BI_FAULT);
   PAN_EXPECT_STR_HAS(w.fault, "no code to call");

   setup(&p, &f, BI_TEST_CODE_VA + 0x10);
   p.cfg.gfx = &g;
   p.cfg.special[8] = (uint64_t)(CALLEE_VA + 0x100) << 32;
   pan_sim_bi_warp_init(&w, 0x1);
   PAN_EXPECT_EQ(pan_sim_bi_run(&w, &p.cfg), PAN_SIM_BI_FAULT);
   PAN_EXPECT_STR_HAS(w.fault, "no code there");

   setup(&p, &f, BI_TEST_CODE_VA + 0x400);
   p.cfg.gfx = &g;
   pan_sim_bi_warp_init(&w, 0x1);
   PAN_EXPECT_EQ(pan_sim_bi_run(&w, &p.cfg), PAN_SIM_BI_FAULT);
   PAN_EXPECT_STR_HAS(w.fault, "outside the program");

   setup(&p, &f, BI_TEST_CODE_VA + 0x10);
   g.ld_tile = NULL;
   p.cfg.gfx = &g;
   pan_sim_bi_warp_init(&w, 0x1);
   PAN_EXPECT_EQ(pan_sim_bi_run(&w, &p.cfg), PAN_SIM_BI_FAULT);
   PAN_EXPECT_STR_HAS(w.fault, "no tile buffer here");
}

struct tile_store {
   unsigned n;
   uint32_t pixel[8], coverage[8], conversion[8], in[8][4];
};

static bool
fake_st_tile(void *user, unsigned lane, uint32_t pixel, uint32_t coverage,
             uint32_t conversion, const uint32_t in[4], char *err)
{
   struct tile_store *t = user;
   (void)err;
   t->pixel[lane] = pixel;
   t->coverage[lane] = coverage;
   t->conversion[lane] = conversion;
   memcpy(t->in[lane], in, 16);
   t->n++;
   return true;
}

/* ST_TILE (the stock compiler's multisampled blend shaders): the staging
 * colour from the clause's data register, the pixel indices, the
 * coverage and the conversion word handed over per lane; without a tile
 * buffer it faults. */
static void
st_tile(void)
{
   static const char text[] =
      "clause sr=4 msg=tile\n"
      "    nop t0 | st_tile.vecsize=v4 t1, r8, r9, #0x00001230 | p0=r8 p1=r9 "
      "fau=c0\n"
      "    const 0x00001230\n"
      "    const 0x0\n";
   struct bi_test_prog p;
   struct pan_sim_bi_warp w;
   struct tile_store t = { 0 };
   if (!bi_test_assemble(&p, text))
      return;
   struct pan_sim_bi_gfx g = { .user = &t, .st_tile = fake_st_tile };
   p.cfg.gfx = &g;
   pan_sim_bi_warp_init(&w, 0x3);
   for (unsigned l = 0; l < 8; ++l) {
      for (unsigned c = 0; c < 4; ++c)
         w.r[l][4 + c] = 10 * l + c;
      w.r[l][8] = 0xff000100u | l; /* own pixel, render target 1 */
      w.r[l][9] = 1u << l;
   }
   PAN_CHECK(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_DONE, "fault: %s",
             w.fault);
   PAN_EXPECT_EQ(t.n, 2u);
   for (unsigned l = 0; l < 2; ++l) {
      PAN_EXPECT_EQ(t.pixel[l], 0xff000100u | l);
      PAN_EXPECT_EQ(t.coverage[l], 1u << l);
      PAN_EXPECT_EQ(t.conversion[l], 0x1230u);
      PAN_EXPECT_EQ(t.in[l][0], 10 * l);
      PAN_EXPECT_EQ(t.in[l][3], 10 * l + 3);
   }
   g.st_tile = NULL;
   pan_sim_bi_warp_init(&w, 0x1);
   PAN_EXPECT_EQ(pan_sim_bi_run(&w, &p.cfg), PAN_SIM_BI_FAULT);
   PAN_EXPECT_STR_HAS(w.fault, "no tile buffer here");
}

int
main(void)
{
   PAN_RUN_CASE(call_and_return);
   PAN_RUN_CASE(call_last);
   PAN_RUN_CASE(faults);
   PAN_RUN_CASE(st_tile);
   return pan_test_summary("pan_sim_bi_call");
}
