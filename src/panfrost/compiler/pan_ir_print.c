/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Text form of the IR, for debugging and for the before/after IR tests:
 *
 *    block1 (preds block0) -> block2 block3:
 *       %5 = icmp.s32.lt %3, #0x10
 *       branchz.zero %5 -> block3
 *
 * %N is a value (%N:2 a two-word vector, %N.1 word 1 of one), #0x.. an
 * immediate, uN a uniform word, -x / |x| float source modifiers.
 */

#include <string.h>

#include "pan_ir.h"

const char *const pan_ir_special_names[PAN_IR_NR_SPECIALS] = {
   [PAN_IR_SPECIAL_LANE_ID] = "lane_id",
   [PAN_IR_SPECIAL_ATEST_DATUM] = "atest_datum",
   [PAN_IR_SPECIAL_PROGRAM_COUNTER] = "program_counter",
   [PAN_IR_SPECIAL_TLS_PTR] = "thread_local_pointer",
   [PAN_IR_SPECIAL_WLS_PTR] = "workgroup_local_pointer",
   [PAN_IR_SPECIAL_BLEND_DESC_0 + 0] = "blend_descriptor_0",
   [PAN_IR_SPECIAL_BLEND_DESC_0 + 1] = "blend_descriptor_1",
   [PAN_IR_SPECIAL_BLEND_DESC_0 + 2] = "blend_descriptor_2",
   [PAN_IR_SPECIAL_BLEND_DESC_0 + 3] = "blend_descriptor_3",
   [PAN_IR_SPECIAL_BLEND_DESC_0 + 4] = "blend_descriptor_4",
   [PAN_IR_SPECIAL_BLEND_DESC_0 + 5] = "blend_descriptor_5",
   [PAN_IR_SPECIAL_BLEND_DESC_0 + 6] = "blend_descriptor_6",
   [PAN_IR_SPECIAL_BLEND_DESC_0 + 7] = "blend_descriptor_7",
};

void
pan_ir_print_index(FILE *fp, pan_ir_index i)
{
   if (i.neg)
      fputc('-', fp);
   if (i.abs)
      fputc('|', fp);
   switch (i.kind) {
   case PAN_IR_NULL:
      fputs("_", fp);
      break;
   case PAN_IR_SSA:
      fprintf(fp, "%%%u", i.value);
      if (i.comp)
         fprintf(fp, ".%u", i.comp);
      if (i.comps > 1)
         fprintf(fp, ":%u", i.comps);
      break;
   case PAN_IR_IMM:
      fprintf(fp, "#0x%x", i.value);
      break;
   case PAN_IR_UNIFORM:
      fprintf(fp, "u%u", i.value);
      break;
   case PAN_IR_SPECIAL:
      fputs(i.value < PAN_IR_NR_SPECIALS ? pan_ir_special_names[i.value]
                                         : "special?",
            fp);
      if (i.comp)
         fprintf(fp, ".w%u", i.comp);
      break;
   default:
      fprintf(fp, "?kind%u", i.kind);
   }
   if (i.abs)
      fputc('|', fp);
}

void
pan_ir_print_instr(FILE *fp, const pan_ir_instr *I)
{
   const struct pan_ir_op_info *info = &pan_ir_op_infos[I->op];

   if (I->dest.kind != PAN_IR_NULL) {
      pan_ir_print_index(fp, I->dest);
      fputs(" = ", fp);
   }
   fputs(info->name, fp);
   if (info->mods & PAN_IR_MOD_TYPE)
      fprintf(fp, ".%s", pan_ir_type_names[I->type]);
   if (info->mods & PAN_IR_MOD_CMP)
      fprintf(fp, ".%s", pan_ir_cmp_names[I->cmp]);
   if ((info->mods & PAN_IR_MOD_ON_ZERO) && I->on_zero)
      fputs(".zero", fp);

   for (unsigned s = 0; s < I->nr_srcs; ++s) {
      fputs(s ? ", " : " ", fp);
      pan_ir_print_index(fp, I->src[s]);
   }
   if (info->mods & PAN_IR_MOD_IMM)
      fprintf(fp, "%simm:0x%x", I->nr_srcs ? ", " : " ", I->imm);
   if ((info->mods & PAN_IR_MOD_TARGET) && I->target)
      fprintf(fp, " -> block%u", I->target->index);
   fputc('\n', fp);
}

void
pan_ir_print_shader(FILE *fp, const pan_ir_shader *s)
{
   list_for_each_entry (pan_ir_block, b, &s->blocks, link) {
      fprintf(fp, "block%u", b->index);
      if (util_dynarray_num_elements(&b->preds, pan_ir_block *)) {
         fputs(" (preds", fp);
         pan_ir_foreach_pred(b, p) fprintf(fp, " block%u", (*p)->index);
         fputc(')', fp);
      }
      if (b->succ[0]) {
         fprintf(fp, " -> block%u", b->succ[0]->index);
         if (b->succ[1])
            fprintf(fp, " block%u", b->succ[1]->index);
      }
      fputs(":\n", fp);
      list_for_each_entry (pan_ir_instr, I, &b->instrs, link) {
         fputs("   ", fp);
         pan_ir_print_instr(fp, I);
      }
   }
}

char *
pan_ir_shader_to_string(void *mem_ctx, const pan_ir_shader *s)
{
   char *buf = NULL;
   size_t size = 0;
   FILE *fp = open_memstream(&buf, &size);
   if (!fp)
      return ralloc_strdup(mem_ctx, "");
   pan_ir_print_shader(fp, s);
   fclose(fp);
   char *out = ralloc_strdup(mem_ctx, buf ? buf : "");
   free(buf);
   return out;
}
