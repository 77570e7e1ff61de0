/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* pan-demo's compute pass (GLES 3.1): a compute shader writes the checker
 * texture the draws sample, the same texels pan_demo_scene.c makes on the
 * CPU when the context has no compute. */

#ifndef PAN_DEMO_COMPUTE_H
#define PAN_DEMO_COMPUTE_H

#include <stdbool.h>
#include <GLES3/gl31.h>

/* Makes a size x size RGBA8 texture with all its mip levels, level 0
 * written by a compute dispatch and the others by glGenerateMipmap.
 * Returns the texture, or 0 (after saying why on stderr) when GL refused
 * something; the caller then makes the texture on the CPU. */
GLuint demo_compute_checker(unsigned size, unsigned *groups);

#endif
