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

#if PAN_ARCH >= 9
/* The texture environment of a v9 resource table pointer: 64-byte
 * aligned, the number of tables in its low bits. */
static inline struct pan_sim_tex_env
PAN_GENX(sim_tex_env_resources)(const struct pan_sim_space *space,
                                uint64_t resources)
{
   return (struct pan_sim_tex_env){
      .space = space,
      .resources = resources & ~63ull,
      .resource_count = (unsigned)(resources & 63),
   };
}
#endif

/* size bytes of a descriptor at va; NULL with err set when outside the
 * space. */
const void *PAN_GENX(sim_tex_read)(const struct pan_sim_space *space,
                                   uint64_t va, unsigned size, const char *what,
                                   char *err);

/* A pixel_format word and a swizzle word -> texel format; false with err
 * set when the format is not decoded. */
bool PAN_GENX(sim_tex_format)(uint32_t format_word, uint32_t swizzle_word,
                              struct pan_sim_texel_format *f, char *err);

/* The texture descriptor `handle` names (v9: index in bits 0..10, resource
 * table above; earlier: index into the texture table) unpacked, cached in
 * env; NULL with err set. */
const struct pan_sim_texture *
   PAN_GENX(sim_tex_texture)(struct pan_sim_tex_env *env, uint32_t handle,
                             char *err);

#endif
