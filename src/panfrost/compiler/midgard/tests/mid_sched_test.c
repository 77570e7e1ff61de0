/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The scheduler's levels (mid_sched.c) on IR built by hand: how far in
 * program order each level looks for work to fill a bundle.
 */

#include "util/pan_test_util.h"
#include "util/ralloc.h"

#include "mid_ir.h"

static const struct mid_ref u0 = { MID_REF_UNIFORM, 0 };

static struct mid_instr *
fadd(struct mid_shader *s, struct mid_block *b, unsigned dst, struct mid_ref a)
{
   struct mid_instr *I = mid_instr_create(s, b, MID_ALU, "fadd");
   I->dst = mid_var(dst);
   I->mask = 1;
   I->nr_srcs = 2;
   I->src[0] = mid_src_ref(a);
   I->src[1] = mid_src_ref(u0);
   return I;
}

/*
 * A chain of 10 dependent adds, then an independent one (position 10):
 *    v0.x = fadd u0, u0;  v(i).x = fadd v(i-1), u0 (i = 1..9)
 *    v10.x = fadd u0, u0
 * A level whose window reaches position 10 puts the independent add
 * into the first bundle beside the chain's head; narrower ones leave it
 * for later.
 */
static bool
independent_in_first_bundle(unsigned level)
{
   struct mid_shader *s = rzalloc(NULL, struct mid_shader);
   s->mem = s;
   s->stage = MESA_SHADER_VERTEX;
   s->gpu_id = 0x860;
   s->nr_vars = 11;
   s->nr_push = 1;
   s->level = level;
   s->err = s->err_buf;
   s->err_size = sizeof(s->err_buf);
   list_inithead(&s->blocks);
   struct mid_block *b = mid_block_create(s);
   fadd(s, b, 0, u0);
   for (unsigned i = 1; i < 10; i++)
      fadd(s, b, i, mid_var(i - 1));
   struct mid_instr *last = fadd(s, b, 10, u0);

   bool found = false;
   if (!mid_schedule(s)) {
      PAN_CHECK(false, "level %u: %s", level, s->err_buf);
   } else {
      struct mid_bundle *first = s->bundles.data;
      for (unsigned u = 0; u < 5; u++)
         found |= first->unit[u] == last;
   }
   ralloc_free(s);
   return found;
}

static void
test_windows(void)
{
   /* Each level reaches the independent add exactly when its window
    * does; the free level does, the last (3) does not, and some level
    * between them that bounds the registers looks past position 10. */
   unsigned wide_bounded = 0;
   for (unsigned l = 0; l < MID_SCHED_LEVELS; l++) {
      unsigned w = mid_sched_window(l);
      PAN_EXPECT_EQ(independent_in_first_bundle(l), w > 10);
      if (l > 5 && w > 10 && w != ~0u)
         wide_bounded++;
   }
   PAN_EXPECT(independent_in_first_bundle(0));
   PAN_EXPECT(!independent_in_first_bundle(MID_SCHED_LEVELS - 1));
   PAN_EXPECT(wide_bounded > 0);
}

int
main(void)
{
   PAN_RUN_CASE(test_windows);
   return pan_test_summary("pan_mid_sched");
}
