/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Lookup and checked access over the regions of a GPU address space. */

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "pan_sim_space.h"

static inline bool
region_has(const struct pan_sim_region *r, uint64_t va)
{
   return va >= r->gpu_va && va - r->gpu_va < r->size_B;
}

const struct pan_sim_region *
pan_sim_space_find(const struct pan_sim_space *space, uint64_t va)
{
   /* Shaders hit the same few buffers over and over: try the region this
    * thread found last before scanning. Regions never overlap, so the
    * hint cannot pick a different region than the scan would. */
   static __thread unsigned hint;

   if (hint < space->count && region_has(&space->regions[hint], va))
      return &space->regions[hint];

   for (unsigned i = 0; i < space->count; ++i) {
      if (region_has(&space->regions[i], va)) {
         hint = i;
         return &space->regions[i];
      }
   }
   return NULL;
}

uint64_t
pan_sim_space_avail(const struct pan_sim_space *space, uint64_t va)
{
   const struct pan_sim_region *r = pan_sim_space_find(space, va);
   if (!r || !r->cpu)
      return 0;
   return r->size_B - (va - r->gpu_va);
}

static bool fail(struct pan_sim_access *acc, enum pan_sim_access_status status,
                 const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static bool
fail(struct pan_sim_access *acc, enum pan_sim_access_status status,
     const char *fmt, ...)
{
   va_list ap;

   acc->status = status;
   va_start(ap, fmt);
   vsnprintf(acc->message, sizeof(acc->message), fmt, ap);
   va_end(ap);
   return false;
}

static const char *
region_name(const struct pan_sim_region *r)
{
   return r->name ? r->name : "buffer";
}

/* The checks shared by every kind of access; fills acc->region. */
static bool
check(const struct pan_sim_space *space, uint64_t va, uint64_t size_B,
      unsigned align_B, bool null_ok, const char *what,
      struct pan_sim_access *acc)
{
   acc->status = PAN_SIM_ACCESS_OK;
   acc->va = va;
   acc->message[0] = '\0';
   acc->region = pan_sim_space_find(space, va);

   if (va == 0 && !null_ok && !acc->region)
      return fail(acc, PAN_SIM_ACCESS_NULL, "%s: NULL pointer", what);
   if (align_B && (va & (align_B - 1))) {
      return fail(acc, PAN_SIM_ACCESS_MISALIGNED,
                  "%s: 0x%" PRIx64 " is not %u-byte aligned", what, va,
                  align_B);
   }
   const struct pan_sim_region *r = acc->region;
   if (!r) {
      return fail(acc, PAN_SIM_ACCESS_UNMAPPED,
                  "%s: address 0x%" PRIx64 " is not mapped", what, va);
   }
   if (size_B > r->size_B - (va - r->gpu_va)) {
      return fail(
         acc, PAN_SIM_ACCESS_PAST_END,
         "%s: 0x%" PRIx64 " + %" PRIu64
         " bytes runs past the end of \"%s\" [0x%" PRIx64 ", 0x%" PRIx64 ")",
         what, va, size_B, region_name(r), r->gpu_va, r->gpu_va + r->size_B);
   }
   return true;
}

bool
pan_sim_probe(const struct pan_sim_space *space, uint64_t va, uint64_t size_B,
              const char *what, struct pan_sim_access *acc)
{
   struct pan_sim_access scratch;
   return check(space, va, size_B, 0, true, what, acc ? acc : &scratch);
}

const void *
pan_sim_read(const struct pan_sim_space *space, uint64_t va, uint64_t size_B,
             unsigned align_B, const char *what, struct pan_sim_access *acc)
{
   struct pan_sim_access scratch;

   if (!acc)
      acc = &scratch;
   if (!check(space, va, size_B, align_B, false, what, acc))
      return NULL;
   if (!acc->region->cpu) {
      fail(acc, PAN_SIM_ACCESS_NOT_CAPTURED,
           "%s: contents of \"%s\" were not captured", what,
           region_name(acc->region));
      return NULL;
   }
   return (const uint8_t *)acc->region->cpu + (va - acc->region->gpu_va);
}

void *
pan_sim_write(const struct pan_sim_space *space, uint64_t va, uint64_t size_B,
              unsigned align_B, const char *what, struct pan_sim_access *acc)
{
   struct pan_sim_access scratch;

   if (!acc)
      acc = &scratch;
   const void *p = pan_sim_read(space, va, size_B, align_B, what, acc);
   if (!p)
      return NULL;
   if (!acc->region->writable) {
      fail(acc, PAN_SIM_ACCESS_READ_ONLY, "%s: \"%s\" is read-only", what,
           region_name(acc->region));
      return NULL;
   }
   /* The owner of the region declared this memory writable. */
   return (void *)(uintptr_t)p;
}
