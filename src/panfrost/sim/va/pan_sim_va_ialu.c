/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Integer ALU families on 8/16/32/64-bit lanes: add/sub/mul/halving add,
 * immediate add, moves and bit counts, shifts with a bitwise op, mux,
 * vector building and cross-lane permute (clper.i32).
 */

#include <stdlib.h>
#include <string.h>

#include "pan_sim_va_priv.h"

struct lanes {
   unsigned bits, count;
   char kind;
};

static struct lanes
lanes_of(unsigned type)
{
   const struct va_type_info *t = &va_types[type];
   return (struct lanes){ t->bits, t->lanes ? t->lanes : 1, t->kind };
}

/* Element k of source s, widened by its swizzle and extended to l.bits. */
static uint64_t
elem(const struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
     unsigned s, unsigned lane, unsigned k, struct lanes l)
{
   uint64_t raw = ins->src[s]->wide ? pan_sim_va_src64(c, ins, s, lane)
                                    : pan_sim_va_src32(c, ins, s, lane);
   const char *swz = pan_sim_va_src_mod_str(ins, s, "swz", NULL);
   unsigned w;
   uint64_t v = pan_sim_va_element(raw, l.bits, k, swz, &w);
   if (w < l.bits && l.kind == 's')
      v = va_sim_sext(v, w);
   return v & va_sim_mask(l.bits);
}

static uint64_t
add_sat(uint64_t a, uint64_t b, bool sub, bool sat, struct lanes l)
{
   uint64_t m = va_sim_mask(l.bits);
   uint64_t r = (sub ? a - b : a + b) & m;

   if (!sat)
      return r;
   if (l.kind == 's') {
      int64_t sa = va_sim_sext(a, l.bits), sb = va_sim_sext(b, l.bits);
      int64_t sr = va_sim_sext(r, l.bits);
      bool over = sub ? ((sa < 0) != (sb < 0) && (sr < 0) != (sa < 0))
                      : ((sa < 0) == (sb < 0) && (sr < 0) != (sa < 0));
      if (over)
         r = (sa < 0 ? 1ull << (l.bits - 1) : (m >> 1));
      return r;
   }
   if (sub)
      return a < b ? 0 : r;
   return r < a ? m : r;
}

static unsigned
clz(uint64_t v, unsigned bits)
{
   unsigned n = 0;
   for (int i = bits - 1; i >= 0 && !((v >> i) & 1); --i)
      n++;
   return n;
}

static uint64_t
shift_op(const struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
         unsigned lane, unsigned k, struct lanes l)
{
   unsigned fam = ins->sem->family, w;
   uint64_t a = elem(c, ins, 0, lane, k, l);
   unsigned amount =
      pan_sim_va_element(pan_sim_va_src32(c, ins, 1, lane), 8, k,
                         pan_sim_va_src_mod_str(ins, 1, "swz", NULL), &w);
   uint64_t b = elem(c, ins, 2, lane, k, l);
   uint64_t r;

   amount &= l.bits - 1; /* the amount wraps at the lane width */
   if (fam == VA_FAM_LSHIFT_AND || fam == VA_FAM_LSHIFT_OR ||
       fam == VA_FAM_LSHIFT_XOR)
      r = a << amount;
   else if (pan_sim_va_mod(ins, "signed") == 1)
      r = (uint64_t)((int64_t)va_sim_sext(a, l.bits) >> amount);
   else
      r = a >> amount;
   if (pan_sim_va_src_mod(ins, 2, "not") == 1)
      b = ~b;
   if (fam == VA_FAM_LSHIFT_AND || fam == VA_FAM_RSHIFT_AND)
      r &= b;
   else if (fam == VA_FAM_LSHIFT_OR || fam == VA_FAM_RSHIFT_OR)
      r |= b;
   else
      r ^= b;
   if (pan_sim_va_mod(ins, "not_result") == 1)
      r = ~r;
   return r;
}

static uint64_t
mux(const struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
    unsigned lane, unsigned k, struct lanes l)
{
   uint64_t a = elem(c, ins, 0, lane, k, l), b = elem(c, ins, 1, lane, k, l);
   uint64_t m = elem(c, ins, 2, lane, k, l);
   const char *mode = pan_sim_va_mod_str(ins, "mux", "int_zero");
   uint64_t sign = 1ull << (l.bits - 1);

   if (!strcmp(mode, "bit"))
      return (a & m) | (b & ~m);
   if (!strcmp(mode, "neg"))
      return (m & sign) ? a : b;
   if (!strcmp(mode, "fp_zero"))
      return (m & ~sign) == 0 ? a : b;
   return m == 0 ? a : b;
}

/* One lane element of the element-wise families. */
static uint64_t
lane_op(const struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
        unsigned lane, unsigned k, struct lanes l)
{
   bool sat = pan_sim_va_mod(ins, "saturate") == 1;
   uint64_t a = elem(c, ins, 0, lane, k, l);

   switch (ins->sem->family) {
   case VA_FAM_IADD:
   case VA_FAM_ISUB:
      return add_sat(a, elem(c, ins, 1, lane, k, l),
                     ins->sem->family == VA_FAM_ISUB, sat, l);
   case VA_FAM_IMUL:
      return a * elem(c, ins, 1, lane, k, l);
   case VA_FAM_HADD: {
      uint64_t b = elem(c, ins, 1, lane, k, l);
      int64_t round = pan_sim_va_mod(ins, "rhadd") == 1;
      if (l.kind == 's')
         return (uint64_t)(((int64_t)va_sim_sext(a, l.bits) +
                            (int64_t)va_sim_sext(b, l.bits) + round) >>
                           1);
      return (a + b + round) >> 1; /* lanes are at most 32 bits */
   }
   case VA_FAM_IADD_IMM:
      return a + (((uint64_t)pan_sim_va_imm(ins, "constant") >> (k * l.bits)) &
                  va_sim_mask(l.bits));
   case VA_FAM_CLZ:
      return clz(a, l.bits);
   case VA_FAM_IABS: {
      int64_t v = va_sim_sext(a, l.bits);
      return v < 0 ? -(uint64_t)v : (uint64_t)v;
   }
   case VA_FAM_POPCOUNT:
      return __builtin_popcountll(a);
   case VA_FAM_BITREV: {
      uint64_t r = 0;
      for (unsigned i = 0; i < l.bits; ++i)
         r |= ((a >> i) & 1) << (l.bits - 1 - i);
      return r;
   }
   case VA_FAM_NOT:
      return ~a;
   case VA_FAM_MOV:
      return a;
   case VA_FAM_MKVEC:
      /* Each source gives its (swizzled) first half. */
      return elem(c, ins, k, lane, 0, l);
   case VA_FAM_SHADDX: {
      struct lanes w = { 64, 1, l.kind };
      return a + (elem(c, ins, 1, lane, 0, w) << pan_sim_va_imm(ins, "shift"));
   }
   case VA_FAM_MUX:
      return mux(c, ins, lane, k, l);
   default:
      return shift_op(c, ins, lane, k, l);
   }
}

/* clper.i32: lane `lane` reads source 0 of another lane of its subgroup. */
static enum va_sim_result
clper(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins)
{
   static const struct {
      const char *name;
      uint32_t value;
   } inactive[] = {
      { "zero", 0 },
      { "umax", 0xffffffff },
      { "i1", 1 },
      { "v2i1", 0x00010001 },
      { "smin", 0x80000000 },
      { "smax", 0x7fffffff },
      { "v2smin", 0x80008000 },
      { "v2smax", 0x7fff7fff },
      { "v4smin", 0x80808080 },
      { "v4smax", 0x7f7f7f7f },
      { "f1", 0x3f800000 },
      { "v2f1", 0x3c003c00 },
      { "infn", 0xff800000 },
      { "inf", 0x7f800000 },
      { "v2infn", 0xfc00fc00 },
      { "v2inf", 0x7c007c00 },
   };
   const char *op = pan_sim_va_mod_str(ins, "laneop", "none");
   const char *sg = pan_sim_va_mod_str(ins, "subgroup", "subgroup16");
   const char *ia = pan_sim_va_mod_str(ins, "inactive", "zero");
   unsigned n = strtoul(sg + strlen("subgroup"), NULL, 10);
   uint32_t fill = 0, out[PAN_SIM_VA_LANES];
   struct lanes l = { 32, 1, 'i' };

   if (ins->sem->dtype != VA_TYPE_I32)
      return pan_sim_va_refuse(c, ins, "only clper.i32 is modelled");
   if (strcmp(op, "none") && strcmp(op, "xor"))
      return pan_sim_va_refuse(c, ins, "accumulate/shift lane ops");
   for (unsigned i = 0; i < sizeof(inactive) / sizeof(inactive[0]); ++i) {
      if (!strcmp(inactive[i].name, ia))
         fill = inactive[i].value;
   }
   foreach_lane(c, lane)
   {
      unsigned idx = elem(c, ins, 1, lane, 0, l) & (n - 1);
      unsigned src = !strcmp(op, "xor") ? lane ^ idx : (lane & ~(n - 1)) | idx;
      out[lane] =
         (c->exec & (1u << src)) ? pan_sim_va_src32(c, ins, 0, src) : fill;
   }
   /* Every lane reads before any lane writes. */
   foreach_lane(c, lane) pan_sim_va_dest32(c, ins, lane, out[lane]);
   return VA_SIM_OK;
}

enum va_sim_result
pan_sim_va_exec_ialu(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins)
{
   struct lanes l = lanes_of(ins->sem->dtype);

   switch (ins->sem->family) {
   case VA_FAM_IMUL:
      if (pan_sim_va_mod(ins, "saturate") == 1)
         return pan_sim_va_refuse(c, ins, "saturating multiply");
      break;
   case VA_FAM_MKVEC:
      if (ins->sem->dtype != VA_TYPE_V2I16)
         return pan_sim_va_refuse(c, ins, "byte vector building");
      break;
   case VA_FAM_LSHIFT_AND:
   case VA_FAM_LSHIFT_OR:
   case VA_FAM_LSHIFT_XOR:
   case VA_FAM_RSHIFT_AND:
   case VA_FAM_RSHIFT_OR:
   case VA_FAM_RSHIFT_XOR:
   case VA_FAM_IADD:
   case VA_FAM_ISUB:
   case VA_FAM_HADD:
   case VA_FAM_IADD_IMM:
   case VA_FAM_CLZ:
   case VA_FAM_IABS:
   case VA_FAM_POPCOUNT:
   case VA_FAM_BITREV:
   case VA_FAM_NOT:
   case VA_FAM_MOV:
   case VA_FAM_SHADDX:
   case VA_FAM_MUX:
      break;
   case VA_FAM_CLPER:
      return clper(c, ins);
   default:
      return VA_SIM_UNCLAIMED;
   }
   if (l.bits == 0 || l.bits > 64)
      return pan_sim_va_refuse(c, ins, "lane type");

   foreach_lane(c, lane)
   {
      uint64_t r = 0;
      for (unsigned k = 0; k < l.count; ++k)
         r |= (lane_op(c, ins, lane, k, l) & va_sim_mask(l.bits))
              << (k * l.bits);
      if (l.bits * l.count == 64)
         pan_sim_va_dest64(c, ins, lane, r);
      else
         pan_sim_va_dest32(c, ins, lane, r);
   }
   return VA_SIM_OK;
}
