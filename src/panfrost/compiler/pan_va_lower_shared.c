/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Shared memory on Valhall: there is no wls segment as on Bifrost, the
 * hardware gives each workgroup's storage an address instead, the 64-bit
 * workgroup_local_pointer special FAU value.  A load_shared or
 * store_shared becomes a global load or store at that address plus the
 * offset.  The storage never crosses a 4 GiB boundary (the driver places
 * it so), so the offset is added to the low word alone and the high word
 * is the pointer's; a constant offset is the instruction's immediate.
 * The address words atomics take (wls_addr_lo/hi) are the same sums.
 */

#include "pan_ir_builder.h"
#include "pan_va.h"

/* The LOAD/STORE immediate offset is a signed 16-bit field. */
#define MAX_IMM_OFFSET 0x7fff

static pan_ir_index
address(pan_ir_builder *b, pan_ir_index offset, uint32_t *imm)
{
   pan_ir_index wls = pan_ir_special(PAN_IR_SPECIAL_WLS_PTR);
   *imm = 0;
   if (offset.kind == PAN_IR_IMM && offset.value <= MAX_IMM_OFFSET) {
      *imm = offset.value;
      wls.comps = 2;
      return wls;
   }
   pan_ir_index hi = wls;
   hi.comp = 1;
   pan_ir_index w[2] = { pan_ir_iadd(b, wls, offset), pan_ir_mov(b, hi) };
   return pan_ir_collect(b, 2, w);
}

void
pan_va_lower_shared(pan_ir_shader *s)
{
   pan_ir_foreach_block(s, blk)
   {
      pan_ir_foreach_instr(blk, I)
      {
         pan_ir_builder b = pan_ir_builder_before(s, blk, I);
         /* A word of the address: that word of the pointer plus the
          * source (the offset, or zero for the high word); the move
          * goes in copy propagation. */
         if (I->op == PAN_IR_OP_WLS_ADDR_LO || I->op == PAN_IR_OP_WLS_ADDR_HI) {
            pan_ir_index w = pan_ir_special(PAN_IR_SPECIAL_WLS_PTR);
            w.comp = I->op == PAN_IR_OP_WLS_ADDR_HI;
            bool zero = I->src[0].kind == PAN_IR_IMM && !I->src[0].value;
            I->src[0] = zero ? w : pan_ir_iadd(&b, w, I->src[0]);
            I->op = PAN_IR_OP_MOV;
            continue;
         }
         bool store = I->op == PAN_IR_OP_STORE_SHARED;
         if (!store && I->op != PAN_IR_OP_LOAD_SHARED)
            continue;
         uint32_t imm;
         pan_ir_index addr = address(&b, I->src[store ? 1 : 0], &imm);
         /* The same instruction, as the global form (the zero high word
          * source goes). */
         if (store) {
            I->op = PAN_IR_OP_STORE_GLOBAL;
            I->src[1] = addr;
            I->nr_srcs = 2;
         } else {
            I->op = PAN_IR_OP_LOAD_GLOBAL;
            I->src[0] = addr;
            I->nr_srcs = 1;
         }
         I->imm = imm;
      }
   }
}
