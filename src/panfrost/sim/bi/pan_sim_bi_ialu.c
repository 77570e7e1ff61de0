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

/* What the lane loop needs from the modifiers, worked out once per
 * instruction and remembered in its memo (packed into 64 bits). */
enum { CMP_EQ, CMP_NE, CMP_GT, CMP_GE };
enum { MUX_INT_ZERO, MUX_NEG, MUX_FP_ZERO, MUX_BIT };
enum {
   ATOM_ADD,
   ATOM_SMIN,
   ATOM_SMAX,
   ATOM_UMIN,
   ATOM_UMAX,
   ATOM_AND,
   ATOM_OR,
   ATOM_XOR
};

#define P_SAT (1u << 0)
#define P_NOT1 (1u << 1)
#define P_NOT_RES (1u << 2)
#define P_M1 (1u << 3)
#define P_SIGNED (1u << 4)

struct ialu_prep {
   uint8_t flags;
   uint8_t cmp;    /* CMP_* */
   uint8_t k;      /* lane0 (cvt: the byte or half read) */
   uint8_t wshift; /* lanes1 widening of iadd/isub: shift, bits (0 none) */
   uint8_t wbits;
   uint8_t shlane; /* lane2 of shifts: the amount's byte, in bits */
   uint8_t sel;    /* mux / atom op, mkvec lane0, swz first half */
   uint8_t sel2;   /* mux.v2 swaps (bits 0-2), mkvec lane1, swz 2nd half */
};

static unsigned
code_of(const char *v, const char *const *names, unsigned n)
{
   for (unsigned i = 0; i < n; i++) {
      if (!strcmp(v, names[i]))
         return i;
   }
   return 0;
}

static struct ialu_prep
prep(const struct pan_sim_bi_ins *ins)
{
   static const char *const cmps[] = { "eq", "ne", "gt", "ge" };
   static const char *const muxes[] = { "int_zero", "neg", "fp_zero", "bit" };
   static const char *const atoms[] = { "aadd",  "asmin", "asmax", "aumin",
                                        "aumax", "aand",  "aor",   "axor" };
   static const char *const swap[3] = { "swap0", "swap1", "swap2" };
   struct ialu_prep p = { 0 };
   int64_t memo;
   if (pan_sim_bi_memo_get(ins, "ialu", NULL, &memo)) {
      memcpy(&p, &memo, sizeof(p));
      return p;
   }

   unsigned fam = ins->sem->family;
   if (ins->sem->src_type == BI_TYPE_S32)
      p.flags |= P_SIGNED;
   if (pan_sim_bi_mod_is(ins, "saturate", "sat"))
      p.flags |= P_SAT;
   if (pan_sim_bi_mod_is(ins, "not1", "not"))
      p.flags |= P_NOT1;
   if (pan_sim_bi_mod_is(ins, "not_result", "not"))
      p.flags |= P_NOT_RES;
   if (pan_sim_bi_mod_is(ins, "result_type", "m1"))
      p.flags |= P_M1;
   p.cmp = code_of(pan_sim_bi_mod_str(ins, "cmpf", "eq"), cmps, 4);
   int lane0 = pan_sim_bi_mod(ins, "lane0");
   p.k = lane0 > 0 ? (uint8_t)lane0 : 0;
   const char *ln = pan_sim_bi_mod_str(ins, "lanes1", NULL);
   if (ln) {
      p.wbits = ln[0] == 'h' ? 16 : 8;
      p.wshift = (uint8_t)((ln[1] - '0') * p.wbits);
   }
   int lane2 = pan_sim_bi_mod(ins, "lane2");
   p.shlane = (uint8_t)(8 * (lane2 > 0 ? lane2 : 0));

   if (fam == BI_FAM_MUX) {
      p.sel = code_of(pan_sim_bi_mod_str(ins, "mux", "int_zero"), muxes, 4);
      for (unsigned i = 0; i < 3; i++)
         p.sel2 |= pan_sim_bi_mod_is(ins, swap[i], "h10") << i;
   } else if (fam == BI_FAM_ATOM_POST) {
      p.sel = code_of(pan_sim_bi_mod_str(ins, "atom_opc", "aadd"), atoms, 8);
   } else if (fam == BI_FAM_MKVEC) {
      p.sel = (uint8_t)pan_sim_bi_mod(ins, "lane0");
      p.sel2 = (uint8_t)pan_sim_bi_mod(ins, "lane1");
   } else if (fam == BI_FAM_SWZ) {
      /* h00, h10, h11: the halves the two result lanes take. */
      const char *z = pan_sim_bi_mod_str(ins, "swz0", "h00");
      p.sel = z[1] - '0';
      p.sel2 = z[2] - '0';
   }
   memcpy(&memo, &p, sizeof(p));
   pan_sim_bi_memo_put(ins, "ialu", NULL, memo);
   return p;
}

static uint32_t
add_sub(const struct ialu_prep *p, uint32_t a, uint32_t b, bool sub)
{
   bool sext = p->flags & P_SIGNED;
   if (p->wbits) {
      b >>= p->wshift;
      b = sext ? bi_sim_sext(b, p->wbits) : b & ((1u << p->wbits) - 1);
   }
   uint32_t r = sub ? a - b : a + b;
   if (!(p->flags & P_SAT))
      return r;
   if (sext) {
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
shift_logic(unsigned fam, const struct ialu_prep *p, uint32_t a, uint32_t c3,
            uint32_t amount)
{
   unsigned sh = (amount >> p->shlane) & 31;
   bool left = fam == BI_FAM_LSHIFT_AND || fam == BI_FAM_LSHIFT_OR ||
               fam == BI_FAM_LSHIFT_XOR;
   if (fam == BI_FAM_ARSHIFT)
      return (uint32_t)((int32_t)a >> sh);
   uint32_t s = left ? a << sh : a >> sh;
   if (p->flags & P_NOT1)
      c3 = ~c3;
   uint32_t r;
   if (fam == BI_FAM_LSHIFT_AND || fam == BI_FAM_RSHIFT_AND)
      r = s & c3;
   else if (fam == BI_FAM_LSHIFT_OR || fam == BI_FAM_RSHIFT_OR)
      r = s | c3;
   else
      r = s ^ c3;
   return (p->flags & P_NOT_RES) ? ~r : r;
}

static bool
icompare(const struct ialu_prep *p, uint32_t a, uint32_t b)
{
   bool gt = (p->flags & P_SIGNED) ? (int32_t)a > (int32_t)b : a > b;
   switch (p->cmp) {
   case CMP_EQ:
      return a == b;
   case CMP_NE:
      return a != b;
   case CMP_GT:
      return gt;
   default:
      return gt || a == b;
   }
}

/* The float and 16-bit csel conditions: eq, gt, else ge. */
static bool
fcompare(unsigned cmp, double x, double y)
{
   return cmp == CMP_EQ ? x == y : cmp == CMP_GT ? x > y : x >= y;
}

static bool
is_v2_16(unsigned type)
{
   return type == BI_TYPE_V2F16 || type == BI_TYPE_V2I16 ||
          type == BI_TYPE_V2S16 || type == BI_TYPE_V2U16;
}

/* The 16-bit lanes of a v2 csel, each choosing its own half. */
static uint32_t
csel_v2(unsigned type, const struct ialu_prep *p, uint32_t a, uint32_t b,
        uint32_t t, uint32_t f)
{
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
      bool v = fcompare(p->cmp, fx, fy);
      r |= ((v ? t : f) >> (16 * k) & 0xffff) << (16 * k);
   }
   return r;
}

static uint32_t
csel(unsigned type, const struct ialu_prep *p, uint32_t a, uint32_t b,
     uint32_t t, uint32_t f)
{
   if (is_v2_16(type))
      return csel_v2(type, p, a, b, t, f);
   if (type == BI_TYPE_F32)
      return fcompare(p->cmp, pan_sim_fp_f32(a), pan_sim_fp_f32(b)) ? t : f;
   return icompare(p, a, b) ? t : f;
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
mux_v2(const struct ialu_prep *p, const uint32_t s[4])
{
   uint32_t v[3];
   for (unsigned i = 0; i < 3; i++)
      v[i] = (p->sel2 >> i & 1) ? s[i] >> 16 | s[i] << 16 : s[i];
   uint32_t mask = v[2];
   if (p->sel != MUX_BIT) {
      mask = 0;
      for (unsigned k = 0; k < 2; k++) {
         uint32_t c = half(v[2], (int)k);
         bool take = p->sel == MUX_NEG       ? (c & 0x8000) != 0
                     : p->sel == MUX_FP_ZERO ? (c & 0x7fff) == 0
                                             : c == 0;
         mask |= take ? 0xffffu << (16 * k) : 0;
      }
   }
   return (v[0] & mask) | (v[1] & ~mask);
}

static uint32_t
atom_post(unsigned op, uint32_t x, uint32_t y)
{
   int32_t a = (int32_t)x, b = (int32_t)y;
   switch (op) {
   case ATOM_ADD:
      return x + y;
   case ATOM_SMIN:
      return (uint32_t)(a < b ? a : b);
   case ATOM_SMAX:
      return (uint32_t)(a > b ? a : b);
   case ATOM_UMIN:
      return x < y ? x : y;
   case ATOM_UMAX:
      return x > y ? x : y;
   case ATOM_AND:
      return x & y;
   case ATOM_OR:
      return x | y;
   default:
      return x ^ y;
   }
}

static uint32_t
one(const struct pan_sim_bi_ins *ins, const struct ialu_prep *p,
    const uint32_t s[4])
{
   unsigned k = p->k;

   switch (ins->sem->family) {
   case BI_FAM_NOP:
      return 0;
   case BI_FAM_MOV:
      return s[0];
   case BI_FAM_IADD:
   case BI_FAM_ISUB:
      return add_sub(p, s[0], s[1], ins->sem->family == BI_FAM_ISUB);
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
   case BI_FAM_MKVEC:
      return ((s[0] >> (16 * p->sel)) & 0xffff) |
             ((s[1] >> (16 * p->sel2)) << 16);
   case BI_FAM_CSEL:
      return csel(ins->sem->src_type, p, s[0], s[1], s[2], s[3]);
   case BI_FAM_ATOM_POST:
      /* The final value of an atomic from its two staging words. */
      return atom_post(p->sel, s[0], s[1]);
   case BI_FAM_SWZ:
      return half(s[0], p->sel) | half(s[0], p->sel2) << 16;
   case BI_FAM_MUX: {
      if (ins->sem->src_type == BI_TYPE_V2I16)
         return mux_v2(p, s);
      uint32_t mask = p->sel == MUX_BIT       ? s[2]
                      : p->sel == MUX_NEG     ? ((int32_t)s[2] < 0 ? ~0u : 0)
                      : p->sel == MUX_FP_ZERO ? ((s[2] & 0x7fffffff) ? 0 : ~0u)
                                              : (s[2] ? 0 : ~0u);
      return (s[0] & mask) | (s[1] & ~mask);
   }
   case BI_FAM_ICMP:
   case BI_FAM_ICMPI: {
      bool v = icompare(p, s[0], s[1]);
      return (p->flags & P_M1) ? (v ? ~0u : 0) : v;
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
         return shift_logic(ins->sem->family, p, s[0], 0, s[1]);
      return shift_logic(ins->sem->family, p, s[0], s[1], s[2]);
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

/* clper_old.i32 (v6): the fixed form, a quad's lane named by the low two
 * bits of source 1, zero when that lane is not running. */
static void
clper_old(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins)
{
   bi_foreach_lane(c, l)
   {
      unsigned from = (l & ~3u) | (pan_sim_bi_src(c, ins, 1, l) & 3);
      c->res[l] =
         (c->exec & (1u << from)) ? pan_sim_bi_src(c, ins, 0, from) : 0;
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
   case BI_FAM_CLPER_OLD:
      return true;
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
   if (ins->sem->family == BI_FAM_CLPER_OLD) {
      clper_old(c, ins);
      return BI_SIM_OK;
   }
   struct ialu_prep p = prep(ins);
   unsigned n = ins->op->nr_srcs;
   struct bi_src_ref src[4];
   for (unsigned i = 0; i < n; i++)
      src[i] = pan_sim_bi_src_ref(c, ins, i);
   if (ins->sem->family == BI_FAM_MOV) {
      bi_foreach_lane(c, l) c->res[l] = bi_src_at(src[0], l);
      return BI_SIM_OK;
   }
   bi_foreach_lane(c, l)
   {
      uint32_t s[4] = { 0 };
      for (unsigned i = 0; i < n; i++)
         s[i] = bi_src_at(src[i], l);
      c->res[l] = one(ins, &p, s);
   }
   return BI_SIM_OK;
}
