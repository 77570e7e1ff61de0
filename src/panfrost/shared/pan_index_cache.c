/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include <string.h>
#include "pan_index_cache.h"

void
pan_index_cache_init(struct pan_index_cache *c)
{
   memset(c, 0, sizeof(*c));
}

static bool
entry_matches(const struct pan_index_cache_entry *e, size_t offset_B,
              const struct pan_index_scan *scan)
{
   return e->index_size_B == scan->index_size_B && e->offset_B == offset_B &&
          e->count == scan->count && e->restart == scan->restart &&
          (!scan->restart || e->restart_index == scan->restart_index);
}

bool
pan_index_cache_get(struct pan_index_cache *c, const void *buffer,
                    size_t offset_B, const struct pan_index_scan *scan,
                    struct pan_index_range *out)
{
   for (unsigned i = 0; i < PAN_INDEX_CACHE_ENTRIES; ++i) {
      if (entry_matches(&c->e[i], offset_B, scan)) {
         *out = c->e[i].range;
         c->hits++;
         return true;
      }
   }

   struct pan_index_scan s = *scan;
   s.indices = (const uint8_t *)buffer + offset_B;
   if (!pan_index_range(&s, out))
      return false;

   c->misses++;
   c->e[c->next] = (struct pan_index_cache_entry){
      .offset_B = offset_B,
      .count = scan->count,
      .restart_index = scan->restart ? scan->restart_index : 0,
      .index_size_B = (uint8_t)scan->index_size_B,
      .restart = scan->restart,
      .range = *out,
   };
   c->next = (c->next + 1) % PAN_INDEX_CACHE_ENTRIES;
   return true;
}

void
pan_index_cache_invalidate(struct pan_index_cache *c, size_t offset_B,
                           size_t size_B)
{
   if (!size_B)
      return;
   for (unsigned i = 0; i < PAN_INDEX_CACHE_ENTRIES; ++i) {
      struct pan_index_cache_entry *e = &c->e[i];
      size_t end = e->offset_B + e->count * e->index_size_B;

      /* Do [offset_B, offset_B + size_B) and [e->offset_B, end) overlap?
       * Written without offset_B + size_B, which SIZE_MAX ("the whole
       * buffer") would overflow. */
      bool starts_inside =
         e->offset_B >= offset_B && e->offset_B - offset_B < size_B;
      bool covers_start = e->offset_B <= offset_B && offset_B < end;
      if (e->index_size_B && (starts_inside || covers_start))
         e->index_size_B = 0;
   }
}
