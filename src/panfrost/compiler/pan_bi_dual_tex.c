/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Dual texturing: two 2D float lookups of a fragment shader at the same
 * coordinates, with computed LOD and textures and samplers below 4,
 * become one TEXC whose "dual" texture operation descriptor asks for
 * both: one texture message instead of two, and usually a clause fewer.
 * The hardware takes the LOD mode from the stage (computed in fragment
 * shaders).  The descriptor (bit 11 clear, 1 in bits 2-3):
 *
 *   bits  0-1  first sampler        6-7  second sampler
 *         4-5  first texture        8-9  second texture
 *       12-17  the second result's first register (filled at emission)
 *       18-20  second result format 21-24 its component mask
 *       25-27  first result format  28-31 its component mask
 *
 * The result is one 8-word value (first result, then the second), so the
 * allocator gives the second result the four registers after the first.
 */

#include "pan_bi.h"
#include "pan_ir_builder.h"

#define DUAL_MODE (1u << 2)
#define DUAL_FORMAT_F32 4u
#define DUAL_MASK_ALL 0xfu
#define DUAL_FIRST(t, s)                                                       \
   ((s) | (t) << 4 | DUAL_FORMAT_F32 << 25 | DUAL_MASK_ALL << 28)
#define DUAL_SECOND(t, s)                                                      \
   ((s) << 6 | (t) << 8 | DUAL_FORMAT_F32 << 18 | DUAL_MASK_ALL << 21)

/* A lookup that can take either half of a dual message. */
static bool
pairable(const pan_ir_instr *I)
{
   unsigned texture = I->imm & 0xff, sampler = (I->imm >> 8) & 0xff;
   return I->op == PAN_IR_OP_TEXS_2D && I->dest.kind == PAN_IR_SSA &&
          !(I->imm & (1u << 16)) && texture < 4 && sampler < 4;
}

static bool
same_src(pan_ir_index a, pan_ir_index b)
{
   return a.kind == b.kind && a.value == b.value && a.comp == b.comp &&
          a.comps == b.comps && a.neg == b.neg && a.abs == b.abs;
}

/* Replace first and second (later in the block) by one texc_dual before
 * first; their values become collects of its halves. */
static void
fuse(pan_ir_shader *s, pan_ir_block *blk, pan_ir_instr *first,
     pan_ir_instr *second)
{
   unsigned t0 = first->imm & 0xff, s0 = (first->imm >> 8) & 0xff;
   unsigned t1 = second->imm & 0xff, s1 = (second->imm >> 8) & 0xff;
   pan_ir_builder b = pan_ir_builder_before(s, blk, first);
   pan_ir_index r =
      pan_ir_texc_dual(&b, DUAL_MODE | DUAL_FIRST(t0, s0) | DUAL_SECOND(t1, s1),
                       first->src[0], first->src[1]);
   pan_ir_instr *halves[2] = { first, second };
   for (unsigned h = 0; h < 2; ++h) {
      pan_ir_instr *C = pan_ir_build(&b, PAN_IR_OP_COLLECT, 4);
      for (unsigned k = 0; k < 4; ++k)
         C->src[k] = pan_ir_word(r, 4 * h + k);
      C->dest = halves[h]->dest;
   }
   pan_ir_instr_remove(first);
   pan_ir_instr_remove(second);
}

unsigned
pan_bi_dual_tex(pan_ir_shader *s)
{
   unsigned n = 0;
   pan_ir_foreach_block(s, blk)
   {
      /* Pair each lookup with the next one of the same coordinates; a
       * block has a few lookups, a quadratic scan is cheap. */
      bool again = true;
      while (again) {
         again = false;
         pan_ir_foreach_instr(blk, I)
         {
            if (!pairable(I))
               continue;
            pan_ir_instr *J = NULL;
            list_for_each_entry_from(pan_ir_instr, K, I->link.next,
                                     &blk->instrs, link)
            {
               if (pairable(K) && same_src(I->src[0], K->src[0]) &&
                   same_src(I->src[1], K->src[1])) {
                  J = K;
                  break;
               }
            }
            if (J) {
               fuse(s, blk, I, J);
               ++n;
               again = true;
               break;
            }
         }
      }
   }
   return n;
}
