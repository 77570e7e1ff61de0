/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * pan-asm: assemble Midgard (v4/v5), Bifrost (v6/v7) or Valhall (v9) shaders
 * written in the
 * syntax of docs/drivers/panfrost/assembly.rst.
 *
 *   pan-asm --arch=v4|v5|v6|v7|v9 [--hex] [-o OUT] FILE|-
 *
 * Writes raw machine code to OUT (stdout by default), or hex text with
 * --hex.
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
   fprintf(f, "usage: pan-asm --arch=v4|v5|v6|v7|v9 [--hex] [-o OUT] FILE|-\n");
   return f == stdout ? 0 : 2;
}

int
main(int argc, char **argv)
{
   const char *arch = NULL, *path = NULL, *out_path = NULL;
   bool hex = false;

   for (int i = 1; i < argc; i++) {
      if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
         return usage(stdout);
      else if (!strncmp(argv[i], "--arch=", 7))
         arch = argv[i] + 7;
      else if (!strcmp(argv[i], "--hex"))
         hex = true;
      else if (!strcmp(argv[i], "-o") && i + 1 < argc)
         out_path = argv[++i];
      else if (argv[i][0] == '-' && argv[i][1])
         return usage(stderr);
      else if (!path)
         path = argv[i];
      else
         return usage(stderr);
   }
   if (!arch || !path)
      return usage(stderr);
   bool mid = !strcmp(arch, "v4") || !strcmp(arch, "v5");
   if (!mid && strcmp(arch, "v6") && strcmp(arch, "v7") &&
       strcmp(arch, "v9")) {
      fprintf(stderr, "pan-asm: unknown architecture '%s'\n", arch);
      return usage(stderr);
   }

   struct pan_isa_bytes text = {0}, code = {0};
   char err[256];
   if (pan_isa_tool_read(path, false, &text, err, sizeof(err))) {
      fprintf(stderr, "pan-asm: %s\n", err);
      return 1;
   }

   int r;
   if (mid)
      r = pan_mid_assemble((const char *)text.data, text.size_B, &code, err,
                           sizeof(err));
   else if (!strcmp(arch, "v9"))
      r = pan_va_assemble((const char *)text.data, text.size_B, &code, err,
                          sizeof(err));
   else
      r = pan_bi_assemble((const char *)text.data, text.size_B, &code, err,
                          sizeof(err));
   pan_isa_bytes_free(&text);
   if (r) {
      fprintf(stderr, "pan-asm: %s: %s\n", path, err);
      pan_isa_bytes_free(&code);
      return 1;
   }
   r = pan_isa_tool_write(out_path, hex, &code, err, sizeof(err));
   pan_isa_bytes_free(&code);
   if (r) {
      fprintf(stderr, "pan-asm: %s\n", err);
      return 1;
   }
   return 0;
}
