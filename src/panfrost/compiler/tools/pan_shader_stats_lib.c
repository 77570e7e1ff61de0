/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * One cycle model for any Bifrost or Valhall binary (pan_shader_stats.h).
 * Everything comes from the ISA library: Bifrost clauses from its
 * unpacker (the header's message type, the tuples' register blocks and
 * FMA/ADD words), Valhall words from its instruction table (the unit,
 * operands and immediates of each).  The costs mirror what our compiler's
 * own report assumes, so on our binaries the two agree.
 */

#include "pan_shader_stats.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pan_isa_bi_priv.h"
#include "pan_isa_va_priv.h"

#define MAX(a, b) ((a) > (b) ? (a) : (b))

/* r48-r63 are the ABI's (the blend return address, the preloaded pixel,
 * coverage and IDs, which atest and blend rewrite): not work registers. */
#define ABI_REG_FIRST 48

static void
touch(struct pan_shader_stats *st, int reg, unsigned count)
{
   if (reg >= 0 && reg < ABI_REG_FIRST && (unsigned)reg + count > st->max_reg)
      st->max_reg = (unsigned)reg + count;
}

/* The code as little-endian 64-bit words (unit_B bytes make one step of
 * the architecture's decoder); NULL with a message when the size is not
 * whole steps. */
static uint64_t *
load_words(const uint8_t *bytes, size_t size_B, unsigned unit_B,
           const char *unit, char *err, size_t err_size)
{
   if (size_B % unit_B) {
      pan_isa_fail(err, err_size, "%zu bytes is not a whole number of %s",
                   size_B, unit);
      return NULL;
   }
   size_t nr = size_B / 8;
   uint64_t *words = calloc(nr ? nr : 1, sizeof(uint64_t));
   if (!words) {
      pan_isa_fail(err, err_size, "out of memory");
      return NULL;
   }
   for (size_t w = 0; w < nr; w++) {
      for (unsigned b = 0; b < 8; b++)
         words[w] |= (uint64_t)bytes[8 * w + b] << (8 * b);
   }
   return words;
}

/* ---- Bifrost ---- */

#define BI_HDR_SR_SHIFT 18
#define BI_HDR_MSG_SHIFT 35

/* The value name of modifier `name` of bi_ops[i] in word, or NULL. */
static const char *
bi_mod_value(int i, uint32_t word, const char *name)
{
   const struct bi_op *op = &bi_ops[i];
   for (unsigned m = 0; m < op->nr_mods; m++) {
      const struct bi_mod *mod = &op->mods[m];
      if (strcmp(mod->name, name) || !mod->values)
         continue;
      return mod->values[(word >> mod->start) & ((1u << mod->size) - 1)];
   }
   return NULL;
}

/* ADD-unit instructions that are a clause's message (the header names
 * the kind; this finds the tuple that holds it). */
static bool
bi_is_message_op(const char *name)
{
   static const char *const prefixes[] = {
      "ld_",  "lea_", "st_",   "store", "load", "tex",     "var_tex",
      "atom", "acmp", "axchg", "blend", "atest", "zs_emit", "barrier",
   };
   for (unsigned i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
      if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
         return true;
   }
   return false;
}

/* Halves a varying message interpolates, as the stock report counts
 * them: (vecsize + 1) components, two halves each unless the register
 * format is 16-bit; a VAR_TEX interpolates two f32 coordinates. */
static unsigned
bi_vary_halves(int i, uint32_t word)
{
   const char *name = bi_ops[i].name;
   if (!strncmp(name, "var_tex", 7))
      return 4;
   if (strncmp(name, "ld_var", 6))
      return 0;
   const char *vec = bi_mod_value(i, word, "vecsize");
   const char *fmt = bi_mod_value(i, word, "register_format");
   unsigned comps = 1;
   if (vec && vec[0] == 'v')
      comps = (unsigned)(vec[1] - '0');
   bool half = fmt && strstr(fmt, "16");
   return comps * (half ? 1 : 2);
}

static void
bi_count_word(struct pan_shader_stats *st, uint32_t word, unsigned unit)
{
   int i = bi_identify(word, unit);
   const char *name = bi_ops[i].name;
   if (!strcmp(name, "nop"))
      return;
   st->instrs++;
   const char *seg = bi_mod_value(i, word, "seg");
   if (seg && !strcmp(seg, "tl")) {
      st->spills += !strncmp(name, "store", 5);
      st->fills += !strncmp(name, "load", 4);
   }
}

/* A branch to a clause constant whose 28-bit PC-relative distance (the
 * constant's high word below its top 4 bits) is negative. */
static bool
bi_backward_branch(const struct bi_clause *c)
{
   int k = bi_branch_const(c);
   if (k < 0)
      return false;
   uint32_t d = (uint32_t)(c->consts[k] >> 28) & 0xfffffff;
   return d >> 27;
}

static bool
bi_stats(const uint8_t *bytes, size_t size_B, struct pan_shader_stats *st,
         char *err, size_t err_size)
{
   uint64_t *words =
      load_words(bytes, size_B, 16, "16-byte quadwords", err, err_size);
   if (!words)
      return false;
   unsigned nr_quads = (unsigned)(size_B / 16);

   bool ok = true;
   for (unsigned q = 0; q < nr_quads && ok;) {
      struct bi_clause c;
      unsigned used = bi_unpack_clause(words + 2 * q, nr_quads - q, &c);
      if (!used) {
         /* All-zero quadwords are padding (between programs, at the end). */
         if (words[2 * q] || words[2 * q + 1])
            ok = !pan_isa_fail(err, err_size,
                               "no Bifrost clause starts at byte 0x%x", q * 16);
         q++;
         continue;
      }
      unsigned msg = (unsigned)(c.header >> BI_HDR_MSG_SHIFT) & 0x1f;
      unsigned msg_arith = 0;
      bool msg_found = false;
      for (unsigned t = 0; t < c.nr_tuples && ok; t++) {
         /* The stock estimate counts the message's tuple as arithmetic
          * too when its FMA slot is busy. */
         int add = bi_identify(c.tuples[t].add, 1);
         int fma = bi_identify(c.tuples[t].fma, 0);
         if (msg && !msg_found && add >= 0 &&
             bi_is_message_op(bi_ops[add].name)) {
            msg_found = true;
            msg_arith = fma >= 0 && strcmp(bi_ops[fma].name, "nop");
            st->vary_halves += bi_vary_halves(add, c.tuples[t].add);
         }
         for (unsigned unit = 0; unit < 2 && ok; unit++) {
            uint32_t w = unit ? c.tuples[t].add : c.tuples[t].fma;
            if (bi_identify(w, unit) < 0) {
               ok = !pan_isa_fail(err, err_size,
                                  "clause at byte 0x%x, tuple %u: unknown "
                                  "%s word 0x%06x",
                                  q * 16, t, unit ? "ADD" : "FMA", w);
               break;
            }
            bi_count_word(st, w, unit);
         }
         struct bi_regblock b;
         if (bi_regs_decode(c.tuples[t].regs, t == 0, &b)) {
            touch(st, b.fma.reg, 1);
            touch(st, b.add.reg, 1);
         }
      }
      const char *m = NULL;
      for (unsigned f = 0; f < bi_nr_header_fields; f++) {
         const struct bi_header_field *h = &bi_header_fields[f];
         if (!strcmp(h->name, "msg"))
            m = msg < h->nr_values ? h->values[msg] : NULL;
      }
      st->clauses++;
      st->tuples += c.nr_tuples;
      /* A message takes one tuple; the others are arithmetic. */
      st->arith_tuples += c.nr_tuples - (msg != 0) + msg_arith;
      /* The staging vector starts at the header's sr register. */
      if (msg)
         touch(st, (int)((c.header >> BI_HDR_SR_SHIFT) & 0x3f), 1);
      if (m && (!strcmp(m, "tex") || !strcmp(m, "vartex")))
         st->tex++;
      else if (m && !strcmp(m, "varying"))
         st->vary++;
      else if (m && (!strcmp(m, "load") || !strcmp(m, "store") ||
                     !strcmp(m, "attribute") || !strcmp(m, "atomic")))
         st->ldst++;
      st->loops += bi_backward_branch(&c);
      q += used;
      st->quads = q;
   }
   free(words);
   return ok;
}

/* ---- Valhall ---- */

static unsigned
va_field(uint64_t word, unsigned start, unsigned size)
{
   return (unsigned)((word >> start) & ((1ull << size) - 1));
}

static bool
va_tls_source(uint64_t word, unsigned sel)
{
   unsigned value = sel & 63;
   if (sel >> 6 != 3 || value < 32)
      return false;
   const char *name =
      va_special_names[va_field(word, VA_PAGE_SHIFT, 2)][(value - 32) >> 1];
   return name && !strcmp(name, "thread_local_pointer");
}

static void
va_count_word(struct pan_shader_stats *st, int i, uint64_t word)
{
   const struct va_op *op = &va_ops[i];
   static const char *const units[] = { "FMA", "CVT", "SFU", "V", "T", "LS" };
   unsigned *counts[] = {
      &st->fma, &st->cvt, &st->sfu, &st->v, &st->t, &st->ls
   };
   for (unsigned u = 0; u < 6; u++)
      *counts[u] += !strcmp(op->unit, units[u]);
   if (!strcmp(op->unit, "VT"))
      st->v++, st->t++;

   bool tls = false;
   const struct va_type_info *dt = &va_types[va_sems[i].dtype];
   for (unsigned o = 0; o < op->nr_operands; o++) {
      const struct va_operand *opd = &op->operands[o];
      switch (opd->kind) {
      case VA_OPERAND_STAGING: {
         unsigned count = opd->count_fixed >= 0
                             ? (unsigned)opd->count_fixed
                             : va_field(word, op->mods[opd->count_mod].start,
                                        op->mods[opd->count_mod].size) +
                                  opd->count_bias;
         touch(st, (int)va_field(word, opd->start, 6), MAX(count, 1));
         break;
      }
      case VA_OPERAND_DEST:
         touch(st, (int)va_field(word, 40, 6),
               dt->bits * dt->lanes > 32 ? 2 : 1);
         break;
      case VA_OPERAND_SRC: {
         unsigned sel = va_field(word, opd->start, 8);
         tls |= va_tls_source(word, sel);
         break;
      }
      default:
         if (!strcmp(op->name, "branchz") && !strcmp(opd->name, "offset") &&
             va_field(word, opd->start + opd->size - 1, 1))
            st->loops++;
         break;
      }
   }
   if (tls) {
      st->spills += !strncmp(op->name, "store", 5);
      st->fills += !strncmp(op->name, "load", 4);
   }
}

static bool
va_stats(const uint8_t *bytes, size_t size_B, struct pan_shader_stats *st,
         char *err, size_t err_size)
{
   uint64_t *words =
      load_words(bytes, size_B, 8, "8-byte instructions", err, err_size);
   if (!words)
      return false;
   unsigned nr = (unsigned)(size_B / 8);
   /* Trailing zero words are padding, not NOPs of the program. */
   while (nr && !words[nr - 1])
      nr--;
   bool ok = true;
   for (unsigned w = 0; w < nr && ok; w++) {
      int i = va_identify(words[w]);
      if (i < 0) {
         ok = !pan_isa_fail(err, err_size,
                            "unknown Valhall instruction 0x%016" PRIx64
                            " at byte 0x%x",
                            words[w], w * 8);
         break;
      }
      va_count_word(st, i, words[w]);
   }
   st->instrs = nr;
   st->quads = nr / 2;
   free(words);
   return ok;
}

bool
pan_shader_stats(unsigned arch, const void *data, size_t size_B,
                 struct pan_shader_stats *st, char *err, size_t err_size)
{
   memset(st, 0, sizeof(*st));
   st->arch = arch;
   if (arch == 6 || arch == 7)
      return bi_stats(data, size_B, st, err, err_size);
   if (arch == 9)
      return va_stats(data, size_B, st, err, err_size);
   pan_isa_fail(err, err_size, "no statistics for architecture v%u", arch);
   return false;
}

void
pan_shader_stats_print(FILE *fp, const char *stage,
                       const struct pan_shader_stats *st)
{
   /* Two threads per core when r0-r31 suffice (v7, v9); v6 always 1. */
   unsigned threads = st->arch != 6 && st->max_reg <= 32 ? 2 : 1;
   if (st->arch == 9) {
      float fma = st->fma / 64.0f, cvt = st->cvt / 64.0f;
      float sfu = st->sfu / 16.0f, v = st->v / 16.0f, t = st->t / 4.0f;
      float ls = (float)st->ls;
      float cycles = MAX(MAX(MAX(fma, cvt), MAX(sfu, v)), MAX(t, ls));
      fprintf(fp,
              "SHADER-DB: %s shader: %u inst, %f cycles, %f fma, %f cvt, "
              "%f sfu, %f v, %f t, %f ls, %u quadwords, %u threads, "
              "%u loops, %u:%u spills:fills\n",
              stage, st->instrs, cycles, fma, cvt, sfu, v, t, ls, st->quads,
              threads, st->loops, st->spills, st->fills);
      return;
   }
   /* The stock report's estimate (pan_bi_shaderdb_line says why). */
   float arith = st->arith_tuples / 24.0f;
   float t = st->tex / 2.0f, v = st->vary_halves / 16.0f;
   float ls = (float)st->ldst;
   float cycles = MAX(MAX(arith, t), MAX(v, ls));
   fprintf(fp,
           "SHADER-DB: %s shader: %u inst, %u tuples, %u clauses, "
           "%f cycles, %f arith, %f texture, %f vary, %f ldst, "
           "%u quadwords, %u threads, %u loops, %u:%u spills:fills\n",
           stage, st->instrs, st->tuples, st->clauses, cycles, arith, t, v, ls,
           st->quads, threads, st->loops, st->spills, st->fills);
}
