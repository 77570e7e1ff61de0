/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Creation of shaders, blocks, values and instructions.
 */

#include "pan_ir.h"

pan_ir_shader *
pan_ir_shader_create(void *mem_ctx)
{
   pan_ir_shader *s = rzalloc(mem_ctx, pan_ir_shader);
   list_inithead(&s->blocks);
   return s;
}

pan_ir_block *
pan_ir_block_create(pan_ir_shader *s)
{
   pan_ir_block *b = rzalloc(s, pan_ir_block);
   list_inithead(&b->instrs);
   util_dynarray_init(&b->preds, b);
   b->index = s->nr_blocks++;
   list_addtail(&b->link, &s->blocks);
   return b;
}

pan_ir_index
pan_ir_new_value(pan_ir_shader *s, unsigned comps)
{
   return (pan_ir_index){ .kind = PAN_IR_SSA,
                          .value = s->ssa_alloc++,
                          .comps = comps };
}

void
pan_ir_block_add_succ(pan_ir_block *from, pan_ir_block *to)
{
   unsigned i = from->succ[0] ? 1 : 0;
   assert(!from->succ[i] && "a block has at most two successors");
   from->succ[i] = to;
   util_dynarray_append(&to->preds, pan_ir_block *, from);
}

void
pan_ir_instr_remove(pan_ir_instr *I)
{
   list_del(&I->link);
}

pan_ir_instr *
pan_ir_block_terminator(pan_ir_block *b)
{
   if (list_is_empty(&b->instrs))
      return NULL;
   pan_ir_instr *I = list_last_entry(&b->instrs, pan_ir_instr, link);
   return pan_ir_op_infos[I->op].terminator ? I : NULL;
}

pan_ir_instr *
pan_ir_build(pan_ir_builder *b, enum pan_ir_op op, unsigned nr_srcs)
{
   pan_ir_instr *I = rzalloc(b->shader, pan_ir_instr);
   I->op = op;
   I->nr_srcs = nr_srcs;
   I->src = rzalloc_array(I, pan_ir_index, nr_srcs ? nr_srcs : 1);
   if (b->before)
      list_addtail(&I->link, &b->before->link);
   else
      list_addtail(&I->link, &b->block->instrs);
   return I;
}
