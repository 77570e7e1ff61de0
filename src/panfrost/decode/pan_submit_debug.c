/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/u_atomic.h"

#include "pan_bo.h"
#include "pan_decode.h"
#include "pan_device.h"
#include "pan_dump.h"
#include "pan_submit_debug.h"

uint32_t
pan_submit_debug_parse(const char *env)
{
   uint32_t flags = 0;

   while (env && *env) {
      size_t n = strcspn(env, ",");
      if (n == 5 && !strncmp(env, "trace", 5))
         flags |= PAN_SUBMIT_DEBUG_TRACE;
      else if (n == 4 && !strncmp(env, "dump", 4))
         flags |= PAN_SUBMIT_DEBUG_DUMP;
      env += n + (env[n] == ',');
   }
   return flags;
}

int
pan_submit_debug(struct pan_device *dev, uint64_t jc,
                 struct pan_bo *const *bos, unsigned bo_count, uint32_t flags)
{
   static unsigned seq;
   int ret = 0;

   if (!(flags & (PAN_SUBMIT_DEBUG_TRACE | PAN_SUBMIT_DEBUG_DUMP)))
      return 0;

   struct pan_decode_mapping *maps = calloc(bo_count + 1, sizeof(*maps));
   if (!maps)
      return -1;
   unsigned n = 0;
   for (unsigned i = 0; i < bo_count; ++i) {
      if (!bos[i])
         continue;
      maps[n].gpu_va = bos[i]->gpu_va;
      maps[n].size_B = bos[i]->size_B;
      maps[n].cpu = bos[i]->cpu; /* NULL: range only */
      maps[n].name = bos[i]->label ? bos[i]->label : "bo";
      n++;
   }

   if (flags & PAN_SUBMIT_DEBUG_TRACE) {
      struct pan_decode_space space = {maps, n};
      if (pan_decode_supports_arch(dev->arch))
         pan_decode_chain(stderr, dev->arch, &space, jc, NULL, NULL);
      else
         fprintf(stderr, "pan trace: no decoder for v%u\n", dev->arch);
   }

   if (flags & PAN_SUBMIT_DEBUG_DUMP) {
      const char *dir = getenv("PAN_DUMP_DIR");
      char path[1024], err[256];
      struct pan_dump dump = {
         .gpu_id = dev->gpu_id,
         .arch = dev->arch,
         .chain_count = 1,
         .maps = maps,
         .map_count = n,
      };
      dump.chains[0] = jc;
      snprintf(path, sizeof(path), "%s/pan-%d-%u.pandump", dir ? dir : ".",
               (int)getpid(), p_atomic_inc_return(&seq));
      if (pan_dump_write_file(path, &dump, err, sizeof(err))) {
         fprintf(stderr, "pan dump: %s\n", err);
         ret = -1;
      } else {
         fprintf(stderr, "pan dump: wrote %s\n", path);
      }
   }
   free(maps);
   return ret;
}

int
pan_submit_jc(struct pan_device *dev, uint64_t jc, struct pan_bo *const *bos,
              unsigned bo_count, uint32_t requirements, uint32_t out_sync,
              uint32_t debug_flags)
{
   uint32_t *handles = calloc(bo_count + 1, sizeof(*handles));
   if (!handles)
      return -ENOMEM;
   for (unsigned i = 0; i < bo_count; ++i)
      handles[i] = bos[i]->handle;

   pan_submit_debug(dev, jc, bos, bo_count, debug_flags);

   struct pan_kmod_submit s = {
      .jc_gpu_va = jc,
      .out_sync = out_sync,
      .bo_handles = handles,
      .bo_handle_count = bo_count,
      .requirements = requirements,
   };
   int ret = dev->kmod.ops->submit(&dev->kmod, &s);
   free(handles);
   return ret;
}
