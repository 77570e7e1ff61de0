/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Attribute and varying memory formats of the simulator: parsed from the
 * hardware format's name (its components, bits per component and number
 * kind are all in the name), so there is no second format table.  Only
 * byte-aligned components of 8, 16 or 32 bits are modelled: the vectors a
 * GLES driver uses for vertex data and varyings.  Unorm/snorm values are
 * converted with the GL rules (x / (2^n - 1), snorm clamped at -1).
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pan_sim_draw.h"
#include "pan_sim_fp.h"

bool
pan_sim_mem_format_parse(const char *name, struct pan_sim_mem_format *f)
{
   if (!name)
      return false;
   static const uint8_t identity[4] = { 0, 1, 2, 3 };
   /* Positions: four binary32 values (x, y, z, 1/w). */
   if (!strcmp(name, "snap_4")) {
      *f = (struct pan_sim_mem_format){ 4, 32, PAN_SIM_NUM_FLOAT };
      memcpy(f->order, identity, 4);
      return true;
   }
   /* Three 10-bit components and a 2-bit one in one little-endian word
    * (ARB_vertex_type_2_10_10_10_rev).
    */
   static const struct {
      const char *name;
      enum pan_sim_num num;
   } packed[] = {
      { "rgb10_a2_unorm", PAN_SIM_NUM_UNORM },
      { "rgb10_a2_snorm", PAN_SIM_NUM_SNORM },
      { "rgb10_a2ui", PAN_SIM_NUM_UINT },
      { "rgb10_a2i", PAN_SIM_NUM_SINT },
   };
   for (unsigned i = 0; i < sizeof(packed) / sizeof(packed[0]); ++i) {
      if (!strcmp(name, packed[i].name)) {
         *f = (struct pan_sim_mem_format){ 4, 8, packed[i].num, true };
         memcpy(f->order, identity, 4);
         return true;
      }
   }
   unsigned comps = 0;
   while (comps < 4 && name[comps] == "rgba"[comps])
      comps++;
   if (!comps)
      return false;
   char *end;
   unsigned long bits = strtoul(name + comps, &end, 10);
   if (end == name + comps || (bits != 8 && bits != 16 && bits != 32))
      return false;
   enum pan_sim_num num;
   if (!strcmp(end, "f") || !strcmp(end, "f_rtz"))
      num = PAN_SIM_NUM_FLOAT;
   else if (!strcmp(end, "_unorm"))
      num = PAN_SIM_NUM_UNORM;
   else if (!strcmp(end, "_snorm"))
      num = PAN_SIM_NUM_SNORM;
   else if (!strcmp(end, "ui"))
      num = PAN_SIM_NUM_UINT;
   else if (!strcmp(end, "i"))
      num = PAN_SIM_NUM_SINT;
   else
      return false;
   if (num == PAN_SIM_NUM_FLOAT && bits == 8)
      return false;
   f->comps = comps;
   f->bits = (unsigned)bits;
   f->num = num;
   f->rgb10_a2 = false;
   memcpy(f->order, identity, 4);
   return true;
}

enum pan_sim_regfmt
pan_sim_auto_regfmt(const struct pan_sim_mem_format *f)
{
   switch (f->num) {
   case PAN_SIM_NUM_UINT:
      return PAN_SIM_REG_U32;
   case PAN_SIM_NUM_SINT:
      return PAN_SIM_REG_S32;
   default:
      return PAN_SIM_REG_F32;
   }
}

/* One component as a double (floats and normalised) or raw integer. */
struct value {
   double f;
   int64_t i;
};

/* Bits of memory component c and their width. */
static uint32_t
raw_comp(const struct pan_sim_mem_format *f, const uint8_t *p, unsigned c,
         unsigned *bits)
{
   uint32_t raw = 0;

   if (f->rgb10_a2) {
      memcpy(&raw, p, 4);
      *bits = c == 3 ? 2 : 10;
      return (raw >> (10 * c)) & ((1u << *bits) - 1);
   }
   *bits = f->bits;
   memcpy(&raw, p + c * (f->bits / 8), f->bits / 8);
   return raw;
}

static struct value
read_comp(const struct pan_sim_mem_format *f, const uint8_t *p, unsigned c)
{
   unsigned bits;
   uint32_t raw = raw_comp(f, p, c, &bits);
   struct value v = { 0 };

   /* Sign-extended from the component's width. */
   int64_t sraw = bits == 32 ? (int32_t)raw
                             : (int64_t)(int32_t)(raw << (32 - bits)) >>
                                  (32 - bits);
   double max = bits == 32 ? 4294967295.0 : (double)((1u << bits) - 1);
   switch (f->num) {
   case PAN_SIM_NUM_FLOAT:
      v.f = bits == 32 ? pan_sim_fp_f32(raw)
                       : pan_sim_fp_f16_to_f64((uint16_t)raw);
      break;
   case PAN_SIM_NUM_UNORM:
      v.f = raw / max;
      break;
   case PAN_SIM_NUM_SNORM:
      v.f = fmax(sraw / floor(max / 2), -1.0);
      break;
   case PAN_SIM_NUM_UINT:
      v.i = raw;
      v.f = raw;
      break;
   case PAN_SIM_NUM_SINT:
      v.i = sraw;
      v.f = (double)sraw;
      break;
   }
   return v;
}

static bool
is_int(const struct pan_sim_mem_format *f)
{
   return f->num == PAN_SIM_NUM_UINT || f->num == PAN_SIM_NUM_SINT;
}

static uint32_t
to_reg(struct value v, bool integer, enum pan_sim_regfmt regfmt)
{
   switch (regfmt) {
   case PAN_SIM_REG_F16:
      return pan_sim_fp_round_f64(integer ? (double)v.i : v.f,
                                  PAN_SIM_ROUND_RTE, 5, 10);
   case PAN_SIM_REG_F32:
      return pan_sim_fp_round_f64(integer ? (double)v.i : v.f,
                                  PAN_SIM_ROUND_RTE, 8, 23);
   case PAN_SIM_REG_S16:
   case PAN_SIM_REG_U16:
      return (uint32_t)(integer ? v.i : (int64_t)v.f) & 0xffff;
   default:
      return (uint32_t)(integer ? v.i : (int64_t)v.f);
   }
}

static bool
is16(enum pan_sim_regfmt r)
{
   return r == PAN_SIM_REG_F16 || r == PAN_SIM_REG_S16 || r == PAN_SIM_REG_U16;
}

/* A float register format of the memory format's width converts nothing:
 * the bits move as they are, but for binary32 stores, which quieten NaN
 * patterns (below): integer data belongs in an integer format. */
static bool
is_copy(const struct pan_sim_mem_format *f, enum pan_sim_regfmt r)
{
   return f->num == PAN_SIM_NUM_FLOAT && !f->rgb10_a2 &&
          ((f->bits == 32 && r == PAN_SIM_REG_F32) ||
           (f->bits == 16 && r == PAN_SIM_REG_F16));
}

void
pan_sim_mem_to_regs(const struct pan_sim_mem_format *f, const void *src,
                    enum pan_sim_regfmt regfmt, unsigned comps, uint32_t out[4])
{
   const uint8_t *p = src;

   if (regfmt == PAN_SIM_REG_AUTO)
      regfmt = pan_sim_auto_regfmt(f);
   memset(out, 0, 16);
   for (unsigned c = 0; c < comps && c < 4; ++c) {
      struct value v = { 0 };
      unsigned s = f->order[c];
      unsigned bits;
      uint32_t r;
      if (s < f->comps && is_copy(f, regfmt)) {
         r = raw_comp(f, p, s, &bits);
      } else {
         if (s < f->comps)
            v = read_comp(f, p, s);
         else if (s == 3 || s == 5) /* a missing alpha reads 1 */
            v = (struct value){ 1.0, 1 };
         r = to_reg(v, is_int(f), regfmt);
      }
      if (is16(regfmt))
         out[c / 2] |= (r & 0xffff) << (16 * (c % 2));
      else
         out[c] = r;
   }
}

/* Register component c as a value. */
static struct value
from_reg(enum pan_sim_regfmt regfmt, const uint32_t in[4], unsigned c)
{
   struct value v = { 0 };
   uint32_t r = is16(regfmt) ? (in[c / 2] >> (16 * (c % 2))) & 0xffff : in[c];

   switch (regfmt) {
   case PAN_SIM_REG_F16:
      v.f = pan_sim_fp_f16_to_f64((uint16_t)r);
      v.i = (int64_t)v.f;
      break;
   case PAN_SIM_REG_F32:
      v.f = pan_sim_fp_f32(r);
      v.i = isfinite(v.f) ? (int64_t)v.f : 0;
      break;
   case PAN_SIM_REG_S16:
      v.i = (int16_t)r;
      v.f = (double)v.i;
      break;
   case PAN_SIM_REG_S32:
      v.i = (int32_t)r;
      v.f = (double)v.i;
      break;
   default:
      v.i = r;
      v.f = (double)r;
      break;
   }
   return v;
}

/* Integer value x in an integer component of bits bits, clamped to its
 * range. */
static uint32_t
saturate_int(const struct pan_sim_mem_format *f, unsigned bits, int64_t x)
{
   int64_t lo = 0, hi = bits == 32 ? UINT32_MAX : (1ll << bits) - 1;

   if (f->num == PAN_SIM_NUM_SINT) {
      lo = -(1ll << (bits - 1));
      hi = (1ll << (bits - 1)) - 1;
   }
   return (uint32_t)(x < lo ? lo : x > hi ? hi : x);
}

static void
regs_to_mem(const struct pan_sim_mem_format *f, enum pan_sim_regfmt regfmt,
            unsigned comps, const uint32_t in[4], void *dst, bool saturate)
{
   uint8_t *p = dst;
   bool reg_int = regfmt != PAN_SIM_REG_F16 && regfmt != PAN_SIM_REG_F32;
   uint32_t word = 0;

   if (f->rgb10_a2)
      memcpy(&word, p, 4);
   for (unsigned c = 0; c < comps && c < f->comps; ++c) {
      struct value v = from_reg(regfmt, in, c);
      unsigned bits = f->rgb10_a2 ? (c == 3 ? 2 : 10) : f->bits;
      double max = bits == 32 ? 4294967295.0 : (double)((1u << bits) - 1);
      uint32_t raw;
      double x = reg_int ? (double)v.i : v.f;
      switch (f->num) {
      case PAN_SIM_NUM_FLOAT:
         if (is_copy(f, regfmt)) {
            raw = is16(regfmt) ? (in[c / 2] >> (16 * (c % 2))) & 0xffff : in[c];
            /* The store converts: hardware may give any NaN the default
             * pattern, and so does the model, so that integers passed
             * through a float format (a flat int varying in an RGBA32F
             * record) fail here as they could on a GPU. */
            if (f->bits == 32 && (raw & 0x7fffffffu) > 0x7f800000u)
               raw = PAN_SIM_NAN32;
            break;
         }
         raw = f->bits == 32
                  ? pan_sim_fp_round_f64(x, PAN_SIM_ROUND_RTE, 8, 23)
                  : pan_sim_fp_round_f64(x, PAN_SIM_ROUND_RTE, 5, 10);
         break;
      case PAN_SIM_NUM_UNORM:
         x = isnan(x) ? 0 : fmin(fmax(x, 0.0), 1.0);
         raw = (uint32_t)llrint(x * max);
         break;
      case PAN_SIM_NUM_SNORM: {
         double h = floor(max / 2);
         x = isnan(x) ? 0 : fmin(fmax(x, -1.0), 1.0);
         raw = (uint32_t)(int32_t)llrint(x * h);
         break;
      }
      default:
         /* Narrower than the register: the store keeps the low bits, the
          * blend unit the nearest value the component holds. */
         raw = saturate && reg_int && bits < 32
                  ? saturate_int(f, bits, v.i)
                  : (uint32_t)(reg_int ? v.i : (int64_t)x);
         break;
      }
      if (f->rgb10_a2) {
         /* The low bits of the value, as narrower plain formats keep. */
         uint32_t m = ((1u << bits) - 1) << (10 * c);
         word = (word & ~m) | ((raw << (10 * c)) & m);
      } else {
         memcpy(p + c * (f->bits / 8), &raw, f->bits / 8);
      }
   }
   if (f->rgb10_a2)
      memcpy(p, &word, 4);
}

void
pan_sim_regs_to_mem(const struct pan_sim_mem_format *f,
                    enum pan_sim_regfmt regfmt, unsigned comps,
                    const uint32_t in[4], void *dst)
{
   regs_to_mem(f, regfmt, comps, in, dst, false);
}

void
pan_sim_regs_to_tile(const struct pan_sim_mem_format *f,
                     enum pan_sim_regfmt regfmt, unsigned comps,
                     const uint32_t in[4], void *dst)
{
   regs_to_mem(f, regfmt, comps, in, dst, true);
}

bool
pan_sim_regs_to_float(enum pan_sim_regfmt regfmt, const uint32_t in[4],
                      unsigned comps, float out[4])
{
   if (regfmt != PAN_SIM_REG_F16 && regfmt != PAN_SIM_REG_F32)
      return false;
   for (unsigned c = 0; c < comps && c < 4; ++c)
      out[c] = (float)from_reg(regfmt, in, c).f;
   return true;
}

/* R11G11B10F: unsigned floats with 5 exponent bits and 6, 6 and 5
 * mantissa bits, red in the low bits of the word. */
static const unsigned r11g11b10_mbits[3] = { 6, 6, 5 };
static const unsigned r11g11b10_shift[3] = { 0, 11, 22 };

float
pan_sim_r11g11b10_channel(uint32_t word, unsigned c)
{
   unsigned mbits = r11g11b10_mbits[c];
   uint32_t v = (word >> r11g11b10_shift[c]) & ((1u << (5 + mbits)) - 1);
   unsigned e = v >> mbits, m = v & ((1u << mbits) - 1);

   if (e == 31)
      return m ? NAN : INFINITY;
   /* Subnormals (e 0) have no implicit one and the exponent of e 1. */
   float mant = e ? 1.0f + (float)m / (1u << mbits) : (float)m / (1u << mbits);
   return ldexpf(mant, (e ? (int)e : 1) - 15);
}

uint32_t
pan_sim_r11g11b10_pack(const float src[3], unsigned mask, uint32_t old)
{
   for (unsigned c = 0; c < 3; ++c) {
      if (!((mask >> c) & 1))
         continue;
      unsigned mbits = r11g11b10_mbits[c], shift = r11g11b10_shift[c];
      uint32_t m = (1u << (5 + mbits)) - 1;
      /* No sign bit: negatives and NaN store 0. */
      uint32_t v =
         src[c] > 0
            ? pan_sim_fp_round_f64(src[c], PAN_SIM_ROUND_RTE, 5, mbits) & m
            : 0;
      old = (old & ~(m << shift)) | (v << shift);
   }
   return old;
}
