/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * libFuzzer harness: pan-shader-stats must measure any byte string, or
 * refuse it with a message, for each architecture, without crashing; what
 * it measures must fit in the input.
 */

#include "pan_shader_stats.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   static const unsigned archs[] = { 6, 7, 9 };
   for (unsigned i = 0; i < 3; i++) {
      struct pan_shader_stats st;
      char err[256];
      err[0] = 0;
      if (!pan_shader_stats(archs[i], data, size, &st, err, sizeof(err))) {
         if (!err[0])
            abort();
         continue;
      }
      if ((size_t)st.quads * 16 > size || st.tuples > 8 * st.clauses ||
          st.max_reg > 64)
         abort();
      FILE *fp = fopen("/dev/null", "w");
      if (fp) {
         pan_shader_stats_print(fp, "MESA_SHADER_NONE", &st);
         fclose(fp);
      }
   }
   return 0;
}
