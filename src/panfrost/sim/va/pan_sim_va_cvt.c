/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The cvt family: every "X_to_Y" conversion, driven by the source and
 * destination types of the semantic table.  Integer to float rounds by
 * the instruction's mode; float to integer rounds by the mode, saturates
 * to the destination range and turns NaN into 0.
 */

#include <math.h>
#include <string.h>

#include "pan_sim_fp.h"
#include "pan_sim_va_priv.h"

/* Element k of the conversion's input as a double (exact for every
 * input type), after the swizzle/lane selection and abs/neg. */
static double
input(const struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
      unsigned lane, unsigned k)
{
   const struct va_type_info *st = &va_types[ins->sem->stype];
   /* v2f32_to_v2f16 reads one binary32 per source. */
   unsigned s = st->bits == 32 && st->lanes == 2 ? k : 0;
   uint32_t raw = pan_sim_va_src32(c, ins, s, lane);
   const char *swz = pan_sim_va_src_mod_str(ins, s, "swz", NULL);
   if (!swz)
      swz = pan_sim_va_src_mod_str(ins, s, "lane", NULL);
   unsigned w, kk = st->lanes == 2 && st->bits != 32 ? k : 0;
   uint64_t v = pan_sim_va_element(raw, st->bits, kk, swz, &w);
   double x;

   if (st->kind == 'f') {
      if (w == 16) {
         if (c->cfg->flush_f16)
            v = pan_sim_fp_ftz16(v);
         x = pan_sim_fp_f16_to_f64(v);
      } else {
         if (c->cfg->flush_f32)
            v = pan_sim_fp_ftz32(v);
         x = pan_sim_fp_f32(v);
      }
      if (pan_sim_va_src_mod(ins, s, "abs") == 1)
         x = fabs(x);
      if (pan_sim_va_src_mod(ins, s, "neg") == 1)
         x = -x;
      return x;
   }
   return st->kind == 's' ? (double)(int64_t)va_sim_sext(v, w) : (double)v;
}

static double
round_int(double x, enum pan_sim_round mode)
{
   switch (mode) {
   case PAN_SIM_ROUND_RTE:
      return nearbyint(x);
   case PAN_SIM_ROUND_RTP:
      return ceil(x);
   case PAN_SIM_ROUND_RTN:
      return floor(x);
   default:
      return trunc(x);
   }
}

static uint32_t
output(const struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
       double x, enum pan_sim_round mode)
{
   const struct va_type_info *dt = &va_types[ins->sem->dtype];

   if (dt->kind == 'f') {
      uint32_t r;
      if (dt->bits == 16) {
         r = pan_sim_fp_round_f64(x, mode, 5, 10);
         const char *clamp = pan_sim_va_mod_str(ins, "clamp", "none");
         if (strcmp(clamp, "none"))
            r = pan_sim_fp_round_f64(
               pan_sim_fp_clamp(pan_sim_fp_f16_to_f64(r), clamp), PAN_SIM_ROUND_RTE,
               5, 10);
         return c->cfg->flush_f16 ? pan_sim_fp_ftz16(r) : r;
      }
      r = pan_sim_fp_round_f64(x, mode, 8, 23);
      return c->cfg->flush_f32 ? pan_sim_fp_ftz32(r) : r;
   }
   if (isnan(x))
      return 0;
   x = round_int(x, mode);
   double lo = dt->kind == 's' ? -ldexp(1, dt->bits - 1) : 0;
   double hi =
      dt->kind == 's' ? ldexp(1, dt->bits - 1) - 1 : ldexp(1, dt->bits) - 1;
   x = x < lo ? lo : x > hi ? hi : x;
   return (uint32_t)(int64_t)x & (uint32_t)va_sim_mask(dt->bits);
}

enum va_sim_result
pan_sim_va_exec_cvt(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins)
{
   if (ins->sem->family != VA_FAM_CVT)
      return VA_SIM_UNCLAIMED;

   const struct va_type_info *dt = &va_types[ins->sem->dtype];
   enum pan_sim_round mode =
      pan_sim_fp_round_mode(pan_sim_va_mod_str(ins, "round", "rte"));

   foreach_lane(c, lane)
   {
      uint32_t r = 0;
      for (unsigned k = 0; k < dt->lanes; ++k)
         r |= output(c, ins, input(c, ins, lane, k), mode) << (k * dt->bits);
      pan_sim_va_dest32(c, ins, lane, r);
   }
   return VA_SIM_OK;
}
