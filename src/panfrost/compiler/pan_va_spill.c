/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Spilling a value to thread-local storage, everywhere: a store after
 * each of its definitions and a load into a fresh value before each
 * instruction that reads it.  The allocator (pan_va_ra.c) picks the value
 * and runs again.
 *
 * The address is the 64-bit thread_local_pointer special FAU value plus
 * the byte offset, with memaccess=force: the hardware turns that into
 * this thread's slot of the storage the driver sizes from tls_size.
 * Thread storage is interleaved between threads, so an access must stay
 * within one 16-byte line.
 */

#include "pan_ir_builder.h"
#include "pan_va.h"

unsigned
pan_va_spill_slot(unsigned *tls_size, unsigned comps)
{
   unsigned bytes = comps * 4, off = *tls_size;
   if (off % 16 + bytes > 16)
      off = ALIGN_POT(off, 16);
   *tls_size = off + bytes;
   return off;
}

static pan_ir_builder
builder_after(pan_ir_shader *s, pan_ir_block *blk, pan_ir_instr *I)
{
   if (I->link.next == &blk->instrs)
      return pan_ir_builder_at_end(s, blk);
   return pan_ir_builder_before(s, blk,
                                list_entry(I->link.next, pan_ir_instr, link));
}

void
pan_va_spill(pan_ir_shader *s, unsigned v, unsigned comps, unsigned offset,
             struct pan_va_spill_stats *stats)
{
   pan_ir_index tls = pan_ir_special(PAN_IR_SPECIAL_TLS_PTR);
   tls.comps = 2;

   pan_ir_foreach_block(s, blk)
   {
      pan_ir_foreach_instr_safe(blk, I)
      {
         if (I->op == PAN_IR_OP_TLS_STORE)
            continue;

         /* One fill per reading instruction, shared by its sources. */
         pan_ir_index fill = pan_ir_null();
         for (unsigned i = 0; i < I->nr_srcs; ++i) {
            pan_ir_index *src = &I->src[i];
            if (src->kind != PAN_IR_SSA || src->value != v)
               continue;
            if (fill.kind == PAN_IR_NULL) {
               pan_ir_builder b = pan_ir_builder_before(s, blk, I);
               fill = pan_ir_tls_load(&b, comps, offset, tls);
               stats->fills++;
            }
            src->value = fill.value;
         }

         if (I->dest.kind == PAN_IR_SSA && I->dest.value == v) {
            pan_ir_builder b = builder_after(s, blk, I);
            pan_ir_index whole = I->dest;
            whole.comp = 0;
            pan_ir_tls_store(&b, offset, whole, tls);
            stats->spills++;
         }
      }
   }
}
