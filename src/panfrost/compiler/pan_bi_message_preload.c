/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * v7 fragment message preloads.  The renderer state names up to two
 * messages the hardware sends before the shader starts, their results
 * in r0-r3 and r4-r7.  A message of the entry block, which every thread
 * runs, that needs nothing the shader computes can be one of them: the
 * program then reads the registers instead, which saves the message and
 * usually the clause that sends it.  Two kinds qualify:
 *
 *  - VAR_TEX: a 2D texture lookup (TEXS_2D, sampler = texture < 4) whose
 *    coordinates are words 0 and 1 of an interpolated varying; it saves a
 *    texture message, so these go first.  Its varying index has 3 bits:
 *    a slot from 8 on is read through a record below 8 that no load of
 *    the shader names (the driver's fragment record table aliases it).
 *    The second is skipped when dual texturing pairs its coordinates'
 *    lookups as well without it;
 *  - LD_VAR: an interpolated f32 varying load at the centre (slot < 32).
 */

#include <string.h>

#include "pan_bi.h"
#include "pan_ir_builder.h"

/* The value and word a scalar source reads, through collects. */
static pan_ir_index
resolve(pan_ir_instr **def, pan_ir_index i)
{
   while (i.kind == PAN_IR_SSA && i.comps == 1 && !i.neg && !i.abs) {
      pan_ir_instr *D = def[i.value];
      if (!D || D->op != PAN_IR_OP_COLLECT || i.comp >= D->nr_srcs)
         break;
      i = D->src[i.comp];
   }
   return i;
}

/* The LD_VAR slot a TEXS_2D of the entry block can be preloaded from, or
 * -1 (the 3-bit record is chosen later). */
static int
var_tex_slot(pan_ir_instr **def, const pan_ir_instr *I)
{
   unsigned texture = I->imm & 0xff, sampler = (I->imm >> 8) & 0xff;
   if (I->op != PAN_IR_OP_TEXS_2D || I->dest.kind != PAN_IR_SSA ||
       texture != sampler || texture > 3)
      return -1;
   pan_ir_index x = resolve(def, I->src[0]), y = resolve(def, I->src[1]);
   if (x.kind != PAN_IR_SSA || y.kind != PAN_IR_SSA || x.value != y.value ||
       x.neg || x.abs || y.neg || y.abs || x.comp != 0 || y.comp != 1)
      return -1;
   pan_ir_instr *L = def[x.value];
   if (!L || L->op != PAN_IR_OP_LD_VAR || L->imm > 31)
      return -1;
   return (int)L->imm;
}

/* Lookups of the entry block at I's coordinates that pan_bi_dual_tex
 * could pair with it (I included), when I could be paired at all. */
static unsigned
dual_partners(pan_ir_block *entry, pan_ir_instr **def, const pan_ir_instr *I)
{
   unsigned n = 0;
   pan_ir_index x = resolve(def, I->src[0]), y = resolve(def, I->src[1]);
   pan_ir_foreach_instr(entry, K)
   {
      unsigned t = K->imm & 0xff, smp = (K->imm >> 8) & 0xff;
      if (K->op != PAN_IR_OP_TEXS_2D || K->dest.kind != PAN_IR_SSA ||
          (K->imm & (1u << 16)) || t > 3 || smp > 3)
         continue;
      pan_ir_index kx = resolve(def, K->src[0]), ky = resolve(def, K->src[1]);
      n += kx.kind == x.kind && kx.value == x.value && kx.comp == x.comp &&
           ky.kind == y.kind && ky.value == y.value && ky.comp == y.comp;
   }
   return n;
}

/* I's value becomes a collect of the preloaded r(4k)..r(4k + comps - 1);
 * it keeps its number, and collect_opt forwards the words to readers. */
static void
replace(pan_ir_shader *s, pan_ir_block *entry, pan_ir_instr *I, unsigned k)
{
   unsigned comps = I->dest.comps;
   pan_ir_builder b = pan_ir_builder_before(s, entry, I);
   pan_ir_index w[4];
   for (unsigned c = 0; c < comps; ++c)
      w[c] = pan_ir_preload(&b, 4 * k + c);
   pan_ir_instr *C = pan_ir_build(&b, PAN_IR_OP_COLLECT, comps);
   memcpy(C->src, w, comps * sizeof(w[0]));
   C->dest = I->dest;
   pan_ir_instr_remove(I);
}

unsigned
pan_bi_message_preload(pan_ir_shader *s,
                       struct pan_bi_message_preload msgs[2])
{
   unsigned n = 0;
   pan_ir_block *entry = pan_ir_entry_block(s);
   pan_ir_instr **def = rzalloc_array(NULL, pan_ir_instr *, s->ssa_alloc + 1);

   memset(msgs, 0, 2 * sizeof(msgs[0]));
   pan_ir_foreach_instr(entry, I)
   {
      if (I->dest.kind == PAN_IR_SSA && I->dest.value < s->ssa_alloc)
         def[I->dest.value] = I;
   }
   /* Records below 8 the shader's loads name (all of them stay: the
    * loads the lookups read may have other readers). */
   unsigned named = 0;
   pan_ir_foreach_instr_global(s, b, I)
   {
      if ((I->op == PAN_IR_OP_LD_VAR || I->op == PAN_IR_OP_LD_VAR_FLAT) &&
          I->imm < 8)
         named |= 1u << I->imm;
   }
   pan_ir_foreach_instr_safe(entry, I)
   {
      int slot = var_tex_slot(def, I);
      if (n == 2 || slot < 0)
         continue;
      /* The second preload: when an even number of lookups share these
       * coordinates, they pair into as many dual messages without this
       * one as the rest would with it, and the preload is left for a
       * varying load (the coordinates' own, usually). */
      unsigned partners = n ? dual_partners(entry, def, I) : 0;
      if (partners >= 2 && !(partners & 1))
         continue;
      int record = slot;
      if (slot > 7) {
         for (record = 0; record < 8 && (named & (1u << record)); ++record)
            ;
         if (record == 8)
            continue;
         named |= 1u << record;
      }
      msgs[n] = (struct pan_bi_message_preload){
         .varying = record,
         .slot = slot,
         .comps = 4,
         .texture = true,
         .texture_index = I->imm & 0xff,
         .zero_lod = (I->imm >> 16) & 1,
      };
      replace(s, entry, I, n++);
   }
   /* The loads only those lookups read are dead now: no slot for them. */
   if (n)
      pan_ir_opt_dce(s);
   pan_ir_foreach_instr_safe(entry, I)
   {
      /* Flat loads are another message. */
      unsigned comps = I->dest.comps;
      if (n == 2 || I->op != PAN_IR_OP_LD_VAR || I->dest.kind != PAN_IR_SSA ||
          I->imm > 31 || comps < 1 || comps > 4)
         continue;
      msgs[n] = (struct pan_bi_message_preload){
         .varying = I->imm,
         .slot = I->imm,
         .comps = comps,
      };
      replace(s, entry, I, n++);
   }
   ralloc_free(def);
   return n;
}
