/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * pan-disasm: disassemble Midgard (v4/v5), Bifrost (v6/v7) or Valhall (v9)
 * shader binaries.
 *
 *   pan-disasm --arch=v4|v5|v6|v7|v9 [--hex] [--offsets] FILE|-
 *
 * FILE holds raw machine code, or with --hex the bytes as hex text in
 * memory order.  The output assembles back to the same bytes with pan-asm.
 * What is no valid program (unknown encodings, bits outside every field,
 * bytes that start no clause, a truncated end) is still printed, as raw
 * words, but named on stderr with its offset, and the exit status is 1.
 */

#include "pan_isa_bi.h"
#include "pan_isa_mid.h"
#include "pan_isa_tool_io.h"
#include "pan_isa_va.h"

#include <stdio.h>
#include <string.h>

static int
usage(FILE *f)
{
   fprintf(f, "usage: pan-disasm --arch=v4|v5|v6|v7|v9 [--hex] [--offsets] "
              "FILE|-\n");
   return f == stdout ? 0 : 2;
}

struct report {
   const char *path;
   unsigned count;
};

/* The first few problems are named; the rest only counted. */
static void
report_invalid(size_t offset_B, const char *why, void *user)
{
   struct report *r = user;

   if (r->count++ < 10)
      fprintf(stderr, "pan-disasm: %s: offset 0x%zx: %s\n", r->path, offset_B,
              why);
}

int
main(int argc, char **argv)
{
   const char *arch = NULL, *path = NULL;
   bool hex = false, offsets = false;

   for (int i = 1; i < argc; i++) {
      if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
         return usage(stdout);
      else if (!strncmp(argv[i], "--arch=", 7))
         arch = argv[i] + 7;
      else if (!strcmp(argv[i], "--hex"))
         hex = true;
      else if (!strcmp(argv[i], "--offsets"))
         offsets = true;
      else if (argv[i][0] == '-' && argv[i][1])
         return usage(stderr);
      else if (!path)
         path = argv[i];
      else
         return usage(stderr);
   }
   if (!arch || !path)
      return usage(stderr);
   bool va = !strcmp(arch, "v9");
   bool mid = !strcmp(arch, "v4") || !strcmp(arch, "v5");
   if (!va && !mid && strcmp(arch, "v6") && strcmp(arch, "v7")) {
      fprintf(stderr, "pan-disasm: unknown architecture '%s'\n", arch);
      return usage(stderr);
   }

   struct pan_isa_bytes code = { 0 };
   char err[256];
   if (pan_isa_tool_read(path, hex, &code, err, sizeof(err))) {
      fprintf(stderr, "pan-disasm: %s\n", err);
      return 1;
   }

   /* Whole words and clauses are printed even when the end is cut off;
    * the validation below names the truncation. */
   size_t unit_B = va ? 8 : 16;
   size_t whole_B = code.size_B - code.size_B % unit_B;
   struct report rep = { .path = strcmp(path, "-") ? path : "<stdin>" };
   int r;
   if (mid) {
      r = pan_mid_disassemble(code.data, whole_B, stdout, offsets, err,
                              sizeof(err));
      pan_mid_validate(code.data, code.size_B, report_invalid, &rep);
   } else if (va) {
      r = pan_va_disassemble(code.data, whole_B, stdout, offsets, err,
                             sizeof(err));
      pan_va_validate(code.data, code.size_B, report_invalid, &rep);
   } else {
      r = pan_bi_disassemble(code.data, whole_B, stdout, offsets, err,
                             sizeof(err));
      pan_bi_validate(code.data, code.size_B, report_invalid, &rep);
   }
   pan_isa_bytes_free(&code);
   if (r) {
      fprintf(stderr, "pan-disasm: %s: %s\n", rep.path, err);
      return 1;
   }
   if (rep.count) {
      fprintf(stderr,
              "pan-disasm: %s is not a valid %s program: %u problem%s\n",
              rep.path, arch, rep.count, rep.count == 1 ? "" : "s");
      return 1;
   }
   return 0;
}
