/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Index ranges remembered per index buffer.  Applications draw the same
 * ranges of a static index buffer frame after frame, so a buffer keeps
 * the ranges of its recent draws; writing to the buffer forgets the
 * entries whose bytes it overlaps, and only those.  Not thread-safe: one
 * cache per buffer, used under the context that owns the draw.
 */

#ifndef PAN_INDEX_CACHE_H
#define PAN_INDEX_CACHE_H

#include "pan_index_range.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PAN_INDEX_CACHE_ENTRIES 16

struct pan_index_cache_entry {
   size_t offset_B; /* of the first index in the buffer */
   size_t count;
   uint32_t restart_index;
   uint8_t index_size_B; /* 0: unused entry */
   bool restart;
   struct pan_index_range range;
};

struct pan_index_cache {
   struct pan_index_cache_entry e[PAN_INDEX_CACHE_ENTRIES];
   unsigned next; /* round-robin victim */
   uint64_t hits, misses;
};

void pan_index_cache_init(struct pan_index_cache *c);

/*
 * The range of count indices at buffer + offset_B (scan->indices is
 * ignored; the other fields say what to scan).  False for an index size
 * pan_index_range refuses.
 */
bool pan_index_cache_get(struct pan_index_cache *c, const void *buffer,
                         size_t offset_B, const struct pan_index_scan *scan,
                         struct pan_index_range *out);

/* Forget what the bytes [offset_B, offset_B + size_B) took part in. */
void pan_index_cache_invalidate(struct pan_index_cache *c, size_t offset_B,
                                size_t size_B);

#ifdef __cplusplus
}
#endif

#endif
