/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Index range scans: the flavours the build has (PAN_INDEX_HAVE_*), and
 * index_pick(), the one place that chooses among them.
 */

#include "pan_cpu.h"
#include "pan_index_range_priv.h"

static const char *const index_path_names[PAN_INDEX_PATH_COUNT] = {
   [PAN_INDEX_PORTABLE] = "portable",
   [PAN_INDEX_SSE2] = "sse2",
   [PAN_INDEX_NEON] = "neon",
};

const char *
pan_index_path_name(enum pan_index_path path)
{
   return path < PAN_INDEX_PATH_COUNT ? index_path_names[path] : "?";
}

/* The flavour if it was built and this CPU runs it, else NULL */
static const struct pan_index_flavour *
index_flavour(enum pan_index_path path)
{
   switch (path) {
   case PAN_INDEX_PORTABLE:
      return &pan_index_portable;
#ifdef PAN_INDEX_HAVE_SSE2
   case PAN_INDEX_SSE2:
      return pan_cpu_has(PAN_CPU_SSE2) ? &pan_index_sse2 : NULL;
#endif
#ifdef PAN_INDEX_HAVE_NEON
   case PAN_INDEX_NEON:
      return pan_cpu_has(PAN_CPU_NEON) ? &pan_index_neon : NULL;
#endif
   default:
      return NULL;
   }
}

bool
pan_index_path_available(enum pan_index_path path)
{
   return index_flavour(path) != NULL;
}

enum pan_index_path
pan_index_current_path(void)
{
   static const enum pan_index_path preference[] = {
      PAN_INDEX_NEON,
      PAN_INDEX_SSE2,
   };

   for (unsigned i = 0; i < sizeof(preference) / sizeof(preference[0]); ++i) {
      if (pan_index_path_available(preference[i]))
         return preference[i];
   }
   return PAN_INDEX_PORTABLE;
}

bool
pan_index_range_path(enum pan_index_path path,
                     const struct pan_index_scan *scan,
                     struct pan_index_range *out)
{
   const struct pan_index_flavour *f = index_flavour(path);
   unsigned size = scan->index_size_B;

   if (!f || (size != 1 && size != 2 && size != 4))
      return false;

   /* A restart index wider than the indices matches none of them */
   uint32_t widest = size == 4 ? UINT32_MAX : (1u << (8 * size)) - 1;
   bool restart = scan->restart && scan->restart_index <= widest;

   uint32_t lo = UINT32_MAX, hi = 0;
   if (scan->count)
      f->scan[size / 2](scan->indices, scan->count, restart,
                        scan->restart_index, &lo, &hi);

   /* The folds leave min > max when nothing counted: say so one way */
   out->min = lo > hi ? UINT32_MAX : lo;
   out->max = lo > hi ? 0 : hi;
   return true;
}

bool
pan_index_range(const struct pan_index_scan *scan, struct pan_index_range *out)
{
   return pan_index_range_path(pan_index_current_path(), scan, out);
}
