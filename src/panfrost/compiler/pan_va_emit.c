/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Emission: each IR instruction is written in our Valhall assembly syntax
 * from the template of its opcode (pan_ir_opcodes.py) and encoded by the
 * isa library, so the encodings exist once, in src/panfrost/isa.
 *
 * Flow control: loads wait for their own slot (.wait0) so that the next
 * instruction sees the data; branches reconverge; the last instruction
 * carries .end, or a nop.end is added when its flow field is taken.
 */

#include <string.h>

#include "isa/pan_isa_va.h"
#include "pan_va.h"

struct emit_ctx {
   const uint8_t *regs;
   unsigned *block_pc;
   char *err;
   size_t err_size;
};

/* Instruction words an IR instruction becomes. */
static unsigned
instr_words(const pan_ir_instr *I)
{
   return I->op == PAN_IR_OP_COLLECT ? I->nr_srcs : 1;
}

static void
print_src(FILE *fp, const struct emit_ctx *c, pan_ir_index i)
{
   switch (i.kind) {
   case PAN_IR_SSA:
      fprintf(fp, "r%u", c->regs[i.value] + i.comp);
      break;
   case PAN_IR_IMM:
      fprintf(fp, "#0x%x", i.value);
      break;
   case PAN_IR_UNIFORM:
      fprintf(fp, "u%u", i.value);
      break;
   case PAN_IR_SPECIAL:
      fputs("lane_id.w0", fp);
      break;
   default:
      fputs("?", fp);
   }
   if (i.neg)
      fputs(".neg", fp);
   if (i.abs)
      fputs(".abs", fp);
}

/* Fill the template of I; pc is the instruction's index. */
static void
print_instr(FILE *fp, const struct emit_ctx *c, const pan_ir_instr *I,
            unsigned pc)
{
   const char *t = pan_ir_op_infos[I->op].va;

   while (*t) {
      if (*t != '{') {
         fputc(*t++, fp);
         continue;
      }
      const char *close = strchr(t, '}');
      char key[16];
      snprintf(key, sizeof(key), "%.*s", (int)(close - t - 1), t + 1);
      t = close + 1;

      if (!strcmp(key, "d"))
         fprintf(fp, "r%u", c->regs[I->dest.value]);
      else if (key[0] == 's' && key[1] >= '0' && key[1] <= '3')
         print_src(fp, c, I->src[key[1] - '0']);
      else if (!strcmp(key, "sr"))
         fprintf(fp, "{r%u:%u}", c->regs[I->dest.value], I->dest.comps);
      else if (!strcmp(key, "ssr0"))
         fprintf(fp, "{r%u:%u}", c->regs[I->src[0].value] + I->src[0].comp,
                 I->src[0].comps);
      else if (!strcmp(key, "bits"))
         fprintf(fp, "i%u",
                 32 * (I->dest.kind ? I->dest.comps : I->src[0].comps));
      else if (!strcmp(key, "type"))
         fputs(pan_ir_type_names[I->type], fp);
      else if (!strcmp(key, "cmp"))
         fputs(pan_ir_cmp_names[I->cmp], fp);
      else if (!strcmp(key, "signed"))
         fputs(I->type == PAN_IR_TYPE_S32 ? ".signed" : "", fp);
      else if (!strcmp(key, "eq"))
         fputs(I->on_zero ? ".eq" : "", fp);
      else if (!strcmp(key, "imm"))
         fprintf(fp, "0x%x", I->imm);
      else if (!strcmp(key, "offset"))
         fprintf(fp, "%d", (int)c->block_pc[I->target->index] - (int)pc - 1);
   }
}

static bool
assemble(struct emit_ctx *c, const char *line, struct util_dynarray *out)
{
   uint64_t word;
   char msg[128];
   if (pan_va_assemble_line(line, &word, msg, sizeof(msg)) != 1) {
      snprintf(c->err, c->err_size, "encoding \"%s\": %s", line, msg);
      return false;
   }
   util_dynarray_append(out, uint64_t, word);
   return true;
}

/* Text of one word; collect writes word k of its destination. */
static char *
instr_text(const struct emit_ctx *c, const pan_ir_instr *I, unsigned k,
           unsigned pc)
{
   char *buf = NULL;
   size_t size = 0;
   FILE *fp = open_memstream(&buf, &size);
   if (!fp)
      return NULL;
   if (I->op == PAN_IR_OP_COLLECT) {
      fprintf(fp, "mov.i32 r%u, ", c->regs[I->dest.value] + k);
      print_src(fp, c, I->src[k]);
   } else {
      print_instr(fp, c, I, pc);
   }
   fclose(fp);
   return buf;
}

/*
 * Put .end on the last word when its flow field is free and no branch can
 * land past it (an empty last block is a branch target at the end).
 */
static bool
finish(struct emit_ctx *c, struct util_dynarray *out, const char *last,
       bool last_block_empty)
{
   if (last && !last_block_empty && !strstr(last, ".wait") &&
       !strstr(last, ".reconverge")) {
      const char *sp = strchr(last, ' ');
      char line[256];
      snprintf(line, sizeof(line), "%.*s.end%s", (int)(sp - last), last, sp);
      (void)util_dynarray_pop(out, uint64_t);
      return assemble(c, line, out);
   }
   return assemble(c, "nop.end", out);
}

bool
pan_va_emit(pan_ir_shader *s, const uint8_t *regs, void *mem_ctx,
            uint64_t **words, unsigned *nr_words, char *err, size_t err_size)
{
   struct emit_ctx c = { .regs = regs, .err = err, .err_size = err_size };
   struct util_dynarray out;
   util_dynarray_init(&out, mem_ctx);
   c.block_pc = rzalloc_array(mem_ctx, unsigned, s->nr_blocks + 1);

   /* Branch targets first: the pc where each block starts. */
   unsigned pc = 0;
   pan_ir_foreach_block(s, b)
   {
      c.block_pc[b->index] = pc;
      pan_ir_foreach_instr(b, I) pc += instr_words(I);
   }

   char *last = NULL;
   bool ok = true;
   pc = 0;
   pan_ir_foreach_block(s, b)
   {
      pan_ir_foreach_instr(b, I)
      {
         if (!pan_ir_op_infos[I->op].va && I->op != PAN_IR_OP_COLLECT) {
            snprintf(err, err_size, "%s reached the Valhall emitter unlowered",
                     pan_ir_op_infos[I->op].name);
            ok = false;
            goto done;
         }
         for (unsigned k = 0; k < instr_words(I); ++k, ++pc) {
            free(last);
            last = instr_text(&c, I, k, pc);
            if (!last || !assemble(&c, last, &out)) {
               ok = false;
               goto done;
            }
         }
      }
   }
   pan_ir_block *tail = list_last_entry(&s->blocks, pan_ir_block, link);
   ok = finish(&c, &out, last, list_is_empty(&tail->instrs));

done:
   free(last);
   ralloc_free(c.block_pc);
   *words = out.data;
   *nr_words = util_dynarray_num_elements(&out, uint64_t);
   return ok;
}
