/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/u_atomic.h"

#include "pan_bo.h"
#include "pan_decode.h"
#include "pan_device.h"
#include "pan_dump.h"
#include "pan_submit.h"
#include "pan_submit_debug.h"

#define DEBUG_FLAGS (PAN_SUBMIT_DEBUG_TRACE | PAN_SUBMIT_DEBUG_DUMP)

static int
write_dump(const struct pan_device *dev, uint64_t jc,
           struct pan_decode_mapping *maps, unsigned n)
{
   static unsigned seq;
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
      return -1;
   }
   fprintf(stderr, "pan dump: wrote %s\n", path);
   return 0;
}

int
pan_submit_debug(struct pan_device *dev, const struct pan_submit *s,
                 uint32_t flags)
{
   int ret = 0;

   if (!(flags & DEBUG_FLAGS))
      return 0;

   /* A debugging path: allocating here keeps the submit path free of it. */
   struct pan_decode_mapping *maps = calloc(s->bo_count + 1, sizeof(*maps));
   if (!maps) {
      fprintf(stderr, "pan trace/dump: out of memory, submit not recorded\n");
      return -1;
   }

   unsigned n = 0;
   for (unsigned i = 0; i < s->bo_count; ++i) {
      const struct pan_bo *bo = s->bos[i];

      if (!bo)
         continue;
      maps[n].gpu_va = bo->gpu_va;
      maps[n].size_B = bo->size_B;
      maps[n].cpu = bo->cpu; /* NULL: range only */
      maps[n].name = bo->label ? bo->label : "bo";
      n++;
   }

   if (flags & PAN_SUBMIT_DEBUG_TRACE) {
      struct pan_decode_space space = { maps, n };

      if (pan_decode_supports_arch(dev->arch))
         pan_decode_chain(stderr, dev->arch, &space, s->jc_gpu_va, NULL, NULL);
      else
         fprintf(stderr, "pan trace: no decoder for v%u\n", dev->arch);
   }

   if (flags & PAN_SUBMIT_DEBUG_DUMP)
      ret = write_dump(dev, s->jc_gpu_va, maps, n);

   free(maps);
   return ret;
}

/* The flags travel in the hook's data pointer: no state to free. */
static void
submit_hook(void *data, struct pan_device *dev, const struct pan_submit *s)
{
   pan_submit_debug(dev, s, (uint32_t)(uintptr_t)data);
}

void
pan_submit_debug_install(struct pan_device *dev, uint32_t flags)
{
   flags &= DEBUG_FLAGS;
   pan_device_set_submit_hook(dev, flags ? submit_hook : NULL,
                              (void *)(uintptr_t)flags);
}
