/*
 * Copyright 2025 the panfrost-ng authors
 * SPDX-License-Identifier: MIT
 *
 * Bifrost program assembler: "clause" lines open a clause, tuple lines
 * ("fma | add | regs ...") and "const" lines fill it, ".quad" emits raw
 * bytes.  A clause is packed when the next one starts or the text ends.
 */

#include "pan_isa_bi.h"
#include "pan_isa_bi_priv.h"

#include <string.h>

#define LINE_MAX_CHARS 1024

struct bi_asm {
   struct bi_clause clause;
   bool open;
   struct pan_isa_bytes *out;
   char *err;
   size_t err_size;
};

static int
emit_words(struct bi_asm *a, const uint64_t *words, unsigned nr)
{
   for (unsigned i = 0; i < nr; i++) {
      uint8_t b[8];
      for (unsigned k = 0; k < 8; k++)
         b[k] = (uint8_t)(words[i] >> (8 * k));
      if (!pan_isa_bytes_append(a->out, b, 8))
         return pan_isa_fail(a->err, a->err_size, "out of memory");
   }
   return 0;
}

static int
close_clause(struct bi_asm *a)
{
   uint64_t words[2 * 16];

   if (!a->open)
      return 0;
   a->open = false;
   int quads = bi_pack_clause(&a->clause, words, 16);
   if (quads < 0)
      return pan_isa_fail(a->err, a->err_size, "clause of %u tuples cannot "
                          "hold %u constants (the layout needs %s)",
                          a->clause.nr_tuples, a->clause.nr_consts,
                          bi_ec0_packed(a->clause.nr_tuples) ?
                          "an odd count of at least 1" : "an even count");
   return emit_words(a, words, 2 * (unsigned)quads);
}

static int
parse_header(struct bi_asm *a, char *args)
{
   char *tok[32];
   int n = *args ? pan_isa_split(args, ' ', tok, 32) : 0;

   if (n < 0)
      return pan_isa_fail(a->err, a->err_size, "too many header fields");
   memset(&a->clause, 0, sizeof(a->clause));
   a->open = true;
   for (int i = 0; i < n; i++) {
      if (!*tok[i])
         continue;
      char *eq = strchr(tok[i], '=');
      if (eq)
         *eq = '\0';
      int64_t v = 1;
      if (!strcmp(tok[i], "m")) {
         if (!eq || !pan_isa_parse_int(eq + 1, 0, 0x7fff, &v))
            return pan_isa_fail(a->err, a->err_size, "bad m=");
         a->clause.m = (unsigned)v;
         continue;
      }
      const struct bi_header_field *f = NULL;
      for (unsigned k = 0; k < bi_nr_header_fields; k++) {
         if (!strcmp(bi_header_fields[k].name, tok[i]))
            f = &bi_header_fields[k];
      }
      if (!f)
         return pan_isa_fail(a->err, a->err_size, "unknown header field %s",
                             tok[i]);
      if (eq && !pan_isa_parse_int(eq + 1, 0, (1 << f->size) - 1, &v)) {
         v = -1;
         for (unsigned k = 0; f->values && k < f->nr_values; k++) {
            if (f->values[k] && !strcmp(f->values[k], eq + 1))
               v = k;
         }
         if (v < 0)
            return pan_isa_fail(a->err, a->err_size, "bad value for %s",
                                f->name);
      } else if (!eq && f->size != 1) {
         return pan_isa_fail(a->err, a->err_size, "%s needs a value",
                             f->name);
      }
      a->clause.header |= (uint64_t)v << f->start;
   }
   return 0;
}

static int
parse_regs(struct bi_asm *a, char *text, uint64_t *regs)
{
   static const struct {
      const char *name;
      uint8_t start, size;
   } fields[] = {
      {"fau", 0, 8},   {"reg3", 8, 6},  {"reg2", 14, 6},
      {"reg0", 20, 5}, {"reg1", 25, 6}, {"ctrl", 31, 4},
   };
   char *tok[16];
   int n = pan_isa_split(text, ' ', tok, 16);

   if (n < 1 || strcmp(tok[0], "regs"))
      return pan_isa_fail(a->err, a->err_size, "expected regs ...");
   *regs = 0;
   for (int i = 1; i < n; i++) {
      char *eq = strchr(tok[i], '=');
      bool ok = false;
      if (!*tok[i])
         continue;
      for (unsigned k = 0; eq && k < 6; k++) {
         int64_t v;
         size_t l = strlen(fields[k].name);
         if ((size_t)(eq - tok[i]) != l || strncmp(tok[i], fields[k].name, l))
            continue;
         if (!pan_isa_parse_int(eq + 1, 0, (1 << fields[k].size) - 1, &v))
            break;
         *regs |= (uint64_t)v << fields[k].start;
         ok = true;
      }
      if (!ok)
         return pan_isa_fail(a->err, a->err_size, "bad register field %s",
                             tok[i]);
   }
   return 0;
}

static int
parse_tuple(struct bi_asm *a, char *text)
{
   char *parts[4];
   int n = pan_isa_split(text, '|', parts, 4);
   struct bi_tuple t;

   if (!a->open)
      return pan_isa_fail(a->err, a->err_size, "tuple outside a clause");
   if (n != 3)
      return pan_isa_fail(a->err, a->err_size,
                          "expected 'fma | add | regs ...'");
   if (a->clause.nr_tuples == 8)
      return pan_isa_fail(a->err, a->err_size, "more than 8 tuples");
   if (a->clause.nr_consts)
      return pan_isa_fail(a->err, a->err_size, "tuple after constants");
   if (bi_parse_instr(parts[0], 0, &t.fma, a->err, a->err_size) ||
       bi_parse_instr(parts[1], 1, &t.add, a->err, a->err_size) ||
       parse_regs(a, parts[2], &t.regs))
      return -1;
   a->clause.tuples[a->clause.nr_tuples++] = t;
   return 0;
}

static int
assemble_line(struct bi_asm *a, char *line)
{
   char *space = line + strcspn(line, " \t");
   char *args = *space ? space + 1 : space;
   char keyword[16];
   size_t klen = (size_t)(space - line);

   if (klen >= sizeof(keyword))
      klen = sizeof(keyword) - 1;
   memcpy(keyword, line, klen);
   keyword[klen] = '\0';
   args = pan_isa_trim(args);

   if (!strcmp(keyword, "clause")) {
      if (close_clause(a))
         return -1;
      return parse_header(a, args);
   }
   if (!strcmp(keyword, "const")) {
      uint64_t v;
      if (!a->open || !a->clause.nr_tuples)
         return pan_isa_fail(a->err, a->err_size, "const outside a clause");
      if (!pan_isa_parse_u64(args, &v) || (v & 0xf))
         return pan_isa_fail(a->err, a->err_size, "constants are 64-bit "
                             "with the low 4 bits zero");
      if (a->clause.nr_consts == 8)
         return pan_isa_fail(a->err, a->err_size, "too many constants");
      a->clause.consts[a->clause.nr_consts++] = v >> 4;
      return 0;
   }
   if (!strcmp(keyword, ".quad")) {
      char *w[3];
      uint64_t q[2];
      if (close_clause(a))
         return -1;
      if (pan_isa_split(args, ' ', w, 3) != 2 ||
          !pan_isa_parse_u64(w[0], &q[0]) || !pan_isa_parse_u64(w[1], &q[1]))
         return pan_isa_fail(a->err, a->err_size, ".quad needs two 64-bit "
                             "values");
      return emit_words(a, q, 2);
   }
   return parse_tuple(a, line);
}

int
pan_bi_assemble(const char *text, size_t len, struct pan_isa_bytes *out,
                char *err, size_t err_size)
{
   struct bi_asm a = {.out = out, .err = err, .err_size = err_size};
   size_t line_no = 1;
   char msg[256];

   a.err = msg;
   a.err_size = sizeof(msg);
   for (size_t pos = 0; pos < len; line_no++) {
      const char *nl = memchr(text + pos, '\n', len - pos);
      size_t end = nl ? (size_t)(nl - text) : len;
      char buf[LINE_MAX_CHARS];

      if (!pan_isa_copy_line(text + pos, end - pos, buf, sizeof(buf)))
         return pan_isa_fail(err, err_size, "line %zu: too long or contains "
                             "NUL", line_no);
      char *line = pan_isa_trim(buf);
      if (*line && assemble_line(&a, line))
         return pan_isa_fail(err, err_size, "line %zu: %s", line_no, msg);
      pos = end + 1;
   }
   if (close_clause(&a))
      return pan_isa_fail(err, err_size, "line %zu: %s", line_no, msg);
   return 0;
}
