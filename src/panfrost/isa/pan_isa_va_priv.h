/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Shapes of the generated Valhall tables (pan_isa_va_tables.c, produced by
 * gen_va.py from valhall_isa.py).  Only the Valhall codec includes this.
 */

#ifndef PAN_ISA_VA_PRIV_H
#define PAN_ISA_VA_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "pan_isa_text.h"

struct va_enum {
   const char *name;
   const char *const *values; /* NULL entries are reserved encodings */
   uint8_t count;
   int8_t dflt;               /* -1: no default, always printed */
};

struct va_mod {
   const char *name;
   uint8_t start, size;
   int8_t enum_id;  /* -1 for a one-bit flag */
   bool implied;    /* staging length: set from the operand, never printed */
};

enum va_operand_kind {
   VA_OPERAND_STAGING,
   VA_OPERAND_DEST,
   VA_OPERAND_SRC,
   VA_OPERAND_IMM,
};

struct va_operand {
   uint8_t kind;
   uint8_t start; /* staging register, source selector or immediate */
   uint8_t size;  /* immediate width */
   bool is_signed;
   bool wide;        /* source read from a 64-bit register pair */
   const char *name; /* immediate name */

   /* Staging vectors: fixed length, or length from a modifier. */
   int8_t count_fixed; /* -1 when count_mod is used */
   int8_t count_mod;   /* index into the instruction's modifiers */
   uint8_t count_bias;

   /* Source modifiers. */
   uint8_t nr_mods;
   const struct va_mod *mods;
};

struct va_op {
   const char *name;
   const char *unit;
   uint64_t match_mask, match_value;
   /* Bits outside every field that conventionally hold default_value. */
   uint64_t default_mask, default_value;
   /* Bits given a meaning by some field, page and opcode included. */
   uint64_t covered;
   uint8_t nr_operands, nr_mods;
   const struct va_operand *operands;
   const struct va_mod *mods;
};

/*
 * Semantics of each instruction (parallel to va_ops[]): a family and the
 * destination / source types.  The numbering is in the generated
 * pan_isa_va_sem.h (gen_va.py --header); names are here for messages.
 */
struct va_type_info {
   const char *name;
   uint8_t bits;  /* lane width; 0 for "none" */
   uint8_t lanes; /* lanes per value; 0 for "none" */
   char kind;     /* 'f', 'i', 'u', 's'; 0 for "none" */
};

struct va_sem {
   uint8_t family, dtype, stype;
};

extern const struct va_sem va_sems[];
extern const char *const va_family_names[];
extern const unsigned va_nr_families;
extern const struct va_type_info va_types[];
extern const unsigned va_nr_types;

extern const struct va_enum va_enums[];
extern const struct va_op va_ops[];
extern const unsigned va_nr_ops;
extern const uint32_t va_immediate_lut[32];
/* Special FAU names of pages 0..3 (page 2 has none), 16 entries each. */
extern const char *const va_special_names[4][16];

/* Index of the instruction matching a word, or -1. */
int va_identify(uint64_t word);

#define VA_FLOW_SHIFT 59
#define VA_PAGE_SHIFT 57

/*
 * A word being built field by field, by the text assembler and by the
 * structured encoder alike: the FAU page is fixed by the first operand or
 * modifier that needs one, and a second, different page is an error.
 */
struct va_build {
   uint64_t word;
   int page; /* -1 until an operand or the instruction fixes it */
   char *err;
   size_t err_size;
};

static inline void
va_put(uint64_t *word, unsigned start, unsigned size, uint64_t value)
{
   uint64_t mask = ((1ull << size) - 1) << start;
   *word = (*word & ~mask) | ((value << start) & mask);
}

static inline int
va_set_page(struct va_build *b, unsigned page)
{
   if (b->page >= 0 && b->page != (int)page)
      return pan_isa_fail(b->err, b->err_size,
                          "operands need FAU pages %d and %u at once",
                          b->page, page);
   b->page = (int)page;
   return 0;
}

/* Modifiers not in `seen` (bit i: mods[i] was given) take their default;
 * one without a default is an error. */
static inline int
va_default_mods(struct va_build *b, const struct va_mod *mods, unsigned nr,
                uint64_t seen)
{
   for (unsigned i = 0; i < nr; i++) {
      const struct va_mod *m = &mods[i];
      if ((seen & (1ull << i)) || m->implied || m->enum_id < 0)
         continue;
      int d = va_enums[m->enum_id].dflt;
      if (d < 0)
         return pan_isa_fail(b->err, b->err_size, "missing modifier %s",
                             m->name);
      va_put(&b->word, m->start, m->size, (uint64_t)d);
   }
   return 0;
}

#endif
