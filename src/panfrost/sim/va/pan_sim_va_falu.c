/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Floating-point ALU families: fadd, fmin, fmax, fma, fadd_imm, ldexp,
 * fround, frexpm/frexpe, frcp, frsq.
 *
 * binary32 arithmetic uses the host's float operations (round to nearest
 * even, IEEE, no flushing); binary16 lanes are computed exactly in double
 * and rounded once.  NaN results are the canonical quiet NaN.
 */

#include <math.h>
#include <string.h>

#include "pan_sim_fp.h"
#include "pan_sim_sfu.h"
#include "pan_sim_va_priv.h"

/* A binary32 source after its widening swizzle and abs/neg modifiers. */
static float
src_f32(const struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
        unsigned s, unsigned lane)
{
   uint32_t v = pan_sim_va_src32(c, ins, s, lane);
   const char *swz = pan_sim_va_src_mod_str(ins, s, "swz", "none");

   if (!strcmp(swz, "h0") || !strcmp(swz, "h1")) {
      uint16_t h = v >> (swz[1] == '1' ? 16 : 0);
      v = pan_sim_fp_f16_to_f32(c->cfg->flush_f16 ? pan_sim_fp_ftz16(h) : h);
   }
   if (c->cfg->flush_f32)
      v = pan_sim_fp_ftz32(v);
   if (pan_sim_va_src_mod(ins, s, "abs") == 1)
      v &= 0x7fffffffu;
   if (pan_sim_va_src_mod(ins, s, "neg") == 1)
      v ^= 0x80000000u;
   return pan_sim_fp_f32(v);
}

/* Lane k of a v2f16 source after its swizzle and abs/neg, as a double. */
static double
src_f16(const struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
        unsigned s, unsigned lane, unsigned k)
{
   unsigned w;
   uint16_t h =
      pan_sim_va_element(pan_sim_va_src32(c, ins, s, lane), 16, k,
                         pan_sim_va_src_mod_str(ins, s, "swz", NULL), &w);
   if (c->cfg->flush_f16)
      h = pan_sim_fp_ftz16(h);
   if (pan_sim_va_src_mod(ins, s, "abs") == 1)
      h &= 0x7fff;
   if (pan_sim_va_src_mod(ins, s, "neg") == 1)
      h ^= 0x8000;
   return pan_sim_fp_f16_to_f64(h);
}

static uint32_t
out_f32(const struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
        float r)
{
   r = pan_sim_fp_clamp(r, pan_sim_va_mod_str(ins, "clamp", "none"));
   uint32_t u = isnan(r) ? PAN_SIM_NAN32 : pan_sim_fp_u32(r);
   return c->cfg->flush_f32 ? pan_sim_fp_ftz32(u) : u;
}

static uint16_t
out_f16(const struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
        uint16_t h)
{
   const char *clamp = pan_sim_va_mod_str(ins, "clamp", "none");

   /* Clamping picks a representable value, so re-rounding is exact. */
   if (strcmp(clamp, "none"))
      h =
         pan_sim_fp_round_f64(pan_sim_fp_clamp(pan_sim_fp_f16_to_f64(h), clamp),
                              PAN_SIM_ROUND_RTE, 5, 10);
   return c->cfg->flush_f16 ? pan_sim_fp_ftz16(h) : h;
}

double
pan_sim_va_fsrc(const struct pan_sim_va_ctx *c,
                const struct pan_sim_va_ins *ins, unsigned s, unsigned lane,
                unsigned k, unsigned bits)
{
   return bits == 16 ? src_f16(c, ins, s, lane, k) : src_f32(c, ins, s, lane);
}

/* IEEE minNum/maxNum with -0 < +0. */
static double
fminmax(double a, double b, bool max)
{
   if (isnan(a))
      return b;
   if (isnan(b))
      return a;
   if (a == b && a == 0)
      return (signbit(a) != max) ? a : b;
   return (a < b) != max ? a : b;
}

static double
fround(double x, enum pan_sim_round mode)
{
   switch (mode) {
   case PAN_SIM_ROUND_RTE:
      return nearbyint(x); /* the host stays in round-to-nearest-even */
   case PAN_SIM_ROUND_RTP:
      return ceil(x);
   case PAN_SIM_ROUND_RTN:
      return floor(x);
   default:
      return trunc(x);
   }
}

/* a * b + c in binary16, rounded once. */
static uint16_t
fma16(double a, double b, double c)
{
   double p = a * b; /* exact: 22 significant bits */
   double s = p + c;
   if (!isfinite(s))
      return pan_sim_fp_round_f64(s, PAN_SIM_ROUND_RTE, 5, 10);
   double bb = s - p;
   double tail = (p - (s - bb)) + (c - bb);
   return pan_sim_fp_round_f64_tail(s, tail, PAN_SIM_ROUND_RTE, 5, 10);
}

static uint16_t
binary16(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
         unsigned lane, unsigned k)
{
   double a = src_f16(c, ins, 0, lane, k);

   switch (ins->sem->family) {
   case VA_FAM_FADD:
      return pan_sim_fp_round_f64(a + src_f16(c, ins, 1, lane, k), PAN_SIM_ROUND_RTE,
                                  5, 10);
   case VA_FAM_FMIN:
   case VA_FAM_FMAX:
      return pan_sim_fp_round_f64(fminmax(a, src_f16(c, ins, 1, lane, k),
                                          ins->sem->family == VA_FAM_FMAX),
                                  PAN_SIM_ROUND_RTE, 5, 10);
   case VA_FAM_FMA:
      return fma16(a, src_f16(c, ins, 1, lane, k), src_f16(c, ins, 2, lane, k));
   case VA_FAM_FADD_IMM: {
      uint32_t imm = pan_sim_va_imm(ins, "constant");
      double b = pan_sim_fp_f16_to_f64(imm >> (16 * k));
      return pan_sim_fp_round_f64(a + b, PAN_SIM_ROUND_RTE, 5, 10);
   }
   default: /* fround */
      return pan_sim_fp_round_f64(
         fround(a,
                pan_sim_fp_round_mode(pan_sim_va_mod_str(ins, "round", "rte"))),
         PAN_SIM_ROUND_RTE, 5, 10);
   }
}

static enum va_sim_result
exec_v2f16(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins)
{
   foreach_lane(c, l)
   {
      uint32_t r = 0;
      for (unsigned k = 0; k < 2; ++k)
         r |= (uint32_t)out_f16(c, ins, binary16(c, ins, l, k)) << (16 * k);
      pan_sim_va_dest32(c, ins, l, r);
   }
   return VA_SIM_OK;
}

/* frexp with the mantissa in [0.5, 1), or with .log in [0.75, 1.5) (the
 * split of the log2 sequence, pan_sim_sfu.h); the sign stays with it. */
static float
frexp_part(const struct pan_sim_va_ins *ins, float x, bool mantissa)
{
   int e = 0;
   float m;

   if (pan_sim_va_mod(ins, "log") == 1)
      m = copysignf((float)pan_sim_sfu_log_split(x, &e), x);
   else
      m = isfinite(x) ? frexpf(x, &e) : x;
   return mantissa ? m : (float)e;
}

static uint32_t
binary32(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
         unsigned lane)
{
   float a = src_f32(c, ins, 0, lane);
   enum pan_sim_round mode =
      pan_sim_fp_round_mode(pan_sim_va_mod_str(ins, "round", "rte"));

   switch (ins->sem->family) {
   case VA_FAM_FADD:
      return out_f32(c, ins, a + src_f32(c, ins, 1, lane));
   case VA_FAM_FMIN:
   case VA_FAM_FMAX:
      return out_f32(
         c, ins,
         fminmax(a, src_f32(c, ins, 1, lane), ins->sem->family == VA_FAM_FMAX));
   case VA_FAM_FMA:
      return out_f32(
         c, ins, fmaf(a, src_f32(c, ins, 1, lane), src_f32(c, ins, 2, lane)));
   case VA_FAM_FADD_IMM:
      return out_f32(c, ins, a + pan_sim_fp_f32(pan_sim_va_imm(ins, "constant")));
   case VA_FAM_FROUND:
      return out_f32(c, ins, fround(a, mode));
   case VA_FAM_LDEXP: {
      int32_t n = pan_sim_va_src32(c, ins, 1, lane);
      n = n < -400 ? -400 : n > 400 ? 400 : n;
      uint32_t u = pan_sim_fp_round_f64(ldexp(a, n), mode, 8, 23);
      return out_f32(c, ins, isnan(a) ? NAN : pan_sim_fp_f32(u));
   }
   case VA_FAM_FRCP:
      return out_f32(c, ins, 1.0f / a);
   case VA_FAM_FRSQ:
      return out_f32(c, ins,
                     pan_sim_fp_f32(pan_sim_fp_round_f64(1.0 / sqrt((double)a),
                                                 PAN_SIM_ROUND_RTE, 8, 23)));
   case VA_FAM_FREXPM:
      return out_f32(c, ins, frexp_part(ins, a, true));
   default: /* frexpe: the exponent as an integer */
      return (uint32_t)(int32_t)frexp_part(ins, a, false);
   }
}

enum va_sim_result
pan_sim_va_exec_falu(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins)
{
   unsigned t = ins->sem->dtype;

   switch (ins->sem->family) {
   case VA_FAM_FADD:
   case VA_FAM_FMIN:
   case VA_FAM_FMAX:
   case VA_FAM_FMA:
   case VA_FAM_FADD_IMM:
   case VA_FAM_FROUND:
      break;
   case VA_FAM_LDEXP:
   case VA_FAM_FREXPM:
   case VA_FAM_FREXPE:
      if (t != VA_TYPE_F32)
         return pan_sim_va_refuse(c, ins, "binary16 exponent lanes");
      if (pan_sim_va_mod(ins, "sqrt") == 1)
         return pan_sim_va_refuse(c, ins, ".sqrt form");
      break;
   case VA_FAM_FRCP:
   case VA_FAM_FRSQ:
      if (t != VA_TYPE_F32) {
         /* One binary16 result in the low half, zero in the high half. */
         foreach_lane(c, l)
         {
            double a = src_f16(c, ins, 0, l, 0);
            double r = ins->sem->family == VA_FAM_FRSQ ? 1.0 / sqrt(a) : 1.0 / a;
            pan_sim_va_dest32(
               c, ins, l,
               out_f16(c, ins, pan_sim_fp_round_f64(r, PAN_SIM_ROUND_RTE, 5, 10)));
         }
         return VA_SIM_OK;
      }
      break;
   default:
      return VA_SIM_UNCLAIMED;
   }

   if (t == VA_TYPE_V2F16)
      return exec_v2f16(c, ins);
   foreach_lane(c, l) pan_sim_va_dest32(c, ins, l, binary32(c, ins, l));
   return VA_SIM_OK;
}
