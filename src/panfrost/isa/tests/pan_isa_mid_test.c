/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Midgard codec tests:
 *  - known answers assembled by hand from midgard_isa.py (ALU bundles with
 *    vector, scalar and branch words and constants; load/store; texture),
 *    checked bit by bit;
 *  - every opcode of every table printed and parsed back;
 *  - random bundles of every kind (valid tags, random words) and random
 *    byte streams: disassemble -> assemble gives the same bytes;
 *  - malformed text and streams are reported, never crash.
 */

#define _POSIX_C_SOURCE 200809L

#include "pan_isa_mid.h"
#include "util/pan_test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t
rng(void)
{
   return pan_test_rng64(&rng_state);
}

static char *
disasm(const void *data, size_t size)
{
   char *text = NULL, err[256];
   size_t len = 0;
   FILE *fp = open_memstream(&text, &len);
   int r = pan_mid_disassemble(data, size, fp, false, err, sizeof(err));
   fclose(fp);
   if (r) {
      free(text);
      return NULL;
   }
   return text;
}

static bool
assemble(const char *text, struct pan_isa_bytes *out, char *err, size_t n)
{
   return pan_mid_assemble(text, strlen(text), out, err, n) == 0;
}

static uint64_t
le(const uint8_t *p, unsigned n)
{
   uint64_t v = 0;
   for (unsigned i = 0; i < n; i++)
      v |= (uint64_t)p[i] << (8 * i);
   return v;
}

/* Round trip bytes -> text -> bytes; true when stable. */
static bool
round_trip(const uint8_t *data, size_t size)
{
   char *text = disasm(data, size);
   struct pan_isa_bytes back = { 0 };
   char err[256] = "";
   bool ok = text && assemble(text, &back, err, sizeof(err)) &&
             back.size_B == size && (!size || !memcmp(back.data, data, size));
   if (!ok)
      pan_test_fail("unstable: %s\n%s", err, text ? text : "(none)");
   free(text);
   pan_isa_bytes_free(&back);
   return ok;
}

static void
known_alu(void)
{
   const char *src = "alu next=ldst\n"
                     "\tvmul.fmul d=r3 a=r1 b=r2 bswz=wzyx amod=abs\n"
                     "\tsadd.iadd d=r4 a=r5 bimm afull dcomp=2\n"
                     "\tbr.cond target=alu4 offset=-3 cond=true\n"
                     "\tconsts 0x3f800000 0x1 0x2 0xdeadbeef\n";
   struct pan_isa_bytes out = { 0 };
   char err[256] = "";

   PAN_CHECK(assemble(src, &out, err, sizeof(err)), "%s", err);
   /* 4 control + 2x2 register words + 6 + 4 + 2 = 20 bytes: two
    * quadwords, plus the constants: alu12. */
   PAN_EXPECT_EQ(out.size_B, 48);
   if (out.size_B != 48)
      goto done;
   uint32_t control = le(out.data, 4);
   PAN_EXPECT_EQ(control & 0xf, 0xa);        /* alu12 */
   PAN_EXPECT_EQ((control >> 4) & 0xf, 0x5); /* next: ldst */
   PAN_EXPECT_EQ(control >> 8, (1 << 9) | (1 << 11) | (1 << 18));
   /* vmul register word: a=1, b=2, d=3. */
   PAN_EXPECT_EQ(le(out.data + 4, 2), 1 | 2 << 5 | 3 << 10);
   /* sadd register word: a=5, d=4, immediate flag. */
   PAN_EXPECT_EQ(le(out.data + 6, 2), 5 | 4 << 10 | 1 << 15);
   uint64_t v = le(out.data + 8, 6);
   PAN_EXPECT_EQ(v & 0xff, 0x14);         /* fmul */
   PAN_EXPECT_EQ((v >> 8) & 3, 2);        /* 32-bit mode */
   PAN_EXPECT_EQ((v >> 10) & 3, 1);       /* abs on a */
   PAN_EXPECT_EQ((v >> 15) & 0xff, 0xe4); /* a: xyzw */
   PAN_EXPECT_EQ((v >> 28) & 0xff, 0x1b); /* b: wzyx */
   PAN_EXPECT_EQ((v >> 36) & 3, 2);       /* no shrink */
   PAN_EXPECT_EQ((v >> 40) & 0xff, 0xff); /* mask */
   uint64_t s = le(out.data + 14, 4);
   PAN_EXPECT_EQ(s & 0xff, 0x40);   /* iadd */
   PAN_EXPECT_EQ((s >> 10) & 1, 1); /* a full */
   PAN_EXPECT_EQ((s >> 29) & 7, 2); /* dest component */
   uint64_t br = le(out.data + 18, 2);
   PAN_EXPECT_EQ(br & 7, 2);              /* conditional */
   PAN_EXPECT_EQ((br >> 3) & 0xf, 8);     /* to alu4 */
   PAN_EXPECT_EQ((br >> 7) & 0x7f, 0x7d); /* -3 */
   PAN_EXPECT_EQ(br >> 14, 2);            /* true */
   PAN_EXPECT_EQ(le(out.data + 20, 8) | le(out.data + 28, 4), 0); /* padding */
   PAN_EXPECT_EQ(le(out.data + 32, 4), 0x3f800000);
   PAN_EXPECT_EQ(le(out.data + 44, 4), 0xdeadbeef);
   PAN_EXPECT_EQ(pan_mid_validate(out.data, out.size_B, NULL, NULL), 0);
   round_trip(out.data, out.size_B);

   char *text = disasm(out.data, out.size_B);
   PAN_EXPECT_STR_HAS(text, "vmul.fmul a=r1 b=r2 d=r3 amod=abs bswz=wzyx");
   PAN_EXPECT_STR_HAS(text, "br.cond target=alu4 offset=-3 cond=true");
   free(text);
done:
   pan_isa_bytes_free(&out);
}

static void
known_ldst_tex(void)
{
   const char *src = "ldst next=tex\n"
                     "\tls.ld_vary_32 reg=r2 mask=0xf offset=-2 ifmt=u32\n"
                     "\tls.nop\n"
                     "tex next=break\n"
                     "\ttx.normal mode=normal stype=float texture=0x3 "
                     "sampler=0x1 outfull biasi=-1\n";
   struct pan_isa_bytes out = { 0 };
   char err[256] = "";

   PAN_CHECK(assemble(src, &out, err, sizeof(err)), "%s", err);
   PAN_EXPECT_EQ(out.size_B, 32);
   if (out.size_B != 32)
      goto done;
   uint64_t q0 = le(out.data, 8), q1 = le(out.data + 8, 8);
   PAN_EXPECT_EQ(q0 & 0xff, 0x35);
   uint64_t w1 = (q0 >> 8) | (q1 << 56);
   w1 &= (1ull << 60) - 1;
   PAN_EXPECT_EQ(w1 & 0xff, 0x98); /* ld_vary_32 */
   PAN_EXPECT_EQ((w1 >> 8) & 0x1f, 2);
   PAN_EXPECT_EQ((w1 >> 13) & 0xf, 0xf);
   PAN_EXPECT_EQ((w1 >> 17) & 0xff, 0xe4);
   PAN_EXPECT_EQ((w1 >> 31) & 3, 2);      /* u32 index */
   PAN_EXPECT_EQ(w1 >> 42, 0x3fffe);      /* -2 in 18 bits */
   PAN_EXPECT_EQ((q1 >> 4) & 0xff, 0x03); /* second word: nop */

   uint64_t t0 = le(out.data + 16, 8), t1 = le(out.data + 24, 8);
   PAN_EXPECT_EQ(t0 & 0xff, 0x13);         /* tex, next break */
   PAN_EXPECT_EQ((t0 >> 8) & 0xf, 1);      /* normal */
   PAN_EXPECT_EQ((t0 >> 12) & 0xf, 1);     /* mode normal */
   PAN_EXPECT_EQ((t0 >> 37) & 1, 1);       /* 32-bit output */
   PAN_EXPECT_EQ((t0 >> 38) & 3, 1);       /* float sampler */
   PAN_EXPECT_EQ((t0 >> 42) & 0xf, 0xf);   /* mask */
   PAN_EXPECT_EQ((t1 >> 24) & 0xff, 0xff); /* bias_int -1 */
   PAN_EXPECT_EQ((t1 >> 32) & 0xffff, 1);  /* sampler */
   PAN_EXPECT_EQ(t1 >> 48, 3);             /* texture */
   PAN_EXPECT_EQ(pan_mid_validate(out.data, out.size_B, NULL, NULL), 0);
   round_trip(out.data, out.size_B);
done:
   pan_isa_bytes_free(&out);
}

/* Every named opcode of every table: text -> bytes -> text. */
static void
every_opcode(void)
{
   static const struct {
      enum pan_mid_slot slot;
      const char *head, *unit, *tail;
   } kinds[] = {
      { PAN_MID_VADD, "alu", "vadd", "" },
      { PAN_MID_SMUL, "alu", "smul", "" },
      { PAN_MID_BR, "alu", "br", "" },
      { PAN_MID_BRX, "alu", "brx", "" },
      { PAN_MID_LDST, "ldst", "ls", "\tls.nop\n" },
      { PAN_MID_TEX, "tex", "tx", "" },
   };
   unsigned named = 0;

   for (unsigned k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
      for (unsigned v = 0; v < 256; v++) {
         const char *name = pan_mid_op_name(kinds[k].slot, v);
         if (!name)
            continue;
         char src[256], want[64], err[256] = "";
         struct pan_isa_bytes out = { 0 };
         snprintf(src, sizeof(src), "%s next=break\n\t%s.%s\n%s", kinds[k].head,
                  kinds[k].unit, name, kinds[k].tail);
         snprintf(want, sizeof(want), "%s.%s", kinds[k].unit, name);
         named++;
         if (!assemble(src, &out, err, sizeof(err))) {
            pan_test_fail("%s: %s", want, err);
            continue;
         }
         char *text = disasm(out.data, out.size_B);
         PAN_CHECK(text && strstr(text, want), "%s -> %s", want, text);
         free(text);
         pan_isa_bytes_free(&out);
      }
   }
   /* 134 ALU ops twice, 5 + 5 branch ops, 142 load/store, 8 texture. */
   PAN_EXPECT_EQ(named, 134 * 2 + 10 + 142 + 8);
}

/* A random bundle of tag t with random contents, as the encoder lays it. */
static size_t
random_bundle(uint8_t *p)
{
   static const uint8_t tags[] = { 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15 };
   unsigned tag = tags[rng() % sizeof(tags)];
   pan_test_fill_random(&rng_state, p, 64);
   p[0] = tag | (unsigned)(1 + rng() % 15) << 4;
   if (tag < 8)
      return 16;

   /* Choose units, then lay out words and padding like the encoder. */
   static const uint8_t bits[] = { 17, 19, 21, 23, 25, 26, 27 };
   static const uint8_t halves[] = { 3, 2, 3, 2, 3, 1, 3 };
   uint32_t control = p[0];
   unsigned at = 4;
   for (unsigned u = 0; u < 7; u++) {
      if (rng() & 1) {
         control |= 1u << bits[u];
         at += 2 * halves[u] + (u < 5 ? 2 : 0);
      }
   }
   bool consts = rng() & 1;
   unsigned size = (at + 15) / 16 * 16 + (consts ? 16 : 0);
   if (size > 64) {
      control &= ~(1u << 27 | 1u << 25 | 1u << 23);
      at = 4;
      for (unsigned u = 0; u < 7; u++)
         at += (control >> bits[u]) & 1 ? 2 * halves[u] + (u < 5 ? 2 : 0) : 0;
      size = (at + 15) / 16 * 16 + (consts ? 16 : 0);
   }
   p[0] = (p[0] & 0xf0) | (((tag >= 12) ? 12 : 8) + size / 16 - 1);
   control = (control & ~0xffu) | p[0];
   for (unsigned i = 0; i < 4; i++)
      p[i] = control >> (8 * i);
   memset(p + at, 0, (at + 15) / 16 * 16 - at);
   return size;
}

static void
random_bundles(void)
{
   uint8_t prog[64 * 8];
   for (unsigned iter = 0; iter < 3000; iter++) {
      size_t size = 0;
      unsigned n = 1 + rng() % 8;
      for (unsigned i = 0; i < n; i++)
         size += random_bundle(prog + size);
      if (!round_trip(prog, size))
         break;
      /* Canonical bundles print no .raw line. */
      char *text = disasm(prog, size);
      PAN_CHECK(text && !strstr(text, ".raw"), "%s", text);
      free(text);
   }
}

static void
random_streams(void)
{
   uint8_t buf[256];
   for (unsigned iter = 0; iter < 3000; iter++) {
      size_t size = 16 * (rng() % 17);
      pan_test_fill_random(&rng_state, buf, size);
      if (!round_trip(buf, size))
         break;
      pan_mid_validate(buf, size, NULL, NULL);
   }
}

struct seen {
   unsigned n;
   size_t last;
};

static void
note(size_t offset_B, const char *why, void *user)
{
   struct seen *s = user;
   (void)why;
   s->n++;
   s->last = offset_B;
}

static void
malformed(void)
{
   static const char *bad[] = {
      "vadd.fadd\n",        /* outside a bundle */
      "alu\n\tvadd.fadd\n", /* no next= */
      "alu next=nowhere\n",
      "alu next=break\n\tvadd.nosuchop\n",
      "alu next=break\n\tvadd.fadd q=1\n",
      "alu next=break\n\tvadd.fadd a=r32\n",
      "alu next=break\n\tvadd.fadd aswz=xyz\n",
      "alu next=break\n\tvadd.fadd a=r1 a=r2\n",
      "alu next=break\n\tvadd.fadd\n\tvmul.fmul\n", /* out of order */
      "alu next=break\n\tls.nop\n",
      "ldst next=break\n\tls.nop\n", /* one word missing */
      "ldst next=break\n\tls.nop\n\tls.nop\n\tls.nop\n",
      "tex next=break\n\ttx.normal off=0x1000\n",
      "alu next=break\n\tconsts 1 2 3 4\n\tconsts 1 2 3 4\n",
      "alu next=break\n\tvadd.fadd\n\tvadd.fadd\n",
      ".raw 1 2 3\n",
      "consts 1 2 3 4\n",
      "bogus\n",
   };
   for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
      struct pan_isa_bytes out = { 0 };
      char err[256] = "";
      PAN_CHECK(!assemble(bad[i], &out, err, sizeof(err)) && err[0],
                "accepted: %s", bad[i]);
      pan_isa_bytes_free(&out);
   }

   /* Unknown opcode, unknown tag, truncated end. */
   struct pan_isa_bytes out = { 0 };
   char err[256] = "";
   PAN_CHECK(assemble("alu next=break\n\tvadd.0xff\n.raw 0x6 0 0 0\n", &out,
                      err, sizeof(err)),
             "%s", err);
   struct seen s = { 0 };
   PAN_EXPECT_EQ(pan_mid_validate(out.data, out.size_B, note, &s), 2);
   PAN_EXPECT_EQ(s.last, 16);
   s.n = 0;
   PAN_EXPECT_EQ(pan_mid_validate(out.data, out.size_B - 3, note, &s), 2);
   PAN_EXPECT_EQ(s.last, 16); /* the unknown op, then the cut-off end */
   PAN_EXPECT(
      pan_mid_disassemble(out.data, 7, stdout, false, err, sizeof(err)) == -1);
   round_trip(out.data, out.size_B);
   pan_isa_bytes_free(&out);

   /* A unit that cannot run the op, and a 2-quadword tag cut short. */
   PAN_CHECK(assemble("alu next=break\n\tvmul.frcp\n", &out, err, sizeof(err)),
             "%s", err);
   PAN_EXPECT_EQ(pan_mid_validate(out.data, out.size_B, NULL, NULL), 1);
   out.data[0] = (out.data[0] & 0xf0) | 0x9;
   PAN_EXPECT_EQ(pan_mid_validate(out.data, out.size_B, NULL, NULL), 1);
   round_trip(out.data, out.size_B);
   pan_isa_bytes_free(&out);
}

int
main(void)
{
   PAN_RUN_CASE(known_alu);
   PAN_RUN_CASE(known_ldst_tex);
   PAN_RUN_CASE(every_opcode);
   PAN_RUN_CASE(random_bundles);
   PAN_RUN_CASE(random_streams);
   PAN_RUN_CASE(malformed);
   return pan_test_summary("pan_isa_mid");
}
