/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * A recording texture unit for the interpreters' texture message tests:
 * it keeps every request and answers lane i of a quad with its first
 * coordinate + 0x100 * i + c in component c (bits as they are, whatever
 * the result format), so that where results land can be checked.
 */

#ifndef PAN_SIM_TEX_RECORD_H
#define PAN_SIM_TEX_RECORD_H

#include <stdio.h>

#include "pan_sim_texture.h"

#define TEX_RECORD_MAX 8

struct tex_recorder {
   struct pan_sim_tex_req req[TEX_RECORD_MAX];
   unsigned calls;
};

static bool
tex_record(void *user, struct pan_sim_tex_req *req, char *err)
{
   struct tex_recorder *r = user;
   if (r->calls >= TEX_RECORD_MAX) {
      snprintf(err, PAN_SIM_TEX_ERR_LEN, "too many calls");
      return false;
   }
   for (unsigned i = 0; i < 4; ++i)
      for (unsigned c = 0; c < 4; ++c)
         req->out[i][c] = req->coord[i][0] + 0x100 * i + c;
   r->req[r->calls++] = *req;
   return true;
}

#endif
