/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Running a list of NIR clean-up passes until none of them changes the
 * shader, shared by the Valhall/Bifrost and Midgard back ends so that each
 * states only which passes it wants, as a table.
 */

#ifndef PAN_NIR_FIXPOINT_H
#define PAN_NIR_FIXPOINT_H

#include "compiler/nir/nir.h"

typedef bool (*pan_nir_pass)(nir_shader *nir);

/* Runs passes[0..n-1] in order, round after round, while one of them made
 * progress, at most max_rounds rounds (a bound for pass pairs that could
 * undo each other). Returns whether anything changed. */
static inline bool
pan_nir_fixpoint(nir_shader *nir, const pan_nir_pass *passes, unsigned n,
                 unsigned max_rounds)
{
   bool any = false, progress = true;
   for (unsigned round = 0; progress && round < max_rounds; ++round) {
      progress = false;
      for (unsigned i = 0; i < n; ++i)
         NIR_PASS(progress, nir, passes[i]);
      any |= progress;
   }
   return any;
}

#endif
