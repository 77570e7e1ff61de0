/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Bifrost instruction words from the isa library's generated tables
 * (bifrost_isa.py): the compiler names an instruction and its modifiers,
 * the table gives the bits, so the encodings exist once.
 */

#include <stdlib.h>
#include <string.h>

#include "isa/pan_isa_bi_priv.h"
#include "pan_bi.h"

static int
find_mod(const struct bi_op *op, const char *name)
{
   for (unsigned i = 0; i < op->nr_mods; ++i) {
      if (!strcmp(op->mods[i].name, name))
         return (int)i;
   }
   return -1;
}

static void
put(uint32_t *word, unsigned start, unsigned size, uint32_t v)
{
   uint32_t mask = ((1u << size) - 1) << start;
   *word = (*word & ~mask) | ((v << start) & mask);
}

/* Encode as bi_ops[i]; false when a modifier does not fit it. */
static bool
try_encoding(unsigned i, const char *const (*mods)[2], unsigned nr_mods,
             uint32_t *word)
{
   const struct bi_op *op = &bi_ops[i];
   uint32_t w = op->exact, seen = 0;

   for (unsigned m = 0; m < nr_mods; ++m) {
      int f = find_mod(op, mods[m][0]);
      if (f < 0)
         return false;
      const struct bi_mod *mod = &op->mods[f];
      int v = -1;
      for (unsigned k = 0; mod->values && k < (1u << mod->size); ++k) {
         if (mod->values[k] && !strcmp(mod->values[k], mods[m][1]))
            v = (int)k;
      }
      if (v < 0)
         return false;
      put(&w, mod->start, mod->size, (uint32_t)v);
      seen |= 1u << f;
   }
   for (unsigned f = 0; f < op->nr_mods; ++f) {
      const struct bi_mod *mod = &op->mods[f];
      if ((seen & (1u << f)) || !mod->values)
         continue;
      if (mod->dflt < 0)
         return false;
      put(&w, mod->start, mod->size, (uint32_t)mod->dflt);
   }
   *word = w;
   return true;
}

bool
pan_bi_encode_form(const char *name, unsigned unit,
                   const char *const (*mods)[2], unsigned nr_mods,
                   uint32_t *word, unsigned *op, char *err, size_t err_size)
{
   /* "name#k": the k-th encoding of that name, when they differ in
    * meaning rather than in modifiers. */
   const char *hash = strchr(name, '#');
   size_t len = hash ? (size_t)(hash - name) : strlen(name);
   int skip = hash ? atoi(hash + 1) : 0;
   for (unsigned i = 0; i < bi_nr_ops; ++i) {
      if (bi_ops[i].unit != unit || strlen(bi_ops[i].name) != len ||
          strncmp(bi_ops[i].name, name, len) || skip-- > 0)
         continue;
      if (try_encoding(i, mods, nr_mods, word)) {
         *op = i;
         return true;
      }
   }
   snprintf(err, err_size, "no %s encoding of %s fits its modifiers",
            unit ? "ADD" : "FMA", name);
   return false;
}

bool
pan_bi_all_have_field(const char *name, unsigned unit, const char *field)
{
   bool any = false;
   for (unsigned i = 0; i < bi_nr_ops; ++i) {
      const struct bi_op *op = &bi_ops[i];
      if (op->unit != unit || strcmp(op->name, name))
         continue;
      int f = find_mod(op, field);
      if (f < 0 || op->mods[f].size != 1)
         return false;
      any = true;
   }
   return any;
}

uint32_t
pan_bi_set_src(uint32_t word, unsigned op, unsigned k, unsigned sel)
{
   put(&word, bi_ops[op].srcs[k], 3, sel);
   return word;
}

bool
pan_bi_toggle(uint32_t *word, unsigned op, const char *field)
{
   int f = find_mod(&bi_ops[op], field);
   if (f < 0 || bi_ops[op].mods[f].size != 1)
      return false;
   *word ^= 1u << bi_ops[op].mods[f].start;
   return true;
}

bool
pan_bi_set_imm(uint32_t *word, unsigned op, const char *name, uint32_t v)
{
   for (unsigned i = 0; i < bi_ops[op].nr_imms; ++i) {
      const struct bi_imm *imm = &bi_ops[op].imms[i];
      if (strcmp(imm->name, name) || v >= (1u << imm->size))
         continue;
      put(word, imm->start, imm->size, v);
      return true;
   }
   /* Raw fields (modifiers without named values) are set the same way. */
   int f = find_mod(&bi_ops[op], name);
   if (f < 0 || bi_ops[op].mods[f].values ||
       v >= (1u << bi_ops[op].mods[f].size))
      return false;
   put(word, bi_ops[op].mods[f].start, bi_ops[op].mods[f].size, v);
   return true;
}

int
pan_bi_special_fau(unsigned special)
{
   /* The register block's FAU index of each (1 lane_id, 5 atest_datum,
    * 8 + n blend_descriptor_n); the others have no Bifrost form. */
   if (special == PAN_IR_SPECIAL_LANE_ID)
      return 1;
   if (special == PAN_IR_SPECIAL_ATEST_DATUM)
      return 5;
   if (special >= PAN_IR_SPECIAL_BLEND_DESC_0 &&
       special < PAN_IR_SPECIAL_BLEND_DESC_0 + 8)
      return 8 + (int)(special - PAN_IR_SPECIAL_BLEND_DESC_0);
   return -1;
}

uint32_t
pan_bi_nop(unsigned unit)
{
   uint32_t w = 0;
   unsigned op;
   ASSERTED bool ok = pan_bi_encode_form("nop", unit, NULL, 0, &w, &op, NULL, 0);
   assert(ok);
   return w;
}
