/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * pan-shader-stats: statistics of raw shader binaries, ours or the stock
 * compiler's, from one model (pan_shader_stats_lib.c), one shader-db line
 * per file:
 *
 *   pan-shader-stats --arch=v6|v7|v9 [--stage=vertex|fragment|compute]
 *                    FILE.bin...
 *
 * Exit status: 0 every file measured, 1 some file unreadable or not a
 * program (a message on stderr, the others still measured), 2 usage.
 */

#include <stdio.h>
#include <string.h>

#include "pan_isa_tool_io.h"
#include "pan_shader_stats.h"

static int
usage(FILE *f)
{
   fprintf(f, "usage: pan-shader-stats --arch=v6|v7|v9 "
              "[--stage=vertex|fragment|compute] FILE.bin...\n");
   return f == stdout ? 0 : 2;
}

int
main(int argc, char **argv)
{
   static const struct {
      const char *opt, *name;
   } stages[] = { { "vertex", "MESA_SHADER_VERTEX" },
                  { "fragment", "MESA_SHADER_FRAGMENT" },
                  { "compute", "MESA_SHADER_COMPUTE" } };
   unsigned arch = 0;
   const char *stage = "MESA_SHADER_NONE";
   int first = 1;

   for (; first < argc && !strncmp(argv[first], "--", 2); first++) {
      const char *a = argv[first];
      if (!strcmp(a, "--help"))
         return usage(stdout);
      if (!strcmp(a, "--arch=v6") || !strcmp(a, "--arch=v7") ||
          !strcmp(a, "--arch=v9")) {
         arch = (unsigned)(a[8] - '0');
         continue;
      }
      bool known = false;
      for (unsigned i = 0; i < sizeof(stages) / sizeof(stages[0]); i++) {
         if (!strncmp(a, "--stage=", 8) && !strcmp(a + 8, stages[i].opt)) {
            stage = stages[i].name;
            known = true;
         }
      }
      if (!known) {
         fprintf(stderr, "pan-shader-stats: unknown option %s\n", a);
         return usage(stderr);
      }
   }
   if (!arch || first >= argc)
      return usage(stderr);

   int status = 0;
   for (int i = first; i < argc; i++) {
      struct pan_isa_bytes bytes = { 0 };
      struct pan_shader_stats st;
      char err[256];
      if (pan_isa_tool_read(argv[i], false, &bytes, err, sizeof(err))) {
         /* The message names the file already. */
         fprintf(stderr, "pan-shader-stats: %s\n", err);
         status = 1;
      } else if (!pan_shader_stats(arch, bytes.data, bytes.size_B, &st, err,
                                   sizeof(err))) {
         fprintf(stderr, "pan-shader-stats: %s: %s\n", argv[i], err);
         status = 1;
      } else {
         pan_shader_stats_print(stdout, stage, &st);
      }
      pan_isa_bytes_free(&bytes);
   }
   return status;
}
