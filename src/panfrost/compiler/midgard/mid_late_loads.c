/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Loads moved down to their first reader, for register pressure.  The
 * front end loads varyings and uniform-buffer vec4s where NIR has them,
 * often at the top of the shader, and a value loaded first but read
 * last holds a work register all along; the scheduler's longest-path
 * priority keeps such loads early.  Here each varying, attribute or
 * uniform-buffer load that reads no register moves to just before the
 * first instruction touching its variable (never past a store, a branch
 * or a writeout).  Only in the extra round of shaders short of four
 * threads (mid_compile.c), like the late lookups.
 */

#include <string.h>

#include "util/ralloc.h"
#include "util/u_dynarray.h"

#include "mid_ir.h"

static bool
movable_load(const struct mid_instr *I)
{
   if (I->kind != MID_LDST || I->store || I->dst.kind != MID_REF_VAR ||
       I->pair_next || mid_hw_reads(I))
      return false;
   for (unsigned i = 0; i < I->nr_srcs; i++) {
      if (I->src[i].ref.kind == MID_REF_VAR || I->src[i].ref.kind == MID_REF_HW)
         return false;
   }
   return !strncmp(I->op, "ld_vary", 7) || !strncmp(I->op, "ld_attr", 7) ||
          !strncmp(I->op, "ld_ubo", 6);
}

static bool
touches(const struct mid_instr *I, unsigned v)
{
   if (!I->store && I->dst.kind == MID_REF_VAR && I->dst.index == v)
      return true;
   for (unsigned i = 0; i < I->nr_srcs; i++) {
      if (I->src[i].ref.kind == MID_REF_VAR && I->src[i].ref.index == v)
         return true;
   }
   return false;
}

bool
mid_late_loads(struct mid_shader *s)
{
   void *mem = ralloc_context(NULL);
   bool progress = false;
   mid_foreach_block(s, b)
   {
      struct util_dynarray loads;
      util_dynarray_init(&loads, mem);
      mid_foreach_instr(b, I)
      {
         if (movable_load(I))
            util_dynarray_append(&loads, struct mid_instr *, I);
      }
      /* The last first: a load stopping at the same place as a later
       * one then stays above it. */
      unsigned nr = util_dynarray_num_elements(&loads, struct mid_instr *);
      for (unsigned k = nr; k-- > 0;) {
         struct mid_instr *L =
            *util_dynarray_element(&loads, struct mid_instr *, k);
         unsigned v = L->dst.index;
         struct list_head *at = L->link.next;
         for (; at != &b->instrs; at = at->next) {
            struct mid_instr *I = list_entry(at, struct mid_instr, link);
            if (touches(I, v) || I->store || I->kind == MID_BRANCH ||
                I->kind == MID_WRITEOUT)
               break;
         }
         /* Not between an r31 feeder and its reader. */
         while (at != L->link.next &&
                list_entry(at->prev, struct mid_instr, link)->pair_next)
            at = at->prev;
         if (at == L->link.next)
            continue;
         list_del(&L->link);
         list_addtail(&L->link, at);
         progress = true;
      }
   }
   ralloc_free(mem);
   return progress;
}
