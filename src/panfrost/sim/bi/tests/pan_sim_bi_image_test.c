/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Image messages of the Bifrost interpreter, in the forms the stock
 * compiler emits, against a stand-in for the executor's descriptors: the
 * address (DTSEL_IMM + LEA_ATTR_TEX), a converting store through it
 * (ST_CVT), exchanges (AXCHG stores, ACMPXCHG stores where the comparand
 * matches), then a load (LD_ATTR_TEX) seeing the stored values; the
 * atomics with known answers (every two-operand operation, the forms
 * without RETURN, a shared-memory address from SEG_ADD); fragment helper
 * lanes leaving memory alone; and the faults of bad indices, coordinates,
 * tables and addresses.
 */

#include <stdio.h>

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

#define ATOM_OFFSET 512

/* Lane l's operand of the two-operand atomics. */
static const uint32_t atom_args[8] = { 5,          0xfffffffd, 0x80000001, 7,
                                       0xfffffff0, 2,          0x12345678, 1 };

/* Runs text with the word at ATOM_OFFSET holding start, lanes addressing
 * it in r0/r1 (or r0 = 16 with shared memory at ATOM_OFFSET - 16) and
 * their operand in r2. */
static bool
atom_run(struct bi_test_prog *p, struct pan_sim_bi_warp *w, const char *text,
         uint32_t start, bool shared)
{
   uint64_t va = BI_TEST_MEM_VA + ATOM_OFFSET;
   if (!bi_test_assemble(p, text))
      return false;
   memcpy(p->mem + ATOM_OFFSET, &start, 4);
   if (shared) {
      p->cfg.wls_base = va - 16;
      p->cfg.wls_size = 64;
   }
   pan_sim_bi_warp_init(w, 0xff);
   for (unsigned l = 0; l < 8; ++l) {
      w->r[l][0] = shared ? 16 : (uint32_t)va;
      w->r[l][1] = shared ? 0 : (uint32_t)(va >> 32);
      w->r[l][2] = atom_args[l];
      w->r[l][8] = 0xdead0000 + l; /* staging: untouched without RETURN */
   }
   enum pan_sim_bi_status st = pan_sim_bi_run(w, &p->cfg);
   PAN_CHECK(st == PAN_SIM_BI_DONE, "fault: %s", w->fault);
   return st == PAN_SIM_BI_DONE;
}

static uint32_t
atom_word(const struct bi_test_prog *p)
{
   uint32_t v;
   memcpy(&v, p->mem + ATOM_OFFSET, 4);
   return v;
}

/* ATOM_C_RETURN + ATOM_CX, then ATOM_POST, per operation: lanes apply their
 * operand in lane order and each gets the value before its own. */
static void
atomic_two_operand(void)
{
   static const struct {
      const char *op;
      uint32_t old2, old7, end;
   } cases[] = {
      { "aadd", 0x7fff00f6u, 0x12335768u, 0x12335769u },
      { "asmin", 0xfffffffdu, 0x80000001u, 0x80000001u },
      { "asmax", 0x7fff00f4u, 0x7fff00f4u, 0x7fff00f4u },
      { "aumin", 0x5u, 0x2u, 0x1u },
      { "aumax", 0xfffffffdu, 0xfffffffdu, 0xfffffffdu },
      { "aand", 0x4u, 0x0u, 0x0u },
      { "aor", 0xfffffffdu, 0xffffffffu, 0xffffffffu },
      { "axor", 0x8000ff0cu, 0xedcb5680u, 0xedcb5681u },
   };
   for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
      struct bi_test_prog p;
      struct pan_sim_bi_warp w;
      char text[512];
      snprintf(text, sizeof(text),
               "clause flow=nbtb sr=8\n"
               "    atom_c_return.i32.atom_opc=%s t0, r0, r1, r2 | "
               "atom_cx t1, r0, r1, r2 | p0=r0 p1=r1 p2=r2\n"
               "clause\n"
               "    atom_post.i32.atom_opc=%s r10, r8, r9 | nop t1 | "
               "p0=r8 p1=r9\n",
               cases[i].op, cases[i].op);
      if (!atom_run(&p, &w, text, 0x7fff00f4, false))
         continue;
      PAN_EXPECT_EQ(atom_word(&p), cases[i].end);
      PAN_EXPECT_EQ(w.r[0][10], 0x7fff00f4u);
      PAN_EXPECT_EQ(w.r[2][10], cases[i].old2);
      PAN_EXPECT_EQ(w.r[7][10], cases[i].old7);
   }
}

/* The forms without RETURN change memory and no register; SEG_ADD.wls
 * turns a shared-memory offset into the address an atomic takes. */
static void
atomic_no_return_shared(void)
{
   struct bi_test_prog p;
   struct pan_sim_bi_warp w;

   if (atom_run(&p, &w,
                "clause sr=8\n"
                "    atom_c.i32.atom_opc=aadd t0, r0, r1, r2 | "
                "atom_cx t1, r0, r1, r2 | p0=r0 p1=r1 p2=r2\n",
                1000, false)) {
      PAN_EXPECT_EQ(atom_word(&p), 1000u + 0x12335769u - 0x7fff00f4u);
      for (unsigned l = 0; l < 8; ++l)
         PAN_EXPECT_EQ(w.r[l][8], 0xdead0000 + l);
   }
   if (atom_run(&p, &w,
                "clause sr=8\n"
                "    atom_c1.i32.atom_opc=adec t0, r0, r1 | "
                "atom_cx t1, r0, r1, r1 | p0=r0 p1=r1\n",
                3, false)) {
      PAN_EXPECT_EQ(atom_word(&p), 0xfffffffbu); /* 3 - 8 */
      PAN_EXPECT_EQ(w.r[3][8], 0xdead0003u);
   }
   /* Shared memory: offset 16 of the window at ATOM_OFFSET - 16. */
   if (atom_run(&p, &w,
                "clause flow=nbtb\n"
                "    seg_add.seg=wls r4, r0 | seg_add.seg=wls r5, r1 | "
                "p0=r0 p1=r1\n"
                "    nop t0 | nop t1\n"
                "clause sr=8\n"
                "    atom_c_return.i32.atom_opc=aumax t0, r4, r5, r2 | "
                "atom_cx t1, r4, r5, r2 | p0=r4 p1=r5 p2=r2\n",
                0x80000000u, true)) {
      PAN_EXPECT_EQ(w.r[6][4], (uint32_t)(BI_TEST_MEM_VA + ATOM_OFFSET));
      PAN_EXPECT_EQ(w.r[6][5], (uint32_t)((BI_TEST_MEM_VA + ATOM_OFFSET) >> 32));
      PAN_EXPECT_EQ(atom_word(&p), 0xfffffffdu);
      PAN_EXPECT_EQ(w.r[1][8], 0x80000000u); /* the old value */
      PAN_EXPECT_EQ(w.r[1][9], 0u);          /* aumax's identity */
   }
}

/* Fragment helper lanes (the odd ones here): their converting stores,
 * exchanges and atomics leave memory alone and return zero, their loads
 * still read; the other lanes' work is that of a warp without helpers. */
static void
helper_lanes(void)
{
   struct bi_test_prog p;
   struct pan_sim_bi_warp w;

   if (setup(&p, &w, prog, 0)) {
      w.helper = 0xaa;
      PAN_CHECK(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_DONE, "fault: %s",
                w.fault);
      for (unsigned l = 0; l < 8; ++l) {
         unsigned texel = (l / 4) * 4 + l % 4;
         uint32_t now, want = l % 2 ? 100 + texel : 2000 + l;
         memcpy(&now, p.mem + IMG_OFFSET + 4 * texel, 4);
         PAN_EXPECT_EQ(now, want);
         PAN_EXPECT_EQ(w.r[l][12], want);
         PAN_EXPECT_EQ(w.r[l][8], l % 2 ? 0 : 3000 + l);
         PAN_EXPECT_EQ(w.r[l][16], l % 2 ? 0 : 1000 + l);
      }
   }
   /* Lanes 4-7 helpers: only lanes 0-3 add their operand. */
   if (bi_test_assemble(&p, "clause flow=nbtb sr=8\n"
                            "    atom_c_return.i32.atom_opc=aadd t0, r0, r1, "
                            "r2 | atom_cx t1, r0, r1, r2 | p0=r0 p1=r1 p2=r2\n"
                            "clause\n"
                            "    atom_post.i32.atom_opc=aadd r10, r8, r9 | "
                            "nop t1 | p0=r8 p1=r9\n")) {
      uint64_t va = BI_TEST_MEM_VA + ATOM_OFFSET;
      uint32_t start = 40;
      memcpy(p.mem + ATOM_OFFSET, &start, 4);
      pan_sim_bi_warp_init(&w, 0xff);
      w.helper = 0xf0;
      for (unsigned l = 0; l < 8; ++l) {
         w.r[l][0] = (uint32_t)va;
         w.r[l][1] = (uint32_t)(va >> 32);
         w.r[l][2] = 1u << l;
      }
      PAN_CHECK(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_DONE, "fault: %s",
                w.fault);
      PAN_EXPECT_EQ(atom_word(&p), 40u + 0xf);
      PAN_EXPECT_EQ(w.r[3][10], 40u + 7);
      PAN_EXPECT_EQ(w.r[5][10], 0u);
   }
   /* Global stores are dropped, a store to the lane's own thread storage
    * (a spill) is not. */
   if (bi_test_assemble(&p, "clause flow=nbtb sr=8\n"
                            "    nop t0 | store.i32 t1, r0, r1 | p0=r0 p1=r1\n"
                            "clause sr=8\n"
                            "    nop t0 | store.i32.seg=tl t1, r2, r3 | "
                            "p0=r2 p1=r3\n")) {
      memset(p.mem, 0, BI_TEST_MEM_B);
      p.cfg.tls_base = BI_TEST_MEM_VA + 1024;
      p.cfg.tls_thread_B = 16;
      p.cfg.tls_thread = 0;
      pan_sim_bi_warp_init(&w, 0xff);
      w.helper = 0x0f;
      for (unsigned l = 0; l < 8; ++l) {
         uint64_t va = BI_TEST_MEM_VA + 4 * l;
         w.r[l][0] = (uint32_t)va;
         w.r[l][1] = (uint32_t)(va >> 32);
         w.r[l][2] = 4;
         w.r[l][8] = 0x500 + l;
      }
      PAN_CHECK(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_DONE, "fault: %s",
                w.fault);
      for (unsigned l = 0; l < 8; ++l) {
         uint32_t global, own;
         memcpy(&global, p.mem + 4 * l, 4);
         memcpy(&own, p.mem + 1024 + 16 * l + 4, 4);
         PAN_EXPECT_EQ(global, l < 4 ? 0u : 0x500u + l);
         PAN_EXPECT_EQ(own, 0x500u + l);
      }
   }
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
   /* A shared-memory address without shared memory. */
   if (setup(&p, &w,
             "clause\n"
             "    seg_add.seg=wls r4, r0 | nop t1 | p0=r0\n",
             0))
      expect_fault(&p, &w, "without workgroup-local storage");
   /* A two-operand atomic outside memory. */
   if (setup(&p, &w,
             "clause sr=8\n"
             "    atom_c_return.i32.atom_opc=aand t0, r0, r1, r2 | "
             "atom_cx t1, r0, r1, r2 | p0=r0 p1=r1 p2=r2\n",
             0))
      expect_fault(&p, &w, "lane 0: atomic at 0x0 not accessible");
}

int
main(void)
{
   PAN_RUN_CASE(store_load_atomic);
   PAN_RUN_CASE(atomic_two_operand);
   PAN_RUN_CASE(atomic_no_return_shared);
   PAN_RUN_CASE(helper_lanes);
   PAN_RUN_CASE(faults);
   return pan_test_summary("pan_sim_bi_image");
}
