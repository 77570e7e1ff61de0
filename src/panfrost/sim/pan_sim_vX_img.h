/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The image callbacks of one architecture's executors
 * (pan_sim_vX_img.c, compiled once per PAN_ARCH, v6 and later). */

#ifndef PAN_SIM_VX_IMG_H
#define PAN_SIM_VX_IMG_H

#include "pan_genxml_arch.h"
#include "pan_sim_img.h"
#include "pan_sim_texture.h"

/* Where a job's images are: up to v7 the job's attribute table (records
 * and their buffers), on v9 texture descriptors of the resource tables
 * (tex.resources). */
struct pan_sim_image_env {
   struct pan_sim_tex_env tex;
   uint64_t attributes, attribute_buffers; /* v6/v7 */
   struct pan_sim_texture img;             /* v6/v7: the last image built */
};

/* Callbacks reading env's descriptors; env must outlive their use. */
void PAN_GENX(sim_image_ops)(struct pan_sim_image_env *env,
                             struct pan_sim_image_ops *ops);

#endif
