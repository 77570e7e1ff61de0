/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Bifrost FMA (23-bit) and ADD (20-bit) instruction words: identification,
 * printing and parsing, driven by the generated tables.
 */

#include "pan_isa_bi_priv.h"

#include <inttypes.h>
#include <string.h>

#define MAX_PARTS 32

static inline unsigned
field(uint32_t word, unsigned start, unsigned size)
{
   return (word >> start) & ((1u << size) - 1);
}

static inline uint32_t
unit_mask(unsigned unit)
{
   return unit ? 0xfffff : 0x7fffff;
}

int
bi_identify(uint32_t word, unsigned unit)
{
   int best = -1, best_bits = -1;

   for (unsigned i = 0; i < bi_nr_ops; i++) {
      const struct bi_op *op = &bi_ops[i];
      if (op->unit != unit || (word & op->mask) != op->exact)
         continue;
      int n = __builtin_popcount(op->mask);
      if (n > best_bits) {
         best = (int)i;
         best_bits = n;
      }
   }
   return best;
}

static uint32_t
covered_bits(const struct bi_op *op)
{
   uint32_t c = op->mask;

   for (unsigned i = 0; i < op->nr_srcs; i++)
      c |= 7u << op->srcs[i];
   for (unsigned i = 0; i < op->nr_imms; i++)
      c |= ((1u << op->imms[i].size) - 1) << op->imms[i].start;
   for (unsigned i = 0; i < op->nr_mods; i++)
      c |= ((1u << op->mods[i].size) - 1) << op->mods[i].start;
   return c;
}

const char *
bi_instr_problem(uint32_t word, unsigned unit)
{
   int i = bi_identify(word, unit);

   if (i < 0)
      return "unknown instruction encoding";
   if (word & ~covered_bits(&bi_ops[i]) & unit_mask(unit))
      return "bits set outside every field";
   return NULL;
}

static bool
ambiguous(const struct bi_op *op, unsigned self, const char *name)
{
   for (unsigned i = 0; i < op->nr_mods; i++) {
      const struct bi_mod *m = &op->mods[i];
      if (i == self || !m->values)
         continue;
      for (unsigned v = 0; v < (1u << m->size); v++) {
         if (m->values[v] && !strcmp(m->values[v], name))
            return true;
      }
   }
   return false;
}

/* Ordinal of an encoding among those sharing its mnemonic. */
static unsigned
encoding_ordinal(unsigned idx)
{
   unsigned k = 0;
   for (unsigned i = 0; i < idx; i++)
      k += bi_ops[i].unit == bi_ops[idx].unit &&
           !strcmp(bi_ops[i].name, bi_ops[idx].name);
   return k;
}

static const char *
src_name(unsigned unit, const struct bi_operand_ctx *ctx, unsigned sel)
{
   if (ctx)
      return ctx->src[sel];
   return (unit ? bi_add_sources : bi_fma_sources)[sel];
}

static void
print_plain(struct pan_isa_str *s, uint32_t word, unsigned unit, int i,
            bool tag, const struct bi_operand_ctx *ctx)
{
   const struct bi_op *op = &bi_ops[i];
   uint32_t extra = word & ~covered_bits(op) & unit_mask(unit);

   pan_isa_str_printf(s, "%s", op->name);
   if (tag)
      pan_isa_str_printf(s, ".enc=%u", encoding_ordinal((unsigned)i));
   for (unsigned m = 0; m < op->nr_mods; m++) {
      const struct bi_mod *mod = &op->mods[m];
      unsigned v = field(word, mod->start, mod->size);
      if (!mod->values) {
         if (v)
            pan_isa_str_printf(s, ".%s=%u", mod->name, v);
         continue;
      }
      if (mod->dflt >= 0 && v == (unsigned)mod->dflt)
         continue;
      if (!mod->values[v])
         pan_isa_str_printf(s, ".%s=%u", mod->name, v);
      else if (ambiguous(op, m, mod->values[v]))
         pan_isa_str_printf(s, ".%s=%s", mod->name, mod->values[v]);
      else
         pan_isa_str_printf(s, ".%s", mod->values[v]);
   }

   unsigned k = 0;
   if (ctx) {
      pan_isa_str_printf(s, " ");
      bi_print_dest(s, &ctx->dest, unit);
      k++;
   }
   for (unsigned j = 0; j < op->nr_srcs; j++, k++)
      pan_isa_str_printf(s, "%s%s", k ? ", " : " ",
                         src_name(unit, ctx, field(word, op->srcs[j], 3)));
   for (unsigned j = 0; j < op->nr_imms; j++, k++)
      pan_isa_str_printf(s, "%s%s:%u", k ? ", " : " ", op->imms[j].name,
                         field(word, op->imms[j].start, op->imms[j].size));
   if (extra)
      pan_isa_str_printf(s, "%sextra:0x%" PRIx32, k ? ", " : " ", extra);
}

void
bi_print_instr(struct pan_isa_str *s, uint32_t word, unsigned unit,
               const struct bi_operand_ctx *ctx)
{
   int i = bi_identify(word, unit);
   char buf[512];
   struct pan_isa_str plain;
   struct bi_dest dest;
   uint32_t back;

   if (i < 0) {
      pan_isa_str_printf(s, ".word 0x%06" PRIx32, word);
      if (ctx && ctx->dest.reg >= 0) {
         pan_isa_str_printf(s, ", ");
         bi_print_dest(s, &ctx->dest, unit);
      }
      return;
   }

   /* Several encodings may share a mnemonic and accept the same text; name
    * the encoding only when the plain text would assemble differently. */
   pan_isa_str_init(&plain, buf, sizeof(buf));
   print_plain(&plain, word, unit, i, false, ctx);
   bool tag = plain.len >= sizeof(buf) ||
              bi_parse_instr(buf, unit, &back, ctx, &dest, NULL, 0) ||
              back != word;
   print_plain(s, word, unit, i, tag, ctx);
}

static void
put(uint32_t *word, unsigned start, unsigned size, uint32_t v)
{
   uint32_t mask = ((1u << size) - 1) << start;
   *word = (*word & ~mask) | ((v << start) & mask);
}

static int
apply_mod(const struct bi_op *op, uint32_t *word, uint32_t *seen,
          const char *text, char *err, size_t err_size)
{
   const char *eq = strchr(text, '=');
   int found = -1;
   int64_t value = -1;

   for (unsigned i = 0; i < op->nr_mods; i++) {
      const struct bi_mod *m = &op->mods[i];
      if (eq) {
         size_t n = (size_t)(eq - text);
         if (strlen(m->name) != n || strncmp(m->name, text, n))
            continue;
         found = (int)i;
         if (!pan_isa_parse_int(eq + 1, 0, (1 << m->size) - 1, &value)) {
            value = -1;
            for (unsigned v = 0; m->values && v < (1u << m->size); v++) {
               if (m->values[v] && !strcmp(m->values[v], eq + 1))
                  value = v;
            }
            if (value < 0)
               return pan_isa_fail(err, err_size, "bad value in .%s", text);
         }
         break;
      }
      for (unsigned v = 0; m->values && v < (1u << m->size); v++) {
         if (!m->values[v] || strcmp(m->values[v], text))
            continue;
         if (found >= 0 && found != (int)i)
            return pan_isa_fail(err, err_size, "modifier .%s is ambiguous",
                                text);
         found = (int)i;
         value = v;
      }
   }
   if (found < 0)
      return pan_isa_fail(err, err_size, "unknown modifier .%s", text);
   if (*seen & (1u << found))
      return pan_isa_fail(err, err_size, "modifier %s given twice",
                          op->mods[found].name);
   *seen |= 1u << found;
   put(word, op->mods[found].start, op->mods[found].size, (uint32_t)value);
   return 0;
}

static int
parse_src(const char *text, unsigned unit, const struct bi_operand_ctx *ctx,
          int64_t *sel)
{
   const char *const *names = unit ? bi_add_sources : bi_fma_sources;

   for (unsigned i = 0; ctx && i < 8; i++) {
      if (!strcmp(ctx->src[i], text)) {
         *sel = i;
         return 0;
      }
   }
   for (unsigned i = 0; i < 8; i++) {
      if (!strcmp(names[i], text)) {
         *sel = i;
         return 0;
      }
   }
   return -1;
}

/* Encode text as one particular encoding; 0 on success. */
static int
encode_as(unsigned idx, char **mods, int nr_mods, char **ops, int nr_ops,
          const struct bi_operand_ctx *ctx, uint32_t *out, char *err,
          size_t err_size)
{
   const struct bi_op *op = &bi_ops[idx];
   uint32_t word = op->exact, seen = 0, extra = 0;

   for (int i = 0; i < nr_mods; i++) {
      if (apply_mod(op, &word, &seen, mods[i], err, err_size))
         return -1;
   }
   for (unsigned i = 0; i < op->nr_mods; i++) {
      const struct bi_mod *m = &op->mods[i];
      if (seen & (1u << i) || !m->values)
         continue;
      if (m->dflt < 0)
         return pan_isa_fail(err, err_size, "missing modifier %s", m->name);
      put(&word, m->start, m->size, (uint32_t)m->dflt);
   }

   if (nr_ops > 0 && !strncmp(ops[nr_ops - 1], "extra:", 6)) {
      uint64_t v;
      if (!pan_isa_parse_u64(ops[nr_ops - 1] + 6, &v) ||
          (v & ~(uint64_t)(unit_mask(op->unit) & ~covered_bits(op))))
         return pan_isa_fail(err, err_size, "bad %s", ops[nr_ops - 1]);
      extra = (uint32_t)v;
      nr_ops--;
   }
   if (nr_ops != op->nr_srcs + op->nr_imms)
      return pan_isa_fail(err, err_size, "%s takes %u operands, got %d",
                          op->name, op->nr_srcs + op->nr_imms, nr_ops);
   for (unsigned i = 0; i < op->nr_srcs; i++) {
      int64_t sel;
      if (parse_src(ops[i], op->unit, ctx, &sel))
         return pan_isa_fail(err, err_size, "bad source %s", ops[i]);
      put(&word, op->srcs[i], 3, (uint32_t)sel);
   }
   for (unsigned i = 0; i < op->nr_imms; i++) {
      const struct bi_imm *imm = &op->imms[i];
      const char *t = ops[op->nr_srcs + i];
      size_t n = strlen(imm->name);
      int64_t v;
      if (strncmp(t, imm->name, n) || t[n] != ':' ||
          !pan_isa_parse_int(t + n + 1, 0, (1 << imm->size) - 1, &v))
         return pan_isa_fail(err, err_size, "expected %s:value, got %s",
                             imm->name, t);
      put(&word, imm->start, imm->size, (uint32_t)v);
   }
   word |= extra;
   if (bi_identify(word, op->unit) != (int)idx)
      return pan_isa_fail(err, err_size, "this %s encoding is claimed by "
                          "another instruction", op->name);
   *out = word;
   return 0;
}

int
bi_parse_instr(char *text, unsigned unit, uint32_t *word,
               const struct bi_operand_ctx *ctx, struct bi_dest *dest,
               char *err, size_t err_size)
{
   char *space = text + strcspn(text, " \t");
   char *operands = *space ? space + 1 : space;
   char *ops[8];
   int nr_ops = 0;

   *space = '\0';
   operands = pan_isa_trim(operands);
   if (*operands) {
      nr_ops = pan_isa_split(operands, ',', ops, 8);
      if (nr_ops < 0)
         return pan_isa_fail(err, err_size, "too many operands");
   }
   if (dest) {
      dest->reg = -1;
      dest->half = BI_HALF_FULL;
   }
   if (!strcmp(text, ".word")) {
      uint64_t v;
      if (nr_ops < 1 || nr_ops > 1 + !!ctx ||
          !pan_isa_parse_u64(ops[0], &v) || v > unit_mask(unit))
         return pan_isa_fail(err, err_size, "bad .word");
      if (nr_ops == 2 && !bi_parse_dest(ops[1], unit, dest))
         return pan_isa_fail(err, err_size, "bad destination %s", ops[1]);
      *word = (uint32_t)v;
      return 0;
   }
   /* In a clause the first operand is the destination. */
   char **srcs = ops;
   if (ctx) {
      if (nr_ops < 1 || !bi_parse_dest(ops[0], unit, dest))
         return pan_isa_fail(err, err_size, "expected a destination (%s, "
                             "rN, rN.h0, rN.h1), got %s",
                             unit ? "t1" : "t0", nr_ops ? ops[0] : "none");
      srcs++;
      nr_ops--;
   }

   char *parts[MAX_PARTS];
   int n = pan_isa_split(text, '.', parts, MAX_PARTS);
   if (n < 0)
      return pan_isa_fail(err, err_size, "too many modifiers");

   /* Longest mnemonic first; a mnemonic may have several encodings. */
   char name[256];
   for (int k = n; k > 0; k--) {
      size_t len = 0;
      bool named = false;
      for (int i = 0; i < k; i++) {
         size_t l = strlen(parts[i]);
         if (len + l + 2 > sizeof(name))
            return pan_isa_fail(err, err_size, "mnemonic too long");
         if (i)
            name[len++] = '.';
         memcpy(name + len, parts[i], l);
         len += l;
      }
      name[len] = '\0';
      char first_err[256] = "";
      int64_t want = -1;
      int mods = k;
      if (k < n && !strncmp(parts[k], "enc=", 4)) {
         if (!pan_isa_parse_int(parts[k] + 4, 0, 63, &want))
            return pan_isa_fail(err, err_size, "bad .%s", parts[k]);
         mods++;
      }
      for (unsigned i = 0, ord = 0; i < bi_nr_ops; i++) {
         if (bi_ops[i].unit != unit || strcmp(bi_ops[i].name, name))
            continue;
         if (want >= 0 && ord++ != want)
            continue;
         char e[256];
         /* Splitting mutated nothing we reuse: ops/parts stay intact. */
         if (!encode_as(i, parts + mods, n - mods, srcs, nr_ops, ctx, word,
                        e, sizeof(e)))
            return 0;
         if (!named)
            memcpy(first_err, e, sizeof(e));
         named = true;
      }
      if (named)
         return pan_isa_fail(err, err_size, "%s", first_err);
   }
   return pan_isa_fail(err, err_size, "unknown %s instruction %s",
                       unit ? "ADD" : "FMA", parts[0]);
}
