/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Emission: each IR instruction fills in the Valhall form of its opcode
 * (pan_ir_opcodes.py) as a structured instruction for the isa library's
 * encoder (pan_isa_va_encode.h), so the encodings exist once, in
 * src/panfrost/isa, and no text is printed or parsed on the way.
 *
 * Flow control: loads wait for their own slot (.wait0) so that the next
 * instruction sees the data; branches reconverge; the last instruction
 * carries .end, or a nop.end is added when its flow field is taken.
 */

#include <string.h>

#include "isa/pan_isa_va.h"
#include "isa/pan_isa_va_encode.h"
#include "pan_va.h"

struct emit_ctx {
   const uint8_t *regs;
   unsigned *block_pc;
   char *err;
   size_t err_size;
};

/* Whether source k of I, a collect or mov, is in its destination word
 * already (the allocator coalesces them; preloads are their register). */
static bool
in_place(const struct emit_ctx *c, const pan_ir_instr *I, unsigned k)
{
   pan_ir_index src = I->src[k];
   return src.kind == PAN_IR_SSA && !src.neg && !src.abs &&
          c->regs[src.value] + src.comp == c->regs[I->dest.value] + k;
}

/* Source of the k-th word a collect writes (the others are in place). */
static unsigned
collect_word(const struct emit_ctx *c, const pan_ir_instr *I, unsigned k)
{
   for (unsigned i = 0; i < I->nr_srcs; ++i) {
      if (!in_place(c, I, i) && k-- == 0)
         return i;
   }
   unreachable("collect word out of range");
}

/* Instruction words an IR instruction becomes. */
static unsigned
instr_words(const struct emit_ctx *c, const pan_ir_instr *I)
{
   switch (I->op) {
   case PAN_IR_OP_BLEND:
      return 3;
   case PAN_IR_OP_BARRIER:
      return 2; /* nop.wait0, barrier */
   case PAN_IR_OP_PRELOAD:
      return c->regs[I->dest.value] == I->imm ? 0 : 1;
   case PAN_IR_OP_MOV:
      return in_place(c, I, 0) ? 0 : 1;
   case PAN_IR_OP_COLLECT: {
      unsigned n = 0;
      for (unsigned i = 0; i < I->nr_srcs; ++i)
         n += !in_place(c, I, i);
      return n;
   }
   default:
      return 1;
   }
}

static bool
fail(struct emit_ctx *c, const char *msg, const char *what)
{
   snprintf(c->err, c->err_size, "%s%s", msg, what);
   return false;
}

static bool
add_src_mod(struct pan_va_src *s, const char *field, const char *value)
{
   if (s->nr_mods >= PAN_VA_MAX_SRC_MODS)
      return false;
   s->mods[s->nr_mods++] = (struct pan_va_mod_value){ field, value, 0 };
   return true;
}

/* An IR source as an encoder source. */
static bool
to_src(struct emit_ctx *c, pan_ir_index i, struct pan_va_src *s)
{
   memset(s, 0, sizeof(*s));
   switch (i.kind) {
   case PAN_IR_SSA:
      s->kind = PAN_VA_SRC_REG;
      s->value = c->regs[i.value] + i.comp;
      break;
   case PAN_IR_IMM: {
      int lut = pan_va_lut_index(i.value);
      if (lut < 0)
         return fail(c,
                     "immediate outside the constant table reached "
                     "emission",
                     "");
      s->kind = PAN_VA_SRC_LUT;
      s->value = (uint8_t)lut;
      break;
   }
   case PAN_IR_UNIFORM:
      if (i.value > 255)
         return fail(c, "uniform beyond u255", "");
      s->kind = PAN_VA_SRC_UNIFORM;
      s->value = (uint8_t)i.value;
      break;
   case PAN_IR_SPECIAL:
      s->kind = PAN_VA_SRC_SPECIAL;
      s->word = i.comp; /* the high word of a 64-bit value is word 1 */
      if (i.value >= PAN_IR_NR_SPECIALS ||
          !pan_va_special_lookup(pan_ir_special_names[i.value],
                                 &s->special_page, &s->value))
         return fail(c, "no such special FAU value", "");
      break;
   default:
      return fail(c, "empty source reached emission", "");
   }
   if ((i.neg && !add_src_mod(s, "neg", "1")) ||
       (i.abs && !add_src_mod(s, "abs", "1")))
      return fail(c, "too many source modifiers", "");
   return true;
}

/* "{type}" and "{bits}" in a mnemonic. */
static void
fill_name(const pan_ir_instr *I, const char *t, char *buf, size_t size)
{
   const char *brace = strchr(t, '{');
   if (!brace) {
      snprintf(buf, size, "%s", t);
      return;
   }
   char sub[8];
   if (!strncmp(brace, "{type}", 6))
      snprintf(sub, sizeof(sub), "%s", pan_ir_type_names[I->type]);
   else
      snprintf(sub, sizeof(sub), "i%u",
               32 * (I->dest.kind ? I->dest.comps : I->src[0].comps));
   snprintf(buf, size, "%.*s%s%s", (int)(brace - t), t, sub,
            strchr(brace, '}') + 1);
}

static const char *
fill_mod(const pan_ir_instr *I, const char *v)
{
   static const char *const vecsizes[] = { "none", "none", "v2", "v3", "v4" };
   static const char *const regfmts[] = {
      [PAN_IR_TYPE_NONE] = "auto",
      [PAN_IR_TYPE_U32] = "u32",
      [PAN_IR_TYPE_S32] = "s32",
      [PAN_IR_TYPE_F32] = "f32",
   };
   if (!strcmp(v, "{vecsize}")) {
      unsigned n = I->dest.kind ? I->dest.comps : I->src[0].comps;
      return vecsizes[MIN2(n, 4)];
   }
   if (!strcmp(v, "{regfmt}"))
      return regfmts[I->type];
   if (!strcmp(v, "{atom}"))
      return I->imm < PAN_IR_NR_ATOMICS ? pan_ir_atomic_names[I->imm] : "?";
   if (!strcmp(v, "{atom1}"))
      return I->imm < PAN_IR_NR_ATOMICS1 ? pan_ir_atomic1_names[I->imm] : "?";
   static const char *const regtypes[] = {
      [PAN_IR_TYPE_NONE] = "f",
      [PAN_IR_TYPE_U32] = "u",
      [PAN_IR_TYPE_S32] = "s",
      [PAN_IR_TYPE_F32] = "f",
   };
   static const char *const dims[] = { "1d", "2d", "3d", "cube" };
   static const char *const lods[] = { "zero",   "computed", NULL,
                                       NULL,     "explicit", "computed_bias",
                                       "grdesc", NULL };
   if (!strcmp(v, "{regtype}"))
      return regtypes[I->type];
   if (!strcmp(v, "{dim}"))
      return dims[PAN_IR_TEX_DIM(I->imm)];
   if (!strcmp(v, "{lod}"))
      return lods[PAN_IR_TEX_LOD(I->imm)];
   if (!strcmp(v, "{array}"))
      return I->imm & PAN_IR_TEX_ARRAY ? "1" : "0";
   if (!strcmp(v, "{shadow}"))
      return I->imm & PAN_IR_TEX_SHADOW ? "1" : "0";
   if (!strcmp(v, "{texoff}"))
      return I->imm & PAN_IR_TEX_OFFSET ? "1" : "0";
   static const char *const gathers[] = { "gather4_r", "gather4_g",
                                          "gather4_b", "gather4_a" };
   if (!strcmp(v, "{gather}"))
      return gathers[PAN_IR_TEX_GATHER_COMP(I->imm)];
   if (!strcmp(v, "{cmp}"))
      return pan_ir_cmp_names[I->cmp];
   if (!strcmp(v, "{eq}"))
      return I->on_zero ? "1" : "0";
   if (!strcmp(v, "{signed}"))
      return I->type == PAN_IR_TYPE_S32 ? "1" : "0";
   return v;
}

static bool
fill_arg(struct emit_ctx *c, const pan_ir_instr *I,
         const struct pan_ir_va_arg_desc *a, unsigned pc,
         struct pan_va_operand *o)
{
   memset(o, 0, sizeof(*o));
   switch (a->kind) {
   case PAN_IR_VA_D:
      o->reg = c->regs[I->dest.value];
      return true;
   case PAN_IR_VA_SR:
      o->reg = c->regs[I->dest.value];
      o->count = I->dest.comps;
      return true;
   case PAN_IR_VA_SSR0:
      if (I->src[0].kind != PAN_IR_SSA)
         return fail(c, "staging source is not a register", "");
      o->reg = c->regs[I->src[0].value] + I->src[0].comp;
      o->count = I->src[0].comps;
      return true;
   case PAN_IR_VA_LUT: {
      int lut = pan_va_lut_index(a->value);
      o->src =
         (struct pan_va_src){ .kind = PAN_VA_SRC_LUT, .value = (uint8_t)lut };
      return lut >= 0 || fail(c, "form constant outside the table", "");
   }
   case PAN_IR_VA_REG_IMM:
      o->src = (struct pan_va_src){ .kind = PAN_VA_SRC_REG,
                                    .value = (uint8_t)I->imm };
      return true;
   case PAN_IR_VA_IMM:
      o->imm = I->imm; /* fields the IR fills are unsigned */
      return true;
   case PAN_IR_VA_FIXED:
      o->imm = a->value;
      return true;
   case PAN_IR_VA_OFFSET:
      o->imm = (int)c->block_pc[I->target->index] - (int)pc - 1;
      return true;
   default: {
      unsigned s = a->kind - PAN_IR_VA_S0;
      pan_ir_index v = I->src[s];
      /* A byte-wide immediate: byte v % 4 of the entry holding v (the
       * table's 0x03020100 .. 0x1f1e1d1c run), selected by the lane. */
      if (v.kind == PAN_IR_IMM && v.value < 32 &&
          pan_va_lut_index(v.value) < 0 && pan_va_src_is_byte(I, s)) {
         static const char *const lanes[] = { "b00", "b11", "b22", "b33" };
         int lut = pan_va_lut_index(0x03020100u + 0x04040404u * (v.value / 4));
         o->src = (struct pan_va_src){ .kind = PAN_VA_SRC_LUT,
                                       .value = (uint8_t)lut };
         if (lut < 0 || !add_src_mod(&o->src, a->field, lanes[v.value % 4]))
            return fail(c, "byte immediate outside the table", "");
         return true;
      }
      /* A binary16 half of an entry, widened by the source's swizzle. */
      unsigned entry, half;
      bool neg;
      if (v.kind == PAN_IR_IMM && pan_va_lut_index(v.value) < 0 &&
          pan_va_src_widens_half(I, s) &&
          pan_va_lut_half(v.value, &entry, &half, &neg)) {
         o->src = (struct pan_va_src){ .kind = PAN_VA_SRC_LUT,
                                       .value = (uint8_t)entry };
         if (!add_src_mod(&o->src, "swz", half ? "h1" : "h0") ||
             (v.abs && !add_src_mod(&o->src, "abs", "1")) ||
             (v.neg != neg && !v.abs && !add_src_mod(&o->src, "neg", "1")))
            return fail(c, "too many source modifiers", "");
         return true;
      }
      if (!to_src(c, v, &o->src))
         return false;
      if (a->field && !add_src_mod(&o->src, a->field, a->mod))
         return fail(c, "too many source modifiers", "");
      return true;
   }
   }
}

/*
 * Word k of a blend: BLEND, then the blend-shader call the v9 driver's
 * blend descriptors expect.  With fixed-function blending the BLEND
 * itself continues past the call (its target field skips the two words)
 * or, on the last render target, ends the shader.  With a blend shader
 * the call runs: r48 gets the return address (the word after the call; 0
 * ends the thread) and the branch goes to the shader address in the high
 * word of the descriptor.  The blend shader reads the colour and the
 * coverage where the BLEND has them (pan_va_binary.blend_regs).  In a
 * blend shader, the BLEND stores through its descriptor and goes on to
 * the return: a branch to r48 unless it is 0, else the end.
 */
static bool
build_blend(struct emit_ctx *c, const pan_ir_instr *I, unsigned k,
            struct pan_va_instr *in)
{
   bool last = I->imm & 0x100;
   bool in_blend_shader = I->imm & 0x200;
   pan_ir_index desc = I->src[1];

   if (k == 0) {
      in->name = "blend";
      in->nr_operands = 4;
      in->operands[0].reg = c->regs[I->src[0].value] + I->src[0].comp;
      in->operands[0].count = 4;
      /* instructions, not bytes */
      in->operands[3].imm = in_blend_shader || last ? 0 : 2;
      in->mods[in->nr_mods++] = (struct pan_va_mod_value){ "vecsize", "v4" };
      in->mods[in->nr_mods++] =
         (struct pan_va_mod_value){ "regfmt", fill_mod(I, "{regfmt}") };
      in->mods[in->nr_mods++] = (struct pan_va_mod_value){ "slot", "slot0" };
      if (last && !in_blend_shader)
         in->mods[in->nr_mods++] = (struct pan_va_mod_value){ "flow", "end" };
      return to_src(c, desc, &in->operands[1].src) &&
             to_src(c, I->src[2], &in->operands[2].src);
   }
   if (in_blend_shader) {
      if (k == 2) {
         in->name = "nop";
         in->mods[in->nr_mods++] = (struct pan_va_mod_value){ "flow", "end" };
         return true;
      }
      in->name = "branchzi";
      in->nr_operands = 2;
      in->mods[in->nr_mods++] =
         (struct pan_va_mod_value){ "absolute", NULL, 1 };
      in->operands[0].src.kind = PAN_VA_SRC_REG;
      in->operands[0].src.value = PAN_VA_BLEND_LINK_REG;
      in->operands[1].src = in->operands[0].src;
      return true;
   }
   if (k == 1) {
      in->name = "iadd_imm.i32";
      in->nr_operands = 3;
      in->operands[0].reg = PAN_VA_BLEND_LINK_REG;
      /* From this word: past the branch that follows. */
      in->operands[2].imm = last ? 0 : 16;
      return to_src(c,
                    last ? pan_ir_imm(0)
                         : pan_ir_special(PAN_IR_SPECIAL_PROGRAM_COUNTER),
                    &in->operands[1].src);
   }
   in->name = "branchzi";
   in->nr_operands = 2;
   in->mods[in->nr_mods++] = (struct pan_va_mod_value){ "eq", NULL, 1 };
   in->mods[in->nr_mods++] = (struct pan_va_mod_value){ "absolute", NULL, 1 };
   if (!to_src(c, pan_ir_imm(0), &in->operands[0].src) ||
       !to_src(c, desc, &in->operands[1].src))
      return false;
   in->operands[1].src.word = 1;
   return true;
}

/* The structured form of word k of I (collect writes word k). */
static bool
build(struct emit_ctx *c, const pan_ir_instr *I, unsigned k, unsigned pc,
      struct pan_va_instr *in, char *name, size_t name_size)
{
   memset(in, 0, sizeof(*in));
   in->page = -1;
   if (I->op == PAN_IR_OP_BLEND) {
      in->op = -1;
      return build_blend(c, I, k, in);
   }
   if (I->op == PAN_IR_OP_COLLECT) {
      in->op = -1;
      in->name = "mov.i32";
      in->nr_operands = 2;
      k = collect_word(c, I, k);
      in->operands[0].reg = c->regs[I->dest.value] + k;
      return to_src(c, I->src[k], &in->operands[1].src);
   }

   /* The barrier's own wait does not cover stores still in flight (the
    * stock compiler and the DDK wait for the slots first as well). */
   if (I->op == PAN_IR_OP_BARRIER && k == 0) {
      in->op = -1;
      in->name = "nop";
      in->mods[in->nr_mods++] = (struct pan_va_mod_value){ "flow", "wait0", 0 };
      return true;
   }

   const struct pan_ir_va_form *f = pan_ir_op_infos[I->op].va_form;
   if (!f)
      return fail(c, pan_ir_op_infos[I->op].name,
                  " reached the Valhall emitter unlowered");
   fill_name(I, f->name, name, name_size);
   in->op = pan_va_op_lookup(name);
   if (in->op < 0)
      return fail(c, "no Valhall instruction ", name);
   for (unsigned m = 0; m < f->nr_mods; ++m) {
      in->mods[in->nr_mods++] =
         (struct pan_va_mod_value){ f->mods[m][0], fill_mod(I, f->mods[m][1]),
                                    0 };
   }
   in->nr_operands = f->nr_args;
   for (unsigned a = 0; a < f->nr_args; ++a) {
      if (!fill_arg(c, I, &f->args[a], pc, &in->operands[a]))
         return false;
   }
   return true;
}

/* A Valhall instruction reads one FAU value at most (a 64-bit uniform pair
 * or a special); legalization promises it, checked here. */
static bool
check_fau(struct emit_ctx *c, const struct pan_va_instr *in)
{
   int slot = -1;
   for (unsigned k = 0; k < in->nr_operands; ++k) {
      const struct pan_va_src *s = &in->operands[k].src;
      int v = s->kind == PAN_VA_SRC_UNIFORM ? s->value >> 1
              : s->kind == PAN_VA_SRC_SPECIAL
                 ? 0x100 + s->special_page * 16 + s->value
                 : -1;
      if (pan_va_op_operand_kind(in->op >= 0
                                    ? (unsigned)in->op
                                    : (unsigned)pan_va_op_lookup(in->name),
                                 k) != PAN_VA_OPERAND_SRC ||
          v < 0)
         continue;
      if (slot >= 0 && slot != v)
         return fail(c, "instruction reads two FAU values: ",
                     in->name ? in->name : pan_va_op_name((unsigned)in->op));
      slot = v;
   }
   return true;
}

static bool
encode(struct emit_ctx *c, const struct pan_va_instr *in, uint64_t *word)
{
   char msg[160];
   if (pan_va_encode(in, word, msg, sizeof(msg)) == 0)
      return true;
   snprintf(c->err, c->err_size, "encoding %s: %s",
            in->name ? in->name : pan_va_op_name((unsigned)in->op), msg);
   return false;
}

static bool
has_flow(const struct pan_va_instr *in)
{
   for (unsigned m = 0; m < in->nr_mods; ++m) {
      if (!strcmp(in->mods[m].field, "flow"))
         return true;
   }
   return false;
}

/*
 * Put .end on the last word when its flow field is free and no branch can
 * land past it (an empty last block is a branch target at the end).
 */
static bool
finish(struct emit_ctx *c, struct util_dynarray *out, struct pan_va_instr *last,
       bool last_block_empty)
{
   struct pan_va_instr nop = { .op = -1, .name = "nop", .page = -1 };
   uint64_t word;

   if (last && !last_block_empty && !has_flow(last) &&
       last->nr_mods < PAN_VA_MAX_MODS) {
      last->mods[last->nr_mods++] =
         (struct pan_va_mod_value){ "flow", "end", 0 };
      if (!encode(c, last, &word))
         return false;
      *util_dynarray_top_ptr(out, uint64_t) = word;
      return true;
   }
   nop.mods[nop.nr_mods++] = (struct pan_va_mod_value){ "flow", "end", 0 };
   if (!encode(c, &nop, &word))
      return false;
   util_dynarray_append(out, uint64_t, word);
   return true;
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
   unsigned tail_start = 0;
   pan_ir_foreach_block(s, b)
   {
      c.block_pc[b->index] = tail_start = pc;
      pan_ir_foreach_instr(b, I) pc += instr_words(&c, I);
   }
   /* No word in the last block: a branch may land at the very end. */
   bool tail_empty = pc == tail_start;

   struct pan_va_instr in;
   char name[32];
   bool ok = true, any = false;
   pc = 0;
   pan_ir_foreach_block(s, b)
   {
      pan_ir_foreach_instr(b, I)
      {
         for (unsigned k = 0; k < instr_words(&c, I); ++k, ++pc) {
            uint64_t word;
            if (!build(&c, I, k, pc, &in, name, sizeof(name)) ||
                !check_fau(&c, &in) || !encode(&c, &in, &word)) {
               ok = false;
               goto done;
            }
            util_dynarray_append(&out, uint64_t, word);
            any = true;
         }
      }
   }
   pan_ir_block *tail = list_last_entry(&s->blocks, pan_ir_block, link);
   pan_ir_instr *last = list_is_empty(&tail->instrs)
                           ? NULL
                           : list_last_entry(&tail->instrs, pan_ir_instr, link);
   /* A last blend has ended the shader already (a blend shader's with
    * its return). */
   if (last && last->op == PAN_IR_OP_BLEND && (last->imm & 0x100))
      ok = true;
   else
      ok = finish(&c, &out, any ? &in : NULL, tail_empty);

done:
   ralloc_free(c.block_pc);
   *words = out.data;
   *nr_words = util_dynarray_num_elements(&out, uint64_t);
   return ok;
}
