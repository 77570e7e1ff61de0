/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Compare and select families: csel, fcmp_or/fcmp_and, icmp_or/icmp_and.
 * Float compares are IEEE: every ordered condition is false on NaN and
 * ne is true on NaN.
 */

#include <math.h>
#include <string.h>

#include "pan_sim_va_priv.h"

/* -1: condition not modelled for this kind of operand. */
static int
compare_f(double a, double b, const char *cmp)
{
   if (!strcmp(cmp, "eq"))
      return a == b;
   if (!strcmp(cmp, "ne"))
      return a != b;
   if (!strcmp(cmp, "gt"))
      return a > b;
   if (!strcmp(cmp, "ge"))
      return a >= b;
   if (!strcmp(cmp, "lt"))
      return a < b;
   if (!strcmp(cmp, "le"))
      return a <= b;
   if (!strcmp(cmp, "gtlt"))
      return a < b || a > b;
   return -1;
}

static int
compare_i(uint64_t a, uint64_t b, unsigned bits, bool is_signed,
          const char *cmp)
{
   if (!strcmp(cmp, "gtlt") || !strcmp(cmp, "total"))
      return -1;
   if (is_signed)
      return compare_f((double)(int64_t)va_sim_sext(a, bits),
                       (double)(int64_t)va_sim_sext(b, bits), cmp);
   return compare_f((double)a, (double)b, cmp); /* lanes <= 32 bits: exact */
}

struct cmp_lanes {
   unsigned bits, count;
   char kind;
};

static uint64_t
int_elem(const struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
         unsigned s, unsigned lane, unsigned k, struct cmp_lanes l)
{
   unsigned w;
   uint64_t v =
      pan_sim_va_element(pan_sim_va_src32(c, ins, s, lane), l.bits, k,
                         pan_sim_va_src_mod_str(ins, s, "swz", NULL), &w);
   return l.kind == 's' ? va_sim_sext(v, w) & va_sim_mask(l.bits) : v;
}

/* Condition of lane element k: 0/1, or -1 when refused. */
static int
condition(const struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
          unsigned lane, unsigned k, struct cmp_lanes l)
{
   const char *cmp = pan_sim_va_mod_str(ins, "cmp", "eq");

   if (l.kind == 'f')
      return compare_f(pan_sim_va_fsrc(c, ins, 0, lane, k, l.bits),
                       pan_sim_va_fsrc(c, ins, 1, lane, k, l.bits), cmp);
   return compare_i(int_elem(c, ins, 0, lane, k, l),
                    int_elem(c, ins, 1, lane, k, l), l.bits, l.kind == 's',
                    cmp);
}

static uint32_t
true_value(const char *result, unsigned bits)
{
   if (!strcmp(result, "i1"))
      return 1;
   if (!strcmp(result, "m1"))
      return va_sim_mask(bits);
   return bits == 16 ? 0x3c00 : 0x3f800000; /* f1 */
}

enum va_sim_result
pan_sim_va_exec_cmp(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins)
{
   unsigned fam = ins->sem->family;
   const struct va_type_info *t = &va_types[ins->sem->dtype];
   struct cmp_lanes l = { t->bits, t->lanes, t->kind };
   bool csel = fam == VA_FAM_CSEL;
   bool is_or = fam == VA_FAM_FCMP_OR || fam == VA_FAM_ICMP_OR;
   const char *result = pan_sim_va_mod_str(ins, "result", "i1");
   uint32_t out[PAN_SIM_VA_LANES] = { 0 };

   if (!csel && !is_or && fam != VA_FAM_FCMP_AND && fam != VA_FAM_ICMP_AND)
      return VA_SIM_UNCLAIMED;
   if (!strcmp(result, "u1"))
      return pan_sim_va_refuse(c, ins, "64-bit compare halves (.u1)");
   if (!strcmp(result, "f1") && l.bits == 8)
      return pan_sim_va_refuse(c, ins, ".f1 on 8-bit lanes");

   foreach_lane(c, lane)
   {
      for (unsigned k = 0; k < l.count; ++k) {
         int cond = condition(c, ins, lane, k, l);
         if (cond < 0)
            return pan_sim_va_refuse(c, ins, "comparison on this type");
         uint32_t v;
         if (csel) {
            v = pan_sim_va_src32(c, ins, cond ? 2 : 3, lane) >> (k * l.bits);
         } else {
            bool other = (pan_sim_va_src32(c, ins, 2, lane) >> (k * l.bits)) &
                         va_sim_mask(l.bits);
            cond = is_or ? (cond || other) : (cond && other);
            v = cond ? true_value(result, l.bits) : 0;
         }
         out[lane] |= (v & (uint32_t)va_sim_mask(l.bits)) << (k * l.bits);
      }
   }
   foreach_lane(c, lane) pan_sim_va_dest32(c, ins, lane, out[lane]);
   return VA_SIM_OK;
}
