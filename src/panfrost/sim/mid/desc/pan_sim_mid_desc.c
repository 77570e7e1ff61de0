/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Picks the per-architecture descriptor readers of pan_sim_mid_desc_vX.c.
 */

#include "pan_sim_mid_desc.h"

void pan_v4_sim_mid_desc_init(struct pan_sim_mid_desc *d,
                              struct pan_sim_mid_gfx *gfx);
void pan_v5_sim_mid_desc_init(struct pan_sim_mid_desc *d,
                              struct pan_sim_mid_gfx *gfx);

bool
pan_sim_mid_desc_init(unsigned arch, struct pan_sim_mid_desc *d,
                      struct pan_sim_mid_gfx *gfx)
{
   if (arch == 4)
      pan_v4_sim_mid_desc_init(d, gfx);
   else if (arch == 5)
      pan_v5_sim_mid_desc_init(d, gfx);
   else
      return false;
   return true;
}
