/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* libFuzzer harness: parse a dump and decode its chains with the
 * architecture fixed at build time (-DPAN_FUZZ_ARCH=N), so each arch's
 * walker gets the whole input space. */

#include <stdio.h>

#include "pan_decode.h"
#include "pan_dump.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   static FILE *sink;
   struct pan_dump dump;
   char err[256];

   if (!sink)
      sink = fopen("/dev/null", "w");
   if (pan_dump_parse(data, size, &dump, err, sizeof(err)))
      return 0;

   struct pan_sim_space space = pan_dump_space(&dump);
   struct pan_decode_limits lim;
   pan_decode_default_limits(&lim);
   lim.max_bytes = 1 << 20;
   for (unsigned i = 0; i < dump.chain_count; ++i)
      pan_decode_chain(sink, PAN_FUZZ_ARCH, &space, dump.chains[i], &lim,
                       NULL);
   pan_dump_fini(&dump);
   return 0;
}
