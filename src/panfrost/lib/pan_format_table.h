/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Which formats each Mali architecture can sample, render to and fetch as
 * vertex attributes, as far as the driver implements them. The hardware
 * encodings of the formats come from the generated descriptors; this table
 * only answers "is it usable for X". */

#ifndef PAN_FORMAT_TABLE_H
#define PAN_FORMAT_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "pipe/p_format.h"

enum pan_format_use {
   PAN_USE_TEXTURE = 1 << 0, /* sampled, filtered where the type allows */
   PAN_USE_RENDER = 1 << 1,  /* colour render target, blendable */
   PAN_USE_DEPTH = 1 << 2,   /* depth and/or stencil attachment */
   PAN_USE_VERTEX = 1 << 3,  /* vertex attribute fetch */
};

struct pan_format_support {
   enum pipe_format format;
   uint8_t uses;     /* enum pan_format_use */
   uint8_t min_arch; /* first architecture version that has it */
};

/* The entry for a format, or NULL when no architecture supports it. */
const struct pan_format_support *pan_format_support(enum pipe_format format);

/* True when every use in `uses` is available for `format` on `arch`. */
bool pan_format_supports(unsigned arch, enum pipe_format format,
                         unsigned uses);

#endif
