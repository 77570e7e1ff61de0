/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include <stddef.h>

#include "pan_arch.h"

/* The one place that maps an architecture to its job emitters. */
const struct panfrost_arch *
panfrost_arch_get(unsigned arch)
{
   switch (arch) {
#ifdef PANFROST_HAVE_V6
   case 6:
      return &pan_v6_panfrost_arch;
#endif
#ifdef PANFROST_HAVE_V7
   case 7:
      return &pan_v7_panfrost_arch;
#endif
#ifdef PANFROST_HAVE_V9
   case 9:
      return &pan_v9_panfrost_arch;
#endif
   default:
      return NULL;
   }
}
