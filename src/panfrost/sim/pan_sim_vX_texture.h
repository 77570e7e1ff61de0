/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The texture callback of one architecture's executors
 * (pan_sim_vX_texture.c, compiled once per PAN_ARCH, v6 and later). */

#ifndef PAN_SIM_VX_TEXTURE_H
#define PAN_SIM_VX_TEXTURE_H

#include "pan_genxml_arch.h"
#include "pan_sim_texture.h"

/* pan_sim_tex_ops.run with user a struct pan_sim_tex_env: the descriptors
 * the request names, sampled. */
bool PAN_GENX(sim_tex_run)(void *user, struct pan_sim_tex_req *req, char *err);

#endif
