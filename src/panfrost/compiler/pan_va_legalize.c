/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Valhall sources can name a register, a uniform or an entry of the
 * hardware constant table, not any 32-bit constant: other immediates are
 * materialized by "iadd_imm #0, constant:v" just before their use.
 */

#include "isa/pan_isa_va_encode.h"
#include "pan_ir_builder.h"
#include "pan_va.h"

void
pan_va_legalize(pan_ir_shader *s, bool fold_fau)
{
   /* The movs that folding leaves unread go with the other dead code. */
   if (fold_fau && pan_va_fold_fau(s))
      pan_ir_opt_dce(s);
   pan_ir_foreach_block(s, blk)
   {
      pan_ir_foreach_instr(blk, I)
      {
         for (unsigned i = 0; i < I->nr_srcs; ++i) {
            pan_ir_index *src = &I->src[i];
            if (src->kind != PAN_IR_IMM || pan_va_lut_index(src->value) >= 0)
               continue;
            /* A float -0 is the table's 0 negated. */
            if (src->value == 0x80000000u &&
                pan_ir_op_infos[I->op].float_srcs && !src->abs) {
               src->value = 0;
               src->neg = !src->neg;
               continue;
            }
            pan_ir_builder b = pan_ir_builder_before(s, blk, I);
            pan_ir_index v = pan_ir_iadd_imm(&b, src->value, pan_ir_imm(0));
            v.neg = src->neg;
            v.abs = src->abs;
            *src = v;
         }
      }
   }
}
