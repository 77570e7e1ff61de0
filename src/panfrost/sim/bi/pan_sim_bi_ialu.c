/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Integer families of the Bifrost interpreter on 32-bit forms: add/sub
 * (with 16/8-bit widened second source), multiply, shift-and-logic, moves,
 * selects, compares, bit counts, the integer conversions, add with carry
 * and the cross-lane permute.  Vector (v2i16, v4i8) forms are refused with
 * a named fault for now.
 */

#include <stdlib.h>
#include <string.h>

#include "pan_sim_bi_priv.h"
#include "pan_sim_fp.h"

/* Second source of iadd/isub after its lanes1 widening. */
static uint32_t
widened1(const struct pan_sim_bi_ins *ins, uint32_t v)
{
   const char *ln = pan_sim_bi_mod_str(ins, "lanes1", NULL);
   bool sext = ins->sem->src_type == BI_TYPE_S32;
   if (!ln)
      return v;
   unsigned k = ln[1] - '0', bits = ln[0] == 'h' ? 16 : 8;
   v >>= k * bits;
   return sext ? bi_sim_sext(v, bits) : v & ((1u << bits) - 1);
}

static uint32_t
add_sub(const struct pan_sim_bi_ins *ins, uint32_t a, uint32_t b, bool sub)
{
   b = widened1(ins, b);
   uint32_t r = sub ? a - b : a + b;
   if (!pan_sim_bi_mod_is(ins, "saturate", "sat"))
      return r;
   if (ins->sem->src_type == BI_TYPE_S32) {
      int64_t x = sub ? (int64_t)(int32_t)a - (int32_t)b
                      : (int64_t)(int32_t)a + (int32_t)b;
      x = x > INT32_MAX ? INT32_MAX : x < INT32_MIN ? INT32_MIN : x;
      return (uint32_t)(int32_t)x;
   }
   if (sub)
      return a < b ? 0 : r;
   return r < a ? ~0u : r;
}

/* Bifrost shift operands: source 0 is shifted, source 1 is combined (not1
 * inverts it) and source 2 holds the amount (lane2 picks its byte), unlike
 * Valhall where the amount is the middle source. */
static uint32_t
shift_logic(const struct pan_sim_bi_ins *ins, uint32_t a, uint32_t c3,
            uint32_t amount)
{
   unsigned fam = ins->sem->family;
   int lane = pan_sim_bi_mod(ins, "lane2");
   unsigned sh = (amount >> (8 * (lane > 0 ? lane : 0))) & 31;
   bool left = fam == BI_FAM_LSHIFT_AND || fam == BI_FAM_LSHIFT_OR ||
               fam == BI_FAM_LSHIFT_XOR;
   if (fam == BI_FAM_ARSHIFT)
      return (uint32_t)((int32_t)a >> sh);
   uint32_t s = left ? a << sh : a >> sh;
   if (pan_sim_bi_mod_is(ins, "not1", "not"))
      c3 = ~c3;
   uint32_t r;
   if (fam == BI_FAM_LSHIFT_AND || fam == BI_FAM_RSHIFT_AND)
      r = s & c3;
   else if (fam == BI_FAM_LSHIFT_OR || fam == BI_FAM_RSHIFT_OR)
      r = s | c3;
   else
      r = s ^ c3;
   return pan_sim_bi_mod_is(ins, "not_result", "not") ? ~r : r;
}

static bool
icompare(const struct pan_sim_bi_ins *ins, uint32_t a, uint32_t b)
{
   const char *f = pan_sim_bi_mod_str(ins, "cmpf", "eq");
   bool s = ins->sem->src_type == BI_TYPE_S32;
   bool gt = s ? (int32_t)a > (int32_t)b : a > b;
   if (!strcmp(f, "eq"))
      return a == b;
   if (!strcmp(f, "ne"))
      return a != b;
   if (!strcmp(f, "gt"))
      return gt;
   return gt || a == b; /* ge */
}

static bool
is_v2_16(unsigned type)
{
   return type == BI_TYPE_V2F16 || type == BI_TYPE_V2I16 ||
          type == BI_TYPE_V2S16 || type == BI_TYPE_V2U16;
}

/* The 16-bit lanes of a v2 csel, each choosing its own half. */
static uint32_t
csel_v2(const struct pan_sim_bi_ins *ins, uint32_t a, uint32_t b, uint32_t t,
        uint32_t f)
{
   unsigned type = ins->sem->src_type;
   const char *m = pan_sim_bi_mod_str(ins, "cmpf", "eq");
   uint32_t r = 0;
   for (unsigned k = 0; k < 2; k++) {
      uint16_t x = (uint16_t)(a >> (16 * k)), y = (uint16_t)(b >> (16 * k));
      double fx, fy;
      if (type == BI_TYPE_V2F16) {
         fx = pan_sim_fp_f16_to_f64(x), fy = pan_sim_fp_f16_to_f64(y);
      } else if (type == BI_TYPE_V2S16) {
         fx = (int16_t)x, fy = (int16_t)y;
      } else {
         fx = x, fy = y;
      }
      bool v = !strcmp(m, "eq") ? fx == fy : !strcmp(m, "gt") ? fx > fy
                                                              : fx >= fy;
      r |= ((v ? t : f) >> (16 * k) & 0xffff) << (16 * k);
   }
   return r;
}

static uint32_t
csel(const struct pan_sim_bi_ins *ins, uint32_t a, uint32_t b, uint32_t t,
     uint32_t f)
{
   if (is_v2_16(ins->sem->src_type))
      return csel_v2(ins, a, b, t, f);
   if (ins->sem->src_type == BI_TYPE_F32) {
      const char *m = pan_sim_bi_mod_str(ins, "cmpf", "eq");
      float x = pan_sim_fp_f32(a), y = pan_sim_fp_f32(b);
      bool v = !strcmp(m, "eq") ? x == y : !strcmp(m, "gt") ? x > y : x >= y;
      return v ? t : f;
   }
   return icompare(ins, a, b) ? t : f;
}

static uint32_t
half(uint32_t v, int k)
{
   return (v >> (16 * k)) & 0xffff;
}

/* mux.v2i16: each 16-bit half chooses s0 where its condition (the half of
 * s2, or each bit with .bit) holds, else s1; swapN exchanges the halves
 * of source N first. */
static uint32_t
mux_v2(const struct pan_sim_bi_ins *ins, const char *m, const uint32_t s[4])
{
   static const char *const swap[3] = { "swap0", "swap1", "swap2" };
   uint32_t v[3];
   for (unsigned i = 0; i < 3; i++) {
      v[i] = pan_sim_bi_mod_is(ins, swap[i], "h10") ? s[i] >> 16 | s[i] << 16
                                                 : s[i];
   }
   uint32_t mask = v[2];
   if (strcmp(m, "bit")) {
      mask = 0;
      for (unsigned k = 0; k < 2; k++) {
         uint32_t c = half(v[2], (int)k);
         bool take = !strcmp(m, "neg")       ? (c & 0x8000) != 0
                     : !strcmp(m, "fp_zero") ? (c & 0x7fff) == 0
                                             : c == 0;
         mask |= take ? 0xffffu << (16 * k) : 0;
      }
   }
   return (v[0] & mask) | (v[1] & ~mask);
}

static uint32_t
one(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins, unsigned l)
{
   unsigned n = ins->op->nr_srcs;
   uint32_t s[4] = { 0 };
   for (unsigned i = 0; i < n; i++)
      s[i] = pan_sim_bi_src(c, ins, i, l);
   int lane0 = pan_sim_bi_mod(ins, "lane0");
   unsigned k = lane0 > 0 ? (unsigned)lane0 : 0;

   switch (ins->sem->family) {
   case BI_FAM_NOP:
      return 0;
   case BI_FAM_MOV:
      return s[0];
   case BI_FAM_IADD:
   case BI_FAM_ISUB:
      return add_sub(ins, s[0], s[1], ins->sem->family == BI_FAM_ISUB);
   case BI_FAM_IMUL:
      return s[0] * s[1];
   case BI_FAM_IADDC:
      /* The compiler only passes a zero carry; its low bit is taken. */
      return s[0] + s[1] + (s[2] & 1);
   case BI_FAM_IABS:
      return (int32_t)s[0] < 0 ? -s[0] : s[0];
   case BI_FAM_POPCOUNT:
      return (uint32_t)__builtin_popcount(s[0]);
   case BI_FAM_CLZ:
      return s[0] ? (uint32_t)__builtin_clz(s[0]) : 32;
   case BI_FAM_BITREV: {
      uint32_t r = 0;
      for (unsigned i = 0; i < 32; i++)
         r |= ((s[0] >> i) & 1) << (31 - i);
      return r;
   }
   case BI_FAM_MKVEC: {
      int a = pan_sim_bi_mod(ins, "lane0"), b = pan_sim_bi_mod(ins, "lane1");
      return ((s[0] >> (16 * a)) & 0xffff) | ((s[1] >> (16 * b)) << 16);
   }
   case BI_FAM_CSEL:
      return csel(ins, s[0], s[1], s[2], s[3]);
   case BI_FAM_ATOM_POST: {
      /* The final value of an atomic from its two staging words. */
      const char *m = pan_sim_bi_mod_str(ins, "atom_opc", "aadd");
      int32_t a = (int32_t)s[0], b = (int32_t)s[1];
      if (!strcmp(m, "aadd"))
         return s[0] + s[1];
      if (!strcmp(m, "asmin"))
         return (uint32_t)(a < b ? a : b);
      if (!strcmp(m, "asmax"))
         return (uint32_t)(a > b ? a : b);
      if (!strcmp(m, "aumin"))
         return s[0] < s[1] ? s[0] : s[1];
      if (!strcmp(m, "aumax"))
         return s[0] > s[1] ? s[0] : s[1];
      if (!strcmp(m, "aand"))
         return s[0] & s[1];
      if (!strcmp(m, "aor"))
         return s[0] | s[1];
      return s[0] ^ s[1]; /* axor */
   }
   case BI_FAM_SWZ: {
      /* h00, h10, h11: the halves the two result lanes take. */
      const char *z = pan_sim_bi_mod_str(ins, "swz0", "h00");
      return half(s[0], z[1] - '0') | half(s[0], z[2] - '0') << 16;
   }
   case BI_FAM_MUX: {
      const char *m = pan_sim_bi_mod_str(ins, "mux", "int_zero");
      if (ins->sem->src_type == BI_TYPE_V2I16)
         return mux_v2(ins, m, s);
      uint32_t mask = !strcmp(m, "bit")       ? s[2]
                      : !strcmp(m, "neg")     ? ((int32_t)s[2] < 0 ? ~0u : 0)
                      : !strcmp(m, "fp_zero") ? ((s[2] & 0x7fffffff) ? 0 : ~0u)
                                              : (s[2] ? 0 : ~0u);
      return (s[0] & mask) | (s[1] & ~mask);
   }
   case BI_FAM_ICMP:
   case BI_FAM_ICMPI: {
      bool v = icompare(ins, s[0], s[1]);
      return pan_sim_bi_mod_is(ins, "result_type", "m1") ? (v ? ~0u : 0) : v;
   }
   case BI_FAM_CVT: {
      unsigned st = ins->sem->src_type;
      if (st == BI_TYPE_S8 || st == BI_TYPE_U8) {
         uint32_t b = (s[0] >> (8 * k)) & 0xff;
         return st == BI_TYPE_S8 ? bi_sim_sext(b, 8) : b;
      }
      uint32_t h = (s[0] >> (16 * k)) & 0xffff;
      return st == BI_TYPE_S16 ? bi_sim_sext(h, 16) : h;
   }
   default:
      /* arshift has no logic operand: its second source is the amount */
      if (ins->sem->family == BI_FAM_ARSHIFT && ins->op->nr_srcs == 2)
         return shift_logic(ins, s[0], 0, s[1]);
      return shift_logic(ins, s[0], s[1], s[2]);
   }
}

/* Result of a permute reading an inactive lane, by inactive_result. */
static const uint32_t clper_inactive[16] = {
   0x00000000, 0xffffffff, 0x00000001, 0x00010001, 0x80000000, 0x7fffffff,
   0x80008000, 0x7fff7fff, 0x80808080, 0x7f7f7f7f, 0x3f800000, 0x3c003c00,
   0xff800000, 0x7f800000, 0xfc00fc00, 0x7c007c00,
};

/* clper.i32: each lane takes source 0 of a lane of its subgroup of n,
 * chosen by the low bits of source 1 (none) or by those bits xor its own
 * position (xor).  A lane that is not running gives the fixed value of
 * inactive_result. */
static void
clper(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins)
{
   const char *sg = pan_sim_bi_mod_str(ins, "subgroup", "subgroup4");
   unsigned n = strtoul(sg + strlen("subgroup"), NULL, 10);
   bool xor = pan_sim_bi_mod_is(ins, "lane_op", "xor");
   uint32_t fill = clper_inactive[pan_sim_bi_mod(ins, "inactive_result")];
   bi_foreach_lane(c, l)
   {
      unsigned idx = pan_sim_bi_src(c, ins, 1, l) & (n - 1);
      unsigned from = (l & ~(n - 1)) | (xor? (l ^ idx) & (n - 1) : idx);
      c->res[l] =
         (c->exec & (1u << from)) ? pan_sim_bi_src(c, ins, 0, from) : fill;
   }
}

static bool
claims(const struct pan_sim_bi_ins *ins)
{
   unsigned st = ins->sem->src_type, dt = ins->sem->dst_type;
   bool w32 = st == BI_TYPE_I32 || st == BI_TYPE_S32 || st == BI_TYPE_U32;
   switch (ins->sem->family) {
   case BI_FAM_NOP:
      return true;
   case BI_FAM_MOV:
   case BI_FAM_POPCOUNT:
   case BI_FAM_BITREV:
   case BI_FAM_ICMPI:
      return w32;
   case BI_FAM_IADD:
   case BI_FAM_ISUB:
      return w32 && pan_sim_bi_mod(ins, "d7") <= 0;
   case BI_FAM_IMUL:
   case BI_FAM_IABS:
   case BI_FAM_CLZ:
      return w32 && ins->op->nr_mods == (ins->sem->family == BI_FAM_CLZ);
   case BI_FAM_ICMP:
   case BI_FAM_IADDC:
      return w32;
   case BI_FAM_CLPER:
      /* accumulate/shift lane ops are not modelled; subgroup16 is the
       * Valhall-only value of the field. */
      return (pan_sim_bi_mod_is(ins, "lane_op", "none") ||
              pan_sim_bi_mod_is(ins, "lane_op", "xor")) &&
             !pan_sim_bi_mod_is(ins, "subgroup", "subgroup16");
   case BI_FAM_CSEL:
      return w32 || st == BI_TYPE_F32 || is_v2_16(st);
   case BI_FAM_MUX:
      return st == BI_TYPE_I32 || st == BI_TYPE_V2I16;
   case BI_FAM_SWZ:
      return st == BI_TYPE_V2I16;
   case BI_FAM_ATOM_POST:
      return st == BI_TYPE_I32 && pan_sim_bi_mod(ins, "atom_opc") >= 0;
   case BI_FAM_MKVEC:
      return st == BI_TYPE_V2I16;
   case BI_FAM_CVT:
      return (dt == BI_TYPE_S32 || dt == BI_TYPE_U32) &&
             (st == BI_TYPE_S8 || st == BI_TYPE_U8 || st == BI_TYPE_S16 ||
              st == BI_TYPE_U16);
   case BI_FAM_LSHIFT_AND:
   case BI_FAM_LSHIFT_OR:
   case BI_FAM_LSHIFT_XOR:
   case BI_FAM_RSHIFT_AND:
   case BI_FAM_RSHIFT_OR:
   case BI_FAM_RSHIFT_XOR:
   case BI_FAM_ARSHIFT:
      return st == BI_TYPE_I32;
   default:
      return false;
   }
}

enum bi_sim_result
pan_sim_bi_exec_ialu(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins)
{
   if (!claims(ins))
      return BI_SIM_UNCLAIMED;
   if (!c)
      return BI_SIM_OK;
   if (ins->sem->family == BI_FAM_CLPER) {
      clper(c, ins);
      return BI_SIM_OK;
   }
   bi_foreach_lane(c, l) c->res[l] = one(c, ins, l);
   return BI_SIM_OK;
}
