/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Midgard programs as text: disassembly, validation and assembly, bundle
 * by bundle (syntax: docs/drivers/panfrost/assembly.rst).
 */

#define _POSIX_C_SOURCE 200809L

#include "pan_isa_mid_priv.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *
slot_unit(unsigned slot)
{
   return slot == PAN_MID_LDST  ? "ls"
          : slot == PAN_MID_TEX ? "tx"
                                : mid_units[slot].name;
}

static unsigned
slot_format(unsigned slot)
{
   return slot == PAN_MID_LDST  ? MID_FMT_LDST
          : slot == PAN_MID_TEX ? MID_FMT_TEX
                                : mid_units[slot].fmt;
}

static void
print_bundle(FILE *fp, const struct pan_mid_bundle *b)
{
   char line[1024];
   struct pan_isa_str s;

   if (b->raw) {
      for (size_t q = 0; q < b->size_B; q += 16) {
         fprintf(fp, ".raw");
         for (unsigned i = 0; i < 16; i += 4) {
            const uint8_t *p = b->raw_bytes + q + i;
            fprintf(fp, " 0x%08x",
                    p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24);
         }
         fprintf(fp, "\n");
      }
      return;
   }

   unsigned kind = mid_tags[b->tag].kind;
   const char *head = kind == MID_KIND_ALU ? (b->tag >= 12 ? "aluwo" : "alu")
                                           : mid_tags[b->tag].name;
   fprintf(fp, "%s next=%s", head, mid_tags[b->next_tag].name);
   if (b->control)
      fprintf(fp, " ctl=0x%x", b->control);
   fprintf(fp, "\n");
   for (unsigned i = 0; i < b->nr_instrs; i++) {
      const struct pan_mid_instr *I = &b->instrs[i];
      pan_isa_str_init(&s, line, sizeof(line));
      mid_print_instr(&s, slot_unit(I->slot), slot_format(I->slot), I->bits);
      fprintf(fp, "\t%s\n", line);
   }
   if (b->has_consts)
      fprintf(fp, "\tconsts 0x%08x 0x%08x 0x%08x 0x%08x\n", b->consts[0],
              b->consts[1], b->consts[2], b->consts[3]);
}

int
pan_mid_disassemble(const void *data, size_t size_B, FILE *fp, bool offsets,
                    char *err, size_t err_size)
{
   if (size_B % 16)
      return pan_isa_fail(err, err_size,
                          "size %zu is not a multiple of 16 bytes", size_B);
   struct pan_mid_bundle b;
   for (size_t at = 0; at < size_B;) {
      size_t n =
         pan_mid_decode_bundle((const uint8_t *)data + at, size_B - at, &b);
      if (offsets)
         fprintf(fp, "; 0x%zx\n", at);
      print_bundle(fp, &b);
      at += n;
   }
   return 0;
}

unsigned
pan_mid_validate(const void *data, size_t size_B, pan_isa_invalid_fn invalid,
                 void *user)
{
   const uint8_t *d = data;
   unsigned count = 0;
   struct pan_mid_bundle b;
   size_t at = 0;

   while (size_B - at >= 16) {
      size_t n = pan_mid_decode_bundle(d + at, size_B - at, &b);
      char why[96];
      if (b.raw) {
         snprintf(why, sizeof(why), "%s bundle is not canonical (raw)",
                  mid_tags[d[at] & 0xf].name);
         count++;
         if (invalid)
            invalid(at, why, user);
      } else {
         if (b.next_tag == 0) {
            count++;
            if (invalid)
               invalid(at, "invalid next tag", user);
         }
         if (b.control) {
            count++;
            if (invalid)
               invalid(at, "unknown ALU control bits set", user);
         }
         for (unsigned i = 0; i < b.nr_instrs; i++) {
            unsigned slot = b.instrs[i].slot;
            mid_check_instr(slot_format(slot),
                            slot < MID_NR_ALU ? (int)slot : -1,
                            b.instrs[i].bits, at, invalid, user, &count);
         }
      }
      at += n;
   }
   if (at < size_B) {
      count++;
      if (invalid)
         invalid(at, "truncated: partial quadword at the end", user);
   }
   return count;
}

/* --- Assembly ------------------------------------------------------------ */

struct asm_state {
   struct pan_mid_bundle b;
   bool open;
   bool writeout;
   struct pan_isa_bytes *out;
};

static int
flush(struct asm_state *st, char *err, size_t err_size)
{
   uint8_t bytes[64];
   size_t n = 0;

   if (!st->open)
      return 0;
   st->open = false;
   if (mid_tags[st->b.tag].kind == MID_KIND_ALU) {
      /* The tag says the size: take the one that fits. */
      unsigned base = st->writeout ? 12 : 8;
      for (unsigned q = 0; q < 4 && !n; q++) {
         st->b.tag = base + q;
         n = pan_mid_encode_bundle(&st->b, bytes);
      }
   } else {
      n = pan_mid_encode_bundle(&st->b, bytes);
   }
   if (!n)
      return pan_isa_fail(err, err_size,
                          "bundle cannot be encoded "
                          "(too large or missing words)");
   if (!pan_isa_bytes_append(st->out, bytes, n))
      return pan_isa_fail(err, err_size, "out of memory");
   return 0;
}

static int
find_tag(const char *name)
{
   for (unsigned t = 0; t < 16; t++) {
      if (!strcmp(mid_tags[t].name, name))
         return t;
   }
   int64_t v;
   return pan_isa_parse_int(name, 0, 15, &v) ? (int)v : -1;
}

static int
parse_header(struct asm_state *st, char *line, char *err, size_t err_size)
{
   char *save = NULL;
   char *tok = strtok_r(line, " \t", &save);
   memset(&st->b, 0, sizeof(st->b));
   st->writeout = !strcmp(tok, "aluwo");
   if (!strcmp(tok, "alu") || st->writeout)
      st->b.tag = 8;
   else if (isalpha((unsigned char)tok[0]) && find_tag(tok) >= 2 &&
            find_tag(tok) <= 5)
      st->b.tag = find_tag(tok);
   else
      return 1; /* not a header */

   bool have_next = false;
   while ((tok = strtok_r(NULL, " \t", &save))) {
      int64_t v;
      if (!strncmp(tok, "next=", 5) && find_tag(tok + 5) >= 0) {
         st->b.next_tag = find_tag(tok + 5);
         have_next = true;
      } else if (!strncmp(tok, "ctl=", 4) && st->b.tag >= 8 &&
                 pan_isa_parse_int(tok + 4, 0, mid_control_unknown, &v) &&
                 !(v & ~mid_control_unknown)) {
         st->b.control = v;
      } else {
         return pan_isa_fail(err, err_size, "bad bundle field '%s'", tok);
      }
   }
   if (!have_next)
      return pan_isa_fail(err, err_size, "bundle without next=");
   st->open = true;
   return 0;
}

/* Blank-separated words; -1 when more than max. */
static int
split_words(char *s, char **pieces, int max)
{
   char *save = NULL;
   int n = 0;
   for (char *t = strtok_r(s, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
      if (n == max)
         return -1;
      pieces[n++] = t;
   }
   return n;
}

static int
parse_raw(struct asm_state *st, char *args, char *err, size_t err_size)
{
   char *pieces[5];
   uint8_t q[16];
   if (split_words(args, pieces, 5) != 4)
      return pan_isa_fail(err, err_size, ".raw takes four 32-bit words");
   for (unsigned i = 0; i < 4; i++) {
      int64_t v;
      if (!pan_isa_parse_int(pieces[i], 0, UINT32_MAX, &v))
         return pan_isa_fail(err, err_size, "bad word '%s'", pieces[i]);
      for (unsigned k = 0; k < 4; k++)
         q[4 * i + k] = v >> (8 * k);
   }
   if (!pan_isa_bytes_append(st->out, q, 16))
      return pan_isa_fail(err, err_size, "out of memory");
   return 0;
}

static int
parse_instr(struct asm_state *st, char *line, char *err, size_t err_size)
{
   struct pan_mid_bundle *b = &st->b;
   char *dot = strchr(line, '.');
   if (!st->open)
      return pan_isa_fail(err, err_size, "instruction outside a bundle");
   if (!dot)
      return pan_isa_fail(err, err_size, "expected unit.opcode");
   *dot = '\0';

   unsigned kind = mid_tags[b->tag].kind;
   int slot = -1;
   for (unsigned s = 0; s <= PAN_MID_TEX; s++) {
      if (!strcmp(slot_unit(s), line))
         slot = s;
   }
   bool fits = slot >= 0 && (kind == MID_KIND_ALU   ? slot < MID_NR_UNITS
                             : kind == MID_KIND_TEX ? slot == PAN_MID_TEX
                                                    : slot == PAN_MID_LDST);
   if (!fits)
      return pan_isa_fail(err, err_size, "unit '%s' not in a %s bundle", line,
                          kind == MID_KIND_ALU ? "alu" : mid_tags[b->tag].name);
   unsigned limit = kind == MID_KIND_LDST ? 2 : kind == MID_KIND_TEX ? 1 : 7;
   if (b->nr_instrs >= limit)
      return pan_isa_fail(err, err_size, "too many instructions in bundle");
   for (unsigned i = 0; i < b->nr_instrs; i++) {
      if (kind == MID_KIND_ALU && b->instrs[i].slot == (unsigned)slot)
         return pan_isa_fail(err, err_size, "unit %s used twice", line);
      if (kind == MID_KIND_ALU && b->instrs[i].slot > (unsigned)slot)
         return pan_isa_fail(err, err_size, "unit %s out of order", line);
   }
   struct pan_mid_instr *I = &b->instrs[b->nr_instrs];
   I->slot = slot;
   if (mid_parse_instr(dot + 1, slot_format(slot), I->bits, err, err_size))
      return -1;
   b->nr_instrs++;
   return 0;
}

static int
parse_consts(struct asm_state *st, char *args, char *err, size_t err_size)
{
   char *pieces[5];
   if (!st->open || mid_tags[st->b.tag].kind != MID_KIND_ALU ||
       st->b.has_consts)
      return pan_isa_fail(err, err_size, "consts only once in an alu bundle");
   if (split_words(args, pieces, 5) != 4)
      return pan_isa_fail(err, err_size, "consts takes four 32-bit words");
   for (unsigned i = 0; i < 4; i++) {
      int64_t v;
      if (!pan_isa_parse_int(pieces[i], 0, UINT32_MAX, &v))
         return pan_isa_fail(err, err_size, "bad word '%s'", pieces[i]);
      st->b.consts[i] = v;
   }
   st->b.has_consts = true;
   return 0;
}

static int
assemble_line(struct asm_state *st, char *line, char *err, size_t err_size)
{
   /* Tabs separate nothing special: treat them as blanks. */
   for (char *p = line; *p; p++)
      *p = *p == '\t' ? ' ' : *p;
   line = pan_isa_trim(line);
   if (!*line)
      return 0;
   if (!strncmp(line, ".raw ", 5)) {
      if (flush(st, err, err_size))
         return -1;
      return parse_raw(st, line + 5, err, err_size);
   }
   if (!strncmp(line, "consts ", 7))
      return parse_consts(st, line + 7, err, err_size);
   if (!strchr(line, '.')) {
      char copy[1024];
      snprintf(copy, sizeof(copy), "%s", line);
      if (flush(st, err, err_size))
         return -1;
      int r = parse_header(st, copy, err, err_size);
      if (r > 0)
         return pan_isa_fail(err, err_size, "unknown bundle '%s'", line);
      return r;
   }
   return parse_instr(st, line, err, err_size);
}

int
pan_mid_assemble(const char *text, size_t len, struct pan_isa_bytes *out,
                 char *err, size_t err_size)
{
   struct asm_state st = { .out = out };
   char line[1024], msg[200];
   unsigned lineno = 0;

   for (size_t at = 0; at < len;) {
      const char *nl = memchr(text + at, '\n', len - at);
      size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
      lineno++;
      if (!pan_isa_copy_line(text + at, n, line, sizeof(line)))
         return pan_isa_fail(err, err_size, "line %u: too long or NUL byte",
                             lineno);
      if (assemble_line(&st, line, msg, sizeof(msg)))
         return pan_isa_fail(err, err_size, "line %u: %s", lineno, msg);
      at += n + 1;
   }
   if (flush(&st, msg, sizeof(msg)))
      return pan_isa_fail(err, err_size, "line %u: %s", lineno, msg);
   return 0;
}
