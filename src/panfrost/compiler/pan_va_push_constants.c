/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Constants outside the hardware table cost an iadd_imm before each use.
 * In graphics stages the driver fills the FAU words from the push table,
 * so a constant can be a pushed word instead (PAN_VA_PUSH_CONSTANT, the
 * value in offset_B) that the instruction reads for free.  An instruction
 * reads one FAU value at most, a 64-bit pair: its constants go where no
 * other FAU value is read, and two constants of one instruction share a
 * pair.
 */

#include "pan_compile.h"
#include "util/u_math.h"
#include "pan_va.h"

static bool
is_const(const struct pan_va_binary *bin, unsigned i, uint32_t v)
{
   return i < bin->nr_push && bin->push[i].source == PAN_VA_PUSH_CONSTANT &&
          bin->push[i].offset_B == v;
}

static void
push(struct pan_va_binary *bin, uint32_t v)
{
   bin->push[bin->nr_push++] = (struct pan_va_push_word){
      .source = PAN_VA_PUSH_CONSTANT,
      .offset_B = v,
   };
}

/* Words holding v[0..n) (n = 1 or 2) in one 64-bit pair, reusing the
 * words pushed already; false when the table is full. */
static bool
find_words(struct pan_va_binary *bin, const uint32_t *v, unsigned n,
           unsigned *words)
{
   for (unsigned i = 0; i < bin->nr_push; ++i) {
      if (!is_const(bin, i, v[0]))
         continue;
      if (n == 1) {
         words[0] = i;
         return true;
      }
      unsigned other = i ^ 1;
      if (is_const(bin, other, v[1])) {
         words[0] = i;
         words[1] = other;
         return true;
      }
   }
   unsigned at = n == 1 ? bin->nr_push : ALIGN_POT(bin->nr_push, 2);
   if (at + n > PAN_VA_MAX_PUSH_WORDS)
      return false;
   if (at > bin->nr_push)
      push(bin, v[1]); /* the odd word left over: worth having anyway */
   for (unsigned k = 0; k < n; ++k) {
      words[k] = bin->nr_push;
      push(bin, v[k]);
   }
   return true;
}

void
pan_va_push_constants(pan_ir_shader *s, struct pan_va_binary *bin)
{
   pan_ir_foreach_instr_global(s, blk, I)
   {
      if (I->op == PAN_IR_OP_COLLECT)
         continue; /* a move either way */
      int slot = -1;
      unsigned consts[4], n = 0;
      for (unsigned i = 0; i < I->nr_srcs; ++i) {
         int f = pan_va_fau_slot(I->src[i]);
         if (f >= 0)
            slot = f;
         else if (pan_va_foldable_src(I, i) && pan_va_imm_needs_word(I, i) &&
                  n < ARRAY_SIZE(consts))
            consts[n++] = i;
      }
      /* One pair for all of them, where no other FAU value is read. */
      if (!n || slot >= 0 || n > 2)
         continue;
      uint32_t v[2] = { I->src[consts[0]].value, I->src[consts[n - 1]].value };
      unsigned words[2];
      if (!find_words(bin, v, v[0] == v[1] ? 1 : n, words))
         continue;
      for (unsigned k = 0; k < n; ++k) {
         pan_ir_index *src = &I->src[consts[k]];
         pan_ir_index u = pan_ir_uniform(words[v[0] == v[1] ? 0 : k]);
         u.neg = src->neg;
         u.abs = src->abs;
         *src = u;
      }
   }
}
