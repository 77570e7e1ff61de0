/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#ifndef PAN_FENCE_H
#define PAN_FENCE_H

#include "pipe/p_state.h"
#include "util/u_inlines.h"

/* A fence is a DRM syncobj that the kernel signals when the submit it was
 * attached to completes. */
struct pipe_fence_handle {
   struct pipe_reference reference;
   uint32_t syncobj;
};

/* Takes ownership of syncobj: it is destroyed with the fence, or at once
 * when no fence could be allocated (NULL). */
struct pipe_fence_handle *panfrost_fence_create(struct pipe_screen *pscreen,
                                                uint32_t syncobj);

#endif
