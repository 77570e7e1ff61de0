/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Live-range splitting of a vector, the allocator's step before spilling.
 *
 * A texture result or a load is one value of up to four words, and the
 * allocator keeps all of them as long as any word is read: one word read
 * at the end of the shader holds four registers over the whole program.
 * Splitting copies each word that is read on its own into a scalar right
 * after the definition, and points those reads at the copies; the vector
 * then lives only until its last whole read (or the copies), and each
 * word only as long as it is read.  A move each is far cheaper than a
 * spill store and its fills.
 */

#include "pan_va.h"
#include "pan_ir_builder.h"
#include "util/bitscan.h"

static pan_ir_instr *
only_def(pan_ir_shader *s, unsigned v, pan_ir_block **blk)
{
   pan_ir_instr *def = NULL;
   pan_ir_foreach_block(s, b)
   {
      pan_ir_foreach_instr(b, I)
      {
         if (I->dest.kind != PAN_IR_SSA || I->dest.value != v)
            continue;
         if (def)
            return NULL; /* a phi's moves: several definitions */
         def = I;
         *blk = b;
      }
   }
   return def;
}

bool
pan_va_split_vector(pan_ir_shader *s, unsigned v)
{
   pan_ir_block *def_blk = NULL;
   pan_ir_instr *def = only_def(s, v, &def_blk);
   if (!def || def->dest.comps < 2 || def->dest.comps > 4 ||
       def->op == PAN_IR_OP_TLS_LOAD)
      return false;

   /* Which words are read alone; nothing to gain without one.  A move of
    * a word (a copy this made before, say) is a copy already. */
   unsigned mask = 0;
   pan_ir_foreach_instr_global(s, b, I)
   {
      if (I->op == PAN_IR_OP_MOV)
         continue;
      for (unsigned i = 0; i < I->nr_srcs; ++i) {
         pan_ir_index src = I->src[i];
         if (src.kind == PAN_IR_SSA && src.value == v && src.comps == 1 &&
             I->op != PAN_IR_OP_TLS_STORE)
            mask |= 1u << src.comp;
      }
   }
   if (!mask)
      return false;

   pan_ir_builder b =
      def->link.next == &def_blk->instrs
         ? pan_ir_builder_at_end(s, def_blk)
         : pan_ir_builder_before(
              s, def_blk, list_entry(def->link.next, pan_ir_instr, link));
   pan_ir_index word[4];
   unsigned first_copy = s->ssa_alloc;
   u_foreach_bit (k, mask) {
      pan_ir_index src = def->dest;
      src.comp = 0;
      word[k] = pan_ir_mov(&b, pan_ir_word(src, k));
   }
   pan_ir_foreach_instr_global(s, blk, I)
   {
      /* The copies themselves keep reading the vector. */
      if (I->op == PAN_IR_OP_MOV && I->dest.kind == PAN_IR_SSA &&
          I->dest.value >= first_copy)
         continue;
      for (unsigned i = 0; i < I->nr_srcs; ++i) {
         pan_ir_index *src = &I->src[i];
         /* Words only moves read have no copy: those keep the vector. */
         if (src->kind != PAN_IR_SSA || src->value != v || src->comps != 1 ||
             !(mask & BITFIELD_BIT(src->comp)))
            continue;
         src->value = word[src->comp].value;
         src->comp = 0;
      }
   }
   return true;
}
