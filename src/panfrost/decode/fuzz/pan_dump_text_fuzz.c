/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* libFuzzer harness: the reader of the stock driver's text dumps
 * (pan_dump_text.c), then the v7 decoder on every chain it found. */

#include <stdio.h>

#include "pan_decode.h"
#include "pan_dump.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   static FILE *sink;
   struct pan_dump *dumps;
   unsigned count;
   char err[256];

   if (!sink)
      sink = fopen("/dev/null", "w");
   if (pan_dump_text_parse((const char *)data, size, "fuzz", 0x7212, 7, &dumps,
                           &count, err, sizeof(err)))
      return 0;

   struct pan_decode_limits lim;
   pan_decode_default_limits(&lim);
   lim.max_bytes = 1 << 20;
   for (unsigned i = 0; i < count; ++i) {
      struct pan_sim_space space = pan_dump_space(&dumps[i]);
      if (pan_decode_supports_arch(7))
         pan_decode_chain(sink, 7, &space, dumps[i].chains[0], &lim, NULL);
   }
   pan_dump_free_array(dumps, count);
   return 0;
}
