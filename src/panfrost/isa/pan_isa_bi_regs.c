/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The 35-bit Bifrost register block as operands: which registers ports 0-2
 * read, where the previous tuple's FMA/ADD results go, and the FAU index.
 * Decoding keeps the bits the meaning leaves free (a disabled port 0, the
 * register field of an idle port 2/3) so that encoding gives the same bits.
 */

#include "pan_isa_bi_priv.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

enum port_op { IDLE, READ, W, WL, WH };

/* What ports 2 and 3 do for each 5-bit mode; fma3: port 3 writes the FMA
 * result.  Entries with neither port used nor marked `ok` are reserved. */
static const struct {
   uint8_t p2, p3;
   bool fma3, ok;
} modes[32] = {
   [1] = {READ, WL, true, true},  [2] = {READ, WH, true, true},
   [3] = {READ, W, true, true},   [4] = {READ, WL, false, true},
   [5] = {READ, WH, false, true}, [6] = {READ, W, false, true},
   [7] = {WL, WL, false, true},   [8] = {WL, WH, false, true},
   [9] = {WL, W, false, true},    [10] = {WH, WL, false, true},
   [11] = {WH, WH, false, true},  [12] = {WH, W, false, true},
   [13] = {W, WL, false, true},   [14] = {W, WH, false, true},
   [15] = {W, W, false, true},    [16] = {IDLE, IDLE, false, true},
   [17] = {IDLE, W, true, true},  [18] = {IDLE, WL, true, true},
   [19] = {IDLE, WH, true, true}, [20] = {READ, IDLE, false, true},
   [21] = {IDLE, W, false, true}, [22] = {IDLE, WL, false, true},
   [23] = {IDLE, WH, false, true}, [24] = {WL, WH, false, true},
   [26] = {WH, WL, false, true},  [27] = {IDLE, IDLE, false, true},
};

static unsigned
half_of(unsigned op)
{
   return op == WL ? BI_HALF_LO : op == WH ? BI_HALF_HI : BI_HALF_FULL;
}

/* Index of a write kind in the orders WL, WH, W and W, WL, WH. */
static unsigned
lhw(unsigned half)
{
   return half == BI_HALF_LO ? 0 : half == BI_HALF_HI ? 1 : 2;
}

static unsigned
wlh(unsigned half)
{
   return half == BI_HALF_FULL ? 0 : half == BI_HALF_LO ? 1 : 2;
}

bool
bi_regs_decode(uint64_t bits, bool first, struct bi_regblock *b)
{
   unsigned reg3 = (bits >> 8) & 63, reg2 = (bits >> 14) & 63;
   unsigned reg0 = (bits >> 20) & 31, reg1 = (bits >> 25) & 63;
   unsigned ctrl = (bits >> 31) & 15;

   memset(b, 0, sizeof(*b));
   b->read[0] = b->read[1] = b->read[2] = -1;
   b->fma.reg = b->add.reg = -1;
   b->idle2 = b->idle3 = -1;
   b->fau = bits & 0xff;

   if (ctrl == 0) {
      /* Port 1 off: reg1 holds the control and port 0's top bit. */
      ctrl = reg1 >> 2;
      unsigned r = reg0 | (reg1 & 1) << 5;
      if (reg1 & 2)
         b->spare = (int8_t)r;
      else
         b->read[0] = (int8_t)r;
   } else if (reg0 <= reg1) {
      b->read[0] = (int8_t)reg0;
      b->read[1] = (int8_t)reg1;
   } else {
      b->read[0] = (int8_t)(63 - reg0);
      b->read[1] = (int8_t)(63 - reg1);
   }

   unsigned mode = first ? (ctrl & 7) | (ctrl & 8) << 1
                         : ctrl + (reg2 == reg3 ? 16 : 0);
   if (!modes[mode].ok)
      return false;
   b->idle1 = !first && mode == 16;

   unsigned p2 = modes[mode].p2, p3 = modes[mode].p3;
   if (p2 == READ)
      b->read[2] = (int8_t)reg2;
   else if (p2 != IDLE)
      b->fma = (struct bi_dest){(int8_t)reg2, (uint8_t)half_of(p2)};
   else
      b->idle2 = (int8_t)reg2;
   if (p3 != IDLE) {
      struct bi_dest d = {(int8_t)reg3, (uint8_t)half_of(p3)};
      if (modes[mode].fma3)
         b->fma = d;
      else
         b->add = d;
   } else {
      b->idle3 = (int8_t)reg3;
   }
   return true;
}

static int
pick_mode(const struct bi_regblock *b, bool first, char *err,
          size_t err_size)
{
   bool r2 = b->read[2] >= 0, f = b->fma.reg >= 0, a = b->add.reg >= 0;

   if (!f && !a)
      return r2 ? 20 : (first || b->idle1) ? 16 : 27;
   if (f && !a)
      return r2 ? 1 + (int)lhw(b->fma.half) : 17 + (int)wlh(b->fma.half);
   if (!f && a)
      return r2 ? 4 + (int)lhw(b->add.half) : 21 + (int)wlh(b->add.half);
   if (r2)
      return pan_isa_fail(err, err_size, "port 2 cannot read while both "
                          "results are written");
   if (!first && b->fma.reg == b->add.reg) {
      /* Halves of one register from both units. */
      if (b->fma.half == BI_HALF_LO && b->add.half == BI_HALF_HI)
         return 24;
      if (b->fma.half == BI_HALF_HI && b->add.half == BI_HALF_LO)
         return 26;
      return pan_isa_fail(err, err_size, "FMA and ADD results cannot be "
                          "written to the same register that way");
   }
   return 7 + 3 * (int)lhw(b->fma.half) + (int)lhw(b->add.half);
}

int
bi_regs_encode(const struct bi_regblock *b, bool first, uint64_t *bits,
               char *err, size_t err_size)
{
   int m = pick_mode(b, first, err, err_size);
   if (m < 0)
      return -1;
   unsigned mode = (unsigned)m, ctrl;

   if (first) {
      if (mode & 8)
         return pan_isa_fail(err, err_size, "the first tuple of a clause "
                             "cannot write both results of the last one "
                             "except as two low halves");
      ctrl = (mode & 7) | (mode & 16) >> 1;
   } else {
      ctrl = mode & 15;
   }

   /* Ports 2 and 3. */
   unsigned p2 = modes[mode].p2, p3 = modes[mode].p3;
   int reg2 = -1, reg3 = -1;
   if (p2 == READ)
      reg2 = b->read[2];
   else if (p2 != IDLE)
      reg2 = b->fma.reg;
   if (p3 != IDLE)
      reg3 = modes[mode].fma3 ? b->fma.reg : b->add.reg;
   if (reg2 < 0)
      reg2 = b->idle2 >= 0 ? b->idle2 : reg3 >= 0 ? reg3 : 0;
   if (reg3 < 0)
      reg3 = b->idle3 >= 0 ? b->idle3 : reg2;
   if (!first && (mode >= 16) != (reg2 == reg3))
      return pan_isa_fail(err, err_size, mode >= 16 ?
                          "an idle port 2/3 must repeat the other one's "
                          "register" :
                          "port 2 and port 3 cannot name the same register "
                          "here");

   /* Ports 0 and 1. */
   unsigned reg0, reg1;
   if (b->read[1] >= 0) {
      int lo = b->read[0], hi = b->read[1];
      if (lo < 0)
         return pan_isa_fail(err, err_size, "port 1 needs port 0");
      if (lo > hi || (lo > 31 && lo == hi))
         return pan_isa_fail(err, err_size, "port 0 must hold the lower "
                             "register (r%d, r%d)", lo, hi);
      if (ctrl == 0)
         return pan_isa_fail(err, err_size, "idle1 needs port 1 off");
      reg0 = lo <= 31 ? (unsigned)lo : 63u - (unsigned)lo;
      reg1 = lo <= 31 ? (unsigned)hi : 63u - (unsigned)hi;
   } else {
      unsigned r = b->read[0] >= 0 ? (unsigned)b->read[0]
                   : b->spare >= 0 ? (unsigned)b->spare : 0;
      reg0 = r & 31;
      reg1 = ctrl << 2 | (b->read[0] < 0) << 1 | r >> 5;
      ctrl = 0;
   }

   *bits = (uint64_t)(b->fau & 0xff) | (uint64_t)(reg3 & 63) << 8 |
           (uint64_t)(reg2 & 63) << 14 | (uint64_t)reg0 << 20 |
           (uint64_t)reg1 << 25 | (uint64_t)ctrl << 31;
   return 0;
}

/* ---- FAU ---- */

static const char *const fau_specials[16] = {
   NULL, "lane_id", "warp_id", "core_id", "framebuffer_size",
   "atest_datum", "sample", NULL,
};

/* Constant slot of FAU index bits 4..6 (2..7); -1 when not a constant. */
static int
fau_const(unsigned fau)
{
   static const int8_t slot[8] = {-1, -1, 4, 5, 0, 1, 2, 3};
   return fau & 0x80 ? -1 : slot[fau >> 4];
}

void
bi_print_fau(struct pan_isa_str *s, unsigned fau)
{
   int k = fau_const(fau);
   if (fau & 0x80)
      pan_isa_str_printf(s, "u%u", fau & 0x7f);
   else if (k >= 0 && (fau & 15))
      pan_isa_str_printf(s, "c%d+%u", k, fau & 15);
   else if (k >= 0)
      pan_isa_str_printf(s, "c%d", k);
   else if (fau < 8 && fau_specials[fau])
      pan_isa_str_printf(s, "%s", fau_specials[fau]);
   else if (fau >= 8 && fau < 16)
      pan_isa_str_printf(s, "blend_descriptor_%u", fau - 8);
   else
      pan_isa_str_printf(s, "special%u", fau);
}

static bool
parse_fau(const char *t, unsigned *fau)
{
   int64_t v;
   char buf[48];

   for (unsigned i = 0; i < 256; i++) {
      struct pan_isa_str s;
      pan_isa_str_init(&s, buf, sizeof(buf));
      bi_print_fau(&s, i);
      if (!strcmp(buf, t)) {
         *fau = i;
         return true;
      }
   }
   if (pan_isa_parse_int(t, 0, 255, &v)) {
      *fau = (unsigned)v;
      return true;
   }
   return false;
}

void
bi_fau_operand(struct pan_isa_str *s, unsigned fau, bool hi,
               const struct bi_clause *c)
{
   int k = fau_const(fau);
   if (k >= 0) {
      if ((unsigned)k >= c->nr_consts) {
         pan_isa_str_printf(s, "%s", hi ? "fau_hi" : "fau_lo");
         return;
      }
      uint64_t v = c->consts[k] << 4 | (fau & 15);
      pan_isa_str_printf(s, "#0x%08" PRIx64, hi ? v >> 32 : v & 0xffffffff);
      return;
   }
   bi_print_fau(s, fau);
   pan_isa_str_printf(s, ".w%u", hi);
}

/* ---- text ---- */

void
bi_print_regblock(struct pan_isa_str *s, const struct bi_regblock *b,
                  bool first, uint64_t bits)
{
   /* Leave out the free-bit hints the encoder would guess anyway. */
   struct bi_regblock m = *b;
   uint64_t got;
   m.spare = m.spare > 0 ? m.spare : -1;
   int8_t *hint[] = {&m.idle2, &m.idle3};
   for (unsigned i = 0; i < 2; i++) {
      int8_t keep = *hint[i];
      *hint[i] = -1;
      if (bi_regs_encode(&m, first, &got, NULL, 0) || got != bits)
         *hint[i] = keep;
   }

   const char *sep = "";
   for (unsigned i = 0; i < 3; i++) {
      if (m.read[i] >= 0) {
         pan_isa_str_printf(s, "%sp%u=r%d", sep, i, m.read[i]);
         sep = " ";
      }
   }
   if (m.fau) {
      pan_isa_str_printf(s, "%sfau=", sep);
      bi_print_fau(s, m.fau);
      sep = " ";
   }
   if (m.spare >= 0) {
      pan_isa_str_printf(s, "%sspare=%d", sep, m.spare);
      sep = " ";
   }
   if (m.idle2 >= 0) {
      pan_isa_str_printf(s, "%sr2=%d", sep, m.idle2);
      sep = " ";
   }
   if (m.idle3 >= 0) {
      pan_isa_str_printf(s, "%sr3=%d", sep, m.idle3);
      sep = " ";
   }
   if (m.idle1 && !first)
      pan_isa_str_printf(s, "%sidle1", sep);
}

static bool
parse_reg(const char *t, int8_t *reg)
{
   int64_t v;
   if (t[0] != 'r' || !pan_isa_parse_int(t + 1, 0, 63, &v))
      return false;
   *reg = (int8_t)v;
   return true;
}

int
bi_parse_regblock(char *text, struct bi_regblock *b, char *err,
                  size_t err_size)
{
   char *tok[16];
   int n = *text ? pan_isa_split(text, ' ', tok, 16) : 0;

   memset(b, 0, sizeof(*b));
   b->read[0] = b->read[1] = b->read[2] = -1;
   b->fma.reg = b->add.reg = -1;
   b->spare = b->idle2 = b->idle3 = -1;
   if (n < 0)
      return pan_isa_fail(err, err_size, "too many register block fields");
   for (int i = 0; i < n; i++) {
      char *t = tok[i], *eq = strchr(t, '=');
      int64_t v;
      bool ok = false;
      if (!*t)
         continue;
      if (!strcmp(t, "idle1")) {
         b->idle1 = true;
         continue;
      }
      if (!eq)
         return pan_isa_fail(err, err_size, "bad register block field %s",
                             t);
      *eq = '\0';
      const char *val = eq + 1;
      if (t[0] == 'p' && t[1] >= '0' && t[1] <= '2' && !t[2]) {
         ok = parse_reg(val, &b->read[t[1] - '0']);
      } else if (!strcmp(t, "fau")) {
         unsigned f;
         ok = parse_fau(val, &f);
         b->fau = (uint8_t)f;
      } else if (!strcmp(t, "spare") || !strcmp(t, "r2") ||
                 !strcmp(t, "r3")) {
         ok = pan_isa_parse_int(val, 0, 63, &v);
         int8_t *dst = t[0] == 's' ? &b->spare
                       : t[1] == '2' ? &b->idle2 : &b->idle3;
         *dst = (int8_t)v;
      }
      if (!ok)
         return pan_isa_fail(err, err_size, "bad register block field "
                             "%s=%s", t, val);
   }
   return 0;
}

void
bi_print_dest(struct pan_isa_str *s, const struct bi_dest *d, unsigned unit)
{
   static const char *const half[] = {"", ".h0", ".h1"};
   if (d->reg < 0)
      pan_isa_str_printf(s, "%s", unit ? "t1" : "t0");
   else
      pan_isa_str_printf(s, "r%d%s", d->reg, half[d->half]);
}

bool
bi_parse_dest(const char *t, unsigned unit, struct bi_dest *d)
{
   char buf[16];
   char *dot;

   d->reg = -1;
   d->half = BI_HALF_FULL;
   if (!strcmp(t, unit ? "t1" : "t0"))
      return true;
   if (strlen(t) >= sizeof(buf))
      return false;
   strcpy(buf, t);
   dot = strchr(buf, '.');
   if (dot) {
      *dot = '\0';
      if (!strcmp(dot + 1, "h0"))
         d->half = BI_HALF_LO;
      else if (!strcmp(dot + 1, "h1"))
         d->half = BI_HALF_HI;
      else
         return false;
   }
   return parse_reg(buf, &d->reg);
}

void
bi_operand_names(const struct bi_regblock *b, unsigned unit,
                 const struct bi_clause *c, struct bi_operand_ctx *ctx)
{
   const char *const *raw = unit ? bi_add_sources : bi_fma_sources;
   struct pan_isa_str s;

   for (unsigned i = 0; i < 8; i++) {
      pan_isa_str_init(&s, ctx->src[i], sizeof(ctx->src[i]));
      if (i < 3 && b->read[i] >= 0)
         pan_isa_str_printf(&s, "r%d", b->read[i]);
      else if (i == 3 && !unit)
         pan_isa_str_printf(&s, "#0");
      else if (i == 4 || i == 5)
         bi_fau_operand(&s, b->fau, i == 5, c);
      else
         pan_isa_str_printf(&s, "%s", raw[i]);
   }
   /* A name that two selectors share (one register on two ports, equal
    * constant words) falls back to the selector names. */
   bool dup[8] = {false};
   for (unsigned i = 0; i < 8; i++) {
      for (unsigned j = i + 1; j < 8; j++) {
         if (!strcmp(ctx->src[i], ctx->src[j]))
            dup[i] = dup[j] = true;
      }
   }
   for (unsigned i = 0; i < 8; i++) {
      if (dup[i])
         snprintf(ctx->src[i], sizeof(ctx->src[i]), "%s", raw[i]);
   }
}

bool
bi_regs_decode_names(uint64_t bits, bool first, struct bi_regblock *b)
{
   if (bi_regs_decode(bits, first, b))
      return true;
   /* Reserved control: sources print as selector names, results go
    * nowhere we can say; the FAU index still means what it says. */
   memset(b, 0, sizeof(*b));
   b->read[0] = b->read[1] = b->read[2] = -1;
   b->fma.reg = b->add.reg = -1;
   b->spare = b->idle2 = b->idle3 = -1;
   b->fau = bits & 0xff;
   return false;
}
