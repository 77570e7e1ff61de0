/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The Midgard ALU units (vmul, sadd, vadd, smul, lut): operand fetch with
 * swizzles, half selection, widening and modifiers, the opcodes, and the
 * output stage (clamps, integer half/saturation, shrinking, write masks).
 * Lane values travel as raw bits of the op's lane width.
 */

#include "pan_sim_mid_priv.h"

#include <math.h>
#include <string.h>

#include "pan_sim_fp.h"
#include "pan_sim_wide.h"

typedef struct pan_wide wide;

struct alu {
   const struct pan_mid_instr *I;
   const char *name; /* without rounding suffix */
   char base[32];
   enum pan_sim_round round;
   bool is_int, scalar;
   unsigned bits, lanes;
};

/* --- Raw lane access ---------------------------------------------------- */

static uint64_t
elt_get(const uint32_t *r, unsigned bits, unsigned i)
{
   const uint8_t *p = (const uint8_t *)r;
   uint64_t v = 0;
   memcpy(&v, p + i * bits / 8, bits / 8); /* little-endian host */
   return v;
}

static void
elt_set(uint32_t *r, unsigned bits, unsigned i, uint64_t v)
{
   memcpy((uint8_t *)r + i * bits / 8, &v, bits / 8);
}

static uint64_t
mask_of(unsigned bits)
{
   return bits == 64 ? ~0ull : (1ull << bits) - 1;
}

static int64_t
sext(uint64_t v, unsigned bits)
{
   return bits == 64
             ? (int64_t)v
             : (int64_t)((v ^ (1ull << (bits - 1))) - (1ull << (bits - 1)));
}

/* --- Floats --------------------------------------------------------------- */

static double
to_double(uint64_t raw, unsigned bits)
{
   if (bits == 16)
      return pan_sim_fp_f16_to_f64(raw);
   if (bits == 32)
      return pan_sim_fp_f32(raw);
   double d;
   memcpy(&d, &raw, 8);
   return d;
}

/* x + tail (tail below half an ulp of x) rounded to a lane width. */
static uint64_t
from_double_tail(double x, double tail, unsigned bits, enum pan_sim_round rnd)
{
   if (bits == 16)
      return pan_sim_fp_round_f64_tail(x, tail, rnd, 5, 10);
   if (bits == 32)
      return pan_sim_fp_round_f64_tail(x, tail, rnd, 8, 23);
   if (isnan(x))
      return 0x7ff8000000000000ull;
   uint64_t u;
   memcpy(&u, &x, 8);
   return u;
}

static uint64_t
from_double(double x, unsigned bits, enum pan_sim_round rnd)
{
   return from_double_tail(x, 0, bits, rnd);
}

/* Float widening of a half-size lane. */
static uint64_t
widen_float(uint64_t raw, unsigned from)
{
   if (from == 16)
      return pan_sim_fp_f16_to_f32(raw);
   double d = pan_sim_fp_f32(raw);
   uint64_t u;
   memcpy(&u, &d, 8);
   return u;
}

static uint64_t
float_mod(uint64_t raw, unsigned bits, unsigned mod)
{
   uint64_t sign = 1ull << (bits - 1);
   if (mod & 1)
      raw &= ~sign;
   if (mod & 2)
      raw ^= sign;
   return raw;
}

/* Integer widening by the source's int modifier: sext, zext, rep, lsl. */
static uint64_t
widen_int(uint64_t v, unsigned from, unsigned mod)
{
   switch (mod) {
   case 0:
      return sext(v, from) & mask_of(2 * from);
   case 1:
      return v;
   case 2:
      return v | v << from;
   default:
      return v << from;
   }
}

/* --- Operand fetch -------------------------------------------------------- */

static const uint32_t *
src_reg(struct mid_exec *x, unsigned reg)
{
   if (reg == MID_REG_CONST) {
      if (!x->b->has_consts) {
         mid_fault(x->t, "ALU source r26 in a bundle without constants");
         return NULL;
      }
      return x->b->consts;
   }
   return mid_read_reg(x, reg);
}

static const char *const expand_names[] = {
   "none",   "replo",  "rephi",       "swap",
   "widelo", "widehi", "widelo_swap", "widehi_swap",
};

/* A vector source: lanes of the op's width, modifiers applied. */
static bool
read_vector_src(struct mid_exec *x, const struct alu *a, char s, uint64_t *out)
{
   const struct pan_mid_instr *I = a->I;
   char n[8];
   unsigned bits = a->bits;

   if (s == 'b' && mid_f(I, "bimm")) {
      unsigned imm =
         mid_f(I, "b") << 11 | mid_f(I, "bexp") << 8 | mid_f(I, "bswz");
      uint64_t v;
      if (a->is_int)
         v = (uint64_t)sext(imm, 16) & mask_of(bits);
      else if (bits == 16)
         v = imm;
      else if (bits == 32)
         v = pan_sim_fp_f16_to_f32(imm);
      else if (bits == 64)
         v = widen_float(pan_sim_fp_f16_to_f32(imm), 32);
      else
         return mid_fault(x->t, "%s: 8-bit float immediate", a->name);
      for (unsigned i = 0; i < a->lanes; i++)
         out[i] = v;
      return true;
   }

   const uint32_t *r = src_reg(x, mid_f(I, s == 'a' ? "a" : "b"));
   if (!r)
      return false;
   snprintf(n, sizeof(n), "%cswz", s);
   unsigned swz = mid_f(I, n);
   snprintf(n, sizeof(n), "%cexp", s);
   unsigned exp = mid_f(I, n);
   snprintf(n, sizeof(n), "%cmod", s);
   unsigned mod = mid_f(I, n);
   bool widen = exp >= 4;

   if ((exp >= 1 && exp <= 3 && bits > 16) || (widen && bits == 8) ||
       (exp >= 6 && bits != 16))
      return mid_fault(x->t, "%s: half mode %s with %u-bit lanes", a->name,
                       expand_names[exp], bits);

   for (unsigned i = 0; i < a->lanes; i++) {
      unsigned sel = (swz >> (2 * (i % 4))) & 3;
      uint64_t v;
      if (widen) {
         /* Half-size elements: which half each group of lanes reads. */
         unsigned e = bits / 2, base = 128 / e / 2;
         unsigned first[] = { 0, base, base / 2, base + base / 2 };
         unsigned second[] = { base / 2, base + base / 2, 0, base };
         unsigned k = exp - 4;
         unsigned off = (bits == 16 && i >= 4) ? second[k] : first[k];
         v = elt_get(r, e, (sel + off) % (128 / e));
         v = a->is_int ? widen_int(v, e, mod) : widen_float(v, e);
      } else if (bits == 64) {
         unsigned lo = (swz >> (4 * i)) & 3, hi = (swz >> (4 * i + 2)) & 3;
         v = elt_get(r, 32, lo) | elt_get(r, 32, hi) << 32;
      } else if (bits == 32) {
         v = elt_get(r, 32, sel);
      } else {
         /* 8/16-bit: each 64-bit half applies the swizzle to a half. */
         unsigned per = a->lanes / 2, half = i / per;
         static const unsigned offs[4][2] = {
            { 0, 1 }, { 0, 0 }, { 1, 1 }, { 1, 0 }
         };
         unsigned off = offs[exp][half] * per;
         if (bits == 16)
            v = elt_get(r, 16, sel + off);
         else
            v = elt_get(r, 8,
                        ((swz >> (2 * ((i % 8) / 2))) & 3) * 2 + (i & 1) + off);
      }
      if (!a->is_int)
         v = float_mod(v, bits, mod);
      out[i] = v;
   }
   return true;
}

static bool
read_scalar_src(struct mid_exec *x, const struct alu *a, char s, uint64_t *out)
{
   const struct pan_mid_instr *I = a->I;
   char n[8];

   if (s == 'b' && mid_f(I, "bimm")) {
      unsigned imm = mid_f(I, "b") << 11 | mid_f(I, "bmod") << 9 |
                     mid_f(I, "bfull") << 8 | mid_f(I, "bcomp") << 5 |
                     mid_f(I, "bhi");
      *out = a->is_int ? (uint32_t)sext(imm, 16) : pan_sim_fp_f16_to_f32(imm);
      return true;
   }
   const uint32_t *r = src_reg(x, mid_f(I, s == 'a' ? "a" : "b"));
   if (!r)
      return false;
   snprintf(n, sizeof(n), "%cfull", s);
   bool full = mid_f(I, n);
   snprintf(n, sizeof(n), "%ccomp", s);
   unsigned comp = mid_f(I, n);
   snprintf(n, sizeof(n), "%cmod", s);
   unsigned mod = mid_f(I, n);
   uint64_t v;
   if (full) {
      v = elt_get(r, 32, comp >> 1);
   } else {
      v = elt_get(r, 16, comp);
      v = a->is_int ? widen_int(v, 16, mod) : widen_float(v, 16);
   }
   *out = a->is_int ? v : float_mod(v, 32, mod);
   return true;
}

/* --- Opcodes -------------------------------------------------------------- */

/* One lane's result: a float (rounded by the output stage) or an integer
 * at full precision (the output stage keeps a half or saturates). */
struct res {
   bool is_float;
   double f, tail;
   wide i;
};

static const char *const refused[][2] = {
   { "ffma", "the third operand's encoding is unknown" },
   { "fdot3r", "its semantics are unknown" },
   { "freduce", "its semantics are unknown" },
   { "iwmul", "widening multiplies are not simulated" },
   { "uwmul", "widening multiplies are not simulated" },
   { "iuwmul", "widening multiplies are not simulated" },
   { "ichoose", "its semantics are unknown" },
   { "fatan2_pt1", "the atan2 steps are not simulated" },
   { "fatan2_pt2", "the atan2 steps are not simulated" },
   { "fpow_pt1", "the pow steps are not simulated" },
   { "fpown_pt1", "the pow steps are not simulated" },
   { "fpowr_pt1", "the pow steps are not simulated" },
};

static void
strip_round(const char *name, char *base, size_t size, enum pan_sim_round *r)
{
   static const char *const sfx[] = { "_rtz", "_rtn", "_rtp" };
   static const enum pan_sim_round modes[] = { PAN_SIM_ROUND_RTZ,
                                               PAN_SIM_ROUND_RTN,
                                               PAN_SIM_ROUND_RTP };
   snprintf(base, size, "%s", name);
   *r = PAN_SIM_ROUND_RTE;
   size_t n = strlen(base);
   for (unsigned i = 0; i < 3; i++) {
      if (n > 4 && !strcmp(base + n - 4, sfx[i])) {
         base[n - 4] = '\0';
         *r = modes[i];
      }
   }
}

const char *
pan_sim_mid_alu_refusal(const char *name)
{
   char base[32];
   enum pan_sim_round r;
   strip_round(name, base, sizeof(base), &r);
   for (unsigned i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
      if (!strcmp(refused[i][0], base))
         return refused[i][1];
   }
   return NULL;
}

static bool
is(const struct alu *a, const char *n)
{
   return !strcmp(a->base, n);
}

static wide
ival(uint64_t v, unsigned bits, bool sign)
{
   return sign ? pan_wide_i64(sext(v, bits)) : pan_wide_u64(v & mask_of(bits));
}

/* Two-sum of a and b, exact in double for 16/32-bit inputs. */
static struct res
fsum(double a, double b)
{
   double s = a + b, bb = s - a;
   double t = (a - (s - bb)) + (b - bb);
   return (struct res){ .is_float = true, .f = s, .tail = isfinite(s) ? t : 0 };
}

static struct res
fres(double f)
{
   return (struct res){ .is_float = true, .f = f };
}

static struct res
ires(wide i)
{
   return (struct res){ .i = i };
}

static struct res
iresu(uint64_t i)
{
   return ires(pan_wide_u64(i));
}

/* Comparisons write all ones or zero. */
static struct res
iresb(bool b)
{
   return ires(pan_wide_i64(b ? -1 : 0));
}

static double
minmax(double a, double b, bool max, bool nan_wins)
{
   if (isnan(a) || isnan(b))
      return nan_wins ? NAN : isnan(a) ? b : a;
   if (a == b) /* order -0 below +0 */
      return max ? (signbit(a) ? b : a) : (signbit(a) ? a : b);
   return (a < b) != max ? a : b;
}

static double
round_by(double v, enum pan_sim_round r)
{
   switch (r) {
   case PAN_SIM_ROUND_RTZ:
      return trunc(v);
   case PAN_SIM_ROUND_RTN:
      return floor(v);
   case PAN_SIM_ROUND_RTP:
      return ceil(v);
   default:
      return nearbyint(v); /* default environment: ties to even */
   }
}

static double
sinpi(double v)
{
   double r = fmod(v, 2.0);
   if (r == 0 || r == 1 || r == -1)
      return copysign(0.0, v);
   return sin(M_PI * r);
}

static double
cospi(double v)
{
   double r = fmod(fabs(v), 2.0);
   if (r == 0.5 || r == 1.5)
      return 0.0;
   return cos(M_PI * r);
}

/* Integer lane to double + tail (exact for 64-bit values too). */
static struct res
int_to_float(wide v)
{
   double hi = pan_wide_to_double(pan_wide_sar(v, 32)) * 4294967296.0;
   double lo = (double)(uint32_t)v.lo;
   return fsum(hi, lo);
}

/* Evaluate lane i; false when the op is not handled (refused). */
static bool
eval(const struct alu *a, const uint64_t *A, const uint64_t *B,
     const uint64_t *cond, unsigned i, struct res *o)
{
   unsigned bits = a->bits;
   uint64_t x = A[i], y = B[i];
   const char *n = a->base;

   if (!a->is_int && n[0] == 'f' && bits == 8 && strcmp(n, "f2i") &&
       strcmp(n, "f2u"))
      return false;

   double fx = to_double(x, bits), fy = to_double(y, bits);
   bool sx = !(n[0] == 'u');

   if (is(a, "fadd")) {
      *o = fsum(fx, fy);
   } else if (is(a, "fmul")) {
      *o = fres(fx * fy); /* exact in double for 16/32-bit lanes */
   } else if (!strncmp(n, "fmin", 4) || !strncmp(n, "fmax", 4) ||
              !strncmp(n, "fabsmin", 7) || !strncmp(n, "fabsmax", 7)) {
      bool abs = n[1] == 'a', max = strstr(n, "max") != NULL;
      if (abs) {
         fx = fabs(fx);
         fy = fabs(fy);
      }
      *o = fres(minmax(fx, fy, max, strstr(n, "_nan") != NULL));
   } else if (is(a, "fmov")) {
      *o = fres(fy);
   } else if (is(a, "froundeven")) {
      *o = fres(nearbyint(fx));
   } else if (is(a, "ftrunc")) {
      *o = fres(trunc(fx));
   } else if (is(a, "ffloor")) {
      *o = fres(floor(fx));
   } else if (is(a, "fceil")) {
      *o = fres(ceil(fx));
   } else if (is(a, "froundaway")) {
      *o = fres(round(fx));
   } else if (is(a, "fdot3") || is(a, "fdot4")) {
      unsigned k = is(a, "fdot3") ? 3 : 4;
      double s = 0;
      for (unsigned j = 0; j < k; j++)
         s += to_double(A[j], bits) * to_double(B[j], bits);
      *o = fres(s);
   } else if (is(a, "frcp")) {
      *o = fres(1.0 / fx);
   } else if (is(a, "frsqrt")) {
      *o = fres(1.0 / sqrt(fx));
   } else if (is(a, "fsqrt")) {
      *o = fres(sqrt(fx));
   } else if (is(a, "fexp2")) {
      *o = fres(exp2(fx));
   } else if (is(a, "flog2")) {
      *o = fres(log2(fx));
   } else if (is(a, "fsinpi")) {
      *o = fres(sinpi(fx));
   } else if (is(a, "fcospi")) {
      *o = fres(cospi(fx));
   } else if (is(a, "feq") || is(a, "fne") || is(a, "flt") || is(a, "fle")) {
      bool r = is(a, "feq")   ? fx == fy
               : is(a, "fne") ? fx != fy
               : is(a, "flt") ? fx < fy
                              : fx <= fy;
      *o = iresb(r);
   } else if (!strncmp(n, "fball_", 6) || !strncmp(n, "fbany_", 6) ||
              !strncmp(n, "iball_", 6) || !strncmp(n, "ibany_", 6) ||
              !strncmp(n, "uball_", 6) || !strncmp(n, "ubany_", 6)) {
      bool all = n[2] == 'a' && n[3] == 'l', acc = all;
      const char *c = n + 6;
      for (unsigned j = 0; j < 4 && j < a->lanes; j++) {
         bool r;
         if (n[0] == 'f') {
            double p = to_double(A[j], bits), q = to_double(B[j], bits);
            r = !strcmp(c, "eq")    ? p == q
                : !strcmp(c, "neq") ? p != q
                : !strcmp(c, "lt")  ? p < q
                                    : p <= q;
         } else {
            wide p = ival(A[j], bits, n[0] == 'i');
            wide q = ival(B[j], bits, n[0] == 'i');
            r = !strcmp(c, "eq")    ? pan_wide_eq(p, q)
                : !strcmp(c, "neq") ? !pan_wide_eq(p, q)
                : !strcmp(c, "lt")  ? pan_wide_lt(p, q)
                                    : pan_wide_le(p, q);
         }
         acc = all ? acc && r : acc || r;
      }
      *o = iresb(acc);
   } else if (is(a, "f2i") || is(a, "f2u")) {
      unsigned ob = bits;
      if (isnan(fx)) {
         *o = iresu(0);
      } else {
         double r = round_by(fx, a->round);
         wide lo = pan_wide_lane_min(ob, is(a, "f2i"));
         wide hi = pan_wide_lane_max(ob, is(a, "f2i"));
         *o = ires(r <= pan_wide_to_double(lo)   ? lo
                   : r >= pan_wide_to_double(hi) ? hi
                                                 : pan_wide_from_double(r));
      }
   } else if (is(a, "i2f") || is(a, "u2f")) {
      *o = int_to_float(ival(x, bits, is(a, "i2f")));
   } else if (is(a, "fcsel") || is(a, "fcsel_v")) {
      *o = fres(cond[i] ? fx : fy);
   } else if (is(a, "icsel") || is(a, "icsel_v")) {
      *o = ires(ival(cond[i] ? x : y, bits, true));
   } else if (a->is_int) {
      bool sign = n[0] == 'i';
      wide p = ival(x, bits, sign), q = ival(y, bits, sign);
      wide one = pan_wide_u64(1);
      uint64_t ux = x & mask_of(bits), uy = y & mask_of(bits);
      unsigned sh = uy & (bits - 1);
      (void)sx;
      if (is(a, "iadd"))
         *o = ires(pan_wide_add(p, q));
      else if (is(a, "isub"))
         *o = ires(pan_wide_sub(p, q));
      else if (is(a, "ishladd"))
         *o = ires(pan_wide_add(pan_wide_shl(p, 1), q));
      else if (is(a, "ishlsub"))
         *o = ires(pan_wide_sub(pan_wide_shl(p, 1), q));
      else if (is(a, "iaddsat") || is(a, "uaddsat"))
         *o = ires(pan_wide_sat(pan_wide_add(p, q), bits, sign));
      else if (is(a, "isubsat") || is(a, "usubsat"))
         *o = ires(pan_wide_sat(pan_wide_sub(p, q), bits, sign));
      else if (is(a, "imul"))
         *o = ires(pan_wide_mul(p, q));
      else if (is(a, "imin") || is(a, "umin"))
         *o = ires(pan_wide_min(p, q));
      else if (is(a, "imax") || is(a, "umax"))
         *o = ires(pan_wide_max(p, q));
      else if (is(a, "iavg") || is(a, "uavg"))
         *o = ires(pan_wide_sar(pan_wide_add(p, q), 1));
      else if (is(a, "iravg") || is(a, "uravg"))
         *o = ires(pan_wide_sar(pan_wide_add(pan_wide_add(p, q), one), 1));
      else if (is(a, "iasr"))
         *o = ires(pan_wide_sar(ival(x, bits, true), sh));
      else if (is(a, "ilsr"))
         *o = iresu(ux >> sh);
      else if (is(a, "ishl"))
         *o = ires(pan_wide_shl(pan_wide_u64(ux), sh));
      else if (is(a, "ishlsat"))
         *o = ires(
            pan_wide_sat(pan_wide_shl(ival(x, bits, true), sh), bits, true));
      else if (is(a, "ushlsat"))
         *o =
            ires(pan_wide_sat(pan_wide_shl(pan_wide_u64(ux), sh), bits, false));
      else if (is(a, "iand"))
         *o = ires(pan_wide_and(p, q));
      else if (is(a, "ior"))
         *o = ires(pan_wide_or(p, q));
      else if (is(a, "inand"))
         *o = ires(pan_wide_not(pan_wide_and(p, q)));
      else if (is(a, "inor"))
         *o = ires(pan_wide_not(pan_wide_or(p, q)));
      else if (is(a, "iandnot"))
         *o = ires(pan_wide_and(p, pan_wide_not(q)));
      else if (is(a, "iornot"))
         *o = ires(pan_wide_or(p, pan_wide_not(q)));
      else if (is(a, "ixor"))
         *o = ires(pan_wide_xor(p, q));
      else if (is(a, "inxor"))
         *o = ires(pan_wide_not(pan_wide_xor(p, q)));
      else if (is(a, "iclz"))
         *o = iresu(ux ? __builtin_clzll(ux) - (64 - bits) : bits);
      else if (is(a, "ipopcnt"))
         *o = iresu(__builtin_popcountll(ux));
      else if (is(a, "imov"))
         *o = ires(q);
      else if (is(a, "iabsdiff") || is(a, "uabsdiff"))
         *o = ires(pan_wide_lt(q, p) ? pan_wide_sub(p, q) : pan_wide_sub(q, p));
      else if (is(a, "ieq"))
         *o = iresb(pan_wide_eq(p, q));
      else if (is(a, "ine"))
         *o = iresb(!pan_wide_eq(p, q));
      else if (is(a, "ilt") || is(a, "ult"))
         *o = iresb(pan_wide_lt(p, q));
      else if (is(a, "ile") || is(a, "ule"))
         *o = iresb(pan_wide_le(p, q));
      else
         return false;
   } else {
      return false;
   }
   return true;
}

/* --- Output stage ----------------------------------------------------------
 */

static const char *const float_clamps[] = { NULL, "clamp_0_inf", "clamp_m1_1",
                                            "clamp_0_1" };

/* The raw value of width `out` a lane result leaves; bits is the op's. */
static uint64_t
output(const struct alu *a, const struct res *r, unsigned omod, unsigned out)
{
   if (r->is_float) {
      double f = r->f, t = r->tail;
      if (omod) {
         double c = pan_sim_fp_clamp(f + t, float_clamps[omod]);
         if (c != f + t || isnan(f)) {
            f = c;
            t = 0;
         }
      }
      return from_double_tail(f, t, out, a->round);
   }
   wide v = r->i;
   bool narrow = out < a->bits;
   switch (omod) {
   case 0: /* ssat */
      return pan_wide_sat(v, out, true).lo & mask_of(out);
   case 1: /* usat */
      return pan_wide_sat(v, out, false).lo & mask_of(out);
   case 2: /* keeplo */
      return v.lo & mask_of(out);
   default: /* keephi: the upper half of the lane (or of the double-width
             * result when not narrowing) */
      return pan_wide_sar(v, narrow ? out : a->bits).lo & mask_of(out);
   }
}

bool
mid_exec_alu(struct mid_exec *x, const struct pan_mid_instr *I)
{
   struct alu a = { .I = I };
   unsigned value;
   a.name = pan_mid_instr_op(I, &value, &a.is_int);
   if (!a.name)
      return mid_fault(x->t, "unknown ALU opcode 0x%x", value);
   const char *why = pan_sim_mid_alu_refusal(a.name);
   if (why)
      return mid_fault(x->t, "%s is refused: %s", a.name, why);
   strip_round(a.name, a.base, sizeof(a.base), &a.round);
   a.scalar = I->slot == PAN_MID_SADD || I->slot == PAN_MID_SMUL;
   a.bits = a.scalar ? 32 : 8u << mid_f(I, "mode");
   a.lanes = a.scalar ? 1 : 128 / a.bits;
   if (!a.is_int && a.bits == 64 && a.round != PAN_SIM_ROUND_RTE &&
       strncmp(a.base, "f2", 2))
      return mid_fault(x->t, "%s: directed rounding of 64-bit floats", a.name);

   uint64_t A[16] = { 0 }, B[16] = { 0 }, cond[16] = { 0 };
   if (a.scalar) {
      if (!read_scalar_src(x, &a, 'a', A) || !read_scalar_src(x, &a, 'b', B))
         return false;
   } else if (!read_vector_src(x, &a, 'a', A) ||
              !read_vector_src(x, &a, 'b', B)) {
      return false;
   }

   /* Conditions: r31.w for the scalar-condition selects, r31's lanes for
    * the per-lane ones (written by the first stage of the bundle). */
   const uint32_t *c = mid_read_reg(x, MID_REG_COND);
   bool per_lane = strstr(a.base, "csel_v") != NULL;
   for (unsigned i = 0; i < a.lanes; i++)
      cond[i] = per_lane ? elt_get(c, a.bits, i) : c[3];

   unsigned omod = mid_f(I, "omod");
   uint32_t *d = mid_write_reg(x, mid_f(I, "d"));

   if (a.scalar) {
      struct res r;
      if (!eval(&a, A, B, cond, 0, &r))
         return mid_fault(x->t, "%s is not simulated", a.name);
      bool full = mid_f(I, "dfull");
      unsigned comp = mid_f(I, "dcomp");
      if (full)
         elt_set(d, 32, comp >> 1, output(&a, &r, omod, 32));
      else
         elt_set(d, 16, comp, output(&a, &r, omod, 16));
      return true;
   }

   unsigned shrink = mid_f(I, "shrink"), mask = mid_f(I, "mask");
   if (shrink == 3)
      return mid_fault(x->t, "%s: reserved shrink mode 3", a.name);
   if (shrink != 2 && a.bits == 8)
      return mid_fault(x->t, "%s: 8-bit lanes cannot shrink", a.name);
   unsigned out = shrink == 2 ? a.bits : a.bits / 2;
   struct res res[16];
   for (unsigned i = 0; i < a.lanes; i++) {
      if (!eval(&a, A, B, cond, i, &res[i]))
         return mid_fault(x->t, "%s is not simulated with %u-bit lanes", a.name,
                          a.bits);
   }
   for (unsigned i = 0; i < a.lanes; i++) {
      /* One mask bit per 16 bits of the op's lanes (8-bit: per pair). */
      unsigned bit = a.bits == 8 ? i / 2 : i * a.bits / 16;
      if (!(mask & (1u << bit)))
         continue;
      unsigned at = i + (shrink == 1 ? a.lanes : 0);
      elt_set(d, out, at, output(&a, &res[i], omod, out));
   }
   return true;
}
