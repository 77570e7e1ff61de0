/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Builders for the Midgard pass tests that write IR by hand: a vertex
 * shader for the T860, whole-vec4 ALU ops and moves, and varying stores
 * at a slot.
 */

#ifndef MID_TEST_IR_H
#define MID_TEST_IR_H

#include "util/ralloc.h"

#include "mid_ir.h"

static inline struct mid_shader *
mid_test_shader(unsigned nr_vars)
{
   struct mid_shader *s = rzalloc(NULL, struct mid_shader);
   s->mem = s;
   s->stage = MESA_SHADER_VERTEX;
   s->gpu_id = 0x860;
   s->nr_vars = nr_vars;
   s->err = s->err_buf;
   s->err_size = sizeof(s->err_buf);
   list_inithead(&s->blocks);
   util_dynarray_init(&s->bundles, s);
   return s;
}

/* dst = op a, c (whole vec4s, identity swizzles). */
static inline struct mid_instr *
mid_test_alu2(struct mid_shader *s, struct mid_block *b, const char *op,
              struct mid_ref dst, struct mid_ref a, struct mid_ref c)
{
   struct mid_instr *I = mid_instr_create(s, b, MID_ALU, op);
   I->dst = dst;
   I->mask = 0xf;
   I->nr_srcs = 2;
   I->src[0] = mid_src_ref(a);
   I->src[1] = mid_src_ref(c);
   return I;
}

static inline struct mid_instr *
mid_test_move(struct mid_shader *s, struct mid_block *b, struct mid_ref dst,
              struct mid_ref src)
{
   struct mid_instr *I = mid_test_alu2(s, b, "imov", dst, src, src);
   I->src[0].ref.kind = MID_REF_NONE;
   return I;
}

static inline struct mid_instr *
mid_test_st_vary(struct mid_shader *s, struct mid_block *b, unsigned slot)
{
   struct mid_instr *I = mid_instr_create(s, b, MID_LDST, "st_vary_32");
   I->store = true;
   I->mask = 0xf;
   I->ls.swz = 0xe4;
   I->ls.areg = 7;
   I->ls.ireg = 7;
   I->ls.offset = (int)(slot << 9);
   return I;
}

/* I's index in its block, ~0 when it is not there. */
static inline unsigned
mid_test_position(struct mid_block *b, const struct mid_instr *I)
{
   unsigned n = 0;
   mid_foreach_instr(b, J)
   {
      if (J == I)
         return n;
      n++;
   }
   return ~0u;
}

#endif
