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

/* Whether op's result depends on its operands alone: no memory, no side
 * effect, no other lane (what CSE may merge and phi lowering may
 * retarget). */
bool
pan_ir_op_is_pure(enum pan_ir_op op)
{
   switch (op) {
   case PAN_IR_OP_MOV:
   case PAN_IR_OP_COLLECT:
   case PAN_IR_OP_IADD_IMM:
   case PAN_IR_OP_IADD:
   case PAN_IR_OP_ISUB:
   case PAN_IR_OP_IMUL:
   case PAN_IR_OP_IADD64:
   case PAN_IR_OP_LSHIFT_OR:
   case PAN_IR_OP_LSHIFT_AND:
   case PAN_IR_OP_LSHIFT_XOR:
   case PAN_IR_OP_RSHIFT_OR:
   case PAN_IR_OP_ICMP:
   case PAN_IR_OP_FCMP:
   case PAN_IR_OP_CSEL:
   case PAN_IR_OP_FADD:
   case PAN_IR_OP_FMA:
   case PAN_IR_OP_FMIN:
   case PAN_IR_OP_FMAX:
   case PAN_IR_OP_FRCP:
   case PAN_IR_OP_FRSQ:
   case PAN_IR_OP_FFLOOR:
   case PAN_IR_OP_FCEIL:
   case PAN_IR_OP_FTRUNC:
   case PAN_IR_OP_FROUND_EVEN:
   case PAN_IR_OP_FREXPE_LOG:
   case PAN_IR_OP_FADD_LSCALE:
   case PAN_IR_OP_FLOGD:
   case PAN_IR_OP_FMA_RSCALE:
   case PAN_IR_OP_F2S32_RTE:
   case PAN_IR_OP_FEXP:
   case PAN_IR_OP_FSIN_TABLE:
   case PAN_IR_OP_FCOS_TABLE:
   case PAN_IR_OP_CUBEFACE1:
   case PAN_IR_OP_CUBEFACE2:
   case PAN_IR_OP_CUBE_SSEL:
   case PAN_IR_OP_CUBE_TSEL:
   case PAN_IR_OP_FMA_SAT:
   case PAN_IR_OP_MUX_BIT:
   case PAN_IR_OP_F2S32:
   case PAN_IR_OP_F2U32:
   case PAN_IR_OP_S2F32:
   case PAN_IR_OP_U2F32:
   case PAN_IR_OP_U16LO_TO_F32:
   case PAN_IR_OP_U16HI_TO_F32:
   case PAN_IR_OP_U16LO_TO_U32:
      return true;
   default:
      return false;
   }
}

