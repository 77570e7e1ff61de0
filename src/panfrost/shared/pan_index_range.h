/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Smallest and largest index of an indexed draw.  The hardware shades the
 * vertices of [min, max] (attribute fetch and vertex jobs are sized by
 * it), so every indexed draw whose index buffer the CPU can read scans it
 * once; pan_index_cache.h keeps the answers per buffer.
 *
 * Portable, SSE2 and NEON flavours; pan_index_range() uses the best one
 * this CPU runs (index_pick() in pan_index_range.c is the one place that
 * decides).  See docs/drivers/panfrost/index-range.rst.
 */

#ifndef PAN_INDEX_RANGE_H
#define PAN_INDEX_RANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pan_index_range {
   /* min > max when no index counts (count 0, or every index the restart
    * index) */
   uint32_t min, max;
};

/* Index values equal to restart_index are left out when restart is set;
 * indices of index_size_B (1, 2 or 4) bytes, any alignment. */
struct pan_index_scan {
   const void *indices;
   size_t count;
   unsigned index_size_B;
   bool restart;
   uint32_t restart_index;
};

enum pan_index_path {
   PAN_INDEX_PORTABLE,
   PAN_INDEX_SSE2,
   PAN_INDEX_NEON,
   PAN_INDEX_PATH_COUNT,
};

/* False (and out untouched) for an index size other than 1, 2 or 4. */
bool pan_index_range(const struct pan_index_scan *scan,
                     struct pan_index_range *out);

/* The same with one flavour, for tests and benchmarks; false when the
 * flavour was not built or this CPU cannot run it. */
bool pan_index_range_path(enum pan_index_path path,
                          const struct pan_index_scan *scan,
                          struct pan_index_range *out);

bool pan_index_path_available(enum pan_index_path path);
const char *pan_index_path_name(enum pan_index_path path);
enum pan_index_path pan_index_current_path(void);

#ifdef __cplusplus
}
#endif

#endif
