/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Static coverage query of the Bifrost interpreter: the dispatch without a
 * warp says whether an instruction word is executed.
 */

#include <stdio.h>

#include "pan_sim_bi_priv.h"

bool
pan_sim_bi_implemented(uint32_t word, unsigned unit, char *why,
                       unsigned why_len)
{
   int idx = bi_identify(word, unit);
   const char *problem = bi_instr_problem(word, unit);

   if (idx < 0 || problem) {
      snprintf(why, why_len, "does not decode: %s",
               problem ? problem : "unknown encoding");
      return false;
   }
   struct pan_sim_bi_ins ins = { .word = word,
                                 .unit = unit,
                                 .index = (unsigned)idx,
                                 .op = &bi_ops[idx],
                                 .sem = &bi_sems[idx] };
   if (pan_sim_bi_dispatch(NULL, &ins) == BI_SIM_OK)
      return true;
   snprintf(why, why_len, "%s (family %s) not modelled", bi_ops[idx].name,
            bi_family_names[bi_sems[idx].family]);
   return false;
}
