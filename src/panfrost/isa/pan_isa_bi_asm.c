/*
 * Copyright 2026 The Panfrost fork authors
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
   /* Tuple lines wait for the clause's constants (operands may name
    * them) and for the next tuple (whose block holds the writes). */
   char tuple_text[8][LINE_MAX_CHARS];
   size_t tuple_line[8];
   size_t err_line; /* line to blame when a clause fails at its end */
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
finish_tuples(struct bi_asm *a);

static int
close_clause(struct bi_asm *a)
{
   uint64_t words[2 * 16];

   if (!a->open)
      return 0;
   a->open = false;
   if (finish_tuples(a))
      return -1;
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
   a->clause.verbatim = true; /* the text says what the constants are */
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
parse_raw_regs(struct bi_asm *a, char *text, uint64_t *regs)
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
parse_tuple(struct bi_asm *a, char *text, size_t line_no)
{
   if (!a->open)
      return pan_isa_fail(a->err, a->err_size, "tuple outside a clause");
   if (a->clause.nr_tuples == 8)
      return pan_isa_fail(a->err, a->err_size, "more than 8 tuples");
   if (a->clause.nr_consts)
      return pan_isa_fail(a->err, a->err_size, "tuple after constants");
   if (strlen(text) >= LINE_MAX_CHARS)
      return pan_isa_fail(a->err, a->err_size, "line too long");
   strcpy(a->tuple_text[a->clause.nr_tuples], text);
   a->tuple_line[a->clause.nr_tuples++] = line_no;
   return 0;
}

static bool
same_dest(const struct bi_dest *x, const struct bi_dest *y)
{
   return x->reg == y->reg && (x->reg < 0 || x->half == y->half);
}

/* Tuple lines are "fma | add [| block]"; the block is raw ("regs ...") or
 * decoded (ports and FAU; the writes come from the previous tuple's
 * destinations). */
static int
finish_tuples(struct bi_asm *a)
{
   struct bi_clause *c = &a->clause;
   unsigned n = c->nr_tuples;
   struct bi_regblock b[8];
   struct bi_dest dest[8][2];
   bool raw[8];
   char *parts[8][4];

   for (unsigned i = 0; i < n; i++) {
      int k = pan_isa_split(a->tuple_text[i], '|', parts[i], 4);
      a->err_line = a->tuple_line[i];
      if (k != 2 && k != 3)
         return pan_isa_fail(a->err, a->err_size,
                             "expected 'fma | add [| registers]'");
      char *blk = k == 3 ? parts[i][2] : "";
      raw[i] = !strncmp(blk, "regs", 4) && (!blk[4] || blk[4] == ' ');
      if (raw[i]) {
         if (parse_raw_regs(a, blk, &c->tuples[i].regs))
            return -1;
         bi_regs_decode_names(c->tuples[i].regs, i == 0, &b[i]);
      } else if (bi_parse_regblock(blk, &b[i], a->err, a->err_size)) {
         return -1;
      }
   }
   for (unsigned i = 0; i < n; i++) {
      a->err_line = a->tuple_line[i];
      for (unsigned u = 0; u < 2; u++) {
         struct bi_operand_ctx ctx;
         uint32_t *w = u ? &c->tuples[i].add : &c->tuples[i].fma;
         bi_operand_names(&b[i], u, c, &ctx);
         if (bi_parse_instr(parts[i][u], u, w, &ctx, &dest[i][u], a->err,
                            a->err_size))
            return -1;
      }
   }
   for (unsigned i = 0; i < n; i++) {
      unsigned prev = (i + n - 1) % n;
      a->err_line = a->tuple_line[i];
      if (raw[i]) {
         /* The raw block decides; the text must not say otherwise. */
         if (!same_dest(&dest[prev][0], &b[i].fma) ||
             !same_dest(&dest[prev][1], &b[i].add)) {
            a->err_line = a->tuple_line[prev];
            return pan_isa_fail(a->err, a->err_size, "destinations disagree "
                                "with the next tuple's raw register block");
         }
         continue;
      }
      b[i].fma = dest[prev][0];
      b[i].add = dest[prev][1];
      if (bi_regs_encode(&b[i], i == 0, &c->tuples[i].regs, a->err,
                         a->err_size))
         return -1;
   }
   a->err_line = 0;
   return 0;
}

static int
assemble_line(struct bi_asm *a, char *line, size_t line_no)
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
   return parse_tuple(a, line, line_no);
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
      if (*line && assemble_line(&a, line, line_no))
         return pan_isa_fail(err, err_size, "line %zu: %s",
                             a.err_line ? a.err_line : line_no, msg);
      pos = end + 1;
   }
   if (close_clause(&a))
      return pan_isa_fail(err, err_size, "line %zu: %s",
                          a.err_line ? a.err_line : line_no, msg);
   return 0;
}
