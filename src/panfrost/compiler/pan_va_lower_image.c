/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Image coordinates on Valhall: LD_TEX and LEA_TEX read the slice or
 * layer from the high half of their second source, where Bifrost's
 * LD_ATTR_TEX reads a whole word.  The IR keeps the Bifrost form (a
 * plain word); this moves it up before the Valhall forms are emitted.
 */

#include "pan_ir_builder.h"
#include "pan_va.h"

void
pan_va_lower_image(pan_ir_shader *s)
{
   pan_ir_foreach_block(s, blk)
   {
      pan_ir_foreach_instr(blk, I)
      {
         if (I->op != PAN_IR_OP_IMAGE_LOAD && I->op != PAN_IR_OP_IMAGE_LEA)
            continue;
         pan_ir_index z = I->src[1];
         if (z.kind == PAN_IR_IMM) {
            I->src[1] = pan_ir_imm(z.value << 16);
            continue;
         }
         pan_ir_builder b = pan_ir_builder_before(s, blk, I);
         I->src[1] = pan_ir_lshift_or(&b, z, pan_ir_imm(16), pan_ir_imm(0));
      }
   }
}
