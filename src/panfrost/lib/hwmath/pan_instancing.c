/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include "pan_instancing.h"

static unsigned
floor_log2(uint32_t v)
{
   return 31 - __builtin_clz(v);
}

static bool
is_pot(uint64_t v)
{
   return v && !(v & (v - 1));
}

/*
 * Small counts: up to 9 as is, 10..19 rounded up to even.  Larger counts:
 * keep the top four bits (a "nibble" 8..15 scaled by 2^n) and pad to the
 * next of 9, 10, 12, 14 or 16 times 2^n strictly above the nibble, which
 * are all an odd number up to 9 times a power of two.  Note that the
 * hardware pads even when the count already has that shape (8 * 2^n
 * becomes 9 * 2^n).
 */
unsigned
pan_padded_vertex_count(unsigned vertex_count)
{
   if (vertex_count < 10)
      return vertex_count;
   if (vertex_count < 20)
      return (vertex_count + 1) & ~1u;

   unsigned n = floor_log2(vertex_count) - 3;
   unsigned nibble = vertex_count >> n;
   static const unsigned padded_nibble[16] = {
      [8] = 9, [9] = 10, [10] = 12, [11] = 12,
      [12] = 14, [13] = 14, [14] = 16, [15] = 16,
   };

   /* 16 << 28 does not fit: such counts cannot be drawn anyway */
   if (n >= 28 && nibble >= 14)
      return 0;
   return padded_nibble[nibble] << n;
}

bool
pan_encode_padded_count(unsigned count, struct pan_padded_encoding *enc)
{
   if (count == 0)
      return false;

   unsigned shift = __builtin_ctz(count);
   unsigned odd = count >> shift;

   if (odd > 15)
      return false;

   enc->shift = shift;
   enc->odd_half = odd >> 1;
   return true;
}

uint32_t
pan_magic_divide(uint32_t x, uint32_t magic, unsigned shift,
                 unsigned round_down)
{
   uint64_t m = (uint64_t)magic | (1ull << 31);
   /* (x + 1) * m computed as x * m + m: no 32-bit wrap at x = 2^32 - 1 */
   uint64_t p = (uint64_t)x * m + (round_down ? m : 0);
   uint64_t hi = p >> 32;
   return (uint32_t)(hi >> shift);
}

/*
 * Division by multiplication (the "round-up" and "round-down" methods):
 * with s = floor(log2 d) and k = 32 + s, 2^k / d lies in (2^31, 2^32) for
 * d not a power of two, so the multiplier fits 32 bits with bit 31 set.
 *
 *  - round-down: m = floor(2^k / d), q = ((x + 1) * m) >> k.  Exact for all
 *    32-bit x when the error 2^k - m*d is at most 2^s.
 *  - round-up: m = ceil(2^k / d), q = (x * m) >> k.  Exact for all 32-bit x
 *    when the error m*d - 2^k is at most 2^s.
 *
 * The two errors add up to d < 2^(s+1), so at least one method is exact.
 * We prefer round-down, which is also what the reference driver emits when
 * it is exact, so our descriptors match its output where both are correct.
 *
 * Whether the hardware's increment is wide or saturates at 2^32 - 1 is not
 * publicly documented.  The two differ only at x = 2^32 - 1, where a
 * saturated increment yields floor((x - 1) / d): the same answer unless d
 * divides 2^32 - 1.  For those few divisors (3, 5, 17, 257, 65537 and their
 * products) round-up is always exact, so we use it and are correct under
 * either behaviour.
 */
uint32_t
pan_magic_divisor(uint32_t divisor, unsigned *shift, unsigned *round_down)
{
   *shift = 0;
   *round_down = 0;

   if (divisor == 0)
      return 0;

   if (divisor == 1) {
      /* ((x + 1) * (2^32 - 1)) >> 32 == x for all 32-bit x */
      *round_down = 1;
      return 0x7fffffff;
   }

   unsigned s = floor_log2(divisor);

   if (is_pot(divisor)) {
      /* (x * 2^31) >> (32 + s - 1) == x >> s */
      *shift = s - 1;
      return 0;
   }

   uint64_t two_k = 1ull << (32 + s);
   uint64_t m_down = two_k / divisor;
   uint64_t err_down = two_k - m_down * divisor;

   *shift = s;
   if (err_down <= (1ull << s) && UINT32_MAX % divisor != 0) {
      *round_down = 1;
      return (uint32_t)m_down & 0x7fffffff;
   } else {
      return (uint32_t)(m_down + 1) & 0x7fffffff;
   }
}

bool
pan_attr_addressing(unsigned padded_count, unsigned instance_count,
                    uint32_t instance_divisor, struct pan_attr_addressing *out)
{
   *out = (struct pan_attr_addressing){ .mode = PAN_ATTR_MODE_LINEAR };

   if (instance_count <= 1) {
      /* Every vertex reads element 0 of a per-instance attribute */
      if (instance_divisor)
         out->mode = PAN_ATTR_MODE_CONSTANT;
      return true;
   }

   if (!instance_divisor) {
      out->mode = PAN_ATTR_MODE_MODULO;
      return pan_encode_padded_count(padded_count, &out->modulo);
   }

   if (padded_count == 0)
      return false;

   uint64_t hw_divisor = (uint64_t)padded_count * instance_divisor;

   if (hw_divisor > UINT32_MAX) {
      /* ids are below 2^32 <= hw_divisor: the quotient is always 0 */
      out->mode = PAN_ATTR_MODE_CONSTANT;
      return true;
   }

   out->hw_divisor = (uint32_t)hw_divisor;
   if (is_pot(hw_divisor)) {
      out->mode = PAN_ATTR_MODE_POT_DIVISOR;
      out->shift = __builtin_ctz((uint32_t)hw_divisor);
   } else {
      out->mode = PAN_ATTR_MODE_NPOT_DIVISOR;
      out->magic = pan_magic_divisor((uint32_t)hw_divisor, &out->shift,
                                     &out->round_down);
   }
   return true;
}

uint32_t
pan_attr_index(const struct pan_attr_addressing *a, uint32_t id)
{
   switch (a->mode) {
   case PAN_ATTR_MODE_LINEAR:
      return id;
   case PAN_ATTR_MODE_CONSTANT:
      return 0;
   case PAN_ATTR_MODE_MODULO:
      return id % ((2 * a->modulo.odd_half + 1) << a->modulo.shift);
   case PAN_ATTR_MODE_POT_DIVISOR:
      return id >> a->shift;
   case PAN_ATTR_MODE_NPOT_DIVISOR:
      return pan_magic_divide(id, a->magic, a->shift, a->round_down);
   }
   return 0;
}
