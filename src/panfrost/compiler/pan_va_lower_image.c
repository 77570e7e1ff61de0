/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Image coordinates on Valhall: LD_TEX and LEA_TEX read the slice or
 * layer from the high half of their second source, where Bifrost's
 * LD_ATTR_TEX reads a whole word.  The IR keeps the Bifrost form (a
 * plain word); this moves it up before the Valhall forms are emitted.
 * The register forms (an image index chosen at run time) take a resource
 * handle where Bifrost takes the attribute index.
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
         bool idx = I->op == PAN_IR_OP_IMAGE_LOAD_IDX ||
                    I->op == PAN_IR_OP_IMAGE_LEA_IDX;
         if (I->op != PAN_IR_OP_IMAGE_LOAD && I->op != PAN_IR_OP_IMAGE_LEA &&
             !idx)
            continue;
         pan_ir_builder b = pan_ir_builder_before(s, blk, I);
         /* A run-time image is a resource handle: the table in the top
          * byte, the index below. */
         if (idx)
            I->src[2] = pan_ir_iadd_imm(&b, 5u << 24, I->src[2]);
         pan_ir_index z = I->src[1];
         if (z.kind == PAN_IR_IMM)
            I->src[1] = pan_ir_imm(z.value << 16);
         else
            I->src[1] = pan_ir_lshift_or(&b, z, pan_ir_imm(16), pan_ir_imm(0));
      }
   }
}
