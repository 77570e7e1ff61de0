/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * NIR passes for Bifrost alone, after the shared lowering: small if/else
 * arms become selects.  A Bifrost branch ends its clause and the phis
 * after it cost a move per arm, so arms of plain arithmetic are cheaper
 * computed both and selected (CSEL/MUX) than branched over.
 */

#include "pan_bi.h"
#include "pan_nir_fixpoint.h"

/* Arms of up to this many ALU instructions are flattened. */
#define BI_SELECT_LIMIT 64

static bool
peephole_select(nir_shader *nir)
{
   return nir_opt_peephole_select(nir, BI_SELECT_LIMIT, false, true);
}

static const pan_nir_pass bi_nir_passes[] = {
   peephole_select,          nir_copy_prop,   nir_opt_dce, nir_opt_cse,
   nir_opt_constant_folding, nir_opt_dead_cf,
};

void
pan_bi_opt_nir(nir_shader *nir)
{
   pan_nir_fixpoint(nir, bi_nir_passes, ARRAY_SIZE(bi_nir_passes), UINT_MAX);
}
