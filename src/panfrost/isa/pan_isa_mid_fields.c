/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * One Midgard instruction as text: the table-driven printer and parser of
 * "unit.op name=value ..." lines, and the per-instruction checks.
 */

#define _POSIX_C_SOURCE 200809L

#include "pan_isa_mid_priv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char swz_letters[] = "xyzw";

/* Fields are at most 64 bits, so one fits in two words at most: read and
 * write them a word at a time (packing and decoding call these for every
 * field of every instruction). */
uint64_t
mid_get(const uint64_t *bits, unsigned start, unsigned size)
{
   if (!size)
      return 0;
   unsigned w = start / 64, o = start % 64;
   uint64_t v = bits[w] >> o;
   if (o + size > 64)
      v |= bits[w + 1] << (64 - o);
   return size < 64 ? v & ((1ull << size) - 1) : v;
}

void
mid_set(uint64_t *bits, unsigned start, unsigned size, uint64_t v)
{
   if (!size)
      return;
   unsigned w = start / 64, o = start % 64;
   uint64_t mask = size < 64 ? (1ull << size) - 1 : ~0ull;
   v &= mask;
   bits[w] = (bits[w] & ~(mask << o)) | (v << o);
   if (o + size > 64)
      bits[w + 1] = (bits[w + 1] & ~(mask >> (64 - o))) | (v >> (64 - o));
}

/* The layout of every field set or read goes through the opcode: each
 * thread remembers its latest answers by table and value. */
static __thread struct {
   const struct mid_format *fmt;
   unsigned v;
   const struct mid_op *op;
} find_memo[64];

const struct mid_op *
mid_find_op(const struct mid_format *fmt, unsigned v)
{
   unsigned h = (v ^ (unsigned)((uintptr_t)fmt >> 6)) % 64;
   if (find_memo[h].fmt == fmt && find_memo[h].v == v)
      return find_memo[h].op;
   for (unsigned i = 0; i < fmt->nr_ops; i++) {
      if (fmt->ops[i].value == v) {
         find_memo[h].fmt = fmt;
         find_memo[h].v = v;
         find_memo[h].op = &fmt->ops[i];
         return &fmt->ops[i];
      }
   }
   return NULL;
}

const struct mid_format *
mid_layout(unsigned fmt_id, const uint64_t *bits)
{
   const struct mid_format *fmt = &mid_formats[fmt_id];
   const struct mid_op *op =
      mid_find_op(fmt, mid_get(bits, fmt->op_start, fmt->op_size));
   return op && op->fmt >= 0 ? &mid_formats[op->fmt] : fmt;
}

static int64_t
sext(uint64_t v, unsigned size)
{
   uint64_t sign = 1ull << (size - 1);
   return (int64_t)((v ^ sign) - sign);
}

static void
print_field(struct pan_isa_str *s, const struct mid_field *f, uint64_t v,
            bool is_int)
{
   const char *const *names = is_int && f->int_names ? f->int_names : f->names;

   switch (f->kind) {
   case MID_FLAG:
      pan_isa_str_printf(s, " %s", f->name);
      return;
   case MID_REG:
      pan_isa_str_printf(s, " %s=r%u", f->name, (unsigned)v);
      return;
   case MID_SWZ:
      pan_isa_str_printf(s, " %s=", f->name);
      for (unsigned c = 0; c < 4; c++)
         pan_isa_str_printf(s, "%c", swz_letters[(v >> (2 * c)) & 3]);
      return;
   case MID_SINT:
      pan_isa_str_printf(s, " %s=%lld", f->name, (long long)sext(v, f->size));
      return;
   case MID_HEX:
      pan_isa_str_printf(s, " %s=0x%llx", f->name, (unsigned long long)v);
      return;
   case MID_ENUM:
      if (names[v]) {
         pan_isa_str_printf(s, " %s=%s", f->name, names[v]);
         return;
      }
      break;
   default:
      break;
   }
   pan_isa_str_printf(s, " %s=%llu", f->name, (unsigned long long)v);
}

void
mid_print_instr(struct pan_isa_str *s, const char *unit, unsigned fmt_id,
                const uint64_t *bits)
{
   const struct mid_format *base = &mid_formats[fmt_id];
   const struct mid_format *fmt = mid_layout(fmt_id, bits);
   unsigned v = mid_get(bits, base->op_start, base->op_size);
   const struct mid_op *op = mid_find_op(base, v);

   if (op)
      pan_isa_str_printf(s, "%s.%s", unit, op->name);
   else
      pan_isa_str_printf(s, "%s.0x%x", unit, v);

   for (unsigned i = 0; i < fmt->nr_fields; i++) {
      const struct mid_field *f = &fmt->fields[i];
      uint64_t fv = mid_get(bits, f->start, f->size);
      if (fv != f->def)
         print_field(s, f, fv, op && op->is_int);
   }
}

static bool
parse_enum(const char *const *names, unsigned n, const char *val, uint64_t *out)
{
   if (!names)
      return false;
   for (unsigned i = 0; i < n; i++) {
      if (names[i] && !strcmp(names[i], val)) {
         *out = i;
         return true;
      }
   }
   return false;
}

static bool
parse_value(const struct mid_field *f, const char *val, uint64_t *out)
{
   int64_t x;
   uint64_t max = (1ull << f->size) - 1;

   switch (f->kind) {
   case MID_REG:
      if (val[0] != 'r' || !pan_isa_parse_int(val + 1, 0, max, &x))
         return false;
      *out = x;
      return true;
   case MID_SWZ:
      if (strlen(val) != 4)
         return false;
      *out = 0;
      for (unsigned c = 0; c < 4; c++) {
         const char *p = val[c] ? strchr(swz_letters, val[c]) : NULL;
         if (!p)
            return false;
         *out |= (uint64_t)(p - swz_letters) << (2 * c);
      }
      return true;
   case MID_SINT:
      if (!pan_isa_parse_int(val, -(int64_t)(1ull << (f->size - 1)),
                             (int64_t)(max >> 1), &x))
         return false;
      *out = (uint64_t)x & max;
      return true;
   case MID_ENUM:
      if (parse_enum(f->names, 1u << f->size, val, out) ||
          parse_enum(f->int_names, 1u << f->size, val, out))
         return true;
      break;
   default:
      break;
   }
   if (!pan_isa_parse_int(val, 0, max, &x))
      return false;
   *out = x;
   return true;
}

static const struct mid_field *
find_field(const struct mid_format *fmt, const char *name)
{
   for (unsigned i = 0; i < fmt->nr_fields; i++) {
      if (!strcmp(fmt->fields[i].name, name))
         return &fmt->fields[i];
   }
   return NULL;
}

int
mid_parse_instr(char *text, unsigned fmt_id, uint64_t *bits, char *err,
                size_t err_size)
{
   const struct mid_format *base = &mid_formats[fmt_id];
   char *save = NULL;
   char *tok = strtok_r(text, " \t", &save);
   const struct mid_op *op = NULL;
   int64_t v;

   if (!tok)
      return pan_isa_fail(err, err_size, "missing opcode");
   for (unsigned i = 0; i < base->nr_ops && !op; i++) {
      if (!strcmp(base->ops[i].name, tok))
         op = &base->ops[i];
   }
   if (op)
      v = op->value;
   else if (!pan_isa_parse_int(tok, 0, (1 << base->op_size) - 1, &v))
      return pan_isa_fail(err, err_size, "unknown %s opcode '%s'", base->name,
                          tok);
   else
      op = mid_find_op(base, v);

   const struct mid_format *fmt =
      op && op->fmt >= 0 ? &mid_formats[op->fmt] : base;
   bits[0] = bits[1] = 0;
   mid_set(bits, base->op_start, base->op_size, v);
   for (unsigned i = 0; i < fmt->nr_fields; i++)
      mid_set(bits, fmt->fields[i].start, fmt->fields[i].size,
              fmt->fields[i].def);

   uint64_t seen = 0;
   while ((tok = strtok_r(NULL, " \t", &save))) {
      char *eq = strchr(tok, '=');
      if (eq)
         *eq = '\0';
      const struct mid_field *f = find_field(fmt, tok);
      if (!f)
         return pan_isa_fail(err, err_size, "%s has no field '%s'",
                             op ? op->name : fmt->name, tok);
      unsigned idx = f - fmt->fields;
      if (seen & (1ull << idx))
         return pan_isa_fail(err, err_size, "field '%s' given twice", tok);
      seen |= 1ull << idx;
      uint64_t fv = 1;
      if (eq ? !parse_value(f, eq + 1, &fv) : f->kind != MID_FLAG)
         return pan_isa_fail(err, err_size, "bad value for '%s'", tok);
      mid_set(bits, f->start, f->size, fv);
   }
   return 0;
}

static void report(size_t offset_B, pan_isa_invalid_fn invalid, void *user,
                   unsigned *count, const char *fmt, ...)
   __attribute__((format(printf, 5, 6)));

static void
report(size_t offset_B, pan_isa_invalid_fn invalid, void *user, unsigned *count,
       const char *fmt, ...)
{
   char why[160];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(why, sizeof(why), fmt, ap);
   va_end(ap);
   (*count)++;
   if (invalid)
      invalid(offset_B, why, user);
}

void
mid_check_instr(unsigned fmt_id, int unit, const uint64_t *bits,
                size_t offset_B, pan_isa_invalid_fn invalid, void *user,
                unsigned *count)
{
   const struct mid_format *base = &mid_formats[fmt_id];
   const struct mid_format *fmt = mid_layout(fmt_id, bits);
   unsigned v = mid_get(bits, base->op_start, base->op_size);
   const struct mid_op *op = mid_find_op(base, v);

   if (!op) {
      report(offset_B, invalid, user, count, "unknown %s opcode 0x%x",
             base->name, v);
      return;
   }
   if (unit >= 0 && unit < MID_NR_ALU && !(op->units & (1u << unit)))
      report(offset_B, invalid, user, count, "%s cannot run on %s", op->name,
             mid_units[unit].name);
   for (unsigned i = 0; i < fmt->nr_fields; i++) {
      const struct mid_field *f = &fmt->fields[i];
      if (f->reserved && mid_get(bits, f->start, f->size))
         report(offset_B, invalid, user, count, "%s: unknown bits %s set",
                op->name, f->name);
   }
}

const char *
pan_mid_instr_op(const struct pan_mid_instr *I, unsigned *value, bool *is_int)
{
   unsigned fmt_id = I->slot == PAN_MID_LDST  ? MID_FMT_LDST
                     : I->slot == PAN_MID_TEX ? MID_FMT_TEX
                     : I->slot < MID_NR_UNITS ? mid_units[I->slot].fmt
                                              : MID_NR_FORMATS;
   if (fmt_id >= MID_NR_FORMATS)
      return NULL;
   const struct mid_format *base = &mid_formats[fmt_id];
   unsigned v = mid_get(I->bits, base->op_start, base->op_size);
   const struct mid_op *op = mid_find_op(base, v);
   if (value)
      *value = v;
   if (is_int)
      *is_int = op && op->is_int;
   return op ? op->name : NULL;
}

bool
pan_mid_instr_field(const struct pan_mid_instr *I, const char *name,
                    uint64_t *value)
{
   unsigned fmt_id = I->slot == PAN_MID_LDST  ? MID_FMT_LDST
                     : I->slot == PAN_MID_TEX ? MID_FMT_TEX
                     : I->slot < MID_NR_UNITS ? mid_units[I->slot].fmt
                                              : MID_NR_FORMATS;
   if (fmt_id >= MID_NR_FORMATS)
      return false;
   const struct mid_format *fmt = mid_layout(fmt_id, I->bits);
   for (unsigned i = 0; i < fmt->nr_fields; i++) {
      if (!strcmp(fmt->fields[i].name, name)) {
         const struct mid_field *f = &fmt->fields[i];
         uint64_t v = mid_get(I->bits, f->start, f->size);
         *value = f->kind == MID_SINT ? (uint64_t)sext(v, f->size) : v;
         return true;
      }
   }
   return false;
}
