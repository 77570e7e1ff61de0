/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Submit-time debugging, driven by PAN_MESA_DEBUG (comma-separated):
 *
 *    trace   decode every submitted job chain to stderr
 *    dump    write every submit to PAN_DUMP_DIR (default ".") as
 *            pan-<pid>-<seq>.pandump, readable with pan-decode
 *
 * The flags come from the caller (the Gallium driver parses PAN_MESA_DEBUG
 * once per screen); pan_submit_jc() runs the hook and then submits.
 */

#ifndef PAN_SUBMIT_DEBUG_H
#define PAN_SUBMIT_DEBUG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pan_device;
struct pan_bo;

enum pan_submit_debug_flags {
   PAN_SUBMIT_DEBUG_TRACE = 1u << 0,
   PAN_SUBMIT_DEBUG_DUMP = 1u << 1,
};

/* Flags from a PAN_MESA_DEBUG-style string (NULL gives 0). */
uint32_t pan_submit_debug_parse(const char *env);

/*
 * Trace and/or dump one submit.  bos are the buffers the chain may touch;
 * the ones the CPU has not mapped are recorded by range only.  Returns 0,
 * or -1 when a dump could not be written (the submit itself goes on).
 */
int pan_submit_debug(struct pan_device *dev, uint64_t jc,
                     struct pan_bo *const *bos, unsigned bo_count,
                     uint32_t flags);

/*
 * Submit a chain through the device's kernel interface after the debug
 * hook.  requirements: PANFROST_JD_REQ_*; out_sync 0 for none; debug_flags:
 * enum pan_submit_debug_flags.  Returns 0 or the kernel's negative errno.
 */
int pan_submit_jc(struct pan_device *dev, uint64_t jc,
                  struct pan_bo *const *bos, unsigned bo_count,
                  uint32_t requirements, uint32_t out_sync,
                  uint32_t debug_flags);

#ifdef __cplusplus
}
#endif

#endif /* PAN_SUBMIT_DEBUG_H */
