/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Static coverage query of the Valhall interpreter: runs one instruction
 * through the real dispatch on a scratch warp and reports a refusal.
 */

#include <stdio.h>
#include <string.h>

#include "pan_sim_va_priv.h"

static bool
zero_read(void *user, uint64_t addr, void *data, unsigned size)
{
   memset(data, 0, size);
   return true;
}

static bool
discard_write(void *user, uint64_t addr, const void *data, unsigned size)
{
   return true;
}

bool
pan_sim_va_implemented(uint64_t word, char *why, unsigned why_len)
{
   static const uint32_t uniforms[128];
   struct pan_sim_va_config cfg = {
      .program = &word,
      .program_words = 1,
      .program_va = 0x10000,
      .uniforms = uniforms,
      .uniform_words = 128,
      .mem = { .read = zero_read, .write = discard_write },
   };
   struct pan_sim_va_warp w;
   struct pan_sim_va_ctx c = { .w = &w, .cfg = &cfg, .exec = 1 };
   struct pan_sim_va_ins ins;

   pan_sim_va_warp_init(&w, 1);
   for (unsigned l = 0; l < PAN_SIM_VA_LANES; ++l)
      c.next[l] = 1;
   if (pan_sim_va_decode(&c, word, &ins) != VA_SIM_OK) {
      snprintf(why, why_len, "does not decode: %s", w.fault);
      return false;
   }
   if (pan_sim_va_dispatch(&c, &ins) == VA_SIM_OK || !c.refused)
      return true;
   snprintf(why, why_len, "%s", c.refused);
   return false;
}
