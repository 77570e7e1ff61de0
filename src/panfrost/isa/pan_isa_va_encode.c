/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Structured Valhall encoder over the generated va_ops[] table: the same
 * field positions, enums and defaults the text assembler uses, without the
 * text.  The final va_identify check is the assembler's too.
 */

#include "pan_isa_va_encode.h"
#include "pan_isa_text.h"
#include "pan_isa_va_priv.h"

#include <string.h>

int
pan_va_op_lookup(const char *name)
{
   if (!name)
      return -1;
   for (unsigned i = 0; i < va_nr_ops; i++) {
      if (!strcmp(va_ops[i].name, name))
         return (int)i;
   }
   return -1;
}

int
pan_va_op_nr_operands(unsigned op)
{
   return op < va_nr_ops ? va_ops[op].nr_operands : -1;
}

int
pan_va_op_operand_kind(unsigned op, unsigned k)
{
   if (op >= va_nr_ops || k >= va_ops[op].nr_operands)
      return -1;
   /* The public enum mirrors enum va_operand_kind. */
   return va_ops[op].operands[k].kind;
}

uint32_t
pan_va_lut_value(unsigned i)
{
   return i < 32 ? va_immediate_lut[i] : 0;
}

int
pan_va_lut_index(uint32_t v)
{
   for (unsigned i = 0; i < 32; i++) {
      if (va_immediate_lut[i] == v)
         return (int)i;
   }
   return -1;
}

bool
pan_va_special_lookup(const char *name, uint8_t *page, uint8_t *index)
{
   for (unsigned p = 0; name && p < 4; p++) {
      for (unsigned i = 0; i < 16; i++) {
         if (va_special_names[p][i] && !strcmp(va_special_names[p][i], name)) {
            *page = (uint8_t)p;
            *index = (uint8_t)i;
            return true;
         }
      }
   }
   return false;
}

/* Value of one modifier setting for field m, or -1. */
static int64_t
mod_value(struct va_build *e, const struct va_mod *m,
          const struct pan_va_mod_value *v)
{
   if (!v->value) {
      if (v->ivalue >= (1u << m->size))
         return pan_isa_fail(e->err, e->err_size,
                             "value %u out of range "
                             "for modifier %s",
                             v->ivalue, m->name);
      return v->ivalue;
   }
   if (m->enum_id < 0) {
      if (!strcmp(v->value, m->name) || !strcmp(v->value, "1"))
         return 1;
      if (!strcmp(v->value, "0"))
         return 0;
   } else {
      const struct va_enum *en = &va_enums[m->enum_id];
      for (unsigned i = 0; i < en->count; i++) {
         if (en->values[i] && !strcmp(en->values[i], v->value))
            return i;
      }
   }
   return pan_isa_fail(e->err, e->err_size, "bad value %s for modifier %s",
                       v->value, m->name);
}

/* Apply a list of settings to a list of fields, then the defaults. */
static int
apply_mods(struct va_build *e, const struct va_mod *mods, unsigned nr,
           const struct pan_va_mod_value *vals, unsigned nr_vals)
{
   uint64_t seen = 0;

   for (unsigned k = 0; k < nr_vals; k++) {
      const char *field = vals[k].field ? vals[k].field : "(null)";
      unsigned i;
      for (i = 0; i < nr; i++) {
         if (!mods[i].implied && !strcmp(mods[i].name, field))
            break;
      }
      if (i == nr)
         return pan_isa_fail(e->err, e->err_size, "unknown modifier %s", field);
      if (seen & (1ull << i))
         return pan_isa_fail(e->err, e->err_size, "modifier %s given twice",
                             field);
      seen |= 1ull << i;
      int64_t v = mod_value(e, &mods[i], &vals[k]);
      if (v < 0)
         return -1;
      va_put(&e->word, mods[i].start, mods[i].size, (uint64_t)v);
   }
   return va_default_mods(e, mods, nr, seen);
}

static int
enc_staging(struct va_build *e, const struct va_op *op,
            const struct va_operand *o, const struct pan_va_operand *v)
{
   if (v->reg > 63)
      return pan_isa_fail(e->err, e->err_size, "no register r%u", v->reg);
   va_put(&e->word, o->start, 6, v->reg);
   if (o->count_fixed >= 0) {
      if (v->count != o->count_fixed)
         return pan_isa_fail(e->err, e->err_size,
                             "%s stages exactly %d "
                             "registers",
                             op->name, o->count_fixed);
      return 0;
   }
   const struct va_mod *m = &op->mods[o->count_mod];
   int v_enc = (int)v->count - o->count_bias;
   if (v_enc < 0 || v_enc >= (1 << m->size))
      return pan_isa_fail(e->err, e->err_size, "staging length %u out of range",
                          v->count);
   va_put(&e->word, m->start, m->size, (uint64_t)v_enc);
   return 0;
}

static int
enc_dest(struct va_build *e, const struct pan_va_operand *v)
{
   /* Encoded mask: bit 0 writes the low half, bit 1 the high half. */
   static const uint8_t masks[4] = { 3, 1, 2, 0 };

   if (v->reg > 63 || v->write > PAN_VA_WRITE_NONE)
      return pan_isa_fail(e->err, e->err_size, "bad destination r%u", v->reg);
   va_put(&e->word, 40, 8, (uint64_t)v->reg | (uint64_t)masks[v->write] << 6);
   return 0;
}

static int
selector(struct va_build *e, const struct pan_va_src *s)
{
   switch (s->kind) {
   case PAN_VA_SRC_REG:
      if (s->value > 63)
         break;
      return (s->discard ? 0x40 : 0) | s->value;
   case PAN_VA_SRC_UNIFORM:
      if (va_set_page(e, s->value >> 6))
         return -1;
      return 0x80 | (s->value & 63);
   case PAN_VA_SRC_LUT:
      if (s->value > 31)
         break;
      return 0xC0 | s->value;
   case PAN_VA_SRC_SPECIAL:
      if (s->value > 15 || s->word > 1 || s->special_page > 3)
         break;
      if (va_set_page(e, s->special_page))
         return -1;
      return 0xC0 | (32 + s->value * 2 + s->word);
   default:
      break;
   }
   return pan_isa_fail(e->err, e->err_size, "bad source (kind %u, value %u)",
                       s->kind, s->value);
}

static int
enc_src(struct va_build *e, const struct va_operand *o,
        const struct pan_va_src *s)
{
   int sel = selector(e, s);
   if (sel < 0)
      return -1;
   if (s->nr_mods > PAN_VA_MAX_SRC_MODS)
      return pan_isa_fail(e->err, e->err_size, "too many source modifiers");
   va_put(&e->word, o->start, 8, (uint64_t)sel);
   return apply_mods(e, o->mods, o->nr_mods, s->mods, s->nr_mods);
}

static int
enc_imm(struct va_build *e, const struct va_operand *o, int64_t v)
{
   int64_t lo = o->is_signed ? -(1ll << (o->size - 1)) : 0;
   int64_t hi =
      o->is_signed ? (1ll << (o->size - 1)) - 1 : (1ll << o->size) - 1;
   if (v < lo || v > hi)
      return pan_isa_fail(e->err, e->err_size, "%s:%lld out of range", o->name,
                          (long long)v);
   va_put(&e->word, o->start, o->size, (uint64_t)v);
   return 0;
}

static int
enc_operands(struct va_build *e, const struct va_op *op,
             const struct pan_va_instr *in)
{
   if (in->nr_operands != op->nr_operands)
      return pan_isa_fail(e->err, e->err_size,
                          "%s takes %u operands, got "
                          "%u",
                          op->name, op->nr_operands, in->nr_operands);
   for (unsigned i = 0; i < op->nr_operands; i++) {
      const struct va_operand *o = &op->operands[i];
      const struct pan_va_operand *v = &in->operands[i];
      int r;
      switch (o->kind) {
      case VA_OPERAND_STAGING:
         r = enc_staging(e, op, o, v);
         break;
      case VA_OPERAND_DEST:
         r = enc_dest(e, v);
         break;
      case VA_OPERAND_SRC:
         r = enc_src(e, o, &v->src);
         break;
      default:
         r = enc_imm(e, o, v->imm);
         break;
      }
      if (r)
         return r;
   }
   return 0;
}

int
pan_va_encode(const struct pan_va_instr *in, uint64_t *word, char *err,
              size_t err_size)
{
   struct va_build e = { .page = -1, .err = err, .err_size = err_size };
   int idx = in->op >= 0 ? in->op : pan_va_op_lookup(in->name);

   if (idx < 0 || (unsigned)idx >= va_nr_ops)
      return pan_isa_fail(err, err_size, "unknown instruction %s",
                          in->op >= 0 ? "(bad index)"
                          : in->name  ? in->name
                                      : "(null)");
   const struct va_op *op = &va_ops[idx];
   if (in->nr_mods > PAN_VA_MAX_MODS || in->nr_operands > PAN_VA_MAX_OPERANDS)
      return pan_isa_fail(err, err_size, "too many modifiers or operands");
   if (in->page > 3)
      return pan_isa_fail(err, err_size, "no FAU page %d", in->page);

   e.word = op->match_value;
   if (in->page >= 0 && va_set_page(&e, (unsigned)in->page))
      return -1;
   if (apply_mods(&e, op->mods, op->nr_mods, in->mods, in->nr_mods) ||
       enc_operands(&e, op, in))
      return -1;
   e.word |= op->default_value;
   va_put(&e.word, VA_PAGE_SHIFT, 2, e.page < 0 ? 0 : (uint64_t)e.page);

   if (va_identify(e.word) != idx)
      return pan_isa_fail(err, err_size,
                          "%s: these fields encode a word "
                          "that decodes as another instruction",
                          op->name);
   *word = e.word;
   return 0;
}
