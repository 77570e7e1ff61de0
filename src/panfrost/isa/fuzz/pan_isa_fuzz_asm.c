/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * libFuzzer harness: arbitrary text fed to both assemblers must either be
 * rejected with a message or produce bytes whose disassembly assembles to
 * the same bytes again.
 */

#define _POSIX_C_SOURCE 200809L

#include "pan_isa_bi.h"
#include "pan_isa_va.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*disasm_fn)(const void *, size_t, FILE *, bool, char *, size_t);
typedef int (*asm_fn)(const char *, size_t, struct pan_isa_bytes *, char *,
                      size_t);

static void
check(const char *text, size_t size, disasm_fn dis, asm_fn as)
{
   struct pan_isa_bytes code = {0}, again = {0};
   char err[256];

   if (as(text, size, &code, err, sizeof(err)) == 0) {
      char *listing = NULL;
      size_t len = 0;
      FILE *fp = open_memstream(&listing, &len);
      if (dis(code.data, code.size_B, fp, false, err, sizeof(err)))
         abort();
      fclose(fp);
      if (as(listing, len, &again, err, sizeof(err)) ||
          again.size_B != code.size_B ||
          (code.size_B && memcmp(again.data, code.data, code.size_B))) {
         fprintf(stderr, "unstable: %s\n%s\n", err, listing);
         abort();
      }
      free(listing);
   } else if (!err[0]) {
      abort(); /* a rejection must say why */
   }
   pan_isa_bytes_free(&code);
   pan_isa_bytes_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   check((const char *)data, size, pan_va_disassemble, pan_va_assemble);
   check((const char *)data, size, pan_bi_disassemble, pan_bi_assemble);
   return 0;
}
