/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * What the CPU we run on can execute, for the SIMD flavours of the
 * CPU-side hot paths (tiling, index scans).  A flavour is only built for
 * the target's architecture; this answers whether this CPU runs it where
 * the target's baseline does not guarantee it (SSSE3 on x86-64, NEON on
 * Debian armhf).
 */

#ifndef PAN_CPU_H
#define PAN_CPU_H

#include <stdbool.h>

enum pan_cpu_feature {
   PAN_CPU_SSE2,
   PAN_CPU_SSSE3,
   PAN_CPU_NEON,
};

bool pan_cpu_has(enum pan_cpu_feature f);

#endif
