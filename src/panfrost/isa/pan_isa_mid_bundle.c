/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Midgard bundles <-> struct pan_mid_bundle.  Decoding re-encodes what it
 * read and falls back to a raw bundle unless the bytes come back equal, so
 * the structured form always stands for exactly the input.
 */

#include "pan_isa_mid_priv.h"

#include <string.h>

static uint64_t
get_bytes(const uint8_t *p, unsigned n)
{
   uint64_t v = 0;
   for (unsigned i = 0; i < n; i++)
      v |= (uint64_t)p[i] << (8 * i);
   return v;
}

static void
put_bytes(uint8_t *p, unsigned n, uint64_t v)
{
   for (unsigned i = 0; i < n; i++)
      p[i] = v >> (8 * i);
}

static void
decode_alu(const uint8_t *d, struct pan_mid_bundle *b)
{
   uint32_t control = get_bytes(d, 4);
   unsigned reg_at = 4, word_at = 4;

   b->control = control & mid_control_unknown;
   for (unsigned u = 0; u < MID_NR_UNITS; u++) {
      if ((control >> mid_units[u].enable_bit) & 1)
         word_at += mid_units[u].regword ? 2 : 0;
   }
   for (unsigned u = 0; u < MID_NR_UNITS; u++) {
      if (!((control >> mid_units[u].enable_bit) & 1))
         continue;
      struct pan_mid_instr *I = &b->instrs[b->nr_instrs++];
      unsigned n = mid_units[u].halfwords * 2;
      I->slot = u;
      I->bits[1] = 0;
      if (word_at + n > b->size_B)
         return; /* too long: the re-encoding check rejects it */
      I->bits[0] = get_bytes(d + word_at, n);
      if (mid_units[u].regword) {
         I->bits[0] = (I->bits[0] << 16) | get_bytes(d + reg_at, 2);
         reg_at += 2;
      }
      word_at += n;
   }
   unsigned needed = (word_at + 15) / 16 * 16;
   if (b->size_B == needed + 16) {
      b->has_consts = true;
      for (unsigned i = 0; i < 4; i++)
         b->consts[i] = get_bytes(d + needed + 4 * i, 4);
   }
}

static void
decode_words(const uint8_t *d, struct pan_mid_bundle *b, unsigned kind)
{
   uint64_t q[2] = { get_bytes(d, 8), get_bytes(d + 8, 8) };

   if (kind == MID_KIND_TEX) {
      b->nr_instrs = 1;
      b->instrs[0].slot = PAN_MID_TEX;
      b->instrs[0].bits[0] = q[0] & ~0xffull;
      b->instrs[0].bits[1] = q[1];
      return;
   }
   b->nr_instrs = 2;
   for (unsigned i = 0; i < 2; i++) {
      b->instrs[i].slot = PAN_MID_LDST;
      b->instrs[i].bits[0] = mid_get(q, 8 + 60 * i, 60);
      b->instrs[i].bits[1] = 0;
   }
}

size_t
pan_mid_decode_bundle(const uint8_t *data, size_t size_B,
                      struct pan_mid_bundle *b)
{
   memset(b, 0, sizeof(*b));
   if (size_B < 16)
      return 0;

   b->tag = data[0] & 0xf;
   b->next_tag = data[0] >> 4;
   const struct mid_tag *t = &mid_tags[b->tag];
   b->size_B = t->quadwords * 16;
   if (b->size_B > size_B)
      b->size_B = 16; /* cut off: keep what is there, raw */

   if (t->kind == MID_KIND_ALU)
      decode_alu(data, b);
   else if (t->kind != MID_KIND_RAW)
      decode_words(data, b, t->kind);

   uint8_t again[64];
   if (t->kind == MID_KIND_RAW || b->size_B != t->quadwords * 16 ||
       pan_mid_encode_bundle(b, again) != b->size_B ||
       memcmp(again, data, b->size_B)) {
      b->raw = true;
      b->nr_instrs = 0;
      b->has_consts = false;
      memcpy(b->raw_bytes, data, b->size_B);
   }
   return b->size_B;
}

static size_t
encode_alu(const struct pan_mid_bundle *b, uint8_t *out)
{
   uint32_t control = b->control & mid_control_unknown;
   const struct pan_mid_instr *by_unit[MID_NR_UNITS] = { NULL };
   unsigned at = 4;

   for (unsigned i = 0; i < b->nr_instrs; i++) {
      unsigned u = b->instrs[i].slot;
      if (u >= MID_NR_UNITS || by_unit[u])
         return 0;
      by_unit[u] = &b->instrs[i];
      control |= 1u << mid_units[u].enable_bit;
      at += 2 * mid_units[u].halfwords + (mid_units[u].regword ? 2 : 0);
   }
   unsigned size = (at + 15) / 16 * 16 + (b->has_consts ? 16 : 0);
   if (size > 64 || b->tag < 8 || mid_tags[b->tag].quadwords * 16 != size)
      return 0;

   memset(out, 0, size);
   unsigned reg_at = 4, word_at = 4;
   for (unsigned u = 0; u < MID_NR_UNITS; u++)
      word_at += by_unit[u] && mid_units[u].regword ? 2 : 0;
   for (unsigned u = 0; u < MID_NR_UNITS; u++) {
      if (!by_unit[u])
         continue;
      uint64_t v = by_unit[u]->bits[0];
      if (mid_units[u].regword) {
         put_bytes(out + reg_at, 2, v);
         reg_at += 2;
         v >>= 16;
      }
      put_bytes(out + word_at, 2 * mid_units[u].halfwords, v);
      word_at += 2 * mid_units[u].halfwords;
   }
   put_bytes(out, 4, control | b->tag | (b->next_tag << 4));
   if (b->has_consts) {
      for (unsigned i = 0; i < 4; i++)
         put_bytes(out + size - 16 + 4 * i, 4, b->consts[i]);
   }
   return size;
}

size_t
pan_mid_encode_bundle(const struct pan_mid_bundle *b, uint8_t *out)
{
   if (b->raw) {
      if (!b->size_B || b->size_B > 64 || b->size_B % 16)
         return 0;
      memcpy(out, b->raw_bytes, b->size_B);
      return b->size_B;
   }
   if (b->tag > 15 || b->next_tag > 15)
      return 0;

   unsigned kind = mid_tags[b->tag].kind;
   if (kind == MID_KIND_ALU)
      return encode_alu(b, out);

   uint64_t q[2] = { 0, 0 };
   if (kind == MID_KIND_TEX) {
      if (b->nr_instrs != 1 || b->instrs[0].slot != PAN_MID_TEX)
         return 0;
      q[0] = b->instrs[0].bits[0] & ~0xffull;
      q[1] = b->instrs[0].bits[1];
   } else if (kind == MID_KIND_LDST) {
      if (b->nr_instrs != 2)
         return 0;
      for (unsigned i = 0; i < 2; i++) {
         if (b->instrs[i].slot != PAN_MID_LDST || b->instrs[i].bits[0] >> 60 ||
             b->instrs[i].bits[1])
            return 0;
         mid_set(q, 8 + 60 * i, 60, b->instrs[i].bits[0]);
      }
   } else {
      return 0;
   }
   q[0] |= b->tag | (b->next_tag << 4);
   put_bytes(out, 8, q[0]);
   put_bytes(out + 8, 8, q[1]);
   return 16;
}

const char *
pan_mid_op_name(enum pan_mid_slot slot, unsigned op)
{
   unsigned fmt = slot == PAN_MID_LDST  ? MID_FMT_LDST
                  : slot == PAN_MID_TEX ? MID_FMT_TEX
                  : slot < MID_NR_UNITS ? mid_units[slot].fmt
                                        : MID_NR_FORMATS;
   if (fmt >= MID_NR_FORMATS)
      return NULL;
   const struct mid_op *o = mid_find_op(&mid_formats[fmt], op);
   return o ? o->name : NULL;
}
