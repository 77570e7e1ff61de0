/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Valhall assembler: one line of our syntax to one 64-bit word, using the
 * same generated tables as the printer so the two cannot drift apart.
 */

#include "pan_isa_va.h"
#include "pan_isa_va_priv.h"

#include <string.h>

#define MAX_PARTS 32
#define LINE_MAX_CHARS 1024

static int
enum_lookup(const struct va_mod *m, const char *value)
{
   const struct va_enum *e = &va_enums[m->enum_id];

   for (unsigned i = 0; i < e->count; i++) {
      if (e->values[i] && !strcmp(e->values[i], value))
         return (int)i;
   }
   return -1;
}

/* Apply one ".modifier" to a list of modifier fields. */
static int
apply_mod(struct va_build *a, const struct va_mod *mods, unsigned nr,
          uint64_t *seen, const char *text)
{
   const char *eq = strchr(text, '=');
   int found = -1;
   int64_t value = -1;

   for (unsigned i = 0; i < nr; i++) {
      const struct va_mod *m = &mods[i];
      if (m->implied)
         continue;
      if (eq) {
         size_t n = (size_t)(eq - text);
         if (strlen(m->name) != n || strncmp(m->name, text, n))
            continue;
         found = (int)i;
         if (!pan_isa_parse_int(eq + 1, 0, (1ll << m->size) - 1, &value)) {
            value = m->enum_id >= 0 ? enum_lookup(m, eq + 1) : -1;
            if (value < 0)
               return pan_isa_fail(a->err, a->err_size,
                                   "bad value in .%s", text);
         }
         break;
      }
      int v = m->enum_id < 0 ? (strcmp(m->name, text) ? -1 : 1) :
                               enum_lookup(m, text);
      if (v < 0)
         continue;
      if (found >= 0)
         return pan_isa_fail(a->err, a->err_size, "modifier .%s is "
                             "ambiguous; write .field=%s", text, text);
      found = (int)i;
      value = v;
   }
   if (found < 0)
      return pan_isa_fail(a->err, a->err_size, "unknown modifier .%s", text);
   if (*seen & (1ull << found))
      return pan_isa_fail(a->err, a->err_size, "modifier %s given twice",
                          mods[found].name);
   *seen |= 1ull << found;
   va_put(&a->word, mods[found].start, mods[found].size, (uint64_t)value);
   return 0;
}

static bool
parse_reg(const char *s, int64_t *reg)
{
   return s[0] == 'r' && pan_isa_parse_int(s + 1, 0, 63, reg);
}

static int
parse_staging(struct va_build *a, const struct va_op *op,
              const struct va_operand *o, char *text)
{
   size_t n = strlen(text);
   int64_t reg, count;

   if (n < 2 || text[0] != '{' || text[n - 1] != '}')
      return pan_isa_fail(a->err, a->err_size,
                          "expected staging vector {rN:count}, got %s", text);
   text[n - 1] = '\0';
   char *colon = strchr(text + 1, ':');
   if (!colon)
      return pan_isa_fail(a->err, a->err_size, "staging vector needs a "
                          "length: {rN:count}");
   *colon = '\0';
   if (!parse_reg(text + 1, &reg) ||
       !pan_isa_parse_int(colon + 1, 0, 64, &count))
      return pan_isa_fail(a->err, a->err_size, "bad staging vector");

   va_put(&a->word, o->start, 6, (uint64_t)reg);
   if (o->count_fixed >= 0) {
      if (count != o->count_fixed)
         return pan_isa_fail(a->err, a->err_size, "%s stages exactly %d "
                             "registers", op->name, o->count_fixed);
      return 0;
   }
   const struct va_mod *m = &op->mods[o->count_mod];
   int64_t v = count - o->count_bias;
   if (v < 0 || v >= (1ll << m->size))
      return pan_isa_fail(a->err, a->err_size,
                          "staging length %d out of range", (int)count);
   va_put(&a->word, m->start, m->size, (uint64_t)v);
   return 0;
}

static int
parse_dest(struct va_build *a, char *text)
{
   char *parts[3];
   int n = pan_isa_split(text, '.', parts, 3);
   int64_t reg;
   unsigned mask = 3;

   if (n < 1 || n > 2 || !parse_reg(parts[0], &reg))
      return pan_isa_fail(a->err, a->err_size, "bad destination %s", text);
   if (n == 2) {
      if (!strcmp(parts[1], "h0"))
         mask = 1;
      else if (!strcmp(parts[1], "h1"))
         mask = 2;
      else if (!strcmp(parts[1], "nowrite"))
         mask = 0;
      else
         return pan_isa_fail(a->err, a->err_size, "bad write mask .%s",
                             parts[1]);
   }
   va_put(&a->word, 40, 8, (uint64_t)reg | mask << 6);
   return 0;
}

static int
special_lookup(const char *name, unsigned *page)
{
   for (unsigned p = 0; p < 4; p++) {
      for (unsigned i = 0; i < 16; i++) {
         if (va_special_names[p][i] && !strcmp(va_special_names[p][i], name)) {
            *page = p;
            return (int)i;
         }
      }
   }
   return -1;
}

/* The selector byte of a source; consumes the word part of specials. */
static int
parse_selector(struct va_build *a, char **parts, int n, int *used)
{
   const char *s = parts[0];
   int64_t v;
   unsigned page;
   int special = -1;

   *used = 1;
   if (s[0] == '^' && parse_reg(s + 1, &v))
      return 0x40 | (int)v;
   if (parse_reg(s, &v))
      return (int)v;
   if (s[0] == 'u' && pan_isa_parse_int(s + 1, 0, 255, &v)) {
      if (va_set_page(a, (unsigned)v >> 6))
         return -1;
      return 0x80 | (int)(v & 63);
   }
   if (!strncmp(s, "#lut", 4) && pan_isa_parse_int(s + 4, 0, 31, &v))
      return 0xC0 | (int)v;
   if (s[0] == '#' && pan_isa_parse_int(s + 1, 0, UINT32_MAX, &v)) {
      for (unsigned i = 0; i < 32; i++) {
         if (va_immediate_lut[i] == (uint32_t)v)
            return 0xC0 | (int)i;
      }
      return pan_isa_fail(a->err, a->err_size, "%s is not in the immediate "
                          "table", s);
   }
   if (!strncmp(s, "special", 7) && pan_isa_parse_int(s + 7, 0, 15, &v)) {
      special = (int)v;
   } else {
      special = special_lookup(s, &page);
      if (special < 0)
         return pan_isa_fail(a->err, a->err_size, "bad source %s", s);
      if (va_set_page(a, page))
         return -1;
   }
   if (n < 2 || (strcmp(parts[1], "w0") && strcmp(parts[1], "w1")))
      return pan_isa_fail(a->err, a->err_size, "special source %s needs "
                          ".w0 or .w1", s);
   *used = 2;
   return 0xC0 | (32 + special * 2 + (parts[1][1] - '0'));
}

static int
parse_src(struct va_build *a, const struct va_operand *o, char *text)
{
   char *parts[MAX_PARTS];
   int n = pan_isa_split(text, '.', parts, MAX_PARTS);
   int used;
   uint64_t seen = 0;

   if (n < 1 || !parts[0][0])
      return pan_isa_fail(a->err, a->err_size, "empty source");
   int sel = parse_selector(a, parts, n, &used);
   if (sel < 0)
      return -1;
   va_put(&a->word, o->start, 8, (uint64_t)sel);
   for (int i = used; i < n; i++) {
      if (apply_mod(a, o->mods, o->nr_mods, &seen, parts[i]))
         return -1;
   }
   return va_default_mods(a, o->mods, o->nr_mods, seen);
}

static int
parse_imm(struct va_build *a, const struct va_operand *o, char *text)
{
   char *colon = strchr(text, ':');
   int64_t v;
   int64_t lo = o->is_signed ? -(1ll << (o->size - 1)) : 0;
   int64_t hi = o->is_signed ? (1ll << (o->size - 1)) - 1 :
                               (1ll << o->size) - 1;

   if (!colon || (size_t)(colon - text) != strlen(o->name) ||
       strncmp(text, o->name, strlen(o->name)))
      return pan_isa_fail(a->err, a->err_size, "expected %s:value, got %s",
                          o->name, text);
   if (!pan_isa_parse_int(colon + 1, lo, hi, &v))
      return pan_isa_fail(a->err, a->err_size, "%s out of range", text);
   va_put(&a->word, o->start, o->size, (uint64_t)v);
   return 0;
}

static int
find_op(char **parts, int n, int *used)
{
   char name[LINE_MAX_CHARS];

   /* Longest match first: mnemonics themselves contain dots. */
   for (int k = n; k > 0; k--) {
      size_t len = 0;
      for (int i = 0; i < k; i++) {
         size_t l = strlen(parts[i]);
         if (len + l + 2 > sizeof(name))
            return -1;
         if (i)
            name[len++] = '.';
         memcpy(name + len, parts[i], l);
         len += l;
      }
      name[len] = '\0';
      for (unsigned i = 0; i < va_nr_ops; i++) {
         if (!strcmp(va_ops[i].name, name)) {
            *used = k;
            return (int)i;
         }
      }
   }
   return -1;
}

static int
parse_operands(struct va_build *a, const struct va_op *op, char *text)
{
   char *ops[16];
   int n = 0;
   uint64_t extra = 0;

   if (*text) {
      n = pan_isa_split(text, ',', ops, 16);
      if (n < 0)
         return pan_isa_fail(a->err, a->err_size, "too many operands");
   }
   if (n > 0 && !strncmp(ops[n - 1], "extra:", 6)) {
      if (!pan_isa_parse_u64(ops[n - 1] + 6, &extra))
         return pan_isa_fail(a->err, a->err_size, "bad %s", ops[n - 1]);
      n--;
   }
   if (n != op->nr_operands)
      return pan_isa_fail(a->err, a->err_size, "%s takes %u operands, got "
                          "%d", op->name, op->nr_operands, n);

   for (int i = 0; i < n; i++) {
      const struct va_operand *o = &op->operands[i];
      int r;
      switch (o->kind) {
      case VA_OPERAND_STAGING:
         r = parse_staging(a, op, o, ops[i]);
         break;
      case VA_OPERAND_DEST:
         r = parse_dest(a, ops[i]);
         break;
      case VA_OPERAND_SRC:
         r = parse_src(a, o, ops[i]);
         break;
      default:
         r = parse_imm(a, o, ops[i]);
         break;
      }
      if (r)
         return r;
   }
   if (extra & op->covered)
      return pan_isa_fail(a->err, a->err_size, "extra bits overlap fields "
                          "of %s", op->name);
   a->word |= op->default_value ^ extra;
   return 0;
}

static int
assemble(struct va_build *a, char *line)
{
   char *space = line + strcspn(line, " \t");
   char *operands = *space ? space + 1 : space;
   *space = '\0';

   if (!strcmp(line, ".word")) {
      if (!pan_isa_parse_u64(pan_isa_trim(operands), &a->word))
         return pan_isa_fail(a->err, a->err_size, "bad .word value");
      return 1;
   }

   char *parts[MAX_PARTS];
   int n = pan_isa_split(line, '.', parts, MAX_PARTS);
   int used;
   if (n < 0)
      return pan_isa_fail(a->err, a->err_size, "too many modifiers");
   int idx = find_op(parts, n, &used);
   if (idx < 0)
      return pan_isa_fail(a->err, a->err_size, "unknown instruction %s",
                          parts[0]);

   const struct va_op *op = &va_ops[idx];
   uint64_t seen = 0;
   a->word = op->match_value;
   for (int i = used; i < n; i++) {
      int64_t page;
      if (!strncmp(parts[i], "page=", 5)) {
         if (!pan_isa_parse_int(parts[i] + 5, 0, 3, &page) ||
             va_set_page(a, (unsigned)page))
            return pan_isa_fail(a->err, a->err_size, "bad .%s", parts[i]);
      } else if (apply_mod(a, op->mods, op->nr_mods, &seen, parts[i])) {
         return -1;
      }
   }
   if (va_default_mods(a, op->mods, op->nr_mods, seen) ||
       parse_operands(a, op, pan_isa_trim(operands)))
      return -1;
   va_put(&a->word, VA_PAGE_SHIFT, 2, a->page < 0 ? 0 : (uint64_t)a->page);

   if (va_identify(a->word) != idx)
      return pan_isa_fail(a->err, a->err_size, "internal: %s encodes to a "
                          "word that decodes differently", op->name);
   return 1;
}

int
pan_va_assemble_line(const char *line, uint64_t *word, char *err,
                     size_t err_size)
{
   char buf[LINE_MAX_CHARS];
   struct va_build a = {.page = -1, .err = err, .err_size = err_size};

   if (!pan_isa_copy_line(line, strlen(line), buf, sizeof(buf)))
      return pan_isa_fail(err, err_size, "line too long or contains NUL");
   char *text = pan_isa_trim(buf);
   if (!*text)
      return 0;
   int r = assemble(&a, text);
   if (r == 1)
      *word = a.word;
   return r;
}

int
pan_va_assemble(const char *text, size_t len, struct pan_isa_bytes *out,
                char *err, size_t err_size)
{
   size_t line_no = 1;

   for (size_t pos = 0; pos < len; line_no++) {
      const char *nl = memchr(text + pos, '\n', len - pos);
      size_t end = nl ? (size_t)(nl - text) : len;
      char buf[LINE_MAX_CHARS];
      char msg[256];
      uint64_t word;

      if (!pan_isa_copy_line(text + pos, end - pos, buf, sizeof(buf)))
         return pan_isa_fail(err, err_size, "line %zu: too long or contains "
                             "NUL", line_no);
      int r = pan_va_assemble_line(buf, &word, msg, sizeof(msg));
      if (r < 0)
         return pan_isa_fail(err, err_size, "line %zu: %s", line_no, msg);
      if (r == 1) {
         uint8_t bytes[8];
         for (unsigned b = 0; b < 8; b++)
            bytes[b] = (uint8_t)(word >> (8 * b));
         if (!pan_isa_bytes_append(out, bytes, 8))
            return pan_isa_fail(err, err_size, "out of memory");
      }
      pos = end + 1;
   }
   return 0;
}
