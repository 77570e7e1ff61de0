/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * pan-decode: print the job chains of submit dumps written with
 * PAN_MESA_DEBUG=dump.
 *
 *    pan-decode [--no-mappings] [--max-jobs N] FILE...
 *
 * Exit status: 0 when every chain decoded cleanly, 1 when the decoder
 * reported ERROR lines, 2 when a file could not be read or is malformed
 * (an "ERROR: FILE: why" line) or the arguments are wrong.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pan_decode.h"
#include "pan_dump.h"

static int
usage(FILE *f)
{
   fprintf(f, "usage: pan-decode [--no-mappings] [--max-jobs N] FILE...\n");
   return f == stdout ? 0 : 2;
}

static int
decode_file(const char *path, const struct pan_decode_limits *lim,
            bool show_mappings)
{
   struct pan_dump dump;
   char err[256];

   if (pan_dump_read_file(path, &dump, err, sizeof(err))) {
      fprintf(stdout, "ERROR: %s\n", err);
      return 2;
   }
   printf("dump %s: GPU 0x%04x, v%u, %u mappings, %u job chains\n", path,
          dump.gpu_id, dump.arch, dump.map_count, dump.chain_count);

   struct pan_decode_space space = pan_dump_space(&dump);
   if (show_mappings)
      pan_decode_print_space(stdout, &space);

   int status = 0;
   if (!pan_decode_supports_arch(dump.arch)) {
      printf("ERROR: architecture v%u is not supported\n", dump.arch);
      status = 2;
   }
   for (unsigned i = 0; i < dump.chain_count && status == 0; ++i) {
      if (pan_decode_chain(stdout, dump.arch, &space, dump.chains[i], lim,
                           NULL) != 0)
         status = 1;
   }
   pan_dump_fini(&dump);
   return status;
}

int
main(int argc, char **argv)
{
   struct pan_decode_limits lim;
   bool show_mappings = true;
   int status = 0, files = 0;

   pan_decode_default_limits(&lim);
   for (int i = 1; i < argc; ++i) {
      if (!strcmp(argv[i], "--no-mappings")) {
         show_mappings = false;
      } else if (!strcmp(argv[i], "--max-jobs") && i + 1 < argc) {
         lim.max_jobs = (unsigned)strtoul(argv[++i], NULL, 0);
      } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
         return usage(stdout);
      } else if (argv[i][0] == '-') {
         return usage(stderr);
      } else {
         int s = decode_file(argv[i], &lim, show_mappings);
         status = s > status ? s : status;
         files++;
      }
   }
   if (!files)
      return usage(stderr);
   return status;
}
