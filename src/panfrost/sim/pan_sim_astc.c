/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* ASTC LDR texel decoding (see pan_sim_astc.h), following the steps of the
 * Khronos Data Format Specification's ASTC chapter: block mode, partitions
 * and endpoint modes, the two integer sequences (endpoints from the low
 * end, weights from bit 127 down), unquantisation, the endpoint formulas,
 * weight infill and the partition hash.  Only the texel asked for is
 * interpolated; everything it depends on is decoded each time.
 */

#include <string.h>

#include "pan_sim_astc.h"

/* The 128 bits of a block, bit i of the block being bit i % 64 of w[i /
 * 64]; bits at or past `end` read as zero (an integer sequence's last
 * group may be cut short).
 */
struct astc_bits {
   uint64_t w[2];
   unsigned end;
};

static unsigned
get_bits(const struct astc_bits *b, unsigned at, unsigned n)
{
   unsigned v = 0;
   for (unsigned i = 0; i < n; ++i) {
      unsigned p = at + i;
      if (p < b->end && (b->w[p / 64] >> (p % 64)) & 1)
         v |= 1u << i;
   }
   return v;
}

/* A quantisation range: values 0..max stored as `bits` low bits under a
 * trit (three values) or a quint (five).
 */
struct astc_range {
   uint8_t trit, quint, bits;
};

static unsigned
sequence_bits(struct astc_range r, unsigned n)
{
   return n * r.bits + (r.trit ? (8 * n + 4) / 5 : 0) +
          (r.quint ? (7 * n + 2) / 3 : 0);
}

/* The five trits packed into eight bits T. */
static void
unpack_trits(unsigned t, unsigned out[5])
{
   unsigned c;
   if (((t >> 2) & 7) == 7) {
      c = (t >> 5 & 7) << 2 | (t & 3);
      out[4] = 2;
      out[3] = 2;
   } else {
      c = t & 31;
      if ((t >> 5 & 3) == 3) {
         out[4] = 2;
         out[3] = t >> 7 & 1;
      } else {
         out[4] = t >> 7 & 1;
         out[3] = t >> 5 & 3;
      }
   }
   unsigned c0 = c & 1, c1 = c >> 1 & 1, c2 = c >> 2 & 1, c3 = c >> 3 & 1;
   if ((c & 3) == 3) {
      out[2] = 2;
      out[1] = c >> 4 & 1;
      out[0] = c3 << 1 | (c2 & !c3);
   } else if ((c >> 2 & 3) == 3) {
      out[2] = 2;
      out[1] = 2;
      out[0] = c & 3;
   } else {
      out[2] = c >> 4 & 1;
      out[1] = c >> 2 & 3;
      out[0] = c1 << 1 | (c0 & !c1);
   }
}

/* The three quints packed into seven bits Q. */
static void
unpack_quints(unsigned q, unsigned out[3])
{
   if ((q >> 1 & 3) == 3 && (q >> 5 & 3) == 0) {
      unsigned q0 = q & 1, q3 = q >> 3 & 1, q4 = q >> 4 & 1;
      out[2] = q0 << 2 | (q4 & !q0) << 1 | (q3 & !q0);
      out[1] = 4;
      out[0] = 4;
      return;
   }
   unsigned c;
   if ((q >> 1 & 3) == 3) {
      out[2] = 4;
      c = (q >> 3 & 3) << 3 | (~q >> 5 & 3) << 1 | (q & 1);
   } else {
      out[2] = q >> 5 & 3;
      c = q & 31;
   }
   if ((c & 7) == 5) {
      out[1] = 4;
      out[0] = c >> 3 & 3;
   } else {
      out[1] = c >> 3 & 3;
      out[0] = c & 7;
   }
}

/* n values of range r from bit `at`: out[i] is the trit or quint in bits 8+
 * and the low bits below (value = high << bits | low).
 */
static void
read_sequence(const struct astc_bits *b, unsigned at, struct astc_range r,
              unsigned n, unsigned out_hi[], unsigned out_lo[])
{
   /* Bits of T (Q) between the values of a group of five (three). */
   static const uint8_t trit_split[5] = { 2, 2, 1, 2, 1 };
   static const uint8_t quint_split[3] = { 3, 2, 2 };
   unsigned group = r.trit ? 5 : r.quint ? 3 : 1;

   for (unsigned first = 0; first < n; first += group) {
      unsigned packed = 0, shift = 0, hi[5] = { 0 };
      for (unsigned k = 0; k < group; ++k) {
         if (first + k < n)
            out_lo[first + k] = get_bits(b, at, r.bits);
         at += r.bits;
         unsigned extra = r.trit ? trit_split[k] : r.quint ? quint_split[k] : 0;
         packed |= get_bits(b, at, extra) << shift;
         at += extra;
         shift += extra;
      }
      if (r.trit)
         unpack_trits(packed, hi);
      else if (r.quint)
         unpack_quints(packed, hi);
      for (unsigned k = 0; k < group && first + k < n; ++k)
         out_hi[first + k] = hi[k];
   }
}

/* Bit replication of an n-bit value to `to` bits. */
static unsigned
replicate(unsigned v, unsigned n, unsigned to)
{
   unsigned out = 0;
   int pos = (int)to - (int)n;
   for (; pos > -(int)n; pos -= n)
      out |= pos >= 0 ? v << pos : v >> -pos;
   return out & ((1u << to) - 1);
}

/* Unquantisation of a value with a trit or quint: the bits above bit 0,
 * x, spread into B = x * mul | x >> shr, then T = D * C + B, D the trit or
 * quint (the specification's tables), indexed by 2 * (bits - 1) + quint.
 */
static const struct {
   uint8_t c;
   uint16_t mul;
   uint8_t shr;
} endpoint_steps[11] = {
   { 204, 0, 9 },   { 113, 0, 9 },   { 93, 0x116, 9 }, { 54, 0x10c, 9 },
   { 44, 0x85, 9 }, { 26, 0x82, 1 }, { 22, 0x41, 9 },  { 13, 0x40, 1 },
   { 11, 0x20, 2 }, { 6, 0x20, 3 },  { 5, 0x10, 4 },
};
static const struct {
   uint8_t c, mul;
} weight_steps[5] = {
   { 50, 0 }, { 28, 0 }, { 23, 0x45 }, { 13, 0x42 }, { 11, 0x21 },
};

/* An endpoint value (0..255) of range r. */
static unsigned
unquantise_endpoint(struct astc_range r, unsigned hi, unsigned lo)
{
   if (!r.trit && !r.quint)
      return replicate(lo, r.bits, 8);

   unsigned i = 2 * (r.bits - 1) + r.quint, x = lo >> 1;
   unsigned bv = x * endpoint_steps[i].mul | x >> endpoint_steps[i].shr;
   unsigned a = lo & 1 ? 0x1ff : 0;
   unsigned t = (hi * endpoint_steps[i].c + bv) ^ a;
   return (a & 0x80) | (t >> 2 & 0xff);
}

/* A weight (0..64) of range r. */
static unsigned
unquantise_weight(struct astc_range r, unsigned hi, unsigned lo)
{
   static const uint8_t t3[3] = { 0, 32, 63 };
   static const uint8_t q5[5] = { 0, 16, 32, 47, 63 };
   unsigned w;
   if (!r.trit && !r.quint) {
      w = replicate(lo, r.bits, 6);
   } else if (r.bits == 0) {
      w = r.trit ? t3[hi] : q5[hi];
   } else {
      unsigned i = 2 * (r.bits - 1) + r.quint, x = lo >> 1;
      unsigned a = lo & 1 ? 0x7f : 0;
      unsigned t = (hi * weight_steps[i].c + x * weight_steps[i].mul) ^ a;
      w = (a & 0x20) | (t >> 2 & 0x3f);
   }
   return w > 32 ? w + 1 : w;
}

/* The weight grid and its range, from the 11-bit block mode. */
struct astc_mode {
   unsigned grid_w, grid_h;
   bool dual;
   struct astc_range range;
};

static bool
decode_mode(unsigned m, struct astc_mode *out)
{
   unsigned a = m >> 5 & 3, b = m >> 7 & 3, r;
   bool high = m >> 9 & 1;

   out->dual = m >> 10 & 1;
   if (m & 3) {
      r = (m >> 4 & 1) | (m & 3) << 1;
      switch (m >> 2 & 3) {
      case 0:
         out->grid_w = b + 4, out->grid_h = a + 2;
         break;
      case 1:
         out->grid_w = b + 8, out->grid_h = a + 2;
         break;
      case 2:
         out->grid_w = a + 2, out->grid_h = b + 8;
         break;
      default:
         if (b & 2)
            out->grid_w = (b & 1) + 2, out->grid_h = a + 2;
         else
            out->grid_w = a + 2, out->grid_h = b + 6;
         break;
      }
   } else {
      if ((m & 15) == 0 || (m >> 6 & 7) == 7)
         return false; /* reserved */
      r = (m >> 4 & 1) | (m >> 2 & 3) << 1;
      switch (b) {
      case 0:
         out->grid_w = 12, out->grid_h = a + 2;
         break;
      case 1:
         out->grid_w = a + 2, out->grid_h = 12;
         break;
      case 3:
         out->grid_w = a & 1 ? 10 : 6;
         out->grid_h = a & 1 ? 6 : 10;
         break;
      default:
         /* Bits 9 and 10 are the height here: no dual plane, low
          * precision.
          */
         out->grid_w = a + 6, out->grid_h = (m >> 9 & 3) + 6;
         out->dual = false;
         high = false;
         break;
      }
   }

   /* Weight ranges by precision bit and R (2..7). */
   static const struct astc_range ranges[2][6] = {
      { { 0, 0, 1 },
        { 1, 0, 0 },
        { 0, 0, 2 },
        { 0, 1, 0 },
        { 1, 0, 1 },
        { 0, 0, 3 } },
      { { 0, 1, 1 },
        { 1, 0, 2 },
        { 0, 0, 4 },
        { 0, 1, 2 },
        { 1, 0, 3 },
        { 0, 0, 5 } },
   };
   out->range = ranges[high][r - 2];
   return true;
}

static void
error_colour(uint16_t c[4])
{
   c[0] = 0xffff;
   c[1] = 0;
   c[2] = 0xffff;
   c[3] = 0xffff;
}

static bool
void_extent(const struct astc_bits *b, uint16_t c[4])
{
   if (get_bits(b, 9, 1)) {
      error_colour(c); /* HDR colour: not in the LDR profile */
      return false;
   }
   unsigned s0 = get_bits(b, 12, 13), s1 = get_bits(b, 25, 13);
   unsigned t0 = get_bits(b, 38, 13), t1 = get_bits(b, 51, 13);
   bool none = s0 == 0x1fff && s1 == 0x1fff && t0 == 0x1fff && t1 == 0x1fff;
   if (!none && (s0 >= s1 || t0 >= t1)) {
      error_colour(c);
      return false;
   }
   for (unsigned i = 0; i < 4; ++i)
      c[i] = (uint16_t)get_bits(b, 64 + 16 * i, 16);
   return true;
}

/* The partition of texel (x, y): the specification's hash of the seed and
 * partition count, then the largest of up to four slanted ramps.
 */
static unsigned
partition_of(unsigned seed, unsigned count, unsigned x, unsigned y, bool small)
{
   if (small) {
      x <<= 1;
      y <<= 1;
   }
   seed += (count - 1) * 1024;

   uint32_t h = seed;
   h ^= h >> 15;
   h -= h << 17;
   h += h << 7;
   h += h << 4;
   h ^= h >> 5;
   h += h << 16;
   h ^= h >> 7;
   h ^= h >> 3;
   h ^= h << 6;
   h ^= h >> 17;

   /* Twelve 4-bit factors, squared, shifted by the seed's choice; the
    * last four (z terms) do not matter in 2D but stay for the order.
    */
   static const uint8_t at[8] = { 0, 4, 8, 12, 16, 20, 24, 28 };
   unsigned f[8];
   unsigned sh_odd = seed & 2 ? 4 : 5, sh_3 = count == 3 ? 6 : 5;
   unsigned sh1 = seed & 1 ? sh_odd : sh_3;
   unsigned sh2 = seed & 1 ? sh_3 : sh_odd;
   for (unsigned i = 0; i < 8; ++i) {
      unsigned v = h >> at[i] & 15;
      f[i] = (v * v) >> (i & 1 ? sh2 : sh1);
   }

   unsigned r[4] = {
      (f[0] * x + f[1] * y + (h >> 14)) & 63,
      (f[2] * x + f[3] * y + (h >> 10)) & 63,
      (f[4] * x + f[5] * y + (h >> 6)) & 63,
      (f[6] * x + f[7] * y + (h >> 2)) & 63,
   };
   if (count < 4)
      r[3] = 0;
   if (count < 3)
      r[2] = 0;
   if (r[0] >= r[1] && r[0] >= r[2] && r[0] >= r[3])
      return 0;
   if (r[1] >= r[2] && r[1] >= r[3])
      return 1;
   return r[2] >= r[3] ? 2 : 3;
}

static int
clamp255(int v)
{
   return v < 0 ? 0 : v > 255 ? 255 : v;
}

/* Moves the top bit of b's partner into a and makes b a signed 6-bit
 * offset (the base + offset modes).
 */
static void
transfer_bit(int *base, int *offset)
{
   *base = (*base >> 1) | (*offset & 0x80);
   *offset = (*offset >> 1) & 0x3f;
   if (*offset & 0x20)
      *offset -= 0x40;
}

static void
set4(int e[4], int r, int g, int b, int a)
{
   e[0] = r;
   e[1] = g;
   e[2] = b;
   e[3] = a;
}

/* RGB pulled toward blue, for endpoints stored with blue contraction. */
static void
set_contracted(int e[4], int r, int g, int b, int a)
{
   set4(e, (r + b) >> 1, (g + b) >> 1, b, a);
}

/* The two endpoints of an LDR endpoint mode from its values v[]; false for
 * the HDR modes.
 */
static bool
endpoints(unsigned mode, const int *vin, int e0[4], int e1[4])
{
   int v[8];
   memcpy(v, vin, sizeof(v));

   switch (mode) {
   case 0:
      set4(e0, v[0], v[0], v[0], 255);
      set4(e1, v[1], v[1], v[1], 255);
      break;
   case 1: {
      int l0 = (v[0] >> 2) | (v[1] & 0xc0);
      int l1 = l0 + (v[1] & 0x3f);
      l1 = l1 > 255 ? 255 : l1;
      set4(e0, l0, l0, l0, 255);
      set4(e1, l1, l1, l1, 255);
      break;
   }
   case 4:
      set4(e0, v[0], v[0], v[0], v[2]);
      set4(e1, v[1], v[1], v[1], v[3]);
      break;
   case 5:
      transfer_bit(&v[0], &v[1]);
      transfer_bit(&v[2], &v[3]);
      set4(e0, v[0], v[0], v[0], v[2]);
      set4(e1, v[0] + v[1], v[0] + v[1], v[0] + v[1], v[2] + v[3]);
      break;
   case 6:
      set4(e0, v[0] * v[3] >> 8, v[1] * v[3] >> 8, v[2] * v[3] >> 8, 255);
      set4(e1, v[0], v[1], v[2], 255);
      break;
   case 10:
      set4(e0, v[0] * v[3] >> 8, v[1] * v[3] >> 8, v[2] * v[3] >> 8, v[4]);
      set4(e1, v[0], v[1], v[2], v[5]);
      break;
   case 8:
   case 12: {
      int a0 = mode == 12 ? v[6] : 255, a1 = mode == 12 ? v[7] : 255;
      if (v[1] + v[3] + v[5] >= v[0] + v[2] + v[4]) {
         set4(e0, v[0], v[2], v[4], a0);
         set4(e1, v[1], v[3], v[5], a1);
      } else {
         set_contracted(e0, v[1], v[3], v[5], a1);
         set_contracted(e1, v[0], v[2], v[4], a0);
      }
      break;
   }
   case 9:
   case 13: {
      transfer_bit(&v[0], &v[1]);
      transfer_bit(&v[2], &v[3]);
      transfer_bit(&v[4], &v[5]);
      int a0 = 255, a1 = 255;
      if (mode == 13) {
         transfer_bit(&v[6], &v[7]);
         a0 = v[6];
         a1 = v[6] + v[7];
      }
      if (v[1] + v[3] + v[5] >= 0) {
         set4(e0, v[0], v[2], v[4], a0);
         set4(e1, v[0] + v[1], v[2] + v[3], v[4] + v[5], a1);
      } else {
         set_contracted(e0, v[0] + v[1], v[2] + v[3], v[4] + v[5], a1);
         set_contracted(e1, v[0], v[2], v[4], a0);
      }
      break;
   }
   default:
      return false; /* 2, 3, 7, 11, 14, 15: HDR */
   }
   for (unsigned i = 0; i < 4; ++i) {
      e0[i] = clamp255(e0[i]);
      e1[i] = clamp255(e1[i]);
   }
   return true;
}

/* Endpoint ranges from the finest down; the coarsest allowed is 0..5. */
static const struct astc_range endpoint_ranges[] = {
   { 0, 0, 8 }, { 1, 0, 6 }, { 0, 1, 5 }, { 0, 0, 7 }, { 1, 0, 5 }, { 0, 1, 4 },
   { 0, 0, 6 }, { 1, 0, 4 }, { 0, 1, 3 }, { 0, 0, 5 }, { 1, 0, 3 }, { 0, 1, 2 },
   { 0, 0, 4 }, { 1, 0, 2 }, { 0, 1, 1 }, { 0, 0, 3 }, { 1, 0, 1 },
};

/* The weight of texel (x, y) in plane p: the grid's weights spread over
 * the block with the specification's fixed-point bilinear infill.
 */
static unsigned
infill(const uint8_t *w, const struct astc_mode *m, unsigned plane, unsigned bw,
       unsigned bh, unsigned x, unsigned y)
{
   unsigned planes = m->dual ? 2 : 1;
   unsigned ds = (1024 + bw / 2) / (bw - 1);
   unsigned dt = (1024 + bh / 2) / (bh - 1);
   unsigned gs = (ds * x * (m->grid_w - 1) + 32) >> 6;
   unsigned gt = (dt * y * (m->grid_h - 1) + 32) >> 6;
   unsigned js = gs >> 4, fs = gs & 15, jt = gt >> 4, ft = gt & 15;
   unsigned i00 = js + jt * m->grid_w;

   /* Past the last row or column the factor is zero. */
   unsigned p00 = w[i00 * planes + plane];
   unsigned p01 = fs ? w[(i00 + 1) * planes + plane] : 0;
   unsigned p10 = ft ? w[(i00 + m->grid_w) * planes + plane] : 0;
   unsigned p11 = fs && ft ? w[(i00 + m->grid_w + 1) * planes + plane] : 0;
   unsigned w11 = (fs * ft + 8) >> 4;
   unsigned w10 = ft - w11, w01 = fs - w11, w00 = 16 - fs - ft + w11;
   return (p00 * w00 + p01 * w01 + p10 * w10 + p11 * w11 + 8) >> 4;
}

bool
pan_sim_astc_texel(const uint8_t block[16], unsigned block_w, unsigned block_h,
                   bool srgb, unsigned x, unsigned y, uint16_t c[4])
{
   struct astc_bits b = { { 0, 0 }, 128 };
   for (unsigned i = 0; i < 16; ++i)
      b.w[i / 8] |= (uint64_t)block[i] << (8 * (i % 8));

   unsigned mode_bits = get_bits(&b, 0, 11);
   if ((mode_bits & 0x1ff) == 0x1fc)
      return void_extent(&b, c);

   struct astc_mode m;
   error_colour(c);
   if (!decode_mode(mode_bits, &m))
      return false;

   unsigned parts = get_bits(&b, 11, 2) + 1;
   unsigned n_weights = m.grid_w * m.grid_h * (m.dual ? 2 : 1);
   unsigned weight_bits = sequence_bits(m.range, n_weights);
   if (n_weights > 64 || weight_bits < 24 || weight_bits > 96 ||
       m.grid_w > block_w || m.grid_h > block_h || (m.dual && parts == 4))
      return false;

   /* Endpoint modes: one for all partitions, or a class and per-partition
    * bits continued below the weights.
    */
   unsigned modes[4], seed = 0, extra_bits = 0, ep_start = 17;
   if (parts == 1) {
      modes[0] = get_bits(&b, 13, 4);
   } else {
      seed = get_bits(&b, 13, 10);
      ep_start = 29;
      unsigned field = get_bits(&b, 23, 6);
      if ((field & 3) == 0) {
         for (unsigned p = 0; p < parts; ++p)
            modes[p] = field >> 2;
      } else {
         extra_bits = 3 * parts - 4;
         unsigned more =
            get_bits(&b, 128 - weight_bits - extra_bits, extra_bits);
         unsigned all = field >> 2 | more << 4;
         unsigned base_class = (field & 3) - 1;
         for (unsigned p = 0; p < parts; ++p) {
            unsigned cbit = all >> p & 1;
            unsigned mbits = all >> (parts + 2 * p) & 3;
            modes[p] = (base_class + cbit) * 4 + mbits;
         }
      }
   }
   unsigned below = 128 - weight_bits - extra_bits;
   unsigned plane_channel = 0;
   if (m.dual) {
      below -= 2;
      plane_channel = get_bits(&b, below, 2);
   }

   unsigned n_values = 0;
   for (unsigned p = 0; p < parts; ++p)
      n_values += 2 * (modes[p] / 4 + 1);
   if (n_values > 18 || below < ep_start)
      return false;

   const struct astc_range *er = NULL;
   for (unsigned i = 0; i < sizeof(endpoint_ranges) / sizeof(*er); ++i) {
      if (sequence_bits(endpoint_ranges[i], n_values) <= below - ep_start) {
         er = &endpoint_ranges[i];
         break;
      }
   }
   if (!er)
      return false;

   /* The texel's partition and its endpoint values (those of the
    * partitions before it come first).
    */
   unsigned texels = block_w * block_h;
   unsigned part = parts > 1 ? partition_of(seed, parts, x, y, texels < 31) : 0;
   unsigned hi[18], lo[18];
   b.end = ep_start + sequence_bits(*er, n_values);
   read_sequence(&b, ep_start, *er, n_values, hi, lo);
   unsigned first = 0;
   for (unsigned p = 0; p < part; ++p)
      first += 2 * (modes[p] / 4 + 1);
   int v[8] = { 0 };
   for (unsigned i = 0; i < 2 * (modes[part] / 4 + 1); ++i)
      v[i] = (int)unquantise_endpoint(*er, hi[first + i], lo[first + i]);
   int e0[4], e1[4];
   if (!endpoints(modes[part], v, e0, e1))
      return false;

   /* Weights: the bits reversed, read from the top of the block. */
   struct astc_bits rev = { { 0, 0 }, weight_bits };
   for (unsigned i = 0; i < 128; ++i) {
      if ((b.w[(127 - i) / 64] >> ((127 - i) % 64)) & 1)
         rev.w[i / 64] |= 1ull << (i % 64);
   }
   unsigned whi[64], wlo[64];
   uint8_t w[64 + 16] = { 0 };
   read_sequence(&rev, 0, m.range, n_weights, whi, wlo);
   for (unsigned i = 0; i < n_weights; ++i)
      w[i] = (uint8_t)unquantise_weight(m.range, whi[i], wlo[i]);

   unsigned weight0 = infill(w, &m, 0, block_w, block_h, x, y);
   unsigned weight1 =
      m.dual ? infill(w, &m, 1, block_w, block_h, x, y) : weight0;
   for (unsigned i = 0; i < 4; ++i) {
      unsigned wt = m.dual && i == plane_channel ? weight1 : weight0;
      unsigned c0 = srgb ? (unsigned)e0[i] << 8 | 0x80 : e0[i] * 257u;
      unsigned c1 = srgb ? (unsigned)e1[i] << 8 | 0x80 : e1[i] * 257u;
      c[i] = (uint16_t)((c0 * (64 - wt) + c1 * wt + 32) >> 6);
   }
   return true;
}

float
pan_sim_astc_channel(uint16_t c, bool wide)
{
   if (!wide)
      return (float)(c >> 8) / 255.0f;
   if (c == 0xffff)
      return 1.0f;
   /* c / 65536 has at most 16 significant bits; half precision keeps 11
    * of them (10 stored), fewer for denormals below 2^-14.
    */
   if (c == 0)
      return 0.0f;
   unsigned top = 15;
   while (!(c >> top & 1))
      --top;
   /* The value is 2^(top - 16) * 1.f: keep 10 bits after the leading one,
    * and no bit below 2^-24.
    */
   int exp = (int)top - 16;
   int lsb = exp - 10 < -24 ? -24 : exp - 10; /* weight of the last bit */
   unsigned keep = lsb + 16 > 0 ? c >> (lsb + 16) << (lsb + 16) : c;
   return (float)keep / 65536.0f;
}
