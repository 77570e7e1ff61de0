/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * IR validator, run between passes in debug builds and by the tests:
 * operand counts and modifiers per the opcode table, values defined once
 * (until phis are lowered) and before use in layout order, phis first in
 * their block with one source per predecessor, branches last, and
 * successor lists that match the branches.
 */

#include <stdarg.h>
#include <string.h>

#include "pan_ir.h"

struct vctx {
   const pan_ir_shader *s;
   char *err;
   size_t err_size;
   bool ok;
   uint8_t *defs;  /* definitions seen per value */
   uint8_t *comps; /* vector length per value */
};

static void PRINTFLIKE(3, 4)
   fail(struct vctx *v, const pan_ir_instr *I, const char *fmt, ...)
{
   if (!v->ok)
      return;
   v->ok = false;

   char msg[192];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(msg, sizeof(msg), fmt, ap);
   va_end(ap);
   snprintf(v->err, v->err_size, "%s%s%s", I ? pan_ir_op_infos[I->op].name : "",
            I ? ": " : "", msg);
}

static void
check_src(struct vctx *v, const pan_ir_instr *I, unsigned s, bool is_phi)
{
   const struct pan_ir_op_info *info = &pan_ir_op_infos[I->op];
   pan_ir_index i = I->src[s];

   if ((i.neg || i.abs) && !info->float_srcs)
      fail(v, I, "source %u: float modifier on a non-float source", s);
   if (i.kind == PAN_IR_NULL)
      fail(v, I, "source %u is missing", s);
   if (i.kind != PAN_IR_SSA)
      return;
   if (i.value >= v->s->ssa_alloc) {
      fail(v, I, "source %u: value %%%u was never allocated", s, i.value);
      return;
   }
   /* Phi sources come along back edges: defined somewhere suffices. */
   if (!is_phi && !v->defs[i.value] && !v->s->out_of_ssa)
      fail(v, I, "source %u: %%%u used before its definition", s, i.value);
   if (v->defs[i.value] && i.comp + i.comps > v->comps[i.value])
      fail(v, I, "source %u: words %u..%u of %%%u, which has %u", s, i.comp,
           i.comp + i.comps - 1, i.value, v->comps[i.value]);
}

static void
check_instr(struct vctx *v, const pan_ir_block *b, const pan_ir_instr *I,
            bool *past_phis)
{
   const struct pan_ir_op_info *info = &pan_ir_op_infos[I->op];

   if (I->op >= PAN_IR_NR_OPS) {
      fail(v, NULL, "opcode %u out of range", I->op);
      return;
   }
   if (I->op == PAN_IR_OP_PHI) {
      if (*past_phis)
         fail(v, I, "phi after other instructions in block%u", b->index);
      unsigned preds = util_dynarray_num_elements(&b->preds, pan_ir_block *);
      if (I->nr_srcs != preds)
         fail(v, I, "%u sources for %u predecessors", I->nr_srcs, preds);
   } else {
      *past_phis = true;
      if (info->nr_srcs != PAN_IR_VARIABLE && I->nr_srcs != info->nr_srcs)
         fail(v, I, "%u sources, the table says %u", I->nr_srcs, info->nr_srcs);
   }
   if (info->terminator && I != list_last_entry(&b->instrs, pan_ir_instr, link))
      fail(v, I, "branch before the end of block%u", b->index);
   if (info->terminator && (!I->target || I->target != b->succ[0]))
      fail(v, I, "target is not the first successor of block%u", b->index);
   if ((info->mods & PAN_IR_MOD_TYPE) && I->type == PAN_IR_TYPE_NONE)
      fail(v, I, "missing type");
   if ((info->mods & PAN_IR_MOD_CMP) && I->cmp == PAN_IR_CMP_NONE)
      fail(v, I, "missing comparison");

   for (unsigned s = 0; s < I->nr_srcs; ++s)
      check_src(v, I, s, I->op == PAN_IR_OP_PHI);

   if (!info->dest_comps) {
      if (I->dest.kind != PAN_IR_NULL)
         fail(v, I, "has a destination, the table says none");
      return;
   }
   if (I->dest.kind != PAN_IR_SSA) {
      fail(v, I, "destination is not a value");
      return;
   }
   /* Vectors have 4 words at most, but for fixed-length results (a dual
    * texture's 8) and collects (a Valhall texture's staging words, up to
    * 8). */
   unsigned max_comps = I->op == PAN_IR_OP_COLLECT ? 8
                        : info->dest_comps == PAN_IR_VARIABLE
                           ? 4
                           : MAX2(info->dest_comps, 4);
   if (I->dest.comps < 1 || I->dest.comps > max_comps ||
       (info->dest_comps != PAN_IR_VARIABLE &&
        I->dest.comps != info->dest_comps))
      fail(v, I, "destination of %u words", I->dest.comps);
   if (I->dest.value >= v->s->ssa_alloc) {
      fail(v, I, "destination %%%u was never allocated", I->dest.value);
      return;
   }
   if (v->defs[I->dest.value] && !v->s->out_of_ssa)
      fail(v, I, "%%%u defined twice", I->dest.value);
   v->defs[I->dest.value] = 1;
   v->comps[I->dest.value] = I->dest.comps;
}

bool
pan_ir_validate(const pan_ir_shader *s, char *err, size_t err_size)
{
   struct vctx v = { .s = s, .err = err, .err_size = err_size, .ok = true };
   v.defs = calloc(s->ssa_alloc + 1, 1);
   v.comps = calloc(s->ssa_alloc + 1, 1);
   if (!v.defs || !v.comps) {
      snprintf(err, err_size, "out of memory");
      free(v.defs), free(v.comps);
      return false;
   }

   list_for_each_entry (pan_ir_block, b, &s->blocks, link) {
      bool past_phis = false;
      list_for_each_entry (pan_ir_instr, I, &b->instrs, link)
         check_instr(&v, b, I, &past_phis);

      /* A block without a branch falls through to the next one. */
      const pan_ir_instr *T = pan_ir_block_terminator((pan_ir_block *)b);
      bool last = b->link.next == &s->blocks;
      if (!T && !last &&
          b->succ[0] != list_entry(b->link.next, pan_ir_block, link))
         fail(&v, NULL, "block%u falls through to a block it does not list",
              b->index);
      if (last && !T && b->succ[0])
         fail(&v, NULL, "the last block has successors but no branch");
   }
   free(v.defs);
   free(v.comps);
   return v.ok;
}
