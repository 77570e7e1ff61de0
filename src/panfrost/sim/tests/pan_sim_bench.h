/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Shared by the simulator benchmarks: a monotonic clock in seconds.
 */

#ifndef PAN_SIM_BENCH_H
#define PAN_SIM_BENCH_H

#include <time.h>

static inline double
pan_sim_bench_now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#endif
