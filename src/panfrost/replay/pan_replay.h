/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Replaying submits on the simulator and writing what they rendered: the
 * library behind pan-replay and the drm-shim's PAN_SHIM_DUMP, so both name
 * and encode their files the same way (docs/drivers/panfrost/replay.rst).
 *
 * Files, for a prefix P (e.g. "submit-0003"), fragment job K of the run and
 * colour target M:
 *    P-fragK-rtM.png      a colour target that reads back as RGBA8
 *    P-fragK-rtM.bin      any other colour target: its texels as stored
 *    P-fragK-zs.bin       the depth/stencil buffer's texels
 *    P-fragK-s.bin        the separate stencil buffer's texels
 *    P-buf-ADDR.bin       (dumps only) the pages of a mapping from the
 *                         first to the last the chains changed, ADDR the
 *                         first one's GPU address
 * Layered (multisampled) images get "-lN" before the extension for layers
 * past the first. Texels are the frame rectangle's, rows top down.
 */

#ifndef PAN_REPLAY_H
#define PAN_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pan_dump.h"
#include "pan_sim.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pan_replay_opts {
   const char *dir;    /* output folder (must exist) */
   const char *prefix; /* file name prefix */
   FILE *report;       /* a line per file written and per job run; NULL */
   FILE *log;          /* simulator messages; NULL: stderr */
   unsigned max_jobs;  /* stop after this many jobs of a chain; 0: all */
};

struct pan_replay_result {
   struct pan_sim_stats stats; /* of the last chain */
   unsigned jobs;              /* run over all chains */
   unsigned files;             /* written */
   unsigned write_errors;      /* files that could not be written */
   bool faulted;               /* a chain faulted */
   char err[256];              /* the first write error */
};

/* Run the chain at jc over space, writing the images of its fragment jobs
 * as they complete. Returns 0, or -1 when a job faulted or a file could
 * not be written (see r). */
int pan_replay_run_space(unsigned arch, const struct pan_sim_space *space,
                         uint64_t jc, const struct pan_replay_opts *o,
                         struct pan_replay_result *r);

/* Run every chain of the dump on its own memory (made writable), then write
 * the mappings the chains changed. */
int pan_replay_dump(struct pan_dump *dump, const struct pan_replay_opts *o,
                    struct pan_replay_result *r);

/* Write the space and the chain as a PANDUMP file (the drm-shim's
 * capture, before the chain runs). All-zero mappings are stored as such.
 */
int pan_replay_capture(const char *path, uint32_t gpu_id, unsigned arch,
                       const struct pan_sim_space *space, uint64_t jc,
                       char *err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
