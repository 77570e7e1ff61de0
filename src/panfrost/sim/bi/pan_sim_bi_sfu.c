/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Special-function families of the Bifrost interpreter: frcp and frsq
 * (correctly rounded; the binary16 forms write the low half and zero the
 * high one, their divzero form is refused), frexpe (plain and .log split), and
 * the steps of the compiler's exp2/log2/sin/cos sequences: fma_rscale, fexp,
 * fadd_lscale, flogd, fsin_table, fcos_table.  The steps are modelled as exact
 * functions rounded once (pan_sim_sfu.h); the hardware's tables are not
 * public.  Denormals are kept, like the rest of the Bifrost interpreter.
 * Also the cube-map steps (../va/pan_sim_cube.h).
 */

#include <stdio.h>
#include <string.h>

#include "../va/pan_sim_cube.h"
#include "../va/pan_sim_sfu.h"
#include "pan_sim_bi_priv.h"

/* What the lane loop needs from the modifiers, worked out once per
 * instruction and remembered in its memo: per source bits 0-1 the half
 * read (0 binary32, 1 h0, 2 h1), bit 2 abs, bit 3 neg; then the flags. */
#define S_HALF 3u
#define S_ABS 4u
#define S_NEG 8u

#define F_F16 (1u << 0)     /* frcp.f16, frsq.f16 */
#define F_LOG (1u << 1)     /* frexpe .log encoding */
#define F_NEG_MUL (1u << 2) /* fma_rscale d16 == 1 */

struct sfu_prep {
   uint8_t src[4];
   uint8_t flags;
   uint8_t clamp; /* fma_rscale d12 */
   uint8_t pad[2];
};

static struct sfu_prep
prep(const struct pan_sim_bi_ins *ins)
{
   struct sfu_prep p = { { 0 } };
   int64_t memo;
   if (pan_sim_bi_memo_get(ins, "sfu", NULL, &memo)) {
      memcpy(&p, &memo, sizeof(p));
      return p;
   }
   bool f16 = pan_sim_bi_mod(ins, "lane0") >= 0;
   for (unsigned s = 0; s < ins->op->nr_srcs && s < 4; s++) {
      const char *w =
         f16 ? pan_sim_bi_mod_str(ins, "lane0", "h0")
             : pan_sim_bi_mod_str(ins, pan_sim_bi_widen_name[s], "none");
      unsigned m = !strcmp(w, "h0") ? 1 : !strcmp(w, "h1") ? 2 : 0;
      if (pan_sim_bi_mod_is(ins, pan_sim_bi_abs_name[s], "abs"))
         m |= S_ABS;
      if (pan_sim_bi_mod_is(ins, pan_sim_bi_neg_name[s], "neg"))
         m |= S_NEG;
      p.src[s] = (uint8_t)m;
   }
   p.flags = (f16 ? F_F16 : 0) | (pan_sim_bi_mod(ins, "sqrt") < 0 ? F_LOG : 0) |
             (pan_sim_bi_mod(ins, "d16") == 1 ? F_NEG_MUL : 0);
   int d12 = pan_sim_bi_mod(ins, "d12");
   p.clamp = d12 > 0 && d12 < 4 ? (uint8_t)d12 : 0;
   memcpy(&memo, &p, sizeof(p));
   pan_sim_bi_memo_put(ins, "sfu", NULL, memo);
   return p;
}

/* Float source s: binary32 or the half its mode picks, then abs and
 * neg. */
static double
fval(const struct sfu_prep *p, const uint32_t *v, unsigned s)
{
   unsigned m = p->src[s];
   double x = (m & S_HALF) ? pan_sim_fp_f16_to_f64((
                                uint16_t)(v[s] >> ((m & S_HALF) == 2 ? 16 : 0)))
                           : pan_sim_fp_f32(v[s]);
   if (m & S_ABS)
      x = fabs(x);
   if (m & S_NEG)
      x = -x;
   return x;
}

static uint32_t
rounded(double x)
{
   return pan_sim_sfu_fma_rscale(x, 1, -0.0, 0, PAN_SIM_ROUND_RTE, "none");
}

static const char *const rscale_clamp[4] = { "none", "clamp_0_inf",
                                             "clamp_m1_1", "clamp_0_1" };

static uint32_t
one(const struct pan_sim_bi_ins *ins, const struct sfu_prep *p,
    const uint32_t *v)
{
   bool f16 = p->flags & F_F16;
   switch (ins->sem->family) {
   case BI_FAM_FRCP:
      /* The binary16 forms: one result in the low half, zero above. */
      if (f16)
         return pan_sim_fp_round_f64(1 / fval(p, v, 0), PAN_SIM_ROUND_RTE, 5,
                                     10);
      return rounded(1 / fval(p, v, 0));
   case BI_FAM_FRSQ:
      if (f16)
         return pan_sim_fp_round_f64(1 / sqrt(fval(p, v, 0)), PAN_SIM_ROUND_RTE,
                                     5, 10);
      return rounded(1 / sqrt(fval(p, v, 0)));
   case BI_FAM_FREXPE: {
      double x = fval(p, v, 0);
      int e = 0;
      if (p->flags & F_LOG) /* the .log encoding */
         pan_sim_sfu_log_split(x, &e);
      else if (isfinite(x))
         frexp(x, &e);
      return (uint32_t)e;
   }
   case BI_FAM_FMA_RSCALE: {
      double prod = fval(p, v, 0) * fval(p, v, 1);
      return pan_sim_sfu_fma_rscale((p->flags & F_NEG_MUL) ? -prod : prod, 1,
                                    fval(p, v, 2), (int32_t)v[3],
                                    PAN_SIM_ROUND_RTE, rscale_clamp[p->clamp]);
   }
   case BI_FAM_FEXP:
      return rounded(pan_sim_sfu_fexp((int32_t)v[0], fval(p, v, 1)));
   case BI_FAM_FADD_LSCALE: {
      int e;
      double b = fval(p, v, 1);
      return pan_sim_sfu_add(fval(p, v, 0),
                             copysign(pan_sim_sfu_log_split(b, &e), b), "none");
   }
   case BI_FAM_FLOGD:
      return rounded(pan_sim_sfu_flogd(fval(p, v, 0)));
   default: /* fsin_table, fcos_table */
      return rounded(
         pan_sim_sfu_sincos_table(v[0], ins->sem->family == BI_FAM_FCOS_TABLE));
   }
}

/* Cube sources: binary32, all negated together when the derived d9 is 1. */
static double
cube_src(const struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
         unsigned s, unsigned l)
{
   double x = pan_sim_fp_f32(pan_sim_bi_src(c, ins, s, l));
   return pan_sim_bi_mod(ins, "d9") == 1 ? -x : x;
}

/* +CUBEFACE2 has no coordinates of its own: it completes the *CUBEFACE1
 * of its tuple, whose result it takes through t, and yields that
 * instruction's face.  Modelled by evaluating the FMA's sources again
 * (the ports and FAU value are still the tuple's). */
static enum bi_sim_result
cubeface2(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins)
{
   struct pan_sim_bi_ins fma = { .word = c->clause->tuples[c->tuple].fma };
   int idx = bi_identify(fma.word, 0);
   if (idx < 0 || bi_sems[idx].family != BI_FAM_CUBEFACE1)
      return pan_sim_bi_fault(c, ins, "the tuple's FMA is not cubeface1");
   fma.index = (unsigned)idx;
   fma.op = &bi_ops[idx];
   fma.sem = &bi_sems[idx];
   bi_foreach_lane(c, l)
   {
      c->res[l] = pan_sim_cube_face_word(cube_src(c, &fma, 0, l),
                                         cube_src(c, &fma, 1, l),
                                         cube_src(c, &fma, 2, l));
   }
   return BI_SIM_OK;
}

static enum bi_sim_result
cube(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins)
{
   unsigned fam = ins->sem->family;
   if (fam == BI_FAM_CUBEFACE2)
      return cubeface2(c, ins);
   bi_foreach_lane(c, l)
   {
      double a = cube_src(c, ins, 0, l), b = cube_src(c, ins, 1, l);
      if (fam == BI_FAM_CUBEFACE1) {
         c->res[l] = rounded(pan_sim_cube_major(a, b, cube_src(c, ins, 2, l)));
         continue;
      }
      unsigned face = pan_sim_cube_face_of(pan_sim_bi_src(c, ins, 2, l));
      if (face > 5)
         return pan_sim_bi_fault(c, ins,
                                 "lane %u: face index %u is no cube "
                                 "face",
                                 l, face);
      c->res[l] =
         rounded(fam == BI_FAM_CUBE_SSEL ? pan_sim_cube_ssel(a, b, face)
                                         : pan_sim_cube_tsel(a, b, face));
   }
   return BI_SIM_OK;
}

static bool
claims(const struct pan_sim_bi_ins *ins)
{
   bool f32 =
      ins->sem->src_type == BI_TYPE_F32 || ins->sem->dst_type == BI_TYPE_F32;
   switch (ins->sem->family) {
   case BI_FAM_FRCP:
   case BI_FAM_FRSQ:
      /* binary16: the form without divzero */
      if (pan_sim_bi_mod(ins, "lane0") >= 0)
         return pan_sim_bi_mod_is(ins, "divzero", "none");
      return f32 && pan_sim_bi_mod_is(ins, "widen0", "none");
   case BI_FAM_FREXPE:
      return ins->sem->src_type == BI_TYPE_F32 &&
             !pan_sim_bi_mod_is(ins, "sqrt", "sqrt");
   case BI_FAM_FMA_RSCALE:
      /* d12 above 3: the .n/.left/.scale16 and rtz forms. */
      return f32 && pan_sim_bi_mod(ins, "d12") >= 0 &&
             pan_sim_bi_mod(ins, "d12") < 4;
   case BI_FAM_FEXP:
   case BI_FAM_FADD_LSCALE:
   case BI_FAM_FLOGD:
      return f32;
   case BI_FAM_FSIN_TABLE:
   case BI_FAM_FCOS_TABLE:
      return pan_sim_bi_mod_is(ins, "offset", "none");
   case BI_FAM_CUBEFACE1:
   case BI_FAM_CUBE_SSEL:
   case BI_FAM_CUBE_TSEL:
      return true;
   case BI_FAM_CUBEFACE2:
      /* Its source must be t, this tuple's FMA result. */
      return ((ins->word >> ins->op->srcs[0]) & 7) == 3;
   default:
      return false;
   }
}

enum bi_sim_result
pan_sim_bi_exec_sfu(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins)
{
   if (!claims(ins))
      return BI_SIM_UNCLAIMED;
   if (!c)
      return BI_SIM_OK;
   switch (ins->sem->family) {
   case BI_FAM_CUBEFACE1:
   case BI_FAM_CUBEFACE2:
   case BI_FAM_CUBE_SSEL:
   case BI_FAM_CUBE_TSEL:
      return cube(c, ins);
   default:
      break;
   }
   struct sfu_prep p = prep(ins);
   unsigned n = ins->op->nr_srcs < 4 ? ins->op->nr_srcs : 4;
   struct bi_src_ref src[4];
   for (unsigned i = 0; i < n; i++)
      src[i] = pan_sim_bi_src_ref(c, ins, i);
   bi_foreach_lane(c, l)
   {
      uint32_t v[4] = { 0 };
      for (unsigned i = 0; i < n; i++)
         v[i] = bi_src_at(src[i], l);
      c->res[l] = one(ins, &p, v);
   }
   return BI_SIM_OK;
}
