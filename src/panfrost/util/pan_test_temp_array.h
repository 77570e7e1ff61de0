/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The shader body of the temporary-array tests (the compiler's
 * pan-scratch and the driver's gallium-compute-temp), which differ only
 * in how they read their input and make an index from it.
 */

#ifndef PAN_TEST_TEMP_ARRAY_H
#define PAN_TEST_TEMP_ARRAY_H

#include "compiler/nir/nir_builder.h"

/* Stores per invocation. */
#define PAN_TEST_TEMP_WRITES 4

/* Makes the index of a store from word (the input word x * WRITES + k). */
typedef nir_ssa_def *(*pan_test_temp_index)(nir_builder *b, nir_ssa_def *word,
                                            unsigned n);

/* Store k (of WRITES) writes x * 100 + k to arr[index(x * WRITES + k)]
 * (vec4 elements: in every lane for even k, in .y alone for odd k, a
 * partial write); returns arr[idx 0] * 3 + arr[idx 2] (their .y words for
 * vec4s, the only ones every store writes).
 */
static inline nir_ssa_def *
pan_test_temp_array_body(nir_builder *b, nir_variable *arr, bool vec,
                         nir_ssa_def *x, pan_test_temp_index index, unsigned n)
{
   nir_ssa_def *idx[PAN_TEST_TEMP_WRITES];

   for (unsigned k = 0; k < PAN_TEST_TEMP_WRITES; ++k) {
      idx[k] = index(
         b, nir_iadd_imm(b, nir_imul_imm(b, x, PAN_TEST_TEMP_WRITES), k), n);
      nir_ssa_def *v = nir_iadd_imm(b, nir_imul_imm(b, x, 100), k);
      nir_deref_instr *d =
         nir_build_deref_array(b, nir_build_deref_var(b, arr), idx[k]);
      if (vec) {
         v = nir_u2f32(b, v);
         nir_store_deref(b, d, nir_vec4(b, v, v, v, v), k & 1 ? 0x2 : 0xf);
      } else {
         nir_store_deref(b, d, v, 1);
      }
   }
   nir_ssa_def *r[2];
   for (unsigned i = 0; i < 2; ++i) {
      nir_ssa_def *v = nir_load_deref(
         b, nir_build_deref_array(b, nir_build_deref_var(b, arr), idx[2 * i]));
      r[i] = vec ? nir_f2u32(b, nir_channel(b, v, 1)) : v;
   }
   return nir_iadd(b, nir_imul_imm(b, r[0], 3), r[1]);
}

#endif
