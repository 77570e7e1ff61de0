/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Decoding an instruction word through the generated operand tables, and
 * reading/writing its operands for one lane.
 */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pan_isa_va.h"
#include "pan_sim_va_priv.h"

static uint64_t
field(uint64_t word, unsigned start, unsigned size)
{
   return (word >> start) & va_sim_mask(size);
}

static const struct va_mod *
find_mod(const struct va_mod *mods, unsigned n, const char *name)
{
   for (unsigned i = 0; i < n; ++i) {
      if (!strcmp(mods[i].name, name))
         return &mods[i];
   }
   return NULL;
}

static const char *
mod_value_name(const struct va_mod *m, uint64_t word)
{
   unsigned v = field(word, m->start, m->size);
   if (m->enum_id < 0)
      return v ? m->name : NULL;
   const struct va_enum *e = &va_enums[m->enum_id];
   return v < e->count ? e->values[v] : NULL;
}

/* Memo kinds: source s adds s to the source kinds. */
enum { MEMO_MOD, MEMO_STR, MEMO_IMM, MEMO_SRC_MOD = 4, MEMO_SRC_STR = 8 };

static int
mod_of(const struct va_mod *mods, unsigned n, const char *name, uint64_t word)
{
   const struct va_mod *m = find_mod(mods, n, name);
   return m ? (int)field(word, m->start, m->size) : -1;
}

static const char *
str_of(const struct va_mod *mods, unsigned n, const char *name,
       const char *dflt, uint64_t word)
{
   const struct va_mod *m = find_mod(mods, n, name);
   return m && m->enum_id >= 0 ? mod_value_name(m, word) : dflt;
}

int
pan_sim_va_mod(const struct pan_sim_va_ins *ins, const char *name)
{
   int64_t v;
   if (pan_sim_memo_get(ins->memo, MEMO_MOD, name, NULL, &v))
      return (int)v;
   v = mod_of(ins->op->mods, ins->op->nr_mods, name, ins->word);
   pan_sim_memo_put(ins->memo, MEMO_MOD, name, NULL, v);
   return (int)v;
}

const char *
pan_sim_va_mod_str(const struct pan_sim_va_ins *ins, const char *name,
                   const char *dflt)
{
   int64_t v;
   if (pan_sim_memo_get(ins->memo, MEMO_STR, name, dflt, &v))
      return (const char *)(intptr_t)v;
   const char *r = str_of(ins->op->mods, ins->op->nr_mods, name, dflt, ins->word);
   pan_sim_memo_put(ins->memo, MEMO_STR, name, dflt, (intptr_t)r);
   return r;
}

int
pan_sim_va_src_mod(const struct pan_sim_va_ins *ins, unsigned s,
                   const char *name)
{
   const struct va_operand *o = ins->src[s];
   int64_t v;
   if (pan_sim_memo_get(ins->memo, MEMO_SRC_MOD + s, name, NULL, &v))
      return (int)v;
   v = mod_of(o->mods, o->nr_mods, name, ins->word);
   pan_sim_memo_put(ins->memo, MEMO_SRC_MOD + s, name, NULL, v);
   return (int)v;
}

const char *
pan_sim_va_src_mod_str(const struct pan_sim_va_ins *ins, unsigned s,
                       const char *name, const char *dflt)
{
   const struct va_operand *o = ins->src[s];
   int64_t v;
   if (pan_sim_memo_get(ins->memo, MEMO_SRC_STR + s, name, dflt, &v))
      return (const char *)(intptr_t)v;
   const char *r = str_of(o->mods, o->nr_mods, name, dflt, ins->word);
   pan_sim_memo_put(ins->memo, MEMO_SRC_STR + s, name, dflt, (intptr_t)r);
   return r;
}

static int64_t
imm_of(const struct pan_sim_va_ins *ins, const char *name)
{
   for (unsigned i = 0; i < ins->op->nr_operands; ++i) {
      const struct va_operand *o = &ins->op->operands[i];
      if (o->kind != VA_OPERAND_IMM || strcmp(o->name, name))
         continue;
      uint64_t v = field(ins->word, o->start, o->size);
      return o->is_signed ? (int64_t)va_sim_sext(v, o->size) : (int64_t)v;
   }
   return 0;
}

int64_t
pan_sim_va_imm(const struct pan_sim_va_ins *ins, const char *name)
{
   int64_t v;
   if (pan_sim_memo_get(ins->memo, MEMO_IMM, name, NULL, &v))
      return v;
   v = imm_of(ins, name);
   pan_sim_memo_put(ins->memo, MEMO_IMM, name, NULL, v);
   return v;
}

void
pan_sim_va_staging(const struct pan_sim_va_ins *ins, unsigned k, unsigned *reg,
                   unsigned *count)
{
   const struct va_operand *o = ins->staging[k];
   *reg = field(ins->word, o->start, 6);
   if (o->count_fixed >= 0) {
      *count = o->count_fixed;
   } else {
      const struct va_mod *m = &ins->op->mods[o->count_mod];
      *count = field(ins->word, m->start, m->size) + o->count_bias;
   }
}

/* Every enum modifier must name a value; reserved encodings fault. */
static const char *
reserved_mod(const struct va_mod *mods, unsigned n, uint64_t word)
{
   for (unsigned i = 0; i < n; ++i) {
      if (mods[i].enum_id >= 0 && !mod_value_name(&mods[i], word))
         return mods[i].name;
   }
   return NULL;
}

/* The registers the declared register count leaves the thread. */
static uint64_t
register_file(unsigned work_regs)
{
   switch (work_regs) {
   case 16:
      return 0xffffull | 1ull << 48;
   case 32:
      return 0xffffull | 0xffffull << 48;
   default:
      return ~0ull;
   }
}

/* Whether registers r..r+n-1 exist in the declared mode; faults if not. */
static bool
regs_ok(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
        const char *what, unsigned r, unsigned n)
{
   uint64_t file = register_file(c->cfg->work_regs);
   for (unsigned i = r; i < r + n && i < PAN_SIM_VA_REGS; ++i) {
      if (!(file >> i & 1)) {
         return pan_sim_va_fault(c, ins,
                                 "%s r%u does not exist in a shader "
                                 "declaring %u registers",
                                 what, i, c->cfg->work_regs),
                false;
      }
   }
   return true;
}

static bool
source_ok(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
          unsigned s, bool wide)
{
   unsigned sel = field(ins->word, ins->src[s]->start, 8);
   unsigned kind = sel >> 6, v = sel & 63;

   if (kind <= 1 && wide && v == 63)
      return pan_sim_va_fault(c, ins, "64-bit source r63 has no pair"), false;
   if (kind <= 1 && !regs_ok(c, ins, "source", v, wide ? 2 : 1))
      return false;
   if (kind == 2) {
      unsigned u = ins->page * 64 + v + (wide ? 1 : 0);
      if (u >= c->cfg->uniform_words)
         return pan_sim_va_fault(c, ins, "uniform u%u beyond the %u given", u,
                                 c->cfg->uniform_words),
                false;
   }
   return true;
}

static bool
is_wide(unsigned type)
{
   return va_types[type].bits * va_types[type].lanes == 64;
}

enum va_sim_result
pan_sim_va_decode(struct pan_sim_va_ctx *c, uint64_t word,
                  struct pan_sim_va_ins *ins)
{
   struct pan_va_decoded d;
   int idx = va_identify(word);

   memset(ins, 0, sizeof(*ins));
   ins->word = word;
   if (idx < 0 || !pan_va_decode(word, &d)) {
      snprintf(c->w->fault, sizeof(c->w->fault),
               "pc %u: unknown instruction word 0x%016llx", c->pc,
               (unsigned long long)word);
      return VA_SIM_FAULT;
   }
   ins->index = idx;
   ins->op = &va_ops[idx];
   ins->sem = &va_sems[idx];
   ins->page = field(word, VA_PAGE_SHIFT, 2);
   if (d.extra)
      return pan_sim_va_fault(c, ins, "undefined bits 0x%016llx set",
                              (unsigned long long)d.extra);

   const char *bad = reserved_mod(ins->op->mods, ins->op->nr_mods, word);
   if (bad)
      return pan_sim_va_fault(c, ins, "reserved value of modifier %s", bad);
   ins->flow = pan_sim_va_mod_str(ins, "flow", "none");

   for (unsigned i = 0; i < ins->op->nr_operands; ++i) {
      const struct va_operand *o = &ins->op->operands[i];
      if (o->kind == VA_OPERAND_SRC) {
         bad = reserved_mod(o->mods, o->nr_mods, word);
         if (bad)
            return pan_sim_va_fault(c, ins, "reserved source modifier %s", bad);
         ins->src[ins->nr_src++] = o;
      } else if (o->kind == VA_OPERAND_DEST) {
         ins->has_dest = true;
         ins->dest_reg = field(word, 40, 6);
         ins->dest_mask = field(word, 46, 2);
      } else if (o->kind == VA_OPERAND_STAGING) {
         ins->staging[ins->nr_staging++] = o;
      }
   }

   for (unsigned k = 0; k < ins->nr_staging; ++k) {
      unsigned reg, count;
      pan_sim_va_staging(ins, k, &reg, &count);
      if (reg + count > PAN_SIM_VA_REGS)
         return pan_sim_va_fault(c, ins, "staging r%u:%u beyond r63", reg,
                                 count);
      if (!regs_ok(c, ins, "staging", reg, count))
         return VA_SIM_FAULT;
   }
   if (ins->has_dest && is_wide(ins->sem->dtype) && ins->dest_reg == 63)
      return pan_sim_va_fault(c, ins, "64-bit destination r63 has no pair");
   if (ins->has_dest && !regs_ok(c, ins, "destination", ins->dest_reg,
                                 is_wide(ins->sem->dtype) ? 2 : 1))
      return VA_SIM_FAULT;
   for (unsigned s = 0; s < ins->nr_src; ++s) {
      if (!source_ok(c, ins, s, ins->src[s]->wide))
         return VA_SIM_FAULT;
   }
   return VA_SIM_OK;
}

static uint64_t
special_value(const struct pan_sim_va_ctx *c, unsigned page, unsigned entry,
              unsigned lane)
{
   if (c->lane_id_entry[page][entry])
      return lane;
   if (c->pc_entry[page][entry])
      return c->cfg->program_va + (uint64_t)c->pc * 8;
   return c->cfg->special[page][entry];
}

static uint64_t
read_sel(const struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
         unsigned s, unsigned lane, bool wide)
{
   unsigned sel = field(ins->word, ins->src[s]->start, 8);
   unsigned kind = sel >> 6, v = sel & 63;
   const uint32_t *r = c->w->r[lane];

   switch (kind) {
   case 0:
   case 1: /* kind 1 only adds a register-cache hint */
      return wide ? r[v] | (uint64_t)r[v + 1] << 32 : r[v];
   case 2: {
      const uint32_t *u = c->cfg->uniforms + ins->page * 64 + v;
      return wide ? u[0] | (uint64_t)u[1] << 32 : u[0];
   }
   default:
      if (v < 32)
         return va_immediate_lut[v];
      uint64_t sp = special_value(c, ins->page, (v - 32) / 2, lane);
      return (v & 1) ? sp >> 32 : (wide ? sp : (uint32_t)sp);
   }
}

uint32_t
pan_sim_va_src32(const struct pan_sim_va_ctx *c,
                 const struct pan_sim_va_ins *ins, unsigned s, unsigned lane)
{
   return read_sel(c, ins, s, lane, false);
}

uint64_t
pan_sim_va_src64(const struct pan_sim_va_ctx *c,
                 const struct pan_sim_va_ins *ins, unsigned s, unsigned lane)
{
   return read_sel(c, ins, s, lane, true);
}

void
pan_sim_va_dest32(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
                  unsigned lane, uint32_t v)
{
   uint32_t keep = (ins->dest_mask & 1 ? 0 : 0xffffu) |
                   (ins->dest_mask & 2 ? 0 : 0xffff0000u);
   uint32_t *r = &c->w->r[lane][ins->dest_reg];
   *r = (*r & keep) | (v & ~keep);
}

void
pan_sim_va_dest64(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
                  unsigned lane, uint64_t v)
{
   if (!ins->dest_mask)
      return;
   c->w->r[lane][ins->dest_reg] = v;
   c->w->r[lane][ins->dest_reg + 1] = v >> 32;
}

uint64_t
pan_sim_va_element(uint64_t v, unsigned bits, unsigned k, const char *swz,
                   unsigned *width)
{
   if (swz && strcmp(swz, "none")) {
      size_t n = strlen(swz);
      /* "h1"/"b2"/"w0" pick one element; "h10"/"b20"/"b0123" pick
       * element k from the digit list. */
      unsigned digit = n == 2 ? swz[1] - '0' : swz[1 + (k % (n - 1))] - '0';
      *width = swz[0] == 'h' ? 16 : swz[0] == 'b' ? 8 : 32;
      return field(v, digit * *width, *width);
   }
   *width = bits;
   return field(v, k * bits, bits);
}

enum va_sim_result
pan_sim_va_fault(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
                 const char *fmt, ...)
{
   char msg[PAN_SIM_VA_FAULT_LEN - 64];
   va_list ap;

   va_start(ap, fmt);
   vsnprintf(msg, sizeof(msg), fmt, ap);
   va_end(ap);
   snprintf(c->w->fault, sizeof(c->w->fault), "pc %u: %s: %.*s", c->pc,
            ins->op->name, (int)sizeof(msg), msg);
   return VA_SIM_FAULT;
}

enum va_sim_result
pan_sim_va_refuse(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
                  const char *why)
{
   c->refused = why;
   return pan_sim_va_fault(c, ins, "not implemented (%s)", why);
}
