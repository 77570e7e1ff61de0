/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Valhall decoding and printing, driven by the generated tables.
 */

#include "pan_isa_va.h"
#include "pan_isa_va_priv.h"

#include <inttypes.h>
#include <string.h>

static inline unsigned
field(uint64_t word, unsigned start, unsigned size)
{
   return (unsigned)((word >> start) & ((1ull << size) - 1));
}

int
va_identify(uint64_t word)
{
   /* gen_va.py proves at most one entry can match. */
   for (unsigned i = 0; i < va_nr_ops; i++) {
      if ((word & va_ops[i].match_mask) == va_ops[i].match_value)
         return (int)i;
   }
   return -1;
}

bool
pan_va_decode(uint64_t word, struct pan_va_decoded *out)
{
   int i = va_identify(word);

   memset(out, 0, sizeof(*out));
   out->word = word;
   if (i < 0)
      return false;
   out->name = va_ops[i].name;
   out->unit = va_ops[i].unit;
   out->extra = (word ^ va_ops[i].default_value) & ~va_ops[i].covered;
   return true;
}

unsigned
pan_va_validate(const void *data, size_t size_B, pan_isa_invalid_fn invalid,
                void *user)
{
   const uint8_t *bytes = data;
   unsigned n = 0;

   for (size_t off = 0; off + 8 <= size_B; off += 8) {
      struct pan_va_decoded d;
      uint64_t word = 0;
      for (unsigned b = 0; b < 8; b++)
         word |= (uint64_t)bytes[off + b] << (8 * b);
      if (!word)
         continue;
      if (!pan_va_decode(word, &d)) {
         invalid(off, "unknown instruction encoding", user);
         n++;
      } else if (d.extra) {
         invalid(off, "bits set outside every field", user);
         n++;
      }
   }
   if (size_B % 8) {
      invalid(size_B - size_B % 8, "truncated instruction word", user);
      n++;
   }
   return n;
}

unsigned
pan_va_op_count(void)
{
   return va_nr_ops;
}

const char *
pan_va_op_name(unsigned index)
{
   return index < va_nr_ops ? va_ops[index].name : NULL;
}

/* Can `name` also be read as a value of another modifier in the list? */
static bool
ambiguous(const struct va_mod *mods, unsigned nr, unsigned self,
          const char *name)
{
   for (unsigned i = 0; i < nr; i++) {
      const struct va_mod *m = &mods[i];
      if (i == self || m->implied)
         continue;
      if (m->enum_id < 0) {
         if (!strcmp(m->name, name))
            return true;
         continue;
      }
      const struct va_enum *e = &va_enums[m->enum_id];
      for (unsigned v = 0; v < e->count; v++) {
         if (e->values[v] && !strcmp(e->values[v], name))
            return true;
      }
   }
   return false;
}

static void
print_mod(struct pan_isa_str *s, const struct va_mod *mods, unsigned nr,
          unsigned index, uint64_t word)
{
   const struct va_mod *m = &mods[index];
   unsigned v = field(word, m->start, m->size);

   if (m->implied)
      return;
   if (m->enum_id < 0) {
      if (v && ambiguous(mods, nr, index, m->name))
         pan_isa_str_printf(s, ".%s=1", m->name);
      else if (v)
         pan_isa_str_printf(s, ".%s", m->name);
      return;
   }

   const struct va_enum *e = &va_enums[m->enum_id];
   if (e->dflt >= 0 && v == (unsigned)e->dflt)
      return;
   const char *name = v < e->count ? e->values[v] : NULL;
   if (!name)
      pan_isa_str_printf(s, ".%s=%u", m->name, v);
   else if (ambiguous(mods, nr, index, name))
      pan_isa_str_printf(s, ".%s=%s", m->name, name);
   else
      pan_isa_str_printf(s, ".%s", name);
}

/* Does some operand name the FAU page (a uniform or a named special)? */
static bool
page_named_by_operand(const struct va_op *op, uint64_t word)
{
   unsigned page = field(word, VA_PAGE_SHIFT, 2);

   for (unsigned i = 0; i < op->nr_operands; i++) {
      if (op->operands[i].kind != VA_OPERAND_SRC)
         continue;
      unsigned sel = field(word, op->operands[i].start, 8);
      if ((sel >> 6) == 2)
         return true;
      if ((sel >> 6) == 3 && (sel & 63) >= 32 &&
          va_special_names[page][((sel & 63) - 32) >> 1])
         return true;
   }
   return false;
}

static void
print_src(struct pan_isa_str *s, const struct va_operand *o, uint64_t word)
{
   unsigned sel = field(word, o->start, 8);
   unsigned page = field(word, VA_PAGE_SHIFT, 2);
   unsigned value = sel & 63;

   switch (sel >> 6) {
   case 0:
      pan_isa_str_printf(s, "r%u", value);
      break;
   case 1:
      pan_isa_str_printf(s, "^r%u", value);
      break;
   case 2:
      pan_isa_str_printf(s, "u%u", page * 64 + value);
      break;
   default:
      if (value < 32) {
         uint32_t c = va_immediate_lut[value];
         bool first = true;
         for (unsigned i = 0; i < value; i++)
            first &= va_immediate_lut[i] != c;
         if (first)
            pan_isa_str_printf(s, "#0x%" PRIx32, c);
         else
            pan_isa_str_printf(s, "#lut%u", value);
      } else {
         const char *name = va_special_names[page][(value - 32) >> 1];
         if (name)
            pan_isa_str_printf(s, "%s.w%u", name, value & 1);
         else
            pan_isa_str_printf(s, "special%u.w%u", (value - 32) >> 1,
                               value & 1);
      }
      break;
   }

   for (unsigned i = 0; i < o->nr_mods; i++)
      print_mod(s, o->mods, o->nr_mods, i, word);
}

static void
print_operand(struct pan_isa_str *s, const struct va_op *op,
              const struct va_operand *o, uint64_t word)
{
   switch (o->kind) {
   case VA_OPERAND_STAGING: {
      unsigned count = o->count_fixed >= 0 ? (unsigned)o->count_fixed :
         field(word, op->mods[o->count_mod].start,
               op->mods[o->count_mod].size) + o->count_bias;
      pan_isa_str_printf(s, "{r%u:%u}", field(word, o->start, 6), count);
      break;
   }
   case VA_OPERAND_DEST: {
      static const char *const masks[4] = {".nowrite", ".h0", ".h1", ""};
      pan_isa_str_printf(s, "r%u%s", field(word, 40, 6),
                         masks[field(word, 46, 2)]);
      break;
   }
   case VA_OPERAND_SRC:
      print_src(s, o, word);
      break;
   default: {
      uint64_t raw = (word >> o->start) & ((1ull << o->size) - 1);
      if (o->is_signed && (raw >> (o->size - 1)))
         pan_isa_str_printf(s, "%s:-%" PRIu64, o->name,
                            (uint64_t)((1ull << o->size) - raw));
      else
         pan_isa_str_printf(s, "%s:%" PRIu64, o->name, raw);
      break;
   }
   }
}

size_t
pan_va_print(uint64_t word, char *buf, size_t size)
{
   struct pan_isa_str s;
   int i = va_identify(word);

   pan_isa_str_init(&s, buf, size);
   if (i < 0) {
      pan_isa_str_printf(&s, ".word 0x%016" PRIx64, word);
      return s.len;
   }

   const struct va_op *op = &va_ops[i];
   unsigned page = field(word, VA_PAGE_SHIFT, 2);
   uint64_t extra = (word ^ op->default_value) & ~op->covered;

   pan_isa_str_printf(&s, "%s", op->name);
   for (unsigned m = 0; m < op->nr_mods; m++)
      print_mod(&s, op->mods, op->nr_mods, m, word);
   if (page && !page_named_by_operand(op, word))
      pan_isa_str_printf(&s, ".page=%u", page);

   for (unsigned k = 0; k < op->nr_operands; k++) {
      pan_isa_str_printf(&s, k ? ", " : " ");
      print_operand(&s, op, &op->operands[k], word);
   }
   if (extra)
      pan_isa_str_printf(&s, "%sextra:0x%" PRIx64,
                         op->nr_operands ? ", " : " ", extra);
   return s.len;
}

int
pan_va_disassemble(const void *data, size_t size_B, FILE *fp, bool offsets,
                   char *err, size_t err_size)
{
   const uint8_t *bytes = data;
   char line[512];

   if (size_B % 8)
      return pan_isa_fail(err, err_size,
                          "truncated Valhall program: %zu bytes is not a "
                          "multiple of 8", size_B);

   for (size_t off = 0; off < size_B; off += 8) {
      uint64_t word = 0;
      for (unsigned b = 0; b < 8; b++)
         word |= (uint64_t)bytes[off + b] << (8 * b);
      pan_va_print(word, line, sizeof(line));
      /* The offset goes in a comment so the listing still assembles. */
      if (offsets)
         fprintf(fp, "%-64s ; %06zx\n", line, off);
      else
         fprintf(fp, "%s\n", line);
   }
   return 0;
}
