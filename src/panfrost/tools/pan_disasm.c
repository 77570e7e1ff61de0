/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * pan-disasm: disassemble Bifrost (v6/v7) or Valhall (v9) shader binaries.
 *
 *   pan-disasm --arch=v7|v9 [--hex] [--offsets] FILE|-
 *
 * FILE holds raw machine code, or with --hex the bytes as hex text in
 * memory order.  The output assembles back to the same bytes with pan-asm.
 */

#include "pan_isa_bi.h"
#include "pan_isa_tool_io.h"
#include "pan_isa_va.h"

#include <stdio.h>
#include <string.h>

static int
usage(void)
{
   fprintf(stderr, "usage: pan-disasm --arch=v6|v7|v9 [--hex] [--offsets] "
                   "FILE|-\n");
   return 2;
}

int
main(int argc, char **argv)
{
   const char *arch = NULL, *path = NULL;
   bool hex = false, offsets = false;

   for (int i = 1; i < argc; i++) {
      if (!strncmp(argv[i], "--arch=", 7))
         arch = argv[i] + 7;
      else if (!strcmp(argv[i], "--hex"))
         hex = true;
      else if (!strcmp(argv[i], "--offsets"))
         offsets = true;
      else if (argv[i][0] == '-' && argv[i][1])
         return usage();
      else if (!path)
         path = argv[i];
      else
         return usage();
   }
   if (!arch || !path)
      return usage();

   struct pan_isa_bytes code = {0};
   char err[256];
   if (pan_isa_tool_read(path, hex, &code, err, sizeof(err))) {
      fprintf(stderr, "pan-disasm: %s\n", err);
      return 1;
   }

   int r;
   if (!strcmp(arch, "v9"))
      r = pan_va_disassemble(code.data, code.size_B, stdout, offsets, err,
                             sizeof(err));
   else if (!strcmp(arch, "v6") || !strcmp(arch, "v7"))
      r = pan_bi_disassemble(code.data, code.size_B, stdout, offsets, err,
                             sizeof(err));
   else {
      pan_isa_bytes_free(&code);
      return usage();
   }
   pan_isa_bytes_free(&code);
   if (r) {
      fprintf(stderr, "pan-disasm: %s\n", err);
      return 1;
   }
   return 0;
}
