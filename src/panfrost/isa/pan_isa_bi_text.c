/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Bifrost program text: clause headers, tuples and constants.
 */

#include "pan_isa_bi.h"
#include "pan_isa_bi_priv.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_CHARS 1024

/* Register block fields: name, start, size. */
static const struct {
   const char *name;
   uint8_t start, size;
} reg_fields[] = {
   {"fau", 0, 8},   {"reg3", 8, 6},  {"reg2", 14, 6},
   {"reg0", 20, 5}, {"reg1", 25, 6}, {"ctrl", 31, 4},
};

#define NR_REG_FIELDS (sizeof(reg_fields) / sizeof(reg_fields[0]))

size_t
pan_bi_print_instr(uint32_t word, unsigned unit, char *buf, size_t size)
{
   struct pan_isa_str s;
   pan_isa_str_init(&s, buf, size);
   bi_print_instr(&s, word, unit, NULL);
   return s.len;
}

const char *
pan_bi_instr_name(uint32_t word, unsigned unit)
{
   int i = bi_identify(word, unit);
   return i < 0 ? NULL : bi_ops[i].name;
}

int
pan_bi_assemble_instr(const char *text, unsigned unit, uint32_t *word,
                      char *err, size_t err_size)
{
   char buf[LINE_MAX_CHARS];
   if (strlen(text) >= sizeof(buf))
      return pan_isa_fail(err, err_size, "instruction too long");
   strcpy(buf, text);
   return bi_parse_instr(pan_isa_trim(buf), unit, word, NULL, NULL, err,
                         err_size);
}

static bool
has_m_field(unsigned n)
{
   for (unsigned q = 0; q < 6 && bi_sequences[n - 1][q] >= 0; q++) {
      const struct bi_quad_format *f =
         &bi_quad_formats[bi_sequences[n - 1][q]];
      for (unsigned s = 0; s < 7; s++) {
         if (f->slots[s].kind == BI_SLOT_M)
            return true;
      }
   }
   return false;
}

static void
print_header(FILE *fp, const struct bi_clause *c)
{
   fprintf(fp, "clause");
   for (unsigned i = 0; i < bi_nr_header_fields; i++) {
      const struct bi_header_field *f = &bi_header_fields[i];
      unsigned v = (unsigned)((c->header >> f->start) & ((1u << f->size) - 1));
      if (!v)
         continue;
      if (f->values && v < f->nr_values && f->values[v])
         fprintf(fp, " %s=%s", f->name, f->values[v]);
      else if (f->size == 1 && !f->values)
         fprintf(fp, " %s", f->name);
      else
         fprintf(fp, " %s=%u", f->name, v);
   }
   if (has_m_field(c->nr_tuples) && c->m)
      fprintf(fp, " m=%u", c->m);
   fprintf(fp, "\n");
}

static void
print_raw_regs(struct pan_isa_str *s, uint64_t regs)
{
   pan_isa_str_printf(s, "regs");
   for (unsigned f = 0; f < NR_REG_FIELDS; f++) {
      unsigned v = (unsigned)((regs >> reg_fields[f].start) &
                              ((1u << reg_fields[f].size) - 1));
      if (v)
         pan_isa_str_printf(s, " %s=%u", reg_fields[f].name, v);
   }
}

static void
print_clause(FILE *fp, const struct bi_clause *c)
{
   unsigned n = c->nr_tuples;
   struct bi_regblock b[8];
   bool decoded[8];
   char fma[512], add[512], regs[256];

   print_header(fp, c);
   for (unsigned i = 0; i < n; i++) {
      uint64_t again;
      decoded[i] = bi_regs_decode_names(c->tuples[i].regs, i == 0, &b[i]) &&
                   !bi_regs_encode(&b[i], i == 0, &again, NULL, 0) &&
                   again == c->tuples[i].regs;
   }
   for (unsigned i = 0; i < n; i++) {
      const struct bi_tuple *t = &c->tuples[i];
      const struct bi_regblock *next = &b[(i + 1) % n];
      struct bi_operand_ctx ctx[2];
      struct pan_isa_str s;

      for (unsigned u = 0; u < 2; u++) {
         bi_operand_names(&b[i], u, c, &ctx[u]);
         ctx[u].dest = u ? next->add : next->fma;
      }
      pan_isa_str_init(&s, fma, sizeof(fma));
      bi_print_instr(&s, t->fma, 0, &ctx[0]);
      pan_isa_str_init(&s, add, sizeof(add));
      bi_print_instr(&s, t->add, 1, &ctx[1]);
      pan_isa_str_init(&s, regs, sizeof(regs));
      if (decoded[i])
         bi_print_regblock(&s, &b[i], i == 0, t->regs);
      else
         print_raw_regs(&s, t->regs);
      fprintf(fp, "    %s | %s%s%s\n", fma, add, regs[0] ? " | " : "",
              regs);
   }
   for (unsigned i = 0; i < c->nr_consts; i++)
      fprintf(fp, "    const 0x%016" PRIx64 "\n", c->consts[i] << 4);
}

int
pan_bi_disassemble(const void *data, size_t size_B, FILE *fp, bool offsets,
                   char *err, size_t err_size)
{
   const uint8_t *bytes = data;

   if (size_B % 16)
      return pan_isa_fail(err, err_size,
                          "truncated Bifrost program: %zu bytes is not a "
                          "multiple of 16", size_B);

   unsigned nr_quads = (unsigned)(size_B / 16);
   uint64_t *words = calloc(nr_quads ? 2 * nr_quads : 1, sizeof(uint64_t));
   if (!words)
      return pan_isa_fail(err, err_size, "out of memory");
   for (size_t w = 0; w < 2 * (size_t)nr_quads; w++) {
      for (unsigned b = 0; b < 8; b++)
         words[w] |= (uint64_t)bytes[8 * w + b] << (8 * b);
   }

   for (unsigned q = 0; q < nr_quads;) {
      struct bi_clause c;
      unsigned used = bi_unpack_clause(words + 2 * q, nr_quads - q, &c);
      if (offsets)
         fprintf(fp, "; 0x%06x\n", q * 16);
      if (used) {
         print_clause(fp, &c);
         q += used;
      } else {
         /* Not a clause we can reproduce (padding, garbage): keep bytes. */
         fprintf(fp, ".quad 0x%016" PRIx64 " 0x%016" PRIx64 "\n",
                 words[2 * q], words[2 * q + 1]);
         q++;
      }
   }
   free(words);
   return 0;
}

unsigned
pan_bi_validate(const void *data, size_t size_B, pan_isa_invalid_fn invalid,
                void *user)
{
   const uint8_t *bytes = data;
   unsigned nr_quads = (unsigned)(size_B / 16), n = 0;
   uint64_t *words = calloc(nr_quads ? 2 * nr_quads : 1, sizeof(uint64_t));
   char why[96];

   if (!words) {
      invalid(0, "out of memory", user);
      return 1;
   }
   for (size_t w = 0; w < 2 * (size_t)nr_quads; w++) {
      for (unsigned b = 0; b < 8; b++)
         words[w] |= (uint64_t)bytes[8 * w + b] << (8 * b);
   }

   for (unsigned q = 0; q < nr_quads;) {
      struct bi_clause c;
      unsigned used = bi_unpack_clause(words + 2 * q, nr_quads - q, &c);

      if (!used) {
         if (words[2 * q] || words[2 * q + 1]) {
            invalid(q * 16, "no clause starts here", user);
            n++;
         }
         q++;
         continue;
      }
      for (unsigned t = 0; t < c.nr_tuples; t++) {
         for (unsigned unit = 0; unit < 2; unit++) {
            const char *p = bi_instr_problem(
               unit ? c.tuples[t].add : c.tuples[t].fma, unit);
            if (p) {
               snprintf(why, sizeof(why), "tuple %u %s: %s", t,
                        unit ? "ADD" : "FMA", p);
               invalid(q * 16, why, user);
               n++;
            }
         }
      }
      q += used;
   }
   if (size_B % 16) {
      invalid(size_B - size_B % 16, "truncated clause", user);
      n++;
   }
   free(words);
   return n;
}
