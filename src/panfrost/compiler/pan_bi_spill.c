/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Spilling on Bifrost.  The shared allocator (pan_va_ra.c) spills the
 * same way on both architectures and addresses the storage through the
 * thread_local_pointer special, which is Valhall's.  Bifrost has no such
 * value: a load or store in the tl segment takes an offset into the
 * calling thread's own storage as its address, and the hardware adds
 * the thread's slot (16 << tls_size bytes of the thread storage
 * descriptor).  So the address becomes the instruction's byte offset
 * (its immediate, pan_ir_opcodes.py) over a zero high word.
 *
 * This runs after allocation: the zero is a constant, it takes no
 * register, and the clause scheduler packs it with the offset.
 */

#include "pan_bi.h"

void
pan_bi_lower_spill(pan_ir_shader *s)
{
   pan_ir_foreach_instr_global(s, b, I)
   {
      unsigned addr = I->op == PAN_IR_OP_TLS_LOAD    ? 0
                      : I->op == PAN_IR_OP_TLS_STORE ? 1
                                                     : ~0u;
      if (addr != ~0u)
         I->src[addr] = pan_ir_imm(0);
   }
}
