/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Midgard IR: construction helpers and the printer (--print-ir style, for
 * tests and debugging).
 */

#include <stdio.h>
#include <string.h>

#include "util/bitscan.h"
#include "util/ralloc.h"

#include "mid_ir.h"

bool
mid_error(struct mid_shader *s, const char *fmt, ...)
{
   if (!s->failed) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(s->err, s->err_size, fmt, ap);
      va_end(ap);
      s->failed = true;
   }
   return false;
}

struct mid_block *
mid_block_create(struct mid_shader *s)
{
   struct mid_block *b = rzalloc(s->mem, struct mid_block);
   list_inithead(&b->instrs);
   b->index = s->nr_blocks++;
   list_addtail(&b->link, &s->blocks);
   return b;
}

struct mid_instr *
mid_instr_create(struct mid_shader *s, struct mid_block *b, enum mid_kind kind,
                 const char *op)
{
   struct mid_instr *I = rzalloc(s->mem, struct mid_instr);
   I->kind = kind;
   I->op = op;
   I->mask = 0xf;
   list_addtail(&I->link, &b->instrs);
   return I;
}

struct mid_src
mid_src_ref(struct mid_ref r)
{
   return (struct mid_src){ .ref = r, .swz = { 0, 1, 2, 3 } };
}

static void
print_ref(const struct mid_shader *s, struct mid_ref r, FILE *fp)
{
   switch (r.kind) {
   case MID_REF_VAR:
      if (s->reg_of && s->reg_of[r.index] >= 0)
         fprintf(fp, "v%u(r%d)", r.index, s->reg_of[r.index]);
      else
         fprintf(fp, "v%u", r.index);
      break;
   case MID_REF_HW:
      fprintf(fp, "r%u", r.index);
      break;
   case MID_REF_UNIFORM:
      fprintf(fp, "u%u", r.index);
      break;
   case MID_REF_CONST:
      fprintf(fp, "#");
      break;
   default:
      fprintf(fp, "_");
   }
}

static void
print_src(const struct mid_shader *s, const struct mid_src *src, unsigned mask,
          FILE *fp)
{
   fprintf(fp, " %s%s", src->neg ? "-" : "", src->abs ? "|" : "");
   if (src->ref.kind == MID_REF_CONST) {
      fprintf(fp, "#(");
      for (unsigned c = 0; c < 4; c++) {
         if (mask & (1u << c))
            fprintf(fp, "%s0x%x", c ? "," : "", src->imm[c]);
      }
      fprintf(fp, ")");
   } else {
      print_ref(s, src->ref, fp);
      fprintf(fp, ".");
      for (unsigned c = 0; c < 4; c++) {
         if (mask & (1u << c))
            fprintf(fp, "%c", "xyzw"[src->swz[c]]);
      }
   }
   if (src->abs)
      fprintf(fp, "|");
}

void
mid_print(const struct mid_shader *s, FILE *fp)
{
   mid_foreach_block(s, b)
   {
      fprintf(fp, "block%u:\n", b->index);
      mid_foreach_instr(b, I)
      {
         fprintf(fp, "   ");
         if (I->kind == MID_BRANCH) {
            fprintf(fp, "branch%s block%u\n",
                    I->cond == MID_COND_ALWAYS ? ""
                    : I->cond == MID_COND_TRUE ? ".true"
                                               : ".false",
                    I->target->index);
            continue;
         }
         if (I->kind == MID_WRITEOUT) {
            fprintf(fp, "writeout r0");
            if (I->nr_srcs > 1) {
               fprintf(fp, ", r1.x = ");
               print_ref(s, I->src[1].ref, fp);
               fprintf(fp, ".%c", "xyzw"[I->src[1].swz[0]]);
            }
            fprintf(fp, "\n");
            continue;
         }
         if (I->dst.kind != MID_REF_NONE) {
            print_ref(s, I->dst, fp);
            fprintf(fp, ".");
            for (unsigned c = 0; c < 4; c++) {
               if (I->mask & (1u << c))
                  fprintf(fp, "%c", "xyzw"[c]);
            }
            fprintf(fp, " = ");
         }
         fprintf(fp, "%s", I->op);
         for (unsigned i = 0; i < I->nr_srcs; i++)
            print_src(s, &I->src[i], I->store ? 0xf : I->mask, fp);
         if (I->kind == MID_TEX && I->tex.swizzled) {
            fprintf(fp, " r%u.", I->tex.in_reg);
            for (unsigned c = 0; c < 4; c++)
               fprintf(fp, "%c", "xyzw"[I->tex.inswz[c] & 3]);
         }
         if (I->pair_next)
            fprintf(fp, " (paired)");
         fprintf(fp, "\n");
      }
   }
}

bool
mid_is_plain_move(const struct mid_instr *I)
{
   return I->kind == MID_ALU && I->op[0] == 'i' && !strcmp(I->op, "imov") &&
          !I->pair_next &&
          I->nr_srcs == 2 && I->src[0].ref.kind == MID_REF_NONE &&
          !I->src[1].abs && !I->src[1].neg && !I->omod;
}

bool
mid_is_var_copy(const struct mid_instr *I)
{
   if (!mid_is_plain_move(I) || I->dst.kind != MID_REF_VAR ||
       I->src[1].ref.kind != MID_REF_VAR || I->store)
      return false;
   for (unsigned l = 0; l < 4; l++) {
      if ((I->mask & (1u << l)) && I->src[1].swz[l] != l)
         return false;
   }
   return true;
}

/* Fixed registers an instruction reads (constants through r26 are not
 * reads; uniforms never change). */
uint32_t
mid_hw_reads(const struct mid_instr *I)
{
   uint32_t m = 0;
   for (unsigned i = 0; i < I->nr_srcs; i++) {
      if (I->src[i].ref.kind == MID_REF_HW)
         m |= 1u << I->src[i].ref.index;
   }
   if (I->kind == MID_LDST) {
      if (I->ls.areg < 2 && strncmp(I->op, "ld_ubo", 6))
         m |= 1u << (26 + I->ls.areg);
      if (I->ls.ireg < 2)
         m |= 1u << (26 + I->ls.ireg);
      if (I->store)
         m |= 1u << (I->ls.data26 ? 26 : 27);
   }
   if (I->kind == MID_TEX)
      m |= (1u << I->tex.in_reg) | (I->tex.lodreg ? 2u << I->tex.in_reg : 0);
   return m;
}

/* Whether op holds "ball_" or "bany_": one walk over the short name (two
 * strstr calls per source read were a tenth of all compile time). */
static bool
has_all_any(const char *op)
{
   for (const char *p = op; *p; p++) {
      if (p[0] == 'b' && p[1] == 'a' &&
          ((p[2] == 'l' && p[3] == 'l') || (p[2] == 'n' && p[3] == 'y')) &&
          p[4] == '_')
         return true;
   }
   return false;
}

static bool
cross_lane_op(const char *op)
{
   if (op[0] == 'f' && op[1] == 'd' && op[2] == 'o' && op[3] == 't')
      return true;
   if (op[0] == 'f' && op[1] == 'r' && !strcmp(op, "freduce"))
      return true;
   return has_all_any(op);
}

bool
mid_cross_lane(const struct mid_instr *I)
{
   if (I->kind != MID_ALU)
      return false;
   if (I->cross_op != I->op) {
      /* A memo, not a change of the instruction. */
      struct mid_instr *M = (struct mid_instr *)I;
      M->cross = cross_lane_op(I->op);
      M->cross_op = I->op;
   }
   return I->cross;
}

unsigned
mid_read_positions(const struct mid_instr *I)
{
   if (I->kind != MID_ALU)
      return 0xf;
   const char *op = I->op;
   if (op[0] == 'f' && op[1] == 'd' && op[2] == 'o' && op[3] == 't' &&
       op[4] == '3')
      return 0x7;
   return mid_cross_lane(I) ? 0xf : I->mask;
}

unsigned
mid_src_lanes(const struct mid_instr *I, const struct mid_src *src)
{
   unsigned lanes = 0;
   u_foreach_bit (l, mid_read_positions(I))
      lanes |= 1u << src->swz[l];
   return lanes;
}

/* ALU ops and varying or attribute loads write only lanes something
 * reads: a vec4 copied or loaded where a vec3 is used (a texture result,
 * a varying) would hold the fourth lane of a register for nothing.  A
 * dot product's lanes all hold its sum: it keeps the lanes read, and
 * still reads its sources' first three or four (mid_read_positions). */
static bool
trims_lanes(const struct mid_instr *I)
{
   if (I->kind == MID_ALU)
      return true;
   return I->kind == MID_LDST && !I->store &&
          (!strncmp(I->op, "ld_vary", 7) || !strncmp(I->op, "ld_attr", 7));
}

/* Remove ALU instructions and loads whose variable nobody reads (constants
 * and uniforms materialised for users that folded them after all), and
 * the lanes of ALU results and loads nobody reads. */
void
mid_dce(struct mid_shader *s)
{
   uint8_t *read = ralloc_array(NULL, uint8_t, s->nr_vars ? s->nr_vars : 1);
   bool progress = true;
   while (progress) {
      progress = false;
      memset(read, 0, s->nr_vars ? s->nr_vars : 1);
      mid_foreach_block(s, b)
      {
         mid_foreach_instr(b, I)
         {
            for (unsigned i = 0; i < I->nr_srcs; i++) {
               if (I->src[i].ref.kind == MID_REF_VAR)
                  read[I->src[i].ref.index] |= mid_src_lanes(I, &I->src[i]);
            }
         }
      }
      mid_foreach_block(s, b)
      {
         list_for_each_entry_safe (struct mid_instr, I, &b->instrs, link) {
            bool pure = (I->kind == MID_ALU && !I->pair_next) ||
                        (I->kind == MID_LDST && !I->store);
            struct list_head *prev = I->link.prev;
            if (prev != &b->instrs &&
                list_entry(prev, struct mid_instr, link)->pair_next)
               pure = false; /* the second of a pair */
            if (pure && I->dst.kind == MID_REF_VAR && !read[I->dst.index]) {
               list_del(&I->link);
               progress = true;
            } else if (pure && I->dst.kind == MID_REF_VAR && trims_lanes(I) &&
                       (I->mask & read[I->dst.index]) &&
                       (I->mask & ~read[I->dst.index])) {
               I->mask &= read[I->dst.index];
               progress = true;
            }
         }
      }
   }
   ralloc_free(read);
}

bool
mid_is_empty(const struct mid_shader *s)
{
   mid_foreach_block (s, b) {
      if (!list_is_empty(&b->instrs))
         return false;
   }
   return true;
}

struct mid_shader *
mid_shader_clone(const struct mid_shader *s, void *mem_ctx)
{
   struct mid_shader *c = rzalloc(mem_ctx, struct mid_shader);
   if (!c)
      return NULL;
   *c = *s;
   c->mem = c;
   c->err = c->err_buf;
   c->err_size = sizeof(c->err_buf);
   c->reg_of = NULL;
   memset(&c->bundles, 0, sizeof(c->bundles));
   list_inithead(&c->blocks);

   /* Blocks first (branches name them), then the instructions, each in
    * one allocation (a clone is made per schedule). */
   unsigned n = list_length(&s->blocks), nr_instrs = 0;
   mid_foreach_block(s, b)
      nr_instrs += list_length(&b->instrs);
   const struct mid_block **from =
      ralloc_array(c, const struct mid_block *, n ? n : 1);
   struct mid_block **to = ralloc_array(c, struct mid_block *, n ? n : 1);
   struct mid_block *blocks = ralloc_array(c, struct mid_block, n ? n : 1);
   struct mid_instr *instrs =
      ralloc_array(c, struct mid_instr, nr_instrs ? nr_instrs : 1);
   unsigned i = 0;
   mid_foreach_block(s, b)
   {
      struct mid_block *nb = &blocks[i];
      *nb = *b;
      list_inithead(&nb->instrs);
      list_addtail(&nb->link, &c->blocks);
      from[i] = b;
      to[i++] = nb;
   }
   i = 0;
   mid_foreach_block(s, b)
   {
      struct mid_block *nb = to[i++];
      for (unsigned k = 0; k < 2; k++) {
         for (unsigned j = 0; j < n && nb->succ[k]; j++) {
            if (from[j] == b->succ[k])
               nb->succ[k] = to[j];
         }
      }
      mid_foreach_instr(b, I)
      {
         struct mid_instr *NI = instrs++;
         *NI = *I;
         list_addtail(&NI->link, &nb->instrs);
         for (unsigned j = 0; j < n && I->target; j++) {
            if (from[j] == I->target)
               NI->target = to[j];
         }
      }
   }
   ralloc_free(from);
   ralloc_free(to);
   return c;
}
