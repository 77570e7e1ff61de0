/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Input loads moved to a later block, the allocator's first step when a
 * program does not fit in the 32 registers that let a core run twice as
 * many threads.  pan_ir_opt_sink moves an attribute or varying load down
 * within its block; a load read only after a loop or in one arm of an if
 * still holds its registers from the top of the shader to there.  Such a
 * load reads nothing but preloaded registers (reserved for the whole
 * program), so it can be issued in the block of its readers instead, in
 * front of the first one, as long as that block runs no more often: not
 * in a loop the load was outside of.
 */

#include <stdlib.h>
#include <string.h>

#include "pan_va.h"

static bool
is_input_load(const pan_ir_instr *I, const pan_ir_instr *const *def)
{
   if ((I->op != PAN_IR_OP_LD_ATTR && I->op != PAN_IR_OP_LD_VAR &&
        I->op != PAN_IR_OP_LD_VAR_FLAT) ||
       I->dest.kind != PAN_IR_SSA)
      return false;
   for (unsigned i = 0; i < I->nr_srcs; ++i) {
      if (I->src[i].kind == PAN_IR_SSA &&
          (!def[I->src[i].value] ||
           def[I->src[i].value]->op != PAN_IR_OP_PRELOAD))
         return false;
   }
   return true;
}

/* Whether moving from block `from` to block `to` (layout positions)
 * enters a loop: the structured control flow lays a loop out
 * contiguously from its header to the block with the back edge. */
static bool
enters_loop(pan_ir_block **order, unsigned nr_blocks, unsigned from,
            unsigned to)
{
   for (unsigned j = 0; j < nr_blocks; ++j) {
      for (unsigned k = 0; k < 2; ++k) {
         pan_ir_block *head = order[j]->succ[k];
         unsigned h = head ? (uintptr_t)head->pass_data : ~0u;
         if (h <= j && h <= to && to <= j && (from < h || from > j))
            return true;
      }
   }
   return false;
}

bool
pan_va_sink_inputs(pan_ir_shader *s)
{
   static const pan_ir_instr several;
   unsigned nr = s->ssa_alloc + 1, nr_blocks = list_length(&s->blocks);
   const pan_ir_instr **def = calloc(nr, sizeof(*def));
   pan_ir_instr **first_read = calloc(nr, sizeof(*first_read));
   int *read_blk = malloc(nr * sizeof(int)); /* -1 none, -2 several */
   pan_ir_block **order = calloc(nr_blocks, sizeof(*order));
   bool progress = false;
   if (!def || !first_read || !read_blk || !order)
      goto out;

   unsigned n = 0;
   pan_ir_foreach_block(s, b)
   {
      b->pass_data = (void *)(uintptr_t)n;
      order[n++] = b;
   }
   memset(read_blk, 0xff, nr * sizeof(int));
   pan_ir_foreach_instr_global(s, b, I)
   {
      unsigned here = (uintptr_t)b->pass_data;
      for (unsigned i = 0; i < I->nr_srcs; ++i) {
         unsigned v = I->src[i].value;
         if (I->src[i].kind != PAN_IR_SSA)
            continue;
         if (read_blk[v] == -1) {
            read_blk[v] = here;
            first_read[v] = I;
         } else if (read_blk[v] != (int)here) {
            read_blk[v] = -2;
         }
      }
      /* A value defined more than once (a phi's) counts as no load. */
      if (I->dest.kind == PAN_IR_SSA)
         def[I->dest.value] = def[I->dest.value] ? &several : I;
   }

   pan_ir_foreach_block(s, b)
   {
      unsigned from = (uintptr_t)b->pass_data;
      pan_ir_foreach_instr_safe(b, I)
      {
         if (!is_input_load(I, def))
            continue;
         int to = read_blk[I->dest.value];
         if (def[I->dest.value] != I || to <= (int)from ||
             enters_loop(order, nr_blocks, from, to))
            continue;
         list_del(&I->link);
         list_addtail(&I->link, &first_read[I->dest.value]->link);
         progress = true;
      }
   }

out:
   free(def);
   free(first_read);
   free(read_blk);
   free(order);
   return progress;
}
