/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Blend shaders on Bifrost (v6/v7).  A fragment shader's BLEND through a
 * descriptor in shader mode writes the descriptor's return value to its
 * destination, r48 by convention (pan_bi_schedule.c gives it that
 * destination), and the thread goes on in the blend shader once the
 * clause ends.  The blend shader shares the thread's registers: it reads
 * the colour and coverage where the calling BLEND has them (the IR's
 * preloads, as on v9), reads the destination with LD_TILE, stores with
 * its own BLEND through an opaque descriptor, and jumps back to r48.
 * The return value is the address of the clause after the caller's
 * BLEND, which only the packed program knows: the driver takes it from
 * pan_bi_binary.blend_return.
 */

#include <string.h>

#include "isa/pan_isa_bi_priv.h"
#include "pan_bi.h"
#include "pan_ir_builder.h"
#include "pan_va.h"

/* LD_TILE's pixel indices: x and y 0xff name the thread's own pixel
 * (the IR gives the sample and the render target only). */
#define BI_TILE_OWN_PIXEL 0xffff0000u

void
pan_bi_lower_blend(pan_ir_shader *s, const struct pan_va_blend_options *blend)
{
   pan_ir_instr *ret_after = NULL;
   pan_ir_block *ret_block = NULL;

   pan_ir_foreach_instr_global(s, b, I)
   {
      if (I->op == PAN_IR_OP_LD_TILE && I->src[0].kind == PAN_IR_IMM) {
         I->src[0].value |= BI_TILE_OWN_PIXEL;
      } else if (I->op == PAN_IR_OP_LD_TILE) {
         /* The sample computed (a multisampled target). */
         pan_ir_builder bld = pan_ir_builder_before(s, b, I);
         I->src[0] = pan_ir_lshift_or(&bld, I->src[0], pan_ir_imm(0),
                                      pan_ir_imm(BI_TILE_OWN_PIXEL));
      }
      if (I->op == PAN_IR_OP_BLEND && (I->imm & 0x200)) {
         ret_after = I;
         ret_block = b;
      }
   }
   /* Called by the caller's last BLEND: the return value is 0 and the
    * shader's end ends the thread. */
   if (!ret_after || blend->last)
      return;
   pan_ir_builder bld =
      ret_after->link.next == &ret_block->instrs
         ? pan_ir_builder_at_end(s, ret_block)
         : pan_ir_builder_before(s, ret_block,
                                 list_entry(ret_after->link.next,
                                            pan_ir_instr, link));
   pan_ir_blend_return(&bld, pan_ir_preload(&bld, PAN_VA_BLEND_LINK_REG));
}

bool
pan_bi_blend_returns(const uint64_t *words, unsigned nr_words,
                     uint32_t ret[8])
{
   unsigned quads = nr_words / 2, at = 0;

   memset(ret, 0, 8 * sizeof(ret[0]));
   while (at < quads) {
      struct bi_clause c;
      unsigned n = bi_unpack_clause(words + 2 * at, quads - at, &c);
      if (!n)
         return false;
      /* BLEND ends its clause: its tuple is the last.  The clause
       * header's flow field is 0 ("end") in the program's last clause. */
      const struct bi_tuple *t = &c.tuples[c.nr_tuples - 1];
      int op = bi_identify(t->add, 1);
      struct bi_regblock blk;
      bool end = ((c.header >> 11) & 7) == 0;
      if (op >= 0 && !strcmp(bi_ops[op].name, "blend")) {
         /* The target is the descriptor's: one read elsewhere (moved to a
          * register) would leave the return unknown. */
         if (!bi_regs_decode(t->regs, c.nr_tuples == 1, &blk) ||
             blk.fau < 8 || blk.fau >= 16)
            return false;
         if (!end)
            ret[blk.fau - 8] = (at + n) * 16;
      }
      at += n;
   }
   return true;
}
