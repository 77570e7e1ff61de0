/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Instanced attribute addressing on Midgard and Bifrost (v4-v7).
 *
 * An instanced draw runs padded_count * instance_count invocations; the
 * invocation number is  id = instance * padded_count + vertex.  Each
 * attribute buffer turns `id` into an element index with one of a few
 * addressing modes: linear, modulo the padded count, a right shift, or a
 * multiply-by-reciprocal "magic" divide.  See
 * docs/drivers/panfrost/instancing.rst.
 */

#ifndef PAN_INSTANCING_H
#define PAN_INSTANCING_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The vertex count the hardware pads an instanced draw to.  Must match the
 * hardware bit for bit, or every instance after the first reads the wrong
 * vertices.  Returns 0 for counts whose padding does not fit 32 bits
 * (above 15 * 2^28 - 1). */
unsigned pan_padded_vertex_count(unsigned vertex_count);

/*
 * Reciprocal of an instance divisor for the NPOT-divisor mode.  Returns the
 * 32-bit multiplier as the descriptor stores it, i.e. without its bit 31,
 * which the hardware always sets.  The hardware then computes
 *
 *    q = ((x + round_down) * (2^31 | magic)) >> (32 + shift)
 *
 * in wide arithmetic, which equals floor(x / divisor) for every 32-bit x.
 *
 * Powers of two (the driver uses the shift mode for those) also get an exact
 * answer: divisor 2^k (k >= 1) returns 0 with shift k-1, and divisor 1
 * returns 0x7fffffff with shift 0 and round_down 1.  Divisor 0 is invalid:
 * returns 0 with shift 0 and round_down 0.
 */
uint32_t pan_magic_divisor(uint32_t divisor, unsigned *shift,
                           unsigned *round_down);

/* Evaluate the NPOT-divisor hardware formula above (model for tests). */
uint32_t pan_magic_divide(uint32_t x, uint32_t magic, unsigned shift,
                          unsigned round_down);

/* A count of the form (2 * odd_half + 1) << shift, as the modulo mode and
 * the job's instance fields encode it (odd_half is 3 bits). */
struct pan_padded_encoding {
   unsigned shift;
   unsigned odd_half;
};

/* False if `count` has no such encoding (0, or an odd part above 15). */
bool pan_encode_padded_count(unsigned count, struct pan_padded_encoding *enc);

enum pan_attr_mode {
   /* index = id  (non-instanced draws) */
   PAN_ATTR_MODE_LINEAR,
   /* index = 0: linear mode with a zero stride */
   PAN_ATTR_MODE_CONSTANT,
   /* index = id mod padded_count (per-vertex data of an instanced draw) */
   PAN_ATTR_MODE_MODULO,
   /* index = id >> shift (power-of-two padded_count * divisor) */
   PAN_ATTR_MODE_POT_DIVISOR,
   /* index = magic divide of id (other divisors) */
   PAN_ATTR_MODE_NPOT_DIVISOR,
};

struct pan_attr_addressing {
   enum pan_attr_mode mode;
   /* MODULO: the padded count's encoding */
   struct pan_padded_encoding modulo;
   /* POT_DIVISOR, NPOT_DIVISOR */
   unsigned shift;
   /* NPOT_DIVISOR: multiplier without bit 31, and the round-down flag */
   uint32_t magic;
   unsigned round_down;
   /* Divisor actually applied to `id` (padded_count * instance divisor),
    * for POT/NPOT modes */
   uint32_t hw_divisor;
};

/*
 * Pick the addressing mode of an attribute buffer.  instance_divisor 0
 * means per-vertex data.  Returns false on invalid input (a padded count
 * that is 0 or not encodable for an instanced draw).  A hardware divisor
 * padded_count * instance_divisor above 2^32 - 1 is handled exactly: every
 * id fits in 32 bits, so the index is always 0 (CONSTANT mode).
 */
bool pan_attr_addressing(unsigned padded_count, unsigned instance_count,
                         uint32_t instance_divisor,
                         struct pan_attr_addressing *out);

/* Model of the hardware: element index read by invocation `id`. */
uint32_t pan_attr_index(const struct pan_attr_addressing *a, uint32_t id);

#ifdef __cplusplus
}
#endif

#endif
