/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Image messages of the Bifrost interpreter, in the forms the stock
 * compiler emits, against a stand-in for the executor's descriptors: the
 * address (DTSEL_IMM + LEA_ATTR_TEX), a converting store through it
 * (ST_CVT), exchanges (AXCHG stores, ACMPXCHG stores where the comparand
 * matches), then a load (LD_ATTR_TEX) seeing the stored values; and the
 * faults of bad indices, coordinates and tables.
 */

#include "pan_sim_bi_gfx.h"
#include "pan_sim_bi_test_run.h"
#include "sim/tests/pan_sim_img_fake.h"

#define IMG_OFFSET 256

static const char prog[] =
   "clause flow=nbtb sr=4\n"
   "    dtsel_imm.table=attribute_1 t0, r0 | lea_attr_tex t1, t, r1, r2 | "
   "p0=r0 p1=r1 p2=r2\n"
   "clause flow=nbtb sr=20\n"
   "    nop t0 | st_cvt t1, r4, r5, r6 | p0=r4 p1=r5 p2=r6\n"
   "clause flow=nbtb sr=8\n"
   "    nop t0 | axchg.i32 t1, r4, r5 | p0=r4 p1=r5\n"
   "clause flow=nbtb sr=16\n"
   "    nop t0 | acmpxchg.i32 t1, r4, r5 | p0=r4 p1=r5\n"
   "clause sr=12\n"
   "    nop t0 | ld_attr_tex.s32.v4 t1, r0, r1, r2 | p0=r0 p1=r1 p2=r2\n";

static struct img_fake fake;
static const struct pan_sim_image_ops ops = { &fake, img_fake_address,
                                              img_fake_load, img_fake_store };
/* Bifrost's ST_CVT is a graphics message: a compute job's gfx has only
 * the store. */
static const struct pan_sim_bi_gfx gfx = { .user = &fake,
                                           .st_cvt = img_fake_store };

/* Lane l addresses texel (l % 4, l / 4) of image `index`. */
static bool
setup(struct bi_test_prog *p, struct pan_sim_bi_warp *w, const char *text,
      unsigned index)
{
   if (!bi_test_assemble(p, text))
      return false;
   fake = (struct img_fake){ p->mem, BI_TEST_MEM_VA, IMG_OFFSET, 0, 0 };
   p->cfg.image = &ops;
   p->cfg.gfx = &gfx;
   for (unsigned i = 0; i < 16; ++i) {
      uint32_t v = 100 + i;
      memcpy(p->mem + IMG_OFFSET + 4 * i, &v, 4);
   }
   pan_sim_bi_warp_init(w, 0xff);
   for (unsigned l = 0; l < 8; ++l) {
      w->r[l][0] = (l % 4) | (l / 4) << 16;
      w->r[l][1] = 0;
      w->r[l][2] = index;
      w->r[l][20] = 3000 + l;             /* stored */
      w->r[l][8] = 1000 + l;              /* exchanged in */
      w->r[l][16] = 2000 + l;             /* swapped in ... */
      w->r[l][17] = l % 2 ? 0 : 1000 + l; /* ... where this matches */
   }
   return true;
}

static void
store_load_atomic(void)
{
   struct bi_test_prog p;
   struct pan_sim_bi_warp w;

   if (!setup(&p, &w, prog, 0))
      return;
   PAN_CHECK(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_DONE, "fault: %s",
             w.fault);
   for (unsigned l = 0; l < 8; ++l) {
      unsigned texel = (l / 4) * 4 + l % 4;
      uint64_t va = BI_TEST_MEM_VA + IMG_OFFSET + 4 * texel;
      uint32_t now;
      PAN_EXPECT_EQ(w.r[l][4], (uint32_t)va);
      PAN_EXPECT_EQ(w.r[l][5], (uint32_t)(va >> 32));
      /* No register format on LEA_ATTR_TEX: AUTO is asked for. */
      PAN_EXPECT_EQ(w.r[l][6], IMG_FAKE_CONVERSION | PAN_SIM_REG_AUTO);
      PAN_EXPECT_EQ(w.r[l][8], 3000 + l);  /* AXCHG: the stored value */
      PAN_EXPECT_EQ(w.r[l][16], 1000 + l); /* ACMPXCHG: the old value */
      uint32_t want = l % 2 ? 1000 + l : 2000 + l;
      memcpy(&now, p.mem + IMG_OFFSET + 4 * texel, 4);
      PAN_EXPECT_EQ(now, want);
      PAN_EXPECT_EQ(w.r[l][12], want); /* the load sees both stores */
      PAN_EXPECT_EQ(w.r[l][13], 0);
      PAN_EXPECT_EQ(w.r[l][15], 1);
   }
   /* Texels no lane named are untouched. */
   uint32_t other;
   memcpy(&other, p.mem + IMG_OFFSET + 4 * 12, 4);
   PAN_EXPECT_EQ(other, 112);
}

static void
expect_fault(struct bi_test_prog *p, struct pan_sim_bi_warp *w,
             const char *what)
{
   PAN_EXPECT_EQ(pan_sim_bi_run(w, &p->cfg), PAN_SIM_BI_FAULT);
   PAN_EXPECT_STR_HAS(w->fault, what);
}

static void
faults(void)
{
   struct bi_test_prog p;
   struct pan_sim_bi_warp w;

   /* A descriptor index the table does not hold. */
   if (setup(&p, &w, prog, 7))
      expect_fault(&p, &w, "no image 7 in table 0");
   /* A coordinate outside the image, in one lane. */
   if (setup(&p, &w, prog, 0)) {
      w.r[5][0] = 9;
      expect_fault(&p, &w, "lane 5: coordinate (9, 0, 0) outside");
   }
   /* LEA_ATTR_TEX alone reads the secondary table: not modelled. */
   if (setup(&p, &w,
             "clause sr=4\n"
             "    nop t0 | lea_attr_tex t1, r0, r1, r2 | p0=r0 p1=r1 p2=r2\n",
             0))
      expect_fault(&p, &w, "attribute table 2");
   /* No image descriptors at all (a job without tables). */
   if (setup(&p, &w, prog, 0)) {
      p.cfg.image = NULL;
      expect_fault(&p, &w, "without image descriptors");
   }
   /* An exchange at an address outside memory. */
   if (setup(&p, &w,
             "clause sr=8\n"
             "    nop t0 | axchg.i32 t1, r4, r5 | p0=r4 p1=r5\n",
             0)) {
      for (unsigned l = 0; l < 8; ++l)
         w.r[l][4] = 0x100;
      expect_fault(&p, &w, "atomic at 0x100 not accessible");
   }
}

int
main(void)
{
   PAN_RUN_CASE(store_load_atomic);
   PAN_RUN_CASE(faults);
   return pan_test_summary("pan_sim_bi_image");
}
