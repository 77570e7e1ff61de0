/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * libFuzzer harness for Midgard (v4/v5).  The input is used twice: as
 * machine code (it must disassemble without crashing, reassemble to the
 * same bytes, and be validated with offsets inside it) and as assembly
 * (rejected with a message, or assembled into bytes whose disassembly
 * assembles back to them).
 */

#define _POSIX_C_SOURCE 200809L

#include "pan_isa_mid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Disassemble code and assemble the listing: must give code back. */
static void
stable(const uint8_t *code, size_t size, bool offsets)
{
   char *text = NULL, err[256];
   size_t len = 0;
   FILE *fp = open_memstream(&text, &len);

   int r = pan_mid_disassemble(code, size, fp, offsets, err, sizeof(err));
   fclose(fp);
   if (r == 0) {
      struct pan_isa_bytes out = { 0 };
      if (pan_mid_assemble(text, len, &out, err, sizeof(err)) ||
          out.size_B != size || (size && memcmp(out.data, code, size))) {
         fprintf(stderr, "round trip failed: %s\n%s\n", err, text);
         abort();
      }
      pan_isa_bytes_free(&out);
   } else if (!err[0]) {
      abort();
   }
   free(text);
}

static void
check_offset(size_t offset_B, const char *why, void *user)
{
   if (offset_B >= *(size_t *)user || !why || !why[0])
      abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   stable(data, size - size % 16, size & 1);
   pan_mid_validate(data, size, check_offset, &size);

   struct pan_isa_bytes code = { 0 };
   char err[256] = "";
   if (pan_mid_assemble((const char *)data, size, &code, err, sizeof(err)) == 0)
      stable(code.data, code.size_B, false);
   else if (!err[0])
      abort(); /* a rejection must say why */
   pan_isa_bytes_free(&code);
   return 0;
}
