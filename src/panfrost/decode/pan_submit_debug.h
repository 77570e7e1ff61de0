/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Submit-time debugging, as a hook on the device's submit path
 * (pan_submit.h):
 *
 *    trace   decode every submitted job chain to stderr
 *    dump    write every submit to PAN_DUMP_DIR (default ".") as
 *            pan-<pid>-<seq>.pandump, readable with pan-decode
 *
 * The caller picks the flags (the Gallium screen from PAN_MESA_DEBUG) and
 * installs the hook; lib/ calls it without knowing the decoder.
 */

#ifndef PAN_SUBMIT_DEBUG_H
#define PAN_SUBMIT_DEBUG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pan_device;
struct pan_submit;

enum pan_submit_debug_flags {
   PAN_SUBMIT_DEBUG_TRACE = 1u << 0,
   PAN_SUBMIT_DEBUG_DUMP = 1u << 1,
};

/*
 * Trace and/or dump one submit. The submit's BOs the CPU has not mapped
 * are recorded by range only. Returns 0, or -1 when a dump could not be
 * written or memory ran out (the submit itself goes on).
 */
int pan_submit_debug(struct pan_device *dev, const struct pan_submit *s,
                     uint32_t flags);

/* Makes pan_submit_debug(flags) the device's submit hook; flags without
 * trace or dump remove the hook.
 */
void pan_submit_debug_install(struct pan_device *dev, uint32_t flags);

#ifdef __cplusplus
}
#endif

#endif /* PAN_SUBMIT_DEBUG_H */
