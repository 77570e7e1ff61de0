/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * pan-replay: run the job chains of submit dumps on the simulator and
 * write what they rendered (docs/drivers/panfrost/replay.rst).
 *
 *    pan-replay [--gpu ID] [--job N] [--out DIR] FILE...
 *
 * FILE is a PANDUMP (PAN_MESA_DEBUG=dump, PAN_SHIM_DUMP) or a stock
 * driver's text dump (PAN_MESA_DEBUG=trace,dump; needs --gpu). Files are
 * replayed in order in one simulator, so the primitives a vertex/tiler
 * submit records reach the fragment submit of a later file.
 *
 * Exit status: 0 when every chain ran, 1 when a job faulted, 2 when a file
 * could not be read or written or the arguments are wrong.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pan_model.h"
#include "pan_replay.h"

static int
usage(FILE *f)
{
   fprintf(f, "usage: pan-replay [--gpu ID] [--job N] [--out DIR] FILE...\n"
              "  --gpu ID  hex GPU product id (needed for text dumps)\n"
              "  --job N   stop each chain after its Nth job\n"
              "  --out DIR where the images and buffers go (default .)\n");
   return f == stdout ? 0 : 2;
}

/* The file name without folders and a ".pandump" extension. */
static void
prefix_of(const char *path, char *out, size_t size)
{
   const char *base = strrchr(path, '/');
   base = base ? base + 1 : path;
   snprintf(out, size, "%s", base);
   size_t n = strlen(out), ext = strlen(".pandump");
   if (n > ext && !strcmp(out + n - ext, ".pandump"))
      out[n - ext] = 0;
}

static int
replay_one(struct pan_dump *d, const char *prefix, const char *dir,
           unsigned max_jobs)
{
   const struct pan_replay_opts o = {
      .dir = dir, .prefix = prefix, .report = stdout, .max_jobs = max_jobs
   };
   struct pan_replay_result r;

   printf("replay %s: GPU 0x%04x, v%u, %u mappings, %u job chains\n", prefix,
          d->gpu_id, d->arch, d->map_count, d->chain_count);
   if (!pan_sim_supports_arch(d->arch)) {
      printf("ERROR: %s: architecture v%u is not simulated\n", prefix, d->arch);
      return 2;
   }
   pan_replay_dump(d, &o, &r);
   if (r.write_errors)
      return 2;
   if (r.faulted) {
      printf("FAULT: %s: a job faulted (see the \"pan sim:\" lines)\n", prefix);
      return 1;
   }
   return 0;
}

static int
replay_file(const char *path, const struct pan_model *model, const char *dir,
            unsigned max_jobs)
{
   char err[512], prefix[256];
   uint8_t magic[8] = { 0 };
   FILE *f = fopen(path, "rb");
   size_t n = 0;

   if (f) {
      n = fread(magic, 1, sizeof(magic), f);
      fclose(f);
   }
   prefix_of(path, prefix, sizeof(prefix));

   /* What is not text goes to the binary reader, which names the error. */
   if (n < sizeof(magic) || !memcmp(magic, PAN_DUMP_MAGIC, sizeof(magic))) {
      struct pan_dump d;
      if (pan_dump_read_file(path, &d, err, sizeof(err))) {
         printf("ERROR: %s: %s\n", path, err);
         return 2;
      }
      if (model) {
         d.gpu_id = model->prod_id;
         d.arch = model->arch;
      }
      int s = replay_one(&d, prefix, dir, max_jobs);
      pan_dump_fini(&d);
      return s;
   }

   if (!model) {
      printf("ERROR: %s: a text dump names no GPU: pass --gpu ID\n", path);
      return 2;
   }
   struct pan_dump *dumps;
   unsigned count;
   if (pan_dump_text_read_file(path, model->prod_id, model->arch, &dumps,
                               &count, err, sizeof(err))) {
      printf("ERROR: %s\n", err);
      return 2;
   }
   int status = 0;
   for (unsigned i = 0; i < count && status < 2; ++i) {
      char sub[300];
      snprintf(sub, sizeof(sub), "%s-submit%02u", prefix, i);
      int s = replay_one(&dumps[i], sub, dir, max_jobs);
      status = s > status ? s : status;
   }
   pan_dump_free_array(dumps, count);
   return status;
}

int
main(int argc, char **argv)
{
   const struct pan_model *model = NULL;
   const char *dir = ".";
   unsigned max_jobs = 0;
   int status = 0, files = 0;

   for (int i = 1; i < argc; ++i) {
      char *end;
      if (!strcmp(argv[i], "--gpu") && i + 1 < argc) {
         unsigned long id = strtoul(argv[++i], &end, 16);
         model = *end ? NULL : pan_model_lookup((uint32_t)id);
         if (!model) {
            fprintf(stderr, "pan-replay: %s is not a known GPU id\n", argv[i]);
            return 2;
         }
      } else if (!strcmp(argv[i], "--job") && i + 1 < argc) {
         max_jobs = (unsigned)strtoul(argv[++i], &end, 0);
         if (*end || !max_jobs)
            return usage(stderr);
      } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
         dir = argv[++i];
      } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
         return usage(stdout);
      } else if (argv[i][0] == '-') {
         return usage(stderr);
      } else {
         argv[files++] = argv[i]; /* options apply to every file */
      }
   }
   if (!files)
      return usage(stderr);
   /* Create the output folder (not its parents), so that a run does not
    * replay everything only to fail at every file it writes. */
   if (mkdir(dir, 0777) && errno != EEXIST) {
      fprintf(stderr, "pan-replay: cannot create %s: %s\n", dir,
              strerror(errno));
      return 2;
   }
   for (int i = 0; i < files; ++i) {
      int s = replay_file(argv[i], model, dir, max_jobs);
      status = s > status ? s : status;
   }
   return status;
}
