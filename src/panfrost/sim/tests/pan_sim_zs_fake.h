/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * A stand-in for the executor's ZS_EMIT callback, shared by the Bifrost
 * and Valhall interpreter tests (their callbacks have one signature): it
 * records what each lane handed over, and its depth test passes a lane
 * whose depth is below 0.5.
 */

#ifndef PAN_SIM_ZS_FAKE_H
#define PAN_SIM_ZS_FAKE_H

#include <stdbool.h>
#include <stdint.h>

struct zs_seen {
   unsigned calls;
   bool z, s;
   float depth[16];
   uint8_t ref[16];
};

static bool
fake_zs_emit(void *user, unsigned lane, bool z, float depth, bool stencil,
             uint8_t ref, uint32_t *coverage, char *err)
{
   struct zs_seen *s = user;
   (void)err;
   s->calls++;
   s->z = z;
   s->s = stencil;
   s->depth[lane] = depth;
   s->ref[lane] = ref;
   if (!(depth < 0.5f))
      *coverage &= ~1u;
   return true;
}

#endif
