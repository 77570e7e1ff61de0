/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Architecture-independent helpers used by the generated pan_vN_pack.h
 * headers: bit extraction/insertion, value encoders with range checks, and
 * the types of the machine-readable layout tables.
 *
 * Encoders check in debug builds (no NDEBUG) that a value is representable
 * in its field; on failure they name the field and value on stderr and then
 * assert, so a bad descriptor is caught where it is built rather than as a
 * GPU fault later.  Release builds just truncate.
 */

#ifndef PAN_GENXML_UTIL_H
#define PAN_GENXML_UTIL_H

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

static inline uint64_t
pan_gx_mask(unsigned width)
{
   return width >= 64 ? ~0ull : (1ull << width) - 1;
}

/* Read "width" bits starting at absolute bit "start" of a word array. */
static inline uint64_t
pan_gx_get(const uint32_t *w, unsigned start, unsigned width)
{
   unsigned i = start / 32, b = start % 32;
   uint64_t v = w[i] >> b;

   if (b + width > 32)
      v |= (uint64_t)w[i + 1] << (32 - b);
   if (b + width > 64)
      v |= (uint64_t)w[i + 2] << (64 - b);

   return v & pan_gx_mask(width);
}

/* OR "raw" (already known to fit) into the word array. */
static inline void
pan_gx_put(uint32_t *w, unsigned start, unsigned width, uint64_t raw)
{
   unsigned i = start / 32, b = start % 32;

   raw &= pan_gx_mask(width);
   w[i] |= (uint32_t)(raw << b);
   if (b + width > 32)
      w[i + 1] |= (uint32_t)(raw >> (32 - b));
   if (b + width > 64)
      w[i + 2] |= (uint32_t)(raw >> (64 - b));
}

#ifndef NDEBUG
static inline void
pan_gx_range_error(const char *what, const char *why, int64_t v)
{
   fprintf(stderr, "pan genxml: %s = %" PRId64 " (0x%" PRIx64 ") %s\n",
           what, v, (uint64_t)v, why);
   assert(!"pan genxml: value does not fit its descriptor field");
}
#define PAN_GX_CHECK(cond, what, why, v)                                      \
   do {                                                                       \
      if (!(cond))                                                            \
         pan_gx_range_error(what, why, (int64_t)(v));                         \
   } while (0)
#else
/* Unevaluated, but keeps the parameters "used". */
#define PAN_GX_CHECK(cond, what, why, v)                                      \
   ((void)sizeof(cond), (void)sizeof(what), (void)sizeof(v))
#endif

/* Plain unsigned value, optionally stored right-shifted ("shift" low bits
 * are implied zero) and required to be a multiple of "multiple". */
static inline uint64_t
pan_gx_enc_uint(uint64_t v, unsigned width, unsigned shift, uint64_t multiple,
                const char *what)
{
   PAN_GX_CHECK((v & (multiple - 1)) == 0, what, "is not suitably aligned", v);
   PAN_GX_CHECK((v & pan_gx_mask(shift)) == 0, what,
                "has low bits set that the field cannot store", v);
   v >>= shift;
   PAN_GX_CHECK((v & ~pan_gx_mask(width)) == 0, what,
                "is too large for its field", v << shift);
   return v;
}

static inline uint64_t
pan_gx_enc_int(int64_t v, unsigned width, const char *what)
{
   int64_t lo = width >= 64 ? INT64_MIN : -(int64_t)(1ull << (width - 1));
   int64_t hi = width >= 64 ? INT64_MAX : (int64_t)(1ull << (width - 1)) - 1;

   PAN_GX_CHECK(v >= lo && v <= hi, what, "is out of the signed range", v);
   (void)lo;
   (void)hi;
   return (uint64_t)v & pan_gx_mask(width);
}

/* Counts stored as "value - 1" so that the all-zero encoding means one. */
static inline uint64_t
pan_gx_enc_minus1(uint64_t v, unsigned width, const char *what)
{
   PAN_GX_CHECK(v >= 1, what, "must be at least 1 (stored minus one)", v);
   PAN_GX_CHECK(v - 1 <= pan_gx_mask(width), what,
                "is too large for its minus-one field", v);
   return (v - 1) & pan_gx_mask(width);
}

/* Powers of two stored as their exponent. */
static inline uint64_t
pan_gx_enc_log2(uint64_t v, unsigned width, const char *what)
{
   unsigned e = 0;

   PAN_GX_CHECK(v != 0 && (v & (v - 1)) == 0, what,
                "must be a power of two (stored as log2)", v);
   while (e < 63 && (1ull << e) < v)
      e++;
   PAN_GX_CHECK(e <= pan_gx_mask(width), what, "has too large an exponent",
                v);
   return e & pan_gx_mask(width);
}

/* "Padded" counts: (2 * odd + 1) << shift, with a 5-bit shift in the low
 * bits and a 3-bit odd factor above.  Used for instancing/divisor sizes so
 * that the hardware can replace divisions by shifts and small multiplies. */
static inline uint64_t
pan_gx_enc_padded(uint64_t v, const char *what)
{
   unsigned shift = 0;

   PAN_GX_CHECK(v != 0, what, "cannot be zero in a padded field", v);
   if (v == 0)
      return 0;
   while (!((v >> shift) & 1))
      shift++;
   PAN_GX_CHECK(shift <= 31 && (v >> (shift + 1)) <= 7, what,
                "is not (2n+1) << s with n <= 7, s <= 31", v);
   return (shift | ((v >> (shift + 1)) << 5)) & 0xff;
}

static inline uint64_t
pan_gx_dec_padded(uint64_t raw)
{
   return ((2 * (raw >> 5)) + 1) << (raw & 31);
}

static inline uint64_t
pan_gx_enc_float(float f)
{
   uint32_t u;
   memcpy(&u, &f, sizeof(u));
   return u;
}

static inline float
pan_gx_dec_float(uint64_t raw)
{
   uint32_t u = (uint32_t)raw;
   float f;
   memcpy(&f, &u, sizeof(f));
   return f;
}

static inline int64_t
pan_gx_sext(uint64_t raw, unsigned width)
{
   if (width >= 64)
      return (int64_t)raw;
   uint64_t sign = 1ull << (width - 1);
   return (int64_t)((raw ^ sign) - sign);
}

/* Fixed-point with "frac" fractional bits, rounded to nearest. */
static inline uint64_t
pan_gx_enc_ufixed(float v, unsigned width, unsigned frac, const char *what)
{
   double scaled = (double)v * (double)(1u << frac);

   PAN_GX_CHECK(scaled >= 0.0 && scaled <= (double)pan_gx_mask(width), what,
                "is outside the unsigned fixed-point range", (int64_t)scaled);
   if (!(scaled >= 0.0))
      return 0;
   if (scaled > (double)pan_gx_mask(width))
      return pan_gx_mask(width);
   return (uint64_t)(scaled + 0.5) & pan_gx_mask(width);
}

static inline uint64_t
pan_gx_enc_sfixed(float v, unsigned width, unsigned frac, const char *what)
{
   double scaled = (double)v * (double)(1u << frac);
   double hi = (double)((1ll << (width - 1)) - 1);
   double lo = -(double)(1ll << (width - 1));

   PAN_GX_CHECK(scaled >= lo && scaled <= hi, what,
                "is outside the signed fixed-point range", (int64_t)scaled);
   if (!(scaled >= lo))
      scaled = lo;
   if (scaled > hi)
      scaled = hi;
   return (uint64_t)(int64_t)floor(scaled + 0.5) & pan_gx_mask(width);
}

static inline float
pan_gx_dec_ufixed(uint64_t raw, unsigned frac)
{
   return (float)((double)raw / (double)(1u << frac));
}

static inline float
pan_gx_dec_sfixed(uint64_t raw, unsigned width, unsigned frac)
{
   return (float)((double)pan_gx_sext(raw, width) / (double)(1u << frac));
}

/* ---- Machine-readable layout tables (pan_vN_genxml_tables.c) ---- */

enum pan_gx_kind {
   PAN_GX_KIND_UINT,
   PAN_GX_KIND_INT,
   PAN_GX_KIND_BOOL,
   PAN_GX_KIND_FLOAT,
   PAN_GX_KIND_ADDRESS,
   PAN_GX_KIND_HEX,
   PAN_GX_KIND_ENUM,
   PAN_GX_KIND_UFIXED,
   PAN_GX_KIND_SFIXED,
};

enum pan_gx_encoding {
   PAN_GX_ENC_PLAIN,
   PAN_GX_ENC_MINUS1,
   PAN_GX_ENC_LOG2,
   PAN_GX_ENC_PADDED,
};

struct pan_gx_enum_value {
   const char *name;
   uint32_t value;
};

struct pan_gx_enum_desc {
   const char *name;
   unsigned count;
   const struct pan_gx_enum_value *values;
};

struct pan_gx_field_desc {
   /* Member path as written in C, e.g. "equation.rgb.a". */
   const char *path;
   /* Absolute position: bit "bit" of 32-bit word "word". */
   uint16_t word;
   uint8_t bit;
   uint8_t width;
   uint8_t kind;     /* enum pan_gx_kind */
   uint8_t encoding; /* enum pan_gx_encoding */
   uint8_t shift;    /* value is stored >> shift */
   uint8_t frac;     /* fractional bits of fixed-point kinds */
   const struct pan_gx_enum_desc *enumeration;
   /* Human-readable condition under which the field is meaningful (a case of
    * a choice), or NULL when it always is. */
   const char *condition;
};

struct pan_gx_struct_desc {
   const char *name;
   unsigned size_words;
   unsigned align_B;
   unsigned field_count;
   const struct pan_gx_field_desc *fields;
   /* Bits covered by at least one field, per word; anything else is
    * reserved and should read back as zero. */
   const uint32_t *used_mask;
};

struct pan_gx_section_desc {
   const char *name;
   unsigned offset_B;
   const struct pan_gx_struct_desc *layout;
};

struct pan_gx_descriptor_desc {
   const char *name;
   unsigned size_B;
   unsigned align_B;
   unsigned section_count;
   const struct pan_gx_section_desc *sections;
};

/* Decode the raw bits of a field, as stored in memory. */
static inline uint64_t
pan_gx_field_raw(const uint32_t *words, const struct pan_gx_field_desc *f)
{
   return pan_gx_get(words, f->word * 32 + f->bit, f->width);
}

#ifdef __cplusplus
}
#endif

#endif /* PAN_GENXML_UTIL_H */
