/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Submit dumps: one file per submitted job chain, holding the GPU id and
 * architecture, the job-chain addresses and a copy of every buffer the
 * submit referenced.  All integers are little-endian.
 *
 *    offset  size  contents
 *    0       8     magic "PANDUMP\0"
 *    8       4     format version (PAN_DUMP_VERSION)
 *    12      4     GPU product id (GPU_ID >> 16)
 *    16      4     architecture (4, 5, 6, 7, 9)
 *    20      4     number of job chains C (1..PAN_DUMP_MAX_CHAINS)
 *    24      4     number of mappings M (0..PAN_DUMP_MAX_MAPPINGS)
 *    28      4     reserved, zero
 *    32      8*C   job-chain GPU addresses
 *    then M mapping records:
 *            8     GPU virtual address
 *            8     size in bytes (0 < size <= PAN_DUMP_MAX_MAPPING_B)
 *            4     flags (PAN_DUMP_MAP_*)
 *            4     name length N (0..PAN_DUMP_MAX_NAME)
 *            N     name, not NUL-terminated
 *            size  contents, absent when PAN_DUMP_MAP_NO_DATA or
 *                  PAN_DUMP_MAP_ZEROS is set
 */

#ifndef PAN_DUMP_H
#define PAN_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pan_decode.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PAN_DUMP_MAGIC         "PANDUMP"
#define PAN_DUMP_VERSION       1
#define PAN_DUMP_MAX_CHAINS    64
#define PAN_DUMP_MAX_MAPPINGS  65536
#define PAN_DUMP_MAX_NAME      255
#define PAN_DUMP_MAX_MAPPING_B (1ull << 32)
#define PAN_DUMP_MAX_ZERO_B    (512ull << 20) /* all PAN_DUMP_MAP_ZEROS */

/* The contents were not captured (e.g. a growable heap the CPU cannot map). */
#define PAN_DUMP_MAP_NO_DATA (1u << 0)
/* The contents are all zero and not stored (written when zero_fill is set;
 * a mostly empty heap would otherwise dominate every dump). */
#define PAN_DUMP_MAP_ZEROS (1u << 1)

struct pan_dump {
   uint32_t gpu_id;
   uint32_t arch;
   unsigned chain_count;
   uint64_t chains[PAN_DUMP_MAX_CHAINS];
   /* maps[i].cpu/name point into storage owned by the dump. */
   struct pan_sim_region *maps;
   unsigned map_count;
   char **names;
   uint8_t **data;
   /* Serialize all-zero mappings as PAN_DUMP_MAP_ZEROS. */
   bool zero_fill;
};

/* Serialize to a memory buffer (malloc'ed, *size_B set); NULL on failure. */
uint8_t *pan_dump_serialize(const struct pan_dump *dump, size_t *size_B);

/* Write size_B bytes to a new file: 0, or -1 with "path: why" in err. */
int pan_dump_write_bytes(const char *path, const void *data, size_t size_B,
                         char *err, size_t err_size);

/* Write a dump file; 0 or -1 with a message in err. */
int pan_dump_write_file(const char *path, const struct pan_dump *dump,
                        char *err, size_t err_size);

/*
 * Parse a dump from memory.  Every count, size and offset is checked
 * against the buffer and the limits above; overlapping mappings are
 * rejected.  Returns 0, or -1 with a message in err (dump left empty).
 */
int pan_dump_parse(const uint8_t *buf, size_t size_B, struct pan_dump *dump,
                   char *err, size_t err_size);

int pan_dump_read_file(const char *path, struct pan_dump *dump, char *err,
                       size_t err_size);

void pan_dump_fini(struct pan_dump *dump);

/*
 * The stock Panfrost driver's text dumps (PAN_MESA_DEBUG=trace,dump,
 * pan_dump_text.c): per submit, the decoded trace of the chain (its first
 * "Job Header (ADDR):" line gives the chain address) followed by every
 * mapped buffer as a "Buffer: NAME gpu ADDR" line and a hexdump, taken
 * AFTER the GPU ran the chain. Each submit becomes one dump of *count,
 * with the given GPU id and architecture (the text names neither); sizes
 * are rounded up to 4 KiB pages, as the driver allocates, and the address
 * space around the buffers is backed with zeros (memory the CPU never
 * mapped is not in the text; pan_dump_text.c). Returns 0, or -1
 * with "file:line: why" in err (nothing allocated).
 */
int pan_dump_text_parse(const char *text, size_t len, const char *file,
                        uint32_t gpu_id, unsigned arch,
                        struct pan_dump **dumps, unsigned *count, char *err,
                        size_t err_size);

int pan_dump_text_read_file(const char *path, uint32_t gpu_id, unsigned arch,
                            struct pan_dump **dumps, unsigned *count,
                            char *err, size_t err_size);

/* Free what pan_dump_text_parse returned. */
void pan_dump_free_array(struct pan_dump *dumps, unsigned count);

/* Read a whole file (malloc'ed, NUL-terminated); NULL with err set. */
uint8_t *pan_dump_slurp(const char *path, size_t *size_B, char *err,
                        size_t err_size);

static inline struct pan_sim_space
pan_dump_space(const struct pan_dump *dump)
{
   struct pan_sim_space s = {dump->maps, dump->map_count};
   return s;
}

#ifdef __cplusplus
}
#endif

#endif /* PAN_DUMP_H */
