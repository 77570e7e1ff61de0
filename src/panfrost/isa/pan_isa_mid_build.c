/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Building Midgard instructions field by field from the generated tables,
 * for compilers: the same layouts the assembler and disassembler use, so
 * there is no second description of the encoding.
 */

#include "pan_isa_mid_priv.h"

#include <string.h>

static unsigned
slot_format(enum pan_mid_slot slot)
{
   return slot == PAN_MID_LDST  ? MID_FMT_LDST
          : slot == PAN_MID_TEX ? MID_FMT_TEX
          : slot < MID_NR_UNITS ? mid_units[slot].fmt
                                : MID_NR_FORMATS;
}

/*
 * Compilers look the same few names up over and over (an opcode per
 * instruction and scheduling try, a dozen fields per packed instruction),
 * mostly through the same string constants: each thread remembers its
 * latest answers by the name's address and table, checked by name, so
 * only a new name walks the table.  Per thread: no locking, and the
 * entries are only a hint (a reused address fails the name check).
 */
struct memo {
   const void *table, *key, *hit;
};

#define MEMO_SIZE 64
static __thread struct memo op_memo[MEMO_SIZE], field_memo[MEMO_SIZE];

static struct memo *
memo_slot(struct memo *m, const void *table, const char *name)
{
   uintptr_t h = ((uintptr_t)name >> 3) ^ ((uintptr_t)table >> 5);
   return &m[(h ^ (h >> 6)) % MEMO_SIZE];
}

static const struct mid_op *
op_by_name(const struct mid_format *fmt, const char *name)
{
   struct memo *e = memo_slot(op_memo, fmt, name);
   if (e->table == fmt && e->key == name &&
       !strcmp(((const struct mid_op *)e->hit)->name, name))
      return e->hit;
   for (unsigned i = 0; i < fmt->nr_ops; i++) {
      if (!strcmp(fmt->ops[i].name, name)) {
         *e = (struct memo){ fmt, name, &fmt->ops[i] };
         return &fmt->ops[i];
      }
   }
   return NULL;
}

/* The first field of that name in the layout, or NULL. */
static const struct mid_field *
field_by_name(const struct mid_format *fmt, const char *name)
{
   struct memo *e = memo_slot(field_memo, fmt, name);
   if (e->table == fmt && e->key == name &&
       !strcmp(((const struct mid_field *)e->hit)->name, name))
      return e->hit;
   for (unsigned i = 0; i < fmt->nr_fields; i++) {
      if (!strcmp(fmt->fields[i].name, name)) {
         *e = (struct memo){ fmt, name, &fmt->fields[i] };
         return &fmt->fields[i];
      }
   }
   return NULL;
}

bool
pan_mid_instr_init(struct pan_mid_instr *I, enum pan_mid_slot slot,
                   const char *op_name)
{
   unsigned fmt_id = slot_format(slot);
   if (fmt_id >= MID_NR_FORMATS)
      return false;
   const struct mid_format *base = &mid_formats[fmt_id];
   const struct mid_op *op = op_by_name(base, op_name);
   if (!op)
      return false;

   memset(I, 0, sizeof(*I));
   I->slot = slot;
   mid_set(I->bits, base->op_start, base->op_size, op->value);
   const struct mid_format *fmt = op->fmt >= 0 ? &mid_formats[op->fmt] : base;
   for (unsigned i = 0; i < fmt->nr_fields; i++)
      mid_set(I->bits, fmt->fields[i].start, fmt->fields[i].size,
              fmt->fields[i].def);
   return true;
}

bool
pan_mid_instr_set(struct pan_mid_instr *I, const char *name, uint64_t value)
{
   unsigned fmt_id = slot_format(I->slot);
   if (fmt_id >= MID_NR_FORMATS)
      return false;
   const struct mid_field *f = field_by_name(mid_layout(fmt_id, I->bits), name);
   if (!f)
      return false;
   uint64_t max = f->size == 64 ? ~0ull : (1ull << f->size) - 1;
   /* Signed fields take their two's complement; anything else must fit. */
   if (f->kind == MID_SINT) {
      int64_t s = (int64_t)value, lim = (int64_t)(max >> 1);
      if (s > lim || s < -lim - 1)
         return false;
      value &= max;
   } else if (value > max) {
      return false;
   }
   mid_set(I->bits, f->start, f->size, value);
   return true;
}

unsigned
pan_mid_alu_op_units(const char *op_name)
{
   const struct mid_op *op = op_by_name(&mid_formats[MID_FMT_VECTOR], op_name);
   /* Unit bits follow the slot order of enum pan_mid_slot. */
   return op ? op->units & ((1u << MID_NR_ALU) - 1) : 0;
}
