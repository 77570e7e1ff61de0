/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pan_png.h"
#include "pan_replay.h"

struct replay {
   const struct pan_replay_opts *o;
   struct pan_replay_result *r;
};

static void
wrote(struct replay *rp, const char *path, int ret, const char *err)
{
   if (ret) {
      if (!rp->r->write_errors++)
         snprintf(rp->r->err, sizeof(rp->r->err), "%s", err);
      if (rp->o->report)
         fprintf(rp->o->report, "ERROR: %s\n", err);
      return;
   }
   rp->r->files++;
   if (rp->o->report)
      fprintf(rp->o->report, "wrote %s\n", path);
}

static void
image_path(char *path, size_t size, const struct pan_replay_opts *o,
           const struct pan_sim_image *img, unsigned layer, const char *ext)
{
   char what[16], lay[16] = "";

   if (img->kind == PAN_SIM_IMAGE_COLOR)
      snprintf(what, sizeof(what), "rt%u", img->rt);
   else
      snprintf(what, sizeof(what), "%s",
               img->kind == PAN_SIM_IMAGE_STENCIL ? "s" : "zs");
   if (layer)
      snprintf(lay, sizeof(lay), "-l%u", layer);
   snprintf(path, size, "%s/%s-frag%u-%s%s.%s", o->dir, o->prefix,
            img->fragment, what, lay, ext);
}

static void
on_image(void *data, const struct pan_sim_image *img)
{
   struct replay *rp = data;
   size_t px = (size_t)img->w * img->h;
   uint8_t *buf = malloc(px * (img->texel_B > 4 ? img->texel_B : 4));
   char path[4096], err[512];

   for (unsigned l = 0; l < img->layers; ++l) {
      int ret;
      if (!buf) {
         snprintf(err, sizeof(err), "out of memory reading a %ux%u image",
                  img->w, img->h);
         ret = -1;
      } else if (img->rgba8) {
         image_path(path, sizeof(path), rp->o, img, l, "png");
         pan_sim_image_rgba8(img, l, buf);
         ret = pan_png_write_rgba8(path, buf, img->w, img->h, err, sizeof(err));
      } else {
         image_path(path, sizeof(path), rp->o, img, l, "bin");
         pan_sim_image_texels(img, l, buf);
         ret = pan_dump_write_bytes(path, buf, px * img->texel_B, err,
                                    sizeof(err));
      }
      wrote(rp, path, ret, err);
   }
   free(buf);
}

static void
on_job(void *data, unsigned index, uint64_t va, const char *type)
{
   struct replay *rp = data;

   rp->r->jobs++;
   if (rp->o->report)
      fprintf(rp->o->report, "job %u %s @ 0x%" PRIx64 "\n", index,
              type ? type : "?", va);
}

static int
run_chain(struct replay *rp, unsigned arch, const struct pan_sim_space *space,
          uint64_t jc)
{
   const struct pan_sim_run_opts opts = {
      .log = rp->o->log,
      .max_jobs = rp->o->max_jobs,
      .on_image = on_image,
      .on_job = on_job,
      .data = rp,
   };
   int ret = pan_sim_run_chain_opts(arch, space, jc, &opts, &rp->r->stats);

   if (ret == -2)
      snprintf(rp->r->err, sizeof(rp->r->err),
               "architecture v%u is not built into the simulator", arch);
   if (ret)
      rp->r->faulted = true;
   return ret;
}

int
pan_replay_run_space(unsigned arch, const struct pan_sim_space *space,
                     uint64_t jc, const struct pan_replay_opts *o,
                     struct pan_replay_result *r)
{
   struct replay rp = { o, r };

   memset(r, 0, sizeof(*r));
   int ret = run_chain(&rp, arch, space, jc);
   return ret || r->write_errors ? -1 : 0;
}

/* The 4 KiB pages of a mapping from the first to the last that changed;
 * false when none did. */
static bool
changed_pages(const uint8_t *before, const uint8_t *after, uint64_t size_B,
              uint64_t *first, uint64_t *end)
{
   const uint64_t page = 4096;
   uint64_t lo = 0, hi = size_B;

   while (lo < size_B && before[lo] == after[lo])
      ++lo;
   if (lo == size_B)
      return false;
   while (hi > lo && before[hi - 1] == after[hi - 1])
      --hi;
   *first = lo & ~(page - 1);
   *end = (hi + page - 1) & ~(page - 1);
   if (*end > size_B)
      *end = size_B;
   return true;
}

int
pan_replay_dump(struct pan_dump *dump, const struct pan_replay_opts *o,
                struct pan_replay_result *r)
{
   struct replay rp = { o, r };
   struct pan_sim_space space = pan_dump_space(dump);
   uint8_t **before = calloc(dump->map_count + 1, sizeof(*before));

   memset(r, 0, sizeof(*r));
   if (!before) {
      snprintf(r->err, sizeof(r->err), "out of memory");
      return -1;
   }
   /* Keep the contents to find what the chains change. */
   for (unsigned i = 0; i < dump->map_count; ++i) {
      struct pan_sim_region *m = &dump->maps[i];
      if (!m->cpu)
         continue;
      m->writable = true;
      before[i] = malloc(m->size_B);
      if (!before[i]) {
         snprintf(r->err, sizeof(r->err), "out of memory");
         r->write_errors++;
         break;
      }
      memcpy(before[i], m->cpu, m->size_B);
   }

   for (unsigned c = 0; c < dump->chain_count && !r->write_errors; ++c) {
      if (run_chain(&rp, dump->arch, &space, dump->chains[c]))
         break;
   }

   for (unsigned i = 0; i < dump->map_count; ++i) {
      const struct pan_sim_region *m = &dump->maps[i];
      uint64_t first, end;
      if (before[i] &&
          changed_pages(before[i], m->cpu, m->size_B, &first, &end)) {
         char path[4096], err[512];
         snprintf(path, sizeof(path), "%s/%s-buf-%016" PRIx64 ".bin", o->dir,
                  o->prefix, m->gpu_va + first);
         wrote(&rp, path,
               pan_dump_write_bytes(path, (const uint8_t *)m->cpu + first,
                                    end - first, err, sizeof(err)),
               err);
      }
      free(before[i]);
   }
   free(before);
   return r->faulted || r->write_errors ? -1 : 0;
}

int
pan_replay_capture(const char *path, uint32_t gpu_id, unsigned arch,
                   const struct pan_sim_space *space, uint64_t jc, char *err,
                   size_t err_size)
{
   struct pan_dump dump = {
      .gpu_id = gpu_id,
      .arch = arch,
      .chain_count = 1,
      .chains = { jc },
      .maps = calloc(space->count + 1, sizeof(*dump.maps)),
      .map_count = space->count,
      .zero_fill = true,
   };

   if (!dump.maps) {
      snprintf(err, err_size, "%s: out of memory", path);
      return -1;
   }
   for (unsigned i = 0; i < space->count; ++i) {
      dump.maps[i] = space->regions[i];
      if (!dump.maps[i].name)
         dump.maps[i].name = "bo";
   }
   int ret = pan_dump_write_file(path, &dump, err, err_size);
   free(dump.maps);
   return ret;
}
