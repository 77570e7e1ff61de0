/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Gallium formats to the hardware's, for one PAN_ARCH (pan_vX_format.c);
 * used by the texture and attribute descriptors.
 */

#ifndef PAN_VX_FORMAT_H
#define PAN_VX_FORMAT_H

#include "pipe/p_format.h"

#include "pan_genxml.h"

/* The hardware format of a Gallium format read in memory order, and the
 * swizzle (PIPE_SWIZZLE_*) from its channels to RGBA; 0 when the hardware
 * has none.
 */
unsigned PAN_GENX(panfrost_format)(enum pipe_format format,
                                   unsigned char swizzle[4]);

#endif
