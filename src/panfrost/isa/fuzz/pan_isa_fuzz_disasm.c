/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * libFuzzer harness: any byte string must disassemble (or be rejected with
 * a message) without crashing, for both architectures, and whatever
 * disassembles must assemble back to the same bytes.  The validators must
 * report only offsets inside the input, as many as they return.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I.. \
 *     pan_isa_fuzz_disasm.c ../pan_isa_*.c pan_isa_{va,bi}_tables.c
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
round_trip(const uint8_t *data, size_t size, disasm_fn dis, asm_fn as)
{
   char *text = NULL, err[256];
   size_t len = 0;
   FILE *fp = open_memstream(&text, &len);

   int r = dis(data, size, fp, size & 1, err, sizeof(err));
   fclose(fp);
   if (r == 0) {
      struct pan_isa_bytes out = {0};
      if (as(text, len, &out, err, sizeof(err)) || out.size_B != size ||
          (size && memcmp(out.data, data, size))) {
         fprintf(stderr, "round trip failed: %s\n%s\n", err, text);
         abort();
      }
      pan_isa_bytes_free(&out);
   }
   free(text);
}

struct invalid_count {
   size_t size_B;
   unsigned n;
};

static void
count_invalid(size_t offset_B, const char *why, void *user)
{
   struct invalid_count *c = user;

   if (offset_B >= c->size_B || !why || !why[0]) {
      fprintf(stderr, "invalid report at %zu of %zu: %s\n", offset_B,
              c->size_B, why ? why : "(null)");
      abort();
   }
   c->n++;
}

static void
validate(const uint8_t *data, size_t size,
         unsigned (*fn)(const void *, size_t, pan_isa_invalid_fn, void *))
{
   struct invalid_count c = {.size_B = size};

   if (fn(data, size, count_invalid, &c) != c.n)
      abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   round_trip(data, size, pan_va_disassemble, pan_va_assemble);
   round_trip(data, size, pan_bi_disassemble, pan_bi_assemble);
   validate(data, size, pan_va_validate);
   validate(data, size, pan_bi_validate);
   return 0;
}
