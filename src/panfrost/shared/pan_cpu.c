/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include "pan_cpu.h"

#if defined(__arm__)
#include <sys/auxv.h>
#ifndef HWCAP_ARM_NEON
#define HWCAP_ARM_NEON (1 << 12)
#endif
#endif

bool
pan_cpu_has(enum pan_cpu_feature f)
{
   switch (f) {
#if defined(__x86_64__) || defined(__i386__)
   case PAN_CPU_SSE2:
      return __builtin_cpu_supports("sse2");
   case PAN_CPU_SSSE3:
      return __builtin_cpu_supports("ssse3");
#endif
#if defined(__aarch64__)
   case PAN_CPU_NEON:
      return true; /* part of AArch64 */
#elif defined(__arm__)
   case PAN_CPU_NEON:
      /* Debian armhf's baseline is ARMv7 + VFPv3-D16, without NEON */
      return getauxval(AT_HWCAP) & HWCAP_ARM_NEON;
#endif
   default:
      return false;
   }
}
