/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Scratch array addresses on Valhall.  The IR gives a scratch access the
 * byte offset in the thread's storage (Bifrost's tl segment takes that as
 * its address); Valhall has no such segment: a LOAD or STORE with
 * memaccess=force at thread_local_pointer plus the offset reaches the
 * thread's own slot, as the spills do (pan_va_spill.c).
 */

#include "pan_ir_builder.h"
#include "pan_va.h"

void
pan_va_lower_scratch(pan_ir_shader *s)
{
   pan_ir_index tls = pan_ir_special(PAN_IR_SPECIAL_TLS_PTR);
   tls.comps = 2;

   pan_ir_foreach_block(s, blk)
   {
      pan_ir_foreach_instr(blk, I)
      {
         unsigned a = I->op == PAN_IR_OP_SCRATCH_LOAD    ? 0
                      : I->op == PAN_IR_OP_SCRATCH_STORE ? 1
                                                         : ~0u;
         if (a == ~0u)
            continue;
         pan_ir_builder b = pan_ir_builder_before(s, blk, I);
         I->src[a] = pan_ir_iadd64(&b, tls, I->src[a]);
      }
   }
}
