/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The GPU address space as the simulator and the decoder see it: a list of
 * regions (GPU VA, size, CPU copy, name), and one checked access through
 * which every read or write of GPU memory goes.
 *
 * A failed access never touches memory: it fills a struct pan_sim_access
 * with what went wrong and a message naming what was being accessed, and
 * the caller decides what that means (an ERROR line in the decoder, a job
 * fault in the simulator).
 */

#ifndef PAN_SIM_SPACE_H
#define PAN_SIM_SPACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One mapped range. Readers (the decoder, dumps) only need the first four
 * fields, so positional initialisers leave the region read-only.
 */
struct pan_sim_region {
   uint64_t gpu_va;
   uint64_t size_B;
   /* CPU copy of the contents; NULL when they were not captured (e.g. a
    * growable heap), in which case the range is known but unreadable. */
   const void *cpu;
   const char *name; /* for messages; may be NULL */
   /* The memory behind cpu is the caller's to be written through
    * pan_sim_write (the simulator's BOs); false for captured copies. */
   bool writable;
};

struct pan_sim_space {
   const struct pan_sim_region *regions;
   unsigned count;
};

enum pan_sim_access_status {
   PAN_SIM_ACCESS_OK,
   PAN_SIM_ACCESS_NULL, /* address 0 */
   PAN_SIM_ACCESS_MISALIGNED,
   PAN_SIM_ACCESS_UNMAPPED,     /* the first byte is in no region */
   PAN_SIM_ACCESS_PAST_END,     /* starts in a region, ends outside it */
   PAN_SIM_ACCESS_NOT_CAPTURED, /* region without contents */
   PAN_SIM_ACCESS_READ_ONLY,    /* write to a region not writable */
};

#define PAN_SIM_ACCESS_MESSAGE_B 192

/* Outcome of one access; message is set when status is not OK. */
struct pan_sim_access {
   enum pan_sim_access_status status;
   uint64_t va;
   const struct pan_sim_region *region; /* containing va, or NULL */
   char message[PAN_SIM_ACCESS_MESSAGE_B];
};

/* The region containing va, or NULL. */
const struct pan_sim_region *
pan_sim_space_find(const struct pan_sim_space *space, uint64_t va);

/* Bytes from va to the end of its region, 0 when unmapped or not
 * captured. */
uint64_t pan_sim_space_avail(const struct pan_sim_space *space, uint64_t va);

/*
 * Check that [va, va + size_B) lies inside one region, without needing its
 * contents. True, or false with acc filled (acc may be NULL).
 */
bool pan_sim_probe(const struct pan_sim_space *space, uint64_t va,
                   uint64_t size_B, const char *what,
                   struct pan_sim_access *acc);

/*
 * CPU pointer to size_B bytes at va, or NULL with acc filled. align_B is a
 * power of two, or 0 for no alignment requirement. The range must lie in
 * one region: neighbours need not be adjacent in CPU memory.
 */
const void *pan_sim_read(const struct pan_sim_space *space, uint64_t va,
                         uint64_t size_B, unsigned align_B, const char *what,
                         struct pan_sim_access *acc);

/* Same for a write: the region must also be writable. */
void *pan_sim_write(const struct pan_sim_space *space, uint64_t va,
                    uint64_t size_B, unsigned align_B, const char *what,
                    struct pan_sim_access *acc);

#ifdef __cplusplus
}
#endif

#endif /* PAN_SIM_SPACE_H */
