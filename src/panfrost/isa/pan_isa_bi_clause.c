/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Bifrost clause packing and unpacking, interpreting the quadword formats
 * of bifrost_isa.py.  Unpacking only accepts bytes that packing the result
 * reproduces exactly, so a decoded clause always re-assembles bit for bit.
 */

#include "pan_isa_bi_priv.h"

#include <string.h>

#define MASK(n) ((n) >= 64 ? ~0ull : ((1ull << (n)) - 1))

/* 78-bit tuple as a (lo 64, hi 14) pair. */
struct wide {
   uint64_t lo, hi;
};

static struct wide
tuple_bits(const struct bi_tuple *t)
{
   struct wide w = {
      .lo = (t->regs & MASK(35)) | (uint64_t)(t->fma & MASK(23)) << 35 |
            (uint64_t)(t->add & 0x3f) << 58,
      .hi = (t->add & MASK(20)) >> 6,
   };
   return w;
}

static void
tuple_from_bits(struct bi_tuple *t, struct wide w)
{
   t->regs = w.lo & MASK(35);
   t->fma = (uint32_t)((w.lo >> 35) & MASK(23));
   t->add = (uint32_t)((w.lo >> 58) | (w.hi & MASK(14)) << 6);
}

static uint64_t
wide_get(struct wide w, unsigned off, unsigned n)
{
   uint64_t v = off < 64 ? w.lo >> off : 0;
   if (off + n > 64)
      v |= off >= 64 ? w.hi >> (off - 64) : w.hi << (64 - off);
   return v & MASK(n);
}

static void
wide_or(struct wide *w, unsigned off, unsigned n, uint64_t v)
{
   v &= MASK(n);
   if (off < 64)
      w->lo |= v << off;
   if (off + n > 64)
      w->hi |= off >= 64 ? v << (off - 64) : v >> (64 - off);
}

bool
bi_ec0_packed(unsigned nr_tuples)
{
   /* The layouts of 3, 5, 6 and 8 tuples hold a whole constant. */
   return nr_tuples == 3 || nr_tuples == 5 || nr_tuples == 6 ||
          nr_tuples == 8;
}

unsigned
bi_const_quads_max(unsigned nr_tuples)
{
   unsigned n = 0;
   while (n < 3 && bi_const_position[nr_tuples - 1][n] >= 0)
      n++;
   return n;
}

static unsigned
seq_len(unsigned nr_tuples)
{
   unsigned n = 0;
   while (n < 6 && bi_sequences[nr_tuples - 1][n] >= 0)
      n++;
   return n;
}

/* Field widths of tag_c, tag_b, tag_a, S, T, U, V. */
static const uint8_t slot_bits[7] = {2, 3, 3, 60, 15, 30, 15};

static uint64_t
slot_value(const struct bi_slot *s, unsigned width, const struct wide *t,
           uint64_t header, uint64_t ec0, unsigned m, bool z, bool is_v)
{
   switch (s->kind) {
   case BI_SLOT_LIT:
      return (uint64_t)s->a;
   case BI_SLOT_Z:
      return z;
   case BI_SLOT_TUPLE:
      return wide_get(t[s->a], (unsigned)s->b, width);
   case BI_SLOT_UPPER:
      if (!is_v)
         return wide_get(t[s->a], 75, 3);
      return wide_get(t[s->a], 75, 3) << 12 |
             (s->b >= 0 ? wide_get(t[s->b], 75, 3) << 9 : 0);
   case BI_SLOT_HEADER:
      return width == 30 ? header & MASK(30) : (header >> 30) & MASK(15);
   case BI_SLOT_CONST:
      return (ec0 >> s->a) & MASK(width);
   case BI_SLOT_M:
      return m & MASK(15);
   default:
      return 0;
   }
}

int
bi_pack_clause(const struct bi_clause *c, uint64_t *out, unsigned max)
{
   unsigned n = c->nr_tuples;
   if (n < 1 || n > 8)
      return -1;
   struct bi_clause marked;
   if (!c->verbatim) {
      marked = *c;
      if (!bi_mark_branch(&marked))
         return -1;
      c = &marked;
   }

   bool packed = bi_ec0_packed(n);
   if (packed && c->nr_consts < 1)
      return -1;
   unsigned rest = c->nr_consts - packed;
   if (c->nr_consts > 8 || rest % 2 || rest / 2 > bi_const_quads_max(n))
      return -1;

   unsigned quads = rest / 2, len = seq_len(n);
   if (len + quads > max)
      return -1;

   struct wide t[8] = {{0}};
   for (unsigned i = 0; i < n; i++)
      t[i] = tuple_bits(&c->tuples[i]);
   uint64_t ec0 = c->nr_consts ? c->consts[0] & MASK(60) : 0;

   for (unsigned q = 0; q < len; q++) {
      const struct bi_quad_format *f =
         &bi_quad_formats[bi_sequences[n - 1][q]];
      uint64_t v[7];
      for (unsigned s = 0; s < 7; s++)
         v[s] = slot_value(&f->slots[s], slot_bits[s], t, c->header, ec0,
                           c->m, quads == 0, s == 6) & MASK(slot_bits[s]);
      out[2 * q] = v[2] | v[1] << 3 | v[0] << 6 | (v[3] & MASK(56)) << 8;
      out[2 * q + 1] = v[3] >> 56 | v[4] << 4 | v[5] << 19 | v[6] << 49;
   }
   for (unsigned k = 0; k < quads; k++) {
      uint64_t a = c->consts[packed + 2 * k] & MASK(60);
      uint64_t b = c->consts[packed + 2 * k + 1] & MASK(60);
      unsigned pos = (unsigned)bi_const_position[n - 1][k];
      unsigned tag = k + 1 < quads ? 3 : 7;
      out[2 * (len + k)] = pos | tag << 4 | (a & MASK(56)) << 8;
      out[2 * (len + k) + 1] = a >> 56 | b << 4;
   }
   return (int)(len + quads);
}

/* Inverse of slot_value: scatter a field back into the clause state. */
static bool
slot_take(const struct bi_slot *s, unsigned width, uint64_t v,
          struct wide *t, unsigned n, uint64_t *header, uint64_t *ec0,
          unsigned *m, int *z, bool is_v)
{
   switch (s->kind) {
   case BI_SLOT_LIT:
      return v == (uint64_t)s->a;
   case BI_SLOT_Z:
      *z = (int)v;
      return v <= 1;
   case BI_SLOT_TUPLE:
      if (s->a >= (int)n)
         return false;
      wide_or(&t[s->a], (unsigned)s->b, width, v);
      return true;
   case BI_SLOT_UPPER:
      if (s->a >= (int)n || (s->b >= (int)n))
         return false;
      if (!is_v) {
         wide_or(&t[s->a], 75, 3, v);
         return true;
      }
      wide_or(&t[s->a], 75, 3, v >> 12);
      if (s->b >= 0)
         wide_or(&t[s->b], 75, 3, v >> 9);
      return true;
   case BI_SLOT_HEADER:
      *header |= width == 30 ? v : v << 30;
      return true;
   case BI_SLOT_CONST:
      *ec0 |= v << s->a;
      return true;
   case BI_SLOT_M:
      *m = (unsigned)v;
      return true;
   default:
      return v == 0;
   }
}

static bool
try_unpack(const uint64_t *words, unsigned nr_quads, unsigned n,
           struct bi_clause *c, unsigned *used)
{
   unsigned len = seq_len(n);
   struct wide t[8] = {{0}};
   uint64_t ec0 = 0;
   int z = -1;

   if (nr_quads < len)
      return false;
   memset(c, 0, sizeof(*c));
   c->nr_tuples = n;
   c->verbatim = true;
   for (unsigned q = 0; q < len; q++) {
      const struct bi_quad_format *f =
         &bi_quad_formats[bi_sequences[n - 1][q]];
      uint64_t lo = words[2 * q], hi = words[2 * q + 1];
      uint64_t v[7] = {
         (lo >> 6) & 3, (lo >> 3) & 7, lo & 7,
         (lo >> 8) | (hi & 0xf) << 56, (hi >> 4) & MASK(15),
         (hi >> 19) & MASK(30), hi >> 49,
      };
      for (unsigned s = 0; s < 7; s++) {
         if (!slot_take(&f->slots[s], slot_bits[s], v[s], t, n, &c->header,
                        &ec0, &c->m, &z, s == 6))
            return false;
      }
   }
   for (unsigned i = 0; i < n; i++)
      tuple_from_bits(&c->tuples[i], t[i]);

   bool packed = bi_ec0_packed(n);
   unsigned quads = 0;
   if (z == 0) {
      for (;; quads++) {
         unsigned q = len + quads;
         if (q >= nr_quads || quads >= bi_const_quads_max(n))
            return false;
         unsigned tag = (words[2 * q] >> 4) & 0xf;
         if (tag != 3 && tag != 7)
            return false;
         if (tag == 7) {
            quads++;
            break;
         }
      }
   }
   c->nr_consts = packed + 2 * quads;
   if (packed)
      c->consts[0] = ec0;
   for (unsigned k = 0; k < quads; k++) {
      uint64_t lo = words[2 * (len + k)], hi = words[2 * (len + k) + 1];
      c->consts[packed + 2 * k] = (lo >> 8) | (hi & 0xf) << 56;
      c->consts[packed + 2 * k + 1] = hi >> 4;
   }

   /* Accept only what packing reproduces bit for bit. */
   uint64_t again[2 * 16];
   int got = bi_pack_clause(c, again, 16);
   if (got != (int)(len + quads) ||
       memcmp(again, words, sizeof(uint64_t) * 2 * (unsigned)got))
      return false;
   *used = (unsigned)got;
   return true;
}

unsigned
bi_unpack_clause(const uint64_t *words, unsigned nr_quads,
                 struct bi_clause *c)
{
   for (unsigned n = 1; n <= 8; n++) {
      unsigned used;
      if (try_unpack(words, nr_quads, n, c, &used))
         return used;
   }
   return 0;
}
