/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * For sim_coverage.py: asks the Bifrost/Valhall interpreters, instruction
 * by instruction, whether they execute the instructions of compiled
 * shader binaries (pan_sim_va_implemented / pan_sim_bi_implemented).
 *
 *   sim-coverage-tool --arch=v7|v9 FILE...
 *
 * prints one line per distinct (instruction, answer), tab separated:
 *   name  family  unit  ok|refused  count  reason
 * All-zero words (padding between programs) are skipped; bytes that are
 * no clause are named on stderr and counted as "undecoded" lines.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pan_isa_bi_priv.h"
#include "pan_isa_va_priv.h"
#include "pan_sim_bi.h"
#include "pan_sim_va.h"

#define MAX_ROWS 4096

struct row {
   char name[48], family[32], unit[8], reason[160];
   bool ok;
   unsigned long count;
};

static struct row rows[MAX_ROWS];
static unsigned nr_rows;

static void
count(const char *name, const char *family, const char *unit, bool ok,
      const char *reason)
{
   for (unsigned i = 0; i < nr_rows; ++i) {
      struct row *r = &rows[i];
      if (r->ok == ok && !strcmp(r->name, name) && !strcmp(r->unit, unit) &&
          !strcmp(r->reason, reason)) {
         r->count++;
         return;
      }
   }
   if (nr_rows == MAX_ROWS) {
      fprintf(stderr, "too many distinct instructions\n");
      exit(1);
   }
   struct row *r = &rows[nr_rows++];
   snprintf(r->name, sizeof(r->name), "%s", name);
   snprintf(r->family, sizeof(r->family), "%s", family);
   snprintf(r->unit, sizeof(r->unit), "%s", unit);
   snprintf(r->reason, sizeof(r->reason), "%s", reason);
   r->ok = ok;
   r->count = 1;
}

static void
va_word(uint64_t word)
{
   char why[160] = "";
   int idx = va_identify(word);
   bool ok = pan_sim_va_implemented(word, why, sizeof(why));

   if (idx < 0) {
      count("undecoded", "none", "none", false, why);
      return;
   }
   count(va_ops[idx].name, va_family_names[va_sems[idx].family],
         va_ops[idx].unit, ok, ok ? "" : why);
}

static void
bi_word(uint32_t word, unsigned unit)
{
   char why[160] = "";
   int idx = bi_identify(word, unit);
   bool ok = pan_sim_bi_implemented(word, unit, why, sizeof(why));

   if (idx < 0) {
      count("undecoded", "none", unit ? "ADD" : "FMA", false, why);
      return;
   }
   count(bi_ops[idx].name, bi_family_names[bi_sems[idx].family],
         unit ? "ADD" : "FMA", ok, ok ? "" : why);
}

static void
scan(const char *path, bool valhall, const uint64_t *w, size_t nr_words)
{
   if (valhall) {
      for (size_t i = 0; i < nr_words; ++i) {
         if (w[i])
            va_word(w[i]);
      }
      return;
   }
   size_t quads = nr_words / 2;
   for (size_t q = 0; q < quads;) {
      struct bi_clause c;
      if (!w[2 * q] && !w[2 * q + 1]) {
         q++;
         continue;
      }
      unsigned n = bi_unpack_clause(w + 2 * q, quads - q, &c);
      if (!n) {
         fprintf(stderr, "%s: no clause at byte 0x%zx\n", path, q * 16);
         count("undecoded", "none", "none", false, "no clause");
         q++;
         continue;
      }
      for (unsigned t = 0; t < c.nr_tuples; ++t) {
         bi_word(c.tuples[t].fma, 0);
         bi_word(c.tuples[t].add, 1);
      }
      q += n;
   }
}

int
main(int argc, char **argv)
{
   if (argc < 2 ||
       (strcmp(argv[1], "--arch=v7") && strcmp(argv[1], "--arch=v6") &&
        strcmp(argv[1], "--arch=v9"))) {
      fprintf(stderr, "usage: sim-coverage-tool --arch=v6|v7|v9 FILE...\n");
      return 2;
   }
   bool valhall = !strcmp(argv[1], "--arch=v9");

   for (int a = 2; a < argc; ++a) {
      FILE *f = fopen(argv[a], "rb");
      if (!f) {
         perror(argv[a]);
         return 1;
      }
      fseek(f, 0, SEEK_END);
      long size = ftell(f);
      fseek(f, 0, SEEK_SET);
      size_t nr = size > 0 ? (size_t)size / 8 : 0;
      uint64_t *w = calloc(nr + 1, 8);
      if (!w || fread(w, 8, nr, f) != nr) {
         fprintf(stderr, "%s: cannot read\n", argv[a]);
         free(w);
         fclose(f);
         return 1;
      }
      fclose(f);
      scan(argv[a], valhall, w, nr);
      free(w);
   }
   for (unsigned i = 0; i < nr_rows; ++i) {
      struct row *r = &rows[i];
      printf("%s\t%s\t%s\t%s\t%lu\t%s\n", r->name, r->family, r->unit,
             r->ok ? "ok" : "refused", r->count, r->reason);
   }
   return 0;
}
