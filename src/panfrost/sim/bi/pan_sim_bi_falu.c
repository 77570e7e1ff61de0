/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Floating-point families of the Bifrost interpreter: fadd, fma, fmin,
 * fmax, fcmp, fround, the reciprocal (square root) approximations and the
 * float conversions.  Arithmetic is done exactly in double and rounded once
 * with the Valhall interpreter's helpers (pan_sim_fp.h).  Denormals are
 * kept (the clause header's ftz field is not modelled).
 */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pan_sim_bi_priv.h"
#include "pan_sim_fp.h"

/* Widening of the two FMA-unit f32 sources selected by the derived d9
 * (0 none, 1 h0, 2 h1). */
static const char d9_widen[8][2] = {
   { 0, 0 }, { 0, 1 }, { 0, 2 }, { 1, 1 },
   { 1, 2 }, { 2, 2 }, { 1, 0 }, { 2, 0 },
};

/* The ADD-unit fcmp.f32 has a 2-bit d9 for the widening (the other pairs
 * are reached by swapping the sources) and a 1-bit d13 negating source 0
 * alone. */
static const char add_fcmp_widen[4][2] = {
   { 0, 0 },
   { 0, 1 },
   { 0, 2 },
   { 1, 1 },
};

static bool
is_add_fcmp32(const struct pan_sim_bi_ins *ins)
{
   return ins->unit && ins->sem->family == BI_FAM_FCMP &&
          ins->sem->src_type == BI_TYPE_F32;
}

static enum pan_sim_round
rmode(const struct pan_sim_bi_ins *ins, const char *dflt)
{
   int64_t v;
   if (pan_sim_bi_memo_get(ins, "rmode", dflt, &v))
      return (enum pan_sim_round)v;
   const char *r = pan_sim_bi_mod_str(ins, "round", dflt);
   enum pan_sim_round m = pan_sim_fp_round_mode(!strcmp(r, "none") ? NULL : r);
   pan_sim_bi_memo_put(ins, "rmode", dflt, m);
   return m;
}

/* How source s is read, from its modifiers (remembered per instruction):
 * bit 0 a half-float type, then bits 1-2 the half read for k = 0 and bits
 * 3-4 for k = 1; otherwise bits 1-2 the half widened to f32 plus one (0:
 * binary32).  Bit 5 abs, bit 6 negate (after abs). */
static unsigned
fsrc_mode(const struct pan_sim_bi_ins *ins, unsigned s)
{
   static const char *const tag[4] = { "fsrc0", "fsrc1", "fsrc2", "fsrc3" };
   int64_t memo;
   if (pan_sim_bi_memo_get(ins, tag[s], NULL, &memo))
      return (unsigned)memo;

   unsigned m;
   if (ins->sem->src_type == BI_TYPE_V2F16 ||
       ins->sem->src_type == BI_TYPE_F16) {
      const char *swz = pan_sim_bi_mod_str(ins, pan_sim_bi_swz_name[s], "h01");
      m = 1 | (unsigned)(swz[1] - '0') << 1 | (unsigned)(swz[2] - '0') << 3;
   } else {
      int d9 = pan_sim_bi_mod(ins, "d9");
      unsigned widen = 0;
      if (is_add_fcmp32(ins))
         widen = add_fcmp_widen[d9][s];
      else if (ins->unit == 0 && d9 >= 0 && s < 2)
         widen = d9_widen[d9][s];
      m = widen << 1;
   }
   if (pan_sim_bi_mod_is(ins, pan_sim_bi_abs_name[s], "abs"))
      m |= 32;
   if (pan_sim_bi_mod_is(ins, pan_sim_bi_neg_name[s], "neg"))
      m ^= 64;
   if (is_add_fcmp32(ins) && s == 0 && pan_sim_bi_mod(ins, "d13") == 1)
      m ^= 64;
   pan_sim_bi_memo_put(ins, tag[s], NULL, m);
   return m;
}

/* Source s read with mode m (fsrc_mode()) as a double: binary32 (possibly
 * widened from a half) or half k of a v2f16 after its swizzle; abs then
 * neg. */
static double
fsrc_as(const struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
        unsigned m, unsigned s, unsigned lane, unsigned k)
{
   uint32_t v = pan_sim_bi_src(c, ins, s, lane);
   double x;
   if (m & 1)
      x = pan_sim_fp_f16_to_f64((uint16_t)(v >> (16 * ((m >> (1 + 2 * k)) & 3))));
   else if (m & 6)
      x = pan_sim_fp_f16_to_f64((uint16_t)(v >> (16 * (((m >> 1) & 3) - 1))));
   else
      x = pan_sim_fp_f32(v);
   if (m & 32)
      x = fabs(x);
   return m & 64 ? -x : x;
}

static double
fsrc(const struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
     unsigned s, unsigned lane, unsigned k)
{
   return fsrc_as(c, ins, fsrc_mode(ins, s), s, lane, k);
}

/* The clamp modifier, NULL for none. */
static const char *
clamp_of(const struct pan_sim_bi_ins *ins)
{
   const char *clamp = pan_sim_bi_mod_str(ins, "clamp", "none");
   int64_t none;
   if (!pan_sim_bi_memo_get(ins, "clamp_none", NULL, &none)) {
      none = !strcmp(clamp, "none");
      pan_sim_bi_memo_put(ins, "clamp_none", NULL, none);
   }
   return none ? NULL : clamp;
}

static uint32_t
round_clamped(double x, double tail, enum pan_sim_round mode, bool half,
              const char *clamp)
{
   if (clamp)
      x = pan_sim_fp_clamp(x, clamp);
   return pan_sim_fp_round_f64_tail(x, tail, mode, half ? 5 : 8,
                                    half ? 10 : 23);
}

static uint32_t
round_to(const struct pan_sim_bi_ins *ins, double x, double tail,
         enum pan_sim_round mode, bool half)
{
   return round_clamped(x, tail, mode, half, clamp_of(ins));
}

/* Exact a + b as s + tail (TwoSum). */
static double
two_sum(double a, double b, double *tail)
{
   double s = a + b, bb = s - a;
   *tail = (a - (s - bb)) + (b - bb);
   if (!isfinite(s))
      *tail = 0;
   return s;
}

static double
fminmax(const struct pan_sim_bi_ins *ins, double a, double b, bool max)
{
   const char *sem = pan_sim_bi_mod_str(ins, "sem", "nan_suppress");
   if (!strcmp(sem, "c"))
      return (max ? a > b : a < b) ? a : b;
   if (!strcmp(sem, "inverse_c"))
      return (max ? b > a : b < a) ? b : a;
   if (isnan(a) || isnan(b)) {
      if (!strcmp(sem, "nan_propagate") || (isnan(a) && isnan(b)))
         return NAN;
      return isnan(a) ? b : a;
   }
   if (a == b && a == 0)
      return (signbit(a) != max) ? a : b;
   return (max ? a > b : a < b) ? a : b;
}

static bool
fcompare(const char *cmpf, double a, double b)
{
   bool un = isnan(a) || isnan(b);
   if (!strcmp(cmpf, "eq"))
      return a == b;
   if (!strcmp(cmpf, "gt"))
      return a > b;
   if (!strcmp(cmpf, "ge"))
      return a >= b;
   if (!strcmp(cmpf, "ne"))
      return un || a != b;
   if (!strcmp(cmpf, "lt"))
      return a < b;
   if (!strcmp(cmpf, "le"))
      return a <= b;
   return !un && a != b; /* gtlt */
}

/* What arith() needs of the instruction, looked up once per execution
 * rather than per lane. */
struct arith_op {
   unsigned src[3]; /* fsrc_mode() of each source */
   enum pan_sim_round mode;
   bool neg_product; /* fma: d17 negates the product */
   const char *clamp;
};

static void
arith_op_init(const struct pan_sim_bi_ins *ins, struct arith_op *o)
{
   for (unsigned s = 0; s < 3; s++)
      o->src[s] = s < ins->op->nr_srcs ? fsrc_mode(ins, s) : 0;
   o->mode = rmode(ins, "none");
   o->neg_product = pan_sim_bi_mod(ins, "d17") == 1;
   o->clamp = clamp_of(ins);
}

/* One float result element k of an arithmetic family. */
static uint32_t
arith(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
      const struct arith_op *o, unsigned l, unsigned k, bool half)
{
   double a = fsrc_as(c, ins, o->src[0], 0, l, k), tail = 0, r;
   enum pan_sim_round mode = o->mode;
   switch (ins->sem->family) {
   case BI_FAM_FADD:
      r = two_sum(a, fsrc_as(c, ins, o->src[1], 1, l, k), &tail);
      break;
   case BI_FAM_FMA: {
      /* exact: 24 x 24 bits */
      double p = a * fsrc_as(c, ins, o->src[1], 1, l, k);
      if (o->neg_product)
         p = -p;
      r = two_sum(p, fsrc_as(c, ins, o->src[2], 2, l, k), &tail);
      break;
   }
   case BI_FAM_FMIN:
   case BI_FAM_FMAX:
      r = fminmax(ins, a, fsrc_as(c, ins, o->src[1], 1, l, k),
                  ins->sem->family == BI_FAM_FMAX);
      break;
   case BI_FAM_FROUND:
      r = mode == PAN_SIM_ROUND_RTE   ? nearbyint(a)
          : mode == PAN_SIM_ROUND_RTP ? ceil(a)
          : mode == PAN_SIM_ROUND_RTN ? floor(a)
                                      : trunc(a);
      mode = PAN_SIM_ROUND_RTE;
      break;
   case BI_FAM_FRCP_APPROX:
      r = 1.0 / a;
      break;
   default: /* BI_FAM_FRSQ_APPROX */
      r = 1.0 / sqrt(a);
      break;
   }
   return round_clamped(r, tail, mode, half, o->clamp);
}

static uint32_t
cmp_result(const struct pan_sim_bi_ins *ins, bool v, bool half)
{
   const char *rt = pan_sim_bi_mod_str(ins, "result_type", "i1");
   if (!strcmp(rt, "f1"))
      return v ? (half ? 0x3c00 : 0x3f800000u) : 0;
   if (!strcmp(rt, "m1"))
      return v ? (half ? 0xffff : ~0u) : 0;
   return v;
}

static enum bi_sim_result
exec_arith(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins)
{
   bool v2 = ins->sem->dst_type == BI_TYPE_V2F16;
   bool cmp = ins->sem->family == BI_FAM_FCMP;
   struct arith_op o;
   if (!cmp)
      arith_op_init(ins, &o);
   bi_foreach_lane(c, l)
   {
      if (cmp) {
         const char *f = pan_sim_bi_mod_str(ins, "cmpf", "eq");
         uint32_t lo = cmp_result(
            ins, fcompare(f, fsrc(c, ins, 0, l, 0), fsrc(c, ins, 1, l, 0)), v2);
         uint32_t hi = v2 ? cmp_result(ins,
                                       fcompare(f, fsrc(c, ins, 0, l, 1),
                                                fsrc(c, ins, 1, l, 1)),
                                       true)
                          : 0;
         c->res[l] = v2 ? (lo & 0xffff) | hi << 16 : lo;
      } else if (v2) {
         c->res[l] = arith(c, ins, &o, l, 0, true) |
                     arith(c, ins, &o, l, 1, true) << 16;
      } else {
         c->res[l] = arith(c, ins, &o, l, 0, false);
      }
   }
   return BI_SIM_OK;
}

static uint32_t
to_int(double x, enum pan_sim_round mode, bool is_signed, unsigned bits)
{
   if (isnan(x))
      return 0;
   x = mode == PAN_SIM_ROUND_RTE   ? nearbyint(x)
       : mode == PAN_SIM_ROUND_RTP ? ceil(x)
       : mode == PAN_SIM_ROUND_RTN ? floor(x)
                                   : trunc(x);
   double lo = is_signed ? -ldexp(1, bits - 1) : 0;
   double hi = is_signed ? ldexp(1, bits - 1) - 1 : ldexp(1, bits) - 1;
   x = x < lo ? lo : x > hi ? hi : x;
   return is_signed ? (uint32_t)(int32_t)x : (uint32_t)x;
}

/* Conversions from or to a float type; integer-only ones are in ialu. */
static enum bi_sim_result
exec_cvt(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins)
{
   unsigned st = ins->sem->src_type, dt = ins->sem->dst_type;
   enum pan_sim_round mode = rmode(ins, "rtz");
   bi_foreach_lane(c, l)
   {
      uint32_t v = pan_sim_bi_src(c, ins, 0, l);
      int lane = pan_sim_bi_mod(ins, "lane0");
      double x;
      if (st == BI_TYPE_F32)
         x = pan_sim_fp_f32(v);
      else if (st == BI_TYPE_F16)
         x = pan_sim_fp_f16_to_f64((uint16_t)(v >> (lane > 0 ? 16 : 0)));
      else if (st == BI_TYPE_S32)
         x = (int32_t)v;
      else if (st == BI_TYPE_U32)
         x = v;
      else if (st == BI_TYPE_S16 || st == BI_TYPE_U16)
         x = st == BI_TYPE_S16 ? (double)(int16_t)(v >> (16 * (lane > 0)))
                               : (double)(uint16_t)(v >> (16 * (lane > 0)));
      else if (st == BI_TYPE_S8 || st == BI_TYPE_U8)
         x = st == BI_TYPE_S8
                ? (double)(int8_t)(v >> (8 * (lane > 0 ? lane : 0)))
                : (double)(uint8_t)(v >> (8 * (lane > 0 ? lane : 0)));
      else /* v2f32 -> v2f16 */
         x = pan_sim_fp_f32(v);

      if (st == BI_TYPE_V2F32) {
         double y = pan_sim_fp_f32(pan_sim_bi_src(c, ins, 1, l));
         mode = rmode(ins, "none");
         c->res[l] = round_to(ins, x, 0, mode, true) |
                     round_to(ins, y, 0, mode, true) << 16;
      } else if (dt == BI_TYPE_F32) {
         bool int_src = st != BI_TYPE_F16 && st != BI_TYPE_F32;
         c->res[l] =
            pan_sim_fp_round_f64(x, int_src ? rmode(ins, "none") : mode, 8, 23);
      } else {
         c->res[l] = to_int(x, mode, dt == BI_TYPE_S32, 32);
      }
   }
   return BI_SIM_OK;
}

static bool
cvt_is_float(const struct pan_sim_bi_ins *ins)
{
   static const uint8_t ok[][2] = {
      { BI_TYPE_F32, BI_TYPE_S32 }, { BI_TYPE_F32, BI_TYPE_U32 },
      { BI_TYPE_F16, BI_TYPE_S32 }, { BI_TYPE_F16, BI_TYPE_U32 },
      { BI_TYPE_F16, BI_TYPE_F32 }, { BI_TYPE_S32, BI_TYPE_F32 },
      { BI_TYPE_U32, BI_TYPE_F32 }, { BI_TYPE_S16, BI_TYPE_F32 },
      { BI_TYPE_U16, BI_TYPE_F32 }, { BI_TYPE_S8, BI_TYPE_F32 },
      { BI_TYPE_U8, BI_TYPE_F32 },  { BI_TYPE_V2F32, BI_TYPE_V2F16 },
   };
   for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
      if (ins->sem->src_type == ok[i][0] && ins->sem->dst_type == ok[i][1])
         return true;
   }
   return false;
}

enum bi_sim_result
pan_sim_bi_exec_falu(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins)
{
   switch (ins->sem->family) {
   case BI_FAM_FADD:
   case BI_FAM_FMA:
   case BI_FAM_FMIN:
   case BI_FAM_FMAX:
   case BI_FAM_FCMP:
   case BI_FAM_FROUND:
   case BI_FAM_FRCP_APPROX:
   case BI_FAM_FRSQ_APPROX:
      /* Not modelled: the total order, the other derived widen/abs
       * fields. */
      if ((ins->sem->family == BI_FAM_FCMP &&
           pan_sim_bi_mod_is(ins, "cmpf", "total")) ||
          pan_sim_bi_mod(ins, "d6") > 0 ||
          (!is_add_fcmp32(ins) &&
           (pan_sim_bi_mod(ins, "d13") > 0 ||
            (ins->unit && pan_sim_bi_mod(ins, "d9") > 0))))
         return BI_SIM_UNCLAIMED;
      return c ? exec_arith(c, ins) : BI_SIM_OK;
   case BI_FAM_CVT:
      if (!cvt_is_float(ins) || pan_sim_bi_mod_is(ins, "round", "rtna") ||
          pan_sim_bi_mod(ins, "d6") > 0 || pan_sim_bi_mod(ins, "d7") > 0)
         return BI_SIM_UNCLAIMED;
      return c ? exec_cvt(c, ins) : BI_SIM_OK;
   default:
      return BI_SIM_UNCLAIMED;
   }
}
