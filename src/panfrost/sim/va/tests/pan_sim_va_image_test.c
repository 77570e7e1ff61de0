/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Image messages of the Valhall interpreter, in the forms the stock
 * compiler emits, against a stand-in for the executor's descriptors: the
 * address (LEA_TEX_IMM), a converting store through it (ST_CVT), an
 * exchange (ATOM_RETURN.axchg), then loads (LD_TEX_IMM, and the register forms
 * with a handle) seeing the stored values; fragment helper lanes leaving
 * memory alone; and the faults of bad indices and coordinates.
 */

#include "pan_sim_va_test_run.h"
#include "sim/tests/pan_sim_img_fake.h"

#define IMG_OFFSET 256

static const char prog[] =
   "lea_tex_imm.slot0 {r8:3}, r0, r1, table:5, index:1\n"
   "st_cvt.slot0.s32 {r24:1}, r8, r10, offset:0\n"
   "atom_return.i32.axchg.slot0 {r6:1}, {r6:1}, r8, offset:0\n"
   "ld_tex_imm.v4.s32.slot0 {r12:4}, r0, r1, index:1, table:5\n"
   "lea_tex.slot0 {r16:3}, r0, r1, r2\n"
   "ld_tex.v4.s32.slot0 {r20:4}, r0, r1, r2\n"
   "nop.end\n";

static struct test_mem mem;
static struct img_fake fake;
static const struct pan_sim_image_ops ops = { &fake, img_fake_address,
                                              img_fake_load, img_fake_store };

/* Lane l addresses texel (l % 4, l / 4); the register forms' handle names
 * table 5, image `index`. */
static bool
setup(struct test_prog *p, struct pan_sim_va_warp *w, unsigned index)
{
   if (!test_assemble(p, prog))
      return false;
   fake = (struct img_fake){ mem.bytes, TEST_MEM_BASE, IMG_OFFSET, 5, 1 };
   p->cfg.mem = (struct pan_sim_va_mem){ &mem, test_mem_read, test_mem_write };
   p->cfg.image = &ops;
   for (unsigned i = 0; i < 16; ++i) {
      uint32_t v = 100 + i;
      memcpy(mem.bytes + IMG_OFFSET + 4 * i, &v, 4);
   }
   pan_sim_va_warp_init(w, 0xffff);
   for (unsigned l = 0; l < PAN_SIM_VA_LANES; ++l) {
      w->r[l][0] = (l % 4) | (l / 4) << 16;
      w->r[l][1] = 0; /* z in the high half */
      w->r[l][2] = 5u << 24 | index;
      w->r[l][6] = 1000 + l;
      w->r[l][24] = 3000 + l;
   }
   return true;
}

static void
store_load_atomic(void)
{
   struct test_prog p;
   struct pan_sim_va_warp w;

   if (!setup(&p, &w, 1))
      return;
   if (test_run(&p, &w) == PAN_SIM_VA_DONE) {
      for (unsigned l = 0; l < PAN_SIM_VA_LANES; ++l) {
         uint64_t va = TEST_MEM_BASE + IMG_OFFSET + 4 * l;
         uint32_t now;
         PAN_EXPECT_EQ(w.r[l][8], (uint32_t)va);
         PAN_EXPECT_EQ(w.r[l][9], (uint32_t)(va >> 32));
         PAN_EXPECT_EQ(w.r[l][10], IMG_FAKE_CONVERSION | PAN_SIM_REG_AUTO);
         PAN_EXPECT_EQ(w.r[l][6], 3000 + l); /* what ST_CVT stored */
         memcpy(&now, mem.bytes + IMG_OFFSET + 4 * l, 4);
         PAN_EXPECT_EQ(now, 1000 + l);
         PAN_EXPECT_EQ(w.r[l][12], 1000 + l); /* the load sees the store */
         PAN_EXPECT_EQ(w.r[l][15], 1);
         /* The register forms reach the same texel. */
         PAN_EXPECT_EQ(w.r[l][16], w.r[l][8]);
         PAN_EXPECT_EQ(w.r[l][20], 1000 + l);
      }
   }
   test_prog_free(&p);
}

/* Fragment helper lanes (the odd ones): their converting stores and
 * exchanges leave memory alone (an exchange returns zero), their loads
 * still read; the other lanes' work is that of a warp without helpers. */
static void
helper_lanes(void)
{
   struct test_prog p;
   struct pan_sim_va_warp w;

   if (setup(&p, &w, 1)) {
      w.helper = 0xaaaa;
      if (test_run(&p, &w) == PAN_SIM_VA_DONE) {
         for (unsigned l = 0; l < PAN_SIM_VA_LANES; ++l) {
            uint32_t now, want = l % 2 ? 100 + l : 1000 + l;
            memcpy(&now, mem.bytes + IMG_OFFSET + 4 * l, 4);
            PAN_EXPECT_EQ(now, want);
            PAN_EXPECT_EQ(w.r[l][6], l % 2 ? 0 : 3000 + l);
            PAN_EXPECT_EQ(w.r[l][12], want);
            PAN_EXPECT_EQ(w.r[l][20], want);
         }
      }
      test_prog_free(&p);
   }
   /* Lanes 8-15 helpers: only lanes 0-7 add, and store globally; every
    * lane's spill to its own thread storage (memaccess force) lands. */
   if (!test_assemble(&p, "atom.i32.aadd.slot0 {r5:1}, r8, offset:0\n"
                          "store.i32.slot0 {r5:1}, r0, offset:0\n"
                          "store.i32.slot0.force {r5:1}, r2, offset:4\n"
                          "nop.end\n"))
      return;
   memset(mem.bytes, 0, sizeof(mem.bytes));
   p.cfg.mem = (struct pan_sim_va_mem){ &mem, test_mem_read, test_mem_write };
   p.cfg.special[1][1] = TEST_MEM_BASE + 1024; /* thread storage */
   p.cfg.tls_thread_B = 16;
   pan_sim_va_warp_init(&w, 0xffff);
   w.helper = 0xff00;
   for (unsigned l = 0; l < PAN_SIM_VA_LANES; ++l) {
      uint64_t a = TEST_MEM_BASE + 64 + 4 * l, t = TEST_MEM_BASE + 1024;
      w.r[l][0] = (uint32_t)a, w.r[l][1] = (uint32_t)(a >> 32);
      w.r[l][2] = (uint32_t)t, w.r[l][3] = (uint32_t)(t >> 32);
      w.r[l][5] = 1u << l;
      w.r[l][8] = TEST_MEM_BASE, w.r[l][9] = 0;
   }
   if (test_run(&p, &w) == PAN_SIM_VA_DONE) {
      uint32_t sum;
      memcpy(&sum, mem.bytes, 4);
      PAN_EXPECT_EQ(sum, 0xffu);
      for (unsigned l = 0; l < PAN_SIM_VA_LANES; ++l) {
         uint32_t global, own;
         memcpy(&global, mem.bytes + 64 + 4 * l, 4);
         memcpy(&own, mem.bytes + 1024 + 16 * l + 4, 4);
         PAN_EXPECT_EQ(global, l < 8 ? 1u << l : 0u);
         PAN_EXPECT_EQ(own, 1u << l);
      }
   }
   test_prog_free(&p);
}

static void
expect_fault(struct test_prog *p, struct pan_sim_va_warp *w, const char *what)
{
   PAN_EXPECT_EQ(pan_sim_va_run(w, &p->cfg), PAN_SIM_VA_FAULT);
   PAN_EXPECT_STR_HAS(w->fault, what);
   test_prog_free(p);
}

static void
faults(void)
{
   struct test_prog p;
   struct pan_sim_va_warp w;

   /* The register forms name an image the table does not hold. */
   if (setup(&p, &w, 2))
      expect_fault(&p, &w, "no image 2 in table 5");
   /* A coordinate outside the image, in one lane. */
   if (setup(&p, &w, 1)) {
      w.r[3][1] = 1u << 16;
      expect_fault(&p, &w, "lane 3: coordinate (3, 0, 1) outside");
   }
   /* No image descriptors at all. */
   if (setup(&p, &w, 1)) {
      p.cfg.image = NULL;
      expect_fault(&p, &w, "images without resource tables");
   }
}

int
main(void)
{
   PAN_RUN_CASE(store_load_atomic);
   PAN_RUN_CASE(helper_lanes);
   PAN_RUN_CASE(faults);
   return pan_test_summary("pan_sim_va_image");
}
